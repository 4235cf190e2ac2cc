"""The 6-card release (issue 20): a leader is freed only where the rule would freeze it.

Every edition's exception is for a leader holding only sixes: "Hat der in Führung
gegangene Spieler an solch einer Stelle dreimal eine 6, so darf er …" (Pro Ludo 2006
Spielregel (DE) p.5); "if the leader cannot be passed (e.g., narrow lane) and has only 6s"
(Ravensburger 1989 rules (EN summary), Leader restriction); "Ausnahmen für einen Führenden
mit nur 6ern" and "Grün liegt allein vorn und hat 6, 6, 2 – Grün muss die 2 spielen"
(DiceTree 2022 rulebook (DE) S.5). Read: (a) a leader with only sixes that cannot be
passed is free; (b) a leader with no other chariot still racing on the track is free
whatever its hand; a mixed hand is bound, even when the chariot behind it is stuck.

The test oval (courses/oval.yaml): the chicane 49 is reached from 46, 47, 48 only, so a
chariot on 46 holding only a 3 cannot move while 49 is taken; 22 is ahead of 19.
"""

from __future__ import annotations

import pytest

from avecaesar.engine.core.moves import walks, why_not
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.reasons import Reason
from avecaesar.engine.core.rule_values import CardRestriction
from avecaesar.engine.core.state import Move, RaceGame, RaceState
from avecaesar.engine.core.types import LETTERS
from avecaesar.engine.ruleset.load import load_ruleset

EDITIONS = ("ravensburger-1989", "pro-ludo-2006", "dicetree-2022")
pytestmark = pytest.mark.covers("rule:six_rule.free_when")


def cards(state):
    return {m.card for m in state.legal_moves()}


def on_course(edition, course, text, overrides=None):
    rules, board = race_setup(edition, [], overrides or {}, course)
    n = len(text.split("|")[0].split())
    return RaceState.parse(RaceGame(rules, board, tuple(LETTERS[:n])), text)


def test_the_release_is_data_in_the_same_grammar_as_card_restrictions():
    for edition in EDITIONS:
        rs = load_ruleset(edition)
        assert rs.value("six_rule.free_when") == [
            {"any": [{"all": ["only_sixes_in_hand", "cannot_be_passed"]}, "alone_on_track"]}]
        assert "only sixes" in rs.rule("six_rule.free_when")["reading"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_green_6_6_2_alone_in_front_with_the_chariot_behind_stuck_must_play_the_2(
        position, edition):
    # "Grün liegt allein vorn und hat 6, 6, 2 – Grün muss die 2 spielen" (DiceTree 2022
    # rulebook (DE) S.5), here with the chariot behind unable to move: B on 46 holds a 3,
    # and every 3 from 46 runs through the chicane 49 that A holds
    s = position(edition, "49,2,s,266,1,5,r 46,2,s,3,-,4,r | A 0 90 -")
    assert s.leaders() == [0]
    assert cards(s) == {2}
    why = why_not(s, Move(6, next(walks(s, 0, 6))))
    assert why is not None and why.code == "lead_no" and why.params == {
        "card": 6, "lead": Reason("lead")}


@pytest.mark.parametrize("edition", EDITIONS)
def test_1_3_6_with_the_chariot_behind_stuck_plays_the_1_or_the_3(position, edition):
    # a leader holding another card cannot freeze the game (Pro Ludo 2006 Spielregel (DE)
    # p.5: "dreimal eine 6"; Ravensburger 1989 rules (EN summary), Leader restriction:
    # "has only 6s"): bound
    s = position(edition, "49,2,s,136,1,5,r 46,2,s,3,-,4,r | A 0 90 -")
    assert cards(s) == {1, 3}
    # the same leader with only sixes and nobody able to pass it is free (a)
    only = position(edition, "49,2,s,666,1,5,r 46,2,s,3,-,4,r | A 0 90 -")
    assert cards(only) == {6}


@pytest.mark.parametrize("edition", EDITIONS)
def test_alone_on_the_track_a_leader_is_free_whatever_its_hand(position, edition):
    # (b): nothing is left to pass it; without this a lone survivor with only sixes, or one
    # whose other cards are blocked, would wait forever
    alone = "22,2,s,126,1,5,r -,2,c,-,-,4,x | A 0 90 -"
    assert cards(position(edition, alone)) == {1, 2, 6}
    # another chariot still racing on the track, able to move: the mixed hand is bound
    behind = "22,2,s,126,1,5,r 19,2,s,111,-,4,r | A 0 90 -"
    assert cards(position(edition, behind)) == {1, 2}


def test_2006_seed_110_ply_26_offers_the_5s_only():
    # the re-check's position (pro-ludo-2006/circus-maximus, 2 random bots, seed 110, ply
    # 26): A on narrow-1.1.0 with 5, 6, 6, B behind blocked. "dreimal eine 6" (Pro Ludo 2006
    # Spielregel (DE) p.5): A holds a 5, so the 6s stay forbidden: 4 moves, not 10
    text = "27,2,c,566,163223223,465514544131,r 23,2,c,345,163654431,621612554223,r | A 1 26 - -"
    s = on_course("pro-ludo-2006", "pro-ludo-2006/circus-maximus", text)
    assert s.game.board.label[27] == "narrow-1.1.0"
    assert len(s.legal_moves()) == 4 and cards(s) == {5}
    old = on_course("pro-ludo-2006", "pro-ludo-2006/circus-maximus", text,
                    {"six_rule.free_when": "[cannot_be_passed]"})
    assert len(old.legal_moves()) == 10  # the old reading's release, for the record


def test_2022_leader_in_the_alley_with_1_3_6_and_the_chariot_behind_stuck():
    # the re-check's 2022 case (seed 118): A leads alone on alley.1 with 1, 3, 6, B stuck on
    # alley.0 behind it (no overtaking in the alley). "Grün muss die 2 spielen" (DiceTree
    # 2022 rulebook (DE) S.5): a leader with another card plays it
    text = "16,2,c,136,-,5,r 15,2,c,245,-,4,r | A 0 18 - -"
    s = on_course("dicetree-2022", "dicetree-2022/arena-carthago", text)
    board = s.game.board
    assert (board.label[16], board.label[15]) == ("alley.1", "alley.0")
    assert cards(s) == {1, 3}
    b = s.copy()
    b.turn = 1
    assert not b.legal_moves()  # B is stuck
    old = on_course("dicetree-2022", "dicetree-2022/arena-carthago", text,
                    {"six_rule.free_when": "[cannot_be_passed]"})
    assert 6 in cards(old)


def test_six_rule_lists_take_all_any_not(rules_of):
    # the same grammar as card_restrictions: a group can write its own release
    from avecaesar.engine.core.ruleset_adapter import rules_from_ruleset

    rs = load_ruleset("pro-ludo-2006", [], {"six_rule.free_when":
                                            "[{not: {any: [leading_jointly, on_chicane]}}]"})
    rules = rules_from_ruleset(rs)
    assert rules.six_free == (("not", ("any", ("leading_jointly", "on_chicane"))),)
    leader = next(r for r in rules.card_restrictions if r.reason == "lead_no")
    assert isinstance(leader, CardRestriction)
    assert ("not", ("any", ("leading_jointly", "on_chicane"))) in leader.unless[1]
