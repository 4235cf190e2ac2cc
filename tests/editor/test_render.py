"""Rendering: the DOT text and the parsed SVG (one node per space, walls drawn as walls)."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.editor.render.board import course_dot, render
from avecaesar.engine.course.load import load_course
from avecaesar.engine.course.race_path import shortest_race_route

VALID = Path(__file__).parents[1] / "course" / "valid"
runner = CliRunner()
needs_dot = pytest.mark.skipif(shutil.which("neato") is None, reason="Graphviz not installed")


def test_dot_pins_every_space() -> None:
    c = load_course(str(VALID / "walls.yaml"))
    src = course_dot(c.graph).source
    spaces = re.findall(r'^\s*n\d+ \[.*pos="(-?[\d.]+),(-?[\d.]+)!"', src, re.M)
    assert len(spaces) == c.graph.number_of_nodes()
    # the same course gives the same picture, run after run
    assert course_dot(load_course(str(VALID / "walls.yaml")).graph).source == src


def test_dot_marks_start_places_walls_and_alley() -> None:
    c = load_course(str(VALID / "alley.yaml"))
    src = course_dot(c.graph).source
    for place in range(1, 5):
        assert re.search(rf'n\d+ \[label={place} ', src), place
    assert src.count('class="space alley"') == 4
    assert "class=finish" in src and "class=direction" in src


@needs_dot
def test_svg_has_one_node_per_space_and_walls() -> None:
    c = load_course(str(VALID / "walls.yaml"))
    svg = render(course_dot(c.graph), "svg").decode()
    root = ET.fromstring(svg)
    ns = {"s": "http://www.w3.org/2000/svg"}
    nodes = root.findall(".//s:g[@class]", ns)
    spaces = [n for n in nodes if n.get("class", "").startswith("node space")]
    assert len(spaces) == c.graph.number_of_nodes()
    walls = [n for n in nodes if n.get("class") == "edge wall"]
    assert walls, "walls are drawn as thick edges"
    for w in walls:
        path = w.find("s:path", ns)
        assert path is not None and path.get("stroke-width") == "6"


@needs_dot
def test_svg_highlights_the_shortest_route() -> None:
    c = load_course(str(VALID / "oval.yaml"))
    route = shortest_race_route(c.graph, 1)
    svg = render(course_dot(c.graph, route=route), "svg").decode()
    assert svg.count('class="edge route"') == len(route) - 1


@needs_dot
def test_render_cli_writes_png_and_svg(tmp_path: Path) -> None:
    for fmt in ("png", "svg", "dot"):
        out = tmp_path / f"x.{fmt}"
        r = runner.invoke(app, ["course", "render", str(VALID / "chicane.yaml"), "-o", str(out),
                                "--format", fmt, "--highlight", "shortest"])
        assert r.exit_code == 0, r.output
        assert out.stat().st_size > 100
    assert (tmp_path / "x.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_without_graphviz_names_the_package(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no neato anywhere
    out = tmp_path / "x.svg"
    r = runner.invoke(app, ["course", "render", str(VALID / "oval.yaml"), "-o", str(out)])
    assert r.exit_code == 1
    assert "graphviz" in r.output and "apt-get install graphviz" in r.output
    assert (tmp_path / "x.dot").read_text().startswith("digraph")


def test_render_rejects_bad_format() -> None:
    r = runner.invoke(app, ["course", "render", str(VALID / "oval.yaml"), "--format", "gif"])
    assert r.exit_code == 2
