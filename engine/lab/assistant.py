"""The design assistant (``course balance``): edits that even out a course's start places.

The goal is the spread of win rates between start places (the largest gap, in percentage
points) within a target. The candidates are the what-if's one-space edits (a straight, a
chicane, one lane of a curve or section one space shorter or longer; the alley one space
shorter or longer, or moved by a piece: engine/course/whatif.py) and the start grid's
reorders (engine/course/grid_edits.py). An edit is a candidate only when every start place
keeps at least the reserve the course had (its worst place's), checked on the recompiled
course by the what-if's shortest-race search.

1. **Screening.** Every candidate races ``screen`` races paired with the original (the same
   deals and seeds, one pool of workers for all of them); each gets its spread.
2. **Combining.** When no single edit reaches the target, pairs and triples of the best
   singles (of different pieces) are checked for the reserve and screened the same way.
3. **Verifying.** The best three (smallest screened spread, fewest edits on a tie) race
   ``verify`` races paired with the original on a *fresh seed* — races the choice did not
   see, so the figures are not flattered by picking the luckiest screen — and each gets its
   spread with the paired difference's 95 % interval. A proposal succeeds when its verified
   spread is within the target.

Every step is a pure function of the races' summaries, which do not depend on the number
of workers or on a cluster: the proposals are identical for any worker count.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from avecaesar.engine.course.figures import RaceFigures
from avecaesar.engine.course.load import Course, CourseFigures
from avecaesar.engine.course.whatif import (
    Edit,
    WhatIf,
    judged,
)
from avecaesar.engine.lab.edited import _course, _edited, course_edits
from avecaesar.engine.lab.paired import Comparison, compare_summaries
from avecaesar.engine.lab.simulate import SimReport, SimSpec, report, run_many

__all__ = ["Advice", "Proposal", "advise", "course_rules"]

TOP = 3  # proposals verified and shown
POOL = 5  # best single edits combined into pairs and triples


@dataclass
class Proposal:
    """One proposal: its edits, the edited course's figures, and its screened and verified
    comparisons with the original (b: the edited course)."""

    edits: tuple[Edit, ...]
    figures: CourseFigures
    warnings: list[str]
    screened: Comparison
    verified: Comparison | None = None
    report: SimReport | None = None  # the verification races of the edited course

    @property
    def spread(self) -> float:
        """The verified spread (the screened one before verification)."""
        return (self.verified or self.screened).spread.b

    def to_json(self) -> dict[str, object]:
        return {"edits": [e.to_json() for e in self.edits],
                "figures": self.figures.to_json(), "warnings": self.warnings,
                "screened_spread": self.screened.spread.b,
                "verified": self.verified.to_json() if self.verified else None,
                "win_rates": [p.to_json() for p in self.report.by_place] if self.report
                else None}


@dataclass
class Advice:
    """What the assistant found for a course."""

    course: Course
    spec: SimSpec  # the original's simulation (screen races)
    target: float  # the spread to reach, a share (0.03 for 3 percentage points)
    reserve: int  # every start place keeps at least this
    original: SimReport | None = None  # the original, raced on the verification seed
    candidates: int = 0  # single edits that keep the reserve
    invalid: int = 0  # edits that break the course or miss the reserve
    combinations: int = 0  # pairs and triples screened
    rejected: int = 0  # screened as narrower, but no narrower on the verification races
    proposals: list[Proposal] = field(default_factory=list)
    screen_races: int = 0
    verify_races: int = 0

    @property
    def success(self) -> bool:
        """Whether a verified proposal (or the course itself) is within the target."""
        if self.original is not None and self.original.spread <= self.target:
            return True
        return any(p.verified is not None and p.spread <= self.target
                   for p in self.proposals)

    def to_json(self) -> dict[str, object]:
        return {"course": self.course.id, "ruleset": self.spec.ruleset,
                "players": self.spec.players, "target": self.target,
                "reserve": self.reserve, "screen_races": self.screen_races,
                "verify_races": self.verify_races, "candidates": self.candidates,
                "invalid": self.invalid, "combinations": self.combinations,
                "rejected_on_verification": self.rejected,
                "original_spread": self.original.spread if self.original else None,
                "success": self.success, "proposals": [p.to_json() for p in self.proposals]}


def course_rules(spec: SimSpec) -> RaceFigures:
    """The rule values the course's figures depend on, under the spec's rules."""
    import json

    from avecaesar.engine.ruleset.load import load_ruleset, race_figures

    house = json.loads(spec.house) if spec.house else None
    return race_figures(load_ruleset(spec.ruleset, list(spec.variants), dict(spec.settings),
                                     house))


def _names(edits: Sequence[Edit]) -> tuple[str, ...]:
    return tuple(e.description for e in edits)


def _screen(base: SimSpec, groups: list[WhatIf], workers: int, cluster: str | None,
            progress: Callable[[int], None] | None) -> list[Proposal]:
    """Race every group of edits paired with the original: one proposal each."""
    specs = [base] + [replace(base, edits=_names(w.edits)) for w in groups]
    found, _stopped = run_many(specs, workers, False, progress, cluster)
    return [Proposal(w.edits, w.figures, w.warnings, compare_summaries(found[0], rows))
            for w, rows in zip(groups, found[1:], strict=True)]


def _key(p: Proposal) -> tuple[float, int, tuple[str, ...]]:
    return (p.screened.spread.b, len(p.edits), _names(p.edits))


def _combinations(ref: str, rules: RaceFigures, reserve: int, singles: list[Proposal]
                  ) -> list[WhatIf]:
    """Pairs and triples of the best single edits, each of its own piece, that keep the
    reserve (recompiled)."""
    best: list[Proposal] = []
    for p in sorted(singles, key=_key):
        if p.edits[0].scope not in {b.edits[0].scope for b in best}:
            best.append(p)
        if len(best) == POOL:
            break
    out = []
    for size in (2, 3):
        for group in itertools.combinations(best, size):
            w = _checked(ref, rules, reserve, tuple(p.edits[0] for p in group))
            if w is not None:
                out.append(w)
    return out


def _checked(ref: str, rules: RaceFigures, reserve: int, edits: tuple[Edit, ...]
             ) -> WhatIf | None:
    """The edits applied together (compiled once per process, shared with the races'
    board): a result when the course stays valid and every place keeps ``reserve``."""
    return judged(_course(ref), _edited(ref, _names(edits)), rules, reserve, edits)


def advise(spec: SimSpec, target: float = 0.03, screen: int = 600, verify: int = 4000,
           workers: int = 1, cluster: str | None = None,
           progress: Callable[[str, int, int], None] | None = None) -> Advice:
    """Up to three verified proposals that bring the spread between start places within
    ``target`` (see the module's docstring). ``spec`` is the original's simulation (its
    races are ignored: ``screen`` and ``verify`` say how many); ``progress(stage, done,
    total)`` is told how far each stage is."""
    course = _course(spec.course)
    rules = course_rules(spec)
    reserves = [r for r in course.figures(rules).reserve if r is not None]
    reserve = min(reserves) if reserves else 0
    advice = Advice(course, replace(spec, races=screen, edits=()), target, reserve,
                    screen_races=screen, verify_races=verify)
    edits = course_edits(course)
    found = [w for e in edits if (w := _checked(spec.course, rules, reserve, (e,))) is not None]
    advice.candidates, advice.invalid = len(found), len(edits) - len(found)

    def stage(name: str, total: int) -> Callable[[int], None] | None:
        if progress is None:
            return None
        return lambda done: progress(name, done, total)

    # a fixed order; edits that bring a warning (an alley that becomes a shortcut) are left
    # out: a designer would not take them
    groups = sorted((w for w in found if not w.warnings), key=lambda w: _names(w.edits))
    singles = _screen(advice.spec, groups, workers, cluster,
                      stage("screening", screen * (len(groups) + 1)))
    pool = list(singles)
    if not any(p.screened.spread.b <= target for p in singles):
        combos = _combinations(spec.course, rules, reserve, singles)
        advice.combinations = len(combos)
        pool += _screen(advice.spec, combos, workers, cluster,
                        stage("combining", screen * (len(combos) + 1)))
    base_spread = singles[0].screened.spread.a if singles else 1.0
    chosen = [p for p in sorted(pool, key=_key) if p.screened.spread.b < base_spread][:TOP]
    _verify(advice, chosen, verify, workers, cluster, stage("verifying",
                                                            verify * (len(chosen) + 1)))
    # a proposal the fresh races show no narrower than the original is dropped
    kept = [p for p in chosen if p.verified is not None and p.verified.spread.diff < 0]
    advice.rejected = len(chosen) - len(kept)
    advice.proposals = sorted(kept, key=lambda p: (p.spread, len(p.edits), _names(p.edits)))
    return advice


VERIFY_SEED = 7919  # added to the seed: the verification races are fresh ones


def _verify(advice: Advice, chosen: list[Proposal], races: int, workers: int,
            cluster: str | None, progress: Callable[[int], None] | None) -> None:
    base = replace(advice.spec, races=races, seed=advice.spec.seed + VERIFY_SEED)
    specs = [base] + [replace(base, edits=_names(p.edits)) for p in chosen]
    found, _stopped = run_many(specs, workers, False, progress, cluster)
    advice.original = report(base, found[0])
    for p, rows, spec in zip(chosen, found[1:], specs[1:], strict=True):
        p.verified = compare_summaries(found[0], rows)
        p.report = report(spec, rows)
