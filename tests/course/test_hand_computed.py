"""Small courses whose figures are worked out by hand (files in ``valid/``).

Conventions (docs/course-format.md): the start grid lies right behind the finish line, so
the first step crosses it and starts lap 1; the race ends with the step over the line that
completes lap 3 — "26-space laps + 1-space Imperial Alley = 79-space race (3 laps) + 1 to
cross finish = 80 total" (Ravensburger 1989 rules (EN summary), Track lengths).
"""

from __future__ import annotations

import itertools
from pathlib import Path

from avecaesar.engine.course.figures import RaceFigures
from avecaesar.engine.course.load import contract_water, load_course, load_courses
from avecaesar.engine.course.race_path import shortest_race, shortest_race_route

VALID = Path(__file__).parent / "valid"


def course(name: str, direction: str = "clockwise"):
    for c in load_courses(VALID / f"{name}.yaml"):
        if c.direction == direction:
            assert c.errors == [], c.errors
            return c
    raise AssertionError(direction)


def test_plain_oval() -> None:
    """Lap along the inside: home 4 + north 4 + back 6 + south 4 + grid 2 = 20.
    Race: 1 step over the line from the grid + 3 laps x 20 = 61; places 4-6 stand one space
    further back: 62 (the staggered grid, DiceTree 2022 rulebook (DE) S.2). Outside lanes:
    4 + 6 + 6 + 6 + 2 = 24 a lap, 1 + 72 = 73. No alley: nothing to add."""
    f = course("oval").figures()
    assert f.lap == 20
    assert f.alley_extra is None
    assert f.shortest_race == [61, 61, 61, 62, 62, 62]
    assert f.outside_race == 73
    assert f.reserve == [23, 23, 23, 22, 22, 22]


def test_alley_costs_its_extra_space() -> None:
    """Alley of 4 spaces beside the 3-space 'pit' straight, outside lane 2: entering and
    leaving are diagonal steps on straights (free), so the stop costs 4 - 3 = 1.
    Lap 2+3+2+4+9+4+2 = 26; race 1 + 78 + 1 = 80, reserve 4 on 84 points — the shape of the
    1989 side A figures (Ravensburger 1989 rules (EN summary), Track lengths)."""
    f = course("alley").figures()
    assert f.lap == 26
    assert f.alley_extra == 1
    assert f.shortest_race == [80, 80, 80, 81]
    assert f.reserve == [4, 4, 4, 3]


def test_alley_route_stops_in_lap_one_or_two() -> None:
    """The route found passes an alley space during lap 1 or 2 (docs/sources.md)."""
    c = course("alley")
    g = c.graph
    route = shortest_race_route(g, 1)
    assert route is not None and len(route) - 1 == 80
    crossings = 0
    laps_at_alley = []
    for u, v in itertools.pairwise(route):
        crossings += g.edges[u, v]["finish"]
        if g.nodes[v]["kind"] == "alley":
            laps_at_alley.append(crossings)
    # crossings 1 = lap 1, 2 = lap 2 (the grid lies behind the line)
    assert laps_at_alley and set(laps_at_alley) <= {1, 2}


def test_anticlockwise_is_derived_and_mirrors_the_figures() -> None:
    """The reversed course is derived from the same pieces: same lap, same alley cost."""
    cw, ccw = course("alley"), course("alley", "anticlockwise")
    assert ccw.id == "alley-ccw"
    assert ccw.figures().shortest_race == cw.figures().shortest_race
    # every clockwise step u->v is an anticlockwise step v->u between the same spaces
    lab_cw = {(cw.graph.nodes[u]["label"], cw.graph.nodes[v]["label"])
              for u, v in cw.graph.edges if cw.graph.nodes[u]["kind"] == "track"
              and cw.graph.nodes[v]["kind"] == "track"}
    lab_ccw = {(ccw.graph.nodes[v]["label"], ccw.graph.nodes[u]["label"])
               for u, v in ccw.graph.edges if ccw.graph.nodes[u]["kind"] == "track"
               and ccw.graph.nodes[v]["kind"] == "track"}
    assert lab_cw == lab_ccw


def test_alley_has_no_overtaking_and_one_entry_one_exit() -> None:
    """The alley is one lane: entered into its first space, left from its last; no
    overtaking in it (Pro Ludo 2006 Spielregel (DE) IV; DiceTree 2022 rulebook (DE) S.6)."""
    g = course("alley").graph
    alley = sorted(g.graph["alley"], key=lambda n: g.nodes[n]["a"])
    enter = [(u, v) for u, v, a in g.edges(data="alley") if a == "enter"]
    leave = [(u, v) for u, v, a in g.edges(data="alley") if a == "exit"]
    assert {v for _, v in enter} == {alley[0]}
    assert {u for u, _ in leave} == {alley[-1]}
    for a, b in itertools.pairwise(alley):
        assert list(g.successors(a)) == [b]


def test_chicane_is_one_space_wide() -> None:
    """Chicane spaces are alone in their cross-section, and every route passes them
    (Pro Ludo 2006 Spielregel (DE) p.5: ideal for blocking). Same lap as the oval: the
    chicane lies in the middle lane, reached and left diagonally at no cost."""
    c = course("chicane")
    g = c.graph
    neck = [n for n, d in g.nodes(data=True) if d["piece"] == "neck"]
    assert len(neck) == 2 and all(g.nodes[n]["chicane"] for n in neck)
    assert not any(d["chicane"] for n, d in g.nodes(data=True) if d["piece"] != "neck")
    assert c.figures().lap == 20
    g2 = g.copy()
    g2.remove_node(neck[0])
    f = RaceFigures()
    g2.graph["start_places"] = g.graph["start_places"]
    assert shortest_race(g2, f) == [None, None, None]


def test_walls_forbid_lane_changes_except_at_their_ends() -> None:
    """No lane change across a wall; allowed on the last space before it and right at its
    end (DiceTree 2022 rulebook (DE) S.4)."""
    g = course("walls").graph
    by = {d["label"]: n for n, d in g.nodes(data=True)}

    def step(a: str, b: str) -> bool:
        return g.has_edge(by[a], by[b])

    # along the wall between lanes 0 and 1 on 'back': no change between them
    for k in range(5):
        assert not step(f"back.0.{k}", f"back.1.{k + 1}")
        assert not step(f"back.1.{k}", f"back.0.{k + 1}")
        assert step(f"back.1.{k}", f"back.2.{k + 1}")  # lanes 1-2 are open
    # the last space before the wall and the wall's end allow the change
    assert step("north.0.3", "back.1.0")
    assert step("back.1.5", "south.0.0") or step("back.1.5", "south.0.1")


def test_bridge_course_crosses_itself_without_connecting() -> None:
    """A figure of eight (Pro Ludo boards have bridges and underpasses, Pro Ludo 2006 rules
    (PT) comments): the spaces over and under are drawn across each other but no step joins
    them. Lap 4 + 9 + 4 + 9 = 26; race 1 + 78 = 79."""
    c = course("bridge")
    g = c.graph
    over = {n for n, d in g.nodes(data=True) if d["level"] == "over"}
    under = {n for n, d in g.nodes(data=True) if d["level"] == "under"}
    assert len(over) == len(under) == 4
    assert not any(g.has_edge(u, v) or g.has_edge(v, u) for u in over for v in under)
    assert c.figures().lap == 26
    assert c.figures().shortest_race == [79, 80]
    assert not [p for p in c.problems if p.severity == "warning"]


def test_modules_compose_and_water_can_be_skipped() -> None:
    """A course built from an included module: labels carry the module prefix. With the
    Pro Ludo DE reading a water ditch is jumped over without counting (Pro Ludo 2006
    Spielregel (DE) p.5) — one step saved each lap; with the PT reading (Pro Ludo 2006
    rules (PT) III) it is decoration."""
    c = course("composed")
    labels = {d["label"] for _, d in c.graph.nodes(data=True)}
    assert "back/b1.0.0" in labels and "back/b2.2.2" in labels
    wet = [n for n, d in c.graph.nodes(data=True) if d["water"]]
    assert [c.graph.nodes[n]["label"] for n in wet] == ["back/b2.1.1"]
    plain = c.figures(RaceFigures(water="space"))
    skipped = c.figures(RaceFigures(water="skipped"))
    # jumping the ditch uncounted saves one step a lap, for three laps
    assert skipped.shortest_race == [r - 3 for r in plain.shortest_race]
    assert contract_water(c.graph).number_of_nodes() == c.graph.number_of_nodes() - 1


def test_bigger_deck_or_bonus_changes_the_reserve_only() -> None:
    """Reserve = deck points (+ bonus) - shortest race (DESIGN.md)."""
    c = course("oval")
    assert c.figures(RaceFigures(deck_points=60)).reserve[0] == -1
    assert not c.figures(RaceFigures(deck_points=60)).finishable
    assert c.figures(RaceFigures(deck_points=60, bonus_points=3)).reserve[0] == 2


def test_starter_course_validates(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from avecaesar.editor.main import app

    target = tmp_path / "mine.yaml"
    r = CliRunner().invoke(app, ["course", "new", "Mine", "-o", str(target)])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(app, ["course", "validate", str(target)])
    assert r.exit_code == 0, r.output
    assert "warning" not in r.output
    assert load_course(str(target)).figures().lap == 24
