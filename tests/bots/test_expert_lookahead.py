"""The expert's own moves inside its rollouts by one round of lookahead (``lookahead``, 4
by default; measured: more wins against ``search`` bots, docs/performance.md): the move it
picks is the best of greedy's best few by the position after the others' greedy replies, it
differs from greedy's where that position says so (tests/bots/test_expert_no_peek.py checks
it still decides from its seat's information set alone)."""

from __future__ import annotations

import pytest

from avecaesar.engine.bots.expert import ExpertBot, _replied, value
from avecaesar.engine.bots.policies import greedy_policy, greedy_scored
from avecaesar.engine.core.types import RACING

from .positions import greedy_positions


@pytest.mark.covers("bots:expert")
def test_its_own_rollout_move_is_the_best_of_greedys_best_after_the_replies():
    bot = ExpertBot(0, lookahead=4)
    differs = 0
    for seed in range(2):
        for s in greedy_positions(seed):
            me = s.turn
            moves = s.legal_moves()
            chosen = bot.own_move(s, moves, me)
            scored = greedy_scored(s, moves)
            top = scored[0][0][0]
            options = [m for k, m in scored if k[0] >= top - bot.margin][:4]
            assert chosen in options
            after = [value(_replied(s, m, me), me) + (bot.greedy_bonus if i == 0 else 0.0)
                     for i, m in enumerate(options)]
            assert after[options.index(chosen)] == max(after)
            differs += chosen != options[0]
    assert differs >= 5  # it does not merely repeat greedy


def test_the_replies_stop_at_the_bots_next_turn():
    s = greedy_positions(1)[10]
    me = s.turn
    t = _replied(s, greedy_policy(s, s.legal_moves()), me)
    assert t.turn == me or t.over or t.status[me] != RACING
    assert t.ply > s.ply

