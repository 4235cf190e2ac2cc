"""The expert bot's strength and speed: win rates with 95 % Wilson intervals, CPU time per
decision, and the same seed replaying the same game.

For each edition on its default course (the course of race 1 in its course rotation for
four players) and each opponent kind (``--against``: greedy, search), ``--races`` four-chariot
races: one chariot driven by the bot under test, three by the opponent kind. Race ``i`` uses
seed ``i`` and puts the bot on start place ``i mod 4 + 1``, so it drives from every place
equally often and the start-place advantage cancels. A win is first place, not
disqualified. Printed per edition and opponent: wins/N, the rate and its 95 % Wilson
interval (an equal bot wins 1/4), mean points, the bot's disqualifications, wins by start
place; before them, the CPU time of a race of six such bots on Hippodrom-Constantinople
(``--six`` races, thread time: the figure issue 39 asks ≤ 0.4 s of); then the bot's CPU
time per decision (thread time, so other jobs on a shared machine do not count), p50 /
p95 / max over every decision with a choice to make; and whether race 0 replays move for
move with the same seed.

Run: .venv/bin/python bench/bench_expert.py [--bot expert] [--races 1000] \
    [--against greedy,search] [--editions dicetree-2022,pro-ludo-2006,ravensburger-1989] \
    [--workers 2] [--budget N] [--tune name=value ...] [--six 6]
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from typing import Any

from avecaesar.engine.bots.registry import OWNERLESS, find_bot
from avecaesar.engine.core.race import new_race, outcome, play_turn
from avecaesar.engine.core.race_setup import race_setup

#: each edition's default course: race 1 of its course rotation (1989: for 3-4 players)
COURSES = {"dicetree-2022": "dicetree-2022/arena-carthago",
           "pro-ludo-2006": "pro-ludo-2006/circus-maximus",
           "ravensburger-1989": "ravensburger-1989/a-white"}
CHARIOTS = 4


def make_bot(name: str, seed: int, budget: int | None, tune: dict[str, float]) -> Any:
    bot = find_bot(name)
    if budget is None and not tune:
        return bot.make(seed)
    module, _, attr = bot.factory.partition(":")
    from importlib import import_module

    factory = getattr(import_module(module), attr)
    return factory(seed, budget=budget, **tune) if budget is not None else factory(seed, **tune)


@cache
def setup(edition: str) -> Any:
    """Rules and board, once per process (the bots' tables are kept per board)."""
    return race_setup(edition, [], {}, COURSES[edition])


def race(edition: str, bot: str, against: str, seed: int, budget: int | None,
         tune: dict[str, float]) -> tuple[int, int, list[float], str, int, int]:
    """One race: (won, the bot's points, its CPU seconds per decision, final notation,
    disqualified, seed)."""
    rules, board = setup(edition)
    place = seed % CHARIOTS
    state, _ = new_race(rules, board, [f"c{i}" for i in range(CHARIOTS)], seed)
    state.log = False
    strong = make_bot(bot, seed, budget, tune)
    others = [find_bot(against).make(seed * 10 + i) for i in range(CHARIOTS)]
    times: list[float] = []
    while not state.over:
        c = state.turn
        if c == place:
            t0 = time.thread_time()
            turn = play_turn(state, strong, OWNERLESS)
            if "move" in turn and turn["legal"] > 1:
                times.append(time.thread_time() - t0)
        else:
            play_turn(state, others[c], OWNERLESS)
    me = next(p for p in outcome(state).placings if p.chariot == place)
    return (int(me.place == 1 and not me.disqualified), me.points, times, state.notation(),
            int(me.disqualified), seed)


#: where the six-bot races are timed (the course of the ``simulate`` figures)
SIX_COURSE = "dicetree-2022/hippodrom-constantinople"


def six_race(args: tuple[str, int, int | None, dict[str, float]]) -> float:
    """The CPU (thread) time of one race of six ``bot`` bots on :data:`SIX_COURSE`."""
    bot, seed, budget, tune = args
    rules, board = race_setup("dicetree-2022", [], {}, SIX_COURSE)
    state, _ = new_race(rules, board, [f"c{i}" for i in range(6)], seed)
    state.log = False
    bots = [make_bot(bot, seed * 10 + i, budget, tune) for i in range(6)]
    play_turn(state.copy(), bots[0], OWNERLESS)  # the board's tables warm, untimed
    t0 = time.thread_time()
    while not state.over:
        play_turn(state, bots[state.turn], OWNERLESS)
    return time.thread_time() - t0


def chunk(args: tuple[str, str, str, list[int], int | None, dict[str, float]]
          ) -> list[tuple[int, int, list[float], str, int, int]]:
    edition, bot, against, seeds, budget, tune = args
    return [race(edition, bot, against, s, budget, tune) for s in seeds]


def by_place(results: list[tuple[int, int, list[float], str, int, int]]) -> str:
    """Wins per start place (place ``seed mod 4 + 1``), e.g. ``1: 45/75 2: 52/75 …``."""
    won = [0] * CHARIOTS
    ran = [0] * CHARIOTS
    for r in results:
        won[r[5] % CHARIOTS] += r[0]
        ran[r[5] % CHARIOTS] += 1
    return " ".join(f"{p + 1}: {won[p]}/{ran[p]}" for p in range(CHARIOTS))


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return mid - half, mid + half


def pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * (len(values) - 1) + 0.5))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="expert")
    ap.add_argument("--races", type=int, default=1000)
    ap.add_argument("--against", default="greedy,search")
    ap.add_argument("--editions", default=",".join(COURSES))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--budget", type=int, default=None)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--tune", action="append", default=[])
    ap.add_argument("--six", type=int, default=6,
                    help="six-bot races timed on Hippodrom-Constantinople (0: none)")
    args = ap.parse_args()
    tune = {k: float(v) for k, v in (t.split("=") for t in args.tune)}
    seeds = list(range(args.first_seed, args.first_seed + args.races))
    all_times: list[float] = []
    t_wall = time.perf_counter()
    print(f"{args.bot} (budget {args.budget or 'default'}{', ' + str(tune) if tune else ''}) "
          f"against 3 bots of one kind, {args.races} four-chariot races each, seeds "
          f"{seeds[0]}..{seeds[-1]}, the bot rotating through the start places")
    print(f"{'edition':18} {'course':32} {'against':8} {'wins/N':>10} {'rate':>6} "
          f"{'95 % interval':>14} {'points':>6} {'disq.':>5}")
    with ProcessPoolExecutor(args.workers) as pool:
        if args.six:
            six = sorted(pool.map(six_race, [(args.bot, 1000 + i, args.budget, tune)
                                             for i in range(args.six)]))
            print(f"six {args.bot} bots, {args.six} races on {SIX_COURSE}: CPU per race "
                  f"mean {sum(six) / len(six):.2f} s, median {six[len(six) // 2]:.2f} s "
                  f"(thread time; target ≤ 0.4 s), races {', '.join(f'{t:.2f}' for t in six)}",
                  flush=True)
        for against in [a for a in args.against.split(",") if a]:
            for edition in [e for e in args.editions.split(",") if e]:
                parts = [(edition, args.bot, against, seeds[i::args.workers * 6], args.budget,
                          tune) for i in range(args.workers * 6)]
                results = sorted((r for part in pool.map(chunk, parts) for r in part),
                                 key=lambda r: r[4])
                wins = sum(r[0] for r in results)
                n = len(results)
                lo, hi = wilson(wins, n)
                all_times.extend(t for r in results for t in r[2])
                print(f"{edition:18} {COURSES[edition]:32} {against:8} {wins:>5}/{n:<4} "
                      f"{wins / n:6.1%} {lo:6.1%}–{hi:6.1%} "
                      f"{sum(r[1] for r in results) / n:6.2f} {sum(r[4] for r in results):>5}"
                      f"  by start place: {by_place(results)}", flush=True)
    ts = sorted(all_times)
    print(f"CPU time per decision ({len(ts)} decisions with a choice): p50 "
          f"{1000 * pct(ts, 0.5):.1f} ms, p95 {1000 * pct(ts, 0.95):.1f} ms, max "
          f"{1000 * ts[-1]:.1f} ms (target p95 ≤ 50 ms)")
    edition = next(e for e in args.editions.split(",") if e)
    again = [race(edition, args.bot, "greedy", seeds[0], args.budget, tune)[3]
             for _ in range(2)]
    print(f"same seed, same game ({edition}, seed {seeds[0]}, twice): "
          f"{'yes' if again[0] == again[1] else 'NO'}")
    print(f"wall {time.perf_counter() - t_wall:.0f} s with {args.workers} workers")


if __name__ == "__main__":
    main()
