"""The bundled course files by id and a course reference resolved to its file — no YAML,
no graph: the CLI's light paths (editor/main.py) use them without loading the course library."""

from __future__ import annotations

from pathlib import Path

from avecaesar.engine.data.paths import COURSES_DIR

__all__ = ["CCW", "bundled_course_ids", "bundled_courses", "bundled_pieces", "edition_courses",
           "resolve"]

CCW = "-ccw"


def bundled_courses() -> dict[str, Path]:
    """Bundled course files by id (``edition/name``), module files and the briefs the
    generated courses were made to (``courses/briefs/``, docs/generate.md) left out."""
    found: dict[str, Path] = {}
    for path in sorted(COURSES_DIR.rglob("*.yaml")):
        rel = path.relative_to(COURSES_DIR)
        if rel.parts[0] in ("pieces", "briefs"):
            continue
        found[rel.with_suffix("").as_posix()] = path
    return found


def bundled_pieces() -> dict[str, Path]:
    """Bundled module files (``include: {id: …}``) by id: their path under
    ``courses/pieces/`` without ``.yaml`` (``<edition>/<name>``)."""
    root = COURSES_DIR / "pieces"
    return {path.relative_to(root).with_suffix("").as_posix(): path
            for path in sorted(root.rglob("*.yaml"))}


def edition_courses(edition: str) -> list[str]:
    """The bundled courses of ``edition`` by id, clockwise: those a tournament's course
    draw may take."""
    return sorted(c for c in bundled_courses() if c.startswith(edition + "/"))


def bundled_course_ids() -> list[str]:
    """Every bundled course id, with ``-ccw`` for the anticlockwise directions."""
    return _bundled_ids()


def _bundled_ids() -> list[str]:
    ids = []
    for cid, path in bundled_courses().items():
        ids.append(cid)
        if "anticlockwise:" in path.read_text(encoding="utf-8"):
            ids.append(cid + CCW)
    return ids


def resolve(ref: str) -> tuple[Path, str | None, str | None]:
    """(file, course id, wanted direction) for a path or a bundled id."""
    p = Path(ref)
    if p.suffix in (".yaml", ".yml") or p.exists():
        return p, None, None
    bundled = bundled_courses()
    key = ref.lower().strip()
    if key in bundled:
        return bundled[key], key, "clockwise"
    if key.endswith(CCW) and key[: -len(CCW)] in bundled:
        base = key[: -len(CCW)]
        return bundled[base], base, "anticlockwise"
    from avecaesar.engine.data.errors import UnknownNameError  # the light paths: lazily

    raise UnknownNameError("course", ref, _bundled_ids())
