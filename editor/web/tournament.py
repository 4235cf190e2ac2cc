"""A tournament at the web table: the edition's races one game at a time.

The course of each race (rotation or draw), the start order of the next race and the
standings come from the engine (``choose_course``, ``next_seats``, ``race_result``,
``standings``). The table keeps the tournament (its setup and the record of each race) in
its document in the database; the races are the ordinary game records (``seated`` after
the first race). A tournament of people is dealt race by race: each race's seed is drawn by
the server and committed to, not derived from one tournament seed (the first race's
revealed seed would tell every later deal); a tournament with a chosen seed (practice)
keeps the CLI's ``seed × 1000 + r``.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from avecaesar.editor.table.game import Game
from avecaesar.editor.web.table_setup import SEED_LIMIT
from avecaesar.engine.core.race import outcome
from avecaesar.engine.core.race_setup import ChosenRules, RaceSetup, Seat
from avecaesar.engine.core.record import replay
from avecaesar.engine.core.ruleset_adapter import TournamentRules
from avecaesar.engine.core.tournament import (
    TournamentError,
    choose_course,
    next_seats,
    race_result,
    race_seed,
    standings,
)
from avecaesar.engine.data.errors import AveCaesarError

__all__ = ["WebTournament"]

FORMAT = "avecaesar-web-tournament"
#: a race's record lines by its name
Lines = Callable[[str], list[dict[str, Any]]]


@dataclass
class WebTournament:
    id: str
    ruleset: str
    variants: list[str]
    overrides: dict[str, str]
    players: list[dict[str, Any]]
    seed: int
    courses: list[str] | None  # None: the edition's rotation (or draw)
    races: list[str] = field(default_factory=list)  # record names, race 1 first
    house: dict[str, dict[str, Any]] | None = None  # house rules (files, answers)
    dealt: bool = True  # each race's seed drawn by the server (False: practice)

    # the table's document ------------------------------------------------------------
    def to_doc(self) -> dict[str, Any]:
        return {"format": FORMAT, **asdict(self)}

    @classmethod
    def of_doc(cls, doc: dict[str, Any]) -> WebTournament:
        fields = {k: v for k, v in doc.items() if k != "format"}
        return cls(**fields)

    # rules ---------------------------------------------------------------------------
    def chosen(self) -> ChosenRules:
        """The tournament's rules, composed once per tournament object."""
        found: ChosenRules | None = self.__dict__.get("_chosen")
        if found is None:
            found = self.__dict__["_chosen"] = ChosenRules.compose(
                self.ruleset, self.variants, self.overrides, self.house)
        return found

    def rules(self) -> tuple[TournamentRules, list[str]]:
        """The tournament rules and the courses a draw may take (the edition's)."""
        chosen = self.chosen()
        return chosen.tournament_rules, chosen.course_pool()

    def results(self, lines_of: Lines) -> list[Any]:
        """The finished races as the engine's race results."""
        out = []
        for r, name in enumerate(self.races, start=1):
            lines = lines_of(name)
            head = lines[0]
            setup = self.chosen().on(head["course"])
            state = replay(lines, setup.race_rules, setup.board, name, partial=True)
            if not state.over:
                break
            out.append(race_result(r, head["course"], int(head["seed"]), head["seats"],
                                   outcome(state), len(self.players),
                                   [{k: v for k, v in ln.items() if k != "_line"}
                                    for ln in lines]))
        return out

    def next_game(self, lines_of: Lines, name: str) -> Game:
        """Start the next race (its record ``name``): its course and start order as the
        rules give them, its seed drawn by the server (practice: from the chosen seed)."""
        t, pool = self.rules()
        done = self.results(lines_of)
        if len(done) < len(self.races):
            raise AveCaesarError("the current race of the tournament is not over yet")
        r = len(self.races) + 1
        if r > t.races:
            raise AveCaesarError(f"the tournament has {t.races} races ({t.cite('races')})")
        rng = random.Random(self.seed)
        raced: list[str] = []
        course = ""
        for k in range(1, r + 1):  # the draws of the earlier races, then this one's
            course = choose_course(t, k, len(self.players), self.courses, raced, pool, rng)
            raced.append(course)
        seats = next_seats(t, done[-1].seats, done[-1].seat_order) if done else None
        seed = secrets.randbelow(SEED_LIMIT) if self.dealt else race_seed(self.seed, r)
        setup = self.chosen().on(course).for_race(
            seats=[Seat(p["name"], p.get("bot")) for p in self.players],
            seed=seed, race=r, start_order=seats)
        game = Game.new(setup, None, deal="server" if self.dealt else "host")
        game.path = Path(name)
        self.races.append(name)
        return game

    def view(self, lines_of: Lines) -> dict[str, Any]:
        t, _pool = self.rules()
        done = self.results(lines_of)
        names = [p["name"] for p in self.players]
        return {"id": self.id, "race": len(self.races), "races": t.races,
                "next": len(done) == len(self.races) < t.races,
                "standings": [s.to_json() for s in standings(names, done, t.tie_break)]}

    @classmethod
    def start(cls, setup: RaceSetup, name: str, chosen_course: str, dealt: bool = True
              ) -> tuple[WebTournament, Game]:
        """A new tournament and its first race (record ``name``): the rotation's course, or
        the chosen one for every race when the rules name no playable course. ``dealt``:
        the server draws each race's seed (``setup.seed`` then only draws the courses)."""
        chosen = setup.rules
        t = cls(f"t{secrets.token_hex(4)}", chosen.ruleset, list(chosen.variants),
                chosen.overrides_dict, [s.to_json() for s in setup.seats], setup.seed, None,
                house=None if chosen.house is None else {k: dict(v) for k, v in
                                                         chosen.house.items()}, dealt=dealt)
        t.__dict__["_chosen"] = chosen
        rules, pool = t.rules()
        try:
            choose_course(rules, 1, len(t.players), None, [], pool, random.Random(t.seed))
        except TournamentError:
            t.courses = [chosen_course]
        return t, t.next_game(lambda n: [], name)
