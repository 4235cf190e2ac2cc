"""A cache of computed results keyed by the content of every input, so a command run again
on unchanged files answers without loading the course library (docs/performance.md).

An entry is one JSON file under ``$XDG_CACHE_HOME/avecaesar`` (``~/.cache/avecaesar``):
its name is a hash of the kind of result, the code version (a hash of the package's
version, every engine and editor module and every schema) and the caller's key (the input
file's path, the options, the allowed folders, …); inside, the content hash of every input
file (the course file and each module file its includes named) and the value. An entry is
used only when every input file still has the recorded content.

The cache never breaks a command: an unreadable, corrupt or stale entry is a miss, a cache
folder that cannot be written is skipped, and ``AVECAESAR_NO_CACHE=1`` turns it off.
No heavy imports: hashlib, json, os.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["cache_dir", "code_version", "file_digest", "lookup", "store"]

# editor/ (avecaesar/editor in a wheel): this file is editor/cli/result_cache.py
_HERE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
_CODE: list[str] = []


def cache_dir() -> Path | None:
    """The cache folder, or None when ``AVECAESAR_NO_CACHE`` is set."""
    if os.environ.get("AVECAESAR_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"  # XDG: absolute only
    return root / "avecaesar"


def code_version() -> str:
    """A hash of the package version and the source of every module and schema that a
    cached result may depend on: any edit to the code is a new version."""
    if not _CODE:
        from avecaesar import __version__

        top = os.path.dirname(_HERE)
        h = hashlib.sha256(__version__.encode())
        for sub, ext in (("engine", ".py"), ("editor", ".py"), ("schemas", ".json")):
            for dirpath, dirnames, names in os.walk(os.path.join(top, sub)):
                dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
                for n in sorted(names):
                    if n.endswith(ext):
                        f = os.path.join(dirpath, n)
                        h.update(os.path.relpath(f, top).encode() + b"\0")
                        with open(f, "rb") as src:
                            h.update(src.read())
        _CODE.append(h.hexdigest())
    return _CODE[0]


_MAX_INPUT = 32 * 1024 * 1024  # bytes: a course or module is refused long before this


def file_digest(path: str | Path) -> str:
    """The content hash of a regular file; ``missing`` when there is none to read (a FIFO,
    a device or a folder is never opened: reading it could block or never end)."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > _MAX_INPUT:
            return "missing"
        with open(path, "rb") as f:
            return hashlib.sha256(f.read(_MAX_INPUT + 1)).hexdigest()
    except OSError:
        return "missing"


def _entry_path(kind: str, key: list[str]) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    h = hashlib.sha256(json.dumps([kind, code_version(), *key]).encode()).hexdigest()
    return folder / kind / f"{h[:40]}.json"


def lookup(kind: str, key: list[str]) -> Any | None:
    """The value stored for ``key`` if every input file it recorded is unchanged; else
    None (also for a missing, unreadable or corrupt entry)."""
    try:
        path = _entry_path(kind, key)
        if path is None:
            return None
        entry = json.loads(path.read_text(encoding="utf-8"))
        deps = entry["inputs"]
        if not isinstance(deps, dict) or not deps:
            return None
        if any(file_digest(f) != d for f, d in deps.items()):
            return None
        return entry["value"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def store(kind: str, key: list[str], inputs: Sequence[str | Path], value: Any) -> None:
    """Keep ``value`` for ``key`` with the content hashes of ``inputs`` (read now); a
    folder that cannot be written is skipped without a word."""
    try:
        path = _entry_path(kind, key)
        if path is None:
            return
        deps = {str(f): file_digest(f) for f in inputs}
        text = json.dumps({"inputs": deps, "value": value}, ensure_ascii=False)
        path.parent.mkdir(parents=True, exist_ok=True)
        import tempfile

        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except (OSError, TypeError, ValueError):
        return
