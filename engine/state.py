"""The race state: chariots on the lane graph, their cards, the turn; applying moves and skips.

A :class:`RaceState` is mutable for speed (``copy()`` gives an independent one) and holds a
reference to its immutable :class:`RaceGame` (rules + board + chariot names). Chariot ``i``
stands on start place ``i + 1`` and moves ``i``-th in each round. Everything a state needs
to continue is in its one-line notation (:mod:`avecaesar.engine.notation`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from avecaesar.engine.board import Board
from avecaesar.engine.rules import RaceRules

if TYPE_CHECKING:
    from avecaesar.engine.moves import LegalMoves

__all__ = ["LETTERS", "WAIT", "Event", "Move", "RaceGame", "RaceState"]

LETTERS = "ABCDEFGHIJKL"
RACING, FINISHED, REMOVED = "r", "f", "x"


class Move(NamedTuple):
    """A card and the spaces driven through, the landing space last.

    A finishing move may be shorter than its card: steps beyond the line lapse.
    ``Move(0, ())`` is waiting in front of a blocked alley where the rules allow it.
    """

    card: int
    path: tuple[int, ...]

    def __str__(self) -> str:
        if self.card == 0:
            return "wait"
        return f"{self.card}:" + "-".join(str(n) for n in self.path)

    @classmethod
    def parse(cls, text: str) -> Move:
        text = text.strip()
        if text == "wait":
            return WAIT
        card, _, path = text.partition(":")
        return cls(int(card), tuple(int(n) for n in path.split("-") if n))


WAIT = Move(0, ())


@dataclass(frozen=True)
class Event:
    """Something that happened: kind, the chariot, and details."""

    kind: str  # move skip wait lap alley_stop disqualified finish removed end
    chariot: int | None
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "chariot": self.chariot, **self.data}


@dataclass(frozen=True)
class RaceGame:
    """The immutable part of a race: rules, board and who drives each chariot."""

    rules: RaceRules
    board: Board
    names: tuple[str, ...]
    ownerless: tuple[bool, ...] = ()  # per chariot: no player drives it (top card)

    @property
    def chariots(self) -> int:
        return len(self.names)

    def is_ownerless(self, c: int) -> bool:
        return bool(self.ownerless) and self.ownerless[c]


class RaceState:
    """Positions, laps, alley stops, cards, finishers and the turn of one race."""

    __slots__ = ("crossings", "decks", "dq", "end", "finish_order", "game", "hands", "idle",
                 "played", "ply", "pos", "queue", "status", "stopped", "turn")

    def __init__(self, game: RaceGame, pos: list[int | None], crossings: list[int],
                 stopped: list[bool], hands: list[tuple[int, ...]],
                 decks: list[tuple[int, ...]], played: list[tuple[int, ...]],
                 status: list[str], dq: list[bool], finish_order: list[int], turn: int,
                 idle: int = 0, ply: int = 0, end: str | None = None,
                 queue: tuple[int, ...] = ()) -> None:
        self.game = game
        self.pos, self.crossings, self.stopped = pos, crossings, stopped
        self.hands, self.decks, self.played = hands, decks, played
        self.status, self.dq, self.finish_order = status, dq, finish_order
        self.turn, self.idle, self.ply, self.end = turn, idle, ply, end
        self.queue = queue  # chariots nobody drives still to move this round, in order

    # -- copying, comparing, notation -------------------------------------------------------
    def copy(self) -> RaceState:
        return RaceState(self.game, list(self.pos), list(self.crossings), list(self.stopped),
                         list(self.hands), list(self.decks), list(self.played),
                         list(self.status), list(self.dq), list(self.finish_order), self.turn,
                         self.idle, self.ply, self.end, self.queue)

    def notation(self) -> str:
        from avecaesar.engine.notation import to_notation
        return to_notation(self)

    @classmethod
    def parse(cls, game: RaceGame, text: str) -> RaceState:
        from avecaesar.engine.notation import parse_notation
        return parse_notation(game, text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RaceState) and self.notation() == other.notation()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RaceState.parse(game, {self.notation()!r})"

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

    def race_progress(self, c: int) -> int:
        """Laps done × lap value + the progress of its space (DESIGN "A course is a lane graph")."""
        b = self.game.board
        p = self.pos[c]
        return (self.crossings[c] - b.start_crossings[c]) * b.lap_value + (
            b.progress[p] if p is not None else 0)

    def racing(self) -> list[int]:
        return [c for c, s in enumerate(self.status) if s == RACING]

    def leaders(self) -> list[int]:
        """The racing chariots with the greatest race progress (several: joint leaders)."""
        best: int | None = None
        out: list[int] = []
        for c, s in enumerate(self.status):
            if s != RACING or self.pos[c] is None:
                continue
            rp = self.race_progress(c)
            if best is None or rp > best:
                best, out = rp, [c]
            elif rp == best:
                out.append(c)
        return out

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
        """The 2-4-6 rule: the move of a chariot by its race position (leading, middle,
        last among the racing chariots on the track)."""
        own = self.game.rules.ownerless
        assert own is not None and own.position_moves is not None
        lead, middle, last = own.position_moves
        on = [o for o in self.racing() if self.pos[o] is not None]
        rp = {o: self.race_progress(o) for o in on}
        if rp[c] == max(rp.values()):
            return lead
        if rp[c] == min(rp.values()):
            return last
        return middle

    def points_total(self, c: int) -> int:
        return sum(self.hands[c]) + sum(self.decks[c]) + sum(self.played[c])

    def legal_moves(self) -> LegalMoves:
        from avecaesar.engine.moves import LegalMoves
        return LegalMoves(self)

    # -- applying ----------------------------------------------------------------------------
    def apply(self, move: Move) -> list[Event]:
        """Checked: raise IllegalMoveError with the reason and the position, else push."""
        from avecaesar.engine.moves import IllegalMoveError, why_not
        reason = why_not(self, move)
        if reason is not None:
            raise IllegalMoveError(move, self, reason)
        return self.push(move)

    def push(self, move: Move) -> list[Event]:
        """Unchecked: play ``move`` for the chariot whose turn it is; return the events."""
        c = self.turn
        rules, board = self.game.rules, self.game.board
        self.ply += 1
        if move.card == 0:
            self.idle += 1
            events = [Event("wait", c, {"reason": "alley_blocked"})]
            self._advance(events)
            return events
        own = self.game.is_ownerless(c)
        hand = list(self.hands[c])
        if own and self.decks[c]:
            self.decks[c] = self.decks[c][1:]
            self.played[c] = (*self.played[c], move.card)
        elif not own:
            hand.remove(move.card)
            self.played[c] = (*self.played[c], move.card)
        start = self.pos[c]
        events = [Event("move", c, {"card": move.card, "path": list(move.path),
                                    "from": start})]
        node = start
        target = board.start_crossings[c] + rules.laps
        for nxt in move.path:
            if node is not None and (nxt, True) in board.succ[node]:
                self.crossings[c] += 1
                events.append(Event("lap", c, {"lap": self.lap(c)}))
            node = nxt
        self.pos[c] = node
        lap = self.lap(c)
        if (node is not None and not self.stopped[c] and board.alley[node]
                and lap in rules.alley_laps):
            self.stopped[c] = True
            events.append(Event("alley_stop", c, {"lap": lap}))
        finished = self.crossings[c] >= target
        needs_stop = (board.has_alley and rules.alley_must_stop and rules.no_stop == "disqualify"
                      and not (own and rules.ownerless and rules.ownerless.alley == "exempt"))
        if (needs_stop and not self.stopped[c] and not self.dq[c]
                and (finished or lap > max(rules.alley_laps))):
            self.dq[c] = True
            events.append(Event("disqualified", c, {"reason": "no_alley_stop"}))
            if not rules.dq_may_finish and not finished:
                self._remove(c, "disqualified", events)
        if finished and self.status[c] == RACING:
            self.status[c] = FINISHED
            self.pos[c] = None
            self.finish_order.append(c)
            events.append(Event("finish", c, {"order": len(self.finish_order)}))
        while not own and len(hand) < rules.hand_size and self.decks[c]:
            hand.append(self.decks[c][0])
            self.decks[c] = self.decks[c][1:]
        self.hands[c] = tuple(sorted(hand))
        if self.status[c] == RACING and not hand and not self.decks[c] and not (
                own and rules.ownerless and rules.ownerless.out_of_cards == "not_applicable"):
            self._remove(c, "out_of_cards", events)
        self.idle = 0
        self._advance(events)
        return events

    def skip(self, reason: str) -> list[Event]:
        """The chariot whose turn it is cannot move: it skips and keeps its cards.

        An ownerless chariot's drawn card goes under its deck or is discarded (as the rules
        say); if no card at all could move it and the rules say so, none is drawn.
        """
        c = self.turn
        self.ply += 1
        events = [Event("skip", c, {"reason": reason})]
        counts = True
        if self.game.is_ownerless(c) and self.decks[c]:
            from avecaesar.engine.moves import ownerless_skip
            counts = ownerless_skip(self, c, events)
        if counts:
            self.idle += 1
        own = self.game.rules.ownerless
        if (self.status[c] == RACING and not self.hands[c] and not self.decks[c]
                and not (self.game.is_ownerless(c) and own
                         and own.out_of_cards == "not_applicable")):
            self._remove(c, "out_of_cards", events)
            self.idle = 0
        self._advance(events)
        return events

    def _remove(self, c: int, reason: str, events: list[Event]) -> None:
        self.status[c] = REMOVED
        self.pos[c] = None
        events.append(Event("removed", c, {"reason": reason}))

    def _advance(self, events: list[Event]) -> None:
        racing = self.racing()
        if not racing:
            self.end = "finished"
            events.append(Event("end", None, {"termination": "finished"}))
            return
        if self.idle >= len(racing):
            # a full round without a move: nothing can change any more (deadlock rule)
            self.end = "deadlock"
            events.append(Event("end", None, {"termination": "deadlock"}))
            return
        own = self.game.rules.ownerless
        if self.game.ownerless and own and own.turn_order == "after_players_best_placed_first":
            self.turn = self._next_after_players(racing)
            return
        n = len(self.status)
        for step in range(1, n + 1):
            c = (self.turn + step) % n
            if self.status[c] == RACING:
                self.turn = c
                return

    def _next_after_players(self, racing: list[int]) -> int:
        """Players in start order, then the chariots nobody drives, best placed first.

        The team's order is fixed when the last player has moved (kept in ``queue``)."""
        own = self.game.ownerless
        players = [c for c in racing if not own[c]]
        queued = [c for c in self.queue if c in racing]
        self.queue = ()
        if queued:
            self.queue = tuple(queued[1:])
            return queued[0]
        if not own[self.turn]:
            later = [c for c in players if c > self.turn]
            if later:
                return later[0]
        elif players:
            return players[0]  # the team has moved: a new round
        team = sorted((c for c in racing if own[c]), key=lambda c: (-self.race_progress(c), c))
        if not team:
            return players[0]
        self.queue = tuple(team[1:])
        return team[0]
