"""Properties over many seeded races: points conserved, one chariot per space, forward only,
every race ends, notation round-trips, replay reproduces the record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from avecaesar.engine.policies import greedy_policy, make_policy
from avecaesar.engine.race import new_race, play_turn, run_race
from avecaesar.engine.record import read_record, record_lines, replay, write_record
from avecaesar.engine.state import RaceState

EDITIONS = ("dicetree-2022", "ravensburger-1989", "pro-ludo-2006", "pro-ludo-2006+ownerless",
            "dicetree-2022+team-gladiator")
BOTS = ("greedy", "random")


def policies(seed: int, n: int):
    return [make_policy(BOTS[(seed + i) % 2], seed * 10 + i) for i in range(n)]


def _board(name, oval):
    if name == "oval":
        return oval
    from avecaesar.engine.board import Board
    from avecaesar.engine.course import bundled_courses, load_course

    if name not in bundled_courses():
        pytest.skip(f"course {name} not bundled yet")
    return Board.from_graph(load_course(name).graph, name)


@pytest.mark.parametrize("course", ["oval", "dicetree-2022/hippodrom-constantinople",
                                    "ravensburger-1989/b-yellow"])
@pytest.mark.parametrize("edition", EDITIONS)
def test_invariants_over_seeded_races(edition, course, rules_of, oval):
    rules = rules_of(edition)
    board = _board(course, oval)
    for seed in range(12):
        n = min(2 + seed % 5, len(board.start_places))
        state, setup = new_race(rules, board, [f"p{i}" for i in range(n)], seed)
        pols = policies(seed, n)
        by_chariot = [pols[s] for s in setup["seats"]]
        by_chariot += [greedy_policy] * (state.game.chariots - n)  # chariots nobody drives
        n = state.game.chariots
        turns = 0
        while not state.over:
            start = state.pos[state.turn]
            t = play_turn(state, by_chariot[state.turn])
            turns += 1
            assert turns < 5000, "a race must end"
            # the 84 points are conserved: hand + deck + played
            # (Team Gladiator chariots move by position after one revealed card: no deck)
            tg = rules.ownerless is not None and rules.ownerless.position_moves is not None
            assert all(state.points_total(c) == rules.deck_points for c in range(n)
                       if not (tg and state.game.is_ownerless(c)))
            # never two chariots on a space
            spaces = [p for p in state.pos if p is not None]
            assert len(spaces) == len(set(spaces))
            # chariots only move forward: every step is a forward edge of the lane graph
            # (race progress itself may dip when a chariot swings out in a curve)
            if "move" in t and t["move"].card:
                node = start
                for nxt in t["move"].path:
                    assert nxt in dict(board.succ[node])
                    node = nxt
                assert len(t["move"].path) <= t["move"].card
        assert state.end in ("finished", "deadlock")


def test_same_seed_same_race(rules_of, oval):
    rules = rules_of("dicetree-2022")
    a = run_race(rules, oval, ["a", "b", "c", "d"], policies(7, 4), 7)
    b = run_race(rules, oval, ["a", "b", "c", "d"], policies(7, 4), 7)
    assert a.state.notation() == b.state.notation()
    assert [t.get("move") for t in a.turns] == [t.get("move") for t in b.turns]
    c = run_race(rules, oval, ["a", "b", "c", "d"], policies(7, 4), 8)
    assert c.state.notation() != a.state.notation()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 150), n=st.integers(2, 6))
def test_notation_round_trips(seed, plies, n, rules_of, oval):
    rules = rules_of("dicetree-2022")
    state, _setup = new_race(rules, oval, [f"p{i}" for i in range(n)], seed)
    pol = make_policy("random", seed)
    for _ in range(plies):
        if state.over:
            break
        play_turn(state, pol)
    text = state.notation()
    again = RaceState.parse(state.game, text)
    assert again.notation() == text
    assert again == state
    # the parsed state plays on exactly like the original
    if not state.over:
        assert list(again.legal_moves()) == list(state.legal_moves())


@pytest.mark.parametrize("edition", EDITIONS)
def test_replay_reproduces_the_record(edition, rules_of, oval, tmp_path):
    rules = rules_of(edition)
    for seed in (3, 4):
        run = run_race(rules, oval, ["a", "b", "c"], policies(seed, 3), seed)
        header = {"ruleset": edition, "variants": [], "overrides": {}, "course": "oval",
                  "seed": seed, "players": [{"name": x, "bot": "greedy"} for x in "abc"]}
        path = tmp_path / f"{edition}-{seed}.jsonl"
        write_record(path, record_lines(run, header))
        lines = read_record(path)
        final = replay(lines, rules, oval, str(path))
        assert final.notation() == run.state.notation()
        assert json.loads(path.read_text().splitlines()[-1])["final"] == final.notation()


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="0123456789,|- ABCrfxqcs", max_size=60))
def test_bad_notation_is_a_clear_error(text, rules_of, oval):
    from avecaesar.engine.notation import NotationError
    from avecaesar.engine.state import RaceGame

    game = RaceGame(rules_of("dicetree-2022"), oval, ("A", "B"))
    try:
        RaceState.parse(game, text)
    except NotationError as err:
        assert "bad race notation" in str(err)


def test_game_record_schema_is_valid():
    import jsonschema

    from avecaesar.schemas import schema

    doc = schema("urn:avecaesar:game-record")
    jsonschema.Draft202012Validator.check_schema(doc)
    assert doc["$schema"].endswith("2020-12/schema")


@pytest.mark.parametrize("course", ["oval", "dicetree-2022/hippodrom-constantinople"])
def test_bot_distance_table_matches_the_shortest_legal_race(course, rules_of, oval):
    # the greedy bot's "steps still to go" from a start place is the course's shortest
    # legal race (DESIGN "A course is a lane graph"; engine/race_path.py)
    from avecaesar.engine.course import load_course
    from avecaesar.engine.policies import remaining

    board = _board(course, oval)
    path = str(Path(__file__).parent / "courses" / "oval.yaml") if course == "oval" else course
    figures = load_course(path).figures()
    state, _ = new_race(rules_of("dicetree-2022"), board, ["a"], 1)
    for place, start in enumerate(board.start_places):
        state.pos[0] = start
        if board.start_crossings[place] != board.start_crossings[0]:
            continue
        assert remaining(state, 0) == figures.shortest_race[place]
