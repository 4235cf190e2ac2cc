"""Scenarios for the rule keys no other scenario races (issue 20's rule map): the turn
order, the race going on after the winner, the points of a chariot that did not finish, a
chariot nobody drives running out of cards, and the ruleset check of race.max_chariots."""

from __future__ import annotations

import pytest

from avecaesar.engine.core.moves import walks
from avecaesar.engine.core.race import outcome
from avecaesar.engine.core.state import Move
from avecaesar.engine.core.types import Termination
from avecaesar.engine.ruleset.checks import rule_issues


@pytest.mark.covers("rule:turns.order")
def test_turns_go_round_in_start_place_order(position):
    # "in start place order" (DiceTree 2022 rulebook (DE) S.4; Pro Ludo 2006 Spielregel
    # (DE) III): A, B, C, then A again
    s = position("dicetree-2022", "22,1,c,111,-,5,r 19,1,c,111,-,4,r 10,1,c,111,-,4,r | A 0 2 -")
    seen = []
    for _ in range(4):
        seen.append(s.turn)
        s.push(Move(1, next(walks(s, s.turn, 1))))
    assert seen == [0, 1, 2, 0]


@pytest.mark.covers("rule:finish.others_continue", "rule:scoring.not_finished")
def test_the_others_race_on_after_the_winner_and_score_their_places(position):
    # "the others race on for places" (Pro Ludo 2006 Spielregel (DE) V); a chariot that does
    # not finish scores scoring.not_finished (0, DiceTree 2022 rulebook (DE) S.7)
    s = position("dicetree-2022", "83,3,s,5,-,6,r 22,3,s,111,-,4,r | A 0 90 -")
    s.push(Move(5, (0,)))
    assert s.finish_order == [0] and not s.over and s.turn == 1
    s.end = Termination.DEADLOCK  # B never finishes
    b = next(p for p in outcome(s).placings if p.chariot == 1)
    assert not b.finished and b.points == s.game.rules.not_finished_points == 0


@pytest.mark.covers("rule:ownerless.out_of_cards")
def test_a_chariot_nobody_drives_is_removed_when_its_deck_is_empty(position):
    # "Out of cards: removed" (Ravensburger 1989 rules (EN summary), Non-Player Chariots)
    s = position("ravensburger-1989", "22,1,c,111,-,5,r 19,1,c,-,1,4,r | B 0 2 -",
                 ownerless="B")
    assert s.game.rules.ownerless.runs_out
    s.push(Move(1, next(walks(s, 1, 1))))
    assert s.status[1] == "x"


@pytest.mark.covers("rule:race.max_chariots")
def test_players_max_may_not_exceed_race_max_chariots():
    rules = {"players": {"max": {"value": 7}}, "race": {"max_chariots": {"value": 6}}}
    found = [issue[1] for issue in rule_issues({"rules": rules}, complete=True)]
    assert "players.max (7) is more than race.max_chariots (6)" in found
