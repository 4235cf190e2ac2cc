"""Where the course crosses itself: the spaces beneath a bridge keep their numbers visible.

A bridge's spaces are drawn last, translucent, over the spaces of the underpass. Where a
bridge space lies over part of a space beneath, that space's number would sit under the
bridge's (or under its border); so the drawing is measured first (Graphviz lays the boxes
out, rotated and fitted as it draws them) and each such number is moved to the part of its
own space that no bridge space covers, the spot farthest from the bridge. The numbers are
the node ids every message and log names a space by; none is hidden.
"""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

import graphviz
import networkx as nx

__all__ = ["Box", "number_spots", "overlaps", "space_boxes"]

SVG = "{http://www.w3.org/2000/svg}"
Box = list[tuple[float, float]]  # a space's polygon, in SVG coordinates (y down)
DIGIT = 0.56  # Helvetica digit width per point of font size
GRID = (0.18, 0.3, 0.42, 0.5, 0.58, 0.7, 0.82)


def space_boxes(svg: str) -> dict[int, tuple[str, Box]]:
    """Every space's (class, polygon) in a board's SVG, by space id."""
    root = ET.fromstring(svg)
    out: dict[int, tuple[str, Box]] = {}
    for g in root.iter(f"{SVG}g"):
        m = re.fullmatch(r"space-(\d+)", g.get("id", ""))
        poly = g.find(f".//{SVG}polygon")
        if m is None or poly is None:
            continue
        pts = [tuple(map(float, p.split(","))) for p in (poly.get("points") or "").split()]
        if len(pts) > 1 and pts[0] == pts[-1]:
            pts = pts[:-1]
        out[int(m[1])] = (g.get("class", ""), [(x, y) for x, y in pts])
    return out


def overlaps(a: Box, b: Box, margin: float = 0.5) -> bool:
    """Whether two convex polygons overlap by more than ``margin`` (separating axes)."""
    for poly in (a, b):
        for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
            nx_, ny_ = y2 - y1, x1 - x2
            norm = math.hypot(nx_, ny_) or 1.0
            pa = [(nx_ * x + ny_ * y) / norm for x, y in a]
            pb = [(nx_ * x + ny_ * y) / norm for x, y in b]
            if max(pa) <= min(pb) + margin or max(pb) <= min(pa) + margin:
                return False
    return True


def _inside(p: tuple[float, float], poly: Box) -> bool:
    sign = 0.0
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
        cross = (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1)
        if cross and sign and (cross > 0) != (sign > 0):
            return False
        sign = cross or sign
    return True


def _rect(cx: float, cy: float, w: float, h: float) -> Box:
    return [(cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2),
            (cx - w / 2, cy + h / 2)]


def _spot(box: Box, bridges: list[Box], text: str, size: float, within: bool = True
          ) -> tuple[float, float] | None:
    """The centre of a free spot for ``text`` in ``box`` (no bridge box over it; ``within``:
    the whole text inside the box, else its middle), or None."""
    lines = text.split("\\n")
    w = DIGIT * size * max(len(t) for t in lines) + 2
    h = size * 1.05 * len(lines)
    (ax, ay), (bx, by), _c, (dx, dy) = box[0], box[1], box[2], box[3]
    best: tuple[float, tuple[float, float]] | None = None
    for u, v in itertools.product(GRID, GRID):
        cx = ax + (bx - ax) * u + (dx - ax) * v
        cy = ay + (by - ay) * u + (dy - ay) * v
        rect = _rect(cx, cy, w, h)
        if within and not all(_inside(p, box) for p in rect):
            continue
        if any(overlaps(rect, b, 0.0) for b in bridges):
            continue
        far = min(math.dist((cx, cy), _centre(b)) for b in bridges)
        if best is None or far > best[0]:
            best = (far, (cx, cy))
    return None if best is None else best[1]


def _centre(box: Box) -> tuple[float, float]:
    return (sum(x for x, _ in box) / len(box), sum(y for _, y in box) / len(box))


def number_spots(g: nx.DiGraph, specs: list[tuple[int, str, dict[str, str]]],
                 render: Callable[[graphviz.Digraph, str], bytes]
                 ) -> dict[int, tuple[tuple[float, float], float]]:
    """For each space beneath a bridge whose text a bridge space would cover: where to write
    it instead (graph coordinates, points) and at what font size. ``render``: Graphviz with
    pinned positions (``board.render``), to measure the drawing."""
    under = {n for n, _t, _a in specs if g.nodes[n].get("level") == "under"}
    if not under or not any(g.nodes[n].get("level") == "over" for n in g.nodes):
        return {}
    probe = graphviz.Digraph(engine="neato")
    probe.attr("graph", pad="0", splines="false")
    probe.attr("node", shape="box", fixedsize="true", width="0.47", height="0.47")
    for n, text, attrs in specs:
        keep = {k: v for k, v in attrs.items()
                if k in ("pos", "orientation", "width", "height", "id", "fontsize")}
        probe.node(f"n{n}", text, **keep)
    boxes = space_boxes(render(probe, "svg").decode("utf-8"))
    # SVG coordinates back to the graph's: x shifted, y flipped and shifted (one space tells)
    n0 = next(iter(boxes))
    cx, cy = _centre(boxes[n0][1])
    px, py = g.nodes[n0]["pos"]
    bridges = [box for n, (_c, box) in boxes.items() if g.nodes[n].get("level") == "over"]
    out: dict[int, tuple[tuple[float, float], float]] = {}
    for n, text, attrs in specs:
        if n not in under or not text:
            continue
        box = boxes[n][1]
        covering = [b for b in bridges if overlaps(box, b)]
        if not covering:
            continue
        size = float(attrs.get("fontsize", "10"))
        for s, within in ((size, True), (size - 2, True), (size - 3, True),
                          (size - 3, False)):
            spot = _spot(box, covering, text, s, within)
            if spot is not None:
                out[n] = ((spot[0] - cx + px, cy - spot[1] + py), s)
                break
    return out
