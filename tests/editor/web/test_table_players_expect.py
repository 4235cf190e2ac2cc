"""The table players expect (issue 36), one browser session at a phone's 390×844: a table
that waits in its lobby until the host starts it (the absent seat to a bot); a seat
handed to a bot sees it on its own device and comes back with "I'm back"; "play this seat on
this device" opens the seat without a reload; a tapped forbidden card says why in the status
area; a background tab's title says when it becomes its turn; the end names the winner
first."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from .table_client import LiveDevice, TableClient

pytestmark = pytest.mark.covers("page:play")

# the page in the background (true) or seen again (false): a headless browser has no
# background tab, so the page's own document.hidden is set and the change announced
HIDE = ("const on = %s; Object.defineProperty(document, 'hidden', "
        "{get: () => on, configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange'));")


def _wait(d, cond, timeout: float = 15):
    return WebDriverWait(d, timeout, poll_frequency=0.03).until(cond)


def _step(t: TableClient) -> dict[str, Any]:
    """One turn: a bot's (the host steps it) or a person's first offered move."""
    race = t.view()["race"]
    turn = race["turn"]
    if not turn["human"]:
        return t.post("step", t.host).json()["race"]
    token = t.seats[turn["seat"]]
    p = t.view(token)["race"]["private"]
    if p.get("skip"):
        return t.post("skip", token).json()["race"]
    o = p["options"][0] if p["options"] else {"card": 0, "space": None}
    return t.post("move", token, {"card": o["card"], "space": o["space"],
                                  "confirm": True}).json()["race"]


def _anna_to_move(t: TableClient, forbidden: bool = False) -> dict[str, Any]:
    """Turns are played until it is Anna's (seat 0) — with a card she may not play."""
    for _ in range(200):
        race = t.view(t.seats[0])["race"]
        assert not race["over"]
        turn = race["turn"]
        if turn["human"] and turn["seat"] == 0 and turn["phase"] == "choose" and (
                not forbidden or race["private"].get("why")):
            return race
        _step(t)
    raise AssertionError("Anna never got a forbidden card")


def test_the_table_players_expect(live_server, browser) -> None:
    t = TableClient.create(live_server.url, {
        "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 4,
        "confirm_ms": None, "lobby": True, "players": [{"name": "Anna", "bot": None},
                                        {"name": "Ben", "bot": None},
                                        {"name": "Bot", "bot": "greedy"}]})
    d = browser
    d.set_window_size(390, 844)
    # the host's device, then "play this seat on this device": Anna's seat, no reload
    d.get(f"{live_server.url}/play?table={t.tid}#host={t.host}")
    _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".join-link"))
    # the lobby: the table waits for its two people
    _wait(d, lambda d: "0 of 2 have joined" in d.find_element(By.ID, "lobby-text").text)
    assert d.find_element(By.ID, "lobby-start").is_displayed()
    d.execute_script("window.noReload = true")
    d.find_elements(By.CSS_SELECTOR, ".join-link")[0].click()
    _wait(d, lambda d: d.execute_script("return P.view && P.view.you && P.view.you.seat") == 0)
    assert d.execute_script("return window.noReload") is True  # the same page, now the seat
    _wait(d, lambda d: "1 of 2 have joined" in d.find_element(By.ID, "lobby-text").text)
    assert t.view()["race"]["ply"] == 0  # nothing moved meanwhile
    r = t.http.post(f"/api/tables/{t.tid}/start", headers={"x-table-token": t.host})
    assert r.status_code == 200, r.text  # the host starts: Ben, not here, to a bot
    _wait(d, lambda d: not d.find_element(By.ID, "lobby-box").is_displayed())
    assert [s["stand_in"] for s in t.view()["table"]["seats"]] == [None, "greedy", None]
    # handed to a bot by the host: her own device says so; "I'm back" takes it back
    r = t.http.post(f"/api/tables/{t.tid}/seat", json={"seat": 0, "bot": "greedy"},
                    headers={"x-table-token": t.host})
    assert r.status_code == 200, r.text
    _wait(d, lambda d: d.find_element(By.ID, "stand-in").is_displayed())
    assert "greedy" in d.find_element(By.ID, "stand-in-text").text
    d.find_element(By.ID, "im-back").click()
    _wait(d, lambda d: not d.find_element(By.ID, "stand-in").is_displayed())
    assert t.view()["table"]["seats"][0]["stand_in"] is None
    # a forbidden card looks forbidden; a tap says why in the status area
    race = _anna_to_move(t, forbidden=True)
    card = int(next(iter(race["private"]["why"])))
    _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR,
                                       f"#hand .card.forbidden[data-card='{card}']"))
    d.find_element(By.CSS_SELECTOR, f"#hand .card.forbidden[data-card='{card}']").click()
    why = d.find_element(By.ID, "message").text
    assert why.startswith(f"{card} cannot be played: ") and " — " in why, why
    assert d.find_element(By.ID, "message").is_displayed()
    # the page in the background: when the turn comes back to Anna, its title says so
    title = d.title
    _step(t)  # Anna plays
    d.execute_script(HIDE % "true")
    _anna_to_move(t)
    _wait(d, lambda d: d.title == "● Your turn — Ave Caesar")
    d.execute_script(HIDE % "false")
    assert d.title == title
    # the end: the winner first
    while not _step(t)["over"]:
        pass
    _wait(d, lambda d: d.find_element(By.ID, "end").is_displayed())
    result = t.view()["race"]["result"]
    rows = d.find_elements(By.CSS_SELECTOR, "#placings tr.placing")
    best = next((p for p in result["placings"]
                 if p["place"] and not p["disqualified"] and not p["removed"]), None)
    head = d.find_element(By.ID, "winner").text
    if best is None:
        assert head.startswith("Nobody wins")
    else:
        assert head.startswith(f"{'ABC'[best['chariot']]} — {best['name']} wins with")
        assert "winner" in rows[0].get_attribute("class") and best["name"] in rows[0].text
    assert all(r.find_element(By.CSS_SELECTOR, "td.why").text for r in rows)
    assert not d.find_element(By.ID, "undo").is_displayed()


def test_a_turn_clock_runs_out_in_the_browser_and_the_bot_moves(live_server, browser) -> None:
    """The host's turn clock seen on the phone of the person to move (390×844): the seconds
    left count down on the page, and when they run out the seat's own device says a bot
    moves for it, and the bot has moved."""
    t = TableClient.create(live_server.url, {
        "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 4,
        "confirm_ms": None, "delay_ms": 0, "turn_s": 2, "players": [{"name": "Ada", "bot": None},
                                                     {"name": "Bea", "bot": None}]})
    seat = t.view()["race"]["turn"]["seat"]
    d = browser
    d.set_window_size(390, 844)
    d.get(f"{live_server.url}/play?table={t.tid}#seat={t.seats[seat]}")
    _wait(d, lambda d: d.find_element(By.ID, "clock").is_displayed())
    assert "s left" in d.find_element(By.ID, "clock").text  # "Ada: 2 s left to choose"
    _wait(d, lambda d: d.find_element(By.ID, "stand-in").is_displayed(), timeout=10)
    assert "greedy" in d.find_element(By.ID, "stand-in-text").text
    _wait(d, lambda d: t.view()["race"]["ply"] > 0, timeout=10)  # the bot has moved
    assert t.view()["table"]["seats"][seat]["stand_in"] == "greedy"


def _online(view: dict[str, Any]) -> list[bool]:
    return [s["online"] for s in view["table"]["seats"]]


def test_presence_a_device_that_pings_and_goes_quiet_is_away_within_2_s(live_server) -> None:
    """Presence: a device that announced it pings (as the page does) and goes quiet — a
    phone that lost its network, its connection left open — is shown away to the others
    within 2 s, and online again with its next message. A device that keeps pinging stays
    online; one whose page is in the background (``hidden``) and one that never said it pings
    (an API client, the tests' own) are judged as before: online while connected."""
    import time

    t = TableClient.create(live_server.url, {
        "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 4,
        "confirm_ms": None, "players": [{"name": n, "bot": None}
                                        for n in ("Ada", "Bea", "Cai", "Dan")]})
    watch = LiveDevice(live_server.url, t.tid, {"token": None})  # a spectator
    ada, bea, dan = (LiveDevice(live_server.url, t.tid, {"token": t.seats[i], "ping": True})
                     for i in (0, 1, 3))
    cai = LiveDevice(live_server.url, t.tid, {"token": t.seats[2]})  # no ping: as before
    try:
        watch.until(lambda v: _online(v) == [True] * 4, 5)
        bea.send({"ping": 1, "hidden": True})  # her page went to the background, and quiet
        time.sleep(0.5)  # first: were she judged by 1.5 s, she would be away before Ada
        dan.send({"ping": 1})
        ada.send({"ping": 1})  # Ada's last word: then her phone loses its network
        quiet = time.monotonic()
        seen: list[list[bool]] = []

        def ada_away(v: dict[str, Any]) -> bool:
            seen.append(_online(v))
            return not seen[-1][0]

        while True:
            dan.send({"ping": 1})  # Dan's page keeps pinging
            try:
                view = watch.until(ada_away, 0.3)
                break
            except AssertionError:
                assert time.monotonic() - quiet < 2.0, f"Ada not shown away within 2 s: {seen}"
        assert time.monotonic() - quiet < 2.0
        assert _online(view) == [False, True, True, True]
        assert all(s[1:] == [True, True, True] for s in seen), seen
        ada.send({"ping": 1})  # her network is back
        watch.until(lambda v: _online(v) == [True] * 4, 2.0)
    finally:
        for device in (watch, ada, bea, cai, dan):
            device.close()


def test_a_table_waits_in_its_lobby_until_its_players_are_here(tmp_path) -> None:
    """A table set up with ``lobby`` does nothing until every person's seat has a device
    connected (then it starts by itself), or the host starts it: the seats with no device
    go to greedy bots. Nothing moves meanwhile: no bot, no move."""
    from starlette.testclient import TestClient

    from avecaesar.editor.web.app import create_app

    ORIGIN = {"origin": "http://127.0.0.1"}

    setup = {"ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago",
             "delay_ms": 0, "lobby": True,
             "players": [{"name": "Ada", "bot": None}, {"name": "Bea", "bot": None},
                         {"name": "Bot", "bot": "greedy"}]}
    with TestClient(create_app(tmp_path), base_url="http://127.0.0.1") as c:
        def table(out: dict[str, Any]) -> dict[str, Any]:
            return c.get(f"/api/tables/{out['table']}").json()["table"]

        first = c.post("/api/tables", json=setup).json()
        tokens = [s["link"].split("#seat=")[1] for s in first["seats"] if "link" in s]
        assert first["view"]["table"]["lobby"] and first["view"]["race"]["ply"] == 0
        r = c.post(f"/api/tables/{first['table']}/step",
                   headers={"x-table-token": first["token"]})
        assert r.status_code == 409 and "has not started" in r.json()["error"]
        live = f"ws://127.0.0.1/api/tables/{first['table']}/live"
        with c.websocket_connect(live, headers=ORIGIN) as ada:
            ada.send_json({"token": tokens[0]})
            assert ada.receive_json()["table"]["lobby"]
            assert table(first)["lobby"]  # one of two here: still waiting
            with c.websocket_connect(live, headers=ORIGIN) as bea:
                bea.send_json({"token": tokens[1]})
                while bea.receive_json()["table"]["lobby"]:
                    pass
        assert not table(first)["lobby"]
        assert [s["stand_in"] for s in table(first)["seats"]] == [None, None, None]
        # the host starts without Bea: her seat goes to a bot, and the race runs
        second = c.post("/api/tables", json=setup).json()
        tokens = [s["link"].split("#seat=")[1] for s in second["seats"] if "link" in s]
        with c.websocket_connect(f"ws://127.0.0.1/api/tables/{second['table']}/live",
                                 headers=ORIGIN) as ada:
            ada.send_json({"token": tokens[0]})
            ada.receive_json()
            r = c.post(f"/api/tables/{second['table']}/start",
                       headers={"x-table-token": tokens[0]})
            assert r.status_code == 403  # the host's alone
            r = c.post(f"/api/tables/{second['table']}/start",
                       headers={"x-table-token": second["token"]})
            assert r.status_code == 200 and not r.json()["table"]["lobby"]
        assert [s["stand_in"] for s in table(second)["seats"]] == [None, "greedy", None]
        # without "lobby" the race starts at once, as before
        plain = c.post("/api/tables", json={**setup, "lobby": False}).json()
        assert not plain["view"]["table"]["lobby"]


def test_a_turn_clock_that_runs_out_hands_the_seat_to_its_bot(tmp_path) -> None:
    """The host's turn clock: a person who has not chosen when it runs out has their seat
    handed to a greedy bot, which moves; every device sees the clock's end meanwhile."""
    import time

    from starlette.testclient import TestClient

    from avecaesar.editor.web.app import create_app

    with TestClient(create_app(tmp_path), base_url="http://127.0.0.1") as c:
        r = c.post("/api/tables", json={"turn_s": 0, "players": [{"name": "Ada", "bot": None}],
                                        "ruleset": "dicetree-2022",
                                        "course": "dicetree-2022/arena-carthago"})
        assert r.status_code == 400 and "turn_s" in r.json()["error"]
        out = c.post("/api/tables", json={
            "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 4,
            "delay_ms": 0, "confirm_ms": None, "turn_s": 1,
            "players": [{"name": "Ada", "bot": None}, {"name": "Bea", "bot": None}]}).json()
        tid = out["table"]
        view = c.get(f"/api/tables/{tid}").json()
        assert view["table"]["turn_s"] == 1 and view["table"]["clock"] > time.time()
        seat = view["race"]["turn"]["seat"]
        deadline = time.time() + 5
        while time.time() < deadline:
            view = c.get(f"/api/tables/{tid}").json()
            if view["race"]["ply"] > 0:
                break
            time.sleep(0.05)
        assert view["race"]["ply"] > 0, "the clock ran out and nobody moved"
        assert view["table"]["seats"][seat]["stand_in"] == "greedy"
        assert view["race"]["log"][0]["events"]  # the bot's move, in the log
