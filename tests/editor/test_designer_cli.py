"""Issue 15: renders (format from the name, paper, numbers, direction, laps, bridges, steps
that do not close), ``course new PATH`` and ``course diff``."""

from __future__ import annotations

import itertools
import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.editor.render.board import LAP_COLOURS, board_svg, long_steps, route_laps
from avecaesar.engine.course.load import load_course, load_courses
from avecaesar.engine.course.race_path import shortest_race_route

VALID = Path(__file__).parents[1] / "course" / "valid"
runner = CliRunner()
needs_dot = pytest.mark.skipif(shutil.which("rsvg-convert") is None,
                               reason="librsvg's rsvg-convert is not installed")


@needs_dot
@pytest.mark.parametrize(("name", "magic"), [("b.png", b"\x89PNG"), ("b.pdf", b"%PDF"),
                                             ("b.svg", b"<?xml"), ("b.dot", b"digraph")])
@pytest.mark.covers("command:course render")
def test_format_follows_the_file_name(tmp_path: Path, name: str, magic: bytes) -> None:
    out = tmp_path / name
    r = runner.invoke(app, ["course", "render", str(VALID / "alley.yaml"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_bytes().startswith(magic)


@needs_dot
def test_format_option_overrides_the_name(tmp_path: Path) -> None:
    out = tmp_path / "b.png"
    r = runner.invoke(app, ["course", "render", str(VALID / "alley.yaml"), "-o", str(out),
                            "--format", "svg"])
    assert r.exit_code == 0
    assert out.read_bytes().startswith(b"<?xml")


def test_unknown_suffix_is_a_usage_error(tmp_path: Path) -> None:
    r = runner.invoke(app, ["course", "render", str(VALID / "alley.yaml"), "-o",
                            str(tmp_path / "b.jpg")])
    assert r.exit_code == 2
    assert "end it in .svg, .png, .pdf, .dot or pass --format" in r.stderr
    assert not (tmp_path / "b.jpg").exists()


@needs_dot
@pytest.mark.parametrize(("paper", "size"), [("a4", (842, 595)), ("a3", (1191, 842))])
def test_pdf_fills_the_landscape_paper(tmp_path: Path, paper: str, size: tuple[int, int]
                                       ) -> None:
    for course in ("homebrew/rome", "dicetree-2022/arena-carthago"):
        out = tmp_path / f"{paper}.pdf"
        r = runner.invoke(app, ["course", "render", course, "-o", str(out), "--paper", paper,
                                "--highlight", "shortest"])
        assert r.exit_code == 0, r.output
        box = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", out.read_bytes())
        assert box is not None
        assert abs(float(box[1]) - size[0]) <= 2 and abs(float(box[2]) - size[1]) <= 2


def test_bad_paper_is_a_usage_error() -> None:
    r = runner.invoke(app, ["course", "render", "homebrew/rome", "--paper", "letter"])
    assert r.exit_code == 2


def _texts(src: str, n: int) -> list[tuple[str, str]]:
    """A space's texts: in its group, or (a space a bridge covers whole) over the bridge."""
    group = re.search(rf'<g id="space-{n}" .*?</g>', src)
    assert group is not None
    above = re.search(rf'<g class="above-bridge" data-number-of="{n}" .*?</g>', src)
    return re.findall(r'<text class="(\w+)"[^>]*>([^<]*)</text>',
                      group[0] + (above[0] if above else ""))


def test_numbers_write_every_space_id() -> None:
    c = load_course("homebrew/rome")
    src = board_svg(c.graph, numbers=True)
    for n, d in c.graph.nodes(data=True):
        texts = _texts(src, n)
        assert ("number", str(n)) in texts, n
        if d["start_place"]:
            assert ("start", str(d["start_place"])) in texts, n


def test_direction_anticlockwise_of_a_file(tmp_path: Path) -> None:
    src = Path(load_course("pro-ludo-2006/circus-maximus").model.file)
    out = tmp_path / "ccw.svg"
    r = runner.invoke(app, ["course", "render", str(src), "--direction", "anticlockwise",
                            "-o", str(out), "--numbers"])
    assert r.exit_code == 0, r.output
    assert "anticlockwise" in out.read_text()
    ccw = next(c for c in load_courses(src) if c.direction == "anticlockwise")
    first = ccw.graph.graph["start_places"][0]
    texts = _texts(out.read_text(), first)  # place 1 carries its anticlockwise id
    assert ("start", "1") in texts and ("number", str(first)) in texts
    r = runner.invoke(app, ["course", "render", str(VALID / "oval.yaml"), "--direction",
                            "anticlockwise", "-o", str(out)])
    assert r.exit_code == 2 and "is not driven anticlockwise" in r.stderr
    r = runner.invoke(app, ["course", "render", str(src), "--direction", "backwards"])
    assert r.exit_code == 2


def test_shortest_route_has_a_shade_per_lap_and_the_alley_stop() -> None:
    c = load_course("homebrew/rome")
    route = shortest_race_route(c.graph, 1)
    assert route is not None
    laps = route_laps(c.graph, route)
    assert sorted(set(laps)) == [1, 2, 3]
    src = board_svg(c.graph, route=route)
    edges = re.findall(r'<line id="route-lap(\d)-\d+" class="route" x1="([-\d.]+)" '
                       r'y1="([-\d.]+)"[^>]*stroke="(#[0-9a-f]{6})"', src)
    assert len(edges) == len(route) - 1
    for lap, _x, _y, colour in edges:
        assert colour == LAP_COLOURS[int(lap) - 1]
    assert 'class="alley-stop"' in src and "lap 1 red, lap 2 blue, lap 3 violet" in src
    # the three laps run side by side, not on top of one another
    points = {(x, y) for _lap, x, y, _c in edges}
    assert len(points) > len(set(route[:-1]))


def test_bridge_spaces_let_the_lower_level_show() -> None:
    c = load_course("pro-ludo-2006/circus-maximus")
    src = board_svg(c.graph)
    bridges = re.findall(r'<g id="space-\d+" class="space track[^"]*bridge"[^>]*>.*?'
                         r'<polygon ([^>]*)/>', src)
    assert bridges and all('fill-opacity="0.55"' in p for p in bridges)  # translucent
    assert src.count("underpass") >= 3 and 'stroke-dasharray="5 3"' in src


OPEN = """name: Open
lanes: 1
track:
  - straight: {name: a, length: 3}
  - curve: {name: b, turn: 90, lengths: [3]}
  - straight: {name: c, length: 3}
finish: {before: a}
start: [c.0.-1]
"""


@needs_dot
def test_a_loop_that_does_not_close_is_a_problem_not_a_long_arrow(tmp_path: Path) -> None:
    course = tmp_path / "open.yaml"
    course.write_text(OPEN, encoding="utf-8")
    c = load_course(str(course))
    far = long_steps(c.graph)
    assert [(c.graph.nodes[u]["label"], c.graph.nodes[v]["label"]) for u, v, _ in far] == [
        ("c.0.2", "a.0.0")]
    out = tmp_path / "open.svg"
    r = runner.invoke(app, ["course", "render", str(course), "-o", str(out), "--highlight",
                            "shortest"])
    assert r.exit_code == 1
    assert re.search(r"open\.yaml:4:\d+: the step c\.0\.2 → a\.0\.0 \(\d+ → \d+\) is drawn "
                     r"[\d.]+ spaces long", r.stderr)
    route = shortest_race_route(c.graph, 1)
    assert route is not None
    crossings = sum(1 for u, v in itertools.pairwise(route)
                    if (u, v) == far[0][:2])
    assert out.read_text().count('class="route"') == len(route) - 1 - crossings


@pytest.mark.covers("command:course new")
def test_new_writes_exactly_the_path(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tracks").mkdir()
    r = runner.invoke(app, ["course", "new", "tracks/via-appia.yaml"])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in tmp_path.rglob("*.yaml")) == ["via-appia.yaml"]
    text = (tmp_path / "tracks" / "via-appia.yaml").read_text()
    assert "name: Via Appia" in text
    assert runner.invoke(app, ["course", "validate", "tracks/via-appia.yaml"]).exit_code == 0
    (tmp_path / "tracks" / "via-appia.yaml").write_text("mine")
    r = runner.invoke(app, ["course", "new", "tracks/via-appia.yaml"])
    assert r.exit_code == 1 and "--force" in r.stderr
    assert (tmp_path / "tracks" / "via-appia.yaml").read_text() == "mine"
    assert runner.invoke(app, ["course", "new", "tracks/via-appia.yaml", "--force"]
                         ).exit_code == 0
    assert (tmp_path / "tracks" / "via-appia.yaml").read_text() == text
    r = runner.invoke(app, ["course", "new", "nowhere/x.yaml"])
    assert r.exit_code == 2 and "does not exist" in r.stderr  # usage: the table (issue 38)
    r = runner.invoke(app, ["course", "new", "Via Salaria"])
    assert r.exit_code == 0 and (tmp_path / "via-salaria.yaml").exists()


@pytest.mark.covers("command:course diff")
def test_diff_puts_two_courses_side_by_side() -> None:
    r = runner.invoke(app, ["course", "diff", "pro-ludo-2006/circus-maximus", "homebrew/rome"])
    assert r.exit_code == 0, r.output
    assert re.search(r"place 1 race\s+77\s+85\s+\+8", r.stdout)
    assert re.search(r"place 6 reserve\s+5\s+-3\s+-8", r.stdout)
    assert "wall-bend: section lengths [1, 3] → section lengths [2, 3]" in r.stdout
    assert "narrow-4: only in A" in r.stdout and "split: only in B" in r.stdout
    data = json.loads(runner.invoke(app, ["course", "diff", "homebrew/rome",
                                          "homebrew/rome", "--json"]).stdout)
    assert data["pieces"] == [] and data["other"] == []
    same = runner.invoke(app, ["course", "diff", "homebrew/rome", "homebrew/rome"])
    assert "same pieces, alley, finish and start places" in same.stdout


def test_diff_of_a_broken_or_unknown_course_fails_cleanly(tmp_path: Path) -> None:
    r = runner.invoke(app, ["course", "diff", "homebrew/rome", "homebrew/romee"])
    assert r.exit_code == 2 and "did you mean" in r.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nlanes: 1\ntrack: []\nfinish: {before: a}\nstart: []\n")
    r = runner.invoke(app, ["course", "diff", str(bad), "homebrew/rome"])
    assert r.exit_code == 1 and "bad.yaml:" in r.stderr
