"""One big upload stalls nobody (issue 35): a real ``avecaesar serve`` on loopback, one
table of two people; the move latency of one client alone, then while another client
uploads, one after the other, 240 KB courses (one 120,000-element list, under the 256 KiB
limit; each a little different, so none is a known upload) and 64 KiB house-rules files.
Before issue 35 such a course was parsed on the event loop and held every other client for
6.3 s. Prints p50 / p95 / max of the moves alone and during the uploads, their difference,
and how long the uploads themselves took (parsed in a worker thread within a time budget).

Run: nice .venv/bin/python bench/bench_upload_stall.py [--moves 40] [--uploads 6]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from bench_table_store import LIMITS, _port  # the same server limits and free port

SETUP = {"ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago",
         "delay_ms": None, "confirm_ms": None,
         "players": [{"name": "Ada", "bot": None}, {"name": "Bea", "bot": None}]}


def _course(n: int) -> str:
    return f"name: big{n}\nspaces: [" + ",".join("1" for _ in range(120_000)) + "]\n"


def _house(n: int) -> str:
    rules = "".join(f"  r{n}x{i}.value: {i}\n" for i in range(3000))
    return ("rules:\n" + rules)[: 64 * 1024 - 1]


class Table:
    """The table one client plays at: each person's first offered move, confirmed."""

    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=120)
        made = self.http.post("/api/tables", json=SETUP).json()
        self.tid = made["table"]
        self.tokens = {s["seat"]: s["link"].split("#seat=")[1] for s in made["seats"]}
        self.turn = made["view"]["race"]["turn"]["seat"]

    def move(self) -> float | None:
        """One move's time (the POST only); None when the race is over."""
        tok = self.tokens[self.turn]
        mine = self.http.get(f"/api/tables/{self.tid}", headers={"x-table-token": tok}
                             ).json()["race"]
        if mine["over"]:
            return None
        if mine["turn"]["seat"] != self.turn:
            self.turn = mine["turn"]["seat"]
            return self.move()
        p = mine["private"]
        if p.get("skip"):
            self.http.post(f"/api/tables/{self.tid}/skip", headers={"x-table-token": tok})
            return self.move()
        o = p["options"][0] if p["options"] else {"card": 0, "space": None}
        t0 = time.perf_counter()
        r = self.http.post(f"/api/tables/{self.tid}/move", headers={"x-table-token": tok},
                           json={"card": o["card"], "space": o["space"], "confirm": True})
        took = time.perf_counter() - t0
        if r.status_code != 200:
            raise SystemExit(f"a move was refused: {r.status_code} {r.text[:200]}")
        answer = r.json()["race"]
        if not answer["over"]:
            self.turn = answer["turn"]["seat"]
        return took


def _moves(url: str, n: int, stop: threading.Event | None = None) -> list[float]:
    out: list[float] = []
    table = Table(url)
    while len(out) < n and not (stop is not None and stop.is_set()):
        took = table.move()
        if took is None:
            table = Table(url)
            continue
        out.append(took)
    return out


def _q(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return 1000 * xs[min(len(xs) - 1, int(p * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=40, help="moves timed alone")
    ap.add_argument("--uploads", type=int, default=6, help="uploads of each kind")
    args = ap.parse_args()
    data = Path(tempfile.mkdtemp(prefix="bench-upload-"))
    port = _port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "avecaesar.editor", "serve", "--port", str(port),
           "--data", str(data)]
    for lim in LIMITS:
        cmd += ["--limit", lim]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(url + "/api/text", timeout=2)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        _moves(url, 5)  # warm: the rules composed, the course read
        alone = _moves(url, args.moves)
        took: dict[str, list[float]] = {"course": [], "house": []}
        statuses: dict[int, int] = {}
        stop = threading.Event()

        def upload() -> None:
            with httpx.Client(base_url=url, timeout=120) as http:
                for n in range(args.uploads):
                    for kind, path, body in (
                            ("course", "/api/courses", {"text": _course(n)}),
                            ("house", "/api/rules-files", {"kind": "house",
                                                           "text": _house(n)})):
                        t0 = time.perf_counter()
                        r = http.post(path, json=body)
                        took[kind].append(time.perf_counter() - t0)
                        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
            stop.set()
        th = threading.Thread(target=upload)
        th.start()
        during = _moves(url, 100_000, stop)
        th.join(600)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
    size = len(_course(0).encode("utf-8"))
    print(f"a move alone ({len(alone)}): p50 {_q(alone, 0.5):.1f} ms  p95 "
          f"{_q(alone, 0.95):.1f}  max {_q(alone, 1.0):.1f}")
    if during:
        print(f"while {args.uploads} courses of {size / 1000:.0f} KB and {args.uploads} house "
              f"files of 64 KiB are uploaded ({len(during)} moves): p50 "
              f"{_q(during, 0.5):.1f} ms  p95 {_q(during, 0.95):.1f}  max "
              f"{_q(during, 1.0):.1f}")
        print(f"  delay of another client's move: p50 {_q(during, 0.5) - _q(alone, 0.5):+.1f} "
              f"ms  p95 {_q(during, 0.95) - _q(alone, 0.95):+.1f} ms")
    else:
        print("the uploads were over before a move could be timed")
    for kind, xs in took.items():
        if xs:
            print(f"  an upload of a {kind}: p50 {_q(xs, 0.5):.0f} ms, max {_q(xs, 1.0):.0f} ms")
    print(f"  upload answers: {dict(sorted(statuses.items()))}")
    print(f"  load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
