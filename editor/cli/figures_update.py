"""``course validate --update-figures``: rewrite a course file's declared figures in place
(the text itself: engine/course/figures_text.py, which the studio uses too), show the change
and write the file."""

from __future__ import annotations

import difflib
from pathlib import Path

from avecaesar.engine.course.figures_text import FIGURE_KEYS, rewrite_figures, rewrite_value
from avecaesar.engine.data.safeio import write_atomic

__all__ = ["FIGURE_KEYS", "rewrite_figures", "rewrite_value", "unified_diff", "write_text"]


def unified_diff(old: str, new: str, name: str) -> list[str]:
    """The change as a unified diff, for the terminal."""
    return [line.rstrip("\n") for line in difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{name}",
        f"b/{name}", n=1)]


def write_text(path: Path | str, text: str) -> None:
    """Write a file the command produces, atomically (temp file + rename)."""
    write_atomic(path, text)

