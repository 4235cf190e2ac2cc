"""The race and replay commands; records checked against the schema; corrupt records."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.engine.data.schemas import validator

HERE = Path(__file__).parent
OVAL = str(HERE.parent / "core" / "courses" / "oval.yaml")
ENGINE = HERE.parents[1] / "engine"
runner = CliRunner()


def race(*args: str):
    return runner.invoke(app, ["race", "--ruleset", "dicetree-2022", "--course", OVAL, *args])


@pytest.mark.covers("command:race", "command:replay", "bot:greedy")
def test_race_prints_a_log_and_the_result(tmp_path):
    rec = tmp_path / "r.jsonl"
    res = race("--players", "4", "--seed", "1", "--bots", "greedy,random", "--record",
               str(rec))
    assert res.exit_code == 0, res.output
    assert "plays" in res.output and "result:" in res.output
    assert re.search(r"1\. [A-D] P\d-\w+: 8 points", res.output)
    v = validator("urn:avecaesar:game-record")
    lines = [json.loads(x) for x in rec.read_text().splitlines()]
    for doc in lines:
        assert not list(v.iter_errors(doc)), doc
    assert lines[0]["seed"] == 1 and lines[-1]["type"] == "result"
    again = runner.invoke(app, ["replay", str(rec)])
    assert again.exit_code == 0 and "every move legal" in again.output


def test_race_json_is_reproducible():
    a = race("--players", "3", "--seed", "5", "--json")
    b = race("--players", "3", "--seed", "5", "--json")
    assert a.exit_code == 0 and a.output == b.output
    assert json.loads(a.output)["termination"] in ("finished", "deadlock")


def test_every_edition_races_by_default_and_open_values_stop_only_a_variant_race(
        tmp_path: Path) -> None:
    """Issue 10: no --set for a default race; a variant with open values lists all of them
    in one message, each with its --set line, and the house file to copy."""
    for ed in ("ravensburger-1989", "pro-ludo-2006", "dicetree-2022"):
        res = runner.invoke(app, ["race", "--ruleset", ed, "--course", OVAL, "--players", "3"])
        assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["race", "--ruleset", "2022", "--variant", "ramming-attacks",
                              "--course", OVAL, "--players", "3"])
    assert res.exit_code == 2 and "Traceback" not in res.output  # usage: values to supply
    assert "2 values open" in res.output
    assert "--set ramming.tie=no_effect" in res.output
    assert "--set ramming.attack_chips=no_effect" in res.output
    house = tmp_path / "house.yaml"
    body = res.output[res.output.index("rules:"):]
    house.write_text(body, encoding="utf-8")  # the message's file, copied as it is
    rec = tmp_path / "r.jsonl"
    ok = runner.invoke(app, ["race", "--ruleset", "2022", "--variant", "ramming-attacks",
                             "--course", OVAL, "--players", "3", "--house", str(house),
                             "--record", str(rec)])
    assert ok.exit_code == 0, ok.output
    head = json.loads(rec.read_text().splitlines()[0])
    assert head["house"]["ramming.tie"] == {"value": "no_effect",
                                            "source": "house rule: house.yaml"}
    assert head["kinds"]["alley.laps"] == "conflict"
    assert head["kinds"]["leader.finishers_lead"] == "read"
    house.unlink()  # the record replays without the file
    again = runner.invoke(app, ["replay", str(rec)])
    assert again.exit_code == 0, again.output


def _bad_house_files() -> list[tuple[str, str]]:
    """The table of bad house-rules files in tests/ruleset/test_house.py (one table for
    the library and the CLI)."""
    path = Path(__file__).parents[1] / "ruleset" / "test_house.py"
    spec = importlib.util.spec_from_file_location("house_tests", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.BAD_HOUSE_FILES


@pytest.mark.parametrize("text,where", _bad_house_files())
def test_bad_house_files_are_located(tmp_path: Path, text: str, where: str) -> None:
    bad = tmp_path / "h.yaml"
    bad.write_text(text, encoding="utf-8")
    res = runner.invoke(app, ["race", "--ruleset", "2022", "--course", OVAL,
                              "--house", str(bad)])
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert where in res.output


def _record(tmp_path: Path) -> Path:
    rec = tmp_path / "r.jsonl"
    assert race("--players", "3", "--seed", "2", "--record", str(rec)).exit_code == 0
    return rec


@pytest.mark.parametrize("corrupt, message", [
    (lambda ls: [*ls[:2], "{not json", *ls[3:]], r":3:\d+: not JSON"),
    (lambda ls: [ls[0].replace('"seed":2', '"seed":3'), *ls[1:]], r":1: the seed does not"),
    (lambda ls: [ls[0].replace('"seed":2,', ''), *ls[1:]], r":1:1: .*seed"),
    (lambda ls: [*ls[:3], ls[3].replace('"card":', '"card":9,"x":'), *ls[4:]], r":4:"),
])
def test_corrupt_records_give_a_clear_error_with_the_line(tmp_path, corrupt, message):
    rec = _record(tmp_path)
    lines = rec.read_text().splitlines()
    rec.write_text("\n".join(corrupt(lines)) + "\n")
    res = runner.invoke(app, ["replay", str(rec)])
    assert res.exit_code == 1
    assert re.search(message, res.output), res.output
    assert "Traceback" not in res.output


def test_an_illegal_move_in_a_record_is_reported_with_its_line(tmp_path):
    rec = _record(tmp_path)
    lines = rec.read_text().splitlines()
    doc = json.loads(lines[1])
    doc["path"] = [*doc["path"][:-1], doc["path"][-1] + 40]
    lines[1] = json.dumps(doc)
    rec.write_text("\n".join(lines) + "\n")
    res = runner.invoke(app, ["replay", str(rec)])
    assert res.exit_code == 1 and ":2: illegal move" in res.output, res.output


def test_the_engine_names_no_edition():
    pattern = re.compile(r"ravensburger|pro[-_ ]?ludo|dice[-_ ]?tree|gladiator|ausgebremst|"
                         r"1989|2006|2022", re.I)
    mine = ["core/board", "core/moves", "core/notation", "bots/policies", "core/race",
            "core/record", "core/ruleset_adapter", "core/state", "core/types"]
    for name in mine:
        text = (ENGINE / f"{name}.py").read_text(encoding="utf-8")
        assert not pattern.search(text), name


def test_rules_adapter_reads_every_key_with_its_citation(rules_of):
    r = rules_of("dicetree-2022")
    assert r.hand_size == 3 and r.deck_points == 84 and r.laps == 3
    assert r.places == (8, 6, 4, 3, 2, 1) and r.six_at_start == "first_row_may_not"
    assert r.cite("six_joint") == "DiceTree 2022 rulebook (DE) S.5"
    old = rules_of("ravensburger-1989")
    assert old.six_at_start == "start_player_may" and old.alley_wait == "must_wait"
    assert rules_of("pro-ludo-2006").six_ends == "never"
    assert rules_of("pro-ludo-2006").water == "skipped"


@pytest.mark.covers("command:play")
def test_play_drives_a_person_through_the_race(tmp_path):
    rec = tmp_path / "play.jsonl"
    script = "99\nabc\n6:999\n" + "1\n" * 300
    res = runner.invoke(app, ["play", "--ruleset", "dicetree-2022", "--course", OVAL,
                              "--humans", "Anna", "--players", "2", "--seed", "4",
                              "--record", str(rec)], input=script)
    assert res.exit_code == 0, res.output[-2000:]
    out = res.output
    assert "your move" in out and "hand:" in out and " 1. play" in out
    assert "please answer 1-" in out  # 99 and abc re-ask
    assert "not allowed: " in out  # 6:999 says why
    assert "result:" in out and "Anna" in out
    again = runner.invoke(app, ["replay", str(rec)])
    assert again.exit_code == 0, again.output


def test_play_input_ending_early_is_a_clear_error():
    res = runner.invoke(app, ["play", "--ruleset", "dicetree-2022", "--course", OVAL,
                              "--humans", "Anna", "--seed", "4"], input="1\n")
    assert res.exit_code == 1
    assert "input ended" in res.output and "Traceback" not in res.output


def test_variants_the_engine_cannot_play_yet_are_refused_not_ignored():
    from avecaesar.engine.core.ruleset_adapter import UnsupportedRuleError, rules_from_ruleset
    from avecaesar.engine.ruleset.load import load_ruleset

    with pytest.raises(UnsupportedRuleError):
        rules_from_ruleset(load_ruleset("dicetree-2022", ["split-deck"],
                                        {"deck.split": "sorted_by_player"}))
    four = rules_from_ruleset(load_ruleset("dicetree-2022", ["four-hand-cards"]))
    assert four.hand_size == 4
    res = runner.invoke(app, ["race", "--ruleset", "dicetree-2022", "--variant",
                              "ramming-attacks", "--course", OVAL])
    assert res.exit_code == 2 and "ramming" in res.output and "Traceback" not in res.output


def test_play_asks_for_open_values_at_the_table_and_saves_them(tmp_path: Path) -> None:
    """Issue 10: `play` asks for each open value it needs (re-asking a value outside the
    choices) and offers to save the answers as a house-rules file."""
    saved = tmp_path / "ours.yaml"
    rec = tmp_path / "p.jsonl"
    answers = f"no_effect\nmaybe\nattacker_wins\n{saved}\n" + "1\n" * 3000
    res = runner.invoke(app, ["play", "--ruleset", "2022", "--variant", "ramming-attacks",
                              "--course", OVAL, "--humans", "Anna", "--players", "2",
                              "--record", str(rec)], input=answers)
    assert res.exit_code == 0, res.output
    assert "choose one of: no_effect, attacker_wins, defender_wins" in res.output
    assert saved.read_text(encoding="utf-8").endswith(
        "rules:\n  ramming.attack_chips: no_effect\n  ramming.tie: attacker_wins\n")
    head = json.loads(rec.read_text().splitlines()[0])
    assert head["house"]["ramming.tie"]["value"] == "attacker_wins"
    assert runner.invoke(app, ["replay", str(rec)]).exit_code == 0
    # the saved file answers them next time: nothing is asked
    again = runner.invoke(app, ["play", "--ruleset", "2022", "--variant", "ramming-attacks",
                                "--course", OVAL, "--humans", "Anna", "--players", "2",
                                "--house", str(saved)], input="1\n" * 3000)
    assert again.exit_code == 0 and "open that this race needs" not in again.output
    # input that ends first is a clear error
    cut = runner.invoke(app, ["play", "--ruleset", "2022", "--variant", "ramming-attacks",
                              "--course", OVAL, "--humans", "Anna"], input="")
    assert cut.exit_code == 1 and "input ended" in cut.output
