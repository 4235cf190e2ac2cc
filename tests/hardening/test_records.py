"""``replay`` is strict: a record must be whole and consistent (exit 1 otherwise, with the
line); ``--partial`` accepts a race in progress and says so. Outputs are checked before any
work and written atomically."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app

runner = CliRunner()
OVAL = Path(__file__).parents[1] / "core" / "courses" / "oval.yaml"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> list[str]:
    rec = tmp_path_factory.mktemp("rec") / "r.jsonl"
    res = runner.invoke(app, ["race", "-r", "dicetree-2022", "-c", str(OVAL), "-n", "3",
                              "--seed", "4", "--record", str(rec)])
    assert res.exit_code == 0, res.output
    return rec.read_text(encoding="utf-8").splitlines()


def _edit_header(lines: list[str], **changes: object) -> list[str]:
    head = json.loads(lines[0])
    head.update(changes)
    return [json.dumps(head), *lines[1:]]


def _rename_in_turn(lines: list[str]) -> list[str]:
    turn = json.loads(lines[1])
    turn["name"] = "Mallory"
    return [lines[0], json.dumps(turn), *lines[2:]]


CASES: dict[str, tuple[Callable[[list[str]], list[str]], str]] = {
    "cut before the result": (lambda ls: ls[:-1], "ends without its result line"),
    "cut mid-race": (lambda ls: ls[:-9], "the race is still running"),
    "result twice": (lambda ls: [*ls, ls[-1]], "a line after the result"),
    "second header": (lambda ls: [ls[0], *ls[1:4], ls[0], *ls[4:]], "a second header"),
    "turns swapped": (lambda ls: [ls[0], ls[2], ls[1], *ls[3:]], "where ply 1 is due"),
    "a turn dropped": (lambda ls: [ls[0], *ls[2:]], "where ply 1 is due"),
    "chariot names changed": (lambda ls: _edit_header(
        ls, chariots=["X", "Y", "Z"]), "a name was changed"),
    "a driver renamed": (_rename_in_turn, "not Mallory: a name was changed"),
    "bad seated seats": (lambda ls: _edit_header(ls, seated=True, seats=[0, 0, 7]),
                         "are not an order of the 3 chariots"),
    "result before the end": (lambda ls: [*ls[:5], ls[-1]], "the replayed race is not over"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_tampered_records_are_refused_with_their_line(tmp_path, recorded, name) -> None:
    change, message = CASES[name]
    rec = tmp_path / "r.jsonl"
    rec.write_text("\n".join(change(list(recorded))) + "\n", encoding="utf-8")
    res = runner.invoke(app, ["replay", str(rec)])
    assert res.exit_code == 1, res.output
    assert message in res.output and f"{rec}:" in res.output, res.output
    assert "Traceback" not in res.output


def test_partial_accepts_a_race_in_progress_and_says_so(tmp_path, recorded) -> None:
    rec = tmp_path / "r.jsonl"
    rec.write_text("\n".join(recorded[:-9]) + "\n", encoding="utf-8")
    res = runner.invoke(app, ["replay", "--partial", str(rec)])
    assert res.exit_code == 0, res.output
    assert "a race in progress (partial record)" in res.output
    rec.write_text("\n".join([*recorded[:-9], recorded[-1]]) + "\n", encoding="utf-8")
    res = runner.invoke(app, ["replay", "--partial", str(rec)])  # a result must still match
    assert res.exit_code == 1


def test_the_whole_record_still_replays(tmp_path, recorded) -> None:
    rec = tmp_path / "r.jsonl"
    rec.write_text("\n".join(recorded) + "\n", encoding="utf-8")
    res = runner.invoke(app, ["replay", str(rec)])
    assert res.exit_code == 0 and "every move legal" in res.output, res.output


def test_unreadable_records_are_usage_errors(tmp_path, recorded) -> None:
    rec = tmp_path / "r.jsonl"
    rec.write_bytes(b"\xff\xfe" + "\n".join(recorded).encode())
    res = runner.invoke(app, ["replay", str(rec)])
    assert res.exit_code == 2 and "not UTF-8" in res.output
    rec.write_text("\n".join(recorded) + "\n", encoding="utf-8")
    res = runner.invoke(app, ["replay", "--max-bytes", "1000", str(rec)])
    assert res.exit_code == 2 and "the limit is 1,000 bytes" in res.output
    res = runner.invoke(app, ["replay", str(tmp_path)])
    assert res.exit_code == 2 and "this is a folder" in res.output


def test_a_record_may_not_name_files_outside_its_folders(tmp_path, recorded) -> None:
    elsewhere = tmp_path / "elsewhere"
    mine = tmp_path / "mine"
    elsewhere.mkdir()
    mine.mkdir()
    course = shutil.copy(OVAL, elsewhere / "oval.yaml")
    rec = mine / "r.jsonl"
    rec.write_text("\n".join(_edit_header(list(recorded), course=str(course))) + "\n")
    res = runner.invoke(app, ["replay", str(rec)])
    assert res.exit_code == 1 and "outside the working folder" in res.output, res.output
    res = runner.invoke(app, ["--allow-path", str(elsewhere), "replay", str(rec)])
    assert res.exit_code == 0, res.output


def test_the_record_path_is_checked_before_the_race(tmp_path) -> None:
    for target, message in ((tmp_path / "no" / "r.jsonl", "does not exist"),
                            (tmp_path, "this is a folder")):
        res = runner.invoke(app, ["race", "-r", "2022", "-c", str(OVAL), "--record",
                                  str(target)])
        assert res.exit_code == 2 and message in res.output, res.output
        assert "result:" not in res.output  # refused before racing


def test_simulate_checks_every_output_before_racing(tmp_path) -> None:
    base = ["simulate", "-r", "2022", "-c", str(OVAL), "-n", "3", "-k", "2", "--quiet",
            "--workers", "1"]
    for option in ("--json", "--chart", "--heat-map"):
        cases = [(tmp_path / "no" / "x.svg", "does not exist")]
        if option != "--heat-map":  # a prefix: PATH-stood.svg next to it
            cases.append((tmp_path, "this is a folder"))
        for target, message in cases:
            res = runner.invoke(app, [*base, option, str(target)])
            assert res.exit_code == 2 and message in res.output, (option, res.output)
            assert "balance" not in res.output


def test_render_and_dump_refuse_bad_output_paths(tmp_path) -> None:
    for cmd in (["course", "render", str(OVAL)], ["course", "dump", str(OVAL)]):
        res = runner.invoke(app, [*cmd, "-o", str(tmp_path / "no" / "x.svg")])
        assert res.exit_code == 2 and "does not exist" in res.output, res.output
        res = runner.invoke(app, [*cmd, "-o", str(tmp_path)])
        assert res.exit_code == 2 and "this is a folder" in res.output, res.output


def test_outputs_are_replaced_whole_and_leave_no_temporary_files(tmp_path) -> None:
    from avecaesar.engine.data.safeio import write_atomic

    target = tmp_path / "out.txt"
    target.write_text("old", encoding="utf-8")
    write_atomic(target, "new text")
    assert target.read_text(encoding="utf-8") == "new text"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]
