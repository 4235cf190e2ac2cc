"""Compile a course model into its lane graph, one :class:`networkx.DiGraph` per direction.

Every space has an interval ``[a, b)`` of the track, measured in pieces (piece index plus
the fraction of the piece), so lanes with different space counts (curves) line up. A step
u→v exists when (in the driving direction):

* **straight**: v is in u's lane and starts where u ends;
* **diagonal**: v is in an adjacent lane, starts after u starts, ends after u ends, and
  starts no later than u ends (the next space forward in that lane) — and no wall lies
  between the lanes there (changing on the last space before a wall and right at its end
  is allowed, docs/sources.md, "Course geometry").

The alley is one more lane beside the track, entered only into its first space and left
only from its last. See docs/course-format.md for the node and edge attributes.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from fractions import Fraction

import networkx as nx

from avecaesar.engine.course.layout import Layout, lane_offset
from avecaesar.engine.course.model import AlleySpec, CourseModel, Where
from avecaesar.engine.data.errors import Problem
from avecaesar.engine.data.suggest import did_you_mean
from avecaesar.engine.data.values import JsonDict

__all__ = ["Space", "build_graph", "build_spaces"]

ALLEY = "alley"
TRACK = "track"
_LABEL = re.compile(r"^(?P<piece>.+?)\.(?:(?P<lane>-?\d+)\.)?(?P<index>-?\d+)$")


@dataclass
class Space:
    """One space before it becomes a node: physical place and interval."""

    label: str
    lane: int  # -1: alley inside lane 0; ``lanes``: alley outside the last lane
    kind: str
    piece: int  # physical piece index (for the alley: its first piece)
    index: int  # physical (clockwise) index within its lane in the piece
    count: int  # spaces in its lane in the piece (alley: alley spaces)
    a: Fraction
    b: Fraction
    x: float
    y: float
    angle: float
    water: bool = False
    level: str | None = None
    size: float = 0.0  # length along its lane in points (for drawing)


@dataclass
class SpaceTable:
    """All spaces of a course with their labels, before edges are made."""

    spaces: list[Space]
    by_label: dict[str, Space]
    piece_index: dict[str, int]
    alley: list[Space]
    layout: Layout
    period: int


def _resolve(label: str, table: dict[str, Space], pieces: dict[str, int],
             lengths: list[list[int]]) -> Space | str:
    """The space a label names, or a message saying why there is none."""
    if label in table:
        return table[label]
    m = _LABEL.match(label)
    if not m:
        return f"{label!r} is not a space label — write piece.lane.index (e.g. home.0.3)"
    piece, lane_s, idx = m["piece"], m["lane"], int(m["index"])
    if piece == ALLEY and lane_s is None:
        alley = [s for s in table.values() if s.kind == ALLEY]
        if not alley:
            return "the course has no alley"
        if -len(alley) <= idx < len(alley):
            return sorted(alley, key=lambda s: s.index)[idx]
        return f"the alley has spaces 0..{len(alley) - 1}"
    if piece not in pieces:
        return f"no piece {piece!r}{did_you_mean(piece, pieces)}"
    if lane_s is None:
        return f"{label!r} needs a lane: write {piece}.<lane>.{idx}"
    lane = int(lane_s)
    p = pieces[piece]
    if not 0 <= lane < len(lengths[p]) or lengths[p][lane] == 0:
        return f"piece {piece!r} has no lane {lane}"
    n = lengths[p][lane]
    if not -n <= idx < n:
        return f"lane {lane} of piece {piece!r} has spaces 0..{n - 1} (or -1..-{n})"
    key = f"{piece}.{lane}.{idx % n}"
    return table.get(key, f"space {key} was removed")


def build_spaces(model: CourseModel, alley: AlleySpec | None,
                 problems: list[Problem]) -> SpaceTable:
    """Every space of the course, physical, with its drawing position."""
    lengths = [p.lengths for p in model.pieces]
    layout = Layout(lengths, [p.turn for p in model.pieces], model.lanes)
    pieces = {p.name: i for i, p in enumerate(model.pieces)}
    spaces: list[Space] = []
    for i, piece in enumerate(model.pieces):
        water = set(piece.water)
        for lane, n in enumerate(piece.lengths):
            for k in range(n):
                x, y, ang = layout.point(i, (k + 0.5) / n, lane_offset(lane))
                spaces.append(Space(f"{piece.name}.{lane}.{k}", lane, TRACK, i, k, n,
                                    i + Fraction(k, n), i + Fraction(k + 1, n), x, y, ang,
                                    (lane, k) in water, piece.crossing))
    alley_spaces: list[Space] = []
    if alley is not None:
        first, last = pieces.get(alley.first), pieces.get(alley.last)
        for key, name, idx in (("from", alley.first, first), ("to", alley.last, last)):
            if idx is None:
                problems.append(alley.where.problem(
                    f"the alley refers to no piece {name!r}{did_you_mean(name, pieces)}",
                    None, key))
        if first is not None and last is not None:
            # 'to' before 'from' in clockwise order: the alley runs on over the start of the
            # track list (e.g. across the finish line) — positions are taken modulo the lap
            period = len(model.pieces)
            lane = -1 if alley.side == "inside" else model.lanes
            t0 = Fraction(first)
            t1 = Fraction(last + 1) + (period if last < first else 0)
            n = alley.spaces
            for k in range(n):
                a = t0 + (t1 - t0) * Fraction(k, n)
                b = t0 + (t1 - t0) * Fraction(k + 1, n)
                a, b = a % period, a % period + (b - a)
                x, y, ang = layout.along(float((a + b) / 2) % period, lane_offset(lane))
                alley_spaces.append(Space(f"{ALLEY}.{k}", lane, ALLEY, first, k, n, a, b,
                                          x, y, ang))
            spaces.extend(alley_spaces)
    for s in spaces:
        off = lane_offset(s.lane)
        x0, y0, _ = layout.along(float(s.a), off)
        x1, y1, _ = layout.along(min(float(s.b), len(model.pieces) - 1e-9), off)
        if s.b > len(model.pieces):  # an alley space over the wrap: ends past the start
            x1, y1, _ = layout.along(float(s.b) - len(model.pieces), off)
        s.size = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    by_label = {s.label: s for s in spaces}
    where = Where(model.source, ())
    for i, label in enumerate(model.water):
        got = _resolve(label, by_label, pieces, lengths)
        if isinstance(got, str):
            problems.append(where.problem(f"water ditch {label!r}: {got}", None, "water", i))
        else:
            got.water = True
    for i, label in enumerate(model.remove_spaces):
        got = _resolve(label, by_label, pieces, lengths)
        if isinstance(got, str):
            problems.append(where.problem(f"cannot remove {label!r}: {got}", None,
                                          "remove_spaces", i))
        else:
            spaces.remove(got)
            del by_label[got.label]
            if got in alley_spaces:
                alley_spaces.remove(got)
    return SpaceTable(spaces, by_label, pieces, alley_spaces, layout, len(model.pieces))


def build_graph(model: CourseModel, *, direction: str = "clockwise",
                start: list[str] | None = None, finish_before: str | None = None,
                alley: AlleySpec | None = None, course_id: str | None = None,
                name: str | None = None, problems: list[Problem] | None = None
                ) -> nx.DiGraph:
    """The lane graph of ``model`` driven in ``direction`` ('clockwise'/'anticlockwise').

    Problems in references (labels, piece names) are appended to ``problems``.
    """
    problems = problems if problems is not None else []
    alley = alley if alley is not None else model.alley
    table = build_spaces(model, alley, problems)
    period = table.period
    rev = direction == "anticlockwise"

    def fwd(s: Space) -> tuple[Fraction, Fraction]:
        if not rev:
            return (s.a, s.b)
        a = (period - s.b) % period  # an alley space may run over the wrap
        return (a, a + (s.b - s.a))

    ordered = sorted(table.spaces, key=lambda s: (fwd(s)[0], s.lane))
    node_of = {s.label: n for n, s in enumerate(ordered)}
    g = nx.DiGraph()
    for n, s in enumerate(ordered):
        a, b = fwd(s)
        g.add_node(n, label=s.label, lane=s.lane, kind=s.kind, piece=model.pieces[s.piece].name,
                   piece_kind="alley" if s.kind == "alley" else model.pieces[s.piece].kind,
                   pos=(round(s.x, 2), round(s.y, 2)), angle=round(s.angle, 2),
                   size=round(s.size, 2),
                   a=a, b=b, water=s.water, level=s.level, chicane=False, start_place=None)

    # Lanes sorted by forward start, for the "next space forward" searches.
    lanes: dict[int, list[tuple[Fraction, Fraction, int]]] = {}
    for n, s in enumerate(ordered):
        lanes.setdefault(s.lane, []).append((*fwd(s), n))
    starts = {lane: [a for a, _, _ in items] for lane, items in lanes.items()}

    walls = _walls(model, table, rev, period, problems)
    alley_nodes = [node_of[s.label] for s in table.alley]
    alley_lane = table.alley[0].lane if table.alley else None
    # the alley in driving order (its spaces are listed clockwise); it may span the wrap,
    # so its ends are its first and last spaces, not the smallest and largest positions
    driven = alley_nodes[::-1] if rev else alley_nodes
    alley_entry = driven[0] if driven else None
    alley_exit = driven[-1] if driven else None
    g.graph["_alley_driven"] = driven
    track_next_to_alley = None
    if alley_lane is not None:
        track_next_to_alley = 0 if alley_lane < 0 else model.lanes - 1

    def dist(x: Fraction, origin: Fraction) -> Fraction:
        return (x - origin) % period

    for u in g.nodes:
        du = g.nodes[u]
        lane, a, b = du["lane"], du["a"], du["b"]
        # straight on: the space in the same lane that starts where u ends
        items, keys = lanes[lane], starts[lane]
        j = bisect.bisect_left(keys, b % period)
        if j < len(keys) and keys[j] == b % period:
            g.add_edge(u, items[j][2], diagonal=False)
        # diagonal: the next space forward in each adjacent lane
        for other in (lane - 1, lane + 1):
            if other not in lanes:
                continue
            is_alley_u = du["kind"] == ALLEY
            is_alley_v = other == alley_lane
            if is_alley_u and (u != alley_exit or other != track_next_to_alley):
                continue
            if is_alley_v and lane != track_next_to_alley:
                continue
            v = _next_forward(lanes[other], starts[other], a, b, period)
            if v is None:
                continue
            if is_alley_v and v != alley_entry:
                continue
            if _crosses_wall(walls, lane, other, b, period):
                continue
            g.add_edge(u, v, diagonal=True)

    _explicit_steps(model, table, node_of, g, walls, problems)
    _finish(model, g, table, rev, period, finish_before, problems)
    for u, v in g.edges:
        g.edges[u, v]["alley"] = ("enter" if v in alley_nodes and u not in alley_nodes else
                                  "exit" if u in alley_nodes and v not in alley_nodes else None)
    _chicanes(g)
    _progress(model, g, table, rev, period)
    _starts(model, g, table, node_of, start if start is not None else model.start,
            problems)
    g.graph.update(_marks(model, table, g.graph["line"], rev, period, alley_nodes, g))
    g.graph.update(
        id=course_id or model.id, name=name or model.name, direction=direction,
        lanes=model.lanes, file=model.file, walls=walls, alley=alley_nodes,
        wall_segments=_wall_segments(model, table), period=period,
    )
    for n in g.nodes:  # exact fractions were for building; keep plain numbers
        g.nodes[n]["a"] = float(g.nodes[n]["a"])
        g.nodes[n]["b"] = float(g.nodes[n]["b"])
    return g


def _next_forward(items: list[tuple[Fraction, Fraction, int]], keys: list[Fraction],
                  a: Fraction, b: Fraction, period: int) -> int | None:
    """The first space of a lane that starts in (a, b] and ends after b (cyclically)."""
    span = (b - a) % period or period
    j = bisect.bisect_right(keys, a % period)
    for step in range(len(keys)):
        start, end, node = items[(j + step) % len(keys)]
        d = (start - a) % period
        if d == 0 or d > span:
            return None
        if (end - a) % period > span or (end - a) % period == 0:
            return node
    return None


def _walls(model: CourseModel, table: SpaceTable, rev: bool, period: int,
           problems: list[Problem]) -> list[tuple[int, int, Fraction, Fraction]]:
    """Walls as (lane, lane + 1, forward start, forward end)."""
    spans: list[tuple[int, int, Fraction, Fraction]] = []
    for i, piece in enumerate(model.pieces):
        for lo, hi in piece.walls:
            spans.append((lo, hi, Fraction(i), Fraction(i + 1)))
    for (lo, hi), first, last, where in model.wall_spans:
        idx = []
        for key, name in (("from", first), ("to", last)):
            if name not in table.piece_index:
                problems.append(where.problem(
                    f"the wall refers to no piece {name!r}"
                    f"{did_you_mean(name, table.piece_index)}", None, key))
            idx.append(table.piece_index.get(name))
        i0, i1 = idx
        if i0 is None or i1 is None:
            continue
        if hi - lo != 1 or hi >= model.lanes:
            problems.append(where.problem(
                f"a wall runs between two adjacent lanes of 0..{model.lanes - 1} — write e.g. "
                "[0, 1]", None, "lanes"))
            continue
        if i1 < i0:
            problems.append(where.problem("the wall ends before it begins — swap from/to",
                                          None, "to"))
            continue
        for i in range(i0, i1 + 1):
            lens = model.pieces[i].lengths
            if lens[lo] == 0 or lens[hi] == 0:
                problems.append(where.problem(
                    f"the wall passes piece {model.pieces[i].name!r}, where lane "
                    f"{lo if lens[lo] == 0 else hi} does not exist (a chicane?) — end the "
                    "wall before it", None))
                break
        spans.append((lo, hi, Fraction(i0), Fraction(i1 + 1)))
    if rev:
        spans = [(lo, hi, period - t1, period - t0) for lo, hi, t0, t1 in spans]
    return spans


def _crosses_wall(walls: list[tuple[int, int, Fraction, Fraction]], lane: int, other: int,
                  x: Fraction, period: int) -> bool:
    """Whether a lane change between ``lane`` and ``other`` at ``x`` crosses a wall.

    Changing at the wall's very start or end is allowed (docs/sources.md, "Course geometry").
    """
    lo, hi = min(lane, other), max(lane, other)
    for wlo, whi, t0, t1 in walls:
        if (wlo, whi) == (lo, hi) and 0 < (x - t0) % period < (t1 - t0):
            return True
    return False


def _explicit_steps(model: CourseModel, table: SpaceTable, node_of: dict[str, int],
                    g: nx.DiGraph, walls: list[tuple[int, int, Fraction, Fraction]],
                    problems: list[Problem]) -> None:
    lengths = [p.lengths for p in model.pieces]
    where = Where(model.source, ())
    for key, steps in (("remove_steps", model.remove_steps), ("add_steps", model.add_steps)):
        for i, (src, dst) in enumerate(steps):
            ends = []
            for j, label in enumerate((src, dst)):
                got = _resolve(label, table.by_label, table.piece_index, lengths)
                if isinstance(got, str):
                    problems.append(where.problem(f"step {src} → {dst}: {got}", None, key, i, j))
                else:
                    ends.append(node_of[got.label])
            if len(ends) != 2:
                continue
            u, v = ends
            if key == "remove_steps":
                if not g.has_edge(u, v):
                    problems.append(where.problem(
                        f"there is no step {src} → {dst} to remove", None, key, i))
                else:
                    g.remove_edge(u, v)
                continue
            why = _bad_step(g, u, v, walls, table.period)
            if why:
                problems.append(where.problem(f"step {src} → {dst} {why}", None, key, i))
            else:
                g.add_edge(u, v, diagonal=g.nodes[u]["lane"] != g.nodes[v]["lane"])


def _bad_step(g: nx.DiGraph, u: int, v: int,
              walls: list[tuple[int, int, Fraction, Fraction]], period: int) -> str | None:
    """Why an explicit step is not a legal single step, or None."""
    du, dv = g.nodes[u], g.nodes[v]
    if abs(du["lane"] - dv["lane"]) > 1:
        return "changes two lanes at once — a step moves at most one lane sideways"
    d = (dv["a"] - du["a"]) % period
    if d == 0 or d > period / 2:
        if du["lane"] != dv["lane"] and (dv["b"] - du["b"]) % period == 0:
            return "goes sideways — a lane change must also move one space forward"
        return "goes backwards — steps only lead forward in the driving direction"
    if du["lane"] != dv["lane"] and _crosses_wall(walls, du["lane"], dv["lane"], du["b"],
                                                  period):
        return "crosses a wall — lanes divided by a wall cannot be changed there"
    if not _neighbours(du, dv, period) and not (du.get("level") or dv.get("level")):
        return ("jumps over the track — a step joins neighbouring spaces (the next space in "
                "the lane, or the next one in a lane beside it); only a bridge or underpass "
                "piece ('crossing') may join spaces further apart")
    return None


def _neighbours(du: JsonDict, dv: JsonDict, period: int) -> bool:
    """Whether v is the next space after u: in u's lane it starts where u ends; in a lane
    beside it, it starts after u starts, no later than u ends, and ends after u ends."""
    def rel(x: Fraction) -> Fraction:
        return (x - du["a"]) % period or Fraction(period)

    end_u, start_v, end_v = rel(du["b"]), rel(dv["a"]), rel(dv["b"])
    if du["lane"] == dv["lane"]:
        return start_v == end_u
    return start_v <= end_u < end_v


def _finish(model: CourseModel, g: nx.DiGraph, table: SpaceTable, rev: bool, period: int,
            finish_before: str | None, problems: list[Problem]) -> None:
    """Mark the steps that cross the finish line."""
    name = finish_before or model.finish_before
    where = Where(model.source, ("anticlockwise",) if finish_before else ())
    if name not in table.piece_index:
        problems.append(where.problem(
            f"the finish line is before no piece {name!r}{did_you_mean(name, table.piece_index)}",
            None, "finish", "before"))
        line = Fraction(0)
    else:
        i = table.piece_index[name]
        if not rev:
            line = Fraction(i)
        elif finish_before:  # 'before' read in the anticlockwise direction
            line = Fraction(period - (i + 1))
        else:  # the same physical line, driven the other way
            line = Fraction((period - i) % period)
    g.graph["line"] = line
    for u, v in g.edges:
        au, av = g.nodes[u]["a"], g.nodes[v]["a"]
        d_line = (line - au) % period
        g.edges[u, v]["finish"] = 0 < d_line <= (av - au) % period


def _chicanes(g: nx.DiGraph) -> None:
    """A chicane space is alone in its cross-section: no other track space overlaps it."""
    track = sorted((d["a"], d["b"], n) for n, d in g.nodes(data=True) if d["kind"] == TRACK)
    for i, (a, b, n) in enumerate(track):
        alone = True
        for a2, b2, m in track[max(0, i - 16): i + 16]:
            if m != n and a2 < b and a < b2:
                alone = False
                break
        g.nodes[n]["chicane"] = alone


def _progress(model: CourseModel, g: nx.DiGraph, table: SpaceTable, rev: bool,
              period: int) -> None:
    """Progress along the lap, from the finish line: see DESIGN.md "progress".

    Every piece boundary is a sync line; its value is the sum of the pieces' widest track
    lane from the line. A space's progress is the value of the sync line at the end of its
    piece minus the spaces still to go in its own lane to that line.
    """
    line = int(g.graph["line"])
    spans = [max(p.lengths) for p in model.pieces]
    if rev:
        spans = spans[::-1]
    value = {}
    total = 0
    for step in range(period):
        f = (line + step) % period
        total += spans[f]
        value[(f + 1) % period] = total
    value_of_end = {f: value[(f + 1) % period] for f in range(period)}
    g.graph["lap_value"] = total
    for n, d in g.nodes(data=True):
        a, b = d["a"], d["b"]
        if d["kind"] == ALLEY:
            order = g.graph["_alley_driven"]
            end = g.nodes[order[-1]]["b"]
            f_end = (int(end) - 1) % period if end == int(end) else int(end) % period
            togo = len(order) - 1 - order.index(n)
            d["progress"] = value_of_end[f_end] - togo
        else:
            f = int(a)
            width = b - a
            togo = round((f + 1 - b) / width)
            d["progress"] = value_of_end[f] - togo
    g.graph.pop("_alley_driven", None)


def _starts(model: CourseModel, g: nx.DiGraph, table: SpaceTable, node_of: dict[str, int],
            labels: list[str], problems: list[Problem]) -> None:
    lengths = [p.lengths for p in model.pieces]
    key = ("anticlockwise", "start") if labels is not model.start else ("start",)
    where = Where(model.source, key)
    places: list[int] = []
    offsets: list[int] = []
    for i, label in enumerate(labels):
        got = _resolve(label, table.by_label, table.piece_index, lengths)
        if isinstance(got, str):
            problems.append(where.problem(f"start place {i + 1} ({label}): {got}", None, i))
            continue
        n = node_of[got.label]
        if got.kind == ALLEY:
            problems.append(where.problem(
                f"start place {i + 1} ({label}) is in the alley — start places are on the "
                "track", None, i))
            continue
        if n in places:
            problems.append(where.problem(
                f"start place {i + 1} ({label}) is the same space as start place "
                f"{places.index(n) + 1} — each place needs its own space", None, i))
            continue
        places.append(n)
        g.nodes[n]["start_place"] = i + 1
        # A grid behind the line crosses it on the way out: that crossing starts lap 1.
        offsets.append(1 if g.nodes[n]["progress"] * 2 > g.graph["lap_value"] else 0)
    g.graph["start_places"] = places
    g.graph["start_crossings"] = offsets


def _marks(model: CourseModel, table: SpaceTable, line: Fraction, rev: bool, period: int,
           alley_nodes: list[int], g: nx.DiGraph) -> dict[str, object]:
    """Drawing marks: the finish line across the track and the driving-direction arrow."""
    t = float((period - line) % period if rev else line)
    beside = [n for n in alley_nodes
              if (line - g.nodes[n]["a"]) % period <= g.nodes[n]["b"] - g.nodes[n]["a"]]
    lo = -1 if any(g.nodes[n]["lane"] < 0 for n in beside) else 0
    hi = model.lanes + (1 if any(g.nodes[n]["lane"] >= model.lanes for n in beside) else 0)
    x0, y0, _ = table.layout.along(min(t, period - 1e-9), lane_offset(lo - 0.5))
    x1, y1, _ = table.layout.along(min(t, period - 1e-9), lane_offset(hi - 0.5))
    sign = -1 if rev else 1
    a = (t + sign * 0.15) % period
    b = (t + sign * 0.55) % period
    ax, ay, _ = table.layout.along(a, lane_offset(-1.3))
    bx, by, _ = table.layout.along(b, lane_offset(-1.3))
    r = 2
    return {"finish_segment": ((round(x0, r), round(y0, r)), (round(x1, r), round(y1, r))),
            "direction_arrow": ((round(ax, r), round(ay, r)), (round(bx, r), round(by, r)))}


def _wall_segments(model: CourseModel, table: SpaceTable) -> list[list[tuple[float, float]]]:
    """Physical polylines of the walls, for drawing."""
    segs: list[list[tuple[float, float]]] = []
    spans = [(lo, i, i + 1) for i, p in enumerate(model.pieces) for lo, _ in p.walls]
    for (lo, _hi), first, last, _w in model.wall_spans:
        if first in table.piece_index and last in table.piece_index:
            spans.append((lo, table.piece_index[first], table.piece_index[last] + 1))
    for lo, t0, t1 in spans:
        pts = []
        steps = max(2, int((t1 - t0) * 8))
        for k in range(steps + 1):
            x, y, _ = table.layout.along(t0 + (t1 - t0) * k / steps - 1e-9 * (k == steps),
                                         lane_offset(lo + 0.5))
            pts.append((round(x, 2), round(y, 2)))
        segs.append(pts)
    return segs
