"""Time per decision of each bot; prints p50, p95 and the maximum.

For each bot (``POLICIES``: expert, greedy, random, search), ``--races`` six-chariot races on
Hippodrom-Constantinople under the 2022 rules: the bot drives start place ``seed mod 6 + 1``
(so over the races it drives from every place), greedy bots the others. Each of the bot's
turns with a move is timed (``play_turn``: the choice and pushing the move; a skip is no
decision). Only the public API is used (``avecaesar.engine``), so the script keeps working
when the engine's insides change.

Target (issue 13): the search bot at most 100 ms per decision at the 95th percentile.

Run: .venv/bin/python bench/bench_decisions.py [--races 30] [--bots greedy,random,search]
"""

from __future__ import annotations

import argparse
import statistics
import time

from avecaesar import engine as ac


def decision_times(bot: str, races: int, ruleset: str, course: str) -> list[float]:
    """Seconds per decision of ``bot`` over ``races`` races (seeds 0, 1, …)."""
    rules, board = ac.race_setup(ruleset, [], {}, course)
    names = [f"c{i}" for i in range(6)]
    times: list[float] = []
    for seed in range(races):
        me = seed % 6
        state, _ = ac.new_race(rules, board, names, seed)
        policy = ac.make_policy(bot, seed)
        while not state.over:
            if state.turn == me:
                t0 = time.perf_counter()
                turn = ac.play_turn(state, policy, ac.OWNERLESS)
                if "move" in turn:
                    times.append(time.perf_counter() - t0)
            else:
                ac.play_turn(state, ac.greedy_policy, ac.OWNERLESS)
    return times


def percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * (len(sorted_values) - 1) + 0.5))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--races", type=int, default=30)
    ap.add_argument("--bots", default=",".join(ac.POLICIES))
    ap.add_argument("--ruleset", default="dicetree-2022")
    ap.add_argument("--course", default="dicetree-2022/hippodrom-constantinople")
    args = ap.parse_args()
    print(f"time per decision, {args.races} six-chariot races each, {args.ruleset} on "
          f"{args.course} (the bot on one start place, greedy on the others)")
    print(f"{'bot':8} {'decisions':>9} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} "
          f"{'mean ms':>8}")
    for bot in [b.strip() for b in args.bots.split(",") if b.strip()]:
        ts = sorted(decision_times(bot, args.races, args.ruleset, args.course))
        note = "  (target p95 ≤ 100 ms)" if bot == "search" else ""
        print(f"{bot:8} {len(ts):9} {1000 * percentile(ts, 0.5):8.2f} "
              f"{1000 * percentile(ts, 0.95):8.2f} {1000 * ts[-1]:8.2f} "
              f"{1000 * statistics.fmean(ts):8.2f}{note}")


if __name__ == "__main__":
    main()
