"""Where the points of a course's shortest legal race go: by lap, by piece, by kind of piece.

The breakdown walks the route the shortest-race search returns, step by step; every step is
counted once, on the space it lands on, so each breakdown sums to the race figure. A curve
is "inside" in the lane with the fewest spaces of that curve and "outside" in every other.
The alley detour is the alley-stop figure: the race with the stop minus the race without.

For each piece it also says how often the race drives it and in which lane, what its other
lanes would cost, and so how many points one space less in the lane the race uses would save
(once per pass): the cheapest places to gain a point. ``course validate --what-if`` checks
such edits one by one.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import networkx as nx

from avecaesar.engine.course.alley_window import counts
from avecaesar.engine.course.figures import DEFAULT_FIGURES, RaceFigures
from avecaesar.engine.course.load import Course, contract_water
from avecaesar.engine.course.race_path import shortest_race_route

__all__ = ["KINDS", "PieceUse", "PlaceBreakdown", "RaceExplanation", "explain"]

# Kinds of step, in the order they are reported.
KINDS = ("straight", "curve inside", "curve outside", "chicane", "section", "alley")


@dataclass
class PieceUse:
    """How the race of one start place drives one piece."""

    piece: str
    kind: str
    lengths: list[int]  # spaces per lane, inside first (the alley: its spaces)
    steps: int  # steps landing on the piece over the whole race
    passes: list[tuple[int, list[int]]]  # (lap, lanes used) per drive through the piece

    @property
    def saving(self) -> int:
        """Points one space less in each lane the race uses would save: one per pass."""
        return len(self.passes)

    def to_json(self) -> dict[str, object]:
        return {"piece": self.piece, "kind": self.kind, "lengths": self.lengths,
                "steps": self.steps, "saving_per_space": self.saving,
                "passes": [{"lap": lap, "lanes": lanes} for lap, lanes in self.passes]}


@dataclass
class PlaceBreakdown:
    """The shortest legal race from one start place, taken apart."""

    place: int
    race: int | None
    by_lap: list[int] = field(default_factory=list)  # [to the line, lap 1, lap 2, …]
    by_kind: dict[str, int] = field(default_factory=dict)
    pieces: list[PieceUse] = field(default_factory=list)
    alley_stop_lap: int | None = None
    route: list[str] = field(default_factory=list)  # labels, start place first
    # the space ids landed on, split as ``by_lap`` counts them (the start space first, with
    # the run-up): what the studio's lap buttons show
    segments: list[list[int]] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {"place": self.place, "race": self.race, "by_lap": self.by_lap,
                "by_kind": self.by_kind, "pieces": [p.to_json() for p in self.pieces],
                "alley_stop_lap": self.alley_stop_lap, "route": self.route,
                "segments": self.segments}


@dataclass
class CurveLine:
    """Which lane place 1's race uses through a piece with unequal lanes, and the cost."""

    piece: str
    lengths: list[int]
    lanes_used: list[list[int]]  # per pass
    outside_cost: int  # extra points per pass in the longest lane instead of the one used

    def to_json(self) -> dict[str, object]:
        return {"piece": self.piece, "lengths": self.lengths, "lanes_used": self.lanes_used,
                "outside_cost": self.outside_cost}


@dataclass
class RaceExplanation:
    """Every start place's breakdown plus the course-wide facts a designer acts on."""

    course: str
    direction: str
    laps: int
    alley_detour: int | None
    race_without_stop: int | None
    places: list[PlaceBreakdown]
    curves: list[CurveLine]

    def to_json(self) -> dict[str, object]:
        return {"course": self.course, "direction": self.direction, "laps": self.laps,
                "alley_detour": self.alley_detour, "race_without_stop": self.race_without_stop,
                "places": [p.to_json() for p in self.places],
                "curves": [c.to_json() for c in self.curves]}


def race_graph(course: Course, rules: RaceFigures) -> nx.DiGraph:
    """The graph the figures are computed on (water ditches jumped when the rules say so)."""
    return contract_water(course.graph) if rules.water == "skipped" else course.graph


def _kind(g: nx.DiGraph, node: int, lengths: dict[str, list[int]],
          kinds: dict[str, str]) -> str:
    d = g.nodes[node]
    if d["kind"] == "alley":
        return "alley"
    kind = kinds[d["piece"]]
    if kind == "curve":
        lens = [n for n in lengths[d["piece"]] if n]
        return "curve inside" if lengths[d["piece"]][d["lane"]] == min(lens) else "curve outside"
    return kind


def _place(course: Course, g: nx.DiGraph, place: int, rules: RaceFigures,
           lengths: dict[str, list[int]], kinds: dict[str, str]) -> PlaceBreakdown:
    route = shortest_race_route(g, place, rules)
    if route is None:
        return PlaceBreakdown(place, None)
    offset = g.graph["start_crossings"][place - 1]
    out = PlaceBreakdown(place, len(route) - 1, by_lap=[0] * (rules.laps + 1),
                         by_kind=dict.fromkeys(KINDS, 0),
                         route=[g.nodes[n]["label"] for n in route],
                         segments=[[route[0]]] + [[] for _ in range(rules.laps)])
    crossed = 0
    uses: dict[str, PieceUse] = {}
    previous: str | None = None
    for u, v in itertools.pairwise(route):
        # Lap 0 is the run-up to the line from a grid behind it; a step over the line
        # counts for the lap it completes (as the lap figure does).
        out.by_lap[crossed - offset + 1] += 1
        out.segments[crossed - offset + 1].append(v)
        if g.edges[u, v]["finish"]:
            crossed += 1
        lap = min(crossed - offset + 1, rules.laps)  # the lap being driven on landing
        d = g.nodes[v]
        out.by_kind[_kind(g, v, lengths, kinds)] += 1
        piece = "alley" if d["kind"] == "alley" else d["piece"]
        if (d["kind"] == "alley" and out.alley_stop_lap is None
                and counts(tuple(rules.alley_laps), lap)):
            out.alley_stop_lap = lap
        use = uses.get(piece)
        if use is None:
            piece_kind = "alley" if piece == "alley" else kinds[piece]
            use = uses[piece] = PieceUse(piece, piece_kind, lengths[piece], 0, [])
        use.steps += 1
        if piece != previous:
            use.passes.append((lap, [d["lane"]]))
        elif d["lane"] not in use.passes[-1][1]:
            use.passes[-1][1].append(d["lane"])
        previous = piece
    if previous is not None:  # the race ends inside this piece: not a pass through it
        uses[previous].passes.pop()
    out.pieces = list(uses.values())
    return out


def explain(course: Course, rules: RaceFigures = DEFAULT_FIGURES) -> RaceExplanation:
    """The shortest legal race of every start place of ``course``, taken apart."""
    g = race_graph(course, rules)
    lengths = {p.name: list(p.lengths) for p in course.model.pieces}
    kinds = {p.name: p.kind for p in course.model.pieces}
    alley = g.graph.get("alley") or []
    lengths["alley"] = [len(alley)]
    places = [_place(course, g, i, rules, lengths, kinds)
              for i in range(1, len(g.graph["start_places"]) + 1)]
    detour = plain = None
    if alley and places and places[0].race is not None:
        bare = RaceFigures(laps=rules.laps, alley_required=False)
        route = shortest_race_route(g, 1, bare)
        if route is not None:
            plain = len(route) - 1
            detour = places[0].race - plain
    curves: list[CurveLine] = []
    if places and places[0].race is not None:
        for use in places[0].pieces:
            lens = [n for n in use.lengths if n]
            if use.kind == "alley" or len(set(lens)) < 2:
                continue
            used = [lanes for _lap, lanes in use.passes]
            worst = max(lens)
            cost = max(worst - min(use.lengths[lane] for lane in lanes) for lanes in used)
            curves.append(CurveLine(use.piece, use.lengths, used, cost))
    return RaceExplanation(course.id, course.direction, rules.laps, detour, plain, places,
                           curves)
