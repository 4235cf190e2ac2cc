"""What a notebook shows: a course and a race position as SVG (``_repr_svg_``), drawn by the
engine itself (no Graphviz, no editor), and a ruleset's short repr."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from avecaesar.engine import (
    OWNERLESS,
    load_course,
    load_ruleset,
    make_policy,
    new_race,
    play_turn,
    race_setup,
)
from avecaesar.engine.core.types import LETTERS

SVG = "{http://www.w3.org/2000/svg}"
COURSE = "dicetree-2022/circus-maximus"


def _translate(group: ET.Element) -> tuple[float, float]:
    m = re.match(r"translate\(([-\d.]+),([-\d.]+)\)", group.get("transform", ""))
    assert m, group.get("transform")
    return float(m.group(1)), float(m.group(2))


@pytest.fixture(autouse=True)
def no_graphviz(monkeypatch: pytest.MonkeyPatch) -> None:
    """The drawings need no ``dot`` program: none is on the PATH here."""
    monkeypatch.setenv("PATH", "")


def test_a_course_is_an_svg_of_its_spaces_and_start_places() -> None:
    course = load_course(COURSE)
    root = ET.fromstring(course._repr_svg_())
    assert root.tag == f"{SVG}svg"
    spaces = root.findall(f"{SVG}g")
    assert len(spaces) == course.graph.number_of_nodes()
    texts = [t.text for t in root.iter(f"{SVG}text")]
    places = sorted(p for _, p in course.graph.nodes(data="start_place") if p)
    assert sorted(int(t) for t in texts if t and t.isdigit()) == places
    assert f"{course.name} — clockwise" in texts
    assert len(root.findall(f"{SVG}line")) == 1  # the finish line


def test_a_course_repr_is_one_short_line() -> None:
    text = repr(load_course(COURSE))
    assert "\n" not in text and len(text) < 120
    assert COURSE in text and "spaces" in text


def _position(turns: int):
    rules, board = race_setup("dicetree-2022", [], {}, COURSE)
    state, _ = new_race(rules, board, ["Anna", "Ben", "Cleo"], seed=3)
    bot = make_policy("greedy", seed=3)
    for _ in range(turns):
        play_turn(state, bot, OWNERLESS)
    return state


def test_a_position_puts_each_chariot_on_its_space() -> None:
    state = _position(9)
    root = ET.fromstring(state._repr_svg_())
    groups = root.findall(f"{SVG}g")
    centre = dict(zip(sorted(state.game.board.drawing.spaces), map(_translate, groups),
                      strict=True))
    circles = root.findall(f"{SVG}circle")
    placed = [c for c, p in enumerate(state.pos) if p is not None]
    assert len(circles) == len(placed) == 3
    assert sorted((float(c.get("cx")), float(c.get("cy"))) for c in circles) == \
        sorted(centre[state.pos[c]] for c in placed)  # the same one-decimal numbers
    letters = {t.text: float(t.get("x")) for t in root.iter(f"{SVG}text")
               if t.text and t.text in LETTERS}
    assert sorted(letters) == ["A", "B", "C"]
    for c in placed:
        assert letters[LETTERS[c]] == pytest.approx(centre[state.pos[c]][0])
    caption = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert f"ply {state.ply}: {LETTERS[state.turn]} " in caption


def test_the_position_moves_when_the_race_does() -> None:
    assert _position(3)._repr_svg_() != _position(9)._repr_svg_()


def test_a_ruleset_repr_is_short_and_counts_open_values() -> None:
    plain = repr(load_ruleset("dicetree-2022"))
    assert plain.startswith("<Ruleset dicetree-2022: ") and plain.endswith(" 0 open>")
    assert len(plain) < 80
    rs = load_ruleset("dicetree-2022", ["split-deck"])
    assert repr(rs) == (f"<Ruleset dicetree-2022 + split-deck: {len(rs.stated_keys())} rules, "
                        f"{len(rs.unknown_keys())} open>")
    assert len(rs.unknown_keys()) == 1
