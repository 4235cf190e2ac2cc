"""Properties over many seeded races: points conserved, one chariot per space, forward only,
every race ends, notation round-trips, replay reproduces the record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from avecaesar.engine.bots.policies import greedy_policy
from avecaesar.engine.bots.registry import make_policy
from avecaesar.engine.core.race import new_race, play_turn, run_race
from avecaesar.engine.core.record import read_record, record_lines, replay, write_record
from avecaesar.engine.core.state import RaceState

EDITIONS = ("dicetree-2022", "ravensburger-1989", "pro-ludo-2006", "pro-ludo-2006+ownerless",
            "dicetree-2022+team-gladiator")
BOTS = ("greedy", "random")


def policies(seed: int, n: int):
    return [make_policy(BOTS[(seed + i) % 2], seed * 10 + i) for i in range(n)]


def _board(name, oval):
    if name == "oval":
        return oval
    from avecaesar.engine.core.board import Board
    from avecaesar.engine.course.load import bundled_courses, load_course

    if name not in bundled_courses():
        pytest.skip(f"course {name} not bundled yet")
    return Board.from_graph(load_course(name).graph, name)


COURSES = ("oval", "dicetree-2022/hippodrom-constantinople", "ravensburger-1989/b-yellow")
RACES_PER_CASE = 134  # 5 editions x 3 courses x 134 = 2,010 seeded races
EXHAUSTIVE_EVERY = 9  # these races also compare the move generator with why_not everywhere
REPLAY_EVERY = 12  # these races are also recorded and replayed
_BOARDS: dict[tuple[str, str], object] = {}


def _race_board(course, rules, oval):
    """The board a race uses (water contracted where the rules skip it, as the CLI does)."""
    from avecaesar.engine.core.board import Board
    from avecaesar.engine.course.load import contract_water, load_course

    if course == "oval":
        return oval
    key = (course, rules.water)
    if key not in _BOARDS:
        _board(course, oval)  # skips if the course is not bundled
        g = load_course(course).graph
        _BOARDS[key] = Board.from_graph(contract_water(g) if rules.water == "skipped" else g,
                                        course)
    return _BOARDS[key]


def _generator_agrees_with_why_not(state):
    """Every walk of every card in hand (on the empty track) is legal by ``why_not`` exactly
    when the move generator lists it; a skip is forced exactly when nothing is legal."""
    from avecaesar.engine.core.moves import walks, why_not
    from avecaesar.engine.core.state import WAIT, Move

    c = state.turn
    listed = set(state.legal_moves())
    checked = {Move(k, p) for k in set(state.cards(c)) for p in walks(state, c, k, empty=True)
               if why_not(state, Move(k, p)) is None}
    if why_not(state, WAIT) is None:
        checked.add(WAIT)
    assert checked == listed, state.notation()


@pytest.mark.parametrize("course", COURSES)
@pytest.mark.parametrize("edition", EDITIONS)
def test_invariants_over_seeded_races(edition, course, rules_of, oval):
    """2,010 seeded races (2-6 players, greedy and random bots mixed): the 84 points are
    conserved, never two chariots on a space, every step is a forward edge, every move is
    legal by the checked path (``why_not``), every race ends; a sample also compares the
    generator with ``why_not`` at every turn and replays its record exactly."""
    from avecaesar.engine.core.moves import why_not
    from avecaesar.engine.core.race import RaceRun, outcome

    rules = rules_of(edition)
    board = _race_board(course, rules, oval)
    forward = {(u, v) for u, succ in enumerate(board.succ) for v, _fin in succ}
    tg = rules.ownerless is not None and rules.ownerless.position_moves is not None
    total = rules.deck_points
    base = EDITIONS.index(edition) * 1000 + COURSES.index(course) * 10_000
    for i in range(RACES_PER_CASE):
        seed = base + i
        n = min(2 + i % 5, len(board.start_places))
        state, setup = new_race(rules, board, [f"p{j}" for j in range(n)], seed)
        # mostly random bots (cheap, and they try everything), greedy in some seats
        pols = [make_policy("greedy" if (seed + j) % 3 == 0 else "random", seed * 10 + j)
                for j in range(n)]
        by_chariot = [pols[s] for s in setup["seats"]]
        by_chariot += [greedy_policy] * (state.game.chariots - n)  # chariots nobody drives
        chariots = state.game.chariots
        own = [state.game.is_ownerless(c) for c in range(chariots)]
        exhaustive = i % EXHAUSTIVE_EVERY == 0
        turns = []

        def checked(policy):
            def choose(st, moves):
                move = policy(st, moves)
                assert why_not(st, move) is None, (st.notation(), str(move))
                return move
            return choose

        checked_by_chariot = [checked(p) for p in by_chariot]
        while not state.over:
            c = state.turn
            start = state.pos[c]
            if exhaustive:
                _generator_agrees_with_why_not(state)
            before = state.copy() if own[c] else None
            t = play_turn(state, checked_by_chariot[c], greedy_policy)
            turns.append(t)
            assert len(turns) < 5000, "a race must end"
            c = t["chariot"]
            move = t.get("move")
            if move is not None and before is not None:
                assert why_not(before, move) is None  # a chariot nobody drives, too
            # the 84 points are conserved (only the chariot that moved changed its cards);
            # Team Gladiator chariots move by position after one revealed card: no deck
            if not (tg and own[c]):
                assert sum(state.hands[c]) + sum(state.decks[c]) + sum(state.played[c]) \
                    == total
            if move is not None and move.card:
                # one chariot per space: the one that moved landed on a free space
                p = state.pos[c]
                assert p is None or state.pos.count(p) == 1
                # forward only: every step is a forward edge of the lane graph, no more
                # steps than the card (steps beyond the line lapse)
                node = start
                for nxt in move.path:
                    assert (node, nxt) in forward
                    node = nxt
                assert len(move.path) <= move.card
        assert state.end in ("finished", "deadlock")
        spaces = [p for p in state.pos if p is not None]
        assert len(spaces) == len(set(spaces))
        assert all(state.points_total(c) == total for c in range(chariots)
                   if not (tg and own[c]))
        if i % REPLAY_EVERY == 0:
            run = RaceRun(state, setup, turns, outcome(state))
            header = {"ruleset": edition, "variants": [], "overrides": {}, "course": course,
                      "seed": seed, "players": [{"name": f"p{j}", "bot": "mixed"}
                                                for j in range(n)]}
            lines = [{**json.loads(json.dumps(x)), "_line": k}
                     for k, x in enumerate(record_lines(run, header), start=1)]
            final = replay(lines, rules, board, f"{edition}-{seed}")
            assert final.notation() == state.notation()
            assert RaceState.parse(state.game, state.notation()).notation() == \
                state.notation()


def test_same_seed_same_race(rules_of, oval):
    rules = rules_of("dicetree-2022")
    a = run_race(rules, oval, ["a", "b", "c", "d"], policies(7, 4), 7,
                   ownerless=greedy_policy)
    b = run_race(rules, oval, ["a", "b", "c", "d"], policies(7, 4), 7,
                   ownerless=greedy_policy)
    assert a.state.notation() == b.state.notation()
    assert [t.get("move") for t in a.turns] == [t.get("move") for t in b.turns]
    c = run_race(rules, oval, ["a", "b", "c", "d"], policies(7, 4), 8,
                   ownerless=greedy_policy)
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
        play_turn(state, pol, greedy_policy)
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
        run = run_race(rules, oval, ["a", "b", "c"], policies(seed, 3), seed,
                       ownerless=greedy_policy)
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
    from avecaesar.engine.core.notation import NotationError
    from avecaesar.engine.core.state import RaceGame

    game = RaceGame(rules_of("dicetree-2022"), oval, ("A", "B"))
    try:
        RaceState.parse(game, text)
    except NotationError as err:
        assert "bad race notation" in str(err)


def test_game_record_schema_is_valid():
    import jsonschema

    from avecaesar.engine.data.schemas import schema

    doc = schema("urn:avecaesar:game-record")
    jsonschema.Draft202012Validator.check_schema(doc)
    assert doc["$schema"].endswith("2020-12/schema")


@pytest.mark.parametrize("course", ["oval", "dicetree-2022/hippodrom-constantinople"])
def test_bot_distance_table_matches_the_shortest_legal_race(course, rules_of, oval):
    # the greedy bot's "steps still to go" from a start place is the course's shortest
    # legal race (DESIGN "A course is a lane graph"; engine/course/race_path.py)
    from avecaesar.engine.bots.policies import remaining
    from avecaesar.engine.course.load import load_course

    board = _board(course, oval)
    path = str(Path(__file__).parent / "courses" / "oval.yaml") if course == "oval" else course
    figures = load_course(path).figures()
    state, _ = new_race(rules_of("dicetree-2022"), board, ["a"], 1)
    for place, start in enumerate(board.start_places):
        state.pos[0] = start
        if board.start_crossings[place] != board.start_crossings[0]:
            continue
        assert remaining(state, 0) == figures.shortest_race[place]


def test_a_hand_given_out_of_order_has_the_moves_of_the_sorted_hand(position) -> None:
    """Legal moves walk the hand's distinct cards in ascending order without sorting it (a
    state keeps its hands sorted, issue 13); a hand given to the constructor unsorted and
    with repeats is sorted first, so its moves are the same, in the same order."""
    s = position("dicetree-2022", "22,1,c,2366,-,5,r 19,1,c,345,-,4,r | A 0 2 -")
    shuffled = s.copy()
    shuffled.hands[0] = (6, 3, 2, 6)
    assert list(shuffled.legal_moves()) == list(s.legal_moves())
    assert len(shuffled.legal_moves()) == len(s.legal_moves()) > 0
