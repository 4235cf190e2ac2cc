"""Rendering: the SVG drawn from the board geometry (one ``data-space`` polygon per space,
walls as walls, the route lap by lap), PNG and PDF through rsvg-convert, DOT text."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.editor.render.board import board_svg, lane_graph_dot
from avecaesar.engine.course.geometry import board_geometry
from avecaesar.engine.course.load import load_course
from avecaesar.engine.course.race_path import shortest_race_route

VALID = Path(__file__).parents[1] / "course" / "valid"
runner = CliRunner()
S = "{http://www.w3.org/2000/svg}"
needs_rsvg = pytest.mark.skipif(shutil.which("rsvg-convert") is None,
                                reason="librsvg's rsvg-convert is not installed")


def _polygons(svg: str) -> dict[int, list[tuple[float, float]]]:
    out = {}
    for poly in ET.fromstring(svg).iter(f"{S}polygon"):
        if poly.get("data-space") is not None:
            n = int(poly.get("data-space", ""))
            assert n not in out, f"two polygons for space {n}"
            out[n] = [tuple(map(float, p.split(","))) for p in (poly.get("points") or "").split()]
    return out


def test_the_svg_is_the_geometry_one_polygon_per_space() -> None:
    c = load_course(str(VALID / "walls.yaml"))
    svg = board_svg(c.graph)
    polys = _polygons(svg)
    assert sorted(polys) == sorted(c.graph.nodes)
    geo = board_geometry(c.graph)
    for n, pts in polys.items():  # the geometry's vertices, y flipped and moved
        assert len(pts) == len(geo.spaces[n].polygon)
    dx = pts[0][0] - geo.spaces[n].polygon[0][0]
    for n, pts in polys.items():
        assert pts[0][0] - geo.spaces[n].polygon[0][0] == pytest.approx(dx, abs=0.02)
    assert board_svg(load_course(str(VALID / "walls.yaml")).graph) == svg  # deterministic
    walls = ET.fromstring(svg).findall(f".//{S}polyline[@class='wall']")
    assert len(walls) == len(geo.walls) > 0
    assert all(w.get("stroke-width") == "6" for w in walls)


def test_start_places_alley_finish_and_direction() -> None:
    c = load_course(str(VALID / "alley.yaml"))
    root = ET.fromstring(board_svg(c.graph))
    starts = [g for g in root.iter(f"{S}g") if "start" in (g.get("class") or "").split()]
    assert sorted(int(g.find(f"{S}text[@class='start']").text or "0") for g in starts) == \
        [1, 2, 3, 4]
    assert len([g for g in root.iter(f"{S}g")
                if "alley" in (g.get("class") or "").split()]) == 4
    assert root.findall(f".//{S}line[@class='finish']")
    assert root.findall(f".//{S}line[@class='direction']")


def test_the_shortest_route_is_drawn_step_by_step() -> None:
    c = load_course(str(VALID / "oval.yaml"))
    route = shortest_race_route(c.graph, 1)
    svg = board_svg(c.graph, route=route)
    assert svg.count('class="route"') == len(route) - 1
    assert "shortest legal race from place 1" in svg


def test_dot_pins_every_space_at_its_centre() -> None:
    c = load_course(str(VALID / "walls.yaml"))
    src = lane_graph_dot(c.graph)
    spaces = re.findall(r'^\s*n\d+ \[.*pos="(-?[\d.]+),(-?[\d.]+)!"', src, re.M)
    assert len(spaces) == c.graph.number_of_nodes()
    assert src.count(" -> ") == c.graph.number_of_edges()


def test_graphviz_draws_the_lane_graph_where_the_geometry_puts_each_space(tmp_path: Path) -> None:
    """`make demo` draws the DOT text with `neato -n2`: Graphviz keeps every space at its centre
    in the board geometry (points there, pixels in its SVG at 72 dpi) and draws every step."""
    neato = shutil.which("neato")
    if neato is None:
        if os.environ.get("CI"):
            pytest.fail("Graphviz's neato is missing: make setup installs it "
                        "(apt-get install graphviz)")
        pytest.skip("Graphviz's neato is not installed")
    c = load_course(str(VALID / "walls.yaml"))
    geo = board_geometry(c.graph)
    dot = tmp_path / "lanes.dot"
    dot.write_text(lane_graph_dot(c.graph, geo), encoding="utf-8")
    drawn = subprocess.run([neato, "-n2", "-Tsvg", str(dot)], capture_output=True, text=True,
                           check=True).stdout
    root = ET.fromstring(drawn)
    nodes = {}
    for g in root.iter(f"{S}g"):
        if g.get("class") and "node" in (g.get("class") or "").split():
            title = g.find(f"{S}title")
            shape = next(g.iter(f"{S}polygon"), None)
            assert title is not None and shape is not None
            xs = [float(p.split(",")[0]) for p in (shape.get("points") or "").split()]
            ys = [float(p.split(",")[1]) for p in (shape.get("points") or "").split()]
            nodes[int((title.text or "n-1")[1:])] = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    edges = sum(1 for g in root.iter(f"{S}g") if "edge" in (g.get("class") or "").split())
    assert set(nodes) == set(c.graph.nodes) and edges == c.graph.number_of_edges()
    # Graphviz flips y (its origin is the bottom left) and shifts by one constant offset
    (n0, (x0, y0)) = next(iter(sorted(nodes.items())))
    cx0, cy0 = geo.spaces[n0].centre
    for n, (x, y) in nodes.items():
        cx, cy = geo.spaces[n].centre
        assert abs((x - x0) - (cx - cx0)) < 0.6 and abs(-(y - y0) - (cy - cy0)) < 0.6, n


@needs_rsvg
def test_render_cli_writes_png_pdf_svg_and_dot(tmp_path: Path) -> None:
    for fmt in ("png", "svg", "dot", "pdf"):
        out = tmp_path / f"x.{fmt}"
        r = runner.invoke(app, ["course", "render", str(VALID / "chicane.yaml"), "-o", str(out),
                                "--format", fmt, "--highlight", "shortest"])
        assert r.exit_code == 0, r.output
        assert out.stat().st_size > 100
    assert (tmp_path / "x.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "x.pdf").read_bytes()[:5] == b"%PDF-"


def test_render_without_rsvg_names_the_package_and_keeps_the_svg(tmp_path: Path,
                                                                 monkeypatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no rsvg-convert anywhere
    out = tmp_path / "x.png"
    r = runner.invoke(app, ["course", "render", str(VALID / "oval.yaml"), "-o", str(out)])
    assert r.exit_code == 1
    assert "rsvg-convert" in r.output and "apt-get install librsvg2-bin" in r.output
    assert "<svg" in (tmp_path / "x.svg").read_text()[:80]
    svg = tmp_path / "y.svg"
    r = runner.invoke(app, ["course", "render", str(VALID / "oval.yaml"), "-o", str(svg)])
    assert r.exit_code == 0, r.output  # SVG needs no program


def test_render_rejects_bad_format() -> None:
    r = runner.invoke(app, ["course", "render", str(VALID / "oval.yaml"), "--format", "gif"])
    assert r.exit_code == 2
