"""Every command shown in README.md and docs/*.md runs as written.

The code blocks are read from the files themselves. Each ``avecaesar`` line runs in a fresh
folder that sees the checkout's data (in file order, so the tutorial's file exists when it is
validated) and must exit 0 — or 1 where the text says the course is not finishable or shows
an error. Exceptions, each named here: synopsis lines (``--ruleset R [--variant V…]``) are
checked for their options only, and so are ``serve`` (a server that runs until stopped) and
``play`` (people at the keyboard); simulations run CI-sized (tests/short_run.py: 20 races
instead of thousands, 10 screened, one process); ``make``,
``pip`` and ``dask`` lines are checked against the Makefile, pyproject.toml and ``dask
worker --help`` (a real cluster is not started in CI).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("short_run", ROOT / "tests" / "short_run.py")
assert _spec is not None and _spec.loader is not None
_short = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_short)
short_run = _short.short_run
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
runner = CliRunner()
SYNOPSIS = re.compile(r"\[|…|<|\b(R|C|N|S|V|FILE|ADDR|KEY|P)\b")


def _sections(doc: Path) -> list[tuple[str, str]]:
    """``doc`` cut at its ``## `` headings outside code blocks: (heading, text), the text
    before the first heading under ``""``."""
    found: list[tuple[str, list[str]]] = [("", [])]
    fenced = False
    for line in doc.read_text(encoding="utf-8").splitlines(keepends=True):
        fenced = fenced != line.startswith("```")
        if not fenced and line.startswith("## "):
            found.append((line[3:].strip(), []))
        found[-1][1].append(line)
    return [(heading, "".join(lines)) for heading, lines in found]


def _commands(text: str) -> list[tuple[str, list[str]]]:
    """(command, lines of output shown after it) for every command in the blocks of a
    Markdown text."""
    found: list[tuple[str, list[str]]] = []
    for block in _blocks(text):
        text = re.sub(r"\\\n\s*", " ", block)
        for line in text.splitlines():
            s = line.strip()
            s = s[2:] if s.startswith("$ ") else s
            if re.match(r"(\.venv/bin/)?avecaesar |make |pip |dask |cp ", s):
                found.append((s, []))
            elif found and line.strip() and not line.startswith(("#", "```")):
                found[-1][1].append(line)
    return found


def _blocks(text: str) -> list[str]:
    """The shell and console code blocks of a Markdown text (fences toggled line by line)."""
    blocks: list[str] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("```"):
            if current is None:
                current = [] if line.strip("`").strip() in ("", "sh", "bash", "console") \
                    else None
                if current is None:
                    current = ["<other>"]
            else:
                if current[:1] != ["<other>"]:
                    blocks.append("\n".join(current) + "\n")
                current = None
        elif current is not None:
            current.append(line)
    return blocks


ALL = [(doc.name, cmd, shown) for doc in DOCS
       for cmd, shown in _commands(doc.read_text(encoding="utf-8"))]


def test_the_docs_show_commands() -> None:
    names = {name for name, _c, _s in ALL}
    assert {"README.md", "tutorial.md", "simulation.md"} <= names
    assert len(ALL) >= 25


def _args(cmd: str) -> list[str]:
    """The command's words after the program."""
    return shlex.split(cmd, comments=True)[1:]


def _expected_code(cmd: str, shown: list[str]) -> int:
    said = " ".join([cmd, *shown])
    if "not finishable" in said.lower():
        return 1
    if any(re.search(r":\d+:\d+: (?!warning)", s) for s in shown):
        return 1
    return 0


def _workdir(tmp: Path) -> Path:
    for name in ("courses", "rulesets", "schemas", "tests"):
        (tmp / name).symlink_to(ROOT / name)
    (tmp / "docs" / "img").mkdir(parents=True)
    (tmp / "docs" / "examples").symlink_to(ROOT / "docs" / "examples")
    return tmp


def _simulation(cmd: str) -> bool:
    """A simulation that runs (not a synopsis line): ``simulate``, ``balance``, ``course
    balance``. Its outputs are read by no later command, so it runs as a case of its own."""
    words = _args(cmd)
    return (cmd.split()[0].endswith("avecaesar") and not SYNOPSIS.search(cmd.split("#")[0])
            and "--cluster" not in cmd and any(words[:len(p)] == p for p in _short.POOLED))


def _cases() -> list[tuple[str, Path, list[tuple[str, list[str]]]]]:
    """(id, doc, commands) per section of every doc but the tutorial: the section's
    commands in order in one folder (a command may work on a file an earlier one wrote),
    each simulation apart — after the section's earlier commands that are not simulations
    (``course new``, ``cp``: the files it may read)."""
    cases = []
    for doc in DOCS:
        if doc.name == "tutorial.md":
            continue
        for heading, text in _sections(doc):
            name = f"{doc.name}#{re.sub(r'[^a-z0-9]+', '-', heading.lower()).strip('-') or 'top'}"
            commands = _commands(text)
            sims = [i for i, (cmd, _shown) in enumerate(commands) if _simulation(cmd)]
            rest = [c for i, c in enumerate(commands) if i not in sims]
            if rest:
                cases.append((name, doc, rest))
            for n, i in enumerate(sims, 1):
                setup = [c for j, c in enumerate(commands[:i]) if j not in sims
                         and c[0].split()[0].endswith(("avecaesar", "cp"))]
                cases.append((f"{name}:{n}", doc, [*setup, commands[i]]))
    return cases


# docs/tutorial.md is followed step by step, with its file edits, and every command's whole
# output compared with the text, by tests/editor/test_tutorial.py
@pytest.mark.parametrize(("doc", "commands"), [c[1:] for c in _cases()],
                         ids=[c[0] for c in _cases()])
def test_every_command_in_the_doc_runs_as_written(doc: Path, commands: list[tuple[str, list[str]]],
                                                  tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(_workdir(tmp_path))
    for cmd, shown in commands:
        program = cmd.split()[0]
        if program == "make":
            target = cmd.split()[1]
            assert re.search(rf"^{target}:", (ROOT / "Makefile").read_text(), re.M), cmd
            continue
        if program == "cp":  # a file the next commands work on (the tutorial's copy)
            src, dst = shlex.split(cmd)[1:3]
            shutil.copy(src, dst)
            continue
        if program == "pip":
            extra = re.search(r"\.\[(\w+)\]", cmd)
            assert extra and f"{extra.group(1)} = [" in (ROOT / "pyproject.toml").read_text()
            continue
        if program == "dask":
            dask = Path(sys.executable).with_name("dask")
            if not dask.exists():
                pytest.skip("dask is not installed")
            sub = cmd.split()[1]
            options = [w for w in cmd.split() if w.startswith("--")]
            help_text = subprocess.run([str(dask), sub, "--help"], capture_output=True,
                                       text=True, timeout=60).stdout
            for option in options:
                assert option in help_text, f"{cmd}: dask {sub} has no {option}"
            continue
        interactive = _args(cmd)[:1] in (["serve"], ["play"])  # a server, people at a table
        if SYNOPSIS.search(cmd.split("#")[0]) or "--cluster" in cmd or interactive:
            args = _args(cmd.replace("…", " "))
            sub = [w for w in args[:2] if not w.startswith("-") and w.isalpha()]
            help_text = runner.invoke(app, [*sub, "--help"], terminal_width=200).output
            for w in args:
                if w.startswith("--"):
                    assert w.split("=")[0] in help_text, f"{doc.name}: {cmd}: no option {w}"
            continue
        res = runner.invoke(app, short_run(_args(cmd)), env={"COLUMNS": "200"})
        want = _expected_code(cmd, shown)
        assert res.exit_code == want, f"{doc.name}: {cmd}\n{res.output[-800:]}"
        assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
        for line in shown:
            if re.search(r":\d+:\d+: ", line):  # a shown problem is the one reported
                assert line.strip() in res.output, f"{cmd}: {line}\n{res.output}"


def test_make_setup_says_how_to_type_avecaesar() -> None:
    """The tutorial types a bare ``avecaesar``: ``make setup`` prints the PATH line and the
    tutorial says so."""
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert 'export PATH="$(CURDIR)/$(BIN):$$PATH"' in make or "activate" in make
    tutorial = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    assert ".venv/bin" in tutorial and "PATH" in tutorial
    assert os.sep == "/"  # the printed line is for a POSIX shell
