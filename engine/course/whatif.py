"""What-if: every edit of one space, and which of them reach a target reserve.

An edit changes one number of the course file: a straight or a chicane one space shorter or
longer, one lane of a curve or section one space shorter or longer, a chicane widened into
two lanes, the alley one space shorter or longer or its first or last piece moved by one
piece (the alley spans whole pieces in the course format). Each edit is applied to the
flattened model, the lane graph is recompiled and checked, and the shortest legal race is
searched from each start place, worst place first so that an edit that misses the target
is dropped after one search. Edits that make the course invalid (a start place that no
longer exists, a lap that does not close) are dropped.

Every edit also says where it lies in its file (``file``, YAML ``path``, the new value) so
that it can be applied to the file itself: :func:`apply_to_data` does that, and the tests
re-validate every reported edit from the edited file.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from avecaesar.engine.course.checks import check_layout
from avecaesar.engine.course.figures import DEFAULT_FIGURES, RaceFigures
from avecaesar.engine.course.load import Course, CourseFigures, _compile, contract_water
from avecaesar.engine.course.model import AlleySpec, CourseModel, Piece
from avecaesar.engine.course.race_path import lap_length, outside_race, shortest_race_route

__all__ = ["Edit", "WhatIf", "WhatIfReport", "apply_to_data", "candidate_edits",
           "closing_pairs", "combinations", "drawing_closes", "reaches", "shortfall",
           "what_if"]


@dataclass(frozen=True)
class Edit:
    """One change of one number (or one piece kind) in a course or module file."""

    description: str  # "shorten 'east' lane 0: 5 → 4"
    file: str
    line: int
    path: tuple[str | int, ...]  # YAML path of the value replaced
    new: Any  # the value written there
    change: Callable[[CourseModel], CourseModel]
    scope: str = ""  # what it changes ("piece:east", "alley"): two edits of one scope clash

    def to_json(self) -> dict[str, object]:
        return {"edit": self.description, "file": self.file, "line": self.line,
                "path": list(self.path), "new": self.new}


@dataclass
class WhatIf:
    """An edit (with ``also``: several, applied together) that reaches the target, with the
    figures of the edited course and whether its drawing still closes into a loop."""

    edit: Edit
    figures: CourseFigures
    warnings: list[str] = field(default_factory=list)  # warnings the edit brings
    also: tuple[Edit, ...] = ()
    closes: bool = True

    @property
    def edits(self) -> tuple[Edit, ...]:
        return (self.edit, *self.also)

    @property
    def worst_reserve(self) -> int:
        return min(r for r in self.figures.reserve if r is not None)

    def to_json(self) -> dict[str, object]:
        return {**self.edit.to_json(), "figures": self.figures.to_json(),
                "warnings": self.warnings, "closes": self.closes,
                "edits": [e.to_json() for e in self.edits]}


def _piece_data_path(piece: Piece) -> tuple[str | int, ...]:
    return piece.where.path  # ("track", i, kind) or ("pieces", name, "track", i, kind)


def _line(piece: Piece, *extra: str | int) -> int:
    return piece.where.source.where([*piece.where.path, *extra])[0]


def _with_piece(index: int, new: Piece) -> Callable[[CourseModel], CourseModel]:
    def change(model: CourseModel) -> CourseModel:
        pieces = list(model.pieces)
        pieces[index] = new
        return replace(model, pieces=pieces)
    return change


def _with_alley(alley: AlleySpec) -> Callable[[CourseModel], CourseModel]:
    def change(model: CourseModel) -> CourseModel:
        return replace(model, alley=alley)
    return change


def _piece_edits(model: CourseModel) -> list[Edit]:
    out: list[Edit] = []
    for i, p in enumerate(model.pieces):
        path = _piece_data_path(p)
        file = p.where.source.file
        scope = f"piece:{p.name}"
        if p.kind in ("straight", "chicane"):
            lane = next(k for k, n in enumerate(p.lengths) if n)
            n = p.lengths[lane]
            key = "length"
            for delta, verb in ((-1, "shorten"), (1, "lengthen")):
                if n + delta < 1:
                    continue
                lengths = [x + delta if x else 0 for x in p.lengths]
                out.append(Edit(f"{verb} {p.kind} {p.name!r}: length {n} → {n + delta}",
                                file, _line(p, key) if p.kind == "straight" else _line(p),
                                (*path, key), n + delta,
                                _with_piece(i, replace(p, lengths=lengths)), scope))
            if p.kind == "chicane":
                for other in (lane - 1, lane + 1):
                    if 0 <= other < len(p.lengths):
                        lengths = list(p.lengths)
                        lengths[other] = n
                        out.append(Edit(
                            f"widen chicane {p.name!r} into lane {other}: lengths {lengths}",
                            file, _line(p), path[:-1], ("section", lengths),
                            _with_piece(i, replace(p, kind="section", lengths=lengths)),
                            scope))
            continue
        for lane, n in enumerate(p.lengths):
            if not n:
                continue
            for delta, verb in ((-1, "shorten"), (1, "lengthen")):
                if n + delta < 1:
                    continue
                lengths = list(p.lengths)
                lengths[lane] = n + delta
                out.append(Edit(f"{verb} {p.kind} {p.name!r} lane {lane}: {n} → {n + delta} "
                                f"(lengths {lengths})", file, _line(p, "lengths"),
                                (*path, "lengths"), lengths,
                                _with_piece(i, replace(p, lengths=lengths)), scope))
    return out


def _alley_edits(model: CourseModel) -> list[Edit]:
    a = model.alley
    if a is None:
        return []
    names = [p.name for p in model.pieces]
    if a.first not in names or a.last not in names:
        return []
    first, last = names.index(a.first), names.index(a.last)
    file = model.source.file
    out: list[Edit] = []

    def line(key: str) -> int:
        return model.source.where(["alley", key])[0]

    for delta, verb in ((-1, "shorten"), (1, "lengthen")):
        if a.spaces + delta >= 1:
            out.append(Edit(f"{verb} the alley: {a.spaces} → {a.spaces + delta} spaces", file,
                            line("spaces"), ("alley", "spaces"), a.spaces + delta,
                            _with_alley(replace(a, spaces=a.spaces + delta)), "alley"))
    moves = (("from", first - 1, "begin the alley a piece earlier"),
             ("from", first + 1, "begin the alley a piece later"),
             ("to", last - 1, "end the alley a piece earlier"),
             ("to", last + 1, "end the alley a piece later"))
    for key, k, what in moves:
        lo, hi = (k, last) if key == "from" else (first, k)
        if not (0 <= k < len(names) and lo <= hi):
            continue
        spec = replace(a, first=names[lo], last=names[hi])
        out.append(Edit(f"{what}: {key} {names[first if key == 'from' else last]!r} → "
                        f"{names[k]!r}", file, line(key), ("alley", key), names[k],
                        _with_alley(spec), "alley"))
    return out


def candidate_edits(course: Course) -> list[Edit]:
    """Every one-space edit of the course's file (and of the modules it includes)."""
    edits = _piece_edits(course.model)
    own_alley = course.direction == "anticlockwise" and "alley" in (course.model.reverse or {})
    if not own_alley:
        edits += _alley_edits(course.model)
    return edits


def _races(course: Course, rules: RaceFigures, order: list[int] | None = None,
           reserve: int | None = None, known: list[int | None] | None = None
           ) -> tuple[list[int | None], bool]:
    """The shortest race from every start place, in ``order`` (worst place first): with
    ``reserve``, stopped as soon as one place misses it. (races, all searched); ``known``:
    races already searched (None: not yet)."""
    g = contract_water(course.graph) if rules.water == "skipped" else course.graph
    places = len(g.graph["start_places"])
    out: list[int | None] = list(known) if known is not None else [None] * places
    done = [r is not None for r in out]
    for i in order if order is not None else range(places):
        if done[i]:
            continue
        route = shortest_race_route(g, i + 1, rules)
        out[i] = None if route is None else len(route) - 1
        done[i] = True
        if reserve is not None and (out[i] is None or rules.budget - (out[i] or 0) < reserve):
            return out, all(done)
    return out, all(done)


def reaches(races: list[int | None], rules: RaceFigures, reserve: int) -> bool:
    """Whether every start place keeps at least ``reserve`` points."""
    return bool(races) and all(r is not None and rules.budget - r >= reserve for r in races)


def shortfall(races: list[int | None], rules: RaceFigures, reserve: int) -> list[int | None]:
    """Per start place, the points it is short of ``reserve`` (0: none; None: it cannot
    finish at all)."""
    return [None if r is None else max(0, r - (rules.budget - reserve)) for r in races]


@dataclass
class WhatIfReport:
    """The edits that reach the target (best first), how many were tried, and the edits
    that make the course invalid with the first error each gives.

    When no single edit reaches it: ``short``, what each start place lacks as the course
    stands, and ``combinations`` of up to three edits that do (best first), of the
    ``combos_considered`` the single edits' effects point at, ``combos_tried`` of them
    recompiled. ``closing``: for a single edit after which the drawing no longer closes, the
    same edit with the one that keeps it closed (the same length on the straight opposite)."""

    found: list[WhatIf]
    tried: int
    invalid: list[tuple[Edit, str]]
    short: list[int | None] = field(default_factory=list)
    combinations: list[WhatIf] = field(default_factory=list)
    combos_considered: int = 0
    combos_tried: int = 0
    closing: list[WhatIf] = field(default_factory=list)


@dataclass
class Single:
    """One edit recompiled: the course it gives and its races (for combining)."""

    edit: Edit
    course: Course
    races: list[int | None]
    complete: bool = True  # every place searched (else stopped at the first that missed)

    def completed(self, rules: RaceFigures) -> Single:
        if not self.complete:
            self.races, self.complete = _races(self.course, rules, known=self.races)
        return self


def what_if(course: Course, rules: RaceFigures = DEFAULT_FIGURES, reserve: int = 0,
            edits: list[Edit] | None = None, combine: bool = True,
            max_combos: int = 24) -> WhatIfReport:
    """The edits after which every start place keeps at least ``reserve`` points, best
    first: edits that bring no new warning, then those that keep the drawing closed, then
    the largest worst reserve, then the largest total reserve. When none does (and
    ``combine``), combinations of up to three edits are searched (at most ``max_combos``
    recompiled: see "Combinations" below)."""
    base = course.figures(rules)
    tried = edits if edits is not None else candidate_edits(course)
    found: list[WhatIf] = []
    invalid: list[tuple[Edit, str]] = []
    singles: list[Single] = []
    was_closed = drawing_closes(course.model)
    order = sorted(range(len(base.shortest_race)),
                   key=lambda i: -(base.shortest_race[i] or 10**9))
    for edit in tried:
        changed = _recompile(course, edit)
        if changed.errors:
            invalid.append((edit, changed.errors[0].message))
            continue
        races, complete = _races(changed, rules, order, reserve)
        singles.append(Single(edit, changed, races, complete))
        if not reaches(races, rules, reserve):
            continue
        found.append(WhatIf(edit, figures_of(changed, rules, races),
                            new_warnings(course, changed),
                            closes=drawing_closes(changed.model) or not was_closed))
    found.sort(key=rank)
    report = WhatIfReport(found, len(tried), invalid,
                          shortfall(base.shortest_race, rules, reserve))
    if combine:
        if not found:
            combinations(course, rules, reserve, base, singles, report, max_combos)
        else:
            closing_pairs(course, rules, reserve, singles, report)
    return report


def rank(w: WhatIf) -> tuple[bool, bool, int, int, int]:
    """Best first: no new warning, the drawing still closes, fewest edits, the largest worst
    reserve, the largest total reserve."""
    return (bool(w.warnings), not w.closes, len(w.also), -w.worst_reserve,
            -sum(r or 0 for r in w.figures.reserve))


def drawing_closes(model: CourseModel) -> bool:
    """Whether the pieces' drawing closes into a loop (no 'does not close' warning)."""
    return not check_layout(model)


def figures_of(course: Course, rules: RaceFigures, races: list[int | None]) -> CourseFigures:
    """The figures :meth:`Course.figures` gives, reusing the races already searched."""
    g = contract_water(course.graph) if rules.water == "skipped" else course.graph
    alley_extra = None
    if g.graph.get("alley") and races and races[0] is not None:
        bare = shortest_race_route(g, 1, RaceFigures(laps=rules.laps, alley_required=False))
        alley_extra = None if bare is None else races[0] - (len(bare) - 1)
    reserve = [None if r is None else rules.budget - r for r in races]
    return CourseFigures(lap_length(g), alley_extra, races, outside_race(g, rules),
                         rules.deck_points, rules.bonus_points, reserve)


def new_warnings(course: Course, changed: Course) -> list[str]:
    """Warnings the edit brings (an alley that becomes a shortcut, …); the drawing's closure
    is left out: a longer or shorter piece seldom keeps a loop closed."""
    drawing = {p.message for p in check_layout(changed.model)}
    before = {p.message for p in course.problems}
    return [p.message for p in changed.problems
            if p.severity == "warning" and p.message not in before | drawing]


def _recompile(course: Course, *edits: Edit) -> Course:
    """The course with ``edits`` applied (its ``errors`` say whether that is valid)."""
    model = course.model
    for edit in edits:
        model = edit.change(model)
    model = replace(model, problems=[p for p in model.problems if p.severity != "error"])
    return _compile(model, course.direction)


def apply_to_data(data: Any, edit: Edit) -> Any:
    """A copy of a file's loaded YAML data with ``edit`` applied (for writing the file)."""
    out = copy.deepcopy(data)
    *parents, last = edit.path
    node = out
    for part in parents:
        node = node[part]
    if isinstance(edit.new, tuple):  # a chicane widened: the piece becomes a section
        kind, lengths = edit.new
        ((_old, spec),) = node[last].items()
        spec = {k: v for k, v in spec.items() if k not in ("lane", "length")}
        spec["lengths"] = lengths
        node[last] = {kind: spec}
    else:
        node[last] = edit.new
    return out


# Combinations ------------------------------------------------------------------------
# What-if when one edit is not enough: combinations of up to three one-space edits.
#
# Trying every pair and triple of a course's thirty-odd edits would mean thousands of
# recompilations; instead the single edits' effects guide the search. Each single edit has been
# recompiled already (:func:`what_if`), so what it saves at each
# start place is known; the edits that save something where a place is short make the pool,
# and a combination's races are first estimated as the course's plus the savings of its edits.
# Only combinations whose estimate reaches the target are recompiled — those that keep the
# drawing closed first (a cheap check on the pieces alone), then the fewest edits, then the
# largest estimated reserve — at most ``max_combos`` of them, and each result is the
# recompiled course's real figures, never the estimate. Savings seldom add up to more than
# their sum, so a combination the estimate misses is rare; it is a search guided by the
# single edits, not a proof that nothing else works.
#
# For a single edit that reaches the target but opens the drawing (a straight one space
# shorter), :func:`closing_pairs` looks for the edit that closes it again — most often the
# same change on the straight opposite — and reports the pair with its figures.

POOL = 12  # single edits combined: the ones that save the most where places are short
SHOWN = 5  # combinations reported (best first)
PARTNERS = 3  # closing partners recompiled per single edit that opens the drawing
CLOSING = 3  # single edits (the best that open the drawing) given a closing pair


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

    singles = [s.completed(rules) for s in singles]
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
    return judged(course, _recompile(course, *edits), rules, reserve, edits)


def judged(course: Course, changed: Course, rules: RaceFigures, reserve: int,
           edits: tuple[Edit, ...]) -> WhatIf | None:
    """``course`` with ``edits`` applied together (compiled as ``changed``) as a result:
    None when it does not compile or a start place falls short of ``reserve``."""
    if changed.errors:
        return None
    races, _complete = _races(changed, rules)
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
    budget = CLOSING * PARTNERS  # recompilations in all
    for w in report.found:
        if w.closes:
            continue
        if len(report.closing) >= CLOSING or budget <= 0:
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
