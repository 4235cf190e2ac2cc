"""``course print``: the board at the real game's size, tiled over pages to tape together.

The board is drawn once by Graphviz as one PDF page at the drawing's own scale (40 points a
space, ``engine/course/layout.py``); `pypdf <https://pypdf.readthedocs.io/>`_ scales that page
to the real size of a space and places a piece of it on each sheet
(``merge_transformed_page``). What is printed around the pieces — the white margins, cut and
glue marks, the page's coordinates, a 10 cm bar to check the printer's scale, and the
overview with the grid of sheets — is a second small Graphviz PDF per sheet, drawn in the
sheet's own coordinates and merged over it. No PDF is written by hand.

Size of a space: the Ravensburger 1989 board is 67 × 50 cm; its widest course drawing spans
16.3 spaces from outer edge to outer edge, and with a space of margin on each side that is
18.3 spaces over the 67 cm: 36.6 mm a space, taken as **36 mm** (``DEFAULT_SPACE_MM``). A
course may set its own with ``space_mm:``; ``--space-mm`` overrides both.

Sheets: the sheet's printable part (10 mm margins) shows a piece of the board; neighbouring
pieces overlap by 10 mm. Cut a sheet along its cut marks (its left and top margins, dashed)
and lay it over its neighbour to the left or above, its edge on that sheet's glue line; the
sheet's coordinates (row letter, column number: B2) and its neighbours are printed in the
margin. Where the course crosses itself, the spaces beneath the bridge are printed once more
beside the board ("beneath the bridge"): a chariot there stands on that copy, so both levels
stay playable.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

import graphviz
import networkx as nx
from pypdf import PageObject, PdfReader, PdfWriter, Transformation

from avecaesar.editor.render.board import course_dot, render
from avecaesar.engine.course.layout import LANE, SPACE

__all__ = ["DEFAULT_SPACE_MM", "PAPERS", "PrintPlan", "board_page", "plan", "print_pdf"]

MM = 72 / 25.4  # points per millimetre
DEFAULT_SPACE_MM = 36.0  # see the module's docstring: the 1989 board's 67 cm over 18.3 spaces
PAPERS = {"a4": (210.0, 297.0), "a3": (297.0, 420.0), "letter": (215.9, 279.4)}  # mm
MARGIN = 10 * MM  # unprinted border of every sheet (printers print to about 5 mm)
OVERLAP = 10 * MM  # what neighbouring sheets have in common: the glue strip
FRAME = 60.0  # points of board beyond the outermost space centres, in the drawing's units
ROWS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class PrintPlan:
    """How a board of ``width`` × ``height`` points (real size) lies on the sheets."""

    paper: str
    landscape: bool
    sheet: tuple[float, float]  # points, as printed
    cols: int
    rows: int
    scale: float  # real size over the drawing's size
    width: float
    height: float

    @property
    def step(self) -> tuple[float, float]:
        w, h = self.sheet
        return (w - 2 * MARGIN - OVERLAP, h - 2 * MARGIN - OVERLAP)

    def region(self, row: int, col: int) -> tuple[float, float]:
        """The lower left corner (board points, real size, y up) of sheet ``row``, ``col``:
        row 0 is the top of the board."""
        sw, sh = self.step
        ah = self.sheet[1] - 2 * MARGIN
        return (col * sw, self.height - row * sh - ah)

    @property
    def sheets(self) -> int:
        return self.cols * self.rows


def _count(length: float, printable: float) -> int:
    return max(1, math.ceil((length - OVERLAP) / (printable - OVERLAP)))


def plan(width: float, height: float, paper: str, scale: float) -> PrintPlan:
    """The sheets for a board drawn ``width`` × ``height`` points, printed ``scale`` times
    that: the orientation that needs fewer sheets (landscape when equal)."""
    pw, ph = (v * MM for v in PAPERS[paper])
    best: PrintPlan | None = None
    for landscape in (True, False):
        w, h = (ph, pw) if landscape else (pw, ph)
        cols = _count(width * scale, w - 2 * MARGIN)
        rows = _count(height * scale, h - 2 * MARGIN)
        p = PrintPlan(paper, landscape, (w, h), cols, rows, scale, width * scale,
                      height * scale)
        if best is None or p.sheets < best.sheets:
            best = p
    assert best is not None
    return best


def fit_scale(width: float, height: float, paper: str) -> float:
    """The scale that fits the whole board on one sheet's printable part."""
    pw, ph = (v * MM for v in PAPERS[paper])
    return max(min((a - 2 * MARGIN) / width, (b - 2 * MARGIN) / height)
               for a, b in ((ph, pw), (pw, ph)))


def _pos(x: float, y: float) -> str:
    return f"{x:.2f},{y:.2f}!"


def _side_label(dot: graphviz.Digraph, g: nx.DiGraph, nodes: list[int], text: str,
                lanes_out: float, name: str) -> None:
    """A label beside ``nodes``, ``lanes_out`` lanes to their left (outside, + ) or right."""
    if not nodes:
        return
    mid = sorted(nodes)[len(nodes) // 2]
    (x, y), a = g.nodes[mid]["pos"], math.radians(g.nodes[mid]["angle"])
    dx, dy = -math.sin(a) * LANE * lanes_out, math.cos(a) * LANE * lanes_out
    dot.node(name, text, shape="plaintext", style="solid", fixedsize="false", fontsize="13",
             fontcolor="white",
             fontname="Helvetica-Bold", pos=_pos(x + dx, y + dy), **{"class": "print-mark"})


def _underpass_copy(dot: graphviz.Digraph, g: nx.DiGraph, bottom: float, left: float
                    ) -> float:
    """The spaces beneath a bridge once more, below the board, lane by lane in driving
    order: a chariot beneath the bridge stands there. The new bottom of the drawing."""
    over = [d["pos"] for _n, d in g.nodes(data=True) if d.get("level") == "over"]
    hidden = [n for n, d in g.nodes(data=True) if d.get("level") == "under"
              and any(math.dist(d["pos"], p) < SPACE * 0.9 for p in over)]
    if not hidden:
        return bottom
    lanes = sorted({g.nodes[n]["lane"] for n in hidden}, reverse=True)
    top = bottom - SPACE * 1.2
    dot.node("under_title", "beneath the bridge: play these spaces here", shape="plaintext",
             fixedsize="false",
             style="solid", fontsize="13", fontcolor="white", fontname="Helvetica-Bold",
             pos=_pos(left + 150, top), **{"class": "print-mark"})
    for row, lane in enumerate(lanes):
        spaces = sorted((n for n in hidden if g.nodes[n]["lane"] == lane),
                        key=lambda n: g.nodes[n]["a"])
        for k, n in enumerate(spaces):
            d = g.nodes[n]
            dot.node(f"copy{n}", str(n), pos=_pos(left + 20 + k * SPACE,
                                                  top - SPACE * (row + 1)),
                     style="filled,dashed", fillcolor="#f4e3c1", fontsize="11",
                     tooltip=f"{d['label']} beneath the bridge", **{"class": "underpass-copy"})
    return top - SPACE * (len(lanes) + 0.5)


def board_page(g: nx.DiGraph, numbers: bool = True) -> bytes:
    """The board as one PDF page at the drawing's scale, for printing: no title, the alley
    and the start grid named beside them, the spaces beneath a bridge copied below, and the
    page exactly the drawing's extent plus :data:`FRAME` (two invisible corner points)."""
    dot = course_dot(g, numbers=numbers, title="")
    dot.attr("graph", pad="0", margin="0", label="")
    lanes = int(g.graph["lanes"])
    alley = list(g.graph.get("alley") or [])
    if alley:
        side = 1.3 if g.nodes[alley[0]]["lane"] >= lanes else -1.3
        _side_label(dot, g, alley, "IMPERIAL ALLEY", side, "alley_label")
    starts = list(g.graph.get("start_places") or [])
    outer = [n for n in starts if g.nodes[n]["lane"] == max(g.nodes[s]["lane"] for s in starts)]
    _side_label(dot, g, outer, "START", 1.2, "start_label")
    xs = [d["pos"][0] for _n, d in g.nodes(data=True)]
    ys = [d["pos"][1] for _n, d in g.nodes(data=True)]
    x0, x1 = min(xs) - FRAME, max(xs) + FRAME
    y1 = max(ys) + FRAME
    y0 = _underpass_copy(dot, g, min(ys) - FRAME / 2, x0 + FRAME) - FRAME / 2
    x1 = max(x1, x0 + 560)  # room for the copy's title
    for name, (x, y) in (("corner0", (x0, y0)), ("corner1", (x1, y1))):
        dot.node(name, "", shape="point", width="0", height="0", style="invis", pos=_pos(x, y))
    return render(dot, "pdf")


BLEED = 1000.0  # the marks' drawing reaches this far past the sheet (then cut off): its
# extent is then fixed by two invisible corner points, whatever the texts' widths


def _mark_graph(w: float, h: float) -> graphviz.Digraph:
    d = graphviz.Digraph(engine="neato")
    d.attr("graph", pad="0", margin="0", bgcolor="transparent", splines="false")
    d.attr("node", shape="point", width="0", height="0", style="invis", label="")
    d.attr("edge", dir="none")
    d.node("c0", pos=_pos(-BLEED, -BLEED))
    d.node("c1", pos=_pos(w + BLEED, h + BLEED))
    return d


class _Marks:
    """Lines, boxes and text drawn by Graphviz in a sheet's own coordinates (points, y up)."""

    def __init__(self, w: float, h: float) -> None:
        self.dot = _mark_graph(w, h)
        self.size = (w, h)
        self.k = 0

    def line(self, a: tuple[float, float], b: tuple[float, float], colour: str = "black",
             width: float = 0.6, style: str = "solid") -> None:
        self.k += 1
        self.dot.node(f"l{self.k}a", pos=_pos(*a))
        self.dot.node(f"l{self.k}b", pos=_pos(*b))
        self.dot.edge(f"l{self.k}a", f"l{self.k}b", color=colour, penwidth=f"{width:g}",
                      style=style)

    def box(self, x: float, y: float, w: float, h: float, fill: str = "white") -> None:
        self.k += 1
        self.dot.node(f"b{self.k}", "", shape="box", style="filled", fillcolor=fill,
                      color=fill, penwidth="0", fixedsize="true", width=f"{w / 72:.4f}",
                      height=f"{h / 72:.4f}", pos=_pos(x + w / 2, y + h / 2))

    def text(self, x: float, y: float, text: str, size: float = 8) -> None:
        """``text`` from ``x`` on (its left end; a text node is centred on its position, so
        the centre is put half an estimated width to the right), its middle at ``y``."""
        self.k += 1
        wide = 0.52 * size * len(text)
        self.dot.node(f"t{self.k}", text.replace("\\", "\\\\"), shape="plaintext",
                      style="solid", fontname="Helvetica", fontsize=f"{size:g}",
                      width="0", height="0", margin="0", pos=_pos(x + wide / 2, y))

    def page(self) -> PageObject:
        """The marks as a page of the sheet's size (what lies past its edges cut off)."""
        w, h = self.size
        drawn = PdfReader(io.BytesIO(render(self.dot, "pdf"))).pages[0]
        page = PageObject.create_blank_page(width=w, height=h)
        page.merge_transformed_page(drawn, Transformation().translate(-BLEED, -BLEED))
        return page


def _sheet_marks(p: PrintPlan, row: int, col: int, title: str) -> PageObject:
    """A sheet's margins, cut and glue marks, coordinates and scale bar."""
    w, h = p.sheet
    m = _Marks(w, h)
    for x, y, bw, bh in ((0, 0, w, MARGIN), (0, h - MARGIN, w, MARGIN), (0, 0, MARGIN, h),
                         (w - MARGIN, 0, MARGIN, h)):
        m.box(x, y, bw, bh)
    left, right, bottom, top = MARGIN, w - MARGIN, MARGIN, h - MARGIN
    tick = 6 * MM
    for x in (left, right):  # crop marks at the printed part's corners
        for y, dy in ((bottom, -1), (top, 1)):
            m.line((x, y + dy * 1.5), (x, y + dy * (1.5 + tick)))
    for y in (bottom, top):
        for x, dx in ((left, -1), (right, 1)):
            m.line((x + dx * 1.5, y), (x + dx * (1.5 + tick), y))
    if col > 0:  # cut here, then lay this sheet over its left neighbour's glue line
        m.line((left, 2), (left, bottom - 2), "#c0392b", 0.8, "dashed")
        m.line((left, top + 2), (left, h - 2), "#c0392b", 0.8, "dashed")
        m.text(left + 2, top + 4 * MM, f"✂ cut · over {ROWS[row]}{col}", 7)
    if row > 0:
        m.line((2, top), (left - 2, top), "#c0392b", 0.8, "dashed")
        m.line((right + 2, top), (w - 2, top), "#c0392b", 0.8, "dashed")
        m.text(right - 40 * MM, top + 7.5 * MM, f"✂ cut top · over {ROWS[row - 1]}{col + 1}", 7)
    if col < p.cols - 1:  # where the right neighbour's edge goes
        x = right - OVERLAP
        m.line((x, 1.5), (x, bottom - 1.5), "#1f6fb2", 1.2)
        m.line((x, top + 1.5), (x, h - 1.5), "#1f6fb2", 1.2)
        m.text(x + 2, bottom - 4 * MM, f"glue {ROWS[row]}{col + 2} ▸", 7)
    if row < p.rows - 1:
        y = bottom + OVERLAP
        m.line((1.5, y), (left - 1.5, y), "#1f6fb2", 1.2)
        m.line((right + 1.5, y), (w - 1.5, y), "#1f6fb2", 1.2)
        m.text(right - 40 * MM, bottom - 7.5 * MM, f"glue {ROWS[row + 1]}{col + 1} ▾ here", 7)
    name = f"{ROWS[row]}{col + 1}"
    m.text(left + 4 * MM, h - 5 * MM, f"{name}  ·  {title}  ·  sheet {row * p.cols + col + 1} "
           f"of {p.sheets} ({p.rows} rows A–{ROWS[p.rows - 1]} × {p.cols} columns)", 9)
    bar = 100 * MM  # a 10 cm bar: print at 100 % (no "fit to page")
    m.line((left + 4 * MM, 4 * MM), (left + 4 * MM + bar, 4 * MM), "black", 1.5)
    m.text(left + 4 * MM + bar + 2 * MM, 4 * MM, "10 cm — print at 100 %", 7)
    return m.page()


def _overview_marks(p: PrintPlan, fit: float, ox: float, oy: float, title: str,
                    lines: list[str]) -> PageObject:
    """The overview sheet: the grid of sheets over the small board, and how to assemble."""
    w, h = p.sheet
    m = _Marks(w, h)
    sw, sh = p.step
    ah, aw = h - 2 * MARGIN, w - 2 * MARGIN
    for r in range(p.rows):
        for c in range(p.cols):
            x, y = p.region(r, c)
            x0, y0 = ox + x * fit, oy + y * fit
            x1, y1 = x0 + aw * fit, y0 + ah * fit
            for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)),
                         ((x0, y1), (x0, y0))):
                m.line(a, b, "#1f6fb2", 0.8)
            m.text(x0 + 3, y1 - 8, f"{ROWS[r]}{c + 1}", 10)
    del sw, sh
    m.text(MARGIN, h - MARGIN - 7, title, 14)
    for i, text in enumerate(lines):
        m.text(MARGIN, MARGIN + (len(lines) - i) * 11, text, 8)
    return m.page()


def print_pdf(g: nx.DiGraph, paper: str = "a4", space_mm: float = DEFAULT_SPACE_MM,
              fit: bool = False, numbers: bool = True) -> tuple[bytes, PrintPlan]:
    """The printable board: an overview sheet, then the sheets row by row (or, ``fit``, the
    whole board on one sheet). Returns the PDF and its plan."""

    board = PdfReader(io.BytesIO(board_page(g, numbers))).pages[0]
    bw, bh = float(board.mediabox.width), float(board.mediabox.height)
    scale = fit_scale(bw, bh, paper) if fit else space_mm * MM / SPACE
    p = plan(bw, bh, paper, scale)
    w, h = p.sheet
    writer = PdfWriter()
    name = str(g.graph.get("name", ""))
    size = f"{p.width / MM / 10:.0f} × {p.height / MM / 10:.0f} cm"
    if fit or p.sheets == 1:
        page = PageObject.create_blank_page(width=w, height=h)
        k = min((w - 2 * MARGIN) / bw, (h - 2 * MARGIN) / bh) if fit else scale
        page.merge_transformed_page(board, Transformation().scale(k).translate(
            (w - bw * k) / 2, (h - bh * k) / 2))
        writer.add_page(page)
    else:
        fit_k = min((w - 2 * MARGIN) / p.width, (h - 2 * MARGIN - 90) / p.height)
        ox = (w - p.width * fit_k) / 2
        oy = MARGIN + 70
        over = PageObject.create_blank_page(width=w, height=h)
        over.merge_transformed_page(board, Transformation().scale(scale * fit_k).translate(
            ox, oy))
        over.merge_page(_overview_marks(p, fit_k, ox, oy,
                        f"{name} — {size} at {space_mm:g} mm a space, {p.sheets} sheets", [
                            f"Print the {p.sheets} sheets at 100 % on {p.paper.upper()} "
                            f"({'landscape' if p.landscape else 'portrait'}); check the 10 cm "
                            "bar on each sheet.",
                            "Cut each sheet along its red dashed marks (left and top margins) "
                            "and lay it over its neighbour,",
                            "its cut edge on the neighbour's blue glue line: A1 first, then "
                            "along each row, then the rows.",
                            "Spaces beneath a bridge are printed once more below the board: "
                            "a chariot beneath the bridge stands there."]))
        writer.add_page(over)
        for r in range(p.rows):
            for c in range(p.cols):
                x, y = p.region(r, c)
                page = PageObject.create_blank_page(width=w, height=h)
                page.merge_transformed_page(board, Transformation().scale(scale).translate(
                    MARGIN - x, MARGIN - y))
                page.merge_page(_sheet_marks(p, r, c, f"{name} · {space_mm:g} mm a space"))
                writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), p
