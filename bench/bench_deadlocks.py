"""How often seeded races end in deadlock, per edition; prints its figures (issue 10).

Each edition races on its own bundled courses in turn (race i on course i mod n, seed i),
6 chariots, every chariot the same bot: 3,000 greedy races and 3,000 random races per
edition by default. Target: 0 deadlocks with greedy bots, under 0.1 % with random bots.

Run: .venv/bin/python bench/bench_deadlocks.py [--races 3000] [--bots greedy,random]
"""

from __future__ import annotations

import argparse
import time

from avecaesar.engine.course.load import _bundled_ids as bundled_ids
from avecaesar.engine.lab.deadlocks import count_deadlocks

EDITIONS = ("ravensburger-1989", "pro-ludo-2006", "dicetree-2022")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--races", type=int, default=3000)
    ap.add_argument("--bots", default="greedy,random")
    ap.add_argument("--chariots", type=int, default=6)
    args = ap.parse_args()
    for edition in EDITIONS:
        courses = [c for c in bundled_ids() if c.startswith(edition + "/")]
        for bot in args.bots.split(","):
            t0 = time.perf_counter()
            n = count_deadlocks(edition, courses, bot, args.races, args.chariots)
            dt = time.perf_counter() - t0
            seeds = ", ".join(f"{c} seed {s}" for c, s in n.deadlocked[:5])
            print(f"{edition:18} {bot:6} {n.races} races on {len(courses)} courses, "
                  f"{args.chariots} chariots: {n.deadlocks} deadlocks ({n.rate:.2%})"
                  f"  [{dt:.0f} s]" + (f"  e.g. {seeds}" if seeds else ""), flush=True)


if __name__ == "__main__":
    main()
