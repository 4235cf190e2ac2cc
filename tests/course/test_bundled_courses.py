"""Every bundled course holds the figures its sources publish (issue 3).

Each published figure is asserted against the compiled lane graph, with its source in the
parametrisation id; reconstructed figures are pinned too, so a change to a course shows.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.engine.course.load import bundled_courses, load_course

EN89 = "Ravensburger 1989 rules (EN summary), Track lengths"
DT = "DiceTree 2022 rulebook (DE) S.3"
HB = "reader homebrew (PT comments)"
RECON = "reconstructed"
GEN = "generated"

# id: (lap, alley_extra, shortest race per place, outside race or None, source of the figures)
COURSES = {
    "ravensburger-1989/a-white": (26, 1, [80, 80, 80, 81], None, EN89),
    "ravensburger-1989/a-blue": (26, 1, [80, 80, 80, 81], None, EN89),
    "ravensburger-1989/b-yellow": (25, 2, [78, 78, 78, 79, 79, 79], None, EN89),
    "ravensburger-1989/b-red": (25, 2, [78, 78, 78, 79, 79, 79], None, EN89),
    "pro-ludo-2006/circus-maximus": (24, 4, [77, 77, 78, 78, 79, 79], 88, RECON),
    "pro-ludo-2006/constantinople": (25, 3, [79, 79, 80, 80, 81, 81], 88, RECON),
    "dicetree-2022/arena-carthago": (24, 1, [74] * 3 + [75] * 3, None, DT),
    "dicetree-2022/arena-maximus": (25, 1, [77] * 3 + [78] * 3, None, DT),
    "dicetree-2022/hippodrom-carthago": (25, 1, [77] * 3 + [78] * 3, None, DT),
    "dicetree-2022/circus-constantinople": (24, 2, [75] * 3 + [76] * 3, None, DT),
    "dicetree-2022/hippodrom-constantinople": (25, 1, [77] * 3 + [78] * 3, None, DT),
    "dicetree-2022/circus-maximus": (25, 2, [78] * 3 + [79] * 3, None, RECON),
    "dicetree-2022/circus-carthago": (24, 2, [75] * 3 + [76] * 3, None, RECON),
    "dicetree-2022/hippodrom-maximus": (26, 1, [80] * 3 + [81] * 3, None, RECON),
    "homebrew/rome": (27, 3, [85, 85, 86, 86, 87, 87], 93, HB),
    "homebrew/constantinople": (27, 2, [84, 84, 85, 85, 86, 86], 99, HB),
    # generated to their briefs (courses/briefs/, docs/generate.md): pinned as computed
    "homebrew/short-and-tight": (25, 4, [80, 80, 80, 81, 81, 81], 126, GEN),
    "homebrew/narrow-neck": (25, 3, [79, 79, 80, 80], 106, GEN),
    "homebrew/four-abreast": (24, 3, [76, 76, 76, 76, 77, 77], 128, GEN),
}
CCW = [c + "-ccw" for c in COURSES if c.split("/")[0] in ("ravensburger-1989", "pro-ludo-2006")]


def _ids(items: dict[str, tuple]) -> list[str]:
    return [f"{cid} [{v[-1]}]" for cid, v in items.items()]


def test_every_bundled_file_is_covered() -> None:
    """The table above lists every bundled course file (and nothing else)."""
    assert set(bundled_courses()) == set(COURSES)


@pytest.mark.parametrize(("cid", "want"), COURSES.items(), ids=_ids(COURSES))
def test_course_figures(cid: str, want: tuple) -> None:
    """Lap, alley extra, shortest race per place and outside race, as the source publishes."""
    lap, alley, races, outside, _source = want
    course = load_course(cid)
    assert course.errors == []
    figs = course.figures()
    assert figs.lap == lap
    assert figs.alley_extra == alley
    assert figs.shortest_race == races
    assert figs.reserve == [84 - r for r in races]
    if outside is not None:
        assert figs.outside_race == outside


@pytest.mark.parametrize("cid", CCW)
def test_anticlockwise_loads(cid: str) -> None:
    """1989: races 3-4 anticlockwise (Ravensburger 1989 rules (EN summary), Recommended
    Course Rotation); 2006: races 3 and 4 anticlockwise (Pro Ludo 2006 Spielregel (DE) p.6)."""
    course = load_course(cid)
    assert course.direction == "anticlockwise"
    assert course.errors == []
    figs = course.figures()
    clockwise = load_course(cid[: -len("-ccw")]).figures()
    assert figs.lap == clockwise.lap
    assert figs.shortest_race == clockwise.shortest_race


@pytest.mark.parametrize(("cid", "figures", "players", "places"), [
    pytest.param("ravensburger-1989/a-white", (26, 1, 80, 4), (3, 4), 4, id="side-A-white"),
    pytest.param("ravensburger-1989/b-yellow", (25, 2, 78, 6), (5, 6), 6, id="side-B-yellow"),
])
def test_1989_side_figures(cid: str, figures: tuple[int, ...], players: tuple[int, int],
                           places: int) -> None:
    """Side A: 26-space laps + 1-space alley = 79 + 1 to cross = 80; ~4 spare; 3-4 players.
    Side B: 25-space laps + 2-space alley = 77 + 1 to cross = 78; ~6 spare; 5-6 players
    (Ravensburger 1989 rules (EN summary), Track lengths, Spare movement points, Setup)."""
    course = load_course(cid)
    figs = course.figures()
    assert (figs.lap, figs.alley_extra, figs.shortest_race[0], figs.reserve[0]) == figures
    assert course.model.players == players
    assert len(course.graph.graph["start_places"]) == places


def test_1989_spare_within_published_range() -> None:
    """The sources give 3 to 6 spare points across the four 1989 courses (place 1)."""
    for side in ("a-white", "a-blue", "b-yellow", "b-red"):
        assert 3 <= load_course(f"ravensburger-1989/{side}").figures().reserve[0] <= 6


def test_dicetree_hippodrom_constantinople() -> None:
    """Hippodrom-Constantinople: shortest way 77, 7 in reserve (DiceTree 2022 rulebook (DE)
    S.3); places 4-6 need one more point than 1-3 (DiceTree 2022 rulebook (DE) S.2)."""
    figs = load_course("dicetree-2022/hippodrom-constantinople").figures()
    assert figs.shortest_race[0] == 77
    assert figs.reserve[0] == 7
    assert figs.shortest_race[3:] == [78, 78, 78]


@pytest.mark.parametrize("cid", [c for c in COURSES if c.startswith("dicetree-2022/")])
def test_dicetree_course(cid: str) -> None:
    """Shortest way 74 to 80 by course (DiceTree 2022 rulebook (DE) S.3); two staggered start
    rows, places 4-6 need one point more (S.2); always clockwise (S.2-3); built from two
    included board halves (S.1)."""
    course = load_course(cid)
    figs = course.figures()
    assert 74 <= figs.shortest_race[0] <= 80
    assert len(figs.shortest_race) == 6
    assert figs.shortest_race[3:] == [figs.shortest_race[0] + 1] * 3
    assert figs.shortest_race[:3] == [figs.shortest_race[0]] * 3
    assert course.model.reverse is None
    first, second = cid.split("/")[1].split("-")
    prefixes = {p.name.split("/")[0] for p in course.model.pieces}
    assert prefixes == {first, second}
    assert all("/" in p.name for p in course.model.pieces)


def test_dicetree_range_is_spanned() -> None:
    """74 and 80 are both reached (DiceTree 2022 rulebook (DE) S.3)."""
    firsts = {load_course(c).figures().shortest_race[0] for c in COURSES
              if c.startswith("dicetree-2022/")}
    assert min(firsts) == 74 and max(firsts) == 80


def test_homebrew_counts() -> None:
    """Rome 85 inside / 93 outside, Constantinople 84 / 99, the 5 alley spaces counted once
    (reader homebrew (PT comments))."""
    rome = load_course("homebrew/rome").figures()
    const = load_course("homebrew/constantinople").figures()
    assert (rome.shortest_race[0], rome.outside_race) == (85, 93)
    assert (const.shortest_race[0], const.outside_race) == (84, 99)
    assert not rome.finishable


def test_pro_ludo_alley_and_divided_bend() -> None:
    """Alley of 5 spaces beside 2 track spaces; a bend of 1 space inside against 3 outside
    (reader homebrew (PT comments), describing the Pro Ludo 2006 boards)."""
    course = load_course("pro-ludo-2006/circus-maximus")
    g = course.graph
    assert len(g.graph["alley"]) == 5
    beside = [d for _, d in g.nodes(data=True) if d["piece"] == "caesar" and d["lane"] == 0]
    assert len(beside) == 2
    bend = next(p for p in course.model.pieces if p.name == "wall-bend")
    assert bend.lengths == [1, 3] and bend.walls == [(0, 1)]


def test_every_course_has_provenance() -> None:
    """Issue 3: every bundled course carries sources, figures with sources, and says what is
    reconstructed."""
    for cid in COURSES:
        m = load_course(cid).model
        assert m.provenance.get("sources"), cid
        assert m.provenance.get("reconstructed"), cid
        for fig in m.provenance.get("figures", []):
            assert fig["source"], cid


def test_declared_figures_hold() -> None:
    """The figures each file declares are what its compiled graph gives (both directions)."""
    for cid in list(COURSES) + CCW:
        course = load_course(cid)
        assert course.figure_problems(course.figures()) == [], cid


@pytest.mark.covers("command:course list")
def test_course_list_cli() -> None:
    """`avecaesar course list` shows 20+ ids with edition, players, lap, race, reserve, flag."""
    result = CliRunner().invoke(app, ["course", "list"])
    assert result.exit_code == 0, result.output
    lines = [ln for ln in result.output.splitlines()[1:] if ln.strip()]
    assert len(lines) >= 20
    row = next(ln for ln in lines if ln.startswith("ravensburger-1989/a-white "))
    assert row.split()[1:] == ["ravensburger-1989", "3–4", "26", "80–81", "3–4", "yes"]
    assert any(ln.startswith("dicetree-2022/hippodrom-constantinople ") for ln in lines)
    assert any(ln.startswith("pro-ludo-2006/constantinople-ccw ") for ln in lines)


@pytest.mark.covers("command:course validate")
def test_rome_not_finishable_cli() -> None:
    """Rome's 85-point shortest race is not finishable on an 84-point deck (issue 3)."""
    result = CliRunner().invoke(app, ["course", "validate", "homebrew/rome"])
    assert result.exit_code == 1
    assert "NOT finishable" in result.output
    assert "85" in result.output


CROSSING = [c for c, v in COURSES.items()
            if c.split("/")[0] in ("pro-ludo-2006", "homebrew") and v[-1] != GEN]


@pytest.mark.parametrize("cid", CROSSING + [c + "-ccw" for c in CROSSING
                                            if c.startswith("pro-ludo-2006/")])
def test_course_crosses_itself(cid: str) -> None:
    """The Pro Ludo 2006 tracks have a bridge and an underpass: the course crosses itself
    (issue 3, after the reader homebrew (PT comments), which counts spaces "before and after
    the bridge"). The crossing's position is reconstructed: over and under spaces exist,
    overlap in the drawing, and no step joins them; the drawing closes."""
    course = load_course(cid)
    assert course.problems == []
    g = course.graph
    over = [n for n, d in g.nodes(data=True) if d["level"] == "over"]
    under = [n for n, d in g.nodes(data=True) if d["level"] == "under"]
    assert over and under

    def dist(a: int, b: int) -> float:
        (xa, ya), (xb, yb) = g.nodes[a]["pos"], g.nodes[b]["pos"]
        return ((xa - xb) ** 2 + (ya - yb) ** 2) ** 0.5

    assert sum(1 for a in over for b in under if dist(a, b) < 34) >= 2
    assert not any(g.has_edge(a, b) or g.has_edge(b, a) for a in over for b in under)


def test_rome_finishable_under_the_homebrew_bonus() -> None:
    """Under the reader's homebrew (reader homebrew (PT comments): a +3 bonus piece after
    saluting Caesar, usable once instead of a card) Rome's 85 fits 84 + 3 with 2 in reserve
    from the front row; the rows behind need 86 and 87 (1 and 0 in reserve)."""
    import json

    result = CliRunner().invoke(app, ["course", "validate", "homebrew/rome", "--ruleset",
                                      "homebrew", "--json"])
    assert result.exit_code == 0, result.output
    figs = json.loads(result.stdout)[0]["figures"]
    assert figs["deck_points"] == 84 and figs["bonus_points"] == 3
    assert figs["reserve"] == [2, 2, 1, 1, 0, 0]
