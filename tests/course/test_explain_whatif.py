"""``course validate --explain`` and ``--what-if`` (issue 15).

The breakdown of the shortest legal race must sum to the race figure on every bundled course
and on random courses; every edit --what-if reports is applied to a copy of the *file* and
re-validated from scratch, and on the Rome track the edits it does not report are checked
to miss the target.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.engine.course.explain import explain
from avecaesar.engine.course.figures import DEFAULT_FIGURES, RaceFigures
from avecaesar.engine.course.load import _bundled_ids, load_course, load_courses
from avecaesar.engine.course.whatif import apply_to_data, candidate_edits, what_if
from avecaesar.engine.data.errors import InputError
from avecaesar.engine.data.paths import COURSES_DIR
from avecaesar.engine.data.safeio import allow_paths

runner = CliRunner()

_spec = importlib.util.spec_from_file_location(
    "shortest_property", Path(__file__).with_name("test_shortest_property.py"))
assert _spec and _spec.loader
_prop = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_prop)
course_text = _prop.course_text


def _sums_hold(course, rules: RaceFigures = DEFAULT_FIGURES) -> None:
    figs = course.figures(rules)
    ex = explain(course, rules)
    assert [p.race for p in ex.places] == figs.shortest_race
    for p in ex.places:
        if p.race is None:
            continue
        assert sum(p.by_lap) == p.race
        assert sum(p.by_kind.values()) == p.race
        assert sum(u.steps for u in p.pieces) == p.race
        assert len(p.by_lap) == rules.laps + 1
        if course.graph.graph["alley"] and rules.alley_required:
            assert p.alley_stop_lap in rules.alley_laps
    if figs.alley_extra is not None:
        assert ex.alley_detour == figs.alley_extra


@pytest.mark.parametrize("cid", _bundled_ids())
def test_breakdown_sums_to_the_race_on_every_bundled_course(cid: str) -> None:
    _sums_hold(load_course(cid))


def test_breakdown_under_other_rules_sums_too() -> None:
    course = load_course("homebrew/rome")
    _sums_hold(course, RaceFigures(laps=2, alley_laps=(1,)))
    _sums_hold(course, RaceFigures(water="skipped"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(course_text())
def test_breakdown_sums_on_random_courses(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "random.yaml"
        path.write_text(text, encoding="utf-8")
        (course,) = load_courses(path)
    assume(not course.errors)
    _sums_hold(course)


def test_rome_85_is_the_sum_of_its_parts() -> None:
    """reader homebrew (PT comments): 85 over three inside laps, 27 a lap + the alley."""
    ex = explain(load_course("homebrew/rome"))
    p1 = ex.places[0]
    assert p1.race == 85
    assert p1.by_lap == [1, 27, 30, 27]  # the run-up over the line, three laps, +3 in lap 2
    assert ex.alley_detour == 3 and ex.race_without_stop == 82
    east = next(u for u in p1.pieces if u.piece == "east")
    assert east.lengths == [5, 7] and len(east.passes) == 3


def _revalidate(course, edit, rules: RaceFigures, tmp: Path):
    """Apply ``edit`` to a copy of the course's files and load the course from the copy."""
    tree = tmp / "courses"
    if not tree.exists():
        shutil.copytree(COURSES_DIR, tree)
        # the copies include the copied modules by path, so that an edit of a module is read
        for f in tree.rglob("*.yaml"):
            text = f.read_text(encoding="utf-8")
            rel = "../" * (len(f.relative_to(tree).parts) - 1)
            f.write_text(re.sub(r"\{id: ([\w/-]+), piece:", rf"{{file: {rel}pieces/\1.yaml, piece:",
                                text), encoding="utf-8")
    rel = Path(edit.file).resolve().relative_to(COURSES_DIR.resolve())
    target = tree / rel
    original = (COURSES_DIR / rel).read_text(encoding="utf-8")
    data = yaml.safe_load(original)
    target.write_text(yaml.safe_dump(apply_to_data(data, edit), sort_keys=False),
                      encoding="utf-8")
    try:
        course_file = tree / Path(course.model.file).resolve().relative_to(
            COURSES_DIR.resolve())
        cid = course.id.removesuffix("-ccw")
        allow_paths([tree])  # the copy's modules sit beside the course's own folder
        found = [c for c in load_courses(course_file, cid) if c.direction == course.direction]
        return found[0]
    finally:
        allow_paths([])
        target.write_text(original, encoding="utf-8")


@pytest.mark.parametrize(("cid", "reserve", "rules"), [
    ("homebrew/rome", 0, DEFAULT_FIGURES),
    ("homebrew/constantinople", 0, DEFAULT_FIGURES),
    ("dicetree-2022/hippodrom-constantinople", 9, DEFAULT_FIGURES),
    ("pro-ludo-2006/circus-maximus-ccw", 6, DEFAULT_FIGURES),
    ("ravensburger-1989/b-red", 7, RaceFigures(alley_laps=(1,))),
])
def test_every_what_if_result_holds_when_written_to_the_file(cid: str, reserve: int,
                                                             rules: RaceFigures,
                                                             tmp_path: Path) -> None:
    course = load_course(cid)
    report = what_if(course, rules, reserve)
    found = report.found
    assert found, "each case has at least one edit that reaches the target"
    assert report.tried == len(candidate_edits(course))
    for edit, _why in report.invalid:  # the edits called invalid are invalid in the file too
        assert _revalidate(course, edit, rules, tmp_path).errors, edit.description
    for w in found:
        edited = _revalidate(course, w.edit, rules, tmp_path)
        assert not edited.errors, (w.edit.description, edited.errors)
        figs = edited.figures(rules)
        assert figs.shortest_race == w.figures.shortest_race, w.edit.description
        assert figs.lap == w.figures.lap and figs.alley_extra == w.figures.alley_extra
        assert figs.outside_race == w.figures.outside_race
        assert min(figs.reserve) >= reserve
    # best first: those that keep the drawing closed, then the largest worst reserve
    worst = [(not w.closes, -w.worst_reserve) for w in found if not w.warnings]
    assert worst == sorted(worst)


def test_rome_edits_left_out_miss_the_target(tmp_path: Path) -> None:
    """Completeness: every one-space edit of Rome that --what-if does not list is invalid
    or leaves a start place short of points, checked from the edited file."""
    course = load_course("homebrew/rome")
    found = what_if(course).found
    listed = {w.edit.description for w in found}
    assert "shorten curve 'east' lane 0: 5 → 4 (lengths [4, 7])" in listed
    for edit in candidate_edits(course):
        if edit.description in listed:
            continue
        edited = _revalidate(course, edit, DEFAULT_FIGURES, tmp_path)
        if edited.errors:
            continue
        assert not edited.figures().finishable, edit.description


def test_explain_and_what_if_on_the_command_line() -> None:
    r = runner.invoke(app, ["course", "validate", "homebrew/rome", "--explain", "--what-if"])
    assert r.exit_code == 1  # Rome itself stays not finishable
    assert "alley detour: +3 (place 1 without the stop: 82)" in r.stdout
    assert "what-if: 7 of 31 one-space edits make the course finishable" in r.stdout
    assert "shorten curve 'east' lane 0: 5 → 4" in r.stdout
    assert "shorten straight 'grid': length 3 → 2: start place 5 (grid.0.-3)" in r.stdout


def test_explain_and_what_if_json() -> None:
    r = runner.invoke(app, ["course", "validate", "homebrew/rome", "--json", "--explain",
                            "--what-if", "--reserve", "1"])
    (entry,) = json.loads(r.stdout)
    assert [p["race"] for p in entry["explain"]["places"]] == [85, 85, 86, 86, 87, 87]
    assert sum(entry["explain"]["places"][0]["by_lap"]) == 85
    edits = entry["what_if"]["edits"]
    assert entry["what_if"]["reserve"] == 1
    assert all(min(e["figures"]["reserve"]) >= 1 for e in edits)


def test_what_if_with_an_unreachable_reserve_says_so() -> None:
    r = runner.invoke(app, ["course", "validate", "homebrew/rome", "--what-if", "--reserve",
                            "40"])
    assert "none of the 31 one-space edits" in r.stdout


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(course_text())
def test_what_if_results_on_random_courses_hold_in_the_file(text: str) -> None:
    """Each edit reported on a random course, written into the file, gives the reported
    figures; the edits called invalid are invalid in the file too."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "random.yaml"
        path.write_text(text, encoding="utf-8")
        (course,) = load_courses(path)
        assume(not course.errors and course.figures().reserve[0] is not None)
        target = min(course.figures().reserve) + 1  # one point more than now
        report = what_if(course, DEFAULT_FIGURES, target)
        data = yaml.safe_load(text)
        for w in report.found:
            edited = Path(tmp) / "edited.yaml"
            edited.write_text(yaml.safe_dump(apply_to_data(data, w.edit)), encoding="utf-8")
            (again,) = load_courses(edited)
            assert not again.errors
            assert again.figures().shortest_race == w.figures.shortest_race
            assert min(again.figures().reserve) >= target
        for edit, _why in report.invalid:
            edited = Path(tmp) / "edited.yaml"
            edited.write_text(yaml.safe_dump(apply_to_data(data, edit)), encoding="utf-8")
            try:
                (again,) = load_courses(edited)
            except InputError:
                continue
            assert again.errors


def test_reserve_without_what_if_is_a_usage_error() -> None:
    r = runner.invoke(app, ["course", "validate", "homebrew/rome", "--reserve", "2"])
    assert r.exit_code == 2 and "add --what-if" in r.stderr
