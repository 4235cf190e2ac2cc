"""The balance target of a brief, verified on fresh races: each board races ``races`` seeded
bot races (engine/lab/simulate.py, on the lab's workers or a Dask cluster, all boards on one
pool), its spread of win rates between start places with a 95 % interval, and whether the
spread is within the brief's ``spread_max``.

The races are fresh: their seed is the generator's seed plus ``VERIFY_SEED``, races the
search never saw (it does not race at all). The interval is the normal one of the per-race
terms whose mean is the spread (a win at the best start place minus a win at the worst, as
engine/lab/paired.py pairs them), so it is conditional on which places were best and worst.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from avecaesar.engine.lab.batch import batch_spec
from avecaesar.engine.lab.brief import Balance
from avecaesar.engine.lab.paired import _spread_terms
from avecaesar.engine.lab.simulate import SimSpec, report, run_many

__all__ = ["VERIFY_SEED", "BalanceCheck", "verify_balance"]

VERIFY_SEED = 104729  # added to the seed: the verification races are fresh ones


@dataclass(frozen=True)
class BalanceCheck:
    """One board's verification: the spread (percentage points), its 95 % interval, the
    win rate per start place, the races run and whether the target is met."""

    file: str
    spread: float
    ci: tuple[float, float]
    win_rates: tuple[float, ...]
    races: int
    met: bool

    def to_json(self) -> dict[str, object]:
        return {"spread_pp": round(self.spread, 2),
                "ci_pp": [round(self.ci[0], 2), round(self.ci[1], 2)],
                "win_rates": [round(100 * w, 2) for w in self.win_rates],
                "races": self.races, "met": self.met}


def _spec(file: str, ruleset: str, balance: Balance, seed: int) -> SimSpec:
    bots = tuple(b.strip() for b in balance.bots.split(",") if b.strip())
    spec, _notes = batch_spec(file, ruleset, balance.players, balance.races,
                              seed + VERIFY_SEED, bots)
    return spec


def verify_balance(files: list[str], ruleset: str, balance: Balance, seed: int,
                   workers: int = 1, cluster: str | None = None,
                   progress: Callable[[int], None] | None = None) -> list[BalanceCheck]:
    """Each board of ``files`` raced on fresh races and checked against the target
    (``progress(races done)`` as they finish); Ctrl-C stops the races (a KeyboardInterrupt:
    no board is judged on part of its races)."""
    specs = [_spec(f, ruleset, balance, seed) for f in files]
    found, interrupted = run_many(specs, workers, cluster=cluster, progress=progress)
    if interrupted:
        raise KeyboardInterrupt
    out = []
    for file, spec, summaries in zip(files, specs, found, strict=True):
        rep = report(spec, summaries)
        terms = _spread_terms(summaries)
        n = len(terms)
        mean = sum(terms) / n
        sd = math.sqrt(sum((t - mean) ** 2 for t in terms) / (n - 1)) if n > 1 else 0.0
        half = 1.96 * sd / math.sqrt(n)
        spread = 100 * rep.spread
        out.append(BalanceCheck(file, spread, (100 * (mean - half), 100 * (mean + half)),
                                tuple(p.win_rate for p in rep.by_place), rep.races,
                                spread <= balance.spread_max))
    return out
