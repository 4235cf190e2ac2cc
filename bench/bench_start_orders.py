"""How far the start grid's order alone can even out a course: every order of the start
places (or a seeded sample of them), each raced on the same seeded greedy races; prints the
spread of win rates between start places for the course's own order, the best and the
worst, and the first mover's win rate over all of them.

The design assistant (``course balance``) tries four reorders of the start grid
(engine/course/grid_edits.py). This asks the question behind its 3-point target: is there
*any* order of the start places that brings the spread within reach? The spaces stay; the
numbers change, and with them the order of play (start place 1 moves first).

Run: .venv/bin/python bench/bench_start_orders.py [COURSE] [--ruleset R] [--players N]
    [--races 1000] [--sample 40] [--seed 1]
"""

from __future__ import annotations

import argparse
import itertools
import random
import time

from avecaesar.engine.core.board import Board
from avecaesar.engine.course.grid_edits import start_order_edit
from avecaesar.engine.course.load import contract_water, load_course
from avecaesar.engine.course.whatif import _recompile
from avecaesar.engine.lab.simulate import SimSpec, _setup, _spec_key, report, summarise_race


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("course", nargs="?", default="ravensburger-1989/a-blue")
    ap.add_argument("--ruleset", default=None, help="default: the course's edition")
    ap.add_argument("--players", type=int, default=None, help="default: every start place")
    ap.add_argument("--races", type=int, default=1000)
    ap.add_argument("--sample", type=int, default=40,
                    help="orders raced when there are more (the course's own always is)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    course = load_course(args.course)
    places = len(course.model.start)
    players = args.players or places
    ruleset = args.ruleset or course.model.edition
    spec = SimSpec(ruleset, args.course, players, args.races, args.seed)
    rules, _board = _setup(_spec_key(spec))
    orders = list(itertools.permutations(range(places)))
    every = len(orders)
    if every > args.sample:
        orders = [orders[0], *random.Random(args.seed).sample(orders[1:], args.sample - 1)]
    start = time.perf_counter()
    found = []
    for order in orders:
        edited = _recompile(course, start_order_edit(course, "order", list(order)))
        graph = contract_water(edited.graph) if rules.water_skipped else edited.graph
        built = (rules, Board.from_graph(graph, edited.id))
        r = report(spec, [summarise_race(spec, i, False, built) for i in range(args.races)])
        found.append((r.spread, order, [p.win_rate for p in r.by_place]))
    found.sort()
    own = next(f for f in found if f[1] == tuple(range(places)))
    print(f"{args.course} · {spec.ruleset} · {players} greedy chariots · {args.races} races "
          f"per order, seed {args.seed} · {len(found)} of the {every} orders of {places} start "
          f"places ({time.perf_counter() - start:.0f} s)")

    def line(name: str, f: tuple[float, tuple[int, ...], list[float]]) -> str:
        rates = " ".join(f"{100 * w:4.1f}" for w in f[2])
        order = " ".join(str(p + 1) for p in f[1])
        return (f"{name:<14} spread {100 * f[0]:5.1f} pp · win rate by start place {rates} % "
                f"· on the spaces of places {order}")

    print(line("course's order", own))
    print(line("best order", found[0]))
    print(line("worst order", found[-1]))
    first = [f[2][0] for f in found]
    print(f"start place 1 (moves first): {100 * min(first):.1f}–{100 * max(first):.1f} % over "
          f"the orders; spread under 10 pp in {sum(f[0] < 0.10 for f in found)} of {len(found)}")


if __name__ == "__main__":
    main()
