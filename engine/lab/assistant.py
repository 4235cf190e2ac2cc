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
   spread with the paired difference's interval. Verification is **sequential**: while a
   proposal's interval still includes 0 it races as many again (``verify``, 2·``verify``,
   4·``verify``, … up to ``cap`` races, 4·``verify`` by default), and it stops at the first
   look where the interval leaves 0 out (narrower or wider) or at the cap (undecided). The
   interval at every look is widened for the number of looks (Bonferroni: with ``L`` looks
   each is a ``1 − 0.05/L`` interval), so a proposal that is no narrower is kept in at most
   5 % of runs, however many looks it took.

A proposal is kept only when it **holds**: its edits bring no warning and keep the drawing
as it was (a board whose pieces closed into a loop still closes; an edit that opens it is
paired with another that closes it again — "closing pairs" — or left out), its paired
races differ from the original's in at least one race (an edit that changes no race — the
same places, points and counts race for race — is a no-op, dropped at screening or at
verification), and its verified interval lies below 0 (narrower for certain).

**Either target.** The spread to narrow is the single race's (``aim="race"``, the default:
the win rate of the best start place minus the worst's, over races with drawn start orders)
or the tournament's (``aim="tournament"``: the tournament win share of the best first-race
start place minus the worst's, over tournaments of the edition's races and next-race start
order, engine/lab/tournament_fairness.py). With the tournament, every count above is of
tournaments — screened, verified, paired tournament by tournament (tournament ``i`` of both
sides is dealt the same) — and a no-op is an edit whose tournaments are the original's,
tournament for tournament.

Every step is a pure function of the races' summaries, which do not depend on the number
of workers or on a cluster: the proposals are identical for any worker count.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from statistics import NormalDist
from typing import TYPE_CHECKING

from avecaesar.engine.course.figures import RaceFigures
from avecaesar.engine.course.load import Course, CourseFigures
from avecaesar.engine.course.whatif import (
    Edit,
    WhatIf,
    _model,
    drawing_closes,
    judged,
)
from avecaesar.engine.lab.edited import _course, _edited, course_edits
from avecaesar.engine.lab.paired import Comparison, compare_summaries
from avecaesar.engine.lab.simulate import SimReport, SimSpec, report, run_many
from avecaesar.engine.lab.summary import RaceSummary
from avecaesar.engine.lab.tournament_fairness import (
    TournamentFairness,
    TournamentSummary,
    compare_tournaments,
    fairness,
    run_many_tournaments,
    same_tournaments,
)

if TYPE_CHECKING:
    Rows = Sequence[RaceSummary | TournamentSummary]

__all__ = ["AIMS", "Advice", "Proposal", "advise", "course_rules", "looks", "same_races",
           "win_rates"]

TOP = 3  # proposals verified and shown
POOL = 5  # best single edits combined into pairs and triples
CLOSING_PAIRS = 12  # pairs of drawing-opening edits that close it again, screened at most
OPENS = "the drawing does not close"  # the warning an edit that opens a closed drawing adds
AIMS = ("race", "tournament")  # the spreads the assistant can narrow (the module's docstring)

Figures = SimReport | TournamentFairness  # a side's figures: of races or of tournaments


def win_rates(f: Figures) -> list[float]:
    """Per start place: the win rate (races) or the tournament win share by first-race start
    place (tournaments)."""
    if isinstance(f, TournamentFairness):
        return [p.win_share for p in f.places]
    return [p.win_rate for p in f.by_place]


@dataclass
class Proposal:
    """One proposal: its edits, the edited course's figures, and its screened and verified
    comparisons with the original (b: the edited course)."""

    edits: tuple[Edit, ...]
    figures: CourseFigures
    warnings: list[str]
    screened: Comparison
    verified: Comparison | None = None
    report: Figures | None = None  # the verification races (tournaments) of the edited course
    looks: int = 0  # verification rounds raced
    decided: str = ""  # "narrower", "wider", "undecided" (at the cap) or "no-op"
    rows: Rows = field(default=(), repr=False)  # its screening races (tournaments)
    aim: str = "race"  # the spread narrowed: "race" or "tournament"

    @property
    def spread(self) -> float:
        """The verified spread (the screened one before verification)."""
        return (self.verified or self.screened).spread.b

    def to_json(self) -> dict[str, object]:
        rates: object = None
        if isinstance(self.report, TournamentFairness):
            rates = [p.to_json() for p in self.report.places]
        elif self.report is not None:
            rates = [p.to_json() for p in self.report.by_place]
        unit = "tournaments" if self.aim == "tournament" else "races"
        return {"edits": [e.to_json() for e in self.edits], "target_spread": self.aim,
                "figures": self.figures.to_json(), "warnings": self.warnings,
                "screened_spread": self.screened.spread.b,
                "verified": self.verified.to_json() if self.verified else None,
                "verification": {unit: self.verified.races if self.verified else 0,
                                 "looks": self.looks, "decided": self.decided},
                ("tournament_win_shares" if self.aim == "tournament" else "win_rates"): rates}


@dataclass
class Advice:
    """What the assistant found for a course."""

    course: Course
    spec: SimSpec  # the original's simulation (screen races)
    target: float  # the spread to reach, a share (0.03 for 3 percentage points)
    reserve: int  # every start place keeps at least this
    original: Figures | None = None  # the original, raced on the verification seed
    candidates: int = 0  # single edits that keep the reserve
    invalid: int = 0  # edits that break the course or miss the reserve
    combinations: int = 0  # pairs and triples screened
    rejected: int = 0  # screened as narrower, but not narrower for certain when verified
    proposals: list[Proposal] = field(default_factory=list)
    screen_races: int = 0
    verify_races: int = 0  # races of the first verification look
    verify_cap: int = 0  # the most races a proposal is verified on
    warned: int = 0  # edits left out: they bring a warning or open the drawing
    closing: int = 0  # pairs of opening edits that close the drawing again, screened
    noops: int = 0  # edits left out: their races are the original's, race for race
    undecided: int = 0  # verified up to the cap, the interval still including 0
    wider: int = 0  # verified as wider for certain
    duplicates: int = 0  # screened races the same as a better proposal's: left out
    aim: str = "race"  # the spread narrowed: "race" or "tournament" (counts are tournaments)

    @property
    def success(self) -> bool:
        """Whether a verified proposal (or the course itself) is within the target."""
        if self.original is not None and self.original.spread <= self.target:
            return True
        return any(p.verified is not None and p.spread <= self.target
                   for p in self.proposals)

    def to_json(self) -> dict[str, object]:
        return {"course": self.course.id, "ruleset": self.spec.ruleset,
                "players": self.spec.players, "bots": list(self.spec.bots),
                "bot_budget": self.spec.bot_budget, "target": self.target,
                "target_spread": self.aim,
                "counted_in": "tournaments" if self.aim == "tournament" else "races",
                "reserve": self.reserve, "screen_races": self.screen_races,
                "verify_races": self.verify_races, "verify_cap": self.verify_cap,
                "verify_looks": looks(self.verify_races, self.verify_cap),
                "candidates": self.candidates,
                "invalid": self.invalid, "combinations": self.combinations,
                "closing_pairs": self.closing, "rejected_on_verification": self.rejected,
                "left_out": {"warning_or_drawing": self.warned, "no_op": self.noops,
                             "undecided_at_cap": self.undecided,
                             "wider": self.wider,
                             "same_races_as_a_better_proposal": self.duplicates},
                "original_spread": self.original.spread if self.original else None,
                **({"original_tournament": self.original.to_json()}
                   if isinstance(self.original, TournamentFairness) else {}),
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


def same_races(a: Sequence[RaceSummary], b: Sequence[RaceSummary]) -> bool:
    """Whether two sides' paired races are the same race for race: every start place's
    place, points and way out, and every per-race count (the spaces' ids may differ: an
    edit renumbers them)."""
    def key(r: RaceSummary) -> tuple[object, ...]:
        return (r.places, r.points, r.finished, r.out_of_cards, r.disqualified, r.turns,
                r.lead_changes, r.six_rule_skips, r.blocked_skips, r.alley_waits,
                r.termination)

    by_index = {r.index: key(r) for r in b}
    return len(a) == len(b) and all(by_index.get(r.index) == key(r) for r in a)


def _run(aim: str, specs: list[SimSpec], workers: int,
         progress: Callable[[int], None] | None, cluster: str | None, first: int = 0
         ) -> list[Rows]:
    """Every spec's races (``aim`` "race") or tournaments (``aim`` "tournament"; on this
    machine's workers) ``first`` to ``first + spec.races − 1``, in one pool."""
    if aim == "tournament":
        return list(run_many_tournaments(specs, specs[0].races, workers, first, progress))
    found, _stopped = run_many(specs, workers, False, progress, cluster, first=first)
    return list(found)


def _compare(aim: str, a: Rows, b: Rows, z: float | None = None) -> Comparison:
    """The paired comparison of the aim's figures, the spread first."""
    extra = {} if z is None else {"z": z}
    if aim == "tournament":
        return compare_tournaments(_tournaments(a), _tournaments(b), **extra)
    return compare_summaries(_races(a), _races(b), **extra)


def _same(aim: str, a: Rows, b: Rows) -> bool:
    """Whether the two sides raced the same races (tournaments), one for one."""
    if aim == "tournament":
        return same_tournaments(_tournaments(a), _tournaments(b))
    return same_races(_races(a), _races(b))


def _figures(aim: str, spec: SimSpec, rows: Rows) -> Figures:
    if aim == "tournament":
        return fairness(spec, _tournaments(rows))
    return report(spec, _races(rows))


def _races(rows: Rows) -> list[RaceSummary]:
    return [r for r in rows if isinstance(r, RaceSummary)]


def _tournaments(rows: Rows) -> list[TournamentSummary]:
    return [r for r in rows if isinstance(r, TournamentSummary)]


def _screen(base: SimSpec, groups: list[WhatIf], workers: int, cluster: str | None,
            progress: Callable[[int], None] | None, aim: str = "race"
            ) -> tuple[list[Proposal], int]:
    """Race every group of edits paired with the original: one proposal each, the no-ops
    (races the original's, race for race) left out and counted."""
    specs = [base] + [replace(base, edits=_names(w.edits)) for w in groups]
    found = _run(aim, specs, workers, progress, cluster)
    out = [Proposal(w.edits, w.figures, w.warnings, _compare(aim, found[0], rows),
                    rows=rows, aim=aim)
           for w, rows in zip(groups, found[1:], strict=True)
           if not _same(aim, found[0], rows)]
    return out, len(groups) - len(out)


def _key(p: Proposal) -> tuple[float, int, tuple[str, ...]]:
    return (p.screened.spread.b, len(p.edits), _names(p.edits))


def _holds(closed: bool, w: WhatIf) -> bool:
    """Whether the edits keep the drawing as it was: no new warning, and a drawing that
    closed still closes."""
    return not w.warnings and (w.closes or not closed)


def _combinations(ref: str, rules: RaceFigures, reserve: int, singles: list[Proposal]
                  ) -> list[WhatIf]:
    """Pairs and triples of the best single edits, each of its own piece, that keep the
    reserve (recompiled) and the drawing as it was."""
    closed = drawing_closes(_course(ref).model)
    best: list[Proposal] = []
    for p in sorted((p for p in singles if len(p.edits) == 1), key=_key):
        if p.edits[0].scope not in {b.edits[0].scope for b in best}:
            best.append(p)
        if len(best) == POOL:
            break
    out = []
    for size in (2, 3):
        for group in itertools.combinations(best, size):
            w = _checked(ref, rules, reserve, tuple(p.edits[0] for p in group))
            if w is not None and _holds(closed, w):
                out.append(w)
    return out


def _closing_pairs(ref: str, rules: RaceFigures, reserve: int, openers: list[WhatIf]
                   ) -> list[WhatIf]:
    """Pairs of single edits that each open the closed drawing but together close it
    again (most often the same change on the opposite straight), each of its own piece,
    that keep the reserve: at most :data:`CLOSING_PAIRS`, in the edits' order."""
    course = _course(ref)
    out: list[WhatIf] = []
    for x, y in itertools.combinations(openers, 2):
        if len(out) == CLOSING_PAIRS:
            break
        if x.edit.scope == y.edit.scope or \
                not drawing_closes(_model(course, (x.edit, y.edit))):
            continue
        w = _checked(ref, rules, reserve, (x.edit, y.edit))
        if w is not None and _holds(True, w):
            out.append(w)
    return out


def _checked(ref: str, rules: RaceFigures, reserve: int, edits: tuple[Edit, ...]
             ) -> WhatIf | None:
    """The edits applied together (compiled once per process, shared with the races'
    board): a result when the course stays valid and every place keeps ``reserve``; an
    edit that opens a closed drawing says so among its warnings."""
    course = _course(ref)
    w = judged(course, _edited(ref, _names(edits)), rules, reserve, edits)
    if w is not None and not w.closes and drawing_closes(course.model):
        w.warnings = [*w.warnings, OPENS]
    return w


def looks(verify: int, cap: int) -> list[int]:
    """The races after each look of the sequential verification: ``verify``, then twice as
    many each time, the last one ``cap``.

    >>> looks(4000, 16000), looks(4000, 10000), looks(4000, 4000)
    ([4000, 8000, 16000], [4000, 8000, 10000], [4000])
    """
    out = [verify]
    while out[-1] < cap:
        out.append(min(2 * out[-1], cap))
    return out


def _z(n_looks: int) -> float:
    """The normal quantile of each look's interval: 95 % over all the looks together
    (Bonferroni: each a two-sided 1 − 0.05/L interval; 1.96 for one look)."""
    return NormalDist().inv_cdf(1 - 0.025 / n_looks)


def advise(spec: SimSpec, target: float = 0.03, screen: int = 600, verify: int = 4000,
           workers: int = 1, cluster: str | None = None,
           progress: Callable[[str, int, int], None] | None = None,
           cap: int | None = None, aim: str = "race") -> Advice:
    """Up to three verified proposals that bring the spread between start places within
    ``target`` (see the module's docstring). ``spec`` is the original's simulation (its
    races are ignored: ``screen`` says how many, ``verify`` how many at the first
    verification look and ``cap`` at the most, 4·``verify`` when None); ``progress(stage,
    done, total)`` is told how far each stage is; ``aim``: the spread narrowed, "race" or
    "tournament" (then every count is of tournaments, raced on this machine)."""
    if aim not in AIMS:
        raise ValueError(f"aim {aim!r}: one of {', '.join(AIMS)}")
    course = _course(spec.course)
    rules = course_rules(spec)
    reserves = [r for r in course.figures(rules).reserve if r is not None]
    reserve = min(reserves) if reserves else 0
    advice = Advice(course, replace(spec, races=screen, edits=()), target, reserve,
                    screen_races=screen, verify_races=verify,
                    verify_cap=max(verify, cap if cap is not None else 4 * verify), aim=aim)
    edits = course_edits(course)
    found = [w for e in edits if (w := _checked(spec.course, rules, reserve, (e,))) is not None]
    advice.candidates, advice.invalid = len(found), len(edits) - len(found)

    def stage(name: str, total: int) -> Callable[[int], None] | None:
        if progress is None:
            return None
        return lambda done: progress(name, done, total)

    # a fixed order; edits that bring a warning (an alley that becomes a shortcut) or open
    # a drawing that closed are left out: a designer would not take them. Those that open
    # it are tried in pairs that close it again.
    closed = drawing_closes(course.model)
    groups = sorted((w for w in found if _holds(closed, w)), key=lambda w: _names(w.edits))
    openers = sorted((w for w in found if w.warnings == [OPENS]), key=lambda w: _names(w.edits))
    pairs = _closing_pairs(spec.course, rules, reserve, openers) if closed else []
    advice.warned, advice.closing = len(found) - len(groups), len(pairs)
    singles, advice.noops = _screen(advice.spec, groups + pairs, workers, cluster,
                                    stage("screening", screen * (len(groups) + len(pairs) + 1)),
                                    aim)
    pool = list(singles)
    if not any(p.screened.spread.b <= target for p in singles):
        combos = _combinations(spec.course, rules, reserve, singles)
        advice.combinations = len(combos)
        more, noops = _screen(advice.spec, combos, workers, cluster,
                              stage("combining", screen * (len(combos) + 1)), aim)
        pool += more
        advice.noops += noops
    chosen = _choose(advice, pool, singles[0].screened.spread.a if singles else 1.0)
    _verify(advice, chosen, workers, cluster, progress)
    kept = [p for p in chosen if p.decided == "narrower"]
    advice.rejected = len(chosen) - len(kept)
    advice.proposals = sorted(kept, key=lambda p: (p.spread, len(p.edits), _names(p.edits)))
    return advice


VERIFY_SEED = 7919  # added to the seed: the verification races are fresh ones


def _choose(advice: Advice, pool: list[Proposal], base_spread: float) -> list[Proposal]:
    """The best :data:`TOP` screened proposals narrower than the original, each racing
    other races than the better ones (two edit sets that give the same board race the same
    races: the one with the fewer edits stays, the other is counted)."""
    chosen: list[Proposal] = []
    for p in sorted(pool, key=_key):
        if len(chosen) == TOP or p.screened.spread.b >= base_spread:
            break
        if any(_same(advice.aim, q.rows, p.rows) for q in chosen):
            advice.duplicates += 1
            continue
        chosen.append(p)
    return chosen


def _decide(p: Proposal, a: Rows, b: Rows, z: float) -> None:
    """The proposal's comparison over the races so far, and what it says: no-op (the same
    races), narrower or wider (the interval leaves 0 out), or "" (not yet)."""
    p.verified = _compare(p.aim, a, b, z)
    p.looks += 1
    ci = p.verified.spread.ci
    p.decided = ("no-op" if _same(p.aim, a, b) else "narrower" if ci[1] < 0
                 else "wider" if ci[0] > 0 else "")


def _verify(advice: Advice, chosen: list[Proposal], workers: int, cluster: str | None,
            progress: Callable[[str, int, int], None] | None) -> None:
    """Sequential verification on fresh races (the module's docstring): each look races the
    next races of the original and of the proposals still undecided."""
    base = replace(advice.spec, seed=advice.spec.seed + VERIFY_SEED)
    steps = looks(advice.verify_races, advice.verify_cap)
    z = _z(len(steps))
    ours: list[RaceSummary | TournamentSummary] = []
    theirs: dict[int, list[RaceSummary | TournamentSummary]] = {id(p): [] for p in chosen}
    pending, done = list(chosen), 0
    unit = "tournaments" if advice.aim == "tournament" else "races"
    for n in steps:
        if not pending and ours:
            break
        more = replace(base, races=n - done)
        specs = [more] + [replace(more, edits=_names(p.edits)) for p in pending]
        tell = None if progress is None else (
            lambda k, n=n, total=more.races * len(specs): progress(
                f"verifying ({n:,} {unit})", k, total))
        found = _run(advice.aim, specs, workers, tell, cluster, first=done)
        ours += found[0]
        for p, rows in zip(pending, found[1:], strict=True):
            theirs[id(p)] += rows
            _decide(p, ours, theirs[id(p)], z)
        pending, done = [p for p in pending if not p.decided], n
    for p in chosen:
        p.decided = p.decided or "undecided"
        p.report = _figures(advice.aim, replace(base, races=len(theirs[id(p)]),
                                                edits=_names(p.edits)), theirs[id(p)])
    advice.original = _figures(advice.aim, replace(base, races=done), ours)
    advice.noops += sum(1 for p in chosen if p.decided == "no-op")
    advice.undecided = sum(1 for p in chosen if p.decided == "undecided")
    advice.wider = sum(1 for p in chosen if p.decided == "wider")
