"""Which test covers which registry entry: every ``@pytest.mark.covers("registry:name", …)``
in tests/ (on a test function or class, or a module's ``pytestmark``), read from the source
with ``ast`` — no test is run to build the map.

Registries and their prefixes: ``bot:`` (engine/bots/registry.py), ``command:``
(editor/commands.py, the command's words: ``command:course validate``), ``page:``
(editor/web/pages.py), ``check:`` (engine/course/checks.py), ``rule:`` (a ruleset key,
``rule:six_rule.free_when``). tests/layers/test_registries.py checks every entry has a test.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

__all__ = ["covered"]

TESTS = Path(__file__).resolve().parent


def _covers_args(node: ast.expr) -> list[str]:
    """The strings of a ``pytest.mark.covers(...)`` call (or of each in a list of marks)."""
    if isinstance(node, ast.List | ast.Tuple):
        return [s for e in node.elts for s in _covers_args(e)]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "covers"):
        return [a.value for a in node.args
                if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return []


def covered(root: Path = TESTS) -> dict[str, list[str]]:
    """``"registry:name"`` → the tests (``path::name``) that declare they cover it."""
    out: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("test_*.py")):
        rel = path.relative_to(root.parent).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
                for name in _covers_args(node.value):
                    out[name].append(rel)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                for deco in node.decorator_list:
                    for name in _covers_args(deco):
                        out[name].append(f"{rel}::{node.name}")
    return dict(out)
