"""Card restrictions as data: the condition vocabulary, and the house rules of
rulesets/examples raced from YAML alone (no code)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from avecaesar.engine.bots.registry import OWNERLESS, make_policy
from avecaesar.engine.core.conditions import CONDITIONS, check_expression
from avecaesar.engine.core.moves import _cannot_be_passed, card_forbidden
from avecaesar.engine.core.race import new_race, play_turn, run_race
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.reasons import HOUSE, Reason
from avecaesar.engine.core.rule_values import freeze
from avecaesar.engine.core.ruleset_adapter import UnsupportedRuleError, rules_from_ruleset
from avecaesar.engine.data.errors import InputError
from avecaesar.engine.ruleset.load import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "rulesets" / "examples"
SCHEMA = ROOT / "schemas" / "ruleset.schema.json"


def _races(edition: str, variant: str, course: str, seeds: range, players: int = 3):
    """Every position before a turn, with the chariot to move, over seeded greedy races."""
    rules, board = race_setup(edition, [str(EXAMPLES / variant)], {}, course)
    for seed in seeds:
        names = [f"P{i}" for i in range(players)]
        state, _ = new_race(rules, board, names, seed)
        bot = make_policy("greedy", seed)
        while not state.over:
            yield state
            play_turn(state, bot, OWNERLESS)


def test_the_schema_offers_exactly_the_registry() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert schema["$defs"]["condition"]["enum"] == list(CONDITIONS)
    assert all(c.doc for c in CONDITIONS.values())


def test_expressions_are_checked_by_name() -> None:
    assert check_expression({"all": ["leading", {"not": "on_chicane"}]}) == []
    assert check_expression({"any": ["last", "first_card"]}) == []
    [problem] = check_expression({"all": ["leading", "leadng"]})
    assert "unknown condition 'leadng'" in problem and "leading_alone" in problem
    assert check_expression({"both": ["leading"]}) != []
    assert check_expression({"all": []}) != []
    assert freeze({"not": {"any": ["a", "b"]}}) == ("not", ("any", ("a", "b")))


def test_an_unknown_condition_in_a_ruleset_is_refused_by_name(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text((EXAMPLES / "no-1-on-chicane.yaml").read_text(encoding="utf-8")
                   .replace("forbidden_when: on_chicane", "forbidden_when: {not: on_chicanne}"),
                   encoding="utf-8")
    with pytest.raises((InputError, UnsupportedRuleError)) as err:
        rules_from_ruleset(load_ruleset("dicetree-2022", [str(bad)]))
    assert "on_chicanne" in str(err.value)


@pytest.mark.parametrize(("why", "said"), [
    ("nobody may play a {crad} here", "fills in {crad}; a reason may fill in only {card}"),
    ("no {card here", "is not a sentence with {fields}"),
])
def test_a_house_reason_fills_in_only_card_cards_and_lead(tmp_path: Path, why: str,
                                                          said: str) -> None:
    """A restriction's own ``why`` is shown with {card}, {cards} and {lead} filled in; any
    other field (or a brace left open) is refused when the rules are read, with the field
    named, never when the reason is first shown in a race."""
    bad = tmp_path / "bad.yaml"
    bad.write_text((EXAMPLES / "no-1-on-chicane.yaml").read_text(encoding="utf-8")
                   .replace("nobody may play a {card} on a chicane (house rule)", why),
                   encoding="utf-8")
    with pytest.raises(UnsupportedRuleError) as err:
        rules_from_ruleset(load_ruleset("dicetree-2022", [str(bad)]))
    assert "card_restrictions.extra[0].why" in str(err.value) and said in str(err.value)


def test_the_six_rule_is_one_kind_of_restriction() -> None:
    """The 6-card rule of every edition — Ravensburger 1989 rules (EN summary), Leader
    restriction; Pro Ludo 2006 Spielregel (DE) p.5; DiceTree 2022 rulebook (DE) S.5 — is
    expressed as card restrictions, and a house rule adds one more."""
    for edition in ("dicetree-2022", "ravensburger-1989", "pro-ludo-2006"):
        rules = rules_from_ruleset(load_ruleset(edition))
        assert rules.restricted_cards == {rules.six_card}
        assert rules.card_restrictions and rules.extra_restrictions == ()
    house = rules_from_ruleset(load_ruleset("dicetree-2022",
                                            [str(EXAMPLES / "leader-no-5.yaml")]))
    assert house.restricted_cards == {5, 6}
    assert house.card_restrictions[-1].cite == "house rule: rulesets/examples"


@pytest.mark.covers("rule:card_restrictions.extra")
def test_a_leader_may_not_play_a_5() -> None:
    refused = played = 0
    for state in _races("dicetree-2022", "leader-no-5.yaml",
                        "dicetree-2022/hippodrom-constantinople", range(4)):
        c = state.turn
        moves = state.legal_moves()
        fives = [m for m in moves if m.card == 5]
        leads = c in state.leaders() and not state.finish_order
        hand = state.cards(c)
        released = (set(hand) <= {5, 6} and _cannot_be_passed(state, c)) or not any(
            state.pos[o] is not None for o in state.racing() if o != c)  # its release
        if leads and 5 in hand and not released:
            assert fives == [], state.notation()
            why = card_forbidden(state, c, 5)  # the house rule's own words, filled in
            lead = Reason("lead" if state.leaders() == [c] else "lead_jointly")
            assert why is not None and why.code == HOUSE and why.params == {
                "text": "{lead}, so no {card} (house rule)", "card": 5, "lead": lead}
            refused += 1
        elif fives:
            played += 1
    assert refused > 0 and played > 0  # both sides of the rule were met


def test_a_leader_may_play_a_5_without_the_house_rule() -> None:
    rules, _ = race_setup("dicetree-2022", [], {}, "dicetree-2022/hippodrom-constantinople")
    assert 5 not in rules.restricted_cards


def test_nobody_may_play_a_1_on_a_chicane() -> None:
    refused = played = 0
    for state in _races("ravensburger-1989", "no-1-on-chicane.yaml",
                        "ravensburger-1989/a-white", range(6)):
        c = state.turn
        pos = state.pos[c]
        if pos is None or 1 not in state.cards(c):
            continue
        ones = [m for m in state.legal_moves() if m.card == 1]
        released = set(state.cards(c)) == {1} or _cannot_be_passed(state, c)  # its release
        if state.game.board.chicane[pos] and released:
            assert card_forbidden(state, c, 1) is None, state.notation()
        elif state.game.board.chicane[pos]:
            assert ones == [], state.notation()
            why = card_forbidden(state, c, 1)
            assert why is not None and why.code == HOUSE and why.params == {
                "text": "nobody may play a {card} on a chicane (house rule)", "card": 1}
            refused += 1
        elif ones:
            played += 1
    assert refused > 0 and played > 0


@pytest.mark.covers("rule:race.laps", "rule:deck.composition")
def test_four_laps_from_yaml_alone() -> None:
    rules, board = race_setup("dicetree-2022", [str(EXAMPLES / "four-laps.yaml")], {},
                              "tests/core/courses/oval.yaml")
    assert rules.laps == 4 and rules.alley_laps == (2, 3)
    assert rules.places == (10, 7, 5, 3, 2, 1) and sum(rules.deck) == 105
    run = run_race(rules, board, ["a", "b", "c"], [make_policy("greedy", 1)] * 3, 1,
                   ownerless=OWNERLESS)
    first = run.outcome.placings[0]
    assert first.place == 1 and first.points == 10
    assert run.state.crossings[first.chariot] - board.start_crossings[first.chariot] == 4


@pytest.mark.parametrize(("edition", "who"), [
    ("dicetree-2022", None),  # 'einer von beiden': any of them
    ("pro-ludo-2006", "first_leader_to_move"),  # 'der zuerst wieder an der Reihe ist'
    ("ravensburger-1989", "to_move"),  # 'den spelare som står i tur'
])
@pytest.mark.covers("rule:six_rule.joint_leader_exception")
def test_the_joint_exception_reads_who(edition: str, who: str | None) -> None:
    """six_rule.joint_leader_exception.who is read: it adds its condition to ``when``
    (DiceTree 2022 rulebook (DE) S.5; Pro Ludo 2006 Spielregel (DE) p.5; Ravensburger 1989
    regler (SV), Undantag)."""
    rules = rules_from_ruleset(load_ruleset(edition))
    value = load_ruleset(edition).value("six_rule.joint_leader_exception")
    assert rules.six_joint_exception is not None
    assert rules.six_joint_exception[:len(value["when"])] == tuple(value["when"])
    assert rules.six_joint_exception[len(value["when"]):] == ((who,) if who else ())
