"""No acknowledged move is lost, each way it was lost before the database (issue 35):

- 200 record uploads by anyone, while a table plays on from an uploaded record: the table's
  race is its own copy in the database, so the uploads cannot take it away, and after a
  restart the table is there with every move;
- a move whose table is freed from memory while its body is still being read: it is applied
  to the current table, and the seat's next move follows it (nothing replaced); a stale copy
  of a table that changes it is caught up by the database's version check, never written over;
- the server process SIGKILLed at random moments while moves are made as fast as a client
  can: after each restart every move that was answered 200 is in the record, with its card
  and path (bench/bench_table_store.py does this at scale)."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import LiveServer
from .table_client import TableClient, saved_record

SETUP = {"ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago",
         "players": [{"name": "Ada", "bot": None}, {"name": "Bea", "bot": None}]}


def _turns(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [ln for ln in lines if ln["type"] in ("move", "wait", "skip")]


def test_more_uploads_than_are_kept_cannot_take_a_live_table_s_record(tmp_path: Path) -> None:
    """The loss of the old file store: 200 record uploads by anyone pushed out the record a
    table plays on. The server keeps ``max-uploads`` of each kind (200 by default); here it
    keeps 20 and gets 25, the same eviction at an eighth of the cost."""
    from avecaesar.editor.web.limits import Limits

    kept_at_most = 20
    lots = Limits.parse(["uploads=1000", f"max-uploads={kept_at_most}"])  # one client sends all
    first = LiveServer(tmp_path, limits=lots).start()
    try:
        base = TableClient.create(first.url, {**SETUP, "seed": 3})
        base.play_until(6)
        name = base.view()["race"]["record"]
        # the full record, as its owner keeps it, uploaded to watch and continue
        full = "".join(json.dumps({k: v for k, v in ln.items() if k != "_line"}) + "\n"
                       for ln in first.app.state.tables.lines_of(name))
        up = httpx.post(f"{first.url}/api/records", json={"text": full})
        assert up.status_code == 200, up.text
        moved = httpx.post(f"{first.url}/api/saves/{up.json()['record']}/table", json={})
        assert moved.status_code == 200, moved.text
        table = TableClient(first.url, moved.json())
        race = table.play_until(10)
        stored = set()
        for i in range(kept_at_most + 5):  # anyone uploads records (each one different)
            other = full.replace('"Ada"', f'"Ada{i}"')
            r = httpx.post(f"{first.url}/api/records", json={"text": other})
            assert r.status_code == 200, r.text
            stored.add(r.json()["record"])
        assert len(stored) == kept_at_most + 5
        first.app.state.tables.retention()  # what the server runs every ten minutes
        race = table.play_until(race["ply"] + 2)
    finally:
        first.stop()
    second = LiveServer(tmp_path, limits=lots).start()
    try:
        kept = second.app.state.store.upload_names("record")
        assert len(kept) <= kept_at_most + 1 and up.json()["record"] not in kept  # they went
        again = TableClient(second.url, {"table": table.tid, "token": table.host,
                                         "seats": []})
        view = again.view()["race"]
        assert view["ply"] == race["ply"] and view["log"] == race["log"]
        assert len(_turns(saved_record(second.url, view["record"]))) == race["ply"]
    finally:
        second.stop()


def _slow_move(port: int, tid: str, token: str, body: bytes, pause: threading.Event,
               out: list[Any]) -> None:
    """A move whose body arrives in two parts, the second once ``pause`` is set."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        s.sendall((f"POST /api/tables/{tid}/move HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                   "Content-Type: application/json\r\n"
                   f"X-Table-Token: {token}\r\nContent-Length: {len(body)}\r\n\r\n").encode()
                  + body[:5])
        pause.wait(30)
        s.sendall(body[5:])
        data = b""
        while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < int(
                data.split(b"content-length: ", 1)[1].split(b"\r\n", 1)[0] if
                b"content-length: " in data else 10**9):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        out.append((int(head.split(b" ")[1]), json.loads(rest)))


def test_a_move_whose_table_is_freed_while_its_body_is_read(live_server, monkeypatch
                                                            ) -> None:
    from avecaesar.editor.web import tables as tables_module

    url = live_server.url
    port = int(url.rsplit(":", 1)[1])
    table = TableClient.create(url, {**SETUP, "seed": 8, "confirm_ms": None})
    view = table.view()["race"]
    token = table.seats[view["turn"]["seat"]]
    o = table.view(token)["race"]["private"]["options"][0]
    body = json.dumps({"card": o["card"], "space": o["space"], "confirm": True}).encode()
    monkeypatch.setattr(tables_module, "MAX_LOADED", 1)
    pause, out = threading.Event(), []
    mover = threading.Thread(target=_slow_move, args=(port, table.tid, token, body, pause, out))
    mover.start()
    time.sleep(0.3)
    loaded = live_server.app.state.tables.loaded
    before = loaded.get(table.tid)
    for _ in range(2):  # anyone sets up tables: this one is freed from memory
        TableClient.create(url, {**SETUP, "confirm_ms": None})
    assert loaded.get(table.tid) is not before
    pause.set()
    mover.join(60)
    status, answer = out[0]
    assert status == 200 and answer["race"]["ply"] == 1, answer
    nxt = table.play_until(2)  # the next person's move follows it
    assert nxt["ply"] == 2
    kept = _turns(saved_record(url, view["record"]))
    assert [(t["ply"], t.get("card")) for t in kept][:1] == [(1, o["card"])] and len(kept) == 2


def test_a_stale_copy_is_caught_up_not_written_over(tmp_path: Path) -> None:
    """Two copies of one table in memory (two server processes would have them): moves
    through the newer copy, then a change through the older — the database's version check
    refuses the stale write; the copy catches up and the change is made on top."""
    import warnings

    from avecaesar.editor.table.choices import options
    from avecaesar.editor.web.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    app = create_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        out = c.post("/api/tables", json={**SETUP, "seed": 9, "confirm_ms": None,
                                          "delay_ms": None}).json()
        tid = out["table"]
        seats = {s["seat"]: s["link"].split("#seat=")[1] for s in out["seats"]}
        tables = app.state.tables
        stale = tables.loaded.pop(tid)  # the old copy, freed; a new one is loaded
        for _ in range(2):
            race = c.get(f"/api/tables/{tid}").json()["race"]
            tok = seats[race["turn"]["seat"]]
            o = c.get(f"/api/tables/{tid}", headers={"x-table-token": tok}).json()[
                "race"]["private"]["options"][0]
            r = c.post(f"/api/tables/{tid}/move", headers={"x-table-token": tok},
                       json={"card": o["card"], "space": o["space"], "confirm": True})
            assert r.status_code == 200, r.text
        assert tables.loaded[tid] is not stale and stale.game.state.ply == 0

        def make() -> None:
            g = stale.game
            assert g is not None and g.state.ply == 2  # caught up before it changes
            m = options(g.state)[0]
            assert g.move(m.card, m.path[-1] if m.path else None, shared=False,
                          confirm=True) is None

        async def step() -> None:
            await stale.change(make)
        assert c.portal is not None
        c.portal.call(step)
        name = c.get(f"/api/tables/{tid}").json()["race"]["record"]
        kept = _turns(tables.lines_of(name))
    assert [t["ply"] for t in kept] == [1, 2, 3]


def _serve(data: Path, port: int) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-m", "avecaesar.editor", "serve", "--port",
                             str(port), "--data", str(data), "--limit", "new-tables=1000",
                             "--limit", "tables-per-client=1000"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/text", timeout=2)
            return proc
        except httpx.HTTPError:
            assert proc.poll() is None and time.monotonic() < deadline, "no server"
            time.sleep(0.1)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.covers("command:serve")
def test_sigkill_at_random_moments_loses_no_acknowledged_move(tmp_path: Path) -> None:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    rng = random.Random(35)
    proc = _serve(tmp_path, port)
    acked: dict[str, dict[int, tuple[int, list[int]]]] = {}
    tables: list[TableClient] = []
    try:
        for _ in range(3):
            t = TableClient.create(url, {**SETUP, "confirm_ms": None})
            tables.append(t)
            acked[t.tid] = {}
        for _kill in range(3):
            stop = threading.Event()

            def play(t: TableClient, stop: threading.Event = stop) -> None:
                while not stop.is_set():
                    try:
                        race = t.view()["race"]
                        if race["over"]:
                            return
                        tok = t.seats[race["turn"]["seat"]]
                        p = t.view(tok)["race"]["private"]
                        if p.get("skip"):
                            r = t.post("skip", tok)
                            continue
                        o = p["options"][0] if p["options"] else {"card": 0, "space": None}
                        r = t.post("move", tok, {"card": o["card"], "space": o["space"],
                                                 "confirm": True})
                        if r.status_code == 200:
                            ply = r.json()["race"]["ply"]
                            path = [x for x in r.json()["race"]["log"] if x["ply"] == ply]
                            acked[t.tid][ply] = (o["card"], [o.get("space")] if path else [])
                    except (httpx.HTTPError, AssertionError, KeyError, ValueError):
                        time.sleep(0.02)
            threads = [threading.Thread(target=play, args=(t,)) for t in tables]
            for th in threads:
                th.start()
            time.sleep(rng.uniform(0.5, 2.5))
            proc.send_signal(signal.SIGKILL)  # no goodbye, nothing flushed by it
            proc.wait(20)
            stop.set()
            for th in threads:
                th.join(30)
            proc = _serve(tmp_path, port)
            for t in tables:
                t.http = httpx.Client(base_url=url, timeout=60)
                lines = saved_record(url, t.view()["race"]["record"])
                kept = {ln["ply"]: ln for ln in _turns(lines)}
                for ply, (card, _space) in acked[t.tid].items():
                    assert ply in kept, f"acknowledged ply {ply} of {t.tid} lost"
                    assert kept[ply].get("card", 0) == card
        assert sum(len(a) for a in acked.values()) > 20
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
