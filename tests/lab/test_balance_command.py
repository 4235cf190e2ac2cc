"""``avecaesar balance``: many courses ranked best to worst balanced (issue 24, part 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.cli.balance import pick_courses
from avecaesar.editor.main import app
from avecaesar.engine.lab.batch import batch_spec, settle_open_values

runner = CliRunner()


def test_pick_courses() -> None:
    assert pick_courses(["homebrew/rome"], []) == ["homebrew/rome"]
    found = pick_courses([], ["pro-ludo-2006"])
    assert found == ["pro-ludo-2006/circus-maximus", "pro-ludo-2006/circus-maximus-ccw",
                     "pro-ludo-2006/constantinople", "pro-ludo-2006/constantinople-ccw"]
    assert len(pick_courses([], [])) == 25  # with the 3 generated to a brief (issue 40)


def test_a_batch_settles_open_values_and_seats_what_the_course_takes() -> None:
    settings, notes = settle_open_values("homebrew", (), (), "homebrew/rome")
    assert settings == (("teams.turn_order", "in_start_order"),)
    assert "left open by the rules" in notes[0] and "--set teams.turn_order" in notes[0]
    spec, _ = batch_spec("homebrew/rome", None, None, 10, 1, ("greedy",))
    assert (spec.ruleset, spec.players) == ("homebrew", 3)  # two chariots each, 6 places
    spec, notes = batch_spec("ravensburger-1989/a-blue", None, None, 10, 1, ("greedy",))
    assert (spec.ruleset, spec.players, notes) == ("ravensburger-1989", 4, [])


@pytest.mark.covers("command:balance")
def test_balance_ranks_courses_best_first(tmp_path: Path) -> None:
    out = tmp_path / "b.json"
    res = runner.invoke(app, ["balance", "pro-ludo-2006/circus-maximus",
                              "ravensburger-1989/b-red", "-k", "12", "--workers", "1",
                              "--quiet", "--json", str(out), "--report-dir",
                              str(tmp_path / "pages")])
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    spreads = [c["spread"] for c in data["courses"]]
    assert spreads == sorted(spreads) and [c["rank"] for c in data["courses"]] == [1, 2]
    lines = res.output.splitlines()
    assert lines[1].split()[:2] == ["rank", "course"]
    assert lines[2].split()[1] == data["courses"][0]["spec"]["course"]
    pages = sorted(p.name for p in (tmp_path / "pages").iterdir())
    assert pages == ["pro-ludo-2006_circus-maximus.html", "ravensburger-1989_b-red.html"]


@pytest.mark.parametrize(("args", "message"), [
    (["--edition", "1898"], "no bundled course of that edition"),
    (["nowhere/none"], "unknown course"),
    (["homebrew/rome", "-k", "0"], "--races 0"),
    (["homebrew/rome", "-n", "9"], "9 players are too many: these rules are for 3 players"),
    (["homebrew/rome", "-n", "6"], "6 players are too many: these rules are for 3 players"),
    (["homebrew/rome", "--bots", "gredy"], "did you mean 'greedy'"),
    (["homebrew/rome", "--workers", "999"], "--workers 999"),
    (["homebrew/rome", "--json", "/nonexistent-dir/x.json"], "--json"),
])
def test_balance_bad_input_is_clear(args: list[str], message: str) -> None:
    res = runner.invoke(app, ["balance", *args, "--quiet"])
    assert res.exit_code != 0
    assert message in res.output, res.output
    assert "Traceback" not in res.output


def test_balance_report_dir_must_be_a_folder(tmp_path: Path) -> None:
    f = tmp_path / "file"
    f.write_text("x")
    res = runner.invoke(app, ["balance", "homebrew/rome", "--report-dir", str(f), "--quiet"])
    assert res.exit_code == 2 and "give a folder" in res.output


def test_balance_gives_the_tournament_spread_next_to_the_race_spread() -> None:
    """--tournament (issue 39, point 1): each course's tournament spread with its 95 %
    interval beside the single-race spread, each named; the JSON carries the figures, the
    same as simulate --tournament gives for the course."""
    args = ["balance", "ravensburger-1989/a-blue", "-k", "8", "--workers", "1", "--quiet",
            "--tournament"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    head = next(line for line in res.output.splitlines() if line.startswith("rank"))
    assert "race spread" in head and "tournament spread (95 %)" in head
    assert "the tournament win share of the best start place of the first race" in res.output
    data = json.loads(runner.invoke(app, [*args, "--json", "-"]).output)
    t = data["courses"][0]["tournament"]
    assert t["tournaments"] == 8 and t["races_per_tournament"] == 4
    assert t["tournament_spread_ci"][0] <= t["tournament_spread"] <= t["tournament_spread_ci"][1]
    alone = json.loads(runner.invoke(app, ["simulate", "-r", "ravensburger-1989", "-c",
                                           "ravensburger-1989/a-blue", "-n", "4", "-k", "8",
                                           "--tournament", "--workers", "1", "--json",
                                           "-"]).output)
    assert t == alone
    row = next(line for line in res.output.splitlines() if "a-blue" in line)
    assert f"{100 * t['tournament_spread']:.1f} pp" in row
