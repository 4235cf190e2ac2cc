"""The shortest legal race on the lane graph: per start place, its route, the outside race.

Thin views of the one distance search (:mod:`avecaesar.engine.course.race_distance`: space ×
finish crossings × alley stop made, where laps, the finish and the alley window are
counted): this module turns the graph into its successor table — in the graph's own order,
so that of several shortest races the route is the first a search forward from the start
place finds — and reads the table. Steps beyond the line lapse (docs/sources.md,
finish.overshoot), so a length counts up to and including the step over the line.
"""

from __future__ import annotations

import networkx as nx

from avecaesar.engine.course.figures import DEFAULT_FIGURES, RaceFigures
from avecaesar.engine.course.race_distance import (
    FAR,
    RaceDistances,
    race_distances,
    steps_to_line,
)

__all__ = ["first_crossing", "lap_length", "outside_race", "shortest_race",
           "shortest_race_route"]


def _successors(g: nx.DiGraph, keep: set[int] | None = None) -> list[list[tuple[int, bool]]]:
    """Per node id, the (next space, crosses the line) of each step, in the graph's order;
    steps onto spaces not in ``keep`` left out."""
    succ: list[list[tuple[int, bool]]] = [[] for _ in range(max(g.nodes) + 1 if len(g) else 0)]
    for u, nbrs in g.adj.items():
        succ[u] = [(v, bool(d["finish"])) for v, d in nbrs.items()
                   if keep is None or v in keep]
    return succ


def _table(g: nx.DiGraph, figures: RaceFigures, keep: set[int] | None = None
           ) -> tuple[RaceDistances, bool]:
    """The distance table of ``g`` under ``figures`` (steps onto spaces not in ``keep``
    left out), and whether a start place begins with the stop made (none is needed)."""
    succ = _successors(g, keep)
    alley = [False] * len(succ)
    for u, kind in g.nodes(data="kind"):
        alley[u] = kind == "alley"
    need = figures.alley_required and bool(g.graph.get("alley"))
    most = figures.laps + max(g.graph["start_crossings"], default=0)
    return race_distances(succ, alley, figures.laps, tuple(figures.alley_laps), need,
                          most), not need


def shortest_race_route(g: nx.DiGraph, place: int,
                        figures: RaceFigures = DEFAULT_FIGURES) -> list[int] | None:
    """The spaces of a shortest legal race from start place ``place`` (1-based)."""
    starts = g.graph["start_places"]
    if not 1 <= place <= len(starts):
        return None
    table, stopped = _table(g, figures)
    return table.route(starts[place - 1],
                       figures.laps + g.graph["start_crossings"][place - 1], stopped)


def shortest_race(g: nx.DiGraph, figures: RaceFigures = DEFAULT_FIGURES) -> list[int | None]:
    """Length of the shortest legal race from each start place (None: cannot finish)."""
    table, stopped = _table(g, figures)
    return [table.to_finish(start, figures.laps + offset, stopped)
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
    table, stopped = _table(g, figures, ok)
    return table.to_finish(places[i], figures.laps + g.graph["start_crossings"][i], stopped)


def first_crossing(g: nx.DiGraph, start: int) -> int | None:
    """Steps from ``start`` up to and including its first crossing of the finish line
    (None: it never crosses it)."""
    steps = steps_to_line(_successors(g))[start]
    return None if steps == FAR else steps


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
