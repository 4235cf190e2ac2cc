"""Setting up a table: the catalogue the setup form is built from, and reading the form.

The setup takes what the CLI takes: an edition (or homebrew ruleset), variants by title —
only those written for the chosen ruleset —, a house-rules file and a variant file (uploaded;
both end up in the record's house rules, so the game replays anywhere), the answers to the
open values (asked as a form built from the server's structured list: key, why, citation,
choices), a bundled course (each edition preselects its own) or an uploaded one, the seats
(a person or a bot), how long a chosen move waits to be confirmed, and — for practice only —
the seed. Without one the server draws it in secret (``secrets``), never sent to or shown by
a device before the race is over; a table whose setup names a seed is practice, and every
device says so ("the deal is known to the host").
"""

from __future__ import annotations

import functools
import random
import secrets
from dataclasses import dataclass
from typing import Any

from avecaesar.editor.render.lang import name_of
from avecaesar.editor.table.messages import say
from avecaesar.editor.web.requests import field
from avecaesar.editor.web.storage import MAX_COURSE_BYTES, BadRequest, Storage
from avecaesar.engine.bots.registry import BOTS, POLICIES
from avecaesar.engine.core.race_setup import ChosenRules, HouseRules, RaceSetup, Seat
from avecaesar.engine.course.bundled import edition_courses
from avecaesar.engine.course.load import bundled_courses
from avecaesar.engine.data.errors import AveCaesarError, MissingRuleValueError
from avecaesar.engine.data.limits import MAX_PLAYERS
from avecaesar.engine.data.shown import escaped, is_plain

__all__ = ["ASKED", "SEED_LIMIT", "SetupForm", "TableOptions", "catalog", "missing_values",
           "parse_setup"]

#: the citation of a value the table answered in the setup form (as the terminal's ``play``)
ASKED = "house rule: asked at the table"
MAX_DELAY_MS = 10_000
#: the longest a chosen move waits for its confirmation before it is played by itself (ms)
MAX_CONFIRM_MS = 60_000
MAX_TURN_S = 3600  # the longest turn clock (s)
#: a move waits this long by default (the page's setup), long enough to take it back
CONFIRM_MS = 4_000
#: a seed the server draws is below this (2**53: a device's JavaScript reads it exactly)
SEED_LIMIT = 2**53


@dataclass(frozen=True)
class SetupForm:
    """What the setup form chose, checked but not yet loaded: :meth:`compose` builds the
    race's setup (off the event loop: composing reads files)."""

    ruleset: str
    variants: tuple[str, ...]
    overrides: tuple[tuple[str, str], ...]
    course: str  # as the engine loads it: a bundled id or an upload's file
    seed: int
    seats: tuple[Seat, ...]  # in seat order; bot None: a person
    house: HouseRules | None = None

    def compose(self) -> RaceSetup:
        chosen = ChosenRules.compose(self.ruleset, self.variants, dict(self.overrides),
                                     self.house)
        return chosen.on(self.course).for_race(seats=self.seats, seed=self.seed)


@dataclass(frozen=True)
class TableOptions:
    shared: bool  # one device passed around
    delay_ms: int | None  # the bots' step time; None: they move when asked (the API)
    tournament: bool
    confirm_ms: int | None = CONFIRM_MS  # a pending move is played by itself after it
    practice: bool = False  # the seed was chosen by a person
    lobby: bool = False  # the race waits until every person's seat has joined (or the host)
    turn_s: int | None = None  # the turn clock: a person's turn not chosen by then, to a bot


@functools.cache
def _lineage(ruleset: str) -> tuple[str, ...]:
    from avecaesar.engine.ruleset.load import load_ruleset

    try:
        rs = load_ruleset(ruleset)
    except AveCaesarError:
        return (ruleset,)
    return (*map(str, rs.data.get("based_on", [])), rs.id)


@functools.cache
def _preselected_course(ruleset: str) -> str | None:
    """The course an edition starts on: its tournament's first race, else its first board."""
    from avecaesar.engine.core.ruleset_adapter import tournament_rules_from_ruleset
    from avecaesar.engine.core.tournament import choose_course
    from avecaesar.engine.ruleset.load import load_ruleset

    edition = _lineage(ruleset)[0]
    pool = edition_courses(edition)
    try:
        rules = tournament_rules_from_ruleset(load_ruleset(ruleset))
        return str(choose_course(rules, 1, 4, None, [], pool, random.Random(0)))
    except (AveCaesarError, ValueError, KeyError):
        return pool[0] if pool else None


def catalog() -> dict[str, Any]:
    """What the setup form offers: rulesets with their course and variants (by title, only
    the ones written for that ruleset), the bundled courses, the bots."""
    from avecaesar.engine.ruleset.catalog import bundled

    entries = bundled()
    variants = [e for e in entries if e.kind == "variant"]
    rulesets = []
    for e in entries:
        if e.kind == "variant":
            continue
        line = set(_lineage(e.id))
        rulesets.append({**e.to_json(), "title": name_of(e.id, e.title),
                         "course": _preselected_course(e.id),
                         "variants": [v.id for v in variants
                                      if "any" in v.applies_to or line & set(v.applies_to)]})
    courses = sorted(bundled_courses())
    return {"rulesets": rulesets,
            "variants": [{**v.to_json(), "title": name_of(v.id, v.title)} for v in variants],
            "courses": courses, "course_titles": {c: name_of(c) for c in courses},
            "bots": [{"name": b.name, "doc": b.doc} for b in BOTS],
            "max_course_bytes": MAX_COURSE_BYTES, "max_players": MAX_PLAYERS,
            "max_delay_ms": MAX_DELAY_MS, "confirm_ms": CONFIRM_MS,
            "max_confirm_ms": MAX_CONFIRM_MS}


def missing_values(err: MissingRuleValueError) -> list[dict[str, Any]]:
    """The open values as the form asks them: key, why, citation, choices."""
    out = []
    for key, why, choices in err.entries:
        text, cite = why, ""
        if why.endswith("]") and " [" in why:
            text, _, cite = why[:-1].rpartition(" [")
        out.append({"key": key, "why": text, "cite": cite,
                    "choices": None if choices is None else [
                        str(c).lower() if isinstance(c, bool) else c for c in choices]})
    return out


def _seats(data: dict[str, Any]) -> list[Seat]:
    players = field(data, "players", list)
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise BadRequest(say("api_players", most=MAX_PLAYERS))
    seats = []
    for i, p in enumerate(players, start=1):
        if not isinstance(p, dict):
            raise BadRequest(say("api_player_shape", i=i))
        name = " ".join(str(field(p, "name", str)).split())[:40] or f"Player {i}"
        if not is_plain(name):
            raise BadRequest(f"player {i}: the name '{escaped(name)}' holds a control or "
                             "direction character — give names of letters, digits, spaces "
                             "and punctuation")
        bot = field(p, "bot", str, None)
        if bot is not None and bot not in POLICIES:
            raise BadRequest(say("api_unknown_bot_of", i=i, bot=bot, known=", ".join(POLICIES)))
        seats.append(Seat(name, bot))
    if len({s.name.casefold() for s in seats}) != len(seats):
        raise BadRequest(say("api_same_name"))
    return seats


def _house(data: dict[str, Any], storage: Storage) -> dict[str, dict[str, Any]] | None:
    """The house rules: the uploaded variant file's rules, the uploaded house-rules file,
    then the answers to the open values (later ones win)."""
    from avecaesar.engine.ruleset.compose import parse_override

    house: dict[str, dict[str, Any]] = {}
    for name in ("variant_file", "house_file"):
        ref = field(data, name, str, None)
        if ref:
            house.update(storage.rules_file(ref))
    answers = field(data, "answers", dict, {})
    if len(answers) > 64:
        raise BadRequest(say("api_many_answers"))
    for key, raw in answers.items():
        if not isinstance(raw, str | int | bool):
            raise BadRequest(say("api_answer_value", name=key))
        text = str(raw).lower() if isinstance(raw, bool) else str(raw)
        k, value = parse_override(f"{key}={text}")
        house[k] = {"value": value, "source": ASKED}
    return house or None


def parse_setup(data: dict[str, Any], storage: Storage) -> tuple[SetupForm, TableOptions]:
    """The form's fields checked (every mistake a 4xx with its field named)."""
    from avecaesar.engine.ruleset.compose import parse_override

    seats = _seats(data)
    variants = field(data, "variants", list, [])
    overrides = field(data, "overrides", dict, {})
    if not all(isinstance(v, str) for v in variants) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in overrides.items()):
        raise BadRequest(say("api_variants_shape"))
    for k, v in overrides.items():
        parse_override(f"{k}={v}")  # the CLI's --set check: unknown keys get "did you mean"
    ruleset = field(data, "ruleset", str)
    for name in [ruleset, *variants]:
        storage.rule_name(name)
    seed = field(data, "seed", int, None)
    practice = seed is not None
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)  # the server's deal: nobody at the table chose it
    if not 0 <= seed < SEED_LIMIT:
        raise BadRequest(say("api_seed", most=SEED_LIMIT - 1))
    delay = field(data, "delay_ms", int, None)
    if delay is not None and not 0 <= delay <= MAX_DELAY_MS:
        raise BadRequest(say("api_delay", most=MAX_DELAY_MS))
    confirm = field(data, "confirm_ms", int, CONFIRM_MS) if "confirm_ms" not in data or \
        data["confirm_ms"] is not None else None
    if confirm is not None and not 0 <= confirm <= MAX_CONFIRM_MS:
        raise BadRequest(say("api_confirm", most=MAX_CONFIRM_MS))
    setup = SetupForm(ruleset, tuple(variants), tuple(overrides.items()),
                      storage.course_path(field(data, "course", str)), seed, tuple(seats),
                      house=_house(data, storage))
    shared = bool(field(data, "shared", bool, False))
    waits = bool(field(data, "lobby", bool, False)) and not shared \
        and any(s.bot is None for s in seats)
    clock = field(data, "turn_s", int, None)
    if clock is not None and not 1 <= clock <= MAX_TURN_S:
        raise BadRequest(say("api_turn_s", most=MAX_TURN_S))
    options = TableOptions(shared, delay, bool(field(data, "tournament", bool, False)),
                           confirm, practice, waits, clock)
    return setup, options
