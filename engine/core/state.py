"""The race state: chariots on the lane graph, their cards, the turn; applying moves and skips.

A :class:`RaceState` is a :class:`~avecaesar.engine.core.position.Position` that plays. It
is mutable for speed (``copy()`` gives an independent one) and holds a reference to its
immutable :class:`RaceGame` (rules + board + chariot names). Chariot ``i``
stands on start place ``i + 1`` and moves ``i``-th in each round. Everything a state needs
to continue is in its one-line notation (:mod:`avecaesar.engine.core.notation`).
"""

from __future__ import annotations

from avecaesar.engine.core.apply_effects import Apply, BoundEffects, bound_effects
from avecaesar.engine.core.effects import EVENTS, Turn
from avecaesar.engine.core.moves import (
    IllegalMoveError,
    LegalMoves,
    misses_alley,
    only_restricted,
    ownerless_skip,
    ram_winner,
    restriction_reasons,
    runs_out,
    stops_in_alley,
    why_not,
)
from avecaesar.engine.core.notation import parse_fields, to_notation
from avecaesar.engine.core.position import Position, RaceGame
from avecaesar.engine.core.types import (
    FINISHED,
    LETTERS,
    RACING,
    REMOVED,
    WAIT,
    Event,
    Move,
    SkipReason,
    Status,
    Termination,
    with_item,
)
from avecaesar.engine.data.errors import AveCaesarError

# Move, Event, WAIT and LETTERS live in engine.core.types, RaceGame in engine.core.position;
# re-exported for readers of a state
__all__ = ["FINISHED", "LETTERS", "RACING", "REMOVED", "WAIT", "Event", "Move", "RaceGame",
           "RaceState"]


class RaceState(Position):
    """The position that plays: made from its fields or its notation, copied, and changed
    by moves and skips (the fields and the questions are :class:`Position`'s)."""

    __slots__ = ("fx",)

    fx: BoundEffects  # the ruleset's effect lists as functions (shared by copies)

    def __init__(self, game: RaceGame, pos: list[int | None], crossings: list[int],
                 stopped: list[bool], hands: list[tuple[int, ...]],
                 decks: list[tuple[int, ...]], played: list[tuple[int, ...]],
                 status: list[Status], dq: list[bool], finish_order: list[int], turn: int,
                 idle: int = 0, ply: int = 0, end: Termination | None = None,
                 queue: tuple[int, ...] = (), bonus: tuple[bool, ...] | None = None,
                 money: tuple[int, ...] | None = None,
                 forfeit: tuple[bool, ...] | None = None,
                 later_laps: tuple[int, ...] | None = None,
                 fx: BoundEffects | None = None) -> None:
        self.game = game
        self.pos, self.crossings, self.stopped = pos, crossings, stopped
        self.hands, self.decks, self.played = hands, decks, played
        self.status, self.dq, self.finish_order = status, dq, finish_order
        self.turn, self.idle, self.ply, self.end = turn, idle, ply, end
        self.queue = queue  # chariots still to move this round (team / player turn), in order
        # variant facts, immutable tuples (shared by copies, replaced on change):
        # holds the bonus piece; prize money won; stopped in the alley this lap, so the lap's
        # prize is forfeited
        n = len(pos)
        self.bonus = tuple(bonus) if bonus is not None else (False,) * n
        self.money = tuple(money) if money is not None else (0,) * n
        self.forfeit = tuple(forfeit) if forfeit is not None else (False,) * n
        # laps each chariot's alley window was extended by (Position.window)
        self.later_laps = tuple(later_laps) if later_laps is not None else (0,) * n
        # push and skip build their Event objects only when someone reads them: a record,
        # a replay, the CLI (True); simulate and the bots' rollouts turn it off (issue 13)
        self.log = True
        # the ruleset's effect lists as functions: a copy is given its original's
        self.fx = fx if fx is not None else bound_effects(game.rules)

    # -- copying, comparing, notation -------------------------------------------------------
    def copy(self) -> RaceState:
        """An independent state (events built or not, as in this one)."""
        other = RaceState(self.game, list(self.pos), list(self.crossings), list(self.stopped),
                          list(self.hands), list(self.decks), list(self.played),
                          list(self.status), list(self.dq), list(self.finish_order),
                          self.turn, self.idle, self.ply, self.end, self.queue, self.bonus,
                          self.money, self.forfeit, self.later_laps, self.fx)
        other.log = self.log
        return other

    def notation(self) -> str:
        """The position as one line of text (docs/engine.md, "Notation");
        :meth:`parse` reads it back."""
        return to_notation(self)

    @classmethod
    def parse(cls, game: RaceGame, text: str) -> RaceState:
        """The state that :meth:`notation` wrote as ``text``, for the race ``game``."""
        return RaceState(game, *parse_fields(game, text))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RaceState) and self.notation() == other.notation()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RaceState.parse(game, {self.notation()!r})"

    def legal_moves(self) -> LegalMoves:
        """The moves the chariot to move may make: a lazy, set-like view (``in``, ``len``,
        ``bool``); no legal move means the turn is skipped."""
        return LegalMoves(self)

    # -- applying ----------------------------------------------------------------------------
    def apply(self, move: Move) -> list[Event]:
        """Checked: raise IllegalMoveError with the reason and the position, else push."""
        reason = why_not(self, move)
        if reason is not None:
            raise IllegalMoveError(move, self, reason)
        return self.push(move)

    def push(self, move: Move) -> list[Event]:
        """Unchecked: play ``move`` for the chariot whose turn it is; return the events
        (none of the move's own when :attr:`log` is off; the effects' rare ones still).

        The laps, the alley stop and its miss, and the finish are the move's own facts; what
        happens on them is the ruleset's effect lists (core/effects.py), applied in order.
        """
        c = self.turn
        rules, board = self.game.rules, self.game.board
        self.ply += 1
        if move.card == 0:
            return self._wait(c)
        own = self.game.is_ownerless(c)
        hand = self._play_card(c, move.card, own)
        start = self.pos[c]
        log = self.log
        events = [Event("move", c, {"card": move.card, "path": list(move.path),
                                    "from": start})] if log else []
        fx = self.fx
        t = Turn(hand, False, events, own)
        node = start
        for nxt in move.path:
            if node is not None and (nxt, True) in board.succ[node]:
                self.crossings[c] += 1
                if log:
                    events.append(Event("lap", c, {"lap": self.lap(c)}))
                if fx.lap_completed:
                    self._apply(fx.lap_completed, "lap_completed", c, t)
            node = nxt
        self.pos[c] = node
        lap = self.lap(c)
        if node is not None and stops_in_alley(self, c, node, lap):
            if log:
                events.append(Event("alley_stop", c, {"lap": lap}))
            self._apply(fx.alley_stop, "alley_stop", c, t)
        t.finished = self.crossings[c] >= board.start_crossings[c] + rules.laps
        if fx.alley_missed and misses_alley(self, c, own, lap, t.finished, self.stopped[c]):
            self._apply(fx.alley_missed, "alley_missed", c, t)
        if move.ram >= 0 and not t.finished and self.status[c] == RACING:
            self._ram(c, move.ram, max(hand, default=0), events)
        if t.finished and self.status[c] == RACING:
            self.status[c] = FINISHED
            self.pos[c] = None
            self.finish_order.append(c)
            if log:
                events.append(Event("finish", c, {"order": len(self.finish_order)}))
        if fx.move_ended:
            self._apply(fx.move_ended, "move_ended", c, t)
        while not own and len(hand) < rules.hand_size + t.extra and self.decks[c]:
            hand.append(self.decks[c][0])
            self.decks[c] = self.decks[c][1:]
        self.hands[c] = tuple(sorted(hand))
        if self.status[c] == RACING and not hand and not self.decks[c] and runs_out(self, c):
            self._apply(fx.out_of_cards, "out_of_cards", c, t)
        self.idle = 0
        self._advance(events)
        return events

    def _wait(self, c: int) -> list[Event]:
        """The chariot waits at its blocked alley (the move ``WAIT``), keeping its cards."""
        self.idle += 1
        events = [Event("wait", c, {"reason": "alley_blocked"})] if self.log else []
        self._advance(events)
        return events

    def _play_card(self, c: int, card: int, own: bool) -> list[int]:
        """The card (or the bonus piece, ``card`` < 0) leaves the hand (or an ownerless
        chariot's deck); the hand as a list, to be stored when the move is done."""
        hand = list(self.hands[c])
        if card < 0:  # the bonus piece, used instead of a card
            self.bonus = with_item(self.bonus, c, False)
        elif own and self.decks[c]:
            self.decks[c] = self.decks[c][1:]
            self.played[c] = (*self.played[c], card)
        elif not own:
            hand.remove(card)
            self.played[c] = (*self.played[c], card)
        return hand

    def _apply(self, effects: tuple[Apply, ...], event: str, c: int, t: Turn) -> None:
        """Apply an event's effect list in order."""
        t.event = EVENTS[event]
        for effect in effects:
            effect(self, c, t)

    def skip(self, reason: str | None) -> list[Event]:
        """The chariot whose turn it is cannot move: it skips and keeps its cards.

        An ownerless chariot's drawn card goes under its deck or is discarded (as the rules
        say); if no card at all could move it and the rules say so, none is drawn. Else the
        effects of ``only_restricted`` (when the card restrictions left it only restricted
        cards and the list is not empty) or of ``no_move`` apply. The ``skip`` event gives
        ``reason`` and, for a skip of kind ``six_rule``, ``why``: the reasons
        (core/reasons.py) of the restrictions that forbade its cards.
        """
        c = self.turn
        self.ply += 1
        events: list[Event] = []
        if self.log:  # a skip by the card restrictions says which of them (their reasons)
            why = restriction_reasons(self, c) if reason == SkipReason.SIX_RULE else ()
            events.append(Event("skip", c, {"reason": reason, "why": why} if why
                                else {"reason": reason}))
        counts = True
        fx = self.fx
        if self.game.is_ownerless(c) and self.decks[c]:
            counts = ownerless_skip(self, c, events)
        else:
            effects, event = fx.no_move, "no_move"
            if fx.only_restricted and only_restricted(self, c, reason):
                effects, event = fx.only_restricted, "only_restricted"
            if effects:
                t = Turn(list(self.hands[c]), False, events, False)
                self._apply(effects, event, c, t)
                self.hands[c] = tuple(sorted(t.hand))
        if counts:
            self.idle += 1
        else:  # an ownerless chariot's deck turned and a card of it can move from here:
            self.idle = 0  # the position changed, its next turn may move (no freeze yet)
        if (self.status[c] == RACING and not self.hands[c] and not self.decks[c]
                and runs_out(self, c)):
            self._apply(fx.out_of_cards, "out_of_cards", c,
                        Turn([], False, events, self.game.is_ownerless(c)))
        if self.status[c] != RACING:
            self.idle = 0  # a chariot left the race: that is a change
        self._advance(events)
        return events

    def _ram(self, c: int, o: int, shown: int, events: list[Event]) -> None:
        """A ramming attack of ``c`` on ``o``: the higher highest card wins; the winner moves
        one space straight ahead, the loser one straight back if that space is free."""
        board = self.game.board
        other = max(self.hands[o], default=0)
        winner = ram_winner(self, c, o, shown)
        if self.log:
            events.append(Event("ram", c, {"target": o, "cards": [shown, other],
                                           "winner": winner}))
        if winner < 0:
            return
        loser = o if winner == c else c
        self.pos[winner] = board.ahead[self.pos[winner]]  # type: ignore[index]
        back = board.behind[self.pos[loser]]  # type: ignore[index]
        if back >= 0 and back not in self.pos and not board.alley[back]:
            self.pos[loser] = back

    def _advance(self, events: list[Event]) -> None:
        racing = self.status.count(RACING)
        if not racing:
            self.end = Termination.FINISHED
            if self.log:
                events.append(Event("end", None, {"termination": Termination.FINISHED}))
            return
        rules = self.game.rules
        limit = racing * rules.idle_rounds
        if self.idle >= limit:
            # a full round without a move: nothing can change any more (deadlock rule)
            self.end = Termination.DEADLOCK
            if self.log:
                events.append(Event("end", None, {"termination": Termination.DEADLOCK}))
            return
        own = self.game.rules.ownerless
        if self.game.ownerless and own and own.after_players:
            self.turn = self._next_after_players(self.racing())
            return
        if self.game.player_turns:
            self.turn = self._next_player_turn(self.racing())
            return
        n = len(self.status)
        for step in range(1, n + 1):
            c = (self.turn + step) % n
            if self.status[c] == RACING:
                self.turn = c
                return

    def _next_player_turn(self, racing: list[int]) -> int:
        """Several chariots per player, the player orders them: the rest of this player's
        turn (``queue``), else the next player (by first start place) with a racing
        chariot."""
        queued = [c for c in self.queue if c in racing]
        if queued:
            self.queue = tuple(queued[1:])
            return queued[0]
        owners = self.game.owners
        order = list(dict.fromkeys([o for o in owners if o >= 0]))
        cur = owners[self.turn]
        i = order.index(cur) if cur in order else -1
        for step in range(1, len(order) + 1):
            mine = self.player_turn_queue(order[(i + step) % len(order)], racing)
            if mine:
                self.queue = tuple(mine[1:])
                return mine[0]
        return racing[0]

    def choosable(self) -> list[int]:
        """The chariots the player to move may move now (their own not yet moved this turn);
        empty when there is no choice."""
        if not self.game.player_turns or self.end is not None or not self.queue:
            return []
        return [self.turn, *self.queue]

    def choose(self, c: int) -> None:
        """The player to move moves chariot ``c`` next (one of :meth:`choosable`)."""
        options = self.choosable()
        if c == self.turn:
            return
        if c not in options:
            raise AveCaesarError(f"chariot {LETTERS[c]} cannot move now; the player to move "
                                 f"may choose {', '.join(LETTERS[o] for o in options) or 'none'}")
        self.queue = tuple(o for o in options if o != c)
        self.turn = c

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

    # -- notebooks ---------------------------------------------------------------------------
    def _repr_svg_(self) -> str:
        """The position drawn on its course as SVG (Jupyter shows it): each chariot's letter
        on its space, whose turn it is, the finishers."""
        from avecaesar.engine.core.position_svg import position_svg

        return position_svg(self)
