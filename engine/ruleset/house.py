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
from avecaesar.engine.data.suggest import did_you_mean
from avecaesar.engine.data.yamlsource import Source, load_yaml
from avecaesar.engine.ruleset.keys import leaf_schema, rule_keys, value_errors

__all__ = ["HOUSE_KEYS", "house_file_text", "load_house"]

HOUSE_KEYS = ("rules", "source", "note")
LONG_FORM = ("value", "source", "note")


def load_house(path: str | Path) -> dict[str, dict[str, Any]]:
    """The house rules of ``path`` as dotted key → rule (``value``, ``source``, maybe
    ``note``); an :class:`InputError` with every problem located otherwise."""
    source = load_yaml(path)
    problems: list[Problem] = []
    data = source.data
    if not isinstance(data, Mapping) or not isinstance(data.get("rules"), Mapping):
        raise InputError([source.problem([], "a house-rules file needs 'rules:' with one "
                                         "'group.key: value' line per rule, e.g.\nrules:\n"
                                         "  disqualification.keeps_place: false")])
    for key in data:
        if key not in HOUSE_KEYS:
            problems.append(source.problem([], f"unknown key {key!r} — a house-rules file "
                                           f"holds {', '.join(HOUSE_KEYS)}", key=str(key)))
    default_source = _citation(data.get("source"), Path(path).name)
    out: dict[str, dict[str, Any]] = {}
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
    if problems:
        raise InputError(problems)
    return out


def _citation(given: object, name: str) -> str:
    text = str(given).strip() if given else ""
    if not text:
        return f"house rule: {name}"
    return text if text.startswith("house rule:") else f"house rule: {text}"


def _rule(source: Source, where: list[str | int], raw: Any, default_source: str,
          problems: list[Problem]) -> dict[str, Any] | None:
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


def house_file_text(values: Mapping[str, object], note: str | None = None) -> str:
    """The text of a house-rules file holding ``values`` (dotted key → value)."""
    import yaml

    lines = [f"# {note}"] if note else []
    lines.append("rules:")
    for key, value in values.items():
        dumped = yaml.safe_dump(value, default_flow_style=True).strip()
        if dumped.endswith("\n..."):
            dumped = dumped[:-4].strip()
        lines.append(f"  {key}: {dumped.removesuffix('...').strip()}")
    return "\n".join(lines) + "\n"
