"""A course with edits applied, as the simulation races it: the edits travel to the
workers (processes or a Dask cluster) as their descriptions, plain strings, and each worker
finds them again among the course's candidate edits — the what-if's one-space edits and the
start grid's reorders — so an edited course needs no file of its own."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from avecaesar.engine.core.board import Board
from avecaesar.engine.core.ruleset_adapter import RaceRules
from avecaesar.engine.course.grid_edits import grid_edits
from avecaesar.engine.course.load import Course, contract_water, load_course
from avecaesar.engine.course.whatif import Edit, _recompile, candidate_edits
from avecaesar.engine.data.errors import InputError, UsageError

__all__ = ["course_edits", "edited_board", "edited_course", "find_edits"]


@cache
def _course(ref: str) -> Course:
    return load_course(ref)


def course_edits(course: Course) -> list[Edit]:
    """Every edit the design assistant may propose: the one-space edits of the what-if
    (whose new value is a plain value, not a piece of another kind) and the start grid's
    reorders."""
    return [e for e in candidate_edits(course) if not isinstance(e.new, tuple)] + \
        grid_edits(course)


def find_edits(course: Course, names: Sequence[str]) -> list[Edit]:
    """The course's edits with these descriptions, in the order given."""
    by_name = _by_name(course)
    missing = [n for n in names if n not in by_name]
    if missing:
        raise UsageError(f"{course.id}: no such edit: {missing[0]!r}")
    return [by_name[n] for n in names]


def edited_course(ref: str, names: Sequence[str]) -> Course:
    """The course ``ref`` with the named edits applied, recompiled (errors raise)."""
    changed = _edited(ref, tuple(names))
    if changed.errors:
        raise InputError(changed.errors)
    return changed


def _by_name(course: Course) -> dict[str, Edit]:
    """The course's edits by description (listed again each time: 0.3 ms on a bundled
    course; an edited course is compiled once, :func:`_edited`)."""
    return {e.description: e for e in course_edits(course)}


@cache
def _edited(ref: str, names: tuple[str, ...]) -> Course:
    """Compiled once per process: the assistant checks an edit's reserve and races it on
    the same compiled course."""
    course = _course(ref)
    return _recompile(course, *find_edits(course, names))


def edited_board(ref: str, names: Sequence[str], rules: RaceRules) -> Board:
    """The board of the edited course, water contracted as the rules say."""
    changed = edited_course(ref, names)
    g = contract_water(changed.graph) if rules.water_skipped else changed.graph
    return Board.from_graph(g, changed.id)
