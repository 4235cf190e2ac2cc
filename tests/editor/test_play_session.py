"""``avecaesar play`` at the terminal: random seed, pass screen, undo, save, resume,
the record kept when the input stops; ``--version``."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.engine.core.record import read_record

runner = CliRunner()
OVAL = str(Path(__file__).parents[1] / "core" / "courses" / "oval.yaml")
BASE = ["play", "--ruleset", "dicetree-2022", "--course", OVAL]


def test_the_seed_is_random_by_default_and_printed() -> None:
    seeds = set()
    for _ in range(3):
        res = runner.invoke(app, [*BASE, "--humans", "Anna"], input="")
        m = re.search(r"seed (\d+) \(repeat it with --seed \1\); start order: (.*)", res.output)
        assert m, res.output
        seeds.add(m[1])
        again = runner.invoke(app, [*BASE, "--humans", "Anna", "--seed", m[1]], input="")
        assert f"start order: {m[2]}" in again.output  # the printed seed repeats the race
    assert len(seeds) > 1


def test_two_people_pass_the_keyboard_and_the_hand_waits_for_enter() -> None:
    res = runner.invoke(app, [*BASE, "--humans", "Anna,Ben", "--seed", "4"],
                        input="\n1\n\n1\n\n")
    out = res.output
    first, second = out.index("pass to Anna — press Enter"), out.index("pass to Ben — press Enter")
    hands = [m.start() for m in re.finditer(r"  hand: ", out)]
    # each hand is printed only after its owner pressed Enter on their own pass screen
    assert first < hands[0] < second < hands[1]
    assert "A (Anna)" in out[first:second] and "B (Ben)" in out[second:]
    assert "Anna" not in out[second:].split("  hand: ")[1].split("\n")[0]


def test_undo_takes_back_the_last_own_move() -> None:
    res = runner.invoke(app, [*BASE, "--humans", "Anna", "--seed", "4"], input="1\nundo\n")
    out = res.output
    assert "undone: back to ply 0" in out
    hands = re.findall(r"  hand: (.*)", out)
    assert hands[0] == hands[2]  # the same turn again with the same hand


def test_save_then_resume_to_the_end(tmp_path: Path) -> None:
    rec = tmp_path / "game.jsonl"
    res = runner.invoke(app, [*BASE, "--humans", "Anna", "--seed", "4"],
                        input=f"1\nsave {rec}\n1\n")
    assert res.exit_code == 1  # the input stopped before the race did
    assert f"saved to {rec}" in res.output
    assert f"the record is kept in {rec}: continue with --resume {rec}" in res.output
    kept = read_record(rec)
    assert kept[-1]["type"] != "result" and len(kept) >= 3  # header + both people's turns
    done = runner.invoke(app, ["play", "--resume", str(rec)], input="1\n" * 300)
    assert done.exit_code == 0, done.output[-1500:]
    assert f"resuming {rec}: {len(kept) - 1} turns replayed" in done.output
    assert "result:" in done.output
    final = read_record(rec)
    assert final[-1]["type"] == "result" and final[:len(kept)] == kept
    assert runner.invoke(app, ["replay", str(rec)]).exit_code == 0


def test_play_without_a_race_or_resume_is_a_clear_error() -> None:
    res = runner.invoke(app, ["play"])
    assert res.exit_code == 2 and "--resume FILE" in res.output


def test_version() -> None:
    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0 and re.fullmatch(r"avecaesar \S+\n", res.output)
