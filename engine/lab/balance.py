"""The balance report's figures beyond the win rate: the seat advantage, attrition by lap,
race length, and the skill table of several bot kinds. Each is computed from the per-race
summaries (:class:`~avecaesar.engine.lab.simulate.RaceSummary`), in race order, so it is the
same for any number of workers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from avecaesar.engine.data.values import Json, JsonDict
from avecaesar.engine.lab.stats import wilson_interval

if TYPE_CHECKING:
    from avecaesar.engine.lab.summary import RaceSummary

__all__ = ["GroupRate", "SeatAdvantage", "SkillTable", "attrition", "length_histogram",
           "seat_advantage", "skill_table", "start_rows"]


@dataclass(frozen=True)
class GroupRate:
    """The win rate per chariot of a group of chariots (a row, a bot kind): the share of
    races the group won, with its Wilson interval, divided by the chariots it has per race."""

    name: str
    chariots: float  # per race
    wins: int
    races: int

    @property
    def rate(self) -> float:
        return self.wins / self.races / self.chariots if self.races and self.chariots else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        lo, hi = wilson_interval(self.wins, self.races)
        c = self.chariots or 1.0
        return (lo / c, hi / c)

    def to_json(self) -> dict[str, Json]:
        return {"name": self.name, "chariots_per_race": self.chariots, "wins": self.wins,
                "races": self.races, "win_rate_per_chariot": self.rate, "ci": list(self.ci)}


def _group(name: str, rows: Sequence[RaceSummary], members: list[list[int]]) -> GroupRate:
    """``members[r]``: the chariots of the group in race ``r``."""
    wins = sum(1 for r, m in zip(rows, members, strict=True)
               if any(r.places[c] == 1 for c in m))
    chariots = sum(len(m) for m in members) / len(rows) if rows else 0.0
    return GroupRate(name, chariots, wins, len(rows))


def start_rows(start_crossings: Sequence[int], progress: Sequence[int]) -> list[list[int]]:
    """Start places (0-based) grouped into rows, the front row first: places level with
    each other (the same finish-line crossings still to make and the same progress along
    the lap) share a row."""
    keys = sorted({(start_crossings[c], progress[c]) for c in range(len(progress))},
                  reverse=True)
    return [[c for c in range(len(progress)) if (start_crossings[c], progress[c]) == k]
            for k in keys]


@dataclass(frozen=True)
class SeatAdvantage:
    """Does moving first, or starting in the front row, win more than the even share?"""

    even: float  # 1 / chariots
    first_mover: GroupRate
    first_places: dict[int, int]  # start place (1-based) → races it moved first
    rows: list[tuple[list[int], GroupRate]]  # (start places, 1-based; its rate), front first

    def to_json(self) -> dict[str, Json]:
        return {"even_share": self.even, "first_mover": self.first_mover.to_json(),
                "first_mover_start_places": {str(k): v for k, v in self.first_places.items()},
                "rows": [{"start_places": p, **g.to_json()} for p, g in self.rows]}


def seat_advantage(rows: Sequence[RaceSummary], front: list[list[int]]) -> SeatAdvantage:
    """The first mover's and each row's win rate per chariot (``front``: :func:`start_rows`)."""
    n = len(rows[0].places) if rows else 1
    first = _group("first to move", rows, [[r.first] for r in rows])
    places: dict[int, int] = {}
    for r in rows:
        places[r.first + 1] = places.get(r.first + 1, 0) + 1
    by_row = [([c + 1 for c in row], _group(f"row {i + 1}", rows, [row] * len(rows)))
              for i, row in enumerate(front)]
    return SeatAdvantage(1 / n, first, dict(sorted(places.items())), by_row)


def attrition(rows: Sequence[RaceSummary]) -> list[JsonDict]:
    """Chariots that left the race (or were disqualified), by lap and why: one row per
    (lap, why), laps in order, the most frequent reason first."""
    counts: dict[tuple[int, str], int] = {}
    for r in rows:
        for lap, why in zip(r.out_lap, r.out_why, strict=True):
            if why and lap is not None:
                counts[(lap, why)] = counts.get((lap, why), 0) + 1
    k = len(rows) or 1
    return [{"lap": lap, "why": why, "chariots": n, "per_race": n / k}
            for (lap, why), n in sorted(counts.items(), key=lambda x: (x[0][0], -x[1]))]


def length_histogram(turns: Sequence[int], bins: int = 12) -> list[tuple[int, int, int]]:
    """Race lengths in turns as (from, to, races) bins of equal width, shortest first."""
    if not turns:
        return []
    lo, hi = min(turns), max(turns)
    width = max(1, -(-(hi - lo + 1) // bins))
    out = []
    for start in range(lo, hi + 1, width):
        out.append((start, start + width - 1,
                    sum(1 for t in turns if start <= t < start + width)))
    return out


@dataclass(frozen=True)
class SkillTable:
    """Several bot kinds in the same races: each kind's win rate per chariot, each kind's
    head-to-head record against each other kind, and the spread between the best and the
    worst kind — how much skill matters on this course."""

    kinds: list[GroupRate]
    # (kind a, kind b) → (races a's best chariot placed ahead of b's best, races decided)
    versus: dict[tuple[str, str], tuple[int, int]]

    @property
    def spread(self) -> float:
        rates = [k.rate for k in self.kinds]
        return max(rates) - min(rates) if rates else 0.0

    def head_to_head(self, a: str, b: str) -> tuple[float, tuple[float, float]] | None:
        """Kind ``a``'s share of the races decided between ``a`` and ``b``, with its Wilson
        interval; None when none was."""
        won, decided = self.versus.get((a, b), (0, 0))
        if not decided:
            return None
        return won / decided, wilson_interval(won, decided)

    def to_json(self) -> dict[str, object]:
        versus = []
        for (a, b), (won, decided) in self.versus.items():
            h = self.head_to_head(a, b)
            versus.append({"kind": a, "against": b, "ahead": won, "decided": decided,
                           "rate": h[0] if h else None, "ci": list(h[1]) if h else None})
        return {"kinds": [k.to_json() for k in self.kinds], "versus": versus,
                "spread": self.spread}


def skill_table(rows: Sequence[RaceSummary], kinds: Sequence[str]) -> SkillTable | None:
    """The skill table of the bot kinds ``kinds`` (in that order), None for fewer than two.

    Head to head, a race counts for kind a against kind b when both drove in it and their
    best chariots did not tie (a chariot placed beats one that is not; two unplaced tie);
    one count per race, so the races are independent trials."""
    kinds = list(dict.fromkeys(kinds))
    if len(kinds) < 2 or not rows:
        return None
    groups = [_group(k, rows, [[c for c, x in enumerate(r.kinds) if x == k] for r in rows])
              for k in kinds]
    versus: dict[tuple[str, str], tuple[int, int]] = {}
    for a in kinds:
        for b in kinds:
            if a == b:
                continue
            won = decided = 0
            for r in rows:
                pa, pb = _best(r, a), _best(r, b)
                if pa is None or pb is None or pa == pb:
                    continue
                decided += 1
                won += pa < pb
            versus[(a, b)] = (won, decided)
    return SkillTable(groups, versus)


UNPLACED = 1_000  # the place of a chariot with no place: behind every placed one


def _best(r: RaceSummary, kind: str) -> int | None:
    """The best place of the kind's chariots in the race (UNPLACED when none placed), None
    when the kind did not drive in it."""
    places = [UNPLACED if p is None else p
              for p, k in zip(r.places, r.kinds, strict=True) if k == kind]
    return min(places) if places else None
