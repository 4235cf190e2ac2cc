"""A small SVG of a course's spaces, drawn without any program, for notebooks (``_repr_svg_``).

Each space is its polygon of the board geometry (:mod:`~avecaesar.engine.course.geometry`:
lanes as bands divided into spaces, points, y up), one ``<polygon data-space="N">`` in a
group per space; marks (start place numbers, chariot letters) are drawn on their spaces. The
full board drawing, with walls, routes, PNG and PDF, is ``avecaesar course render``
(editor/render/board.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from avecaesar.engine.course.geometry import Point, board_geometry
from avecaesar.engine.data.values import JsonDict

if TYPE_CHECKING:  # only an annotation: a board from the cache needs no networkx
    import networkx as nx

__all__ = ["BoardDrawing", "Mark", "Space", "course_spaces", "spaces_svg"]

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
    """One space as drawn: its polygon (points, y up), where its mark goes, its fill."""

    polygon: tuple[Point, ...]
    centre: Point
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


def course_spaces(graph: nx.DiGraph) -> dict[int, Space]:
    """Every node of a compiled course graph as a :class:`Space` with its polygon."""
    geo = board_geometry(graph)
    return {node: Space(geo.spaces[node].polygon, geo.spaces[node].centre,
                        space_fill(str(d.get("kind")), d.get("lane"), bool(d.get("chicane")),
                                   bool(d.get("water"))))
            for node, d in graph.nodes(data=True)}


class BoardDrawing:
    """What a position's picture needs of its course — the spaces, the finish line, the
    name — computed when first asked for (a board keeps one; most boards are never
    drawn)."""

    def __init__(self, graph: nx.DiGraph) -> None:
        self._graph = graph
        self._name = str(graph.graph.get("name", ""))
        self._drawn: tuple[dict[int, Space], Segment] | None = None

    def _draw(self) -> tuple[dict[int, Space], Segment]:
        if self._drawn is None:
            self._drawn = (course_spaces(self._graph), board_geometry(self._graph).finish)
        return self._drawn

    def __getstate__(self) -> JsonDict:
        """Pickled (a board kept on disk or sent to a worker): the drawing, not the graph."""
        return {"_graph": None, "_name": self._name, "_drawn": self._draw()}

    @property
    def spaces(self) -> dict[int, Space]:
        return self._draw()[0]

    @property
    def finish(self) -> Segment:
        return self._draw()[1]

    @property
    def name(self) -> str:
        return self._name


Segment = tuple[tuple[float, float], tuple[float, float]]


def spaces_svg(spaces: Mapping[int, Space], marks: Mapping[int, Mark] | None = None,
               title: str = "", caption: Sequence[str] = (),
               finish: Segment | None = None) -> str:
    """An SVG document of ``spaces`` with ``marks`` on them, ``title`` above, ``caption``
    lines below, the ``finish`` line as a black bar."""
    marks = marks or {}
    pts = [p for s in spaces.values() for p in s.polygon]
    if pts:
        x0, x1 = min(x for x, _ in pts) - PAD, max(x for x, _ in pts) + PAD
        y0, y1 = min(y for _, y in pts) - PAD, max(y for _, y in pts) + PAD
    else:
        x0, x1, y0, y1 = 0.0, 200.0, 0.0, 40.0
    head = 28.0 if title else 0.0
    foot = 20.0 * len(caption)
    width, height = x1 - x0, y1 - y0 + head + foot

    def xy(p: Point) -> str:
        return f"{p[0] - x0:.1f},{y1 - p[1] + head:.1f}"  # SVG's y runs down

    shown = min(MAX_WIDTH, width)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
           f'width="{shown:.0f}" height="{shown * height / width:.0f}" '
           'font-family="Helvetica, Arial, sans-serif">',
           f'<rect width="{width:.0f}" height="{height:.0f}" fill="#3b6e3b"/>']
    if title:
        out.append(f'<text x="{PAD:.0f}" y="20" font-size="16" fill="white">'
                   f'{escape(title)}</text>')
    for node, s in sorted(spaces.items()):
        cx, cy = (float(v) for v in xy(s.centre).split(","))
        out.append(f'<g id="space-{node}" transform="translate({cx:.1f},{cy:.1f})">'
                   f'<polygon data-space="{node}" points="'
                   + " ".join(f"{p[0] - s.centre[0]:.1f},{s.centre[1] - p[1]:.1f}"
                              for p in s.polygon)
                   + f'" fill="{s.fill}" stroke="{EDGE}" stroke-width="1"/></g>')
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
