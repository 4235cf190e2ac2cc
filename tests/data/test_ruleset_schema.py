"""The schemas themselves: valid draft 2020-12, described, and cited data."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from avecaesar.engine.data.paths import RULESETS_DIR, SCHEMAS_DIR
from avecaesar.engine.data.schemas import schema

ROOT = Path(__file__).resolve().parents[2]
RULESET = schema("urn:avecaesar:ruleset")
CITATION = re.compile(RULESET["$defs"]["citation"]["pattern"])


@pytest.mark.parametrize("path", sorted(SCHEMAS_DIR.glob("*.json")), ids=lambda p: p.name)
def test_every_schema_is_valid_draft_2020_12(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(doc)
    assert doc["$id"].startswith("urn:avecaesar:")


def _properties(node: Any, where: str = "#") -> list[tuple[str, Any]]:
    out = []
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            out.append((f"{where}/properties/{name}", sub))
        for key, sub in node.items():
            out += _properties(sub, f"{where}/{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            out += _properties(sub, f"{where}/{i}")
    return out


#: a rule key's value schema; $defs/rule/properties/value describes every one of them and
#: the key's own description says what the value means
KEY_VALUE = re.compile(r"^#/\$defs/rules/properties/\w+/properties/\w+/properties/value$")


def test_every_property_of_the_ruleset_schema_has_a_description() -> None:
    assert RULESET["$defs"]["rule"]["properties"]["value"]["description"]
    missing = [w for w, sub in _properties(RULESET)
               if not (isinstance(sub, dict) and sub.get("description"))
               and not KEY_VALUE.match(w)]
    assert missing == []


def test_every_enum_value_is_explained() -> None:
    def walk(node: Any) -> list[Any]:
        found = []
        if isinstance(node, dict):
            if "enum" in node and "x-values" in node:
                found.append(node)
            for v in node.values():
                found += walk(v)
        elif isinstance(node, list):
            for v in node:
                found += walk(v)
        return found
    for node in walk(RULESET):
        assert list(node["x-values"]) == node["enum"]
        assert all(node["x-values"].values())


def _citations(node: Any) -> list[str]:
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "source":
                out += v if isinstance(v, list) else [v]
            else:
                out += _citations(v)
    elif isinstance(node, list):
        for v in node:
            out += _citations(v)
    return out


FILES = sorted(RULESETS_DIR.rglob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_rule_cites_a_source_in_rules_md_form(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for group in (data.get("rules") or {}).values():
        for leaf in group.values():
            assert leaf.get("source")
    for cite in _citations(data):
        assert CITATION.match(cite), cite


@pytest.mark.parametrize("edition,prefixes", [
    ("ravensburger-1989", ("Ravensburger 1989 rules (EN summary), ",
                           "Ravensburger 1989 regler (SV), ")),
    ("pro-ludo-2006", ("Pro Ludo 2006 Spielregel (DE) ", "Pro Ludo 2006 rules (PT) ")),
    ("dicetree-2022", ("DiceTree 2022 rulebook (DE) S.",)),
])
def test_an_edition_cites_only_its_own_documents(edition: str, prefixes) -> None:
    """docs/sources.md: the texts of 1989, 2006 and 2022."""
    data = yaml.safe_load((RULESETS_DIR / "editions" / f"{edition}.yaml").read_text("utf-8"))
    for cite in _citations(data):
        assert cite.startswith(prefixes), cite


@pytest.mark.parametrize("good", [
    "DiceTree 2022 rulebook (DE) S.5", "DiceTree 2022 rulebook (DE) S.6-7",
    "Ravensburger 1989 rules (EN summary), Leader restriction",
    "Ravensburger 1989 regler (SV), Kejsarpassagen B",
    "Pro Ludo 2006 Spielregel (DE) p.5", "Pro Ludo 2006 Spielregel (DE) VII",
    "Pro Ludo 2006 rules (PT) III", "reader homebrew (PT comments)",
    "reader homebrew (PT comments), comment 2", "house rule: our club",
    "user override (--set)",
])
def test_citation_format_accepts(good: str) -> None:
    assert CITATION.match(good)


@pytest.mark.parametrize("bad", [
    "[000 S.5]", "DiceTree rulebook S.5", "DiceTree 2022 rulebook (DE) p.5",
    "Ravensburger 1989 rules", "Pro Ludo 2006 Spielregel (DE) page 5", "", "notes.md",
])
def test_citation_format_rejects(bad: str) -> None:
    assert not CITATION.match(bad)


def test_generated_docs_are_up_to_date() -> None:
    """docs/ruleset-reference.md and docs/rules-<edition>.md are generated; never edit them."""
    from avecaesar.editor.render.ruleset_docs import pages

    for path, text in pages(ROOT / "docs").items():
        assert path.read_text(encoding="utf-8") == text, \
            f"{path.name} is stale: run python -m avecaesar.editor.render.ruleset_docs"


def test_a_new_condition_is_documented_where_it_is_defined(monkeypatch) -> None:
    """The reference's condition table is the registry's: a condition added to it appears
    with its sentence, with no edit to the schema's text or the docs tool."""
    from avecaesar.editor.render.ruleset_docs import reference
    from avecaesar.engine.core.conditions import CONDITIONS, Condition

    monkeypatch.setitem(CONDITIONS, "brand_new", Condition("a sentence written once",
                                                           lambda x: False))
    assert "| `brand_new` | a sentence written once | — |" in reference()


def test_the_reference_cites_the_rules_that_name_a_condition() -> None:
    from avecaesar.editor.render.ruleset_docs import reference

    row = next(ln for ln in reference().splitlines() if ln.startswith("| `on_chicane` |"))
    data = yaml.safe_load((RULESETS_DIR / "editions" / "dicetree-2022.yaml").read_text("utf-8"))
    cite = data["rules"]["six_rule"]["chicane_exception"]["source"]
    assert f"`dicetree-2022` six_rule.chicane_exception *[{cite}]*" in row
