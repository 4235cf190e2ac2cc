"""``play --board``: the board SVG redrawn with the chariots; ``board_svg(chariots=…)``."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.editor.render.board import board_svg
from avecaesar.engine.course.load import load_course

HERE = Path(__file__).parent
OVAL = str(HERE.parent / "core" / "courses" / "oval.yaml")
runner = CliRunner()


def test_board_svg_marks_chariots_with_letters_and_keeps_the_rest():
    g = load_course(OVAL).graph
    plain = board_svg(g)
    assert "chariot" not in plain
    assert board_svg(g, chariots=None) == plain  # unchanged without chariots
    first, second = sorted(g.nodes)[5], sorted(g.nodes)[9]
    src = board_svg(g, chariots={first: "A", second: "B"})
    assert src.count(' chariot"') == 2
    assert re.search(rf'<g id="space-{first}" class="space [^"]* chariot"', src)
    assert re.search(rf'data-space="{second}" [^>]*fill="#2471a3"', src)


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
    title = "".join(root.find("s:text[@class='title']", ns).itertext())
    assert "race over" in title
    # at the end every chariot is off the board (finished or removed), so check a redraw
    # made during the race: drive two turns and stop
    res = runner.invoke(app, ["play", "--ruleset", "dicetree-2022", "--course", OVAL,
                              "--humans", "Anna,Ben", "--players", "3", "--seed", "4",
                              "--board", str(svg)], input="1\n1\n")
    assert res.exit_code == 1  # input ended: a clear error, the board is still there
    text = svg.read_text()
    seen = re.findall(r'class="space [^"]*chariot"', text)
    assert len(seen) == 3  # all three chariots on the board, each with its letter
    root = ET.fromstring(svg.read_bytes())
    letters = {"".join(t.itertext()) for g in root.iter("{http://www.w3.org/2000/svg}g")
               if "chariot" in (g.get("class") or "")
               for t in g.iter("{http://www.w3.org/2000/svg}text") if t.get("class")}
    assert letters == {"A", "B", "C"}
