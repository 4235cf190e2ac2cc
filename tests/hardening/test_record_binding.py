"""A record binds to what it was played on (issue 26): its header carries the hashes of the
course, the composed rules and the house rules; replay says so when the files it is given
differ (after re-checking every move against them; ``--course`` to use another course on
purpose), checks every field of the result line, and never shows the content of a file the
header — not the user — named."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app

runner = CliRunner()
OVAL = Path(__file__).parents[1] / "core" / "courses" / "oval.yaml"
WALL = ", walls: [[0, 1]]"
SECRET = "password: hunter2\ndb_host: internal.example\n"


@pytest.fixture()
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with the oval and a record of a race on it, made there."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(OVAL, tmp_path / "oval.yaml")
    res = runner.invoke(app, ["race", "-r", "2022", "-c", "oval.yaml", "-n", "3", "--seed",
                              "2", "--record", "r.jsonl"])
    assert res.exit_code == 0, res.output
    return tmp_path


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, lines: list[dict]) -> None:
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")


def test_the_header_carries_the_content_hashes(here: Path) -> None:
    content = _lines(here / "r.jsonl")[0]["content"]
    assert set(content) == {"course", "ruleset"}
    assert all(re.fullmatch(r"[0-9a-f]{64}", v) for v in content.values())
    shutil.copy(here / "oval.yaml", here / "moved.yaml")  # where the file lives: no matter
    lines = _lines(here / "r.jsonl")
    lines[0]["course"] = "moved.yaml"
    _write(here / "m.jsonl", lines)
    assert runner.invoke(app, ["replay", "m.jsonl"]).exit_code == 0


def _counted_again(path: Path) -> list[dict]:
    """The record at ``path`` with every turn's legal-move count as the files now on disk
    give it: a record forged to agree with a changed course move by move."""
    from avecaesar.engine.core.race import new_race
    from avecaesar.engine.core.record import read_record, setup_from_header
    from avecaesar.engine.core.state import LETTERS, Move

    lines = read_record(path)
    setup, _ = setup_from_header(lines[0], str(path))
    state, _ = new_race(setup.race_rules, setup.board, setup.names, setup.seed,
                        setup.start_order)
    for ln in lines[1:-1]:
        ln["legal"] = len(state.legal_moves())
        if ln["type"] == "skip":
            state.skip(ln["reason"])
        else:
            state.push(Move(0, ()) if ln["type"] == "wait" else Move(
                ln["card"], tuple(ln["path"]), LETTERS.index(ln["ram"]) if "ram" in ln else -1))
    return [{k: v for k, v in ln.items() if k != "_line"} for ln in lines]


def test_a_course_with_a_wall_removed_is_reported(here: Path) -> None:
    """The issue's case: with the legal-move counts forged to agree with the changed course,
    the moves are all legal on it too; the hash tells."""
    oval = here / "oval.yaml"
    oval.write_text(oval.read_text(encoding="utf-8").replace(WALL, ""), encoding="utf-8")
    lines = _counted_again(here / "r.jsonl")
    assert lines != _lines(here / "r.jsonl")  # the wall changed some count
    _write(here / "s.jsonl", lines)
    res = runner.invoke(app, ["replay", "s.jsonl"])
    assert res.exit_code == 1, res.output
    assert "every move legal" in res.output  # every move was still re-checked
    assert "error: s.jsonl:1: the course differs from what this record was played on" \
        in res.output
    res = runner.invoke(app, ["replay", "s.jsonl", "--json"])
    assert res.exit_code == 1 and '"differs": [\n    "course"\n  ]' in res.output
    res = runner.invoke(app, ["replay", "s.jsonl", "--course", "oval.yaml"])  # on purpose
    assert res.exit_code == 0, res.output
    assert "note: s.jsonl:1: the course differs" in res.output


def test_changed_rules_are_reported(here: Path) -> None:
    lines = _lines(here / "r.jsonl")
    lines[0]["content"]["ruleset"] = "0" * 64
    _write(here / "t.jsonl", lines)
    res = runner.invoke(app, ["replay", "t.jsonl"])
    assert res.exit_code == 1 and "the rule values (ruleset, variants, --set values) differ" \
        in res.output, res.output


def test_an_older_record_without_hashes_replays(here: Path) -> None:
    lines = _lines(here / "r.jsonl")
    del lines[0]["content"]
    _write(here / "old.jsonl", lines)
    res = runner.invoke(app, ["replay", "old.jsonl"])
    assert res.exit_code == 0 and "differs" not in res.output, res.output


@pytest.mark.parametrize("field, value, message", [
    ("termination", "deadlock", "the recorded termination differs"),
    ("final", "x", "the recorded final position differs"),
    ("teams", [{"player": "P1-greedy", "points": 99}], "the recorded teams differs"),
])
def test_every_field_of_the_result_line_is_checked(here: Path, field: str, value: object,
                                                   message: str) -> None:
    lines = _lines(here / "r.jsonl")
    lines[-1][field] = value
    _write(here / "x.jsonl", lines)
    res = runner.invoke(app, ["replay", "x.jsonl"])
    assert res.exit_code == 1 and message in res.output, res.output


@pytest.mark.parametrize("field, value", [("ruleset", "secret.yaml"),
                                          ("course", "secret.yaml"),
                                          ("variants", ["secret.yaml"])])
def test_a_crafted_header_never_shows_a_file_it_names(here: Path, field: str,
                                                      value: object) -> None:
    (here / "secret.yaml").write_text(SECRET, encoding="utf-8")
    lines = _lines(here / "r.jsonl")
    lines[0][field] = value
    _write(here / "c.jsonl", lines)
    for args in (["replay", "c.jsonl"], ["play", "--resume", "c.jsonl"]):
        res = runner.invoke(app, args)
        assert res.exit_code == 1, res.output
        assert "not shown: the record named the file" in res.output, res.output
        for word in ("password", "hunter2", "db_host", "internal.example"):
            assert word not in res.output, (args, res.output)


def test_play_resume_checks_the_header_files(here: Path, tmp_path_factory) -> None:
    """``play --resume`` reads the files a header names only where replay may."""
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "oval.yaml"
    shutil.copy(OVAL, elsewhere)
    lines = _lines(here / "r.jsonl")
    lines[0]["course"] = str(elsewhere)
    _write(here / "e.jsonl", lines)
    res = runner.invoke(app, ["play", "--resume", "e.jsonl"])
    assert res.exit_code == 1 and "outside the working folder" in res.output, res.output


def test_a_crafted_tournament_record_never_shows_a_file_it_names(here: Path) -> None:
    (here / "secret.yaml").write_text(SECRET, encoding="utf-8")
    res = runner.invoke(app, ["tournament", "-r", "2022", "-n", "3", "--set",
                              "tournament.races=2", "--courses", "oval.yaml", "--record",
                              "t.json"])
    assert res.exit_code == 0, res.output
    doc = json.loads((here / "t.json").read_text(encoding="utf-8"))
    for race in doc["races"]:
        race["record"][0]["variants"] = ["secret.yaml"]
    doc["variants"] = ["secret.yaml"]
    (here / "c.json").write_text(json.dumps(doc), encoding="utf-8")
    res = runner.invoke(app, ["tournament", "--replay", "c.json"])
    assert res.exit_code == 1 and "not shown: the record named the file" in res.output, \
        res.output
    for word in ("password", "hunter2", "db_host"):
        assert word not in res.output, res.output
