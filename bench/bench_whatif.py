"""Benchmark ``course validate --what-if`` and ``--explain``; prints their figures.

For every bundled course file (clockwise): how many one-space edits are tried, how many reach
the target reserve, and the wall time of the library call (best of ``--repeat`` runs), plus
the whole CLI command on the Rome track in a fresh process (start-up included).

Target (issue 15): an answer within a few seconds on a bundled course; with the combination
search (issue 22: no single edit reaches the target) within seconds too.

Run: .venv/bin/python bench/bench_whatif.py [--reserve N] [--repeat K]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from avecaesar.engine.course.explain import explain
from avecaesar.engine.course.load import bundled_courses, load_course
from avecaesar.engine.course.whatif import what_if


def best_of(k: int, fn) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(k):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def combinations(repeat: int) -> None:
    """--what-if when no single edit is enough (issue 22): each bundled course file asked for
    3 points more reserve than its best single edit gives, so the combination search runs."""
    print(f"\n{'combinations (no single edit suffices)':42} {'short':>9} {'found':>5} "
          f"{'tried':>5} {'of':>5} {'s':>6}")
    worst = 0.0
    for cid in bundled_courses():
        course = load_course(cid)
        singles = what_if(course, reserve=-99, combine=False)
        best = max(w.worst_reserve for w in singles.found) if singles.found else 0
        target = best + 3
        t, report = best_of(repeat, lambda c=course, r=target: what_if(c, reserve=r))
        worst = max(worst, t)
        short = max((s or 0) for s in report.short)  # type: ignore[attr-defined]
        print(f"{cid:42} {short:>9} {len(report.combinations):>5} "  # type: ignore[attr-defined]
              f"{report.combos_tried:>5} {report.combos_considered:>5} {t:>6.2f}")
    print(f"slowest what-if with combinations (library call): {worst:.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reserve", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    print(f"{'course':42} {'spaces':>6} {'edits':>5} {'reach':>5} {'what-if s':>9} "
          f"{'explain s':>9}")
    worst = 0.0
    for cid in bundled_courses():
        course = load_course(cid)
        t, report = best_of(args.repeat, lambda c=course: what_if(c, reserve=args.reserve))
        found, tried = report.found, report.tried  # type: ignore[attr-defined]
        te, _ = best_of(args.repeat, lambda c=course: explain(c))
        worst = max(worst, t)
        print(f"{cid:42} {course.graph.number_of_nodes():>6} {tried:>5} {len(found):>5} "
              f"{t:>9.2f} {te:>9.3f}")
    print(f"slowest what-if (library call): {worst:.2f} s")
    combinations(args.repeat)
    exe = Path(sys.executable).with_name("avecaesar")
    t = time.perf_counter()
    subprocess.run([str(exe), "course", "validate", "homebrew/rome", "--explain", "--what-if",
                    "--reserve", str(args.reserve)], capture_output=True, check=False)
    print(f"CLI `course validate homebrew/rome --explain --what-if`: "
          f"{time.perf_counter() - t:.2f} s wall")


if __name__ == "__main__":
    main()
