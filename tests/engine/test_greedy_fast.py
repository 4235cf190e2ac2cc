"""The greedy bot's fast path (working out a move's effects without copying the state)
agrees with copying and pushing, on every legal move of many positions and rulesets."""

from __future__ import annotations

import pytest

from avecaesar.engine.policies import _after, _after_slow, greedy_policy, make_policy
from avecaesar.engine.race import new_race, play_turn

RULESETS = ("dicetree-2022", "ravensburger-1989", "pro-ludo-2006", "pro-ludo-2006+ownerless",
            "dicetree-2022+team-gladiator")


@pytest.mark.parametrize("name", RULESETS)
def test_fast_effects_equal_copy_and_push(name: str, rules_of, oval) -> None:
    rules = rules_of(name)
    checked = 0
    for seed in range(12):
        n = 2 + seed % 5
        state, _ = new_race(rules, oval, [f"p{i}" for i in range(n)], seed)
        bots = [make_policy("random" if (seed + i) % 2 else "greedy", seed + i)
                for i in range(state.game.chariots)]
        while not state.over:
            for move in state.legal_moves():
                fast = _after(state, move)
                if fast is not None:
                    assert fast == _after_slow(state, move), (state.notation(), move)
                    checked += 1
            play_turn(state, bots[state.turn])
    assert checked > 1000


def test_greedy_is_deterministic(rules_of, oval) -> None:
    rules = rules_of("dicetree-2022")
    runs = []
    for _ in range(2):
        state, _ = new_race(rules, oval, ["a", "b", "c"], 5)
        while not state.over:
            play_turn(state, greedy_policy)
        runs.append(state.notation())
    assert runs[0] == runs[1]
