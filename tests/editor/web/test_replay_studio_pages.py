"""The Replay page and the self-contained ``replay --html`` file in a real browser (the
Course studio: test_studio.py)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from avecaesar.engine.core.record import read_record

CLI = [sys.executable, "-m", "avecaesar.editor"]


def _wait(driver, cond, timeout: float = 20):
    return WebDriverWait(driver, timeout, poll_frequency=0.03).until(cond)


@pytest.fixture(scope="module")
def record(live_server, tmp_path_factory) -> Path:
    """A finished bot race recorded by the CLI, placed in the server's saves folder."""
    out = tmp_path_factory.mktemp("rec") / "race.jsonl"
    subprocess.run([*CLI, "race", "--ruleset", "dicetree-2022", "--course",
                    "dicetree-2022/arena-carthago", "--players", "3", "--seed", "4",
                    "--record", str(out)], check=True, capture_output=True)
    shutil.copy(out, live_server.data / "saves" / "bots-race.jsonl")
    return out


def _ply(d) -> int:
    return int(d.execute_script("return document.body.dataset.ply"))


def _check_viewer(d, lines: list[dict]) -> None:
    turns = [ln for ln in lines if ln["type"] not in ("header", "result")]
    _wait(d, lambda d: d.find_element(By.ID, "viewer").is_displayed())
    assert _ply(d) == 0 and d.find_elements(By.CSS_SELECTOR, ".chariot-on")
    d.find_element(By.ID, "forward").click()
    d.find_element(By.ID, "forward").click()
    assert _ply(d) == 2
    first = turns[1]
    assert d.find_element(By.ID, "legal").text == \
        f"{first['chariot']} had {first['legal']} legal moves"
    assert first["name"] in d.find_element(By.ID, "events").text
    hands = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#hands td.hand")]
    assert len(hands) == 3 and all(re.fullmatch(r"[1-6]( [1-6])*", h) for h in hands)
    d.find_element(By.ID, "back").click()
    assert _ply(d) == 1
    box = d.find_element(By.ID, "jump")
    box.clear()
    box.send_keys("10")
    d.find_element(By.ID, "go").click()
    assert _ply(d) == 10
    box.clear()
    box.send_keys(str(len(turns) - 6))
    d.find_element(By.ID, "go").click()
    Select(d.find_element(By.ID, "speed")).select_by_visible_text("very fast")
    d.find_element(By.ID, "play").click()
    _wait(d, lambda d: _ply(d) == len(turns))
    assert "points" in d.find_element(By.ID, "result").text


@pytest.mark.covers("page:replay")
def test_replay_page_steps_a_saved_game(live_server, browser, record) -> None:
    d = browser
    d.get(f"{live_server.url}/replay")
    link = _wait(d, lambda d: [a for a in d.find_elements(By.CSS_SELECTOR, "a.record")
                               if a.text == "bots-race.jsonl"])
    link[0].click()
    _check_viewer(d, read_record(record))


def test_replay_html_is_one_self_contained_file(browser, record, tmp_path) -> None:
    out = tmp_path / "game.html"
    subprocess.run([*CLI, "replay", str(record), "--html", str(out)], check=True,
                   capture_output=True)
    text = out.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|/|\w+\.(js|css))""", text)
    assert "<link" not in text and "@import" not in text
    browser.get(out.as_uri())  # no server: opened as a file
    _check_viewer(browser, read_record(record))
