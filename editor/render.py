"""Draw a course as a board with Graphviz: every space pinned where the geometry puts it.

Positions are in points and rendered with ``neato -n2`` (no layout run), so a course always
looks the same and looks like the board. Spaces are boxes turned along the track; lanes are
shaded, the alley has its own colour, chicanes a double border, walls are thick brown
lines, start places carry their number, the finish line is a black bar, and an arrow shows
the driving direction.
"""

from __future__ import annotations

import itertools

import graphviz
import networkx as nx

from avecaesar.errors import AveCaesarError

__all__ = ["RenderError", "course_dot", "heat_colour", "render"]

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
               chariots: dict[int, str] | None = None) -> graphviz.Digraph:
    """The DOT graph of course ``g``; ``route`` (space ids) is drawn as a red path.

    ``heat`` maps spaces to counts: spaces are then coloured from pale (never) to deep red
    (most), on the same pinned layout, with the count in the tooltip.

    ``chariots`` maps spaces to chariot letters (``A``, ``B``, …): each such space shows its
    letter in white on the chariot's own colour (class ``chariot``).
    """
    dot = graphviz.Digraph(name=str(g.graph.get("id", "course")), engine="neato")
    dot.attr("graph", bgcolor="#3f6b35", pad="0.4", splines="false", outputorder="edgesfirst",
             label=title or f"{g.graph.get('name', '')} — {g.graph.get('direction', '')}",
             labelloc="t", fontname="Helvetica", fontsize="18", fontcolor="white")
    dot.attr("node", shape="box", style="filled", fixedsize="true", width="0.47",
             height="0.47", fontname="Helvetica", fontsize="11", color="#6b4f2a",
             penwidth="1")
    dot.attr("edge", dir="none")
    # Spaces on a bridge are drawn last, so they lie on top.
    order = sorted(g.nodes, key=lambda n: g.nodes[n].get("level") == "over")
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
        if d.get("level") == "over":
            attrs["penwidth"] = "2.5"
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
        dot.node(f"n{n}", text, **attrs)
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
        for u, v in itertools.pairwise(route):
            dot.edge(f"n{u}", f"n{v}", dir="forward", color=ROUTE, penwidth="2.5",
                     arrowsize="0.6", **{"class": "route"})
    return dot


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
        return dot.pipe(format=fmt, neato_no_op=2)
    except graphviz.ExecutableNotFound as err:
        raise RenderError(
            "Graphviz is not installed (no 'neato'/'dot' on PATH) — install the Debian "
            "package 'graphviz' (apt-get install graphviz); the DOT text was still "
            "written") from err
    except graphviz.CalledProcessError as err:
        raise RenderError(f"Graphviz failed: {err.stderr!r}") from err
