"""Fairness over a tournament (issue 39, point 1): each first-race start place's expected
tournament points and tournament win share over the edition's races and its next-race start
order, with intervals; the single-race spread as a figure of its own."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.engine.bots.registry import OWNERLESS, make_policy
from avecaesar.engine.core.race_setup import ChosenRules
from avecaesar.engine.core.tournament import run_tournament
from avecaesar.engine.lab.batch import batch_spec
from avecaesar.engine.lab.tournament_fairness import (
    fairness,
    play_tournament,
    run_tournaments,
)

runner = CliRunner()
COURSE = "ravensburger-1989/a-blue"


@pytest.fixture(scope="module")
def spec():  # type: ignore[no-untyped-def]
    s, _ = batch_spec(COURSE, None, None, 1, 5, ("greedy",))
    return s


def test_the_quick_loop_plays_the_tournament_the_engine_plays(spec) -> None:  # type: ignore[no-untyped-def]
    """play_tournament (the simulation's board, no records) gives the races, start orders and
    points of the engine's run_tournament on the same course and seed."""
    chosen = ChosenRules.compose(spec.ruleset)
    names = [f"greedy-{p + 1}" for p in range(spec.players)]
    policies = [make_policy("greedy", 77 + p) for p in range(spec.players)]
    done = run_tournament(chosen.tournament_rules, chosen.course_setups(), names, policies,
                          77, [COURSE], ownerless=OWNERLESS)
    ours = play_tournament(spec, 77, chosen.tournament_rules)
    assert len(ours) == len(done.races) == chosen.tournament_rules.races == 4
    for a, b in zip(ours, done.races, strict=True):
        assert (a.seed, a.seats, a.seat_order, a.points) == (b.seed, b.seats, b.seat_order,
                                                             b.points)
    # the next race's order follows the rule (1989: the loser opens, clockwise)
    assert ours[1].seats[0] == ours[0].seat_order[-1]


def test_the_figures_add_up_and_do_not_depend_on_workers(spec) -> None:  # type: ignore[no-untyped-def]
    one = run_tournaments(spec, 24, 1)
    assert run_tournaments(spec, 24, 2) == one
    f = fairness(spec, one)
    assert f.tournaments == 24 and f.races_each == 4 and f.next_start_order == "loser_first"
    assert [p.place for p in f.places] == [1, 2, 3, 4]
    # every tournament has one winner's share in all (shared firsts split it)
    assert sum(p.win_share for p in f.places) == pytest.approx(1.0)
    # each race gives 1 win to some start place (or none placed)
    assert sum(p.single_race_win_rate for p in f.places) <= 1.0 + 1e-9
    for p in f.places:
        assert p.points_ci[0] <= p.points <= p.points_ci[1]
        assert p.win_ci[0] <= p.win_share <= p.win_ci[1]
    shares = [p.win_share for p in f.places]
    assert f.spread == pytest.approx(max(shares) - min(shares))
    assert f.spread_ci[0] <= f.spread <= f.spread_ci[1]
    rates = [p.single_race_win_rate for p in f.places]
    assert f.single_race_spread == pytest.approx(max(rates) - min(rates))
    # another seed, other tournaments
    assert run_tournaments(replace(spec, seed=6), 4, 1) != one[:4]


@pytest.mark.covers("command:simulate")
def test_simulate_tournament_prints_both_spreads() -> None:
    res = runner.invoke(app, ["simulate", "--ruleset", "1989", "--course", COURSE,
                              "--players", "4", "--races", "12", "--tournament",
                              "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert "12 tournaments of 4 races" in res.output and "next race: loser first" in res.output
    assert "tournament spread" in res.output and "single-race spread" in res.output
    res = runner.invoke(app, ["simulate", "--ruleset", "1989", "--course", COURSE,
                              "--players", "4", "--races", "12", "--tournament",
                              "--workers", "1", "--json", "-"])
    data = json.loads(res.output)
    assert data["tournaments"] == 12 and len(data["by_first_race_start_place"]) == 4
    assert set(data["by_first_race_start_place"][0]) >= {"expected_points", "points_ci",
                                                         "win_share", "win_ci"}


def test_simulate_tournament_refuses_what_it_does_not_draw() -> None:
    res = runner.invoke(app, ["simulate", "--ruleset", "1989", "--course", COURSE,
                              "--players", "4", "--races", "12", "--tournament",
                              "--chart", "x.svg"])
    assert res.exit_code == 2 and "--tournament reports its figures" in res.output


@pytest.mark.covers("command:simulate")
def test_simulate_tournament_report_is_a_page_of_the_json_figures(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """--tournament --report (issue 39, point 1): the page shows, per first-race start
    place, the expected tournament points and win share with their intervals as the JSON
    has them, both spreads, and defines each name once."""
    page, out = tmp_path / "t.html", tmp_path / "t.json"
    res = runner.invoke(app, ["simulate", "--ruleset", "1989", "--course", COURSE,
                              "--players", "4", "--races", "10", "--tournament",
                              "--workers", "1", "--report", str(page), "--json", str(out)])
    assert res.exit_code == 0, res.output
    data, html = json.loads(out.read_text()), page.read_text()
    assert "<script" not in html and "<link" not in html and "src=" not in html
    for p in data["by_first_race_start_place"]:
        lo, hi = p["win_ci"]
        assert (f"<td>{p['place']}</td><td>{p['expected_points']:.2f} "
                f"({p['points_ci'][0]:.2f}–{p['points_ci'][1]:.2f})</td><td>"
                f"{100 * p['win_share']:.1f} % ({100 * max(0.0, lo):.1f}–"
                f"{100 * min(1.0, hi):.1f} %)</td>") in html
    assert f"{100 * data['tournament_spread']:.1f} percentage points" in html
    assert f"{100 * data['single_race_spread']:.1f} percentage points" in html
    for name in ("tournament win share", "expected tournament points", "tournament spread",
                 "single-race spread", "first-race start place"):
        assert html.count(f"<b>{name}</b>:") == 1, name
    assert html.count('class="definitions"') == 1
