"""Presence within 2 s: how long after a device that pings (as the Play page does, every
0.5 s) goes quiet — a phone that lost its network, its connection left open — another device
is shown that seat away, and how long its next message takes to show it online again. A real
uvicorn server on loopback, a table of two people, a spectator watching; each trial the first
seat pings for a while, stops, and the spectator's pushes are timed from its last ping.
Also checked each trial: the second seat, whose page is in the background (``hidden``) and
silent for as long, stays online. Prints p50 / max of both (the issue asks for 2 s).

Run: nice .venv/bin/python bench/bench_presence.py [--trials 10]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SETUP = {"ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 1,
         "confirm_ms": None, "players": [{"name": "Ada", "bot": None},
                                         {"name": "Bea", "bot": None}]}


def _online(view: dict[str, Any]) -> list[bool]:
    return [s["online"] for s in view["table"]["seats"]]


def trial(url: str) -> tuple[float, float]:
    """One table: (seconds from Ada's last ping to the spectator's view of her away,
    seconds from her next ping to the view of her online)."""
    from tests.editor.web.table_client import LiveDevice, TableClient

    t = TableClient.create(url, SETUP)
    watch = LiveDevice(url, t.tid, {"token": None})
    ada = LiveDevice(url, t.tid, {"token": t.seats[0], "ping": True})
    bea = LiveDevice(url, t.tid, {"token": t.seats[1], "ping": True, "hidden": True})
    try:
        watch.until(lambda v: _online(v) == [True, True], 5)
        for _ in range(4):  # a page pinging as it does
            ada.send({"ping": 1})
            time.sleep(0.5)
        ada.send({"ping": 1})
        quiet = time.monotonic()
        view = watch.until(lambda v: not _online(v)[0], 10)
        away = time.monotonic() - quiet
        assert _online(view)[1], "the background page was shown away"
        ada.send({"ping": 1})
        back = time.monotonic()
        watch.until(lambda v: _online(v)[0], 10)
        return away, time.monotonic() - back
    finally:
        for device in (watch, ada, bea):
            device.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=10)
    args = ap.parse_args()
    from tests.editor.web.conftest import LiveServer

    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(Path(tmp)).start()
        try:
            got = [trial(server.url) for _ in range(args.trials)]
        finally:
            server.stop()
    away = sorted(a for a, _ in got)
    back = sorted(b for _, b in got)
    print(f"shown away after going quiet: p50 {statistics.median(away):.2f} s, "
          f"max {away[-1]:.2f} s over {len(away)} trials (the issue asks for 2 s)")
    print(f"shown online again after its next message: p50 "
          f"{statistics.median(back) * 1000:.1f} ms, max {back[-1] * 1000:.1f} ms")
    print("a background page (hidden) as long silent: online in every trial")


if __name__ == "__main__":
    main()
