"""What-if when one edit is not enough: combinations of up to three one-space edits.

Trying every pair and triple of a course's thirty-odd edits would mean thousands of
recompilations; instead the single edits' effects guide the search. Each single edit has been
recompiled already (:func:`avecaesar.engine.course.whatif.what_if`), so what it saves at each
start place is known; the edits that save something where a place is short make the pool,
and a combination's races are first estimated as the course's plus the savings of its edits.
Only combinations whose estimate reaches the target are recompiled — those that keep the
drawing closed first (a cheap check on the pieces alone), then the fewest edits, then the
largest estimated reserve — at most ``max_combos`` of them, and each result is the
recompiled course's real figures, never the estimate. Savings seldom add up to more than
their sum, so a combination the estimate misses is rare; it is a search guided by the
single edits, not a proof that nothing else works.

For a single edit that reaches the target but opens the drawing (a straight one space
shorter), :func:`closing_pairs` looks for the edit that closes it again — most often the
same change on the straight opposite — and reports the pair with its figures.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from avecaesar.engine.course.figures import RaceFigures
from avecaesar.engine.course.load import Course, CourseFigures
from avecaesar.engine.course.model import CourseModel
from avecaesar.engine.course.whatif import (
    Edit,
    Single,
    WhatIf,
    WhatIfReport,
    _races,
    _recompile,
    drawing_closes,
    figures_of,
    new_warnings,
    rank,
    reaches,
)

__all__ = ["POOL", "closing_pairs", "combinations"]

POOL = 12  # single edits combined: the ones that save the most where places are short
SHOWN = 5  # combinations reported (best first)
PARTNERS = 3  # closing partners recompiled per single edit that opens the drawing


@dataclass
class _Candidate:
    singles: tuple[Single, ...]
    estimate: list[int | None]
    closes: bool

    def key(self, rules: RaceFigures) -> tuple[bool, int, int, int]:
        reserve = [rules.budget - (r or 0) for r in self.estimate]
        return (not self.closes, len(self.singles), -min(reserve), -sum(reserve))


def _model(course: Course, edits: tuple[Edit, ...]) -> CourseModel:
    model = course.model
    for e in edits:
        model = e.change(model)
    return model


def _estimate(base: list[int | None], singles: tuple[Single, ...]) -> list[int | None]:
    out: list[int | None] = []
    for i, b in enumerate(base):
        if b is None or any(s.races[i] is None for s in singles):
            out.append(None)
            continue
        out.append(b + sum((s.races[i] or 0) - b for s in singles))
    return out


def combinations(course: Course, rules: RaceFigures, reserve: int, base: CourseFigures,
                 singles: list[Single], report: WhatIfReport, max_combos: int) -> None:
    """Fill ``report.combinations`` with combinations of two or three edits that reach
    ``reserve``, best first (see the module's docstring)."""
    races = base.shortest_race
    short = [i for i, s in enumerate(report.short) if s]
    if not short or any(races[i] is None for i in short):
        return

    def gain(s: Single) -> int:
        return sum(max(0, (races[i] or 0) - r) for i in short
                   if (r := s.races[i]) is not None)

    pool = sorted((s for s in singles if gain(s) > 0), key=lambda s: -gain(s))[:POOL]
    candidates: list[_Candidate] = []
    for size in (2, 3):
        for group in itertools.combinations(pool, size):
            scopes = [s.edit.scope for s in group]
            if len(set(scopes)) < size:
                continue
            estimate = _estimate(races, group)
            if not reaches(estimate, rules, reserve):
                continue
            closes = drawing_closes(_model(course, tuple(s.edit for s in group)))
            candidates.append(_Candidate(group, estimate, closes))
    candidates.sort(key=lambda c: c.key(rules))
    report.combos_considered = len(candidates)
    found: list[WhatIf] = []
    enough: list[frozenset[str]] = []  # edits of the combinations found: no superset tried
    for cand in candidates:
        if report.combos_tried >= max_combos or len(found) >= SHOWN:
            break
        names = frozenset(s.edit.description for s in cand.singles)
        if any(e <= names for e in enough):
            continue
        report.combos_tried += 1
        edits = tuple(s.edit for s in cand.singles)
        w = _evaluate(course, rules, reserve, edits)
        if w is not None:
            found.append(w)
            enough.append(names)
    report.combinations = sorted(found, key=rank)


def _evaluate(course: Course, rules: RaceFigures, reserve: int, edits: tuple[Edit, ...]
              ) -> WhatIf | None:
    """The edits applied together, recompiled: a result when valid and on target."""
    changed = _recompile(course, *edits)
    if changed.errors:
        return None
    races = _races(changed, rules)
    if not reaches(races, rules, reserve):
        return None
    return WhatIf(edits[0], figures_of(changed, rules, races), new_warnings(course, changed),
                  also=edits[1:], closes=drawing_closes(changed.model))


def closing_pairs(course: Course, rules: RaceFigures, reserve: int, singles: list[Single],
                  report: WhatIfReport) -> None:
    """For each single edit found that opens a closed drawing: the edit that keeps it closed
    with it (and still reaches ``reserve``), into ``report.closing``."""
    if not drawing_closes(course.model):
        return
    by_edit = {s.edit.description: s for s in singles}
    seen: set[frozenset[str]] = set()
    budget = SHOWN * PARTNERS  # recompilations in all
    for w in report.found:
        if w.closes:
            continue
        if len(report.closing) >= SHOWN or budget <= 0:
            break
        own = by_edit[w.edit.description]
        partners = [s for s in singles if s.edit.scope != w.edit.scope
                    and drawing_closes(_model(course, (w.edit, s.edit)))]
        # least loss first: the partner whose own races are the shortest
        partners.sort(key=lambda s: sum(r if r is not None else 10**6 for r in s.races))
        best: WhatIf | None = None
        for s in partners[:PARTNERS]:
            budget -= 1
            pair = _evaluate(course, rules, reserve, (own.edit, s.edit))
            if pair is not None and (best is None or rank(pair) < rank(best)):
                best = pair
        if best is not None and (names := frozenset(e.description for e in best.edits)) \
                not in seen:
            seen.add(names)
            report.closing.append(best)
