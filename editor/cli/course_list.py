"""``avecaesar course list``'s rows and text, without typer: the command and the CLI's light
path (editor/main.py) both print them. Each course file's rows are cached under the digests
of the bytes parsed to compute them, the file and its includes (editor/cli/result_cache.py);
the course library is loaded only for a file whose rows are not cached."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeGuard

from avecaesar.editor.cli import result_cache

__all__ = ["course_rows", "course_table"]

ROW_KEYS = ("id", "name", "edition", "direction", "players", "lap", "shortest_race",
            "reserve", "reconstructed", "valid")


def _compute(cid: str, path: Path) -> list[dict[str, Any]]:
    """The rows of one course file (84-point deck, shared rule values)."""
    from avecaesar.engine.course.load import load_courses

    rows: list[dict[str, Any]] = []
    for c in load_courses(path, cid):
        figs = c.figures() if not c.errors else None
        m = c.model
        rows.append({
            "id": c.id, "name": c.name, "edition": m.edition, "direction": c.direction,
            "players": list(m.players) if m.players else None,
            "lap": figs.lap if figs else None,
            "shortest_race": figs.shortest_race if figs else None,
            "reserve": figs.reserve if figs else None,
            "reconstructed": m.reconstructed, "valid": not c.errors,
        })
    return rows


def _usable(value: object) -> TypeGuard[list[dict[str, Any]]]:
    return (isinstance(value, list) and bool(value)
            and all(isinstance(r, dict) and tuple(r) == ROW_KEYS for r in value))


def course_rows() -> list[dict[str, Any]]:
    """The bundled courses (both directions) with their figures, as ``course list --json``
    prints them."""
    from avecaesar.engine.course.bundled import bundled_courses
    from avecaesar.engine.data.safeio import allowed_roots, reading, real_path

    rows: list[dict[str, Any]] = []
    for cid, path in bundled_courses().items():
        real = real_path(path)
        key = [str(real), cid, *map(str, allowed_roots(real.parent))]
        cached = result_cache.lookup("course-list", key)
        if _usable(cached):
            rows += cached
            continue
        with reading() as log:  # the rows are stored under what was parsed for them
            found = _compute(cid, path)
        result_cache.store("course-list", key, log, found)
        rows += found
    return rows


def _range(values: list[int | None] | None) -> str:
    if not values:
        return "—"
    nums = [v for v in values if v is not None]
    if not nums:
        return "—"
    lo, hi = min(nums), max(nums)
    if lo == hi:
        return str(lo)
    return f"{lo} to {hi}" if lo < 0 else f"{lo}–{hi}"


def course_table(rows: list[dict[str, Any]]) -> list[str]:
    """The text of ``course list``: a header and one line per course and direction."""
    lines = [f"{'id':44} {'edition':18} {'players':7} {'lap':>3}  {'shortest':12} "
             f"{'reserve':10} recon."]
    for r in rows:
        pl = "–".join(str(p) for p in r["players"]) if r["players"] else "?"
        sr = _range(r["shortest_race"])
        rs = _range(r["reserve"])
        lines.append(f"{r['id']:44} {r['edition']:18} {pl:7} {r['lap'] or '—':>3}  {sr:12} "
                     f"{rs:10} {'yes' if r['reconstructed'] else 'no'}")
    return lines
