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
