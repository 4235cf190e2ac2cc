"""The one view function (engine/core/view.py): the public view holds no hand, deck order
or seed; a seat's view adds its own hands only; a record of a race in progress is public;
the conditions that read hands are exactly the ones the public 6-card status leaves
unknown."""

from __future__ import annotations

import json
import random

from avecaesar.engine.bots.registry import OWNERLESS, make_policy
from avecaesar.engine.core.conditions import CONDITIONS, Context
from avecaesar.engine.core.race import new_race, play_turn
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.types import Event
from avecaesar.engine.core.view import (
    HAND_CONDITIONS,
    distance_to_finish,
    public_event,
    public_record,
    public_view,
    view_for,
)


def _states(ruleset: str, course: str, seed: int, n: int = 6):
    rules, board = race_setup(ruleset, [], {}, course)
    state, _ = new_race(rules, board, [f"P{i}" for i in range(n)], seed)
    bot = make_policy("greedy", seed)
    while not state.over:
        yield state
        play_turn(state, bot, OWNERLESS)


def _redealt(state, rng):
    s = state.copy()
    for c in range(len(s.hands)):
        pool = list(s.hands[c]) + list(s.decks[c])
        rng.shuffle(pool)
        k = len(s.hands[c])
        s.hands[c], s.decks[c] = tuple(sorted(pool[:k])), tuple(pool[k:])
    return s


def test_the_public_view_does_not_change_with_the_hidden_cards() -> None:
    rng = random.Random(1)
    for ruleset, course in (("dicetree-2022", "dicetree-2022/arena-carthago"),
                            ("ravensburger-1989", "ravensburger-1989/a-white")):
        for i, state in enumerate(_states(ruleset, course, 4, 4)):
            if i % 5:
                continue
            assert public_view(state) == public_view(_redealt(state, rng))
            text = json.dumps(view_for(state, [0]))
            assert "decks" not in text
            assert json.loads(text)["private"]["hands"] == {"A": list(state.hands[0])}


def test_conditions_not_marked_as_reading_hands_do_not_read_them() -> None:
    """Every other condition gives the same answer when the hidden cards are dealt again
    (the public 6-card status may ask them)."""
    rng = random.Random(2)
    seen = 0
    for state in _states("dicetree-2022", "dicetree-2022/arena-carthago", 9):
        other = _redealt(state, rng)
        for c in range(len(state.hands)):
            for name, cond in CONDITIONS.items():
                if name in HAND_CONDITIONS:
                    continue
                a = cond.test(Context(state, c, frozenset({6}), lambda *_: False,
                                      lambda *_: False))
                b = cond.test(Context(other, c, frozenset({6}), lambda *_: False,
                                      lambda *_: False))
                assert a == b, name
                seen += 1
    assert seen > 1000


def test_a_record_in_progress_is_public_and_a_finished_one_whole() -> None:
    head = {"type": "header", "seed": 7, "start": "…", "players": [{"name": "A"}]}
    turn = {"type": "move", "ply": 1, "chariot": "A", "legal": 3, "card": 2, "path": [1, 2]}
    public = public_record([head, turn])
    assert "seed" not in public[0] and "start" not in public[0] and public[0]["public"]
    assert "legal" not in public[1] and public[1]["card"] == 2
    done = [head, turn, {"type": "result", "placings": []}]
    assert public_record(done) == done


def test_a_card_put_away_unseen_is_not_named() -> None:
    e = Event("cycle", 1, {"card": 6})
    assert public_event(e).data["card"] is None and e.data["card"] == 6
    move = Event("move", 1, {"card": 3})
    assert public_event(move) is move


def test_the_distance_still_to_race_shrinks_as_the_chariot_moves() -> None:
    first = None
    for state in _states("pro-ludo-2006", "pro-ludo-2006/circus-maximus", 3, 3):
        d = distance_to_finish(state, 0)
        if first is None:
            first = d
        if d is not None:
            assert d <= first
    assert first is not None and first > 30
