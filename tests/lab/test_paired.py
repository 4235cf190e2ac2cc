"""Paired comparisons: both sides race the same deals and seeds (common random numbers), and
each figure's difference has an interval from the paired races (issue 24, part 1)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.engine.lab.paired import compare_summaries, paired_difference
from avecaesar.engine.lab.simulate import SimSpec, report, run_many, summarise_race

COURSE = "dicetree-2022/hippodrom-constantinople"
runner = CliRunner()


def test_paired_difference_by_hand() -> None:
    a = [1.0, 0.0, 1.0, 0.0]
    b = [1.0, 1.0, 1.0, 0.0]
    d = paired_difference("x", a, b, "rate")
    assert (d.a, d.b, d.diff) == (0.5, 0.75, 0.25)
    # differences 0, 1, 0, 0: sd 0.5, half width 1.96 · 0.5 / 2
    half = 1.959964 * 0.5 / 2
    assert d.ci == pytest.approx((0.25 - half, 0.25 + half))
    # var a = 1/3, var b = 1/4, var d = 1/4: independent runs need (7/12)/(1/4) = 7/3 times
    # as many races
    assert d.efficiency == pytest.approx(7 / 3)
    assert not d.significant


def test_identical_sides_differ_by_nothing() -> None:
    d = paired_difference("x", [1.0, 2.0, 4.0], [1.0, 2.0, 4.0])
    assert d.diff == 0 and d.ci == (0.0, 0.0) and d.efficiency == math.inf
    with pytest.raises(ValueError, match="pair the same races"):
        paired_difference("x", [1.0], [1.0, 2.0])


def test_both_sides_race_the_same_deals() -> None:
    """Common random numbers: race i of either side is dealt the same start order and cards
    (a variant that changes nothing before the first move)."""
    a = SimSpec("dicetree-2022", COURSE, 6, 4, seed=3)
    b = SimSpec("dicetree-2022", COURSE, 6, 4, seed=3, variants=("no-waiting",))
    from avecaesar.engine.core.race import new_race
    from avecaesar.engine.lab.simulate import _setup, _spec_key, race_seed

    for i in range(4):
        sa, _ = new_race(*_setup(_spec_key(a)), ["x"] * 6, race_seed(a.seed, i))
        sb, _ = new_race(*_setup(_spec_key(b)), ["x"] * 6, race_seed(b.seed, i))
        assert sa.hands == sb.hands and sa.decks == sb.decks
        assert summarise_race(a, i).first == summarise_race(b, i).first


def test_the_comparison_matches_the_two_reports() -> None:
    a = SimSpec("dicetree-2022", COURSE, 6, 40, seed=2)
    b = SimSpec("ravensburger-1989", COURSE, 6, 40, seed=2)
    (ra, rb), stopped = run_many([a, b], workers=1)
    assert not stopped
    c = compare_summaries(ra, rb)
    ta, tb = report(a, ra), report(b, rb)
    assert c.races == 40
    assert c.spread.diff == pytest.approx(tb.spread - ta.spread)
    for p, q in zip(ta.by_place, tb.by_place, strict=True):
        d = c.get(f"win rate, place {p.place}")
        assert (d.a, d.b) == pytest.approx((p.win_rate, q.win_rate))
        assert d.ci[0] <= d.diff <= d.ci[1]
        assert c.get(f"mean points, place {p.place}").a == pytest.approx(p.mean_points)
    assert c.get("lead changes per race").a == pytest.approx(ta.lead_changes)


def test_a_comparison_is_the_same_on_one_or_two_workers() -> None:
    a = SimSpec("dicetree-2022", COURSE, 4, 16, seed=9)
    b = SimSpec("dicetree-2022", "dicetree-2022/circus-maximus", 4, 16, seed=9)
    one, _ = run_many([a, b], workers=1)
    two, _ = run_many([a, b], workers=2)
    assert one == two
    assert compare_summaries(*one).to_json() == compare_summaries(*two).to_json()


@pytest.mark.covers("command:simulate")
def test_simulate_compare_cli(tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    page = tmp_path / "c.html"
    res = runner.invoke(app, ["simulate", "-r", "2022", "-c", COURSE, "-n", "4", "-k", "12",
                              "--workers", "1", "--quiet", "--compare", "ruleset=1989",
                              "--json", str(out), "--report", str(page)])
    assert res.exit_code == 0, res.output
    assert "12 paired races" in res.output and "B − A" in res.output
    assert "ruleset 1989" in res.output
    data = json.loads(out.read_text())
    assert (data["a"]["spec"]["ruleset"], data["b"]["spec"]["ruleset"]) == ("2022", "1989")
    names = [d["figure"] for d in data["comparison"]["differences"]]
    assert names[0] == "spread" and "win rate, place 4" in names
    html = page.read_text()
    assert 'id="comparison"' in html and 'id="side-a"' in html and 'id="side-b"' in html


def test_simulate_compare_json_to_stdout_and_edited_settings() -> None:
    res = runner.invoke(app, ["simulate", "-r", "2022", "-c", COURSE, "-n", "3", "-k", "6",
                              "--workers", "1", "--compare", "set=alley.laps=1,2",
                              "--compare", "bots=random", "--json", "-"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["b"]["spec"]["settings"] == {"alley.laps": "1,2"}
    assert data["b"]["spec"]["bots"] == ["random"]


@pytest.mark.parametrize(("args", "message"), [
    (["--compare", "rules=1989"], "give KEY=VALUE with KEY one of"),
    (["--compare", "ruleset"], "give KEY=VALUE"),
    (["--compare", "ruleset="], "give the ruleset to compare with"),
    (["--compare", "ruleset=2022"], "the second side is the same as the first"),
    (["--compare", "ruleset=1898"], "unknown ruleset"),
    (["--compare", "bots=gredy"], "did you mean 'greedy'"),
    (["--compare", "course=nowhere/none"], "unknown course"),
    (["--compare", "ruleset=1989", "--chart", "x.svg"], "with --compare, --report draws"),
    (["--report", "/nonexistent-dir/r.html"], "--report"),
])
def test_simulate_compare_bad_input_is_clear(args: list[str], message: str) -> None:
    res = runner.invoke(app, ["simulate", "-r", "2022", "-c", COURSE, "-k", "2", "--quiet",
                              "--workers", "1", *args])
    assert res.exit_code != 0
    assert message in res.output, res.output
    assert "Traceback" not in res.output
