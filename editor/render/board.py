"""Draw a course as a board with Graphviz: every space pinned where the geometry puts it.

Positions are in points and rendered with ``neato -n2`` (no layout run), so a course always
looks the same and looks like the board. Spaces are boxes turned along the track; lanes are
shaded, the alley has its own colour, chicanes a double border, walls are thick brown
lines, start places carry their number, the finish line is a black bar, and an arrow shows
the driving direction.
"""

from __future__ import annotations

import itertools
import math
import re

import graphviz
import networkx as nx

from avecaesar.editor.render.board_bridges import number_spots
from avecaesar.engine.data.errors import AveCaesarError

__all__ = ["FORMATS", "PAPERS", "RenderError", "course_dot", "fit_to_paper", "heat_colour",
           "long_steps", "output_format", "render", "route_laps"]

FORMATS = ("svg", "png", "pdf", "dot")
PAPERS = {"a4": (11.69, 8.27), "a3": (16.54, 11.69)}  # landscape, inches
LAP_COLOURS = ["#c0392b", "#1f6fb2", "#8e44ad", "#d35400", "#117a65", "#7b241c"]
LAP_NAMES = ["red", "blue", "violet", "orange", "green", "brown"]
LONG_STEP = 2.5 * 40.0  # points: a step drawn longer than this does not join its spaces
BRIDGE_ALPHA = "70"  # the upper level is drawn translucent so the lower one shows through
BRIDGE_SIZE = 0.4  # inches: a bridge's spaces (the others are 0.47) leave more of those beneath

LANE_FILL = ["#f4e3c1", "#ead2a4", "#f4e3c1", "#ead2a4", "#f4e3c1", "#ead2a4", "#f4e3c1",
             "#ead2a4"]
ALLEY_FILL = "#f2c230"
CHICANE_FILL = "#e9967a"
WATER_FILL = "#8ecae6"
ROUTE = "#c0392b"
CHARIOT_FILL = ["#c0392b", "#2471a3", "#1e8449", "#7d3c98", "#d35400", "#17202a", "#b7950b",
                "#a93226", "#148f77", "#5d6d7e", "#6e2c00", "#1a5276"]
WALL = "#5a3e1b"


class RenderError(AveCaesarError):
    """Raised when Graphviz cannot render (``dot`` missing or failing)."""


def _pos(x: float, y: float) -> str:
    return f"{x:.2f},{y:.2f}!"


def heat_colour(share: float) -> str:
    """A colour from pale yellow (0) to deep red (1) for a heat map."""
    share = min(1.0, max(0.0, share))
    r = 255
    g = int(245 - 200 * share)
    b = int(200 - 190 * share)
    if share > 0.6:
        r = int(255 - 120 * (share - 0.6) / 0.4)
    return f"#{r:02x}{g:02x}{b:02x}"


def course_dot(g: nx.DiGraph, *, route: list[int] | None = None, labels: bool = False,
               title: str | None = None, heat: dict[int, float] | None = None,
               chariots: dict[int, str] | None = None, numbers: bool = False
               ) -> graphviz.Digraph:
    """The DOT graph of course ``g``; ``route`` (space ids, a race from a start place) is
    drawn lap by lap, each lap in its own colour and offset beside the others, with the
    alley stop marked. ``numbers`` writes each space's id (the ids moves are named by).

    ``heat`` maps spaces to counts: spaces are then coloured from pale (never) to deep red
    (most), on the same pinned layout, with the count in the tooltip.

    ``chariots`` maps spaces to chariot letters (``A``, ``B``, …): each such space shows its
    letter in white on the chariot's own colour (class ``chariot``).
    """
    dot = graphviz.Digraph(name=str(g.graph.get("id", "course")), engine="neato")
    label = title or f"{g.graph.get('name', '')} — {g.graph.get('direction', '')}"
    if route and title is None:
        label += "\\n" + _route_legend(g, route)
    dot.attr("graph", bgcolor="#3f6b35", pad="0.4", splines="false", outputorder="edgesfirst",
             label=label,
             labelloc="t", fontname="Helvetica", fontsize="18", fontcolor="white")
    dot.attr("node", shape="box", style="filled", fixedsize="true", width="0.47",
             height="0.47", fontname="Helvetica", fontsize="11", color="#6b4f2a",
             penwidth="1")
    dot.attr("edge", dir="none")
    # Spaces on a bridge are drawn last, so they lie on top.
    order = sorted(g.nodes, key=lambda n: g.nodes[n].get("level") == "over")
    specs: list[tuple[int, str, dict[str, str]]] = []
    numbered: list[tuple[int, str, float, float, float, str]] = []
    for n in order:
        d = g.nodes[n]
        attrs = {"pos": _pos(*d["pos"]), "orientation": f"{d['angle']:.1f}",
                 "class": f"space {d['kind']}", "id": f"space-{n}",
                 "tooltip": f"{d['label']} (lane {d['lane']}, progress {d['progress']})"}
        size = d.get("size") or 0.0
        if 0 < size < 36:  # a short space (an alley longer than the track beside it)
            attrs["width"] = f"{max(size - 3, 8) / 72:.3f}"
        if d["kind"] == "alley":
            attrs["fillcolor"] = ALLEY_FILL
        elif d["water"]:
            attrs["fillcolor"] = WATER_FILL
            attrs["class"] += " water"
        elif d["chicane"]:
            attrs["fillcolor"] = CHICANE_FILL
            attrs["peripheries"] = "2"
            attrs["class"] += " chicane"
        else:
            attrs["fillcolor"] = LANE_FILL[d["lane"] % len(LANE_FILL)]
        if d.get("level") == "over":  # smaller, so more of the space beneath shows
            side = min(float(attrs.get("width", "0.47")), BRIDGE_SIZE)
            attrs["width"] = attrs["height"] = f"{side:.3f}"
            attrs["penwidth"] = "2.5"
            attrs["fillcolor"] += BRIDGE_ALPHA
            attrs["class"] += " bridge"
        elif d.get("level") == "under":
            attrs["style"] = "filled,dashed"
            attrs["class"] += " underpass"
        if heat is not None:
            top = max(heat.values(), default=0) or 1
            value = heat.get(n, 0)
            attrs["fillcolor"] = heat_colour(value / top) if value else "#ffffff"
            attrs["tooltip"] += f": {value}"
            attrs["class"] += " heat"
        text = ""
        if d["start_place"]:
            text = str(d["start_place"])
            attrs["fontsize"] = "16"
            attrs["fontcolor"] = "#1b3a8a"
            attrs["class"] += " start"
            if numbers:
                text = f"{d['start_place']}\\n{n}"
                attrs["fontsize"] = "10"
        elif numbers:
            text = str(n)
            attrs["fontsize"] = "10"
        elif labels:
            text = d["label"]
            attrs["fontsize"] = "6"
        if chariots and n in chariots:
            letter = chariots[n]
            text = letter
            colour = CHARIOT_FILL[(ord(letter[:1] or "A") - ord("A")) % len(CHARIOT_FILL)]
            attrs.update(fillcolor=colour, fontcolor="white", fontsize="16",
                         penwidth="2.5", color="white")
            attrs["class"] += " chariot"
            attrs["tooltip"] += f": chariot {letter}"
        if text and 0 < size < 36:  # a narrow space: a font its number fits in
            fits = (max(size - 3, 8) - 2) / (0.56 * max(len(t) for t in text.split("\\n")))
            attrs["fontsize"] = f"{min(float(attrs.get('fontsize', '11')), fits):.1f}"
        specs.append((n, text, attrs))
    moved = number_spots(g, specs, render) if any(
        d.get("level") == "under" for _n, d in g.nodes(data=True)) else {}
    for n, text, attrs in specs:
        if n in moved:  # a space beneath a bridge: its number where the bridge leaves it free
            (x, y), size = moved[n]
            dot.node(f"n{n}", "", **{k: v for k, v in attrs.items() if k != "labelloc"})
            numbered.append((n, text, x, y, size, attrs.get("fontcolor", "black")))
        else:
            dot.node(f"n{n}", text, **attrs)
    for n, text, x, y, size, colour in numbered:
        rows = text.split("\\n")
        wide = max(len(t) for t in rows)
        dot.node(f"num{n}", text, shape="plaintext", style="solid",
                 width=f"{(0.56 * size * wide + 2) / 72:.3f}",
                 height=f"{(size * 1.3 * len(rows) + 2) / 72:.3f}", margin="0", fixedsize="true",
                 fontsize=f"{size:g}", fontcolor=colour, pos=_pos(x, y), id=f"number-{n}",
                 **{"class": "space-number"})
    _alley_links(dot, g)
    for i, seg in enumerate(g.graph.get("wall_segments", [])):
        _polyline(dot, f"wall{i}", seg, color=WALL, penwidth="6", cls="wall")
    (fx0, fy0), (fx1, fy1) = g.graph["finish_segment"]
    _polyline(dot, "finish", [(fx0, fy0), (fx1, fy1)], color="black", penwidth="7",
              cls="finish", style="bold")
    (ax, ay), (bx, by) = g.graph["direction_arrow"]
    dot.node("arrow0", "", shape="point", width="0.01", pos=_pos(ax, ay), style="invis")
    dot.node("arrow1", "", shape="point", width="0.01", pos=_pos(bx, by), style="invis")
    dot.edge("arrow0", "arrow1", dir="forward", color="white", penwidth="3", arrowsize="1.5",
             **{"class": "direction"})
    if route:
        _route(dot, g, route)
    return dot


def _alley_links(dot: graphviz.Digraph, g: nx.DiGraph) -> None:
    """The steps into the alley and out of it, gold, in the gaps between the spaces: the
    alley is attached to the track where it is entered and left."""
    for u, v, way in g.edges(data="alley"):
        if way in ("enter", "exit"):
            dot.edge(f"n{u}", f"n{v}", color=ALLEY_FILL, penwidth="6", dir="none",
                     **{"class": f"alley-{way}"})


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
    shades = ", ".join(f"lap {k} {LAP_NAMES[(k - 1) % len(LAP_NAMES)]}" for k in laps)
    stop = " · ● alley stop" if any(g.nodes[n]["kind"] == "alley" for n in route) else ""
    return f"shortest legal race from place {place}: {len(route) - 1} steps ({shades}){stop}"


def _route(dot: graphviz.Digraph, g: nx.DiGraph, route: list[int]) -> None:
    """The race drawn lap by lap: each lap a parallel line of its own colour, offset to the
    side of the others so that three laps over the same spaces stay apart."""
    laps = route_laps(g, route)
    far = {(u, v) for u, v, _ in long_steps(g, list(itertools.pairwise(route)))}
    for i, ((u, v), lap) in enumerate(zip(itertools.pairwise(route), laps, strict=True)):
        if (u, v) in far:
            continue  # reported as a problem by the caller, never a line across the board
        off = (lap - 2) * 5.0
        colour = LAP_COLOURS[(lap - 1) % len(LAP_COLOURS)]
        ends = []
        for k, n in enumerate((u, v)):
            (x, y), ang = g.nodes[n]["pos"], math.radians(g.nodes[n]["angle"])
            name = f"r{i}_{k}"
            dot.node(name, "", shape="point", width="0.01", style="invis",
                     pos=_pos(x - math.sin(ang) * off, y + math.cos(ang) * off))
            ends.append(name)
        dot.edge(*ends, dir="forward", color=colour, penwidth="2.5", arrowsize="0.6",
                 id=f"route-lap{lap}-{i}", **{"class": "route"})
    stop = next((n for n in route if g.nodes[n]["kind"] == "alley"), None)
    if stop is not None:
        x, y = g.nodes[stop]["pos"]
        dot.node("alley_stop", "", shape="circle", width="0.2", height="0.2",
                 fixedsize="true", style="filled", fillcolor=ROUTE, color="white",
                 penwidth="2", pos=_pos(x, y + 13),
                 tooltip=f"alley stop: {g.nodes[stop]['label']}", **{"class": "alley-stop"})


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


def fit_to_paper(dot: graphviz.Digraph, g: nx.DiGraph, paper: str) -> None:
    """Scale the drawing to a landscape paper size (``a4``, ``a3``) for PDF output.

    Graphviz's ``page`` only works for PostScript, and ``size`` keeps the drawing's aspect
    ratio; so the drawing is first measured (one SVG run), then widened or heightened by
    two invisible points to the paper's aspect, and ``size=W,H!`` with no margin scales it
    to exactly the page.
    """
    width, height = PAPERS[paper]
    dot.attr("graph", pad="0.3", margin="0")
    xs = [d["pos"][0] for _, d in g.nodes(data=True)]
    ys = [d["pos"][1] for _, d in g.nodes(data=True)]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    wide: bool | None = None
    half = 0.0
    # Grow two invisible points apart until the drawing (title included) has the paper's
    # aspect; each step adds what is still missing, so it never overshoots.
    for k in range(8):
        svg = render(dot, "svg").decode("utf-8")
        m = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"', svg)
        if m is None:
            raise RenderError("Graphviz gave an SVG without a viewBox; cannot fit it to paper")
        w, h = float(m[1]), float(m[2])
        if wide is None:
            wide = w / h < width / height
            half = (max(xs) - min(xs) if wide else max(ys) - min(ys)) / 2
        short = (width / height * h - w) if wide else (w * height / width - h)
        if short < 1:
            break
        half += short / 2
        corners = ([(cx - half, cy), (cx + half, cy)] if wide else
                   [(cx, cy - half), (cx, cy + half)])
        for j, (x, y) in enumerate(corners):
            dot.node(f"paper{k}_{j}", "", shape="point", width="0.01", style="invis",
                     pos=_pos(x, y))
    dot.attr("graph", size=f"{width:.2f},{height:.2f}!")


def _polyline(dot: graphviz.Digraph, name: str, points: list[tuple[float, float]], *,
              color: str, penwidth: str, cls: str, style: str = "solid") -> None:
    for k, (x, y) in enumerate(points):
        dot.node(f"{name}_{k}", "", shape="point", width="0.01", style="invis",
                 pos=_pos(x, y))
    for k in range(len(points) - 1):
        dot.edge(f"{name}_{k}", f"{name}_{k + 1}", color=color, penwidth=penwidth,
                 style=style, **{"class": cls})


def render(dot: graphviz.Digraph, fmt: str) -> bytes:
    """Render with pinned positions (``neato -n2``); raise :class:`RenderError` with a hint."""
    try:
        out: bytes = dot.pipe(format=fmt, neato_no_op=2)
        return out
    except graphviz.ExecutableNotFound as err:
        raise RenderError(
            "Graphviz is not installed (no 'neato'/'dot' on PATH) — install the Debian "
            "package 'graphviz' (apt-get install graphviz); the DOT text was still "
            "written") from err
    except graphviz.CalledProcessError as err:
        raise RenderError(f"Graphviz failed: {err.stderr!r}") from err
