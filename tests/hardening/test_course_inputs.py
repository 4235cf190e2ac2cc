"""Bad course inputs end in a located message and exit 1 (a problem in the file) or 2 (a
file that cannot be read at all) — quickly, with no traceback, never quoting a file that is
not a course."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.engine.course.load import load_courses

runner = CliRunner()
COURSES = Path(__file__).parents[1] / "course"
VALID = COURSES / "valid"
OVAL = (VALID / "alley.yaml").read_text(encoding="utf-8")


def validate(*args: str):
    start = time.perf_counter()
    r = runner.invoke(app, ["course", "validate", *args])
    assert time.perf_counter() - start < 10, "no input may take this long to refuse"
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


BOMB = "".join(f"{c}: &{c} [{', '.join([f'*{p}'] * 9)}]\n"
               for p, c in zip("abcdefgh", "bcdefghi", strict=True))


@pytest.mark.parametrize("text, message", [
    ("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + BOMB,
     "expands to over 200,000 values through its aliases"),
    ("x: " + "[" * 60 + "]" * 60 + "\n", "nested"),
    (OVAL.replace("length: 9}", "length: 100000}"), "100000 is greater than the maximum of 60"),
    (OVAL.replace("spaces: 4,", "spaces: 100000,"), "greater than the maximum of 60"),
    (OVAL.replace("turn: 180, lengths: [4, 5, 6]", "turn: .nan, lengths: [4, 5, 6]", 1),
     "not a finite number"),
    (OVAL.replace("turn: 180, lengths: [4, 5, 6]", "turn: -.inf, lengths: [4, 5, 6]", 1),
     "not a finite number"),
])
def test_hostile_yaml_is_refused_at_once(tmp_path: Path, text: str, message: str) -> None:
    f = tmp_path / "c.yaml"
    f.write_text(text, encoding="utf-8")
    r = validate(str(f))
    assert r.exit_code == 1, r.output
    assert message in r.output and f"{f}:" in r.output


def test_too_many_spaces_over_modules_are_refused(tmp_path: Path) -> None:
    pieces = "".join(f"  - straight: {{name: s{i}, length: 60}}\n" for i in range(60))
    f = tmp_path / "long.yaml"
    f.write_text(OVAL.replace("track:\n", "track:\n" + pieces, 1), encoding="utf-8")
    r = validate(str(f))
    assert r.exit_code == 1 and "the limit is 3,000" in r.output, r.output


def test_a_file_over_the_size_limit_is_not_read(tmp_path: Path) -> None:
    f = tmp_path / "big.yaml"
    f.write_text(OVAL + "#" * 1_100_000 + "\n", encoding="utf-8")
    r = validate(str(f))
    assert r.exit_code == 2 and "the limit is 1,000,000 bytes" in r.output, r.output


@pytest.mark.parametrize("make, message", [
    (lambda p: p.mkdir(), "this is a folder"),
    (lambda p: os.mkfifo(p), "not a regular file"),
    (lambda p: p.write_bytes(b"name: \xff\xfe\n"), "not UTF-8 text"),
    (lambda p: None, "no such file"),
])
def test_only_regular_utf8_files_are_read(tmp_path: Path, make, message: str) -> None:
    p = tmp_path / "c.yaml"
    make(p)
    r = validate(str(p))
    assert r.exit_code == 2 and message in r.output, r.output


def test_devices_are_refused_without_reading() -> None:
    r = validate("/dev/zero")
    assert r.exit_code == 2 and "not a regular file" in r.output


def test_errors_never_quote_a_file_that_is_not_a_course(tmp_path: Path) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("root:x:0:0:the-secret-first-line\n", encoding="utf-8")
    for args in (["course", "validate", str(secret)], ["ruleset", "validate", str(secret)],
                 ["ruleset", "show", str(secret)],
                 ["race", "-r", "2022", "-c", str(secret)]):
        r = runner.invoke(app, args)
        assert r.exit_code in (1, 2) and "the-secret" not in r.output, (args, r.output)


def test_an_include_may_not_leave_the_courses_folder(tmp_path: Path) -> None:
    inside = tmp_path / "mine"
    inside.mkdir()
    (tmp_path / "secret.yaml").write_text("pieces: {x: {lanes: 3, track: []}}\n")
    course = inside / "c.yaml"
    course.write_text(OVAL.replace("  - straight: {name: run, length: 2}\n",
                                   "  - include: {file: ../secret.yaml, piece: x}\n"))
    r = validate(str(course))
    assert r.exit_code == 1 and "outside the course's folder" in r.output, r.output
    r = runner.invoke(app, ["--allow-path", str(tmp_path), "course", "validate", str(course)])
    assert "outside the course's folder" not in r.output
    r = runner.invoke(app, ["--allow-path", str(tmp_path / "nope"), "course", "list"])
    assert r.exit_code == 2 and "no such folder" in r.output


def test_an_alley_may_span_the_finish_line() -> None:
    """Entered once from the track, left once, one lane: the race must stop in it."""
    for c in load_courses(VALID / "alley-over-line.yaml"):
        g = c.graph
        alley = g.graph["alley"]
        assert len(alley) == 5
        enters = [(u, v) for u, v, a in g.edges(data="alley") if a == "enter"]
        exits = [(u, v) for u, v, a in g.edges(data="alley") if a == "exit"]
        assert len(enters) == 1 and len(exits) == 1
        # one lane: each alley space steps straight on to the next one
        order = [enters[0][1]]
        while order[-1] != exits[0][0]:
            nxt = [v for v in g.successors(order[-1]) if v in alley]
            assert len(nxt) == 1
            order.append(nxt[0])
        assert sorted(order) == sorted(alley)
        figs = c.figures()
        assert figs.alley_extra is not None and figs.alley_extra > 0 and figs.finishable
        assert not c.errors
    r = validate(str(VALID / "alley-over-line.yaml"))
    assert r.exit_code == 0, r.output


def test_an_alley_written_the_wrong_way_round_is_a_warning_that_says_so() -> None:
    r = validate(str(COURSES / "alley-wraps-round.yaml"))
    assert "if you meant the alley from 'north' to 'back', swap 'from' and 'to'" in r.output


def test_a_course_without_an_alley_is_a_problem_where_the_stop_is_required() -> None:
    r = validate(str(VALID / "oval.yaml"))
    assert r.exit_code == 1 and "no Imperial alley" in r.output
    r = validate(str(VALID / "oval.yaml"), "--ruleset", "2022", "--variant", "alley-race-card")
    assert r.exit_code == 0, r.output


def test_an_alley_that_cannot_be_stopped_in_during_the_laps_that_count() -> None:
    """Rule values under which the stop cannot be made (only in a lap the race does not
    have): no start place finishes, and the problem names the alley, not the deck."""
    from avecaesar.engine.course.figures import RaceFigures

    c = load_courses(VALID / "alley.yaml")[0]
    rules = RaceFigures(laps=1, alley_laps=(2,), source="test rules")
    figs = c.figures(rules)
    assert figs.shortest_race == [None] * 4
    problems = c.rule_problems(figs, rules)
    assert [p.message for p in problems if "cannot be stopped in during lap 2" in p.message]
    assert all(p.line == 14 for p in problems)  # the alley's line
