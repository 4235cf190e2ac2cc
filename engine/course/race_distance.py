"""The race's one distance search: breadth-first over (space, finish-line crossings still
needed, alley stop made), backwards from the finish (issue 34).

Every distance of a race is read from the table this search fills, through thin views: the
course figures (the shortest legal race per start place, its route and the outside race:
:mod:`avecaesar.engine.course.race_path`), the board's steps to the line and its distance
tables (:class:`avecaesar.engine.core.board.Board`), which the view's distance still to
race (:mod:`avecaesar.engine.core.view`) and the greedy bot's scores
(:mod:`avecaesar.engine.bots.policies`) read. How laps, the finish and the alley window
count is written here once (:func:`_stops`, :func:`_search`, :meth:`RaceDistances.route`).

A state is (space, crossings still needed ``left`` ≥ 1, stop made). A step along an edge
that crosses the line needs one crossing less; the step that makes the last one finishes
the race if the stop was made (or none is needed). Steps beyond the line lapse
(docs/sources.md, finish.overshoot), so a race's length counts up to and including the step
over the line. Landing on an alley space in a lap of the window makes the stop (a chariot
can always end a move there: cards run from 1 to 6); with ``left`` crossings still needed
after a step, the lap being driven is ``laps - left + 1`` (lap 0 is the run-up to the line
from a grid behind it). A successor table with edges left out (the networkx pattern of a
weight that hides an edge) searches a part of the course: the outside race keeps to the
outermost lanes that way, the steps to the line never count a step over it.

No networkx here (the race engine's hot path uses it, compiled with it: setup.py's NATIVE).
"""

from __future__ import annotations

from collections.abc import Sequence

from avecaesar.engine.course.alley_window import counts

__all__ = ["FAR", "RaceDistances", "race_distances", "steps_to_line"]

#: the steps to the line of a space from which no step crosses it
FAR = 10 ** 6

Succ = Sequence[Sequence[tuple[int, bool]]]


class RaceDistances:
    """The steps still to race from every state of one course under one set of rule values
    (laps, the alley window, whether the stop is required): a table filled once by
    :func:`_search` and only read afterwards (threads may share it).

    ``steps[((left - 1) * 2 + stopped) * n + node]`` is the fewest steps from ``node`` with
    ``left`` crossings still needed (1 ≤ left ≤ ``most``) and the stop made or not; -1: the
    race cannot be finished from there.
    """

    __slots__ = ("most", "n", "need", "steps", "stops", "succ")

    def __init__(self, succ: Succ, alley: Sequence[bool], laps: int, window: tuple[int, ...],
                 need: bool, most: int) -> None:
        self.succ = succ
        self.n = len(succ)
        self.need = need
        self.most = most
        self.stops = _stops(alley, laps, window, most)
        self.steps = _search(succ, self.stops, need, most)

    def to_finish(self, node: int, left: int, stopped: bool) -> int | None:
        """The fewest steps from ``node`` with ``left`` crossings still needed and the stop
        ``stopped`` (made, or not needed); None when the race cannot be finished."""
        if left < 1 or left > self.most or not 0 <= node < self.n:
            return None
        got = self.steps[((left - 1) * 2 + stopped) * self.n + node]
        return got if got >= 0 else None

    def route(self, start: int, left: int, stopped: bool) -> list[int] | None:
        """The spaces of a shortest race from ``start`` (start included), or None: of the
        shortest ones, the first in the successor table's order (the route a breadth-first
        search forward from ``start`` finds first)."""
        todo = self.to_finish(start, left, stopped)
        if todo is None:
            return None
        n, steps, stops = self.n, self.steps, self.stops
        route = [start]
        node = start
        while todo:
            for v, fin in self.succ[node]:
                if fin and left == 1:
                    if todo == 1 and (stopped or not self.need):
                        route.append(v)
                        return route
                    continue
                after = left - fin
                made = stopped or stops[(after - 1) * n + v]
                if steps[((after - 1) * 2 + made) * n + v] == todo - 1:
                    node, left, stopped, todo = v, after, made, todo - 1
                    route.append(v)
                    break
        return route  # not reached: a state with steps to go has a successor one closer


def race_distances(succ: Succ, alley: Sequence[bool], laps: int, window: tuple[int, ...],
                   need: bool, most: int) -> RaceDistances:
    """The distance table of a course: ``succ[n]`` the (next space, crosses the line) of
    each step from ``n``, ``alley[n]`` an alley space; ``laps`` to drive, the stop counting
    in the laps of ``window`` and required if ``need``; states up to ``most`` crossings
    still needed (the laps plus the most crossings a start place is behind the line)."""
    return RaceDistances(succ, alley, laps, window, need, most)


def steps_to_line(succ: Succ) -> tuple[int, ...]:
    """Per space, the fewest steps up to and including the first step over the finish line
    (:data:`FAR` where none crosses it): the table of one lap to go, no stop needed."""
    table = race_distances(succ, [False] * len(succ), 1, (), False, 1)
    return tuple(FAR if x < 0 else x for x in table.steps[table.n:])


def _stops(alley: Sequence[bool], laps: int, window: tuple[int, ...], most: int
           ) -> list[bool]:
    """``stops[(left - 1) * n + v]``: landing on ``v`` with ``left`` crossings still needed
    makes the alley stop (an alley space, in a lap of the window)."""
    out: list[bool] = []
    for left in range(1, most + 1):
        lap = laps - left + 1  # the lap being driven
        here = counts(window, lap)
        out.extend(here and a for a in alley)
    return out


def _search(succ: Succ, stops: list[bool], need: bool, most: int) -> list[int]:
    """The one breadth-first search: from the steps that finish, backwards along the
    steps, the fewest steps of every state (-1: none finishes)."""
    n = len(succ)
    steps = [-1] * (2 * most * n)
    pred: list[list[int]] = [[] for _ in range(n)]  # per space: u * 2 + crosses the line
    frontier: list[int] = []
    for u in range(n):
        for v, fin in succ[u]:
            pred[v].append(u * 2 + fin)
            if fin:  # the last crossing: it finishes with the stop made, or none needed
                for s in (1, 0) if not need else (1,):
                    if steps[s * n + u] < 0:
                        steps[s * n + u] = 1
                        frontier.append(s * n + u)
    d = 1
    while frontier:
        d += 1
        later: list[int] = []
        for x in frontier:
            block, v = divmod(x, n)
            left2, s2 = (block >> 1) + 1, block & 1
            stop = stops[(left2 - 1) * n + v]
            if stop and not s2:
                continue  # landing on v makes the stop: no state without it comes here
            for p in pred[v]:
                left = left2 + (p & 1)
                if left > most:
                    continue
                base = (left - 1) * 2 * n + (p >> 1)
                # the stop made before the step, or (landing here makes it) not yet
                for s in (1, 0) if s2 and stop else (s2,):
                    i = base + s * n
                    if steps[i] < 0:
                        steps[i] = d
                        later.append(i)
        frontier = later
    return steps
