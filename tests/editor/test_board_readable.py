"""The board is readable: every SVG the product writes has one ``data-space`` polygon per
space; no two overlap but a bridge over its underpass, where the bridge is translucent and
every number lies in its own space, clear of the bridge (issue 22, issue 37)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from shapely.geometry import Point, Polygon, box

from avecaesar.editor.render.board import board_svg
from avecaesar.editor.render.board_print import board_page, sheet_pages
from avecaesar.editor.render.board_svg import cached_board
from avecaesar.engine.course.load import bundled_course_ids, load_course

S = "{http://www.w3.org/2000/svg}"


def _spaces(svg: str) -> dict[int, tuple[str, Polygon, list[tuple[float, float]]]]:
    """Each space's (class, polygon, where its texts are) in a drawing (the texts written
    over a bridge that covers their space whole: their class is 'above')."""
    out = {}
    root = ET.fromstring(svg)
    above = {int(g.get("data-number-of", "")): [_middle(t) for t in g.findall(f"{S}text")]
             for g in root.iter(f"{S}g") if g.get("class") == "above-bridge"}
    for g in root.iter(f"{S}g"):
        poly = g.find(f"{S}polygon")
        if poly is None or poly.get("data-space") is None:
            continue
        n = int(poly.get("data-space", ""))
        assert g.get("id") == f"space-{n}"
        pts = [tuple(map(float, p.split(","))) for p in (poly.get("points") or "").split()]
        texts = [_middle(t) for t in g.findall(f"{S}text")]
        assert n not in out
        cls = g.get("class") or ""
        out[n] = (cls + " above" if n in above else cls, Polygon(pts), texts + above.get(n, []))
    return out


def _middle(t: ET.Element) -> tuple[float, float]:
    return (float(t.get("x", 0)), float(t.get("y", 0)) - 0.35 * float(t.get("font-size", 10)))


def _box(t: ET.Element) -> Polygon:
    """A text's box, estimated from its size (Helvetica's digits: 0.56 of it wide)."""
    (x, y), size = _middle(t), float(t.get("font-size", 10))
    half = 0.28 * size * len(t.text or "")
    return box(x - half, y - 0.36 * size, x + half, y + 0.36 * size)


@pytest.mark.parametrize("cid", bundled_course_ids())
def test_every_number_is_readable(cid: str) -> None:
    course = load_course(cid)
    svg = board_svg(course.graph, numbers=True)
    spaces = _spaces(svg)
    assert sorted(spaces) == sorted(course.graph.nodes)
    bridges = {n: p for n, (cls, p, _t) in spaces.items() if "bridge" in cls.split()}
    root = ET.fromstring(svg)
    bridge_texts = [_box(t) for g in root.iter(f"{S}g")
                    if "bridge" in (g.get("class") or "").split() for t in g.findall(f"{S}text")]
    above_texts = [_box(t) for g in root.iter(f"{S}g") if g.get("class") == "above-bridge"
                   for t in g.findall(f"{S}text")]
    for t in above_texts:
        assert not any(t.intersects(b) for b in bridge_texts), f"{cid}: numbers overprint"
    written_over = 0
    for n, (cls, poly, texts) in spaces.items():
        assert texts, f"{cid}: space {n} shows no number"
        for x, y in texts:
            assert poly.contains(Point(x, y)), f"{cid}: a text of space {n} lies outside it"
            covered = [b for b, bp in bridges.items() if b != n and bp.contains(Point(x, y))]
            if "above" in cls.split():  # the bridge covers the space whole: written over
                written_over += 1       # the bridge, clear of its spaces' own numbers (above)
            else:
                assert not covered, f"{cid}: the number of space {n} lies under {covered}"
    assert written_over <= len(bridges)
    for group in ET.fromstring(svg).iter(f"{S}g"):
        if "bridge" in (group.get("class") or "").split():
            poly = group.find(f"{S}polygon")
            assert poly is not None and float(poly.get("fill-opacity", "1")) < 0.6


def _count(svg: str) -> list[int]:
    return sorted(int(p.get("data-space", "")) for p in ET.fromstring(svg).iter(f"{S}polygon")
                  if p.get("data-space") is not None)


def test_every_svg_the_product_writes_has_one_polygon_per_space() -> None:
    """course render (the studio's export and race --board draw the same), a heat map, course
    print's board and each sheet's piece, the table's board, a notebook's course (the replay
    viewer and the studio: tests/editor/web)."""
    cid = "homebrew/rome"
    c = load_course(cid)
    nodes = sorted(c.graph.nodes)
    assert _count(board_svg(c.graph, numbers=True)) == nodes
    assert _count(board_svg(c.graph, heat={nodes[0]: 3})) == nodes
    assert _count(board_svg(c.graph, chariots={nodes[0]: "A"})) == nodes
    assert _count(board_page(c.graph)) == nodes
    pages, _plan = sheet_pages(c.graph)
    assert all(_count(page) == nodes for page in pages)  # each piece: the whole board, clipped
    assert _count(cached_board(cid, numbers=True)) == nodes
    assert _count(c._repr_svg_()) == nodes
