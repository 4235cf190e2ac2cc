"""A SIGTERM to ``simulate``'s whole process group at a random moment, many times: how many
runs hang. Prints the runs, the hangs and the exit codes seen.

Each run starts ``avecaesar simulate --workers 2`` in a session of its own on the test oval
(3 to 4,000 races, drawn), sends SIGTERM to its process group after 0.2–2.5 s (also drawn:
during start-up, while both workers race, while one waits for work, after the end) and
allows 40 s to exit; a run still there then is a hang (killed, counted). ``--busy N`` keeps
N other processes spinning meanwhile: the hang needs a worker idle at the moment of the
signal, which a busy machine's timing makes likely. With
``multiprocessing.Pool`` 7 of 60 runs hung at load 4, and 4 of 60 with ``--busy 2`` (a
worker killed while waiting for work kept the task queue's lock, and ``Pool.terminate()``
waited for it); with the workers of engine/lab/workers.py, which share no lock
(docs/architecture.md, "No orphan workers"), 0 of 60 with ``--busy 2``.

Exit codes: 143 stopped with the partial report kept, 0 finished before the signal, −15 the
signal came before the command had installed its handlers (during start-up).

Run: .venv/bin/python bench/bench_group_sigterm.py [--runs 60] [--seed 7] [--busy 2]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

BIN = Path(sys.executable).parent / "avecaesar"
OVAL = Path(__file__).resolve().parents[1] / "tests" / "core" / "courses" / "oval.yaml"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=60)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--busy", type=int, default=0, help="other processes spinning meanwhile")
    args = ap.parse_args()
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(args.busy)]
    try:
        run(args)
    finally:
        for p in spinners:
            p.kill()
            p.wait()


def run(args: argparse.Namespace) -> None:
    """The runs, and the line of figures."""
    rng = random.Random(args.seed)
    hangs, codes = 0, Counter[int]()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for i in range(args.runs):
            races = rng.choice([3, 20, 400, 4000])
            proc = subprocess.Popen(
                [str(BIN), "simulate", "-r", "dicetree-2022", "-c", str(OVAL), "-k", str(races),
                 "--workers", "2", "--quiet"], cwd=folder, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, start_new_session=True)
            time.sleep(rng.uniform(0.2, 2.5))
            with contextlib.suppress(ProcessLookupError):  # it may have ended already
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                _out, err = proc.communicate(timeout=40)
                codes[proc.returncode] += 1
                if "Traceback" in err:
                    print(f"run {i}: a traceback\n{err[-600:]}")
            except subprocess.TimeoutExpired:
                hangs += 1
                print(f"run {i}: HANG ({races} races)")
                os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
    seen = ", ".join(f"{code}: {n}" for code, n in sorted(codes.items()))
    print(f"{args.runs} runs, {hangs} hangs; exit codes {seen} "
          f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
