"""``avecaesar balance`` over every bundled course, timed; prints its figures (issue 24).

Runs the command as a user would — all 22 bundled courses (both directions), each under its
own edition's rules with greedy bots and as many players as it seats, ``--races`` races each,
with ``--report-dir`` (every course's HTML report written, heat maps counted) — and prints
the wall time, the CPU time of the command and its workers, and the ranking it printed.
Target: ≤ 10 minutes on 2 cores.

Run: .venv/bin/python bench/bench_balance.py [--races 2000] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent / "avecaesar"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--races", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    out = Path(tempfile.mkdtemp(prefix="avecaesar-balance-"))
    print(f"avecaesar balance: every bundled course, {args.races} greedy races each, "
          f"{args.workers} workers, reports into {out}; {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.2f} at the start", flush=True)
    t0 = time.perf_counter()
    res = subprocess.run([str(BIN), "balance", "--races", str(args.races), "--workers",
                          str(args.workers), "--quiet", "--report-dir", str(out)],
                         capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(res.stdout.rstrip())
    pages = len(list(out.glob("*.html")))
    print(f"wall {wall:.0f} s ({wall / 60:.1f} min; target ≤ 10 min), CPU "
          f"{usage.ru_utime + usage.ru_stime:.0f} s, {pages} reports written; load average at "
          f"the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
