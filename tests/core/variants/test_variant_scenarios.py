"""One scenario per variant and option the texts name (docs/sources.md, "Where the editions
differ"), in the race notation, each naming its source. The oval
(tests/core/courses/oval.yaml): start places 83, 84, 85 / 80, 81, 82 right behind the line
(83 → 0 crosses it); the alley 9 → 10 → 14 → 18, entered only from 5;
the back straight's lane 0 runs 40 → 43 → 46 and only 46, 47, 48 reach the chicane 49, which
leads to 50, 51, 52. Notation: pos,crossings,alley,hand,deck,played,status per chariot |
turn idle ply end [finish order] [queue].
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from avecaesar.engine.bots.policies import greedy_policy
from avecaesar.engine.core.moves import why_not
from avecaesar.engine.core.race import new_race, outcome, run_race
from avecaesar.engine.core.reasons import Reason
from avecaesar.engine.core.ruleset_adapter import UnsupportedRuleError
from avecaesar.engine.core.state import WAIT, Move
from avecaesar.engine.data.errors import MissingRuleValueError

_spec = importlib.util.spec_from_file_location("variants_conftest",
                                               Path(__file__).with_name("conftest.py"))
_conf = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(_conf)  # type: ignore[union-attr]
race_rules, KEEPS_PLACE = _conf.race_rules, _conf.KEEPS_PLACE

R1989 = "Ravensburger 1989 rules (EN summary), Optional Variants"
S8_12 = "DiceTree 2022 rulebook (DE) S.8-12"

# A at 50, C at 51, D at 52 fill the three spaces behind the chicane 49; B at 46 can only
# drive one space (to 49) whatever its card.
BEHIND_THE_CHICANE = ("50,1,c,123,-,-,r 46,1,c,34,-,-,r 51,1,c,123,-,-,r 52,1,c,123,-,-,r "
                      "| B 0 4 -")


def step(s):
    """One turn: the first legal move, or the skip."""
    moves = s.legal_moves()
    return s.push(next(iter(moves))) if moves else s.skip(moves.skip_reason)


@pytest.mark.covers("rule:turns.no_move")
def test_lapse_movement_points_play_the_card_with_the_smallest_loss(position):
    """DiceTree 2022 rulebook (DE) S.8-12, option "Zugpunkte verfallen lassen": when no card
    can be moved in full, the card with the smallest loss must be played."""
    s = position(race_rules("dicetree-2022", ("lapse-movement-points",)), BEHIND_THE_CHICANE)
    assert list(s.legal_moves()) == [Move(3, (49,))]  # the 3 loses 2 points, the 4 loses 3
    assert why_not(s, Move(3, (49,))) is None
    why = why_not(s, Move(4, (49,)))
    assert why is not None and (why.code, why.params) == ("exact_not", {"card": 4, "steps": 1})
    events = s.push(Move(3, (49,)))
    assert s.pos[1] == 49 and s.hands[1] == (4,) and events[0].data["card"] == 3
    # without the option the chariot skips and keeps its cards
    plain = position(race_rules("dicetree-2022"), BEHIND_THE_CHICANE)
    assert not plain.legal_moves() and plain.legal_moves().skip_reason == "blocked"


def test_missed_turns_put_a_card_under_the_deck_and_draw_a_replacement(position):
    """Ravensburger 1989 rules (EN summary), Optional Variants: "on a missed turn put a card
    under your deck and draw a replacement" (the engine cycles the highest card)."""
    rules = race_rules("ravensburger-1989", ("missed-turns",), KEEPS_PLACE)
    s = position(rules, "49,1,c,123,-,-,r 46,1,c,345,12,-,r | B 0 4 -")
    assert not s.legal_moves()
    events = s.skip("blocked")
    assert [e.kind for e in events[:2]] == ["skip", "cycle"] and events[1].data["card"] == 5
    assert s.hands[1] == (1, 3, 4) and s.decks[1] == (2, 5)
    assert s.notation().split()[1] == "46,1,c,134,25,-,r"


@pytest.mark.covers("rule:six_rule.only_sixes")
def test_crash_and_burn_a_leader_with_only_sixes_crashes_and_blocks_the_space(position):
    """Ravensburger 1989 rules (EN summary), Optional Variants: "a leader with only 6s
    crashes and blocks that space for the rest of the race"."""
    rules = race_rules("dicetree-2022", ("crash-and-burn",))
    s = position(rules, "22,1,c,666,-,5,r 19,1,c,345,-,4,r | A 0 2 -")
    assert s.legal_moves().skip_reason == "six_rule"
    events = s.skip("six_rule")
    assert [e.kind for e in events] == ["skip", "crashed"]
    assert s.crashed(0) and s.status[0] == "x" and s.pos[0] == 22 and s.turn == 1
    assert 22 in s.occupied(but=1)
    assert all(22 not in m.path for m in s.legal_moves())
    assert s.notation().startswith("22,1,c,666,-,5,x ")


def test_crash_and_burn_no_points_if_the_wreck_stops_anyone_finishing(position):
    """Ravensburger 1989 rules (EN summary), Optional Variants: "if this stops anyone from
    finishing, no points are awarded". 2006 rules (6-rule for the whole race), without the
    chicane exception so the leader on the chicane crashes there: B can never pass. Without
    the readings too (issue 10): with them a chariot behind the finisher C does not lead and
    a leader nobody can pass is free, so A would not crash here."""
    rules = race_rules("pro-ludo-2006", ("crash-and-burn",), KEEPS_PLACE, six_chicane=None,
                       finishers_lead=False, six_free=None)
    s = position(rules, "49,2,s,666,-,5,r 46,2,s,111,-,4,r -,4,s,-,-,66,f | A 0 9 - C")
    s.skip(s.legal_moves().skip_reason)
    assert s.crashed(0)
    assert s.legal_moves().skip_reason == "blocked"
    s.skip("blocked")
    assert s.end == "deadlock"
    out = outcome(s)
    assert [p.points for p in out.placings] == [0, 0, 0]  # C finished first: no 6 points


@pytest.mark.covers("rule:alley.no_stop")
def test_dishonour_no_waiting_and_execution(position):
    """Ravensburger 1989 rules (EN summary), Optional Variants: blocked from the alley you
    must still move; failing to pay tribute is "execution", 0 points."""
    text = "5,2,c,111,-,-,r 9,2,s,123,-,-,r | A 0 4 -"
    base = position(race_rules("ravensburger-1989", (), KEEPS_PLACE), text)
    assert base.legal_moves().skip_reason == "alley_blocked"  # 1989: must wait
    rules = race_rules("ravensburger-1989", ("dishonour",), KEEPS_PLACE)
    s = position(rules, text)
    assert {m.path[-1] for m in s.legal_moves()} == {7, 8}  # no waiting
    # crossing into lap 3 without the stop: executed at once
    s = position(rules, "83,2,c,111,-,-,r 9,2,s,123,-,-,r | A 0 4 -")
    events = s.push(Move(1, (0,)))
    assert [e.kind for e in events][-2:] == ["disqualified", "removed"]
    assert events[-1].data["reason"] == "executed" and s.status[0] == "x"
    assert outcome(s).placings[-1].points == 0


@pytest.mark.covers("rule:alley.tribute", "rule:alley.race_card")
def test_alley_race_card_instead_of_the_coin(position):
    """DiceTree 2022 rulebook (DE) S.8-12, variant 3: pick up a face-down race card in the
    alley instead of the coin; no alley stop no longer disqualifies. The card's value is not
    in the sources: the test supplies alley.race_card=4."""
    with pytest.raises(MissingRuleValueError, match=r"alley.race_card"):
        race_rules("dicetree-2022", ("alley-race-card",))
    rules = race_rules("dicetree-2022", ("alley-race-card",), {"alley.race_card": "4"})
    s = position(rules, "5,2,c,123,56,-,r 19,1,c,123,-,-,r | A 0 4 -")  # lap 2: in the window
    events = s.push(Move(1, (9,)))
    assert [e.kind for e in events][1:3] == ["alley_stop", "alley_card"]
    assert s.hands[0] == (2, 3, 4) and s.decks[0] == (5, 6)
    s = position(rules, "83,3,c,111,-,-,r 9,2,s,123,-,-,r | A 0 4 -")
    s.push(Move(1, (0,)))  # finishes without the stop
    assert not s.dq[0] and s.status[0] == "f"


@pytest.mark.covers("rule:alley.blocked_last_chance")
def test_no_waiting_before_the_alley(position):
    """DiceTree 2022 rulebook (DE) S.8-12, option "kein Warten vor der Gasse"; 2022 itself
    lets a chariot wait (S.6)."""
    text = "5,2,c,111,-,-,r 9,2,s,123,-,-,r | A 0 4 -"  # lap 2: "in der zweiten Runde"
    assert WAIT in list(position(race_rules("dicetree-2022"), text).legal_moves())
    s = position(race_rules("dicetree-2022", ("no-waiting",)), text)
    assert WAIT not in list(s.legal_moves()) and s.legal_moves()


@pytest.mark.covers("rule:hand.size")
def test_four_hand_cards(oval):
    """DiceTree 2022 rulebook (DE) S.8-12, option: 4 hand cards instead of 3; also the
    reader homebrew (PT comments), comment 1."""
    rules = race_rules("dicetree-2022", ("four-hand-cards",))
    state, _ = new_race(rules, oval, ["a", "b", "c"], 5)
    assert all(len(h) == 4 for h in state.hands)
    played = state.push(next(iter(state.legal_moves())))
    assert played and len(state.hands[0]) == 4


@pytest.mark.covers("rule:ownerless.alley")
def test_team_gladiator_does_not_drive_through_the_alley(position, oval):
    """DiceTree 2022 rulebook (DE) S.8-9: "TG-Gespanne fahren nicht durch die Gasse"; they
    move by the 2-4-6 rule (B is last: 6 spaces)."""
    new_race(race_rules("dicetree-2022", ("team-gladiator",)), oval, ["a", "b"], 1)  # no --set
    rules = race_rules("dicetree-2022", ("team-gladiator",))
    assert rules.ownerless.alley == "avoid"
    s = position(rules, "20,1,c,123,-,1,r 5,1,c,-,-,3,r | B 0 2 -", ownerless="B")
    assert s.cards(1) == (6,)
    moves = list(s.legal_moves())
    board = s.game.board
    assert moves and all(not board.alley[n] for m in moves for n in m.path)
    through = next(p for p in board.paths(5, 6, 9) if board.alley[p[0]])
    why = why_not(s, Move(6, through))
    assert why is not None and why.code == "no_alley_drive"


@pytest.mark.covers("rule:players.chariots_per_player")
def test_several_chariots_per_player_needs_its_open_values(oval):
    """Pro Ludo 2006 Spielregel (DE) VII: "jeder der Spieler mit 2 oder 3 Gespannen" — the
    number and the turn order are the group's choice (--set)."""
    with pytest.raises(MissingRuleValueError, match=r"players.chariots_per_player"):
        race_rules("pro-ludo-2006", ("several-chariots-per-player",), KEEPS_PLACE)
    sets = {**KEEPS_PLACE, "players.chariots_per_player": "2",
            "teams.turn_order": "in_start_order", "teams.scoring": "all_chariots_score"}
    rules = race_rules("pro-ludo-2006", ("several-chariots-per-player",), sets)
    state, setup = new_race(rules, oval, ["ann", "bob", "cy"], 3)
    assert state.game.chariots == 6 and sorted(setup["seats"]) == list(range(6))
    assert [state.game.owners[c] for c in range(6)] == [s // 2 for s in setup["seats"]]
    assert state.choosable() == []  # in start order: no choice


@pytest.mark.covers("rule:teams.turn_order", "rule:teams.scoring")
def test_team_race_a_player_orders_own_chariots_and_all_chariots_score(oval):
    """DiceTree 2022 rulebook (DE) S.11, variant 5: 2 or 3 players drive 3 or 2 chariots
    with 2 hand cards each; each turn the player orders his own chariots; all chariots
    score."""
    rules = race_rules("dicetree-2022", ("dicetree-team-race",))
    state, _ = new_race(rules, oval, ["ann", "bob", "cy"], 7)
    owners = state.game.owners
    first = owners[state.turn]
    options = state.choosable()
    assert len(options) == 2 and {owners[c] for c in options} == {first}
    other = next(c for c in options if c != state.turn)
    state.choose(other)
    assert state.turn == other
    step(state)
    assert owners[state.turn] == first  # the player's second chariot moves next
    step(state)
    assert owners[state.turn] != first  # then the next player
    run = run_race(rules, oval, ["ann", "bob", "cy"], [greedy_policy] * 3, 7,
                   ownerless=greedy_policy)
    totals = dict(run.outcome.teams)
    for p, name in enumerate(["ann", "bob", "cy"]):
        mine = [x.points for x in run.outcome.placings if owners[x.chariot] == p]
        assert totals[name] == sum(mine)


def test_homebrew_team_pairs_team_total(oval):
    """reader homebrew (PT comments), comment 1: 3 players with 2 chariots each, the team's
    total decides. The turn order is open: the test supplies it."""
    with pytest.raises(MissingRuleValueError, match=r"teams.turn_order"):
        race_rules("pro-ludo-2006", ("homebrew-team-pairs",), KEEPS_PLACE)
    rules = race_rules("pro-ludo-2006", ("homebrew-team-pairs",),
                       {**KEEPS_PLACE, "teams.turn_order": "player_orders_own_chariots"})
    assert rules.team_scoring == "team_total" and rules.chariots_for(3) == 2
    run = run_race(rules, oval, ["a", "b", "c"], [greedy_policy] * 3, 2,
                   ownerless=greedy_policy)
    assert len(run.outcome.teams) == 3
    assert sum(x for _p, x in run.outcome.teams) == sum(p.points for p in run.outcome.placings)


def test_pro_ludo_team_race_individual_and_team_scoring(oval):
    """Pro Ludo 2006 Spielregel (DE) VII: a team race with individual and team scoring."""
    sets = {**KEEPS_PLACE, "players.chariots_per_player": "3",
            "teams.turn_order": "player_orders_own_chariots"}
    rules = race_rules("pro-ludo-2006", ("several-chariots-per-player", "pro-ludo-team-race"),
                       sets)
    assert rules.team_scoring == "individual_and_team"
    run = run_race(rules, oval, ["a", "b"], [greedy_policy] * 2, 4,
                   ownerless=greedy_policy)
    assert len(run.outcome.placings) == 6 and len(run.outcome.teams) == 2


def test_scoring_by_number_of_players_needs_its_table(oval):
    """DiceTree 2022 rulebook (DE) S.8-12, option: points by the number of players, -1 for
    not reaching the finish; the table is not in the sources (--set scoring.places)."""
    with pytest.raises(MissingRuleValueError, match=r"scoring.places"):
        race_rules("dicetree-2022", ("scoring-by-player-count",))
    rules = race_rules("dicetree-2022", ("scoring-by-player-count",),
                       {"scoring.places": "5,3,1"})
    assert rules.places == (5, 3, 1) and rules.not_finished_points == -1
    run = run_race(rules, oval, ["a", "b", "c"], [greedy_policy] * 3, 1,
                   ownerless=greedy_policy)
    assert sorted(p.points for p in run.outcome.placings if p.finished) <= [1, 3, 5]


def test_ausgebremst_scoring(oval):
    """Ravensburger 1989 rules (EN summary), Optional Variants: 9, 6, 4, 3, 2, 1."""
    rules = race_rules("ravensburger-1989", ("ausgebremst-scoring",),
                       {**KEEPS_PLACE, "ownerless.six_rule": "true"})
    run = run_race(rules, oval, ["a", "b", "c"], [greedy_policy] * 3, 1,
                   ownerless=greedy_policy)
    players = [p for p in run.outcome.placings if not run.state.game.is_ownerless(p.chariot)]
    assert rules.places == (9, 6, 4, 3, 2, 1)
    assert all(p.points == rules.places[p.place - 1] for p in players if p.place)


@pytest.mark.covers("rule:deck.choice", "rule:deck.alternatives",
                    "rule:deck.alternative_compositions", "rule:deck.points")
def test_deck_sizes_choose_a_deck(oval):
    """DiceTree 2022 rulebook (DE) S.11, variant 6: a normal (24), medium (22) or fast (19)
    deck of 84 points; the medium and fast compositions are not in the sources."""
    with pytest.raises(MissingRuleValueError, match=r"deck.choice"):
        race_rules("dicetree-2022", ("deck-sizes",))
    with pytest.raises(MissingRuleValueError, match=r"deck.alternative_compositions"):
        race_rules("dicetree-2022", ("deck-sizes",), {"deck.choice": "fast"})
    fast = "[{name: fast, values: [6,6,6,6,6,6,6,5,5,5,5,4,4,4,3,3,2,1,1]}]"
    rules = race_rules("dicetree-2022", ("deck-sizes",),
                       {"deck.choice": "fast", "deck.alternative_compositions": fast})
    assert len(rules.deck) == 19 and sum(rules.deck) == 84
    wrong = "[{name: fast, values: [6,6,6,6,6,6,6,5,5,5,5,4,4,4,3,3,2,1,2]}]"
    with pytest.raises(UnsupportedRuleError, match="19 cards of 84 points"):
        race_rules("dicetree-2022", ("deck-sizes",),
                   {"deck.choice": "fast", "deck.alternative_compositions": wrong})
    assert len(race_rules("dicetree-2022", ("deck-sizes",), {"deck.choice": "normal"}).deck) \
        == 24
    run = run_race(rules, oval, ["a", "b"], [greedy_policy] * 2, 1,
                   ownerless=greedy_policy)
    assert run.outcome.termination == "finished"


@pytest.mark.covers("rule:bonus.points", "rule:bonus.granted", "rule:bonus.uses",
                    "rule:bonus.instead_of_card")
def test_homebrew_bonus_piece_after_saluting_caesar(position):
    """reader homebrew (PT comments), comment 1: after saluting Caesar each chariot gets a
    +3 bonus piece, usable once instead of a card."""
    rules = race_rules("dicetree-2022", ("homebrew-bonus-piece",))
    s = position(rules, "5,2,c,123,456,-,r 30,1,c,123,-,-,r | A 0 4 -")
    events = s.push(Move(1, (9,)))
    assert [e.kind for e in events][1:3] == ["alley_stop", "bonus"]
    assert s.bonus[0] and s.notation().startswith("9,2,b,234,56,1,r")
    s.push(next(iter(s.legal_moves())))  # B
    bonus = [m for m in s.legal_moves() if m.card < 0]
    assert bonus and all(len(m.path) == 3 for m in bonus) and str(bonus[0]).startswith("+3:")
    s.push(bonus[0])
    assert not s.bonus[0] and s.hands[0] == (2, 3, 4) and s.played[0] == (1,)
    assert why_not(s.copy(), Move(-3, bonus[0].path)) == Reason("no_bonus", {"points": 3}) \
        or s.turn != 0


@pytest.mark.covers("rule:ownerless.occupies_places")
def test_ownerless_chariots_2006_need_occupies_places(oval):
    """Pro Ludo 2006 Spielregel (DE) VII "herrenlose Gespanne": whether they take finishing
    places is not in the sources."""
    rules = race_rules("pro-ludo-2006", ("ownerless-chariots",), KEEPS_PLACE)
    with pytest.raises(MissingRuleValueError, match=r"ownerless.occupies_places"):
        new_race(rules, oval, ["a", "b"], 1)
    rules = race_rules("pro-ludo-2006", ("ownerless-chariots",),
                       {**KEEPS_PLACE, "ownerless.occupies_places": "true"})
    run = run_race(rules, oval, ["a", "b"], [greedy_policy] * 2, 1,
                   ownerless=greedy_policy)
    assert run.state.game.chariots == 6


def test_start_by_result_and_mini_tournament_are_tournament_rules():
    """Ravensburger 1989 rules (EN summary), Optional Variants (start by result) and DiceTree
    2022 rulebook (DE) S.8-12 (mini tournament of 2 or 3 races): see core/test_tournament.py."""
    from avecaesar.engine.core.ruleset_adapter import tournament_rules_from_ruleset
    from avecaesar.engine.ruleset.load import load_ruleset

    t = tournament_rules_from_ruleset(load_ruleset("ravensburger-1989", ["start-by-result"]))
    assert t.next_start_order == "by_result"
    with pytest.raises(MissingRuleValueError, match=r"tournament.races"):
        tournament_rules_from_ruleset(load_ruleset("dicetree-2022", ["mini-tournament"]))
    t = tournament_rules_from_ruleset(load_ruleset("dicetree-2022", ["mini-tournament"],
                                                   {"tournament.races": "2"}))
    assert t.races == 2


@pytest.mark.covers("rule:ramming.trigger", "rule:ramming.card", "rule:ramming.winner",
                    "rule:ramming.loser", "rule:ramming.tie", "rule:ramming.attack_chips")
def test_ramming_attack_higher_card_wins(position):
    """DiceTree 2022 rulebook (DE) S.8-12, variant 2: stopping beside an opponent with a free
    space ahead of both, show the highest card; the winner moves one forward (and takes a
    chip), the loser one back. What chips do and how a tie resolves are not in the sources:
    the test supplies them."""
    with pytest.raises(MissingRuleValueError, match=r"ramming\."):
        race_rules("dicetree-2022", ("ramming-attacks",))
    sets = {"ramming.tie": "defender_wins", "ramming.attack_chips": "no_effect"}
    rules = race_rules("dicetree-2022", ("ramming-attacks",), sets)
    # 19 and 20 lie beside each other (run-out, progress 6); 22 and 23 are straight ahead
    text = "19,1,c,234,-,4,r 16,1,c,156,-,3,r | B 0 2 -"
    s = position(rules, text)
    assert Move(1, (20,), 0) in list(s.legal_moves()) and Move(1, (20,)) in s.legal_moves()
    assert str(Move(1, (20,), 0)) == "1:20!A" and Move.parse("1:20!A") == Move(1, (20,), 0)
    events = s.push(Move(1, (20,), 0))
    ram = next(e for e in events if e.kind == "ram")
    assert ram.data == {"target": 0, "cards": [6, 4], "winner": 1}
    assert s.pos[1] == 23 and s.pos[0] == 15
    # a tie: the supplied value decides (here the defender)
    s = position(rules, "19,1,c,236,-,4,r 16,1,c,136,-,3,r | B 0 2 -")
    s.push(Move(1, (20,), 0))
    assert s.pos[0] == 22 and s.pos[1] == 16
    # no ramming without the variant, and none where it does not end beside the opponent
    plain = position(race_rules("dicetree-2022"), text)
    assert why_not(plain, Move(1, (20,), 0)) == Reason("no_ramming")
    assert why_not(position(rules, text), Move(5, (20, 23, 26, 29, 33), 0)) == Reason(
        "no_ram_there", {"target": "A"})


@pytest.mark.covers("rule:deck.piles", "rule:deck.split")
def test_split_deck_four_piles_two_hand_cards(oval):
    """DiceTree 2022 rulebook (DE) S.8-12, variant 4: split the deck into 4 piles, hold only
    2 cards, draw from a pile of your choice. How the piles are made is not in the sources:
    dealt face down (a blind choice of pile is an unseen card, as the deck's top card) runs;
    piles sorted by the player are refused."""
    with pytest.raises(MissingRuleValueError, match=r"deck\.split"):
        race_rules("dicetree-2022", ("split-deck",))
    with pytest.raises(UnsupportedRuleError, match="dealt_face_down"):
        race_rules("dicetree-2022", ("split-deck",), {"deck.split": "sorted_by_player"})
    rules = race_rules("dicetree-2022", ("split-deck",), {"deck.split": "dealt_face_down"})
    state, _ = new_race(rules, oval, ["a", "b"], 3)
    assert rules.hand_size == 2 and all(len(h) == 2 for h in state.hands)
    step(state)
    assert len(state.hands[0]) == 2 and len(state.decks[0]) == 21


@pytest.mark.covers("rule:prize_money.per_lap", "rule:prize_money.alley_stop",
                    "rule:scoring.method")
def test_money_instead_of_laurels(position):
    """DiceTree 2022 rulebook (DE) S.8-12, variant 7: 6 laps with prize money per lap; a stop
    in the alley lets you reshuffle your whole deck but costs that lap's prize. The amounts
    are not in the sources: the test supplies 5, 3, 1 (by the order of completing a lap)."""
    with pytest.raises(MissingRuleValueError, match=r"prize_money\.per_lap"):
        race_rules("dicetree-2022", ("money-instead-of-laurels",))
    rules = race_rules("dicetree-2022", ("money-instead-of-laurels",),
                       {"prize_money.per_lap": "5,3,1"})
    assert rules.laps == 6 and rules.prizes == (5, 3, 1)
    # A completes lap 1 after B has (B got 5): A gets 3
    s = position(rules, "83,1,c,123,456,-,r,0 5,2,c,123,-,4,r,5 | A 0 4 -")
    events = s.push(Move(1, (0,)))
    assert [e.data for e in events if e.kind == "prize"] == [{"lap": 1, "money": 3}]
    assert s.money == (3, 5) and s.notation().startswith("0,2,c,234,56,1,r,3 ")
    # B stops in the alley: the played cards are reshuffled into the deck, the lap's prize
    # is forfeited
    s.push(Move(1, (9,)))
    assert s.forfeit[1] and s.played[1] == () and len(s.hands[1]) == 3
    assert sorted(s.hands[1] + s.decks[1]) == [1, 2, 3, 4]  # the 4 and the 1 came back
    assert s.notation().split()[1].startswith("9,2,p,") and s.notation().split()[1].endswith(
        ",-,r,5")
    out = outcome(s)
    assert {p.chariot: p.points for p in out.placings} == {0: 3, 1: 5}
