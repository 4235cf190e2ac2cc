"""The board geometry: every space a polygon, so that the lanes are bands divided into spaces.

Built from a compiled lane graph (its nodes, and the pieces it was compiled from, which
:func:`~avecaesar.engine.course.graph.build_graph` keeps in ``g.graph["drawing"]``) in the
turtle frame of :mod:`~avecaesar.engine.course.layout`: a point of the board is a position
``t`` along the track (piece index plus the fraction of the piece) and an offset to the left
of the reference line (the inner border of lane 0), lane ``i`` covering offsets
``i * LANE`` to ``(i + 1) * LANE``. A track space of piece ``p``, lane ``i``, index ``k`` of
``n`` is the part of lane ``i``'s band from ``p + k/n`` to ``p + (k+1)/n``: a rectangle on a
straight, a wedge of the annulus in a curve (its arcs drawn through a vertex every
:data:`ARC_STEP` degrees of turn). The vertices along a piece are one grid for all its lanes
(every lane's space boundaries and the arc steps), so two spaces that touch have the same
vertices along their common border: consecutive spaces of a lane share their cross edge,
spaces side by side share the part of the border their intervals have in common, and no two
overlap except where a ``crossing`` piece lies over another.

The Imperial alley is its own band (a bay): it leaves the side of the track space before
it and rejoins at the side of the space after it, arching out beside the pieces it
spans, its spaces of equal length along its middle, about a space each (:func:`_bay`).
Where the alley runs beside a curve it is a lane beside the track instead (:func:`_flat`).

A drawing whose pieces do not quite close (the last piece ends up to :data:`CLOSES` from
where the first begins) is closed by spreading the gap along the track; a larger gap is
drawn as it is, and :attr:`BoardGeometry.closure` says where and by how much (the warning
``course validate`` gives names what closes it).

Coordinates are points, y up (as the layout's). No drawing library: the renderers
(editor/render) turn these polygons into SVG, PDF and PNG.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeAlias

from avecaesar.engine.course.layout import LANE, SPACE, Layout
from avecaesar.engine.data.values import JsonDict

if TYPE_CHECKING:  # only an annotation: the geometry reads the graph's node data
    import networkx as nx

__all__ = ["ARC_STEP", "CLOSES", "BoardGeometry", "Closure", "Point", "SpaceShape", "area",
           "board_geometry", "centroid", "contains", "distance_to", "free_spot",
           "space_width"]

Point = tuple[float, float]
#: a piece as build_graph keeps it in ``g.graph["drawing"]``: name, spaces per lane, turn,
#: crossing (JSON values of several kinds, read by position)
_Piece: TypeAlias = "Sequence[Any]"
ARC_STEP = 5.0  # degrees of turn between two vertices of a curved edge
CLOSES = 0.75 * SPACE  # a gap up to this is closed by the drawing (checks.check_layout warns above)
BAY_STEPS = 48  # vertices along a whole bay's edge


@dataclass(frozen=True)
class SpaceShape:
    """One space as drawn: its polygon (counter-clockwise), where its number goes, the
    heading of its band there (degrees, 0 = east, counter-clockwise; the driving direction
    when clockwise) and its level (``over`` on a bridge, ``under`` beneath one)."""

    node: int
    polygon: tuple[Point, ...]
    centre: Point
    heading: float
    level: str | None

    @property
    def area(self) -> float:
        return area(self.polygon)


@dataclass(frozen=True)
class Closure:
    """How far the last piece ends from where the first begins (points), the point where
    it ends, and whether the drawing closes (the gap is spread along the track)."""

    gap: float
    at: Point
    closed: bool


@dataclass(frozen=True)
class BoardGeometry:
    """Every space's polygon, the walls (polylines on shared edges), the finish line across
    the lanes, the driving-direction arrow in the infield, the extent and the closure."""

    spaces: dict[int, SpaceShape]
    walls: tuple[tuple[Point, ...], ...]
    finish: tuple[Point, Point]
    arrow: tuple[Point, Point]
    closure: Closure

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of every space."""
        xs = [x for s in self.spaces.values() for x, _ in s.polygon]
        ys = [y for s in self.spaces.values() for _, y in s.polygon]
        if not xs:
            return (0.0, 0.0, SPACE, LANE)
        return (min(xs), min(ys), max(xs), max(ys))


class _Frame:
    """The layout's frame with the closure gap spread along the track (a drawing that
    nearly closes then closes exactly, so the last spaces meet the first)."""

    def __init__(self, pieces: Sequence[_Piece], lanes: int) -> None:
        lengths = [list(p[1]) for p in pieces]
        self.turns = [float(p[2]) for p in pieces]
        self.layout = Layout(lengths, self.turns, lanes)
        self.period = len(pieces)
        reach = [pose.length if pose.turn == 0.0 else abs(pose.turn) * max(pose.radius, 1.0)
                 for pose in self.layout.poses]
        self.reach = [max(r, 1.0) for r in reach]
        self.before = [sum(self.reach[:i]) for i in range(self.period)]
        self.total = sum(self.reach)
        ex, ey, _ = self.layout.end
        gap = math.hypot(ex, ey)
        closed = gap <= CLOSES
        self.closure = Closure(gap, (ex, ey), closed)
        self.shift = (-ex, -ey) if closed else (0.0, 0.0)

    def _split(self, t: Fraction) -> tuple[int, float]:
        t = t % self.period if t > self.period or t < 0 else t
        piece = min(int(t), self.period - 1)
        return piece, float(t - piece)

    def at(self, t: Fraction, offset: float) -> Point:
        """The point at ``t`` (piece + fraction), ``offset`` points left of the line."""
        piece, frac = self._split(t)
        x, y, _ = self.layout.point(piece, frac, offset)
        w = (self.before[piece] + frac * self.reach[piece]) / self.total
        return (x + self.shift[0] * w, y + self.shift[1] * w)

    def heading(self, t: Fraction) -> float:
        piece, frac = self._split(t)
        return self.layout.point(piece, frac, 0.0)[2]


def _grid(lengths: Sequence[int], turn: float) -> list[Fraction]:
    """A piece's vertex positions (fractions of it): every lane's space boundaries and a
    step every :data:`ARC_STEP` degrees of turn."""
    out = {Fraction(0), Fraction(1)}
    for n in lengths:
        out.update(Fraction(k, n) for k in range(1, n) if n)
    steps = max(1, math.ceil(abs(turn) / ARC_STEP - 1e-9))
    out.update(Fraction(j, steps) for j in range(1, steps))
    return sorted(out)


class _Samples:
    """Positions along the track where edges have vertices, for any stretch ``[a, b]``."""

    def __init__(self, frame: _Frame, pieces: Sequence[_Piece]) -> None:
        self.period = frame.period
        self.grids = [_grid(p[1], float(p[2])) for p in pieces]

    def between(self, a: Fraction, b: Fraction, extra: Iterable[Fraction] = ()) -> list[Fraction]:
        """Every vertex position in ``[a, b]`` (``b`` may run past the end of the lap)."""
        out = {a, b, *(x for x in extra if a < x < b)}
        for lap in range(int(a // self.period), int(b // self.period) + 1):
            for p in range(max(0, int(a) - lap * self.period),
                           min(self.period, int(b) - lap * self.period + 1)):
                base = lap * self.period + p
                out.update(base + f for f in self.grids[p] if a < base + f < b)
        return sorted(out)


def _band(frame: _Frame, ts: Sequence[Fraction], inner: float, outer: float) -> list[Point]:
    return [frame.at(t, inner) for t in ts] + [frame.at(t, outer) for t in reversed(ts)]


def area(poly: Sequence[Point]) -> float:
    """The signed area of a polygon (positive when counter-clockwise)."""
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1)
               in zip(poly, [*poly[1:], poly[0]], strict=True)) / 2


def centroid(poly: Sequence[Point]) -> Point:
    """The centre of mass of a polygon (its vertices' mean when it has no area)."""
    a = area(poly)
    if abs(a) < 1e-9:
        return (sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly))
    cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(poly, [*poly[1:], poly[0]], strict=True):
        cross = x0 * y1 - x1 * y0
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    return (cx / (6 * a), cy / (6 * a))


def contains(poly: Sequence[Point], p: Point) -> bool:
    """Whether ``p`` lies inside ``poly`` (even-odd rule)."""
    x, y = p
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, [*poly[1:], poly[0]], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def distance_to(poly: Sequence[Point], p: Point) -> float:
    """The distance from ``p`` to the boundary of ``poly``."""
    best = math.inf
    for (x0, y0), (x1, y1) in zip(poly, [*poly[1:], poly[0]], strict=True):
        dx, dy = x1 - x0, y1 - y0
        k = ((p[0] - x0) * dx + (p[1] - y0) * dy) / ((dx * dx + dy * dy) or 1.0)
        k = min(1.0, max(0.0, k))
        best = min(best, math.hypot(p[0] - x0 - k * dx, p[1] - y0 - k * dy))
    return best


def space_width(shape: SpaceShape) -> float:
    """A space's size for text: the largest circle around its centre inside it, doubled."""
    return 2 * distance_to(shape.polygon, shape.centre)


def free_spot(poly: Sequence[Point], covers: Sequence[Sequence[Point]],
              room: float = 0.0) -> Point | None:
    """The point of ``poly`` at least ``room`` inside it and at least ``room`` away from
    every polygon of ``covers`` (outside them all), the farthest from them (where the
    number of a space beneath a bridge goes); None when there is none."""
    xs, ys = [x for x, _ in poly], [y for _, y in poly]
    best: tuple[float, Point] | None = None
    steps = 16
    for i in range(steps + 1):
        for j in range(steps + 1):
            p = (min(xs) + (max(xs) - min(xs)) * i / steps,
                 min(ys) + (max(ys) - min(ys)) * j / steps)
            if not contains(poly, p) or distance_to(poly, p) < room:
                continue
            if any(contains(q, p) for q in covers):
                continue
            far = min((distance_to(q, p) for q in covers), default=math.inf)
            if far < room:
                continue
            score = min(far, 3 * room + 10) + distance_to(poly, p)  # clear, then central
            if best is None or score > best[0]:
                best = (score, p)
    return None if best is None else best[1]


def _ccw(poly: list[Point]) -> tuple[Point, ...]:
    return tuple(poly if area(poly) >= 0 else poly[::-1])


def _physical(d: JsonDict, period: int, reverse: bool) -> tuple[Fraction, Fraction]:
    """A node's interval in the clockwise (physical) direction, exact."""
    a, b = Fraction(d["a"]).limit_denominator(10_000), Fraction(d["b"]).limit_denominator(10_000)
    if not reverse:
        return a, b
    start = (period - b) % period
    return start, start + (b - a)


def board_geometry(g: nx.DiGraph) -> BoardGeometry:
    """The geometry of a compiled course ``g`` (a lane graph from
    :func:`~avecaesar.engine.course.graph.build_graph`, either direction)."""
    drawing = g.graph["drawing"]
    pieces = drawing["pieces"]
    lanes = int(g.graph["lanes"])
    frame = _Frame(pieces, lanes)
    samples = _Samples(frame, pieces)
    period = frame.period
    reverse = g.graph.get("direction") == "anticlockwise"
    shapes: dict[int, SpaceShape] = {}
    alley: list[tuple[int, Fraction, Fraction]] = []
    for n, d in g.nodes(data=True):
        a, b = _physical(d, period, reverse)
        if d["kind"] == "alley":
            alley.append((n, a, b))
            continue
        lane = int(d["lane"])
        ts = samples.between(a, b)
        poly = _ccw(_band(frame, ts, lane * LANE, (lane + 1) * LANE))
        mid = (a + b) / 2
        shapes[n] = SpaceShape(n, poly, frame.at(mid, (lane + 0.5) * LANE),
                               _drive(frame.heading(mid), reverse), d.get("level"))
    if alley:
        alley.sort(key=lambda item: int(str(g.nodes[item[0]]["label"]).rsplit(".", 1)[1]))
        shapes.update(_alley(g, frame, samples, pieces, alley, lanes, reverse))
    line = Fraction(g.graph["line"]).limit_denominator(10_000)
    t_line = (period - line) % period if reverse else line
    finish = (frame.at(t_line, 0.0), frame.at(t_line, lanes * LANE))
    sign = -1 if reverse else 1
    arrow = (frame.at((t_line + sign * Fraction(3, 20)) % period, -1.3 * LANE),
             frame.at((t_line + sign * Fraction(11, 20)) % period, -1.3 * LANE))
    walls = tuple(tuple(frame.at(t, (lo + 1) * LANE) for t in samples.between(t0, t1))
                  for lo, t0, t1 in _walls(drawing))
    return BoardGeometry(dict(sorted(shapes.items())), walls, finish, arrow, frame.closure)


def _drive(heading: float, reverse: bool) -> float:
    return (heading + 180.0) % 360.0 if reverse else heading % 360.0


def _walls(drawing: JsonDict) -> list[tuple[int, Fraction, Fraction]]:
    return [(int(lo), Fraction(t0).limit_denominator(10_000),
             Fraction(t1).limit_denominator(10_000)) for lo, t0, t1 in drawing.get("walls", [])]


def _alley(g: nx.DiGraph, frame: _Frame, samples: _Samples, pieces: Sequence[_Piece],
           alley: list[tuple[int, Fraction, Fraction]], lanes: int, reverse: bool
           ) -> dict[int, SpaceShape]:
    """The alley's spaces: a bay beside straight pieces, else a lane beside the track."""
    period = frame.period
    t0 = alley[0][1]
    t1 = alley[-1][2]
    if t1 <= t0:
        t1 += period
    outside = int(g.nodes[alley[0][0]]["lane"]) >= lanes
    spanned = [int(p) % period for p in range(int(t0), math.ceil(t1))]
    level = "under" if any(pieces[p][3] == "under" for p in spanned) else None
    if all(float(pieces[p][2]) == 0.0 for p in spanned):
        polys = _bay(frame, t0, t1, len(alley), outside, lanes)
    else:
        polys = _flat(frame, samples, alley, outside, lanes)
    out = {}
    for (n, _a, _b), poly in zip(alley, polys, strict=True):
        c = centroid(poly)
        out[n] = SpaceShape(n, _ccw(poly), c, 0.0, level)
    _headings(out, [n for n, _a, _b in alley], reverse)
    return out


def _headings(shapes: dict[int, SpaceShape], order: list[int], reverse: bool) -> None:
    """Each alley space's heading: from the space before it to the one after it."""
    seq = order[::-1] if reverse else order
    for i, n in enumerate(seq):
        p0 = shapes[seq[max(i - 1, 0)]].centre
        p1 = shapes[seq[min(i + 1, len(seq) - 1)]].centre
        h = math.degrees(math.atan2(p1[1] - p0[1], p1[0] - p0[0])) % 360.0
        s = shapes[n]
        shapes[n] = SpaceShape(s.node, s.polygon, s.centre, h, s.level)


def _flat(frame: _Frame, samples: _Samples, alley: list[tuple[int, Fraction, Fraction]],
          outside: bool, lanes: int) -> list[list[Point]]:
    """The alley as one more lane beside the track (where it runs beside a curve)."""
    inner, outer = (lanes * LANE, (lanes + 1) * LANE) if outside else (-LANE, 0.0)
    bounds = [a for _n, a, _b in alley]
    out = []
    for _n, a, b in alley:
        b = b if b > a else b + frame.period
        out.append(_band(frame, samples.between(a, b, bounds), inner, outer))
    return out


def _bay(frame: _Frame, t0: Fraction, t1: Fraction, n: int, outside: bool, lanes: int
         ) -> list[list[Point]]:
    """The alley as a bay of ``n`` spaces: its inner edge a half ellipse over the track's
    edge from ``t0`` to ``t1``, its outer edge one lane further out, starting and ending a
    lane's width before ``t0`` and after ``t1`` along that edge — so it leaves from the side
    of the space before the alley and rejoins at the side of the space after it. Its
    height is chosen so that a space is about :data:`SPACE` long along its middle (or, where
    the bay cannot be that short, as low as it goes); the spaces have equal lengths there."""
    edge = lanes * LANE if outside else 0.0
    ax, ay = frame.at(t0, edge)
    bx, by = frame.at(t1, edge)
    chord = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / chord, (by - ay) / chord
    vx, vy = -uy, ux  # left of the chord: outside the track when it runs clockwise …
    mid = (t0 + t1) / 2
    px, py = frame.at(mid, edge + (LANE if outside else -LANE))
    qx, qy = frame.at(mid, edge)
    if (px - qx) * vx + (py - qy) * vy < 0:  # … else the other side
        vx, vy = -vx, -vy
    mx, my = (ax + bx) / 2, (ay + by) / 2
    half = chord / 2

    def curve(s: float, reach: float, height: float) -> Point:
        c, h = -math.cos(math.pi * s), math.sin(math.pi * s)
        return (mx + ux * reach * c + vx * height * h, my + uy * reach * c + vy * height * h)

    def middle_length(height: float) -> float:
        pts = [curve(k / 200, half + LANE / 2, height + LANE / 2) for k in range(201)]
        return sum(math.dist(p, q) for p, q in itertools.pairwise(pts))

    target = n * SPACE
    lo, hi = 0.0, max(target, SPACE)
    if middle_length(lo) < target:
        for _ in range(40):
            h = (lo + hi) / 2
            lo, hi = (h, hi) if middle_length(h) < target else (lo, h)
    height = lo
    # equal lengths along the middle: where each space begins, as a fraction s of the bay
    fine = [k / 400 for k in range(401)]
    pts = [curve(s, half + LANE / 2, height + LANE / 2) for s in fine]
    run = [0.0]
    for p, q in itertools.pairwise(pts):
        run.append(run[-1] + math.dist(p, q))
    cuts = [0.0]
    for k in range(1, n):
        want = run[-1] * k / n
        j = next(i for i, r in enumerate(run) if r >= want)
        f = (want - run[j - 1]) / ((run[j] - run[j - 1]) or 1.0)
        cuts.append(fine[j - 1] + f * (fine[j] - fine[j - 1]))
    cuts.append(1.0)
    out = []
    for k in range(n):
        s0, s1 = cuts[k], cuts[k + 1]
        ss = [s0, *(j / BAY_STEPS for j in range(1, BAY_STEPS) if s0 < j / BAY_STEPS < s1), s1]
        inner = [curve(s, half, height) for s in ss]
        outer = [curve(s, half + LANE, height + LANE) for s in reversed(ss)]
        out.append(inner + outer)
    return out
