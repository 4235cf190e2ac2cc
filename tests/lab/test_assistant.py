"""The design assistant, ``course balance`` (issue 24, part 3): proposals verified by paired
simulation on fresh races, the same for any worker count, written as file:line edits and
applied with --apply."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
import typer
import yaml
from typer.testing import CliRunner

from avecaesar.editor.cli.course_balance import (
    _apply_checked,
    _problems,
    advice_lines,
    apply_proposal,
    revalidate,
)
from avecaesar.editor.cli.figures_update import rewrite_value
from avecaesar.editor.main import app
from avecaesar.engine.course.grid_edits import grid_edits, grid_rows, start_order_edit
from avecaesar.engine.course.load import load_course
from avecaesar.engine.course.whatif import _recompile, apply_to_data, drawing_closes
from avecaesar.engine.lab import assistant
from avecaesar.engine.lab.assistant import (
    OPENS,
    VERIFY_SEED,
    Proposal,
    _checked,
    _closing_pairs,
    _decide,
    _screen,
    advise,
    course_rules,
    looks,
    same_races,
)
from avecaesar.engine.lab.batch import batch_spec
from avecaesar.engine.lab.edited import _course, course_edits, edited_course
from avecaesar.engine.lab.paired import compare_summaries
from avecaesar.engine.lab.simulate import run_many
from avecaesar.engine.lab.summary import RaceSummary

runner = CliRunner()
COURSE = "ravensburger-1989/a-blue"


def test_grid_edits_reorder_the_start_list() -> None:
    course = load_course(COURSE)
    rows = grid_rows(course)
    assert sorted(p for row in rows for p in row) == [0, 1, 2, 3]
    edits = grid_edits(course)
    assert edits and all(e.path == ("start",) for e in edits)
    for e in edits:
        assert sorted(e.new) == sorted(course.model.start) and e.new != course.model.start
        changed = edited_course(COURSE, [e.description])
        assert not changed.errors
        # the same start spaces, numbered differently
        old = {n for n, d in course.graph.nodes(data=True) if d.get("start_place")}
        new = {n for n, d in changed.graph.nodes(data=True) if d.get("start_place")}
        assert len(old) == len(new) == 4



def test_a_start_order_edit_gives_each_number_the_named_space() -> None:
    """Place 1 gets old place 2's space and the other way round; places 3 and 4 stay. The
    numbers decide the order of play, so the start place numbered 1 stands where 2 stood."""
    course = load_course(COURSE)
    edit = start_order_edit(course, "swap 1 and 2", [1, 0, 2, 3])
    s = course.model.start
    assert edit.new == [s[1], s[0], s[2], s[3]] and edit.path == ("start",)
    assert edit.description == f"swap 1 and 2: start {edit.new}"
    where = {d["start_place"]: n for n, d in course.graph.nodes(data=True)
             if d.get("start_place")}
    changed = _recompile(course, edit)
    now = {d["start_place"]: n for n, d in changed.graph.nodes(data=True)
           if d.get("start_place")}
    assert now == {1: where[2], 2: where[1], 3: where[3], 4: where[4]}

def test_every_edit_rewrites_its_file_as_the_model_does(tmp_path: Path) -> None:
    """rewrite_value changes only the edited value, and the result loads like the edit's
    model change (``apply_to_data``)."""
    src = Path(load_course(COURSE).model.file)
    text = src.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    for e in course_edits(load_course(COURSE))[::5]:
        new = rewrite_value(text, e.path, e.new)
        assert yaml.safe_load(new) == apply_to_data(data, e)
        changed = [a for a, b in zip(text.splitlines(), new.splitlines(), strict=True) if a != b]
        assert len(changed) == 1  # one line: comments and layout kept


@pytest.fixture(scope="module")
def small_advice() -> object:
    spec, _ = batch_spec(COURSE, None, None, 1, 1, ("greedy",))
    return advise(spec, 0.03, screen=16, verify=24, workers=1, cap=48)


def test_proposals_are_verified_on_fresh_races(small_advice: object) -> None:
    a = small_advice
    data = a.to_json()  # type: ignore[attr-defined]
    assert data["screen_races"] == 16 and data["verify_races"] == 24
    assert a.original.spec.seed == 1 + VERIFY_SEED  # type: ignore[attr-defined]
    assert data["candidates"] > 0
    assert data["verify_cap"] == 48 and data["verify_looks"] == [24, 48]
    assert a.original.races in (24, 48)  # type: ignore[attr-defined]
    for p in a.proposals:  # type: ignore[attr-defined]
        assert p.verified.races in (24, 48) and 1 <= len(p.edits) <= 3
        assert p.verified.races <= a.original.races  # type: ignore[attr-defined]
        # kept: narrower for certain on the fresh races, the interval below 0
        assert p.decided == "narrower" and p.verified.spread.ci[1] < 0
        assert p.spread == pytest.approx(p.verified.spread.a + p.verified.spread.diff)
        assert p.warnings == [] and drawing_closes(edited_course(COURSE, [
            e.description for e in p.edits]).model)
        # every place keeps the reserve the course had
        assert min(r for r in p.figures.reserve if r is not None) >= a.reserve
        assert len({e.scope for e in p.edits}) == len(p.edits)


def test_the_advice_is_the_same_on_one_or_two_workers(small_advice: object) -> None:
    spec, _ = batch_spec(COURSE, None, None, 1, 1, ("greedy",))
    two = advise(spec, 0.03, screen=16, verify=24, workers=2, cap=48)
    assert two.to_json() == small_advice.to_json()  # type: ignore[attr-defined]


def test_the_advice_is_the_same_on_a_dask_cluster(small_advice: object) -> None:
    distributed = pytest.importorskip("distributed")
    spec, _ = batch_spec(COURSE, None, None, 1, 1, ("greedy",))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = advise(spec, 0.03, screen=16, verify=24, cluster=cluster.scheduler_address,
                        cap=48)
    assert remote.to_json() == small_advice.to_json()  # type: ignore[attr-defined]


@pytest.mark.covers("command:course balance")
def test_course_balance_applies_the_best_proposal(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["course", "new", "mine.yaml", "--from", "ravensburger-1989/b-red"])
    assert res.exit_code == 0, res.output
    before = (tmp_path / "mine.yaml").read_text()
    res = runner.invoke(app, ["course", "balance", "mine.yaml", "--ruleset", "1989",
                              "--screen", "40", "--races", "400", "--max-races", "400",
                              "--workers", "1", "--quiet",
                              "--json", "out.json", "--apply"])
    data = json.loads((tmp_path / "out.json").read_text())
    if res.exit_code == 1:  # nothing narrowed the spread for certain on these few races
        assert "nothing written" in res.output
        assert (tmp_path / "mine.yaml").read_text() == before
        return
    assert res.exit_code == 0, res.output
    best = data["proposals"][0]
    assert best["verified"]["differences"][0]["ci"][1] < 0
    assert "mine.yaml:" in res.output and "applied proposal 1" in res.output
    assert "re-validated mine.yaml: no new warning" in res.output
    after = (tmp_path / "mine.yaml").read_text()
    assert after != before
    # the figures were updated: the file validates with no stale figure
    res = runner.invoke(app, ["course", "validate", "mine.yaml", "--ruleset", "1989"])
    assert res.exit_code == 0, res.output
    course = load_course(str(tmp_path / "mine.yaml"))
    assert course.figures().shortest_race == best["figures"]["shortest_race"]


@pytest.mark.parametrize(("args", "message"), [
    (["--target", "0"], "--target 0.0"),
    (["--target", "150"], "--target 150.0"),
    (["--screen", "5"], "--screen 5"),
    (["--races", "1"], "--races 1"),
    (["-n", "9"], "9 players are too many: these rules are for 3 to 6 players"),
    (["--workers", "999"], "--workers 999"),
    (["--apply"], "make an editable copy first"),
    (["--ruleset", "1898"], "unknown ruleset"),
    (["--bots", "gredy"], "did you mean 'greedy'"),
    (["--races", "100", "--max-races", "50"], "--max-races 50: give at least --races (100)"),
    (["--bots", "expert", "--bot-budget", "0"], "--bot-budget"),
    (["--cluster", "tcp://127.0.0.1:9", "--screen", "10", "--races", "10"],
     "cannot reach the Dask scheduler"),
    (["--spread", "season"], "--spread season: give race or tournament"),
    (["--spread", "tournament", "--cluster", "tcp://127.0.0.1:9"], "leave out --cluster"),
    (["--spread", "tournament", "--set", "tournament.races=1"], "plays no tournament"),
])
def test_course_balance_bad_input_is_clear(args: list[str], message: str) -> None:
    res = runner.invoke(app, ["course", "balance", COURSE, *args, "--quiet"])
    assert res.exit_code != 0
    assert message in res.output, res.output
    assert "Traceback" not in res.output


def test_course_balance_unknown_course() -> None:
    res = runner.invoke(app, ["course", "balance", "nowhere/none", "--quiet"])
    assert res.exit_code == 2 and "unknown course" in res.output


def _summary(i: int, winner: int, chariots: int = 2) -> RaceSummary:
    places = tuple(1 if c == winner else 2 for c in range(chariots))
    return RaceSummary(i, places, (True,) * chariots, (False,) * chariots,
                       (False,) * chariots, (0,) * chariots, 0, 30, 0, 0, 0, "finished",
                       points=tuple(3 if c == winner else 0 for c in range(chariots)))


def _proposal(a: list[RaceSummary], b: list[RaceSummary]) -> Proposal:
    figures = load_course(COURSE).figures()
    return Proposal((), figures, [], compare_summaries(a, b))


@pytest.mark.parametrize(("winners", "decided"), [
    ([0] * 40, "no-op"),  # the same races: nothing changed
    ([0, 1] * 20, "narrower"),  # place 1 won all, now half: the spread 100 → 0 points
    ([0] * 19 + [1], ""),  # one race changed: the interval still includes 0
])
def test_a_look_decides_only_when_the_interval_leaves_0_out(winners: list[int],
                                                            decided: str) -> None:
    a = [_summary(i, 0) for i in range(40)]
    b = [_summary(i, w) for i, w in enumerate(winners)]
    p = _proposal(a, b)
    _decide(p, a, b, 1.96)
    assert p.decided == decided and p.looks == 1
    # the spread that grew is "wider", never kept
    _decide(p, b, a, 1.96)
    assert p.decided == {"no-op": "no-op", "narrower": "wider", "": ""}[decided]


def test_looks_double_to_the_cap_with_a_wider_interval() -> None:
    assert looks(24, 96) == [24, 48, 96] and looks(24, 24) == [24]
    assert looks(4000, 10000) == [4000, 8000, 10000]
    # Bonferroni over the looks: 1.96 for one look, wider for more
    assert assistant._z(1) == pytest.approx(1.959964, abs=1e-5)
    assert assistant._z(3) == pytest.approx(2.394, abs=1e-3)


def test_an_edit_that_opens_the_drawing_is_left_out_or_closed_by_a_partner() -> None:
    """Every bundled drawing closes; lengthening one straight opens it: the edit says so
    among its warnings (it was not among them: the proposal's JSON showed none), and the
    pairs that close it again are closed and warn of nothing."""
    spec, _ = batch_spec(COURSE, None, None, 1, 1, ("greedy",))
    rules = course_rules(spec)
    course = _course(COURSE)
    assert drawing_closes(course.model)
    found = [w for e in course_edits(course) if (w := _checked(COURSE, rules, 0, (e,)))]
    openers = [w for w in found if OPENS in w.warnings]
    assert openers and all(not w.closes for w in openers)
    assert all(w.closes for w in found if OPENS not in w.warnings)
    pairs = _closing_pairs(COURSE, rules, 0, openers)
    assert pairs and len(pairs) <= assistant.CLOSING_PAIRS
    for w in pairs:
        assert w.closes and w.warnings == [] and len(w.edits) == 2
        assert drawing_closes(edited_course(COURSE, [e.description for e in w.edits]).model)


def test_an_edit_that_changes_no_race_is_dropped_as_a_no_op() -> None:
    """On Arena-Carthago the places within each row of the grid reversed race exactly as
    before (issue 39: 6,000 paired races identical): screening drops it and counts it."""
    ref = "dicetree-2022/arena-carthago"
    spec, _ = batch_spec(ref, None, None, 12, 1, ("greedy",))
    rules = course_rules(spec)
    edits = {e.description.split(":")[0]: e for e in course_edits(_course(ref))}
    within = _checked(ref, rules, 0, (edits["reverse the order within each row of the start "
                                           "grid"],))
    reverse = _checked(ref, rules, 0, (edits["reverse the start order (the last place moves "
                                            "first)"],))
    assert within is not None and reverse is not None
    kept, noops = _screen(spec, [within, reverse], 1, None, None)
    assert noops == 1 and [p.edits for p in kept] == [reverse.edits]
    assert not same_races(*[[_summary(i, 0) for i in range(3)],
                            [_summary(i, i % 2) for i in range(3)]])


def test_apply_revalidates_and_puts_back_a_file_that_gained_a_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["course", "new", "mine.yaml", "--from", COURSE])
    assert res.exit_code == 0, res.output
    path = str(tmp_path / "mine.yaml")
    spec, _ = batch_spec(path, None, None, 1, 1, ("greedy",))
    rules = course_rules(spec)
    course = load_course(path)
    opener = next(e for e in course_edits(course)
                  if (w := _checked(path, rules, 0, (e,))) is not None and OPENS in w.warnings)
    before = _problems([path], rules)
    text = Path(path).read_text()
    apply_proposal((opener,), rules)
    assert any(OPENS in p for p in revalidate([path], before, rules))
    Path(path).write_text(text)
    # through --apply's own check: the file is put back and the exit is 1
    with pytest.raises(typer.Exit) as stop:
        _apply_checked(path, (opener,), rules)
    assert stop.value.exit_code == 1
    assert Path(path).read_text() == text


def test_strong_bot_balance_is_one_option_away(monkeypatch: pytest.MonkeyPatch) -> None:
    """--bots expert races the assistant's screening and verification with the expert bot
    (here one seat of four, at a budget of 1 rollout and one edit, to stay fast)."""
    real = assistant.course_edits
    monkeypatch.setattr(assistant, "course_edits", lambda c: [
        e for e in real(c) if e.description.startswith("reverse the start order")])
    spec, _ = batch_spec(COURSE, None, None, 1, 1, ("expert", "greedy", "greedy", "greedy"))
    a = advise(replace(spec, bot_budget=1), 0.03, screen=2, verify=2, cap=2)
    assert a.original is not None and a.original.skill is not None
    assert a.to_json()["bots"] == ["expert", "greedy", "greedy", "greedy"]
    assert [k.name for k in a.original.skill.kinds] == ["expert", "greedy"]
    assert a.original.skill.kinds[0].races == 2


def test_a_later_look_races_the_races_a_longer_run_would() -> None:
    """Growing the verification from 4 races to 8 runs races 4–7: together they are the
    8 races one run of 8 gives (race i's seed depends on (seed, i) alone)."""
    spec, _ = batch_spec(COURSE, None, None, 8, 3, ("greedy",))
    (whole,), _ = run_many([spec])
    (head,), _ = run_many([replace(spec, races=4)])
    (tail,), _ = run_many([replace(spec, races=4)], first=4)
    assert [r.index for r in tail] == [4, 5, 6, 7]
    assert head + tail == whole


def test_two_edit_sets_that_race_the_same_races_take_one_slot() -> None:
    """Issue 39's Rome run listed two proposals whose fresh races were the same race for
    race (two edit sets giving one board): the better stays, the other is counted."""
    a = [_summary(i, 0) for i in range(20)]
    b = [_summary(i, i % 2) for i in range(20)]
    c = [_summary(i, 1 - i % 2) for i in range(20)]
    same, other, twin = (replace(_proposal(a, rows), rows=rows) for rows in (b, c, b))
    twin = replace(twin, edits=(course_edits(load_course(COURSE))[0],))  # more edits: after
    advice = assistant.Advice(load_course(COURSE), batch_spec(COURSE, None, None, 1, 1,
                                                              ("greedy",))[0], 0.03, 0)
    chosen = assistant._choose(advice, [twin, same, other], 1.0)
    assert chosen == [same, other] and advice.duplicates == 1


def test_the_assistant_aims_at_the_tournament_spread_and_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """--spread tournament (issue 39, point 1): the spread screened and verified (paired,
    sequential) is the tournament spread, every count is of tournaments, and the text and
    the JSON name the target (two edits, 6 screening and 8 to 16 verification tournaments
    of 4 races, to stay fast)."""
    from avecaesar.engine.lab.tournament_fairness import fairness, run_tournaments

    real = assistant.course_edits
    monkeypatch.setattr(assistant, "course_edits", lambda c: [
        e for e in real(c) if e.description.startswith(("reverse the start order",
                                                         "move the front row"))])
    res = runner.invoke(app, ["course", "balance", COURSE, "--spread", "tournament",
                              "--screen", "10", "--races", "10", "--max-races", "20",
                              "--workers", "1", "--json", "-"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["target_spread"] == "tournament" and data["counted_in"] == "tournaments"
    assert all(p["target_spread"] == "tournament" and "tournaments" in p["verification"]
               for p in data["proposals"])
    spec, _ = batch_spec(COURSE, None, None, 10, 1, ("greedy",))
    a = advise(spec, 0.03, screen=10, verify=10, workers=1, cap=20, aim="tournament")
    assert a.to_json() == data
    # what was screened is the tournament spread of 10 tournaments of the original and of
    # the edited course, paired tournament by tournament
    plain = fairness(spec, run_tournaments(spec, 10))
    kept, _noops = _screen(spec, [w for e in assistant.course_edits(_course(COURSE))
                                  if (w := _checked(COURSE, course_rules(spec), a.reserve,
                                                    (e,))) is not None],
                           1, None, None, "tournament")
    assert kept
    for p in kept:
        assert p.screened.spread.name == "tournament spread"
        assert p.screened.spread.a == pytest.approx(plain.spread)
        changed = replace(spec, edits=tuple(e.description for e in p.edits))
        assert p.screened.spread.b == pytest.approx(
            fairness(changed, run_tournaments(changed, 10)).spread)
    # verified on fresh tournaments (the verification seed), as many as the looks raced
    assert a.original is not None and a.original.tournaments in (10, 20)
    assert a.original.spec.seed == 1 + VERIFY_SEED
    text = "\n".join(advice_lines(a))
    assert "target: tournament spread ≤ 3.0 pp" in text
    assert f"the course: tournament spread {100 * a.original.spread:.1f} pp" in text
    assert f"({a.original.tournaments} tournaments)" in text
    assert f"single-race spread in those tournaments' races " \
        f"{100 * a.original.single_race_spread:.1f} pp" in text
    assert data["original_tournament"]["tournament_spread"] == a.original.spread
    assert not re.search(r"\d races|races paired", text)  # every count is of tournaments
