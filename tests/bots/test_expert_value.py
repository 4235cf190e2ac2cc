"""The expert bot's learned evaluation (engine/bots/expert_value.py): the stored
coefficients name every feature, a leader is rated above a straggler, decided races are 1 or
0, and the value reads nothing a seat cannot see (the same for every deal of the hidden
cards consistent with its information set)."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from avecaesar.engine.bots.expert import value
from avecaesar.engine.bots.expert_value import (
    FEATURES,
    coefficients,
    decided,
    features,
    win_chance,
)
from avecaesar.engine.bots.information import Observer, skeleton
from avecaesar.engine.bots.policies import greedy_policy, remaining
from avecaesar.engine.bots.registry import OWNERLESS
from avecaesar.engine.core.race import new_race, play_turn
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.state import RaceState
from avecaesar.engine.core.types import RACING

COURSES = [("dicetree-2022", "dicetree-2022/arena-carthago"),
           ("pro-ludo-2006", "pro-ludo-2006/circus-maximus"),
           ("ravensburger-1989", "ravensburger-1989/a-white")]


def race_until(ruleset: str, course: str, seed: int, stop: float) -> RaceState:
    """A greedy race played until some chariot has at most ``stop`` of its way left."""
    rules, board = race_setup(ruleset, [], {}, course)
    state, _ = new_race(rules, board, ["a", "b", "c", "d"], seed)
    state.log = False
    full = remaining(state, 0)
    while not state.over and min(remaining(state, c) for c in range(4)
                                 if state.status[c] == RACING) > stop * full:
        play_turn(state, greedy_policy, OWNERLESS)
    return state


def test_the_stored_coefficients_name_every_feature() -> None:
    # the package's folder: the compiled module's own file is in _compiled/
    stored = json.loads(resources.files("avecaesar.engine.bots").joinpath(
        "expert_value.json").read_text("utf-8"))["coefficients"]
    assert set(stored) == set(FEATURES)
    assert len(coefficients()) == len(FEATURES)


@pytest.mark.parametrize(("ruleset", "course"), COURSES)
def test_a_leader_near_the_finish_is_rated_above_the_last(ruleset: str, course: str) -> None:
    checked = 0
    for seed in range(6):
        state = race_until(ruleset, course, seed, 0.15)
        open_ = [c for c in range(4) if state.status[c] == RACING and decided(state, c) is None]
        if len(open_) < 3:
            continue
        by_way = sorted(open_, key=lambda c: remaining(state, c))
        lead, last = by_way[0], by_way[-1]
        if remaining(state, last) - remaining(state, lead) < 12:
            continue  # not an obvious case
        checked += 1
        assert win_chance(state, lead) > win_chance(state, last) + 0.25
        assert value(state, lead) > value(state, last)
    assert checked >= 2


def test_decided_races_are_one_or_zero() -> None:
    rules, board = race_setup("dicetree-2022", [], {}, "dicetree-2022/arena-carthago")
    state, _ = new_race(rules, board, ["a", "b", "c", "d"], 3)
    state.log = False
    while not state.finish_order:
        play_turn(state, greedy_policy, OWNERLESS)
    first = state.finish_order[0]
    assert win_chance(state, first) == (0.0 if state.dq[first] else 1.0)
    assert all(win_chance(state, c) == 0.0 for c in range(4) if c != first)


@pytest.mark.parametrize(("ruleset", "course"), COURSES)
def test_the_value_is_the_same_for_every_deal_of_the_hidden_cards(ruleset: str,
                                                                  course: str) -> None:
    for seed, stop in ((11, 0.7), (12, 0.4), (13, 0.2)):
        state = race_until(ruleset, course, seed, stop)
        me = state.turn
        if state.over or decided(state, me) is not None:
            continue
        skel = skeleton(state, me)
        observer = Observer()
        observer.observe(skel, me)
        rng = random.Random(seed)
        worlds = [observer.deal(skel, me, rng) for _ in range(8)]
        assert any(w.hands != state.hands for w in worlds)  # the deals differ
        expected = features(state, me)
        for world in worlds:
            assert features(world, me) == expected
            assert value(world, me) == value(state, me)
