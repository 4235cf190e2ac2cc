"""A course's lane graph compiled into flat tables for the race engine's hot path.

Node ids are the graph's integers; each table is a tuple indexed by node id, so no networkx
call happens while a race runs.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import networkx as nx

__all__ = ["Board"]


@dataclass(frozen=True)
class Board:
    """Successor tables and node facts of one course direction.

    succ[n]: tuple of (next node, crosses the finish line) per forward step from n.
    progress[n], alley[n], chicane[n], label[n]: node facts.
    before_alley[n]: an alley space can still be reached from n without crossing the line.
    """

    id: str
    succ: tuple[tuple[tuple[int, bool], ...], ...]
    progress: tuple[int, ...]
    alley: tuple[bool, ...]
    chicane: tuple[bool, ...]
    before_alley: tuple[bool, ...]
    label: tuple[str, ...]
    lap_value: int
    start_places: tuple[int, ...]
    start_crossings: tuple[int, ...]
    has_alley: bool

    @classmethod
    def from_graph(cls, g: nx.DiGraph, course_id: str | None = None) -> Board:
        n = max(g.nodes) + 1 if len(g) else 0
        succ: list[tuple[tuple[int, bool], ...]] = [()] * n
        progress = [0] * n
        alley = [False] * n
        chicane = [False] * n
        label = [""] * n
        for node, d in g.nodes(data=True):
            succ[node] = tuple(sorted((v, bool(e.get("finish"))) for v, e in g.adj[node].items()))
            progress[node] = int(d.get("progress") or 0)
            alley[node] = d.get("kind") == "alley"
            chicane[node] = bool(d.get("chicane"))
            label[node] = str(d.get("label", node))
        before = [False] * n
        pred: dict[int, list[int]] = {}
        for u in g.nodes:
            for v, fin in succ[u]:
                if not fin:
                    pred.setdefault(v, []).append(u)
        queue = deque(x for x in g.nodes if alley[x])
        for x in queue:
            before[x] = True
        while queue:
            x = queue.popleft()
            for u in pred.get(x, ()):
                if not before[u]:
                    before[u] = True
                    queue.append(u)
        return cls(course_id or str(g.graph.get("id", "course")), tuple(succ), tuple(progress),
                   tuple(alley), tuple(chicane), tuple(before), tuple(label),
                   int(g.graph["lap_value"]), tuple(g.graph["start_places"]),
                   tuple(g.graph["start_crossings"]), any(alley))
