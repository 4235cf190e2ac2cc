"""The pictures in docs/boards/ and docs/img/: made by one command, checked for staleness.

    .venv/bin/python tools/docs_images.py           # remake what is stale (part of `make docs`)
    .venv/bin/python tools/docs_images.py --all     # remake every picture
    .venv/bin/python tools/docs_images.py --check   # exit 1 when one is stale (a test runs it)

docs/images.json lists every picture with two digests: of what it was made from (its
*inputs*, below) and of its bytes as written. A picture is stale when its inputs changed
since, when it is missing, or when its bytes are not the ones written (a hand edit, a test
overwriting it); ``--check`` also names any file in the two folders that no command makes.
The inputs are digested, not the pictures compared with a new render, because the bytes are
not all stable: Graphviz's PDFs carry their date, Chromium's screenshots vary run to run, and
the charts take 6,000 races to make.

- **boards** (``course render``): every bundled course as SVG and A4 PDF in docs/boards/
  (shortest race from place 1, space ids) and the four PNGs the README shows. Inputs: the
  DOT text ``course render`` hands Graphviz for the same options (its ``.dot`` output), so
  a change to a course, the route search or the drawing shows. Graphviz's version is
  recorded, not compared.
- **charts** (``simulate``): docs/simulation.md's three simulations, 2,000 greedy races
  each, as the win-rate chart and heat maps in docs/img/. Inputs: the JSON report and the
  pictures of the same command at 100 races — seeded, so a change to how those races play
  or to how charts are drawn shows, at a twentieth of the cost.
- **screenshots** (tools/web_screenshots.py, headless Chromium): docs/img/web-*.png.
  Inputs: the pages' files (editor/web/static/) and the script that drives them.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / "docs" / "images.json"
FOLDERS = ("docs/boards", "docs/img")
README_PNGS = ("ravensburger-1989/a-white", "pro-ludo-2006/circus-maximus",
               "dicetree-2022/hippodrom-constantinople", "homebrew/rome")
# docs/simulation.md, "One course per edition, 2,000 greedy races each" (the same commands)
CHARTS = (("ravensburger-1989", "ravensburger-1989/b-yellow"),
          ("pro-ludo-2006", "pro-ludo-2006/circus-maximus"),
          ("dicetree-2022", "dicetree-2022/hippodrom-constantinople"))
CHART_RACES, FINGERPRINT_RACES = 2000, 100
SHOTS = ROOT / "tools" / "web_screenshots.py"
STATIC = ROOT / "editor" / "web" / "static"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _cli(args: list[str]) -> str:
    """Run an avecaesar command in this process; its output (exit 0 or SystemExit)."""
    from typer.testing import CliRunner

    from avecaesar.editor.main import app

    res = CliRunner().invoke(app, args)
    if res.exit_code:
        raise SystemExit(f"avecaesar {' '.join(args)}: exit {res.exit_code}\n"
                         f"{res.output[-1500:]}")
    return res.output


class Job(NamedTuple):
    """One command and the pictures it writes (paths relative to the checkout)."""

    group: str
    command: str  # what it runs, in words (for the messages)
    files: tuple[str, ...]
    inputs: Callable[[Path], str]  # the digest of what the files are made from (scratch)
    make: Callable[[], None]  # writes the files


def _board(cid: str, files: tuple[str, ...], numbers: bool) -> Job:
    args = ["course", "render", cid, "--highlight", "shortest", *(["--numbers"] * numbers)]

    def inputs(scratch: Path) -> str:
        dot = scratch / f"{cid.replace('/', '-')}-{numbers}.dot"
        _cli([*args, "-o", str(dot)])
        return _sha(dot.read_bytes())

    def make() -> None:
        for f in files:
            _cli([*args, "-o", str(ROOT / f)])

    return Job("boards", " ".join(["avecaesar", *args]), files, inputs, make)


def _chart_args(ruleset: str, course: str, races: int, img: Path) -> list[str]:
    stem = f"sim-{ruleset}"
    return ["simulate", "-r", ruleset, "-c", course, "-n", "6", "-k", str(races),
            "--chart", str(img / f"{stem}-winrate.svg"), "--heat-map", str(img / stem)]


def _chart(ruleset: str, course: str, files: tuple[str, ...]) -> Job:
    def inputs(scratch: Path) -> str:
        img = scratch / f"chart-{ruleset}"
        img.mkdir(exist_ok=True)
        report = img / "report.json"
        _cli([*_chart_args(ruleset, course, FINGERPRINT_RACES, img), "--workers", "1",
              "--quiet", "--json", str(report)])
        return _sha(b"".join(p.name.encode() + p.read_bytes() for p in sorted(img.iterdir())))

    def make() -> None:
        _cli(_chart_args(ruleset, course, CHART_RACES, ROOT / "docs" / "img"))

    command = " ".join(["avecaesar", *_chart_args(ruleset, course, CHART_RACES,
                                                  Path("docs/img"))])
    return Job("charts", command, files, inputs, make)


def chart_files(ruleset: str, course: str, scratch: Path) -> tuple[str, ...]:
    """The pictures a chart command writes (found by running it at two races)."""
    img = scratch / f"names-{ruleset}"
    img.mkdir()
    _cli([*_chart_args(ruleset, course, 2, img), "--workers", "1", "--quiet"])
    return tuple(f"docs/img/{p.name}" for p in sorted(img.iterdir()))


def _shots_module() -> ModuleType:
    """tools/web_screenshots.py (a script beside this one, not a package module)."""
    spec = importlib.util.spec_from_file_location("web_screenshots", SHOTS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _screenshots() -> Job:
    shots = _shots_module()

    def inputs(_scratch: Path) -> str:
        parts = [SHOTS, *sorted(p for p in STATIC.rglob("*") if p.is_file())]
        return _sha(b"".join(str(p.relative_to(ROOT)).encode() + p.read_bytes()
                             for p in parts))

    def make() -> None:
        shots.take(ROOT / "docs" / "img")

    return Job("screenshots", "python tools/web_screenshots.py",
               tuple(f"docs/img/{name}" for name in shots.FILES), inputs, make)


def jobs(scratch: Path) -> list[Job]:
    from avecaesar.engine.course.load import _bundled_ids

    found = [_board(cid, (f"docs/boards/{cid.replace('/', '-')}.svg",
                          f"docs/boards/{cid.replace('/', '-')}.pdf"), numbers=True)
             for cid in _bundled_ids()]
    found += [_board(cid, (f"docs/img/{cid.replace('/', '-')}.png",), numbers=False)
              for cid in README_PNGS]
    found += [_chart(r, c, chart_files(r, c, scratch)) for r, c in CHARTS]
    found.append(_screenshots())
    return found


def read_manifest() -> dict[str, dict[str, str]]:
    try:
        files: dict[str, dict[str, str]] = json.loads(MANIFEST.read_text(
            encoding="utf-8"))["files"]
        return files
    except (OSError, ValueError, KeyError):
        return {}


def stale(job: Job, digest: str, manifest: dict[str, dict[str, str]]) -> list[str]:
    """Why each of ``job``'s files is stale (empty: all current)."""
    out = []
    for f in job.files:
        entry, path = manifest.get(f), ROOT / f
        if not path.exists():
            out.append(f"{f}: missing")
        elif entry is None:
            out.append(f"{f}: not in {MANIFEST.relative_to(ROOT)}")
        elif entry["inputs"] != digest:
            out.append(f"{f}: what it is made from changed since ({job.command})")
        elif entry["sha256"] != _sha(path.read_bytes()):
            out.append(f"{f}: not the bytes `make docs` wrote (edited or overwritten)")
    return out


def strays(all_jobs: list[Job]) -> list[str]:
    """Files in docs/boards/ and docs/img/ that no command makes."""
    made = {f for job in all_jobs for f in job.files}
    return [f"{p.relative_to(ROOT)}: no command makes it (remove it, or add it to "
            "tools/docs_images.py)" for folder in FOLDERS
            for p in sorted((ROOT / folder).iterdir())
            if p.is_file() and str(p.relative_to(ROOT)) not in made]


def _graphviz() -> str:
    dot = shutil.which("dot")
    if dot is None:
        return "not installed"
    done = subprocess.run([dot, "-V"], capture_output=True, text=True, check=False)
    return (done.stderr or done.stdout).strip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when a picture is stale")
    ap.add_argument("--all", action="store_true", help="remake every picture")
    ap.add_argument("--only", choices=("boards", "charts", "screenshots"),
                    help="only this group")
    args = ap.parse_args(argv)
    manifest = read_manifest()
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="avecaesar-docs-") as tmp:
        scratch = Path(tmp)
        all_jobs = jobs(scratch)
        for job in all_jobs:
            if args.only and job.group != args.only:
                continue
            digest = job.inputs(scratch)
            why = stale(job, digest, manifest)
            if args.check:
                problems += why
                continue
            if not (why or args.all):
                continue
            print(f"{job.command} ({'; '.join(why) or 'remade'})", flush=True)
            job.make()
            for f in job.files:
                manifest[f] = {"inputs": digest, "sha256": _sha((ROOT / f).read_bytes())}
    if args.check:
        problems += strays(all_jobs)
        for p in problems:
            print(p)
        if problems:
            print(f"{len(problems)} stale picture(s) in docs/: run `make docs` "
                  "(tools/docs_images.py)")
        return 1 if problems else 0
    made = {f for job in all_jobs for f in job.files}
    for f in sorted(set(manifest) - made):  # made once, by a command that is gone
        (ROOT / f).unlink(missing_ok=True)
        print(f"removed {f}")
        del manifest[f]
    MANIFEST.write_text(json.dumps({
        "about": "written by `make docs` (tools/docs_images.py): for each picture the "
                 "digest of what it was made from and of its bytes; "
                 "tests/hardening/test_docs_images.py checks them",
        "graphviz": _graphviz(),
        "files": dict(sorted(manifest.items()))}, indent=1) + "\n", encoding="utf-8")
    for s in strays(all_jobs):
        print(s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
