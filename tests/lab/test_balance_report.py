"""The balance report (issue 24, part 2): every figure in the JSON at full precision, the
HTML page self-contained with every registered section, numbers rounded for people."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.editor.render.balance_page import balance_page
from avecaesar.editor.render.report_sections import SECTIONS
from avecaesar.engine.bots.registry import POLICIES
from avecaesar.engine.lab.balance import skill_table, start_rows
from avecaesar.engine.lab.simulate import RaceSummary, SimSpec, simulate

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
        if s.name != "comparison":
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
