"""The web table's API fuzz at length: tests/editor/web/fuzz_api.py (every route with every
method, arbitrary and malformed bodies, every kind of token, the WebSocket's first message)
with many more examples than the CI slice, not derandomized. Prints the requests and
sockets sent, the statuses seen and every answer that was a 500 (there must be none).

Run: nice .venv/bin/python bench/bench_fuzz_api.py [--examples 5000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    from tests.editor.web.fuzz_api import fuzz

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--examples", type=int, default=5000)
    args = ap.parse_args()
    t0 = time.monotonic()
    found = fuzz(Path(tempfile.mkdtemp(prefix="bench-fuzz-api-")), args.examples,
                 derandomize=False)
    took = time.monotonic() - t0
    print(f"{found.requests} requests and {found.sockets} WebSockets over {found.routes} "
          f"routes in {took:.0f} s; statuses: "
          + ", ".join(f"{k}: {v}" for k, v in sorted(found.statuses.items())))
    print(f"500s and crashes: {len(found.errors)}")
    for e in found.errors[:20]:
        print("  " + e)
    if found.errors:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
