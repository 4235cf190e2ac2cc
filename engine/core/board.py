"""A course's lane graph compiled into flat tables for the race engine's hot path.

Node ids are the graph's integers; each table is a tuple indexed by node id, so no networkx
call happens while a race runs.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from avecaesar.engine.core.types import Move
from avecaesar.engine.course.race_distance import RaceDistances, race_distances, steps_to_line
from avecaesar.engine.course.svg import course_spaces

if TYPE_CHECKING:  # only an annotation: a race (or a board from the cache) needs no networkx
    import networkx as nx

__all__ = ["Board", "WalkTable"]

#: the rules values a board keeps later layers' tables for (:meth:`Board.keep`)
KEPT = 8
#: a field's metadata: a table derived on first use, rebuilt rather than pickled
TRANSIENT = MappingProxyType({"transient": True})


class WalkTable:
    """The walks of one (start, card, laps left), indexed by their depth-first order.

    ``ends``: per (finish-line crossings, landing) the bits of the walks that have them.

    Walk ``i`` is bit ``i``: ``masks[node]`` has the bits of the walks through ``node``, so
    the walks a set of taken spaces blocks are the OR of their masks; ``groups`` has, per
    landing space in order of its first walk, the bits of the walks that land there, and
    ``firsts`` that first walk of each.
    """

    __slots__ = ("ends", "firsts", "groups", "masks", "moves", "n", "span")

    def __init__(self, moves: tuple[Move, ...], start: int,
                 finish_steps: frozenset[tuple[int, int]]) -> None:
        self.moves = moves
        self.n = len(moves)
        masks: dict[int, int] = {}
        groups: dict[int, int] = {}
        firsts: dict[int, Move] = {}
        ends: dict[tuple[int, int], int] = {}
        crossing_from = {u for u, _v in finish_steps}
        for i, m in enumerate(moves):
            bit = 1 << i
            path = m.path
            for node in path:
                masks[node] = masks.get(node, 0) | bit
            end = path[-1]
            groups[end] = groups.get(end, 0) | bit
            if end not in firsts:
                firsts[end] = m
            crossed, node = 0, start
            for nxt in path:
                if node in crossing_from and (node, nxt) in finish_steps:
                    crossed += 1
                node = nxt
            ends[(crossed, end)] = ends.get((crossed, end), 0) | bit
        self.masks = masks
        self.span = frozenset(masks)
        self.groups = tuple(groups.values())
        self.firsts = tuple(firsts.values())
        # (finish-line crossings on the way, landing) and the walks that have them
        self.ends = tuple(ends.items())


@dataclass(frozen=True)
class Board:
    """Successor tables and node facts of one course direction.

    succ[n]: tuple of (next node, crosses the finish line) per forward step from n.
    progress[n], alley[n], chicane[n], label[n]: node facts.
    before_alley[n]: an alley space can still be reached from n without crossing the line.
    ahead[n], behind[n]: the space straight ahead / behind in the same lane (no diagonal, no
        finish-line crossing), or -1.
    beside[n]: the spaces beside n: same piece, the next lane in or out, same progress.
    piece_kind[n]: the kind of the piece n lies on (``straight``, ``curve``, ``section``,
        ``chicane``; ``alley`` for an alley space); bridge[n]: n lies on a piece that
        crosses over another (``crossing: over``).
    lane[n], lanes: n's lane (0 = the inside lane; an alley space is outside the range) and
        the course's number of lanes.
    to_line[n]: the fewest steps from n up to the step that crosses the finish line.

    Derived tables are kept on the board they derive from (filled on first use, never
    pickled with it: engine/lab/setup_cache.py): the distance tables per rule values
    (:meth:`distances`) and what a later layer derives from the board and one rules value
    (:meth:`kept`, the greedy bot's tables).
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
    ahead: tuple[int, ...] = ()
    behind: tuple[int, ...] = ()
    beside: tuple[tuple[int, ...], ...] = ()
    piece_kind: tuple[str, ...] = ()
    bridge: tuple[bool, ...] = ()
    lane: tuple[int, ...] = ()
    lanes: int = 0
    to_line: tuple[int, ...] = ()
    _paths: dict[tuple[int, int, int], tuple[tuple[int, ...], ...]] = field(
        default_factory=dict, compare=False, repr=False)
    _finish_steps: list[frozenset[tuple[int, int]]] = field(
        default_factory=list, compare=False, repr=False)
    _moves: dict[tuple[int, int, int], tuple[Move, ...]] = field(
        default_factory=dict, compare=False, repr=False)
    _tables: dict[int | tuple[int, int, int], WalkTable] = field(
        default_factory=dict, compare=False, repr=False)
    #: the spaces as drawn and the finish line (engine/course/svg), for a position's
    #: SVG; no race rule reads it
    drawing: Any = field(default=None, compare=False, repr=False)
    _distances: dict[tuple[int, tuple[int, ...], bool], RaceDistances] = field(
        init=False, default_factory=dict, compare=False, repr=False, metadata=TRANSIENT)
    _kept: list[tuple[str, object, object]] = field(
        init=False, default_factory=list, compare=False, repr=False, metadata=TRANSIENT)

    def distances(self, laps: int, window: tuple[int, ...], need: bool) -> RaceDistances:
        """The steps still to race from every (space, crossings still needed, stop made)
        with ``laps`` to drive, the alley stop counting in the laps of ``window`` and
        required if ``need`` (engine/course/race_distance.py), made once per rule values."""
        key = (laps, window, need)
        found = self._distances.get(key)
        if found is None:
            found = race_distances(self.succ, self.alley, laps, window, need,
                                   max(self.start_crossings, default=0) + laps)
            self._distances[key] = found
        return found

    def kept(self, name: str, rules: object) -> object | None:
        """What a later layer kept under ``name`` for this board and the rules value
        ``rules`` (that very object) with :meth:`keep`, or None."""
        for kept_name, owner, value in self._kept:
            if owner is rules and kept_name == name:
                return value
        return None

    def keep(self, name: str, rules: object, value: object) -> None:
        """Keep ``value`` under ``name`` for this board and ``rules``: the last few kept
        (tests make rules values by the hundred), the newest first."""
        self._kept[:] = [(name, rules, value), *self._kept[:KEPT - 1]]

    @property
    def finish_steps(self) -> frozenset[tuple[int, int]]:
        """The steps (u, v) that cross the finish line, as a set (built once)."""
        if not self._finish_steps:
            self._finish_steps.append(frozenset(
                (u, v) for u, succ in enumerate(self.succ) for v, fin in succ if fin))
        return self._finish_steps[0]

    def moves(self, start: int, k: int, left: int) -> tuple[Move, ...]:
        """:meth:`paths` as ``Move(k, path)`` values, made once."""
        key = (start, k, min(left, k + 1))
        found = self._moves.get(key)
        if found is None:
            found = self._moves[key] = tuple(Move(k, p) for p in self.paths(start, k, left))
        return found

    def walk_table(self, start: int, k: int, left: int) -> WalkTable:
        """:meth:`moves` with the facts to count and pick the free ones by bit masks (made
        once).

        Looked up on every turn for every card in hand, so by one integer key (no tuple
        to build, hash and compare: issue 13); a card over 30 points, which no deck has,
        is keyed by the tuple."""
        laps = left if left < k + 1 else k + 1
        key: int | tuple[int, int, int] = (
            (start << 10) | (k << 5) | laps if 0 <= k <= 30 and laps >= 0 else (start, k, laps))
        found = self._tables.get(key)
        if found is None:
            found = self._tables[key] = WalkTable(self.moves(start, k, laps), start,
                                                   self.finish_steps)
        return found

    def paths(self, start: int, k: int, left: int) -> tuple[tuple[int, ...], ...]:
        """Every walk of k steps from ``start`` on the empty track, in depth-first order; a
        walk ends early with the crossing that is the ``left``-th (the race's last)."""
        left = min(left, k + 1)
        key = (start, k, left)
        found = self._paths.get(key)
        if found is None:
            out: list[tuple[int, ...]] = []
            succ = self.succ

            def rec(node: int, path: tuple[int, ...], steps: int, crossed: int) -> None:
                for nxt, fin in succ[node]:
                    p = (*path, nxt)
                    if (fin and crossed + 1 >= left) or steps == 1:
                        out.append(p)
                    else:
                        rec(nxt, p, steps - 1, crossed + fin)

            rec(start, (), k, 0)
            found = self._paths[key] = tuple(out)
        return found

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
        queue = deque([x for x in g.nodes if alley[x]])
        for x in queue:
            before[x] = True
        while queue:
            x = queue.popleft()
            for u in pred.get(x, ()):
                if not before[u]:
                    before[u] = True
                    queue.append(u)
        ahead, behind = [-1] * n, [-1] * n
        for u, v, e in g.edges(data=True):
            if not e.get("diagonal") and not e.get("finish"):
                ahead[u], behind[v] = v, u
        lanes: dict[tuple[Any, int], list[tuple[Any, int]]] = {}
        for node, d in g.nodes(data=True):
            if d.get("kind") == "track" and d.get("lane") is not None:
                lanes.setdefault((d.get("piece"), progress[node]), []).append(
                    (d["lane"], node))
        beside: list[tuple[int, ...]] = [()] * n
        for group in lanes.values():
            for lane, node in group:
                beside[node] = tuple(o for ol, o in group if abs(ol - lane) == 1)
        kinds, bridge, lane = [""] * n, [False] * n, [-1] * n
        for node, d in g.nodes(data=True):
            kinds[node] = str(d.get("piece_kind", ""))
            bridge[node] = d.get("level") == "over"
            lane[node] = int(d["lane"]) if d.get("lane") is not None else -1
        return cls(course_id or str(g.graph.get("id", "course")), tuple(succ), tuple(progress),
                   tuple(alley), tuple(chicane), tuple(before), tuple(label),
                   int(g.graph["lap_value"]), tuple(g.graph["start_places"]),
                   tuple(g.graph["start_crossings"]), any(alley), tuple(ahead), tuple(behind),
                   tuple(beside), tuple(kinds), tuple(bridge), tuple(lane),
                   int(g.graph.get("lanes") or 0), steps_to_line(succ),
                   drawing=(course_spaces(g), g.graph.get("finish_segment"), g.graph.get("name")))

