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


def _edit_first(lines: list[str], kind: str, change: Callable[[dict], None]) -> list[str]:
    """``lines`` with ``change`` applied to the first line of type ``kind``."""
    out = list(lines)
    for i, raw in enumerate(out):
        doc = json.loads(raw)
        if doc["type"] == kind:
            change(doc)
            out[i] = json.dumps(doc)
            return out
    raise AssertionError(f"no {kind} line in the record")


def _drop(key: str) -> Callable[[dict], None]:
    return lambda doc: doc.pop(key)


def _set(key: str, value: object) -> Callable[[dict], None]:
    return lambda doc: doc.update({key: value})


def _first_kind_open(doc: dict) -> None:
    key = next(k for k, v in doc["kinds"].items() if v != "open")
    doc["kinds"][key] = "open"


#: every field of the header and the turn lines replay reads and checks (issue 38, point 6):
#: a changed or removed value is refused at its line (exit 1, the table's bad record)
CHECKED: dict[str, tuple[str, Callable[[dict], None], str]] = {
    "header reveals changed": ("header", _set("reveals", [[6, 6, 6]]),
                               "the reveals were changed"),
    "header reveals removed": ("header", _drop("reveals"), "the header has no 'reveals'"),
    "header start removed": ("header", _drop("start"), "the header has no 'start'"),
    "header seats removed": ("header", _drop("seats"), "the header has no 'seats'"),
    "header chariots removed": ("header", _drop("chariots"), "the header has no 'chariots'"),
    "header kinds changed": ("header", _first_kind_open, "the header's kinds of the rule "
                             "values (read, conflict, open) differ"),
    "move legal removed": ("move", _drop("legal"), "the turn has no 'legal'"),
    "move legal changed": ("move", lambda d: d.update(legal=d["legal"] + 1),
                           "legal moves, the rules give"),
    "move name removed": ("move", _drop("name"), "the turn has no 'name'"),
    "skip legal removed": ("skip", _drop("legal"), "the turn has no 'legal'"),
    "skip reason changed": ("skip", _set("reason", "six_rule"), "the reason was changed"),
}


@pytest.mark.parametrize("name", list(CHECKED))
def test_every_field_replay_reads_is_checked(tmp_path, recorded, name) -> None:
    kind, change, message = CHECKED[name]
    lines = _edit_first(recorded, kind, change)
    at = next(i for i, (a, b) in enumerate(zip(lines, recorded, strict=True)) if a != b) + 1
    rec = tmp_path / "r.jsonl"
    rec.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = runner.invoke(app, ["replay", str(rec)])
    assert res.exit_code == 1, res.output
    assert message in res.output and f"{rec}:{at}:" in res.output, res.output
    assert "Traceback" not in res.output


#: the fields replay ignores on purpose: informational, each documented as such in the
#: record's schema (and docs/engine.md)
IGNORED: dict[str, tuple[Callable[[dict], None], Callable[[dict], dict]]] = {
    "players bot": (lambda d: d["players"][0].update(bot="random"),
                    lambda s: s["players"]["items"]["properties"]["bot"]),
    "bot_budget": (_set("bot_budget", 7), lambda s: s["bot_budget"]),
    "race": (_set("race", 3), lambda s: s["race"]),
}


@pytest.mark.parametrize("name", list(IGNORED))
def test_the_informational_fields_are_ignored_and_documented(tmp_path, recorded, name
                                                             ) -> None:
    change, where = IGNORED[name]
    rec = tmp_path / "r.jsonl"
    rec.write_text("\n".join(_edit_first(recorded, "header", change)) + "\n",
                   encoding="utf-8")
    res = runner.invoke(app, ["replay", str(rec)])
    assert res.exit_code == 0 and "every move legal" in res.output, res.output
    schema = json.loads((Path(__file__).parents[2] / "schemas" / "game-record.schema.json")
                        .read_text(encoding="utf-8"))
    assert "replay ignores it on purpose" in where(schema["$defs"]["header"]["properties"])[
        "description"]


def test_a_race_with_a_bot_budget_replays(tmp_path) -> None:
    """``race --bot-budget N --record`` writes ``bot_budget`` in the header; the record
    schema had no such key, so replay refused the record the race had just written."""
    rec = tmp_path / "b.jsonl"
    res = runner.invoke(app, ["race", "-r", "2022", "-c", str(OVAL), "-n", "2", "--bots",
                              "search,greedy", "--bot-budget", "2", "--seed", "3",
                              "--record", str(rec)])
    assert res.exit_code == 0, res.output
    assert json.loads(rec.read_text(encoding="utf-8").splitlines()[0])["bot_budget"] == 2
    res = runner.invoke(app, ["replay", str(rec)])
    assert res.exit_code == 0 and "every move legal" in res.output, res.output
