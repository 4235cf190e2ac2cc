"""A stopped server loses nothing: a second server on the same folders knows every seat's
token again and continues the game from its record, to the end, and the record replays; a
move whose record cannot be written is refused and not made."""

from __future__ import annotations

import shutil

import pytest

from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.record import read_record, replay

from .conftest import LiveServer
from .table_client import TableClient

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
    finally:
        second.stop()
    lines = read_record(tmp_path / "saves" / race["record"])
    rules, board = race_setup(SETUP["ruleset"], [], {}, SETUP["course"])
    assert replay(lines, rules, board).over and lines[-1]["type"] == "result"


def test_a_move_that_cannot_be_written_is_not_made(live_server) -> None:
    table = TableClient.create(live_server.url, {**SETUP, "seed": 4})
    race = table.play_until(1)
    while race["turn"]["human"] is False:
        race = table.play_until(race["ply"] + 1)
    record = live_server.data / "saves" / race["record"]
    token = table.seats[race["turn"]["seat"]]
    before = table.view(token)["race"]
    o = before["private"]["options"][0]
    aside = record.with_suffix(".aside")
    shutil.move(record, aside)
    record.mkdir()  # the record's place cannot be written (as a full disk would refuse)
    try:
        r = table.post("move", token, {"card": o["card"], "space": o["space"]})
        assert r.status_code == 503 and "not made" in r.json()["error"]
        after = table.view(token)["race"]
        assert after["ply"] == before["ply"] and after["private"] == before["private"]
        assert after["log"] == before["log"]
    finally:
        record.rmdir()
        shutil.move(aside, record)
    r = table.post("move", token, {"card": o["card"], "space": o["space"]})
    assert r.status_code == 200 and r.json()["race"]["ply"] == before["ply"] + 1
    assert sum(1 for ln in read_record(record) if ln["type"] != "header") == before["ply"] + 1
