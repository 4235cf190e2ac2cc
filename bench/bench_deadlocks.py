"""How often seeded races end in deadlock, per edition; prints its figures (issue 10).

Each edition races on its own bundled courses in turn (race i on course i mod n, seed i),
2, 3 and 6 chariots (each a run of its own), every chariot the same bot: 3,000 greedy races
and 3,000 random races per edition and chariot count by default. Target: 0 deadlocks with
greedy bots, under 0.1 % with random bots.

Run: .venv/bin/python bench/bench_deadlocks.py [--races 3000] [--bots greedy,random]
[--chariots 2,3,6] [--editions pro-ludo-2006]
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
    ap.add_argument("--chariots", default="2,3,6",
                    help="chariot counts, comma-separated (each a run of its own)")
    ap.add_argument("--editions", default=",".join(EDITIONS))
    args = ap.parse_args()
    for edition in args.editions.split(","):
        courses = [c for c in bundled_ids() if c.startswith(edition + "/")]
        for chariots in (int(x) for x in args.chariots.split(",")):
            for bot in args.bots.split(","):
                t0 = time.perf_counter()
                n = count_deadlocks(edition, courses, bot, args.races, chariots)
                dt = time.perf_counter() - t0
                seeds = ", ".join(f"{c} seed {s}" for c, s in n.deadlocked[:5])
                print(f"{edition:18} {bot:6} {n.races} races on {len(courses)} courses, "
                      f"{chariots} chariots: {n.deadlocks} deadlocks ({n.rate:.2%})"
                      f"  [{dt:.0f} s]" + (f"  e.g. {seeds}" if seeds else ""), flush=True)


if __name__ == "__main__":
    main()
