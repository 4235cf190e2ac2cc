"""Is a race's cost per turn flat in course length? Prints the CPU time per turn of
``simulate`` (6 greedy chariots, 2022 rules, one worker) on Hippodrom-Constantinople and on a
generated oval with a lap of about ``--lap`` spaces per lane (bench/bench_course.py's
``oval``), and their ratio (issue 13: a 100-space-lap course no slower per turn).

Each course first runs ``--warm`` races (rules and board built, their tables filled; not
timed), then ``--races`` races of another seed, timed by ``time.process_time``; the two
courses alternate for ``--rounds`` rounds and the medians are printed.

Run: .venv/bin/python bench/bench_flat.py [--lap 100] [--races 200] [--warm 50] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_course import oval

from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.lab.simulate import SimSpec, simulate

RULESET = "dicetree-2022"
HIPPODROM = "dicetree-2022/hippodrom-constantinople"


def per_turn(course: str, races: int, warm: int) -> tuple[float, float]:
    """(µs of CPU per turn, turns per race) of ``races`` timed races on ``course``."""
    simulate(SimSpec(RULESET, course, 6, warm, 999), workers=1)
    t0 = time.process_time()
    report = simulate(SimSpec(RULESET, course, 6, races, 1), workers=1)
    cpu = time.process_time() - t0
    turns = report.turns_mean * report.races
    return cpu / turns * 1e6, report.turns_mean


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lap", type=int, default=100)
    ap.add_argument("--races", type=int, default=200)
    ap.add_argument("--warm", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="avecaesar-flat-"))
    generated = folder / f"oval-{args.lap}.yaml"
    generated.write_text(oval(args.lap), encoding="utf-8")
    courses = {"Hippodrom-Constantinople": HIPPODROM,
               f"generated oval ({args.lap})": str(generated)}
    for name, course in courses.items():
        _rules, board = race_setup(RULESET, (), {}, course)
        print(f"{name}: {len(board.succ)} spaces, lap value {board.lap_value}")
    us: dict[str, list[float]] = {n: [] for n in courses}
    turns: dict[str, float] = {}
    for r in range(args.rounds):
        order = list(courses) if r % 2 == 0 else list(reversed(courses))
        for name in order:
            t, n = per_turn(courses[name], args.races, args.warm)
            us[name].append(t)
            turns[name] = n
            print(f"  round {r + 1} {name:28} {t:7.1f} µs/turn  {n:6.1f} turns/race")
    a, b = (statistics.median(us[n]) for n in courses)
    for name in courses:
        print(f"{name:28} {statistics.median(us[name]):7.1f} µs/turn (median), "
              f"{turns[name]:6.1f} turns/race")
    print(f"per-turn cost, generated / Hippodrom: {b / a:.3f}")


if __name__ == "__main__":
    main()
