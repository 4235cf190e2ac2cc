"""The simulation's race loop with its per-turn tally: the part of ``simulate`` that runs once
per turn, compiled with the engine's hot path (setup.py ``NATIVE``) so that summarising a race
costs next to nothing beside racing it (issue 24: ``simulate`` at the speed of a hand-written
loop). :func:`avecaesar.engine.lab.simulate.summarise_race` turns the tally into a
:class:`~avecaesar.engine.lab.summary.RaceSummary`."""

from __future__ import annotations

from collections.abc import Sequence

from avecaesar.engine.core.race import Policy, play_turn
from avecaesar.engine.core.state import RaceState
from avecaesar.engine.data.values import JsonDict

__all__ = ["TURN_LIMIT", "RaceTally", "race_to_end"]

TURN_LIMIT = 20_000  # a race longer than this is cut (never seen: the deadlock rule ends it)


class RaceTally:
    """What a race's turns add up to, counted turn by turn: skips by reason, waits, lead
    changes, why and in which lap a chariot left, and (``heat``) per space the turns
    chariots stood, were blocked and waited there and the chariots disqualified there (the
    space its disqualifying turn ended on; the space it moved from when that turn also
    took it off the board)."""

    def __init__(self, chariots: int, heat: bool) -> None:
        self.heat = heat
        self.six = 0
        self.blocked = 0
        self.waits = 0
        self.changes = 0
        self.turns = 0
        self.leader = -1  # none yet
        self.stood: dict[int, int] = {}
        self.blocked_at: dict[int, int] = {}
        self.waited_at: dict[int, int] = {}
        self.dq_at: dict[int, int] = {}
        self.lap: list[int | None] = [None] * chariots
        self.why: list[str] = [""] * chariots

    def count(self, state: RaceState, c: int, turn: JsonDict, before: int | None = None
              ) -> None:
        """Add chariot ``c``'s turn (``play_turn``'s answer) to the tally (``before``: the
        space it started the turn on)."""
        self.turns += 1
        reason = turn.get("skip")
        at = state.pos[c]
        if reason == "six_rule":
            self.six += 1
        elif reason == "blocked":
            self.blocked += 1
            if self.heat and at is not None:
                self.blocked_at[at] = self.blocked_at.get(at, 0) + 1
        elif reason == "alley_blocked" or (reason is None and turn["move"].card == 0):
            self.waits += 1
            if self.heat and at is not None:
                self.waited_at[at] = self.waited_at.get(at, 0) + 1
        for event in turn["events"]:  # the effects' rare events come even with log off
            if event.kind in ("disqualified", "removed") and event.chariot is not None:
                self._left(state, event.chariot, event.kind, event.data.get("reason"))
                if self.heat and event.kind == "disqualified":
                    o = event.chariot
                    where = state.pos[o] if state.pos[o] is not None or o != c else before
                    self.disqualified_at(where)
        if not state.over:
            leaders = state.leaders()
            if len(leaders) == 1 and leaders[0] != self.leader:
                if self.leader >= 0:
                    self.changes += 1
                self.leader = leaders[0]
        if self.heat:
            for space in state.pos:
                if space is not None:
                    self.stood[space] = self.stood.get(space, 0) + 1

    def disqualified_at(self, space: int | None) -> None:
        """A chariot was disqualified on ``space`` (None: off the board, not counted)."""
        if space is not None:
            self.dq_at[space] = self.dq_at.get(space, 0) + 1

    def _left(self, state: RaceState, o: int, kind: str, reason: object) -> None:
        """Chariot ``o`` was disqualified or removed: keep the first reason (a removal wins)
        and the lap it happened in."""
        if not self.why[o] or kind == "removed":
            why = str(reason or kind)
            self.why[o] = "disqualified: " + why if kind == "disqualified" else why
            self.lap[o] = min(state.lap(o), state.game.rules.laps)


def race_to_end(state: RaceState, policies: Sequence[Policy], ownerless: Policy,
                heat: bool, limit: int = TURN_LIMIT) -> RaceTally:
    """Play the race to its end (or ``limit`` turns), ``policies[c]`` driving chariot ``c``,
    and tally its turns."""
    tally = RaceTally(state.game.chariots, heat)
    while not state.over and tally.turns < limit:
        c = state.turn
        before = state.pos[c]
        tally.count(state, c, play_turn(state, policies[c], ownerless), before)
    return tally
