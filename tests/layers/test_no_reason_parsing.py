"""Issue 34: no regular expression reads the engine's reasons back.

A reason is a value (engine/core/reasons.py: a code, its parameters, its citation); the
editor renders it in each language from the code. The check below reads every module of
``engine/`` and ``editor/`` with ``ast`` and follows, inside each function (and at module
level), which names hold reason text: anything built from a reason's source — the engine's
reason functions (``why_not``, ``card_forbidden``, ``six_rule``, ``restriction_reasons``),
a reason's words (``REASONS``, ``.english``, ``.render``, ``reason_text``, ``sentence``), the
catalog's ``why`` section, a field or key named ``why`` / ``reason`` — and every name
assigned from such a value or looped over it. A call of the ``re`` module, or of a method of
a pattern (``.match``, ``.search``, …), that is given such a value is a parse-back: the
German would again depend on the English wording. The last test plants two in a scratch
copy of the tree (the old ``_patterns`` of editor/render/lang.py, and a ``re.match`` on a
``why_not`` answer in editor/table/hand.py) and shows each is caught.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: functions and names whose value is a reason or its words
NAMES = frozenset({"why_not", "card_forbidden", "six_rule", "restriction_reasons",
                   "restriction_why", "public_card_status", "REASONS",
                   "Reason", "reason_text", "sentence", "why", "reason", "reasons"})
#: attributes that are a reason or its words (a reason's methods, an error's reason)
ATTRS = frozenset({"why_not", "card_forbidden", "six_rule", "restriction_reasons", "REASONS",
                   "english", "render", "reason_text", "sentence", "why", "reason",
                   "skip_reason"})
RE_FUNCTIONS = frozenset({"compile", "match", "fullmatch", "search", "split", "sub", "subn",
                          "findall", "finditer", "escape"})
#: the methods only a pattern (or a match object) has, not a str
PATTERN_ONLY = frozenset({"match", "fullmatch", "search", "sub", "subn", "findall", "finditer"})


def _mentions(node: ast.AST, tainted: set[str]) -> bool:
    """``node`` holds reason text: it names a source, the catalog's ``why`` section (a
    ``"why"`` key), or a name already known to hold reason text."""
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and (n.id in NAMES or n.id in tainted):
            return True
        if isinstance(n, ast.Attribute) and n.attr in ATTRS:
            return True
        if isinstance(n, ast.Constant) and n.value in ("why", "reason"):
            return True
    return False


def _targets(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _binds_from_reasons(n: ast.AST, tainted: set[str]) -> bool:
    """``n`` binds its target to reason text (an annotated or augmented assignment, a
    loop or comprehension over it, a walrus)."""
    if isinstance(n, ast.AnnAssign | ast.AugAssign | ast.NamedExpr):
        return n.value is not None and _mentions(n.value, tainted)
    return isinstance(n, ast.For | ast.comprehension) and _mentions(n.iter, tainted)


def _tainted(body: ast.AST) -> set[str]:
    """The names in ``body`` assigned (or looped over) from reason text, to a fixpoint."""
    tainted: set[str] = set()
    while True:
        before = len(tainted)
        for n in ast.walk(body):
            if isinstance(n, ast.Assign) and _mentions(n.value, tainted):
                for t in n.targets:
                    tainted |= _targets(t)
            elif _binds_from_reasons(n, tainted):
                tainted |= _targets(n.target)  # type: ignore[attr-defined]
        if len(tainted) == before:
            return tainted


def _compiled(scope: ast.AST) -> set[str]:
    """The names in ``scope`` bound to a compiled pattern (``rx = re.compile(…)``)."""
    return {t.id for n in ast.walk(scope) if isinstance(n, ast.Assign)
            and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute)
            and n.value.func.attr == "compile" for t in n.targets if isinstance(t, ast.Name)}


def _regex_call(call: ast.Call, re_names: set[str], compiled: set[str]) -> bool:
    """A call of the ``re`` module (``re.x(…)``, or ``x(…)`` imported from it) or of a
    pattern's method (``rx.match(…)``: str has no match, search, findall, finditer or sub;
    ``.split`` only on a name bound to ``re.compile``)."""
    f = call.func
    if isinstance(f, ast.Name):
        return f.id in re_names
    if not isinstance(f, ast.Attribute) or f.attr not in RE_FUNCTIONS:
        return False
    if isinstance(f.value, ast.Name) and f.value.id in ("re", "regex", *compiled):
        return True
    return f.attr in PATTERN_ONLY


def _module_level(tree: ast.Module) -> ast.Module:
    """The statements outside every function (a class's own statements included): the
    module's scope, apart from the functions' (each scanned on its own)."""
    out: list[ast.stmt] = []
    todo = list(tree.body)
    while todo:
        stmt = todo.pop(0)
        if isinstance(stmt, ast.ClassDef):
            todo.extend(stmt.body)
        elif not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            out.append(stmt)
    return ast.Module(body=out, type_ignores=[])


def parse_backs(roots: list[Path]) -> list[str]:
    """Every call of a regular expression on reason text under ``roots``, as
    ``file:line``."""
    found: list[str] = []
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            re_names = {a.asname or a.name for n in ast.walk(tree)
                        if isinstance(n, ast.ImportFrom) and n.module == "re"
                        for a in n.names}
            scopes: list[ast.AST] = [_module_level(tree), *(
                n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef
                                                        | ast.AsyncFunctionDef))]
            for scope in scopes:
                tainted, compiled = _tainted(scope), _compiled(scope)
                for n in ast.walk(scope):
                    if (isinstance(n, ast.Call) and _regex_call(n, re_names, compiled)
                            and any(_mentions(a, tainted)
                                    for a in [*n.args, *(k.value for k in n.keywords)])):
                        found.append(f"{path.relative_to(root.parent)}:{n.lineno}")
    return sorted(set(found))


def test_no_regular_expression_reads_a_reason() -> None:
    assert parse_backs([ROOT / "engine", ROOT / "editor"]) == []


# the old parse-back of editor/render/lang.py (before issue 34), planted again
PLANTED_PATTERNS = '''

def _patterns():
    out = []
    for key, entry in catalog()["why"].items():
        en = entry["en"]
        rx = ""
        for part in re.split(r"(\\{\\w+\\})", en):
            rx += re.escape(part)
        out.append((re.compile(f"^{rx}$"), key))
    return out
'''
PLANTED_MATCH = '''

def _taken_space(state, move):
    import re

    m = re.match(r"space (\\d+) is taken", str(why_not(state, move)))
    return int(m[1]) if m else None
'''


def test_a_planted_parse_back_is_caught(tmp_path: Path) -> None:
    """The check fails on the parse-back it is there to stop: the old catalog patterns
    planted in lang.py, and a ``re.match`` on a ``why_not`` answer planted in hand.py."""
    for part in ("engine", "editor"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns(
            "__pycache__", "*.so", "static"))
    roots = [tmp_path / "engine", tmp_path / "editor"]
    assert parse_backs(roots) == []
    lang = tmp_path / "editor" / "render" / "lang.py"
    lang.write_text(lang.read_text(encoding="utf-8") + PLANTED_PATTERNS, encoding="utf-8")
    hand = tmp_path / "editor" / "table" / "hand.py"
    hand.write_text(hand.read_text(encoding="utf-8") + PLANTED_MATCH, encoding="utf-8")
    found = parse_backs(roots)
    assert any(f.startswith("editor/render/lang.py:") for f in found), found
    assert any(f.startswith("editor/table/hand.py:") for f in found), found
    assert len(found) >= 4  # lang.py: split, escape, compile; hand.py: match
