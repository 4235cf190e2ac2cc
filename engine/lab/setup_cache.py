"""The simulation's rules and compiled board, cached on disk by the content they are built
from, so that a ``simulate`` process starts warm: no YAML to parse, no schema to check, no
lane graph to build — and none of networkx, PyYAML or jsonschema to import.

An entry is one file under ``$XDG_CACHE_HOME/avecaesar/setup/`` named by a SHA-256 of:

- the code version: the package version and the source of every engine module and schema
  (any edit of the code is a new version);
- the content of every bundled ruleset file, and of each ruleset or variant file named by
  path (a bundled name stands for the bundled files' content);
- the ``--set`` values, the house rules and the course edits, as given;
- the content of the course file (a bundled id stands for its file's content).

Never a path or a modification time: the same content anywhere is the same entry. The
modules a course includes are named inside its file, so the entry records each one's path
*relative to the course file* with its content hash, and is used only when each still has
that content there.

The value is the pickled (rules, board), with the board's walk tables once a run has built
them (a process that raced in the parent stores them at the end), so the workers forked from
it start with them. Written atomically (a uniquely named temporary file in the same folder,
then renamed). The cache never breaks a run: an unreadable, corrupt or stale entry is a
miss, an unwritable folder is skipped, and ``AVECAESAR_NO_CACHE=1`` turns it off.
"""

from __future__ import annotations

import copyreg
import dataclasses
import hashlib
import json
import os
import pickle
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from avecaesar.engine.core.board import Board
    from avecaesar.engine.core.ruleset_adapter import RaceRules

#: a simulation spec's key (engine/lab/simulate.py): ruleset, variants, ``--set`` values,
#: course, house rules (JSON text), course edits
SpecKey = tuple[str, tuple[str, ...], tuple[tuple[str, str], ...], str, str, tuple[str, ...]]
#: the rules and board a spec races on
Built = tuple["RaceRules", "Board"]

__all__ = ["code_version", "load", "store"]

_ROOT = Path(__file__).resolve().parents[1]  # engine/ (avecaesar/engine in a wheel)
_CODE: list[str] = []
_MAX = 32 * 1024 * 1024


def _folder() -> Path | None:
    if os.environ.get("AVECAESAR_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "avecaesar" / "setup"


def _logged(path: Path) -> str:
    """The content hash of a file the setup is built from, read through
    :func:`~avecaesar.engine.data.safeio.read_bytes` so that the in-process memo of setups
    (engine/data/content_memo.py) knows it was read; ``missing`` when it cannot be."""
    from avecaesar.engine.data.errors import AveCaesarError
    from avecaesar.engine.data.safeio import read_bytes

    try:
        return hashlib.sha256(read_bytes(path, _MAX)).hexdigest()
    except (AveCaesarError, OSError):  # refused (a loop, a folder, too big) or unreadable
        return "missing"


def _digest(path: Path) -> str:
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > _MAX:
            return "missing"
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"


def _tree(h: hashlib._Hash, top: Path, suffixes: tuple[str, ...]) -> None:
    for dirpath, dirnames, names in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for n in sorted(names):
            if n.endswith(suffixes):
                f = Path(dirpath) / n
                h.update(f.relative_to(top).as_posix().encode() + b"\0")
                h.update(f.read_bytes())


def code_version() -> str:
    """A hash of the package version, every engine module and every schema."""
    if not _CODE:
        from avecaesar import __version__
        from avecaesar.engine.data.paths import RULESETS_DIR, SCHEMAS_DIR

        h = hashlib.sha256(__version__.encode())
        _tree(h, _ROOT, (".py",))
        _tree(h, SCHEMAS_DIR, (".json",))
        h.update(b"\0rulesets\0")
        _tree(h, RULESETS_DIR, (".yaml", ".yml"))
        _CODE.append(h.hexdigest())
    return _CODE[0]


def _named(name: str) -> str:
    """A ruleset, variant or house file by content; a bundled name as itself."""
    p = Path(name)
    if name.endswith((".yaml", ".yml")) or os.sep in name or "/" in name:
        return "file:" + _logged(p)
    return "name:" + name


def _course_file(ref: str) -> tuple[Path, str]:
    """The course's file and the direction the reference asks for."""
    from avecaesar.engine.course.bundled import resolve

    file, _cid, direction = resolve(ref)
    return file, direction or "as-file"


def _key(spec_key: SpecKey) -> tuple[str, Path] | None:
    ruleset, variants, settings, course, *rest = spec_key
    from avecaesar.engine.data.errors import AveCaesarError

    try:
        file, direction = _course_file(course)
    except (AveCaesarError, OSError):  # no such course: the run's own setup says so
        return None
    parts = [code_version(), _named(ruleset), *(_named(v) for v in variants),
             json.dumps(list(settings)), *(json.dumps(r, sort_keys=True) for r in rest),
             "course:" + _logged(file), direction]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest(), file


def _reduce_dataclass(obj: DataclassInstance
                      ) -> tuple[Callable[..., DataclassInstance], tuple[object, ...]]:
    """A dataclass as its constructor's arguments and its derived fields, but the tables
    it fills on first use (``metadata={"transient": True}``: the board's distance tables and
    the bots' tables, rebuilt by the process that loads it)."""
    fields = [f for f in dataclasses.fields(obj) if not f.metadata.get("transient")]
    kwargs = {f.name: getattr(obj, f.name) for f in fields if f.init}
    extra = {f.name: getattr(obj, f.name) for f in fields if not f.init}
    return (_rebuild, (type(obj), kwargs, extra))


def _rebuild(cls: Callable[..., DataclassInstance], kwargs: dict[str, object],
             extra: dict[str, object]) -> DataclassInstance:
    obj = cls(**kwargs)
    for k, v in extra.items():
        object.__setattr__(obj, k, v)
    return obj


def _register(obj: object, seen: set[type]) -> None:
    """Teach pickle the frozen dataclasses in ``obj`` (the compiled ones refuse its default
    way): each is rebuilt through its constructor."""
    stack = [obj]
    visited: set[int] = set()
    while stack:
        x = stack.pop()
        if id(x) in visited:
            continue
        visited.add(id(x))
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            t = type(x)
            if t not in seen:
                seen.add(t)
                copyreg.pickle(t, _reduce_dataclass)
            stack += [getattr(x, f.name) for f in dataclasses.fields(x)
                      if not f.name.startswith("_")]
        elif isinstance(x, (list, tuple, set, frozenset)):
            stack += list(x)[:64]
        elif isinstance(x, dict):
            stack += list(x.values())[:64]


_SEEN: set[type] = set()

#: what a missing, truncated, corrupt or stale entry raises on load: each is a miss (an
#: entry written by older code can name a class that moved or changed its fields)
_UNREADABLE = (OSError, EOFError, ValueError, KeyError, TypeError, AttributeError,
               ImportError, IndexError, pickle.UnpicklingError)
#: what an unwritable folder or a value that cannot be pickled raises on store: skipped
_UNWRITABLE = (OSError, TypeError, AttributeError, pickle.PicklingError)


def _board_state(board: Board) -> Board:
    """The board without its walk tables (rebuilt from the moves, which are kept)."""
    return dataclasses.replace(board, _paths=dict(board._paths), _moves=dict(board._moves),
                               _finish_steps=[], _tables={})


def load(spec_key: SpecKey) -> tuple[RaceRules, Board] | None:
    """The cached (rules, board) of a spec, or None."""
    try:
        folder = _folder()
        found = _key(spec_key) if folder is not None else None
        if folder is None or found is None:
            return None
        key, file = found
        path = folder / f"{key[:40]}.pickle"
        with open(path, "rb") as f:
            header = json.loads(f.readline())
            if any(_logged(file.parent / rel) != d for rel, d in header["includes"].items()):
                return None
            rules, board = pickle.loads(f.read())
        from avecaesar.engine.core.board import Board
        from avecaesar.engine.core.ruleset_adapter import RaceRules

        if not (isinstance(rules, RaceRules) and isinstance(board, Board)):
            return None  # an entry of something else: a miss
        return rules, board
    except _UNREADABLE:
        return None


def store(spec_key: SpecKey, rules: RaceRules, board: Board, includes: list[str]) -> None:
    """Keep (rules, board) for the spec; ``includes``: the module files the course named."""
    try:
        folder = _folder()
        found = _key(spec_key) if folder is not None else None
        if folder is None or found is None:
            return
        key, file = found
        deps = {os.path.relpath(inc, file.parent): _digest(Path(inc)) for inc in includes}
        state = _board_state(board)
        _register((rules, state), _SEEN)
        data = json.dumps({"includes": deps}).encode() + b"\n" + pickle.dumps(
            (rules, state), protocol=pickle.HIGHEST_PROTOCOL)
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".pickle")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, folder / f"{key[:40]}.pickle")
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except _UNWRITABLE:
        return
