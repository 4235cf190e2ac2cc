"""Where the bundled data lives, in an installed wheel or in a checkout."""

from __future__ import annotations

from pathlib import Path

__all__ = ["COURSES_DIR", "RULESETS_DIR", "SCHEMAS_DIR", "VECTORS_DIR", "data_dir",
           "schema_modeline"]

_ROOT = Path(__file__).resolve().parent.parent.parent


def data_dir(name: str) -> Path:
    """The folder holding the data package ``name`` (rulesets, courses, schemas, vectors).

    This file is ``engine/data/paths.py``: two folders above ``engine/`` is the package
    ``avecaesar/`` in an installed wheel (which ships ``avecaesar/<name>/``) and the
    repository's top level in a checkout (editable install, tests) — the same place.
    """
    return _ROOT / name


RULESETS_DIR = data_dir("rulesets")
COURSES_DIR = data_dir("courses")
SCHEMAS_DIR = data_dir("schemas")
VECTORS_DIR = data_dir("vectors")  # the published rules test vectors (vectors/README.md)


def schema_modeline(target: Path, schema_file: str) -> str:
    """The editor modeline for a YAML file written at ``target``: ``# yaml-language-server:
    $schema=PATH`` with the bundled schema ``schema_file`` named relative to the file's
    folder (an editor with the YAML language server then completes and checks the file).

    Relative, so that it holds wherever the repository or the installed package and the
    file move together; never an absolute ``file:///`` URI. (On Windows a file on another
    drive than the package has no relative path: the schema's own path is written.)"""
    import os

    schema = SCHEMAS_DIR / schema_file
    try:
        ref = Path(os.path.relpath(schema, Path(target).resolve().parent)).as_posix()
    except ValueError:  # another drive
        ref = schema.as_posix()
    return f"# yaml-language-server: $schema={ref}"
