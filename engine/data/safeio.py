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
import errno
import hashlib
import os
import stat
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING

from avecaesar.engine.data.paths import COURSES_DIR, RULESETS_DIR

if TYPE_CHECKING:
    from avecaesar.engine.data.errors import FileAccessError

# errors and tempfile are imported by the functions that need them: the CLI's light paths
# (editor/main.py) ask allowed_roots() without paying for them (docs/performance.md)

__all__ = [
    "ReadLog",
    "allow_paths",
    "allowed_roots",
    "check_inside",
    "check_output",
    "content_digest",
    "current_digest",
    "is_loop",
    "mtime",
    "read_bytes",
    "read_head",
    "read_text",
    "reading",
    "real_path",
    "write_atomic",
]

#: the most a digest for a cache reads of one file (every input is refused long before this)
MAX_DIGEST_BYTES = 32 * 1024 * 1024

_ALLOWED: list[Path] = []


def allow_paths(folders: Iterable[str | Path]) -> None:
    """Let files name files under ``folders`` (``--allow-path DIR``), replacing any given
    before."""
    from avecaesar.engine.data.errors import UsageError

    found = []
    for folder in folders:
        p = Path(folder).expanduser()
        if is_loop(p):
            raise UsageError(f"--allow-path {folder}: {_LOOP.replace('a file', 'a folder')}")
        if not p.is_dir():
            raise UsageError(f"--allow-path {folder}: no such folder")
        found.append(Path(os.path.realpath(p)))
    _ALLOWED[:] = found


def allowed_roots(*extra: Path) -> list[Path]:
    """The folders a file may reach from another file: the bundled data, the folders given
    with ``--allow-path`` or ``AVECAESAR_ALLOW_PATH`` (separated by ``os.pathsep``), and
    ``extra``."""
    env = []
    for p in os.environ.get("AVECAESAR_ALLOW_PATH", "").split(os.pathsep):
        if p and is_loop(Path(p)):
            from avecaesar.engine.data.errors import UsageError

            raise UsageError(f"AVECAESAR_ALLOW_PATH names {p}: "
                             f"{_LOOP.replace('a file', 'a folder')}, or leave it out")
        if p:
            env.append(Path(os.path.realpath(p)))
    return [Path(os.path.realpath(d)) for d in (COURSES_DIR, RULESETS_DIR)] + [
        *_ALLOWED, *env, *(Path(os.path.realpath(e)) for e in extra)]


def is_loop(path: str | Path) -> bool:
    """Whether ``path`` is a symbolic link that loops."""
    try:
        os.stat(path)
    except OSError as err:
        return err.errno == errno.ELOOP
    return False


def check_inside(target: Path, roots: Iterable[Path]) -> bool:
    """Whether ``target`` (resolved, symlinks followed) lies under one of ``roots``."""
    t = Path(os.path.realpath(target))  # a link that loops: its reading says so
    return any(t == r or t.is_relative_to(r) for r in roots)


class ReadLog:
    """The files one computation read (issue 26): each file's path, as it was named and made
    absolute, with :func:`content_digest` of the bytes parsed — or ``missing`` (there was no
    file) or ``refused:…`` (the reading was refused; it never equals a digest taken later,
    so an answer that depends on a refused read is never reused). ``torn``: a file was read
    twice with two contents, so the computation saw no single state of the files."""

    def __init__(self) -> None:
        self.files: dict[str, str] = {}
        self.torn = False

    def add(self, path: str, digest: str) -> None:
        if self.files.setdefault(path, digest) != digest:
            self.torn = True


_LOGS: ContextVar[tuple[ReadLog, ...]] = ContextVar("avecaesar_read_logs", default=())


@contextlib.contextmanager
def reading() -> Iterator[ReadLog]:
    """Log every file :func:`read_bytes` reads in this block — in this context: an asyncio
    task started in it inherits the log, another thread (with a context of its own) does
    not write to it."""
    log = ReadLog()
    token = _LOGS.set((*_LOGS.get(), log))
    try:
        yield log
    finally:
        _LOGS.reset(token)


def _note(path: str | Path, digest: str) -> None:
    logs = _LOGS.get()
    if logs:
        name = os.path.abspath(os.fspath(path))
        for log in logs:
            log.add(name, digest)


def content_digest(path: str | Path, data: bytes) -> str:
    """The hash a cache keys a file by: the bytes read and where they were read from (the
    path with every link followed, so a link pointed elsewhere is another input)."""
    h = hashlib.sha256(os.path.realpath(os.fspath(path)).encode("utf-8", "surrogateescape"))
    h.update(b"\0")
    h.update(data)
    return h.hexdigest()


def current_digest(path: str | Path, limit: int = MAX_DIGEST_BYTES) -> str:
    """What :func:`read_bytes` would log for ``path`` now: its :func:`content_digest`,
    ``missing``, or ``unreadable`` (which no logged read equals)."""
    try:
        return content_digest(path, _open_and_read(Path(path), limit)[1])
    except FileNotFoundError:
        return "missing"
    except (OSError, _Refused):
        return "unreadable"


class _Refused(Exception):
    """A file that is there but may not be read (a folder, a device, too large)."""


def real_path(path: str | Path, file: str | None = None) -> Path:
    """``path`` with every link followed and made absolute; a symbolic link that loops is a
    located :class:`FileAccessError` (``Path.resolve`` raises ``RuntimeError`` there)."""
    found = os.path.realpath(os.fspath(path))
    try:
        os.stat(found)
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise _refusal(file if file is not None else str(path), _LOOP) from None
    return Path(found)


_LOOP = ("a symbolic link that loops (it points, through other links, back to itself) — "
         "point it at a file")


def _refusal(name: str, message: str) -> FileAccessError:
    from avecaesar.engine.data.errors import FileAccessError, Problem

    return FileAccessError([Problem(name, 1, 1, message)])


def _open_and_read(p: Path, limit: int, what: str = "file", head: bool = False
                   ) -> tuple[os.stat_result, bytes]:
    """The one place a user's file is opened: refuse anything but a regular file of at most
    ``limit`` bytes before reading it (``head``: any size, only its first ``limit`` bytes
    read). The file is opened without blocking (a FIFO put in its place after the first
    look cannot hang the read) and looked at again once open."""
    most = None if head else limit
    st = os.stat(p)  # FileNotFoundError, ELOOP, EACCES… for the caller
    _check_kind(st, most, what)
    fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        _check_kind(st, most, what)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if head:
        return st, data[:limit]
    if len(data) > limit:
        raise _Refused(f"the {what} is over the limit of {limit:,} bytes")
    return st, data


def read_head(path: str | Path, size: int) -> bytes | None:
    """The first ``size`` bytes of a regular file, opened as :func:`read_bytes` opens files;
    None for anything else (missing, a folder, a FIFO, a link that loops, unreadable) — for
    a look at many files (a folder's records) where one bad file must not stop the rest."""
    try:
        return _open_and_read(Path(path), size, head=True)[1]
    except (OSError, _Refused):
        return None


def mtime(path: str | Path) -> float:
    """When ``path`` was last changed (0 when it cannot be looked at: a link that loops)."""
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


def _check_kind(st: os.stat_result, limit: int | None, what: str) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise _Refused(f"this is a folder, not a {what} — name a file in it")
    if not stat.S_ISREG(st.st_mode):
        raise _Refused(f"not a regular file (a device, FIFO or socket) — name a {what}")
    if limit is not None and st.st_size > limit:
        raise _Refused(f"the {what} is {st.st_size:,} bytes; the limit is {limit:,} bytes")


def read_bytes(path: str | Path, limit: int, what: str = "file",
               file: str | None = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, logged for :func:`reading`.

    A missing file, a symbolic link that loops, a folder, a device or FIFO, or a file over
    the limit is a :class:`FileAccessError` naming ``file`` (default: the path) and what to
    do; the message never quotes the file's content. Every reader of a user's file comes
    here (courses, includes, rulesets, variants, house files, records)."""
    name = file if file is not None else str(path)
    try:
        _st, data = _open_and_read(Path(path), limit, what)
    except FileNotFoundError:
        _note(path, "missing")
        raise _refusal(name, "no such file — check the path") from None
    except _Refused as err:
        _note(path, "refused:" + str(err))
        raise _refusal(name, str(err)) from None
    except OSError as err:
        _note(path, f"refused:{err.errno}")
        if err.errno == errno.ELOOP:
            raise _refusal(name, _LOOP) from None
        raise _refusal(name, f"cannot read the {what}: {err.strerror}") from None
    _note(path, content_digest(path, data))
    return data


def read_text(path: str | Path, limit: int, what: str = "file",
              file: str | None = None) -> str:
    """The text of a regular file of at most ``limit`` bytes (:func:`read_bytes`), which
    must be UTF-8 (else a :class:`FileAccessError` located at the first bad byte)."""
    from avecaesar.engine.data.errors import FileAccessError, Problem

    name = file if file is not None else str(path)
    data = read_bytes(path, limit, what, file)
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
