"""Many seeded bot races on one course, summarised for designers (the balance lab).

Each race ``i`` of a simulation with seed ``S`` gets its own seed derived from ``(S, i)``, so a
race's result does not depend on which worker ran it or in which order; the report is built
from the per-race summaries in race order. ``--workers 1`` and ``--workers 2`` therefore
give identical reports.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from multiprocessing.context import ForkContext
from typing import TYPE_CHECKING

from avecaesar.engine.bots.registry import OWNERLESS, make_policy
from avecaesar.engine.core.race import new_race, outcome
from avecaesar.engine.data.content_memo import ContentMemo
from avecaesar.engine.data.errors import InputError, Problem, UsageError
from avecaesar.engine.data.values import Json, JsonDict
from avecaesar.engine.lab.balance import (
    SeatAdvantage,
    SkillTable,
    attrition,
    length_histogram,
    seat_advantage,
    skill_table,
    start_rows,
)
from avecaesar.engine.lab.paired import not_finished
from avecaesar.engine.lab.race_loop import race_to_end
from avecaesar.engine.lab.stats import mean, mean_interval, wilson_interval
from avecaesar.engine.lab.summary import RaceSummary

if TYPE_CHECKING:
    from avecaesar.engine.core.ruleset_adapter import RaceRules
    from avecaesar.engine.lab.setup_cache import Built, SpecKey

__all__ = ["RaceSummary", "SimReport", "SimSpec", "race_seed", "report", "run_many", "simulate",
           "summarise_race"]


@dataclass(frozen=True)
class SimSpec:
    """What to simulate; plain strings and numbers, so it travels to worker processes."""

    ruleset: str
    course: str
    players: int
    races: int
    seed: int = 1
    variants: tuple[str, ...] = ()
    settings: tuple[tuple[str, str], ...] = ()
    bots: tuple[str, ...] = ("greedy",)
    house: str = ""  # house rules (--house) as JSON text: picklable and hashable
    edits: tuple[str, ...] = ()  # course edits (their descriptions: engine/lab/edited.py)
    bot_budget: int | None = None  # --bot-budget: for the bots that take one


def race_seed(seed: int, index: int) -> int:
    """The seed of race ``index``: a hash of both, independent of workers and order."""
    digest = hashlib.sha256(f"avecaesar-sim:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


# rules and boards by spec, each kept with the digests of the files it was built from
# (engine/data/content_memo.py): a course file saved between two simulations of a server
# or a notebook is read again, never answered from the old board
@dataclass
class _Setup:
    """A spec's rules and board, with what the setup cache on disk holds of them."""

    pair: Built
    includes: list[str] | None = None  # the course's module files (None: not read here)
    stored: int | None = None  # the walk tables the disk entry holds (None: not ours)


_SETUPS: ContentMemo[_Setup] = ContentMemo(16)


def _setup(spec_key: SpecKey) -> Built:
    """Rules and board for a spec, built once per content of the files they are read from."""
    return _setup_read(spec_key)[0]


def _setup_read(spec_key: SpecKey) -> tuple[Built, dict[str, str]]:
    entry, reads = _setup_entry(spec_key)
    return entry.pair, reads


def _setup_entry(spec_key: SpecKey) -> tuple[_Setup, dict[str, str]]:
    return _SETUPS.get(spec_key, lambda: _build(spec_key))


def _setup_as_read(spec_key: SpecKey, reads: dict[str, str]) -> Built:
    """Rules and board built from exactly the files the simulation started with (``reads``:
    their digests): a forked worker uses its parent's as they are; a worker that builds its
    own and finds a file changed stops the simulation rather than mix two courses in one
    report."""
    kept = _SETUPS.kept(spec_key, reads)
    if kept is not None:
        return kept.pair
    value, now = _setup_read(spec_key)
    # (a file only one side read was read once per process, into a cache of its own: the
    # bundled ruleset catalogue)
    changed = sorted(f for f in reads.keys() & now.keys() if reads[f] != now[f])
    if changed:
        raise InputError([Problem(f, 1, 1, "changed while the simulation ran — run it again "
                                  "once the file is saved") for f in changed])
    return value


def _build(spec_key: SpecKey) -> _Setup:
    """Rules and board for a spec — or loaded from the setup cache
    (engine/lab/setup_cache.py), which keeps them by the content they are built from."""
    from avecaesar.engine.lab import setup_cache

    ruleset, variants, settings, course, house, edits = spec_key
    if edits:
        from avecaesar.engine.lab.edited import edited_board

        rules = _rules(ruleset, variants, settings, house)
        return _Setup((rules, edited_board(course, edits, rules)))
    found = setup_cache.load(spec_key)
    if found is not None:
        return _Setup(found, stored=len(found[1]._moves))
    from avecaesar.engine.core.board import Board
    from avecaesar.engine.course.load import contract_water, load_course

    rules = _rules(ruleset, variants, settings, house)
    c = load_course(course)  # as race_setup does, keeping the course for its includes
    if c.errors:
        raise InputError(c.errors)
    g = contract_water(c.graph) if rules.water_skipped else c.graph
    board = Board.from_graph(g, c.id)
    includes = list(c.model.includes)
    setup_cache.store(spec_key, rules, board, includes)
    return _Setup((rules, board), includes, 0)


def _store_warm(specs: Sequence[SimSpec]) -> None:
    """After races run in this process: keep each board with the walk tables they built, so
    the next process starts warm."""
    from avecaesar.engine.lab import setup_cache

    for spec in specs:
        key = _spec_key(spec)
        entry = _setup_entry(key)[0]
        rules, board = entry.pair
        if entry.stored is not None and len(board._moves) > entry.stored and not spec.edits:
            if entry.includes is None:
                from avecaesar.engine.course.load import load_course

                entry.includes = list(load_course(spec.course).model.includes)
            setup_cache.store(key, rules, board, entry.includes)
            entry.stored = len(board._moves)


@cache
def _rules(ruleset: str, variants: tuple[str, ...], settings: tuple[tuple[str, str], ...],
           house: str) -> RaceRules:
    """The race rules alone (an edited course's simulations share them)."""
    from avecaesar.engine.core.race_setup import ChosenRules

    return ChosenRules.compose(ruleset, variants, dict(settings),
                               json.loads(house) if house else None).race_rules


def _spec_key(spec: SimSpec) -> SpecKey:
    return (spec.ruleset, spec.variants, spec.settings, spec.course, spec.house, spec.edits)


def summarise_race(spec: SimSpec, index: int, heat: bool = False,
                   built: Built | None = None) -> RaceSummary:
    """Run race ``index`` of the simulation and summarise it (``heat``: count, per space,
    the turns chariots stood, were blocked and waited there; ``built``: the rules and
    board, when given)."""
    rules, board = built if built is not None else _setup(_spec_key(spec))
    seed = race_seed(spec.seed, index)
    names = [f"{spec.bots[i % len(spec.bots)]}-{i + 1}" for i in range(spec.players)]
    state, setup = new_race(rules, board, names, seed)
    state.log = False  # nobody reads the events here: push and skip build none (issue 13)
    seats = setup["seats"]
    kinds = [spec.bots[s % len(spec.bots)] for s in seats]
    policies = [make_policy(kind, seed + s, spec.bot_budget)
                for kind, s in zip(kinds, seats, strict=True)]
    # chariots that no player drives (ownerless): play_turn gives their turns to OWNERLESS
    n = state.game.chariots
    policies += [policies[0]] * (n - len(policies))
    kinds += [""] * (n - len(kinds))
    first = state.turn
    tally = race_to_end(state, policies, OWNERLESS, heat)
    result = outcome(state)
    places: list[int | None] = [None] * n
    finished = [False] * n
    dq = [False] * n
    removed = [False] * n
    points = [0] * n
    for placing in result.placings:
        places[placing.chariot] = placing.place
        finished[placing.chariot] = placing.finished
        dq[placing.chariot] = placing.disqualified
        removed[placing.chariot] = placing.removed
        points[placing.chariot] = placing.points
    reserve = tuple(sum(state.hands[c]) + sum(state.decks[c]) if finished[c] else None
                    for c in range(n))
    for c in range(n):  # still racing when the race ended (it ended without it)
        if not finished[c] and not tally.why[c]:
            tally.why[c] = "disqualified" if dq[c] else "still racing at the end"
            tally.lap[c] = min(state.lap(c), rules.laps)
            if dq[c] and heat:  # disqualified with no event of it: where it stands at the end
                tally.disqualified_at(state.pos[c])
    return RaceSummary(index, tuple(places), tuple(finished), tuple(removed), tuple(dq),
                       reserve, tally.changes, tally.turns, tally.six, tally.blocked,
                       tally.waits, result.termination,
                       tuple(state.game.is_ownerless(c) for c in range(n)),
                       tuple(sorted(tally.stood.items())),
                       tuple(sorted(tally.blocked_at.items())), tuple(points), tuple(kinds),
                       tuple(tally.lap), tuple(tally.why), first,
                       tuple(sorted(tally.waited_at.items())),
                       tuple(sorted(tally.dq_at.items())))


def _batch(spec: SimSpec, indices: Sequence[int], heat: bool,
           reads: dict[str, str] | None = None) -> list[RaceSummary]:
    key = _spec_key(spec)
    setup = _setup(key) if reads is None else _setup_as_read(key, reads)
    return [summarise_race(spec, i, heat, setup) for i in indices]


@dataclass
class PlaceStats:
    """Figures for one start place."""

    place: int
    races: int
    wins: int
    win_rate: float
    win_ci: tuple[float, float]
    mean_place: float | None
    not_finished: float  # share out of cards, disqualified or still racing at the end
    out_of_cards: float
    disqualified: float
    mean_reserve: float | None
    ownerless: bool = False  # driven by no player (it scores nothing)
    mean_points: float = 0.0
    points_ci: tuple[float, float] = (0.0, 0.0)

    def to_json(self) -> dict[str, Json]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


@dataclass
class SimReport:
    """The balance report of a simulation."""

    spec: SimSpec
    races: int
    by_place: list[PlaceStats]
    balance: float
    lead_changes: float
    turns_mean: float
    turns_min: int
    turns_max: int
    six_rule_skips: float
    blocked_skips: float
    alley_waits: float
    deadlocks: int
    stood: dict[int, int] = field(default_factory=dict)
    blocked_at: dict[int, int] = field(default_factory=dict)
    partial: bool = False  # stopped (Ctrl-C) before every race ran: ``races`` < spec.races
    waited_at: dict[int, int] = field(default_factory=dict)
    disqualified_at: dict[int, int] = field(default_factory=dict)  # space → chariots
    lead_changes_ci: tuple[float, float] = (0.0, 0.0)
    seat: SeatAdvantage | None = None
    attrition: list[JsonDict] = field(default_factory=list)
    lengths: list[tuple[int, int, int]] = field(default_factory=list)  # (from, to, races)
    skill: SkillTable | None = None
    heat: bool = False  # the per-space counts were kept (stood, blocked_at, waited_at,
    # disqualified_at)

    @property
    def deadlock_rate(self) -> float:
        """Share of the races that ended in deadlock."""
        return self.deadlocks / self.races if self.races else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            **({"partial": True, "races_planned": self.spec.races} if self.partial else {}),
            "spec": {**self.spec.__dict__, "variants": list(self.spec.variants),
                     "settings": dict(self.spec.settings), "bots": list(self.spec.bots)},
            "races": self.races,
            "by_start_place": [p.to_json() for p in self.by_place],
            "balance": self.balance,
            "spread": self.spread,
            "lead_changes_per_race": self.lead_changes,
            "lead_changes_ci": list(self.lead_changes_ci),
            "turns": {"mean": self.turns_mean, "min": self.turns_min, "max": self.turns_max,
                      "histogram": [{"from": a, "to": b, "races": n}
                                    for a, b, n in self.lengths]},
            "per_race": {"six_rule_skips": self.six_rule_skips,
                         "blocked_skips": self.blocked_skips, "alley_waits": self.alley_waits},
            "deadlocks": self.deadlocks,
            "deadlock_rate": self.deadlock_rate,
            "seat_advantage": self.seat.to_json() if self.seat else None,
            "attrition": self.attrition,
            "skill": self.skill.to_json() if self.skill else None,
            **({"spaces": _spaces_json(self)} if self.heat else {}),
        }

    @property
    def spread(self) -> float:
        """The largest gap in win rate between two start places (1 − balance)."""
        rates = [p.win_rate for p in self.by_place]
        return max(rates) - min(rates) if rates else 0.0


def _spaces_json(r: SimReport) -> list[dict[str, int]]:
    """Per space (id), the turns chariots stood, were blocked and waited there, and the
    chariots disqualified there."""
    spaces = sorted(set(r.stood) | set(r.blocked_at) | set(r.waited_at)
                    | set(r.disqualified_at))
    return [{"space": n, "stood": r.stood.get(n, 0), "blocked": r.blocked_at.get(n, 0),
             "waited": r.waited_at.get(n, 0), "disqualified": r.disqualified_at.get(n, 0)}
            for n in spaces]


def report(spec: SimSpec, summaries: Iterable[RaceSummary], heat: bool = False) -> SimReport:
    """Aggregate race summaries (in race order) into the report."""
    rows = sorted(summaries, key=lambda s: s.index)
    k = len(rows)
    by_place = []
    chariots = len(rows[0].places) if rows else spec.players
    for c in range(chariots):
        wins = sum(1 for r in rows if r.places[c] == 1)
        placed = [r.places[c] for r in rows if r.places[c] is not None]
        reserve = [r.reserve[c] for r in rows if r.reserve[c] is not None]
        ooc = sum(r.out_of_cards[c] for r in rows)
        dq = sum(r.disqualified[c] for r in rows)
        dnf = sum(1 for r in rows if not_finished(r, c))
        points = [r.points[c] for r in rows if r.points]
        by_place.append(PlaceStats(
            c + 1, k, wins, wins / k if k else 0.0, wilson_interval(wins, k),
            mean(placed),  # type: ignore[arg-type]
            dnf / k if k else 0.0, ooc / k if k else 0.0, dq / k if k else 0.0,
            mean(reserve),  # type: ignore[arg-type]
            bool(rows) and all(r.ownerless[c] for r in rows if r.ownerless),
            mean(points) or 0.0, mean_interval(points)))
    rates = [p.win_rate for p in by_place]
    balance = 1.0 - (max(rates) - min(rates)) if rates else 1.0
    stood = _sum_counts(r.stood for r in rows)
    blocked_at = _sum_counts(r.blocked_at for r in rows)
    turns = [r.turns for r in rows]
    changes = [r.lead_changes for r in rows]
    _rules, board = _setup(_spec_key(spec))
    front = start_rows(board.start_crossings[:chariots],
                       [board.progress[s] for s in board.start_places[:chariots]])
    return SimReport(
        spec, k, by_place, balance, mean(changes) or 0.0,
        mean(turns) or 0.0, min(turns, default=0), max(turns, default=0),
        mean([r.six_rule_skips for r in rows]) or 0.0,
        mean([r.blocked_skips for r in rows]) or 0.0,
        mean([r.alley_waits for r in rows]) or 0.0,
        sum(1 for r in rows if r.termination == "deadlock"), stood, blocked_at,
        waited_at=_sum_counts(r.waited_at for r in rows),
        disqualified_at=_sum_counts(r.disqualified_at for r in rows),
        lead_changes_ci=mean_interval(changes),
        seat=seat_advantage(rows, front) if rows else None,
        attrition=attrition(rows), lengths=length_histogram(turns),
        skill=skill_table(rows, spec.bots) if rows and rows[0].kinds else None,
        heat=heat)


def _sum_counts(per_race: Iterable[tuple[tuple[int, int], ...]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for counts in per_race:
        for n, v in counts:
            out[n] = out.get(n, 0) + v
    return dict(sorted(out.items()))


def simulate(spec: SimSpec, workers: int = 1, heat: bool = False,
             progress: Callable[[int], None] | None = None,
             cluster: str | None = None) -> SimReport:
    """Run ``spec.races`` races on ``workers`` processes (or a Dask cluster) and report.

    The races are cut into chunks; each chunk reports back as it completes and
    ``progress(done)`` is called with the number of races done so far. With ``cluster``
    (a Dask scheduler address such as ``tcp://10.0.0.5:8786``) the chunks run on that
    cluster's workers instead, which must have this package installed; see
    docs/simulation.md.
    """
    (summaries,), interrupted = run_many([spec], workers, heat, progress, cluster)
    return replace(report(spec, summaries, heat), partial=interrupted)


def run_many(specs: Sequence[SimSpec], workers: int = 1, heat: bool = False,
             progress: Callable[[int], None] | None = None,
             cluster: str | None = None, first: int = 0
             ) -> tuple[list[list[RaceSummary]], bool]:
    """The race summaries of every spec (each list in race order), run together on one pool
    of ``workers`` processes or on a Dask cluster, and whether Ctrl-C stopped them. Each spec
    races its races ``first`` to ``first + spec.races − 1`` (a verification that grows its
    races runs the next ones: the design assistant).

    Paired comparisons and the design assistant run several specs with the same seed: race
    ``i`` of each is dealt the same cards (common random numbers). One pool for all of them
    means one start-up, and the parent builds every spec's board before the workers fork.
    """
    # bad names fail here, in the caller's process, with a clear error; ``reads``: the files
    # each spec's rules and board were built from (a worker that finds one changed stops)
    reads = [_setup_read(_spec_key(spec))[1] for spec in specs]
    total = sum(s.races for s in specs)
    # Chunks: a worker takes the next one when it is done, so the last chunk running alone
    # is the only idle time on the other workers — about 32 per worker keep it to ~3 % of a
    # run (a few hundred bytes of summaries each way); a cluster has higher per-task costs.
    slots, per_slot = (workers, 32) if cluster is None else (64, 8)
    chunk = max(1, min(250, total // (max(1, slots) * per_slot) or 1))
    jobs = [(k, spec, range(first + i, first + min(i + chunk, spec.races)))
            for k, spec in enumerate(specs) for i in range(0, spec.races, chunk)]
    found: list[list[RaceSummary]] = [[] for _ in specs]
    done = [0]

    def collect(k: int, got: list[RaceSummary]) -> None:
        found[k].extend(got)
        done[0] += len(got)
        if progress:
            progress(done[0])

    interrupted = False
    if cluster is not None:
        interrupted = _on_cluster(cluster, jobs, heat, collect, reads)
    elif workers <= 1:
        try:
            for k, spec, ch in jobs:
                collect(k, _batch(spec, ch, heat, reads[k]))
        except KeyboardInterrupt:
            interrupted = True
        _store_warm(specs)
    else:
        interrupted = _on_processes(workers, jobs, heat, collect, reads)
    return [sorted(f, key=lambda s: s.index) for f in found], interrupted


Job = tuple[int, SimSpec, range]  # (which spec, the spec, the races of the chunk)


def _worker_init(parent: int) -> None:
    """In each worker: leave Ctrl-C and SIGHUP to the parent (it stops the workers), die
    quietly on SIGTERM (a forked worker would otherwise keep the parent's handler,
    editor/cli/signals.py, and raise; dying holds nothing up: the workers share no lock with
    the parent, engine/lab/workers.py), and exit as soon as the parent is gone, even after
    ``kill -9`` (no worker outlives its parent)."""
    import os
    import signal
    import threading
    import time

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def _run_chunk(job: tuple[int, SimSpec, list[int], bool, dict[str, str]]
               ) -> tuple[int, list[RaceSummary]]:
    k, spec, indices, heat, reads = job
    return k, _batch(spec, indices, heat, reads)


def _on_processes(workers: int, jobs: list[Job], heat: bool,
                  collect: Callable[[int, list[RaceSummary]], None],
                  reads: list[dict[str, str]]) -> bool:
    """Run the chunks on a pool of ``workers`` processes; on Ctrl-C stop the workers at once
    and return ``True`` (the races finished so far are collected)."""
    import multiprocessing
    import os
    import sys

    from avecaesar.engine.lab.workers import run_unordered

    # fork on Linux (the default there before Python 3.14, which takes forkserver): the
    # workers start with the rules and the board already built (``_setup``'s cache) and
    # nothing to import; elsewhere the platform's default (each worker builds them once)
    context = _quiet_context() if sys.platform == "linux" else multiprocessing.get_context()
    tasks = [(k, spec, list(ch), heat, reads[k]) for k, spec, ch in jobs]
    try:  # Ctrl-C while the workers start is a stop too (they watch for the parent)
        run_unordered(context, workers, _run_chunk, tasks, lambda done: collect(*done),
                      _worker_init, (os.getpid(),))
    except KeyboardInterrupt:
        return True
    return False


def _quiet_context() -> ForkContext:
    """The fork context with workers that exit without a word when the parent's pipe is
    gone (the parent stopped or killed while they send a result): no ``BrokenPipeError``
    traceback on the way down."""
    import multiprocessing.context as mp
    import os

    class QuietWorker(mp.ForkProcess):
        def run(self) -> None:
            try:
                super().run()
            except (BrokenPipeError, ConnectionResetError, EOFError):
                os._exit(0)

    class QuietFork(mp.ForkContext):
        Process = QuietWorker

    return QuietFork()


def _reachable(address: str) -> None:
    """Raise OSError at once when nothing listens at a ``tcp://host:port`` address (Dask's
    client would retry for its whole timeout before saying so)."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme == "tcp" and parts.hostname and parts.port:
        with socket.create_connection((parts.hostname, parts.port), timeout=10):
            pass


def _on_cluster(address: str, jobs: list[Job], heat: bool,
                collect: Callable[[int, list[RaceSummary]], None],
                reads: list[dict[str, str]]) -> bool:
    """Run the chunks on a Dask cluster (the optional ``dask`` extra); on Ctrl-C cancel
    them and return ``True`` (the races finished so far are collected). A worker whose copy
    of a file differs from what this process read stops the run (``_setup_as_read``)."""
    try:
        from distributed import Client, as_completed
    except ImportError as err:
        raise UsageError(
            "--cluster needs Dask: pip install -e '.[dask]' in the checkout (on this machine "
            "and on the cluster's workers)") from err
    try:
        _reachable(address)
        client = Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as err:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {err} — start "
                             "one with `dask scheduler` or check the address") from err
    try:
        futures = {client.submit(_batch, spec, list(ch), heat, reads[k], pure=False): k
                   for k, spec, ch in jobs}
        for fut in as_completed(list(futures)):
            collect(futures[fut], fut.result())
    except KeyboardInterrupt:
        client.cancel(list(futures))
        return True
    finally:
        client.close()
    return False
