"""One value for what a race is played under (engine/core/race_setup.py): the rules composed
once per command, one writer of a record header's setup, one reader.

The structural checks read the source with ``ast`` (as tests/layers/test_layers.py does) and
plant a violation in a temporary copy to show they would catch it; the counting checks run
the commands in-process and count the compositions."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("engine", "editor")
SETUP = Path("engine/core/race_setup.py")
RECORD = Path("engine/core/record.py")
#: the keys only a record header's setup has together
HEADER_KEYS = {"course", "seed", "players"}


def _modules(root: Path) -> list[Path]:
    return sorted(p for d in SOURCES for p in (root / d).rglob("*.py"))


def _dict_keys(node: ast.Dict) -> set[str]:
    return {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}


def header_writers(root: Path) -> list[str]:
    """``file:line`` of every dict display holding a record header's setup keys, and of every
    one starting a header line (``"type": "header"``)."""
    out = []
    for path in _modules(root):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Dict):
                continue
            keys = _dict_keys(node)
            heads = any(isinstance(k, ast.Constant) and k.value == "type"
                        and isinstance(v, ast.Constant) and v.value == "header"
                        for k, v in zip(node.keys, node.values, strict=True))
            if keys >= HEADER_KEYS or heads:
                out.append(f"{path.relative_to(root)}:{node.lineno}")
    return out


def calls_of(root: Path, name: str, methods: bool = True) -> list[str]:
    """``file:line`` of every call of a function named ``name`` (``methods``: and of every
    method of that name)."""
    out = []
    for path in _modules(root):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                called = f.id if isinstance(f, ast.Name) else (
                    f.attr if isinstance(f, ast.Attribute) and methods else None)
                if called == name:
                    out.append(f"{path.relative_to(root)}:{node.lineno}")
    return out


def test_one_writer_of_a_record_header() -> None:
    found = header_writers(ROOT)
    files = {hit.split(":")[0] for hit in found}
    assert files == {str(SETUP), str(RECORD)}, found
    assert len([h for h in found if h.startswith(str(RECORD))]) == 1, found


def test_one_composition_of_a_race_s_rules() -> None:
    """The engine's rule values are made from a composed ruleset in one place
    (``ChosenRules.compose``), and the composition itself has one entry (``load_ruleset``)."""
    assert {h.split(":")[0] for h in calls_of(ROOT, "rules_from_ruleset")} == {str(SETUP)}
    assert {h.split(":")[0] for h in calls_of(ROOT, "compose", methods=False)} == {
        "engine/ruleset/load.py"}


def test_the_checks_catch_a_planted_second_writer(tmp_path: Path) -> None:
    for d in SOURCES:
        (tmp_path / d).mkdir()
    (tmp_path / "editor" / "cli.py").write_text(
        'def head(s):\n    return {"course": s.c, "seed": 1, "players": []}\n'
        'def line():\n    return {"type": "header", "x": 1}\n'
        'def rules(rs):\n    return rules_from_ruleset(rs)\n', encoding="utf-8")
    assert header_writers(tmp_path) == ["editor/cli.py:2", "editor/cli.py:4"]
    assert calls_of(tmp_path, "rules_from_ruleset") == ["editor/cli.py:6"]


@pytest.fixture
def compositions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every composition of a ruleset from now on (the ruleset it composed)."""
    import avecaesar.engine.ruleset.compose as compose_module
    import avecaesar.engine.ruleset.load as load_module

    seen: list[str] = []
    real = compose_module.compose

    def counted(name: str, *args: object, **kwargs: object) -> object:
        seen.append(name)
        return real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(load_module, "compose", counted)
    monkeypatch.setenv("AVECAESAR_NO_CACHE", "1")
    return seen


RACE = ["race", "--ruleset", "dicetree-2022", "--course", "dicetree-2022/arena-carthago",
        "--players", "3", "--seed", "4"]


def test_race_record_and_replay_compose_the_rules_once_each(
        compositions: list[str], tmp_path: Path) -> None:
    rec = tmp_path / "game.jsonl"
    res = CliRunner().invoke(app, [*RACE, "--record", str(rec)])
    assert res.exit_code == 0, res.output
    assert compositions == ["dicetree-2022"]
    res = CliRunner().invoke(app, ["replay", str(rec)])
    assert res.exit_code == 0, res.output
    assert compositions == ["dicetree-2022"] * 2


def test_a_tournament_composes_its_rules_once(compositions: list[str],
                                              tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["tournament", "--ruleset", "2006", "--players", "3",
                                   "--seed", "2", "--record", str(tmp_path / "t.json")])
    assert res.exit_code == 0, res.output
    assert compositions == ["2006"]
