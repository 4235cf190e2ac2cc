"""``course new --from COURSE FILE``: an editable copy of a course, that validates where it
is written. Only what must change to work there changes, at the exact characters the YAML
parser located it (every comment and every other byte stay): the schema line points at the
installed schema, an include by path is made relative to the new place, and the course's
``name:`` (and a declared ``id:``) take the new name when one is given. Bundled piece files
are included by id, so a bundled course's copy needs no path at all."""

from __future__ import annotations

import os
import re
from pathlib import Path

import yaml

from avecaesar.engine.course.bundled import resolve
from avecaesar.engine.data.limits import MAX_DATA_BYTES
from avecaesar.engine.data.safeio import read_text

__all__ = ["course_copy"]

_SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=\S+", re.M)


def course_copy(ref: str, target: Path, schema_uri: str, name: str | None
                ) -> tuple[str, str]:
    """(text of the copy, what it copies) of course ``ref`` to be written at ``target``."""
    path, cid, _direction = resolve(ref)
    text = read_text(path, MAX_DATA_BYTES, "course file")
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    edits: list[tuple[int, int, str]] = []  # (start, end, new text), by character index
    if isinstance(root, yaml.MappingNode):
        for key, value in root.value:
            if key.value == "track" and isinstance(value, yaml.SequenceNode):
                edits += _include_paths(value, path.parent, target.parent)
            if name is not None and key.value in ("name", "id") and \
                    isinstance(value, yaml.ScalarNode):
                new = name if key.value == "name" else target.stem
                edits.append((value.start_mark.index, value.end_mark.index,
                              _quoted(new)))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    if _SCHEMA_LINE.search(text):
        text = _SCHEMA_LINE.sub(f"# yaml-language-server: $schema={schema_uri}", text,
                                count=1)
    else:
        text = f"# yaml-language-server: $schema={schema_uri}\n" + text
    what = cid or str(path)
    return text, f"{what} (both directions)" if "anticlockwise:" in text else what


def _include_paths(track: yaml.SequenceNode, old: Path, new: Path
                   ) -> list[tuple[int, int, str]]:
    """The ``include: {file: …}`` values of ``track``, made relative to the folder ``new``."""
    out = []
    for entry in track.value:
        if not isinstance(entry, yaml.MappingNode):
            continue
        for key, spec in entry.value:
            if key.value != "include" or not isinstance(spec, yaml.MappingNode):
                continue
            for k, v in spec.value:
                if k.value == "file" and isinstance(v, yaml.ScalarNode):
                    moved = os.path.relpath(os.path.realpath(old / v.value), os.path.realpath(new))
                    out.append((v.start_mark.index, v.end_mark.index,
                                _quoted(Path(moved).as_posix())))
    return out


def _quoted(value: str) -> str:
    """``value`` as a YAML scalar: plain when it reads back as the same string."""
    dumped = yaml.safe_dump(value, default_flow_style=True, width=10**6).strip()
    return dumped.removesuffix("\n...").removesuffix("...").strip()
