"""``course print``: the board at the real game's size, tiled over sheets that join edge to
edge.

The board is drawn once as SVG from the board geometry (``board.board_svg``; the ink-saving
style by default: a white ground, light spaces, dark outlines, numbers only with
``numbers``; the green style on request), 40 units a space. Each sheet is an SVG page of the
paper's size that shows its piece of that drawing through a nested ``<svg>`` whose viewBox
is the piece — so the piece is exactly the drawing, scaled to the real size of a space —
with its marks in the margins around it; ``rsvg-convert`` turns the pages into one PDF. No
PDF is written by hand.

Size of a space: the Ravensburger 1989 board is 67 × 50 cm; its widest course drawing spans
16.3 spaces from outer edge to outer edge, and with a space of margin on each side that is
18.3 spaces over the 67 cm: 36.6 mm a space, taken as **36 mm** (``DEFAULT_SPACE_MM``). A
course may set its own with ``space_mm:``; ``--space-mm`` overrides both.

Sheets: the sheet's printable part (10 mm margins) shows a piece of the board; neighbouring
pieces overlap by 10 mm, the glue strip. Cut a sheet along its cut marks (the red dashes in
its left and top margins) and lay it over its neighbour to the left or above, its cut edge
on that sheet's blue glue line. Each text in the margins has its own place, so that none
overprints a mark: on top the sheet's coordinates (row letter, column number: B2), the
course and what to cut, at the bottom a 10 cm bar to check the printer's scale and what is
glued where. The first page is an overview: the whole board with the grid of sheets and how
to assemble them. Where the course crosses itself, the spaces beneath the bridge are
printed once more below the board ("beneath the bridge: play these spaces here"), so both
levels stay playable.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from xml.sax.saxutils import escape

import networkx as nx

from avecaesar.editor.render.board import Canvas, board_svg, render
from avecaesar.engine.course.geometry import BoardGeometry, Point, board_geometry
from avecaesar.engine.course.layout import LANE, SPACE

__all__ = ["DEFAULT_SPACE_MM", "MARGIN", "MM", "OVERLAP", "PAPERS", "PrintPlan", "board_page",
           "plan", "print_pdf", "sheet_pages", "underpass_copies"]

MM = 72 / 25.4  # points per millimetre
DEFAULT_SPACE_MM = 36.0  # see the module's docstring: the 1989 board's 67 cm over 18.3 spaces
PAPERS = {"a4": (210.0, 297.0), "a3": (297.0, 420.0), "letter": (215.9, 279.4)}  # mm
MARGIN = 10 * MM  # unprinted border of every sheet (printers print to about 5 mm)
OVERLAP = 10 * MM  # what neighbouring sheets have in common: the glue strip
FRAME = 20.0  # units of board around the spaces (a space is 40)
ROWS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
CUT = "#c0392b"
GLUE = "#1f6fb2"
CHAR = 0.55  # Helvetica's mean character width per point of font size (estimate, generous)


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

    @property
    def printable(self) -> tuple[float, float]:
        w, h = self.sheet
        return (w - 2 * MARGIN, h - 2 * MARGIN)

    def region(self, row: int, col: int) -> tuple[float, float]:
        """The top left corner (board points at real size, y down) of sheet ``row``,
        ``col``'s piece: row 0 is the top of the board."""
        sw, sh = self.step
        return (col * sw, row * sh)

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


def underpass_copies(g: nx.DiGraph, geo: BoardGeometry) -> list[int]:
    """The spaces beneath a bridge that a bridge space covers (their copies are printed
    below the board), lane by lane from the outside, in driving order."""
    over = [s for s in geo.spaces.values() if s.level == "over"]
    hidden = [n for n, s in geo.spaces.items() if s.level == "under"
              and any(math.dist(s.centre, o.centre) < SPACE * 0.9 for o in over)]
    return sorted(hidden, key=lambda n: (-int(g.nodes[n]["lane"]), g.nodes[n]["a"]))


def _text(x: float, y: float, text: str, size: float, fill: str = "#111", anchor: str = "start",
          weight: str = "normal", cls: str = "sheet-text") -> str:
    return (f'<text class="{cls}" x="{x:.2f}" y="{y:.2f}" font-size="{size:g}" fill="{fill}" '
            f'text-anchor="{anchor}" font-weight="{weight}">{escape(text)}</text>')


def _board_extra(g: nx.DiGraph, geo: BoardGeometry, copies: list[int], ink: bool
                 ) -> tuple[float, float, Callable[[Canvas], list[str]]]:
    """(room below the spaces, width needed, the function drawing the labels and copies)."""
    lanes = {int(g.nodes[n]["lane"]) for n in copies}
    rows = len(lanes)
    below = SPACE * (rows + 1.6) if copies else 0.0
    x0, y0, _x1, _y1 = geo.bounds
    colour = "#111" if ink else "white"

    def draw(canvas: Canvas) -> list[str]:
        out = []
        alley = list(g.graph.get("alley") or [])
        if alley:
            out.append(_beside(canvas, geo, alley, _alley_way(g, geo, alley), "IMPERIAL ALLEY",
                               colour))
        starts = list(g.graph.get("start_places") or [])
        if starts:
            outer = max(int(g.nodes[s]["lane"]) for s in starts)
            row = [s for s in starts if int(g.nodes[s]["lane"]) == outer]
            out.append(_beside(canvas, geo, row, _outward(g, geo, row), "START", colour))
        if copies:
            top = y0 - SPACE * 0.8
            tx, ty = canvas.xy((x0, top))
            out.append(_text(tx, ty, "beneath the bridge: play these spaces here", 13, colour,
                             weight="bold", cls="print-mark"))
            for row_i, lane in enumerate(sorted(lanes, reverse=True)):
                spaces = [n for n in copies if int(g.nodes[n]["lane"]) == lane]
                for k, n in enumerate(spaces):
                    cx, cy = canvas.xy((x0 + k * SPACE, top - SPACE * (row_i + 0.3)))
                    out.append(f'<g class="underpass-copy"><rect data-copy-of="{n}" '
                               f'x="{cx:.2f}" y="{cy:.2f}" width="{SPACE - 2:g}" '
                               f'height="{LANE - 2:g}" fill="#f4e3c1" stroke="#222" '
                               f'stroke-dasharray="5 3"/>'
                               + _text(cx + SPACE / 2 - 1, cy + LANE / 2 + 4, str(n), 11,
                                       "#222", "middle", cls="copy-number") + "</g>")
        return out

    return below, 560.0 if copies else 0.0, draw


def _beside(canvas: Canvas, geo: BoardGeometry, nodes: list[int], way: Point, text: str,
            colour: str) -> str:
    """A label ``text`` outside the spaces ``nodes``, along ``way`` from their middle."""
    xs = [geo.spaces[n].centre for n in nodes]
    mx, my = sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs)
    reach = max(math.dist((mx, my), p) for n in nodes for p in geo.spaces[n].polygon)
    x, y = canvas.xy((mx + way[0] * (reach + 14), my + way[1] * (reach + 14)))
    return _text(x, y + 5, text, 13, colour, "middle", "bold", "print-mark")


def _unit(dx: float, dy: float) -> Point:
    n = math.hypot(dx, dy) or 1.0
    return (dx / n, dy / n)


def _alley_way(g: nx.DiGraph, geo: BoardGeometry, alley: list[int]) -> Point:
    """Away from the track at the alley: from the spaces it is entered from and left to."""
    ends = [u for u, _v, a in g.edges(data="alley") if a == "enter"] + [
        v for _u, v, a in g.edges(data="alley") if a == "exit"]
    if not ends:
        return (0.0, 1.0)
    ex = sum(geo.spaces[n].centre[0] for n in ends) / len(ends)
    ey = sum(geo.spaces[n].centre[1] for n in ends) / len(ends)
    ax = sum(geo.spaces[n].centre[0] for n in alley) / len(alley)
    ay = sum(geo.spaces[n].centre[1] for n in alley) / len(alley)
    return _unit(ax - ex, ay - ey)


def _outward(g: nx.DiGraph, geo: BoardGeometry, row: list[int]) -> Point:
    """Outside the track at ``row``: the left of the clockwise heading."""
    s = geo.spaces[row[0]]
    a = math.radians(s.heading + (180.0 if g.graph.get("direction") == "anticlockwise" else 0))
    return (-math.sin(a), math.cos(a))


def board_page(g: nx.DiGraph, numbers: bool = False, style: str = "ink") -> str:
    """The board as one SVG document at the drawing's scale (40 units a space), for
    printing: no title, the alley and the start grid named beside them, the spaces beneath a
    bridge copied below, :data:`FRAME` of ground around it all."""
    geo = board_geometry(g)
    copies = underpass_copies(g, geo)
    below, wide, draw = _board_extra(g, geo, copies, style == "ink")
    return board_svg(g, numbers=numbers, title="", style=style, geometry=geo, frame=FRAME,
                     below=below, extra=draw, min_width=wide)


def _size(doc: str) -> tuple[float, float]:
    head = doc[doc.index("<svg"):]
    head = head[:head.index(">")]
    box = head.split('viewBox="', 1)[1].split('"', 1)[0].split()
    return float(box[2]), float(box[3])


def _fit_text(text: str, size: float, room: float) -> float:
    """The font size at which ``text`` fits in ``room`` points (at most ``size``)."""
    return min(size, room / (CHAR * max(len(text), 1)))


def _page(p: PrintPlan, body: list[str]) -> str:
    w, h = p.sheet
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w / MM:.3f}mm" '
            f'height="{h / MM:.3f}mm" viewBox="0 0 {w:.3f} {h:.3f}" '
            'font-family="Helvetica, Arial, sans-serif">\n'
            f'<rect x="0" y="0" width="{w:.3f}" height="{h:.3f}" fill="white"/>\n'
            + "\n".join(body) + "\n</svg>\n")


def _piece(board: str, x: float, y: float, w: float, h: float, scale: float, at: Point) -> str:
    """The board's part from (x, y) (real points, y down), ``w`` × ``h`` real points,
    placed at ``at`` on the page."""
    start = board.index("<svg")
    inner = board[board.index(">", start) + 1:board.rindex("</svg>")]
    return (f'<svg class="piece" x="{at[0]:.3f}" y="{at[1]:.3f}" width="{w:.3f}" '
            f'height="{h:.3f}" viewBox="{x / scale:.4f} {y / scale:.4f} {w / scale:.4f} '
            f'{h / scale:.4f}" overflow="hidden">{inner}</svg>')


def _line(a: Point, b: Point, colour: str = "#111", width: float = 0.6, dash: str = "",
          cls: str = "mark") -> str:
    style = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<line class="{cls}" x1="{a[0]:.2f}" y1="{a[1]:.2f}" x2="{b[0]:.2f}" '
            f'y2="{b[1]:.2f}" stroke="{colour}" stroke-width="{width:g}"{style}/>')


def _sheet_marks(p: PrintPlan, row: int, col: int, title: str) -> list[str]:
    """A sheet's crop, cut and glue marks, its coordinates, notes and scale bar — the texts
    in the middle of the top and bottom margins, clear of every mark."""
    w, h = p.sheet
    left, right, top, bottom = MARGIN, w - MARGIN, MARGIN, h - MARGIN
    tick = 6 * MM
    out = []
    for x in (left, right):  # crop marks at the printed part's corners, outward
        for y, dy in ((top, -1), (bottom, 1)):
            out.append(_line((x, y + dy * 1.5), (x, y + dy * (1.5 + tick)), cls="crop"))
    for y in (top, bottom):
        for x, dx in ((left, -1), (right, 1)):
            out.append(_line((x + dx * 1.5, y), (x + dx * (1.5 + tick), y), cls="crop"))
    if col > 0:  # cut here, then lay this sheet over its left neighbour's glue line
        out.append(_line((left, 2), (left, top - 2), CUT, 0.8, "4 3", "cut"))
        out.append(_line((left, bottom + 2), (left, h - 2), CUT, 0.8, "4 3", "cut"))
    if row > 0:
        out.append(_line((2, top), (left - 2, top), CUT, 0.8, "4 3", "cut"))
        out.append(_line((right + 2, top), (w - 2, top), CUT, 0.8, "4 3", "cut"))
    if col < p.cols - 1:  # where the right neighbour's edge goes
        x = right - OVERLAP
        out.append(_line((x, 1.5), (x, top - 1.5), GLUE, 1.2, cls="glue"))
        out.append(_line((x, bottom + 1.5), (x, h - 1.5), GLUE, 1.2, cls="glue"))
    if row < p.rows - 1:
        y = bottom - OVERLAP
        out.append(_line((1.5, y), (left - 1.5, y), GLUE, 1.2, cls="glue"))
        out.append(_line((right + 1.5, y), (w - 1.5, y), GLUE, 1.2, cls="glue"))
    name = f"{ROWS[row]}{col + 1}"
    # the texts' room: from past the left crop ticks to before the glue line (or the right
    # crop ticks), so none reaches a mark
    x_text = left + 3 * MM
    x_end = (right - OVERLAP if col < p.cols - 1 else right) - 3 * MM
    head = (f"{name}  ·  {title}  ·  sheet {row * p.cols + col + 1} of {p.sheets} "
            f"({p.rows} rows A–{ROWS[p.rows - 1]} × {p.cols} columns)")
    out.append(_text(x_text, 4.8 * MM, head, _fit_text(head, 9, x_end - x_text), weight="bold"))
    cuts = []
    if col > 0:
        cuts.append(f"cut the left edge, lay it on {ROWS[row]}{col}'s blue line")
    if row > 0:
        cuts.append(f"cut the top edge, lay it on {ROWS[row - 1]}{col + 1}'s blue line")
    note = "✂ " + " · ".join(cuts) if cuts else "the first sheet: the others are laid on it"
    out.append(_text(x_text, 8.6 * MM, note, _fit_text(note, 7, x_end - x_text)))
    bar = 100 * MM  # a 10 cm bar: print at 100 % (no "fit to page")
    y_bar = h - 4 * MM
    out.append(_line((x_text, y_bar), (x_text + bar, y_bar), "#111", 1.5, cls="scale-bar"))
    label = "10 cm — print at 100 %"
    out.append(_text(x_text + bar + 2 * MM, y_bar + 2.5, label, 7))
    glue = []
    if col < p.cols - 1:
        glue.append(f"{ROWS[row]}{col + 2} goes on the blue line ▸")
    if row < p.rows - 1:
        glue.append(f"{ROWS[row + 1]}{col + 1} on the blue line ▾")
    if glue:
        text = " · ".join(glue)
        x_glue = x_text + bar + 2 * MM + CHAR * 7 * len(label) + 4 * MM
        out.append(_text(x_end, h - 4 * MM + 2.5, text, _fit_text(text, 7, x_end - x_glue),
                         anchor="end"))
    return out


def _overview(p: PrintPlan, board: str, bw: float, bh: float, title: str, lines: list[str]
              ) -> str:
    """The overview sheet: the small board with the grid of sheets, and how to assemble."""
    w, h = p.sheet
    top = MARGIN + 12 * MM
    room_h = h - top - MARGIN - len(lines) * 11 - 6
    fit = min((w - 2 * MARGIN) / p.width, room_h / p.height)
    ox, oy = (w - p.width * fit) / 2, top
    body = [_text(MARGIN, MARGIN + 5 * MM, title, _fit_text(title, 14, w - 2 * MARGIN),
                  weight="bold"),
            _piece(board, 0, 0, bw * p.scale * fit, bh * p.scale * fit, p.scale * fit,
                   (ox, oy))]
    aw, ah = p.printable
    for r in range(p.rows):
        for c in range(p.cols):
            x, y = p.region(r, c)
            x0, y0 = ox + x * fit, oy + y * fit
            body.append(f'<rect class="sheet-outline" x="{x0:.2f}" y="{y0:.2f}" '
                        f'width="{aw * fit:.2f}" height="{ah * fit:.2f}" fill="none" '
                        f'stroke="{GLUE}" stroke-width="0.8"/>')
            body.append(_text(x0 + 3, y0 + 11, f"{ROWS[r]}{c + 1}", 10, GLUE, weight="bold"))
    for i, text in enumerate(lines):
        body.append(_text(MARGIN, h - MARGIN - (len(lines) - 1 - i) * 11, text,
                          _fit_text(text, 8, w - 2 * MARGIN)))
    return _page(p, body)


def sheet_pages(g: nx.DiGraph, paper: str = "a4", space_mm: float = DEFAULT_SPACE_MM,
                fit: bool = False, numbers: bool = False, style: str = "ink"
                ) -> tuple[list[str], PrintPlan]:
    """The pages as SVG documents: an overview, then the sheets row by row (or, ``fit``, the
    whole board on one sheet); and the plan."""
    board = board_page(g, numbers, style)
    bw, bh = _size(board)
    scale = fit_scale(bw, bh, paper) if fit else space_mm * MM / SPACE
    p = plan(bw, bh, paper, scale)
    w, h = p.sheet
    name = str(g.graph.get("name", ""))
    aw, ah = p.printable
    if fit or p.sheets == 1:
        k = min(aw / bw, ah / bh) if fit else scale
        at = ((w - bw * k) / 2, (h - bh * k) / 2)
        return [_page(p, [_piece(board, 0, 0, bw * k, bh * k, k, at)])], p
    size = f"{p.width / MM / 10:.0f} × {p.height / MM / 10:.0f} cm"
    pages = [_overview(p, board, bw, bh,
                       f"{name} — {size} at {space_mm:g} mm a space, {p.sheets} sheets", [
                           f"Print the {p.sheets} sheets at 100 % on {p.paper.upper()} "
                           f"({'landscape' if p.landscape else 'portrait'}); check the 10 cm "
                           "bar on each sheet.",
                           "Cut each sheet along its red dashes (left and top margins) and "
                           "lay it over its neighbour, its cut edge on the neighbour's blue",
                           "glue line: A1 first, then along each row, then the rows.",
                           "Spaces beneath a bridge are printed once more below the board: a "
                           "chariot beneath the bridge stands there."])]
    for r in range(p.rows):
        for c in range(p.cols):
            x, y = p.region(r, c)
            pages.append(_page(p, [_piece(board, x, y, aw, ah, scale, (MARGIN, MARGIN)),
                                   *_sheet_marks(p, r, c, f"{name} · {space_mm:g} mm a "
                                                          "space")]))
    return pages, p


def print_pdf(g: nx.DiGraph, paper: str = "a4", space_mm: float = DEFAULT_SPACE_MM,
              fit: bool = False, numbers: bool = False, style: str = "ink"
              ) -> tuple[bytes, PrintPlan]:
    """The printable board as one PDF (:func:`sheet_pages` converted) and its plan."""
    pages, p = sheet_pages(g, paper, space_mm, fit, numbers, style)
    return render(pages, "pdf"), p
