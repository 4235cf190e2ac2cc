"""Policies choose among legal moves; they never decide what is legal.

A policy is a callable ``(state, legal_moves) -> Move``. :func:`make_policy` builds one by
name: ``random`` (uniform, its own seeded generator), ``greedy`` (progress per point, keeps
a reserve for the finish, stops in the alley in time) or ``search`` (seeded rollouts of
each candidate move, :mod:`avecaesar.engine.search`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

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


def _score(state: RaceState, move: Move) -> tuple[float, ...]:
    c = state.turn
    game = state.game
    board, rules = game.board, game.rules
    if move.card == 0:
        return (-400.0, 0, 0)  # waiting at a blocked alley beats giving the stop up
    after = state.copy()
    after.push(move)
    gain = after.race_progress(c) - state.race_progress(c) if after.pos[c] is not None else 0
    score = 0.0
    if after.status[c] == "f":
        score += 1000 - move.card  # finish, with the smallest card
    if after.stopped[c] and not state.stopped[c]:
        score += 500  # the alley stop, made in time
    if after.dq[c] and not state.dq[c]:
        score -= 800
    if alley_pending(state, c) and gives_up_alley(state, c, move.path):
        score -= 600  # drives past the alley on the last chance: disqualification ahead
    elif (alley_pending(state, c) and not after.stopped[c] and after.pos[c] is not None
          and board.before_alley[after.pos[c]] and after.lap(c) in rules.alley_laps):
        # stop in time: prefer a landing from which a card kept in hand reaches the alley
        rest = list(state.cards(c))
        rest.remove(move.card)
        left = board.start_crossings[c] + rules.laps - after.crossings[c]
        if any(board.alley[p[-1]] for k in set(rest)
               for p in board.paths(after.pos[c], k, left)):
            score += 300
    elif (alley_pending(state, c) and state.lap(c) in rules.alley_laps
          and not after.stopped[c] and after.pos[c] is not None
          and not board.before_alley[after.pos[c]]):
        score -= 200  # passes up this lap's chance
    # progress per point: waste as little as possible (lane changes, detours), then go far;
    # the waste is measured against the shortest way still to drive, so the reserve for the
    # finish is spent only where the track forces it
    if after.status[c] == "f":
        waste = 0.0
    else:
        waste = move.card - (remaining(state, c) - remaining(after, c))
    score += -3.0 * waste + 0.3 * gain
    end = move.path[-1]
    return (score, -board.progress[end], -end)


def greedy_ranking(state: RaceState, moves: LegalMoves) -> list[Move]:
    """The distinct (card, landing) legal moves, best first by the greedy score (the first
    of equals first); ``greedy_policy`` plays the first."""
    return [m for _k, m in greedy_scored(state, moves)]


def greedy_scored(state: RaceState, moves: LegalMoves) -> list[tuple[tuple[float, ...], Move]]:
    """:func:`greedy_ranking` with each move's greedy score (first element: the points —
    finishing 1000, alley stop 500, giving the stop up −600, …; waste costs 3 a step)."""
    scored: list[tuple[tuple[float, ...], Move]] = []
    seen: set[tuple[int, int]] = set()
    for m in moves:
        if m.card and (m.card, m.path[-1]) in seen:
            continue
        if m.card:
            seen.add((m.card, m.path[-1]))
        scored.append((_score(state, m), m))
    scored.sort(key=lambda x: x[0], reverse=True)  # stable: the first of equals stays first
    return scored


def greedy_policy(state: RaceState, moves: LegalMoves) -> Move:
    best = None
    best_key: tuple[float, ...] | None = None
    seen: set[tuple[int, int]] = set()
    for m in moves:
        if m.card and (m.card, m.path[-1]) in seen:
            continue
        if m.card:
            seen.add((m.card, m.path[-1]))
        key = _score(state, m)
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
