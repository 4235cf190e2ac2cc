"""A vocabulary for the house rules people play (issue 20): conditions on where a chariot
stands, effects that draw or discard cards and that move a chariot's alley window, and the
house rules of the issue raced from YAML alone (rulesets/examples/), every move of the
record checked against them.

Each condition and effect here is the project's own vocabulary (a house rule's provenance,
``house rule: …``); the course facts they read (piece kinds, lanes, the finish line) are the
course model's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.app import app
from avecaesar.engine.bots.registry import OWNERLESS, make_policy
from avecaesar.engine.core.conditions import PARAM_CONDITIONS, Context, check_expression, holds
from avecaesar.engine.core.effects import check_effect_list
from avecaesar.engine.core.moves import (
    _cannot_be_passed,
    alley_pending,
    card_forbidden,
    move_facts,
    why_not,
)
from avecaesar.engine.core.notation import NotationError
from avecaesar.engine.core.race import run_race
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.rule_values import freeze
from avecaesar.engine.core.ruleset_adapter import rules_from_ruleset
from avecaesar.engine.core.state import Move, RaceGame, RaceState
from avecaesar.engine.core.view import public_view
from avecaesar.engine.course.alley_window import counts, passed
from avecaesar.engine.ruleset.load import load_ruleset

EXAMPLES = Path(__file__).resolve().parents[2] / "rulesets" / "examples"
runner = CliRunner()


def _holds(state, c, expr):
    x = Context(state, c, frozenset(), lambda s, o: False, lambda s, o: False)
    return holds(freeze(expr), x)


def _on(course, edition="pro-ludo-2006"):
    rules, board = race_setup(edition, [], {}, course)
    return rules, board


def _alone_at(rules, board, node):
    text = f"{node},2,s,123,-,5,r -,2,c,-,-,4,x | A 0 20 -"
    return RaceState.parse(RaceGame(rules, board, ("A", "B")), text)


@pytest.mark.covers("condition:in_curve", "condition:on_straight", "condition:on_bridge",
                    "condition:in_inside_lane", "condition:in_outside_lane")
def test_where_a_chariot_stands():
    rules, board = _on("pro-ludo-2006/constantinople")
    label = {lab: n for n, lab in enumerate(board.label)}
    cases = {  # space → (curve, straight, bridge, inside, outside)
        "east.0.0": (True, False, False, True, False),
        "east.1.3": (True, False, False, False, True),
        "home.0.0": (False, True, False, True, False),
        "narrow-1.1.0": (False, False, True, False, True),
    }
    names = ("in_curve", "on_straight", "on_bridge", "in_inside_lane", "in_outside_lane")
    for space, want in cases.items():
        s = _alone_at(rules, board, label[space])
        assert tuple(_holds(s, 0, n) for n in names) == want, space
    alley = next(n for n, a in enumerate(board.alley) if a)
    s = _alone_at(rules, board, alley)
    assert _holds(s, 0, "in_alley") and not _holds(s, 0, "in_inside_lane")


@pytest.mark.covers("condition:within_spaces_of_line")
def test_within_spaces_of_the_line(oval, rules_of):
    # the oval: 83 → 0 crosses the line, so 83 is 1 step from it and 80 (behind 83) 2
    s = RaceState.parse(RaceGame(rules_of("dicetree-2022"), oval, ("A", "B")),
                        "83,1,c,123,-,5,r 80,1,c,123,-,5,r | A 0 2 -")
    assert oval.to_line[83] == 1
    assert _holds(s, 0, {"within_spaces_of_line": 1})
    assert not _holds(s, 1, {"within_spaces_of_line": oval.to_line[80] - 1})
    assert _holds(s, 1, {"within_spaces_of_line": oval.to_line[80]})
    assert check_expression({"within_spaces_of_line": 3}) == []
    assert "whole number" in check_expression({"within_spaces_of_line": "three"})[0]
    assert "takes its spaces" in check_expression("within_spaces_of_line")[0]
    assert set(PARAM_CONDITIONS) == {"within_spaces_of_line", "only_cards_in_hand"}


@pytest.mark.covers("condition:only_cards_in_hand")
def test_only_cards_in_hand_is_the_six_rules_release_for_any_cards(oval, rules_of):
    """``{only_cards_in_hand: [5, 6]}``: every card the chariot may play from is one of
    those — the 6-card rule's "only sixes in hand" (Pro Ludo 2006 Spielregel (DE) p.5,
    "dreimal eine 6") for a house ban's cards; checked by kind, frozen hashable."""
    s = RaceState.parse(RaceGame(rules_of("dicetree-2022"), oval, ("A", "B")),
                        "22,1,c,556,-,5,r 19,1,c,156,-,4,r | A 0 2 -")
    assert _holds(s, 0, {"only_cards_in_hand": [5, 6]})
    assert not _holds(s, 1, {"only_cards_in_hand": [5, 6]})  # B holds a 1
    assert _holds(s, 1, {"only_cards_in_hand": [1, 5, 6]})
    assert not _holds(s, 0, {"only_cards_in_hand": [6]})
    assert check_expression({"only_cards_in_hand": [1, 6]}) == []
    for bad in ([], [0], [10], 5, "5", [True]):
        [problem] = check_expression({"only_cards_in_hand": bad})
        assert "card values, a list such as [1, 6]" in problem, bad
    assert "write {only_cards_in_hand: [1, 6]}" in check_expression("only_cards_in_hand")[0]
    assert hash(freeze({"only_cards_in_hand": [5, 6]})) == hash(
        freeze({"only_cards_in_hand": [6, 5]}))


def test_unknown_names_get_did_you_mean():
    msg = check_expression("in_curv")[0]
    assert "unknown condition 'in_curv' — did you mean 'in_curve'? (one of: " in msg


@pytest.mark.covers("effect:draw_card", "effect:discard_card")
def test_draw_and_discard_cards(oval):
    rs = load_ruleset("dicetree-2022", [], {"effects.extra": (
        "{alley_stop: [{effect: draw_card, count: 2}], "
        "no_move: [{effect: discard_card, count: 1}]}")})
    rules = rules_from_ruleset(rs)
    game = RaceGame(rules, oval, ("A", "B"))
    # A stops in the alley (5 → 9, lap 2): it pays its coin and draws 2 beyond its hand
    s = RaceState.parse(game, "5,2,c,136,4455,6,r 22,1,c,111,-,4,r | A 0 2 -")
    s.log = True
    events = s.push(Move(1, (9,)))
    assert s.stopped[0] and s.hands[0] == (3, 4, 4, 5, 6) and s.decks[0] == (5,)
    assert [e.kind for e in events].count("draw") == 2
    assert s.points_total(0) == 1 + 3 + 6 + 4 + 4 + 5 + 5 + 6
    # B has no legal move: it skips and discards its highest card
    t = RaceState.parse(game, "46,1,c,1,-,5,r 49,1,c,346,-,4,r | A 0 2 -")
    assert not t.legal_moves()
    t.skip(t.legal_moves().skip_reason)
    assert t.hands[0] == () and t.played[0] == (5, 1)


SKIP_EXTENDS = EXAMPLES / "skip-extends-alley-window.yaml"


@pytest.mark.covers("effect:extend_alley_window")
def test_a_moved_window_offers_and_counts_the_stop_out_of_the_window(oval):
    """Ravensburger 1989 rules (EN summary), alley: the stop counts in laps 1 and 2. A (lap
    3, no stop made) can play its 1 into the alley (5 → 9): out of the window, the move
    is no stop and the miss disqualifies it; with its window moved one lap later by the
    house rule's effect, the stop is still to make, the move makes it and it counts."""
    rules = rules_from_ruleset(load_ruleset("ravensburger-1989", [str(SKIP_EXTENDS)], {}))
    game = RaceGame(rules, oval, ("A", "B"))
    into_alley = Move(1, (9,))
    assert oval.alley[9] and rules.alley_laps == (1, 2)
    plain = RaceState.parse(game, "5,3,c,136,4455,6,r 22,1,c,111,-,4,r | A 0 2 -")
    assert plain.lap(0) == 3 and plain.window(0) == (1, 2)
    assert not alley_pending(plain, 0) and into_alley in plain.legal_moves()
    assert move_facts(plain, into_alley).dq
    kinds = [e.kind for e in plain.copy().push(into_alley)]
    assert "alley_stop" not in kinds and "disqualified" in kinds
    moved = RaceState.parse(game, "5,3,c+1,136,4455,6,r 22,1,c,111,-,4,r | A 0 2 -")
    assert moved.window(0) == (1, 2, 3) and moved.window(1) == (1, 2)
    assert alley_pending(moved, 0) and into_alley in moved.legal_moves()
    facts = move_facts(moved, into_alley)
    assert facts.stopped and not facts.dq
    events = moved.push(into_alley)
    assert [e.kind for e in events][:2] == ["move", "alley_stop"] and moved.stopped[0]
    assert not moved.dq[0]
    assert moved.notation().startswith("9,3,s+1,")  # the window is part of the position
    assert RaceState.parse(game, moved.notation()) == moved
    assert public_view(moved)["chariots"][0]["alley_laps"] == [1, 2, 3]
    assert "alley_laps" not in public_view(plain)["chariots"][0]
    with pytest.raises(NotationError, match="extended by"):
        RaceState.parse(game, "5,3,c+x,136,4455,6,r 22,1,c,111,-,4,r | A 0 2 -")


@pytest.mark.covers("effect:extend_alley_window")
def test_a_skip_moves_the_window_once(oval):
    """The effect on ``no_move``: the chariot that skips gets its window one lap later;
    skipping again does not add another lap."""
    rules = rules_from_ruleset(load_ruleset("ravensburger-1989", [str(SKIP_EXTENDS)], {}))
    game = RaceGame(rules, oval, ("A", "B"))
    s = RaceState.parse(game, "46,1,c,1,-,5,r 49,1,c,346,-,4,r | A 0 2 -")
    assert not s.legal_moves()  # A's 1 is blocked by B
    first = s.skip("blocked")
    assert s.later_laps == (1, 0) and s.window(0) == (1, 2, 3)
    assert [e.data for e in first if e.kind == "alley_window"] == [{"laps": [1, 2, 3]}]
    s.turn = 0
    again = s.skip("blocked")
    assert s.later_laps == (1, 0) and not [e for e in again if e.kind == "alley_window"]
    assert "extend_alley_window" in str(check_effect_list(
        "alley_stop", [{"effect": "extend_alley_window", "laps": 1}], "here"))


def _record_turns(edition, variant, course, seeds, players=3):
    """(state before the turn, the turn) over seeded greedy races of the house rule."""
    rules, board = race_setup(edition, [str(EXAMPLES / variant)], {}, course)
    for seed in seeds:
        run = run_race(rules, board, [f"P{i}" for i in range(players)],
                       [make_policy("greedy", seed * 100 + i) for i in range(players)],
                       seed, ownerless=OWNERLESS)
        state = RaceState.parse(run.state.game,
                                run.setup["start"])
        state.log = True
        for turn in run.turns:
            yield state, turn
            if "move" in turn:
                state.push(turn["move"])
            else:
                state.skip(turn["skip"])
        assert state.notation() == run.state.notation()  # the record replays as played


@pytest.mark.covers("condition:in_curve")
@pytest.mark.parametrize("edition,course", [
    ("dicetree-2022", "dicetree-2022/arena-carthago"),
    ("pro-ludo-2006", "pro-ludo-2006/constantinople"),
])
def test_no_1_in_a_curve_races_from_yaml_alone(edition, course):
    refused = ones_elsewhere = released = 0
    for state, turn in _record_turns(edition, "no-1-in-a-curve.yaml", course, range(6)):
        c = turn["chariot"]
        pos = state.pos[c]
        in_curve = pos is not None and state.game.board.piece_kind[pos] == "curve"
        move = turn.get("move")
        # its release: nothing but 1s in hand, or nobody can pass it
        freed = set(state.cards(c)) == {1} or _cannot_be_passed(state, c)
        if move is not None:
            assert why_not(state, move) is None
            assert not (in_curve and move.card == 1 and not freed), state.notation()
            ones_elsewhere += move.card == 1 and not in_curve
            released += in_curve and move.card == 1
        if in_curve and 1 in state.cards(c) and not freed:
            refused += 1
            why = card_forbidden(state, c, 1)
            assert why is not None and why.params.get("text") == (
                "nobody may play a {card} in a curve (house rule)")
    assert refused > 0 and ones_elsewhere > 0  # both sides of the rule were met


@pytest.mark.covers("effect:draw_card")
@pytest.mark.parametrize("edition,course", [
    ("ravensburger-1989", "ravensburger-1989/a-white"),
    ("dicetree-2022", "dicetree-2022/arena-carthago"),
])
def test_an_alley_stop_draws_one_extra_card_from_yaml_alone(edition, course):
    stops = 0
    for state, turn in _record_turns(edition, "alley-stop-draws-a-card.yaml", course, range(4)):
        c = turn["chariot"]
        move = turn.get("move")
        if move is None:
            continue
        assert why_not(state, move) is None
        deck_before = len(state.decks[c])
        events = state.copy().push(move)
        kinds = [e.kind for e in events]
        if "alley_stop" in kinds and not state.game.is_ownerless(c) and deck_before >= 2:
            stops += 1
            assert kinds.count("draw") == 1
            after = state.copy()
            after.push(move)
            assert len(after.hands[c]) == state.game.rules.hand_size + 1
        else:
            assert "draw" not in kinds
    assert stops > 0


@pytest.mark.covers("effect:extend_alley_window")
@pytest.mark.parametrize("course", ["ravensburger-1989/a-white", "ravensburger-1989/b-red"])
def test_a_skip_moves_the_alley_window_from_yaml_alone(course):
    """Every turn of seeded 1989 races under the house rule: a chariot's window is the
    ruleset's (laps 1, 2) until it skips, then one lap later (1, 2, 3); every alley stop
    and every miss of the record is judged by the mover's own window."""
    skipped: set[int] = set()
    extended_moves = 0
    for state, turn in _record_turns("ravensburger-1989", "skip-extends-alley-window.yaml",
                                     course, range(10), players=4):
        if state.ply == 0:  # a new race
            skipped.clear()
        c = turn["chariot"]
        window = (1, 2, 3) if c in skipped else (1, 2)
        assert state.window(c) == window, state.notation()
        move = turn.get("move")
        if move is None:
            if not state.game.is_ownerless(c):
                skipped.add(c)
            continue
        assert why_not(state, move) is None
        after = state.copy()
        kinds = [e.kind for e in after.push(move)]
        lap, end = after.lap(c), move.path[-1]
        stops = (state.game.board.alley[end] and counts(window, lap)
                 and not state.stopped[c])
        assert ("alley_stop" in kinds) == stops, state.notation()
        if "disqualified" in kinds and not state.dq[c]:  # the miss, by its own window
            assert passed(window, lap) or after.status[c] == "f", state.notation()
        extended_moves += c in skipped and not state.stopped[c]
    assert skipped and extended_moves > 0  # the rule was met by chariots still to stop


@pytest.mark.parametrize("how", ["variant", "set", "house"])
def test_an_unknown_name_from_any_input_says_did_you_mean(tmp_path, how):
    args = ["race", "-r", "dicetree-2022", "-c", "dicetree-2022/arena-carthago"]
    bad = "[{cards: [1], forbidden_when: in_curv}]"
    if how == "variant":
        f = tmp_path / "mine.yaml"
        f.write_text("id: mine\nkind: variant\ntitle: mine\nsummary: mine\n"
                     "source: 'house rule: me'\napplies_to: [any]\nrules:\n"
                     "  card_restrictions:\n    extra:\n"
                     f"      value: {bad}\n      source: 'house rule: me'\n", encoding="utf-8")
        args += ["--variant", str(f)]
    elif how == "set":
        args += ["--set", f"card_restrictions.extra={bad}"]
    else:
        f = tmp_path / "house.yaml"
        f.write_text(f"rules:\n  card_restrictions.extra: {bad}\n", encoding="utf-8")
        args += ["--house", str(f)]
    res = runner.invoke(app, args)
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "unknown condition 'in_curv' — did you mean 'in_curve'? (one of: " in res.output
    if how != "set":
        assert f"{f}:" in res.output  # file:line:col


@pytest.mark.parametrize("how", ["variant", "variant bare", "house"])
def test_draw_card_without_its_count_is_located(tmp_path, how):
    """The one ruleset error that had no file:line:col (issue 38): ``draw_card`` without
    its ``count`` is refused by ``ruleset validate`` (it said valid) and by the race, at the
    entry's line and column, saying what to add."""
    entry = "draw_card" if how == "variant bare" else "{effect: draw_card}"
    if how == "house":
        f = tmp_path / "house.yaml"
        f.write_text(f"rules:\n  effects.extra:\n    value:\n      alley_stop: [{entry}]\n"
                     "    source: 'house rule: me'\n", encoding="utf-8")
        flag, at = "--house", "4:7"
    else:
        f = tmp_path / "mine.yaml"
        f.write_text("id: mine\nkind: variant\ntitle: mine\nsummary: mine\n"
                     "source: 'house rule: me'\napplies_to: [any]\nrules:\n"
                     "  effects:\n    extra:\n      value:\n"
                     f"        alley_stop: [{entry}]\n      source: 'house rule: me'\n",
                     encoding="utf-8")
        flag, at = "--variant", "11:22"
    said = "needs its parameter" if how == "variant bare" else "missing key 'count'"
    for args in (["ruleset", "validate", str(f)],
                 ["race", "-r", "dicetree-2022", "-c", "dicetree-2022/arena-carthago", flag,
                  str(f)]):
        res = runner.invoke(app, args)
        assert res.exit_code == 1 and "Traceback" not in res.output, res.output
        assert f"{f}:{at}:" in res.output and said in res.output, res.output
