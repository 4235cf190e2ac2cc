"""Shell completion of the project's names (editor/cli/complete.py), asked as bash and zsh
ask it (typer's protocol: the program run with ``_AVECAESAR_COMPLETE``); ``-V``; piped
``simulate`` output is the report only."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CLI = Path(sys.executable).parent / "avecaesar"

pytestmark = pytest.mark.skipif(not CLI.exists(), reason="the console script is not installed")


def _bash(words: str) -> list[str]:
    env = {**os.environ, "_AVECAESAR_COMPLETE": "complete_bash", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}
    out = subprocess.run([str(CLI)], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


@pytest.mark.parametrize(("words", "want"), [
    ("avecaesar race --course dicetree-2022/arena-c", ["dicetree-2022/arena-carthago"]),
    ("avecaesar play -c homebrew/", ["homebrew/constantinople", "homebrew/four-abreast",
                                      "homebrew/narrow-neck", "homebrew/rome",
                                      "homebrew/short-and-tight"]),
    ("avecaesar course validate ravensburger-1989/a-", ["ravensburger-1989/a-blue",
                                                         "ravensburger-1989/a-white"]),
    ("avecaesar course render pro-ludo-2006/circus-m", ["pro-ludo-2006/circus-maximus"]),
    ("avecaesar ruleset show 20", ["2006", "2022"]),
    ("avecaesar race -r dicetree-20", ["dicetree-2022"]),
    ("avecaesar play --variant four", ["four-hand-cards"]),
    ("avecaesar simulate --bots search,gr", ["search,greedy"]),
    ("avecaesar tournament --bots ran", ["random"]),
])
def test_ids_complete(words: str, want: list[str]) -> None:
    got = _bash(words)
    assert got == want or set(want) <= set(got), got


def test_version_short_and_long() -> None:
    for flag in ("-V", "--version"):
        out = subprocess.run([str(CLI), flag], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0 and out.stdout.startswith("avecaesar "), out


def test_piped_simulate_prints_the_report_only() -> None:
    out = subprocess.run([str(CLI), "simulate", "--ruleset", "2022", "--course",
                          "dicetree-2022/arena-carthago", "--races", "3", "--workers", "1"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0].startswith("3 races · "), out.stdout[:200]
    assert "racing" not in out.stdout and "racing" not in out.stderr


def test_course_validate_json_is_as_documented(tmp_path: Path) -> None:
    """One JSON array, one object per course checked, with exactly the documented keys."""
    import json
    import re

    doc = (Path(__file__).resolve().parents[2] / "docs" / "course-format.md").read_text(
        encoding="utf-8")
    table = doc.split("`--json` prints **one JSON array**", 1)[1].split("\n\n", 2)[1]
    keys = re.findall(r"^\| `(\w+)` \|", table, re.M)
    assert keys == ["course", "name", "file", "direction", "valid", "figures", "rules",
                    "problems"]
    out = subprocess.run([str(CLI), "course", "validate", "homebrew/rome",
                          "dicetree-2022/arena-carthago", "--json"], capture_output=True,
                         text=True, timeout=120)
    data = json.loads(out.stdout)
    assert isinstance(data, list) and [d["course"] for d in data] == [
        "homebrew/rome", "dicetree-2022/arena-carthago"]
    for entry in data:
        assert list(entry) == keys
        assert "docs/sources.md" in entry["rules"]
    assert out.returncode == 1  # Rome is not finishable on 84 points
