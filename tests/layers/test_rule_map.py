"""One map from a rule to its code and its test (issue 20): every rule key the adapter reads
declares its primitive (engine/core/rule_map.py), and a scenario test names it with
``@pytest.mark.covers("rule:<key>")``; the table in docs/architecture.md is generated."""

from __future__ import annotations

import contextlib
import importlib.util
from pathlib import Path

from avecaesar.engine.core.rule_map import KINDS, RULE_MAP
from avecaesar.engine.core.ruleset_adapter import (
    rules_from_ruleset,
    tournament_rules_from_ruleset,
)
from avecaesar.engine.data.errors import AveCaesarError
from avecaesar.engine.ruleset.keys import rule_keys
from avecaesar.engine.ruleset.load import list_rulesets, load_ruleset

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("coverage_map", ROOT / "tests" / "coverage_map.py")
assert _spec is not None and _spec.loader is not None
coverage_map = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(coverage_map)


class _Recording:
    """A ruleset that notes every key it is asked about."""

    def __init__(self, ruleset, seen):
        self._ruleset, self._seen = ruleset, seen

    def __getattr__(self, name):
        return getattr(self._ruleset, name)

    def value(self, key):
        self._seen.add(key)
        return self._ruleset.value(key)

    def has(self, key):
        self._seen.add(key)
        return self._ruleset.has(key)


def _keys_the_adapter_reads() -> set[str]:
    seen: set[str] = set()
    variants = [e.id for e in list_rulesets() if e.kind == "variant"]
    for base in ("ravensburger-1989", "pro-ludo-2006", "dicetree-2022", "reader-homebrew"):
        for extra in ([], *([v] for v in variants)):
            try:
                rs = load_ruleset(base, extra)
            except AveCaesarError:
                continue  # a variant that does not apply, or one with open values
            for read in (rules_from_ruleset, tournament_rules_from_ruleset):
                # an open value stops the reading: the keys asked so far are noted
                with contextlib.suppress(AveCaesarError):
                    read(_Recording(rs, seen))
    return seen


def test_every_key_the_adapter_reads_declares_its_primitive():
    read = _keys_the_adapter_reads()
    assert len(read) > 70
    assert sorted(read - set(RULE_MAP)) == []


def test_the_map_is_the_schema_and_every_entry_says_how():
    assert list(RULE_MAP) == list(rule_keys())
    for key, use in RULE_MAP.items():
        assert use.kind in KINDS and use.where, key


def test_every_rule_key_has_a_test():
    covered = coverage_map.covered()
    missing = [k for k in RULE_MAP if not covered.get(f"rule:{k}")]
    assert missing == [], "add @pytest.mark.covers('rule:<key>') to a test that races it"


def test_the_generated_rule_table_is_current():
    from avecaesar.editor.registry_docs import RULES_BEGIN, main

    assert RULES_BEGIN in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert main(["--check"]) == 0, "run python -m avecaesar.editor.registry_docs"
