"""The board geometry (engine/course/geometry.py) on every bundled course: one polygon per
space of ``course dump``, no two overlapping but where a bridge lies over its underpass,
neighbours in the lane graph sharing their edge within 1 % of a space's width, no slivers.

Shapely (GEOS) measures the polygons here, independently of the module's own arithmetic;
the geometry itself is pure Python.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from pathlib import Path

import pytest
from shapely.geometry import Polygon
from shapely.strtree import STRtree

from avecaesar.engine.course.geometry import (
    CLOSES,
    area,
    board_geometry,
    centroid,
    contains,
    free_spot,
)
from avecaesar.engine.course.layout import LANE, Layout
from avecaesar.engine.course.load import bundled_course_ids, load_course, load_courses

EPS = 0.01 * LANE  # 1 % of a space's width
COURSES = bundled_course_ids()


@pytest.fixture(scope="module", params=COURSES)
def drawn(request: pytest.FixtureRequest):
    c = load_course(request.param)
    return c, board_geometry(c.graph), {n: Polygon(s.polygon) for n, s in
                                         board_geometry(c.graph).spaces.items()}


def _physical(g, n):
    d = g.nodes[n]
    a, b = Fraction(d["a"]).limit_denominator(10_000), Fraction(d["b"]).limit_denominator(10_000)
    if g.graph["direction"] == "anticlockwise":
        p = g.graph["period"]
        a, b = (p - b) % p, (p - b) % p + (b - a)
    return a, b


def test_every_node_of_the_dump_has_exactly_one_polygon(drawn) -> None:
    c, geo, polys = drawn
    assert sorted(geo.spaces) == sorted(c.graph.nodes)
    for n, s in geo.spaces.items():
        assert s.node == n
        assert polys[n].is_valid, (n, c.graph.nodes[n]["label"])
        assert area(s.polygon) > 0  # counter-clockwise
        assert contains(s.polygon, s.centre), (n, c.graph.nodes[n]["label"])


def test_no_two_spaces_overlap_but_a_bridge_over_its_underpass(drawn) -> None:
    c, geo, polys = drawn
    nodes = list(polys)
    tree = STRtree([polys[n] for n in nodes])
    found = []
    for n in nodes:
        for j in tree.query(polys[n]):
            m = nodes[int(j)]
            if m <= n:
                continue
            shared = polys[n].intersection(polys[m]).area
            if shared > 1e-5 * LANE * LANE:  # 0.016 square points: rounding only
                levels = {geo.spaces[n].level, geo.spaces[m].level}
                if levels != {"over", "under"}:
                    found.append((c.graph.nodes[n]["label"], c.graph.nodes[m]["label"],
                                  round(shared, 1)))
    assert found == []


def _border_length(c, u, v) -> float:
    """How long the border of two side-by-side spaces is where both intervals overlap,
    measured on the layout itself (finely sampled), not on the polygons."""
    pieces = c.model.pieces
    lay = Layout([p.lengths for p in pieces], [p.turn for p in pieces], c.model.lanes)
    (a0, b0), (a1, b1) = _physical(c.graph, u), _physical(c.graph, v)
    lo, hi = max(a0, a1), min(b0, b1)
    border = max(c.graph.nodes[u]["lane"], c.graph.nodes[v]["lane"]) * LANE
    pts = [lay.along(float(lo + (hi - lo) * k / 64), border)[:2] for k in range(65)]
    return sum(math.dist(p, q) for p, q in itertools.pairwise(pts))


def test_lane_neighbours_share_their_edge(drawn) -> None:
    """Consecutive spaces of a lane (a straight step) share their whole cross edge; spaces
    side by side in neighbouring track lanes share the border where their intervals
    overlap — each within 1 % of a space's width. (The alley is its own band: it meets the
    track at the sides of its entry and exit spaces, and its steps in and out are lane
    changes, which join spaces corner to corner as every lane change on a straight does.)"""
    c, _geo, polys = drawn
    g = c.graph
    short = []
    for u, v, diagonal in g.edges(data="diagonal"):
        if diagonal:
            continue
        shared = polys[u].exterior.intersection(polys[v].exterior.buffer(EPS)).length
        if shared < LANE - 2 * EPS:
            short.append((g.nodes[u]["label"], g.nodes[v]["label"], round(shared, 2)))
    track = [n for n in g.nodes if g.nodes[n]["kind"] == "track"]
    by_piece: dict[str, list[int]] = {}
    for n in track:
        by_piece.setdefault(g.nodes[n]["piece"], []).append(n)
    pairs = 0
    for group in by_piece.values():
        for u in group:
            for v in group:
                if g.nodes[v]["lane"] != g.nodes[u]["lane"] + 1:
                    continue
                (a0, b0), (a1, b1) = _physical(g, u), _physical(g, v)
                if min(b0, b1) <= max(a0, a1):
                    continue
                pairs += 1
                want = _border_length(c, u, v)
                shared = polys[u].exterior.intersection(polys[v].exterior.buffer(EPS)).length
                if shared < want - 2 * EPS:
                    short.append((g.nodes[u]["label"], g.nodes[v]["label"], round(shared, 2),
                                  round(want, 2)))
    assert pairs > 0
    assert short == []


def test_no_slivers(drawn) -> None:
    """The smallest space's area is at least 40 % of the largest's."""
    c, _geo, polys = drawn
    areas = {n: p.area for n, p in polys.items()}
    small, large = min(areas, key=areas.__getitem__), max(areas, key=areas.__getitem__)
    ratio = areas[small] / areas[large]
    assert ratio >= 0.4, (f"{c.graph.nodes[small]['label']} {areas[small]:.0f} against "
                          f"{c.graph.nodes[large]['label']} {areas[large]:.0f}: {ratio:.2f}")


def test_walls_lie_on_shared_edges_and_the_finish_line_across_the_lanes(drawn) -> None:
    c, geo, polys = drawn
    edges = [p.exterior for p in polys.values()]
    for wall in geo.walls:
        for point in wall:
            assert min(e.distance(_point(point)) for e in edges) < EPS
    (x0, y0), (x1, y1) = geo.finish
    assert math.dist((x0, y0), (x1, y1)) == pytest.approx(c.model.lanes * LANE, rel=1e-6)
    crossing = [n for n, p in polys.items() if p.exterior.distance(_point(geo.finish[0])) < EPS
                or p.exterior.distance(_point(geo.finish[1])) < EPS]
    assert crossing


def _point(p):
    from shapely.geometry import Point

    return Point(p)


def test_a_drawing_that_does_not_close_says_by_how_much_and_draws_every_space(tmp_path) -> None:
    path = Path(load_course("ravensburger-1989/a-white").model.source.file)
    course = path.read_text(encoding="utf-8").replace("length: 4, walls", "length: 6, walls")
    (c, *_rest) = load_courses(str(tmp_path / "open.yaml"), text=course)
    geo = board_geometry(c.graph)
    assert not geo.closure.closed and geo.closure.gap > CLOSES
    assert geo.closure.gap == pytest.approx(80, abs=1)  # two spaces
    assert sorted(geo.spaces) == sorted(c.graph.nodes)


def test_a_small_gap_is_closed_by_the_drawing() -> None:
    c = load_course("ravensburger-1989/b-yellow")
    geo = board_geometry(c.graph)
    assert 0 < geo.closure.gap < CLOSES and geo.closure.closed
    g = c.graph
    first = min(n for n in g.nodes if g.nodes[n]["label"] == "home.2.0")
    last = min(n for n in g.nodes if g.nodes[n]["label"] == "grid.2.1")
    shared = Polygon(geo.spaces[first].polygon).exterior.intersection(
        Polygon(geo.spaces[last].polygon).exterior.buffer(1e-6)).length
    assert shared == pytest.approx(LANE, abs=1e-3)


def test_the_alley_is_a_bay_beside_the_track() -> None:
    """The alley leaves the side of the space before it and rejoins at the side of the
    space after it; its spaces are about a space long (3 alley spaces beside 1)."""
    c = load_course("ravensburger-1989/b-red")
    g, geo = c.graph, board_geometry(c.graph)
    alley = sorted(g.graph["alley"], key=lambda n: g.nodes[n]["label"])
    (entry, _), = [(u, v) for u, v, a in g.edges(data="alley") if a == "enter"]
    (_, out), = [(u, v) for u, v, a in g.edges(data="alley") if a == "exit"]
    first, last = Polygon(geo.spaces[alley[0]].polygon), Polygon(geo.spaces[alley[-1]].polygon)
    assert first.exterior.intersection(Polygon(geo.spaces[entry].polygon).exterior.buffer(
        EPS)).length > 0.9 * LANE
    assert last.exterior.intersection(Polygon(geo.spaces[out].polygon).exterior.buffer(
        EPS)).length > 0.9 * LANE
    for n in alley:
        assert Polygon(geo.spaces[n].polygon).area == pytest.approx(40 * 40, rel=0.1)


def test_free_spot_avoids_the_covering_polygons() -> None:
    square = [(0.0, 0.0), (40.0, 0.0), (40.0, 40.0), (0.0, 40.0)]
    cover = [(-5.0, -5.0), (25.0, -5.0), (25.0, 45.0), (-5.0, 45.0)]
    spot = free_spot(square, [cover], 2.0)
    assert spot is not None and spot[0] >= 27 and contains(square, spot)
    assert free_spot(square, [[(-1.0, -1.0), (41.0, -1.0), (41.0, 41.0), (-1.0, 41.0)]]) is None
    assert centroid(square) == (20.0, 20.0)
