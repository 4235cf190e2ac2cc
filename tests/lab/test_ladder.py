"""The skill ladder (issue 39, point 3): bots rated against each other with OpenSkill in
mixed races, best first, each rung's races shown and whether it stands > 2σ above the next."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.engine.data.errors import UsageError
from avecaesar.engine.lab.batch import batch_spec
from avecaesar.engine.lab.ladder import Entrant, entrants, ladder, race_lineup, run_ladder_races

runner = CliRunner()
COURSE = "ravensburger-1989/a-blue"


def test_entrants_are_bots_at_budgets() -> None:
    assert entrants("random,greedy,expert:32") == [
        Entrant("random"), Entrant("greedy"), Entrant("expert", 32)]
    assert entrants("expert:32,greedy")[0].name == "expert:32"
    for bad, said in (("greedy:3", "takes no budget"), ("expert:0", "a budget of 1"),
                      ("greedy,greedy", "named twice"), ("greedy", "at least two")):
        with pytest.raises(UsageError, match=said):
            entrants(bad)


def test_a_lineup_is_distinct_entrants_and_seeded() -> None:
    for i in range(20):
        lineup = race_lineup(1, i, 6, 4)
        assert len(lineup) == len(set(lineup)) == 4 and set(lineup) <= set(range(6))
    assert race_lineup(1, 3, 6, 4) == race_lineup(1, 3, 6, 4) != race_lineup(2, 3, 6, 4)
    assert sorted(race_lineup(1, 0, 3, 6)) == [0, 1, 2]  # all of them when they fit


def test_the_rating_follows_the_results_in_race_order() -> None:
    spec, _ = batch_spec(COURSE, None, None, 3, 1, ("greedy",))
    field_ = entrants("random,greedy,search")
    # search wins every race, random never places
    results = [(i, [0, 1, 2], [None, 2, 1]) for i in range(3)]
    lad = ladder(spec, field_, results)
    assert [r.entrant for r in lad.rungs] == ["search", "greedy", "random"]
    assert [r.races for r in lad.rungs] == [3, 3, 3] and lad.rungs[0].wins == 3
    assert lad.rungs[-1].separated is None
    # fewer races, a wider sigma
    assert ladder(spec, field_, results[:1]).rungs[0].sigma > lad.rungs[0].sigma


def test_greedy_stands_above_random_on_any_number_of_workers() -> None:
    spec, _ = batch_spec(COURSE, None, None, 24, 1, ("greedy",))
    field_ = entrants("random,greedy")
    one = run_ladder_races(spec, field_, 1)
    assert run_ladder_races(spec, field_, 2) == one
    lad = ladder(spec, field_, one)
    assert [r.entrant for r in lad.rungs] == ["greedy", "random"]
    assert lad.separated and lad.rungs[0].mu - lad.rungs[1].mu > 2 * (
        lad.rungs[0].sigma ** 2 + lad.rungs[1].sigma ** 2) ** 0.5


@pytest.mark.covers("command:simulate")
def test_simulate_ladder_prints_the_rungs_with_their_races() -> None:
    res = runner.invoke(app, ["simulate", "-r", "1989", "-c", COURSE, "-n", "4", "-k", "12",
                              "--ladder", "random,greedy", "--workers", "1", "--json", "-"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert [r["entrant"] for r in data["rungs"]] == ["greedy", "random"]
    assert all(r["races"] == 12 for r in data["rungs"]) and data["model"].startswith("openskill")
    res = runner.invoke(app, ["simulate", "-r", "1989", "-c", COURSE, "-k", "12",
                              "--ladder", "random,gredy"])
    assert res.exit_code == 2 and "did you mean 'greedy'" in res.output


def test_a_rung_not_yet_separated_says_about_how_many_races_would_separate_it() -> None:
    spec, _ = batch_spec(COURSE, None, None, 200, 1, ("greedy",))
    field_ = entrants("greedy,search")

    def races(n: int) -> list[tuple[int, list[int], list[int | None]]]:
        # greedy first in three races of five, search in the other two
        return [(i, [0, 1], [1, 2] if i % 5 < 3 else [2, 1]) for i in range(n)]

    top = ladder(spec, field_, races(200)).rungs[0]
    assert top.entrant == "greedy" and top.separated is False
    assert top.races_to_separate is not None and top.races_to_separate > 200
    later = ladder(spec, field_, races(2 * top.races_to_separate)).rungs[0]
    assert later.separated and later.races_to_separate is None
    assert ladder(spec, field_, races(200)).to_json()["rungs"][0][  # type: ignore[index]
        "races_to_separate"] == top.races_to_separate
