"""A stopped server loses nothing: a second server on the same database knows every seat's
token again and continues the game, to the end, and the record replays; a move the
database cannot keep (its disk full) is refused and not made."""

from __future__ import annotations

import sqlite3

import pytest

from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.record import replay

from .conftest import LiveServer
from .table_client import TableClient, saved_record

SETUP = {"ruleset": "pro-ludo-2006", "course": "pro-ludo-2006/circus-maximus", "seed": 21,
         "players": [{"name": "Livia", "bot": None}, {"name": "Marcus", "bot": None},
                     {"name": "Bot", "bot": "search"}]}


@pytest.mark.covers("page:play")
def test_a_second_server_continues_the_game(tmp_path) -> None:
    first = LiveServer(tmp_path).start()
    try:
        table = TableClient.create(first.url, SETUP)
        race = table.play_until(15)
        seen = {s: table.view(tok)["race"] for s, tok in table.seats.items()}
    finally:
        first.stop()
    second = LiveServer(tmp_path).start()
    try:
        again = TableClient(second.url, {"table": table.tid, "token": table.host,
                                         "seats": []})
        again.seats = table.seats  # the same links, kept by each device
        view = again.view()["race"]
        assert view["ply"] == race["ply"] and view["log"] == race["log"]
        for s, tok in table.seats.items():  # each seat's hand, as before the restart
            assert again.view(tok)["race"]["private"] == seen[s]["private"]
        done = again.play_until(10_000)
        assert done["over"] and len(done["result"]["placings"]) == 3
        lines = saved_record(second.url, race["record"])
    finally:
        second.stop()
    rules, board = race_setup(SETUP["ruleset"], [], {}, SETUP["course"])
    assert replay(lines, rules, board).over and lines[-1]["type"] == "result"


def test_a_move_that_cannot_be_written_is_not_made(live_server) -> None:
    """The database cannot keep the change (another process holds the file: SQLite's own
    error, as a full disk gives another): the confirmation is refused with 503 and nothing
    changed — the move still waits; once the database can write again it is made."""
    table = TableClient.create(live_server.url, {**SETUP, "seed": 4})
    race = table.play_until(1)
    while race["turn"]["human"] is False:
        race = table.play_until(race["ply"] + 1)
    token = table.seats[race["turn"]["seat"]]
    o = table.view(token)["race"]["private"]["options"][0]
    assert table.post("move", token, {"card": o["card"], "space": o["space"]}
                      ).status_code == 200
    before = table.view(token)["race"]
    store = live_server.app.state.store
    with store.lock:
        store.conn.execute("PRAGMA busy_timeout = 300")
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another process holds the file: nothing can be written
    try:
        r = table.post("confirm", token)
        assert r.status_code == 503 and "not made" in r.json()["error"], r.text
    finally:
        other.execute("ROLLBACK")
        other.close()
        with store.lock:
            store.conn.execute("PRAGMA busy_timeout = 30000")
    after = table.view(token)["race"]
    assert after["ply"] == before["ply"] and after["private"] == before["private"]
    assert after["log"] == before["log"] and after["turn"]["phase"] == "pending"
    r = table.post("confirm", token)
    assert r.status_code == 200 and r.json()["race"]["ply"] == before["ply"] + 1
    lines = saved_record(live_server.url, race["record"])
    assert sum(1 for ln in lines if ln["type"] not in ("header", "result")) == before["ply"] + 1
