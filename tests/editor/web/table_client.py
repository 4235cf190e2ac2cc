"""Driving a table through its API as its devices would (httpx, one kept-alive connection):
the host, each seat with its own token; a person's move is chosen (pending, nothing drawn)
and then confirmed (its card drawn), as the page does."""

from __future__ import annotations

import json
from typing import Any

import httpx

from avecaesar.engine.core.record import parse_record


def saved_record(url: str, name: str) -> list[dict[str, Any]]:
    """A race's record as the server exports it (``GET /api/saves/NAME``): a finished one
    read and schema-checked like a file; a race in progress as the table has seen it (no
    seed: the schema's header wants one)."""
    r = httpx.get(f"{url}/api/saves/{name}", timeout=60)
    assert r.status_code == 200, r.text
    lines = [json.loads(x) for x in r.text.splitlines()]
    return parse_record(r.text, name) if lines[-1]["type"] == "result" else lines


class TableClient:
    def __init__(self, url: str, created: dict[str, Any]) -> None:
        self.url = url
        self.tid = created["table"]
        self.host = created["token"]
        self.seats = {s["seat"]: s["link"].split("#seat=")[1] for s in created["seats"]
                      if "link" in s}
        self.http = httpx.Client(base_url=url, timeout=60)

    @classmethod
    def create(cls, url: str, setup: dict[str, Any]) -> TableClient:
        r = httpx.post(url + "/api/tables", json={"delay_ms": None, **setup}, timeout=60)
        assert r.status_code == 200, r.text
        return cls(url, r.json())

    def view(self, token: str | None = None) -> dict[str, Any]:
        r = self.http.get(f"/api/tables/{self.tid}",
                          headers={"x-table-token": token} if token else {})
        assert r.status_code == 200, r.text
        return r.json()

    def post(self, action: str, token: str | None, body: dict[str, Any] | None = None
             ) -> httpx.Response:
        return self.http.post(f"/api/tables/{self.tid}/{action}", json=body,
                              headers={"x-table-token": token} if token else {})

    def play_until(self, plies: int) -> dict[str, Any]:
        """Bots step (the host asks), each person plays their first offered move with their
        own token."""
        race = self.view()["race"]
        while not race["over"] and race["ply"] < plies:
            turn = race["turn"]
            if not turn["human"]:
                r = self.post("step", self.host)
            else:
                token = self.host if not self.seats else self.seats[turn["seat"]]
                mine = self.view(token)["race"]
                if mine["turn"].get("pass"):
                    self.post("reveal", token)
                    mine = self.view(token)["race"]
                p = mine["private"]
                if p.get("skip"):
                    r = self.post("skip", token)
                else:
                    o = p["options"][0] if p["options"] else {"card": 0, "space": None}
                    r = self.post("move", token, {"card": o["card"], "space": o["space"]})
                    assert r.status_code == 200 and "why_not" not in r.json(), r.text
                    assert r.json()["race"]["turn"]["phase"] == "pending", r.text
                    r = self.post("confirm", token)
            assert r.status_code == 200 and "why_not" not in r.json(), r.text
            race = r.json()["race"]
        return race


class LiveDevice:
    """A device's live socket to a running server (a small wsproto client over a plain
    socket): the hello (``{"token": …}`` and what else it announces), messages after it, and
    the next pushed view that satisfies a condition, within a timeout (never a hang)."""

    def __init__(self, url: str, tid: str, hello: dict[str, Any]) -> None:
        import socket

        import wsproto

        host, port = url.split("//")[1].split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=5)
        self.ws = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
        self.pending: list[dict[str, Any]] = []
        self.buf = ""
        self.seen: dict[str, Any] = {}
        self.sock.sendall(self.ws.send(wsproto.events.Request(
            host=f"{host}:{port}", target=f"/api/tables/{tid}/live")))
        self._read(lambda e: isinstance(e, wsproto.events.AcceptConnection), 5)
        self.send(hello)

    def send(self, message: dict[str, Any]) -> None:
        import wsproto

        self.sock.sendall(self.ws.send(wsproto.events.TextMessage(json.dumps(message))))

    def _read(self, done: Any, timeout: float) -> bool:
        """Read until ``done(event)`` has held for an event (True) or the time is up; every
        message that arrived is kept (none is left unparsed)."""
        import time

        import wsproto

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.sock.settimeout(max(0.01, end - time.monotonic()))
            try:
                data = self.sock.recv(65536)
            except TimeoutError:
                break
            self.ws.receive_data(data or None)
            found = False
            for e in self.ws.events():
                if isinstance(e, wsproto.events.TextMessage):
                    self.buf += e.data
                    if e.message_finished:
                        self.pending.append(json.loads(self.buf))
                        self.buf = ""
                found = found or done(e)
            if found:
                return True
            if not data:
                break
        return False

    def until(self, cond: Any, timeout: float) -> dict[str, Any]:
        """The first view (from now on) for which ``cond(view)`` holds; AssertionError when
        none comes within ``timeout`` seconds."""
        import time

        end = time.monotonic() + timeout
        while True:
            while self.pending:
                view = self.pending.pop(0)
                self.seen = view
                if "table" in view and cond(view):
                    return view
            left = end - time.monotonic()
            got = left > 0 and self._read(_is_text, left)
            if not got and not self.pending:
                raise AssertionError(f"no such view within {timeout} s; the last: {self.seen}")

    def close(self) -> None:
        self.sock.close()


def _is_text(event: object) -> bool:
    import wsproto

    return isinstance(event, wsproto.events.TextMessage)
