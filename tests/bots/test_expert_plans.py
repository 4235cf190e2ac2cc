"""The expert bot plans its alley stop and its last lap where the greedy bot does not (issue
23: "a solo player meets an opponent that plans its alley stop and its last lap").

Every chariot must come to a stop on an alley space once, in the 2nd or at the latest the
3rd lap of the race, or it is disqualified (DiceTree 2022 rulebook (DE) S.6). The positions
below come from seeded races of the expert against three greedy bots on Arena Carthago
(2022 rules), found by a scan that compared the two bots' choices while the expert's stop
was pending. In each, the expert — deciding from what its seat may know, five bot seeds
alike — keeps the stop within reach, and the greedy bot's faster-looking move is the one
that ends in a disqualification when every chariot then drives greedily on the cards as
they were dealt (the playout below; the expert never saw that deal). The last-lap
positions further down come from the same scan under the 1989 rules on side A.
"""

from __future__ import annotations

import pytest

from avecaesar.engine.bots.expert import ExpertBot
from avecaesar.engine.bots.policies import greedy_policy
from avecaesar.engine.core.race import new_race
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.state import RaceState
from avecaesar.engine.core.types import RACING, Move

COURSE = "dicetree-2022/arena-carthago"


def _learned_value_unsure(measured: str) -> pytest.MarkDecorator:
    """Expected to fail since the expert scores its rollouts by the learned win chance
    (engine/bots/expert_value.py; issue 23, docs/performance.md "The expert bot"): the
    expert's move here is still the better one — played out greedily to the end in 150
    worlds dealt from A's view (wins and disqualifications of A below) — but at the
    rollouts' horizon the learned win chance rates the two moves within a few points (mean
    over 200 worlds below), and only some of the five bot seeds choose it (budget 192). With the
    hand-made score and greedy rivals (``ExpertBot(seed, learned=0, blend=1,
    rival_noise=0)``, the second round's bot) all five do. Strict: a
    value that gets these right again makes the test pass and must lift the mark."""
    return pytest.mark.xfail(strict=True, reason="measured: " + measured)


# (position in the engine's notation, A to move; the expert's move and greedy's, each as
# (card, landing space)); A is the expert's chariot
POSITIONS = [
    pytest.param(
        "78,1,c,466,5441111333522525,36462,r 23,2,c,166,54214132322633,5155446,r "
        "16,2,s,144,1223565426632,31563541,r 6,2,c,114,4315245636651,62243325,r | A 0 32 - -",
        (4, 0), (6, 7), id="lap-1-end-keeps-the-sixes",
        marks=_learned_value_unsure("the expert's move 6 wins and 10 disqualified, greedy's 2 "
                                    "and 21; at the horizon 10.40 % against 10.59 %; no seed")),
    pytest.param(
        "44,1,c,456,112463632123556421,453,r 55,1,c,234,564133226416114235,565,r "
        "49,1,c,445,212436635123361542,516,r 40,1,c,156,542633162352244514,316,r | A 0 12 - -",
        (5, 61), (6, 62), id="lap-1-back-straight",
        marks=_learned_value_unsure("57 wins and 9 disqualified against 50 and 13; at the "
                                    "horizon 34.25 % against 33.81 %; 2 seeds")),
    pytest.param(
        "29,2,c,236,3614525143512,54342166,r 12,2,c,125,5253613136644,43622154,r "
        "16,2,s,344,3635115562211,43624652,r 15,2,s,224,6525645112416,33353164,r | A 0 32 - -",
        (2, 40), (3, 44), id="lap-2-after-a-missed-chance",
        marks=_learned_value_unsure("79 wins and 26 disqualified against 66 and 28; at the "
                                    "horizon 46.18 % against 42.53 %; 4 seeds")),
]


#: the same positions for the bot with the hand-made score (no marks)
HAND_MADE = [pytest.param(*p.values, id=p.id) for p in POSITIONS]


def _state(text: str, ruleset: str = "dicetree-2022", course: str = COURSE) -> RaceState:
    rules, board = race_setup(ruleset, [], {}, course)
    state, _ = new_race(rules, board, ["expert", "greedy-1", "greedy-2", "greedy-3"], 0)
    return RaceState.parse(state.game, text)


def _played_out(state: RaceState, expert_move: tuple[int, int],
                greedy_move: tuple[int, int], **tuning: float) -> tuple[RaceState, RaceState]:
    """Check both bots' choices (the expert's for five bot seeds), then play each out
    greedily on the cards as dealt: (after the expert's move, after greedy's)."""
    moves = state.legal_moves()
    greedy = greedy_policy(state.copy(), moves)
    assert _key(greedy) == greedy_move
    chosen = {_key(ExpertBot(seed, **tuning)(state.copy(), state.copy().legal_moves()))
              for seed in range(5)}
    assert chosen == {expert_move}
    by_key = {_key(m): m for m in moves}
    return _greedy_playout(state, by_key[expert_move]), _greedy_playout(state, greedy)


def _key(move: Move) -> tuple[int, int]:
    return move.card, move.path[-1]


def _greedy_playout(state: RaceState, move: Move) -> RaceState:
    """``move`` for A, then every chariot greedy on the cards as dealt, until A is done."""
    s = state.copy()
    s.push(move)
    while not s.over and s.status[0] == RACING:
        moves = s.legal_moves()
        if moves:
            s.push(greedy_policy(s, moves))
        else:
            s.skip(moves.skip_reason or "blocked")
    return s


@pytest.mark.covers("bots:expert")
@pytest.mark.parametrize(("text", "expert_move", "greedy_move"), POSITIONS)
def test_the_expert_keeps_its_alley_stop_where_greedy_loses_it(
        text: str, expert_move: tuple[int, int], greedy_move: tuple[int, int]) -> None:
    state = _state(text)
    assert not state.stopped[0] and state.lap(0) <= state.game.rules.laps
    planned, rushed = _played_out(state, expert_move, greedy_move)
    assert planned.stopped[0] and not planned.dq[0]
    assert rushed.dq[0] and not rushed.stopped[0]


@pytest.mark.covers("bots:expert")
@pytest.mark.parametrize(("text", "expert_move", "greedy_move"), HAND_MADE)
def test_with_the_hand_made_score_it_keeps_its_alley_stop_where_greedy_loses_it(
        text: str, expert_move: tuple[int, int], greedy_move: tuple[int, int]) -> None:
    state = _state(text)
    # the second round's bot exactly: the hand-made score, greedy rivals in the rollouts
    planned, rushed = _played_out(state, expert_move, greedy_move, learned=0.0, blend=1.0,
                                  rival_noise=0.0)
    assert planned.stopped[0] and not planned.dq[0]
    assert rushed.dq[0] and not rushed.stopped[0]


# The last lap against the deck: a chariot whose cards run out before the line is out of
# the race and scores nothing (Ravensburger 1989 rules (EN summary), Scoring; Ravensburger
# 1989 regler (SV), Slut på kort). In both positions A is in the last lap with fewer points
# in hand and deck than a careless order of play needs; the expert plays them in the order
# that reaches the line; the greedy bot, taking the most progress per card now, is left
# short of it.
LAST_LAP = [
    pytest.param(
        "53,3,s,135,4,54413253522121664366,r 68,3,s,112,23,3424463552155364166,r "
        "65,3,s,113,4,55633345421166246522,r 36,3,s,123,34,6246153551126354246,r | A 0 80 - -",
        (3, 59), (5, 66), id="thirteen-points-left"),
    pytest.param(
        "62,3,s,345,-,546622633226415531141,r 82,3,s,6,-,35326653264443252411511,r "
        "77,3,s,5,-,14146665543433322126512,r 71,3,s,23,-,2625443616155134625431,r | A 0 92 - -",
        (3, 72), (4, 75), id="twelve-points-left"),
]


@pytest.mark.covers("bots:expert")
@pytest.mark.parametrize(("text", "expert_move", "greedy_move"), LAST_LAP)
def test_the_expert_spends_its_last_cards_in_an_order_that_reaches_the_line(
        text: str, expert_move: tuple[int, int], greedy_move: tuple[int, int]) -> None:
    state = _state(text, "ravensburger-1989", "ravensburger-1989/a-white")
    assert state.lap(0) == state.game.rules.laps and state.stopped[0]
    planned, rushed = _played_out(state, expert_move, greedy_move)
    assert 0 in planned.finish_order
    assert 0 not in rushed.finish_order and not rushed.hands[0] and not rushed.decks[0]
