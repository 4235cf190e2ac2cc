"""Two courses side by side: their figures per start place and the pieces that differ.

Pieces are matched by name (labels start with it, so a designer who edits a course keeps the
names); a piece compares by kind, spaces per lane, walls, water ditches, crossing level and
turn (the turn only changes the drawing).
"""

from __future__ import annotations

from dataclasses import dataclass

from avecaesar.engine.course.figures import DEFAULT_FIGURES, RaceFigures
from avecaesar.engine.course.load import Course, CourseFigures
from avecaesar.engine.course.model import Piece

__all__ = ["CourseDiff", "diff_courses"]


@dataclass
class CourseDiff:
    """What two courses have in common and where they part."""

    a: Course
    b: Course
    figures: tuple[CourseFigures, CourseFigures]
    pieces: list[tuple[str, str]]  # (piece, what differs), in driving order (A, then B's new)
    other: list[tuple[str, str, str]]  # (key, A's value, B's value) for lanes, finish, …

    @property
    def same_geometry(self) -> bool:
        return not self.pieces and not self.other

    def to_json(self) -> dict[str, object]:
        return {"a": self.a.id, "b": self.b.id,
                "figures": {"a": self.figures[0].to_json(), "b": self.figures[1].to_json()},
                "pieces": [{"piece": p, "difference": d} for p, d in self.pieces],
                "other": [{"key": k, "a": va, "b": vb} for k, va, vb in self.other]}


def _describe(p: Piece) -> str:
    lanes = [n for n in p.lengths if n]
    if p.kind == "chicane":
        lane = next(k for k, n in enumerate(p.lengths) if n)
        return f"chicane lane {lane}, length {p.lengths[lane]}"
    if p.kind == "straight":
        return f"straight length {lanes[0] if lanes else 0}"
    return f"{p.kind} lengths {p.lengths}"


def _piece_changes(pa: Piece, pb: Piece) -> list[str]:
    out = []
    if pa.kind != pb.kind or pa.lengths != pb.lengths:
        out.append(f"{_describe(pa)} → {_describe(pb)}")
    for attr, what in (("walls", "walls"), ("water", "water"), ("crossing", "crossing")):
        va, vb = getattr(pa, attr), getattr(pb, attr)
        if va != vb:
            out.append(f"{what} {va or '—'} → {vb or '—'}")
    if pa.turn != pb.turn:
        out.append(f"turn {pa.turn:g}° → {pb.turn:g}° (drawing only)")
    return out


def _alley(c: Course) -> str:
    a = c.model.alley
    if c.direction == "anticlockwise" and "alley" in (c.model.reverse or {}):
        r = c.model.reverse["alley"]  # type: ignore[index]
        return f"{r['spaces']} spaces, {r['from']} to {r['to']}, {r.get('side', 'outside')}"
    return "none" if a is None else f"{a.spaces} spaces, {a.first} to {a.last}, {a.side}"


def _start(c: Course) -> list[str]:
    g = c.graph
    return [g.nodes[n]["label"] for n in g.graph["start_places"]]


def diff_courses(a: Course, b: Course, rules: RaceFigures = DEFAULT_FIGURES) -> CourseDiff:
    """Figures under ``rules`` and geometry differences of ``a`` and ``b``."""
    pa = {p.name: p for p in a.model.pieces}
    pb = {p.name: p for p in b.model.pieces}
    pieces: list[tuple[str, str]] = []
    for name, p in pa.items():
        if name not in pb:
            pieces.append((name, f"only in A ({_describe(p)})"))
            continue
        changes = _piece_changes(p, pb[name])
        if changes:
            pieces.append((name, "; ".join(changes)))
    pieces += [(name, f"only in B ({_describe(p)})") for name, p in pb.items() if name not in pa]
    order_a = [n for n in pa if n in pb]
    order_b = [n for n in pb if n in pa]
    other: list[tuple[str, str, str]] = []
    for key, va, vb in (
        ("lanes", str(a.model.lanes), str(b.model.lanes)),
        ("piece order", " ".join(order_a), " ".join(order_b)),
        ("finish before", a.model.finish_before, b.model.finish_before),
        ("alley", _alley(a), _alley(b)),
        ("start places", ", ".join(_start(a)), ", ".join(_start(b))),
        ("direction", a.direction, b.direction),
    ):
        if va != vb:
            other.append((key, va, vb))
    return CourseDiff(a, b, (a.figures(rules), b.figures(rules)), pieces, other)
