"""The import graph: no cycle between modules, and no import up the engine's layers.

Every ``import``/``from … import`` of an ``avecaesar`` module counts, at module level,
inside a function (a function-level import that dodges a cycle is still a cycle) or under
``if TYPE_CHECKING:`` (an annotation that needs a module above is a cycle of the design:
the shared type moves down a layer, as ``core/position.py`` did for the race state).
A registry's ``"module:function"`` string (bots, commands, pages) is an import too: the
module is loaded by name on first use. The layers (docs/architecture.md), each importing only
the ones before it: engine.data → engine.course → engine.ruleset → engine.core → engine.bots
→ engine.lab, then the editor's rooms: render → table → cli | web (siblings: the CLI and the
web app never import each other) → the editor's top (commands, app, main).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"avecaesar": ROOT / "src" / "avecaesar", "avecaesar.engine": ROOT / "engine",
            "avecaesar.editor": ROOT / "editor"}
# each level: the packages in it (siblings may not import each other)
LAYERS: list[tuple[str, ...]] = [
    ("avecaesar.engine.data",), ("avecaesar.engine.course",), ("avecaesar.engine.ruleset",),
    ("avecaesar.engine.core",), ("avecaesar.engine.bots",), ("avecaesar.engine.lab",),
    ("avecaesar.editor.render",), ("avecaesar.editor.table",),
    ("avecaesar.editor.cli", "avecaesar.editor.web"),
    ("avecaesar.editor",)]
PREFIXES = [prefix for level in LAYERS for prefix in level]
# "avecaesar.x.y:function", a registry's factory or command
TARGET = re.compile(r"^(avecaesar(?:\.\w+)+):\w+$")


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
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found = TARGET.match(node.value)
            if found:
                targets = [found.group(1)]
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


def room(name: str) -> str | None:
    """The most specific layer package ``name`` belongs to."""
    best = None
    for prefix in PREFIXES:
        if (name == prefix or name.startswith(prefix + ".")) and (
                best is None or len(prefix) > len(best)):
            best = prefix
    return best


def layer(name: str) -> int | None:
    r = room(name)
    return None if r is None else next(i for i, lv in enumerate(LAYERS) if r in lv)


def test_the_layers_are_all_there() -> None:
    mods = modules()
    for prefix in PREFIXES:
        assert prefix in mods, f"{prefix} has no __init__.py"
    # every engine and editor module belongs to a layer (engine/__init__.py re-exports from
    # above all)
    loose = [m for m in mods if m.startswith(("avecaesar.engine.", "avecaesar.editor."))
             and layer(m) is None]
    assert loose == []


def test_no_import_cycle() -> None:
    g = import_graph()
    # packages' __init__ re-exports are edges too, but a package importing its own
    # submodules is not a cycle unless a submodule imports the package back
    cycles = list(nx.simple_cycles(g))
    assert cycles == [], "import cycles: " + "; ".join(" → ".join(c) for c in cycles[:5])


def violations(edges: list[tuple[str, str]]) -> list[str]:
    """The imports that go up a layer, across sibling rooms, or to the engine's facade."""
    out = []
    for a, b in edges:
        la, lb = layer(a), layer(b)
        if la is not None and lb is not None and lb > la:
            out.append(f"{a} imports {b}")
        if la is not None and la == lb and room(a) != room(b):
            out.append(f"{a} imports its sibling room's {b}")
        if la is not None and b == "avecaesar.engine":  # the facade re-exports every layer
            out.append(f"{a} imports the facade avecaesar.engine")
    return out


def test_no_upward_import() -> None:
    assert violations(list(import_graph().edges)) == []


def test_the_checker_sees_planted_violations() -> None:
    """Each kind of violation, planted, is found (and the allowed directions are not)."""
    planted = [
        ("avecaesar.engine.core.moves", "avecaesar.engine.bots.search"),   # up the engine
        ("avecaesar.engine.lab.simulate", "avecaesar.editor.render.charts"),  # engine → editor
        ("avecaesar.editor.cli.course", "avecaesar.editor.web.app"),      # sibling rooms
        ("avecaesar.editor.web.app", "avecaesar.editor.cli.common"),      # and back
        ("avecaesar.editor.render.board", "avecaesar.editor.table.game"),  # render → table
        ("avecaesar.editor.table.game", "avecaesar.editor.cli.common"),    # table → cli
        ("avecaesar.editor.render.board", "avecaesar.editor.app"),         # a room → the top
        ("avecaesar.engine.core.race", "avecaesar.engine"),                # the facade
    ]
    assert len(violations(planted)) == len(planted)
    allowed = [("avecaesar.editor.app", "avecaesar.editor.cli.common"),
               ("avecaesar.editor.commands", "avecaesar.editor.web.serve"),
               ("avecaesar.editor.web.app", "avecaesar.editor.render.board"),
               ("avecaesar.editor.cli.race", "avecaesar.editor.table.game"),
               ("avecaesar.editor.table.game", "avecaesar.editor.render.board"),
               ("avecaesar.editor.cli.course", "avecaesar.editor.cli.common")]
    assert violations(allowed) == []


def test_the_checker_sees_a_registry_string(tmp_path: Path) -> None:
    """A registry entry's "module:function" names a module loaded by name: an import."""
    f = tmp_path / "m.py"
    f.write_text('ENTRY = ("toy", "avecaesar.editor.web.app:create_app")\n'
                 'TEXT = "avecaesar.editor.web.app is mentioned, not imported"\n')
    known = {"avecaesar.editor.web.app", "avecaesar.editor.cli.m"}
    assert imports_of("avecaesar.editor.cli.m", f, known) == {"avecaesar.editor.web.app"}


def test_the_checker_sees_function_level_imports(tmp_path: Path) -> None:
    """The graph catches an import hidden in a function or under TYPE_CHECKING."""
    f = tmp_path / "m.py"
    f.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                 "    from avecaesar.engine.bots import search\n"
                 "def late():\n    from avecaesar.engine.core import race\n")
    known = {"avecaesar.engine.core.race", "avecaesar.engine.bots.search", "avecaesar.x.m"}
    assert imports_of("avecaesar.x.m", f, known) == {"avecaesar.engine.core.race",
                                                     "avecaesar.engine.bots.search"}
