"""A vocabulary for the house rules people play (issue 20): conditions on where a chariot
stands, effects that draw or discard cards, and the two house rules of the issue raced from
YAML alone (rulesets/examples/), every move of the record checked against them.

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
from avecaesar.engine.core.moves import card_forbidden, why_not
from avecaesar.engine.core.race import run_race
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.rule_values import freeze
from avecaesar.engine.core.ruleset_adapter import rules_from_ruleset
from avecaesar.engine.core.state import Move, RaceGame, RaceState
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
    assert set(PARAM_CONDITIONS) == {"within_spaces_of_line"}


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
    refused = ones_elsewhere = 0
    for state, turn in _record_turns(edition, "no-1-in-a-curve.yaml", course, range(6)):
        c = turn["chariot"]
        pos = state.pos[c]
        in_curve = pos is not None and state.game.board.piece_kind[pos] == "curve"
        move = turn.get("move")
        if move is not None:
            assert why_not(state, move) is None
            assert not (in_curve and move.card == 1), state.notation()
            ones_elsewhere += move.card == 1
        if in_curve and 1 in state.cards(c):
            refused += 1
            assert "in a curve (house rule)" in (card_forbidden(state, c, 1) or "")
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
