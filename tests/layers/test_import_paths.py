"""Every ``avecaesar`` module the tree names exists: the imports of every Python file (source,
tests, tools, benches; at module level or inside a function), the registries'
``"module:function"`` strings and the ``python -m avecaesar.…`` lines of the Makefile, the
docs and the scripts. The old paths of 0.1 (``avecaesar.editor.course_cli`` and the like)
are gone with their import hook (issue 34): a file still naming one fails here, not at a
user's first call of the function that imports it."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON_DIRS = ("src", "engine", "editor", "rulesets", "courses", "tests", "tools", "bench")
TARGET = re.compile(r"^(avecaesar(?:\.\w+)+):\w+$")
DASH_M = re.compile(r"-m (avecaesar(?:\.\w+)+)")


def _exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False


def _names_in(tree: ast.AST, package: str) -> list[tuple[str, int, str | None]]:
    """(module, line, imported name or None) for every avecaesar module ``tree`` names."""
    out: list[tuple[str, int, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno, None) for a in node.names
                    if a.name.split(".")[0] == "avecaesar"]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            if base.split(".")[0] == "avecaesar":
                out += [(base, node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found = TARGET.match(node.value)
            if found:
                out.append((found.group(1), node.lineno, None))
    return out


def missing_in(path: Path, package: str = "") -> list[str]:
    """The avecaesar modules (or names of them) that ``path`` imports and that do not exist."""
    bad = []
    for module, line, name in _names_in(ast.parse(path.read_text(encoding="utf-8")), package):
        where = f"{path}:{line}"
        if not _exists(module):
            bad.append(f"{where}: no module {module}")
        elif name is not None and name != "*" and not _exists(f"{module}.{name}") and not \
                hasattr(importlib.import_module(module), name):
            bad.append(f"{where}: {module} has no {name}")
    return bad


def _package_of(path: Path) -> str:
    """The import package a source file belongs to (for its relative imports)."""
    rel = path.relative_to(ROOT)
    mapped = {"src": ("avecaesar",), "engine": ("avecaesar", "engine"),
              "editor": ("avecaesar", "editor")}
    top = rel.parts[0]
    if top not in mapped:
        return ""
    inner = rel.parts[2:] if top == "src" else rel.parts[1:]
    return ".".join([*mapped[top], *inner[:-1]])


def test_every_imported_avecaesar_module_exists() -> None:
    bad: list[str] = []
    for folder in PYTHON_DIRS:
        for f in sorted((ROOT / folder).rglob("*.py")):
            bad += missing_in(f, _package_of(f))
    assert bad == [], "\n".join(bad)


def test_every_python_dash_m_names_a_module() -> None:
    texts = [ROOT / "Makefile", ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
             *sorted((ROOT / "tools").glob("*.sh")), *sorted((ROOT / ".ci").glob("*"))]
    bad = [f"{p.name}: {m}" for p in texts if p.is_file()
           for m in DASH_M.findall(p.read_text(encoding="utf-8")) if not _exists(m)]
    assert bad == []


def test_an_old_path_is_found(tmp_path: Path) -> None:
    """A planted import of a 0.1 path, a missing name and a stale registry string fail;
    the current paths pass."""
    f = tmp_path / "m.py"
    f.write_text("import avecaesar.editor.course_cli\n"
                 "def late():\n    from avecaesar.engine.course import course_check\n"
                 "    from avecaesar.engine.core.race import no_such_name\n"
                 'ENTRY = "avecaesar.engine.bots.names:greedy_policy"\n'
                 "from avecaesar.engine.course import load\n"
                 "from avecaesar.engine.core.race import run_race\n", encoding="utf-8")
    found = missing_in(f)
    assert len(found) == 4, found
    assert all(":6:" not in s and ":7:" not in s for s in found)
