"""Every edition's range of players is enforced where a person sets up a race (issue 20),
with a message that names the variants allowing the number asked for."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from avecaesar.editor.app import app

runner = CliRunner()
pytestmark = pytest.mark.covers("rule:players.min", "rule:players.max")


def test_1989_is_for_3_to_6_players_and_names_the_variants_for_2():
    # "3-6 players" (Ravensburger 1989 rules (EN summary), Overview)
    res = runner.invoke(app, ["race", "-r", "ravensburger-1989", "-c",
                              "ravensburger-1989/a-white", "-n", "2"])
    assert res.exit_code == 2
    assert "2 players are too few: these rules are for 3 to 6 players" in res.output
    assert "Ravensburger 1989 rules (EN summary), Overview" in res.output
    assert "several-chariots-per-player" in res.output and "--variant" in res.output
    assert "Traceback" not in res.output


def test_one_player_gets_the_house_rule_to_write():
    res = runner.invoke(app, ["race", "-r", "dicetree-2022", "-c",
                              "dicetree-2022/arena-carthago", "-n", "1"])
    assert res.exit_code == 2
    assert "1 player is too few: these rules are for 2 to 6 players" in res.output
    assert "--set players.min=1" in res.output
    ok = runner.invoke(app, ["race", "-r", "dicetree-2022", "-c",
                             "dicetree-2022/arena-carthago", "-n", "1",
                             "--set", "players.min=1"])
    assert ok.exit_code == 0, ok.output


@pytest.mark.parametrize("command", [
    ["simulate", "-k", "2", "--quiet"],
    ["tournament", "--courses", "ravensburger-1989/a-white"],
])
def test_simulate_and_tournament_refuse_too_few_players(command):
    args = [*command, "-r", "ravensburger-1989", "-n", "2"]
    if command[0] == "simulate":
        args += ["-c", "ravensburger-1989/a-white"]
    res = runner.invoke(app, args)
    assert res.exit_code == 2, res.output
    assert "2 players are too few" in res.output


def test_a_default_race_of_every_edition_runs_with_no_extra_flags():
    for edition, course in (("ravensburger-1989", "ravensburger-1989/a-white"),
                            ("pro-ludo-2006", "pro-ludo-2006/circus-maximus"),
                            ("dicetree-2022", "dicetree-2022/arena-carthago")):
        res = runner.invoke(app, ["race", "-r", edition, "-c", course])
        assert res.exit_code == 0, res.output


# --- one voice for player counts (issue 38): every message from player_counts ------------

def _race(*args: str):
    return runner.invoke(app, ["race", *args])


def test_a_team_variant_names_its_own_counts_never_1_to_3():
    # several chariots each, 2 per player, on a 6-place course: "Mit 2 oder 3 Spielern"
    # (Pro Ludo 2006 Spielregel (DE) VII) — 4 players are too many, and 1 is too few
    base = ["-r", "pro-ludo-2006", "-v", "several-chariots-per-player", "-c",
            "pro-ludo-2006/circus-maximus", "--set", "players.chariots_per_player=2",
            "--set", "teams.turn_order=in_start_order", "--set",
            "teams.scoring=all_chariots_score"]
    four = _race(*base, "-n", "4")
    assert four.exit_code == 2
    assert "4 players are too many: these rules are for 2 or 3 players" in four.output
    assert "1 to 3" not in four.output and "--set players.max" not in four.output
    one = _race(*base, "-n", "1")
    assert "1 player is too few: these rules are for 2 or 3 players" in one.output


def test_a_range_of_one_count_says_that_count():
    res = _race("-r", "dicetree-2022", "-v", "homebrew-team-pairs", "-c",
                "dicetree-2022/arena-carthago", "--set", "teams.turn_order=in_start_order",
                "-n", "1")
    assert res.exit_code == 2
    assert "these rules are for 3 players (reader homebrew (PT comments), comment 1)" in (
        res.output)
    assert "3 to 3" not in res.output


@pytest.mark.parametrize("n", ["0", "7"])
def test_a_count_outside_every_race_names_the_editions_range(n):
    # every edition refuses 1 player and more than 6: no generic "1 to 6 players"
    res = _race("-r", "dicetree-2022", "-c", "dicetree-2022/arena-carthago", "-n", n)
    assert res.exit_code == 2
    assert "these rules are for 2 to 6 players (DiceTree 2022 rulebook (DE) S.8-9)" in (
        res.output)
    assert "1 to 6" not in res.output


def test_1989_for_2_players_suggests_no_variant_of_another_edition():
    # dicetree-team-race is DiceTree 2022's variant 5 (S.11): not offered under 1989
    res = _race("-r", "ravensburger-1989", "-c", "ravensburger-1989/a-white", "-n", "2")
    assert "the variant several-chariots-per-player allows 2 (--variant)" in res.output
    assert "dicetree-team-race" not in res.output
    under_2022 = _race("-r", "dicetree-2022", "-v", "homebrew-team-pairs", "-c",
                       "dicetree-2022/arena-carthago", "--set",
                       "teams.turn_order=in_start_order", "-n", "2")
    assert under_2022.exit_code == 2  # the conflict (homebrew pairs) names none of them
    assert "dicetree-team-race" not in under_2022.output


def test_the_counts_a_course_allows_come_from_one_function():
    from avecaesar.engine.core.player_counts import counts_text, player_counts
    from avecaesar.engine.core.race_setup import ChosenRules

    assert [counts_text(c) for c in ([3], [2, 3], [2, 3, 4], [2, 4], [2, 3, 5], [])] == [
        "3", "2 or 3", "2 to 4", "2 or 4", "2, 3 or 5", "none"]
    white = ChosenRules.compose("ravensburger-1989").on("ravensburger-1989/a-white")
    counts = player_counts(white.race_rules, white.board)
    assert counts.by_rules == (3, 4, 5, 6) and counts.allowed == (3, 4)
    assert "choose 3 or 4 players" in counts.why_not(5)
    team = ChosenRules.compose("dicetree-2022", ["dicetree-team-race"]).on(
        "dicetree-2022/arena-carthago")
    assert player_counts(team.race_rules, team.board).allowed == (2, 3)
    res = _race("-r", "dicetree-2022", "-v", "dicetree-team-race", "-c",
                "dicetree-2022/arena-carthago", "-n", "4")
    assert "4 players are too many: these rules are for 2 or 3 players" in res.output
