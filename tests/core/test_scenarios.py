"""Rule scenarios in the race notation, each naming its source.

The test oval (courses/oval.yaml) has: grid places 1-3 on nodes 83, 84, 85 (progress 32) and
4-6 on 80, 81, 82 (31), right behind the line (83 → 0 crosses it); the alley 9 → 10 → 14 → 18
entered only from 5 (home.2.1); a wall between lanes 0 and 1 on the back straight
(40 → 43 → 46 in lane 0); the chicane 49, reached from 46, 47, 48 only; 22 (north.0.0) and
29 (north.1.2) both have progress 11, 19 (run-out.0.0) has 6.
Notation: pos,crossings,alley,hand,deck,played,status per chariot | turn idle ply end.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from avecaesar.engine.core.moves import walks, why_not
from avecaesar.engine.core.race import outcome
from avecaesar.engine.core.reasons import Reason
from avecaesar.engine.core.state import WAIT, Move, RaceGame, RaceState

S4 = "DiceTree 2022 rulebook (DE) S.4"
S5 = "DiceTree 2022 rulebook (DE) S.5"


def cards(state):
    return {m.card for m in state.legal_moves()}


def a_path(state, c, k):
    return next(walks(state, c, k))


@pytest.mark.covers("rule:six_rule.card", "rule:six_rule.forbidden_when")
def test_green_has_6_6_2_and_leads_alone_must_play_the_2(position):
    # "Grün liegt allein vorn und hat 6, 6, 2 auf der Hand – Grün muss die 2 spielen" S.5
    s = position("dicetree-2022", "22,1,c,266,-,5,r 19,1,c,345,-,4,r | A 0 2 -")
    assert cards(s) == {2}
    six = Move(6, a_path(s, 0, 6))
    assert six not in s.legal_moves()
    assert why_not(s, six) == Reason("lead_no", {"card": 6, "lead": Reason("lead")}, S5)


@pytest.mark.covers("rule:six_rule.only_sixes")
def test_only_sixes_skips_until_no_longer_leading(position):
    # "Hätte Grün nur 6, 6, 6, müsste Grün aussetzen, bis jemand ... vorbeifährt" S.5
    s = position("dicetree-2022", "22,1,c,666,-,5,r 19,1,c,555,-,4,r | A 0 2 -")
    moves = s.legal_moves()
    assert not moves and moves.skip_reason == "six_rule"
    events = s.skip("six_rule")
    assert events[0].kind == "skip" and s.hands[0] == (6, 6, 6) and s.turn == 1
    # Blue overtakes with its 5 ...
    best = max(s.legal_moves(), key=lambda m: s.game.board.progress[m.path[-1]])
    s.push(best)
    assert s.leaders() == [1]
    # ... and Green may play its 6 again
    assert cards(s) == {6}


@pytest.mark.covers("rule:six_rule.forbidden_when")
def test_joint_leaders_may_not_play_a_6(position, rules_of):
    # "Wer in Führung liegt, auch gemeinsam mit anderen, darf keine 6 spielen" S.5; 1989 and
    # 2006 say the same of joint leaders (Ravensburger 1989 regler (SV), Pro Ludo 2006 p.5)
    for edition in ("dicetree-2022", "ravensburger-1989", "pro-ludo-2006"):
        s = position(edition, "22,1,c,266,-,5,r 29,1,c,345,-,4,r | A 0 2 -")
        assert sorted(s.leaders()) == [0, 1]
        assert cards(s) == {2}, edition
        why = why_not(s, Move(6, a_path(s, 0, 6)))
        assert why is not None and why.code == "lead_no" and why.params == {
            "card": 6, "lead": Reason("lead_jointly")}, edition
    # a ruleset that binds only a sole leader lets joint leaders play it
    s = position("dicetree-2022", "22,1,c,266,-,5,r 29,1,c,345,-,4,r | A 0 2 -",
                 six_joint=False)
    assert cards(s) == {2, 6}


@pytest.mark.covers("rule:six_rule.at_start", "rule:start.rows")
def test_first_start_row_may_not_open_with_a_6_second_row_may(position):
    # "Aus der ersten Startreihe darf niemand mit einer 6 starten." S.5
    text = "83,0,c,126,-,-,r 84,0,c,123,-,-,r 85,0,c,234,-,-,r 80,0,c,666,-,-,r | {} 0 0 -"
    s = position("dicetree-2022", text.format("A"))
    assert cards(s) == {1, 2}
    assert why_not(s, Move(6, a_path(s, 0, 6))) == Reason("first_row", {"card": 6}, S5)
    d = position("dicetree-2022",
                 "84,0,c,126,-,1,r 85,0,c,123,-,1,r 4,1,c,234,-,3,r 80,0,c,666,-,-,r | D 0 3 -")
    assert cards(d) == {6}


@pytest.mark.covers("rule:six_rule.at_start")
def test_start_player_may_open_with_a_6(position):
    # 1989: "Startspelaren får använda 6" (Ravensburger 1989 regler (SV), En sexa på hand);
    # 2006: "Der Startspieler ... darf mit der ersten Karte eine 6 ausspielen" (p.5)
    text = "83,0,c,126,-,-,r 84,0,c,126,-,-,r 85,0,c,234,-,-,r | {} 0 0 -"
    for edition in ("ravensburger-1989", "pro-ludo-2006"):
        assert 6 in cards(position(edition, text.format("A")))
        assert 6 not in cards(position(edition, text.format("B")))  # a joint leader
    # only with the first card
    s = position("pro-ludo-2006", "0,1,c,126,-,3,r 84,0,c,126,-,-,r | A 0 2 -")
    assert 6 not in cards(s)


@pytest.mark.covers("rule:six_rule.chicane_exception")
def test_leader_on_a_chicane_blocking_the_game_may_play_a_6(position):
    # "Er steht auf einer Schikane und blockiert damit das Spiel" S.5
    blocking = "49,1,c,666,-,5,r 47,1,c,111,-,4,r | A 0 2 -"
    assert cards(position("dicetree-2022", blocking)) == {6}
    free = "49,1,c,666,-,5,r 22,1,c,111,-,4,r | A 0 2 -"
    s = position("dicetree-2022", free)
    assert not s.legal_moves() and s.legal_moves().skip_reason == "six_rule"
    # 1989: on a chicane is enough ("if the leader cannot be passed (e.g., narrow lane)")
    assert cards(position("ravensburger-1989", free)) == {6}


@pytest.mark.covers("rule:six_rule.joint_leader_exception")
def test_joint_leaders_both_only_sixes_blocking_one_may_play_a_6(position):
    # "wenn er gemeinsam mit einem Spieler führt, der ebenfalls nur 6er hat, und beide die
    # Bahn versperren – dann darf einer von beiden eine 6 spielen" S.5; 1989 "Superblockad",
    # 2006 p.5
    blocked = "47,1,c,666,-,5,r 48,1,c,666,-,5,r 44,1,c,111,-,4,r | A 0 2 -"
    free = "47,1,c,666,-,5,r 48,1,c,666,-,5,r 19,1,c,111,-,4,r | A 0 2 -"
    for edition in ("dicetree-2022", "ravensburger-1989", "pro-ludo-2006"):
        assert cards(position(edition, blocked)) == {6}, edition
        assert not position(edition, free).legal_moves(), edition


@pytest.mark.covers("rule:six_rule.ends_when")
def test_six_rule_ends_when_the_first_chariot_has_finished(position):
    # "Sobald das erste Gespann im Ziel ist, gilt die 6er-Regel nicht mehr." S.5
    text = "22,3,s,266,-,5,r -,4,s,-,-,4,f | A 0 90 - B"
    assert cards(position("dicetree-2022", text)) == {2, 6}
    # 2006: "für den Rest des Spiels" (Pro Ludo 2006 Spielregel (DE) p.5) — the rule does
    # not end, but a finisher is ahead of every chariot still racing (leader.finishers_lead,
    # test_readings.py), so a chariot behind it does not lead
    text = "22,3,s,266,-,5,r -,4,s,-,-,4,f 19,3,s,111,-,4,r | A 0 90 - B"
    assert cards(position("pro-ludo-2006", text, finishers_lead=False)) == {2}
    assert cards(position("pro-ludo-2006", text)) == {2, 6}


@pytest.mark.covers("rule:turns.no_move")
def test_skip_when_no_card_can_be_moved_in_full_keeps_the_cards(position):
    # "setzt du aus und gibst dabei keine Karte ab" S.4-5
    s = position("dicetree-2022", "46,1,c,123,45,6,r 49,1,c,111,-,4,r | A 0 2 -")
    moves = s.legal_moves()
    assert not moves and moves.skip_reason == "blocked" and len(moves) == 0
    s.skip("blocked")
    assert s.hands[0] == (1, 2, 3) and s.decks[0] == (4, 5) and s.turn == 1


@pytest.mark.covers("rule:turns.exact_move")
def test_no_jumping_and_no_lane_change_across_a_wall(position):
    # no jumping over a taken space S.4; walls: no lane change across a wall S.4
    s = position("dicetree-2022", "43,1,c,123,-,6,r 49,1,c,111,-,4,r | A 0 2 -")
    assert why_not(s, Move(3, (46, 49, 50))) == Reason("taken", {"space": 49}, S4)
    assert cards(s) == {1}
    w = position("dicetree-2022", "40,1,c,123,-,6,r 19,1,c,111,-,4,r | A 0 2 -")
    assert why_not(w, Move(1, (44,))) == Reason("not_forward", {"to": 44, "start": 40}, S4)
    assert why_not(w, Move(1, (43,))) is None
    assert why_not(w, Move(2, (43,))) == Reason("exact_not", {"card": 2, "steps": 1}, S4)
    assert why_not(w, Move(4, (43,))) == Reason("no_card", {"card": 4})


@pytest.mark.covers("rule:turns.must_play")
def test_zugzwang_every_card_that_can_move_in_full_is_offered(position):
    # "if any card can be moved in full you must play one" S.4: no wait, no pass
    s = position("dicetree-2022", "19,1,c,135,-,6,r 46,1,c,111,-,4,r | A 0 2 -")
    assert cards(s) == {1, 3, 5}
    assert WAIT not in s.legal_moves()
    why = why_not(s, WAIT)
    assert why is not None and why.code == "must_play" and why.cite == S4
    # every move is a walk of exactly k edges through free spaces
    succ = s.game.board.succ
    for m in s.legal_moves():
        assert len(m.path) == m.card
        node = 19
        for n in m.path:
            assert n in dict(succ[node]) and n != 46
            node = n


@pytest.mark.covers("rule:alley.laps", "rule:alley.tribute")
def test_alley_stop_made_by_landing_not_by_driving_through(position):
    # "Driving through without stopping does not count" S.6 (in lap 2: the window is laps
    # 2-3, test_readings.py)
    s = position("dicetree-2022", "5,2,c,136,-,6,r 22,1,c,111,-,4,r | A 0 2 -")
    events = s.push(Move(1, (9,)))
    assert [e.kind for e in events if e.kind == "alley_stop"] == ["alley_stop"]
    assert s.stopped[0]
    t = position("dicetree-2022", "5,2,c,136,-,6,r 22,1,c,111,-,4,r | A 0 2 -")
    t.push(Move(6, (9, 10, 14, 18, 21, 24)))
    assert not t.stopped[0]


@pytest.mark.covers("rule:alley.must_stop", "rule:alley.no_stop",
                    "rule:disqualification.may_finish")
def test_no_alley_stop_disqualifies_but_the_chariot_may_finish(position):
    # disqualified: "may finish, no points" S.6 (Ravensburger 1989 regler (SV) B, 2006 IV);
    # 1989's window ends with lap 2, so crossing into lap 3 without the stop disqualifies
    s = position("ravensburger-1989", "83,2,c,123,-,6,r 22,1,c,111,-,4,r | A 0 2 -")
    events = s.push(Move(1, (0,)))
    assert "disqualified" in [e.kind for e in events]
    assert s.dq[0] and s.status[0] == "r"


@pytest.mark.covers("rule:alley.wait_laps", "rule:alley.blocked_last_chance")
def test_2022_blocked_alley_in_lap_2_may_wait(position, oval):
    # "Ist die Zufahrt in der zweiten Runde versperrt, darfst du aussetzen" S.6: the wait is
    # offered in the chariot's second lap, whichever reading of the window is chosen, and in
    # no other lap
    from avecaesar.engine.core.ruleset_adapter import rules_from_ruleset
    from avecaesar.engine.core.state import RaceGame, RaceState
    from avecaesar.engine.ruleset.load import load_ruleset

    for variants in ([], ["dicetree-2022-alley-laps-1-2"]):
        rules = rules_from_ruleset(load_ruleset("dicetree-2022", variants))
        assert rules.alley_wait_laps == (2,)
        game = RaceGame(rules, oval, ("A", "B"))
        s = RaceState.parse(game, "2,2,c,222,-,6,r 5,2,s,111,-,4,r | A 0 2 -")
        assert WAIT in s.legal_moves() and len(s.legal_moves()) > 1, variants
        s.push(WAIT)
        assert s.turn == 1 and s.hands[0] == (2, 2, 2)
    # lap 3 under the default window (laps 2-3): the sentence names lap 2 only
    t = position("dicetree-2022", "2,3,c,222,-,6,r 5,3,s,111,-,4,r | A 0 2 -")
    assert WAIT not in t.legal_moves() and t.legal_moves()
    # lap 1 under the 1-2 reading: a later chance remains, no wait
    early = rules_from_ruleset(load_ruleset("dicetree-2022", ["dicetree-2022-alley-laps-1-2"]))
    u = RaceState.parse(RaceGame(early, oval, ("A", "B")),
                        "2,1,c,222,-,6,r 5,1,s,111,-,4,r | A 0 2 -")
    assert WAIT not in u.legal_moves()


@pytest.mark.covers("rule:alley.blocked_last_chance")
def test_blocked_alley_on_the_last_chance_must_wait(position):
    # 1989: "must wait (miss turns) until free"; 2006 IV: "must skip until the access is free"
    s = position("ravensburger-1989", "2,2,c,222,-,6,r 5,2,s,111,-,4,r | A 0 2 -")
    moves = s.legal_moves()
    assert not moves and moves.skip_reason == "alley_blocked"
    assert why_not(s, Move(2, (4, 7))) == Reason(
        "alley_wait", {}, "Ravensburger 1989 rules (EN summary), The Imperial Alley")
    # in lap 1 there is a next chance: driving past is allowed
    assert position("ravensburger-1989", "2,1,c,222,-,6,r 5,2,s,111,-,4,r | A 0 2 -"
                    ).legal_moves()


def test_cards_that_overshoot_the_alley_are_no_block(position):
    # waiting is for a blocked alley (Ravensburger 1989 rules (EN summary), The Imperial
    # Alley); a hand that cannot stop there even on an empty track must drive on
    s = position("ravensburger-1989", "2,2,c,666,-,6,r 22,2,s,111,-,4,r | A 0 2 -")
    assert cards(s) == {6}
    t = position("dicetree-2022", "2,2,c,666,-,6,r 22,2,s,111,-,4,r | A 0 2 -")
    assert WAIT not in t.legal_moves()


@pytest.mark.covers("rule:finish.overshoot", "rule:race.laps")
def test_crossing_the_line_after_the_last_lap_steps_beyond_lapse(position):
    # "Steps beyond the line lapse" (Pro Ludo 2006 Spielregel (DE) V; 1989 SV "Nå målet")
    s = position("dicetree-2022", "83,3,s,5,-,6,r 22,1,c,111,-,4,r | A 0 2 -")
    assert {m.path for m in s.legal_moves()} == {(0,), (1,)}
    events = s.push(Move(5, (0,)))
    assert [e.kind for e in events][-1] == "finish"
    assert s.status[0] == "f" and s.pos[0] is None and s.finish_order == [0]


@pytest.mark.covers("rule:out_of_cards.effect")
def test_running_out_of_cards_removes_the_chariot(position):
    # "Running out of cards before the finish: the chariot is removed and scores 0" S.5
    s = position("dicetree-2022", "22,1,s,2,-,6,r 19,1,c,111,-,4,r | A 0 2 -")
    events = s.push(Move(2, a_path(s, 0, 2)))
    assert ("removed", {"reason": "out_of_cards"}) in [(e.kind, e.data) for e in events]
    assert s.status[0] == "x"
    a = next(p for p in outcome(s).placings if p.chariot == 0)
    assert a.removed and a.points == 0 and a.place is None


@pytest.mark.covers("rule:disqualification.keeps_place", "rule:scoring.disqualified")
def test_anna_ben_clara_disqualified_second_keeps_the_place(position):
    # "Anna kommt als Erste ins Ziel (8 Punkte). Ben wird Zweiter, hat aber vergessen, in der
    # Gasse zu halten: disqualifiziert, 0 Punkte. Clara wird Dritte und bekommt 4 Punkte –
    # nicht 6, denn Ben behält seinen Platz" S.7
    text = "-,4,s,-,-,6,f -,4,c,-,-,6,fq -,4,s,-,-,6,f | A 0 90 finished ABC"
    res = outcome(position("dicetree-2022", text))
    got = [(p.chariot, p.place, p.points) for p in res.placings]
    assert got == [(0, 1, 8), (1, 2, 0), (2, 3, 4)]
    # where those behind move up (a ruleset saying keeps_place false), Clara is second
    res = outcome(position("dicetree-2022", text, dq_keeps_place=False))
    assert [(p.chariot, p.place, p.points) for p in res.placings] == [
        (0, 1, 8), (2, 2, 6), (1, None, 0)]


@pytest.mark.covers("rule:scoring.places", "rule:scoring.method")
def test_scoring_tables_by_edition(position):
    # 8-6-4-3-2-1 (S.7); 6-4-3-2-1-0 (Ravensburger 1989 rules (EN summary), Scoring)
    text = ("-,4,s,-,-,6,f -,4,s,-,-,6,f -,4,s,-,-,6,f -,4,s,-,-,6,f -,4,s,-,-,6,f "
            "-,4,s,-,-,6,f | A 0 90 finished ABCDEF")
    assert [p.points for p in outcome(position("dicetree-2022", text)).placings] == [
        8, 6, 4, 3, 2, 1]
    assert [p.points for p in outcome(position("ravensburger-1989", text)).placings] == [
        6, 4, 3, 2, 1, 0]


def test_deadlock_a_round_without_a_move_ends_the_race(position):
    # the project's deadlock rule (docs/engine.md): nothing can change any more
    s = position("dicetree-2022", "46,1,c,1,-,5,r 49,1,c,666,-,4,r | A 0 2 -",
                 six_chicane=None)
    s.skip(s.legal_moves().skip_reason)
    assert not s.over
    events = s.skip(s.legal_moves().skip_reason)
    assert s.end == "deadlock" and events[-1].kind == "end"
    assert all(p.points == 0 and p.place is None for p in outcome(s).placings)


@pytest.mark.covers("rule:leader.measure")
def test_leader_by_race_progress_counts_laps(position):
    # race progress = laps done × lap value + progress (DESIGN "A course is a lane graph")
    s = position("dicetree-2022", "19,2,c,111,-,5,r 36,1,c,111,-,4,r | A 0 2 -")
    assert s.race_progress(0) == 32 + 6 and s.race_progress(1) == 14
    assert s.leaders() == [0]


@pytest.mark.covers("rule:ownerless.when", "rule:ownerless.move", "rule:ownerless.unusable_card")
def test_top_card_chariot_unusable_card_goes_under_the_deck(position):
    # 1989 non-player chariots: "own deck, no hand: play the top card"; a card it cannot use
    # "goes back under the deck, no move" (Ravensburger 1989 rules (EN summary),
    # Non-Player Chariots)
    s = position("ravensburger-1989", "49,1,c,123,-,6,r 43,1,c,-,3512,4,r | B 0 2 -",
                 ownerless="B")
    moves = s.legal_moves()
    assert not moves and moves.skip_reason == "blocked"  # 43-46-49: the chicane is taken
    s.skip(moves.skip_reason)
    assert s.decks[1] == (5, 1, 2, 3) and s.pos[1] == 43 and s.turn == 0
    s.turn = 1
    assert why_not(s, Move(1, (46,))) == Reason("top_card", {"card": 1})


@pytest.mark.covers("rule:ownerless.six_rule", "rule:ownerless.draws_when_blocked")
def test_ownerless_chariot_discards_an_unusable_card_and_a_6_while_leading(position):
    # 2006 "herrenlose Gespanne": the unusable card is discarded, no move; a 6 drawn while
    # leading is discarded (Pro Ludo 2006 Spielregel (DE) VII)
    s = position("pro-ludo-2006+ownerless", "19,1,c,123,-,6,r 22,1,c,-,612,4,r | B 0 2 -",
                 ownerless="B")
    moves = s.legal_moves()
    assert not moves and moves.skip_reason == "six_rule"
    s.skip(moves.skip_reason)
    assert s.decks[1] == (1, 2) and s.played[1] == (4, 6) and s.pos[1] == 22
    # fully blocked: no card is drawn ("wird auch keine Karte abgehoben")
    t = position("pro-ludo-2006+ownerless", "49,1,c,123,-,6,r 46,1,c,-,612,4,r | B 0 2 -",
                 ownerless="B")
    t.skip(t.legal_moves().skip_reason)
    assert t.decks[1] == (6, 1, 2) and t.played[1] == (4,)


@pytest.mark.covers("rule:ownerless.scores", "rule:ownerless.occupies_places")
def test_ownerless_chariots_take_places_but_score_nothing(position):
    # 1989: "none, but occupies finishing places" (Ravensburger 1989 rules (EN summary),
    # Scoring)
    text = "-,4,s,-,-,6,f -,4,s,-,-,6,f -,4,s,-,-,6,f | A 0 90 finished BAC"
    res = outcome(position("ravensburger-1989", text, ownerless="B"))
    assert [(p.chariot, p.place, p.points) for p in res.placings] == [
        (1, 1, 0), (0, 2, 4), (2, 3, 3)]


@pytest.mark.covers("rule:ownerless.scores")
def test_ownerless_chariots_score_their_place_where_a_house_rule_says_so(oval, rules_of):
    # every edition says they score nothing (above); a house rule `ownerless.scores: true`
    # gives the chariot nobody drives its place's points, as a player would have them
    rules = rules_of("ravensburger-1989")
    assert rules.ownerless is not None
    scoring = replace(rules, ownerless=replace(rules.ownerless, scores=True))
    game = RaceGame(scoring, oval, ("A", "B", "C"), (False, True, False))
    text = "-,4,s,-,-,6,f -,4,s,-,-,6,f -,4,s,-,-,6,f | A 0 90 finished BAC"
    res = outcome(RaceState.parse(game, text))
    assert [(p.chariot, p.place, p.points) for p in res.placings] == [
        (1, 1, 6), (0, 2, 4), (2, 3, 3)]


@pytest.mark.covers("rule:hand.size")
def test_play_one_card_and_draw_back_to_three(position):
    # "Hand of 3 cards; on your turn play one, move exactly that many spaces, draw back to 3"
    # S.4 (Ravensburger 1989 rules (EN summary), Turn Structure)
    s = position("dicetree-2022", "19,1,c,135,624,6,r 46,1,c,111,-,4,r | A 0 2 -")
    s.push(Move(3, a_path(s, 0, 3)))
    assert s.hands[0] == (1, 5, 6) and s.decks[0] == (2, 4) and s.played[0] == (6, 3)
    # four hand cards where a ruleset says so (option "4 Handkarten", S.8-12)
    t = position("dicetree-2022", "19,1,c,1355,624,6,r 46,1,c,111,-,4,r | A 0 2 -",
                 hand_size=4)
    t.push(Move(3, a_path(t, 0, 3)))
    assert t.hands[0] == (1, 5, 5, 6)


@pytest.mark.covers("rule:alley.overtaking")
def test_no_overtaking_in_the_alley(position):
    # "Several chariots may be in the alley, one per space, no overtaking in it" S.6
    s = position("dicetree-2022", "9,1,c,123,-,6,r 10,1,s,111,-,4,r | A 0 2 -")
    assert not s.legal_moves() and s.legal_moves().skip_reason == "blocked"
    assert why_not(s, Move(2, (10, 14))) == Reason("taken", {"space": 10}, S4)


def test_alley_exit_blocked_those_in_the_alley_wait(position):
    # "alley exit blocked: those in the alley wait" (Ravensburger 1989 regler (SV), A)
    s = position("ravensburger-1989", "18,1,s,123,-,6,r 21,1,c,111,-,4,r | A 0 2 -")
    assert not s.legal_moves()


@pytest.mark.covers("rule:start.order", "rule:start.ties", "rule:start.reshuffle_after")
def test_start_order_highest_card_takes_place_1_ties_redraw():
    # "each reveals a top card, highest takes start place 1, the others follow clockwise;
    # ties redraw" (S.2; Ravensburger 1989 rules (EN summary), Setup)
    import random

    from avecaesar.engine.core.race import start_order

    deck = [v for v in range(1, 7) for _ in range(4)]
    for seed in range(200):
        order, reveals = start_order(random.Random(seed), deck, 4)
        first = order[0]
        assert order == [(first + i) % 4 for i in range(4)]  # clockwise from the winner
        assert max(reveals[0]) == reveals[0][first] or len(reveals) > 1
        for shown in reveals[:-1]:  # every earlier round was a tie for the highest card
            assert shown.count(max(shown)) > 1
        assert reveals[-1].count(max(reveals[-1])) == 1


@pytest.mark.covers("rule:water.ditches")
def test_water_ditch_is_jumped_over_without_counting_or_is_a_space():
    # DE: "Wassergräben gelten grundsätzlich nicht als bespielbares Feld und müssen daher
    # übersprungen werden, ohne es mitzuzählen" (Pro Ludo 2006 Spielregel (DE) p.5);
    # PT: decoration only (Pro Ludo 2006 rules (PT) III)
    from pathlib import Path

    from avecaesar.engine.core.race_setup import race_setup as load_race_setup
    from avecaesar.engine.core.state import LETTERS, RaceGame, RaceState

    course = str(Path(__file__).parent / "courses" / "oval-water.yaml")
    keep = {"disqualification.keeps_place": "false"}
    text = "51,1,c,111,-,6,r 22,1,c,111,-,4,r | A 0 2 -"
    de_rules, de_board = load_race_setup("pro-ludo-2006", [], keep, course)
    pt_rules, pt_board = load_race_setup("pro-ludo-2006", ["pro-ludo-2006-water-pt"], keep,
                                         course)
    de = RaceState.parse(RaceGame(de_rules, de_board, tuple(LETTERS[:2])), text)
    pt = RaceState.parse(RaceGame(pt_rules, pt_board, tuple(LETTERS[:2])), text)
    # 54 is the ditch: one step from 51 lands beyond it (56, 57, 58) or beside it
    assert {m.path for m in de.legal_moves()} == {(53,), (55,), (56,), (57,), (58,)}
    assert {m.path for m in pt.legal_moves()} == {(53,), (54,), (55,)}


@pytest.mark.covers("rule:ownerless.position_moves", "rule:ownerless.turn_order")
def test_team_gladiator_2_4_6_rule_and_turn_order(position):
    # "Im ersten Zug zieht jedes TG-Gespann um den Wert einer aufgedeckten Karte des
    # TG-Decks; danach gilt die 2-4-6-Regel: führend 2 Felder, im Mittelfeld 4, an letzter
    # Stelle 6 ... Das bestplatzierte TG-Gespann zieht zuerst." S.8-9 (variant 1)
    text = ("36,1,c,123,-,4,r 22,1,c,123,-,4,r 40,1,c,-,-,3,r 19,1,c,-,-,3,r "
            "3,1,c,-,5,-,r | B 0 5 -")
    s = position("dicetree-2022+team-gladiator", text, ownerless="CDE")
    assert s.cards(2) == (2,)  # C leads (40: progress 15)
    assert s.cards(4) == (5,)  # E still has its revealed card
    assert s.position_move(3) == 4 and s.position_move(4) == 6  # D midfield, E last
    # after the last player (B) the team moves, best placed first: C, D, E
    s.push(next(iter(s.legal_moves())))
    assert s.turn == 2 and s.queue == (3, 4)
    s.push(next(iter(s.legal_moves())))
    assert s.turn == 3
    again = type(s).parse(s.game, s.notation())
    assert again.queue == (4,) and again.notation() == s.notation()
