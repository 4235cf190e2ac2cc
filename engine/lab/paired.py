"""Paired comparisons: two sides (rulesets, courses, a course and an edited copy, bot
line-ups) race the same deals and seeds, and each figure's difference gets a confidence
interval from the paired results.

Race ``i`` of either side is seeded by ``(seed, i)`` alone (:func:`~avecaesar.engine.lab.
simulate.race_seed`), so both sides draw the same start order and the same decks and the
bots get the same seeds: common random numbers. The difference of a figure is the mean of
the per-race differences ``b_i − a_i``, and its 95 % interval is ``mean ± 1.96·s_d/√n``
with ``s_d`` the standard deviation of those differences. When the two sides' results go
together (the same lucky deal helps place 3 on both), ``s_d`` is far below what two
independent runs give, ``√(s_a² + s_b²)``; the ratio of the variances,
``(s_a² + s_b²) / s_d²``, is how many times more races two independent runs would need for
an interval as narrow (``efficiency``).

The spread between start places (the largest gap in win rate) is not a mean of per-race
values; its difference is taken at each side's own best and worst place: per race
``(win_b[best_b] − win_b[worst_b]) − (win_a[best_a] − win_a[worst_a])``, whose mean is the
difference of the two spreads exactly, and whose interval holds for those places (it does
not count the chance that another place is the best one).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from avecaesar.engine.data.values import Json
from avecaesar.engine.lab.stats import Z95, variance

if TYPE_CHECKING:
    from avecaesar.engine.lab.summary import RaceSummary

__all__ = ["Comparison", "Difference", "compare_summaries", "not_finished",
           "paired_difference"]


@dataclass(frozen=True)
class Difference:
    """One figure on both sides, its paired difference (b − a) with its 95 % interval, and
    the races two independent runs would need per paired race for the same width."""

    name: str
    a: float
    b: float
    diff: float
    ci: tuple[float, float]
    efficiency: float | None  # (var a + var b) / var(b − a); None when both are constant
    unit: str = ""  # "rate" (a share), "" (a count)

    @property
    def significant(self) -> bool:
        """Whether the interval leaves out 0."""
        return self.ci[0] > 0 or self.ci[1] < 0

    def to_json(self) -> dict[str, Json]:
        return {"figure": self.name, "a": self.a, "b": self.b, "difference": self.diff,
                "ci": list(self.ci), "efficiency": self.efficiency, "unit": self.unit,
                "significant": self.significant}


def paired_difference(name: str, a: Sequence[float], b: Sequence[float], unit: str = "",
                      z: float = Z95) -> Difference:
    """The paired difference of per-race values ``a[i]`` and ``b[i]`` (same races); ``z``:
    the normal quantile of the interval (95 % two-sided by default)."""
    n = len(a)
    if n != len(b):
        raise ValueError(f"{name}: {len(a)} races against {len(b)}: pair the same races")
    d = [y - x for x, y in zip(a, b, strict=True)]
    ma = sum(a) / n if n else 0.0
    mb = sum(b) / n if n else 0.0
    md = sum(d) / n if n else 0.0
    vd = variance(d)
    half = z * math.sqrt(vd / n) if n else 0.0
    independent = variance(list(a)) + variance(list(b))
    efficiency = independent / vd if vd > 0 else (None if independent == 0 else math.inf)
    return Difference(name, ma, mb, md, (md - half, md + half), efficiency, unit)


@dataclass(frozen=True)
class Comparison:
    """Every figure of two paired simulations, b − a."""

    races: int
    differences: list[Difference]

    def get(self, name: str) -> Difference:
        return next(d for d in self.differences if d.name == name)

    @property
    def spread(self) -> Difference:
        """The spread's difference: the race spread (``spread``) of races compared, the
        tournament spread of tournaments (engine/lab/tournament_fairness.py)."""
        return next(d for d in self.differences if d.name in ("spread", "tournament spread"))

    def to_json(self) -> dict[str, Json]:
        return {"races": self.races, "differences": [d.to_json() for d in self.differences]}


def _spread_terms(rows: Sequence[RaceSummary]) -> list[float]:
    """Per race: win at the side's best start place minus win at its worst."""
    n = len(rows[0].places)
    rates = [sum(1 for r in rows if r.places[c] == 1) for c in range(n)]
    best = max(range(n), key=lambda c: (rates[c], -c))
    worst = min(range(n), key=lambda c: (rates[c], c))
    return [float(r.places[best] == 1) - float(r.places[worst] == 1) for r in rows]


PerRace = Callable[["RaceSummary"], float]


def _place_figures(places: int) -> list[tuple[str, PerRace, str]]:
    out: list[tuple[str, PerRace, str]] = []
    for c in range(places):
        out.append((f"win rate, place {c + 1}",
                    lambda r, c=c: float(r.places[c] == 1), "rate"))  # type: ignore[misc]
    for c in range(places):
        out.append((f"mean points, place {c + 1}",
                    lambda r, c=c: float(r.points[c]), ""))  # type: ignore[misc]
    # one meaning per name, as the report's start-place table (engine/lab/simulate.py,
    # PlaceStats): out of cards; disqualified; not finished = either, or still racing when
    # the race ended
    for c in range(places):
        out.append((f"out of cards, place {c + 1}",
                    lambda r, c=c: float(r.out_of_cards[c]), "rate"))  # type: ignore[misc]
    for c in range(places):
        out.append((f"disqualified, place {c + 1}",
                    lambda r, c=c: float(r.disqualified[c]), "rate"))  # type: ignore[misc]
    for c in range(places):
        out.append((f"not finished, place {c + 1}",
                    lambda r, c=c: float(not_finished(r, c)), "rate"))  # type: ignore[misc]
    return out


def not_finished(r: RaceSummary, c: int) -> bool:
    """Whether start place ``c`` did not finish race ``r``: out of cards, disqualified, or
    still racing when it ended — the one meaning of "not finished" in every report."""
    return r.out_of_cards[c] or r.disqualified[c] or not r.finished[c]


RACE_FIGURES: list[tuple[str, PerRace, str]] = [
    ("lead changes per race", lambda r: float(r.lead_changes), ""),
    ("race length (turns)", lambda r: float(r.turns), ""),
    ("blocked turns per race", lambda r: float(r.blocked_skips), ""),
    ("alley waits per race", lambda r: float(r.alley_waits), ""),
    ("6-card-rule skips per race", lambda r: float(r.six_rule_skips), ""),
]


def compare_summaries(a: Sequence[RaceSummary], b: Sequence[RaceSummary], z: float = Z95
                      ) -> Comparison:
    """Pair the two sides' races by index (the races both ran) and difference every figure:
    the spread between start places, then per start place the win rate, mean points and
    shares out of cards, disqualified and not finished (either, or still racing at the end;
    the places both sides have), then the per-race figures; ``z``: the
    normal quantile of every interval (95 % two-sided by default; the assistant's sequential
    verification widens it for its repeated looks)."""
    by_index = {r.index: r for r in b}
    pairs = [(r, by_index[r.index]) for r in a if r.index in by_index]
    ra = [p[0] for p in pairs]
    rb = [p[1] for p in pairs]
    if not pairs:
        return Comparison(0, [])
    places = min(len(ra[0].places), len(rb[0].places))
    out = [paired_difference("spread", _spread_terms(ra), _spread_terms(rb), "rate", z)]
    for name, f, unit in [*_place_figures(places), *RACE_FIGURES]:
        out.append(paired_difference(name, [f(r) for r in ra], [f(r) for r in rb], unit, z))
    return Comparison(len(pairs), out)
