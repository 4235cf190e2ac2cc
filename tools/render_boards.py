"""Regenerate the board pictures in docs/: every bundled course as SVG and A4 PDF in
docs/boards/ (shortest race from place 1 highlighted, space ids written), and the four PNGs
the README shows in docs/img/.

Run from the repository: .venv/bin/python tools/render_boards.py
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from avecaesar.engine.course.load import _bundled_ids

ROOT = Path(__file__).resolve().parents[1]
EXE = str(Path(sys.executable).with_name("avecaesar"))
README_PNGS = ["ravensburger-1989/a-white", "pro-ludo-2006/circus-maximus",
               "dicetree-2022/hippodrom-constantinople", "homebrew/rome"]


def run(*args: str) -> None:
    done = subprocess.run([EXE, "course", "render", *args], capture_output=True, text=True,
                          check=False)
    if done.returncode:
        raise SystemExit(f"course render {' '.join(args)}: {done.stderr}")


def main() -> None:
    boards = ROOT / "docs" / "boards"
    boards.mkdir(exist_ok=True)
    for cid in _bundled_ids():
        stem = cid.replace("/", "-")
        for fmt in ("svg", "pdf"):
            run(cid, "--highlight", "shortest", "--numbers", "-o", str(boards / f"{stem}.{fmt}"))
        print(f"docs/boards/{stem}.svg, .pdf")
    for cid in README_PNGS:
        out = ROOT / "docs" / "img" / f"{cid.replace('/', '-')}.png"
        run(cid, "--highlight", "shortest", "-o", str(out))
        print(out.relative_to(ROOT))


if __name__ == "__main__":
    main()
