"""Policies choose among legal moves; they never decide what is legal.

A policy is a callable ``(state, legal_moves) -> Move``. :func:`make_policy` builds one by
name: ``random`` (uniform, its own seeded generator) or ``greedy`` (progress per point, keeps
a reserve for the finish, stops in the alley in time).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from avecaesar.engine.moves import LegalMoves
from avecaesar.engine.state import WAIT, Move, RaceState

__all__ = ["POLICIES", "greedy_policy", "make_policy", "random_policy"]

Policy = Callable[[RaceState, LegalMoves], Move]


def random_policy(seed: int) -> Policy:
    rng = random.Random(seed)

    def choose(state: RaceState, moves: LegalMoves) -> Move:
        return rng.choice(list(moves))

    return choose


def _score(state: RaceState, move: Move) -> tuple[float, ...]:
    c = state.turn
    game = state.game
    board, rules = game.board, game.rules
    if move.card == 0:
        return (-1e9,)
    after = state.copy()
    after.push(move)
    gain = after.race_progress(c) - state.race_progress(c) if after.pos[c] is not None else 0
    score = 0.0
    if after.status[c] == "f":
        score += 1000 - move.card  # finish, with the smallest card
    if after.stopped[c] and not state.stopped[c]:
        score += 500  # the alley stop, made in time
    if after.dq[c] and not state.dq[c]:
        score -= 800
    if (board.has_alley and not after.stopped[c] and after.pos[c] is not None
            and after.lap(c) in rules.alley_laps and board.before_alley[after.pos[c]]):
        # close in on the alley: prefer landing where a small card can still reach it
        score += 0.1
    # progress per point: waste as little as possible (lane changes, detours), then go far
    waste = move.card - gain
    score += -3.0 * waste + 0.3 * gain
    end = move.path[-1]
    return (score, -board.progress[end], -end)


def greedy_policy(state: RaceState, moves: LegalMoves) -> Move:
    best = None
    best_key: tuple[float, ...] | None = None
    seen: set[tuple[int, int]] = set()
    for m in moves:
        if m == WAIT or (m.card, m.path[-1]) in seen:
            continue
        seen.add((m.card, m.path[-1]))
        key = _score(state, m)
        if best_key is None or key > best_key:
            best, best_key = m, key
    return best if best is not None else next(iter(moves))


def make_policy(name: str, seed: int) -> Policy:
    if name == "random":
        return random_policy(seed)
    if name == "greedy":
        return greedy_policy
    raise ValueError(f"unknown bot {name!r}; known: {', '.join(POLICIES)}")


POLICIES = ("greedy", "random")
