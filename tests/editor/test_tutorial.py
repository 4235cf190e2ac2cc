"""docs/tutorial.md, followed as a reader does: every command's printed output is what the
tutorial shows.

The tutorial is read in order. A ``yaml`` block is an edit of the file being worked on (the
last one ``course new`` wrote): a piece line replaces the piece of the same name (its
``{…}``, the comment after it kept), a top-level key replaces that key's line, or is added
at the end when the file has none. A ``console`` block's ``$`` lines run in one scratch
folder, in order, and what they print (standard output and error, as a terminal shows them)
must match the lines shown after them: ``…`` alone on a line stands for any lines, ``(…)``
for any text within a line. Synopsis lines (``<a variant>``) are not run.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial.md"
BIN = Path(sys.executable).parent

pytestmark = pytest.mark.skipif(shutil.which("rsvg-convert") is None
                                or not (BIN / "avecaesar").exists(),
                                reason="needs librsvg's rsvg-convert and the installed command")


def _blocks(text: str) -> list[tuple[str, list[str]]]:
    """(kind, lines) of every fenced block, in order."""
    out: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    kind = ""
    for line in text.splitlines():
        if line.startswith("```"):
            if current is None:
                kind, current = line.strip("`").strip(), []
            else:
                out.append((kind, current))
                current = None
        elif current is not None:
            current.append(line)
    return out


def _edit(path: Path, block: list[str]) -> None:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    added: list[str] = []
    i = 0
    while i < len(block):
        line = block[i]
        piece = re.match(r"^\s*- (\w+): (\{name: ([\w-]+),.*\})\s*$", line)
        key = re.match(r"^(\w+):", line)
        if piece:
            name = piece[3]
            at = next(k for k, old in enumerate(lines) if f"{{name: {name}," in old)
            lines[at] = re.sub(r"- \w+: \{.*?\}(?=\s*(#|$))", f"- {piece[1]}: {piece[2]}",
                               lines[at], count=1)
        elif key:
            body = [line]
            while i + 1 < len(block) and block[i + 1].startswith(" "):
                i += 1
                body.append(block[i])
            at = next((k for k, old in enumerate(lines) if old.startswith(f"{key[1]}:")), None)
            if at is None:
                added += body
            else:
                assert len(body) == 1, "a multi-line key replaces no line"
                lines[at] = line
        i += 1
    path.write_text("\n".join(lines + added) + "\n", encoding="utf-8")


def _matches(shown: list[str], got: list[str]) -> bool:
    """Whether ``got`` is what ``shown`` shows (``…`` lines, ``(…)`` within lines)."""
    def line_ok(pattern: str, line: str) -> bool:
        parts = [re.escape(p) for p in pattern.split("(…)")]
        return re.fullmatch("(.*)".join(parts), line) is not None

    def walk(i: int, j: int) -> bool:
        if i == len(shown):
            return j == len(got)
        if shown[i].strip() == "…":
            return any(walk(i + 1, k) for k in range(j, len(got) + 1))
        return j < len(got) and line_ok(shown[i], got[j]) and walk(i + 1, j + 1)

    return walk(0, 0)


def _steps(text: str) -> list[tuple[str, object]]:
    """("edit", lines) and ("run", (command, shown lines)) in the tutorial's order."""
    steps: list[tuple[str, object]] = []
    for kind, lines in _blocks(text):
        if kind == "yaml":
            steps.append(("edit", lines))
        elif kind == "console":
            for line in lines:
                if line.startswith("$ "):
                    steps.append(("run", [line[2:], []]))
                elif steps and steps[-1][0] == "run":
                    steps[-1][1][1].append(line)  # type: ignore[index]
    return steps


def test_the_tutorial_prints_what_it_shows(tmp_path: Path) -> None:
    steps = _steps(TUTORIAL.read_text(encoding="utf-8"))
    assert sum(kind == "run" for kind, _ in steps) >= 12
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    editing: Path | None = None
    ran = 0
    for kind, what in steps:
        if kind == "edit":
            assert editing is not None, "an edit before any file was written"
            _edit(editing, what)  # type: ignore[arg-type]
            continue
        command, shown = what  # type: ignore[misc]
        if "<" in command or not command.startswith("avecaesar "):
            continue  # a synopsis (`--variant <a variant>`)
        words = shlex.split(command, comments=True)
        done = subprocess.run(words, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=300, check=False)
        got = done.stdout.rstrip("\n").splitlines()
        assert _matches(shown, got), (f"`{command}` printed:\n" + "\n".join(got)
                                      + "\n\nthe tutorial shows:\n" + "\n".join(shown))
        ran += 1
        if words[1:3] == ["course", "new"]:
            editing = tmp_path / next(w for w in reversed(words) if w.endswith(".yaml")
                                      or not w.startswith("-"))
            if editing.suffix != ".yaml":
                editing = tmp_path / (re.sub(r"[^a-z0-9]+", "-", editing.name.lower())
                                      .strip("-") + ".yaml")
    assert ran >= 12


def test_the_matcher_can_fail() -> None:
    assert _matches(["a", "…", "c (…) d"], ["a", "x", "y", "c zz d"])
    assert not _matches(["a", "b"], ["a", "c"])
    assert not _matches(["a"], ["a", "extra"])
