"""A race position: the race's fixed part (:class:`RaceGame`) and the facts of one moment
(:class:`Position`), with the read-only questions the rules ask about them.

The conditions, the effects, the legal moves and the notation read a position through this
class; :class:`~avecaesar.engine.core.state.RaceState`, one layer up, is the position that
plays: it applies moves and skips, so it imports those modules and they never import it.
"""

from __future__ import annotations

from dataclasses import dataclass

from avecaesar.engine.core.board import Board
from avecaesar.engine.core.rule_values import RaceRules
from avecaesar.engine.core.types import RACING, REMOVED, Status, Termination

__all__ = ["Position", "RaceGame"]


@dataclass(frozen=True)
class RaceGame:
    """The immutable part of a race: rules, board and who drives each chariot."""

    rules: RaceRules
    board: Board
    names: tuple[str, ...]
    ownerless: tuple[bool, ...] = ()  # per chariot: no player drives it (top card)
    owners: tuple[int, ...] = ()  # per chariot: the player driving it (several each), or -1
    players: tuple[str, ...] = ()  # with several chariots each: the players, by index

    @property
    def chariots(self) -> int:
        return len(self.names)

    @property
    def player_turns(self) -> bool:
        """On a player's turn all of their chariots move, in the order they choose."""
        return bool(self.owners) and self.rules.player_orders

    def own_chariots(self, player: int) -> list[int]:
        return [c for c, o in enumerate(self.owners) if o == player]

    def is_ownerless(self, c: int) -> bool:
        return bool(self.ownerless) and self.ownerless[c]


class Position:
    """Positions, laps, alley stops, cards, finishers and the turn of one race: the fields
    and the questions asked about them. Made and changed by its subclass
    :class:`~avecaesar.engine.core.state.RaceState` (which sets every field)."""

    __slots__ = ("bonus", "crossings", "decks", "dq", "end", "finish_order", "forfeit", "game",
                 "hands", "idle", "later_laps", "log", "money", "played", "ply", "pos", "queue",
                 "status", "stopped", "turn")

    game: RaceGame
    pos: list[int | None]
    crossings: list[int]
    stopped: list[bool]
    hands: list[tuple[int, ...]]
    decks: list[tuple[int, ...]]
    played: list[tuple[int, ...]]
    status: list[Status]
    dq: list[bool]
    finish_order: list[int]
    turn: int
    idle: int
    ply: int
    end: Termination | None
    queue: tuple[int, ...]
    bonus: tuple[bool, ...]
    money: tuple[int, ...]
    forfeit: tuple[bool, ...]
    later_laps: tuple[int, ...]  # per chariot: laps its alley window was extended by
    log: bool


    def copy(self) -> Position:
        """An independent position of the same class (:meth:`RaceState.copy`)."""
        raise NotImplementedError("a position is copied by the class that made it")

    # -- derived facts -----------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.end is not None

    def current(self) -> int | None:
        """The chariot whose turn it is, or None when the race is over."""
        return None if self.end is not None else self.turn

    def lap(self, c: int) -> int:
        """The lap chariot ``c`` is driving (1-based)."""
        return self.crossings[c] - self.game.board.start_crossings[c] + 1

    def window(self, c: int) -> tuple[int, ...]:
        """The laps in which an alley stop of chariot ``c`` counts: the ruleset's window,
        extended by the laps an effect gave this chariot (``extend_alley_window``): the
        one window every reader asks :mod:`~avecaesar.engine.course.alley_window` with."""
        laps = self.game.rules.alley_laps
        extra = self.later_laps[c]
        if not extra or not laps:
            return laps
        last = max(laps)
        return (*laps, *range(last + 1, last + 1 + extra))

    def race_progress(self, c: int) -> int:
        """Laps done × lap value + the progress of its space (DESIGN "A course is a lane graph")."""
        b = self.game.board
        p = self.pos[c]
        return (self.crossings[c] - b.start_crossings[c]) * b.lap_value + (
            b.progress[p] if p is not None else 0)

    def racing(self) -> list[int]:
        return [c for c, s in enumerate(self.status) if s == RACING]

    def leaders(self) -> list[int]:
        """The racing chariots with the greatest race progress (several: joint leaders).

        The one definition of who leads, for every question (the ``leading`` conditions,
        the 2-4-6 measure, any house rule): where the rules say a finished chariot is ahead
        of every chariot still racing (``finishers_lead``), nobody leads once one has
        crossed the line."""
        if self.finish_order and self.game.rules.finishers_lead:
            return []
        board = self.game.board
        sc, lap_value, progress = board.start_crossings, board.lap_value, board.progress
        pos, crossings = self.pos, self.crossings
        best = 0
        out: list[int] = []
        for c, s in enumerate(self.status):
            p = pos[c]
            if s != RACING or p is None:
                continue
            rp = (crossings[c] - sc[c]) * lap_value + progress[p]  # race_progress(c)
            if not out or rp > best:
                best, out = rp, [c]
            elif rp == best:
                out.append(c)
        return out

    def crashed(self, c: int) -> bool:
        """Chariot ``c`` crashed: out of the race, its wreck still blocks its space."""
        return self.status[c] == REMOVED and self.pos[c] is not None

    def occupied(self, but: int | None = None) -> set[int]:
        return {p for c, p in enumerate(self.pos) if p is not None and c != but}

    def cards(self, c: int) -> tuple[int, ...]:
        """The cards chariot ``c`` may play from: its hand, or an ownerless chariot's top
        card."""
        if self.game.is_ownerless(c):
            own = self.game.rules.ownerless
            if self.decks[c] or own is None or own.position_moves is None:
                return self.decks[c][:1]
            return (self.position_move(c),)
        return self.hands[c]

    def position_move(self, c: int) -> int:
        """The 2-4-6 rule: the move of a chariot by its race position (leading as
        :meth:`leaders` says, else last or middle among the racing chariots on the
        track)."""
        own = self.game.rules.ownerless
        assert own is not None and own.position_moves is not None
        lead, middle, last = own.position_moves
        if c in self.leaders():
            return lead
        on = [o for o in self.racing() if self.pos[o] is not None]
        if self.race_progress(c) == min(self.race_progress(o) for o in on):
            return last
        return middle

    def points_total(self, c: int) -> int:
        return sum(self.hands[c]) + sum(self.decks[c]) + sum(self.played[c])


    def player_turn_queue(self, player: int, racing: list[int]) -> list[int]:
        """A player's racing chariots in the default order of a turn: best placed first."""
        mine = [c for c in racing if self.game.owners[c] == player]
        return sorted(mine, key=lambda c: (-self.race_progress(c), c))

