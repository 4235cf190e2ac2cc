"""The table players expect (issue 36), one browser session at a phone's 390×844: a seat
handed to a bot sees it on its own device and comes back with "I'm back"; "play this seat on
this device" opens the seat without a reload; a tapped forbidden card says why in the status
area; a background tab's title says when it becomes its turn; the end names the winner
first."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from .table_client import TableClient

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
        "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 21,
        "confirm_ms": None, "players": [{"name": "Anna", "bot": None},
                                        {"name": "Ben", "bot": None},
                                        {"name": "Bot", "bot": "greedy"}]})
    d = browser
    d.set_window_size(390, 844)
    # the host's device, then "play this seat on this device": Anna's seat, no reload
    d.get(f"{live_server.url}/play?table={t.tid}#host={t.host}")
    _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".join-link"))
    d.execute_script("window.noReload = true")
    d.find_elements(By.CSS_SELECTOR, ".join-link")[0].click()
    _wait(d, lambda d: d.execute_script("return P.view && P.view.you && P.view.you.seat") == 0)
    assert d.execute_script("return window.noReload") is True  # the same page, now the seat
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
