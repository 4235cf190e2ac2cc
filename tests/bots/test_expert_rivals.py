"""The rivals inside the expert's rollouts (``rival_noise``, off by default; measured:
docs/performance.md): at that rate a rival plays one of greedy's other near-best moves
instead of greedy's first, drawn from a generator seeded once per world, so every candidate
meets the same rivals' choices (tests/bots/test_expert_no_peek.py checks the bot still
decides from its seat's information set alone with it)."""

from __future__ import annotations

import random

import pytest

from avecaesar.engine.bots.expert import ExpertBot, _near_best, _off_greedy
from avecaesar.engine.bots.policies import greedy_policy, greedy_scored

from .positions import greedy_positions


@pytest.mark.covers("bots:expert")
def test_a_rival_off_greedy_plays_each_other_near_best_move_and_never_greedys():
    rng = random.Random(3)
    checked = 0
    for s in greedy_positions(0):
        moves = s.legal_moves()
        near = _near_best(greedy_scored(s, moves), 100.0, 6)
        drawn = {_off_greedy(s, moves, 100.0, rng) for _ in range(40)}
        if len(near) == 1:
            assert drawn == {near[0]}
            continue
        assert drawn == set(near[1:])  # every other near-best one, greedy's first never
        checked += 1
    assert checked >= 10


def test_the_same_world_and_noise_seed_give_the_same_rollout_and_the_noise_tells():
    bot = ExpertBot(0, rival_noise=0.5)
    calm = ExpertBot(0, rival_noise=0.0)
    differs = 0
    for s in greedy_positions(1)[:40:4]:
        me = s.turn
        move = greedy_policy(s, s.legal_moves())
        once = bot.rollout(s, move, me, random.Random(7))
        assert bot.rollout(s, move, me, random.Random(7)) == once
        differs += once != calm.rollout(s, move, me)
    assert differs >= 2  # the rivals' other moves change the outcome
