"""The CLI answers at once: building the app imports no heavy module (issue 13).

Behaviour, not timing: a fresh interpreter imports ``avecaesar.editor.main`` and the heavy
libraries and the engine's race modules must not be loaded; the commands that use them
import them when they run (docs/performance.md, "CLI start-up").
"""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("networkx", "jsonschema", "graphviz", "starlette", "uvicorn", "dask", "yaml",
         "rich", "avecaesar.engine.core.race", "avecaesar.engine.lab.simulate",
         "avecaesar.engine.course.load", "avecaesar.engine.ruleset.load")


def _loaded_after(code: str) -> list[str]:
    probe = (f"import sys\n{code}\n"
             f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    return out.split()


def test_importing_the_cli_loads_no_heavy_module() -> None:
    assert _loaded_after("import avecaesar.editor.main") == []


def test_help_loads_no_heavy_module() -> None:
    code = ("from typer.testing import CliRunner\n"
            "from avecaesar.editor.main import app\n"
            "r = CliRunner().invoke(app, ['--help'])\n"
            "assert r.exit_code == 0, r.output")
    assert _loaded_after(code) == []


def test_the_commands_still_find_their_modules() -> None:
    # the commands import the engine when they run: its modules resolve from the command's
    code = ("from avecaesar.editor.cli.race import race\n"
            "from avecaesar.engine.core.race_setup import ChosenRules\n"
            "assert ChosenRules.compose")
    assert "avecaesar.engine.course.load" in _loaded_after(code)
