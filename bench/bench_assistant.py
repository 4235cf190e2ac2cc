"""The design assistant's success rate (``course balance``); prints its figures (issue 24).

Runs the assistant (engine/lab/assistant.py) on every bundled course (each under its own
edition's rules, as many greedy chariots as it seats) and on generated courses (seeded ovals
of 2 or 3 lanes with different straights, curves and grids, under the 2022 rules), and
prints per course the spread between start places before and after the best verified
proposal, with the paired difference's interval, and whether it reached the target. At the
end: the success rate at the target, and (from the same verified figures) at looser ones.

Every listed proposal is then checked (issue 39): it brings no warning and keeps a closed
drawing closed (recompiled here), its verified interval lies below 0, it is no no-op, and
— with ``--recheck N`` — it is raced again on N paired races on a seed the tool did not use
(the tool's seed + 104729), whose interval is printed.

``--spread tournament`` aims at the tournament spread instead (``course balance --spread``):
every count is then of tournaments, the recheck too.

Run: .venv/bin/python bench/bench_assistant.py [--target 3] [--screen 300] [--verify 2000]
     [--max-races 8000] [--generated 8] [--workers 2] [--recheck 4000] [--courses ID …]
     [--spread race|tournament]
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from avecaesar.engine.course.bundled import bundled_course_ids
from avecaesar.engine.course.whatif import drawing_closes
from avecaesar.engine.lab.assistant import Advice, _compare, _run, advise
from avecaesar.engine.lab.batch import batch_spec
from avecaesar.engine.lab.edited import _course, edited_course
from avecaesar.engine.lab.tournament_fairness import has_tournament

RECHECK_SEED = 104729  # added to the tool's seed: races neither screening nor verifying ran


def generated(k: int) -> str:
    """A seeded oval: 2 or 3 lanes, straights and curves of varied length, a chicane, an
    alley beside the second straight, six start places in rows behind the line."""
    rng = random.Random(k)
    lanes = rng.choice((2, 3))
    a, b, c = (rng.randint(1, 3) for _ in range(3))
    inside = [rng.randint(3, 4), rng.randint(3, 4)]
    grid = 6 // lanes
    lens = [[n + 2 * i for i in range(lanes)] for n in inside]
    start = [f"grid.{lane}.-{row + 1}" for row in range(grid) for lane in range(lanes)]
    return f"""name: Generated {k}
edition: dicetree-2022
lanes: {lanes}
track:
  - straight: {{name: home, length: 2}}
  - straight: {{name: pit, length: 3}}
  - straight: {{name: run, length: {a}}}
  - curve: {{name: north, turn: 180, lengths: {lens[0]}}}
  - straight: {{name: back, length: {b}}}
  - chicane: {{name: neck, lane: 1}}
  - straight: {{name: back-end, length: {c}}}
  - curve: {{name: south, turn: 180, lengths: {lens[1]}}}
  - straight: {{name: grid, length: {grid}}}
finish: {{before: home}}
start: [{", ".join(start)}]
alley: {{from: pit, to: pit, spaces: 4}}
"""


def best_spread(a: Advice) -> float:
    spreads = [p.spread for p in a.proposals]
    return min([*spreads, a.original.spread if a.original else 1.0])


def check(a: Advice, recheck: int, workers: int) -> list[str]:
    """Each listed proposal checked as issue 39 asks, and re-raced on a fresh seed."""
    out = []
    closed = drawing_closes(_course(a.spec.course).model)
    for i, p in enumerate(a.proposals, 1):
        names = [e.description for e in p.edits]
        edited = edited_course(a.spec.course, names)
        holds = not p.warnings and (drawing_closes(edited.model) or not closed)
        v = p.verified
        below = v is not None and v.spread.ci[1] < 0
        line = (f"    proposal {i}: warning-free and drawing kept {holds}; interval below 0 "
                f"{below}; no-op {p.decided == 'no-op'}; {v.races if v else 0} {a.aim}s, "
                f"{p.looks} looks")
        if recheck:
            base = replace(a.spec, races=recheck, seed=a.spec.seed + RECHECK_SEED)
            found = _run(a.aim, [base, replace(base, edits=tuple(names))], workers, None,
                         None)
            d = _compare(a.aim, found[0], found[1]).spread
            line += (f"; recheck on {recheck} fresh {a.aim}s: {100 * d.diff:+.1f} pp "
                     f"({100 * d.ci[0]:+.1f} to {100 * d.ci[1]:+.1f})")
        out.append(line)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", type=float, default=3.0)
    ap.add_argument("--screen", type=int, default=300)
    ap.add_argument("--verify", type=int, default=2000)
    ap.add_argument("--max-races", type=int, default=None)
    ap.add_argument("--recheck", type=int, default=0)
    ap.add_argument("--generated", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--courses", nargs="*", default=None)
    ap.add_argument("--spread", choices=("race", "tournament"), default="race",
                    help="the spread aimed at (course balance --spread); tournament: only "
                         "the courses whose rules play a tournament, every count of them")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="avecaesar-assistant-"))
    runs: list[tuple[str, str, str | None]] = [
        ("bundled", c, None) for c in (args.courses or bundled_course_ids())]
    for k in range(args.generated):
        path = folder / f"generated-{k}.yaml"
        path.write_text(generated(k), encoding="utf-8")
        runs.append(("generated", str(path), "dicetree-2022"))
    unit = "races" if args.spread == "race" else "tournaments"
    print(f"course balance, target: {args.spread} spread ≤ {args.target} pp, screen "
          f"{args.screen}, verify {args.verify} {unit}; {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.2f}")
    print(f"{'kind':9} {'course':40} {'before':>7} {'after':>7} {'B − A (95 % interval)':>24} "
          f"{'edits':>5} {'s':>5}")
    results: dict[str, list[tuple[float, float, bool, bool]]] = {}
    target = args.target / 100
    for kind, course, ruleset in runs:
        t0 = time.perf_counter()
        spec, _notes = batch_spec(course, ruleset, None, 1, 1, ("greedy",))
        if args.spread == "tournament" and not has_tournament(spec):
            print(f"{kind:9} {course:40} its rules play one race: no tournament", flush=True)
            continue
        a = advise(spec, target, args.screen, args.verify, args.workers, cap=args.max_races,
                   aim=args.spread)
        before = a.original.spread if a.original else 1.0
        after = best_spread(a)
        best = a.proposals[0] if a.proposals else None
        interval = "—"
        significant = False
        if best is not None and best.verified is not None:
            d = best.verified.spread
            interval = f"{100 * d.diff:+.1f} ({100 * d.ci[0]:+.1f} to {100 * d.ci[1]:+.1f})"
            significant = d.ci[1] < 0
        results.setdefault(kind, []).append((before, after, a.success, significant))
        name = course if kind == "bundled" else Path(course).stem
        print(f"{kind:9} {name:40} {100 * before:6.1f}  {100 * after:6.1f}  {interval:>24} "
              f"{len(best.edits) if best else 0:5} {time.perf_counter() - t0:5.0f}", flush=True)
        print(f"    left out: {a.warned} with a warning or an open drawing, {a.noops} no-ops, "
              f"{a.wider} wider, {a.undecided} undecided at {a.verify_cap} {unit}; "
              f"{a.closing} closing pairs screened", flush=True)
        for line in check(a, args.recheck, args.workers):
            print(line, flush=True)
    for kind, rows in results.items():
        n = len(rows)
        ok = sum(1 for r in rows if r[2])
        better = sum(1 for r in rows if r[3])
        gain = sorted(100 * (r[0] - r[1]) for r in rows)
        print(f"{kind}: success (spread ≤ {args.target} pp, verified) {ok} of {n}; narrower "
              f"for certain (interval below 0) {better} of {n}; median narrowing "
              f"{gain[n // 2]:.1f} pp")
        for loose in (5, 10, 15):
            hit = sum(1 for r in rows if r[1] <= loose / 100)
            print(f"  within {loose} pp after the best proposal: {hit} of {n}")


if __name__ == "__main__":
    main()
