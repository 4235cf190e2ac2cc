"""Fairness over a tournament (``simulate --tournament``): what each start place of the first
race is worth over the whole tournament.

The games do not promise a fair single race. Each edition plays a tournament of several
races (its ruleset's ``tournament.races``: 4 in the three editions) and rotates the start
order between them by its own rule (``tournament.next_start_order``: the loser or whoever
started last opens the next race, or the winner stays in front and the others re-seat by
placement). The tournament is fair when a player's chance does not depend on the start
place the first race's draw gave them; so each player is followed from the place they drew
for race 1 through the rotation to the final standings, on the simulation's course for
every race:

- **expected tournament points** of the player who drew place ``k``, with a 95 % normal
  interval over the tournaments;
- **tournament win share** of that player: the share of tournaments they won (a first rank
  shared by ``j`` players counts ``1/j`` to each: the edition's tie-break, when it has one,
  decides first), with its 95 % interval;
- **the tournament spread**: the win share of the best first-race place minus the worst's,
  its interval from the per-tournament differences at those two places (as the paired
  comparison's spread, engine/lab/paired.py: it holds for those places);
- and, as a figure of its own, **the single-race spread**: over every race of those
  tournaments, the win rate of each race's own start places, best minus worst — what
  ``simulate`` without ``--tournament`` measures, here under the rotated orders.

Tournament ``i`` of a simulation with seed ``S`` is seeded from ``(S, i)`` alone (as the
races of a simulation are), so the figures do not depend on the number of workers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from avecaesar.engine.lab.paired import Comparison, paired_difference
from avecaesar.engine.lab.simulate import SimSpec, race_seed
from avecaesar.engine.lab.stats import Z95, mean_interval, variance

if TYPE_CHECKING:
    from avecaesar.engine.core.ruleset_adapter import TournamentRules
    from avecaesar.engine.core.tournament import RaceResult, Standing


@dataclass(frozen=True)
class _Done:
    races: list[RaceResult]
    standings: tuple[Standing, ...]

__all__ = ["PlaceFairness", "TournamentFairness", "TournamentSummary", "compare_tournaments",
           "fairness",
           "has_tournament",           "play_tournament", "run_many_tournaments", "run_tournaments",
           "same_tournaments", "summarise_tournament",
           "tournament_rules"]


@dataclass(frozen=True)
class TournamentSummary:
    """What one tournament contributes (small and picklable): per player, the start place
    (0-based) of their first chariot in race 1, their total points and their share of the
    tournament win; per race, the start place of its winner (None: nobody placed)."""

    index: int
    start: tuple[int, ...]
    totals: tuple[int, ...]
    won: tuple[float, ...]
    race_winners: tuple[int | None, ...]
    chariots: int = 0  # the players' chariots a race (start places of race_winners)


@dataclass(frozen=True)
class PlaceFairness:
    """One start place of the first race, over the tournaments."""

    place: int  # 1-based
    tournaments: int
    points: float
    points_ci: tuple[float, float]
    win_share: float
    win_ci: tuple[float, float]
    single_race_win_rate: float  # its win rate in single races (each race's own places)

    def to_json(self) -> dict[str, object]:
        return {"place": self.place, "tournaments": self.tournaments,
                "expected_points": self.points, "points_ci": list(self.points_ci),
                "win_share": self.win_share, "win_ci": list(self.win_ci),
                "single_race_win_rate": self.single_race_win_rate}


@dataclass
class TournamentFairness:
    """The tournament figures of a simulation (the module's docstring)."""

    spec: SimSpec
    tournaments: int
    races_each: int
    next_start_order: str
    places: list[PlaceFairness] = field(default_factory=list)
    spread: float = 0.0  # tournament win share, best first-race place − worst
    spread_ci: tuple[float, float] = (0.0, 0.0)
    points_spread: float = 0.0  # expected tournament points, best − worst
    points_spread_ci: tuple[float, float] = (0.0, 0.0)
    single_race_spread: float = 0.0  # win rate by a race's own start place, best − worst
    single_race_spread_ci: tuple[float, float] = (0.0, 0.0)

    def to_json(self) -> dict[str, object]:
        s = self.spec
        return {"spec": {**s.__dict__, "variants": list(s.variants),
                         "settings": dict(s.settings), "bots": list(s.bots),
                         "edits": list(s.edits)},
                "tournaments": self.tournaments,
                "races_per_tournament": self.races_each,
                "next_start_order": self.next_start_order,
                "by_first_race_start_place": [p.to_json() for p in self.places],
                "tournament_spread": self.spread, "tournament_spread_ci": list(self.spread_ci),
                "points_spread": self.points_spread,
                "points_spread_ci": list(self.points_spread_ci),
                "single_race_spread": self.single_race_spread,
                "single_race_spread_ci": list(self.single_race_spread_ci)}


def tournament_rules(spec: SimSpec) -> TournamentRules:
    """The tournament rules of the simulation's ruleset, variants and house rules."""
    import json

    from avecaesar.engine.core.race_setup import ChosenRules

    return ChosenRules.compose(spec.ruleset, spec.variants, dict(spec.settings),
                               json.loads(spec.house) if spec.house else None
                               ).tournament_rules


def has_tournament(spec: SimSpec) -> bool:
    """Whether the simulation's rules play a tournament of several races (its start order
    rotated between them by ``tournament.next_start_order``)."""
    return tournament_rules(spec).races > 1


def play_tournament(spec: SimSpec, seed: int, t: TournamentRules) -> list[RaceResult]:
    """The races of one tournament on ``spec.course`` (the edition's number of races and
    next-race order, race ``r`` seeded ``seed * 1000 + r``), as :func:`~avecaesar.engine.
    core.tournament.run_tournament` plays them, with the simulation's board and its quick
    loop (no events, no records: a test checks both give the same races)."""
    from avecaesar.engine.bots.registry import OWNERLESS, make_policy
    from avecaesar.engine.core.race import new_race, outcome
    from avecaesar.engine.core.tournament import next_seats, race_result
    from avecaesar.engine.core.tournament import race_seed as tournament_race_seed
    from avecaesar.engine.lab.race_loop import race_to_end
    from avecaesar.engine.lab.simulate import _setup, _spec_key

    rules, board = _setup(_spec_key(spec))
    n = spec.players
    names = [f"{spec.bots[p % len(spec.bots)]}-{p + 1}" for p in range(n)]
    policies = [make_policy(spec.bots[p % len(spec.bots)], seed + p, spec.bot_budget)
                for p in range(n)]
    per = rules.chariots_for(n)
    results: list[RaceResult] = []
    seats: list[int] | None = None
    for r in range(1, t.races + 1):
        race = tournament_race_seed(seed, r)
        state, setup = new_race(rules, board, names, race, seats)
        state.log = False
        by_chariot = [policies[s // per] for s in setup["seats"]]
        by_chariot += [OWNERLESS] * (state.game.chariots - len(by_chariot))
        race_to_end(state, by_chariot, OWNERLESS, False)
        res = race_result(r, spec.course, race, setup["seats"], outcome(state), n, ())
        results.append(res)
        seats = next_seats(t, res.seats, res.seat_order)
    return results


def summarise_tournament(spec: SimSpec, index: int, t: TournamentRules) -> TournamentSummary:
    """Play tournament ``index`` of the simulation under ``t`` and summarise it."""
    from avecaesar.engine.core.tournament import standings

    seed = race_seed(spec.seed, index) % 10**9
    n = spec.players
    races = play_tournament(spec, seed, t)
    done = _Done(races, standings([str(p) for p in range(n)], races, t.tie_break))
    first = done.races[0]
    per = max(1, len(first.seats) // n)
    # each player's first chariot's place in race 1; with several chariots a player, the
    # players' order by it
    own = [min(k for k, s in enumerate(first.seats) if s // per == p) for p in range(n)]
    order = sorted(range(n), key=lambda p: own[p])
    start = tuple(order.index(p) for p in range(n))
    totals = [0] * n
    for s in done.standings:
        totals[s.player] = s.total
    top = [s.player for s in done.standings if s.rank == 1]
    won = tuple(1 / len(top) if p in top else 0.0 for p in range(n))
    winners = tuple(r.seats.index(r.seat_order[0])
                    if any(1 in places for places in r.all_places) else None
                    for r in done.races)
    return TournamentSummary(index, start, tuple(totals), won, winners, len(first.seats))


def _batch(spec: SimSpec, indices: Sequence[int], t: TournamentRules | None = None
           ) -> list[TournamentSummary]:
    """The tournaments ``indices`` (in a worker the rules are composed again, once a chunk:
    compiled rule values do not travel by pickle)."""
    t = t or tournament_rules(spec)
    return [summarise_tournament(spec, i, t) for i in indices]


def _run_chunk(job: tuple[int, SimSpec, list[int]]) -> tuple[int, list[TournamentSummary]]:
    k, spec, indices = job
    return k, _batch(spec, indices)


def run_tournaments(spec: SimSpec, tournaments: int, workers: int = 1
                    ) -> list[TournamentSummary]:
    """The summaries of ``tournaments`` tournaments (in order), on ``workers`` processes."""
    return run_many_tournaments([spec], tournaments, workers)[0]


def run_many_tournaments(specs: Sequence[SimSpec], tournaments: int, workers: int = 1,
                         first: int = 0, progress: Callable[[int], None] | None = None
                         ) -> list[list[TournamentSummary]]:
    """Every spec's tournaments ``first`` to ``first + tournaments − 1`` (each list in
    order), all in one pool of ``workers`` processes: tournament ``i`` of every spec is
    dealt the same (its seed is ``(seed, i)``), so two specs' lists pair tournament by
    tournament (the design assistant's tournament target); ``progress(done)`` is told the
    tournaments done so far."""
    from avecaesar.engine.lab.simulate import _setup, _spec_key

    rules = [tournament_rules(spec) for spec in specs]  # bad names fail here, at once
    for spec in specs:
        _setup(_spec_key(spec))  # each board built once: the workers fork with it
    found: list[list[TournamentSummary]] = [[] for _ in specs]
    done = [0]

    def collect(got: tuple[int, list[TournamentSummary]]) -> None:
        found[got[0]].extend(got[1])
        done[0] += len(got[1])
        if progress:
            progress(done[0])

    if workers <= 1:
        for k, (spec, t) in enumerate(zip(specs, rules, strict=True)):
            for i in range(first, first + tournaments, 50):
                collect((k, _batch(spec, range(i, min(i + 50, first + tournaments)), t)))
        return found
    import os
    import sys

    from avecaesar.engine.lab.simulate import _quiet_context, _worker_init
    from avecaesar.engine.lab.workers import run_unordered

    total = tournaments * len(specs)
    chunk = max(1, min(50, total // (workers * 16) or 1))
    jobs = [(k, spec, list(range(i, min(i + chunk, first + tournaments))))
            for k, spec in enumerate(specs) for i in range(first, first + tournaments, chunk)]
    if sys.platform == "linux":
        run_unordered(_quiet_context(), workers, _run_chunk, jobs, collect,
                      _worker_init, (os.getpid(),))
    else:
        for job in jobs:
            collect(_run_chunk(job))
    return [sorted(f, key=lambda t: t.index) for f in found]


def _spread(values: list[list[float]]) -> tuple[float, tuple[float, float], int, int]:
    """Best mean minus worst mean of per-place values (``values[k]``: place ``k``'s value in
    each trial), with the interval of the per-trial differences at those two places."""
    means = [sum(v) / len(v) if v else 0.0 for v in values]
    best = max(range(len(means)), key=lambda k: (means[k], -k))
    worst = min(range(len(means)), key=lambda k: (means[k], k))
    d = [x - y for x, y in zip(values[best], values[worst], strict=True)]
    half = Z95 * math.sqrt(variance(d) / len(d)) if d else 0.0
    m = means[best] - means[worst]
    return m, (m - half, m + half), best, worst


def fairness(spec: SimSpec, found: Sequence[TournamentSummary]) -> TournamentFairness:
    """The tournament figures of these tournaments (the module's docstring)."""
    t = tournament_rules(spec)
    n = spec.players
    out = TournamentFairness(spec, len(found), t.races, t.next_start_order)
    if not found:
        return out
    points: list[list[float]] = [[] for _ in range(n)]
    shares: list[list[float]] = [[] for _ in range(n)]
    for ts in found:
        for p, k in enumerate(ts.start):
            points[k].append(float(ts.totals[p]))
            shares[k].append(ts.won[p])
    chariots = found[0].chariots
    wins: list[list[float]] = [[float(w == k) for ts in found for w in ts.race_winners]
                               for k in range(chariots)]
    for k in range(n):
        out.places.append(PlaceFairness(
            k + 1, len(shares[k]), sum(points[k]) / len(points[k]), mean_interval(points[k]),
            sum(shares[k]) / len(shares[k]), mean_interval(shares[k]),
            sum(wins[k]) / len(wins[k]) if k < chariots else 0.0))
    out.spread, out.spread_ci, _b, _w = _spread(shares)
    out.points_spread, out.points_spread_ci, _b, _w = _spread(points)
    out.single_race_spread, out.single_race_spread_ci, _b, _w = _spread(wins)
    return out


def _by_place(ts: TournamentSummary) -> list[int]:
    """The player who drew each first-race start place (``[k]``: place ``k``'s player)."""
    out = [0] * len(ts.start)
    for p, k in enumerate(ts.start):
        out[k] = p
    return out


def _spread_terms(found: Sequence[TournamentSummary]) -> list[float]:
    """Per tournament: the win share of the player at the side's best first-race start place
    minus that at its worst (their mean is the tournament spread)."""
    n = len(found[0].start)
    shares = [sum(ts.won[_by_place(ts)[k]] for ts in found) for k in range(n)]
    best = max(range(n), key=lambda k: (shares[k], -k))
    worst = min(range(n), key=lambda k: (shares[k], k))
    return [ts.won[_by_place(ts)[best]] - ts.won[_by_place(ts)[worst]] for ts in found]


def compare_tournaments(a: Sequence[TournamentSummary], b: Sequence[TournamentSummary],
                        z: float = Z95) -> Comparison:
    """Pair two sides' tournaments by index (tournament ``i`` of both is dealt the same) and
    difference the tournament figures, b − a: the tournament spread (taken at each side's
    own best and worst first-race start place, as the paired race spread is:
    engine/lab/paired.py), then per first-race start place the tournament win share and the
    expected tournament points; ``z``: the normal quantile of every interval."""
    by_index = {t.index: t for t in b}
    pairs = [(t, by_index[t.index]) for t in a if t.index in by_index]
    if not pairs:
        return Comparison(0, [])
    ta, tb = [p[0] for p in pairs], [p[1] for p in pairs]
    n = min(len(ta[0].start), len(tb[0].start))
    out = [paired_difference("tournament spread", _spread_terms(ta), _spread_terms(tb),
                             "rate", z)]
    for k in range(n):
        out.append(paired_difference(
            f"tournament win share, place {k + 1}", [t.won[_by_place(t)[k]] for t in ta],
            [t.won[_by_place(t)[k]] for t in tb], "rate", z))
    for k in range(n):
        out.append(paired_difference(
            f"expected tournament points, place {k + 1}",
            [float(t.totals[_by_place(t)[k]]) for t in ta],
            [float(t.totals[_by_place(t)[k]]) for t in tb], "", z))
    return Comparison(len(pairs), out)


def same_tournaments(a: Sequence[TournamentSummary], b: Sequence[TournamentSummary]) -> bool:
    """Whether two sides' paired tournaments are the same tournament for tournament: every
    player's first-race start place, points and win share, and every race's winner."""
    def key(t: TournamentSummary) -> tuple[object, ...]:
        return (t.start, t.totals, t.won, t.race_winners)

    by_index = {t.index: key(t) for t in b}
    return len(a) == len(b) and all(by_index.get(t.index) == key(t) for t in a)
