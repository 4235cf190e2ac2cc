"""The web table's database under load, with the server killed: N tables of 4 seats, every
seat a bot client on loopback that reads its own view and plays a move (chosen and
confirmed in one request: ``{"card", "space", "confirm": true}``, the acknowledged move),
each table pausing ``--think`` seconds between turns as players do. Meanwhile the server
process is SIGKILLed at random moments and started again. At the end every move answered
200 is looked up in the record the server exports: lost acknowledged moves must be 0.

Two set-ups: ``--db sqlite`` (one ``serve`` process on its SQLite file) and
``--db postgresql`` (two ``serve`` processes on one PostgreSQL — Debian's, started in a
temporary folder as the tests do — each table's bots on one of them; when theirs is killed
they go on through the other, as a proxy would send them).

Prints the move latency (p50 / p95 / p99 / max of the acknowledged moves), the moves per
second, the kills, the requests refused while a server was down, and the lost moves.

Run: nice .venv/bin/python bench/bench_table_store.py --db sqlite [--tables 200]
     nice .venv/bin/python bench/bench_table_store.py --db postgresql [--tables 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: a restarted server reloads each table from the database on its first request: the moves
#: this long after a restart are also shown apart
RECOVERY = 5.0
SETUP = {"ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago",
         "delay_ms": None, "confirm_ms": None,
         "players": [{"name": f"Bot{i + 1}", "bot": None} for i in range(4)]}
LIMITS = ["new-tables=100000", "tables-per-client=100000", "running-tables=100000",
          "uploads=100000"]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One ``avecaesar serve`` process, killed and started again on the same port."""

    def __init__(self, data: Path, db: str | None) -> None:
        self.data, self.db, self.port = data, db, _port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        args = [sys.executable, "-m", "avecaesar.editor", "serve", "--port", str(self.port),
                "--data", str(self.data)]
        if self.db:
            args += ["--db", self.db]
        for lim in LIMITS:
            args += ["--limit", lim]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)

    def up(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                httpx.get(self.url + "/api/text", timeout=2)
                return
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(20)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@dataclass
class Figures:
    latency: list[float] = field(default_factory=list)
    #: the latency of the moves made more than RECOVERY seconds after a restart
    steady: list[float] = field(default_factory=list)
    restarted: float = -1e9  # when the last restarted server was up again
    acked: dict[str, dict[int, tuple[int, list[int]]]] = field(default_factory=dict)
    refused: int = 0  # requests that met a server down (connection refused, reset)
    errors5xx: int = 0
    kills: int = 0
    failovers: int = 0
    setup_s: float = 0.0


async def _create(http: httpx.AsyncClient, url: str, gate: asyncio.Semaphore) -> Any:
    async with gate:
        r = await http.post(url + "/api/tables", json=SETUP)
        r.raise_for_status()
        return r.json()


async def _table(http: httpx.AsyncClient, servers: list[Server], home: int, created: Any,
                 fig: Figures, plies: int, think: float, rng: random.Random,
                 deadline: float) -> None:
    """One table: its four bot seats play until ``plies`` (or the end)."""
    at = home
    tid = created["table"]
    tokens = {s["seat"]: s["link"].split("#seat=")[1] for s in created["seats"]}
    acked = fig.acked.setdefault(tid, {})
    await asyncio.sleep(rng.uniform(0, think))
    turn = created["view"]["race"]["turn"]["seat"]  # whose turn: each answer says
    while time.monotonic() < deadline:
        url = servers[at].url + f"/api/tables/{tid}"
        try:
            tok = tokens[turn]
            mine = (await http.get(url, headers={"x-table-token": tok})).json()["race"]
            if mine["over"] or mine["ply"] >= plies:
                return
            if mine["turn"]["seat"] != turn:
                turn = mine["turn"]["seat"]
                continue
            p = mine["private"]
            if p.get("skip"):
                r = await http.post(url + "/skip", headers={"x-table-token": tok})
                if r.status_code == 200 and not r.json()["race"]["over"]:
                    turn = r.json()["race"]["turn"]["seat"]
                continue
            o = rng.choice(p["options"]) if p["options"] else {"card": 0, "space": None}
            t0 = time.perf_counter()
            r = await http.post(url + "/move", headers={"x-table-token": tok},
                                json={"card": o["card"], "space": o["space"],
                                      "confirm": True})
            took = time.perf_counter() - t0
            if r.status_code == 200 and "why_not" not in r.json():
                answer = r.json()["race"]
                ply = answer["ply"]
                acked[ply] = (o["card"], o.get("path", []))
                if not answer["over"]:
                    turn = answer["turn"]["seat"]
                fig.latency.append(took)
                if time.monotonic() - fig.restarted > RECOVERY:
                    fig.steady.append(took)
            elif r.status_code >= 500:
                fig.errors5xx += 1
        except (httpx.HTTPError, ValueError, KeyError):
            fig.refused += 1
            if len(servers) > 1:
                at = (at + 1) % len(servers)  # the proxy sends it to the other process
                fig.failovers += 1
            await asyncio.sleep(0.2)
            continue
        await asyncio.sleep(think)


async def _killer(servers: list[Server], fig: Figures, rng: random.Random, every: float,
                  kills: int, stop: asyncio.Event) -> None:
    for _ in range(kills):
        try:
            await asyncio.wait_for(stop.wait(), rng.uniform(0.5 * every, 1.5 * every))
            return
        except TimeoutError:
            pass
        victim = rng.choice(servers)
        victim.kill()  # SIGKILL: no goodbye, nothing flushed by the server itself
        fig.kills += 1
        await asyncio.sleep(rng.uniform(0.2, 1.5))
        victim.start()
        await asyncio.to_thread(victim.up)
        fig.restarted = time.monotonic()


async def _run(args: argparse.Namespace, servers: list[Server]) -> Figures:
    fig = Figures()
    rng = random.Random(args.seed)
    limits = httpx.Limits(max_connections=args.tables * 2, max_keepalive_connections=args.tables)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        t0 = time.monotonic()
        gate = asyncio.Semaphore(4)  # the tables are set up first, a few at a time
        made = await asyncio.gather(*(_create(http, servers[i % len(servers)].url, gate)
                                      for i in range(args.tables)))
        fig.setup_s = time.monotonic() - t0
        deadline = time.monotonic() + args.minutes * 60
        stop = asyncio.Event()
        killer = asyncio.create_task(_killer(servers, fig, rng, args.kill_every, args.kills,
                                             stop))
        await asyncio.gather(*(
            _table(http, servers, i % len(servers), made[i], fig, args.plies, args.think,
                   random.Random(rng.random()), deadline) for i in range(args.tables)))
        stop.set()
        await killer
    return fig


def _lost(servers: list[Server], fig: Figures) -> tuple[int, int]:
    """(acknowledged moves, those missing from the record or not as acknowledged)."""
    lost = total = 0
    url = servers[0].url
    with httpx.Client(base_url=url, timeout=60) as http:
        for tid, acks in fig.acked.items():
            race = http.get(f"/api/tables/{tid}").json()["race"]
            text = http.get(f"/api/saves/{race['record']}").text
            import json

            kept = {ln["ply"]: ln for ln in map(json.loads, text.splitlines())
                    if ln.get("type") in ("move", "wait", "skip")}
            for ply, (card, _path) in acks.items():
                total += 1
                if ply not in kept or kept[ply].get("card", 0) != card:
                    lost += 1
    return total, lost


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--plies", type=int, default=40, help="turns each table plays")
    ap.add_argument("--think", type=float, default=2.0,
                    help="seconds a table waits between its turns (players think)")
    ap.add_argument("--kills", type=int, default=6)
    ap.add_argument("--kill-every", type=float, default=8.0, help="seconds between kills")
    ap.add_argument("--minutes", type=float, default=6.0, help="stop the run after this")
    ap.add_argument("--seed", type=int, default=35)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-store-"))
    pg = None
    if args.db == "postgresql":
        from tests.editor.web import postgres

        pg = postgres.start()
        if isinstance(pg, tuple):
            raise SystemExit(f"no PostgreSQL: {pg[1]}")
        servers = [Server(work / "a", pg.url), Server(work / "b", pg.url)]
    else:
        servers = [Server(work, None)]
    try:
        for s in servers:
            s.start()
        for s in servers:
            s.up()
        t0 = time.monotonic()
        fig = asyncio.run(_run(args, servers))
        wall = time.monotonic() - t0
        total, lost = _lost(servers, fig)
    finally:
        for s in servers:
            s.stop()
        if pg is not None:
            pg.stop()
    lat = sorted(fig.latency)
    steady = sorted(fig.steady)

    def q(p: float, xs: list[float] | None = None) -> float:
        xs = lat if xs is None else xs
        return 1000 * xs[min(len(xs) - 1, int(p * len(xs)))] if xs else float("nan")
    what = ("SQLite, one server process" if args.db == "sqlite"
            else "PostgreSQL, two server processes")
    print(f"{what}: {args.tables} tables x 4 bot seats, think {args.think:g} s, "
          f"{fig.kills} SIGKILLs (every ~{args.kill_every:g} s), {wall:.0f} s "
          f"(setting up the tables: {fig.setup_s:.0f} s)")
    print(f"  acknowledged moves: {total} ({total / wall:.1f}/s); lost: {lost}")
    print(f"  move latency ms: p50 {q(0.5):.1f}  p95 {q(0.95):.1f}  p99 {q(0.99):.1f}  "
          f"max {1000 * lat[-1] if lat else float('nan'):.1f}  "
          f"(mean {1000 * statistics.fmean(lat) if lat else float('nan'):.1f})")
    print(f"  more than {RECOVERY:g} s after a restart ({len(steady)} moves): p50 "
          f"{q(0.5, steady):.1f}  p95 {q(0.95, steady):.1f}  p99 {q(0.99, steady):.1f}")
    print(f"  requests that met a server down: {fig.refused}; failovers: {fig.failovers}; "
          f"5xx answers: {fig.errors5xx}")
    print(f"  load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
