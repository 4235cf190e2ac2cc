"""The hand-written ruleset schema, the engine's key table and the registries agree.

``schemas/ruleset.schema.json`` is the one list of rule keys (``engine/ruleset/keys``
reads it); ``engine/core/ruleset_adapter.py`` is the one adapter that reads them; ``engine/core/
conditions.py`` (and, when it exists, ``engine/core/effects.py``) is the one registry of the
vocabulary's names. A key or name added to one and not the other fails here.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from avecaesar.engine.core import ruleset_adapter as adapter
from avecaesar.engine.core.conditions import CONDITIONS
from avecaesar.engine.data.schemas import schema
from avecaesar.engine.ruleset.keys import RULESET_SCHEMA, group_names, rule_keys

# the engine's sources by a module that is never compiled (core/ruleset_adapter.py is: its __file__
# is the compiled build's)
ENGINE = Path(importlib.import_module("avecaesar.engine").__file__ or "").resolve().parent
DEFS = schema(RULESET_SCHEMA)["$defs"]
DOTTED = re.compile(r"^[a-z_]+\.[a-z_]+$")

#: keys the rulesets state for readers and the engine does not read, with the reason
NOT_READ = {
    "race.direction": "a race's direction is its course's (the course id, '-ccw')",
    "ownerless.controller": "who moves them is a matter for the table; bots move them",
}


def _named_by_engine() -> set[str]:
    """Every dotted rule key written in the engine's source, and the ``ownerless`` keys
    ``rules._ownerless`` reads through its ``get(name, fallback)`` helper."""
    found: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        if path.name in ("rule_map.py", "vectors_make.py"):  # the map names every key, the
            continue  # vectors' witnesses the keys with one value they show: they read none
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and DOTTED.match(node.value) and node.value.split(".")[0] in group_names():
                found.add(node.value)
            if isinstance(node, ast.FunctionDef) and node.name == "_ownerless":
                found |= {f"ownerless.{c.args[0].value}" for c in ast.walk(node)
                          if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
                          and c.func.id == "get" and c.args
                          and isinstance(c.args[0], ast.Constant)}
    return found


def test_every_key_the_engine_names_is_in_the_schema() -> None:
    named = _named_by_engine() | set(adapter.RULE_KEYS.values()) | set(adapter.ASSUMED)
    assert sorted(named - set(rule_keys())) == []


@pytest.mark.covers("rule:race.direction", "rule:ownerless.controller")
def test_every_schema_key_is_read_by_the_engine_or_said_not_to_be() -> None:
    unread = set(rule_keys()) - _named_by_engine()
    assert sorted(unread) == sorted(NOT_READ)
    assert set(NOT_READ) <= set(rule_keys())


def test_every_key_is_the_one_rule_wrapper_and_a_value() -> None:
    for key, leaf in rule_keys().items():
        assert leaf["$ref"] == "#/$defs/rule", key
        assert set(leaf) == {"$ref", "description", "properties"}, key
        assert set(leaf["properties"]) == {"value"}, key


def test_the_complete_ruleset_requires_only_keys_that_exist() -> None:
    complete = DEFS["complete"]
    assert set(complete["required"]) <= set(group_names())
    for group, part in complete["properties"].items():
        assert group in group_names()
        assert {f"{group}.{k}" for k in part["required"]} <= set(rule_keys())


def test_condition_names_are_the_registry() -> None:
    assert DEFS["condition"]["enum"] == list(CONDITIONS)


def test_the_condition_grammar_is_all_any_not_over_the_names() -> None:
    forms = DEFS["condition_expr"]["oneOf"]
    assert forms[0] == {"$ref": "#/$defs/condition"}
    assert forms[1] == {"$ref": "#/$defs/param_condition"}  # {name: value}
    assert [next(iter(f["required"])) for f in forms[2:]] == ["all", "any", "not"]


def test_effect_names_are_the_registry() -> None:
    """``$defs/effect`` lists the effects registry's names; none while it does not exist."""
    try:
        effects = importlib.import_module("avecaesar.engine.core.effects")
    except ModuleNotFoundError:
        names: list[str] = []
    else:
        names = list(effects.EFFECTS)
    assert DEFS["effect"]["enum"] == names


#: the effect parameters a ruleset's own values stand in for when an entry leaves them out
#: (engine/core/ruleset_adapter.py, ``_extra_effects``: the race card, bonus, lap prizes)
FROM_THE_RULESET = {"card", "points", "amounts"}


def test_the_schema_requires_each_effect_parameter_no_ruleset_value_gives() -> None:
    """An effect whose parameter no ruleset value gives (draw_card's count, …) is refused
    by the schema when it leaves it out — in a file, at its line and column (issue 38) —
    as the engine would refuse it at the race."""
    from avecaesar.engine.core.effects import EFFECTS

    entry = DEFS["rules"]["properties"]["effects"]["properties"]["extra"]["properties"][
        "value"]["additionalProperties"]["items"]
    required: dict[str, set[str]] = {}
    for rule in entry["else"]["allOf"]:
        names = rule["if"]["properties"]["effect"]
        for name in names.get("enum", [names.get("const")]):
            required.setdefault(name, set()).update(rule["then"]["required"])
    needs = {name: set(e.params) - FROM_THE_RULESET for name, e in EFFECTS.items()
             if set(e.params) - FROM_THE_RULESET}
    assert required == needs
    assert set(entry["then"]["not"]["enum"]) == set(needs)  # the bare name is refused too
