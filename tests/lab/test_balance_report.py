"""The balance report (issue 24, part 2): every figure in the JSON at full precision, the
HTML page self-contained with every registered section, numbers rounded for people."""

from __future__ import annotations

import itertools
import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.editor.render.balance_page import PAIRED, balance_page
from avecaesar.editor.render.charts import round_ticks
from avecaesar.editor.render.report_sections import SECTIONS
from avecaesar.engine.bots.registry import POLICIES
from avecaesar.engine.lab.balance import skill_table, start_rows
from avecaesar.engine.lab.paired import compare_summaries
from avecaesar.engine.lab.simulate import RaceSummary, SimSpec, report, run_many, simulate

COURSE = "dicetree-2022/hippodrom-constantinople"
runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def mixed() -> object:
    """Greedy and random bots, heat counted: every section has something to show."""
    return simulate(SimSpec("dicetree-2022", COURSE, 6, 30, seed=4, bots=("greedy", "random")),
                    workers=1, heat=True)


def _race(places: tuple[int | None, ...], kinds: tuple[str, ...]) -> RaceSummary:
    n = len(places)
    return RaceSummary(0, places, (True,) * n, (False,) * n, (False,) * n, (None,) * n, 0, 1,
                       0, 0, 0, "finished", (False,) * n, kinds=kinds, points=(0,) * n,
                       out_lap=(None,) * n, out_why=("",) * n)


def test_skill_table_by_hand() -> None:
    rows = [_race((1, 2, 3, None), ("a", "b", "a", "b")),  # a ahead of b
            _race((3, 1, 2, None), ("a", "b", "a", "b")),  # b ahead
            _race((2, 3, 1, 4), ("a", "b", "a", "b")),  # a ahead
            _race((None, None, 1, 2), ("a", "a", "b", "b"))]  # b ahead
    t = skill_table(rows, ["a", "b"])
    assert t is not None
    assert t.versus[("a", "b")] == (2, 4) and t.versus[("b", "a")] == (2, 4)
    a, b = t.kinds
    assert (a.wins, b.wins, a.chariots) == (2, 2, 2.0)
    assert a.rate == pytest.approx(0.25) and t.spread == pytest.approx(0.0)
    assert skill_table(rows, ["a"]) is None


def test_rows_are_level_start_places_front_first() -> None:
    assert start_rows([0, 0, 0, 0], [10, 10, 9, 9]) == [[0, 1], [2, 3]]
    assert start_rows([1, 0], [0, 30]) == [[0], [1]]  # over the line already: ahead


def test_json_has_every_figure(mixed: object) -> None:
    r = mixed
    data = r.to_json()  # type: ignore[attr-defined]
    assert data["spread"] == pytest.approx(1 - data["balance"])
    p = data["by_start_place"][0]
    assert p["points_ci"][0] <= p["mean_points"] <= p["points_ci"][1]
    seat = data["seat_advantage"]
    assert seat["first_mover_start_places"] == {"1": 30}  # place 1 moves first here
    assert sum(row["wins"] for row in seat["rows"]) <= 30
    assert [k["name"] for k in data["skill"]["kinds"]] == ["greedy", "random"]
    assert sum(h["races"] for h in data["turns"]["histogram"]) == 30
    for a in data["attrition"]:
        assert 1 <= a["lap"] <= 3 and a["chariots"] > 0 and a["why"]
    spaces = data["spaces"]
    assert sum(s["blocked"] for s in spaces) == sum(r.blocked_at.values())  # type: ignore[attr-defined]
    assert sum(s["waited"] for s in spaces) == sum(r.waited_at.values())  # type: ignore[attr-defined]
    assert sum(s["stood"] for s in spaces) == sum(r.stood.values())  # type: ignore[attr-defined]


def test_the_page_is_self_contained_with_every_section(mixed: object) -> None:
    html = balance_page(mixed)  # type: ignore[arg-type]
    assert "<script" not in html and "<link" not in html and "src=" not in html
    assert not re.search(r"""(href|url)\s*[=(]\s*["']?https?:""", html)
    for s in SECTIONS:
        if s.name not in PAIRED:
            assert f'id="{s.name}"' in html, s.name
    # every number people read is rounded: no 0.8029999999999999
    text = re.sub(r"<svg.*?</svg>", "", html, flags=re.S)
    assert not re.search(r"\d\.\d{4,}", text)
    # the heat maps: a polygon per space with its count, a legend with its scale
    maps = re.findall(r'<svg[^>]*class="heat-map blocked".*?</svg>', html, re.S)
    assert len(maps) == 1
    root = ET.fromstring(maps[0])
    counts = {int(e.get("data-space")): int(e.get("data-count"))
              for e in root.iter(f"{SVG}polygon") if e.get("class") == "space"}
    assert sum(counts.values()) == sum(mixed.blocked_at.values())  # type: ignore[attr-defined]
    assert "turns per 100 races" in maps[0] and 'class="legend"' in maps[0]


def test_skill_table_covers_every_registered_bot() -> None:
    """`--bots all` is every bot of the registry: a bot added there appears with no change."""
    res = runner.invoke(app, ["simulate", "-r", "2022", "-c", COURSE, "-n", str(len(POLICIES)),
                              "-k", "3", "--bots", "all", "--workers", "1", "--json", "-"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert [k["name"] for k in data["skill"]["kinds"]] == list(POLICIES)
    assert len(data["skill"]["versus"]) == len(POLICIES) * (len(POLICIES) - 1)


@pytest.mark.covers("command:simulate")
def test_simulate_report_cli(tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    res = runner.invoke(app, ["simulate", "-r", "2022", "-c", COURSE, "-n", "4", "-k", "10",
                              "--workers", "1", "--quiet", "--report", str(page)])
    assert res.exit_code == 0, res.output
    assert f"wrote {page}" in res.output
    assert not re.search(r"\d\.\d{5,}", res.output)  # rounded for people
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and 'id="start-places"' in html
    assert 'id="skill"' not in html  # one bot kind: no skill table


def _rows(html: str, section: str) -> dict[str, list[str]]:
    """The first table of a section: its rows' cells by their first cell."""
    body = re.search(rf'<section id="{section}">(.*?)</section>', html, re.S)
    assert body is not None, section
    table = re.search(r"<tbody>(.*?)</tbody>", body.group(1), re.S)
    assert table is not None
    out = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S):
        cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
        out[cells[0]] = cells[1:]
    return out


@pytest.fixture(scope="module")
def compared() -> tuple[object, object, str]:
    """2022 against 2006 rules on one board, greedy and random bots (chariots run out of
    cards and are disqualified), heat counted."""
    a = SimSpec("dicetree-2022", COURSE, 6, 40, seed=2, bots=("greedy", "random"))
    b = SimSpec("pro-ludo-2006", COURSE, 6, 40, seed=2, bots=("greedy", "random"))
    (ra, rb), _ = run_many([a, b], heat=True)
    left, right = report(a, ra, True), report(b, rb, True)
    return left, right, balance_page(left, right, compare_summaries(ra, rb))


def test_the_comparison_page_reads_the_same_figure_the_same_everywhere(
        compared: tuple[object, object, str]) -> None:
    """Issue 39: "not finished" meant out of cards in the comparison table and out of cards
    or disqualified in the start-place table. Each name now has one meaning, defined on the
    page, and each side's start-place table shows the comparison's A or B figure."""
    a, b, html = compared
    assert html.count('class="definitions"') == 3  # the comparison and both sides
    table = _rows(html, "comparison")
    seen = {"out of cards": 0, "disqualified": 0, "not finished": 0}
    for side, k, r in (("a", 0, a), ("b", 1, b)):
        places = _rows(html, f"{side}-start-places")
        for p in r.by_place:  # type: ignore[attr-defined]
            row = places[str(p.place)]
            assert table[f"win rate, place {p.place}"][k] == row[0].split(" (")[0]
            for col, name in ((2, "out of cards"), (3, "disqualified"), (4, "not finished")):
                assert table[f"{name}, place {p.place}"][k] == row[col], (side, name, p.place)
                seen[name] += row[col] != "0.0 %"
    assert seen["out of cards"] and seen["not finished"]  # the check had something to see
    for r in (a, b):
        for p in r.by_place:  # type: ignore[attr-defined]
            assert p.not_finished >= max(p.out_of_cards, p.disqualified)


def test_the_comparison_page_shows_differences_side_by_side(
        compared: tuple[object, object, str]) -> None:
    a, b, html = compared
    # the two sides in one grid, side by side
    assert re.search(r'<div class="sides"><section class="side" id="side-a">.*'
                     r'<section class="side" id="side-b">', html, re.S)
    # B − A per space on one scale: each polygon's difference per 100 races
    maps = re.findall(r'<svg[^>]*class="difference-map blocked".*?</svg>', html, re.S)
    assert len(maps) == 1
    root = ET.fromstring(maps[0])
    diff = {int(e.get("data-space")): float(e.get("data-difference"))
            for e in root.iter(f"{SVG}polygon")}
    for n in set(a.blocked_at) | set(b.blocked_at):  # type: ignore[attr-defined]
        want = 100 * b.blocked_at.get(n, 0) / b.races - 100 * a.blocked_at.get(n, 0) / a.races  # type: ignore[attr-defined]
        assert diff[n] == pytest.approx(want, rel=1e-3, abs=1e-3)
    top = max(abs(v) for v in diff.values())
    assert f"scale −{top:.1f} (more on A) → 0 → +{top:.1f} (more on B)" in maps[0]
    # 2022 and 2006 score differently: the page says so above the table
    assert 'class="scoring-note"' in html and "two scales" in html
    same = balance_page(a, a, compare_summaries([], []))  # type: ignore[arg-type]
    assert "scoring-note" not in same


def test_axes_are_ticked_at_round_values(compared: tuple[object, object, str]) -> None:
    html = compared[2]
    charts = [c for c in re.findall(r"<svg.*?</svg>", html, re.S) if 'class="tick"' in c]
    assert len(charts) >= 6  # win rate, mean points and race length, on either side
    for chart in charts:
        ticks = [float(t.replace(" %", "")) for t in
                 re.findall(r'<text class="tick"[^>]*>([^<]+)</text>', chart)]
        steps = {round(y - x, 6) for x, y in itertools.pairwise(ticks)}
        assert ticks[0] == 0 and len(steps) == 1, ticks  # from 0, evenly
        step = steps.pop()
        # 1, 2, 2.5 or 5 times a power of ten (the old axis: 6 %, 12 %, 17 %)
        assert round(step / 10 ** math.floor(math.log10(step)), 6) in (1, 2, 2.5, 5), ticks
    assert round_ticks(0.17) == [0.0, 0.05, 0.1, 0.15, 0.2]
    assert round_ticks(0.06) == [0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06]


def test_disqualifications_are_counted_per_space_on_both_sides(
        compared: tuple[object, object, str]) -> None:
    """Issue 39, point 5: where chariots were disqualified, per space (the space the
    disqualifying turn ended on), in each side's JSON of a comparison next to the blocked
    turns and waits, and B − A per space as a difference heat map beside theirs."""
    a, b, html = compared
    seen = 0
    for side in (a, b):
        data = side.to_json()  # type: ignore[attr-defined]
        per_space = {s["space"]: s["disqualified"] for s in data["spaces"]}
        assert sum(per_space.values()) == sum(side.disqualified_at.values())  # type: ignore[attr-defined]
        # every disqualified chariot of these races is counted once, on a space of the board
        dq = sum(p.disqualified for p in side.by_place) * side.races  # type: ignore[attr-defined]
        assert sum(per_space.values()) == pytest.approx(dq)
        seen += sum(per_space.values())
    assert seen  # 2022 and 2006 both disqualify a chariot that misses its alley stop
    maps = re.findall(r'<svg[^>]*class="difference-map disqualified".*?</svg>', html, re.S)
    assert len(maps) == 1 and "chariots per 100 races" in maps[0]
    diff = {int(e.get("data-space")): float(e.get("data-difference"))
            for e in ET.fromstring(maps[0]).iter(f"{SVG}polygon")}
    for n in set(a.disqualified_at) | set(b.disqualified_at):  # type: ignore[attr-defined]
        want = (100 * b.disqualified_at.get(n, 0) / b.races  # type: ignore[attr-defined]
                - 100 * a.disqualified_at.get(n, 0) / a.races)  # type: ignore[attr-defined]
        assert diff[n] == pytest.approx(want, rel=1e-3, abs=1e-3)


def test_a_race_counts_each_disqualified_chariot_once() -> None:
    """Per race summary: as many disqualifications on the spaces as chariots disqualified,
    and none without heat (the counts cost nothing then)."""
    spec = SimSpec("pro-ludo-2006", COURSE, 6, 40, seed=2, bots=("greedy", "random"))
    (rows,), _ = run_many([spec], heat=True)
    assert any(any(r.disqualified) for r in rows)
    for r in rows:
        assert sum(v for _n, v in r.disqualified_at) == sum(r.disqualified)
    (cold,), _ = run_many([spec])
    assert all(r.disqualified_at == () for r in cold)
    assert [r.places for r in cold] == [r.places for r in rows]
