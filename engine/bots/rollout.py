"""The expert bot's rollouts, played on to their horizon in the compiled hot path.

A rollout (:meth:`~.expert.ExpertBot.rollout`) plays a dealt world on from a candidate move,
every chariot driven by greedy (a marked rival now and then by another of greedy's near-best
moves), until the bot has had its ``horizon`` more turns. That loop is most of the expert's
time: about twenty turns a rollout, a hundred rollouts a decision. Here it is compiled with
the engine's turns and greedy's scores (setup.py's ``NATIVE``), so a turn costs no Python
call between them; the moves and the generator draws are the same as the Python loop's, so
a seed plays the same game either way (tests/bots/test_expert_rollout.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from avecaesar.engine.bots.policies import greedy_policy, greedy_scored
from avecaesar.engine.core.moves import LegalMoves, alley_pending
from avecaesar.engine.core.race import play_turn
from avecaesar.engine.core.state import RaceState
from avecaesar.engine.core.types import RACING, Move

__all__ = ["NoisyRivals", "near_best", "off_greedy", "play_out"]

#: a rollout ends after this many turns whatever happens (a race of blocked chariots)
MAX_TURNS = 400


def near_best(scored: list[tuple[tuple[float, ...], Move]], margin: float,
              most: int) -> list[Move]:
    """Of greedy's scored moves (best first), at most ``most`` within ``margin`` of the
    best on greedy's first score."""
    top = scored[0][0][0]
    out: list[Move] = []
    for key, move in scored:
        if len(out) >= most:
            break
        if key[0] >= top - margin:
            out.append(move)
    return out


def off_greedy(s: RaceState, moves: LegalMoves, margin: float, rng: random.Random) -> Move:
    """A move of greedy's near-best other than its first (at most 5 more within ``margin``),
    drawn uniformly; greedy's where there is none."""
    near = near_best(greedy_scored(s, moves), margin, 6)
    return near[0] if len(near) == 1 else near[1 + rng.randrange(len(near) - 1)]


class NoisyRivals:
    """A rollout's policy when some rivals are marked: greedy for every chariot, except that
    a chariot of ``noisy`` plays :func:`off_greedy` at ``rate`` (drawn from ``noise``)."""

    def __init__(self, noise: random.Random, noisy: frozenset[int], rate: float,
                 margin: float) -> None:
        self.noise, self.noisy, self.rate, self.margin = noise, noisy, rate, margin

    def __call__(self, s: RaceState, moves: LegalMoves) -> Move:
        if s.turn in self.noisy and self.noise.random() < self.rate:
            return off_greedy(s, moves, self.margin, self.noise)
        return greedy_policy(s, moves)


def play_out(s: RaceState, me: int, horizon: int, alley_horizon: int,
             policy: Callable[[RaceState, LegalMoves], Move] | None) -> None:
    """Play ``s`` on (in place) until ``me`` has had ``horizon`` more turns (``alley_horizon``
    while its alley stop is pending), is out of the race, or the race is over; every chariot
    by greedy, or by ``policy`` where given (:class:`NoisyRivals`, or the expert's own
    lookahead)."""
    own_turns = 0
    steps = 0
    while not s.over and s.status[me] == RACING and steps < MAX_TURNS:
        if s.turn == me:
            if own_turns >= horizon and (own_turns >= alley_horizon
                                         or not alley_pending(s, me)):
                break
            own_turns += 1
        if policy is None:
            play_turn(s, greedy_policy, greedy_policy)
        else:
            play_turn(s, policy, policy)
        steps += 1
