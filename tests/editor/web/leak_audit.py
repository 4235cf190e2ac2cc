"""The leak audit: whole races at tables with several seats (people, bots, a spectator),
every response to every token collected and checked — none may hold another seat's card or
any deck order, nor the seed, before the race is over.

Used by ``tests/editor/web/test_leaks.py`` (a CI-sized slice) and ``bench/bench_leaks.py``
(at least 10,000 turns). It drives the real application in-process (Starlette's test
client: the same routes, guard, locks and WebSocket pushes as ``serve``) and checks each
response three ways:

1. **by structure**: no key that holds hidden cards (``decks``, ``start``, ``final``, a seed
   or the deal's nonce while the race runs), and ``hands`` only in the asking seat's private
   part, for its own chariots, equal to their real hands (less a pending move's card);
2. **by text**: the seed (drawn by the server, 16 digits) and the nonce appear nowhere in
   the text;
3. **by non-interference**: the same view computed on a state in which every other seat's
   hidden cards (hand and deck) are shuffled and dealt again, and every deck's order —
   the asking seat's own too — shuffled, must be identical to the response. Where the
   rules themselves read another chariot's hand to decide this seat's moves (the 6-card
   rule's joint-leader and chicane exceptions ask whether the others can move), the seat's
   own choices may differ: those are counted, not hidden (``rules_read_hands``); the public
   part must be identical always.

A WebSocket push must equal the HTTP answer of the same version for the same token.

People choose a move (pending: nothing drawn), sometimes take it back and choose again, and
confirm it; the audit sees every one of those views too.
"""

from __future__ import annotations

import dataclasses
import json
import random
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

with warnings.catch_warnings():  # starlette's note on httpx versions, not about this code
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from avecaesar.editor.web.app import create_app
from avecaesar.engine.core.moves import six_rule
from avecaesar.engine.core.state import LETTERS

#: keys no response may hold before the end (anywhere in it)
HIDDEN_KEYS = {"decks", "deck", "start", "final", "notation", "reveals_order", "nonce"}
HOST = {"host": "127.0.0.1"}

SETUPS = [  # (ruleset, variants, course, start places): several editions, a variant with
    # a hidden event (a card put under the deck unseen), one with ramming attacks
    ("dicetree-2022", [], "dicetree-2022/arena-carthago", 6),
    ("ravensburger-1989", ["missed-turns"], "ravensburger-1989/a-white", 4),
    ("pro-ludo-2006", [], "pro-ludo-2006/circus-maximus", 6),
    ("dicetree-2022", ["ramming-attacks"], "dicetree-2022/hippodrom-maximus", 6),
    ("ravensburger-1989", [], "ravensburger-1989/b-red", 4),
]
ANSWERS = {"ramming-attacks": {"ramming.tie": "no_effect", "ramming.attack_chips": "no_effect"}}


class Leak(AssertionError):
    """A response held what its token may not see."""


@dataclass
class Audit:
    races: int = 0
    turns: int = 0
    responses: int = 0
    pushes: int = 0
    records: int = 0
    refused: int = 0
    undos: int = 0
    rules_read_hands: int = 0
    why_nots: int = 0
    stand_ins: int = 0
    leaks: list[str] = field(default_factory=list)


def _walk(value: Any, path: str = "") -> Iterator[tuple[str, str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield path, str(k), v
            yield from _walk(v, f"{path}/{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, f"{path}/{i}")


def check_structure(resp: dict[str, Any], own: set[str], game: Any, seed: int,
                    where: str, current: bool = True) -> None:
    """Checks 1 and 2 (see the module's docstring)."""
    over = game.state.over
    text = json.dumps(resp)
    if not over and str(seed) in text:
        raise Leak(f"{where}: the seed {seed} is in the response")
    nonce = (game.deal or {}).get("nonce")
    if not over and nonce and nonce in text:
        raise Leak(f"{where}: the deal's nonce is in the response")
    for path, key, value in _walk(resp):
        if key in HIDDEN_KEYS and not over:
            raise Leak(f"{where}: key {key!r} at {path}")
        if key == "seed" and not over and value is not None:
            raise Leak(f"{where}: a seed at {path}")
        if key == "hand" and not over:
            raise Leak(f"{where}: a hand at {path}")
        if key == "hands":
            if path != "/race/private":
                raise Leak(f"{where}: hands at {path}")
            if not set(value) <= own:
                raise Leak(f"{where}: the hands of {sorted(set(value) - own)} sent to "
                           f"{sorted(own) or 'a spectator'}")
            for letter, cards in value.items() if current else ():
                real = list(game.state.hands[LETTERS.index(letter)])
                p = game.pending
                if p is not None and LETTERS[p.chariot] == letter and p.move.card in real:
                    real.remove(p.move.card)  # the card on the table, not yet replaced
                if real != cards:
                    raise Leak(f"{where}: chariot {letter}'s hand is not its own")


def perturbed(state: Any, keep: set[int], rng: random.Random) -> Any:
    """``state`` with every hidden card moved: other seats' hands and decks dealt afresh,
    every deck's order (``keep``'s own too) shuffled."""
    s = state.copy()
    for c in range(len(s.hands)):
        hand, deck = list(s.hands[c]), list(s.decks[c])
        if c in keep or state.game.is_ownerless(c):
            rng.shuffle(deck)
            s.decks[c] = tuple(deck)
            continue
        pool = hand + deck
        rng.shuffle(pool)
        s.hands[c] = tuple(sorted(pool[:len(hand)]))
        s.decks[c] = tuple(pool[len(hand):])
    return s


def check_interference(resp: dict[str, Any], seat: int | None, shared: bool, game: Any,
                       rng: random.Random, audit: Audit, where: str) -> None:
    """Check 3: the response does not change when the hidden cards it may not see do."""
    mine = set(game.seat_chariots(seat)) if seat is not None else set(
        LETTERS.index(x) for x in resp["race"].get("mine", []))
    other = dataclasses.replace(game, state=perturbed(game.state, mine, rng))
    again = json.loads(json.dumps(other.view_for(seat, shared=shared)))
    real = resp["race"]
    pub_a = {k: v for k, v in again.items() if k != "private"}
    pub_r = {k: v for k, v in real.items() if k != "private"}
    if pub_a != pub_r:
        diff = [k for k in pub_r if pub_a.get(k) != pub_r.get(k)]
        raise Leak(f"{where}: the public view changes with cards it may not see: {diff}")
    if again["private"] != real["private"]:
        s, o = game.state, other.state
        depends = any(six_rule(s, c) != six_rule(o, c) for c in mine) or (
            s.turn in mine and len(s.legal_moves()) != len(o.legal_moves())) or (
            s.turn in mine and [m.path for m in s.legal_moves()]
            != [m.path for m in o.legal_moves()])
        if not depends:
            raise Leak(f"{where}: the seat's own view changes with others' cards")
        audit.rules_read_hands += 1


class Race:
    """One table in the audit: its tokens, its WebSockets, its game on the server."""

    def __init__(self, client: TestClient, app: Any, setup: dict[str, Any], audit: Audit,
                 rng: random.Random) -> None:
        self.client, self.app, self.audit, self.rng = client, app, audit, rng
        r = client.post("/api/tables", json=setup)
        assert r.status_code == 200, r.text
        out = r.json()
        self.tid, self.host = out["table"], out["token"]
        self.seats = {s["seat"]: s["link"].split("#seat=")[1] for s in out["seats"]
                      if "link" in s}
        self.tokens: list[tuple[str | None, int | None]] = [(None, None), (self.host, None),
                                                            *((t, i) for i, t in
                                                              self.seats.items())]
        self.sockets = []
        for tok, seat in self.tokens:
            cm = client.websocket_connect(f"/api/tables/{self.tid}/live", headers=HOST)
            ws = cm.__enter__()
            ws.send_text(json.dumps({"token": tok}))
            self.sockets.append((cm, ws, tok, seat))

    @property
    def table(self) -> Any:
        return self.app.state.tables.loaded[self.tid]

    @property
    def seed(self) -> int:
        """The seed the server drew (never sent before the end)."""
        return int(self.table.game.setup.seed)

    def headers(self, token: str | None) -> dict[str, str]:
        return {"x-table-token": token} if token else {}

    def view(self, token: str | None) -> dict[str, Any]:
        r = self.client.get(f"/api/tables/{self.tid}", headers=self.headers(token))
        assert r.status_code == 200, r.text
        return r.json()

    def audit_all(self) -> None:
        """Every token's HTTP view and WebSocket push of the current version."""
        game = self.table.game
        for _cm, ws, tok, seat in self.sockets:
            where = f"table {self.tid} ply {game.state.ply} seat {seat}"
            resp = self.view(tok)
            self.audit.responses += 1
            own = {LETTERS[c] for c in game.seat_chariots(seat)} if seat is not None else set(
                resp["race"].get("mine", []))
            check_structure(resp, own, game, self.seed, where)
            check_interference(resp, seat, self.table.shared and seat is None and tok is not
                               None, game, self.rng, self.audit, where)
            while True:  # the pushes up to this answer's version (older ones skipped or read)
                push = ws.receive_json()
                if push.get("beat"):
                    continue
                self.audit.pushes += 1
                order = (push["table"]["version"], push["table"]["seq"])
                check_structure(push, own, game, self.seed, where + " (push)",
                                push["table"]["version"] == self.table.version)
                if order > (resp["table"]["version"], resp["table"]["seq"]):
                    resp = self.view(tok)  # a device joined meanwhile: a newer version
                    self.audit.responses += 1
                    check_structure(resp, own, game, self.seed, where)
                if order == (resp["table"]["version"], resp["table"]["seq"]):
                    if push != resp:
                        diff = [k for k in resp if push.get(k) != resp.get(k)]
                        raise Leak(f"{where}: the push differs from the answer: {diff}")
                    break
        bad = self.client.get(f"/api/tables/{self.tid}", headers={"x-table-token": "nope"})
        assert bad.status_code == 403
        self.audit.refused += 1

    def audit_record(self) -> None:
        game = self.table.game
        name = game.path.name
        text = self.client.get(f"/api/saves/{name}").text
        frames = self.client.get(f"/api/replay/{name}").json()
        self.audit.records += 1
        if game.state.over:
            return
        for what, doc in (("record", [json.loads(x) for x in text.splitlines()]),
                          ("replay", frames)):
            check_structure({"doc": doc}, set(), game, self.seed, f"{name} {what}")
            if any(k == "legal" and v is not None for _p, k, v in _walk(doc)):
                raise Leak(f"{name} {what}: legal-move counts while the race runs")

    def play(self, max_turns: int) -> None:
        """Play to the end: people choose a random offered move (now and then an illegal
        click first, a move with another seat's token, a stand-in bot)."""
        try:
            self.audit_all()
            turns = 0
            while not self.table.game.state.over and turns < max_turns:
                self.turn()
                turns += 1
                self.audit.turns += 1
                self.audit_all()
                if turns % 15 == 0:
                    self.audit_record()
            self.audit_record()
            self.audit.races += 1
        finally:
            for cm, _ws, _t, _s in self.sockets:
                cm.__exit__(None, None, None)

    def turn(self) -> None:
        game = self.table.game
        s = game.state
        c = s.turn
        seat = game.owner[c]
        if not game.is_human(c):
            r = self.client.post(f"/api/tables/{self.tid}/step", headers=self.headers(self.host))
            assert r.status_code == 200, r.text
            return
        token = self.seats[seat]
        if self.rng.random() < 0.05:  # the host lets a bot stand in for a while
            self._stand_in(seat)
            return
        others = [t for i, t in self.seats.items() if i != seat]
        if others and self.rng.random() < 0.1:
            r = self.client.post(f"/api/tables/{self.tid}/move", json={"card": 1, "space": 0},
                                 headers=self.headers(self.rng.choice(others)))
            assert r.status_code == 409, r.text
            self.audit.refused += 1
        view = self.view(token)["race"]["private"]
        h = self.headers(token)
        if view.get("skip"):
            r = self.client.post(f"/api/tables/{self.tid}/skip", headers=h)
            assert r.status_code == 200, r.text
            return
        if view["options"]:
            if self.rng.random() < 0.1:
                card = view["options"][0]["card"]
                taken = {o["space"] for o in view["options"] if o["card"] == card}
                space = next(n for n in range(len(s.game.board.succ)) if n not in taken)
                far = self.client.post(f"/api/tables/{self.tid}/move",
                                       json={"card": card, "space": space},
                                       headers=self.headers(token)).json()
                assert far.get("why_not"), far
                self.audit.why_nots += 1
            if self.rng.random() < 0.25:  # chosen, seen by all, taken back: nothing drawn
                o = self.rng.choice(view["options"])
                self._post("move", h, {"card": o["card"], "space": o["space"]})
                self.audit_all()
                self._post("undo", h)
                self.audit.undos += 1
                self.audit_all()
            o = self.rng.choice(view["options"])
            body = {"card": o["card"], "space": o["space"]}
        else:
            body = {"card": 0}
        self._post("move", h, body)
        self.audit_all()
        self._post("confirm", h)

    def _post(self, action: str, headers: dict[str, str], body: Any = None) -> None:
        r = self.client.post(f"/api/tables/{self.tid}/{action}", json=body, headers=headers)
        assert r.status_code == 200 and "why_not" not in r.json(), r.text

    def _stand_in(self, seat: int) -> None:
        h = self.headers(self.host)
        r = self.client.post(f"/api/tables/{self.tid}/seat", json={"seat": seat, "bot": "greedy"},
                             headers=h)
        assert r.status_code == 200, r.text
        self.audit_all()
        r = self.client.post(f"/api/tables/{self.tid}/step", headers=h)
        assert r.status_code == 200, r.text
        r = self.client.post(f"/api/tables/{self.tid}/seat", json={"seat": seat, "bot": None},
                             headers=h)
        assert r.status_code == 200, r.text
        self.audit.stand_ins += 1


def run(data: Path, turns: int, seed: int, laps: int | None = None,
        max_races: int = 10_000, progress: Any = None) -> Audit:
    """Races until ``turns`` turns have been audited; ``laps`` shortens every race;
    ``progress(audit)`` is called after each race."""
    audit = Audit()
    app = create_app(data)
    rng = random.Random(seed)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        while audit.turns < turns and audit.races < max_races:
            ruleset, variants, course, places = SETUPS[audit.races % len(SETUPS)]
            people = 2 + audit.races % 3
            bots = ["greedy", "random", "search"][: 1 + audit.races % 2]
            players = [{"name": f"P{i + 1}", "bot": None} for i in range(people)] + [
                {"name": f"B{i + 1}", "bot": b} for i, b in enumerate(bots)]
            answers: dict[str, str] = {}
            for v in variants:
                answers.update(ANSWERS.get(v, {}))
            setup = {"ruleset": ruleset, "variants": variants, "course": course,
                     "players": players[:places], "delay_ms": None, "confirm_ms": None,
                     "answers": answers,
                     "overrides": {"race.laps": str(laps)} if laps else {}}
            Race(client, app, setup, audit, random.Random(rng.random())).play(2000)
            if progress is not None:
                progress(audit)
    return audit
