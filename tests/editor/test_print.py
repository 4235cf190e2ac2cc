"""``course print``: the sheets, rendered with poppler's pdftoppm, join up to the board.

Each sheet's printed part must be the matching piece of the single-page board (the one
drawing the sheets are cut from) at the real size of a space: both are rasterised at the
same resolution and compared pixel by pixel; a piece taken one space off must differ, so
the comparison can fail. Laid edge to edge at their glue lines, neighbouring sheets must
show the same board in their common strip within 0.5 mm.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.editor.render.board import render
from avecaesar.editor.render.board_print import (
    CHAR,
    DEFAULT_SPACE_MM,
    MARGIN,
    MM,
    OVERLAP,
    board_page,
    plan,
    print_pdf,
    sheet_pages,
)
from avecaesar.engine.course.layout import SPACE
from avecaesar.engine.course.load import load_course

runner = CliRunner()
needs_poppler = pytest.mark.skipif(
    shutil.which("pdftoppm") is None or shutil.which("rsvg-convert") is None,
    reason="poppler's pdftoppm (make test installs poppler-utils as root; else sudo apt-get "
           "install poppler-utils) or librsvg's rsvg-convert (librsvg2-bin) is not installed")
DPI = 36  # sheets; coarse and quick, enough to see a piece one space off
FINE = 102  # dots an inch for the joins: 0.5 mm is 2 pixels


def _raster(pdf: Path, dpi: float, page: int) -> tuple[int, int, bytes]:
    """(width, height, grey bytes) of one page, rendered by pdftoppm."""
    out = subprocess.run(["pdftoppm", "-gray", "-r", f"{dpi:.4f}", "-f", str(page), "-l",
                          str(page), str(pdf)], capture_output=True, check=True, timeout=120)
    data = io.BytesIO(out.stdout)
    assert data.readline().strip() == b"P5"
    line = data.readline()
    while line.startswith(b"#"):
        line = data.readline()
    w, h = map(int, line.split())
    assert int(data.readline()) == 255
    return w, h, data.read(w * h)


def _crop(img: tuple[int, int, bytes], x: int, y: int, w: int, h: int) -> list[int]:
    iw, ih, px = img
    out = []
    for row in range(y, y + h):
        for col in range(x, x + w):
            out.append(px[row * iw + col] if 0 <= row < ih and 0 <= col < iw else 255)
    return out


def _difference(a: list[int], b: list[int]) -> float:
    return sum(abs(p - q) for p, q in zip(a, b, strict=True)) / len(a)


@needs_poppler
@pytest.mark.covers("command:course print")
@pytest.mark.parametrize("course", ["ravensburger-1989/a-white", "homebrew/rome"])
def test_the_sheets_join_up_to_the_board(course: str, tmp_path: Path) -> None:
    """Every sheet is its piece of the board (homebrew/rome: a figure of eight, with the
    bridge and the copy of the spaces beneath it)."""
    g = load_course(course).graph
    data, p = print_pdf(g, "a4", DEFAULT_SPACE_MM, numbers=True)
    sheets = tmp_path / "sheets.pdf"
    sheets.write_bytes(data)
    whole = tmp_path / "board.pdf"
    whole.write_bytes(render(board_page(g, numbers=True), "pdf"))
    assert p.scale == pytest.approx(DEFAULT_SPACE_MM * MM / SPACE)  # 36 mm a space
    assert p.sheets > 1
    board = _raster(whole, DPI * p.scale, 1)  # the board at real size, DPI pixels an inch
    aw, ah = (round(v * DPI / 72) - 2 for v in p.printable)
    m = round(MARGIN * DPI / 72) + 1
    off = round(SPACE * p.scale * DPI / 72)  # one space, in pixels
    for r in range(p.rows):
        for c in range(p.cols):
            sheet = _raster(sheets, DPI, 2 + r * p.cols + c)  # page 1 is the overview
            x, y = p.region(r, c)  # top left, real points, y down
            bx, by = round(x * DPI / 72) + 1, round(y * DPI / 72) + 1
            piece = _crop(sheet, m, m, aw, ah)
            # the two rasters round to whole pixels differently: the best of ±1 pixel
            same = min(_difference(piece, _crop(board, bx + dx, by + dy, aw, ah))
                       for dx in (-1, 0, 1) for dy in (-1, 0, 1))
            shifted = _difference(piece, _crop(board, bx + off, by, aw, ah))
            assert same < 5, (r, c, same)
            if shifted > 6:  # a piece with something on it: one space off is not the same
                assert same < shifted / 3, (r, c, same, shifted)


def _best_shift(a: tuple[int, int, bytes], ax: int, ay: int, b: tuple[int, int, bytes],
                bx: int, by: int, w: int, h: int, reach: int) -> tuple[int, int, float, float]:
    """Where strip ``b`` matches strip ``a`` best, within ``reach`` pixels: (dx, dy, the
    difference there, the difference a space's tenth off)."""
    strip = _crop(a, ax, ay, w, h)
    scores = {(dx, dy): _difference(strip, _crop(b, bx + dx, by + dy, w, h))
              for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)}
    (dx, dy), best = min(scores.items(), key=lambda kv: (kv[1], abs(kv[0][0]) + abs(kv[0][1])))
    return dx, dy, best, max(scores.values())


@needs_poppler
def test_the_printed_1989_board_assembles_within_half_a_millimetre(tmp_path: Path) -> None:
    """Laid on each other as the marks say (a sheet's cut edge on its neighbour's glue line,
    10 mm in), two neighbours show the same part of the board in their common strip: the
    spaces' edges meet where the shift that matches them best is at most 0.5 mm."""
    g = load_course("ravensburger-1989/a-white").graph
    data, p = print_pdf(g, "a4", DEFAULT_SPACE_MM, numbers=True)
    sheets = tmp_path / "sheets.pdf"
    sheets.write_bytes(data)
    pages = {(r, c): _raster(sheets, FINE, 2 + r * p.cols + c)
             for r in range(p.rows) for c in range(p.cols)}
    px = FINE / 72  # pixels a point
    m, strip = round(MARGIN * px), round(OVERLAP * px)
    aw, ah = (round(v * px) for v in p.printable)
    half_mm = 0.5 * MM * px
    joins = 0
    for (r, c), a in pages.items():
        for b_at, (ax, ay, bx, by, w, h) in (
                ((r, c + 1), (m + aw - strip, m, m, m, strip, ah)),
                ((r + 1, c), (m, m + ah - strip, m, m, aw, strip))):
            if b_at not in pages:
                continue
            dx, dy, best, worst = _best_shift(a, ax + 2, ay + 2, pages[b_at], bx + 2, by + 2,
                                              w - 4, h - 4, 4)
            if worst < 3:  # a blank strip (ground only): nothing to meet
                continue
            joins += 1
            assert max(abs(dx), abs(dy)) <= half_mm, ((r, c), b_at, dx, dy)
            assert best < 2, ((r, c), b_at, best)  # the same picture, not a near match
    assert joins >= p.rows * (p.cols - 1)  # every row's joins had spaces in them


def _boxes(page: str) -> tuple[list[tuple[float, float, float, float]],
                               list[tuple[float, float, float, float]]]:
    """The estimated boxes of a page's margin texts and the boxes of its marks."""
    texts, marks = [], []
    for m in re.finditer(r'<text class="sheet-text" x="([\d.]+)" y="([\d.]+)" '
                         r'font-size="([\d.]+)"[^>]*text-anchor="(\w+)"[^>]*>([^<]*)<', page):
        x, y, size = float(m[1]), float(m[2]), float(m[3])
        wide = CHAR * size * len(m[5])
        x0 = x - wide if m[4] == "end" else x
        texts.append((x0, y - size, x0 + wide, y + 0.25 * size))
    for m in re.finditer(r'<line class="(crop|cut|glue|scale-bar)" x1="([\d.]+)" '
                         r'y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)"', page):
        x1, y1, x2, y2 = map(float, m.groups()[1:])
        marks.append((min(x1, x2) - 1, min(y1, y2) - 1, max(x1, x2) + 1, max(y1, y2) + 1))
    return texts, marks


@pytest.mark.parametrize("paper", ["a4", "a3", "letter"])
def test_no_label_overprints_a_mark(paper: str) -> None:
    pages, p = sheet_pages(load_course("ravensburger-1989/b-yellow").graph, paper)
    assert len(pages) == p.sheets + 1
    for page in pages[1:]:
        texts, marks = _boxes(page)
        assert len(texts) >= 3 and len(marks) >= 8
        w, _h = p.sheet
        for t in texts:
            assert t[0] > 0 and t[2] < w
            for k in marks:
                assert t[2] <= k[0] or k[2] <= t[0] or t[3] <= k[1] or k[3] <= t[1], (t, k)
        for a, b in ((a, b) for i, a in enumerate(texts) for b in texts[i + 1:]):
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_the_printed_board_saves_ink_by_default() -> None:
    """A white ground, light spaces and dark outlines, numbers only when asked; the green
    style on request."""
    g = load_course("ravensburger-1989/a-white").graph
    page = board_page(g)
    fills = re.findall(r'<polygon data-space="\d+"[^>]* fill="(#[0-9a-f]{6})"', page)
    assert len(fills) == g.number_of_nodes()
    assert all(sum(int(f[i:i + 2], 16) for i in (1, 3, 5)) > 3 * 225 for f in fills)
    assert 'class="ground"' in page and 'fill="#ffffff"' in page.split('class="ground"')[1][:80]
    assert 'class="number"' not in page and 'class="number"' in board_page(g, numbers=True)
    assert "#3f6b35" in board_page(g, style="green")


@needs_poppler
def test_course_print_on_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "arena.pdf"
    r = runner.invoke(app, ["course", "print", "dicetree-2022/arena-carthago", "-o", str(out),
                            "--paper", "a4"])
    assert r.exit_code == 0, r.output
    assert "wrote" in r.stdout and "A4 sheets" in r.stdout and "36 mm a space" in r.stdout
    pages = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True, check=True)
    count = int(next(line.split()[-1] for line in pages.stdout.splitlines()
                     if line.startswith("Pages:")))
    assert count == int(r.stdout.split(" and ")[1].split()[0]) + 1  # the sheets + overview
    fit = tmp_path / "fit.pdf"
    r = runner.invoke(app, ["course", "print", "dicetree-2022/arena-carthago", "-o", str(fit),
                            "--scale", "fit", "--paper", "letter"])
    assert r.exit_code == 0 and "1 LETTER sheet" in r.stdout


def test_a_course_sets_its_space_size(tmp_path: Path) -> None:
    src = Path(load_course("ravensburger-1989/a-white").model.file).read_text(encoding="utf-8")
    course = tmp_path / "big.yaml"
    course.write_text(src + "space_mm: 50\n", encoding="utf-8")
    assert load_course(str(course)).model.space_mm == 50
    g = load_course(str(course)).graph
    p36, p50 = (plan(1000, 500, "a4", mm * MM / SPACE) for mm in (36, 50))
    assert p50.width == pytest.approx(p36.width * 50 / 36)
    assert p50.sheets >= p36.sheets
    assert g.number_of_nodes() > 0


@pytest.mark.parametrize(("args", "message"), [
    (["--paper", "a5"], "--paper 'a5': use a4, a3, letter"),
    (["--scale", "half"], "--scale 'half': use real or fit"),
    (["-o", "board.png"], "course print writes a PDF"),
    (["--space-mm", "3"], "--space-mm"),
    (["--style", "gold"], "--style 'gold': use ink or green"),
])
def test_bad_print_options_are_usage_errors(args: list[str], message: str,
                                            tmp_path: Path) -> None:
    r = runner.invoke(app, ["course", "print", "homebrew/rome", *args])
    assert r.exit_code == 2
    assert message in r.output
