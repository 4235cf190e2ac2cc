"""How many fewer races a paired comparison needs than two independent simulations; prints
its figures (issue 24).

For every bundled course (its own edition's rules, as many greedy chariots as it takes) it
races the course against: a few one-space edits of it (the design assistant's candidates,
spread over the list), the rule variant ``no-waiting``, and another edition's rules on the
same board. Both sides race the same deals and seeds (``run_many``), and for each figure the
ratio ``(var a + var b) / var(b − a)`` is printed: the races two independent runs would
need, per paired race, for an interval as narrow (``efficiency``). It is the per-race
variances, so it does not depend on how many races are run (more races only make it more
precise).

Run: .venv/bin/python bench/bench_paired.py [--races 1000] [--edits 3] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from dataclasses import replace

from avecaesar.engine.course.bundled import bundled_course_ids
from avecaesar.engine.data.errors import AveCaesarError
from avecaesar.engine.lab.edited import _course, course_edits
from avecaesar.engine.lab.paired import Comparison, compare_summaries
from avecaesar.engine.lab.simulate import SimSpec, _setup, _spec_key, run_many

EDITIONS = ("ravensburger-1989", "pro-ludo-2006", "dicetree-2022")


def players_for(course: str, ruleset: str) -> int:
    """The most players the ruleset seats on the course (as ``balance`` races it)."""
    from avecaesar.engine.core.race_setup import race_setup
    from avecaesar.engine.lab.batch import max_players

    return max_players(*race_setup(ruleset, [], {}, course))


def figures(c: Comparison) -> tuple[float, float, float]:
    """Efficiency of the spread, and the median over start places of the win rate's and of
    the mean points'."""
    def eff(name: str) -> float:
        e = c.get(name).efficiency
        return 1.0 if e is None else min(e, 1e6)
    places = [d.name.rsplit(" ", 1)[1] for d in c.differences if d.name.startswith("win rate")]
    return (eff("spread"), statistics.median(eff(f"win rate, place {p}") for p in places),
            statistics.median(eff(f"mean points, place {p}") for p in places))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--races", type=int, default=1000)
    ap.add_argument("--edits", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--courses", nargs="*", default=None)
    args = ap.parse_args()
    courses = args.courses or [c for c in bundled_course_ids() if not c.startswith("homebrew")]
    print(f"paired against independent: {args.races} races a side, greedy bots, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(f"{'course':42} {'against':58} {'spread':>7} {'win':>6} {'points':>7}")
    kinds: dict[str, list[tuple[float, float, float]]] = {}
    t0 = time.perf_counter()
    for cid in courses:
        ruleset = cid.split("/")[0]
        n = players_for(cid, ruleset)
        base = SimSpec(ruleset, cid, n, args.races, seed=1)
        edits = course_edits(_course(cid))
        step = max(1, len(edits) // args.edits)
        other = EDITIONS[(EDITIONS.index(ruleset) + 1) % len(EDITIONS)]
        sides = [("edit", replace(base, edits=(e.description,)), e.description)
                 for e in edits[::step][:args.edits]]
        sides += [("variant", replace(base, variants=("no-waiting",)), "variant no-waiting"),
                  ("edition", replace(base, ruleset=other), f"ruleset {other}")]
        valid = []
        for kind, spec, what in sides:
            try:
                _setup(_spec_key(spec))
                valid.append((kind, spec, what))
            except AveCaesarError as err:  # the other side cannot race here: say so
                print(f"{cid:42} {what[:58]:58} skipped: {str(err).splitlines()[0][:60]}")
        found, _ = run_many([base, *(s for _k, s, _w in valid)], args.workers)
        for (kind, _spec, what), side in zip(valid, found[1:], strict=True):
            f = figures(compare_summaries(found[0], side))
            kinds.setdefault(kind, []).append(f)
            print(f"{cid:42} {what[:58]:58} {f[0]:6.1f}x {f[1]:5.1f}x {f[2]:6.1f}x")
    print(f"\nmedian efficiency (races two independent runs need per paired race), "
          f"{time.perf_counter() - t0:.0f} s:")
    for kind, rows in kinds.items():
        med = [statistics.median(r[i] for r in rows) for i in range(3)]
        share = sum(1 for r in rows if r[1] >= 3) / len(rows)
        print(f"  {kind:8} ({len(rows):3} comparisons): spread {med[0]:.1f}x, win rate "
              f"{med[1]:.1f}x, mean points {med[2]:.1f}x; win rate ≥ 3x in {share:.0%}")


if __name__ == "__main__":
    main()
