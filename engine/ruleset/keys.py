"""The rule keys a ruleset may state, read from ``schemas/ruleset.schema.json``.

A rule is addressed by a dotted key ``group.key`` (``scoring.places``); the schema is the one
list of keys, their types and their meaning, so nothing here names a rule by hand. Each key
of ``$defs/rules`` is ``{"$ref": "#/$defs/rule", "description": …, "properties": {"value":
…}}``: the wrapper every rule shares, and the schema of its value.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from avecaesar.engine.data.errors import UsageError
from avecaesar.engine.data.schemas import registry, schema
from avecaesar.engine.data.suggest import did_you_mean
from avecaesar.engine.data.values import JsonDict

__all__ = ["RULESET_SCHEMA", "group_names", "leaf_schema", "rule_keys", "split_key",
           "value_errors"]

RULESET_SCHEMA = "urn:avecaesar:ruleset"


@cache
def rule_keys() -> dict[str, JsonDict]:
    """Every dotted rule key, in schema order, with its rule schema."""
    groups = schema(RULESET_SCHEMA)["$defs"]["rules"]["properties"]
    return {f"{g}.{k}": leaf
            for g, gs in groups.items() for k, leaf in gs["properties"].items()}


def group_names() -> list[str]:
    return list(schema(RULESET_SCHEMA)["$defs"]["rules"]["properties"])


def split_key(key: str) -> tuple[str, str]:
    """``'scoring.places'`` → ``('scoring', 'places')``; an unknown key is a clear error."""
    if key not in rule_keys():
        raise UsageError(f"unknown rule key {key!r}{did_you_mean(key, rule_keys())} "
                             "(see docs/ruleset-reference.md for every key)")
    group, _, name = key.partition(".")
    return group, name


def leaf_schema(key: str) -> JsonDict:
    """The schema of the rule ``key`` (its value is under ``properties.value``)."""
    split_key(key)
    return rule_keys()[key]


@cache
def _value_validator(key: str) -> Any:
    import jsonschema

    group, _, name = key.partition(".")
    pointer = f"{RULESET_SCHEMA}#/$defs/rules/properties/{group}/properties/{name}/properties/value"
    return jsonschema.Draft202012Validator({"$ref": pointer}, registry=registry())


def value_errors(key: str, value: Any) -> list[str]:
    """What is wrong with ``value`` as the value of rule ``key`` (empty: nothing), checked
    against the key's value schema with the schema's own definitions in reach."""
    from avecaesar.engine.data.schemas import missing_part, vocabulary_error

    split_key(key)
    out = []
    for e in sorted(_value_validator(key).iter_errors(value), key=str):
        named = vocabulary_error(e)
        out.append(named[1] if named is not None else missing_part(e) or e.message)
    return out
