"""The Play page in German: the page's words from the one catalog (/api/text), the server's
sentences — the pass screen's name, why-not with the rulebook's own citation, the log — in
the device's language; the language menu keeps the choice on that device."""

from __future__ import annotations

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from .test_play_page import _click_out_of_reach, _status, _wait

pytestmark = pytest.mark.covers("page:play")


def test_a_shared_table_in_german(live_server, browser) -> None:
    created = httpx.post(live_server.url + "/api/tables", json={
        "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 5,
        "shared": True, "delay_ms": 0,
        "players": [{"name": "Clara", "bot": None}, {"name": "Dario", "bot": None},
                    {"name": "Bot", "bot": "greedy"}]}).json()
    d = browser
    d.set_window_size(1280, 800)
    d.get(live_server.url + "/play")
    try:
        _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#lang-choice option"))
        Select(d.find_element(By.ID, "lang-choice")).select_by_value("de")  # reloads
        _wait(d, lambda d: d.execute_script("return document.documentElement.lang") == "de")
        assert d.find_element(By.ID, "setup-title").text == "Neues Rennen"
        d.get(created["host"])
        assert _status(d) == "pass"
        name = d.execute_script("return P.view.race.turn.name")
        assert f"Gib das Gerät an {name} weiter" in d.find_element(By.ID, "pass").text
        d.find_element(By.ID, "pass-ok").click()
        _wait(d, lambda d: d.execute_script("return !P.view.race.turn.pass"))
        why = _click_out_of_reach(d, "diese Karte wählen")
        assert why.startswith("Nicht erlaubt: ") and "— DiceTree 2022 rulebook (DE) S." in why
        assert "Feld" in why and "space" not in why
        d.find_element(By.CSS_SELECTOR, "#targets .target").click()
        _wait(d, lambda d: d.execute_script("return P.view.race.log.length") > 0)
        log = d.execute_script("return P.view.race.log.map(x => x.events.join(' ')).join(' ')")
        assert " spielt " in log and " plays " not in log
    finally:
        d.execute_script("localStorage.removeItem('avecaesar-lang')")
