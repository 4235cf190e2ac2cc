"""A bundled piece file is included by its bundled id, from anywhere (issue 22)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.engine.course.bundled import bundled_courses, bundled_pieces
from avecaesar.engine.course.load import load_course, load_courses
from avecaesar.engine.data.errors import InputError
from avecaesar.engine.data.paths import COURSES_DIR

runner = CliRunner()
ARENA = COURSES_DIR / "dicetree-2022" / "arena-carthago.yaml"


def test_the_bundled_pieces_have_ids() -> None:
    assert bundled_pieces() == {"dicetree-2022/halves":
                                COURSES_DIR / "pieces" / "dicetree-2022" / "halves.yaml"}


@pytest.mark.parametrize("cid", [c for c in bundled_courses() if c.startswith("dicetree")])
def test_a_copy_of_any_bundled_board_validates_anywhere(cid: str, tmp_path: Path) -> None:
    text = bundled_courses()[cid].read_text(encoding="utf-8")
    assert "include: {id: dicetree-2022/halves," in text  # the bundled courses use the ids
    copy = tmp_path / "elsewhere" / "mine.yaml"
    copy.parent.mkdir()
    copy.write_text(text, encoding="utf-8")
    (mine,) = load_courses(copy)
    assert not mine.errors
    assert mine.figures().shortest_race == load_course(cid).figures().shortest_race


def test_an_unknown_id_is_located_with_did_you_mean(tmp_path: Path) -> None:
    text = ARENA.read_text(encoding="utf-8").replace("{id: dicetree-2022/halves, piece: arena}",
                                                     "{id: dicetree-2022/halvs, piece: arena}")
    course = tmp_path / "typo.yaml"
    course.write_text(text, encoding="utf-8")
    r = runner.invoke(app, ["course", "validate", str(course)])
    assert r.exit_code == 1
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "halvs" in t)
    assert (f"typo.yaml:{line}:19: no bundled piece file 'dicetree-2022/halvs' — did you mean "
            "'dicetree-2022/halves'?") in r.stderr


def test_a_path_include_stays_confined_and_names_the_id(tmp_path: Path) -> None:
    old = ARENA.read_text(encoding="utf-8").replace(
        "{id: dicetree-2022/halves,", "{file: ../pieces/dicetree-2022-halves.yaml,")
    course = tmp_path / "old.yaml"
    course.write_text(old, encoding="utf-8")
    r = runner.invoke(app, ["course", "validate", str(course)])
    assert r.exit_code == 1
    assert "include the bundled piece file by its id: include: {id: dicetree-2022/halves, " \
           "piece: arena}" in r.stderr
    # a module beside the course is still read by path; one outside needs --allow-path
    halves = yaml.safe_load((COURSES_DIR / "pieces" / "dicetree-2022" / "halves.yaml")
                            .read_text(encoding="utf-8"))
    outside = tmp_path / "modules" / "halves.yaml"
    outside.parent.mkdir()
    outside.write_text(yaml.safe_dump(halves), encoding="utf-8")
    (tmp_path / "course").mkdir()
    by_path = tmp_path / "course" / "c.yaml"
    by_path.write_text(ARENA.read_text(encoding="utf-8").replace(
        "{id: dicetree-2022/halves,", "{file: ../modules/halves.yaml,"), encoding="utf-8")
    r = runner.invoke(app, ["course", "validate", str(by_path)])
    assert r.exit_code == 1 and "lies outside the course's folder" in r.stderr
    r = runner.invoke(app, ["--allow-path", str(tmp_path / "modules"), "course", "validate",
                            str(by_path)])
    assert r.exit_code == 0, r.output


def test_a_text_includes_by_id_only() -> None:
    text = ARENA.read_text(encoding="utf-8")
    (c,) = load_courses("pasted.yaml", text=text)
    assert not c.errors
    with pytest.raises(InputError) as err:  # no piece left to build a course from
        load_courses("pasted.yaml", text=text.replace(
            "{id: dicetree-2022/halves,", "{file: ../pieces/dicetree-2022/halves.yaml,"))
    assert err.value.problems[0].message == (
        "a course given as text includes modules by bundled id, not by path "
        "'../pieces/dicetree-2022/halves.yaml' — write it as include: {id: "
        "dicetree-2022/halves, piece: arena}")


def test_both_or_neither_is_a_problem(tmp_path: Path) -> None:
    text = ARENA.read_text(encoding="utf-8").replace(
        "{id: dicetree-2022/halves, piece: arena}",
        "{id: dicetree-2022/halves, file: x.yaml, piece: arena}")
    (c,) = load_courses("both.yaml", text=text)
    assert any("names its module file once" in p.message for p in c.errors)


@pytest.mark.covers("command:course new")
def test_course_new_from_writes_an_editable_copy(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["course", "new", "--from", "dicetree-2022/arena-carthago",
                            "my-arena.yaml"])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("wrote my-arena.yaml — a copy of dicetree-2022/arena-carthago")
    copy = (tmp_path / "my-arena.yaml").read_text(encoding="utf-8")
    original = ARENA.read_text(encoding="utf-8")
    assert copy.splitlines()[1:] == original.splitlines()[1:]  # only the schema line moves
    assert "schemas/course.schema.json" in copy.splitlines()[0]
    assert runner.invoke(app, ["course", "validate", "my-arena.yaml"]).exit_code == 0
    r = runner.invoke(app, ["course", "new", "--from", "pro-ludo-2006/circus-maximus-ccw",
                            "My Circus"])
    assert r.exit_code == 0 and "(both directions)" in r.stdout
    ids = [c.id for c in load_courses(tmp_path / "my-circus.yaml")]
    assert ids == ["my-circus", "my-circus-ccw"]
    assert load_courses(tmp_path / "my-circus.yaml")[0].name == "My Circus"
    again = runner.invoke(app, ["course", "new", "--from", "homebrew/rome", "my-arena.yaml"])
    assert again.exit_code == 1 and "exists" in again.output
    unknown = runner.invoke(app, ["course", "new", "--from", "homebrew/romee", "x.yaml"])
    assert unknown.exit_code == 2 and "homebrew/rome" in unknown.output


def test_a_copy_with_a_path_include_is_made_relative_to_its_new_place(tmp_path: Path,
                                                                      monkeypatch) -> None:
    src = tmp_path / "a" / "course.yaml"
    (tmp_path / "a" / "mods").mkdir(parents=True)
    (tmp_path / "a" / "mods" / "halves.yaml").write_text(
        (COURSES_DIR / "pieces" / "dicetree-2022" / "halves.yaml").read_text(encoding="utf-8"),
        encoding="utf-8")
    src.write_text(ARENA.read_text(encoding="utf-8").replace(
        "{id: dicetree-2022/halves,", "{file: mods/halves.yaml,"), encoding="utf-8")
    (tmp_path / "b" / "deeper").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "b" / "deeper")
    r = runner.invoke(app, ["--allow-path", str(tmp_path / "a"), "course", "new", "--from",
                            str(src), "copy.yaml"])
    assert r.exit_code == 0, r.output
    text = Path("copy.yaml").read_text(encoding="utf-8")
    assert "{file: ../../a/mods/halves.yaml, piece: arena}" in text
    r = runner.invoke(app, ["--allow-path", str(tmp_path / "a"), "course", "validate",
                            "copy.yaml"])
    assert r.exit_code == 0, r.output
