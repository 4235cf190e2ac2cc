"""No undo shows a card: every undo path, at one terminal or shared device (the game) and at
a table of devices (the API and its pushes), checked against what the confirmed moves give
each seat of its own deck (deck_knowledge.py) — and the check itself catches the old undo,
which drew the card and then put it back."""

from __future__ import annotations

import json
import random
import time
import warnings
from typing import Any

import pytest

from avecaesar.editor.table.choices import options
from avecaesar.editor.table.game import Game
from avecaesar.engine.core.race_setup import ChosenRules, Seat

from .deck_knowledge import DeckLeak, check

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

COURSE = "dicetree-2022/arena-carthago"


def _game(seed: int, people: int = 3) -> Game:
    on = ChosenRules.compose("dicetree-2022").on(COURSE)
    seats = [Seat(f"P{i + 1}") for i in range(people)] + [Seat("Bot", "greedy")]
    return Game.new(on.for_race(seats=seats, seed=seed), None, deal="server")


def _record(game: Game) -> list[dict[str, Any]]:
    return json.loads(json.dumps(game.record()))


def test_every_undo_path_of_the_game_shows_no_card_before_its_draw() -> None:
    """The terminal's and the shared device's game: people choose, take back (again and
    again, other cards, the waiting move), confirm; bots move. Every view every seat — and
    the shared device — was given is checked against the final record."""
    rng = random.Random(7)
    checked = undos = 0
    for seed in range(2):
        game = _game(seed)
        before = undos
        seen: dict[str, list[dict[str, Any]]] = {}

        def look(g: Game = game, s: dict[str, list[dict[str, Any]]] = seen) -> None:
            for seat in range(g.humans):
                s.setdefault(f"seat {seat}", []).append(g.view_for(seat))
            s.setdefault("shared", []).append(g.view_for(None, shared=True))
        while not game.state.over and game.state.ply < 150:
            look()
            if game.bot_to_move():
                game.step_bot()
                continue
            if game.needs_pass():
                game.reveal()
                continue
            if game.skip_if_forced():
                continue
            for _ in range(rng.choice([0, 0, 1, 2])):  # choose, see it, take it back
                m = rng.choice(options(game.state))
                assert game.move(m.card, m.path[-1] if m.path else None) is None
                look()
                with pytest.raises(Exception, match="waiting"):
                    game.move(m.card, m.path[-1] if m.path else None)  # one at a time
                game.take_back()
                undos += 1
                look()
            m = rng.choice(options(game.state))
            assert game.move(m.card, m.path[-1] if m.path else None) is None
            look()
            game.confirm()
            with pytest.raises(Exception, match="nothing to undo"):
                game.take_back()  # the card is drawn: no undo reaches it
        record = _record(game)
        for who, views in seen.items():
            checked += check(views, record, f"seed {seed} {who}")
        # every undo is in the log every device sees, in words
        assert sum(1 for t in game.log if t.get("undo")) == undos - before > 0
        assert all("takes back" in w for t in game.log_texts() if t.get("undo")
                   for w in t["events"])
    assert checked > 700 and undos > 30


def test_the_check_catches_the_old_undo_that_drew_first() -> None:
    """Planted: the old undo — the move played (its card drawn and shown), then the state
    put back — is caught by the same check."""
    game = _game(3)
    views = []
    while game.bot_to_move() or game.needs_pass():
        game.step_bot() if game.bot_to_move() else game.reveal()
    seat = game.owner[game.state.turn]
    views.append(game.view_for(seat))
    before = game.state.copy()
    m = options(game.state)[0]
    game.state.push(m)  # drawn and shown
    views.append(game.view_for(seat))
    game.state = before  # "undone": the card goes back on the deck
    views.append(game.view_for(seat))
    with pytest.raises(DeckLeak, match="of its deck"):
        check(views, _record(game))


def _post(c: TestClient, tid: str, what: str, token: str | None, body: Any = None
          ) -> Any:
    r = c.post(f"/api/tables/{tid}/{what}", json=body,
               headers={"x-table-token": token} if token else {})
    return r


def test_every_undo_path_at_a_table_of_devices(tmp_path) -> None:
    """Through the API: take back and choose again, the waiting move, another seat's undo
    refused, no undo once confirmed, the timer's own confirmation, a bot standing in while
    a move waits. Each device's answers, in order, are checked against the final record
    (the pushes equal the answers of their version: the leak audit checks that)."""
    from avecaesar.editor.web.app import create_app

    app = create_app(tmp_path)
    rng = random.Random(11)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        out = c.post("/api/tables", json={
            "ruleset": "dicetree-2022", "course": COURSE, "delay_ms": None, "confirm_ms": 1500,
            "players": [{"name": n, "bot": None} for n in ("Ada", "Bea", "Cy")]
            + [{"name": "Bot", "bot": "greedy"}]}).json()
        tid, host = out["table"], out["token"]
        seats = {s["seat"]: s["link"].split("#seat=")[1] for s in out["seats"] if "link" in s}
        got: dict[int, list[dict[str, Any]]] = {i: [] for i in seats}
        paths = {"retake": 0, "wait": 0, "refused": 0, "after": 0, "timer": 0, "stand_in": 0}
        if True:
            for _turn in range(60):
                view = c.get(f"/api/tables/{tid}").json()["race"]
                if view["over"]:
                    break
                turn = view["turn"]
                if not turn["human"]:
                    assert _post(c, tid, "step", host).status_code == 200
                    continue
                i = turn["seat"]
                tok = seats[i]
                mine = c.get(f"/api/tables/{tid}", headers={"x-table-token": tok}).json()
                got[i].append(mine["race"])
                p = mine["race"]["private"]
                if p.get("skip"):
                    assert _post(c, tid, "skip", tok).status_code == 200
                    continue
                opts = p["options"] or [{"card": 0, "space": None}]
                for _ in range(rng.choice([0, 1, 2])):
                    o = rng.choice(opts)
                    r = _post(c, tid, "move", tok, {"card": o["card"], "space": o["space"]})
                    got[i].append(r.json()["race"])
                    other = seats[(i + 1) % len(seats)]
                    refused = _post(c, tid, "undo", other)
                    assert refused.status_code in (400, 409), refused.text
                    paths["refused"] += 1
                    r = _post(c, tid, "undo", tok)
                    assert r.status_code == 200, r.text
                    got[i].append(r.json()["race"])
                    paths["wait" if o["card"] == 0 else "retake"] += 1
                o = rng.choice(opts)
                r = _post(c, tid, "move", tok, {"card": o["card"], "space": o["space"]})
                assert r.status_code == 200 and r.json()["race"]["turn"]["phase"] == "pending"
                got[i].append(r.json()["race"])
                how = rng.random()
                if how < 0.15:  # nobody confirms: the timer plays it
                    ply = r.json()["race"]["ply"]
                    deadline = time.monotonic() + 10
                    while c.get(f"/api/tables/{tid}").json()["race"]["ply"] == ply:
                        assert time.monotonic() < deadline, "the timer did not confirm"
                        time.sleep(0.05)
                    paths["timer"] += 1
                elif how < 0.22:  # the host hands the seat to a bot: the move is played
                    r2 = c.post(f"/api/tables/{tid}/seat", json={"seat": i, "bot": "greedy"},
                                headers={"x-table-token": host})
                    assert r2.status_code == 200 and r2.json()["race"]["ply"] > view["ply"]
                    c.post(f"/api/tables/{tid}/seat", json={"seat": i, "bot": None},
                           headers={"x-table-token": host})
                    paths["stand_in"] += 1
                else:
                    r = _post(c, tid, "confirm", tok)
                    assert r.status_code == 200, r.text
                    got[i].append(r.json()["race"])
                late = _post(c, tid, "undo", tok)
                assert late.status_code in (400, 409) and "undo" in late.json()["error"]
                paths["after"] += 1
                for j, t in seats.items():  # every device looks at the table now and then
                    got[j].append(c.get(f"/api/tables/{tid}",
                                        headers={"x-table-token": t}).json()["race"])
        name = c.get(f"/api/tables/{tid}").json()["race"]["record"]
        lines = app.state.tables.lines_of(name)
    checked = sum(check(v, lines, f"seat {i}") for i, v in got.items())
    assert checked > 100
    assert all(paths[k] > 0 for k in ("retake", "refused", "after", "timer", "stand_in")), paths
