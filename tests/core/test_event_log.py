"""RaceState.log: with it off (simulate, the search bot's rollouts) push and skip build
none of the move's own events, and the race goes exactly as with it on."""

from __future__ import annotations

from avecaesar.engine.bots.policies import greedy_policy
from avecaesar.engine.core.race import new_race, play_turn
from avecaesar.engine.core.race_setup import race_setup

COURSE, RULESET = "dicetree-2022/hippodrom-constantinople", "dicetree-2022"


def test_a_race_without_events_goes_as_with_them() -> None:
    rules, board = race_setup(RULESET, [], {}, COURSE)
    for seed in range(4):
        loud, _ = new_race(rules, board, [f"g{i}" for i in range(6)], seed)
        quiet, _ = new_race(rules, board, [f"g{i}" for i in range(6)], seed)
        quiet.log = False
        kinds: set[str] = set()
        while not loud.over:
            a = play_turn(loud, greedy_policy, greedy_policy)
            b = play_turn(quiet, greedy_policy, greedy_policy)
            assert a.get("move") == b.get("move") and a.get("skip") == b.get("skip")
            assert quiet.notation() == loud.notation()
            kinds.update(e.kind for e in a["events"])
            assert not {e.kind for e in b["events"]} & {"move", "lap", "skip", "finish", "end"}
        assert quiet.over and {"move", "lap", "finish", "end"} <= kinds


def test_a_copy_keeps_the_switch() -> None:
    rules, board = race_setup(RULESET, [], {}, COURSE)
    state, _ = new_race(rules, board, ["a", "b", "c"], 1)
    assert state.log and state.copy().log
    state.log = False
    assert not state.copy().log
