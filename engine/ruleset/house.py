"""House rules: a group's answers to the open values, written once in a small file.

```yaml
rules:
  scoring.places: [9, 6, 4, 3, 2, 1]
  ramming.tie: {value: no_effect, source: "house rule: our Friday group", note: why}
```

Nothing else is required (no ``id``, ``title``, ``kind`` or ``applies_to``); a value is
either written plainly or as a mapping with ``value`` and an optional ``source`` / ``note``.
A plain value cites ``house rule: <file name>``. The rules are applied after the variants
and before ``--set``; every mistake is reported as ``file:line:col``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from avecaesar.engine.data.errors import InputError, Problem
from avecaesar.engine.data.paths import schema_modeline
from avecaesar.engine.data.suggest import did_you_mean
from avecaesar.engine.data.values import Json, JsonDict
from avecaesar.engine.data.yamlsource import Source, load_yaml
from avecaesar.engine.ruleset.keys import leaf_schema, rule_keys, value_errors

__all__ = ["HOUSE_KEYS", "house_file_text", "house_location", "house_rules_of", "is_house_file",
           "load_house"]

HOUSE_KEYS = ("rules", "source", "note")
LONG_FORM = ("value", "source", "note")


def is_house_file(data: object) -> bool:
    """Whether a file's data is a house-rules file rather than a ruleset or variant: no
    ``id``, ``kind`` or ``title``, and ``rules`` that name dotted keys (a ruleset's
    ``rules`` holds groups)."""
    if not isinstance(data, Mapping) or any(k in data for k in ("id", "kind", "title")):
        return False
    rules = data.get("rules")
    return isinstance(rules, Mapping) and (not rules or any("." in str(k) for k in rules))


def load_house(path: str | Path) -> dict[str, JsonDict]:
    """The house rules of ``path`` as dotted key → rule (``value``, ``source``, maybe
    ``note``); an :class:`InputError` with every problem located otherwise."""
    source = load_yaml(path)
    rules, problems = house_rules_of(source)
    if problems:
        raise InputError(problems)
    return rules


def house_rules_of(source: Source) -> tuple[dict[str, JsonDict], list[Problem]]:
    """The house rules of a read file and every problem in it, each located."""
    problems: list[Problem] = []
    data = source.data
    if isinstance(data, Mapping) and data.get("kind") in ("variant", "edition", "homebrew"):
        flag = "--variant" if data["kind"] == "variant" else "--ruleset"
        return {}, [source.problem(["kind"], f"this is a {data['kind']} file (kind: "
                                   f"{data['kind']}), not a house-rules file: give it with "
                                   f"{flag} FILE", key="kind")]
    if not isinstance(data, Mapping) or not isinstance(data.get("rules"), Mapping):
        return {}, [source.problem([], "a house-rules file needs 'rules:' with one "
                                   "'group.key: value' line per rule, e.g.\nrules:\n"
                                   "  disqualification.keeps_place: false")]
    if not data["rules"]:
        problems.append(source.problem(["rules"], "no rules: write one 'group.key: value' "
                                       "line per rule under rules:"))
    for key in data:
        if key not in HOUSE_KEYS:
            problems.append(source.problem([], f"unknown key {key!r} — a house-rules file "
                                           f"holds {', '.join(HOUSE_KEYS)}", key=str(key)))
    default_source = _citation(data.get("source"), Path(source.file).name)
    out: dict[str, JsonDict] = {}
    for key, raw in data["rules"].items():
        where = ["rules", key]
        if str(key) not in rule_keys():
            problems.append(source.problem(
                ["rules"], f"unknown rule key {key!r}{did_you_mean(str(key), rule_keys())} "
                "(write group.key, see docs/ruleset-reference.md)", key=str(key)))
            continue
        rule = _rule(source, where, raw, default_source, problems)
        if rule is not None:
            out[str(key)] = rule
            line, col = source.where(where)
            _WHERE[_fingerprint(str(key), rule)] = f"{source.file}:{line}:{col}"
    return out, sorted(problems)


#: where each house rule read in this process was written: (key, rule) → "file:line:col",
#: so that a problem found only when the rules are composed points into the house file
_WHERE: dict[str, str] = {}


def _fingerprint(key: str, rule: Mapping[str, Json]) -> str:
    import json

    return key + "\0" + json.dumps(rule, sort_keys=True, default=str)


def house_location(key: str, rule: Mapping[str, Json]) -> str | None:
    """``file:line:col`` of house rule ``key`` as read by :func:`load_house` (None: not read
    from a file in this process, e.g. replayed from a record)."""
    return _WHERE.get(_fingerprint(key, rule))


def _citation(given: object, name: str) -> str:
    text = str(given).strip() if given else ""
    if not text:
        return f"house rule: {name}"
    return text if text.startswith("house rule:") else f"house rule: {text}"


def _rule(source: Source, where: list[str | int], raw: Any, default_source: str,
          problems: list[Problem]) -> JsonDict | None:
    long = isinstance(raw, Mapping) and "value" in raw
    if long:
        extra = [k for k in raw if k not in LONG_FORM]
        if extra:
            problems.append(source.problem(where, f"unknown key {extra[0]!r} in a house rule "
                                           f"— write {', '.join(LONG_FORM)}", key=str(extra[0])))
            return None
        value = raw["value"]
        rule = {"value": value, "source": _citation(raw["source"], "")
                if raw.get("source") else default_source}
        if raw.get("note"):
            rule["note"] = str(raw["note"])
        vpath = [*where, "value"]
    else:
        value = raw
        rule = {"value": value, "source": default_source}
        vpath = where
    key = str(where[-1])
    want = leaf_schema(key)["properties"]["value"]
    errors = value_errors(key, value)
    if errors:
        choices = want.get("enum")
        hint = f" (one of: {', '.join(map(str, choices))})" if choices else \
            f" ({want.get('description') or leaf_schema(key)['description'].rstrip('.')}; " \
            "see docs/ruleset-reference.md)"
        problems.append(source.problem(vpath, f"{key}: {errors[0]}{hint}"))
        return None
    return rule


def house_file_text(values: Mapping[str, object], note: str | None = None,
                    target: str | Path | None = None) -> str:
    """The text of a house-rules file holding ``values`` (dotted key → value); written at
    ``target``, its first line is the editor modeline naming ``schemas/house.schema.json``
    relative to it."""
    import yaml

    lines = [schema_modeline(Path(target), "house.schema.json")] if target is not None else []
    lines += [f"# {note}"] if note else []
    lines.append("rules:")
    for key, value in values.items():
        dumped = yaml.safe_dump(value, default_flow_style=True).strip()
        if dumped.endswith("\n..."):
            dumped = dumped[:-4].strip()
        lines.append(f"  {key}: {dumped.removesuffix('...').strip()}")
    return "\n".join(lines) + "\n"
