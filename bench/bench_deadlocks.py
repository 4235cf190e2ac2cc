"""How often seeded races end in deadlock, per edition; prints its figures (issue 10).

Each edition races on its own bundled courses in turn (race i on course i mod n, seed i),
2, 3 and 6 chariots (each a run of its own), every chariot the same bot: 3,000 greedy races
and 3,000 random races per edition and chariot count by default. Target: 0 deadlocks with
greedy bots, under 0.1 % with random bots.

Run: .venv/bin/python bench/bench_deadlocks.py [--races 3000] [--bots greedy,random]
[--chariots 2,3,6] [--editions pro-ludo-2006]

With ``--examples`` it races instead every bundled example house file
(rulesets/examples/*.yaml) under each edition it applies to, ``--races`` times (300 by the
issue's target; greedy bots, 2, 3 and 6 chariots in turn: engine/lab/freezes.py), and
prints each one's freezes. Target: 0.
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
    ap.add_argument("--examples", action="store_true",
                    help="race every bundled example house file instead (freezes)")
    args = ap.parse_args()
    if args.examples:
        examples(args.races, args.editions.split(","))
        return
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


def examples(races: int, editions: list[str]) -> None:
    """Each bundled example house file under each edition it applies to: its freezes."""
    import yaml

    from avecaesar.engine.data.paths import RULESETS_DIR
    from avecaesar.engine.lab.freezes import freeze_report

    total = 0
    for path in sorted((RULESETS_DIR / "examples").glob("*.yaml")):
        named = yaml.safe_load(path.read_text(encoding="utf-8")).get("applies_to") or ["any"]
        for edition in (editions if "any" in named else [e for e in named if e in editions]):
            t0 = time.perf_counter()
            report = freeze_report(edition, [str(path)], races=races)
            total += len(report.frozen)
            seeds = ", ".join(f"{c} seed {s}" for c, s in report.frozen[:5])
            print(f"{path.stem:28} {edition:18} {report.races} races: "
                  f"{len(report.frozen)} freezes ({report.rate:.2%})"
                  f"  [{time.perf_counter() - t0:.0f} s]" + (f"  e.g. {seeds}" if seeds else ""),
                  flush=True)
    print(f"freezes in all: {total}")


if __name__ == "__main__":
    main()
