"""A cache of computed results keyed by what the computation read, so a command run again on
unchanged files answers without loading the course library (docs/performance.md).

The rule (issue 26), for every cache the project keeps: a result is stored under the hash
of the bytes that were actually parsed to compute it — never under a hash taken by reading
the files again afterwards, when they may have changed. The computation runs inside
``safeio.reading()``, which logs every file ``safeio.read_bytes`` opens with the digest of
the bytes it returned; :func:`store` keeps the value under a name made of the kind of
result, the code version, the caller's key and those digests.

Two files per entry under ``$XDG_CACHE_HOME/avecaesar`` (``~/.cache/avecaesar``):

- the *manifest*, named by the kind, code version and caller's key (the course file's path,
  the options, the allowed folders, …): only the list of files the last computation read —
  a hint of which files to hash, never an answer;
- the *value*, named by the kind, code version, caller's key and every (file, digest) pair
  the computation logged.

:func:`lookup` hashes the manifest's files as they are now and opens the value of exactly
that content; a file changed since, one read half-written, or a manifest from another
computation can only miss. The code version is taken before the computation and again
before storing; if the code changed in between, nothing is stored.

The cache never breaks a command: an unreadable, corrupt or stale entry is a miss, a cache
folder that cannot be written is skipped, and ``AVECAESAR_NO_CACHE=1`` turns it off.
No heavy imports: hashlib, json, os.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from avecaesar.engine.data.safeio import ReadLog

__all__ = ["cache_dir", "code_version", "lookup", "store"]

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


def _code_now() -> str:
    """The code version read again from the files (not the one kept for the process)."""
    kept = list(_CODE)
    _CODE.clear()
    try:
        return code_version()
    finally:
        _CODE[:] = kept


def _name(kind: str, parts: list[str]) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    h = hashlib.sha256(json.dumps([kind, code_version(), *parts]).encode()).hexdigest()
    return folder / kind / f"{h[:40]}.json"


def _value_name(kind: str, key: list[str], reads: dict[str, str]) -> Path | None:
    return _name(kind, [*key, "\0reads", *(f"{f}\0{d}" for f, d in sorted(reads.items()))])


def lookup(kind: str, key: list[str]) -> Any | None:
    """The value computed from the files' present content, if one was stored; else None
    (also for a missing, unreadable or corrupt entry)."""
    from avecaesar.engine.data.safeio import current_digest

    try:
        manifest = _name(kind, key)
        if manifest is None:
            return None
        files = json.loads(manifest.read_text(encoding="utf-8"))["inputs"]
        if not isinstance(files, list) or not files or not all(
                isinstance(f, str) for f in files):
            return None
        value = _value_name(kind, key, {f: current_digest(f) for f in files})
        if value is None:
            return None
        return json.loads(value.read_text(encoding="utf-8"))["value"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def store(kind: str, key: list[str], log: ReadLog, value: Any) -> None:
    """Keep ``value`` under the digests of what computing it read (``log``, from
    ``safeio.reading()``). Nothing is kept when the computation read nothing, read one file
    twice with two contents, or ran while the code changed; a folder that cannot be
    written is skipped without a word."""
    try:
        if (log.torn or not log.files or _code_now() != code_version()
                or any(d.startswith("refused:") for d in log.files.values())):
            return  # (a refused read never equals a later digest: the value could not hit)
        reads = dict(log.files)
        manifest, path = _name(kind, key), _value_name(kind, key, reads)
        if manifest is None or path is None:
            return
        _write(path, json.dumps({"value": value}, ensure_ascii=False))
        _write(manifest, json.dumps({"inputs": sorted(reads)}, ensure_ascii=False))
    except (OSError, TypeError, ValueError):
        return


def _write(path: Path, text: str) -> None:
    """A cache file written whole: a unique temporary file beside it, renamed over it."""
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
