"""The Play page in German: the page's words from the one catalog (/api/text), the server's
sentences — the pass screen's name, why-not with the rulebook's own citation, the log — in
the device's language; the language menu keeps the choice on that device."""

from __future__ import annotations

import re

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


# words a German page must not show: the English of the pages' own sentences (a name, a
# file name, a bot's kind and a rulebook's citation are what they are in every language)
ENGLISH = ("the", "and", "of", "space", "turn", "turns", "chariot", "chariots", "course",
           "players", "points", "seed", "lap", "move", "moves", "legal", "hand", "cards",
           "watch", "Watch", "play", "Play", "record", "Download", "Simulate", "races",
           "start", "place", "valid", "error", "board", "figures", "Result", "Speed",
           "jump", "none", "yet", "Saved", "games", "your", "Course", "studio", "Replay",
           "bundled", "file", "Open", "Export", "Search", "edits", "variant", "Side",
           "white", "Homebrew", "Rome", "Reader's", "instead", "deal", "Deal", "Devices",
           "tournament", "Bot step", "Seconds", "Take", "Done", "draw", "clockwise")


def _shown(d) -> str:
    return d.execute_script(
        "const out = [document.body.innerText];"
        "document.querySelectorAll('option').forEach((o) => out.push(o.textContent));"
        "document.querySelectorAll('[title]').forEach((e) => out.push(e.title));"
        "document.querySelectorAll('[placeholder]').forEach((e) => out.push(e.placeholder));"
        "document.querySelectorAll('[aria-label]').forEach((e) => out.push("
        "  e.getAttribute('aria-label')));"
        "return out.join('\\n');")


def _has(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def _english_left(d) -> list[str]:
    # a link, a file name, a command one types (in brackets, with its --option), a citation
    shown = re.sub(r"https?://\S+|\S+\.jsonl|\([^()\n]*--[^()\n]*\)"
                   r"|rulebook \([A-Z]{2}\)[^\n]*", " ", _shown(d))
    return sorted({w for w in ENGLISH if _has(w, shown)})


def test_every_page_in_german_shows_no_english_word(live_server, browser) -> None:
    """The Play page's setup and race, the Replay page and the Course studio, in German:
    no word of the English list is left (the text, the menus, tooltips, placeholders)."""
    created = httpx.post(live_server.url + "/api/tables", json={
        "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 2,
        "delay_ms": 0, "turn_s": 600, "players": [{"name": "Clara", "bot": None},
                                   {"name": "Dario", "bot": "greedy"},
                                   {"name": "Emil", "bot": "greedy"}]}).json()
    bots = httpx.post(live_server.url + "/api/tables", json={
        "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 3,
        "delay_ms": 0, "players": [{"name": "Ada", "bot": "greedy"},
                                   {"name": "Bea", "bot": "greedy"},
                                   {"name": "Cleo", "bot": "greedy"}]}).json()
    lobby = httpx.post(live_server.url + "/api/tables", json={
        "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 3,
        "lobby": True, "players": [{"name": "Ida", "bot": None}, {"name": "Jan", "bot": None}]
    }).json()
    d = browser
    d.set_window_size(1280, 800)
    d.get(live_server.url + "/play")
    d.execute_script("localStorage.setItem('avecaesar-lang', 'de')")
    try:
        over = f"{live_server.url}/play?table={bots['table']}"
        pages = [("/play", "#ruleset option"), (created["seats"][0]["link"], "#clock:not(.hidden)"),
                 (lobby["host"], "#lobby-start:not(.hidden)"),
                 (over, "#placings .placing"), ("/replay", "#records a.record"),
                 ("/replay?record=" + bots["view"]["race"]["record"], "#events .event"),
                 ("/studio?course=ravensburger-1989/a-white", "#figures table")]
        for url, ready in pages:
            d.get(url if url.startswith("http") else live_server.url + url)
            _wait(d, lambda d, r=ready: d.find_elements(By.CSS_SELECTOR, r))
            assert d.execute_script("return document.documentElement.lang") == "de", url
            left = _english_left(d)
            assert left == [], (url, left, [ln for ln in _shown(d).splitlines()
                                            if any(_has(w, ln) for w in left)])
    finally:
        d.execute_script("localStorage.removeItem('avecaesar-lang')")
