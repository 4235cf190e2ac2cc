"""``course validate --update-figures`` (issue 15): only the figure values change.

Each bundled course file gets wrong figures written over its true ones; --update-figures
must bring back the original file byte for byte — every comment, key order and format.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.cli.figures_update import rewrite_figures
from avecaesar.editor.main import app
from avecaesar.engine.course.load import bundled_courses

runner = CliRunner()
FIGURE_LINE = re.compile(r"^(\s+)(lap|alley_extra|shortest_race|outside_race): (.+)$")


def _corrupt(text: str) -> tuple[str, int]:
    """Every figure value replaced by a wrong one (lists get another length)."""
    out, n = [], 0
    for line in text.splitlines(keepends=True):
        m = FIGURE_LINE.match(line.rstrip("\n"))
        if m:
            wrong = "[1, 2]" if m[3].startswith("[") else "999"
            line = f"{m[1]}{m[2]}: {wrong}\n"
            n += 1
        out.append(line)
    return "".join(out), n


FILES = {cid: path for cid, path in bundled_courses().items()
         if "\nfigures:" in path.read_text(encoding="utf-8")}


@pytest.mark.parametrize("cid", sorted(FILES))
def test_update_restores_every_byte_of_the_bundled_file(cid: str, tmp_path: Path) -> None:
    src = FILES[cid]
    courses_copy = tmp_path / "courses"
    shutil.copytree(src.parents[1], courses_copy)
    target = courses_copy / src.relative_to(src.parents[1])
    original = src.read_text(encoding="utf-8")
    wrong, n = _corrupt(original)
    assert n >= 3 and wrong != original
    target.write_text(wrong, encoding="utf-8")
    allow = ["--allow-path", str(courses_copy)]  # the modules sit beside the course's folder
    stale = runner.invoke(app, [*allow, "course", "validate", str(target)])
    assert stale.exit_code == 1
    assert "--update-figures` rewrites them" in stale.stderr
    r = runner.invoke(app, [*allow, "course", "validate", str(target), "--update-figures"])
    # exit 0, or 1 on the homebrew tracks a deck cannot finish (not a figure problem)
    assert r.exit_code == runner.invoke(app, ["course", "validate", cid]).exit_code
    assert target.read_text(encoding="utf-8") == original
    assert "updated the figures of" in r.stdout and "+  lap:" in r.stdout
    again = runner.invoke(app, [*allow, "course", "validate", str(target), "--update-figures"])
    assert "the declared figures hold, nothing to update" in again.stdout


def test_geometry_change_updates_only_the_figure_lines(tmp_path: Path) -> None:
    src = bundled_courses()["homebrew/rome"]
    target = tmp_path / "rome.yaml"
    original = src.read_text(encoding="utf-8")
    edited = original.replace("{name: middle, length: 2}", "{name: middle, length: 1}")
    target.write_text(edited, encoding="utf-8")
    r = runner.invoke(app, ["course", "validate", str(target), "--update-figures"])
    assert r.exit_code == 0, r.stderr
    new = target.read_text(encoding="utf-8").splitlines()
    changed = [i for i, (a, b) in enumerate(zip(edited.splitlines(), new, strict=True))
               if a != b]
    assert [new[i].split(":")[0].strip() for i in changed] == ["lap", "shortest_race",
                                                              "outside_race"]
    assert "  shortest_race: [82, 82, 83, 83, 84, 84]" in new
    assert runner.invoke(app, ["course", "validate", str(target)]).exit_code == 0


def test_block_style_flow_mapping_and_missing_block() -> None:
    block = "name: x  # keep\nfigures:\n  lap: 3   # the lap\n  shortest_race:\n    - 1\n" \
            "    - 2\nprovenance: {}\n"
    new = rewrite_figures(block, {("figures",): {"lap": 4, "shortest_race": [5, 6, 7]}})
    assert new == ("name: x  # keep\nfigures:\n  lap: 4   # the lap\n  shortest_race:\n"
                   "    - 5\n    - 6\n    - 7\nprovenance: {}\n")
    flow = "figures: {lap: 3, alley_extra: 1}  # flow\n"
    assert rewrite_figures(flow, {("figures",): {"lap": 9, "alley_extra": None}}) == \
        "figures: {lap: 9, alley_extra: null}  # flow\n"
    bare = "name: x\n"
    assert rewrite_figures(bare, {("figures",): {"lap": 2, "alley_extra": None,
                                                 "shortest_race": [7],
                                                 "outside_race": 9}}) == \
        "name: x\nfigures:\n  lap: 2\n  alley_extra: null\n  shortest_race: [7]\n" \
        "  outside_race: 9\n"


def test_update_figures_on_a_broken_file_changes_nothing(tmp_path: Path) -> None:
    target = tmp_path / "bad.yaml"
    text = "name: x\nlanes: 1\ntrack: []\nfinish: {before: a}\nstart: []\n"
    target.write_text(text, encoding="utf-8")
    r = runner.invoke(app, ["course", "validate", str(target), "--update-figures"])
    assert r.exit_code == 1
    assert target.read_text(encoding="utf-8") == text


SHARED = """name: Shared figures
lanes: 2
track:
  - straight: {name: home, length: 4}
  - curve: {name: north, turn: 180, lengths: [4, 5]}
  - straight: {name: back, length: 4}
  - curve: {name: south, turn: 180, lengths: [4, 5]}
  - straight: {name: grid, length: 2}
finish: {before: home}
start: [grid.0.-1, grid.1.-1]
figures:   # shared by both directions
  lap: 1
anticlockwise:
  start: [home.0.0]
"""


def test_a_direction_sharing_figures_it_does_not_hold_is_reported(tmp_path: Path) -> None:
    target = tmp_path / "shared.yaml"
    target.write_text(SHARED.replace("  lap: 1", "  lap: 1\n  shortest_race: [1, 1]"),
                      encoding="utf-8")
    r = runner.invoke(app, ["course", "validate", str(target), "--update-figures"])
    assert r.exit_code == 1
    assert "give this direction its own 'figures:' block" in r.stderr
    text = target.read_text(encoding="utf-8")  # the clockwise figures were written
    assert "  lap: 18\n  shortest_race: [55, 55]\nanticlockwise:" in text
