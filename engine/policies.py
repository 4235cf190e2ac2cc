"""Policies choose among legal moves; they never decide what is legal.

A policy is a callable ``(state, legal_moves) -> Move``. :func:`make_policy` builds one by
name: ``random`` (uniform, its own seeded generator), ``greedy`` (progress per point, keeps
a reserve for the finish, stops in the alley in time) or ``search`` (seeded rollouts of
each candidate move, :mod:`avecaesar.engine.search`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import NamedTuple

from avecaesar.engine.moves import LegalMoves, alley_pending, gives_up_alley
from avecaesar.engine.state import Move, RaceState

__all__ = ["POLICIES", "greedy_policy", "greedy_ranking", "greedy_scored",
           "make_policy", "random_policy"]

Policy = Callable[[RaceState, LegalMoves], Move]


def random_policy(seed: int) -> Policy:
    rng = random.Random(seed)

    def choose(state: RaceState, moves: LegalMoves) -> Move:
        return rng.choice(list(moves))

    return choose


_DIST: dict[tuple[int, int, tuple[int, ...], bool], dict[tuple[int, int, bool], int]] = {}


def distances(state: RaceState) -> dict[tuple[int, int, bool], int]:
    """Steps still to go on an empty track from (node, crossings still needed, stop made),
    the alley stop included where the rules require it; a reverse breadth-first search over
    the lane graph × laps × stop (as :mod:`avecaesar.engine.race_path`, from the end)."""
    game = state.game
    board, rules = game.board, game.rules
    need = board.has_alley and rules.alley_must_stop
    key = (id(board), rules.laps, rules.alley_laps, need)
    found = _DIST.get(key)
    if found is not None:
        return found
    most = max(board.start_crossings) + rules.laps
    laps = set(rules.alley_laps)

    def lap_of(left: int) -> int:  # the lap being driven with `left` crossings still needed
        return rules.laps - left + 1

    pred: dict[int, list[tuple[int, bool]]] = {}
    for u, succ in enumerate(board.succ):
        for v, fin in succ:
            pred.setdefault(v, []).append((u, fin))
    dist: dict[tuple[int, int, bool], int] = {}
    frontier = []
    for u, succ in enumerate(board.succ):
        for _v, fin in succ:
            if fin:
                for stopped in ((True, False) if not need else (True,)):
                    if (u, 1, stopped) not in dist:
                        dist[(u, 1, stopped)] = 1
                        frontier.append((u, 1, stopped))
    d = 1
    while frontier:
        d += 1
        nxt = []
        for v, left2, s2 in frontier:
            for u, fin in pred.get(v, ()):
                left = left2 + fin
                if left > most or (fin and left2 == 0):
                    continue
                stops_here = board.alley[v] and lap_of(left2) in laps
                for s in ((True, False) if s2 and stops_here else (s2,)):
                    if s2 and not s and not stops_here:
                        continue
                    if not s2 and stops_here:
                        continue
                    k = (u, left, s)
                    if k not in dist:
                        dist[k] = d
                        nxt.append(k)
        frontier = nxt
    _DIST[key] = dist
    return dist


def remaining(state: RaceState, c: int) -> float:
    """Steps chariot ``c`` still has to drive (with the alley stop if still needed)."""
    p = state.pos[c]
    if p is None:
        return 0.0
    game = state.game
    left = game.board.start_crossings[c] + game.rules.laps - state.crossings[c]
    dist = distances(state)
    got = dist.get((p, left, state.stopped[c] or state.dq[c]))
    if got is None:
        got = dist.get((p, left, True))
    return float(got) if got is not None else 1e6


class _After(NamedTuple):
    """What a move does to its own chariot: the facts the greedy score reads."""

    pos: int | None  # None: finished or removed
    crossings: int
    stopped: bool
    dq: bool
    finished: bool


def _after(state: RaceState, move: Move) -> _After | None:
    """The mover's facts after ``move``, worked out without copying the state.

    Covers the plain turn; returns None where :meth:`RaceState.push` does more (a ramming
    attack, prizes, the alley race card, the bonus piece, chariots no player drives,
    execution, the last card), and the caller then copies and pushes. A test checks that
    both ways agree on every legal move of thousands of positions.
    """
    c = state.turn
    game = state.game
    rules, board = game.rules, game.board
    if (move.ram >= 0 or move.card <= 0 or rules.prizes is not None
            or rules.alley_card is not None or rules.bonus is not None
            or rules.no_stop == "execute" or game.is_ownerless(c)
            or (len(state.hands[c]) <= 1 and not state.decks[c])):
        return None
    node = state.pos[c]
    cross = state.crossings[c]
    finish_steps = board.finish_steps
    for nxt in move.path:
        if (node, nxt) in finish_steps:
            cross += 1
        node = nxt
    lap = cross - board.start_crossings[c] + 1
    stopped = state.stopped[c] or (board.alley[node] and lap in rules.alley_laps)
    finished = cross >= board.start_crossings[c] + rules.laps
    dq = state.dq[c]
    removed = False
    if (board.has_alley and rules.alley_must_stop and rules.no_stop != "none"
            and not stopped and not dq and (finished or lap > max(rules.alley_laps))):
        dq = True
        removed = not rules.dq_may_finish and not finished
    return _After(None if finished or removed else node, cross, stopped, dq, finished)


def _after_slow(state: RaceState, move: Move) -> _After:
    """The same facts by copying the state and pushing the move (the reference)."""
    c = state.turn
    after = state.copy()
    after.push(move)
    return _After(after.pos[c], after.crossings[c], after.stopped[c], after.dq[c],
                  after.status[c] == "f")


def _remaining_at(state: RaceState, c: int, a: _After) -> float:
    """:func:`remaining` for chariot ``c`` in the facts ``a``."""
    if a.pos is None:
        return 0.0
    game = state.game
    left = game.board.start_crossings[c] + game.rules.laps - a.crossings
    dist = distances(state)
    got = dist.get((a.pos, left, a.stopped or a.dq))
    if got is None:
        got = dist.get((a.pos, left, True))
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
    a = _after(state, move)
    if a is None:
        a = _after_slow(state, move)
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
          and board.before_alley[a.pos] and lap_after in rules.alley_laps):
        # stop in time: prefer a landing from which a card kept in hand reaches the alley
        rest = list(state.cards(c))
        rest.remove(move.card)
        left = board.start_crossings[c] + rules.laps - a.crossings
        if any(board.alley[p[-1]] for k in set(rest)
               for p in board.paths(a.pos, k, left)):
            score += 300
    elif (pending and state.lap(c) in rules.alley_laps
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


def greedy_ranking(state: RaceState, moves: LegalMoves) -> list[Move]:
    """The distinct (card, landing) legal moves, best first by the greedy score (the first
    of equals first); ``greedy_policy`` plays the first."""
    return [m for _k, m in greedy_scored(state, moves)]


def _distinct_scored(state: RaceState, moves: LegalMoves
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


def greedy_scored(state: RaceState, moves: LegalMoves) -> list[tuple[tuple[float, ...], Move]]:
    """:func:`greedy_ranking` with each move's greedy score (first element: the points —
    finishing 1000, alley stop 500, giving the stop up −600, …; waste costs 3 a step)."""
    scored = list(_distinct_scored(state, moves))
    scored.sort(key=lambda x: x[0], reverse=True)  # stable: the first of equals stays first
    return scored


def greedy_policy(state: RaceState, moves: LegalMoves) -> Move:
    """The best move by the greedy score; of equals, the first in move order."""
    best = None
    best_key: tuple[float, ...] | None = None
    for key, m in _distinct_scored(state, moves):
        if best_key is None or key > best_key:
            best, best_key = m, key
    return best if best is not None else next(iter(moves))


def make_policy(name: str, seed: int) -> Policy:
    if name == "random":
        return random_policy(seed)
    if name == "greedy":
        return greedy_policy
    if name == "search":
        from avecaesar.engine.search import search_policy

        return search_policy(seed)
    raise ValueError(f"unknown bot {name!r}; known: {', '.join(POLICIES)}")


POLICIES = ("greedy", "random", "search")
