"""The table's board on a phone (a 390 × 844 CSS px screen, headless Chromium): the same
polygons as every picture (one ``data-space`` polygon per space), and at its default zoom a
space is at least 32 CSS px wide, the board scrolled to the chariot to move — and it follows
when the turn passes to another chariot. A desktop shows the whole board."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from avecaesar.engine.course.load import load_course

from .table_client import TableClient

PHONE = (390, 844)
COURSE = "ravensburger-1989/a-white"


def _wait(driver, cond, timeout: float = 30):
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(cond)


MEASURE = """
const svg = document.querySelector('#board svg'), box = document.getElementById('board');
const v = P.view.race, c = v.chariots[v.turn.chariot];
const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
const poly = document.querySelector(`#board polygon[data-space="${c.pos}"]`);
const r = poly.getBoundingClientRect(), b = box.getBoundingClientRect();
return {polygons: document.querySelectorAll('#board polygon[data-space]').length,
        width: innerWidth, space: 40 * scale, current: c.pos, letter: c.letter,
        inside: r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom,
        centre: [(r.left + r.right) / 2 - (b.left + b.right) / 2,
                 (r.top + r.bottom) / 2 - (b.top + b.bottom) / 2],
        box: [b.width, b.height], whole: svg.getBoundingClientRect().width <= b.width + 1,
        edge: [box.scrollLeft <= 0 || box.scrollLeft >= box.scrollWidth - box.clientWidth - 1,
               box.scrollTop <= 0 || box.scrollTop >= box.scrollHeight - box.clientHeight - 1]};
"""


def _centred(seen: dict) -> None:
    """The chariot's space in the middle of the board's box, but where the board ends."""
    for off, at_edge in zip(seen["centre"], seen["edge"], strict=True):
        assert abs(off) < 40 or at_edge, seen


@pytest.mark.covers("page:play")
def test_the_phone_board_shows_big_spaces_around_the_chariot_to_move(live_server,
                                                                     browser) -> None:
    table = TableClient.create(live_server.url, {
        "ruleset": "ravensburger-1989", "course": COURSE, "seed": 11,
        "players": [{"name": "Anna", "bot": None}, {"name": "Bot", "bot": "greedy"},
                    {"name": "Bea", "bot": None}]})
    d = browser
    d.set_window_size(*PHONE)
    try:
        d.get(f"{live_server.url}/play?table={table.tid}#seat={table.seats[0]}")
        _wait(d, lambda d: d.execute_script(
            "return !!(P.board && P.view && P.centred)"))
        seen = d.execute_script(MEASURE)
        assert seen["width"] == PHONE[0]
        assert seen["polygons"] == load_course(COURSE).graph.number_of_nodes()
        assert seen["space"] >= 32, seen  # a space at least 32 CSS px wide
        assert seen["inside"], seen       # the chariot to move is on the screen …
        _centred(seen)  # … in the middle
        assert not seen["whole"]
        first = (seen["letter"], seen["current"])
        # a move: the turn passes to the next chariot, elsewhere on the board — it follows
        table.play_until(table.view()["race"]["ply"] + 1)
        _wait(d, lambda d: (lambda m: (m["letter"], m["current"]) != first)(
            d.execute_script(MEASURE)))
        seen = d.execute_script(MEASURE)
        assert seen["space"] >= 32 and seen["inside"], seen
        _centred(seen)
        # the whole board at a press; a desktop shows it whole from the start
        d.find_element(By.ID, "zoom-fit").click()
        assert d.execute_script(MEASURE)["whole"]
        d.set_window_size(1280, 800)
        d.refresh()
        _wait(d, lambda d: d.execute_script("return !!(P.board && P.view)"))
        assert d.execute_script(MEASURE)["whole"]
    finally:
        d.set_window_size(1400, 1000)
