"""No race ends frozen (issue 10): a CI-sized slice of the deadlock count.

The full count — 3,000 seeded races per edition with greedy and with random bots — is
``bench/bench_deadlocks.py`` (figures in docs/simulation.md). Here each edition races on its
own bundled courses in turn (race i on course i mod n, seed i), 6 chariots.
"""

from __future__ import annotations

import pytest

from avecaesar.engine.course.load import _bundled_ids
from avecaesar.engine.lab.deadlocks import count_deadlocks

EDITIONS = ("ravensburger-1989", "pro-ludo-2006", "dicetree-2022")


def courses_of(edition: str) -> list[str]:
    return [c for c in _bundled_ids() if c.startswith(edition + "/")]


@pytest.mark.parametrize("edition", EDITIONS)
def test_greedy_races_never_deadlock(edition: str) -> None:
    n = count_deadlocks(edition, courses_of(edition), "greedy", races=120)
    assert n.races == 120
    assert n.deadlocked == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_random_races_practically_never_deadlock(edition: str) -> None:
    n = count_deadlocks(edition, courses_of(edition), "random", races=60, first_seed=1000)
    assert n.deadlocked == []


def test_the_deadlock_safety_net_still_ends_a_frozen_race(position) -> None:
    # without the readings a lone leader holding only sixes freezes: the race ends in
    # deadlock, and every chariot still racing scores as not finished
    from avecaesar.engine.core.race import outcome

    s = position("pro-ludo-2006", "22,2,s,666,1,5,r -,2,c,-,-,4,x | A 0 90 -", six_free=None)
    assert not s.legal_moves() and s.legal_moves().skip_reason == "six_rule"
    s.skip("six_rule")
    assert s.end == "deadlock"
    assert outcome(s).termination == "deadlock"
    # with the reading the same position goes on
    t = position("pro-ludo-2006", "22,2,s,666,1,5,r -,2,c,-,-,4,x | A 0 90 -")
    assert {m.card for m in t.legal_moves()} == {6}
