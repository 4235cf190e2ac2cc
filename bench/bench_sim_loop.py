"""``simulate``'s race loop against a hand-written race loop, in one process; prints its figures.

The same seeded 6-chariot greedy races on Hippodrom-Constantinople under the 2022 rules (the
compiled engine), raced in blocks that alternate between the two loops, timed by CPU time:

- **hand loop**: ``new_race`` + ``play_turn`` with greedy policies, nothing else;
- **simulate's loop**: ``summarise_race`` — the same race plus what the report needs of it
  (lead changes, skips and waits, attrition with its reason and lap, points, the summary).

The ratio is the most ``simulate`` can reach against the hand loop on one core with no
start-up at all (docs/performance.md, "Issue 24").

Run: .venv/bin/python bench/bench_sim_loop.py [--block 200] [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterable
from typing import Any

from avecaesar.engine.bots.registry import OWNERLESS, make_policy
from avecaesar.engine.core.race import new_race, play_turn
from avecaesar.engine.lab.simulate import SimSpec, _setup, _spec_key, race_seed, summarise_race

COURSE = "dicetree-2022/hippodrom-constantinople"


def hand_races(rules: Any, board: Any, indices: Iterable[int]) -> None:
    """The hand-written race loop: races ``indices`` of seed 1, six greedy chariots, nothing
    but ``new_race`` and ``play_turn`` (bench_cli_speed.py runs it in a process of its own)."""
    names = [f"greedy-{i + 1}" for i in range(6)]
    for i in indices:
        seed = race_seed(1, i)
        state, setup = new_race(rules, board, names, seed)
        state.log = False
        policies = [make_policy("greedy", seed + s) for s in setup["seats"]]
        while not state.over:
            play_turn(state, policies[state.turn], OWNERLESS)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--block", type=int, default=200, help="races per block")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    spec = SimSpec("dicetree-2022", COURSE, 6, args.block * (args.rounds + 1), 1)
    built = _setup(_spec_key(spec))
    rules, board = built

    def hand(lo: int, hi: int) -> float:
        t = time.process_time()
        hand_races(rules, board, range(lo, hi))
        return time.process_time() - t

    def sim(lo: int, hi: int) -> float:
        t = time.process_time()
        for i in range(lo, hi):
            summarise_race(spec, i, False, built)
        return time.process_time() - t

    b = args.block
    hand(0, b)  # both warm (walk tables, the greedy bot's memo)
    sim(0, b)
    th: list[float] = []
    ts: list[float] = []
    for r in range(1, args.rounds + 1):
        th.append(hand(r * b, (r + 1) * b))
        ts.append(sim(r * b, (r + 1) * b))
    mh, ms = statistics.median(th), statistics.median(ts)
    print(f"{args.rounds} rounds of {b} races, {COURSE}, 6 greedy chariots, 2022 (CPU time)")
    print(f"hand loop        {b / mh:7.0f} races/s (median block {mh:.3f} s)")
    print(f"simulate's loop  {b / ms:7.0f} races/s (median block {ms:.3f} s)")
    print(f"simulate's loop / hand loop: {mh / ms:.2f}x "
          f"(per round: {', '.join(f'{h / s:.2f}' for h, s in zip(th, ts, strict=True))})")


if __name__ == "__main__":
    main()
