"""``course generate --from COURSE`` with the brief's ``keep:``: the pieces of an existing
course kept as they are, for the generator to build the rest of a board around.

A kept piece goes, in the order ``keep:`` names them, first on the side after the alley
(engine/lab/generate_board.py), with its spaces, walls and water as the course has them.
Only pieces that do not turn can be kept for now (straights, chicanes, sections): the
generated boards are convex loops of right-hand curves whose turns the generator chooses,
so a kept curve, a piece on a bridge or one from an included module is refused, located.
"""

from __future__ import annotations

from avecaesar.engine.course.bundled import resolve
from avecaesar.engine.course.model import Piece, read_course
from avecaesar.engine.data.errors import UsageError
from avecaesar.engine.data.suggest import did_you_mean
from avecaesar.engine.lab.brief import Brief
from avecaesar.engine.lab.generate_board import Part

__all__ = ["kept_parts"]


def _text(p: Piece) -> str:
    """The piece as one YAML line of a track list."""
    extra = ""
    if p.walls:
        extra += ", walls: [" + ", ".join(f"[{a}, {b}]" for a, b in p.walls) + "]"
    if p.water:
        extra += ", water: [" + ", ".join(f"[{a}, {b}]" for a, b in p.water) + "]"
    if p.kind == "straight":
        return f"straight: {{name: {p.name}, length: {p.lengths[0]}{extra}}}"
    if p.kind == "chicane":
        lane = next(i for i, n in enumerate(p.lengths) if n)
        return f"chicane: {{name: {p.name}, lane: {lane}, length: {p.lengths[lane]}{extra}}}"
    lens = ", ".join(map(str, p.lengths))
    return f"section: {{name: {p.name}, lengths: [{lens}]{extra}}}"


def _refusal(p: Piece) -> str | None:
    if p.turn:
        return "it turns, and the generator chooses every turn — keep pieces that do not"
    if p.crossing:
        return "it is on a bridge or under one, and the generator draws no bridge"
    if "/" in p.name:
        return "it comes from an included module — copy the module's pieces into the course"
    if p.kind not in ("straight", "chicane", "section"):
        return f"a {p.kind} cannot be kept"
    return None


def kept_parts(brief: Brief, course: str | None) -> tuple[Part, ...]:
    """The brief's ``keep:`` pieces of ``course`` as parts; a UsageError naming the brief's
    line for a piece that is not there or cannot be kept, or ``keep:`` without a course."""
    if not brief.keep:
        return ()
    if course is None:
        raise UsageError(f"{brief.where('keep')}: keep: names pieces of a course — give it "
                         "with --from COURSE")
    path, cid, _direction = resolve(course)
    model = read_course(path, cid)
    if model.lanes != brief.lanes:
        raise UsageError(f"{brief.where('lanes')}: lanes {brief.lanes}, but {course} has "
                         f"{model.lanes} — its pieces keep their lanes")
    pieces = {p.name: p for p in model.pieces}
    out = []
    for i, name in enumerate(brief.keep):
        p = pieces.get(name)
        if p is None:
            raise UsageError(f"{brief.where('keep', i)}: {course} has no piece {name!r}"
                             f"{did_you_mean(name, list(pieces))}")
        why = _refusal(p)
        if why is not None:
            raise UsageError(f"{brief.where('keep', i)}: {name!r} cannot be kept: {why}")
        out.append(Part("kept", max(p.lengths), wall=0 if p.walls else None,
                        lens=tuple(p.lengths), text=_text(p), of=p.kind))
    return tuple(out)
