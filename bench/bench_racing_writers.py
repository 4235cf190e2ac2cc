"""Racing writers against the result cache (issue 26); prints its figures.

A writer flips a course file (valid ↔ broken) and the module file it includes (a straight of
3 or 5 spaces) — by atomic renames in some rounds, by rewriting in place (half-written files
seen) in others — while ``course validate`` runs on the course; then both files are left in
a state drawn at random and validated again, from the cache when it has an entry. Every such
answer must equal the uncached one for that state. The CI slice
(tests/hardening/test_racing_writers.py) runs 150 rounds of the same harness.

Run: .venv/bin/python bench/bench_racing_writers.py [--rounds 3000] [--seed 1]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location(
    "racing_writers", ROOT / "tests" / "hardening" / "racing_writers.py")
assert _spec and _spec.loader
racing = importlib.util.module_from_spec(_spec)
sys.modules["racing_writers"] = racing
_spec.loader.exec_module(racing)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="avecaesar-racing-") as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        os.environ.pop("AVECAESAR_NO_CACHE", None)
        work = Path(tmp) / "work"
        work.mkdir()
        t0 = time.perf_counter()
        tally = racing.run(args.rounds, work, seed=args.seed)
        took = time.perf_counter() - t0
    print(f"racing writers: {tally.rounds} rounds, {tally.flips:,} writes during the "
          f"validations; answers while racing: {tally.racing_answers}; wrong cached answers "
          f"afterwards: {len(tally.wrong)} ({took:.0f} s, seed {args.seed})")
    for w in tally.wrong[:10]:
        print("  WRONG", w)
    return 1 if tally.wrong else 0


if __name__ == "__main__":
    sys.exit(main())
