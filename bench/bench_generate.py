"""Benchmark ``course generate`` on the twenty briefs of bench/briefs/; prints per brief the
boards found, the time, the cells filled and the designs tried, and checks every board
afresh with ``course validate --ruleset R`` in a new process.

Target (issue 40): for at least 18 of the 20 briefs, at least 5 distinct boards in at most
10 minutes on 2 cores, each one passing ``course validate`` afresh and, with a balance
target, ``simulate``'s races on a fresh seed (``course generate``'s verification: the spread
of win rates between start places within the target; its column shows the worst spread of
the boards kept).

Run: .venv/bin/python bench/bench_generate.py [--count 5] [--minutes 10] [--seed 1]
     [--only NAME …] [--keep DIR] [--workers 2]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from avecaesar.engine.lab.brief import brief_rules, read_brief
from avecaesar.engine.lab.generate import Search, explain

ROOT = Path(__file__).resolve().parents[1]
BRIEFS = ROOT / "bench" / "briefs"
AVECAESAR = Path(sys.executable).with_name("avecaesar")


def validated(files: list[str], ruleset: str) -> int:
    """How many of ``files`` ``course validate --ruleset`` passes (exit 0, no warning)."""
    if not files:
        return 0
    ok = 0
    for f in files:
        res = subprocess.run([str(AVECAESAR), "course", "validate", "--ruleset", ruleset, f],
                             capture_output=True, text=True, check=False)
        ok += res.returncode == 0 and "warning" not in res.stderr
    return ok


def run_one(path: Path, count: int, minutes: float, seed: int, out: Path,
            workers: int) -> bool:
    from avecaesar.editor.cli.course_generate import balanced, write_boards

    brief = read_brief(path)
    search = Search(brief, brief_rules(brief), count=count, seed=seed, max_tries=10**6,
                    path=str(out / "generated.yaml"))
    t = time.perf_counter()
    boards = search.run(minutes)
    checks = None
    balance = "—"
    if brief.balance is not None:
        boards, checks, raced = balanced(search, brief, seed, workers, None)
        balance = (f"≤ {max(c.spread for c in checks):.1f} pp" if checks else
                   f"best {min(c.spread for c in raced):.1f}") if raced else "none raced"
    seconds = time.perf_counter() - t
    out.mkdir(parents=True, exist_ok=True)
    rows = write_boards(search, brief, out, seed, boards, checks)
    ok = validated([str(r["file"]) for r in rows], brief.ruleset)
    p = search.progress
    met = len(boards) >= count and ok == len(boards)
    print(f"{path.stem:28} {len(boards):>5} {seconds:>7.1f} {p.cells:>4}/{p.cells_total:<4} "
          f"{p.tried:>6} {ok:>5}  {balance:14} {'yes' if met else 'NO'}", flush=True)
    if not met:
        for line in explain(search):
            print(f"    {line}")
    return met


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=5)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", nargs="*", default=None, help="brief names (file stems)")
    ap.add_argument("--keep", type=Path, default=None, help="write the boards here")
    ap.add_argument("--workers", type=int, default=2, help="processes for the balance races")
    args = ap.parse_args()
    paths = sorted(BRIEFS.glob("*.yaml"))
    if args.only:
        paths = [p for p in paths if p.stem in args.only]
    print(f"{'brief':28} {'found':>5} {'s':>7} {'cells':>9} {'tried':>6} {'valid':>5}  "
          f"{'balance':14} met")
    met = 0
    with tempfile.TemporaryDirectory() as tmp:
        base = args.keep or Path(tmp)
        for path in paths:
            met += run_one(path, args.count, args.minutes, args.seed, base / path.stem,
                           args.workers)
    print(f"{met} of {len(paths)} briefs: at least {args.count} boards, each validated afresh")


if __name__ == "__main__":
    main()
