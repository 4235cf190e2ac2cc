"""The compiled hot path against pure Python, side by side; prints its figures.

Runs the same seeded races (6 greedy chariots, 2022 rules, Hippodrom-Constantinople, through
the library's turn loop, no records) in fresh subprocesses, alternating pure
(AVECAESAR_PURE=1) and compiled, several rounds; prints races/s of each round, the best of
each flavour and the ratio, and checks that both flavours give the same races: for every
seed the number of turns and the final state's notation (positions, hands, decks, finish
order) are identical. Exit 1 when they differ or when the compiled build is not in use.

Target (issue 13): >= 1,000 races/s on one core.

Run: .venv/bin/python bench/bench_compiled.py [--races 300] [--rounds 3]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time

RULESET = "dicetree-2022"
COURSE = "dicetree-2022/hippodrom-constantinople"


def child(races: int) -> None:
    from avecaesar.engine.bots.registry import OWNERLESS, make_policy
    from avecaesar.engine.core.board import Board
    from avecaesar.engine.core.race import new_race, play_turn
    from avecaesar.engine.core.ruleset_adapter import rules_from_ruleset
    from avecaesar.engine.course.load import load_course
    from avecaesar.engine.ruleset.load import load_ruleset
    from avecaesar.native import flavour

    rules = rules_from_ruleset(load_ruleset(RULESET, [], {}))
    c = load_course(COURSE)
    board = Board.from_graph(c.graph, c.id)
    names = [f"g{i}" for i in range(6)]
    policies = [make_policy("greedy", i) for i in range(6)]
    digest = hashlib.sha256()
    turns = 0
    t0 = time.perf_counter()
    for seed in range(races):
        state, _ = new_race(rules, board, names, seed)
        n = 0
        while not state.over:
            play_turn(state, policies[state.turn], OWNERLESS)
            n += 1
        turns += n
        digest.update(f"{seed} {n} {state.notation()}\n".encode())
    dt = time.perf_counter() - t0
    print(json.dumps({"flavour": flavour().name, "races_per_s": races / dt,
                      "turns": turns, "digest": digest.hexdigest()}))


def run(flavour: str, races: int) -> dict[str, object]:
    env = dict(os.environ)
    env.pop("AVECAESAR_PURE", None)
    if flavour == "pure":
        env["AVECAESAR_PURE"] = "1"
    out = subprocess.run([sys.executable, __file__, "--child", "--races", str(races)],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--races", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.races)
        return
    best: dict[str, float] = {}
    digests: dict[str, set[str]] = {"pure": set(), "compiled": set()}
    for r in range(args.rounds):
        for flavour in ("pure", "compiled"):
            res = run(flavour, args.races)
            if res["flavour"] != flavour:
                print(f"the {flavour} run loaded the {res['flavour']} engine: is it built? "
                      "(make setup)")
                sys.exit(1)
            rate = float(res["races_per_s"])  # type: ignore[arg-type]
            best[flavour] = max(best.get(flavour, 0.0), rate)
            digests[flavour].add(str(res["digest"]))
            print(f"round {r + 1} {flavour:9} {rate:7.1f} races/s "
                  f"({int(res['turns']) / args.races:.0f} turns a race)")  # type: ignore[call-overload]
    same = digests["pure"] == digests["compiled"] and len(digests["pure"]) == 1
    print(f"best: pure {best['pure']:.1f} races/s, compiled {best['compiled']:.1f} races/s, "
          f"ratio {best['compiled'] / best['pure']:.2f}x (target >= 1,000 races/s)")
    print(f"{args.races} races {'identical' if same else 'DIFFER'} between the flavours "
          "(turns and final state of every seed)")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
