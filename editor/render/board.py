"""Draw a course as a board: the board geometry's polygons as SVG, PNG or PDF.

Every space is the polygon :func:`~avecaesar.engine.course.geometry.board_geometry` gives
it — lanes are bands divided into spaces, wedges in the curves, the alley a bay of its own
— drawn as one ``<polygon data-space="N">`` inside a group ``<g id="space-N"
class="space …">`` that also holds its text. Lanes are shaded, the alley has its own
colour, chicanes and water theirs, walls are thick lines on the shared edges, start places
carry their number, the finish line is a bar across the lanes, an arrow in the infield
shows the driving direction. A bridge's spaces are drawn last and translucent; the number
of a space beneath moves to the part of it no bridge space covers (``free_spot``).

The SVG is written here (plain text, no drawing library); PNG and PDF are the same SVG
converted by librsvg's ``rsvg-convert`` (Debian's ``librsvg2-bin``). Graphviz draws no
board any more: its polygon shape is a regular polygon skewed and distorted — a space of a
curve as a trapezoid on its chords, whose corners cannot meet a neighbour lane with
another count of spaces (13 % of a space's width apart in the 1989 curves of 4 against 7)
— and its Debian build loads no SVG image. ``--format dot`` still writes the lane graph as
DOT text (the spaces pinned at their centres, the steps as edges) for graph tools.

Two styles: ``green`` (the screen's: a green ground, the spaces in the board's sand
colours) and ``ink`` (the printed board's default: a white ground, light spaces, dark
outlines).
"""

from __future__ import annotations

import itertools
import math
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

import networkx as nx

from avecaesar.editor.render.lang import catalog, name_of
from avecaesar.editor.render.lang import text as say
from avecaesar.engine.course.geometry import (
    BoardGeometry,
    Point,
    SpaceShape,
    board_geometry,
    centroid,
    contains,
    distance_to,
    free_spot,
    space_width,
)
from avecaesar.engine.course.layout import SPACE
from avecaesar.engine.data.errors import AveCaesarError

__all__ = ["FORMATS", "PAPERS", "STYLES", "Canvas", "RenderError", "Style", "board_svg",
           "converter", "heat_colour",
           "lane_graph_dot", "long_steps", "output_format", "render", "route_laps"]

FORMATS = ("svg", "png", "pdf", "dot")
PAPERS = {"a4": (841.89, 595.28), "a3": (1190.55, 841.89)}  # landscape, points
LAP_COLOURS = ["#c0392b", "#1f6fb2", "#8e44ad", "#d35400", "#117a65", "#7b241c"]
LAP_NAMES = ["red", "blue", "violet", "orange", "green", "brown"]
LONG_STEP = 2.5 * 40.0  # points: a step drawn longer than this does not join its spaces
CHARIOT_FILL = ["#c0392b", "#2471a3", "#1e8449", "#7d3c98", "#d35400", "#17202a", "#b7950b",
                "#a93226", "#148f77", "#5d6d7e", "#6e2c00", "#1a5276"]
PAD = 30.0  # points of ground around the spaces
HIDDEN = 15.5  # the width the text of a space a bridge covers whole is fitted to
FONT = "Helvetica, Arial, sans-serif"


@dataclass(frozen=True)
class Style:
    """The colours of a board."""

    ground: str
    lanes: tuple[str, str]
    alley: str
    chicane: str
    water: str
    edge: str
    edge_width: float
    wall: str
    text: str
    start: str
    title: str


STYLES = {
    "green": Style("#3f6b35", ("#f4e3c1", "#ead2a4"), "#f2c230", "#e9967a", "#8ecae6",
                   "#6b4f2a", 1.2, "#5a3e1b", "#222222", "#1b3a8a", "white"),
    "ink": Style("#ffffff", ("#ffffff", "#f6f3ec"), "#fff3c4", "#fde2d8", "#dcefff",
                 "#222222", 1.0, "#111111", "#222222", "#1b3a8a", "#111111"),
}


class RenderError(AveCaesarError):
    """Raised when a board cannot be converted (``rsvg-convert`` missing or failing)."""


def heat_colour(share: float) -> str:
    """A colour from pale yellow (0) to deep red (1) for a heat map."""
    share = min(1.0, max(0.0, share))
    r = 255
    g = int(245 - 200 * share)
    b = int(200 - 190 * share)
    if share > 0.6:
        r = int(255 - 120 * (share - 0.6) / 0.4)
    return f"#{r:02x}{g:02x}{b:02x}"


class Canvas:
    """SVG coordinates for the geometry's points (y up): x less x0, y flipped below y1."""

    def __init__(self, x0: float, y1: float, head: float) -> None:
        self.x0, self.y1, self.head = x0, y1, head

    def xy(self, p: Point) -> tuple[float, float]:
        return (p[0] - self.x0, self.y1 - p[1] + self.head)

    def points(self, poly: Sequence[Point]) -> str:
        return " ".join(f"{x:.2f},{y:.2f}" for x, y in map(self.xy, poly))


def _fill(d: Mapping[str, object], style: Style) -> str:
    if d["kind"] == "alley":
        return style.alley
    if d.get("water"):
        return style.water
    if d.get("chicane"):
        return style.chicane
    return style.lanes[int(str(d["lane"])) % 2]


def _classes(d: Mapping[str, object]) -> str:
    out = ["space", str(d["kind"])]
    for flag, name in (("water", "water"), ("chicane", "chicane"), ("start_place", "start")):
        if d.get(flag):
            out.append(name)
    level = d.get("level")
    if level == "over":
        out.append("bridge")
    elif level == "under":
        out.append("underpass")
    return " ".join(out)


def _texts(n: int, d: Mapping[str, object], numbers: bool, labels: bool) -> list[tuple[str, str]]:
    """(text, kind) lines written in a space: its start place, its id, or its label."""
    out = []
    if d.get("start_place"):
        out.append((str(d["start_place"]), "start"))
    if numbers:
        out.append((str(n), "number"))
    elif labels and not out:
        out.append((str(d["label"]), "label"))
    return out


def board_svg(g: nx.DiGraph, *, route: list[int] | None = None, labels: bool = False,
              title: str | None = None, heat: Mapping[int, float] | None = None,
              chariots: Mapping[int, str] | None = None, numbers: bool = False,
              style: str = "green", paper: str | None = None,
              geometry: BoardGeometry | None = None, frame: float = PAD,
              below: float = 0.0, extra: Callable[[Canvas], list[str]] | None = None,
              min_width: float = 0.0) -> str:
    """The SVG document of course ``g``; ``route`` (space ids, a race from a start place) is
    drawn lap by lap, each lap in its own colour and offset beside the others, with the
    alley stop marked. ``numbers`` writes each space's id (the ids moves are named by);
    ``labels`` each space's label. ``heat`` maps spaces to counts: spaces are coloured from
    white (never) over pale yellow to deep red (most), the count in the tooltip.
    ``chariots`` maps spaces to chariot letters: the space takes the chariot's colour and
    letter. ``paper`` (``a4``, ``a3``): a landscape page of that size with the board fitted
    in. ``title``: lines separated by newlines (None: the course's name and direction,
    and with a route its legend; "" none). ``frame``: the ground around the spaces, in
    points; ``below``: more ground below them; ``extra``: more elements, given the canvas
    (``course print``'s labels and the copy of the spaces beneath a bridge)."""
    geo = geometry or board_geometry(g)
    st = STYLES[style]
    if title is None:
        title = board_title(g)
        if route:
            title += "\n" + _route_legend(g, route)
    lines = [t for t in title.split("\n") if t] if title else []
    x0, y0, x1, y1 = geo.bounds
    x0, y0, x1, y1 = x0 - frame, y0 - frame - below, x1 + frame, y1 + frame
    wide = max([min_width, *(9.5 * len(t) + 2 * frame for t in lines)])
    if x1 - x0 < wide:  # room for the title
        x0, x1 = x0 - (wide - x1 + x0) / 2, x1 + (wide - x1 + x0) / 2
    head = 26.0 * len(lines) + (8.0 if lines else 0.0)
    width, height = x1 - x0, y1 - y0 + head
    canvas = Canvas(x0, y1, head)
    body = [f'<rect class="ground" x="0" y="0" width="{width:.2f}" height="{height:.2f}" '
            f'fill="{st.ground}"/>']
    for i, line in enumerate(lines):
        body.append(f'<text class="title" x="{width / 2:.1f}" y="{24 + 26 * i:.1f}" '
                    f'text-anchor="middle" font-size="18" fill="{st.title}">'
                    f'{escape(line)}</text>')
    body += _spaces(g, geo, canvas, st, numbers, labels, heat, chariots)
    for wall in geo.walls:
        body.append(f'<polyline class="wall" points="{canvas.points(wall)}" fill="none" '
                    f'stroke="{st.wall}" stroke-width="6" stroke-linecap="round"/>')
    (fx0, fy0), (fx1, fy1) = map(canvas.xy, geo.finish)
    body.append(f'<line class="finish" x1="{fx0:.2f}" y1="{fy0:.2f}" x2="{fx1:.2f}" '
                f'y2="{fy1:.2f}" stroke="#111" stroke-width="7"/>')
    body.append(f'<line class="finish" x1="{fx0:.2f}" y1="{fy0:.2f}" x2="{fx1:.2f}" '
                f'y2="{fy1:.2f}" stroke="#fff" stroke-width="7" stroke-dasharray="7 7"/>')
    (ax, ay), (bx, by) = map(canvas.xy, geo.arrow)
    arrow_colour = "white" if style == "green" else "#555"
    body.append(f'<line class="direction" x1="{ax:.2f}" y1="{ay:.2f}" x2="{bx:.2f}" '
                f'y2="{by:.2f}" stroke="{arrow_colour}" stroke-width="3" '
                'marker-end="url(#arrow)"/>')
    if route:
        body += _route(g, geo, canvas, route)
    if extra is not None:
        body += extra(canvas)
    if not geo.closure.closed:
        cx, cy = canvas.xy(geo.closure.at)
        body.append(f'<circle class="gap" cx="{cx:.1f}" cy="{cy:.1f}" r="12" fill="none" '
                    'stroke="#e00" stroke-width="3"><title>'
                    + say("events", "gap_tip", gap=f"{geo.closure.gap / SPACE:.1f}")
                    + '</title></circle>')
    defs = ('<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" '
            'markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
            f'fill="{arrow_colour}"/></marker>' + "".join(
                f'<marker id="lap{k}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="3" '
                f'markerHeight="3" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{c}"/>'
                '</marker>' for k, c in enumerate(LAP_COLOURS)) + '</defs>')
    name = escape(str(g.graph.get("name", "")), {'"': "&quot;"})
    if paper is not None:
        pw, ph = PAPERS[paper]
        size = (f'width="{pw:.2f}" height="{ph:.2f}" viewBox="0 0 {width:.2f} {height:.2f}" '
                'preserveAspectRatio="xMidYMid meet"')
        body.insert(0, f'<rect x="-100000" y="-100000" width="200000" height="200000" '
                       f'fill="{st.ground}"/>')
    else:
        size = f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.2f} {height:.2f}"'
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" {size} class="board board-{style}" '
            f'data-course="{escape(str(g.graph.get("id", "")), {chr(34): "&quot;"})}" '
            f'font-family="{FONT}">\n<title>{name}</title>\n{defs}\n' + "\n".join(body)
            + "\n</svg>\n")


def _spaces(g: nx.DiGraph, geo: BoardGeometry, canvas: Canvas, st: Style, numbers: bool,
            labels: bool, heat: Mapping[int, float] | None,
            chariots: Mapping[int, str] | None) -> list[str]:
    """One group per space, a bridge's last (on top); then the numbers of the spaces that a
    bridge covers whole, above the bridge, clear of its spaces' own numbers."""
    over = [s for s in geo.spaces.values() if s.level == "over"]
    top = max(heat.values(), default=0) or 1 if heat is not None else 1
    out, above = [], []
    for n in sorted(geo.spaces, key=lambda n: (geo.spaces[n].level == "over", n)):
        d, shape = g.nodes[n], geo.spaces[n]
        fill, stroke, width = _fill(d, st), st.edge, st.edge_width
        tip = f"{d['label']} (lane {d['lane']}, progress {d['progress']})"
        extra = ""
        if heat is not None:
            value = heat.get(n, 0)
            fill = heat_colour(value / top) if value else "#ffffff"
            tip += f": {value}"
        texts = _texts(n, d, numbers, labels)
        colour = st.text
        if chariots and n in chariots:
            letter = chariots[n]
            fill = CHARIOT_FILL[(ord(letter[:1] or "A") - ord("A")) % len(CHARIOT_FILL)]
            texts, colour, stroke, width = [(letter, "chariot")], "white", "white", 2.5
            tip += f": chariot {letter}"
        if shape.level == "over":
            extra, width = ' fill-opacity="0.55"', width + 1.3
        elif shape.level == "under":
            extra = ' stroke-dasharray="5 3"'
        spot, room, hidden = shape.centre, space_width(shape), False
        if shape.level == "under" and over and texts:
            covers = [s for s in over if _near(s, shape)]
            if covers:
                spot, room, hidden = _clear_spot(shape, covers, texts)
        x, y = canvas.xy(spot)
        cls = _classes(d) + (" heat" if heat is not None else "") + (
            " chariot" if chariots and n in chariots else "")
        group = [f'<g id="space-{n}" class="{cls}" data-x="{x:.1f}" data-y="{y:.1f}">'
                 f'<title>{escape(tip)}</title>'
                 f'<polygon data-space="{n}" points="{canvas.points(shape.polygon)}" '
                 f'fill="{fill}" stroke="{stroke}" stroke-width="{width:g}" '
                 f'stroke-linejoin="round"{extra}/>']
        lines = _text_lines(texts, x, y, room, colour, st)
        if hidden:  # beneath the bridge whole: written over it, on a halo
            above.append(f'<g class="above-bridge" data-number-of="{n}" stroke="white" '
                         'stroke-width="3" paint-order="stroke">' + "".join(lines) + "</g>")
            lines = []
        out.append("".join(group + lines) + "</g>")
    return out + above


def _clear_spot(shape: SpaceShape, covers: list[SpaceShape],
                texts: list[tuple[str, str]]) -> tuple[Point, float, bool]:
    """Where the text of a space beneath a bridge goes, the width it may take, and whether
    the bridge covers it there: clear of the bridge at the largest of a few sizes that
    finds room; else (a space the bridge covers whole) in the space as far as it goes from
    the bridge spaces' own texts."""
    polys = [c.polygon for c in covers]
    for wide in (28.0, 20.0, 14.0, 10.0):
        tall = sum(_size(kind, text, wide) * 1.05 for text, kind in texts)
        spot = free_spot(shape.polygon, polys, max(wide / 2, tall / 2) + 1.0)
        if spot is not None:
            return spot, wide, False
    tall = sum(_size(kind, text, HIDDEN) * 1.05 for text, kind in texts)
    wide = max(0.58 * _size(kind, text, HIDDEN) * len(text) for text, kind in texts)
    spot = _farthest(shape.polygon, [c.centre for c in covers], (wide / 2 + 10, tall / 2 + 6),
                     max(4.0, tall / 2 + 1))
    return spot, HIDDEN, True


def _farthest(poly: tuple[Point, ...], marks: list[Point], clear: tuple[float, float],
              room: float) -> Point:
    """The point of ``poly``, ``room`` inside it, whose box of half-sides ``clear`` keeps
    farthest from every point of ``marks`` (the texts of the bridge spaces above it)."""
    xs, ys = [x for x, _ in poly], [y for _, y in poly]
    best: tuple[float, Point] = (-math.inf, centroid(poly))
    for i in range(25):
        for j in range(25):
            p = (min(xs) + (max(xs) - min(xs)) * i / 24, min(ys) + (max(ys) - min(ys)) * j / 24)
            if contains(poly, p) and distance_to(poly, p) >= room:
                gap = min(max(abs(p[0] - m[0]) - clear[0], abs(p[1] - m[1]) - clear[1])
                          for m in marks)
                if gap > best[0]:
                    best = (gap, p)
    return best[1]


def _size(kind: str, text: str, wide: float) -> float:
    """The font size of a space's text ``kind`` in a space ``wide`` points wide (a hidden
    space's, written over a bridge: :data:`HIDDEN` wide, smaller)."""
    sizes = ({"start": 10.0, "number": 9.0, "label": 6.0, "chariot": 12.0} if wide == HIDDEN
             else {"start": 17.0, "number": 11.0, "label": 6.0, "chariot": 17.0})
    return max(5.0, min(sizes[kind], (max(wide, 6.0) - 1.5) / (0.58 * max(len(text), 1))))


def _near(a: SpaceShape, b: SpaceShape) -> bool:
    """Whether the boxes around two spaces meet."""
    ax, ay = [x for x, _ in a.polygon], [y for _, y in a.polygon]
    bx, by = [x for x, _ in b.polygon], [y for _, y in b.polygon]
    return (min(ax) <= max(bx) and min(bx) <= max(ax) and min(ay) <= max(by)
            and min(by) <= max(ay))


def _text_lines(texts: list[tuple[str, str]], x: float, y: float, room: float, colour: str,
                st: Style) -> list[str]:
    """The lines of a space's text, centred on (x, y), each at a size it fits in."""
    if not texts:
        return []
    rows = [(text, kind, _size(kind, text, room)) for text, kind in texts]
    total = sum(s * 1.05 for _t, _k, s in rows)
    top = y - total / 2
    out = []
    for text, kind, size in rows:
        top += size * 1.05
        fill = st.start if kind == "start" and colour == st.text else colour
        weight = ' font-weight="bold"' if kind in ("start", "chariot") else ""
        out.append(f'<text class="{kind}" x="{x:.1f}" y="{top - size * 0.22:.1f}" '
                   f'text-anchor="middle" font-size="{size:.1f}" fill="{fill}"{weight}>'
                   f'{escape(text)}</text>')
    return out


def route_laps(g: nx.DiGraph, route: list[int]) -> list[int]:
    """The lap of each step of a race from a start place: 1, 2, …; the run-up to the line
    from a grid behind it counts with lap 1, the step over the line with the lap it ends."""
    offset = 0
    if route and route[0] in g.graph["start_places"]:
        offset = g.graph["start_crossings"][g.graph["start_places"].index(route[0])]
    laps, crossed = [], 0
    for u, v in itertools.pairwise(route):
        laps.append(max(crossed - offset + 1, 1))
        crossed += 1 if g.edges[u, v].get("finish") else 0
    return laps


def long_steps(g: nx.DiGraph, edges: list[tuple[int, int]] | None = None
               ) -> list[tuple[int, int, float]]:
    """Steps whose two spaces are drawn far apart (more than 2.5 spaces): the pieces do not
    close there, so a step would be a long line across the board. (u, v, length in spaces)."""
    out = []
    for u, v in edges if edges is not None else g.edges:
        (x0, y0), (x1, y1) = g.nodes[u]["pos"], g.nodes[v]["pos"]
        length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        if length > LONG_STEP:
            out.append((u, v, round(length / 40.0, 1)))
    return out


def _route_legend(g: nx.DiGraph, route: list[int]) -> str:
    laps = sorted(set(route_laps(g, route)))
    place = g.nodes[route[0]].get("start_place") or "?"
    shades = ", ".join(say("events", "route_lap", lap=k, colour=say(
        "events", "colour_" + LAP_NAMES[(k - 1) % len(LAP_NAMES)])) for k in laps)
    stop = say("events", "route_stop") if any(g.nodes[n]["kind"] == "alley" for n in route) \
        else ""
    return say("events", "route_legend", place=place, steps=len(route) - 1, shades=shades,
                stop=stop)


def board_title(g: nx.DiGraph) -> str:
    """The board's title: the course's name (a bundled course's in the current language)
    and its direction."""
    name = name_of(str(g.graph.get("id", "")).removesuffix("-ccw"), str(g.graph.get("name", "")))
    way = str(g.graph.get("direction", ""))
    key = "dir_" + way
    return say("events", "board_title", name=name,
                direction=say("events", key) if key in catalog()["events"] else way)


def _route(g: nx.DiGraph, geo: BoardGeometry, canvas: Canvas, route: list[int]) -> list[str]:
    """The race drawn lap by lap: each lap a line of its own colour from space centre to
    space centre, offset to the side of the others so that three laps stay apart."""
    laps = route_laps(g, route)
    far = {(u, v) for u, v, _ in long_steps(g, list(itertools.pairwise(route)))}
    out = ['<g class="routes">']
    for i, ((u, v), lap) in enumerate(zip(itertools.pairwise(route), laps, strict=True)):
        if (u, v) in far:
            continue  # reported as a problem by the caller, never a line across the board
        off = (lap - 2) * 5.0
        ends = []
        for n in (u, v):
            s = geo.spaces[n]
            a = math.radians(s.heading)
            ends.append(canvas.xy((s.centre[0] - math.sin(a) * off,
                                   s.centre[1] + math.cos(a) * off)))
        k = (lap - 1) % len(LAP_COLOURS)
        (xa, ya), (xb, yb) = ends
        out.append(f'<line id="route-lap{lap}-{i}" class="route" x1="{xa:.2f}" y1="{ya:.2f}" '
                   f'x2="{xb:.2f}" y2="{yb:.2f}" stroke="{LAP_COLOURS[k]}" stroke-width="2.5" '
                   f'marker-end="url(#lap{k})"/>')
    stop = next((n for n in route if g.nodes[n]["kind"] == "alley"), None)
    if stop is not None:
        x, y = canvas.xy(geo.spaces[stop].centre)
        out.append(f'<circle class="alley-stop" cx="{x:.1f}" cy="{y - 12:.1f}" r="7" '
                   f'fill="#c0392b" stroke="white" stroke-width="2"><title>'
                   f'{escape(say("events", "alley_stop_tip", label=g.nodes[stop]["label"]))}'
                   '</title></circle>')
    out.append("</g>")
    return out


def lane_graph_dot(g: nx.DiGraph, geometry: BoardGeometry | None = None) -> str:
    """The lane graph as DOT text: every space a node pinned at its centre (points, for
    ``neato -n2``), every step an edge (diagonal, finish and alley steps marked)."""
    geo = geometry or board_geometry(g)
    name = str(g.graph.get("id", "course")).replace('"', "'")
    out = [f'digraph "{name}" {{', '  node [shape=box, width=0.4, height=0.4, fixedsize=true];']
    for n in sorted(g.nodes):
        x, y = geo.spaces[n].centre
        d = g.nodes[n]
        out.append(f'  n{n} [label="{n}", pos="{x:.2f},{y:.2f}!", '
                   f'tooltip="{str(d["label"]).replace(chr(34), chr(39))}", '
                   f'class="{_classes(d)}"];')
    for u, v, e in sorted(g.edges(data=True)):
        marks = [k for k in ("diagonal", "finish") if e.get(k)]
        if e.get("alley"):
            marks.append(f"alley-{e['alley']}")
        out.append(f'  n{u} -> n{v}' + (f' [class="{" ".join(marks)}"]' if marks else "") + ";")
    out.append("}")
    return "\n".join(out) + "\n"


def output_format(out: str | None, fmt: str | None) -> str:
    """The format: ``--format`` if given, else the output file's suffix, else SVG."""
    if fmt:
        if fmt not in FORMATS:
            raise RenderError(f"--format {fmt!r}: use one of {', '.join(FORMATS)}")
        return fmt
    if out is None:
        return "svg"
    suffix = out.rsplit(".", 1)[-1].lower() if "." in out else ""
    if suffix not in FORMATS:
        raise RenderError(f"cannot tell the format of {out!r} from its name — end it in "
                          f"{', '.join('.' + f for f in FORMATS)} or pass --format")
    return suffix


def converter() -> str:
    """The SVG converter's path; :class:`RenderError` with the hint to install it."""
    found = shutil.which("rsvg-convert")
    if found is None:
        raise RenderError(
            "librsvg's rsvg-convert is not installed (it turns the board's SVG into PNG and "
            "PDF) — install the Debian package 'librsvg2-bin' (apt-get install "
            "librsvg2-bin); SVG needs nothing")
    return found


def render(svg: str | Sequence[str], fmt: str) -> bytes:
    """An SVG document as ``svg``, ``png`` or ``pdf`` bytes (several documents: a PDF with
    a page each). One SVG unit is a point on the PDF and a pixel on the PNG."""
    docs = [svg] if isinstance(svg, str) else list(svg)
    if fmt == "svg":
        return docs[0].encode("utf-8")
    if fmt not in ("png", "pdf"):
        raise RenderError(f"cannot render a board as {fmt!r}: svg, png or pdf")
    import tempfile
    from pathlib import Path

    exe = converter()
    with tempfile.TemporaryDirectory(prefix="avecaesar-board-") as tmp:
        files = []
        for i, doc in enumerate(docs):
            path = Path(tmp) / f"page{i:03d}.svg"
            path.write_text(doc, encoding="utf-8")
            files.append(str(path))
        try:
            done = subprocess.run([exe, "-f", fmt, "-d", "72", "-p", "72", *files],
                                  capture_output=True, check=False, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise RenderError(f"rsvg-convert failed: {err}") from err
    if done.returncode or not done.stdout:
        raise RenderError(f"rsvg-convert failed: {done.stderr.decode('utf-8', 'replace')!r}")
    return done.stdout

