"""The balance lab: many seeded races, one report, identical whatever the number of workers."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.editor.render.charts import win_rate_chart
from avecaesar.engine.lab.simulate import SimSpec, race_seed, simulate, summarise_race
from avecaesar.engine.lab.stats import wilson_interval

COURSE = "dicetree-2022/hippodrom-constantinople"
runner = CliRunner()


@pytest.fixture(scope="module")
def spec() -> SimSpec:
    return SimSpec("dicetree-2022", COURSE, 6, 24, seed=7)


def test_workers_1_and_2_give_identical_reports(spec: SimSpec) -> None:
    one = simulate(spec, workers=1, heat=True)
    two = simulate(spec, workers=2, heat=True)
    assert one.to_json() == two.to_json()
    assert one.stood == two.stood and one.blocked_at == two.blocked_at


def test_race_seeds_are_stable_and_distinct() -> None:
    seeds = [race_seed(1, i) for i in range(100)]
    assert len(set(seeds)) == 100
    assert race_seed(1, 5) == race_seed(1, 5) != race_seed(2, 5)


def test_a_race_summary_replays_bit_for_bit(spec: SimSpec) -> None:
    assert summarise_race(spec, 3, heat=True) == summarise_race(spec, 3, heat=True)


def test_report_counts_add_up(spec: SimSpec) -> None:
    r = simulate(spec, workers=1)
    assert r.races == 24
    wins = sum(p.wins for p in r.by_place)
    assert wins <= r.races  # a race may end without a winner (deadlock, all out)
    assert abs(sum(p.win_rate for p in r.by_place) - wins / r.races) < 1e-9
    assert 0.0 <= r.balance <= 1.0
    assert r.balance == pytest.approx(
        1 - (max(p.win_rate for p in r.by_place) - min(p.win_rate for p in r.by_place)))
    for p in r.by_place:
        lo, hi = p.win_ci
        assert lo <= p.win_rate <= hi
        assert 0.0 <= p.not_finished <= 1.0
        if p.mean_reserve is not None:
            assert 0 <= p.mean_reserve <= 84
    assert r.turns_min <= r.turns_mean <= r.turns_max


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and 0.2 < hi < 0.35
    lo, hi = wilson_interval(10, 10)
    assert hi == pytest.approx(1.0) and 0.65 < lo < 0.8


def test_chart_has_a_bar_per_start_place(spec: SimSpec) -> None:
    r = simulate(spec, workers=1)
    root = ET.fromstring(win_rate_chart(r))
    bars = [e for e in root.iter("{http://www.w3.org/2000/svg}rect")
            if e.get("class") == "bar"]
    assert [int(b.get("data-place")) for b in bars] == [1, 2, 3, 4, 5, 6]
    assert [float(b.get("data-win-rate")) for b in bars] == pytest.approx(
        [p.win_rate for p in r.by_place], abs=1e-4)


@pytest.mark.covers("command:simulate")
def test_simulate_cli_text_json_chart_heat(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    chart = tmp_path / "c.svg"
    heat = tmp_path / "h"
    res = runner.invoke(app, ["simulate", "-r", "2022", "-c", COURSE, "-n", "4", "-k", "8",
                              "--workers", "1", "--json", str(out), "--chart", str(chart),
                              "--heat-map", str(heat), "--quiet"])
    assert res.exit_code == 0, res.output
    assert "balance" in res.output and "win rate" in res.output
    data = json.loads(out.read_text())
    assert data["races"] == 8 and len(data["by_start_place"]) == 4
    assert chart.read_text().startswith("<svg")
    for name in ("stood", "blocked"):
        assert (tmp_path / f"h-{name}.svg").read_text().count('class="node space') > 10


def test_simulate_cli_bad_input_is_clear() -> None:
    res = runner.invoke(app, ["simulate", "-r", "2022", "-c", COURSE, "--bots", "gredy",
                              "-k", "2", "--quiet"])
    assert res.exit_code == 2 and "did you mean 'greedy'" in res.output
    res = runner.invoke(app, ["simulate", "-r", "2O22", "-c", COURSE, "-k", "2", "--quiet"])
    assert res.exit_code == 2 and "unknown ruleset" in res.output


def test_course_validate_with_simulation() -> None:
    res = runner.invoke(app, ["course", "validate", COURSE, "--ruleset", "2022",
                              "--simulate", "6", "--json"])
    assert res.exit_code == 0, res.output
    sim = json.loads(res.stdout)[0]["simulation"]
    assert sim["races"] == 6 and sim["players"] == 6
    assert 0 <= sim["finish_rate"] <= 1 and 0 <= sim["balance"] <= 1


def test_course_validate_simulation_needs_a_ruleset() -> None:
    res = runner.invoke(app, ["course", "validate", COURSE, "--simulate", "6"])
    assert res.exit_code == 2 and "--simulate needs --ruleset" in res.output


def test_simulation_jumps_water_ditches_as_a_race_does() -> None:
    """Under the Pro Ludo DE reading a water ditch is not a space (Pro Ludo 2006 Spielregel
    (DE) p.5); the PT reading keeps it (Pro Ludo 2006 rules (PT) III). The simulation builds
    its board the way `race` does."""
    from avecaesar.engine.core.race_setup import race_setup
    from avecaesar.engine.lab.simulate import _setup

    course = str(Path(__file__).parents[1] / "course" / "valid" / "composed.yaml")
    keep = (("disqualification.keeps_place", "true"),)
    _, de = _setup(("pro-ludo-2006", (), keep, course, "", ()))
    _, pt = _setup(("pro-ludo-2006", ("pro-ludo-2006-water-pt",), keep, course, "", ()))
    assert len(pt.succ) - sum(1 for s in pt.succ if s) == 0
    assert sum(1 for s in de.succ if s) == sum(1 for s in pt.succ if s) - 1
    _, direct = race_setup("pro-ludo-2006", [], dict(keep), course)
    assert direct.succ == de.succ
