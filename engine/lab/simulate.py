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
from typing import Any

from avecaesar.engine.bots.registry import OWNERLESS, make_policy
from avecaesar.engine.core.race import new_race, outcome, play_turn
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.data.content_memo import ContentMemo
from avecaesar.engine.data.errors import InputError, Problem, UsageError
from avecaesar.engine.lab.stats import mean, wilson_interval

__all__ = ["RaceSummary", "SimReport", "SimSpec", "race_seed", "simulate", "summarise_race"]


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
    bot_budget: int | None = None  # --bot-budget: for the bots that take one


@dataclass(frozen=True)
class RaceSummary:
    """What one race contributes to the report (small and picklable)."""

    index: int
    places: tuple[int | None, ...]  # per start place (chariot i stands on place i + 1)
    finished: tuple[bool, ...]
    out_of_cards: tuple[bool, ...]
    disqualified: tuple[bool, ...]
    reserve: tuple[int | None, ...]  # points left in hand and deck at the finish
    lead_changes: int
    turns: int
    six_rule_skips: int
    blocked_skips: int
    alley_waits: int
    termination: str
    ownerless: tuple[bool, ...] = ()  # per start place: a chariot no player drives
    stood: tuple[tuple[int, int], ...] = ()  # (space, turns a chariot stood there)
    blocked_at: tuple[tuple[int, int], ...] = ()  # (space, turns a chariot was stuck there)


def race_seed(seed: int, index: int) -> int:
    """The seed of race ``index``: a hash of both, independent of workers and order."""
    digest = hashlib.sha256(f"avecaesar-sim:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


# rules and boards by spec, each kept with the digests of the files it was built from
# (engine/data/content_memo.py): a course file saved between two simulations of a server
# or a notebook is read again, never answered from the old board
_SETUPS: ContentMemo[tuple[Any, Any]] = ContentMemo(16)


def _build(spec_key: tuple[Any, ...]) -> tuple[Any, Any]:
    ruleset, variants, settings, course, *rest = spec_key  # rest: the house rules (JSON)
    house = rest[0] if rest else ""
    return race_setup(ruleset, variants, dict(settings), course,
                      json.loads(house) if house else None)


def _setup(spec_key: tuple[Any, ...]) -> tuple[Any, Any]:
    """Rules and board for a spec, built once per content of the files they are read from."""
    return _setup_read(spec_key)[0]


def _setup_read(spec_key: tuple[Any, ...]) -> tuple[tuple[Any, Any], dict[str, str]]:
    return _SETUPS.get(spec_key, lambda: _build(spec_key))


def _setup_as_read(spec_key: tuple[Any, ...], reads: dict[str, str]) -> tuple[Any, Any]:
    """Rules and board built from exactly the files the simulation started with (``reads``:
    their digests): a forked worker uses its parent's as they are; a worker that builds its
    own and finds a file changed stops the simulation rather than mix two courses in one
    report."""
    kept = _SETUPS.kept(spec_key, reads)
    if kept is not None:
        return kept
    value, now = _setup_read(spec_key)
    # (a file only one side read was read once per process, into a cache of its own: the
    # bundled ruleset catalogue)
    changed = sorted(f for f in reads.keys() & now.keys() if reads[f] != now[f])
    if changed:
        raise InputError([Problem(f, 1, 1, "changed while the simulation ran — run it again "
                                  "once the file is saved") for f in changed])
    return value


def _spec_key(spec: SimSpec) -> tuple[Any, ...]:
    return (spec.ruleset, spec.variants, spec.settings, spec.course, spec.house)


def summarise_race(spec: SimSpec, index: int, heat: bool = False,
                   built: tuple[Any, Any] | None = None) -> RaceSummary:
    """Run race ``index`` of the simulation and summarise it (on ``built``, the rules and
    board, when given)."""
    rules, board = built if built is not None else _setup(_spec_key(spec))
    seed = race_seed(spec.seed, index)
    names = [f"{spec.bots[i % len(spec.bots)]}-{i + 1}" for i in range(spec.players)]
    state, setup = new_race(rules, board, names, seed)
    state.log = False  # nobody reads the events here: push and skip build none (issue 13)
    seats = setup["seats"]
    policies = [make_policy(spec.bots[s % len(spec.bots)], seed + s, spec.bot_budget)
                for s in seats]
    # chariots that no player drives (ownerless): play_turn gives their turns to OWNERLESS
    policies += [policies[0]] * (state.game.chariots - len(policies))
    stood: dict[int, int] = {}
    blocked_at: dict[int, int] = {}
    six = blocked = waits = changes = turns = 0
    leader: int | None = None
    limit = 20_000
    while not state.over and turns < limit:
        c = state.turn
        turn = play_turn(state, policies[c], OWNERLESS)
        turns += 1
        reason = turn.get("skip")
        if reason == "six_rule":
            six += 1
        elif reason == "blocked":
            blocked += 1
            at = state.pos[c]
            if heat and at is not None:
                blocked_at[at] = blocked_at.get(at, 0) + 1
        elif reason == "alley_blocked" or ("move" in turn and turn["move"].card == 0):
            waits += 1
        leaders = state.leaders() if not state.over else []
        if len(leaders) == 1 and leaders[0] != leader:
            if leader is not None:
                changes += 1
            leader = leaders[0]
        if heat:
            for space in state.pos:
                if space is not None:
                    stood[space] = stood.get(space, 0) + 1
    result = outcome(state)
    n = state.game.chariots
    places: list[int | None] = [None] * n
    finished = [False] * n
    dq = [False] * n
    removed = [False] * n
    for placing in result.placings:
        places[placing.chariot] = placing.place
        finished[placing.chariot] = placing.finished
        dq[placing.chariot] = placing.disqualified
        removed[placing.chariot] = placing.removed
    reserve = tuple(sum(state.hands[c]) + sum(state.decks[c]) if finished[c] else None
                    for c in range(n))
    return RaceSummary(index, tuple(places), tuple(finished), tuple(removed), tuple(dq),
                       reserve, changes, turns, six, blocked, waits, result.termination,
                       tuple(state.game.is_ownerless(c) for c in range(n)),
                       tuple(sorted(stood.items())), tuple(sorted(blocked_at.items())))


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
    not_finished: float  # share out of cards or disqualified
    out_of_cards: float
    disqualified: float
    mean_reserve: float | None
    ownerless: bool = False  # driven by no player (it scores nothing)

    def to_json(self) -> dict[str, Any]:
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

    @property
    def deadlock_rate(self) -> float:
        """Share of the races that ended in deadlock."""
        return self.deadlocks / self.races if self.races else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            **({"partial": True, "races_planned": self.spec.races} if self.partial else {}),
            "spec": {**self.spec.__dict__, "variants": list(self.spec.variants),
                     "settings": dict(self.spec.settings), "bots": list(self.spec.bots)},
            "races": self.races,
            "by_start_place": [p.to_json() for p in self.by_place],
            "balance": self.balance,
            "lead_changes_per_race": self.lead_changes,
            "turns": {"mean": self.turns_mean, "min": self.turns_min, "max": self.turns_max},
            "per_race": {"six_rule_skips": self.six_rule_skips,
                         "blocked_skips": self.blocked_skips, "alley_waits": self.alley_waits},
            "deadlocks": self.deadlocks,
            "deadlock_rate": self.deadlock_rate,
        }


def report(spec: SimSpec, summaries: Iterable[RaceSummary]) -> SimReport:
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
        dnf = sum(1 for r in rows if r.out_of_cards[c] or r.disqualified[c]
                  or not r.finished[c])
        by_place.append(PlaceStats(
            c + 1, k, wins, wins / k if k else 0.0, wilson_interval(wins, k),
            mean(placed),  # type: ignore[arg-type]
            dnf / k if k else 0.0, ooc / k if k else 0.0, dq / k if k else 0.0,
            mean(reserve),  # type: ignore[arg-type]
            bool(rows) and all(r.ownerless[c] for r in rows if r.ownerless)))
    rates = [p.win_rate for p in by_place]
    balance = 1.0 - (max(rates) - min(rates)) if rates else 1.0
    stood: dict[int, int] = {}
    blocked_at: dict[int, int] = {}
    for r in rows:
        for n, v in r.stood:
            stood[n] = stood.get(n, 0) + v
        for n, v in r.blocked_at:
            blocked_at[n] = blocked_at.get(n, 0) + v
    turns = [r.turns for r in rows]
    return SimReport(
        spec, k, by_place, balance,
        mean([r.lead_changes for r in rows]) or 0.0,
        mean(turns) or 0.0, min(turns, default=0), max(turns, default=0),
        mean([r.six_rule_skips for r in rows]) or 0.0,
        mean([r.blocked_skips for r in rows]) or 0.0,
        mean([r.alley_waits for r in rows]) or 0.0,
        sum(1 for r in rows if r.termination == "deadlock"), stood, blocked_at)


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
    # bad names fail here, in the caller's process, with a clear error; every chunk runs on
    # the rules and board of these files' content (``reads``)
    reads = _setup_read(_spec_key(spec))[1]
    # Chunks: a worker takes the next one when it is done, so the last chunk running alone
    # is the only idle time on the other workers — about 32 per worker keep it to ~3 % of a
    # run (a few hundred bytes of summaries each way); a cluster has higher per-task costs.
    slots, per_slot = (workers, 32) if cluster is None else (64, 8)
    chunk = max(1, min(250, spec.races // (max(1, slots) * per_slot) or 1))
    chunks = [range(i, min(i + chunk, spec.races)) for i in range(0, spec.races, chunk)]
    summaries: list[RaceSummary] = []
    interrupted = False
    if cluster is not None:
        summaries, interrupted = _on_cluster(cluster, spec, chunks, heat, progress, reads)
    elif workers <= 1:
        try:
            for ch in chunks:
                summaries.extend(_batch(spec, ch, heat, reads))
                if progress:
                    progress(len(summaries))
        except KeyboardInterrupt:
            interrupted = True
    else:
        summaries, interrupted = _on_processes(workers, spec, chunks, heat, progress, reads)
    return replace(report(spec, summaries), partial=interrupted)


def _worker_init(parent: int) -> None:
    """In each worker: leave Ctrl-C and SIGHUP to the parent (it stops the pool), die
    quietly on SIGTERM (how the pool stops a worker; a forked worker would otherwise keep
    the parent's handler, editor/cli/signals.py, and raise), and exit as soon as the parent
    is gone, even after ``kill -9`` (no worker outlives its parent)."""
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


def _run_chunk(job: tuple[SimSpec, list[int], bool, dict[str, str]]) -> list[RaceSummary]:
    return _batch(*job)


def _on_processes(workers: int, spec: SimSpec, chunks: list[range], heat: bool,
                  progress: Callable[[int], None] | None,
                  reads: dict[str, str]) -> tuple[list[RaceSummary], bool]:
    """Run the chunks on a pool of ``workers`` processes; on Ctrl-C stop the workers at once
    and return the races finished so far, with ``True``."""
    import multiprocessing
    import os
    import sys

    summaries: list[RaceSummary] = []
    # fork on Linux (the default there before Python 3.14, which takes forkserver): the
    # workers start with the rules and the board already built (``_setup``'s cache) and
    # nothing to import; elsewhere the platform's default (each worker builds them once)
    context = _quiet_context() if sys.platform == "linux" else multiprocessing.get_context()
    pool = context.Pool(min(workers, len(chunks)), _worker_init,
                                               (os.getpid(),))
    try:
        for done in pool.imap_unordered(_run_chunk, [(spec, list(ch), heat, reads)
                                                    for ch in chunks]):
            summaries.extend(done)
            if progress:
                progress(len(summaries))
    except KeyboardInterrupt:
        pool.terminate()
        return summaries, True
    finally:
        pool.terminate()
        pool.join()
    return summaries, False


def _quiet_context() -> Any:
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


def _on_cluster(address: str, spec: SimSpec, chunks: list[range], heat: bool,
                progress: Callable[[int], None] | None,
                reads: dict[str, str]) -> tuple[list[RaceSummary], bool]:
    """Run the chunks on a Dask cluster (the optional ``dask`` extra); on Ctrl-C cancel
    them and return the races finished so far, with ``True``. A worker whose copy of a
    file differs from what this process read stops the run (``_setup_as_read``)."""
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
    summaries: list[RaceSummary] = []
    try:
        futures = [client.submit(_batch, spec, list(ch), heat, reads, pure=False) for ch in chunks]
        for fut in as_completed(futures):
            summaries.extend(fut.result())
            if progress:
                progress(len(summaries))
    except KeyboardInterrupt:
        client.cancel(futures)
        return summaries, True
    finally:
        client.close()
    return summaries, False
