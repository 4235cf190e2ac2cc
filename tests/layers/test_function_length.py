"""No function in engine/core, nor in the CLI's commands (editor/cli), is longer than 60
lines unless its docstring gives the reason (a line starting "Long because"). Lines are
counted from the ``def`` to the last line of the body, the signature and the docstring
included: a command's options live in module-level ``Annotated`` aliases, its work in the
engine, the lab and small helpers."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "engine" / "core"
CLI = ROOT / "editor" / "cli"
LIMIT = 60
REASON = "Long because"


def long_functions(path: Path, root: Path = ROOT, limit: int = LIMIT) -> list[str]:
    """``file:line name (n lines)`` for each function over ``limit`` lines without a reason
    in its docstring."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            n = (node.end_lineno or node.lineno) - node.lineno + 1
            if n > limit and REASON not in (ast.get_docstring(node) or ""):
                out.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({n} lines)")
    return out


def test_no_long_function_in_core_without_a_reason() -> None:
    found = [hit for f in sorted(CORE.glob("*.py")) for hit in long_functions(f)]
    assert found == []


def test_no_long_function_in_the_commands_without_a_reason() -> None:
    found = [hit for f in sorted(CLI.glob("*.py")) for hit in long_functions(f)]
    assert found == []


def test_the_check_would_catch_a_long_function(tmp_path: Path) -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(LIMIT))
    f = tmp_path / "m.py"
    f.write_text(f"def long():\n{body}\n\ndef reasoned():\n    \"\"\"{REASON} of x.\"\"\"\n"
                 f"{body}\n\ndef short():\n{body[:-len('    x59 = 59')]}", encoding="utf-8")
    [hit] = long_functions(f, tmp_path)
    assert hit.startswith("m.py:1 long (61 lines)")
