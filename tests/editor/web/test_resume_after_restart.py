"""A stopped server loses nothing: a second server on the same folders continues the game
from its record, to the end, and the record replays."""

from __future__ import annotations

import httpx

from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.record import read_record, replay

from .conftest import LiveServer

SETUP = {"ruleset": "pro-ludo-2006", "course": "pro-ludo-2006/circus-maximus", "seed": 21,
         "players": [{"name": "Livia", "bot": None}, {"name": "Bot", "bot": "search"}]}


def _play_until(url: str, game: dict, plies: int) -> dict:
    """Drive the game through the API (one kept-alive connection): bots step, the person
    plays the first offered move."""
    with httpx.Client(base_url=url, timeout=30) as http:
        while not game["over"] and game["ply"] < plies:
            name = game["record"]
            if not game["turn"]["human"]:
                game = http.post(f"/api/games/{name}/step").json()
            elif game.get("skip"):
                game = http.post(f"/api/games/{name}/skip").json()
            elif game["options"]:
                o = game["options"][0]
                game = http.post(f"/api/games/{name}/move",
                                 json={"card": o["card"], "space": o["space"]}).json()
            else:
                game = http.post(f"/api/games/{name}/move", json={"card": 0}).json()
            assert "why_not" not in game and "error" not in game, game
    return game


def test_a_second_server_continues_the_game(tmp_path) -> None:
    first = LiveServer(tmp_path).start()
    try:
        game = httpx.post(first.url + "/api/games", json=SETUP).json()
        if "error" in game:  # a value the rules leave open: answer it as the page would
            SETUP["overrides"] = {game["missing"]: "false"}
            game = httpx.post(first.url + "/api/games", json=SETUP).json()
        game = _play_until(first.url, game, 15)
        log = game["log"]
    finally:
        first.stop()
    second = LiveServer(tmp_path).start()
    try:
        again = httpx.get(f"{second.url}/api/games/{game['record']}").json()
        assert again["ply"] == game["ply"] and again["log"] == log
        assert again.get("hand") == game.get("hand")
        done = _play_until(second.url, again, 10_000)
        assert done["over"] and len(done["result"]["placings"]) == 2
    finally:
        second.stop()
    lines = read_record(tmp_path / "saves" / game["record"])
    rules, board = race_setup(SETUP["ruleset"], [], SETUP.get("overrides", {}), SETUP["course"])
    assert replay(lines, rules, board).over and lines[-1]["type"] == "result"
