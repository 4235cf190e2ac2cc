"""Fit the expert bot's evaluation (engine/bots/expert_value.json) on seeded races.

Plays ``--races`` races per course (``--courses``: ``ruleset/course`` or
``ruleset/course:chariots``, four chariots unless said), every chariot driven by the greedy
bot (``--seat expert`` puts the expert bot on start place ``seed mod chariots + 1``), on
seeds from ``--first-seed`` (keep them apart from the seeds the expert is measured on:
bench/bench_expert.py uses 0..999). At every ``--every``-th turn of a racing chariot whose
race is not yet decided it records :func:`~avecaesar.engine.bots.expert_value.features`
from that chariot's view (numbers that seat may know) and, once the race is over, whether
it won (first place, not disqualified). Then it fits the logistic regression by
Newton–Raphson (iteratively reweighted least squares) with a ridge term ``--ridge`` on every
coefficient but the bias, prints the log-loss and calibration on the races whose seed is
odd (fitted on the even ones) and on all, and with ``--write`` stores the coefficients
fitted on all races, with this command line.

Run: .venv/bin/python bench/fit_expert_value.py [--races 1500] [--first-seed 100000] \
    [--every 2] [--ridge 1.0] [--write]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from functools import cache
from importlib import resources
from pathlib import Path

from avecaesar.engine.bots import expert_value
from avecaesar.engine.bots.expert_value import FEATURES, decided, features
from avecaesar.engine.bots.registry import OWNERLESS, find_bot
from avecaesar.engine.core.board import Board
from avecaesar.engine.core.race import new_race, outcome, play_turn
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.rule_values import RaceRules
from avecaesar.engine.core.types import RACING

COURSES = ("dicetree-2022/arena-carthago", "pro-ludo-2006/circus-maximus",
           "ravensburger-1989/a-white", "dicetree-2022/circus-maximus",
           "dicetree-2022/hippodrom-constantinople:5", "pro-ludo-2006/constantinople",
           "ravensburger-1989/b-red:3")
# the package's folder (the compiled module's own file is in _compiled/)
OUT = Path(str(resources.files("avecaesar.engine.bots").joinpath("expert_value.json")))

Row = tuple[list[float], int, int]  # features, won, seed


def play(spec: str, seed: int, every: int, seat: str) -> list[Row]:
    """One race on ``spec``: the rows recorded."""
    course, _, n = spec.partition(":")
    chariots = int(n or 4)
    ruleset = course.split("/")[0]
    rules, board = setup(ruleset, course)
    state, _ = new_race(rules, board, [f"c{i}" for i in range(chariots)], seed)
    state.log = False
    bots = [find_bot("greedy").make(seed * 10 + i) for i in range(state.game.chariots)]
    if seat != "greedy":
        bots[seed % chariots] = find_bot(seat).make(seed)
    rows: list[tuple[list[float], int]] = []
    turns = 0
    while not state.over:
        c = state.turn
        if (state.status[c] == RACING and not state.game.is_ownerless(c)
                and turns % every == 0 and decided(state, c) is None):
            rows.append((features(state, c), c))
        turns += 1
        play_turn(state, bots[c], OWNERLESS)
    won = {p.chariot for p in outcome(state).placings if p.place == 1 and not p.disqualified}
    return [(x, int(c in won), seed) for x, c in rows]


@cache
def setup(ruleset: str, course: str) -> tuple[RaceRules, Board]:
    """Rules and board, once per course."""
    return race_setup(ruleset, [], {}, course)


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; a is small)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col and m[r][col] != 0.0:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(rows: list[Row], ridge: float, iterations: int = 25) -> list[float]:
    """Logistic regression by Newton–Raphson with an L2 penalty ``ridge`` (not on the bias)."""
    k = len(FEATURES)
    w = [0.0] * k
    for _ in range(iterations):
        h = [[ridge if i == j and i > 0 else 0.0 for j in range(k)] for i in range(k)]
        g = [-ridge * w[i] if i > 0 else 0.0 for i in range(k)]
        for x, y, _seed in rows:
            p = expert_value.logistic(sum(a * b for a, b in zip(w, x, strict=True)))
            r = y - p
            v = p * (1 - p)
            for i in range(k):
                xi = x[i]
                if xi == 0.0:
                    continue
                g[i] += r * xi
                vi = v * xi
                hi = h[i]
                for j in range(i, k):
                    hi[j] += vi * x[j]
        for i in range(k):
            for j in range(i):
                h[i][j] = h[j][i]
        step = solve(h, g)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return w


def report(name: str, rows: list[Row], w: list[float]) -> None:
    """Log-loss (and that of the base rate) and a calibration table of ``w`` on ``rows``."""
    if not rows:
        return
    base = sum(y for _x, y, _s in rows) / len(rows)
    loss = base_loss = 0.0
    bins: list[list[float]] = [[0, 0.0, 0.0] for _ in range(10)]
    for x, y, _s in rows:
        p = min(max(expert_value.logistic(sum(a * b for a, b in zip(w, x, strict=True))),
                    1e-9), 1 - 1e-9)
        loss -= math.log(p if y else 1 - p)
        base_loss -= math.log(base if y else 1 - base)
        b = bins[min(9, int(p * 10))]
        b[0] += 1
        b[1] += p
        b[2] += y
    print(f"{name}: {len(rows)} positions, log-loss {loss / len(rows):.4f} "
          f"(base rate {base:.3f}: {base_loss / len(rows):.4f})")
    print("  predicted → observed: " + ", ".join(
        f"{b[1] / b[0]:.2f}→{b[2] / b[0]:.2f} ({int(b[0])})" for b in bins if b[0]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--races", type=int, default=1500, help="races per course")
    ap.add_argument("--courses", default=",".join(COURSES))
    ap.add_argument("--first-seed", type=int, default=100000)
    ap.add_argument("--every", type=int, default=2)
    ap.add_argument("--ridge", type=float, default=1.0)
    ap.add_argument("--seat", default="expert", help="the bot on one start place in the "
                    "--seat-races races")
    ap.add_argument("--seat-races", type=int, default=0,
                    help="races per course (the first three) with --seat on one place")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    t0 = time.perf_counter()
    rows: list[Row] = []
    for spec in [s for s in args.courses.split(",") if s]:
        for seed in range(args.first_seed, args.first_seed + args.races):
            rows.extend(play(spec, seed, args.every, "greedy"))
        print(f"{spec}: {len(rows)} positions so far, {time.perf_counter() - t0:.0f} s",
              flush=True)
    for spec in [s for s in args.courses.split(",") if s][:3]:
        for seed in range(args.first_seed + args.races,
                          args.first_seed + args.races + args.seat_races):
            rows.extend(play(spec, seed, args.every, args.seat))
        print(f"{spec} with {args.seat}: {len(rows)} positions so far, "
              f"{time.perf_counter() - t0:.0f} s", flush=True)
    train = [r for r in rows if r[2] % 2 == 0]
    test = [r for r in rows if r[2] % 2 == 1]
    w_half = fit(train, args.ridge)
    report("fitted on even seeds, held-out odd seeds", test, w_half)
    w = fit(rows, args.ridge)
    report("fitted on all, in-sample", rows, w)
    for name, a, b in zip(FEATURES, w, w_half, strict=True):
        print(f"  {name:18} {a:+8.3f}   (even seeds {b:+8.3f})")
    if args.write:
        command = "bench/fit_expert_value.py " + " ".join(sys.argv[1:])
        OUT.write_text(json.dumps({
            "about": "logistic coefficients of the expert bot's win chance "
                     "(engine/bots/expert_value.py), fitted by: .venv/bin/python " + command,
            "positions": len(rows),
            "coefficients": {n: round(a, 5) for n, a in zip(FEATURES, w, strict=True)},
        }, indent=2) + "\n", "utf-8")
        print(f"wrote {OUT}")
    print(f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
