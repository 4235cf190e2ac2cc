"""The table's API beyond a race: rules files stored in the record, the host's seat controls,
idle tables freed, nothing stored per studio keystroke, uploads bounded, a WebSocket from
another site refused, and `serve --host 0.0.0.0` printing who can reach it and each new
table's join links with their QR codes."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import httpx
import pytest

from avecaesar.editor.web.tables import IDLE_AFTER, Role

from .table_client import TableClient, saved_record

BASE = {"ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 12,
        "players": [{"name": "Ada", "bot": None}, {"name": "Bea", "bot": None},
                    {"name": "Bot", "bot": "greedy"}]}

VARIANT = """id: our-short-race
kind: variant
title: Our short race
summary: two laps, the alley in laps 1-2
source: "house rule: our group"
applies_to: [any]
rules:
  race:
    laps: {value: 2, source: "house rule: our group"}
  alley:
    laps: {value: [1, 2], source: "house rule: our group"}
"""


def test_a_variant_file_and_a_house_file_go_into_the_record(live_server) -> None:
    url = live_server.url
    var = httpx.post(url + "/api/rules-files", json={"kind": "variant", "text": VARIANT})
    assert var.status_code == 200 and var.json()["keys"] == ["alley.laps", "race.laps"]
    house = httpx.post(url + "/api/rules-files", json={
        "kind": "house", "text": "rules:\n  scoring.places: [9, 6, 4, 3, 2, 1]\n"}).json()
    table = TableClient.create(url, {**BASE, "variant_file": var.json()["ref"],
                                     "house_file": house["ref"]})
    head = saved_record(url, table.view()["race"]["record"])[0]
    assert head["house"]["race.laps"] == {"value": 2, "source": "house rule: our group"}
    assert head["house"]["scoring.places"]["value"] == [9, 6, 4, 3, 2, 1]
    assert table.view()["race"]["chariots"][0]["laps"] == 2
    bad = httpx.post(url + "/api/rules-files", json={"kind": "variant",
                                                     "text": "id: x\nkind: variant\n"})
    assert bad.status_code == 400 and "Traceback" not in bad.text


def test_each_token_s_view_names_its_role_as_before(live_server) -> None:
    """The roles are one enum (tables.py's Role); the views' JSON still says "host",
    "seat" and "spectator", and the seat's view is its own."""
    table = TableClient.create(live_server.url, BASE)
    assert table.view()["role"] == Role.SPECTATOR == "spectator"
    assert table.view(table.host)["role"] == "host"
    seat, token = next(iter(table.seats.items()))
    mine = table.view(token)
    assert mine["role"] == "seat" and mine["you"]["seat"] == seat
    assert sorted(Role) == ["host", "seat", "spectator"]


def test_the_host_hands_an_absent_seat_to_a_bot_and_back(live_server) -> None:
    table = TableClient.create(live_server.url, BASE)
    person = 0
    seat_url = f"/api/tables/{table.tid}/seat"
    r = table.http.post(seat_url, json={"seat": person, "bot": "greedy"},
                        headers={"x-table-token": table.seats[person]})
    assert r.status_code == 403  # only the host
    r = table.http.post(seat_url, json={"seat": 2, "bot": "greedy"},
                        headers={"x-table-token": table.host})
    assert r.status_code == 409 and "bot's" in r.json()["error"]
    r = table.http.post(seat_url, json={"seat": person, "bot": "greedy"},
                        headers={"x-table-token": table.host})
    assert r.status_code == 200
    assert r.json()["table"]["seats"][person]["stand_in"] == "greedy"
    mine = [c for c in r.json()["race"]["chariots"] if c["seat"] == person]
    assert mine and not mine[0]["human"] and mine[0]["stand_in"]
    race = table.view()["race"]
    while race["turn"]["seat"] != person:  # the others play until Ada's turn
        race = table.play_until(race["ply"] + 1)
    assert not race["turn"]["human"]  # a bot moves for her: the host asks it to
    assert table.post("move", table.seats[person], {"card": 0}).status_code == 400
    r = table.post("step", table.host)
    assert r.status_code == 200 and r.json()["race"]["ply"] == race["ply"] + 1
    r = table.http.post(seat_url, json={"seat": person, "bot": None},
                        headers={"x-table-token": table.host})
    assert r.json()["table"]["seats"][person]["stand_in"] is None
    view = table.view(table.seats[person])["race"]  # her own view: her hand only
    assert set(view["private"]["hands"]) == set(view["mine"]) and view["mine"]


def test_idle_tables_are_freed_and_come_back_from_the_database(live_server) -> None:
    tables = live_server.app.state.tables
    table = TableClient.create(live_server.url, BASE)
    race = table.play_until(4)
    assert table.tid in tables.loaded
    now = time.monotonic()
    assert table.tid not in tables.free(now + 1)  # in use
    assert table.tid in tables.free(now + IDLE_AFTER + 1)
    assert table.tid not in tables.loaded
    view = table.view(table.seats[0])  # asked again: read back from the database
    assert view["you"]["name"] == "Ada" and table.tid in tables.loaded
    assert view["race"]["ply"] == race["ply"] and view["race"]["log"] == table.view(
        table.seats[0])["race"]["log"]


def test_studio_checks_store_nothing_and_uploads_are_bounded(live_server) -> None:
    from avecaesar.engine.data.paths import COURSES_DIR

    store = live_server.app.state.store
    folder = live_server.data / "uploads" / "courses"
    before, kept = set(os.listdir(folder)), set(store.upload_names("course"))
    text = (COURSES_DIR / "homebrew" / "rome.yaml").read_text(encoding="utf-8")
    for i in range(5):  # five keystrokes
        r = httpx.post(live_server.url + "/api/studio/check", json={"text": text + "#" * i})
        assert r.status_code == 200 and r.json()["courses"]
    assert set(os.listdir(folder)) == before and set(store.upload_names("course")) == kept
    refs = []
    for i in range(6):
        r = httpx.post(live_server.url + "/api/courses", json={"text": text + f"#{i}\n"})
        assert r.status_code == 200
        refs.append(r.json()["course"].split(":")[1])
    played = TableClient.create(live_server.url, {**BASE, "course": "upload:" + refs[0]})
    gone = store.sweep(time.time(), 30 * 86400, 3, 10_000)  # keep 3 uploads of a kind
    names = set(store.upload_names("course"))
    raced = {n for n in names if any(n in r.course for r in store.races(10_000))}
    assert refs[0] in raced  # a course a race is played on stays
    assert gone["uploads"] >= 2 and len(names - raced) <= 3
    live_server.app.state.storage.prune()  # the files of the uploads gone go too
    files = {f[:-5] for f in os.listdir(folder) if f.endswith(".yaml")}
    assert files & set(refs) <= names
    assert played.view()["race"]["ply"] == 0


def test_a_websocket_from_another_site_is_refused(live_server) -> None:
    """The guard closes a WebSocket whose Origin is not this server's (policy violation)."""
    import base64
    import socket

    port = int(live_server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET /api/tables/t000000000000/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                   "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                   "Origin: http://evil.example\r\n\r\n").encode())
        answer = s.recv(4096).decode("latin-1")
    assert " 101 " not in answer.splitlines()[0]  # not upgraded: refused


@pytest.mark.covers("command:serve")
def test_serve_on_every_network_says_who_can_reach_it_and_prints_join_codes(tmp_path
                                                                           ) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "avecaesar.editor", "serve", "--host",
                             "0.0.0.0", "--port", "0", "--data", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith("Ave Caesar table at http://"), first
        lines = [proc.stdout.readline()]
        while not any(w in lines[-1] for w in ("anyone on these", "no network address")):
            lines.append(proc.stdout.readline())
        port = first.split("/")[2].rsplit(":", 1)[1]
        if "no network address" not in lines[0]:
            assert lines[0].strip().startswith("on your network: http://")
        deadline = time.monotonic() + 60
        while True:  # the address is printed before the server listens
            try:
                r = httpx.post(f"http://127.0.0.1:{port}/api/tables", timeout=60,
                               json={**BASE, "delay_ms": None})
                break
            except httpx.ConnectError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        assert r.status_code == 200, r.text
        lan = first.split(" ")[4].rstrip("/")
        assert all(s["link"].startswith(lan + "/play?table=") for s in r.json()["seats"]
                   if "link" in s)  # the links name the address the phones can reach
        out = ""
        while "seat 2, Bea" not in out:
            out += proc.stdout.readline()
        out += "".join(proc.stdout.readline() for _ in range(12))
        assert "seat 1, Ada: " in out and "#seat=" in out
        assert "█" in out or "▀" in out  # a QR code drawn in the terminal
    finally:
        proc.terminate()
        proc.wait(20)


def test_the_table_offers_the_expert_bot_and_it_plays(live_server) -> None:
    """The catalogue lists every registered bot (the expert among them) and a seat given to
    the expert bot plays its turns when the host steps it."""
    bots = httpx.get(live_server.url + "/api/catalog", timeout=60).json()["bots"]
    assert "expert" in [b["name"] for b in bots]
    setup = {**BASE, "players": [{"name": "Ada", "bot": None},
                                 {"name": "Expert", "bot": "expert"}]}
    table = TableClient.create(live_server.url, setup)
    race = table.play_until(12)
    assert race["ply"] >= 12
    expert = [c for c in race["chariots"] if c["name"] == "Expert"]
    assert expert and len(expert[0]["played"]) >= 3  # it drove its turns
