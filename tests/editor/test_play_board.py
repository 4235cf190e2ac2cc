"""``play --board``: the board SVG redrawn with the chariots; ``course_dot(chariots=…)``."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.editor.render.board import course_dot
from avecaesar.engine.course.load import load_course

HERE = Path(__file__).parent
OVAL = str(HERE.parent / "core" / "courses" / "oval.yaml")
runner = CliRunner()
needs_dot = pytest.mark.skipif(shutil.which("neato") is None, reason="Graphviz not installed")


def test_course_dot_marks_chariots_with_letters_and_keeps_the_rest():
    g = load_course(OVAL).graph
    plain = course_dot(g).source
    assert "chariot" not in plain
    assert course_dot(g, chariots=None).source == plain  # unchanged without chariots
    first, second = sorted(g.nodes)[5], sorted(g.nodes)[9]
    src = course_dot(g, chariots={first: "A", second: "B"}).source
    assert src.count(' chariot"') == 2
    assert re.search(rf'n{first} \[label=A .*class="space [^"]* chariot"', src)
    assert re.search(rf'n{second} \[label=B .*fillcolor="#2471a3"', src)


@needs_dot
def test_play_redraws_the_board_with_the_chariots(tmp_path):
    svg = tmp_path / "board.svg"
    seen: list[str] = []
    script = "1\n" * 300
    res = runner.invoke(app, ["play", "--ruleset", "dicetree-2022", "--course", OVAL,
                              "--humans", "Anna", "--players", "3", "--seed", "4",
                              "--board", str(svg)], input=script)
    assert res.exit_code == 0, res.output[-2000:]
    assert f"board drawn to {svg}" in res.output
    root = ET.fromstring(svg.read_bytes())
    ns = {"s": "http://www.w3.org/2000/svg"}
    title = "".join(root.find("s:g/s:text", ns).itertext())
    assert "race over" in title
    # at the end every chariot is off the board (finished or removed), so check a redraw
    # made during the race: drive two turns and stop
    res = runner.invoke(app, ["play", "--ruleset", "dicetree-2022", "--course", OVAL,
                              "--humans", "Anna,Ben", "--players", "3", "--seed", "4",
                              "--board", str(svg)], input="1\n1\n")
    assert res.exit_code == 1  # input ended: a clear error, the board is still there
    text = svg.read_text()
    seen = re.findall(r'class="node space [^"]*chariot"', text)
    assert len(seen) == 3  # all three chariots on the board, each with its letter
    root = ET.fromstring(svg.read_bytes())
    letters = {"".join(t.itertext()) for g in root.iter("{http://www.w3.org/2000/svg}g")
               if "chariot" in (g.get("class") or "")
               for t in g.iter("{http://www.w3.org/2000/svg}text")}
    assert letters == {"A", "B", "C"}
