"""Policies choose among legal moves; they never decide what is legal.

A policy is a callable ``(state, legal_moves) -> Move``.
:func:`~avecaesar.engine.bots.registry.make_policy` builds one by name: ``random`` (uniform,
its own seeded generator), ``greedy`` (progress per point, keeps a reserve for the finish,
stops in the alley in time) or ``search`` (seeded rollouts of each candidate move,
:mod:`avecaesar.engine.bots.search`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from avecaesar.engine.core.board import WalkTable
from avecaesar.engine.core.effects import Facts
from avecaesar.engine.core.moves import (
    LegalMoves,
    alley_pending,
    distinct_moves,
    gives_up_alley,
    move_facts,
)
from avecaesar.engine.core.state import FINISHED, Move, RaceState
from avecaesar.engine.course.alley_window import counts, later_chance, passed
from avecaesar.engine.course.race_distance import RaceDistances

__all__ = ["greedy_bot", "greedy_policy", "greedy_ranking", "greedy_scored", "random_policy"]

Policy = Callable[[RaceState, LegalMoves], Move]
# what the scoring functions take: the legal moves, or (tests, tools) a list of them; the
# union keeps the annotation true where compiled code checks it
Moves = LegalMoves | Sequence[Move]


def random_policy(seed: int) -> Policy:
    """A policy that plays a uniformly random legal move, drawn from its own generator
    seeded with ``seed`` (the race's chance is untouched)."""
    rng = random.Random(seed)

    def choose(state: RaceState, moves: Moves) -> Move:
        return rng.choice(list(moves))

    return choose


def distances(state: RaceState, window: tuple[int, ...] | None = None) -> RaceDistances:
    """Steps still to go on an empty track from (node, crossings still needed, stop made),
    the alley stop included where the rules require it: the board's distance table
    (engine/course/race_distance.py); the stop counts in the laps of ``window`` (default:
    the ruleset's; a chariot's own window when an effect extended it)."""
    game = state.game
    board, rules = game.board, game.rules
    return board.distances(rules.laps, rules.alley_laps if window is None else window,
                           board.has_alley and rules.alley_must_stop)


def remaining(state: RaceState, c: int) -> float:
    """Steps chariot ``c`` still has to drive (with the alley stop if still needed)."""
    p = state.pos[c]
    if p is None:
        return 0.0
    game = state.game
    left = game.board.start_crossings[c] + game.rules.laps - state.crossings[c]
    dist = distances(state, state.window(c) if state.later_laps[c] else None)
    got = dist.to_finish(p, left, state.stopped[c] or state.dq[c])
    if got is None:
        got = dist.to_finish(p, left, True)
    return float(got) if got is not None else 1e6


def _after(state: RaceState, move: Move) -> Facts:
    """The mover's facts after ``move``: the engine's own :func:`move_facts` (the effects of
    the move as the ruleset's effect lists give them), without copying the state."""
    return move_facts(state, move)


def _after_slow(state: RaceState, move: Move) -> Facts:
    """The same facts by copying the state and pushing the move (the reference)."""
    c = state.turn
    after = state.copy()
    after.push(move)
    return Facts(after.pos[c], after.crossings[c], after.stopped[c], after.dq[c],
                 after.status[c] == FINISHED)


def _remaining_at(state: RaceState, c: int, a: Facts) -> float:
    """:func:`remaining` for chariot ``c`` in the facts ``a``."""
    if a.pos is None:
        return 0.0
    game = state.game
    left = game.board.start_crossings[c] + game.rules.laps - a.crossings
    dist = distances(state, state.window(c) if state.later_laps[c] else None)
    got = dist.to_finish(a.pos, left, a.stopped or a.dq)
    if got is None:
        got = dist.to_finish(a.pos, left, True)
    return float(got) if got is not None else 1e6


def _score(state: RaceState, move: Move, pending: bool | None = None,
           before: float | None = None) -> tuple[float, ...]:
    """The greedy score of ``move`` (``pending``: :func:`alley_pending` for the mover,
    ``before``: its :func:`remaining` now — passed in when scoring many moves)."""
    c = state.turn
    game = state.game
    board, rules = game.board, game.rules
    if move.card == 0:
        return (-400.0, 0, 0)  # waiting at a blocked alley beats giving the stop up
    a = move_facts(state, move)
    if pending is None:
        pending = alley_pending(state, c)
    b = board
    lap_after = a.crossings - b.start_crossings[c] + 1
    gain = 0
    if a.pos is not None:
        gain = ((a.crossings - b.start_crossings[c]) * b.lap_value + b.progress[a.pos]
                - state.race_progress(c))
    score = 0.0
    if a.finished:
        score += 1000 - move.card  # finish, with the smallest card
    if a.stopped and not state.stopped[c]:
        score += 500  # the alley stop, made in time
    if a.dq and not state.dq[c]:
        score -= 800
    if pending and gives_up_alley(state, c, move.path):
        score -= 600  # drives past the alley on the last chance: disqualification ahead
    elif (pending and not a.stopped and a.pos is not None
          and board.before_alley[a.pos] and counts(state.window(c), lap_after)):
        # stop in time: prefer a landing from which a card kept in hand reaches the alley
        rest = list(state.cards(c))
        rest.remove(move.card)
        left = board.start_crossings[c] + rules.laps - a.crossings
        if any(board.alley[p[-1]] for k in set(rest)
               for p in board.paths(a.pos, k, left)):
            score += 300
    elif (pending and counts(state.window(c), state.lap(c))
          and not a.stopped and a.pos is not None
          and not board.before_alley[a.pos]):
        score -= 200  # passes up this lap's chance
    # progress per point: waste as little as possible (lane changes, detours), then go far;
    # the waste is measured against the shortest way still to drive, so the reserve for the
    # finish is spent only where the track forces it
    if a.finished:
        waste = 0.0
    else:
        if before is None:
            before = remaining(state, c)
        waste = move.card - (before - _remaining_at(state, c, a))
    score += -3.0 * waste + 0.3 * gain
    end = move.path[-1]
    return (score, -board.progress[end], -end)


def greedy_ranking(state: RaceState, moves: Moves) -> list[Move]:
    """The distinct (card, landing) legal moves, best first by the greedy score (the first
    of equals first); ``greedy_policy`` plays the first."""
    return [m for _k, m in greedy_scored(state, moves)]


def _distinct_scored(state: RaceState, moves: Moves
                     ) -> Iterator[tuple[tuple[float, ...], Move]]:
    """Each distinct (card, landing) legal move with its greedy score, in move order."""
    seen: set[tuple[int, int]] = set()
    pending = alley_pending(state, state.turn)
    before = remaining(state, state.turn)
    for m in moves:
        if m.card and (m.card, m.path[-1]) in seen:
            continue
        if m.card:
            seen.add((m.card, m.path[-1]))
        yield _score(state, m, pending, before), m


class _Tables:
    """Per (board, rules): the greedy's lookups as flat lists indexed by node."""

    __slots__ = ("alley_laps", "board", "dist", "laps", "missed",
                 "missed_cancels", "missed_dq", "missed_removes", "rem", "rules", "scores",
                 "stop_stops")

    def __init__(self, state: RaceState) -> None:
        game = state.game
        board, rules = game.board, game.rules
        self.board, self.rules = board, rules
        self.dist = distances(state)
        self.laps = rules.laps
        self.alley_laps = rules.alley_laps
        # the effect lists' facts (as move_facts reads them)
        fx = rules.effects
        self.stop_stops = fx.stop_stops
        self.missed = board.has_alley and bool(fx.alley_missed)
        self.missed_dq, self.missed_removes = fx.missed_dq, fx.missed_removes
        self.missed_cancels = fx.missed_cancels_finish
        self.rem: dict[tuple[int, bool], list[float]] = {}
        self.scores: dict[tuple[int, int | None, int, bool, bool], _At] = {}

    def remaining_row(self, left: int, stopped: bool) -> list[float]:
        """:func:`_remaining_at` for every node, ``left`` crossings still needed."""
        row = self.rem.get((left, stopped))
        if row is None:
            dist = self.dist
            row = []
            for node in range(len(self.board.succ)):
                got = dist.to_finish(node, left, stopped)
                if got is None:
                    got = dist.to_finish(node, left, True)
                row.append(float(got) if got is not None else 1e6)
            self.rem[(left, stopped)] = row
        return row


_KEPT = "greedy"  # the name the greedy's tables are kept under on a board


def _tables(state: RaceState) -> _Tables:
    """The greedy's tables for the state's board and rules, kept on the board for that
    rules value (:meth:`~avecaesar.engine.core.board.Board.kept`): made once, shared by
    every race on them (and by threads: what they fill is the same either way)."""
    game = state.game
    board = game.board
    t = board.kept(_KEPT, game.rules)
    if isinstance(t, _Tables):
        return t
    made = _Tables(state)
    board.keep(_KEPT, game.rules, made)
    return made


def _distinct(state: RaceState, moves: Moves) -> list[Move]:
    """The first move of each distinct (card, landing) in move order (card-less moves
    kept)."""
    if isinstance(moves, LegalMoves) and moves._state is state:
        return moves.distinct()
    return distinct_moves(moves)


class _At:
    """The mover's own facts at the start of a turn: all a plain move's score reads (but
    for one case, which reads the hand too); kept per (chariot, space, crossings, stop made,
    disqualified) with the scores worked out there; chariots that start behind the same
    number of line crossings share them."""

    __slots__ = ("before", "cross0", "dq0", "lap0", "memo", "pending", "pos0", "ranks",
                 "rp0", "sc", "stopped0", "target")

    def __init__(self, state: RaceState, t: _Tables, c: int) -> None:
        board = t.board
        self.pos0 = state.pos[c]
        self.cross0 = state.crossings[c]
        self.stopped0 = state.stopped[c]
        self.dq0 = state.dq[c]
        self.sc = board.start_crossings[c]
        self.target = self.sc + t.laps
        self.lap0 = self.cross0 - self.sc + 1
        self.rp0 = state.race_progress(c)
        self.pending = alley_pending(state, c)
        self.before = remaining(state, c)
        self.memo: dict[Move, tuple[float, ...]] = {}
        # per walk table: its landings' (score, walks) best first, or None (not rankable)
        self.ranks: dict[WalkTable, list[tuple[tuple[float, ...], int]] | None] = {}


def _at(state: RaceState, t: _Tables, c: int) -> _At | None:
    """The kept facts of the mover, or None where a move's score reads more than them (its
    alley window extended by an effect: the tables hold the ruleset's)."""
    if state.game.is_ownerless(c) or state.later_laps[c] or (
            len(state.hands[c]) <= 1 and not state.decks[c]):
        return None
    key = (t.board.start_crossings[c], state.pos[c], state.crossings[c], state.stopped[c],
           state.dq[c])
    at = t.scores.get(key)
    if at is None:
        if len(t.scores) >= 20_000:
            t.scores.clear()
        at = t.scores[key] = _At(state, t, c)
    return at


def _plain_key(state: RaceState, t: _Tables, at: _At, m: Move
               ) -> tuple[tuple[float, ...], bool]:
    """:func:`_score` of a plain move (a card, no ram) worked out inline, the same
    arithmetic in the same order; and whether it reads only ``at`` (not the hand)."""
    board = t.board
    alley, before_alley, progress = board.alley, board.before_alley, board.progress
    alley_laps = t.alley_laps
    sc = at.sc
    stopped0, dq0 = at.stopped0, at.dq0
    pending = at.pending
    card = m.card
    path = m.path
    end = path[-1]
    keep = True
    cross = at.cross0
    node = at.pos0
    finish_steps = board.finish_steps
    for nxt in path:
        if (node, nxt) in finish_steps:
            cross += 1
        node = nxt
    lap = cross - sc + 1
    stopped = stopped0 or (t.stop_stops and alley[end] and counts(alley_laps, lap))
    finished = cross >= at.target
    dq = dq0
    removed = False
    if t.missed and not stopped and not dq and (finished or passed(alley_laps, lap)):
        dq = t.missed_dq
        finished = finished and not t.missed_cancels
        removed = t.missed_removes and not finished
    a_pos = None if finished or removed else end
    gain = 0
    if a_pos is not None:
        gain = (cross - sc) * board.lap_value + progress[a_pos] - at.rp0
    score = 0.0
    if finished:
        score += 1000 - card
    if stopped and not stopped0:
        score += 500
    if dq and not dq0:
        score -= 800
    if pending and not (alley[end] and counts(alley_laps, lap)) and not (
            later_chance(alley_laps, lap) or (counts(alley_laps, lap) and before_alley[end])):
        score -= 600
    elif (pending and not stopped and a_pos is not None
          and before_alley[a_pos] and counts(alley_laps, lap)):
        keep = False  # reads the hand
        rest = list(state.cards(state.turn))
        rest.remove(card)
        left = at.target - cross
        if any(alley[p[-1]] for k in set(rest) for p in board.paths(a_pos, k, left)):
            score += 300
    elif (pending and counts(alley_laps, at.lap0)
          and not stopped and a_pos is not None
          and not before_alley[a_pos]):
        score -= 200
    if finished:
        waste = 0.0
    else:
        rem = 0.0 if a_pos is None else t.remaining_row(at.target - cross, stopped or dq)[a_pos]
        waste = card - (at.before - rem)
    score += -3.0 * waste + 0.3 * gain
    return (score, -progress[end], -end), keep


def _distinct_scored_fast(state: RaceState, moves: Moves
                          ) -> list[tuple[tuple[float, ...], Move]]:
    """:func:`_distinct_scored` with the plain turn's score worked out inline and kept (a
    test checks both agree)."""
    c = state.turn
    t = _tables(state)
    at = _at(state, t, c)
    out: list[tuple[tuple[float, ...], Move]] = []
    append = out.append
    if at is None:
        pending = alley_pending(state, c)
        before = remaining(state, c)
        for m in _distinct(state, moves):
            append((_score(state, m, pending, before), m))
        return out
    memo = at.memo
    for m in _distinct(state, moves):
        if m.card <= 0 or m.ram >= 0:
            append((_score(state, m, at.pending, at.before), m))
            continue
        key = memo.get(m)
        if key is None:
            key, keep = _plain_key(state, t, at, m)
            if keep:
                memo[m] = key
        append((key, m))
    return out


def _rank(state: RaceState, t: _Tables, at: _At,
          table: WalkTable) -> list[tuple[tuple[float, ...], int]] | None:
    """The landings of ``table``'s walks, best score first, each with the bits of its walks;
    None if one landing's walks score differently (they cross the line differently) or a
    score reads the hand."""
    walks_to: dict[int, int] = {}
    for (_crossed, end), bits in table.ends:
        if end in walks_to:
            return None
        walks_to[end] = bits
    out = []
    for m in table.firsts:
        key, keep = _plain_key(state, t, at, m)
        if not keep:
            return None
        out.append((key, walks_to[m.path[-1]]))
    out.sort(key=lambda x: x[0], reverse=True)
    return out


def _greedy_ranked(state: RaceState, moves: Moves) -> Move | None:
    """:func:`greedy_policy` by each card's landings ranked once per :class:`_At`: the best
    free landing of each card, the first card's of equals; None where it does not apply (a
    move other than a card's free walk is legal, or a score is not kept)."""
    if not isinstance(moves, LegalMoves) or moves._state is not state:
        return None
    a = moves._get()
    if a.tail or not a.parts:
        return None
    t = _tables(state)
    at = _at(state, t, state.turn)
    if at is None:
        return None
    ranks = at.ranks
    best: Move | None = None
    best_key: tuple[float, ...] | None = None
    for table, blocked in a.parts:
        if table in ranks:
            ranked = ranks[table]
        else:
            ranked = ranks[table] = _rank(state, t, at, table)
        if ranked is None:
            return None
        for key, bits in ranked:
            free = bits & ~blocked
            if free:
                # within a card, landings differ, so scores differ: the first free is its best
                if best_key is None or key > best_key:
                    best_key = key
                    best = table.moves[(free & -free).bit_length() - 1]
                break
    return best


def greedy_scored(state: RaceState, moves: Moves) -> list[tuple[tuple[float, ...], Move]]:
    """:func:`greedy_ranking` with each move's greedy score (first element: the points —
    finishing 1000, alley stop 500, giving the stop up −600, …; waste costs 3 a step)."""
    scored = _distinct_scored_fast(state, moves)
    scored.sort(key=lambda x: x[0], reverse=True)  # stable: the first of equals stays first
    return scored


def _first(item: tuple[tuple[float, ...], Move]) -> tuple[float, ...]:
    return item[0]


def greedy_policy(state: RaceState, moves: Moves) -> Move:
    """The best move by the greedy score; of equals, the first in move order."""
    best = _greedy_ranked(state, moves)
    if best is not None:
        return best
    scored = _distinct_scored_fast(state, moves)
    if not scored:
        return next(iter(moves))
    return max(scored, key=_first)[1]  # max keeps the first of equals


def greedy_policy_reference(state: RaceState, moves: Moves) -> Move:
    """:func:`greedy_policy` by :func:`_score` one distinct move at a time (for tests)."""
    best = None
    best_key: tuple[float, ...] | None = None
    for key, m in _distinct_scored(state, moves):
        if best_key is None or key > best_key:
            best, best_key = m, key
    return best if best is not None else next(iter(moves))


def greedy_bot(seed: int) -> Policy:
    """The greedy bot (the bots' registry): it draws no chance, so every seed gives the same
    policy."""
    return greedy_policy
