"""Issue 12: no rule field is compared with a string literal outside the one adapter
(engine/core/ruleset_adapter.py and engine/core/rule_values.py, which resolve the ruleset's
values into named primitives once) and
the registries (conditions, effects). A new mechanic becomes a primitive, not an `if`."""

from __future__ import annotations

import re
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
#: the adapter: the one place a ruleset's enum values are read
ADAPTER = {ENGINE / "core" / "rules.py", ENGINE / "core" / "rule_values.py"}
#: `rules.alley_wait == "must_wait"`, `own.alley in ("exempt", ...)`, `ownerless.turn_order != "x"`
RULE_FIELD_VS_STRING = re.compile(
    r"\b(?:rules|own|ownerless)\.[a-z_]+\s*(?:==|!=|not in|in)\s*[(\[]?\s*[\"']")


def offending_lines() -> list[str]:
    found = []
    for layer in ("core", "bots", "lab"):
        for path in sorted((ENGINE / layer).glob("*.py")):
            if path in ADAPTER:
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if RULE_FIELD_VS_STRING.search(line):
                    found.append(f"{path.relative_to(ENGINE)}:{n}: {line.strip()}")
    return found


def test_no_rule_field_is_compared_with_a_string_outside_the_adapter() -> None:
    assert offending_lines() == []


def test_the_pattern_finds_what_it_is_for() -> None:
    """The check can fail: the shapes removed by issue 12 are caught."""
    for line in ('if rules.alley_wait == "must_wait":',
                 "and own.alley in ('exempt', 'avoid')",
                 'if rules.no_move != "smallest_loss" and x:'):
        assert RULE_FIELD_VS_STRING.search(line), line
    assert not RULE_FIELD_VS_STRING.search('if state.end == "deadlock":')
