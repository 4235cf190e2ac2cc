"""The import graph: no cycle between modules, and no import up the engine's layers.

Every ``import``/``from … import`` of an ``avecaesar`` module counts, at module level,
inside a function (a function-level import that dodges a cycle is still a cycle) or under
``if TYPE_CHECKING:`` (an annotation that needs a module above is a cycle of the design:
the shared type moves down a layer, as ``core/position.py`` did for the race state).
The layers (docs/architecture.md), each importing only the ones before it:
engine.data → engine.course → engine.ruleset → engine.core → engine.bots → engine.lab,
then editor.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"avecaesar": ROOT / "src" / "avecaesar", "avecaesar.engine": ROOT / "engine",
            "avecaesar.editor": ROOT / "editor"}
LAYERS = ["avecaesar.engine.data", "avecaesar.engine.course", "avecaesar.engine.ruleset",
          "avecaesar.engine.core", "avecaesar.engine.bots", "avecaesar.engine.lab",
          "avecaesar.editor"]


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for pkg, base in PACKAGES.items():
        for f in base.rglob("*.py"):
            parts = list(f.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([pkg, *parts])] = f
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports (a package's ``from pkg import mod`` names the
    submodule; importing a package also runs its ``__init__``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def import_graph() -> nx.DiGraph:
    mods = modules()
    g = nx.DiGraph()
    g.add_nodes_from(mods)
    for name, path in mods.items():
        for target in imports_of(name, path, set(mods)):
            g.add_edge(name, target)
    return g


def layer(name: str) -> int | None:
    for i, prefix in enumerate(LAYERS):
        if name == prefix or name.startswith(prefix + "."):
            return i
    return None


def test_the_layers_are_all_there() -> None:
    mods = modules()
    for prefix in LAYERS:
        assert prefix in mods, f"{prefix} has no __init__.py"
    # every engine module belongs to a layer (engine/__init__.py re-exports from above all)
    loose = [m for m in mods if m.startswith("avecaesar.engine.") and layer(m) is None]
    assert loose == []


def test_no_import_cycle() -> None:
    g = import_graph()
    # packages' __init__ re-exports are edges too, but a package importing its own
    # submodules is not a cycle unless a submodule imports the package back
    cycles = list(nx.simple_cycles(g))
    assert cycles == [], "import cycles: " + "; ".join(" → ".join(c) for c in cycles[:5])


def test_no_upward_import() -> None:
    upward = []
    for a, b in import_graph().edges:
        la, lb = layer(a), layer(b)
        if la is not None and lb is not None and lb > la:
            upward.append(f"{a} imports {b}")
        if la is not None and b == "avecaesar.engine":  # the facade re-exports every layer
            upward.append(f"{a} imports the facade avecaesar.engine")
    assert upward == []


def test_the_checker_sees_function_level_imports(tmp_path: Path) -> None:
    """The graph catches an import hidden in a function or under TYPE_CHECKING."""
    f = tmp_path / "m.py"
    f.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                 "    from avecaesar.engine.bots import search\n"
                 "def late():\n    from avecaesar.engine.core import race\n")
    known = {"avecaesar.engine.core.race", "avecaesar.engine.bots.search", "avecaesar.x.m"}
    assert imports_of("avecaesar.x.m", f, known) == {"avecaesar.engine.core.race",
                                                     "avecaesar.engine.bots.search"}
