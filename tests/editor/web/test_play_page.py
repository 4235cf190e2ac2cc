"""The Play page in real browsers: the setup form (variants by title, the open values as a
form, a house-rules file, the join codes); four browsers joining by their seats' links — one
of them phone-sized, playing by touch-size buttons — racing a 2022 game with house rules to
the end, none ever seeing another hand, one dropping off the network and coming back, the
server killed and restarted mid-race with every acknowledged move kept; a table passed
around one device (the pass screen, why-not, undo, reload)."""

from __future__ import annotations

import json
import socket

import httpx
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.record import read_record, replay

from .conftest import LiveServer, _chromium

HOUSE = "rules:\n  race.laps: 2\n  alley.laps: [1, 2]\n"  # a shorter race: our group's rule
PHONE = (390, 844)


def _wait(driver, cond, timeout: float = 30):
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(cond)


def _new_browser(size: tuple[int, int]) -> webdriver.Chrome:
    found = _chromium()
    if found is None:
        pytest.skip("chromium and chromium-driver are not installed")
    opts = webdriver.ChromeOptions()
    opts.binary_location = found[0]
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={size[0]},{size[1]}", "--disable-extensions",
                "--no-first-run"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(found[1]), options=opts)
    driver.implicitly_wait(0)
    return driver


@pytest.fixture(scope="module")
def players(browser):
    """Four browsers: the session's (desktop), a phone and two more."""
    extra = [_new_browser(PHONE), _new_browser((1000, 800)), _new_browser((1000, 800))]
    browser.set_window_size(1280, 800)
    yield [browser, *extra]
    for d in extra:
        d.quit()


def _page(driver) -> dict:
    """What the page holds: its role, its own letters, every hand it was sent, the hands
    shown, the ply."""
    return driver.execute_script("""
      const v = P.view; if (!v) return null;
      return {role: v.role, mine: v.race.mine, sent: Object.keys(v.race.private.hands || {}),
              shown: Array.from(document.querySelectorAll('#hand .hand-of'))
                       .map(e => e.dataset.letter),
              ply: v.race.ply, over: v.race.over,
              live: document.getElementById('live').dataset.state};""")


@pytest.mark.covers("page:play")
def test_setup_form_open_values_house_rules_and_join_codes(live_server, browser,
                                                           tmp_path) -> None:
    d = browser
    d.set_window_size(1280, 800)
    d.get(f"{live_server.url}/play")
    _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#course option"))
    Select(d.find_element(By.ID, "ruleset")).select_by_value("dicetree-2022")
    assert d.find_element(By.ID, "course").get_attribute("value") == \
        "dicetree-2022/arena-carthago"  # the edition preselects its course
    d.find_element(By.CSS_SELECTOR, "#variants-box summary").click()
    titles = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#variants label")]
    assert "Ramming attacks (variant 2)" in titles  # by title
    assert not any("1989" in t for t in titles)  # only the variants written for 2022
    d.find_element(By.CSS_SELECTOR, "#variants input[value='ramming-attacks']").click()
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    d.find_element(By.ID, "house-file").send_keys(str(house))
    _wait(d, lambda d: "2 rules" in d.find_element(By.ID, "house-upload").text)
    for row in d.find_elements(By.CSS_SELECTOR, "#players .player .remove"):
        row.click()
    for _ in range(4):
        d.find_element(By.ID, "add-player").click()
    for row, name in zip(d.find_elements(By.CSS_SELECTOR, "#players .player"),
                         ["Aurelia", "Brutus", "Cassia", "Decimus"], strict=True):
        box = row.find_element(By.CSS_SELECTOR, ".name")
        box.clear()
        box.send_keys(name)
        Select(row.find_element(By.CSS_SELECTOR, ".kind")).select_by_value("human")
    d.find_element(By.ID, "start").click()
    # 2022 + ramming attacks leaves two values open: a form from the server's list
    items = _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#missing .open-item"))
    assert len(items) == 2
    assert "DiceTree 2022 rulebook" in d.find_element(By.ID, "missing").text  # the citation
    Select(d.find_element(By.CSS_SELECTOR, "select[data-key='ramming.tie']")
           ).select_by_value("defender_wins")
    d.find_element(By.ID, "open-submit").click()
    codes = _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".join-code svg"))
    assert len(codes) == 4  # a QR code per person's seat
    links = [a.get_attribute("href") for a in d.find_elements(By.CSS_SELECTOR, "a.join-link")]
    assert all("#seat=" in x for x in links) and len(set(links)) == 4
    record = live_server.data / "saves" / d.find_element(By.ID, "record-link").text
    head = read_record(record)[0]
    assert head["house"]["race.laps"]["value"] == 2  # the house rules are in the record
    assert head["house"]["ramming.tie"] == {"value": "defender_wins",
                                            "source": "house rule: asked at the table"}
    assert head["variants"] == ["ramming-attacks"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _spectator(url: str, tid: str) -> dict:
    return httpx.get(f"{url}/api/tables/{tid}", timeout=30).json()


def _no_other_hand(drivers, letters) -> None:
    for d, mine in zip(drivers, letters, strict=True):
        page = _page(d)
        if page is None:
            continue
        assert set(page["sent"]) <= {mine}, (mine, page)  # nothing else arrived
        assert set(page["shown"]) <= {mine}, (mine, page)
        assert page["mine"] == [mine]


def _play_turn(d, phone: bool) -> None:
    """The seat to move plays: a card, then the first space offered (a touch-size button
    on the phone, the board's outlined space on the desktop)."""
    _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card:not([disabled])")
          or d.find_element(By.ID, "skip").is_displayed()
          or d.find_element(By.ID, "wait").is_displayed())
    if d.find_element(By.ID, "skip").is_displayed():
        d.find_element(By.ID, "skip").click()
        return
    cards = d.find_elements(By.CSS_SELECTOR, "#hand .card[title='choose this card']")
    if not cards:
        d.find_element(By.ID, "wait").click()
        return
    cards[0].click()
    if phone:
        target = _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#targets .target"))[0]
        box = target.rect
        assert box["height"] >= 44 and box["width"] >= 44  # a touch-size target
        target.click()
    else:
        space = _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "g.space.reach"))[0]
        d.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))",
                         space)


def test_four_devices_race_with_a_dropout_and_a_restart(players, tmp_path) -> None:
    port = _free_port()
    server = LiveServer(tmp_path, port=port).start()
    url = server.url
    try:
        ref = httpx.post(url + "/api/rules-files", json={"kind": "house", "text": HOUSE}
                         ).json()["ref"]
        created = httpx.post(url + "/api/tables", timeout=60, json={
            "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 7,
            "house_file": ref, "delay_ms": 0,
            "players": [{"name": n, "bot": None} for n in ("Aurelia", "Brutus", "Cassia",
                                                          "Decimus")]}).json()
        tid = created["table"]
        for d, seat in zip(players, created["seats"], strict=True):
            d.get(seat["link"])
        letters = []
        for d in players:
            page = _wait(d, lambda d: (_page(d) or {}).get("mine") and _page(d))
            letters.append(page["mine"][0])
        turns, away, restarted, acknowledged = 0, None, False, 0
        while True:
            view = _spectator(url, tid)
            race = view["race"]
            if race["over"]:
                break
            seat = race["turn"]["seat"]
            if away is not None and seat == away:  # the absent seat: the host lets a bot move
                httpx.post(f"{url}/api/tables/{tid}/seat", json={"seat": seat, "bot": "greedy"},
                           headers={"x-table-token": created["token"]})
                _wait(players[0], lambda d, ply=race["ply"]: _spectator(url, tid)["race"]["ply"]
                      > ply)
                httpx.post(f"{url}/api/tables/{tid}/seat", json={"seat": seat, "bot": None},
                           headers={"x-table-token": created["token"]})
                continue
            d = players[seat]
            ply = race["ply"]
            _wait(d, lambda d, ply=ply: (_page(d) or {}).get("ply") == ply)
            _play_turn(d, phone=seat == 1)
            _wait(d, lambda d, ply=ply: _spectator(url, tid)["race"]["ply"] > ply)
            acknowledged = race["ply"] + 1
            turns += 1
            _no_other_hand([p for i, p in enumerate(players) if i != away],
                           [x for i, x in enumerate(letters) if i != away])
            if turns == 6:  # Cassia's phone loses the network
                away = 2
                players[2].set_network_conditions(offline=True, latency=5,
                                                  download_throughput=1, upload_throughput=1)
                players[2].execute_script("P.ws && P.ws.close()")  # the radio drops it
            if turns == 12 and away is not None:  # and comes back: the page catches up
                players[2].set_network_conditions(offline=False, latency=5,
                                                  download_throughput=10**7,
                                                  upload_throughput=10**7)
                players[2].execute_script("window.dispatchEvent(new Event('online'))")
                now = _spectator(url, tid)["race"]["ply"]
                _wait(players[2], lambda d, now=now: (_page(d) or {}).get("ply") == now, 40)
                away = None
            if turns == 18 and not restarted:  # the server dies and comes back
                server.kill()
                kept = read_record(tmp_path / "saves" / race["record"])
                assert sum(1 for ln in kept if ln["type"] != "header") == acknowledged
                server = LiveServer(tmp_path, port=port).start()
                restarted = True
                for d in players:  # every device reconnects by itself and catches up
                    _wait(d, lambda d, ack=acknowledged: (_page(d) or {}).get("live") == "ok"
                          and _page(d)["ply"] == ack, 60)
        assert restarted and turns > 20
        for d in players:
            _wait(d, lambda d: d.find_element(By.ID, "end").is_displayed())
        _no_other_hand(players, letters)
        record = tmp_path / "saves" / race["record"]
        lines = read_record(record)
        head = lines[0]
        rules, board = race_setup(head["ruleset"], head["variants"], head["overrides"],
                                  head["course"], head["house"])
        assert replay(lines, rules, board).over  # every move re-checked by the engine
    finally:
        server.stop()


def _click_out_of_reach(d, card_title: str) -> str:
    """Choose the first hand card (its button titled ``card_title``), click a space it
    cannot reach, and return the why-not the page shows."""
    d.find_elements(By.CSS_SELECTOR, f"#hand .card[title='{card_title}']")[0].click()
    _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#targets .target"))
    reach = {int(b.get_attribute("data-space"))
             for b in d.find_elements(By.CSS_SELECTOR, "#targets .target")}
    pos = d.execute_script("return P.view.race.chariots[P.view.race.turn.chariot].pos")
    far = next(int(g.get_attribute("data-space"))
               for g in d.find_elements(By.CSS_SELECTOR, "g.space")
               if int(g.get_attribute("data-space")) not in reach | {pos})
    d.execute_script("clickSpace(arguments[0])", far)
    return _wait(d, lambda d: d.find_element(By.CSS_SELECTOR, "#message.why-not").text)


def _status(d) -> str:
    return _wait(d, lambda d: d.execute_script("""
      const shown = (id) => { const e = document.getElementById(id);
        return e && !e.classList.contains('hidden') && (e.offsetParent !== null
          || getComputedStyle(e).position === 'fixed'); };
      if (shown('end')) return 'end';
      if (shown('pass')) return 'pass';
      if (document.querySelector('#hand .card[title="choose this card"]')
          || shown('skip') || shown('wait')) return 'hand';
      return false;"""), 30)


def test_one_shared_device_pass_why_not_undo_reload(live_server, browser) -> None:
    """One device passed around: the hand is neither in the page nor in what the server
    sends before its owner confirms; an illegal click teaches the rule; undo; reload."""
    created = httpx.post(live_server.url + "/api/tables", json={
        "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 5,
        "shared": True, "delay_ms": 0,
        "players": [{"name": "Clara", "bot": None}, {"name": "Dario", "bot": None},
                    {"name": "Bot", "bot": "greedy"}]}).json()
    d = browser
    d.set_window_size(1280, 800)
    d.get(created["host"])
    assert _status(d) == "pass"
    page = _page(d)
    assert page["sent"] == [] and page["shown"] == []
    name = d.execute_script("return P.view.race.turn.name")
    assert f"Pass the device to {name}" in d.find_element(By.ID, "pass").text
    d.find_element(By.ID, "pass-ok").click()
    _wait(d, lambda d: d.execute_script("return !P.view.race.turn.pass"))  # revealed
    assert _status(d) == "hand"
    hand = [int(b.text) for b in d.find_elements(By.CSS_SELECTOR, "#hand .card")]
    assert len(hand) == 3 and _page(d)["sent"] == d.execute_script("return P.view.race.mine")
    # an illegal click: a card, then a space behind the chariot: the why-not teaches
    why = _click_out_of_reach(d, "choose this card")
    assert why.startswith("Not allowed: ") and "DiceTree 2022 rulebook" in why
    assert d.find_element(By.ID, "message").get_attribute("aria-live") == "assertive"
    # from the keyboard: Tab to a target button, Enter
    log = d.execute_script("return P.view.race.log.length")
    ply = d.execute_script("return P.view.race.ply")
    target = d.find_element(By.CSS_SELECTOR, "#targets .target")
    d.execute_script("arguments[0].focus()", target)
    from selenium.webdriver.common.keys import Keys

    target.send_keys(Keys.ENTER)
    _wait(d, lambda d: d.execute_script("return P.view.race.log.length") > log)
    # the next person has not seen their hand yet: the pass screen still offers the undo
    assert _status(d) == "pass"
    d.find_element(By.ID, "pass-undo").click()
    _wait(d, lambda d: d.execute_script("return P.view.race.log.length") == log)
    # reload: the table continues; the hand is hidden again until confirmed
    d.refresh()
    assert _status(d) in ("pass", "hand")
    again = d.execute_script("return P.view.race")
    assert again["ply"] == ply
    record = live_server.data / "saves" / again["record"]
    assert next(json.loads(x)["type"] for x in record.read_text().splitlines()) == "header"


def test_play_course_link_preselects_an_uploaded_course(live_server, browser) -> None:
    from avecaesar.engine.data.paths import COURSES_DIR

    text = (COURSES_DIR / "homebrew" / "rome.yaml").read_text(encoding="utf-8")
    ref = httpx.post(live_server.url + "/api/courses", json={"text": text}).json()["course"]
    d = browser
    d.get(f"{live_server.url}/play?course={ref}")
    _wait(d, lambda d: d.find_element(By.ID, "course").get_attribute("value") == ref)
    d.get(f"{live_server.url}/play?course=pro-ludo-2006/constantinople")
    _wait(d, lambda d: d.find_element(By.ID, "course").get_attribute("value")
          == "pro-ludo-2006/constantinople")
    assert d.find_element(By.ID, "ruleset").get_attribute("value") == "pro-ludo-2006"
