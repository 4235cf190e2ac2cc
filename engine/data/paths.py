"""Where the bundled data lives, in an installed wheel or in a checkout."""

from __future__ import annotations

from pathlib import Path

__all__ = ["COURSES_DIR", "RULESETS_DIR", "SCHEMAS_DIR", "data_dir"]

_ROOT = Path(__file__).resolve().parent.parent.parent


def data_dir(name: str) -> Path:
    """The folder holding the data package ``name`` (rulesets, courses, schemas).

    This file is ``engine/data/paths.py``: two folders above ``engine/`` is the package
    ``avecaesar/`` in an installed wheel (which ships ``avecaesar/<name>/``) and the
    repository's top level in a checkout (editable install, tests) — the same place.
    """
    return _ROOT / name


RULESETS_DIR = data_dir("rulesets")
COURSES_DIR = data_dir("courses")
SCHEMAS_DIR = data_dir("schemas")
