"""``schemas/house.schema.json``, the schema of a house-rules file, made from the ruleset
schema so that the two never disagree.

A house-rules file holds ``rules:`` with one ``group.key: value`` line per rule (a value
written plainly, or as ``{value, source, note}``) and an optional ``source`` and ``note``
(engine/ruleset/house.py). Every rule key of ``schemas/ruleset.schema.json`` becomes one
property of ``rules`` with that key's value schema; the definitions those value schemas
refer to are copied along, so the file stands alone (an editor reads it without following
references into another file). ``python -m avecaesar.engine.ruleset.house_schema`` (part of
``make docs``) rewrites the file; a test checks that it is current.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from avecaesar.engine.data.paths import SCHEMAS_DIR
from avecaesar.engine.data.values import JsonDict
from avecaesar.engine.ruleset.keys import RULESET_SCHEMA, rule_keys

__all__ = ["HOUSE_SCHEMA", "house_schema", "house_schema_text"]

HOUSE_SCHEMA = "urn:avecaesar:house"
FILE = SCHEMAS_DIR / "house.schema.json"

_TEXT = {"type": "string", "minLength": 1}


def _refs(node: Any) -> set[str]:
    """The local definitions (``#/$defs/NAME``) that ``node`` refers to."""
    found: set[str] = set()
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            found.add(ref.split("/")[2])
        for v in node.values():
            found |= _refs(v)
    elif isinstance(node, list):
        for v in node:
            found |= _refs(v)
    return found


def house_schema() -> JsonDict:
    """The house-rules schema (draft 2020-12), as a JSON document."""
    from avecaesar.engine.data.schemas import schema

    defs = schema(RULESET_SCHEMA)["$defs"]
    rules: JsonDict = {}
    values: JsonDict = {}  # each key's value schema, once, referred to twice
    for key, leaf in rule_keys().items():
        values[f"value:{key}"] = leaf["properties"]["value"]
        value = {"$ref": f"#/$defs/value:{key}"}
        rules[key] = {
            "description": leaf.get("description", ""),
            "anyOf": [
                {"type": "object", "required": ["value"], "additionalProperties": False,
                 "properties": {"value": value, "source": _TEXT, "note": _TEXT},
                 "description": "the long form: the value with its citation and a note"},
                {"not": {"type": "object", "required": ["value"]}, **value},
            ]}
    needed: set[str] = set()
    todo = _refs(values)
    while todo:
        name = todo.pop()
        if name not in needed:
            needed.add(name)
            todo |= _refs(defs[name])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": HOUSE_SCHEMA,
        "title": "Ave Caesar house rules",
        "description": ("A group's answers to the rule values the rulebooks leave open, or "
                        "its own changes: rules with one group.key: value line per rule, "
                        "applied after the variants and before --set (--house FILE). "
                        "Generated from ruleset.schema.json."),
        "type": "object",
        "required": ["rules"],
        "additionalProperties": False,
        "properties": {
            "rules": {"type": "object", "minProperties": 1, "additionalProperties": False,
                      "description": "one group.key: value line per rule "
                                     "(docs/ruleset-reference.md lists every key)",
                      "properties": rules},
            "source": {**_TEXT, "description": "the citation of every plain value "
                                               "(default: house rule: <file name>)"},
            "note": {**_TEXT, "description": "a note on the whole file"},
        },
        "$defs": {**values, **{name: defs[name] for name in sorted(needed)}},
    }


def house_schema_text() -> str:
    return json.dumps(house_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":  # pragma: no cover - `make docs`
    FILE.write_text(house_schema_text(), encoding="utf-8")
    sys.stdout.write(f"wrote {FILE}\n")
