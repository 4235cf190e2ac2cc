"""The leak audit over at least 10,000 turns; prints its figures.

Whole races at tables with people, bots, a host and a spectator (several editions, a variant
whose missed turn puts a card under the deck unseen, ramming attacks, a bot standing in for
an absent person now and then): every response to every token — HTTP answers, WebSocket
pushes, the record and the replay of the race in progress — is checked by structure, by
text (the seed) and by non-interference (the same view on a state whose hidden cards are
dealt afresh must be identical). See tests/editor/web/leak_audit.py. Any leak stops the run
with the response that held it.

Run: nice .venv/bin/python bench/bench_leaks.py [--turns 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "editor" / "web"))

import leak_audit


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        audit = leak_audit.run(Path(tmp), args.turns, args.seed, progress=lambda a: print(
            f"  race {a.races}: {a.turns} turns, {a.responses} answers, {a.pushes} pushes "
            f"checked, {time.perf_counter() - start:.0f} s", flush=True))
    took = time.perf_counter() - start
    print(f"leak audit: {audit.races} races, {audit.turns} turns in {took:.0f} s")
    print(f"  responses checked: {audit.responses} answers, {audit.pushes} pushes, "
          f"{audit.records} records and replays of races in progress")
    print(f"  refused: {audit.refused} (unknown tokens, moves with another seat's token); "
          f"why-nots: {audit.why_nots}; bots standing in: {audit.stand_ins}")
    print(f"  a seat's own choices that the rules decide by other hands: "
          f"{audit.rules_read_hands}")
    print("  leaks found: 0")


if __name__ == "__main__":
    main()
