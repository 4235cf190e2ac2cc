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


def test_an_ownerless_chariot_that_a_card_of_its_deck_still_moves_is_no_freeze() -> None:
    """Ravensburger 1989's chariots no player drives put an unusable top card under the deck
    ("goes back under the deck, no move": Ravensburger 1989 rules (EN summary)). Every other
    chariot is stuck here (the leader A on a chicane under the house ban, B and C, D, E
    blocked), but F's deck still holds a 1 that moves it: its skip turns the deck, so the
    race is not frozen — the deadlock rule starts counting again instead of firing before
    that card comes up (a bench race of `no-1-on-chicane` used to end so)."""
    from avecaesar.engine.bots.registry import OWNERLESS, make_policy
    from avecaesar.engine.core.race import play_turn
    from avecaesar.engine.core.race_setup import ChosenRules
    from avecaesar.engine.core.state import RaceGame, RaceState

    setup = ChosenRules.compose("ravensburger-1989", ["rulesets/examples/no-1-on-chicane.yaml"]
                                ).on("ravensburger-1989/b-red")
    game = RaceGame(setup.race_rules, setup.board, tuple("ABCDEF"), (False, False) + (True,) * 4)
    s = RaceState.parse(game, (
        "76,2,s,166,2165423,46544231523315,r 70,2,s,166,45523,1154344523231626,r "
        "74,2,s,-,133151664,324214564235562,r 72,2,s,-,3232162453,56342455141616,r "
        "71,2,c,-,413462162,566135524324531,r 73,2,s,-,35134551,2464412313235626,r "
        "| F 3 105 -"))
    assert not s.legal_moves()  # F's top card, a 3, cannot move
    turns = [play_turn(s, None, OWNERLESS)]
    assert "skip" in turns[0] and s.idle == 0  # the deck turned: counting starts again
    greedy = make_policy("greedy", 1)
    while s.end is None and "move" not in turns[-1]:
        turns.append(play_turn(s, greedy, OWNERLESS))
    assert s.end is None, s.notation()  # someone moves: it was never frozen
