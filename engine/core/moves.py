"""Legal moves: walks on the lane graph, the 6-card rule, the alley wait; and "why not?".

A move of card k is a walk of exactly k edges whose every space, the landing space
included, is free (no jumping; walls, lanes, chicanes and the one-lane alley are in the
graph). The walk that completes the last lap ends at the step over the line: the steps
beyond lapse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from avecaesar.engine.core.board import Board, WalkTable
from avecaesar.engine.core.conditions import Context, forbids, restriction_why
from avecaesar.engine.core.effects import Facts
from avecaesar.engine.core.notation import to_notation
from avecaesar.engine.core.position import Position
from avecaesar.engine.core.reasons import Reason
from avecaesar.engine.core.rule_values import RaceRules
from avecaesar.engine.core.types import LETTERS, RACING, WAIT, Event, Move, SkipReason
from avecaesar.engine.course.alley_window import counts, later_chance, passed
from avecaesar.engine.data.errors import AveCaesarError

__all__ = [
    "IllegalMoveError",
    "LegalMoves",
    "alley_pending",
    "card_forbidden",
    "card_reason",
    "first_card_forbidden",
    "gives_up_alley",
    "held_to_wait",
    "misses_alley",
    "move_facts",
    "only_restricted",
    "ownerless_skip",
    "ram_targets",
    "ram_winner",
    "restriction_reasons",
    "runs_out",
    "six_rule",
    "stops_in_alley",
    "wait_window",
    "walks",
    "why_not",
]


class IllegalMoveError(AveCaesarError):
    """Raised by a checked apply when the move is not legal; says why (``reason``, the
    value; the message in English) and where."""

    def __init__(self, move: Move, state: Position, reason: Reason) -> None:
        self.move, self.reason = move, reason
        super().__init__(f"illegal move {move} in {to_notation(state)}: {reason}")


def walks(state: Position, c: int, k: int,
          empty: bool = False) -> Iterator[tuple[int, ...]]:
    """Every path of card ``k`` for chariot ``c`` through free spaces (``empty``: as if no
    other chariot were on the track)."""
    board = state.game.board
    start = state.pos[c]
    if start is None:
        return
    left_to_finish = board.start_crossings[c] + state.game.rules.laps - state.crossings[c]
    paths = board.paths(start, k, left_to_finish)
    if empty:
        yield from paths
        return
    occ = state.occupied(but=c)
    for p in paths:
        if occ.isdisjoint(p):
            yield p


def _can_move(state: Position, c: int, k: int) -> bool:
    return next(walks(state, c, k), None) is not None


def _blocks_others(state: Position, c: int) -> bool:
    """Some other racing chariot cannot move any card of its hand in full."""
    return any(not any(_can_move(state, o, k) for k in set(state.cards(o)))
               for o in state.racing() if o != c and state.pos[o] is not None)


def _cannot_be_passed(state: Position, c: int) -> bool:
    """No other racing chariot can pass ``c``: none is left on the track, or none of them
    has a legal move (no card moves in full, the 6-card rule, the alley wait).

    The others' legal moves are worked out with :func:`_assumed_passable` in this one's
    place (a value passed down, not a flag of the module: two tables' threads asking at
    once never see each other's question), so joint leaders asking about each other do
    not recurse."""
    restricted = state.game.rules.restricted_cards
    others = [o for o in state.racing() if o != c and state.pos[o] is not None]
    for o in others:  # quick proof: an unrestricted card moves it, no alley to wait for
        if (not state.game.is_ownerless(o) and not alley_pending(state, o)
                and any(k not in restricted and _can_move(state, o, k)
                        for k in set(state.cards(o)))):
            return False
    for o in others:
        other = state.copy()
        other.turn, other.queue = o, ()
        if _Analysis(other, _assumed_passable).count:
            return False
    return True


def _assumed_passable(state: Position, c: int) -> bool:
    """What ``cannot_be_passed`` answers while it is being answered for another chariot:
    false, the chariot may be passed (the guard of :func:`_cannot_be_passed`)."""
    return False


def first_card_forbidden(rules: RaceRules, place: int) -> bool:
    """The six card may not be a chariot's first card from start place ``place`` (1-based),
    whatever the position: ``first_row_may_not`` and the place is in row 1."""
    return rules.first_row_six and rules.row_of(place) == 1


def stops_in_alley(state: Position, c: int, node: int, lap: int) -> bool:
    """A move of ``c`` ending on ``node`` in ``lap`` makes the alley stop (the event
    ``alley_stop``): an alley space in an alley lap, and no stop made yet (with a lap prize,
    none this lap)."""
    rules = state.game.rules
    return (state.game.board.alley[node] and counts(state.window(c), lap)
            and (not state.stopped[c] or (rules.stop_each_lap and not state.forfeit[c])))


def misses_alley(state: Position, c: int, own: bool, lap: int, finished: bool,
                 stopped: bool) -> bool:
    """``c``, bound to stop in the alley and not ``stopped``, passes the last alley lap or
    finishes (the event ``alley_missed``); a chariot nobody drives that is free of the
    alley is not bound."""
    rules = state.game.rules
    return (state.game.board.has_alley and not stopped and not state.dq[c]
            and (finished or passed(state.window(c), lap))
            and not (own and rules.ownerless is not None and rules.ownerless.alley_free))


def move_facts(state: Position, move: Move) -> Facts:
    """The effects of ``move`` on its own chariot, as :meth:`RaceState.push` would apply them
    (the same event tests, the effect lists' facts): where it ends, its crossings, alley
    stop, disqualification, finish — worked out without copying the state. The bots score
    moves by it; a test checks it equals copying and pushing on every legal move of
    thousands of positions under every ruleset."""
    c = state.turn
    game = state.game
    rules, board = game.rules, game.board
    fx = rules.effects
    node = state.pos[c]
    cross = state.crossings[c]
    if move.card == 0:
        return Facts(node, cross, state.stopped[c], state.dq[c], False)
    finish_steps = board.finish_steps
    for nxt in move.path:
        if (node, nxt) in finish_steps:
            cross += 1
        node = nxt
    lap = cross - board.start_crossings[c] + 1
    own = game.is_ownerless(c)
    stop = node is not None and stops_in_alley(state, c, node, lap)
    stopped = state.stopped[c] or (stop and fx.stop_stops)
    finished = cross >= board.start_crossings[c] + rules.laps
    dq, removed = state.dq[c], False
    if fx.alley_missed and misses_alley(state, c, own, lap, finished, stopped):
        dq = dq or fx.missed_dq
        finished = finished and not fx.missed_cancels_finish
        removed = fx.missed_removes and not finished
    pos = None if finished or removed else node
    if pos is not None and move.ram >= 0:
        pos = _rammed(state, c, move, pos, fx.stop_cards if stop and not own else ())
    if pos is not None and fx.out_removes and runs_out(state, c):
        if own:
            out = len(state.decks[c]) <= 1
        else:
            added = len(fx.stop_cards) if stop else 0
            out = (len(state.hands[c]) - (move.card > 0) + added == 0 and not state.decks[c])
        if out:
            pos = None
    return Facts(pos, cross, stopped, dq, finished)


def ram_winner(state: Position, c: int, o: int, shown: int) -> int:
    """The winner of ``c``'s ramming attack on ``o`` when ``c`` shows ``shown``: the higher
    highest card; on a tie as the rules say (-1: nobody)."""
    other = max(state.hands[o], default=0)
    if shown != other:
        return c if shown > other else o
    tie = state.game.rules.ram_tie_winner
    return c if tie > 0 else o if tie < 0 else -1


def _rammed(state: Position, c: int, move: Move, node: int, got: tuple[int, ...]) -> int:
    """Where ``c`` stands after the ramming attack of ``move`` (as RaceState._ram), ``got``:
    the cards its alley stop added to its hand."""
    board = state.game.board
    o = move.ram
    hand = [*state.hands[c], *got]
    if move.card > 0:
        hand.remove(move.card)
    winner = ram_winner(state, c, o, max(hand, default=0))
    if winner == c:
        return board.ahead[node]
    if winner == o:
        back = board.behind[node]
        there: int | None = state.pos[o]
        taken = {p for i, p in enumerate(state.pos) if i not in (c, o)}
        taken.add(there if there is None else board.ahead[there])
        if back >= 0 and back not in taken and back != node and not board.alley[back]:
            return back
    return node


def only_restricted(state: Position, c: int, reason: str | None) -> bool:
    """``c`` skips because the card restrictions forbid every card of its hand (the event
    ``only_restricted``)."""
    restricted = state.game.rules.restricted_cards
    hand = state.hands[c]
    return reason == SkipReason.SIX_RULE and bool(hand) and all(x in restricted for x in hand)


def runs_out(state: Position, c: int) -> bool:
    """``c`` can run out of cards (the event ``out_of_cards``): not a chariot nobody drives
    for which the rules say it does not apply."""
    own = state.game.rules.ownerless
    return not (own is not None and not own.runs_out and state.game.is_ownerless(c))


def _context(state: Position, c: int,
             passing: Callable[[Position, int], bool] | None = None) -> Context:
    return Context(state, c, frozenset(), _blocks_others,
                   _cannot_be_passed if passing is None else passing)


def _forbidding(state: Position, c: int, card: int,
                passing: Callable[[Position, int], bool] | None = None) -> bool:
    """Some card restriction forbids chariot ``c`` to play ``card`` now (what the legal
    moves ask; :func:`card_forbidden` says which and why)."""
    rules = state.game.rules
    if card not in rules.restricted_cards:
        return False
    x = _context(state, c, passing)
    return any(card in r.cards and forbids(r, card, x.with_cards(r.cards))
               for r in rules.card_restrictions)


def card_forbidden(state: Position, c: int, card: int,
                   passing: Callable[[Position, int], bool] | None = None) -> Reason | None:
    """Why chariot ``c`` may not play ``card`` now (the first card restriction that forbids
    it, in the ruleset's order), or None if it may; ``passing``: what the condition
    ``cannot_be_passed`` asks (default :func:`_cannot_be_passed`)."""
    rules = state.game.rules
    if card not in rules.restricted_cards:
        return None
    x = _context(state, c, passing)
    for r in rules.card_restrictions:
        if card in r.cards:
            y = x.with_cards(r.cards)
            if forbids(r, card, y):
                return restriction_why(r, card, y)
    return None


def restriction_reasons(state: Position, c: int) -> tuple[Reason, ...]:
    """Why the card restrictions forbid the cards ``c`` may play from, in their own words
    (each restriction's reason with its citation, once each): the reasons a skip of kind
    ``six_rule`` gives, whichever restriction — the 6-card rule or a house rule's ban —
    forbade the cards."""
    out: list[Reason] = []
    for k in sorted(set(state.cards(c))):
        why = card_forbidden(state, c, k)
        if why is not None and why not in out:
            out.append(why)
    return tuple(out)


def six_rule(state: Position, c: int) -> Reason | None:
    """Why chariot ``c`` may not play the six card now, or None if it may."""
    return card_forbidden(state, c, state.game.rules.six_card)


def _chance(state: Position, lap: int, node: int | None, laps: tuple[int, ...]) -> bool:
    """The alley stop can still be made from ``node`` in ``lap`` or a later lap of ``laps``
    (a chariot's window, or the part of it it is held to wait for)."""
    if later_chance(laps, lap):
        return True
    return counts(laps, lap) and node is not None and state.game.board.before_alley[node]


def alley_pending(state: Position, c: int) -> bool:
    """Chariot ``c`` must still make the alley stop and still can."""
    rules, board = state.game.rules, state.game.board
    if state.game.is_ownerless(c) and rules.ownerless and rules.ownerless.alley_free:
        return False
    return (board.has_alley and rules.alley_must_stop and not state.stopped[c]
            and _chance(state, state.lap(c), state.pos[c], state.window(c)))


def held_to_wait(state: Position, c: int) -> bool:
    """Chariot ``c`` is held to the alley wait (a chariot nobody drives may not be)."""
    own = state.game.rules.ownerless
    return not (own is not None and not own.alley_wait and state.game.is_ownerless(c))


def wait_window(state: Position, c: int) -> tuple[int, ...] | None:
    """The laps whose alley stop a blocked chariot ``c`` is held to wait for now: every lap
    the stop counts in (it waits on its last chance), or with ``alley_wait_laps`` its
    current lap if that is one of them; None: it is not held to wait in this lap."""
    rules = state.game.rules
    if rules.alley_wait_laps is None:
        return state.window(c)
    lap = state.lap(c)
    node = state.pos[c]
    if (lap in rules.alley_wait_laps and counts(state.window(c), lap) and node is not None
            and state.game.board.before_alley[node]):
        return (lap,)
    return None  # not a waiting lap, or past the alley's entry: no stop left this lap


def gives_up_alley(state: Position, c: int, path: tuple[int, ...],
                   laps: tuple[int, ...] | None = None) -> bool:
    """Driving ``path`` makes the pending alley stop impossible (it neither stops there nor
    keeps a later chance) — in ``laps`` if given, else in every lap the stop counts in for
    ``c`` (its window)."""
    if laps is None:
        laps = state.window(c)
    board = state.game.board
    node = state.pos[c]
    lap = state.lap(c)
    for nxt in path:
        if node is not None and (nxt, True) in board.succ[node]:
            lap += 1
        node = nxt
    return _gives_up_at(state, lap, path[-1], laps)


def _gives_up_at(state: Position, lap: int, end: int, laps: tuple[int, ...]) -> bool:
    """:func:`gives_up_alley` for a path that ends on ``end`` in lap ``lap``."""
    if state.game.board.alley[end] and counts(laps, lap):
        return False
    return not _chance(state, lap, end, laps)


def _stop_possible_on_empty_track(state: Position, c: int,
                                  forbidden: frozenset[int] = frozenset(),
                                  laps: tuple[int, ...] | None = None) -> bool:
    """Some card of the hand (but the ``forbidden`` ones) could keep the stop possible (in
    ``laps``) if no other chariot were there: then it is the others that block the alley."""
    start = state.pos[c]
    if start is None:
        return False
    if laps is None:
        laps = state.window(c)
    board = state.game.board
    left = board.start_crossings[c] + state.game.rules.laps - state.crossings[c]
    lap = state.lap(c)
    # each walk of the empty track by its (crossings, landing): gives_up_alley of its path
    return any(not _gives_up_at(state, lap + crossed, end, laps)
               for k in set(state.cards(c)) if k not in forbidden
               for (crossed, end), _bits in board.walk_table(start, k, left).ends)


def _forbidden(no: dict[int, bool]) -> frozenset[int]:
    return frozenset(k for k, forbidden in no.items() if forbidden)


def _in_alley(board: Board, path: tuple[int, ...]) -> bool:
    return any(board.alley[n] for n in path)


def _avoids_alley(state: Position, c: int) -> bool:
    own = state.game.rules.ownerless
    return state.game.is_ownerless(c) and own is not None and own.avoids_alley


def _smallest_loss(state: Position, c: int, forbidden: frozenset[int]) -> list[Move]:
    """Lapse movement points: no card moves in full, so the card that loses the fewest
    points is played as far as it goes (each card: its longest free walk)."""
    rules, board = state.game.rules, state.game.board
    start = state.pos[c]
    assert start is not None
    occ = state.occupied(but=c)
    left = board.start_crossings[c] + rules.laps - state.crossings[c]
    best: list[Move] = []
    best_loss = None
    for k in sorted(set(state.cards(c))):
        if k in forbidden:
            continue
        for m in range(k - 1, 0, -1):
            free = [p for p in board.paths(start, m, left) if occ.isdisjoint(p)]
            if free:
                loss = k - m
                if best_loss is None or loss < best_loss:
                    best, best_loss = [], loss
                if loss == best_loss:
                    best += [Move(k, p) for p in free]
                break
    return best


def ram_targets(state: Position, c: int, start: int | None,
                path: tuple[int, ...]) -> list[int]:
    """The chariots ``c`` may ram after driving ``path``: it ends beside them (not over the
    line, not in the alley) with the space straight ahead of both free; not a chariot nobody
    drives (no hand to show), nor one of its own player's."""
    if not path:
        return []
    board, game = state.game.board, state.game
    end = path[-1]
    prev = path[-2] if len(path) > 1 else start
    if prev is None or (end, True) in board.succ[prev]:
        return []
    ahead = board.ahead[end]
    if ahead < 0 or board.alley[ahead] or ahead in state.pos:
        return []
    out = []
    for o, p in enumerate(state.pos):
        if (p is None or o == c or p not in board.beside[end] or state.status[o] != RACING
                or game.is_ownerless(o) or (game.owners and game.owners[o] == game.owners[c])):
            continue
        front = board.ahead[p]
        if front >= 0 and front != ahead and not board.alley[front] and front not in state.pos:
            out.append(o)
    return out


def _in_order(cards: tuple[int, ...]) -> tuple[int, ...]:
    """``cards`` ascending: as they are (a state keeps its hands sorted), else sorted (a
    hand given to the constructor out of order)."""
    last = 0
    for k in cards:
        if k < last:
            return tuple(sorted(cards))
        last = k
    return cards


class _Analysis:
    """The legal moves of the chariot to move, computed once.

    The free walks of each card are kept as (walk table, blocked bits) — counted by bit
    masks, the list of moves made only when asked for (:attr:`moves`); the moves after them
    (lapsed points, bonus piece, ramming, waiting) are kept as a list.
    """

    __slots__ = ("_moves", "blocked_alley", "count", "parts", "passing", "reason", "tail")

    def __init__(self, state: Position,
                 passing: Callable[[Position, int], bool] | None = None) -> None:
        self.passing = passing  # what cannot_be_passed asks (None: card_forbidden's default)
        self._moves: list[Move] | None = None
        self.parts: list[tuple[WalkTable, int]] | None = []
        self.tail: list[Move] = []
        self.count = 0
        self.reason: SkipReason | None = None
        self.blocked_alley = False
        if state.end is not None:
            self.reason = SkipReason.RACE_OVER
            return
        c = state.turn
        game = state.game
        rules = game.rules
        board = game.board
        no: dict[int, bool] = {}  # the hand's restricted cards: forbidden now
        movable_any = False
        start = state.pos[c]
        occ = state.occupied(but=c)
        left = board.start_crossings[c] + rules.laps - state.crossings[c]
        parts = self.parts
        assert parts is not None
        count = 0
        avoid = bool(game.ownerless) and _avoids_alley(state, c)
        restricted = rules.restricted_cards
        if start is None or avoid:
            movable_any = self._listed(state, c, no, occ, left)
        else:
            last = 0
            for k in _in_order(state.cards(c)):
                if k == last:  # each distinct card once, ascending
                    continue
                last = k
                table = board.walk_table(start, k, left)
                if k in restricted:
                    no[k] = _forbidding(state, c, k, self.passing)
                blocked = 0
                if not occ.isdisjoint(table.span):
                    masks = table.masks
                    for node in occ:
                        bits = masks.get(node)
                        if bits:
                            blocked |= bits
                free = table.n - blocked.bit_count()
                if free:
                    movable_any = True
                    if not no.get(k, False):
                        parts.append((table, blocked))
                        count += free
        self.count = count + len(self.tail)
        self._more(state, c, no, movable_any, occ, left)

    def _listed(self, state: Position, c: int, no: dict[int, bool], occ: set[int],
                left: int) -> bool:
        """The moves listed one by one (off the board, or a chariot that avoids the alley);
        whether some card can be moved in full."""
        board = state.game.board
        start = state.pos[c]
        movable_any = False
        for k in sorted(set(state.cards(c))):
            if k in state.game.rules.restricted_cards:
                no[k] = _forbidding(state, c, k, self.passing)
            if start is None:
                continue
            for m in board.moves(start, k, left):
                if occ.isdisjoint(m.path) and not _in_alley(board, m.path):
                    movable_any = True
                    if no.get(k, False):
                        break
                    self.tail.append(m)
        return movable_any

    def _more(self, state: Position, c: int, no: dict[int, bool], movable_any: bool,
              occ: set[int], left: int) -> None:
        """The moves after the cards' free walks (lapsed points, the bonus piece, ramming,
        waiting at a blocked alley), and why the chariot skips when none is left."""
        rules, board = state.game.rules, state.game.board
        start = state.pos[c]
        if (not self.count and not movable_any and start is not None
                and rules.lapse_points and not state.game.is_ownerless(c)):
            self._extend(_smallest_loss(state, c, _forbidden(no)))
        if state.bonus[c] and start is not None and rules.bonus is not None:
            self._extend([Move(-rules.bonus, m.path)  # the bonus piece
                          for m in board.moves(start, rules.bonus, left)
                          if occ.isdisjoint(m.path)])
        if rules.ramming is not None and self.count and not state.game.is_ownerless(c):
            self._extend([Move(m.card, m.path, o) for m in list(self.moves)
                          for o in ram_targets(state, c, start, m.path)])
        window = wait_window(state, c) if rules.alley_wait_binds else None
        if (window is not None and self.count and alley_pending(state, c)
                and held_to_wait(state, c)):
            keeps = self._keeps_alley(state, c, window)
            if not keeps and _stop_possible_on_empty_track(state, c, _forbidden(no), window):
                self.blocked_alley = True
                if rules.alley_must_wait:
                    self._moves, self.parts, self.tail, self.count = [], [], [], 0
                    self.reason = SkipReason.ALLEY_BLOCKED
                else:
                    self._extend([WAIT])
        if not self.count and self.reason is None:
            self.reason = SkipReason.SIX_RULE if movable_any else SkipReason.BLOCKED

    def _extend(self, more: list[Move]) -> None:
        """Moves after those already there (in that order)."""
        if not more:
            return
        self.tail.extend(more)
        if self._moves is not None:
            self._moves.extend(more)
        self.count += len(more)

    def _keeps_alley(self, state: Position, c: int,
                     laps: tuple[int, ...] | None = None) -> bool:
        """Some legal move does not give up the alley stop in ``laps`` (default: every lap
        the stop counts in for ``c``; :func:`gives_up_alley`)."""
        if laps is None:
            laps = state.window(c)
        if self._moves is not None:
            return any(not gives_up_alley(state, c, m.path, laps) for m in self._moves)
        lap = state.lap(c)
        for table, blocked in self.parts or ():
            for (crossed, end), bits in table.ends:
                if bits & ~blocked and not _gives_up_at(state, lap + crossed, end, laps):
                    return True
        return any(not gives_up_alley(state, c, m.path, laps) for m in self.tail)

    @property
    def moves(self) -> list[Move]:
        """Every legal move, in order: each card (ascending) its free walks depth-first, then
        the rest."""
        if self._moves is None:
            out: list[Move] = []
            for table, blocked in self.parts or ():
                if blocked:
                    out.extend(m for i, m in enumerate(table.moves) if not blocked >> i & 1)
                else:
                    out.extend(table.moves)
            out.extend(self.tail)
            self._moves = out
        return self._moves

    def distinct(self) -> list[Move]:
        """The first legal move of each (card, landing) in move order (the waiting move and
        each other card-less move kept), without making the list of every move."""
        out: list[Move] = []
        for table, blocked in self.parts or ():
            if not blocked:
                out.extend(table.firsts)
                continue
            found = []
            for bits in table.groups:
                x = bits & ~blocked
                if x:
                    found.append((x & -x).bit_length() - 1)
            found.sort()
            moves = table.moves
            out.extend(moves[i] for i in found)
        if self.tail:
            out.extend(distinct_moves(self.tail, {(m.card, m.path[-1]) for m in out}))
        return out


def distinct_moves(moves: Iterable[Move], seen: set[tuple[int, int]] | None = None
                   ) -> list[Move]:
    """The first move of each distinct (card, landing) not in ``seen``, in move order
    (card-less moves kept)."""
    seen = set() if seen is None else seen
    out: list[Move] = []
    for m in moves:
        if m.card:
            key = (m.card, m.path[-1])
            if key in seen:
                continue
            seen.add(key)
        out.append(m)
    return out


class LegalMoves:
    """A lazy, set-like view of the legal moves (``in``, ``bool``, ``len``, iteration)."""

    def __init__(self, state: Position) -> None:
        self._state = state
        self._a: _Analysis | None = None

    def _get(self) -> _Analysis:
        if self._a is None:
            self._a = _Analysis(self._state)
        return self._a

    def __iter__(self) -> Iterator[Move]:
        return iter(self._get().moves)

    def __len__(self) -> int:
        return self._get().count

    def count(self) -> int:
        return len(self)

    def __bool__(self) -> bool:
        return self._get().count > 0

    def distinct(self) -> list[Move]:
        """The first legal move of each distinct (card, landing), in move order."""
        return self._get().distinct()

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and why_not(self._state, move) is None

    @property
    def skip_reason(self) -> SkipReason | None:
        """Why the chariot skips (``blocked``, ``six_rule``, ``alley_blocked``; ``race_over``
        once the race has ended) or None."""
        return self._get().reason

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(str(m) for m in self)})>"



def _ram_or_wait_problem(state: Position, move: Move) -> Reason | None:
    """:func:`why_not` for a ramming attack or the waiting move."""
    rules = state.game.rules
    if move.ram >= 0:
        if rules.ramming is None:
            return Reason("no_ramming")
        if move not in _Analysis(state).moves:
            target = LETTERS[move.ram] if move.ram < len(LETTERS) else "?"
            return Reason("no_ram_there", {"target": target})
        return None
    a = _Analysis(state)
    if WAIT in a.moves:
        return None
    if a.moves:
        return Reason("must_play", {}, rules.cite("must_play"))
    return Reason("no_move", {}, rules.cite("no_move"))


def why_not(state: Position, move: Move) -> Reason | None:
    """None if ``move`` is legal; else the reason (core/reasons.py: a code, its parameters
    and the rule's citation; ``str()`` of it is the English sentence)."""
    c = state.current()
    if c is None:
        return Reason("race_over")
    rules, board = state.game.rules, state.game.board
    exact = rules.cite("exact_move")
    if move.ram >= 0 or move.card == 0:
        return _ram_or_wait_problem(state, move)
    if move.card < 0:
        if not state.bonus[c] or rules.bonus != -move.card:
            return Reason("no_bonus", {"points": -move.card})
    elif move.card not in state.cards(c):
        if state.game.is_ownerless(c):
            return Reason("top_card", {"card": move.card})
        return Reason("no_card", {"card": move.card})
    path = move.path
    node = state.pos[c]
    if node is None or not path:
        return Reason("exact", {"card": move.card}, exact)
    crossed = 0
    left_to_finish = board.start_crossings[c] + rules.laps - state.crossings[c]
    occ = state.occupied(but=c)
    for i, nxt in enumerate(path):
        step = dict(board.succ[node])
        if nxt not in step:
            return Reason("not_forward", {"to": nxt, "start": node}, exact)
        if nxt in occ:
            return Reason("taken", {"space": nxt}, exact)
        crossed += step[nxt]
        node = nxt
        if step[nxt] and crossed >= left_to_finish:
            if i + 1 != len(path):
                return Reason("line_ends", {}, exact)
            break
    else:
        if len(path) != abs(move.card):
            if rules.lapse_points and move in _Analysis(state).moves:
                return None  # lapse movement points: the card with the smallest loss
            return Reason("exact_not", {"card": move.card, "steps": len(path)}, exact)
    if _avoids_alley(state, c) and _in_alley(board, path):
        return Reason("no_alley_drive", {}, rules.cite("ownerless"))
    no = card_forbidden(state, c, move.card)
    if no is not None:
        return no
    window = wait_window(state, c) if rules.alley_must_wait else None
    if (window is not None and alley_pending(state, c)
            and held_to_wait(state, c) and gives_up_alley(state, c, path, window)):
        a = _Analysis(state)
        if a.blocked_alley:
            return Reason("alley_wait", {}, rules.cite("alley_wait"))
    return None


def card_reason(state: Position, card: int) -> Reason | None:
    """Why ``card``, one of the cards the chariot to move plays from, has no legal move now:
    the card restriction that forbids it, else the first reason :func:`why_not` gives for a
    walk of it (a free walk first — the alley wait, a chariot that avoids the alley —, then
    a walk of the empty track: the space that is taken). None when the card has a legal
    move, or no walk of it exists at all. The one answer the table's hand (editor/table) and
    the published vectors (engine/lab/vectors.py) give for a card without a move."""
    if any(m.card == card for m in LegalMoves(state)):
        return None
    c = state.turn
    no = card_forbidden(state, c, card)
    if no is not None:
        return no
    for empty in (False, True):
        for path in walks(state, c, card, empty=empty):
            reason = why_not(state, Move(card, path))
            if reason is not None:
                return reason
    return None


def ownerless_skip(state: Position, c: int, events: list[Event]) -> bool:
    """Dispose of an ownerless chariot's unusable top card; True if the skip is idle.

    The skip is not idle (the deadlock rule starts counting again) while another card of
    its deck would be a legal move from here: the deck turns, and that card comes to the
    top while the others skip, so the race is not frozen. The question is the legal moves
    themselves with that card on top (not only whether a walk of it is free: a chariot
    that avoids the alley or waits at it would else cycle its deck for ever).
    """
    own = state.game.rules.ownerless
    assert own is not None
    could_move = [k for k in range(1, 10) if _can_move(state, c, k)]
    if not could_move and not own.draws_when_blocked:
        events.append(Event("no_draw", c, {}))
        return True
    card, rest = state.decks[c][0], state.decks[c][1:]
    if own.under_deck:
        state.decks[c] = (*rest, card)
        events.append(Event("under_deck", c, {"card": card}))
    else:
        state.decks[c] = rest
        state.played[c] = (*state.played[c], card)
        events.append(Event("discard", c, {"card": card}))
    return not any(k in could_move and _top_card_moves(state, c, k)
                   for k in set(state.decks[c]))


def _top_card_moves(state: Position, c: int, card: int) -> bool:
    """Ownerless chariot ``c`` would have a legal move here with ``card`` on top."""
    other = state.copy()
    other.decks[c] = (card,)
    other.turn, other.queue = c, ()
    return _Analysis(other).count > 0
