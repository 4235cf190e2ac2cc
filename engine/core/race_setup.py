"""What a race is played under, as one frozen value built once per command.

:class:`ChosenRules` is a ruleset named with its variants, ``--set`` values and house rules,
composed **once** (:meth:`ChosenRules.compose`, the one place a race's rules are composed);
:class:`RaceSetup` is those rules on a course, with the seats, their bots and the seed. Every
command — race, play, replay, tournament, simulate, the web table — builds one and carries it
by value; :meth:`RaceSetup.header` is the one writer of what a record's header says about the
setup, and :func:`avecaesar.engine.core.record.setup_from_header` the one reader.

The values derived from the names (the race rules, the board, the content hashes, the kinds of
the values, the rules files read) are computed when the value is built, never again, and stay
with it: a tournament's next race is the same value with another seed and start order
(:meth:`RaceSetup.for_race`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from avecaesar.engine.core.board import Board
from avecaesar.engine.core.ruleset_adapter import (
    RaceRules,
    TournamentRules,
    rules_from_ruleset,
    tournament_rules_from_ruleset,
)
from avecaesar.engine.course.bundled import edition_courses
from avecaesar.engine.course.load import Course, contract_water, load_course
from avecaesar.engine.data.errors import AveCaesarError, InputError, UsageError
from avecaesar.engine.data.paths import RULESETS_DIR
from avecaesar.engine.data.values import HouseRules, Json, JsonDict
from avecaesar.engine.ruleset.embedded import recording
from avecaesar.engine.ruleset.load import Ruleset, load_ruleset, race_figures

if TYPE_CHECKING:
    from avecaesar.engine.course.figures import RaceFigures

__all__ = ["CONTENT_KEYS", "ChosenRules", "HouseRules", "RaceSetup", "Seat", "race_setup"]


#: what a record's header ``content`` holds: each a SHA-256 in hex (docs/engine.md, "Game
#: records"); ``house`` only when there are house rules
CONTENT_KEYS = ("course", "ruleset", "house")


@dataclass(frozen=True, eq=False)
class ChosenRules:
    """The rules of a race: the names as given and what they compose to, once.

    ruleset, variants, overrides, house: as the user named them (``--ruleset``,
        ``--variant``, ``--set``, ``--house``); overrides in the order given.
    composed: the composed, validated :class:`~avecaesar.engine.ruleset.load.Ruleset`.
    race_rules: the engine's rule values (:func:`rules_from_ruleset`).
    files: the text of every ruleset or variant file read that is not bundled (a record
        carries them as ``rules_files``, so it replays without those files).
    """

    ruleset: str
    variants: tuple[str, ...]
    overrides: tuple[tuple[str, str], ...]
    house: HouseRules | None
    composed: Ruleset = field(repr=False)
    race_rules: RaceRules = field(repr=False)
    files: Mapping[str, str] = field(repr=False)

    @classmethod
    def compose(cls, ruleset: str, variants: Sequence[str] = (),
                overrides: Mapping[str, str] | None = None,
                house: HouseRules | None = None) -> ChosenRules:
        """Compose the rules once: every error of the names or files (unknown names,
        conflicts, located file problems, unsupported values) is raised here."""
        overrides = dict(overrides or {})
        with recording() as read:
            composed = load_ruleset(ruleset, list(variants), overrides, house)
        bundled = RULESETS_DIR.resolve()
        files = {name: text for name, text in read.items()
                 if not Path(name).resolve().is_relative_to(bundled)}
        return cls(ruleset, tuple(variants), tuple(overrides.items()),
                   dict(house) if house else None, composed,
                   _race_rules(composed, ruleset, variants, overrides, house), files)

    @property
    def overrides_dict(self) -> dict[str, str]:
        return dict(self.overrides)

    @cached_property
    def tournament_rules(self) -> TournamentRules:
        return tournament_rules_from_ruleset(self.composed)

    @cached_property
    def figures(self) -> RaceFigures:
        """The rule values a course's shortest legal race and reserve depend on."""
        return race_figures(self.composed)

    @cached_property
    def edition(self) -> str:
        """The first ruleset of the lineage (the edition a homebrew ruleset is based on)."""
        return str([*self.composed.data.get("based_on", []), self.composed.id][0])

    @cached_property
    def content(self) -> dict[str, str]:
        """The hashes of the composed rule values (variants, ``--set`` values and house
        rules applied; not the citations) and of the house rules."""
        rs = self.composed
        values = {k: {f: v for f, v in rs.rule(k).items() if f in ("value", "unknown")}
                  for k in rs.stated_keys()}
        out = {"ruleset": _sha(_canonical(values))}
        if self.house:
            out["house"] = _sha(_canonical(self.house))
        return out

    def header(self) -> JsonDict:
        """The names as a record header gives them (``ruleset``, ``variants``,
        ``overrides``)."""
        return {"ruleset": self.ruleset, "variants": list(self.variants),
                "overrides": self.overrides_dict}

    def header_facts(self) -> JsonDict:
        """What a header says about the rules beyond their names: the kind of every value
        a text does not state outright (read, conflict, open), the house rules and the
        rules files read."""
        out: JsonDict = {"kinds": {k: v for k, v in self.composed.kinds().items()
                                         if v != "stated"}}
        if self.house:
            out["house"] = _plain(self.house)
        if self.files:
            out["rules_files"] = dict(self.files)
        return out

    def course_pool(self) -> list[str]:
        """The bundled courses of these rules' edition (a tournament's draw)."""
        return edition_courses(self.edition)

    def course_setups(self) -> Callable[[str], RaceSetup]:
        """These rules on each course a tournament names, each course loaded once."""
        made: dict[str, RaceSetup] = {}

        def on(course: str) -> RaceSetup:
            if course not in made:
                made[course] = self.on(course)
            return made[course]

        return on

    def on(self, course: str, loaded: Course | None = None) -> RaceSetup:
        """These rules on ``course`` (a bundled id or a file; ``loaded``: the course
        already loaded from it). A course with errors is an :class:`InputError`; water
        ditches are contracted where the rules jump them uncounted."""
        c = load_course(course) if loaded is None else loaded
        if c.errors:
            raise InputError(c.errors)
        g = contract_water(c.graph) if self.race_rules.water_skipped else c.graph
        return RaceSetup(self, course, Board.from_graph(g, c.id), _course_hash(c), c.name)


@dataclass(frozen=True)
class Seat:
    """A seat at the race: the player's name and the bot driving it (None: a person)."""

    name: str
    bot: str | None = None

    def to_json(self) -> dict[str, Json]:
        return {"name": self.name, "bot": self.bot}


@dataclass(frozen=True, eq=False)
class RaceSetup:
    """One race's setup: the rules, the course and its board, the seats and the seed.

    Built by :meth:`ChosenRules.on` (or :func:`race_setup` from names); the per-race fields
    change with :meth:`for_race`, which keeps the composed rules and the board.
    """

    rules: ChosenRules
    course: str  # as the engine loads it: a bundled id or a file
    board: Board = field(repr=False)
    course_hash: str = field(repr=False)
    course_name: str = ""  # the course's own name (its file's ``name``)
    seats: tuple[Seat, ...] = ()
    seed: int = 0
    bot_budget: int | None = None  # --bot-budget, for the bots that take one
    race: int | None = None  # the race of a tournament
    start_order: tuple[int, ...] | None = None  # a tournament's later race: its start order

    @property
    def race_rules(self) -> RaceRules:
        return self.rules.race_rules

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def for_race(self, *, seats: Sequence[Seat] | None = None, seed: int | None = None,
                 bot_budget: int | None = None, race: int | None = None,
                 start_order: Sequence[int] | None = None) -> RaceSetup:
        """The same rules and board with other per-race fields (the ones given)."""
        changes: JsonDict = {}
        if seats is not None:
            changes["seats"] = tuple(seats)
        if seed is not None:
            changes["seed"] = seed
        if bot_budget is not None:
            changes["bot_budget"] = bot_budget
        if race is not None:
            changes["race"] = race
        if start_order is not None:
            changes["start_order"] = tuple(start_order)
        return replace(self, **changes)

    @cached_property
    def content(self) -> dict[str, str]:
        """What the race is played on, as hashes a record carries (docs/engine.md, "Game
        records"): ``course``, the course's lane graph (spaces, steps, walls, alley, start
        places, drawing — not where the file lives or its id); ``ruleset``, the composed rule
        values; ``house``, the house rules."""
        rules = self.rules.content
        out = {"course": self.course_hash, "ruleset": rules["ruleset"]}
        if "house" in rules:
            out["house"] = rules["house"]
        return out

    def header(self) -> JsonDict:
        """The one writer of a record header's setup (the record adds its format and the
        start facts: :func:`avecaesar.engine.core.record.record_lines`)."""
        out: JsonDict = {**self.rules.header(), "course": self.course,
                               "seed": self.seed,
                               "players": [s.to_json() for s in self.seats]}
        if self.bot_budget:
            out["bot_budget"] = self.bot_budget
        out.update(self.rules.header_facts())
        out["content"] = dict(self.content)
        if self.race is not None:
            out.update(race=self.race, seated=self.start_order is not None)
        return out


def _race_rules(composed: Ruleset, ruleset: str, variants: Sequence[str],
                overrides: Mapping[str, str], house: HouseRules | None) -> RaceRules:
    """The engine's rule values of the composed rules; a value the ``--set`` values make
    unreadable (``deck.choice`` naming no deck the ruleset states, …) is a usage error
    (exit 2) naming them, as every other bad ``--set`` is."""
    try:
        return rules_from_ruleset(composed)
    except AveCaesarError as err:
        if not overrides or err.exit_code == 2:
            raise
        try:
            rules_from_ruleset(load_ruleset(ruleset, list(variants), {}, house))
        except AveCaesarError:
            raise err from None  # the rules fail without the --set values too
        given = ", ".join(f"{k}={v}" for k, v in overrides.items())
        raise UsageError(f"--set {given}: {err}") from None


def race_setup(ruleset: str, variants: Sequence[str], overrides: Mapping[str, str],
               course: str, house: HouseRules | None = None) -> tuple[RaceRules, Board]:
    """The race rules and the board for a ruleset (with variants, house rules and ``--set``
    values) and a course id or file: :meth:`ChosenRules.compose` then :meth:`ChosenRules.on`,
    for callers that want only those two (tests, benches, notebooks)."""
    setup = ChosenRules.compose(ruleset, variants, overrides, house).on(course)
    return setup.race_rules, setup.board


def _course_hash(c: Course) -> str:
    import networkx as nx

    data = nx.node_link_data(c.graph, edges="edges")
    data["graph"] = {k: v for k, v in data["graph"].items()
                     if k not in ("file", "id", "drawing")}  # drawing: pieces, as pos is
    return _sha(_canonical(data))


def _plain(value: object) -> object:
    """Mappings and sequences as dicts and lists (what JSON and a record hold)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=str)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
