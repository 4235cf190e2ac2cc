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
