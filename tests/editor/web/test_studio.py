"""The Course studio in a real browser, on a real server: the CLI with a board (issue 22)."""

from __future__ import annotations

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from avecaesar.engine.course.explain import explain
from avecaesar.engine.course.load import load_course
from avecaesar.engine.data.paths import COURSES_DIR
from avecaesar.engine.ruleset.load import load_ruleset, race_figures

ROME = COURSES_DIR / "homebrew" / "rome.yaml"
pytestmark = pytest.mark.covers("page:studio")


def _wait(driver, cond, timeout: float = 30):
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(cond)


def _type(d, text: str) -> None:
    """Put ``text`` in the editor as typing would (an input event)."""
    d.execute_script("const t = document.getElementById('yaml'); t.value = arguments[0];"
                     "t.dispatchEvent(new Event('input'));", text)


def _checked(d, after: int) -> int:
    """Wait until a check newer than ``after`` is shown; its number."""
    _wait(d, lambda d: int(d.execute_script("return document.body.dataset.checked || 0"))
          > after)
    return int(d.execute_script("return document.body.dataset.checked"))


def _uploads(live_server) -> int:
    return len(list((live_server.data / "uploads" / "courses").glob("*.yaml")))


def test_any_bundled_board_opens_and_reads_as_the_cli(live_server, browser) -> None:
    d = browser
    d.get(f"{live_server.url}/studio")
    # the 25 bundled courses: 22 of the editions and homebrew, 3 generated to a brief
    _wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#bundled option")) > 25)
    ids = [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR,
                                                             "#bundled option")][1:]
    assert len(ids) == 25 and "pro-ludo-2006/circus-maximus-ccw" in ids
    stored = _uploads(live_server)
    seen = 0
    for cid in ("dicetree-2022/arena-carthago", "pro-ludo-2006/circus-maximus-ccw"):
        Select(d.find_element(By.ID, "bundled")).select_by_value(cid)
        seen = _checked(d, seen)
        assert d.find_element(By.ID, "status").text == "valid", cid
        assert d.find_elements(By.CSS_SELECTOR, "#board g.space")
        assert f"[{cid}]" in d.find_element(By.ID, "figures").text
        # opening a bundled course shows its figures under its own edition's rules
        assert d.find_element(By.ID, "ruleset").get_attribute("value") == cid.split("/")[0]
    # the race lap by lap as --explain counts it: the run-up, then the three laps
    course = load_course("pro-ludo-2006/circus-maximus-ccw")
    rules = race_figures(load_ruleset("pro-ludo-2006"))
    by_lap = explain(course, rules).places[0].by_lap
    buttons = [b.text for b in d.find_elements(By.CSS_SELECTOR, "#lap-bar button.lap")]
    assert buttons[:4] == [f"run-up · {by_lap[0]}"] + [f"lap {k} · {n}" for k, n in
                                                         enumerate(by_lap[1:], 1)]
    d.find_elements(By.CSS_SELECTOR, "#lap-bar button.lap")[2].click()
    marked = d.find_elements(By.CSS_SELECTOR, "#board g.space.path")
    assert len(marked) == len(set(explain(course, rules).places[0].segments[2]))
    assert "alley detour" in d.find_element(By.ID, "explain").text
    assert d.find_element(By.ID, "file-name").text == "circus-maximus.yaml"
    assert _uploads(live_server) == stored  # checking stores nothing


def test_edit_break_and_jump_to_the_line(live_server, browser) -> None:
    d = browser
    d.get(f"{live_server.url}/studio?course=dicetree-2022/hippodrom-constantinople")
    seen = _checked(d, 0)
    assert d.find_elements(By.CSS_SELECTOR, "td.shortest")[0].text == "77"
    text = d.find_element(By.ID, "yaml").get_attribute("value")
    stored = _uploads(live_server)
    # change it: one more alley space costs the alley stop one more point
    _type(d, text.replace("spaces: 2, side: outside", "spaces: 3, side: outside"))
    seen = _checked(d, seen)
    assert d.find_elements(By.CSS_SELECTOR, "td.shortest")[0].text == "78"
    assert "declared shortest_race" in d.find_element(By.ID, "problems").text
    # break it: the board goes, and the page says why; the problem jumps to its line
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("lanes:"))
    lines[at] = "lanez: 3"
    _type(d, "\n".join(lines))
    seen = _checked(d, seen)
    assert not d.find_elements(By.CSS_SELECTOR, "#board g.space")
    assert "No board" in d.find_element(By.ID, "no-board").text
    problem = next(p for p in d.find_elements(By.CSS_SELECTOR, "#problems .problem")
                   if "lanez" in p.text)
    assert problem.text.startswith(f"hippodrom-constantinople.yaml:{at + 1}:1:")
    problem.click()
    assert d.execute_script("return document.getElementById('yaml').dataset.line") \
        == str(at + 1)
    marked = d.find_elements(By.CSS_SELECTOR, "#gutter span.bad")
    assert str(at + 1) in [m.text for m in marked]
    assert _uploads(live_server) == stored  # nothing stored per keystroke
    _type(d, text)
    _checked(d, seen)


def test_what_if_race_it_and_simulate(live_server, browser) -> None:
    d = browser
    d.get(f"{live_server.url}/studio")
    _wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#bundled option")) > 3)
    _type(d, ROME.read_text(encoding="utf-8"))
    seen = _checked(d, 0)
    assert "NOT finishable" in d.find_element(By.ID, "figures").text
    assert d.find_element(By.ID, "file-name").text == "course.yaml"
    d.find_element(By.ID, "search-edits").click()
    _wait(d, lambda d: d.execute_script("return document.body.dataset.whatIf"))
    found = d.find_element(By.ID, "what-if").text
    assert "7 of 31 one-space edits make the course finishable" in found
    assert "course.yaml:21: shorten curve 'east' lane 0: 5 → 4" in found
    assert "the drawing closes" in found  # the pair that keeps the loop closed
    link = next(a for a in d.find_elements(By.CSS_SELECTOR, "#what-if .edit a")
                if a.text == "course.yaml:21")
    link.click()
    assert d.execute_script("return document.getElementById('yaml').dataset.line") == "21"
    # race it: the text is kept (now, as an upload named by its hash) and the Play page
    # is named with it
    d.find_element(By.ID, "race").click()
    href = _wait(d, lambda d: d.find_elements(By.ID, "play-link"))[0].get_attribute("href")
    assert "/play?course=upload%3A" in href
    name = href.split("%3A", 1)[1].split("&", 1)[0]
    assert (live_server.data / "uploads" / "courses" / f"{name}.yaml").read_text(
        encoding="utf-8") == ROME.read_text(encoding="utf-8")
    d.switch_to.window(d.window_handles[0])
    # a short simulation, here and now (a few races, for the test's sake)
    d.execute_script("document.getElementById('sim-races').textContent = '30'")
    Select(d.find_element(By.ID, "ruleset")).select_by_value("pro-ludo-2006")
    _checked(d, seen)
    d.find_element(By.ID, "simulate").click()
    _wait(d, lambda d: d.execute_script("return document.body.dataset.simulated"), 120)
    sim = d.find_element(By.ID, "simulation").text
    assert "30 races" in sim and "pro-ludo-2006" in sim
    assert len(d.find_elements(By.CSS_SELECTOR, "#simulation tr")) == 7  # head + 6 places
    for handle in d.window_handles[1:]:
        d.switch_to.window(handle)
        d.close()
    d.switch_to.window(d.window_handles[0])


def test_export_and_try_name_the_course(live_server) -> None:
    text = (COURSES_DIR / "dicetree-2022" / "arena-carthago.yaml").read_text(encoding="utf-8")
    with httpx.Client(base_url=live_server.url, timeout=120) as client:
        body = {"text": text, "file": "arena-carthago.yaml",
                "bundled": "dicetree-2022/arena-carthago"}
        for fmt, magic in (("svg", b"<?xml"), ("png", b"\x89PNG"), ("pdf", b"%PDF")):
            r = client.post("/api/studio/export", json={**body, "format": fmt})
            assert r.status_code == 200
            assert r.headers["content-disposition"] == \
                f'attachment; filename="arena-carthago.{fmt}"'
            assert r.content.startswith(magic)
        r = client.post("/api/studio/try", json=body)
        assert r.json() == {"course": "dicetree-2022/arena-carthago", "name": "Arena-Carthago",
                            "ruleset": None,
                            "play": "/play?course=dicetree-2022%2Farena-carthago"
                                    "&name=Arena-Carthago"}
        bad = client.post("/api/studio/export", json={**body, "format": "gif"})
        assert bad.status_code == 400 and "use svg, png, pdf" in bad.json()["error"]
        broken = client.post("/api/studio/check", json={"text": "name: [", "file": "x.yaml"})
        assert broken.json()["courses"] == [] and broken.json()["problems"][0]["line"] == 2
        by_path = client.post("/api/studio/check", json={
            "text": text.replace("{id: dicetree-2022/halves,",
                                 "{file: ../pieces/dicetree-2022-halves.yaml,"),
            "file": "mine.yaml"}).json()
        assert any("write it as include: {id: dicetree-2022/halves, piece: arena}"
                   in p["message"] for p in by_path["problems"])


def test_update_figures_race_it_and_simulate_keep_the_rules_shown(live_server,
                                                                  browser) -> None:
    """Issue 37: "update figures" is the CLI's --update-figures on the text; "race it" keeps
    the ruleset shown and names the course by its name; "simulate" races under the ruleset
    shown, and with none shown says so (a homebrew course no longer races under 2022 rules
    unasked)."""
    text = ROME.read_text(encoding="utf-8")
    stale = text.replace("alley_extra: 3", "alley_extra: 7")
    assert stale != text
    with httpx.Client(base_url=live_server.url, timeout=120) as client:
        r = client.post("/api/studio/update-figures", json={"text": stale, "file": "rome.yaml"})
        assert r.status_code == 200, r.text
        assert r.json()["changed"] and r.json()["text"] == text  # every other byte kept
        assert r.json()["lines"] == [text.splitlines().index("  alley_extra: 3") + 1]
        same = client.post("/api/studio/update-figures", json={"text": text})
        assert not same.json()["changed"]
        sim = client.post("/api/studio/simulate", json={"text": text, "races": 5})
        assert sim.status_code == 400
        assert "choose the rules to race under" in sim.json()["error"]
        assert "a homebrew course races under any of" in sim.json()["error"]
        sim = client.post("/api/studio/simulate", json={"text": text, "races": 5,
                                                        "ruleset": "pro-ludo-2006"})
        assert sim.status_code == 200 and sim.json()["ruleset"] == "pro-ludo-2006"
        tried = client.post("/api/studio/try", json={"text": text, "file": "rome.yaml",
                                                     "ruleset": "pro-ludo-2006"}).json()
        assert tried["ruleset"] == "pro-ludo-2006" and tried["name"] == "Rome (homebrew, " \
            "extra spaces)" and "ruleset=pro-ludo-2006" in tried["play"]
    d = browser
    d.get(live_server.url + tried["play"])
    _wait(d, lambda d: d.find_element(By.ID, "course").get_attribute("value")
          == tried["course"])
    chosen = Select(d.find_element(By.ID, "course")).first_selected_option.text
    assert chosen == tried["name"]  # the course by its name, not its upload hash
    assert d.find_element(By.ID, "ruleset").get_attribute("value") == "pro-ludo-2006"
    # the button: the text updated in place, then checked again
    d.get(f"{live_server.url}/studio")
    _wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#bundled option")) > 3)
    _type(d, stale)
    seen = _checked(d, 0)
    assert "declared alley_extra 7" in d.find_element(By.ID, "problems").text
    d.find_element(By.ID, "update-figures").click()
    _wait(d, lambda d: d.execute_script("return document.body.dataset.updated"))
    assert d.execute_script("return document.getElementById('yaml').value") == text
    _checked(d, seen)
    assert "declared alley_extra" not in d.find_element(By.ID, "problems").text
    assert "Updated the figures" in d.find_element(By.ID, "try-note").text
