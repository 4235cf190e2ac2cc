"""The rivals inside the expert's rollouts (measured: docs/performance.md).

``rival_noise``: at that rate a rival plays one of greedy's other near-best moves instead
of greedy's first, drawn from a generator seeded once per world, so every candidate meets
the same rivals' choices. ``type_rivals`` (on by default): only the rivals whose public
record shows a move that greedy would not have made with any hand their remaining cards
allow; a rival never shown so plays greedy's move, and against greedy rivals the bot plays
exactly as with no noise at all (tests/bots/test_expert_no_peek.py checks the bot still
decides from its seat's information set alone with either)."""

from __future__ import annotations

import itertools
import random

import pytest

from avecaesar.engine.bots.expert import ExpertBot
from avecaesar.engine.bots.policies import greedy_policy, greedy_scored
from avecaesar.engine.bots.registry import OWNERLESS, find_bot
from avecaesar.engine.bots.rollout import near_best, off_greedy
from avecaesar.engine.core.moves import LegalMoves
from avecaesar.engine.core.race import new_race, play_turn
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.state import RaceState
from avecaesar.engine.core.types import Move

from .positions import greedy_positions


@pytest.mark.covers("bots:expert")
def test_a_rival_off_greedy_plays_each_other_near_best_move_and_never_greedys():
    rng = random.Random(3)
    checked = 0
    for s in greedy_positions(0):
        moves = s.legal_moves()
        near = near_best(greedy_scored(s, moves), 100.0, 6)
        drawn = {off_greedy(s, moves, 100.0, rng) for _ in range(40)}
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
        noisy = frozenset(c for c in range(4) if c != me)
        once = bot.rollout(s, move, me, random.Random(7), noisy)
        assert bot.rollout(s, move, me, random.Random(7), noisy) == once
        assert bot.rollout(s, move, me, random.Random(7)) == calm.rollout(s, move, me)
        differs += once != calm.rollout(s, move, me)
    assert differs >= 2  # the rivals' other moves change the outcome


#: the three editions on their default courses
EDITIONS = [("dicetree-2022", "dicetree-2022/arena-carthago"),
            ("pro-ludo-2006", "pro-ludo-2006/circus-maximus"),
            ("ravensburger-1989", "ravensburger-1989/a-white")]


def _race(bot: ExpertBot, against: str, ruleset: str, course: str, seed: int,
          budget_check: ExpertBot | None = None) -> tuple[list[set[int]], list[Move]]:
    """One four-chariot race, ``bot`` on start place ``seed % 4 + 1``, bots of the kind
    ``against`` elsewhere: the rivals the bot's record marks at each of its decisions, and
    its moves (``budget_check``, if given, is asked the same and must agree)."""
    rules, board = race_setup(ruleset, [], {}, course)
    state, _ = new_race(rules, board, [f"p{i}" for i in range(4)], seed)
    state.log = False
    me = seed % 4
    others = [find_bot(against).make(seed * 10 + i) for i in range(4)]
    marked: list[set[int]] = []
    chosen: list[Move] = []

    def recorded(state: RaceState, moves: LegalMoves) -> Move:
        move = bot(state, moves)
        if budget_check is not None:
            assert budget_check(state, moves) == move
        chosen.append(move)
        marked.append(set(bot.observer.off_greedy))
        return move

    while not state.over:
        play_turn(state, recorded if state.turn == me else others[state.turn], OWNERLESS)
    return marked, chosen


@pytest.mark.covers("bots:expert")
@pytest.mark.parametrize(("ruleset", "course"), EDITIONS, ids=[e for e, _ in EDITIONS])
def test_a_greedy_rival_is_never_marked_and_the_bot_then_plays_as_with_no_noise(
        ruleset: str, course: str) -> None:
    """With its true hand greedy makes every move a greedy rival made, so the record can
    never show otherwise; and with no rival marked, the noise draws nothing: the bot's
    moves are those of the bot without noise, move for move."""
    for seed in range(2):
        marked, moves = _race(ExpertBot(seed, budget=16), "greedy", ruleset, course, seed,
                              budget_check=ExpertBot(seed, budget=16, rival_noise=0.0))
        assert len(moves) >= 15
        assert not set().union(*marked)


@pytest.mark.covers("bots:expert")
@pytest.mark.parametrize(("ruleset", "course"), EDITIONS, ids=[e for e, _ in EDITIONS])
def test_rivals_that_leave_greedys_move_are_marked_once_their_record_shows_it(
        ruleset: str, course: str) -> None:
    """Random rivals are marked within the race, and a mark is never taken back (it
    rests on a move no hand explains)."""
    for seed in range(2):
        marked, _moves = _race(ExpertBot(seed, budget=16), "random", ruleset, course, seed)
        assert len(marked[-1]) >= 2
        assert all(a <= b for a, b in itertools.pairwise(marked))


def test_which_rivals_play_off_greedy_in_the_rollouts() -> None:
    s = greedy_positions(0)[8]
    me = s.turn
    rivals = {c for c in range(4) if c != me}
    typed = ExpertBot(0)
    assert typed.noisy_rivals(s, me) == frozenset()  # nothing shown yet
    typed.observer.off_greedy = {next(iter(rivals))}
    assert typed.noisy_rivals(s, me) == frozenset(typed.observer.off_greedy)
    assert ExpertBot(0, type_rivals=0).noisy_rivals(s, me) == frozenset(rivals)
    assert ExpertBot(0, type_rivals=0, rival_noise=0.0).noisy_rivals(s, me) == frozenset()
