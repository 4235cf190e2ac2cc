"""A tournament at the web table: the rotation's courses, the next-race order by the rules,
the standings over the races; and the end screen's "next race" in the browser."""

from __future__ import annotations

import httpx
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from .table_client import TableClient, saved_record

BOTS = [{"name": "Anna", "bot": "greedy"}, {"name": "Ben", "bot": "random"},
        {"name": "Cato", "bot": "greedy"}]


def test_a_tournament_of_the_2022_edition(live_server) -> None:
    url = live_server.url
    table = TableClient.create(url, {
        "ruleset": "dicetree-2022", "course": "dicetree-2022/hippodrom-constantinople",
        "seed": 5, "players": BOTS[:2], "tournament": True})
    totals = {p["name"]: 0 for p in BOTS[:2]}
    courses, previous = [], None
    for race in range(1, 5):
        done = table.play_until(100_000)
        lines = saved_record(url, done["record"])
        head, result = lines[0], lines[-1]
        assert head["race"] == race and head["seated"] == (race > 1)
        courses.append(head["course"])
        if previous is not None:  # 2022: the next race starts in the order of the last result
            seats, placings = previous
            assert head["seats"] == [seats[p["chariot"]] for p in placings]
        previous = (head["seats"], result["placings"])
        for p in result["placings"]:
            totals[p["name"]] += p["points"]
        tour = table.view()["table"]["tournament"]
        assert tour["race"] == race and tour["races"] == 4 and tour["next"] == (race < 4)
        assert {s["player"]: s["total"] for s in tour["standings"]} == totals
        if race < 4:
            r = table.http.post(f"/api/tables/{table.tid}/race/next-race",
                                headers={"x-table-token": table.host})
            assert r.status_code == 200, r.text
            assert r.json()["race"]["ply"] == 0 and not r.json()["race"]["over"]
    # the rotation: races 1 and 2 on the rulebook's courses, no course twice
    assert courses[:2] == ["dicetree-2022/arena-carthago", "dicetree-2022/arena-maximus"]
    assert len(set(courses)) == 4
    r = table.http.post(f"/api/tables/{table.tid}/race/next-race",
                        headers={"x-table-token": table.host})
    assert r.status_code == 400 and "4 races" in r.json()["error"]


def test_next_race_from_the_end_screen(live_server, browser) -> None:
    created = httpx.post(live_server.url + "/api/tables", json={
        "ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago", "seed": 9,
        "players": BOTS[:2], "tournament": True, "delay_ms": 0}).json()
    d = browser
    d.set_window_size(1280, 800)
    d.get(created["host"])  # the host's own link
    wait = WebDriverWait(d, 90, poll_frequency=0.05)
    wait.until(lambda d: d.find_element(By.ID, "next-race").is_displayed())
    assert "race 1 of 4" in d.find_element(By.ID, "tournament-title").text
    assert len(d.find_elements(By.CSS_SELECTOR, "#standings tr.standing")) == 2
    first = d.find_element(By.ID, "record-link").text
    d.find_element(By.ID, "next-race").click()
    # the page follows to race 2 (two bots at 0 ms may finish it before a poll sees it run)
    wait.until(lambda d: d.find_element(By.ID, "record-link").text != first
               and (not d.find_element(By.ID, "end").is_displayed()
                    or "race 2 of 4" in d.find_element(By.ID, "tournament-title").text))
