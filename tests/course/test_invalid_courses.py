"""Malformed course files: each gives exit 1, a file:line:col message, and no traceback.

Each file in ``invalid/`` ends with ``# expect: <text the message must contain>`` and
optionally ``# at: line:col`` (where the problem must be reported).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app

INVALID = sorted((Path(__file__).parent / "invalid").glob("*.yaml"))
runner = CliRunner()


def _expectations(path: Path) -> tuple[str, str | None]:
    text = path.read_text(encoding="utf-8")
    expect = re.search(r"^# expect: (.+)$", text, re.M)
    at = re.search(r"^# at: (\d+:\d+)$", text, re.M)
    assert expect, f"{path.name} lacks '# expect:'"
    return expect.group(1).strip(), at.group(1) if at else None


def test_there_are_at_least_30_malformed_courses() -> None:
    assert len(INVALID) >= 30


@pytest.mark.parametrize("path", INVALID, ids=[p.stem for p in INVALID])
def test_malformed_course_is_reported_with_location(path: Path) -> None:
    expect, at = _expectations(path)
    result = runner.invoke(app, ["course", "validate", str(path)])
    out = result.output
    assert result.exit_code == 1, out
    assert result.exception is None or isinstance(result.exception, SystemExit), out
    assert "Traceback" not in out
    assert re.search(rf"{re.escape(str(path))}:\d+:\d+: ", out), out
    assert expect in out, out
    if at:
        assert f"{path}:{at}: " in out, out


@pytest.mark.parametrize("path", INVALID[:5], ids=[p.stem for p in INVALID[:5]])
def test_malformed_course_in_json(path: Path) -> None:
    import json

    result = runner.invoke(app, ["course", "validate", "--json", str(path)])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    problems = data[0]["problems"]
    assert problems and {"file", "line", "column", "message"} <= set(problems[0])


def test_all_problems_are_listed_not_only_the_first(tmp_path: Path) -> None:
    bad = tmp_path / "two.yaml"
    bad.write_text(
        "name: Two problems\nlanes: 3\ntrack:\n  - straight: {name: home, length: 4}\n"
        "  - curve: {name: north, turn: 180, lengths: [4, 5, 6]}\n"
        "  - straight: {name: back, length: 4}\n"
        "  - curve: {name: south, turn: 180, lengths: [4, 5, 6]}\n"
        "finish: {before: hme}\nstart: [back.0.9]\n", encoding="utf-8")
    result = runner.invoke(app, ["course", "validate", str(bad)])
    assert result.exit_code == 1
    assert f"{bad}:8:" in result.output and f"{bad}:9:" in result.output


def test_unknown_bundled_id_suggests_and_lists() -> None:
    result = runner.invoke(app, ["course", "validate", "no-such/course"])
    assert result.exit_code == 2  # usage
    assert "unknown course 'no-such/course'" in result.output
    assert "Known courses" in result.output
