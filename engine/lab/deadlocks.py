"""How often seeded races end in the deadlock safety net, per edition (issue 10).

Race ``i`` runs on the ``i mod len(courses)``-th course with seed ``i``; every chariot is
driven by the same kind of bot. Used by ``bench/bench_deadlocks.py`` (the full count) and by
the tests (a CI-sized slice).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from avecaesar.engine.bots.registry import OWNERLESS, make_policy
from avecaesar.engine.core.race import run_race
from avecaesar.engine.core.race_setup import ChosenRules

__all__ = ["DeadlockCount", "count_deadlocks"]


@dataclass
class DeadlockCount:
    """The races run and the seeds of those that ended in deadlock."""

    ruleset: str
    bot: str
    races: int = 0
    deadlocked: list[tuple[str, int]] = field(default_factory=list)  # (course, seed)

    @property
    def deadlocks(self) -> int:
        return len(self.deadlocked)

    @property
    def rate(self) -> float:
        return self.deadlocks / self.races if self.races else 0.0


def count_deadlocks(ruleset: str, courses: Sequence[str], bot: str, races: int,
                    chariots: int = 6, variants: Sequence[str] = (),
                    first_seed: int = 0) -> DeadlockCount:
    """Run ``races`` seeded races of ``chariots`` bots of kind ``bot`` (as many as a course
    has start places, if fewer); count the deadlocks."""
    chosen = ChosenRules.compose(ruleset, variants)
    setups = {c: chosen.on(c) for c in courses}
    out = DeadlockCount(ruleset, bot)
    for seed in range(first_seed, first_seed + races):
        course = courses[seed % len(courses)]
        rules, board = setups[course].race_rules, setups[course].board
        n = min(chariots, len(board.start_places))  # a 4-place board races 4
        names = [f"{bot}{i + 1}" for i in range(n)]
        policies = [make_policy(bot, seed * 100 + i) for i in range(n)]
        run = run_race(rules, board, names, policies, seed, ownerless=OWNERLESS)
        out.races += 1
        if run.outcome.termination == "deadlock":
            out.deadlocked.append((course, seed))
    return out
