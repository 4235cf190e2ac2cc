"""``course print``: the sheets, rendered with poppler's pdftoppm, join up to the board.

Each sheet's printed part must be the matching piece of the single-page board (the one
Graphviz PDF the sheets are cut from) at the real size of a space: both are rasterised at
the same resolution and compared pixel by pixel; a piece taken one space off must differ,
so the comparison can fail.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.editor.render.board_print import (
    DEFAULT_SPACE_MM,
    MARGIN,
    MM,
    board_page,
    plan,
    print_pdf,
)
from avecaesar.engine.course.layout import SPACE
from avecaesar.engine.course.load import load_course

runner = CliRunner()
needs_poppler = pytest.mark.skipif(
    shutil.which("pdftoppm") is None or shutil.which("neato") is None,
    reason="poppler's pdftoppm (make test installs poppler-utils as root; else sudo apt-get "
           "install poppler-utils) or Graphviz is not installed")
DPI = 24  # sheets; coarse and quick, enough to see a piece one space off


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
def test_the_sheets_join_up_to_the_board(tmp_path: Path) -> None:
    g = load_course("homebrew/rome").graph  # a figure of eight: the bridge, its copy
    data, p = print_pdf(g, "a4", DEFAULT_SPACE_MM, numbers=True)
    sheets = tmp_path / "sheets.pdf"
    sheets.write_bytes(data)
    whole = tmp_path / "board.pdf"
    whole.write_bytes(board_page(g, numbers=True))
    assert p.scale == pytest.approx(DEFAULT_SPACE_MM * MM / SPACE)  # 36 mm a space
    assert p.sheets > 1
    board = _raster(whole, DPI * p.scale, 1)  # the board at real size, DPI pixels an inch
    w, h = p.sheet
    aw, ah = round((w - 2 * MARGIN) * DPI / 72) - 2, round((h - 2 * MARGIN) * DPI / 72) - 2
    m = round(MARGIN * DPI / 72) + 1
    off = round(SPACE * p.scale * DPI / 72)  # one space, in pixels
    for r in range(p.rows):
        for c in range(p.cols):
            sheet = _raster(sheets, DPI, 2 + r * p.cols + c)  # page 1 is the overview
            x, y = p.region(r, c)  # lower left, real points, y up
            bx = round(x * DPI / 72) + 1
            by = board[1] - round((y + h - 2 * MARGIN) * DPI / 72) + 1  # its top, y down
            piece = _crop(sheet, m, m, aw, ah)
            # the two rasters round to whole pixels differently: the best of ±1 pixel
            same = min(_difference(piece, _crop(board, bx + dx, by + dy, aw, ah))
                       for dx in (-1, 0, 1) for dy in (-1, 0, 1))
            shifted = _difference(piece, _crop(board, bx + off, by, aw, ah))
            assert same < 5, (r, c, same)
            if shifted > 6:  # a piece with something on it: one space off is not the same
                assert same < shifted / 3, (r, c, same, shifted)


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
])
def test_bad_print_options_are_usage_errors(args: list[str], message: str,
                                            tmp_path: Path) -> None:
    r = runner.invoke(app, ["course", "print", "homebrew/rome", *args])
    assert r.exit_code == 2
    assert message in r.output
