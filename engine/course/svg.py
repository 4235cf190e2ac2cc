"""A small SVG of a course's spaces, drawn without Graphviz, for notebooks (``_repr_svg_``).

Each space is a square turned along the track at the position the course geometry gives it
(points, y up, as :mod:`~avecaesar.engine.course.layout` lays it out); marks (start
place numbers, chariot letters) are drawn on their spaces. The full board drawing, with walls,
the finish line and routes, is ``avecaesar course render`` (editor/render/board.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

__all__ = ["Mark", "Space", "course_spaces", "spaces_svg"]

TRACK = "#f4e3c1"
TRACK_ALT = "#ead2a4"
ALLEY = "#f2c230"
CHICANE = "#e9967a"
WATER = "#8ecae6"
EDGE = "#6b4f2a"
PAD = 24.0  # points around the drawing
MAX_WIDTH = 640  # the largest width a notebook shows, in pixels (the viewBox scales)


@dataclass(frozen=True)
class Space:
    """One space as drawn: centre (points, y up), heading (degrees), length, fill colour."""

    x: float
    y: float
    angle: float
    size: float
    fill: str


@dataclass(frozen=True)
class Mark:
    """Text drawn on a space: a start place number, or a chariot's letter on its colour."""

    text: str
    fill: str | None = None


def space_fill(kind: str, lane: int | None, chicane: bool, water: bool) -> str:
    if water:
        return WATER
    if kind == "alley":
        return ALLEY
    if chicane:
        return CHICANE
    return TRACK_ALT if (lane or 0) % 2 else TRACK


def course_spaces(graph: Any) -> dict[int, Space]:
    """Every node of a course graph (networkx, nodes with ``pos``/``angle``/``size``) as a
    :class:`Space`."""
    out = {}
    for node, d in graph.nodes(data=True):
        x, y = d.get("pos") or (0.0, 0.0)
        out[node] = Space(float(x), float(y), float(d.get("angle") or 0.0),
                          float(d.get("size") or 40.0),
                          space_fill(str(d.get("kind")), d.get("lane"), bool(d.get("chicane")),
                                     bool(d.get("water"))))
    return out


Segment = tuple[tuple[float, float], tuple[float, float]]


def spaces_svg(spaces: Mapping[int, Space], marks: Mapping[int, Mark] | None = None,
               title: str = "", caption: Sequence[str] = (),
               finish: Segment | None = None) -> str:
    """An SVG document of ``spaces`` with ``marks`` on them, ``title`` above, ``caption``
    lines below, the ``finish`` line as a black bar."""
    marks = marks or {}
    if spaces:
        xs = [s.x for s in spaces.values()]
        ys = [s.y for s in spaces.values()]
        x0, x1, y0, y1 = min(xs) - PAD, max(xs) + PAD, min(ys) - PAD, max(ys) + PAD
    else:
        x0, x1, y0, y1 = 0.0, 200.0, 0.0, 40.0
    head = 28.0 if title else 0.0
    foot = 20.0 * len(caption)
    width, height = x1 - x0, y1 - y0 + head + foot
    shown = min(MAX_WIDTH, width)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
           f'width="{shown:.0f}" height="{shown * height / width:.0f}" '
           'font-family="Helvetica, Arial, sans-serif">',
           f'<rect width="{width:.0f}" height="{height:.0f}" fill="#3b6e3b"/>']
    if title:
        out.append(f'<text x="{PAD:.0f}" y="20" font-size="16" fill="white">'
                   f'{escape(title)}</text>')
    for node, s in sorted(spaces.items()):
        cx, cy = s.x - x0, y1 - s.y + head  # SVG's y runs down
        side = max(min(s.size - 6.0, 32.0), 8.0)
        out.append(f'<g transform="translate({cx:.1f},{cy:.1f}) rotate({-s.angle:.1f})">'
                   f'<rect x="{-side / 2:.1f}" y="-16" width="{side:.1f}" height="32" '
                   f'fill="{s.fill}" stroke="{EDGE}" stroke-width="1"/></g>')
        mark = marks.get(node)
        if mark is None:
            continue
        if mark.fill:
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="13" fill="{mark.fill}" '
                       'stroke="white" stroke-width="2"/>')
        colour = "white" if mark.fill else "#333"
        out.append(f'<text x="{cx:.1f}" y="{cy + 5:.1f}" font-size="14" text-anchor="middle" '
                   f'fill="{colour}">{escape(mark.text)}</text>')
    if finish is not None:
        (fx0, fy0), (fx1, fy1) = finish
        out.append(f'<line x1="{fx0 - x0:.1f}" y1="{y1 - fy0 + head:.1f}" '
                   f'x2="{fx1 - x0:.1f}" y2="{y1 - fy1 + head:.1f}" stroke="black" '
                   'stroke-width="4"/>')
    for i, line in enumerate(caption):
        out.append(f'<text x="{PAD:.0f}" y="{y1 - y0 + head + 15 + 20 * i:.0f}" '
                   f'font-size="13" fill="white">{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
