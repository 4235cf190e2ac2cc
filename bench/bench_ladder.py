"""The skill ladder per edition (issue 39, point 3); prints it.

On one bundled board of each edition (its own rules, as many chariots as it seats) the
entrants — random, greedy, search and the expert at three budgets by default — race
``--races`` mixed races each (engine/lab/ladder.py: distinct entrants a race, seeded), rated
with OpenSkill's Plackett–Luce model; prints each ladder best first with every rung's mu,
sigma, races and wins, whether it stands more than two standard deviations above the next,
and the CPU time.

Run: .venv/bin/python bench/bench_ladder.py [--races 300] [--workers 2] [--seed 1]
     [--entrants random,greedy,search,expert:8,expert:32,expert:128] [--courses ID …]
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from dataclasses import replace

from avecaesar.editor.cli.simulate import format_ladder
from avecaesar.engine.lab.batch import batch_spec
from avecaesar.engine.lab.ladder import DEFAULT_LADDER, entrants, ladder, run_ladder_races

COURSES = ("ravensburger-1989/a-blue", "pro-ludo-2006/circus-maximus",
           "dicetree-2022/hippodrom-constantinople")


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--races", type=int, default=300)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--entrants", default=DEFAULT_LADDER)
    ap.add_argument("--courses", nargs="*", default=list(COURSES))
    args = ap.parse_args()
    field_ = entrants(args.entrants)
    print(f"skill ladder, {args.races} mixed races a board, entrants {args.entrants}; "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}", flush=True)
    for course in args.courses:
        spec, _notes = batch_spec(course, None, None, args.races, args.seed, ("greedy",))
        spec = replace(spec, races=args.races)
        t0, c0 = time.perf_counter(), cpu()
        lad = ladder(spec, field_, run_ladder_races(spec, field_, args.workers))
        print("", format_ladder(lad), f"{time.perf_counter() - t0:.0f} s wall, "
              f"{cpu() - c0:.0f} s CPU", sep="\n", flush=True)


if __name__ == "__main__":
    main()
