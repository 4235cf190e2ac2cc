"""Edits of the start grid's order: which start place stands on which start space.

The spaces stay the same; what changes is the number each one gets, and with it the order
in which the chariots move (start place 1 moves first). Putting the first movers at the
back evens out a course where the front row and the first move both help. The rows are
the start spaces level with each other (the same progress along the lap).

Each edit is an :class:`~avecaesar.engine.course.whatif.Edit` of the course file's
``start:`` list (``anticlockwise: start:`` for that direction), so that ``file:line`` and
:func:`~avecaesar.engine.course.whatif.apply_to_data` work on it as on the what-if's edits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from avecaesar.engine.course.load import Course
from avecaesar.engine.course.model import CourseModel
from avecaesar.engine.course.whatif import Edit

__all__ = ["grid_edits", "grid_rows"]


def grid_rows(course: Course) -> list[list[int]]:
    """Start places (0-based) grouped into rows, the front row first."""
    g = course.graph
    places = {d["start_place"]: n for n, d in g.nodes(data=True) if d.get("start_place")}
    keys = {p: g.nodes[n].get("progress") or 0 for p, n in places.items()}
    levels = sorted(set(keys.values()), reverse=True)
    return [[p - 1 for p in sorted(keys) if keys[p] == lv] for lv in levels]


def _with_start(start: list[str], reverse: bool) -> Callable[[CourseModel], CourseModel]:
    def change(model: CourseModel) -> CourseModel:
        if reverse:
            return replace(model, reverse={**(model.reverse or {}), "start": list(start)})
        return replace(model, start=list(start))
    return change


def grid_edits(course: Course) -> list[Edit]:
    """Reorders of the start list: reversed, the rows reversed (each row keeping its own
    order), the places within each row reversed, and the front row moved to the back;
    orders that repeat the course's own or an earlier one are left out."""
    model = course.model
    ccw = course.direction == "anticlockwise" and "start" in (model.reverse or {})
    refs = list((model.reverse or {})["start"] if ccw else model.start)
    path: tuple[str | int, ...] = ("anticlockwise", "start") if ccw else ("start",)
    rows = [[p for p in row if p < len(refs)] for row in grid_rows(course)]
    rows = [row for row in rows if row]
    if sorted(p for row in rows for p in row) != list(range(len(refs))):
        return []  # start places the graph does not show: leave the grid alone
    orders = [
        ("reverse the start order (the last place moves first)", refs[::-1]),
        ("reverse the rows of the start grid (the back row gets the first numbers)",
         [refs[p] for row in rows[::-1] for p in row]),
        ("reverse the order within each row of the start grid",
         [refs[p] for row in rows for p in row[::-1]]),
        ("move the front row of the start grid to the back",
         [refs[p] for row in [*rows[1:], rows[0]] for p in row]),
    ]
    line = model.source.where(list(path))[0]
    out: list[Edit] = []
    seen = [refs]
    for what, order in orders:
        if order in seen:
            continue
        seen.append(order)
        out.append(Edit(f"{what}: start {order}", model.source.file, line, path, order,
                        _with_start(order, ccw), "start"))
    return out
