"""A stronger bot: short seeded rollouts of each candidate move, scored by race position.

For the chariot to move, each distinct candidate (card, landing space) among the legal moves
is tried in the same few *worlds*: the cards the bot cannot see are dealt afresh, consistent
with what it can know (its own deck's cards in a random order; each other chariot's hand and
deck drawn from the cards it has not played yet). In each world the race is played on with
the greedy policy for every chariot until the bot has had ``horizon`` more turns (or the race
is over), and the position is scored from the bot's view: finishing places first, then how
far it is from the line against the nearest rival, plus a share of the points still in its
hand. The candidate with the best mean wins; ties and near-ties go to greedy's choice.

The bot only ever *chooses* among the legal moves it is given; the rules are applied by the
engine inside the rollouts as in a race. It is deterministic for a given seed: all sampling
comes from its own ``random.Random(seed)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from avecaesar.engine.bots.policies import greedy_policy, greedy_scored, remaining
from avecaesar.engine.core.moves import LegalMoves, alley_pending
from avecaesar.engine.core.moves import (
    _stop_possible_on_empty_track as stop_possible_on_empty_track,
)
from avecaesar.engine.core.race import play_turn
from avecaesar.engine.core.state import RaceState
from avecaesar.engine.core.types import FINISHED, RACING, REMOVED, Move

__all__ = ["SearchBot", "search_policy"]

Policy = Callable[[RaceState, LegalMoves], Move]


class SearchBot:
    """Rollout search over the distinct legal moves (see the module docstring).

    ``worlds``: hidden-card deals per decision (shared by all candidates, so they are
    compared on the same luck); ``horizon``: own turns played on after the candidate;
    ``width``: at most this many candidates, the best by the greedy ranking.
    """

    def __init__(self, seed: int, worlds: int = 6, horizon: int = 2, width: int = 6,
                 hand_weight: float = 0.5, alley_horizon: int = 6,
                 win_bonus: float = 30.0, greedy_bonus: float = 0.1,
                 margin: float = 100.0) -> None:
        self.rng = random.Random(seed)
        self.worlds, self.horizon, self.width = worlds, horizon, width
        self.alley_horizon = alley_horizon
        self.win_bonus = win_bonus
        self.greedy_bonus = greedy_bonus
        self.margin = margin
        self.hand_weight = hand_weight

    # -- the policy --------------------------------------------------------------------------
    def __call__(self, state: RaceState, moves: LegalMoves) -> Move:
        scored = greedy_scored(state, moves)
        # only moves greedy rates alike on the big things (finishing, the alley stop,
        # disqualification: hundreds of points) are weighed against each other
        top = scored[0][0][0]
        candidates = [m for k, m in scored if k[0] >= top - self.margin][: self.width]
        if len(candidates) == 1:
            return candidates[0]
        me = state.turn
        totals = [0.0] * len(candidates)
        for _ in range(self.worlds):
            world = self.deal(state, me)
            for i, move in enumerate(candidates):
                totals[i] += self.rollout(world, move, me)
        # greedy's choice wins ties and near-ties (noise should not overturn it)
        totals[0] += self.greedy_bonus * self.worlds
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    # -- worlds ------------------------------------------------------------------------------
    def deal(self, state: RaceState, me: int) -> RaceState:
        """A copy of ``state`` with the cards the bot cannot see dealt afresh."""
        world = state.copy()
        rng = self.rng
        game = state.game
        for c in range(game.chariots):
            if world.status[c] != RACING:
                continue
            if c == me or game.is_ownerless(c):
                deck = list(world.decks[c])
                if len(deck) > 1 and not (game.is_ownerless(c) and game.rules.ownerless
                                          and game.rules.ownerless.position_moves):
                    rng.shuffle(deck)
                    world.decks[c] = tuple(deck)
                continue
            pool = list(world.hands[c]) + list(world.decks[c])
            rng.shuffle(pool)
            k = len(world.hands[c])
            world.hands[c] = tuple(sorted(pool[:k]))
            world.decks[c] = tuple(pool[k:])
        return world

    def rollout(self, world: RaceState, move: Move, me: int) -> float:
        s = world.copy()
        s.log = False  # nobody reads a rollout's events: push and skip build none
        s.push(move)
        own_turns = 0
        steps = 0
        if not self.horizon:  # to the first finish
            while not s.over and not s.finish_order and s.status[me] == RACING and steps < 400:
                play_turn(s, greedy_policy, greedy_policy)
                steps += 1
            return self.evaluate_finish(s, me)
        while not s.over and s.status[me] == RACING and steps < 200:
            if s.turn == me:
                if own_turns >= self.horizon and (
                        own_turns >= self.alley_horizon or not alley_pending(s, me)):
                    break
                own_turns += 1
            play_turn(s, greedy_policy, greedy_policy)
            steps += 1
        return self.evaluate(s, me)

    # -- evaluation --------------------------------------------------------------------------
    def evaluate_finish(self, s: RaceState, me: int) -> float:
        """When the first chariot finishes: a win by a margin, or how far behind."""
        if s.status[me] == REMOVED:
            return -1000.0
        if s.dq[me] or (needs_stop(s, me) and not s.stopped[me]
                        and not alley_pending(s, me)):
            return -500.0
        if s.finish_order and s.finish_order[0] == me:
            rivals = [remaining(s, c) for c in range(s.game.chariots)
                      if c != me and s.status[c] == RACING and not s.game.is_ownerless(c)]
            return self.win_bonus + min(rivals, default=0.0)
        return -remaining(s, me)

    def evaluate(self, s: RaceState, me: int) -> float:
        """The position from chariot ``me``'s view, in turns (higher is better): how many
        turns sooner than its nearest rival it can finish (:func:`turns_needed`), with
        penalties for disqualification ahead and for running out of cards."""
        if s.status[me] == REMOVED:
            return -60.0
        value = 0.0
        if s.dq[me] or (needs_stop(s, me) and not s.stopped[me]
                        and not alley_pending(s, me)):
            value -= 30.0  # disqualified, or will be: the alley stop can no longer be made
        elif (needs_stop(s, me) and not s.stopped[me]
              and not stop_possible_on_empty_track(s, me)):
            value -= 15.0  # no card in hand keeps the stop possible: very likely lost
        if s.status[me] == FINISHED:
            return value + 30.0 - 10.0 * s.finish_order.index(me)
        value -= 30.0 * sum(1 for c in s.finish_order if not s.game.is_ownerless(c))
        mine = turns_needed(s, me)
        rivals = [turns_needed(s, c) for c in range(s.game.chariots)
                  if c != me and s.status[c] == RACING and not s.game.is_ownerless(c)
                  and not s.dq[c]]
        return value + min(rivals, default=mine) - mine


def turns_needed(s: RaceState, c: int, spare: float = 0.15) -> float:
    """An estimate of the turns chariot ``c`` still needs: the fewest of its remaining cards
    (hand and deck, a multiset every player can work out from the cards played) whose points
    cover the steps still to go, less ``spare`` a point to spare; the cards cannot cover the
    way: its cards plus a penalty (it will run out and be removed)."""
    k, extra, held, covers = cover(s, c)
    if covers:
        return k - spare * extra
    return held + 10.0 - 0.5 * extra


def cover(s: RaceState, c: int) -> tuple[int, float, int, bool]:
    """How chariot ``c``'s remaining cards (a public multiset) cover the steps still to go:
    (the fewest of them, largest first, that do — all of them when they cannot —, the
    points those leave to spare (negative: the steps they fall short), the cards held,
    whether they cover the way)."""
    need = remaining(s, c)
    cards = sorted((*s.hands[c], *s.decks[c]), reverse=True)
    total = 0
    for k, x in enumerate(cards, start=1):
        total += x
        if total >= need:
            return k, total - need, len(cards), True
    return len(cards), total - need, len(cards), False


def needs_stop(s: RaceState, c: int) -> bool:
    """Chariot ``c`` must make the alley stop (or be disqualified)."""
    rules, board = s.game.rules, s.game.board
    fx = rules.effects
    return (board.has_alley and rules.alley_must_stop and fx.missed_dq
            and not fx.missed_cancels_finish)  # disqualified, not executed


def search_policy(seed: int, **budget: int) -> Policy:
    """The rollout search bot with its own seeded generator (see :class:`SearchBot`)."""
    return SearchBot(seed, **budget)
