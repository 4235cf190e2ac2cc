"""Checks a schema cannot express: totals, orderings, consistency, names that must exist.

Each check returns ``(path, message)`` pairs; a file's checks turn them into located
:class:`~avecaesar.engine.data.errors.Problem` values, a composed ruleset's into one error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from avecaesar.engine.data.suggest import did_you_mean
from avecaesar.engine.data.values import JsonDict
from avecaesar.engine.ruleset.keys import group_names, rule_keys, value_errors

__all__ = ["Issue", "name_issues", "rule_issues"]

Issue = tuple[list[str | int], str]


def _leaf(rules: JsonDict, key: str) -> tuple[bool, Any]:
    """(present with a known value, value) of ``group.key`` in a rules mapping."""
    group, _, name = key.partition(".")
    leaf = rules.get(group, {}).get(name) if isinstance(rules.get(group), dict) else None
    if isinstance(leaf, dict) and "value" in leaf and not leaf.get("unknown"):
        return True, leaf["value"]
    return False, None


def _path(key: str, *rest: str | int) -> list[str | int]:
    group, _, name = key.partition(".")
    return ["rules", group, name, *rest]


def rule_issues(data: JsonDict, complete: bool) -> list[Issue]:
    """Semantic problems of the ``rules`` in a ruleset or variant mapping.

    ``complete``: the rules are a whole ruleset (a composed one, or an edition), so rules
    that depend on each other are checked together.
    """
    rules = data.get("rules")
    if not isinstance(rules, dict):
        return []
    issues: list[Issue] = []
    for group, keys in rules.items():
        if not isinstance(keys, dict):
            continue
        for name, leaf in keys.items():
            if isinstance(leaf, dict) and leaf.get("unknown") and "value" in leaf:
                issues.append((["rules", group, name, "value"],
                               "a rule declared unknown has no value — remove 'value' or "
                               "'unknown: true'"))
    for check in _RULE_CHECKS:
        issues.extend(check(rules, complete))
    return issues


def _scoring_descends(rules: JsonDict, complete: bool) -> Iterable[Issue]:
    ok, places = _leaf(rules, "scoring.places")
    if ok and isinstance(places, list):
        for i in range(1, len(places)):
            if isinstance(places[i], int) and isinstance(places[i - 1], int) \
                    and places[i] > places[i - 1]:
                yield (_path("scoring.places", "value", i),
                       f"place {i + 1} scores {places[i]}, more than place {i} "
                       f"({places[i - 1]}) — the scoring table must not rise")
                break


def _deck_total(rules: JsonDict, complete: bool) -> Iterable[Issue]:
    ok_c, comp = _leaf(rules, "deck.composition")
    ok_p, points = _leaf(rules, "deck.points")
    if not (ok_c and isinstance(comp, list)):
        return
    cards = [e.get("card") for e in comp if isinstance(e, dict)]
    dupes = {c for c in cards if cards.count(c) > 1}
    if dupes:
        yield (_path("deck.composition", "value"),
               f"card value(s) {sorted(dupes, key=str)} listed twice — list each value once")
    if ok_p and isinstance(points, int):
        total = sum(e.get("card", 0) * e.get("count", 0) for e in comp
                    if isinstance(e, dict) and isinstance(e.get("card"), int)
                    and isinstance(e.get("count"), int))
        if total != points:
            yield (_path("deck.points", "value"),
                   f"deck.points is {points} but the composition adds up to {total} — "
                   "make them agree")


def _alley_laps(rules: JsonDict, complete: bool) -> Iterable[Issue]:
    ok, laps = _leaf(rules, "alley.laps")
    if not (ok and isinstance(laps, list)):
        return
    if laps != sorted(set(laps)):
        yield (_path("alley.laps", "value"), "list the alley laps once each, ascending")
    ok_r, race_laps = _leaf(rules, "race.laps")
    if complete and ok_r and isinstance(race_laps, int):
        late = [lap for lap in laps if isinstance(lap, int) and lap > race_laps]
        if late:
            yield (_path("alley.laps", "value"),
                   f"alley lap(s) {late} beyond the race's {race_laps} laps")


def _players(rules: JsonDict, complete: bool) -> Iterable[Issue]:
    ok_lo, lo = _leaf(rules, "players.min")
    ok_hi, hi = _leaf(rules, "players.max")
    if ok_lo and ok_hi and isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        yield (_path("players.min", "value"),
               f"players.min ({lo}) is more than players.max ({hi})")
    ok_m, most = _leaf(rules, "race.max_chariots")
    if complete and ok_hi and ok_m and isinstance(hi, int) and isinstance(most, int) \
            and hi > most:
        yield (_path("players.max", "value"),
               f"players.max ({hi}) is more than race.max_chariots ({most})")


def _places_fit(rules: JsonDict, complete: bool) -> Iterable[Issue]:
    ok, places = _leaf(rules, "scoring.places")
    ok_m, most = _leaf(rules, "race.max_chariots")
    if complete and ok and ok_m and isinstance(places, list) and isinstance(most, int) \
            and len(places) > most:
        yield (_path("scoring.places", "value"),
               f"{len(places)} places scored but at most {most} chariots race")


def _hand_fits(rules: JsonDict, complete: bool) -> Iterable[Issue]:
    ok_h, hand = _leaf(rules, "hand.size")
    ok_c, comp = _leaf(rules, "deck.composition")
    if complete and ok_h and ok_c and isinstance(hand, int) and isinstance(comp, list):
        cards = sum(e.get("count", 0) for e in comp
                    if isinstance(e, dict) and isinstance(e.get("count"), int))
        if hand > cards:
            yield (_path("hand.size", "value"),
                   f"a hand of {hand} is more than the deck's {cards} cards")


def _ownerless_complete(rules: JsonDict, complete: bool) -> Iterable[Issue]:
    ok, when = _leaf(rules, "ownerless.when")
    if not (complete and ok and when != "never"):
        return
    group = rules.get("ownerless", {})
    needed = ["move", "unusable_card", "six_rule", "alley", "controller", "turn_order",
              "scores", "occupies_places"]
    missing = [k for k in needed if k not in group]
    if missing:
        yield (["rules", "ownerless"],
               f"ownerless chariots take part (when: {when}) but {', '.join(missing)} "
               "is not stated — add it (or 'unknown: true' with 'why')")
    ok_m, move = _leaf(rules, "ownerless.move")
    if ok_m and move == "first_card_then_position" and "position_moves" not in group:
        yield (["rules", "ownerless"], "move: first_card_then_position needs position_moves")


def _choices_fit(rules: JsonDict, complete: bool) -> Iterable[Issue]:
    """Each of an open rule's ``choices`` is a possible value of its key (the schema's one
    ``$defs/rule`` cannot see the key's value schema, so the check is here)."""
    for group, keys in rules.items():
        if not isinstance(keys, dict):
            continue
        for name, leaf in keys.items():
            key = f"{group}.{name}"
            choices = leaf.get("choices") if isinstance(leaf, dict) else None
            if key not in rule_keys() or not isinstance(choices, list):
                continue
            for i, choice in enumerate(choices):
                errors = value_errors(key, choice)
                if not errors:
                    continue
                options = rule_keys()[key]["properties"]["value"].get("enum")
                hint = (f"{did_you_mean(str(choice), options)} (one of: "
                        f"{', '.join(map(str, options))})") if options else \
                    f": {_short(errors[0], 160)}"
                yield (_path(key, "choices", i),
                       f"{_short(choice)} is not a possible value of {key}{hint}")


def _short(value: object, n: int = 40) -> str:
    text = value if isinstance(value, str) and n > 40 else repr(value)
    return text if len(text) <= n else text[: n - 3] + "..."


_RULE_CHECKS: list[Callable[[JsonDict, bool], Iterable[Issue]]] = [
    _choices_fit, _scoring_descends, _deck_total, _alley_laps, _players, _places_fit, _hand_fits,
    _ownerless_complete,
]


def name_issues(data: JsonDict, rulesets: list[str], variants: list[str]) -> list[Issue]:
    """References to other rulesets and variants that do not exist, and unknown keys in
    ``remove``; ``rulesets``/``variants`` are the known ids."""
    issues: list[Issue] = []

    def check(field: str, known: list[str], what: str, extra: tuple[str, ...] = ()) -> None:
        value = data.get(field)
        items = value if isinstance(value, list) else [value] if isinstance(value, str) else []
        for i, name in enumerate(items):
            if isinstance(name, str) and name not in known and name not in extra:
                where: list[str | int] = [field, i] if isinstance(value, list) else [field]
                issues.append((where, f"unknown {what} {name!r}{did_you_mean(name, known)}"))

    if data.get("kind") == "variant":
        check("applies_to", rulesets, "ruleset", ("any",))
        check("requires", variants, "variant")
        check("conflicts", variants, "variant")
        own = data.get("id")
        for field in ("requires", "conflicts"):
            if isinstance(data.get(field), list) and own in data[field]:
                issues.append(([field], f"a variant cannot name itself in {field}"))
        keys = list(rule_keys()) + group_names()
        for i, key in enumerate(data.get("remove") or []):
            if isinstance(key, str) and key not in keys:
                issues.append((["remove", i],
                               f"unknown rule key {key!r}{did_you_mean(key, keys)}"))
    else:
        check("extends", rulesets, "ruleset")
        check("variants", variants, "variant")
    return issues
