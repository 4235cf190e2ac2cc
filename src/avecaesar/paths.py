"""Where the bundled data lives, in an installed wheel or in a checkout."""

from __future__ import annotations

from pathlib import Path

__all__ = ["COURSES_DIR", "RULESETS_DIR", "SCHEMAS_DIR", "data_dir"]

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The folder holding the data package ``name`` (rulesets, courses, schemas).

    A wheel ships it as ``avecaesar/<name>/``; a checkout (editable install, tests)
    keeps it at the repository's top level, two folders above this file.
    """
    installed = _PACKAGE / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent.parent / name


RULESETS_DIR = data_dir("rulesets")
COURSES_DIR = data_dir("courses")
SCHEMAS_DIR = data_dir("schemas")
