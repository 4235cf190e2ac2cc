"""The web table's database, the same contract for SQLite and a real PostgreSQL (Debian's,
started in a temporary folder: postgres.py): one transaction per change that checks the
version it was computed from, turns under (race, ply) never twice, uploads by their hash,
retention that never deletes a table whose race has not ended, the database file private.
Then ``serve --db postgresql://…`` as two server processes on one database: a device on one
is pushed the moves made through the other (LISTEN/NOTIFY), and when one process is
SIGKILLed the other plays on with every acknowledged move."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from avecaesar.editor.web.store import (
    Change,
    Conflict,
    PostgresStore,
    RaceRow,
    SQLiteStore,
    Store,
    TableRow,
)

from . import postgres
from .table_client import TableClient, saved_record


@pytest.fixture(scope="module")
def pg() -> Iterator[postgres.Postgres]:
    found = postgres.start()
    if isinstance(found, tuple):
        if os.environ.get("CI"):
            pytest.fail(found[1])
        pytest.skip(found[1])
    yield found
    found.stop()


def _fresh_pg(pg: postgres.Postgres, name: str) -> str:
    """A database of its own for one test."""
    import psycopg

    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    return pg.url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        s: Store = SQLiteStore(tmp_path / "tables.db")
    else:
        s = PostgresStore(_fresh_pg(request.getfixturevalue("pg"), "contract"))
    yield s
    s.close()


def _table(store: Store, tid: str = "t000000000001", race: str = "r1.jsonl") -> None:
    store.create(TableRow(tid, 1, {"seats": []}, {}, race, client="10.0.0.1"),
                 RaceRow(race, tid, {"type": "header", "course": "dicetree-2022/x"},
                         "dicetree-2022/x"))


def _move(ply: int) -> dict[str, Any]:
    return {"type": "move", "ply": ply, "chariot": "A", "card": 1, "path": [1]}


def test_a_change_is_applied_to_the_version_it_was_computed_from(store: Store) -> None:
    _table(store)
    tid = "t000000000001"
    v = store.commit(Change(tid, 1, {"pending": None}, "r1.jsonl", 0, [_move(1)]))
    assert v == 2 and store.version(tid) == 2
    with pytest.raises(Conflict):  # computed on version 1: stale
        store.commit(Change(tid, 1, {}, "r1.jsonl", 1, [_move(2)]))
    with pytest.raises(Conflict):  # the race is at ply 1, not 0: never two turns at a ply
        store.commit(Change(tid, 2, {}, "r1.jsonl", 0, [_move(1)]))
    assert store.version(tid) == 2 and [m["ply"] for m in store.moves("r1.jsonl")] == [1]
    assert store.commit(Change(tid, 2, {"x": 1}, "r1.jsonl", 1, [_move(2)],
                               result={"type": "result"}, over=True)) == 3
    lines = store.record_lines("r1.jsonl")
    assert lines is not None and [ln["type"] for ln in lines] == [
        "header", "move", "move", "result"]
    t = store.table(tid)
    assert t is not None and t.turn == {"x": 1} and t.over


def test_uploads_and_retention_keep_what_is_in_use(store: Store) -> None:
    assert store.put_upload("course", "a" * 16, "name: x\n", "c1")
    assert not store.put_upload("course", "a" * 16, "name: x\n", "c1")  # kept already
    for i in range(5):
        store.put_upload("record", f"upload-{i:012x}.jsonl", "{}", "c1")
        time.sleep(0.01)
    _table(store, "t000000000001", "r1.jsonl")  # running: never deleted
    _table(store, "t000000000002", "r2.jsonl")
    store.commit(Change("t000000000002", 1, {}, "r2.jsonl", 0, [], result={}, over=True))
    gone = store.sweep(time.time() + 10, 5, 2, 10)
    assert gone["tables"] == 1 and store.table("t000000000001") is not None
    assert store.table("t000000000002") is None and store.race("r2.jsonl") is not None
    assert len(store.upload_names("record")) == 2  # the two most recently used
    assert store.counts("10.0.0.1", 0)["running_mine"] == 1


def test_the_sqlite_file_is_private(tmp_path: Path) -> None:
    s = SQLiteStore(tmp_path / "tables.db")
    _table(s)
    assert (tmp_path / "tables.db").stat().st_mode & 0o777 == 0o600
    assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert s.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    s.close()


def _port() -> int:
    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        return int(sk.getsockname()[1])


def _serve(data: Path, db: str) -> tuple[subprocess.Popen[str], str]:
    port = _port()
    proc = subprocess.Popen([sys.executable, "-m", "avecaesar.editor", "serve", "--port",
                             str(port), "--data", str(data), "--db", db],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(url + "/api/text", timeout=2)
            return proc, url
        except httpx.HTTPError:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)


def _pushes(url: str, tid: str, token: str | None, out: list[dict[str, Any]],
            stop: threading.Event) -> None:
    """A device's live socket (raw, over the websockets-free HTTP upgrade of httpx is not
    possible: a small wsproto client)."""
    import wsproto
    import wsproto.events as ev

    host, port = url.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=5) as s:
        ws = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
        s.sendall(ws.send(ev.Request(host=f"{host}:{port}",
                                     target=f"/api/tables/{tid}/live")))
        s.settimeout(0.3)
        sent, buf = False, ""
        while not stop.is_set():
            try:
                data = s.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            if not data:
                return
            ws.receive_data(data)
            for e in ws.events():
                if isinstance(e, ev.AcceptConnection) and not sent:
                    s.sendall(ws.send(ev.TextMessage(json.dumps({"token": token}))))
                    sent = True
                elif isinstance(e, ev.TextMessage):
                    buf += e.data
                    if e.message_finished:
                        out.append(json.loads(buf))
                        buf = ""
                elif isinstance(e, ev.Ping):
                    s.sendall(ws.send(e.response()))


@pytest.mark.covers("command:serve")
def test_two_server_processes_on_one_postgresql(pg: postgres.Postgres, tmp_path: Path
                                                 ) -> None:
    db = _fresh_pg(pg, "two")
    a, url_a = _serve(tmp_path / "a", db)
    b, url_b = _serve(tmp_path / "b", db)  # its own folder: the database is all they share
    stop = threading.Event()
    try:
        table = TableClient.create(url_a, {
            "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago",
            "confirm_ms": None, "players": [{"name": "Ada", "bot": None},
                                            {"name": "Bea", "bot": None}]})
        seen: list[dict[str, Any]] = []
        watcher = threading.Thread(target=_pushes, args=(url_b, table.tid, None, seen, stop))
        watcher.start()
        deadline = time.monotonic() + 20
        while not seen:
            assert time.monotonic() < deadline, "no first view from process B"
            time.sleep(0.05)
        race = table.play_until(6)  # every move through process A
        deadline = time.monotonic() + 20
        while max(v["race"]["ply"] for v in seen) < race["ply"]:
            assert time.monotonic() < deadline, "process B did not push A's moves"
            time.sleep(0.05)
        a.send_signal(signal.SIGKILL)  # one process dies: the devices go on with the other
        a.wait(20)
        table.http = httpx.Client(base_url=url_b, timeout=60)
        assert table.view()["race"]["ply"] == race["ply"]
        done = table.play_until(race["ply"] + 6)
        lines = saved_record(url_b, done["record"])
        # every turn kept once, in order (a wait or a skip is a turn too: the server deals,
        # so the race differs from run to run)
        turns = [ln["ply"] for ln in lines if ln["type"] in ("move", "wait", "skip")]
        assert turns == list(range(1, done["ply"] + 1))
    finally:
        stop.set()
        for p in (a, b):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                p.wait(20)


def test_server_processes_started_at_once_make_the_schema_once(pg: postgres.Postgres) -> None:
    """Several processes opening a fresh database at the same moment (a proxy starting its
    servers): one makes the tables, the others wait for it (PostgreSQL's concurrent
    ``CREATE TABLE IF NOT EXISTS`` is not safe on its own: a unique violation in its
    catalog)."""
    db = _fresh_pg(pg, "together")
    gate = threading.Barrier(6)
    errors: list[BaseException] = []
    opened: list[Store] = []

    def open_it() -> None:
        gate.wait()
        try:
            opened.append(PostgresStore(db))
        except BaseException as err:  # collected and shown below
            errors.append(err)
    threads = [threading.Thread(target=open_it) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for s in opened:
        s.close()
    assert errors == [] and len(opened) == 6
