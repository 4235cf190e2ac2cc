"""Positions for the expert bot's tests: every position of a seeded greedy race with a
choice to make."""

from __future__ import annotations

from avecaesar.engine.bots.policies import greedy_policy
from avecaesar.engine.core.race import new_race, play_turn
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.state import RaceState

COURSE = "dicetree-2022/arena-carthago"


def greedy_positions(seed: int) -> list[RaceState]:
    """Every position of a greedy race on Arena Carthago (2022 rules) with a choice."""
    rules, board = race_setup("dicetree-2022", [], {}, COURSE)
    state, _ = new_race(rules, board, [f"p{i}" for i in range(4)], seed)
    state.log = False
    out = []
    while not state.over:
        if len(state.legal_moves().distinct()) > 1:
            out.append(state.copy())
        play_turn(state, greedy_policy, greedy_policy)
    return out
