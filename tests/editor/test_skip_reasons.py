"""Reasons are the real reasons (issue 20): a skip caused by a house rule's card ban gives
that restriction's own ``why:``, not the 6-card rule's; the deadlock note says what happened."""

from __future__ import annotations

from pathlib import Path

from avecaesar.editor.render.event_text import describe, result_lines
from avecaesar.engine.core.race import outcome
from avecaesar.engine.core.reasons import HOUSE, Reason
from avecaesar.engine.core.ruleset_adapter import rules_from_ruleset
from avecaesar.engine.core.state import RaceGame, RaceState
from avecaesar.engine.ruleset.load import load_ruleset

EXAMPLES = Path(__file__).resolve().parents[2] / "rulesets" / "examples"


def test_a_house_ban_skip_gives_the_house_rules_words(oval):
    # rulesets/examples/leader-no-5.yaml: "{lead}, so no {card} (house rule)"; A leads with
    # 5, 5, 5 and B behind can still move: A skips because of the house rule, not the 6s
    rules = rules_from_ruleset(load_ruleset("dicetree-2022", [str(EXAMPLES / "leader-no-5.yaml")]))
    s = RaceState.parse(RaceGame(rules, oval, ("A", "B")),
                        "22,2,s,555,1,5,r 19,2,s,111,-,4,r | A 0 20 -")
    s.log = True
    moves = s.legal_moves()
    assert not moves and moves.skip_reason == "six_rule"
    skip = s.skip(moves.skip_reason)[0]
    assert skip.data["why"] == (Reason(HOUSE, {"text": "{lead}, so no {card} (house rule)",
                                               "card": 5, "lead": Reason("lead")},
                                       "house rule: rulesets/examples"),)
    text = describe(s.game, skip)
    assert "so no 5 (house rule)" in text and "sixes" not in text


def test_a_six_rule_skip_gives_the_six_rules_words(oval):
    # "Hätte Grün nur 6, 6, 6, müsste Grün aussetzen" (DiceTree 2022 rulebook (DE) S.5)
    rules = rules_from_ruleset(load_ruleset("dicetree-2022"))
    s = RaceState.parse(RaceGame(rules, oval, ("A", "B")),
                        "22,1,c,666,-,5,r 19,1,c,555,-,4,r | A 0 2 -")
    s.log = True
    skip = s.skip(s.legal_moves().skip_reason)[0]
    assert describe(s.game, skip).endswith(
        "no card it may play: you lead, so no 6 — DiceTree 2022 rulebook (DE) S.5")


def test_the_deadlock_note_says_skipped_or_waited(oval):
    rules = rules_from_ruleset(load_ruleset("dicetree-2022"))
    s = RaceState.parse(RaceGame(rules, oval, ("A", "B")),
                        "46,1,c,1,-,5,r 49,1,c,666,-,4,r | A 2 2 deadlock")
    note = result_lines(outcome(s))[-1]
    assert "skipped its turn or chose to wait" in note and "could move" not in note
