"""Reading and writing the user's files safely.

Reading: only regular files (no folders, devices or FIFOs, which would hang or never end),
at most a given size, UTF-8 text; a file named *by another file* (a course's ``include:``, a
record's course) must lie in an allowed folder. Errors never quote a file's content.

Writing: :func:`check_output` before any work (the folder exists, the path is not a folder),
then :func:`write_atomic` (a temporary file in the same folder, renamed over the target), so
a crash or Ctrl-C never leaves half a file. Every output of every command goes through
:func:`write_atomic`.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from avecaesar.engine.data.paths import COURSES_DIR, RULESETS_DIR

if TYPE_CHECKING:
    from avecaesar.engine.data.errors import FileAccessError

# errors and tempfile are imported by the functions that need them: the CLI's light paths
# (editor/main.py) ask allowed_roots() without paying for them (docs/performance.md)

__all__ = [
    "allow_paths",
    "allowed_roots",
    "check_inside",
    "check_output",
    "read_text",
    "write_atomic",
]

_ALLOWED: list[Path] = []


def allow_paths(folders: Iterable[str | Path]) -> None:
    """Let files name files under ``folders`` (``--allow-path DIR``), replacing any given
    before."""
    from avecaesar.engine.data.errors import UsageError

    found = []
    for folder in folders:
        p = Path(folder).expanduser()
        if not p.is_dir():
            raise UsageError(f"--allow-path {folder}: no such folder")
        found.append(p.resolve())
    _ALLOWED[:] = found


def allowed_roots(*extra: Path) -> list[Path]:
    """The folders a file may reach from another file: the bundled data, the folders given
    with ``--allow-path`` or ``AVECAESAR_ALLOW_PATH`` (separated by ``os.pathsep``), and
    ``extra``."""
    env = [Path(p).resolve() for p in os.environ.get("AVECAESAR_ALLOW_PATH", "").split(
        os.pathsep) if p]
    return [COURSES_DIR.resolve(), RULESETS_DIR.resolve(), *_ALLOWED, *env,
            *(e.resolve() for e in extra)]


def check_inside(target: Path, roots: Iterable[Path]) -> bool:
    """Whether ``target`` (resolved, symlinks followed) lies under one of ``roots``."""
    t = target.resolve()
    return any(t == r or t.is_relative_to(r) for r in roots)


def read_text(path: str | Path, limit: int, what: str = "file",
              file: str | None = None) -> str:
    """The text of a regular file of at most ``limit`` bytes.

    A missing file, a folder, a device or FIFO, a file over the limit or one that is not
    UTF-8 is a :class:`FileAccessError` naming ``file`` (default: the path) and what to do;
    the message never quotes the file's content."""
    from avecaesar.engine.data.errors import FileAccessError, Problem

    name = file if file is not None else str(path)
    p = Path(path)

    def refuse(message: str) -> FileAccessError:
        return FileAccessError([Problem(name, 1, 1, message)])

    try:
        st = p.stat()
    except FileNotFoundError:
        raise refuse("no such file — check the path") from None
    except OSError as err:
        raise refuse(f"cannot read the {what}: {err.strerror}") from None
    if stat.S_ISDIR(st.st_mode):
        raise refuse(f"this is a folder, not a {what} — name a file in it")
    if not stat.S_ISREG(st.st_mode):
        raise refuse(f"not a regular file (a device, FIFO or socket) — name a {what}")
    if st.st_size > limit:
        raise refuse(f"the {what} is {st.st_size:,} bytes; the limit is {limit:,} bytes")
    try:
        with open(p, "rb") as f:
            data = f.read(limit + 1)
    except OSError as err:
        raise refuse(f"cannot read the {what}: {err.strerror}") from None
    if len(data) > limit:
        raise refuse(f"the {what} is over the limit of {limit:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise FileAccessError([Problem(
            name, line, col, f"not UTF-8 text (byte {err.start}) — is this a {what}? Save it "
            "as UTF-8")]) from None


def check_output(path: Path | None, option: str = "output") -> None:
    """Refuse, before any work, an output path whose folder does not exist or that is a
    folder (a :class:`UsageError`, exit 2). ``-`` (stdout) and ``None`` pass."""
    from avecaesar.engine.data.errors import UsageError

    if path is None or str(path) == "-":
        return
    if path.is_dir():
        raise UsageError(f"{option} {path}: this is a folder — name a file in it")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: the folder {folder} does not exist — create it "
                         "first or choose another path")
    if path.exists() and not path.is_file():
        raise UsageError(f"{option} {path}: not a regular file — name a file")
    if not os.access(folder, os.W_OK):
        raise UsageError(f"{option} {path}: the folder {folder} is not writable")


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` all at once: into a temporary file in the same folder, then
    renamed over ``path``. A crash leaves the old file (or none), never half a file.

    An unwritable path is a :class:`UsageError` (the folder must exist, see
    :func:`check_output`)."""
    import tempfile

    from avecaesar.engine.data.errors import UsageError

    target = Path(path)
    check_output(target)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise UsageError(f"cannot write {target}: {err.strerror}") from None
    renamed = False
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
        renamed = True
    except OSError as err:
        raise UsageError(f"cannot write {target}: {err.strerror}") from None
    finally:  # an error or Ctrl-C mid-write leaves no temporary file behind
        if not renamed:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
