"""Where a six-expert race's time goes (issue 39, point 5: measure before choosing); prints it.

Races ``--races`` races of six expert bots on Hippodrom-Constantinople (2022) and prints
their CPU time per race (thread time: other jobs on a shared machine do not count), then
profiles one more race (cProfile) and prints the share of its time in each part of the
expert's decision: the rollouts as a whole, the turns played inside them (``play_out``,
compiled: legal moves, their effects and greedy's choices, one call a rollout since issue
39), the evaluation of their end positions (``value``), and the dealing of the hidden hands
(``deal``); and the decisions and rollouts behind them.

Run: .venv/bin/python bench/bench_expert_profile.py [--races 3] [--budget N]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from avecaesar.engine.lab.simulate import SimSpec, summarise_race

COURSE = "dicetree-2022/hippodrom-constantinople"
PARTS = [("expert.py", "__call__", "a decision (all of it)"),
         ("expert.py", "rollout", "rollouts"),
         ("", "play_out", "the rollouts' turns (compiled: moves, effects, greedy)"),
         ("expert.py", "value", "scoring rollout end positions"),
         ("information.py", "deal", "dealing hidden hands (worlds)")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--races", type=int, default=3)
    ap.add_argument("--budget", type=int, default=None)
    args = ap.parse_args()
    spec = SimSpec("dicetree-2022", COURSE, 6, args.races + 1, bots=("expert",),
                   bot_budget=args.budget)
    summarise_race(spec, 0)  # the board's walk tables warm
    times = []
    for i in range(1, args.races + 1):
        t0 = time.thread_time()
        summarise_race(spec, i)
        times.append(time.thread_time() - t0)
    print(f"six experts (budget {args.budget or 'default'}) on {COURSE}: CPU per race "
          + ", ".join(f"{t:.2f}" for t in times) + f" s; mean {sum(times) / len(times):.2f} s")
    prof = cProfile.Profile()
    prof.enable()
    summarise_race(spec, args.races + 1)
    prof.disable()
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    total = max(ct for (_f, _l, name), (_cc, _nc, _tt, ct, _c) in stats.items()
                if name == "summarise_race")
    print(f"one race profiled: {total:.1f} s under the profiler")
    for file, func, what in PARTS:
        hits = [(nc, ct) for (f, _l, name), (_cc, nc, _tt, ct, _c) in stats.items()
                if (name == func and f.endswith(file))
                or (not file and name.endswith(f".{func}>"))]  # a compiled function
        calls = max((nc for nc, _ct in hits), default=0)
        cum = max((ct for _nc, ct in hits), default=0.0)
        print(f"  {what:45} {100 * cum / total:5.1f} %  ({calls:,} calls)")


if __name__ == "__main__":
    main()
