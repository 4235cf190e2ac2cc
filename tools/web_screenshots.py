"""Take the screenshots of the web pages that docs/web.md shows (docs/img/web-*.png): a real
uvicorn server on a scratch data folder and Debian's headless Chromium (``chromium`` +
``chromium-driver``, driven by Selenium), the pages driven as the browser tests drive them.

    .venv/bin/python tools/web_screenshots.py [--out FOLDER]   # default: docs/img

``make docs`` runs it through tools/docs_images.py (which records what the pictures were made
from); no test writes into docs/ (issue 34: a test run must leave the checkout clean).

- ``web-play-join.png``: the Play page's setup form after starting a 2022 race with
  ramming attacks and a house-rules file for four people: the join codes;
- ``web-play.png``, ``web-play-phone.png``: that kind of race at four devices (one
  phone-sized) after three turns, at the desktop and on the phone;
- ``web-play-end.png``: the same race at its end;
- ``web-replay.png``: a recorded bot race on the Replay page at ply 24;
- ``web-studio.png``: the Course studio on the 2022 Hippodrom-Constantinople;
- ``web-studio-generate.png``: its boards to a brief: the bundled brief "Short and tight"
  (the form's own), three boards found (seed 1);
- ``web-phone-{join,turn,forbidden,end}-{en,de}.png``: one seat's phone (390×844) in English
  and in German: joined, the table waiting in its lobby; its turn; a forbidden card tapped,
  its reason in the status line; the end.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PHONE_SHOTS = tuple(f"web-phone-{what}-{lang}.png" for lang in ("en", "de")
                    for what in ("join", "turn", "forbidden", "end"))
FILES = ("web-play-join.png", "web-play.png", "web-play-phone.png", "web-play-end.png",
         "web-replay.png", "web-studio.png", "web-studio-generate.png", *PHONE_SHOTS)
HOUSE = "rules:\n  race.laps: 2\n  alley.laps: [1, 2]\n"  # a shorter race, as in the tests
NAMES = ("Aurelia", "Brutus", "Cassia", "Decimus")
DESKTOP, PHONE, OTHER = (1280, 800), (390, 844), (1000, 800)


class Server:
    """``create_app`` on uvicorn in a thread, on a free port of 127.0.0.1."""

    def __init__(self, data: Path) -> None:
        import uvicorn

        from avecaesar.editor.web.app import create_app

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(create_app(data), log_level="warning",
                                                    ws="wsproto"))
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline:
                raise SystemExit("the web server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        self.sock.close()


def browser(size: tuple[int, int]) -> Any:
    """A headless Chromium window of ``size``; a clear exit when it is not installed."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    found = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not (found and driver):
        raise SystemExit("the screenshots need Debian's chromium and chromium-driver: "
                         "sudo apt-get install chromium chromium-driver (make browser)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = found
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={size[0]},{size[1]}", "--disable-extensions",
                "--no-first-run", "--hide-scrollbars"):
        opts.add_argument(arg)
    d = webdriver.Chrome(service=Service(driver), options=opts)
    d.implicitly_wait(0)
    # headless Chromium opens no window narrower than 500 px, and its window holds less than
    # the size asked: the page's viewport is set to the size itself (CSS px)
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})
    return d


def wait(d: Any, cond: Callable[[Any], Any], timeout: float = 60) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(d, timeout, poll_frequency=0.05).until(cond)


def _ply(d: Any) -> Any:
    return d.execute_script("return P.view ? P.view.race.ply : null")


def join_codes(d: Any, url: str, scratch: Path, out: Path) -> None:
    """The setup form: 2022, ramming attacks, a house-rules file, four people, the open
    value answered: the join codes."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d.get(f"{url}/play")
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#course option"))
    Select(d.find_element(By.ID, "ruleset")).select_by_value("dicetree-2022")
    d.find_element(By.CSS_SELECTOR, "#variants-box summary").click()
    d.find_element(By.CSS_SELECTOR, "#variants input[value='ramming-attacks']").click()
    house = scratch / "house.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    d.find_element(By.ID, "house-file").send_keys(str(house))
    wait(d, lambda d: "2 rules" in d.find_element(By.ID, "house-upload").text)
    for row in d.find_elements(By.CSS_SELECTOR, "#players .player .remove"):
        row.click()
    for _ in NAMES:
        d.find_element(By.ID, "add-player").click()
    for row, name in zip(d.find_elements(By.CSS_SELECTOR, "#players .player"), NAMES,
                         strict=True):
        box = row.find_element(By.CSS_SELECTOR, ".name")
        box.clear()
        box.send_keys(name)
        Select(row.find_element(By.CSS_SELECTOR, ".kind")).select_by_value("human")
    d.find_element(By.ID, "start").click()
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#missing .open-item"))
    Select(d.find_element(By.CSS_SELECTOR, "select[data-key='ramming.tie']")
           ).select_by_value("defender_wins")
    d.find_element(By.ID, "open-submit").click()
    wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".join-code svg")) == len(NAMES))
    d.save_screenshot(str(out / "web-play-join.png"))


def _play_turn(d: Any, phone: bool) -> None:
    """The seat to move plays its first card to the first space offered (a target button
    on the phone, the board's outlined space at the desktop), or skips or waits; the chosen
    move waits on the board until "Done" draws the card (docs/web.md, "The turn")."""
    from selenium.webdriver.common.by import By

    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card:not([disabled])")
         or d.find_element(By.ID, "skip").is_displayed()
         or d.find_element(By.ID, "wait").is_displayed())
    if d.find_element(By.ID, "skip").is_displayed():
        d.find_element(By.ID, "skip").click()
        return
    cards = d.find_elements(By.CSS_SELECTOR, "#hand .card[title='choose this card']")
    if not cards:
        d.find_element(By.ID, "wait").click()
    else:
        cards[0].click()
        if phone:
            wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#targets .target"))[0].click()
        else:
            space = wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "g.space.reach"))[0]
            d.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', "
                             "{bubbles: true}))", space)
    wait(d, lambda d: d.execute_script(
        "return P.view && P.view.race.turn && P.view.race.turn.phase === 'pending' && "
        "P.view.race.can_confirm"))
    d.find_element(By.ID, "confirm").click()


def four_devices(desktop: Any, url: str, out: Path) -> None:
    """A 2022 race with the house rules at four devices (the second phone-sized): after
    three turns at the desktop and on the phone, then at the end."""
    import httpx
    from selenium.webdriver.common.by import By

    ref = httpx.post(url + "/api/rules-files", json={"kind": "house", "text": HOUSE},
                     timeout=60).json()["ref"]
    created = httpx.post(url + "/api/tables", timeout=60, json={
        "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago",
        "house_file": ref, "delay_ms": 0, "confirm_ms": None,  # the server deals
        "players": [{"name": n, "bot": None} for n in NAMES]}).json()
    others = [browser(PHONE), browser(OTHER), browser(OTHER)]
    devices = [desktop, *others]
    try:
        for d, seat in zip(devices, created["seats"], strict=True):
            d.get(seat["link"])
        for d in devices:
            wait(d, lambda d: _ply(d) is not None)
        def race() -> Any:
            return httpx.get(f"{url}/api/tables/{created['table']}", timeout=60
                             ).json()["race"]

        turns = 0
        while not (now := race())["over"]:
            seat, ply = now["turn"]["seat"], now["ply"]
            d = devices[seat]
            wait(d, lambda d, ply=ply: _ply(d) == ply)
            _play_turn(d, phone=seat == 1)
            wait(d, lambda _d, ply=ply: race()["ply"] > ply)
            turns += 1
            if turns == 3:  # the desktop and the phone show the third move
                for shown in devices[:2]:
                    wait(shown, lambda s, ply=ply: (_ply(s) or 0) > ply)
                desktop.save_screenshot(str(out / "web-play.png"))
                devices[1].save_screenshot(str(out / "web-play-phone.png"))
        wait(desktop, lambda d: d.find_element(By.ID, "end").is_displayed())
        wait(desktop, lambda d: d.find_element(By.ID, "deal-check").get_attribute(
            "data-state") in ("ok", "bad"))  # the deal checked on the device
        desktop.save_screenshot(str(out / "web-play-end.png"))
    finally:
        for d in others:
            d.quit()


def replay_page(d: Any, url: str, data: Path, out: Path) -> None:
    """A recorded bot race (2022, three bots, seed 4) on the Replay page at ply 24."""
    from selenium.webdriver.common.by import By
    from typer.testing import CliRunner

    from avecaesar.editor.main import app

    record = data / "saves" / "bots-race.jsonl"
    record.parent.mkdir(parents=True, exist_ok=True)
    res = CliRunner().invoke(app, ["race", "--ruleset", "dicetree-2022", "--course",
                                   "dicetree-2022/arena-carthago", "--players", "3", "--seed",
                                   "4", "--record", str(record)])
    if res.exit_code:
        raise SystemExit(f"avecaesar race failed: {res.output[-500:]}")
    d.get(f"{url}/replay")
    link = wait(d, lambda d: [a for a in d.find_elements(By.CSS_SELECTOR, "a.record")
                              if a.text == record.name])
    link[0].click()
    wait(d, lambda d: d.find_element(By.ID, "viewer").is_displayed())
    box = d.find_element(By.ID, "jump")
    box.clear()
    box.send_keys("24")
    d.find_element(By.ID, "go").click()
    wait(d, lambda d: d.execute_script("return document.body.dataset.ply") == "24")
    d.save_screenshot(str(out / "web-replay.png"))


def studio(d: Any, url: str, out: Path) -> None:
    """The Course studio on a bundled board, checked, the editor scrolled to the top."""
    d.get(f"{url}/studio?course=dicetree-2022/hippodrom-constantinople")
    wait(d, lambda d: int(d.execute_script("return document.body.dataset.checked || 0")) > 0)
    d.execute_script("const t = document.getElementById('yaml'); t.scrollTop = 0;"
                     "t.scrollLeft = 0; t.dispatchEvent(new Event('scroll'));")
    d.save_screenshot(str(out / "web-studio.png"))


def studio_generate(d: Any, url: str, out: Path) -> None:
    """The studio's boards to a brief: the form's brief, three boards found."""
    from selenium.webdriver.common.by import By

    d.get(f"{url}/studio")
    wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#gen-ruleset option")) >= 3)
    d.find_element(By.CSS_SELECTOR, "#generate-panel summary").click()
    box = d.find_element(By.ID, "gen-count")
    box.clear()
    box.send_keys("3")
    d.find_element(By.ID, "gen-start").click()
    wait(d, lambda d: d.execute_script("return document.body.dataset.generateDone"))
    d.execute_script("document.getElementById('generate-panel').scrollIntoView()")
    d.save_screenshot(str(out / "web-studio-generate.png"))


def _step(http: Any, tid: str, host: str, seats: list[str]) -> dict[str, Any]:
    """One turn through the API: a bot's (the host steps it) or a person's first move."""
    def get(token: str) -> Any:
        return http.get(f"/api/tables/{tid}", headers={"x-table-token": token}).json()["race"]
    race = get(host)
    turn = race["turn"]
    if not turn["human"]:
        return http.post(f"/api/tables/{tid}/step", headers={"x-table-token": host}).json()
    token = seats[turn["seat"]]
    p = get(token)["private"]
    if p.get("skip"):
        return http.post(f"/api/tables/{tid}/skip", headers={"x-table-token": token}).json()
    o = p["options"][0] if p["options"] else {"card": 0, "space": None}
    return http.post(f"/api/tables/{tid}/move", headers={"x-table-token": token},
                     json={"card": o["card"], "space": o["space"], "confirm": True}).json()


def phone_tour(url: str, out: Path, lang: str) -> None:
    """One seat's phone in ``lang``: joined (the lobby), its turn, a forbidden card tapped,
    the end. A practice deal (seed 4: the first turn is Anna's, with a 6 she may not play)
    at a table whose bots move when asked, so every picture shows the same moment."""
    import httpx
    from selenium.webdriver.common.by import By

    http = httpx.Client(base_url=url, timeout=60)
    made = http.post("/api/tables", json={
        "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 4,
        "delay_ms": None, "confirm_ms": None, "lobby": True,
        "players": [{"name": "Anna", "bot": None}, {"name": "Ben", "bot": None},
                    {"name": "Bot", "bot": "greedy"}]}).json()
    tid, host = made["table"], made["token"]
    seats = [s["link"].split("#seat=")[1] for s in made["seats"] if "link" in s]
    d = browser(PHONE)
    try:
        d.get(f"{url}/play")
        d.execute_script(f"localStorage.setItem('avecaesar-lang', '{lang}')")
        d.get(f"{url}/play?table={tid}#seat={seats[0]}")
        wait(d, lambda d: d.find_element(By.ID, "lobby-box").is_displayed())
        d.save_screenshot(str(out / f"web-phone-join-{lang}.png"))
        http.post(f"/api/tables/{tid}/start", headers={"x-table-token": host})
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card.forbidden"))
        d.save_screenshot(str(out / f"web-phone-turn-{lang}.png"))
        d.find_element(By.CSS_SELECTOR, "#hand .card.forbidden").click()
        wait(d, lambda d: d.find_element(By.ID, "message").text)
        d.save_screenshot(str(out / f"web-phone-forbidden-{lang}.png"))
        while not _step(http, tid, host, seats)["race"]["over"]:
            pass
        wait(d, lambda d: d.find_element(By.ID, "end").is_displayed())
        d.execute_script("window.scrollTo(0, 0)")
        d.save_screenshot(str(out / f"web-phone-end-{lang}.png"))
    finally:
        d.quit()
        http.close()


def take(out: Path) -> list[Path]:
    """Every screenshot of FILES into ``out``; their paths."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="avecaesar-shots-") as tmp:
        scratch = Path(tmp)
        data = scratch / "table"
        data.mkdir()
        with Server(data) as server:
            d = browser(DESKTOP)
            try:
                join_codes(d, server.url, scratch, out)
                four_devices(d, server.url, out)
                replay_page(d, server.url, data, out)
                studio(d, server.url, out)
                studio_generate(d, server.url, out)
            finally:
                d.quit()
            for lang in ("en", "de"):
                phone_tour(server.url, out, lang)
    return [out / name for name in FILES]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    args = ap.parse_args(argv)
    for path in take(args.out):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
