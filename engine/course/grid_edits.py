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

__all__ = ["grid_edits", "grid_rows", "start_order_edit"]


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


def _start_list(course: Course) -> tuple[list[str], bool]:
    """The start list this direction races from, and whether it is the file's
    ``anticlockwise: start:`` (else the plain ``start:``)."""
    model = course.model
    ccw = course.direction == "anticlockwise" and "start" in (model.reverse or {})
    return list((model.reverse or {})["start"] if ccw else model.start), ccw


def start_order_edit(course: Course, what: str, order: list[int]) -> Edit:
    """The edit that gives start place ``i + 1`` the space of the course's start place
    ``order[i] + 1`` (0-based places): the spaces stay, the numbers and so the order of
    play change."""
    refs, ccw = _start_list(course)
    path: tuple[str | int, ...] = ("anticlockwise", "start") if ccw else ("start",)
    start = [refs[p] for p in order]
    model = course.model
    line = model.source.where(list(path))[0]
    return Edit(f"{what}: start {start}", model.source.file, line, path, start,
                _with_start(start, ccw), "start")


def grid_edits(course: Course) -> list[Edit]:
    """Reorders of the start list: reversed, the rows reversed (each row keeping its own
    order), the places within each row reversed, and the front row moved to the back;
    orders that repeat the course's own or an earlier one are left out."""
    places = len(_start_list(course)[0])
    rows = [[p for p in row if p < places] for row in grid_rows(course)]
    rows = [row for row in rows if row]
    if sorted(p for row in rows for p in row) != list(range(places)):
        return []  # start places the graph does not show: leave the grid alone
    orders = [
        ("reverse the start order (the last place moves first)", list(range(places))[::-1]),
        ("reverse the rows of the start grid (the back row gets the first numbers)",
         [p for row in rows[::-1] for p in row]),
        ("reverse the order within each row of the start grid",
         [p for row in rows for p in row[::-1]]),
        ("move the front row of the start grid to the back",
         [p for row in [*rows[1:], rows[0]] for p in row]),
    ]
    out: list[Edit] = []
    seen = [list(range(places))]
    for what, order in orders:
        if order in seen:
            continue
        seen.append(order)
        out.append(start_order_edit(course, what, order))
    return out
