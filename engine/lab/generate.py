"""Courses to a brief: a quality-diversity search for boards that meet every constraint.

The search is MAP-Elites over a grid of two features — the number of curves and the
smallest reserve of any start place (one cell per point of reserve, or per few points when
the brief's range is wide) — keeping in each cell the best board found (the smallest spread of
reserves between start places, then the smallest board). Each round either draws a new
random design (engine/lab/generate_board.py) or mutates the elite of a random filled cell,
then closes its drawing, tunes its lap towards a reserve drawn from the brief's range, and
compiles it with the course compiler. A board enters the grid only when

- it compiles with no error and no warning (``course validate``'s check, under the brief's
  ruleset) and its drawing closes (the board geometry's gap within ``CLOSES``);
- every start place's reserve — the deck's points minus its exact shortest legal race
  (engine/course/race_path.py) — lies in the brief's range;
- the board with a space of margin round it fits the footprint at the brief's space size;
- its piece counts lie in the brief's ranges (true by construction);
- its lane graph is not one already kept (a Weisfeiler–Lehman hash of the graph with each
  space's kind, lane and start place and each step's kind, so a relabelling is the same).

Everything is drawn from one ``random.Random(seed)``, so a seed gives the same boards (the
clock only ends a search early). For every constraint the search keeps the board that came
closest, so a brief that cannot be met is answered with which constraint failed and by how
much at best (:func:`explain`).
"""

from __future__ import annotations

import math
import random
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import networkx as nx

from avecaesar.engine.course.figures import RaceFigures
from avecaesar.engine.course.geometry import CLOSES, board_geometry
from avecaesar.engine.course.layout import SPACE
from avecaesar.engine.course.load import Course, CourseFigures, load_courses
from avecaesar.engine.data.errors import Problem
from avecaesar.engine.lab.brief import Brief, Span
from avecaesar.engine.lab.generate_board import (
    Design,
    Part,
    close,
    design_yaml,
    gap,
    grow,
    inner_lap,
    random_design,
    shortest,
    tune_lap,
)

__all__ = ["Board", "Miss", "Progress", "Search", "clean_check", "explain", "wl_hash"]

CONSTRAINTS = ("valid", "closes", "reserve", "footprint")
EXPLORE = 200  # designs tried before a search may stop with its boards


def wl_hash(g: nx.DiGraph) -> str:
    """The lane graph's Weisfeiler–Lehman hash: the same for two boards whose graphs differ
    only in how their spaces are numbered or named."""
    h = nx.DiGraph()
    for n, d in g.nodes(data=True):
        h.add_node(n, wl=f"{d['kind']}:{d['lane']}:{d.get('start_place') or 0}:"
                          f"{int(bool(d.get('chicane')))}")
    for u, v, d in g.edges(data=True):
        h.add_edge(u, v, wl=f"{int(bool(d.get('diagonal')))}:{int(bool(d.get('finish')))}:"
                            f"{d.get('alley') or 0}")
    with warnings.catch_warnings():  # networkx 3.5 notes that its directed hashes changed
        warnings.simplefilter("ignore", UserWarning)
        return str(nx.weisfeiler_lehman_graph_hash(h, node_attr="wl", edge_attr="wl",
                                                   iterations=4))


@dataclass(frozen=True)
class Board:
    """A board that meets the brief: its design, course, figures, size and features."""

    design: Design
    course: Course
    figures: CourseFigures
    size_cm: tuple[float, float]
    hash: str
    cell: tuple[int, int]

    @property
    def spread(self) -> int:
        res = [r for r in self.figures.reserve if r is not None]
        return max(res) - min(res)

    @property
    def quality(self) -> tuple[int, float]:
        """Smaller is better: the reserves' spread between places, then the board's area."""
        return (self.spread, self.size_cm[0] * self.size_cm[1])


@dataclass
class Miss:
    """The closest a board came to one constraint: how far off (0 met), and what it was."""

    amount: float = math.inf
    text: str = ""


@dataclass
class Progress:
    """Where a search stands: boards designed, compiled, kept; cells filled of all."""

    tried: int = 0
    compiled: int = 0
    cells: int = 0
    cells_total: int = 0
    found: int = 0
    seconds: float = 0.0


def clean_check(course: Course, rules: RaceFigures) -> tuple[list[Problem], CourseFigures | None]:
    """Every problem ``course validate --ruleset`` reports for the course (errors and
    warnings), and its figures when it has no error."""
    if course.errors:
        return list(course.problems), None
    figs = course.figures(rules)
    problems = [*course.problems, *course.rule_problems(figs, rules),
                *course.figure_problems(figs)]
    return sorted(problems), figs


def _size_cm(course: Course, space_mm: float) -> tuple[float, float]:
    x0, y0, x1, y1 = board_geometry(course.graph).bounds
    per = space_mm / 10 / SPACE  # cm per point
    return ((x1 - x0) * per + 2 * space_mm / 10, (y1 - y0) * per + 2 * space_mm / 10)


def _overflow(size: tuple[float, float], box: tuple[float, float]) -> float:
    """How many cm the board is too large for the box, laid the better way round."""
    w, h = size
    a, b = box
    return min(max(w - a, h - b, 0.0), max(w - b, h - a, 0.0))


def _reserve_off(reserve: list[int | None], span: Span) -> tuple[int, int]:
    """(how far the worst start place's reserve lies outside the range, which place)."""
    worst, place = 0, 0
    for i, r in enumerate(reserve):
        off = 10**6 if r is None else span.distance(r)
        if off > worst:
            worst, place = off, i + 1
    return worst, place


@dataclass
class Search:
    """One search for boards to ``brief`` under ``rules``; ``run`` may be stopped (Ctrl-C)
    and its boards are still there."""

    brief: Brief
    rules: RaceFigures
    count: int = 5
    seed: int = 1
    max_tries: int = 4000
    explore: int = EXPLORE
    path: str = "generated.yaml"
    kept: tuple[Part, ...] = ()  # pieces of a --from course kept (engine/lab/generate_keep.py)
    rng: random.Random = field(init=False)
    grid: dict[tuple[int, int], Board] = field(default_factory=dict)
    spare: dict[str, Board] = field(default_factory=dict)
    misses: dict[str, Miss] = field(default_factory=lambda: {k: Miss() for k in CONSTRAINTS})
    progress: Progress = field(default_factory=Progress)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.curves = Span(max(2, self.brief.pieces["curves"].low),
                           min(8, self.brief.pieces["curves"].high))
        r = self.brief.reserve
        self.bin = max(1, math.ceil((r.high - r.low + 1) / 8))
        bins = (r.high - r.low) // self.bin + 1
        self.progress.cells_total = max(0, self.curves.high - self.curves.low + 1) * bins

    # --- the search ---------------------------------------------------------------

    def run(self, minutes: float | None = None,
            on_progress: Callable[[Progress], None] | None = None) -> list[Board]:
        """Search until ``count`` boards in as many cells are found (or every cell is
        filled and ``count`` boards kept), ``max_tries`` designs were tried or ``minutes``
        passed; the boards found (:meth:`boards`)."""
        if self.impossible():
            return []
        start = time.monotonic()
        while self.progress.tried < self.max_tries and not self.done():
            if minutes is not None and time.monotonic() - start > 60 * minutes:
                break
            self.step()
            self.progress.seconds = time.monotonic() - start
            if on_progress is not None:
                on_progress(self.progress)
        return self.boards()

    def done(self) -> bool:
        """Enough boards, after a first look round the whole grid, in enough cells (or
        in what ``5 × explore`` designs filled: some cells of a tight brief stay empty)."""
        p = self.progress
        return (p.found >= self.count and p.tried >= min(self.max_tries, self.explore)
                and (p.cells >= min(self.count, p.cells_total) or p.tried >= 5 * self.explore))

    def impossible(self) -> list[str]:
        """What the brief asks that no board of this generator can have (before searching)."""
        b = self.brief
        out = []
        if b.pieces["bridges"].low > 0:
            out.append(f"bridges {b.pieces['bridges']} ({b.where('pieces', 'bridges')}): "
                       "the generator draws convex loops, which never cross themselves, so "
                       "no board has a bridge — write bridges: 0")
        if b.pieces["curves"].high < 2:
            out.append(f"curves {b.pieces['curves']} ({b.where('pieces', 'curves')}): a "
                       "loop of right-hand curves needs at least 2 — allow 2 or more")
        if b.alley_spaces.high < 1:
            out.append(f"alley spaces {b.alley_spaces} ({b.where('alley', 'spaces')}): an "
                       "alley has at least 1 space")
        return out

    def step(self) -> None:
        """One design tried: drawn or mutated, closed, tuned, compiled, kept if it meets
        the brief."""
        self.progress.tried += 1
        design = self._mutant() if self.grid and self.rng.random() < 0.6 else self._fresh()
        target = self.rng.randint(self.brief.reserve.low, self.brief.reserve.high)
        closed = self._aimed(design, target)
        if closed is None:
            self._miss("closes", gap(design) / SPACE - CLOSES / SPACE,
                       f"the closest drawing ends {gap(design) / SPACE:.1f} spaces from "
                       "where it begins")
            return
        self._miss("closes", 0, "")
        board = self._compile(closed)
        if board is not None and board.figures is not None:
            off = self._reserve_shift(board.figures, target)
            if off:
                again = close(tune_lap(closed, -off // self.rules.laps))
                if again is not None:
                    board = self._compile(again) or board
        if board is not None:
            self._keep(board)

    def _fresh(self) -> Design:
        b, rng = self.brief, self.rng
        pieces = b.pieces
        kept_chicanes = sum(p.of == "chicane" for p in self.kept)
        kept_walls = sum(p.wall is not None for p in self.kept)
        chicanes = rng.randint(pieces["chicanes"].low, pieces["chicanes"].high)
        walls = rng.randint(pieces["walls"].low, pieces["walls"].high)
        return random_design(rng, b.lanes, b.start_places,
                             rng.randint(self.curves.low, self.curves.high),
                             rng.randint(max(1, b.alley_spaces.low), b.alley_spaces.high),
                             max(0, chicanes - kept_chicanes), max(0, walls - kept_walls),
                             self.kept)

    def _mutant(self) -> Design:
        """An elite with one change: a curve's inside lane, a side straight, the alley."""
        rng = self.rng
        keys = sorted(self.grid)
        d = self.grid[keys[rng.randrange(len(keys))]].design
        what = rng.randrange(3)
        if what == 0:
            i = rng.randrange(len(d.turns))
            inner = list(d.inner)
            inner[i] = max(1, inner[i] + rng.choice((-1, 1)))
            return replace(d, inner=tuple(inner))
        if what == 1:
            extra = list(d.extra)
            i = rng.randrange(len(extra))
            extra[i] = 1 - extra[i]
            return replace(d, extra=tuple(extra))
        a = self.brief.alley_spaces
        alley = max(1, min(a.high, max(a.low, d.alley + rng.choice((-1, 1)))))
        return replace(d, alley=alley, caesar=max(1, min(d.caesar, alley)))

    def _aimed(self, d: Design, target: int) -> Design | None:
        """``d`` closed with its lap about what leaves ``target`` points: a new design's
        straights from their shortest, grown; an elite's tuned by opposite straights."""
        race = self.rules.budget - target
        alley = max(0, d.alley - d.caesar) + 1
        lap = round((race - 1 - alley - (d.rows - 1) / 2) / self.rules.laps)
        tuned = close(tune_lap(d, lap - inner_lap(d)))
        if tuned is not None and abs(inner_lap(tuned) - lap) <= 1:
            return tuned
        start = close(shortest(d))
        return None if start is None else grow(start, lap, self.rng)

    def _reserve_shift(self, figs: CourseFigures, target: int) -> int:
        """Race points to add for the mean reserve to reach ``target`` (0 when every
        reserve is in range)."""
        res = [r for r in figs.reserve if r is not None]
        if not res or all(r in self.brief.reserve for r in figs.reserve):
            return 0
        return round(sum(res) / len(res)) - target

    # --- checking one board ----------------------------------------------------------

    def _compile(self, d: Design) -> Board | None:
        """The board of a closed design, if it compiles, checks clean, fits the footprint
        and keeps every reserve in range; else None (and the misses noted)."""
        self.progress.compiled += 1
        course = load_courses(self.path, text=design_yaml(d, self.brief.name,
                                                           [f"name: {self.brief.name}"],
                                                           []))[0]
        problems, figs = clean_check(course, self.rules)
        if problems or figs is None:
            self._miss("valid", len(problems), f"{len(problems)} problem(s): {problems[0]}")
            return None
        self._miss("valid", 0, "")
        size = _size_cm(course, self.brief.space_mm)
        over = _overflow(size, self.brief.footprint_cm)
        off, place = _reserve_off(figs.reserve, self.brief.reserve)
        self._note(figs, size, over, off, place, d)
        if over > 0 or off > 0:
            return None
        least = min(r for r in figs.reserve if r is not None)
        cell = (len(d.turns), (least - self.brief.reserve.low) // self.bin)
        return Board(d, course, figs, size, wl_hash(course.graph), cell)

    def _note(self, figs: CourseFigures, size: tuple[float, float], over: float, off: int,
              place: int, d: Design) -> None:
        w, h = self.brief.footprint_cm
        shown = f"{size[0]:.0f} × {size[1]:.0f} cm"
        self._miss("footprint", over, f"the smallest board is {shown}, {over:.1f} cm more "
                   f"than {w:g} × {h:g} cm allows (with {len(d.turns)} curves, lap "
                   f"{figs.lap})")
        if place:
            race, res = figs.shortest_race[place - 1], figs.reserve[place - 1]
            self._miss("reserve", off, f"the shortest race from place {place} needs {race}: "
                       f"a reserve of {res}, {off} outside {self.brief.reserve} (with "
                       f"{len(d.turns)} curves, lap {figs.lap}, {shown})")
        else:
            self._miss("reserve", 0, "")

    def _miss(self, what: str, amount: float, text: str) -> None:
        if amount < self.misses[what].amount:
            self.misses[what] = Miss(amount, text)

    def _keep(self, board: Board) -> None:
        known = {b.hash for b in self.grid.values()} | set(self.spare)
        if board.hash in known:
            return
        old = self.grid.get(board.cell)
        if old is None or board.quality < old.quality:
            self.grid[board.cell] = board
            if old is not None:
                self.spare[old.hash] = old
        else:
            self.spare[board.hash] = board
        self.progress.cells = len(self.grid)
        self.progress.found = len(self.grid) + len(self.spare)

    def boards(self, limit: int | None = None) -> list[Board]:
        """Up to ``count`` (or ``limit``) boards: the grid's elites (a board of each curve
        count in turn, each count's cells in order of reserve), then the best spares."""
        by_curves: dict[int, list[Board]] = {}
        for c in sorted(self.grid):
            by_curves.setdefault(c[0], []).append(self.grid[c])
        elites: list[Board] = []  # one of each curve count in turn: the most varied first
        while any(by_curves.values()):
            for k in sorted(by_curves):
                if by_curves[k]:
                    elites.append(by_curves[k].pop(0))
        spares = sorted(self.spare.values(), key=lambda b: (b.quality, b.hash))
        return (elites + spares)[: self.count if limit is None else limit]


def explain(search: Search) -> list[str]:
    """Why a search found fewer boards than asked: each constraint no board met, with the
    closest any board came, and where the brief says it."""
    b = search.brief
    out = list(search.impossible())
    if out:
        return out
    where = {"reserve": b.where("reserve"), "footprint": b.where("footprint_cm"),
             "closes": b.where("pieces"), "valid": b.where("pieces")}
    for name in CONSTRAINTS:
        miss = search.misses[name]
        if miss.amount > 0 and miss.text:
            out.append(f"{name} ({where[name]}): {miss.text}")
    if not out and not search.grid and not search.spare:
        out.append("every constraint was met by some board, but never all of them at once "
                   f"in {search.progress.tried} designs — widen the reserve range or the "
                   "footprint, or search longer (--minutes)")
    return out


