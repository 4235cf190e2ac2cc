"""No module-level mutable state in engine/ but a short allow-list, each entry with its
reason (issue 34).

The web table runs engine code in worker threads, one lock per table and none between
tables, so state a module keeps is shared by every table at once: the 6-card rule's
recursion guard once was (``_PASSING`` in core/moves.py, tests/core/test_six_threads.py),
and tables derived from objects were kept in module dictionaries keyed by ``id()``. A table
derived from a value now lives on that value (the board's distance tables and the greedy
bot's, engine/core/board.py) or is built where it is used.

What counts, read with ``ast`` from every engine module:

- a module-level name bound to an empty container (``{}``, ``[]``, ``set()``, ``dict()``,
  ``deque()``, …: it exists to be filled) or to a memo (``ContentMemo(…)``,
  ``ContextVar(…)``), and every function with ``@cache`` / ``@lru_cache``;
- any module-level name that code changes: a ``global`` statement, a mutating method
  (``.append``, ``.clear``, ``.update``, ``.add``, ``.setdefault``, …), an item or
  attribute assigned, deleted or augmented — in a function or at module level, through the
  name itself or ``module.NAME``.

A registry or table written out in full and never changed (``CONDITIONS``, ``APPLY``,
``_WHERE`` in engine/__init__.py) is a constant. (A container changed only through another
name it was passed to is not seen: hence the rule on empty containers.)
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"

#: "file:NAME" → why it may stay
ALLOWED = {
    "data/safeio.py:_ALLOWED": "the --allow-path folders: configuration the CLI sets once, "
                               "before the command runs",
    "data/safeio.py:_LOGS": "a ContextVar: each thread and task sees its own read logs",
    "ruleset/embedded.py:_GIVEN": "a ContextVar: the rule files a record carries, per block",
    "ruleset/embedded.py:_READ": "a ContextVar: the rule files read while recording",
    "data/schemas.py:_schemas": "the bundled schema files, read once per process",
    "data/schemas.py:registry": "built from the bundled schemas, once per process",
    "data/schemas.py:validator": "one per bundled schema id (a handful), built once",
    "ruleset/keys.py:rule_keys": "derived from the bundled ruleset schema, once",
    "ruleset/keys.py:_value_validator": "one per rule key of the bundled schema (bounded)",
    "ruleset/catalog.py:_bundled": "the bundled catalogue, listed once per process",
    "ruleset/catalog.py:_VALID": "content-keyed (the digest of a file's parsed data), only "
                                 "ever added to; a set's add is atomic",
    "ruleset/house.py:_WHERE": "content-keyed (a house rule's key and value) → where it was "
                               "written, for compose's message; only added to",
    "bots/expert_value.py:coefficients": "the bundled expert_value.json, read once",
    "lab/simulate.py:_SETUPS": "a ContentMemo: content-keyed, bounded, locked",
    "lab/simulate.py:_rules": "a simulation's rules by its spec's names, kept for the run",
    "lab/edited.py:_course": "the design assistant's courses by reference, for its run",
    "lab/edited.py:_edited": "the assistant's edited courses, compiled once for its run",
    "lab/setup_cache.py:_CODE": "the code version, hashed once per process",
    "lab/setup_cache.py:_SEEN": "the classes taught to copyreg, whose table is "
                                "process-wide itself",
}

EMPTY_CALLS = {"dict", "list", "set", "bytearray", "deque", "defaultdict", "OrderedDict",
               "Counter", "WeakKeyDictionary", "WeakValueDictionary", "WeakSet"}
MEMO_CALLS = {"ContentMemo", "ContextVar"}
CACHES = {"cache", "lru_cache"}
MUTATORS = {"append", "appendleft", "extend", "extendleft", "insert", "pop", "popleft",
            "popitem", "clear", "update", "add", "discard", "remove", "setdefault", "sort",
            "reverse", "move_to_end"}


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _top(body: list[ast.stmt]) -> list[ast.stmt]:
    """Module-level statements, those under a module-level ``if``/``try`` included."""
    out: list[ast.stmt] = []
    for n in body:
        if isinstance(n, ast.If | ast.Try):
            out += _top(n.body) + _top(n.orelse)
            for h in getattr(n, "handlers", []):
                out += _top(h.body)
            out += _top(getattr(n, "finalbody", []))
        else:
            out.append(n)
    return out


def _is_state_value(value: ast.expr) -> bool:
    """An empty container or a memo: a value that exists to be changed."""
    if isinstance(value, ast.Dict | ast.List | ast.Set):
        return not (value.keys if isinstance(value, ast.Dict) else value.elts)
    if isinstance(value, ast.Call):
        called = _name(value.func)
        return called in MEMO_CALLS or (called in EMPTY_CALLS and not value.args
                                        and not value.keywords) or (
            called in {"defaultdict", "deque"})
    return False


def _bound_names(tree: ast.Module) -> dict[str, tuple[int, bool]]:
    """Module-level names → (line, bound to state by its value)."""
    out: dict[str, tuple[int, bool]] = {}
    for n in _top(tree.body):
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(n, ast.Assign):
            targets, value = n.targets, n.value
        elif isinstance(n, ast.AnnAssign):
            targets, value = [n.target], n.value
        elif isinstance(n, ast.FunctionDef):
            cached = any(_name(d.func if isinstance(d, ast.Call) else d) in CACHES
                         for d in n.decorator_list)
            out[n.name] = (n.lineno, cached)
            continue
        for t in targets:
            if isinstance(t, ast.Name):
                out[t.id] = (n.lineno, value is not None and _is_state_value(value))
    return out


def _imports(tree: ast.Module, files: set[str]) -> tuple[dict[str, str], dict[str, str]]:
    """(module aliases → their file, imported names → the file that binds them) of the
    engine modules ``tree`` imports."""
    def file_of(module: str) -> str | None:
        if not module.startswith("avecaesar.engine."):
            return None
        rel = module.removeprefix("avecaesar.engine.").replace(".", "/")
        return next((f for f in (rel + ".py", rel + "/__init__.py") if f in files), None)

    aliases: dict[str, str] = {}
    names: dict[str, str] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            for a in n.names:
                f = file_of(a.name)
                if f is not None and a.asname:
                    aliases[a.asname] = f
        elif isinstance(n, ast.ImportFrom) and n.module:
            for a in n.names:
                sub = file_of(f"{n.module}.{a.name}")
                if sub is not None:
                    aliases[a.asname or a.name] = sub
                elif (f := file_of(n.module)) is not None:
                    names[a.asname or a.name] = f
    return aliases, names


def _changed(tree: ast.Module, own: str, bound: dict[str, dict[str, tuple[int, bool]]]
             ) -> dict[tuple[str, str], int]:
    """The module-level names the code of ``own`` changes — its own, those it imported
    from an engine module, ``module.NAME`` of one — as (file, name) → the first line."""
    aliases, imported = _imports(tree, set(bound))
    out: dict[tuple[str, str], int] = {}

    def hit(target: ast.expr, line: int) -> None:
        if isinstance(target, ast.Name):
            if target.id in bound[own]:
                out.setdefault((own, target.id), line)
            elif target.id in imported and target.id in bound[imported[target.id]]:
                out.setdefault((imported[target.id], target.id), line)
        elif (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
              and target.value.id in aliases and target.attr in bound[aliases[target.value.id]]):
            out.setdefault((aliases[target.value.id], target.attr), line)

    for n in ast.walk(tree):
        if isinstance(n, ast.Global | ast.Nonlocal):
            for g in n.names:
                if g in bound[own]:
                    out.setdefault((own, g), n.lineno)
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
              and n.func.attr in MUTATORS):
            hit(n.func.value, n.lineno)
        elif isinstance(n, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Delete):
            targets = n.targets if isinstance(n, ast.Assign | ast.Delete) else [n.target]
            for t in targets:
                if isinstance(t, ast.Subscript | ast.Attribute):
                    hit(t.value, n.lineno)
    return out


def module_state(root: Path) -> dict[str, str]:
    """``file:NAME`` → ``file:line`` of every piece of module-level mutable state."""
    trees = {p.relative_to(root).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
             for p in sorted(root.rglob("*.py"))}
    bound = {f: _bound_names(t) for f, t in trees.items()}
    found: dict[str, str] = {}
    for f, names in bound.items():
        for name, (line, state) in names.items():
            if state:
                found[f"{f}:{name}"] = f"{f}:{line}"
    for f, tree in trees.items():
        for (owner, name), line in _changed(tree, f, bound).items():
            found.setdefault(f"{owner}:{name}", f"{f}:{line}")
    return found


def test_no_module_level_state_but_the_allowed() -> None:
    found = module_state(ENGINE)
    extra = {k: v for k, v in found.items() if k not in ALLOWED}
    assert extra == {}, "module-level mutable state (move it onto the value it derives " \
                        "from, pass it in, or allow it here with its reason): " + str(extra)


def test_every_allowed_entry_is_still_there() -> None:
    """An entry whose state is gone leaves the list (so the list stays the real one)."""
    assert sorted(set(ALLOWED) - set(module_state(ENGINE))) == []


def test_the_removed_state_is_gone() -> None:
    found = module_state(ENGINE)
    for gone in ("core/moves.py:_PASSING", "core/apply_effects.py:_BOUND",
                 "core/view.py:_DISTANCES", "bots/policies.py:_DIST",
                 "bots/policies.py:_TABLES", "bots/policies.py:_LAST",
                 "lab/simulate.py:_STORED", "lab/simulate.py:_INCLUDES",
                 "lab/edited.py:_BY_NAME"):
        assert gone not in found


PLANTED = '''
from avecaesar.engine.core.conditions import CONDITIONS

_SEEN_BOARDS: dict[int, object] = {}
_COUNT = 0
_LOG = [("start", 0)]


def _remember(board: object) -> None:
    global _COUNT
    _COUNT += 1
    _SEEN_BOARDS[id(board)] = board
    _LOG.append(("seen", id(board)))
    CONDITIONS["planted"] = None
'''


def test_planted_globals_are_found(tmp_path: Path) -> None:
    copy = tmp_path / "engine"
    shutil.copytree(ENGINE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert set(module_state(copy)) == set(module_state(ENGINE))
    moves = copy / "core" / "moves.py"
    moves.write_text(moves.read_text(encoding="utf-8") + PLANTED, encoding="utf-8")
    (copy / "bots" / "planted.py").write_text(
        "from functools import lru_cache\n\nfrom avecaesar.engine.core import view\n\n\n"
        "@lru_cache(maxsize=None)\ndef table(n: int) -> int:\n    return n\n\n\n"
        "def poke() -> None:\n    view.PRIVATE_EVENT_FIELDS.clear()\n", encoding="utf-8")
    new = set(module_state(copy)) - set(module_state(ENGINE))
    assert new == {"core/moves.py:_SEEN_BOARDS", "core/moves.py:_COUNT",
                   "core/moves.py:_LOG", "core/conditions.py:CONDITIONS",
                   "bots/planted.py:table", "core/view.py:PRIVATE_EVENT_FIELDS"}
