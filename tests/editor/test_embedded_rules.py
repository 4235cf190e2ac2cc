"""A record carries the rules it was run under: ``--variant FILE`` and ``--ruleset FILE``
(and a file they extend) as their text in the header's ``rules_files``, ``--house FILE`` as
its values in ``house`` — so it replays on another machine, where those files are not."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.engine.data.paths import RULESETS_DIR

runner = CliRunner()
COURSE = "dicetree-2022/arena-carthago"


@pytest.fixture()
def files(tmp_path: Path) -> Path:
    """A folder with a variant file, a ruleset file that extends an edition, a house file."""
    rules = tmp_path / "ours"
    rules.mkdir()
    text = (RULESETS_DIR / "variants" / "four-hand-cards.yaml").read_text(encoding="utf-8")
    (rules / "five.yaml").write_text(text.replace("id: four-hand-cards", "id: five-cards")
                                     .replace("value: 4", "value: 5"), encoding="utf-8")
    (rules / "club.yaml").write_text(
        "id: club-2022\nkind: homebrew\ntitle: Our club's 2022\nextends: dicetree-2022\n"
        "rules:\n  hand:\n    size: {value: 4, source: \"house rule: our club\"}\n",
        encoding="utf-8")
    (rules / "house.yaml").write_text("rules:\n  ramming.tie: defender_wins\n"
                                      "  ramming.attack_chips: no_effect\n", encoding="utf-8")
    return tmp_path


def _in(folder: Path, args: list[str]) -> tuple[int, str]:
    here = Path.cwd()
    os.chdir(folder)
    try:
        res = runner.invoke(app, args)
    finally:
        os.chdir(here)
    return res.exit_code, res.output


def test_a_record_replays_after_its_rules_files_are_gone(files: Path) -> None:
    code, out = _in(files, ["race", "-r", "ours/club.yaml", "-c", COURSE, "-n", "3",
                            "--variant", "ours/five.yaml", "--variant", "ramming-attacks",
                            "--house", "ours/house.yaml", "--seed", "3",
                            "--record", "game.jsonl"])
    assert code == 0, out
    head = json.loads((files / "game.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert sorted(head["rules_files"]) == ["ours/club.yaml", "ours/five.yaml"]
    assert head["rules_files"]["ours/five.yaml"] == (files / "ours" / "five.yaml").read_text(
        encoding="utf-8")
    assert head["house"]["ramming.tie"]["value"] == "defender_wins"
    assert "dicetree-2022" not in str(list(head["rules_files"]))  # bundled: named by id
    # another machine: the record alone, in a folder of its own
    elsewhere = files / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(files / "game.jsonl", elsewhere / "game.jsonl")
    shutil.rmtree(files / "ours")
    code, out = _in(elsewhere, ["replay", "game.jsonl"])
    assert code == 0, out
    assert "every move legal; finished" in out
    code, out = _in(elsewhere, ["replay", "game.jsonl", "--html", "game.html"])
    assert code == 0, out


def test_the_record_s_copy_is_what_replays(files: Path) -> None:
    """The copy in the record wins over a file of the same name that changed since."""
    code, out = _in(files, ["race", "-r", "2022", "-c", COURSE, "-n", "3", "--seed", "5",
                            "--variant", "ours/five.yaml", "--record", "game.jsonl"])
    assert code == 0, out
    five = files / "ours" / "five.yaml"
    five.write_text(five.read_text(encoding="utf-8").replace("value: 5", "value: 3"),
                    encoding="utf-8")
    code, out = _in(files, ["replay", "game.jsonl"])
    assert code == 0 and "every move legal" in out, out


def test_a_saved_game_resumes_after_its_variant_file_is_gone(files: Path) -> None:
    code, out = _in(files, ["play", "-r", "2022", "-c", COURSE, "--humans", "Anna",
                            "--players", "2", "--variant", "ours/five.yaml", "--seed", "4",
                            "--record", "game.jsonl"])
    assert code == 1 and "the record is kept in game.jsonl" in out, out
    shutil.rmtree(files / "ours")
    here = Path.cwd()
    os.chdir(files)
    try:
        res = runner.invoke(app, ["play", "--resume", "game.jsonl"], input="1\n" * 300)
    finally:
        os.chdir(here)
    assert res.exit_code == 0, res.output[-2000:]
    assert "result:" in res.output
    head = json.loads((files / "game.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert "ours/five.yaml" in head["rules_files"]


def test_a_tournament_record_replays_after_its_variant_file_is_gone(files: Path) -> None:
    code, out = _in(files, ["tournament", "-r", "2022", "-n", "3", "--seed", "2",
                            "--variant", "ours/five.yaml", "--record", "t.json"])
    assert code == 0, out
    doc = json.loads((files / "t.json").read_text(encoding="utf-8"))
    assert "ours/five.yaml" in doc["rules_files"]
    assert all("ours/five.yaml" in r["record"][0]["rules_files"] for r in doc["races"])
    shutil.rmtree(files / "ours")
    code, out = _in(files, ["tournament", "--replay", "t.json"])
    assert code == 0 and "races replayed, every move legal" in out, out
