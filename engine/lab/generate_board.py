"""One generated board as a design: its pieces in driving order, drawn to close, as YAML.

A :class:`Design` is a convex loop: the start/finish straight (``home`` after the line,
``caesar`` with the alley beside it, then the pieces of side 0), ``k`` right-hand curves whose
turns add up to 360° with the pieces of a side between each two, and the ``grid`` straight
right behind the line. Its heading only ever turns right and by 360° in all, so the reference
line is a convex closed curve that never crosses itself. A straight of length ``L`` moves every
later piece ``L`` spaces along its heading, so where the last piece ends is linear in the
straights' lengths: :func:`close` solves for lengths that bring the end back to the start
(within the board geometry's ``CLOSES``), :func:`tune_lap` lengthens or shortens two straights
that point opposite ways, which changes the lap and keeps the closure.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from avecaesar.engine.course.geometry import CLOSES
from avecaesar.engine.course.layout import LANE, SPACE, Layout

__all__ = ["Design", "Part", "close", "design_yaml", "gap", "grow", "inner_lap",
           "random_design", "shortest", "tune_lap"]

MAX_STRAIGHT = 12


@dataclass(frozen=True)
class Part:
    """A piece of a side: ``straight`` (its ``length``; ``wall``: the lane pair it walls,
    or None), ``chicane`` (one space wide in ``lane``) or ``kept``: a piece of a ``--from``
    course kept as it is (its spaces per lane ``lens``, its YAML ``text``, its kind ``of``,
    whether it has a wall)."""

    kind: str
    length: int
    lane: int = 0
    wall: int | None = None  # the wall stands between lanes wall and wall + 1
    lens: tuple[int, ...] = ()
    text: str = ""
    of: str = ""


@dataclass(frozen=True)
class Design:
    """A board: lanes, start places, the home and caesar straights, the alley's spaces,
    each curve's turn and inside-lane spaces (extra outer spaces each), the sides between
    the curves (``len(turns) + 1``: side 0 follows ``caesar``, the last ends at ``grid``)."""

    lanes: int
    start_places: int
    home: int
    caesar: int
    alley: int
    turns: tuple[int, ...]
    inner: tuple[int, ...]
    extra: tuple[int, ...]
    sides: tuple[tuple[Part, ...], ...]

    @property
    def rows(self) -> int:
        return -(-self.start_places // self.lanes)

    def curve_lengths(self, i: int) -> list[int]:
        """The spaces per lane of curve ``i``: the inside lane's, then about a lane's
        arc more each lane out (``extra`` adds one to the outer lanes)."""
        turn = math.radians(self.turns[i])
        n = self.inner[i]
        return [n + round(turn * k * LANE / SPACE) + (self.extra[i] if k else 0)
                for k in range(self.lanes)]

    def count(self, kind: str) -> int:
        """Pieces of one kind of the brief: curves, chicanes, walls, bridges."""
        parts = [p for side in self.sides for p in side]
        if kind == "curves":
            return len(self.turns)
        if kind == "chicanes":
            return sum("chicane" in (p.kind, p.of) for p in parts)
        if kind == "walls":
            return sum(p.wall is not None for p in parts)
        return 0


def _pieces(d: Design) -> list[tuple[str, list[int], float]]:
    """(kind, spaces per lane, turn) of every piece in driving order, as the layout sees it."""
    out: list[tuple[str, list[int], float]] = [("straight", [d.home] * d.lanes, 0.0),
                                               ("straight", [d.caesar] * d.lanes, 0.0)]
    for i, side in enumerate(d.sides):
        for p in side:
            out += [(kind, lens, 0.0) for kind, lens in _expanded(p, d.lanes)]
        if i < len(d.turns):
            out.append(("curve", d.curve_lengths(i), float(d.turns[i])))
    out.append(("straight", [d.rows] * d.lanes, 0.0))
    return out


def _expanded(p: Part, lanes: int) -> list[tuple[str, list[int]]]:
    """(kind, spaces per lane) of the pieces a part is: a straight itself; a chicane with
    the sections that narrow the lanes to it one lane a space on each side (a step changes
    one lane at most, so a lane two away from the chicane's could not reach it) and widen
    them again after it."""
    if p.kind == "straight":
        return [("straight", [p.length] * lanes)]
    if p.kind == "kept":
        return [(p.of, list(p.lens))]
    far = max(p.lane, lanes - 1 - p.lane)
    funnel = [("section", [1 if abs(k - p.lane) <= r else 0 for k in range(lanes)])
              for r in range(far - 1, 0, -1)]
    chicane = ("chicane", [p.length if k == p.lane else 0 for k in range(lanes)])
    return [*funnel, chicane, *reversed(funnel)]


def _layout(d: Design) -> Layout:
    pieces = _pieces(d)
    return Layout([p[1] for p in pieces], [p[2] for p in pieces], d.lanes)


def gap(d: Design) -> float:
    """How far (points) the drawing's last piece ends from where the first begins."""
    return _layout(d).closure_gap()


def inner_lap(d: Design) -> int:
    """The fewest spaces round the loop lane by lane (each piece's shortest lane): the lap
    the compiled course shows when no lane change costs a step."""
    return sum(min(n for n in p[1] if n) for p in _pieces(d))


def _headings(d: Design) -> list[float]:
    """The heading (radians) of each side: the track turns right by each curve's turn."""
    out, h = [], 0.0
    for i in range(len(d.sides)):
        out.append(h)
        if i < len(d.turns):
            h -= math.radians(d.turns[i])
    return out


def _straights(d: Design) -> list[tuple[int, int]]:
    """(side, index) of every plain straight in a side: the lengths the closure may change."""
    return [(s, i) for s, side in enumerate(d.sides) for i, p in enumerate(side)
            if p.kind == "straight"]


def _with_length(d: Design, at: tuple[int, int], length: int) -> Design:
    s, i = at
    side = list(d.sides[s])
    side[i] = replace(side[i], length=length)
    sides = list(d.sides)
    sides[s] = tuple(side)
    return replace(d, sides=tuple(sides))


def close(d: Design, floor: tuple[int, int] | None = None) -> Design | None:
    """The design with its side straights lengthened or shortened until the drawing closes
    (the end within ``CLOSES`` of the start), or None when no lengths of 1 to
    ``MAX_STRAIGHT`` do. The gap moves by exactly a space along a straight's heading per
    space of that straight, so each round changes the one straight that shrinks it most
    (``floor``, a straight just lengthened, is not shortened again)."""
    heads = _headings(d)
    moves = _straights(d)
    if not moves:
        return d if gap(d) <= CLOSES else None
    x, y, _h = _layout(d).end
    for _round in range(40):
        if math.hypot(x, y) <= CLOSES * 0.8:
            return d
        best = None
        for at in moves:
            u = (math.cos(heads[at[0]]) * SPACE, math.sin(heads[at[0]]) * SPACE)
            length = d.sides[at[0]][at[1]].length
            for step in (1, -1):
                if not 1 <= length + step <= MAX_STRAIGHT or (at == floor and step < 0):
                    continue
                g = math.hypot(x + step * u[0], y + step * u[1])
                if best is None or g < best[0]:
                    best = (g, at, step, u)
        if best is None or best[0] >= math.hypot(x, y):
            break
        _g, at, step, u = best
        d = _with_length(d, at, d.sides[at[0]][at[1]].length + step)
        x, y = x + step * u[0], y + step * u[1]
    return d if gap(d) <= CLOSES else None


def tune_lap(d: Design, change: int) -> Design:
    """The design with its lap ``change`` spaces longer (shorter when negative), by pairs of
    side straights that point opposite ways (the closure holds), as near as they allow; an
    odd change also gives one curve's inside lane a space more or less (the closure then
    needs :func:`close` again)."""
    heads = _headings(d)
    moves = _straights(d)
    pairs = [(a, b) for i, a in enumerate(moves) for b in moves[i + 1:]
             if math.cos(heads[a[0]] - heads[b[0]]) < -0.999]
    step = 1 if change > 0 else -1
    left = abs(change) // 2
    rng = random.Random(len(moves) * 31 + change)
    if change % 2 and d.turns:  # an odd change: one curve's inside lane (close() redraws)
        i = rng.randrange(len(d.turns))
        inner = list(d.inner)
        inner[i] = max(1, inner[i] + step)
        d = replace(d, inner=tuple(inner))
    while left > 0 and pairs:
        a, b = pairs[rng.randrange(len(pairs))]
        la, lb = d.sides[a[0]][a[1]].length + step, d.sides[b[0]][b[1]].length + step
        if not (1 <= la <= MAX_STRAIGHT and 1 <= lb <= MAX_STRAIGHT):
            pairs.remove((a, b))
            continue
        d = _with_length(_with_length(d, a, la), b, lb)
        left -= 1
    return d


def shortest(d: Design) -> Design:
    """The design with every side straight one space long (``grow`` lengthens it again)."""
    for at in _straights(d):
        d = _with_length(d, at, 1)
    return d


def grow(d: Design, lap: int, rng: random.Random) -> Design | None:
    """The closed design ``d`` lengthened until its inside lap is at least ``lap``: a side
    straight at a time, a space longer, and the drawing closed again; None when it does not
    close."""
    moves = _straights(d)
    for _round in range(4 * MAX_STRAIGHT):
        if inner_lap(d) >= lap or not moves:
            return d
        at = moves[rng.randrange(len(moves))]
        length = d.sides[at[0]][at[1]].length
        if length >= MAX_STRAIGHT:
            continue
        grown = close(_with_length(d, at, length + 1), floor=at)
        if grown is not None:
            d = grown
    return d


def _turns(rng: random.Random, k: int) -> tuple[int, ...]:
    """``k`` right turns of whole multiples of 15° from 30° to 180°, adding up to 360°."""
    parts = [360 // k // 15 * 15] * k
    parts[-1] += 360 - sum(parts)
    for _ in range(3 * k):
        i, j = rng.randrange(k), rng.randrange(k)
        if i != j and parts[i] - 15 >= 30 and parts[j] + 15 <= 180:
            parts[i] -= 15
            parts[j] += 15
    if max(parts) > 180:
        return tuple([360 // k] * k)
    return tuple(parts)


def _side(rng: random.Random, lanes: int, chicanes: int, walls: int) -> tuple[Part, ...]:
    parts: list[Part] = [Part("straight", rng.randint(1, 4))]
    for _ in range(chicanes):
        parts.append(Part("chicane", rng.randint(1, 2), lane=rng.randrange(lanes)))
        parts.append(Part("straight", rng.randint(1, 3)))
    for _ in range(walls):
        parts.insert(rng.randrange(len(parts) + 1),
                     Part("straight", rng.randint(2, 4), wall=rng.randrange(lanes - 1)))
    return tuple(parts)


def random_design(rng: random.Random, lanes: int, start_places: int, curves: int,
                  alley: int, chicanes: int, walls: int, kept: tuple[Part, ...] = ()
                  ) -> Design:
    """A random board of this many curves, chicanes and walls (not yet closed), the
    ``kept`` pieces first on the side after the alley."""
    turns = _turns(rng, curves)
    inner = tuple(max(1, round(t / 45) + rng.randint(-1, 1)) for t in turns)
    extra = tuple(rng.choice((0, 0, 1)) for _ in turns)
    n = curves + 1
    chic = [0] * n
    wall = [0] * n
    for _ in range(chicanes):
        chic[rng.randrange(n)] += 1
    for _ in range(walls):
        wall[rng.randrange(n)] += 1
    sides = tuple((kept if i == 0 else ()) + _side(rng, lanes, chic[i], wall[i])
                  for i in range(n))
    caesar = max(1, alley - rng.randint(0, 2))
    return Design(lanes, start_places, rng.randint(1, 3), caesar, alley, turns, inner,
                  extra, sides)


def _part_yaml(p: Part, name: str, lanes: int) -> list[str]:
    if p.kind == "kept":
        return [f"  - {p.text}"]
    if p.kind == "straight":
        walls = f", walls: [[{p.wall}, {p.wall + 1}]]" if p.wall is not None else ""
        return [f"  - straight: {{name: {name}, length: {p.length}{walls}}}"]
    pieces = _expanded(p, lanes)
    mid = len(pieces) // 2
    out = []
    for i, (_kind, lens) in enumerate(pieces):
        if i == mid:
            out.append(f"  - chicane: {{name: {name}, lane: {p.lane}, length: {p.length}}}")
        else:
            where = "in" if i < mid else "out"
            out.append(f"  - section: {{name: {name}-{where}-{abs(i - mid)}, "
                       f"lengths: [{', '.join(map(str, lens))}]}}")
    return out


def design_yaml(d: Design, name: str, head: list[str], figures: list[str]) -> str:
    """The course file of a design: ``head`` (comment and key lines), its pieces, finish,
    start, alley and ``figures`` lines."""
    lines = [*head, f"lanes: {d.lanes}", "track:",
             f"  - straight: {{name: home, length: {d.home}}}",
             f"  - straight: {{name: caesar, length: {d.caesar}}}"]
    for s, side in enumerate(d.sides):
        for i, p in enumerate(side):
            lines += _part_yaml(p, f"{p.kind}-{s}-{i + 1}", d.lanes)
        if s < len(d.turns):
            lens = ", ".join(map(str, d.curve_lengths(s)))
            lines.append(f"  - curve: {{name: turn-{s + 1}, turn: {d.turns[s]}, "
                         f"lengths: [{lens}]}}")
    lines.append(f"  - straight: {{name: grid, length: {d.rows}}}")
    starts = [f"grid.{lane}.-{row + 1}" for row in range(d.rows) for lane in range(d.lanes)]
    lines += ["finish: {before: home}", f"start: [{', '.join(starts[:d.start_places])}]",
              f"alley: {{from: caesar, to: caesar, spaces: {d.alley}, side: outside}}",
              *figures]
    return "\n".join(lines) + "\n"
