"""The board pictures in docs/, made from the board geometry: every bundled course as SVG
and A4 PDF in docs/boards/ (the shortest race from place 1, the space ids), the README's
four PNGs in docs/img/, and docs/img/print-assembled.png — four sheets of the printed 1989
board (``course print``, rendered by poppler's pdftoppm) laid on one another at their glue
lines, as a person assembles them.

``docs/boards/sources.json`` records, for each picture, the digest of the SVG it is made
from (a PNG's and a PDF's bytes carry a converter's version and a date; the SVG is this
project's own text), so ``--check`` redraws every SVG — no converter needed — and names the
pictures that are stale (a test runs it; ``make docs`` remakes them).

Run: ``python -m avecaesar.editor.render.board_docs [--check]``
"""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from avecaesar.editor.render.board import board_svg, render
from avecaesar.editor.render.board_print import MARGIN, OVERLAP, sheet_pages
from avecaesar.engine.course.load import bundled_course_ids, load_course
from avecaesar.engine.course.race_path import shortest_race_route

__all__ = ["ASSEMBLED", "README_PNGS", "main", "pictures"]

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SOURCES = DOCS / "boards" / "sources.json"
README_PNGS = ["ravensburger-1989/a-white", "pro-ludo-2006/circus-maximus",
               "dicetree-2022/hippodrom-constantinople", "homebrew/rome"]
ASSEMBLED = ("ravensburger-1989/a-white", 2, 2)  # the course, rows and columns shown
DPI = 40  # the assembled picture's dots an inch


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def pictures() -> dict[str, tuple[str, Callable[[], bytes]]]:
    """Each picture (its path under docs/) with the SVG text it is made from and how to make
    its bytes."""
    out: dict[str, tuple[str, Callable[[], bytes]]] = {}
    for cid in bundled_course_ids():
        g = load_course(cid).graph
        route = shortest_race_route(g, 1)
        stem = cid.replace("/", "-")
        svg = board_svg(g, route=route, numbers=True)
        page = board_svg(g, route=route, numbers=True, paper="a4")
        out[f"boards/{stem}.svg"] = (svg, _as(svg, "svg"))
        out[f"boards/{stem}.pdf"] = (page, _as(page, "pdf"))
        if cid in README_PNGS:
            plain = board_svg(g, route=route)
            out[f"img/{stem}.png"] = (plain, _as(plain, "png"))
    cid, rows, cols = ASSEMBLED
    pages, plan = sheet_pages(load_course(cid).graph, numbers=True)
    shown = [pages[1 + r * plan.cols + c] for r in range(rows) for c in range(cols)]
    out["img/print-assembled.png"] = ("".join(shown),
                                      lambda: _assembled(shown, plan.sheet, rows, cols))
    return out


def _as(svg: str, fmt: str) -> Callable[[], bytes]:
    return lambda: render(svg, fmt)


def _assembled(pages: list[str], sheet: tuple[float, float], rows: int, cols: int) -> bytes:
    """The sheets as printed (PDF, then pdftoppm), each laid over its neighbours to the left
    and above as the marks say: its left and top margins cut off, its cut edge on the
    neighbour's glue line, on a table."""
    w, h = sheet
    step_x, step_y = w - 2 * MARGIN - OVERLAP, h - 2 * MARGIN - OVERLAP
    images = []
    with tempfile.TemporaryDirectory(prefix="avecaesar-docs-") as tmp:
        pdf = Path(tmp) / "sheets.pdf"
        pdf.write_bytes(render(pages, "pdf"))
        for i in range(len(pages)):
            png = subprocess.run(["pdftoppm", "-png", "-r", str(DPI), "-f", str(i + 1), "-l",
                                  str(i + 1), str(pdf)], capture_output=True, check=True,
                                 timeout=120).stdout
            images.append(base64.b64encode(png).decode("ascii"))
    pad = 30.0
    total_w = pad * 2 + MARGIN + step_x * (cols - 1) + w - MARGIN
    total_h = pad * 2 + MARGIN + step_y * (rows - 1) + h - MARGIN
    body = [f'<rect width="{total_w:.1f}" height="{total_h:.1f}" fill="#8a6f4d"/>']
    for r in range(rows):
        for c in range(cols):
            x, y = pad + c * step_x, pad + r * step_y
            cut_x, cut_y = (MARGIN if c else 0.0), (MARGIN if r else 0.0)
            clip = f"sheet{r}{c}"
            body.append(f'<clipPath id="{clip}"><rect x="{x + cut_x:.2f}" y="{y + cut_y:.2f}" '
                        f'width="{w - cut_x:.2f}" height="{h - cut_y:.2f}"/></clipPath>')
            body.append(f'<rect x="{x + cut_x + 3:.2f}" y="{y + cut_y + 3:.2f}" '
                        f'width="{w - cut_x:.2f}" height="{h - cut_y:.2f}" fill="black" '
                        'fill-opacity="0.35"/>')
            body.append(f'<image clip-path="url(#{clip})" x="{x:.2f}" y="{y:.2f}" '
                        f'width="{w:.2f}" height="{h:.2f}" '
                        f'href="data:image/png;base64,{images[r * cols + c]}"/>')
            body.append(f'<rect x="{x + cut_x:.2f}" y="{y + cut_y:.2f}" width="{w - cut_x:.2f}" '
                        f'height="{h - cut_y:.2f}" fill="none" stroke="#777" '
                        'stroke-width="0.6"/>')
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" '
           f'height="{total_h:.0f}" viewBox="0 0 {total_w:.2f} {total_h:.2f}">'
           + "".join(body) + "</svg>")
    return render(svg, "png")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    made = pictures()
    if "--check" in args:
        known = json.loads(SOURCES.read_text(encoding="utf-8")) if SOURCES.exists() else {}
        stale = sorted(name for name, (source, _make) in made.items()
                       if known.get(name) != _digest(source) or not (DOCS / name).exists())
        stale += sorted(set(known) - set(made))
        for name in stale:
            print(f"docs/{name} is stale: run python -m avecaesar.editor.render.board_docs "
                  "(make docs)")
        return 1 if stale else 0
    sources = {}
    for name, (source, make) in made.items():
        target = DOCS / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(make())
        sources[name] = _digest(source)
        print(f"docs/{name}")
    SOURCES.write_text(json.dumps(sources, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
