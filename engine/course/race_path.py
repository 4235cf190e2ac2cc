"""The shortest legal race: a breadth-first search in the lane graph × (laps, alley stop).

A state is (space, finish-line crossings so far, alley stop made). A step along an edge that
crosses the line adds a crossing; landing on an alley space during a lap the rules allow
makes the stop (a chariot can always end a move there: cards run from 1 to 6). The race is
over with the crossing that completes the last lap, if the stop was made when it is required.
Steps beyond the line lapse (docs/sources.md, finish.overshoot), so the length counts
up to and including the step over the line.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import networkx as nx

from avecaesar.engine.course.alley_window import counts
from avecaesar.engine.course.figures import DEFAULT_FIGURES, RaceFigures

__all__ = ["lap_length", "outside_race", "shortest_race", "shortest_race_route"]


def _search(g: nx.DiGraph, start: int, crossings_at_start: int, figures: RaceFigures,
            allowed: Callable[[int], bool] | None = None) -> list[int] | None:
    """Nodes of one shortest legal race from ``start`` (start included), or None."""
    needed = figures.laps + crossings_at_start
    alley_laps = tuple(figures.alley_laps)
    need_alley = figures.alley_required and bool(g.graph.get("alley"))
    kinds = {n: d["kind"] == "alley" for n, d in g.nodes(data=True)}
    # plain lists: iterating networkx's adjacency views per state is the search's main cost
    succ = {n: [(v, bool(d["finish"])) for v, d in nbrs.items()] for n, nbrs in g.adj.items()}
    begin = (start, 0, not need_alley)
    parent: dict[tuple[int, int, bool], tuple[int, int, bool] | None] = {begin: None}
    queue = deque([begin])
    while queue:
        state = queue.popleft()
        node, crossed, stopped = state
        for nxt, finish in succ[node]:
            if allowed is not None and not allowed(nxt):
                continue
            c = crossed + (1 if finish else 0)
            if c >= needed:
                if stopped:
                    route = [nxt]
                    back: tuple[int, int, bool] | None = state
                    while back is not None:
                        route.append(back[0])
                        back = parent[back]
                    return route[::-1]
                continue
            lap = c - crossings_at_start + 1  # the lap being driven
            s = stopped or (kinds[nxt] and counts(alley_laps, lap))
            key = (nxt, c, s)
            if key not in parent:
                parent[key] = state
                queue.append(key)
    return None


def shortest_race_route(g: nx.DiGraph, place: int,
                        figures: RaceFigures = DEFAULT_FIGURES) -> list[int] | None:
    """The spaces of a shortest legal race from start place ``place`` (1-based)."""
    starts = g.graph["start_places"]
    if not 1 <= place <= len(starts):
        return None
    return _search(g, starts[place - 1], g.graph["start_crossings"][place - 1], figures)


def shortest_race(g: nx.DiGraph, figures: RaceFigures = DEFAULT_FIGURES) -> list[int | None]:
    """Length of the shortest legal race from each start place (None: cannot finish)."""
    return [_length(_search(g, start, offset, figures))
            for start, offset in zip(g.graph["start_places"], g.graph["start_crossings"],
                                     strict=True)]


def outside_race(g: nx.DiGraph, figures: RaceFigures = DEFAULT_FIGURES) -> int | None:
    """The race keeping to the outermost track lane of every piece (and the alley).

    It starts from the outermost start place; this is the most wasteful regular line, the
    figure that tells a designer how much the inside saves.
    """
    places = g.graph["start_places"]
    if not places:
        return None
    widest: dict[str, int] = {}
    for _n, d in g.nodes(data=True):
        if d["kind"] == "track":
            widest[d["piece"]] = max(widest.get(d["piece"], -1), d["lane"])
    ok = {n for n, d in g.nodes(data=True)
          if d["kind"] != "track" or d["lane"] == widest[d["piece"]]}
    i = max(range(len(places)), key=lambda k: (g.nodes[places[k]]["lane"], -k))
    return _length(_search(g, places[i], g.graph["start_crossings"][i], figures,
                           ok.__contains__))


def _length(route: list[int] | None) -> int | None:
    return None if route is None else len(route) - 1


def lap_length(g: nx.DiGraph) -> int | None:
    """Steps of the shortest lap on the track (no alley): from over the line to over it again.

    On a course whose lanes only differ in curves this is the lap along the inside line.
    """
    crossing = [(u, v) for u, v, f in g.edges(data="finish") if f
                and g.nodes[u]["kind"] == "track" and g.nodes[v]["kind"] == "track"]
    track = nx.subgraph_view(g, filter_node=lambda n: g.nodes[n]["kind"] == "track",
                             filter_edge=lambda u, v: not g.edges[u, v]["finish"])
    best: int | None = None
    by_head: dict[int, list[int]] = {}
    for u, v in crossing:
        by_head.setdefault(v, []).append(u)
    tails = {u for u, _ in crossing}
    for head in by_head:
        dist = nx.single_source_shortest_path_length(track, head)
        for t in tails & dist.keys():
            best = dist[t] + 1 if best is None else min(best, dist[t] + 1)
    return best
