"""The skill ladder (``simulate --ladder``): the bots rated against each other in mixed races
with a multiplayer rating, OpenSkill's Plackett–Luce model (Weng & Lin 2011; the
``openskill`` library).

The entrants are bots, each a registered bot at a budget (``expert:32``: the expert at 32
rollouts a decision). Race ``i`` seats a seeded choice of distinct entrants — all of them
in a seeded order when the course seats as many, else a seeded sample — on the simulated
course, the start order drawn as in any race; its result (places; the chariots that did
not finish tie behind the placed ones) updates every entrant's rating (``mu``, ``sigma``),
race after race in race order, so the ladder is a function of the seed alone (the races
may run on several workers). An entrant's rung is its ``mu``; two neighbouring rungs are
*separated* when ``mu_hi − mu_lo > 2·√(σ_hi² + σ_lo²)`` (more than two standard deviations
of the difference).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from avecaesar.engine.data.errors import UsageError
from avecaesar.engine.lab.simulate import SimSpec, race_seed

__all__ = ["DEFAULT_LADDER", "Entrant", "Ladder", "Rung", "entrants", "ladder", "race_lineup",
           "run_ladder_races"]

#: random, greedy and search, and the expert at three budgets (rollouts a decision at most):
#: 8 (its floor, 6 worlds a candidate), 48 and 192 (its default). Not 8, 32 and 128 as
#: before: 8 and 32 give the same 6 worlds a candidate wherever there are six or more
#: candidates, three decisions in four (docs/performance.md, "The skill ladder")
DEFAULT_LADDER = "random,greedy,search,expert:8,expert:48,expert:192"


@dataclass(frozen=True)
class Entrant:
    """A bot at a budget (None: its default, or it takes none)."""

    bot: str
    budget: int | None = None

    @property
    def name(self) -> str:
        return self.bot if self.budget is None else f"{self.bot}:{self.budget}"


def entrants(text: str) -> list[Entrant]:
    """``random,greedy,expert:32`` as entrants; an unknown bot or a bad budget is a usage
    error saying so."""
    from avecaesar.engine.bots.registry import find_bot

    out: list[Entrant] = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        name, _, budget = part.partition(":")
        bot = find_bot(name)
        if budget and (not budget.isdigit() or int(budget) < 1):
            raise UsageError(f"--ladder {part}: give a budget of 1 or more after the colon "
                             f"(e.g. {name}:32)")
        if budget and not bot.budget:
            raise UsageError(f"--ladder {part}: {name} takes no budget")
        e = Entrant(name, int(budget) if budget else None)
        if e in out:
            raise UsageError(f"--ladder: {e.name} is named twice")
        out.append(e)
    if len(out) < 2:
        raise UsageError("--ladder: name at least two entrants (e.g. random,greedy)")
    return out


def race_lineup(seed: int, index: int, field_size: int, seats: int) -> list[int]:
    """The entrants (indices) of race ``index``, seat by seat: distinct, seeded."""
    rng = random.Random(race_seed(seed, index))
    return rng.sample(range(field_size), min(seats, field_size))


def _race(spec: SimSpec, field_: Sequence[Entrant], index: int) -> tuple[int, list[int],
                                                                        list[int | None]]:
    """Race ``index``: its lineup (entrant per seat) and each seat's place (None: not
    placed)."""
    from avecaesar.engine.bots.registry import OWNERLESS, make_policy
    from avecaesar.engine.core.race import new_race, outcome
    from avecaesar.engine.lab.race_loop import race_to_end
    from avecaesar.engine.lab.simulate import _setup, _spec_key

    rules, board = _setup(_spec_key(spec))
    lineup = race_lineup(spec.seed, index, len(field_), spec.players)
    seed = race_seed(spec.seed, index)
    names = [field_[e].name for e in lineup]
    state, setup = new_race(rules, board, names, seed)
    state.log = False
    per = rules.chariots_for(len(names))
    made = [make_policy(field_[e].bot, seed + s, field_[e].budget) for s, e in enumerate(lineup)]
    policies = [made[s // per] for s in setup["seats"]]
    policies += [OWNERLESS] * (state.game.chariots - len(policies))
    race_to_end(state, policies, OWNERLESS, False)
    places: list[int | None] = [None] * len(lineup)
    for p in outcome(state).placings:
        if p.chariot < len(setup["seats"]) and p.place is not None:
            seat = setup["seats"][p.chariot] // per
            best = places[seat]
            places[seat] = p.place if best is None else min(best, p.place)
    return index, lineup, places


def _batch(job: tuple[SimSpec, tuple[Entrant, ...], list[int]]
           ) -> list[tuple[int, list[int], list[int | None]]]:
    spec, field_, indices = job
    return [_race(spec, field_, i) for i in indices]


def run_ladder_races(spec: SimSpec, field_: Sequence[Entrant], workers: int = 1
                     ) -> list[tuple[int, list[int], list[int | None]]]:
    """Every race's lineup and places, in race order (``spec.races`` races)."""
    from avecaesar.engine.lab.simulate import _setup, _spec_key

    _setup(_spec_key(spec))  # bad names fail here; forked workers inherit the board
    chunk = max(1, min(20, spec.races // (max(1, workers) * 8) or 1))
    jobs = [(spec, tuple(field_), list(range(i, min(i + chunk, spec.races))))
            for i in range(0, spec.races, chunk)]
    found: list[tuple[int, list[int], list[int | None]]] = []
    if workers <= 1:
        for job in jobs:
            found += _batch(job)
    else:
        import os

        from avecaesar.engine.lab.simulate import _quiet_context, _worker_init
        from avecaesar.engine.lab.workers import run_unordered

        run_unordered(_quiet_context(), workers, _batch, jobs, found.extend, _worker_init,
                      (os.getpid(),))
    return sorted(found, key=lambda r: r[0])


@dataclass(frozen=True)
class Rung:
    """An entrant's rating after the races, and the races behind it."""

    entrant: str
    mu: float
    sigma: float
    races: int
    wins: int
    separated: bool | None = None  # from the rung below (None: the lowest)
    #: where not separated: about how many races in all would separate it from the rung
    #: below if the gap held (sigma falls as one over the root of the races, tau 0);
    #: None where separated, the lowest, or level with the rung below
    races_to_separate: int | None = None

    def to_json(self) -> dict[str, object]:
        return {"entrant": self.entrant, "mu": self.mu, "sigma": self.sigma,
                "races": self.races, "wins": self.wins,
                "separated_from_below": self.separated,
                "races_to_separate": self.races_to_separate}


@dataclass
class Ladder:
    """The rungs, best first."""

    spec: SimSpec
    rungs: list[Rung] = field(default_factory=list)

    @property
    def separated(self) -> bool:
        """Whether every rung stands more than two standard deviations above the next."""
        return all(r.separated for r in self.rungs[:-1])

    def to_json(self) -> dict[str, object]:
        s = self.spec
        return {"spec": {**s.__dict__, "variants": list(s.variants),
                         "settings": dict(s.settings), "bots": list(s.bots)},
                "model": "openskill PlackettLuce", "rungs": [r.to_json() for r in self.rungs],
                "all_separated": self.separated}


def ladder(spec: SimSpec, field_: Sequence[Entrant],
           results: Sequence[tuple[int, list[int], list[int | None]]]) -> Ladder:
    """The ratings after these races, rated in race order (the module's docstring)."""
    import math

    from openskill.models import PlackettLuce

    # tau 0: a bot's skill does not drift from race to race. OpenSkill's default tau
    # (25/300) adds that much spread before every update, for players who learn and
    # forget; on bots it holds sigma near 1.5-2.3 however many races are run, and lets mu
    # wander (docs/simulation.md, "A skill ladder").
    model = PlackettLuce(tau=0.0)
    ratings = [model.rating(name=e.name) for e in field_]
    races = [0] * len(field_)
    wins = [0] * len(field_)
    for _i, lineup, places in results:
        last = max([p for p in places if p is not None], default=0) + 1
        ranks = [float(p if p is not None else last) for p in places]
        rated = model.rate([[ratings[e]] for e in lineup], ranks=ranks)
        for e, team, place in zip(lineup, rated, places, strict=True):
            ratings[e] = team[0]
            races[e] += 1
            wins[e] += place == 1
    order = sorted(range(len(field_)), key=lambda e: -ratings[e].mu)
    out = Ladder(spec)
    for k, e in enumerate(order):
        below = order[k + 1] if k + 1 < len(order) else None
        sep, more = None, None
        if below is not None:
            gap = ratings[e].mu - ratings[below].mu
            need = 2 * math.hypot(ratings[e].sigma, ratings[below].sigma)
            sep = gap > need
            if not sep and gap > 0:
                more = math.ceil(len(results) * (need / gap) ** 2)
        out.rungs.append(Rung(field_[e].name, ratings[e].mu, ratings[e].sigma, races[e],
                              wins[e], sep, more))
    return out
