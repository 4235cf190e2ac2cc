"""Regenerate the golden playthroughs (run when a rule change is meant; review the diff).

    .venv/bin/python tests/core/regen_golden.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))  # tests/conftest.py

from conftest import OVAL, OVERRIDES, edition_rules  # noqa: E402

from avecaesar.engine.bots.registry import OWNERLESS, make_policy  # noqa: E402
from avecaesar.engine.core.board import Board  # noqa: E402
from avecaesar.engine.core.race import run_race  # noqa: E402
from avecaesar.engine.core.record import record_lines, write_record  # noqa: E402
from avecaesar.engine.course.load import load_course  # noqa: E402

GOLDEN = HERE / "golden"
# every player count the editions allow (2-6; 1989 says 3-6, and its 2-player race also
# exercises the top-card chariots that fill the empty places)
CASES = [(e, n) for e in ("dicetree-2022", "ravensburger-1989", "pro-ludo-2006")
         for n in (2, 3, 4, 5, 6)]
SEED = 2026


def main() -> None:
    board = Board.from_graph(load_course(str(OVAL)).graph, "oval")
    GOLDEN.mkdir(exist_ok=True)
    for edition, n in CASES:
        rules = edition_rules(edition)
        bots = ["greedy" if i % 2 == 0 else "random" for i in range(n)]
        names = [f"P{i + 1}-{b}" for i, b in enumerate(bots)]
        run = run_race(rules, board, names,
                       [make_policy(b, SEED * 100 + i) for i, b in enumerate(bots)], SEED,
                       ownerless=OWNERLESS)
        header = {"ruleset": edition, "variants": [], "overrides": OVERRIDES[edition],
                  "course": "tests/core/courses/oval.yaml", "seed": SEED,
                  "players": [{"name": x, "bot": b} for x, b in zip(names, bots, strict=True)]}
        path = GOLDEN / f"{edition}-{n}p.jsonl"
        write_record(path, record_lines(run, header))
        print(f"wrote {path} ({len(run.turns)} turns, {run.state.end})")


if __name__ == "__main__":
    main()
