"""The course commands as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app

VALID = Path(__file__).parents[1] / "course" / "valid"
runner = CliRunner()


def test_validate_json_has_figures_and_exit_0() -> None:
    r = runner.invoke(app, ["course", "validate", "--json", str(VALID / "alley.yaml")])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert [d["direction"] for d in data] == ["clockwise", "anticlockwise"]
    figs = data[0]["figures"]
    assert figs["lap"] == 26 and figs["shortest_race"][0] == 80 and figs["reserve"][0] == 4
    assert figs["finishable"] is True and data[0]["problems"] == []


def test_deck_points_make_a_course_unfinishable() -> None:
    r = runner.invoke(app, ["course", "validate", "--deck-points", "79",
                            str(VALID / "alley.yaml")])
    assert r.exit_code == 1
    assert "NOT finishable" in r.output


def test_validate_several_files_reports_each() -> None:
    """The hand-computed test ovals have no alley: a problem under rules that require the
    stop (every edition, and the shared defaults), fine under the DiceTree variant where not
    stopping costs nothing (DiceTree 2022 rulebook (DE) S.8-12, variant 3)."""
    files = [str(VALID / "oval.yaml"), str(VALID / "chicane.yaml")]
    r = runner.invoke(app, ["course", "validate", *files])
    assert r.exit_code == 1, r.output
    assert "Plain oval" in r.output and "Oval with a chicane" in r.output
    assert r.output.count("the course has no Imperial alley") == 2
    for rules in (["--ruleset", "dicetree-2022"], ["--ruleset", "pro-ludo-2006", "--set",
                                                    "disqualification.keeps_place=true"]):
        r = runner.invoke(app, ["course", "validate", *rules, *files])
        assert r.exit_code == 1 and "no Imperial alley" in r.output, r.output
    r = runner.invoke(app, ["course", "validate", "--ruleset", "dicetree-2022", "--variant",
                            "alley-race-card", *files])
    assert r.exit_code == 0, r.output
    assert "no Imperial alley" not in r.output


def test_start_places_away_from_the_line_are_a_warning_with_their_cost(tmp_path) -> None:
    """The grid moved round the course changes every race: a warning names the cost."""
    text = (VALID / "alley.yaml").read_text(encoding="utf-8")
    import re

    start = re.search(r"^start: .*$", text, re.M)
    assert start
    moved = tmp_path / "moved.yaml"
    moved.write_text(text.replace(start.group(0), "start: [back.0.0, back.1.0]"),
                     encoding="utf-8")
    r = runner.invoke(app, ["course", "validate", str(moved)])
    assert "warning: start place 1 (back.0.0) is " in r.output, r.output
    assert "not in the grid right behind it" in r.output
    plain = runner.invoke(app, ["course", "validate", str(VALID / "alley.yaml")])
    assert "not in the grid" not in plain.output


@pytest.mark.covers("command:course dump")
def test_dump_is_node_link_json(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    r = runner.invoke(app, ["course", "dump", str(VALID / "oval.yaml"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert len(data["nodes"]) == 3 * (4 + 6 + 2) + 4 + 5 + 6 + 4 + 5 + 6
    assert any(e["finish"] for e in data["edges"])


def test_new_refuses_to_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "t.yaml"
    target.write_text("keep me")
    r = runner.invoke(app, ["course", "new", "t", "-o", str(target)])
    assert r.exit_code == 1 and target.read_text() == "keep me"


def test_usage_errors_exit_2() -> None:
    assert runner.invoke(app, ["course", "validate"]).exit_code == 2
    assert runner.invoke(app, ["course", "validate", "--deck-points", "x", "a"]).exit_code == 2


def test_ruleset_supplies_deck_and_bonus() -> None:
    """The homebrew +3 bonus piece, usable once instead of a card, adds 3 to the reserve
    (reader homebrew (PT comments)); plain 1989 rules keep 84 points
    (Ravensburger 1989 rules (EN summary), Components)."""
    plain = runner.invoke(app, ["course", "validate", "--json", "--ruleset", "1989",
                                str(VALID / "alley.yaml")])
    assert plain.exit_code == 0, plain.output
    figs = json.loads(plain.stdout)[0]["figures"]
    assert figs["deck_points"] == 84 and figs["bonus_points"] == 0 and figs["reserve"][0] == 4
    bonus = runner.invoke(app, ["course", "validate", "--json", "--ruleset", "pro-ludo-2006",
                                "--variant", "homebrew-bonus-piece", str(VALID / "alley.yaml")])
    assert bonus.exit_code == 0, bonus.output
    assert json.loads(bonus.stdout)[0]["figures"]["reserve"][0] == 7


def test_unknown_ruleset_is_a_clear_error() -> None:
    r = runner.invoke(app, ["course", "validate", "--ruleset", "dicetre",
                            str(VALID / "alley.yaml")])
    assert r.exit_code == 2  # an unknown id is a usage error
    assert "did you mean 'dicetree-2022'?" in r.output and "Traceback" not in r.output


def test_variant_without_ruleset_is_refused() -> None:
    r = runner.invoke(app, ["course", "validate", "--variant", "four-hand-cards",
                            str(VALID / "alley.yaml")])
    assert r.exit_code == 2 and "--variant needs --ruleset" in r.output


@pytest.mark.covers("check:alley-shortcut")
def test_an_alley_shorter_than_the_track_beside_it_is_a_warning(tmp_path: Path) -> None:
    """An alley is a detour (5 spaces beside 2, Pro Ludo 2006 rules (PT) comments); one with
    fewer spaces than the track beside it would be a shortcut every lap: a warning only."""
    src = (VALID / "oval.yaml").read_text().replace(
        "start: [", "alley: {from: back, to: back, spaces: 3}\nstart: [")
    f = tmp_path / "shortcut.yaml"
    f.write_text(src)
    r = runner.invoke(app, ["course", "validate", str(f)])
    assert r.exit_code == 0, r.output
    assert "warning: the alley has 3 spaces beside 6 track spaces" in r.output


def test_every_option_of_course_validate_is_in_its_one_table() -> None:
    """``course validate`` builds its options from its own parameters (ValidateOptions), and
    all of them at their defaults is the plain, cached check: an option added to the
    command but not to the table fails here (and at its first use), never silently."""
    import dataclasses
    import inspect

    from avecaesar.editor.cli.course import ValidateOptions, validate

    params = {name: p.default for name, p in inspect.signature(validate).parameters.items()
              if name != "courses"}
    table = {f.name: f.default for f in dataclasses.fields(ValidateOptions)}
    assert params == table
