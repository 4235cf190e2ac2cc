"""How fast a move reaches the other devices: a real uvicorn server on loopback, a table of
two people, each with a WebSocket (wsproto, as the server speaks it); one person moves by
HTTP, and the time until the other device's push arrives is measured, turn after turn, to
the end of the race. Prints p50 / p95 / max (the issue asks for 300 ms on the LAN).

Run: nice .venv/bin/python bench/bench_push.py [--races 3]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import uvicorn
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, Message, Request, TextMessage

from avecaesar.editor.web.app import create_app


class Socket:
    """A minimal WebSocket client: connect, send text, wait for the next JSON message."""

    def __init__(self, port: int, path: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.sock.sendall(self.ws.send(Request(host=f"127.0.0.1:{port}", target=path)))
        self.pending: list[str] = []
        self.text = ""
        self.seen = 0  # the newest version read
        while not self._pump(AcceptConnection):
            pass

    def _pump(self, want: type) -> bool:
        self.ws.receive_data(self.sock.recv(65536))
        found = False
        for event in self.ws.events():
            if isinstance(event, want):
                found = True
            if isinstance(event, TextMessage):
                self.text += event.data
                if event.message_finished:
                    self.pending.append(self.text)
                    self.text = ""
        return found

    def send(self, text: str) -> None:
        self.sock.sendall(self.ws.send(Message(data=text)))

    def next(self) -> dict:
        """The next view pushed (heartbeats skipped)."""
        while True:
            while not self.pending:
                self._pump(TextMessage)
            found = json.loads(self.pending.pop(0))
            if "error" in found:
                raise RuntimeError(found["error"])
            if not found.get("beat"):
                self.seen = found["table"]["version"]
                return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--races", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Path(tmp))
        sock = socket.socket()
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws="wsproto"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.02)
        waits: list[float] = []
        http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
        for race in range(args.races):
            created = http.post("/api/tables", json={
                "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago",
                "seed": race, "delay_ms": None,
                "players": [{"name": "A", "bot": None}, {"name": "B", "bot": None}]}).json()
            tid = created["table"]
            tokens = [s["link"].split("#seat=")[1] for s in created["seats"]]
            devices = []
            for tok in tokens:
                d = Socket(port, f"/api/tables/{tid}/live")
                d.send(json.dumps({"token": tok}))
                devices.append(d)
            version = 0
            while True:
                view = http.get(f"/api/tables/{tid}", headers={"x-table-token": tokens[0]}
                                ).json()
                for d in devices:  # read every push up to the current version
                    while d.seen < view["table"]["version"]:
                        d.next()
                version = view["table"]["version"]
                race_view = view["race"]
                if race_view["over"]:
                    break
                seat = race_view["turn"]["seat"]
                mine = http.get(f"/api/tables/{tid}",
                                headers={"x-table-token": tokens[seat]}).json()["race"]
                p = mine["private"]
                body = ({"card": p["options"][0]["card"], "space": p["options"][0]["space"]}
                        if p.get("options") else {"card": 0})
                action = "skip" if p.get("skip") else "move"
                other = devices[1 - seat]
                start = time.perf_counter()
                r = http.post(f"/api/tables/{tid}/{action}", json=body if action == "move"
                              else None, headers={"x-table-token": tokens[seat]})
                assert r.status_code == 200, r.text
                while other.seen <= version:
                    other.next()
                waits.append(time.perf_counter() - start)
        server.should_exit = True
        thread.join(10)
    waits.sort()
    ms = [w * 1000 for w in waits]
    print(f"push to the other device after a move (loopback, {len(ms)} moves, {args.races} "
          f"races): p50 {statistics.median(ms):.1f} ms, "
          f"p95 {ms[int(len(ms) * 0.95) - 1]:.1f} ms, max {ms[-1]:.1f} ms")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
