"""Property tests: on random small courses the shortest legal race found by the BFS equals
an independent brute-force search (a step-by-step frontier over the same rules), and the
route it returns is a legal race."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from avecaesar.engine.course.figures import RaceFigures
from avecaesar.engine.course.load import load_courses
from avecaesar.engine.course.race_path import shortest_race, shortest_race_route


@st.composite
def course_text(draw: st.DrawFn) -> str:
    lanes = draw(st.integers(1, 3))
    pieces = []
    n = draw(st.integers(3, 6))
    for i in range(n):
        kind = draw(st.sampled_from(["straight", "straight", "curve", "chicane"]))
        if kind == "straight" or i == n - 1:
            length = draw(st.integers(1, 4))
            wall = ""
            if lanes > 1 and draw(st.booleans()):
                lo = draw(st.integers(0, lanes - 2))
                wall = f", walls: [[{lo}, {lo + 1}]]"
            pieces.append(f"  - straight: {{name: p{i}, length: {length}{wall}}}")
        elif kind == "curve":
            base = draw(st.integers(1, 4))
            lens = [base + k * draw(st.integers(0, 2)) for k in range(lanes)]
            lens = sorted(lens)
            pieces.append(f"  - curve: {{name: p{i}, turn: 90, lengths: {lens}}}")
        else:
            lane = draw(st.integers(0, lanes - 1))
            pieces.append(f"  - chicane: {{name: p{i}, lane: {lane}, "
                          f"length: {draw(st.integers(1, 2))}}}")
    last = n - 1
    starts = [f"p{last}.{lane}.-1" for lane in range(lanes)]
    text = (f"name: random\nlanes: {lanes}\ntrack:\n" + "\n".join(pieces) +
            f"\nfinish: {{before: p0}}\nstart: [{', '.join(starts)}]\n")
    straights = [i for i, p in enumerate(pieces) if "straight" in p]
    if straights and draw(st.booleans()):
        where = draw(st.sampled_from(straights))
        side = draw(st.sampled_from(["inside", "outside"]))
        text += f"alley: {{from: p{where}, to: p{where}, spaces: {draw(st.integers(1, 5))}, "\
                f"side: {side}}}\n"
    return text


def brute_force(g, start: int, offset: int, figures: RaceFigures, limit: int = 400) -> int | None:
    """Frontier of every (space, crossings, alley stop) reachable in exactly t steps."""
    need_alley = figures.alley_required and bool(g.graph.get("alley"))
    frontier = {(start, 0, not need_alley)}
    seen = set(frontier)
    for t in range(1, limit):
        nxt = set()
        for node, crossed, stopped in frontier:
            for v in g.successors(node):
                c = crossed + int(bool(g.edges[node, v]["finish"]))
                if c == figures.laps + offset and stopped:
                    return t
                if c >= figures.laps + offset:
                    continue
                lap = c - offset + 1
                s = stopped or (g.nodes[v]["kind"] == "alley" and lap in figures.alley_laps)
                state = (v, c, s)
                if state not in seen:
                    seen.add(state)
                    nxt.add(state)
        if not nxt:
            return None
        frontier = nxt
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(course_text(), st.sampled_from([(1, 2), (1,), (2, 3)]))
def test_shortest_race_equals_brute_force(text: str, alley_laps: tuple[int, ...]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "random.yaml"
        path.write_text(text, encoding="utf-8")
        (course,) = load_courses(path)
    assume(not course.errors)
    g = course.graph
    figures = RaceFigures(alley_laps=alley_laps)
    fast = shortest_race(g, figures)
    slow = [brute_force(g, s, o, figures)
            for s, o in zip(g.graph["start_places"], g.graph["start_crossings"], strict=True)]
    assert fast == slow
    # the route is a walk on the graph of that length, ending over the line
    for place, length in enumerate(fast, 1):
        route = shortest_race_route(g, place, figures)
        if length is None:
            assert route is None
            continue
        assert route is not None and len(route) - 1 == length
        assert all(g.has_edge(u, v) for u, v in itertools.pairwise(route))
        assert g.edges[route[-2], route[-1]]["finish"]
        crossings = sum(bool(g.edges[u, v]["finish"]) for u, v in itertools.pairwise(route))
        assert crossings == figures.laps + g.graph["start_crossings"][place - 1]


@settings(max_examples=40, deadline=None)
@given(course_text())
def test_lap_and_race_bounds(text: str) -> None:
    """Without an alley (which a designer may make a shortcut) every race is at least laps x
    the inside lap; the shortest race is never longer than the outside race."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "random.yaml"
        path.write_text(text, encoding="utf-8")
        (course,) = load_courses(path)
    assume(not course.errors)
    f = course.figures()
    for r in f.shortest_race:
        if r is not None and f.lap is not None and not course.graph.graph["alley"]:
            assert r >= 3 * f.lap
    if f.outside_race is not None:
        assert min(r for r in f.shortest_race if r is not None) <= f.outside_race
