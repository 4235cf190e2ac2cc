"""``simulate`` through the CLI against a hand-written race loop; prints its figures (issue 24).

Three ways to race the same N seeded 6-chariot greedy races on Hippodrom-Constantinople
under the 2022 rules (the mypyc-compiled engine), each in a fresh process, alternating
round after round so that a shared machine's load falls on all alike:

- **hand loop**: a single-purpose loop written for this one job — rules and board built
  once, then ``new_race`` + ``play_turn`` with greedy policies, nothing else (no summaries,
  no report) — in one process; its races/s are timed over the loop alone (start-up left
  out, as a script's author would time it);
- **in-process**: ``simulate(spec, workers=W)`` called from Python, timed around the call;
- **CLI**: ``avecaesar simulate … --quiet --workers W`` run as a command, timed from the
  process start to its exit (start-up, loading, forking, warm-up and the report included).

It prints each one's races/s (median over rounds) and the ratios to the hand loop (target:
CLI ≥ 1.7× with 2 workers from 2,000 races), and 2 workers against 1 through the CLI (target
≥ 1.8× from 2,000 races). The CLI runs use the board cache (docs/performance.md); `--cold`
empties it before every CLI run.

Run: .venv/bin/python bench/bench_cli_speed.py [--races 2000] [--rounds 3] [--cold]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent / "avecaesar"
COURSE = "dicetree-2022/hippodrom-constantinople"

HAND = r"""
import sys, time
sys.path.insert(0, sys.argv[3])
from avecaesar.engine.core.race_setup import race_setup
from bench_sim_loop import hand_races
rules, board = race_setup("dicetree-2022", [], {}, sys.argv[2])
t0 = time.perf_counter()
hand_races(rules, board, range(int(sys.argv[1])))
print(time.perf_counter() - t0)
"""

IN_PROCESS = r"""
import sys, time
from avecaesar.engine.lab.simulate import SimSpec, simulate
races, workers = int(sys.argv[1]), int(sys.argv[2])
t0 = time.perf_counter()
simulate(SimSpec("dicetree-2022", sys.argv[3], 6, races, 1), workers=workers)
print(time.perf_counter() - t0)
"""


CPU: dict[str, list[float]] = {}


def _cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_CHILDREN)  # the children and their workers
    return u.ru_utime + u.ru_stime


def timed(args: list[str], env: dict[str, str], name: str = "") -> float:
    c0, t0 = _cpu(), time.perf_counter()
    subprocess.run(args, check=True, capture_output=True, env=env)
    if name:
        CPU.setdefault(name, []).append(_cpu() - c0)
    return time.perf_counter() - t0


def child(code: str, *args: str, env: dict[str, str], name: str = "") -> float:
    c0 = _cpu()
    out = subprocess.run([sys.executable, "-c", code, *args], check=True,
                         capture_output=True, text=True, env=env).stdout
    if name:
        CPU.setdefault(name, []).append(_cpu() - c0)
    return float(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--races", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cold", action="store_true", help="empty the cache before each CLI run")
    args = ap.parse_args()
    cache = Path(tempfile.mkdtemp(prefix="avecaesar-bench-cache-"))
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    n = args.races
    print(f"{n} races, 6 greedy chariots, {COURSE}, 2022; {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.2f} at the start; cache {'cold' if args.cold else 'warm'}")
    cli = [str(BIN), "simulate", "-r", "dicetree-2022", "-c", COURSE, "-k", str(n), "--quiet"]
    timed([*cli[:-3], "-k", "10", "--quiet", "--workers", "1"], env)  # fill the cache
    runs: dict[str, list[float]] = {}
    for r in range(args.rounds):
        got = {"hand loop (1 process)": child(HAND, str(n), COURSE, str(Path(__file__).parent),
                                              env=env, name="hand loop (1 process)"),
               "in-process, 1 worker": child(IN_PROCESS, str(n), "1", COURSE, env=env),
               "in-process, 2 workers": child(IN_PROCESS, str(n), "2", COURSE, env=env)}
        for w in (1, 2):
            if args.cold:
                shutil.rmtree(cache / "avecaesar", ignore_errors=True)
            name = f"CLI, {w} worker{'s' if w > 1 else ''}"
            got[name] = timed([*cli, "--workers", str(w)], env, name)
        for k, v in got.items():
            runs.setdefault(k, []).append(v)
        print(f"  round {r + 1}: " + ", ".join(f"{k} {n / v:.0f}/s" for k, v in got.items()),
              flush=True)
    med = {k: n / statistics.median(v) for k, v in runs.items()}
    hand = med["hand loop (1 process)"]
    for k, v in med.items():
        print(f"{k:24} {v:7.0f} races/s  {v / hand:5.2f}x the hand loop")
    print(f"CLI 2 workers / CLI 1 worker: {med['CLI, 2 workers'] / med['CLI, 1 worker']:.2f}x "
          "(target ≥ 1.8 on 2 idle cores); CLI 2 workers / hand loop: "
          f"{med['CLI, 2 workers'] / hand:.2f}x (target ≥ 1.7)")
    # CPU time holds on a busy machine where wall time does not: the hand loop's whole
    # process (start-up too) against the CLI's process and its workers
    cpu = {k: statistics.median(v) for k, v in CPU.items()}
    print("CPU time (median), the whole process with its workers: " + ", ".join(
        f"{k} {v:.2f} s" for k, v in cpu.items()))
    c1, c2, ch = cpu["CLI, 1 worker"], cpu["CLI, 2 workers"], cpu["hand loop (1 process)"]
    print(f"on 2 idle cores at most: CLI 2 workers / 1 worker {2 * c1 / c2:.2f}x (the CPU "
          f"ratio {c2 / c1:.3f}); CLI 2 workers / hand loop {2 * ch / c2:.2f}x (if the work "
          "splits evenly and nothing else runs)")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
