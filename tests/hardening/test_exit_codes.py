"""One table of exit codes (``EXIT_CODES``, engine/data/errors.py; docs/architecture.md "Exit
codes" and the README's table are generated from it): every error type's code, every exit
the CLI's code names and every signal's code is in it (issue 26)."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import signal
from pathlib import Path

from typer.testing import CliRunner

import avecaesar.editor
import avecaesar.engine
from avecaesar.editor.cli import signals
from avecaesar.editor.main import app
from avecaesar.editor.registry_docs import README, exit_code_table
from avecaesar.engine.data.errors import EXIT_CODES, AveCaesarError

ROOT = Path(__file__).parents[2]
CODES = {e.code for e in EXIT_CODES}
runner = CliRunner()


def _subclasses(cls: type) -> set[type]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= _subclasses(sub)
    return found


def test_every_error_type_exits_with_a_documented_code() -> None:
    for package in (avecaesar.engine, avecaesar.editor):
        for mod in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            # the web rooms answer HTTP, not exit codes; a __main__ would run the CLI
            if ".web" not in mod.name and not mod.name.endswith("__main__"):
                importlib.import_module(mod.name)
    errors = _subclasses(AveCaesarError) | {AveCaesarError}
    assert len(errors) >= 8
    for err in errors:
        assert err.exit_code in CODES, (err, err.exit_code)


def _literal_exits(tree: ast.AST) -> list[tuple[int, int]]:
    """(line, code) of ``typer.Exit(N)``, ``Exit(N)``, ``fail(message, N)``,
    ``sys.exit(N)`` and ``exit_code = N`` with a literal N."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = (node.func.attr if isinstance(node.func, ast.Attribute)
                    else getattr(node.func, "id", ""))
            args = {"Exit": node.args[:1], "exit": node.args[:1],
                    "fail": node.args[1:2]}.get(name, [])
            found += [(node.lineno, a.value) for a in args
                      if isinstance(a, ast.Constant) and isinstance(a.value, int)]
        elif (isinstance(node, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == "exit_code" for t in node.targets)
              and isinstance(node.value, ast.Constant) and isinstance(node.value.value, int)):
            found.append((node.lineno, node.value.value))
    return found


def test_every_exit_the_code_names_is_documented() -> None:
    seen = 0
    for folder in ("engine", "editor"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line, code in _literal_exits(ast.parse(path.read_text(encoding="utf-8"))):
                seen += 1
                assert code in CODES, f"{path.relative_to(ROOT)}:{line}: exit {code}"
    assert seen >= 10


def test_each_signal_exits_with_its_documented_code() -> None:
    by_signal = {e.signal: e.code for e in EXIT_CODES if e.signal}
    for sig in signals.HANDLED:
        assert by_signal[signal.Signals(sig).name] == 128 + sig


def test_the_readme_carries_the_table() -> None:
    assert exit_code_table() in README.read_text(encoding="utf-8")


def test_play_tells_the_end_of_input_from_ctrl_c(tmp_path, monkeypatch) -> None:
    """The input ends: its own message and exit 1, the record kept. Ctrl-C (and SIGTERM,
    SIGHUP): exit 130 (143, 129) with the record kept — tests/hardening/test_signals.py."""
    monkeypatch.chdir(tmp_path)
    oval = ROOT / "tests" / "core" / "courses" / "oval.yaml"
    res = runner.invoke(app, ["play", "-r", "2022", "-c", str(oval), "--humans", "Ann",
                              "--players", "3", "--seed", "1", "--record", "g.jsonl"],
                        input="1\n1\n")
    assert res.exit_code == 1, res.output
    assert "input ended before the race did; the record is kept in g.jsonl" in res.output
    assert (tmp_path / "g.jsonl").is_file()
