"""Effects as data: the event and effect vocabulary, the adapter's lists, and a house rule of
rulesets/examples that appends an effect raced from YAML alone (no code)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from avecaesar.engine.bots.registry import OWNERLESS, make_policy
from avecaesar.engine.core.apply_effects import APPLY, bound_effects
from avecaesar.engine.core.effects import EFFECTS, EVENTS, check_effect_list
from avecaesar.engine.core.race import new_race, play_turn
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.ruleset_adapter import UnsupportedRuleError, rules_from_ruleset
from avecaesar.engine.data.errors import InputError
from avecaesar.engine.ruleset.load import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "rulesets" / "examples"
SCHEMA = ROOT / "schemas" / "ruleset.schema.json"
VARIANTS = ROOT / "rulesets" / "variants"


def test_the_schema_offers_exactly_the_registries() -> None:
    defs = json.loads(SCHEMA.read_text(encoding="utf-8"))["$defs"]
    assert defs["event"]["enum"] == list(EVENTS)
    assert defs["effect"]["enum"] == list(EFFECTS)
    assert all(e.doc for e in EVENTS.values()) and all(e.doc for e in EFFECTS.values())


def test_every_effect_that_changes_a_position_has_its_function() -> None:
    """The registry (core/effects.py, data) and the functions (core/apply_effects.py, one
    layer up) name the same effects: all but those that offer moves instead."""
    assert set(APPLY) == {name for name, e in EFFECTS.items() if not e.offers_moves}


def test_a_state_binds_its_lists_in_order_and_its_copies_share_them(oval) -> None:
    rules = rules_from_ruleset(load_ruleset("dicetree-2022", ["alley-race-card"],
                                            {"alley.race_card": 3}))
    fx = bound_effects(rules)
    assert len(fx.alley_stop) == len(rules.effects.names["alley_stop"]) == 2
    assert fx.alley_missed == () and fx.no_move == ()
    state, _ = new_race(rules, oval, ["a", "b"], 1)
    assert state.copy().fx is state.fx  # bound once a race, not once a copy
    assert len(state.fx.alley_stop) == 2


@pytest.mark.parametrize(("edition", "variants", "event", "effects"), [
    ("dicetree-2022", [], "alley_missed", ["disqualify"]),
    ("ravensburger-1989", ["dishonour"], "alley_missed", ["disqualify", "execute"]),
    ("dicetree-2022", ["alley-race-card"], "alley_missed", []),
    ("dicetree-2022", ["alley-race-card"], "alley_stop", ["give_coin", "take_race_card"]),
    ("dicetree-2022", ["money-instead-of-laurels"], "alley_stop", ["give_coin", "reshuffle"]),
    ("dicetree-2022", ["money-instead-of-laurels"], "lap_completed", ["pay_prize"]),
    ("ravensburger-1989", ["missed-turns"], "no_move", ["cycle_card"]),
    ("dicetree-2022", ["lapse-movement-points"], "no_move", ["play_smallest_loss"]),
    ("dicetree-2022", ["crash-and-burn"], "only_restricted", ["crash"]),
    ("dicetree-2022", [], "out_of_cards", ["remove"]),
])
def test_the_adapter_maps_values_to_effect_lists(edition: str, variants: list[str],
                                                 event: str, effects: list[str]) -> None:
    sets = {"alley.race_card": "4"} if "alley-race-card" in variants else (
        {"prize_money.per_lap": "[5, 3, 1]"} if "money-instead-of-laurels" in variants else {})
    rules = rules_from_ruleset(load_ruleset(edition, variants, sets))
    assert [name for name, _ in rules.effects.names[event]] == effects


@pytest.mark.covers("rule:effects.extra")
def test_an_extra_effect_is_raced_from_yaml_alone() -> None:
    """rulesets/examples/alley-race-card-3.yaml: every alley stop of a player's chariot
    also gives a race card of 3 (it joins the hand); without it, none."""
    rules, board = race_setup("dicetree-2022", [str(EXAMPLES / "alley-race-card-3.yaml")], {},
                              "dicetree-2022/hippodrom-constantinople")
    plain, _ = race_setup("dicetree-2022", [], {}, "dicetree-2022/hippodrom-constantinople")
    assert rules.effects.has("alley_stop", "take_race_card")
    assert not plain.effects.has("alley_stop", "take_race_card")
    stops = 0
    for seed in range(3):
        state, _ = new_race(rules, board, ["a", "b", "c"], seed)
        bot = make_policy("greedy", seed)
        while not state.over:
            c = state.turn
            before = state.points_total(c)
            turn = play_turn(state, bot, OWNERLESS)
            kinds = [e.kind for e in turn["events"]]
            if "alley_stop" in kinds:
                stops += 1
                i = kinds.index("alley_stop")
                card = next(e for e in turn["events"][i:] if e.kind == "alley_card")
                assert card.data == {"card": 3}
                assert state.points_total(c) == before + 3
            else:
                assert "alley_card" not in kinds
    assert stops >= 3  # the effect was met


@pytest.mark.parametrize(("extra", "words"), [
    ("{alley_stop: [take_race_crd]}", "take_race_crd"),
    ("{alley_stp: [give_coin]}", "alley_stp"),
    ("{no_move: [pay_prize]}", "cannot be applied on 'no_move'"),
    ("{alley_stop: [take_race_card]}", "needs its 'card'"),
])
def test_a_bad_effect_is_refused_by_name(tmp_path: Path, extra: str, words: str) -> None:
    bad = tmp_path / "bad.yaml"
    text = (EXAMPLES / "alley-race-card-3.yaml").read_text(encoding="utf-8")
    start = text.index("        alley_stop:")
    end = text.index("      source:", start)
    bad.write_text(text[:start] + f"        {extra}\n" + text[end:], encoding="utf-8")
    with pytest.raises((InputError, UnsupportedRuleError)) as err:
        rules_from_ruleset(load_ruleset("dicetree-2022", [str(bad)]))
    assert words in str(err.value)  # by the schema (file:line:col) or by the adapter


def test_effect_lists_are_checked_by_name() -> None:
    assert check_effect_list("alley_stop", ["grant_bonus"], "x") == []
    [problem] = check_effect_list("alley_stop", [{"effect": "grant_bonus", "pts": 2}], "x")
    assert "takes points, not pts" in problem
