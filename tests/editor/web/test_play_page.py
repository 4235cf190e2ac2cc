"""The Play page in real browsers: the setup form (variants by title, the open values as a
form, a house-rules file, the join codes); four browsers joining by their seats' links — one
of them phone-sized, playing by touch-size buttons — with the host's page and a spectator's
open too, racing a 2022 game dealt by the server with house rules to the end: every move
chosen (pending: seen by all, nothing drawn), now and then taken back and chosen again, then
confirmed; every answer and push each page received is kept — none holds another hand, the
seed or the nonce before the end, and no page ever knew a card of its deck that the
confirmed moves did not give it; one drops off the network and comes back, the server is
stopped and started again mid-race with every acknowledged move kept; the end screens check
the deal, and ``replay --verify`` passes on the record and fails when its seed or nonce is
changed. The same four join a lobby, the host starts it, a seat handed to a bot comes back
with "I'm back", a quiet device is shown away (issue 36). A table passed around one device:
the pass screen, why-not, take back, reload."""

from __future__ import annotations

import json
import socket
import time

import httpx
import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.record import replay

from .conftest import LiveServer, _chromium
from .deck_knowledge import check as check_deck
from .table_client import saved_record

HOUSE = "rules:\n  race.laps: 2\n  alley.laps: [1, 2]\n"  # a shorter race: our group's rule
#: the four devices' race: one lap (about 70 turns, enough for the drop-out at turn 6, the
#: return at 12 and the restart at 18) keeps the test near its CPU budget
ONE_LAP = "rules:\n  race.laps: 1\n  alley.laps: [1]\n"
PHONE = (390, 844)
#: kept in each page: the text of every answer and push it received, in order
CAPTURE = """
window.__seen = [];
const realFetch = window.fetch;
window.fetch = async (...a) => { const r = await realFetch(...a);
  r.clone().text().then((t) => window.__seen.push(t)); return r; };
const RealWS = window.WebSocket;
window.WebSocket = function (...a) { const ws = new RealWS(...a);
  ws.addEventListener("message", (e) => window.__seen.push(e.data)); return ws; };
window.WebSocket.prototype = RealWS.prototype;
Object.assign(window.WebSocket, {OPEN: 1, CLOSED: 3, CONNECTING: 0, CLOSING: 2});
"""


def _wait(driver, cond, timeout: float = 30):
    """Wait for ``cond``; an element a push re-rendered meanwhile only means: ask again."""
    return WebDriverWait(driver, timeout, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,)).until(cond)


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
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CAPTURE})
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
    head = saved_record(live_server.url, d.find_element(By.ID, "record-link").text)[0]
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


def _click_first(d, css: str) -> bool:
    """Click the first element ``css`` finds; False when there is none. A push re-renders
    the hand and the targets at any moment (a presence change, another device's undo), so
    an element found just before may be gone by the click: then it is looked up again."""
    for _ in range(20):
        found = d.find_elements(By.CSS_SELECTOR, css)
        if not found:
            return False
        try:
            found[0].click()
            return True
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError(f"{css} was re-rendered under every click for a second")


def _choose(d, phone: bool) -> None:
    """Choose a card, then the first space offered (a touch-size button on the phone, the
    board's outlined space on the desktop)."""
    if not _click_first(d, "#hand .card[title='choose this card']"):
        d.find_element(By.ID, "wait").click()
        return
    if phone:
        target = _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#targets .target"))[0]
        try:
            box = target.rect
        except StaleElementReferenceException:  # re-rendered: its successor is the same size
            box = _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#targets .target"))[0].rect
        assert box["height"] >= 44 and box["width"] >= 44  # a touch-size target
        assert _click_first(d, "#targets .target")
    else:
        space = _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "g.space.reach"))[0]
        d.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))",
                         space)


def _pending(d) -> bool:
    return bool(d.execute_script("return P.view && P.view.race.turn && "
                                 "P.view.race.turn.phase === 'pending' && P.view.race.can_confirm"))


def _play_turn(d, phone: bool, take_back: bool = False) -> None:
    """The seat to move plays: chooses (the move waits, nothing drawn), takes it back and
    chooses again when ``take_back``, then ends the turn ("Done — draw my card")."""
    _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card:not([disabled])")
          or d.find_element(By.ID, "skip").is_displayed()
          or d.find_element(By.ID, "wait").is_displayed())
    if d.find_element(By.ID, "skip").is_displayed():
        d.find_element(By.ID, "skip").click()
        return
    _choose(d, phone)
    _wait(d, _pending)
    if take_back:
        assert "not drawn yet" in d.find_element(By.ID, "pending").text
        d.find_element(By.ID, "undo").click()
        _wait(d, lambda d: d.execute_script("return P.view.race.turn.phase === 'choose'"))
        _choose(d, phone)
        _wait(d, _pending)
    d.find_element(By.ID, "confirm").click()


def _seen(d) -> list[str]:
    """The text of every answer and push the page received (CAPTURE)."""
    return list(d.execute_script("return window.__seen || []"))


def _views(texts: list[str]) -> list[dict]:
    """The race views among them, in the server's order (its version, then the order of
    who-is-online changes within it)."""
    out = []
    for t in texts:
        try:
            doc = json.loads(t)
        except ValueError:
            continue
        if isinstance(doc, dict) and isinstance(doc.get("race"), dict) and "table" in doc:
            out.append(doc)
    out.sort(key=lambda v: (v["table"]["version"], v["table"]["seq"]))
    return [v["race"] for v in out]


def _secret_free(texts: list[str], secrets: list[str], where: str) -> int:
    """No text before the end holds a secret: only the finished race's views, its record
    and its check may name the seed and the nonce."""
    n = 0
    for t in texts:
        n += 1
        if not any(x in t for x in secrets):
            continue
        if t.startswith('{"type":"header"') and '"type":"result"' in t:
            continue  # the finished record, fetched by the end screen
        doc = json.loads(t)
        assert doc.get("verified") is not None or doc["race"]["over"], (where, t[:300])
    return n


def test_four_devices_race_with_a_dropout_and_a_restart(players, tmp_path) -> None:
    from typer.testing import CliRunner

    from avecaesar.editor.main import app as cli
    from avecaesar.editor.web.store import SQLiteStore

    port = _free_port()
    server = LiveServer(tmp_path, port=port).start()
    url = server.url
    try:
        ref = httpx.post(url + "/api/rules-files", json={"kind": "house", "text": ONE_LAP}
                         ).json()["ref"]
        created = httpx.post(url + "/api/tables", timeout=60, json={
            "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago",
            "house_file": ref, "delay_ms": 0, "confirm_ms": 20_000,
            "players": [{"name": n, "bot": None} for n in ("Aurelia", "Brutus", "Cassia",
                                                          "Decimus")]}).json()
        tid = created["table"]
        assert created["view"]["race"]["deal"]["by"] == "server"  # nobody chose the seed
        for d, seat in zip(players, created["seats"], strict=True):
            d.get(seat["link"])
        watcher = players[3]  # the host's page and a spectator's, as two more tabs there
        tabs = {"seat": watcher.current_window_handle}
        for role, link in (("host", created["host"]), ("spectator", created["spectator"])):
            watcher.switch_to.new_window("tab")
            watcher.get(link)
            tabs[role] = watcher.current_window_handle
        watcher.switch_to.window(tabs["seat"])
        letters = []
        for d in players:
            page = _wait(d, lambda d: (_page(d) or {}).get("mine") and _page(d))
            letters.append(page["mine"][0])
        commitment = created["view"]["race"]["deal"]["commitment"]
        assert commitment[:16] in players[1].find_element(By.ID, "deal").text
        turns, away, restarted, acknowledged, taken_back = 0, None, False, 0, 0
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
            back = turns % 4 == 1
            _play_turn(d, phone=seat == 1, take_back=back)
            taken_back += back
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
                kept = SQLiteStore(tmp_path / "tables.db")
                assert len(kept.moves(race["record"])) == acknowledged
                kept.close()
                server = LiveServer(tmp_path, port=port).start()
                restarted = True
                for d in players:  # every device reconnects by itself and catches up
                    _wait(d, lambda d, ack=acknowledged: (_page(d) or {}).get("live") == "ok"
                          and _page(d)["ply"] == ack, 60)
        assert restarted and turns > 20 and taken_back >= 5
        for d in players:
            _wait(d, lambda d: d.find_element(By.ID, "end").is_displayed())
            _wait(d, lambda d: d.find_element(By.ID, "deal-check").get_attribute("data-state")
                  in ("ok", "bad"), 60)
            assert d.find_element(By.ID, "deal-check").get_attribute("data-state") == "ok", \
                d.find_element(By.ID, "deal-check").text
        _no_other_hand(players, letters)
        name = race["record"]
        lines = saved_record(url, name)
        head = lines[0]
        secret = [str(head["seed"]), head["deal"]["nonce"]]
        pages = [(f"seat {i}", d, None) for i, d in enumerate(players)] + [
            (role, watcher, tabs[role]) for role in ("host", "spectator")]
        received = 0
        for where, d, handle in pages:
            if handle is not None:
                d.switch_to.window(handle)
            texts = _seen(d)
            received += _secret_free(texts, secret, where)
            if where.startswith("seat"):
                check_deck(_views(texts), lines, where)  # no card before its draw
        watcher.switch_to.window(tabs["seat"])
        assert received > 200
        rules, board = race_setup(head["ruleset"], head["variants"], head["overrides"],
                                  head["course"], head["house"])
        assert replay(lines, rules, board).over  # every move re-checked by the engine
        text = httpx.get(f"{url}/api/saves/{name}").text
        good = tmp_path / "race.jsonl"
        good.write_text(text, encoding="utf-8")
        runner = CliRunner()
        ok = runner.invoke(cli, ["replay", str(good), "--verify"])
        assert ok.exit_code == 0 and "the deal is verified" in ok.output, ok.output
        for field_, value in (("seed", head["seed"] + 1), ("nonce", "f" * 32)):
            first = json.loads(text.splitlines()[0])
            if field_ == "seed":
                first["seed"] = value
            else:
                first["deal"]["nonce"] = value
            bad = tmp_path / f"race-{field_}.jsonl"
            bad.write_text("\n".join([json.dumps(first), *text.splitlines()[1:]]) + "\n",
                           encoding="utf-8")
            no = runner.invoke(cli, ["replay", str(bad), "--verify"])
            assert no.exit_code == 1 and "does not match" in no.output, no.output
    finally:
        for handle in list(players[3].window_handles)[1:]:
            players[3].switch_to.window(handle)
            players[3].close()
        players[3].switch_to.window(players[3].window_handles[0])
        server.stop()


#: the page in the background: a headless browser has none, so the page's own
#: document.hidden is set and the change announced
HIDDEN = ("Object.defineProperty(document, 'hidden', {get: () => true, configurable: true});"
          "document.dispatchEvent(new Event('visibilitychange'));")


def _seat_line(host, seat: int) -> str:
    """The host's line for a seat: "2. Brutus — online let a bot move for Brutus" (read in
    one script: a push re-renders the list at any time)."""
    return str(host.execute_script(
        "const s = document.querySelectorAll('#seat-list .seat')[arguments[0]];"
        "return s ? s.textContent : '';", seat))


def test_four_devices_in_a_lobby_the_host_starts_a_bot_and_i_m_back(players, live_server
                                                                     ) -> None:
    """Issue 36's "Done when": four devices join a lobby through their links (a fifth
    person never comes), the host starts it (the empty seat to a bot), a seat's device is
    handed to its bot and says so, and comes back with "I'm back"; a device that goes quiet
    (its pings stop, the connection left open) is shown away on the host's page within 2 s,
    and online with its next ping."""
    url = live_server.url
    created = httpx.post(url + "/api/tables", timeout=60, json={
        "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 7,
        "delay_ms": None, "confirm_ms": None, "lobby": True,
        "players": [{"name": n, "bot": None} for n in ("Aurelia", "Brutus", "Cassia",
                                                      "Decimus", "Ennius")]}).json()
    tid = created["table"]
    for d, seat in zip(players, created["seats"][:4], strict=True):
        d.get(seat["link"])
    for d in players:  # every device waits in the lobby, and sees who has come
        _wait(d, lambda d: "4 of 5 have joined" in d.find_element(By.ID, "lobby-text").text,
              15)
    assert not players[0].find_element(By.ID, "lobby-start").is_displayed()  # not the host's
    host = players[3]
    seat_tab = host.current_window_handle
    host.switch_to.new_window("tab")
    try:
        host.get(created["host"])
        _wait(host, lambda d: d.find_element(By.ID, "lobby-start").is_displayed(), 15)
        _wait(host, lambda d: _seat_line(d, 4))
        assert "away" in _seat_line(host, 4) and "online" in _seat_line(host, 0)
        host.find_element(By.ID, "lobby-start").click()  # the host starts: Ennius to a bot
        _wait(host, lambda d: "greedy" in _seat_line(d, 4))
        for d in players[:3]:
            _wait(d, lambda d: not d.find_element(By.ID, "lobby-box").is_displayed())
        # Aurelia's page goes to the background (it says so), then quiet: the long heartbeat
        # judges it; Cassia's phone goes quiet (its pings stop, the connection stays open)
        players[0].execute_script(HIDDEN + "P.ws.send = () => {};")
        time.sleep(0.5)  # her silence starts first: were it judged by 1.5 s, she'd be away first
        players[2].execute_script("P.ws.send = () => {}")
        quiet = time.monotonic()
        _wait(host, lambda d: "away" in _seat_line(d, 2), 5)
        assert time.monotonic() - quiet < 2.5  # 2 s, and the host page's own poll
        assert "online" in _seat_line(host, 0)  # as long quiet, in the background: here
        players[2].execute_script("delete P.ws.send")  # back: its next ping
        _wait(host, lambda d: "online" in _seat_line(d, 2), 5)
        players[0].execute_script("delete P.ws.send; delete document.hidden;"
                                  "document.dispatchEvent(new Event('visibilitychange'))")
        # the host hands Brutus (the phone) to a bot: his device says so; "I'm back"
        host.execute_script("document.querySelector(\"#seat-list .stand-in[data-seat='1']\")"
                            ".click()")
        phone = players[1]
        _wait(phone, lambda d: d.find_element(By.ID, "stand-in").is_displayed())
        assert "greedy" in phone.find_element(By.ID, "stand-in-text").text
        phone.find_element(By.ID, "im-back").click()
        _wait(phone, lambda d: not d.find_element(By.ID, "stand-in").is_displayed())
        _wait(host, lambda d: "online" in _seat_line(d, 1) and "greedy" not in
              _seat_line(d, 1))
        seats = httpx.get(f"{url}/api/tables/{tid}").json()["table"]["seats"]
        assert [s["stand_in"] for s in seats] == [None, None, None, None, "greedy"]
        assert [s["online"] for s in seats] == [True, True, True, True, False]
    finally:
        host.close()
        host.switch_to.window(seat_tab)


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
    sends before its owner confirms; an illegal click teaches the rule; a chosen move taken
    back (nothing drawn) and chosen again, then "Done — pass the device"; no undo after the
    draw; reload."""
    created = httpx.post(live_server.url + "/api/tables", json={
        "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 5,
        "shared": True, "delay_ms": 0, "confirm_ms": 30_000,
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
    ply = d.execute_script("return P.view.race.ply")
    target = d.find_element(By.CSS_SELECTOR, "#targets .target")
    d.execute_script("arguments[0].focus()", target)
    from selenium.webdriver.common.keys import Keys

    target.send_keys(Keys.ENTER)
    # the move waits, seen on the board, its card not drawn: take it back, choose again
    _wait(d, _pending)
    assert "not drawn yet" in d.find_element(By.ID, "pending").text
    d.find_element(By.ID, "undo").click()
    _wait(d, lambda d: d.execute_script("return P.view.race.turn.phase === 'choose'"))
    assert d.execute_script("return P.view.race.log.at(-1).undo") is True  # in the log
    assert [int(b.text) for b in d.find_elements(By.CSS_SELECTOR, "#hand .card")] == hand
    d.execute_script("arguments[0].click()",
                     d.find_elements(By.CSS_SELECTOR, "#hand .card[title='choose this card']"
                                     )[0])
    _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#targets .target"))[0].click()
    _wait(d, _pending)
    assert "pass the device" in d.find_element(By.ID, "confirm").text
    d.find_element(By.ID, "confirm").click()  # drawn: the next person's pass screen
    _wait(d, lambda d: d.execute_script("return P.view.race.ply") > ply)
    assert _status(d) in ("pass", "hand") and not d.find_elements(By.ID, "pass-undo")
    assert d.find_element(By.ID, "undo").get_attribute("disabled")  # no undo after a draw
    # reload: the table continues; the hand is hidden again until confirmed
    d.refresh()
    assert _status(d) in ("pass", "hand")
    again = d.execute_script("return P.view.race")
    assert again["ply"] > ply and again["log"][-1]["ply"] == again["ply"]
    lines = saved_record(live_server.url, again["record"])
    assert lines[0]["type"] == "header" and len(lines) == again["ply"] + 1
    assert [e.get("undo") for e in again["log"]].count(True) == 1


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
