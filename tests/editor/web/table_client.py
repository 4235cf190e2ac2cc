"""Driving a table through its API as its devices would (httpx, one kept-alive connection):
the host, each seat with its own token."""

from __future__ import annotations

from typing import Any

import httpx


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
                elif p["options"]:
                    o = p["options"][0]
                    r = self.post("move", token, {"card": o["card"], "space": o["space"]})
                else:
                    r = self.post("move", token, {"card": 0})
            assert r.status_code == 200 and "why_not" not in r.json(), r.text
            race = r.json()["race"]
        return race
