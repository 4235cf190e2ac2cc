"""Composition: a ruleset, then variants in order, then ``--set`` overrides.

A variant is an overlay: each rule it states replaces the whole rule (value and citation),
``remove`` deletes rules or groups. Variants may require and conflict with other variants
and say which rulesets they are written for. The result is validated against the schema
before anyone uses it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from avecaesar.engine.data.errors import UsageError
from avecaesar.engine.data.limits import MAX_SET_VALUE_CHARS
from avecaesar.engine.data.schemas import data_messages
from avecaesar.engine.data.values import HouseRules, JsonDict
from avecaesar.engine.ruleset.catalog import (
    RulesetEntry,
    load_checked,
    resolve,
    resolve_variant,
)
from avecaesar.engine.ruleset.checks import rule_issues
from avecaesar.engine.ruleset.house import house_location
from avecaesar.engine.ruleset.keys import RULESET_SCHEMA, leaf_schema, split_key

__all__ = ["OVERRIDE_SOURCE", "Composed", "RulesetConflictError", "compose", "parse_override"]

OVERRIDE_SOURCE = "user override (--set)"


class RulesetConflictError(UsageError):
    """Raised when variants cannot be combined: a conflict, a missing requirement, a variant
    applied to a ruleset it is not written for, or a composed ruleset that is not valid.
    The combination asked for on the command line cannot be made: a usage error (exit 2)."""


@dataclass
class Composed:
    """A ruleset under construction: its rules and where each rule came from."""

    id: str
    kind: str
    title: str
    lineage: list[str]  # the rulesets it extends, oldest first, then its own id
    rules: dict[str, JsonDict]
    variants: list[str] = field(default_factory=list)
    conflicts: dict[str, list[str]] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)
    house: JsonDict = field(default_factory=dict)  # the house rules given, by key

    def data(self) -> JsonDict:
        return {"id": self.id, "kind": self.kind, "title": self.title,
                "based_on": self.lineage[:-1], "variants": list(self.variants),
                "rules": self.rules}


def _overlay(state: Composed, rules: Mapping[str, Any], origin: str) -> None:
    for group, keys in rules.items():
        target = state.rules.setdefault(group, {})
        for name, leaf in keys.items():
            target[name] = copy.deepcopy(leaf)
            state.origins[f"{group}.{name}"] = origin


def _remove(state: Composed, keys: Sequence[str], origin: str) -> None:
    for key in keys:
        group, _, name = key.partition(".")
        if not name:
            state.rules.pop(group, None)
            for k in [k for k in state.origins if k.startswith(group + ".")]:
                state.origins[k] = f"removed by {origin}"
        elif group in state.rules:
            state.rules[group].pop(name, None)
            state.origins[key] = f"removed by {origin}"


def _base(entry: RulesetEntry, seen: tuple[str, ...] = ()) -> Composed:
    if entry.id in seen:
        raise RulesetConflictError(f"ruleset {entry.id!r} extends itself (via "
                                   f"{' → '.join(seen)})")
    assert entry.path is not None
    data: JsonDict = load_checked(entry.path).data
    if "extends" in data:
        state = _base(resolve(str(data["extends"])), (*seen, entry.id))
        state.lineage.append(entry.id)
    else:
        state = Composed(entry.id, entry.kind, entry.title, [entry.id], {})
        _overlay(state, data.get("rules", {}), entry.id)
    state.id, state.kind, state.title = entry.id, entry.kind, entry.title
    for name in data.get("variants", []):
        apply_variant(state, resolve_variant(str(name)))
    if "extends" in data:
        _overlay(state, data.get("rules", {}), entry.id)
    return state


def apply_variant(state: Composed, entry: RulesetEntry) -> None:
    """Apply one variant to ``state``, checking what it is written for, requires and
    conflicts with."""
    assert entry.path is not None
    data: JsonDict = load_checked(entry.path).data
    vid = entry.id
    if vid in state.variants:
        raise RulesetConflictError(f"variant {vid!r} is applied twice — name it once")
    targets = list(data.get("applies_to", []))
    if "any" not in targets and not set(targets) & set(state.lineage):
        raise RulesetConflictError(
            f"variant {vid!r} is written for {', '.join(targets)}, not for {state.id!r} — "
            f"use it with {targets[0]} (or a ruleset that extends it)")
    for needed in data.get("requires", []):
        if needed not in state.variants:
            raise RulesetConflictError(
                f"variant {vid!r} requires variant {needed!r} — add --variant {needed} "
                f"before --variant {vid}")
    mine = set(data.get("conflicts", []))
    for other in state.variants:
        if other in mine or vid in state.conflicts.get(other, []):
            raise RulesetConflictError(
                f"variant {vid!r} conflicts with variant {other!r}: they change the same "
                f"rules in incompatible ways — choose one of them")
    state.conflicts[vid] = sorted(mine)
    _overlay(state, data.get("rules", {}), f"variant {vid}")
    _remove(state, data.get("remove", []), f"variant {vid}")
    state.variants.append(vid)


def parse_override(text: str) -> tuple[str, Any]:
    """``'scoring.places=9,6,4,3,2,1'`` → ``('scoring.places', [9, 6, 4, 3, 2, 1])``.

    The value is read as YAML (``true``, ``3``, ``[1, 2]``); for a list-valued rule a bare
    comma-separated text is split into items.
    """
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise UsageError(f"--set {text!r}: write KEY=VALUE, e.g. --set hand.size=4")
    split_key(key)
    if len(raw) > MAX_SET_VALUE_CHARS or "*" in raw or "&" in raw:
        raise UsageError(f"--set {key}: write a plain value of at most {MAX_SET_VALUE_CHARS} "
                         "characters (no YAML anchors or aliases), e.g. 3, true or 9,6,4")
    try:
        value = yaml.safe_load(raw) if raw.strip() else None
        want = leaf_schema(key)["properties"]["value"].get("type")
        if isinstance(value, str) and "," in value and want in ("array", ["array", "null"]):
            value = [yaml.safe_load(part) for part in value.split(",")]
    except yaml.YAMLError as err:
        what = getattr(err, "problem", None) or "not YAML"
        raise UsageError(f"--set {key}: {raw!r} is not a readable value ({what})") from None
    if value is None and raw.strip() == "":
        raise UsageError(f"--set {key}= needs a value after '='")
    return key, value


def compose(name: str, variants: Sequence[str] = (),
            overrides: Mapping[str, str] | None = None,
            house: HouseRules | None = None) -> Composed:
    """The ruleset ``name`` with ``variants`` applied in order, then the ``house`` rules
    (dotted key → rule, :func:`~avecaesar.engine.ruleset.house.load_house`), then the
    ``overrides``."""
    state = _composed(name, variants, overrides, house)
    _validate(state, lambda without: _composed(name, variants, overrides, {
        k: r for k, r in (house or {}).items() if k != without}))
    return state


def _composed(name: str, variants: Sequence[str], overrides: Mapping[str, str] | None,
              house: HouseRules | None) -> Composed:
    state = _base(resolve(name))
    for v in variants:
        apply_variant(state, resolve_variant(v))
    for key, rule in (house or {}).items():
        state.house[key] = rule
        group, name_ = split_key(key)
        state.rules.setdefault(group, {})[name_] = copy.deepcopy(dict(rule))
        state.origins[key] = "--house"
    for key, raw in (overrides or {}).items():
        k, value = parse_override(f"{key}={raw}")
        group, rule_name = split_key(k)
        state.rules.setdefault(group, {})[rule_name] = {"value": value,
                                                        "source": OVERRIDE_SOURCE}
        state.origins[k] = "--set"
    return state


def _dotted(path: Sequence[str | int]) -> str:
    parts = [str(p) for p in path]
    if parts[:1] == ["rules"]:
        parts = parts[1:]
    return ".".join(parts) or "(top level)"


def _messages(state: Composed) -> list[tuple[Any, str]]:
    data = state.data()
    return list(data_messages(data, RULESET_SCHEMA) + rule_issues(data, complete=True))


def _validate(state: Composed, without: Callable[[str], Composed]) -> None:
    """Raise :class:`RulesetConflictError` with every problem of the composed rules. A
    problem that goes away without one of the house rules names that rule's place in its
    file (``--house, ours.yaml:3:14``): the house file is what to change."""
    messages = _messages(state)
    if not messages:
        return
    blame: dict[int, list[str]] = {}
    for key, rule in state.house.items():
        at = house_location(key, rule)
        if at is None:
            continue
        still = _messages(without(key))
        for i, m in enumerate(messages):
            if m not in still:
                blame.setdefault(i, []).append(f"{key} at {at}")
    lines = []
    for i, (path, message) in enumerate(messages):
        key = ".".join(str(p) for p in list(path)[1:3]) if list(path)[:1] == ["rules"] else ""
        origin = state.origins.get(key)
        if i in blame:
            origin = f"{origin}; the house rule {', '.join(blame[i])}" if origin \
                else f"the house rule {', '.join(blame[i])}"
        lines.append(f"  {_dotted(path)}: {message}" + (f" (from {origin})" if origin else ""))
    label = " + ".join([state.id, *state.variants])
    raise RulesetConflictError(f"the composed ruleset {label} is not valid:\n"
                               + "\n".join(lines))
