"""Measure a stronger bot against greedy opponents; prints its win rate and time per decision.

Each race has N chariots (default 4): one driven by the bot under test, the others by
greedy. Race ``i`` uses seed ``i`` and puts the bot on start place ``i mod N + 1``, so over
the races it drives from every place equally often and the start-place advantage cancels.
A win is first place (not disqualified). The win rate is printed with its 95 % Wilson
interval next to the expected share 1/N of an equal bot, together with the mean points of
the bot and of a greedy chariot, and the bot's mean and 95th-percentile time per decision
(decisions with a single distinct move included).

Run: .venv/bin/python bench/bench_bots.py [--bot search] [--races 1000] [--chariots 4] \
    [--ruleset dicetree-2022] [--course dicetree-2022/hippodrom-constantinople] [--workers 2]
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor

from avecaesar.engine.bots.policies import greedy_policy
from avecaesar.engine.bots.registry import make_policy
from avecaesar.engine.core.board import Board
from avecaesar.engine.core.race import new_race, outcome, play_turn
from avecaesar.engine.core.ruleset_adapter import rules_from_ruleset
from avecaesar.engine.course.load import load_course
from avecaesar.engine.ruleset.load import load_ruleset

# The figures in docs were measured with keeps_place true for 1989 and 2006 (then an open
# value; the editions now read it as false): kept so that the figures stay comparable.
SETTINGS = {"ravensburger-1989": {"disqualification.keeps_place": "true"},
            "pro-ludo-2006": {"disqualification.keeps_place": "true"}}


def run_chunk(args: tuple[str, str, str, int, list[int]]) -> list[tuple[int, int, int,
                                                                         list[float]]]:
    """Races for the given seeds: (won, bot points, greedy points summed, decision times)."""
    ruleset, course, bot, n, seeds = args
    rules = rules_from_ruleset(load_ruleset(ruleset, [], SETTINGS.get(ruleset, {})))
    c = load_course(course)
    board = Board.from_graph(c.graph, c.id)
    out = []
    for seed in seeds:
        place = seed % n
        state, _setup = new_race(rules, board, [f"c{i}" for i in range(n)], seed)
        strong = make_policy(bot, seed)
        times: list[float] = []
        while not state.over:
            if state.turn == place:
                t0 = time.perf_counter()
                t = play_turn(state, strong, greedy_policy)
                if "move" in t:  # a decision (a skip is no decision)
                    times.append(time.perf_counter() - t0)
            else:
                play_turn(state, greedy_policy, greedy_policy)
        result = {p.chariot: p for p in outcome(state).placings}
        me = result[place]
        won = int(me.place == 1 and not me.disqualified)
        others = sum(p.points for c_, p in result.items() if c_ != place)
        out.append((won, me.points, others, times))
    return out


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return mid - half, mid + half


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bot", default="search")
    ap.add_argument("--races", type=int, default=1000)
    ap.add_argument("--chariots", type=int, default=4)
    ap.add_argument("--ruleset", default="dicetree-2022")
    ap.add_argument("--course", default="dicetree-2022/hippodrom-constantinople")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    n = args.chariots
    seeds = list(range(args.races))
    chunks = [(args.ruleset, args.course, args.bot, n, seeds[i::args.workers * 8])
              for i in range(args.workers * 8)]
    t0 = time.perf_counter()
    results = []
    with ProcessPoolExecutor(args.workers) as pool:
        for part in pool.map(run_chunk, chunks):
            results.extend(part)
    wall = time.perf_counter() - t0
    races = len(results)
    wins = sum(r[0] for r in results)
    lo, hi = wilson(wins, races)
    times = sorted(t for r in results for t in r[3])
    mean_ms = 1000 * sum(times) / len(times)
    p95_ms = 1000 * times[int(0.95 * (len(times) - 1))]
    print(f"{args.bot} vs {n - 1} greedy, {args.ruleset} on {args.course}, {races} races "
          f"(seeds 0..{races - 1}, the bot rotating through the {n} start places)")
    print(f"win rate {wins / races:.1%} ({wins}/{races}), 95 % interval "
          f"{lo:.1%}–{hi:.1%}; an equal bot would win 1/{n} = {1 / n:.1%}")
    print(f"mean points: bot {sum(r[1] for r in results) / races:.2f}, greedy "
          f"{sum(r[2] for r in results) / races / (n - 1):.2f}")
    print(f"time per decision: mean {mean_ms:.1f} ms, 95th percentile {p95_ms:.1f} ms "
          f"({len(times)} decisions); wall {wall:.0f} s with {args.workers} workers")


if __name__ == "__main__":
    main()
