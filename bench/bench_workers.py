"""Benchmark ``simulate`` on 1 and 2 worker processes; prints its figures.

Each run is a fresh process that calls ``engine.lab.simulate.simulate`` (six greedy
chariots or ``--bots``, Hippodrom-Constantinople, 2022 rules) and reports its wall time and
the CPU time of the process and its workers (user + system). Runs alternate 1, 2, 1, 2, …
so that the load of a shared machine falls on both alike; the median of each is printed, with:

- races/s on 1 and on 2 workers (wall) and their ratio — the speed-up (target ≥ 1.8 on
  2 idle cores, issue 13);
- the CPU ratio (CPU of 2 workers / CPU of 1): the work the second process adds (pool
  start-up, each worker's own tables, pickling). With ``cpu ratio`` r and an even split,
  2 idle cores give at most 2 / r; a busy machine shows a lower wall ratio than that;
- whether the two reports are byte-identical (``to_json``).

Run: .venv/bin/python bench/bench_workers.py [--races 2000] [--rounds 3] [--bots expert]
    [--budget N]

``--bots expert`` (issue 39): the same for six expert bots, whose races cost seconds each
(``--races 60`` is enough to see the ratio).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
from avecaesar.engine.lab.simulate import SimSpec, simulate
races, workers, bots = int(sys.argv[1]), int(sys.argv[2]), tuple(sys.argv[3].split(","))
budget = int(sys.argv[4]) if sys.argv[4] != "-" else None
spec = SimSpec("dicetree-2022", "dicetree-2022/hippodrom-constantinople", 6, races, 1,
               bots=bots, bot_budget=budget)
def cpu():
    a = resource.getrusage(resource.RUSAGE_SELF)
    b = resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime
c0, t0 = cpu(), time.perf_counter()
report = simulate(spec, workers=workers)
wall, used = time.perf_counter() - t0, cpu() - c0
print(json.dumps({"wall": wall, "cpu": used,
                  "report": json.dumps(report.to_json(), sort_keys=True)}))
"""


def run(races: int, workers: int, bots: str, budget: int | None) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", CHILD, str(races), str(workers), bots,
                          "-" if budget is None else str(budget)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--races", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--bots", default="greedy", help="as simulate --bots (e.g. expert)")
    ap.add_argument("--budget", type=int, default=None, help="as simulate --bot-budget")
    args = ap.parse_args()
    print(f"simulate {args.races} races, 6 chariots ({args.bots}), budget "
          f"{args.budget or 'default'}, Hippodrom-Constantinople, 2022; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start")
    runs: dict[int, list[dict[str, object]]] = {1: [], 2: []}
    for r in range(args.rounds):
        for w in (1, 2):
            got = run(args.races, w, args.bots, args.budget)
            runs[w].append(got)
            print(f"  round {r + 1}, {w} worker{'s' if w > 1 else ' '}: "
                  f"{got['wall']:6.2f} s wall, {got['cpu']:6.2f} s CPU")
    wall = {w: statistics.median(float(x["wall"]) for x in runs[w]) for w in runs}  # type: ignore[arg-type]
    cpu = {w: statistics.median(float(x["cpu"]) for x in runs[w]) for w in runs}  # type: ignore[arg-type]
    reports = {str(x["report"]) for w in runs for x in runs[w]}
    for w in (1, 2):
        print(f"{w} worker{'s' if w > 1 else ' '}: {args.races / wall[w]:7.1f} races/s "
              f"(median wall {wall[w]:.2f} s, CPU {cpu[w]:.2f} s)")
    print(f"speed-up, 2 workers / 1: {wall[1] / wall[2]:.2f}x wall (target ≥ 1.8 on 2 idle "
          f"cores); CPU ratio {cpu[2] / cpu[1]:.3f} (bound on 2 idle cores: "
          f"{2 * cpu[1] / cpu[2]:.2f}x)")
    print(f"reports byte-identical across all runs: {'yes' if len(reports) == 1 else 'NO'}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
