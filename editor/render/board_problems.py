"""The drawing's own problem: steps drawn across the board, where the pieces do not close
into a loop (``course render`` and the studio report it; the step is left out of the
picture, never drawn as a line across the board)."""

from __future__ import annotations

from avecaesar.editor.render.board import long_steps
from avecaesar.engine.course.checks import check_layout
from avecaesar.engine.course.load import Course
from avecaesar.engine.course.model import Where
from avecaesar.engine.data.errors import Problem

__all__ = ["drawing_problems"]


def drawing_problems(c: Course) -> list[Problem]:
    """Steps drawn across the board are a problem of the course's geometry: one per pair of
    pieces they join, at the later piece, with what closes the drawing."""
    steps = long_steps(c.graph)
    by_name = {p.name: p for p in c.model.pieces}
    groups: dict[tuple[str, str], list[tuple[int, int, float]]] = {}
    for u, v, length in steps:
        groups.setdefault((c.graph.nodes[u]["piece"], c.graph.nodes[v]["piece"]), []).append(
            (u, v, length))
    layout = check_layout(c.model)
    hint = (layout[0].message.split(" — ", 1)[1] if layout and " — " in layout[0].message
            else "adjust the turns or lengths so that each piece starts where the one before "
                 "it ends")
    out: list[Problem] = []
    for (pu, pv), found in groups.items():
        piece = by_name.get(pv)
        where = piece.where if piece else Where(c.model.source, ("track",))
        names = ", ".join(f"{u} → {v}" for u, v, _ in found[:3])
        more = f" and {len(found) - 3} more" if len(found) > 3 else ""
        longest = max(length for _u, _v, length in found)
        if len(found) == 1:
            (u, v, _), = found
            what = (f"the step {c.graph.nodes[u]['label']} → {c.graph.nodes[v]['label']} "
                    f"({u} → {v}) is drawn {longest} spaces long")
        else:
            what = (f"{len(found)} steps from {pu!r} to {pv!r} ({names}{more}) are drawn up "
                    f"to {longest} spaces long")
        out.append(where.problem(f"{what}: the pieces do not close there — {hint}"))
    return out
