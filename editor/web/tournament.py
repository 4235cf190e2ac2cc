"""A tournament at the web table: the edition's races one game at a time.

The course of each race (rotation or draw), the start order of the next race and the
standings come from the engine (``choose_course``, ``next_seats``, ``race_result``,
``standings``). The tournament file (``saves/<id>.tournament.json``) lists the setup and
the record of each race; the races are the ordinary game records (``seated`` after the
first race).
"""

from __future__ import annotations

import json
import random
import secrets
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from avecaesar.editor.table.game import Game
from avecaesar.engine.core.race import outcome
from avecaesar.engine.core.race_setup import ChosenRules, RaceSetup, Seat
from avecaesar.engine.core.record import read_record, replay
from avecaesar.engine.core.ruleset_adapter import TournamentRules
from avecaesar.engine.core.tournament import (
    TournamentError,
    choose_course,
    next_seats,
    race_result,
    race_seed,
    standings,
)
from avecaesar.engine.course.load import bundled_courses
from avecaesar.engine.data.errors import AveCaesarError
from avecaesar.engine.data.safeio import write_atomic

__all__ = ["WebTournament"]

FORMAT = "avecaesar-web-tournament"


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

    # files ---------------------------------------------------------------------------
    @staticmethod
    def file(saves: Path, tid: str) -> Path:
        return saves / f"{tid}.tournament.json"

    def save(self, saves: Path) -> None:
        # a unique temporary name beside it (never a fixed ``.tmp``), removed on failure
        write_atomic(self.file(saves, self.id),
                     json.dumps({"format": FORMAT, **asdict(self)}, ensure_ascii=False))

    @classmethod
    def load(cls, saves: Path, tid: str) -> WebTournament:
        path = cls.file(saves, tid)
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as err:
            raise AveCaesarError(f"cannot read the tournament {tid!r}: {err}") from None
        doc.pop("format", None)
        return cls(**doc)

    @classmethod
    def of_record(cls, saves: Path, record: str) -> WebTournament | None:
        for path in saves.glob("*.tournament.json"):
            if record in path.read_text(encoding="utf-8"):
                t = cls.load(saves, path.name.removesuffix(".tournament.json"))
                if record in t.races:
                    return t
        return None

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
        pool = sorted(c for c in bundled_courses() if c.startswith(chosen.edition + "/"))
        return chosen.tournament_rules, pool

    def results(self, saves: Path) -> list[Any]:
        """The finished races as the engine's race results."""
        out = []
        for r, name in enumerate(self.races, start=1):
            lines = read_record(saves / name)
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

    def next_game(self, saves: Path, new_path: Path) -> Game:
        """Start the next race: its course, seed and start order as the rules give them."""
        t, pool = self.rules()
        done = self.results(saves)
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
        setup = self.chosen().on(course).for_race(
            seats=[Seat(p["name"], p.get("bot")) for p in self.players],
            seed=race_seed(self.seed, r), race=r, start_order=seats)
        game = Game.new(setup, new_path)
        self.races.append(new_path.name)
        self.save(saves)
        return game

    def view(self, saves: Path) -> dict[str, Any]:
        t, _pool = self.rules()
        done = self.results(saves)
        names = [p["name"] for p in self.players]
        return {"id": self.id, "race": len(self.races), "races": t.races,
                "next": len(done) == len(self.races) < t.races,
                "standings": [s.to_json() for s in standings(names, done, t.tie_break)]}

    @classmethod
    def start(cls, saves: Path, setup: RaceSetup, new_path: Path, chosen_course: str
              ) -> tuple[WebTournament, Game]:
        """A new tournament and its first race: the rotation's course, or the chosen one for
        every race when the rules name no playable course."""
        chosen = setup.rules
        t = cls(f"t{secrets.token_hex(4)}", chosen.ruleset, list(chosen.variants),
                chosen.overrides_dict, [s.to_json() for s in setup.seats], setup.seed, None,
                house=None if chosen.house is None else {k: dict(v) for k, v in
                                                         chosen.house.items()})
        t.__dict__["_chosen"] = chosen
        rules, pool = t.rules()
        try:
            choose_course(rules, 1, len(t.players), None, [], pool, random.Random(t.seed))
        except TournamentError:
            t.courses = [chosen_course]
        return t, t.next_game(saves, new_path)
