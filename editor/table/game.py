"""One race at a table (the web page or the terminal): whose turn, the hidden hands, bot
steps, undo, the record.

Every rule question goes to the engine (``legal_moves``, ``why_not``, ``push``, ``skip``,
``play_turn``, ``record_lines``, ``replay``); this module only keeps the table's memory:
who is a person, who has seen their hand, the undo points and the record file, which is
rewritten after every turn so a closed browser or a stopped server loses nothing.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from avecaesar.editor.render.board import CHARIOT_FILL
from avecaesar.editor.render.event_text import describe
from avecaesar.editor.table.choices import options, why_not_target
from avecaesar.engine.bots.policies import Policy, greedy_policy
from avecaesar.engine.bots.registry import OWNERLESS, make_policy
from avecaesar.engine.core.moves import six_rule
from avecaesar.engine.core.race import RaceRun, new_race, outcome, play_turn
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.record import read_record, record_lines, replay, rules_header
from avecaesar.engine.core.state import LETTERS, Move, RaceState
from avecaesar.engine.data.errors import AveCaesarError

__all__ = ["Game", "GameSetup"]


@dataclass
class GameSetup:
    """What the setup page chose: the header of the record, less the start facts."""

    ruleset: str
    variants: list[str]
    overrides: dict[str, str]
    course: str  # as the engine loads it: a bundled id or an upload's file
    seed: int
    players: list[dict[str, Any]]  # [{"name": str, "bot": None | "greedy" | …}] in seat order
    race: int | None = None  # the race of a tournament
    seats: list[int] | None = None  # a tournament's later race: the start order it gives
    house: dict[str, dict[str, Any]] | None = None  # house rules (--house, asked answers)
    _rules_facts: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    def header(self) -> dict[str, Any]:
        if self._rules_facts is None:  # the values' kinds and house rules, computed once
            self._rules_facts = rules_header(self.ruleset, self.variants, self.overrides,
                                             self.house)
        out = {"ruleset": self.ruleset, "variants": self.variants,
               "overrides": self.overrides, "course": self.course, "seed": self.seed,
               "players": self.players, **self._rules_facts}
        if self.race is not None:
            out.update(race=self.race, seated=self.seats is not None)
        return out


@dataclass
class _UndoPoint:
    turns: int
    state: RaceState
    log: int
    chariot: int


@dataclass
class Game:
    """A race in progress (or over) and its record file."""

    setup: GameSetup
    path: Path | None  # the record file; None: not written until saved
    state: RaceState
    start: dict[str, Any]
    turns: list[dict[str, Any]] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    revealed: tuple[int, int] | None = None  # (ply, chariot) whose owner confirmed
    undo: list[_UndoPoint] = field(default_factory=list)
    policies: list[Policy | None] = field(default_factory=list)  # per chariot; None: a person
    owner: list[int] = field(default_factory=list)  # per chariot: seat index, -1 nobody's

    # building ----------------------------------------------------------------------
    @classmethod
    def new(cls, setup: GameSetup, path: Path | None) -> Game:
        rules, board = race_setup(setup.ruleset, setup.variants, setup.overrides,
                                  setup.course, setup.house)
        names = [p["name"] for p in setup.players]
        try:
            state, start = new_race(rules, board, names, setup.seed, setup.seats)
        except ValueError as err:
            raise AveCaesarError(str(err)) from None
        game = cls(setup, path, state, start)
        game._seat_policies()
        game.write()
        return game

    @classmethod
    def resume(cls, path: Path, course_check: Any = None) -> Game:
        """Continue a saved record: every line re-checked by the engine's ``replay``."""
        lines = read_record(path)
        head = lines[0]
        course = head["course"] if course_check is None else course_check(head)
        setup = GameSetup(head["ruleset"], list(head.get("variants", [])),
                          dict(head.get("overrides", {})), course, int(head["seed"]),
                          [{"name": p["name"], "bot": p.get("bot")} for p in head["players"]],
                          head.get("race"), head["seats"] if head.get("seated") else None,
                          head.get("house"))
        rules, board = race_setup(setup.ruleset, setup.variants, setup.overrides, course,
                                  setup.house)
        turns = [ln for ln in lines[1:] if ln["type"] != "result"]
        replay([head, *turns], rules, board, str(path), partial=True)  # raises if illegal
        state, start = new_race(rules, board, [p["name"] for p in setup.players],
                                setup.seed, head["seats"] if head.get("seated") else None)
        game = cls(setup, path, state, start)
        game._seat_policies()
        for ln in turns:  # the same turns again, now keeping their events for the log
            c = LETTERS.index(ln["chariot"])
            if state.queue and c in state.choosable():
                state.choose(c)
            if ln["type"] == "skip":
                events = state.skip(ln["reason"])
                game._remember({"chariot": c, "skip": ln["reason"], "legal": 0,
                                "events": events})
                continue
            move = Move(0, ()) if ln["type"] == "wait" else Move(
                int(ln["card"]), tuple(ln["path"]),
                LETTERS.index(ln["ram"]) if ln.get("ram") else -1)
            events = state.push(move)
            game._remember({"chariot": c, "move": move, "legal": ln.get("legal", 0),
                            "events": events})
        game.write()
        return game

    def _seat_policies(self) -> None:
        per = self.state.game.rules.chariots_for(len(self.setup.players))
        self.policies, self.owner = [], []
        for s in self.start["seats"]:
            seat = s // per
            kind = self.setup.players[seat]["bot"]
            self.owner.append(seat)
            self.policies.append(None if kind is None else
                                 make_policy(kind, self.setup.seed * 100 + seat))
        for _ in range(self.state.game.chariots - len(self.policies)):
            self.owner.append(-1)
            self.policies.append(greedy_policy)

    # the record --------------------------------------------------------------------
    def record(self) -> list[dict[str, Any]]:
        run = RaceRun(self.state, self.start, self.turns, outcome(self.state))
        lines = record_lines(run, self.setup.header())
        return lines if self.state.over else lines[:-1]

    def write(self) -> None:
        """Rewrite the record (atomically: a temporary file renamed over it)."""
        if self.path is None:
            return
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            for line in self.record():
                f.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
        os.replace(tmp, self.path)

    # turns -------------------------------------------------------------------------
    @property
    def humans(self) -> int:
        return sum(1 for p in self.setup.players if p["bot"] is None)

    def is_human(self, c: int) -> bool:
        return self.policies[c] is None

    def needs_pass(self) -> bool:
        """The hand of the person to move is hidden until they confirm (2+ people)."""
        s = self.state
        if s.over or not self.is_human(s.turn):
            return False
        return self.humans > 1 and self.revealed != (s.ply, s.turn)

    def reveal(self) -> None:
        s = self.state
        if s.over or not self.is_human(s.turn):
            raise AveCaesarError("it is not a person's turn")
        if self.undo and self.owner[self.undo[-1].chariot] != self.owner[s.turn]:
            self.undo.clear()  # a later person has seen their hand: no undo past it
        self.revealed = (s.ply, s.turn)

    def _remember(self, turn: dict[str, Any]) -> None:
        self.turns.append(turn)
        game = self.state.game
        self.log.append({"ply": len(self.turns), "chariot": LETTERS[turn["chariot"]],
                         "legal": turn["legal"],
                         "events": [describe(game, e) for e in turn["events"]]})

    def step_bot(self) -> None:
        """One turn of the bot (or chariot nobody drives) to move."""
        s = self.state
        if s.over:
            raise AveCaesarError("the race is over")
        policy = self.policies[s.turn]
        if policy is None:
            raise AveCaesarError(f"it is {s.game.names[s.turn]}'s turn, a person's")
        self._remember(play_turn(s, policy, OWNERLESS))
        self.write()

    def human_turn_ready(self) -> None:
        s = self.state
        if s.over:
            raise AveCaesarError("the race is over")
        if not self.is_human(s.turn):
            raise AveCaesarError("it is a bot's turn")
        if self.needs_pass():
            raise AveCaesarError(f"pass the device to {s.game.names[s.turn]} first")

    def skip_if_forced(self) -> bool:
        """A person with no legal move skips (the engine says why)."""
        s = self.state
        moves = s.legal_moves()
        if moves:
            return False
        reason = moves.skip_reason or "blocked"
        c = s.turn
        self._remember({"chariot": c, "skip": reason, "legal": 0, "events": s.skip(reason)})
        self.write()
        return True

    def move(self, card: int, space: int | None) -> str | None:
        """Play ``card`` to ``space`` (``card`` 0: wait); return why not, or None when done."""
        self.human_turn_ready()
        s = self.state
        chosen = None
        for m in options(s):
            if m.card == card and (card == 0 or (m.path and m.path[-1] == space)):
                chosen = m
                break
        if chosen is None:
            if card == 0:
                return "waiting is not allowed here"
            if space is None:
                return "choose a space"
            return why_not_target(s, card, space)
        c = s.turn
        count = len(s.legal_moves())
        self.undo.append(_UndoPoint(len(self.turns), s.copy(), len(self.log), c))
        events = s.push(chosen)
        self._remember({"chariot": c, "move": chosen, "legal": count, "events": events})
        self.revealed = None
        self.write()
        return None

    def undo_last(self) -> None:
        if not self.undo:
            raise AveCaesarError("nothing to undo (or a later person has seen their hand)")
        point = self.undo.pop()
        self.state = point.state
        del self.turns[point.turns:]
        del self.log[point.log:]
        self.revealed = (self.state.ply, self.state.turn) if self.humans > 1 else None
        self.write()

    # what the page sees ------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        s = self.state
        game = s.game
        rules = game.rules
        chariots = []
        for c in range(game.chariots):
            chariots.append({
                "letter": LETTERS[c], "name": game.names[c], "human": self.is_human(c),
                "colour": CHARIOT_FILL[c % len(CHARIOT_FILL)],
                "bot": None if self.owner[c] < 0 or self.is_human(c)
                else self.setup.players[self.owner[c]]["bot"] or "greedy",
                "pos": s.pos[c], "lap": max(s.lap(c), 0), "laps": rules.laps,
                "coin": "paid" if s.stopped[c] else "held",
                "six": None if s.status[c] != "r" else six_rule(s, c),
                "status": {"r": "racing", "f": "finished", "x": "removed"}[s.status[c]],
                "disqualified": s.dq[c], "cards": len(s.cards(c))})
        out: dict[str, Any] = {
            "record": self.path.name if self.path else None, "course": self.setup.course,
            "ruleset": rules_name(self),
            "seed": self.setup.seed, "ply": s.ply, "over": s.over, "chariots": chariots,
            "log": self.log[-200:], "can_undo": bool(self.undo) and not s.over,
            "humans": self.humans}
        if s.over:
            out["result"] = outcome(s).to_json()
            return out
        c = s.turn
        out["turn"] = {"chariot": c, "letter": LETTERS[c], "name": game.names[c],
                       "human": self.is_human(c), "pass": self.needs_pass()}
        if self.is_human(c) and not self.needs_pass():
            moves = options(s)
            out["hand"] = list(s.cards(c))
            out["options"] = [{"card": m.card, "space": m.path[-1], "path": list(m.path)}
                              for m in moves if m.card]
            out["wait"] = any(m.card == 0 for m in moves)
            out["skip"] = None if moves else (s.legal_moves().skip_reason or "blocked")
        return out


def rules_name(game: Game) -> str:
    v = game.setup.variants
    return game.setup.ruleset + (" + " + ", ".join(v) if v else "")
