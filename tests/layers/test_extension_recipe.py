"""Issue 25: a newcomer follows docs/architecture.md's "Extension points" in a scratch copy of
the repository — a toy bot, a toy course check (with the example course that trips it) and a
toy command, each one file plus one registry line and its line of docs — and the registry
and layer tests pick all three up and pass there.

The copy is imported instead of the installed package: its folders are linked as the package
``avecaesar`` on ``PYTHONPATH`` (found before the editable install's finder), pure Python.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

TOY_BOT = '''"""A toy bot: the first legal move."""

from avecaesar.engine.core.race import Policy


def toy_policy(seed: int) -> Policy:
    """The first legal move, whatever the seed."""
    return lambda state, legal: next(iter(legal))
'''

TOY_CHECK = '''"""A toy course check: a course needs at most five lanes."""

from avecaesar.engine.course.checking import Compiled
from avecaesar.engine.data.errors import Problem


def at_most_five_lanes(c: Compiled) -> list[Problem]:
    """A board wider than five lanes does not fit the table."""
    if c.model.lanes <= 5:
        return []
    return [c.finish.problem(f"{c.model.lanes} lanes: the toy check allows five")]
'''

TOY_COMMAND = '''"""``avecaesar toy``: a toy command."""

from typing import Annotated

import typer


def toy(name: Annotated[str, typer.Option(help="Whom to greet.")] = "Caesar") -> None:
    """Greet someone.

    Example: avecaesar toy --name Brutus
    """
    typer.echo(f"Ave, {name}!")
'''


def _copy_repository(dst: Path) -> None:
    """The working tree's files (committed or not, nothing ignored) as they are now."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        src = ROOT / rel
        if src.is_file() and not src.is_symlink():
            (dst / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / rel)


def _package(scratch: Path) -> Path:
    """``scratch/pkg/avecaesar``: the copy's folders linked as the import package."""
    pkg = scratch / "pkg" / "avecaesar"
    pkg.mkdir(parents=True)
    for f in (scratch / "src" / "avecaesar").glob("*.py"):
        (pkg / f.name).symlink_to(f)
    for d in ("engine", "editor", "rulesets", "courses", "schemas"):
        (pkg / d).symlink_to(scratch / d)
    return pkg.parent


def _insert_after(path: Path, anchor: str, line: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert anchor in text, (path, anchor)
    path.write_text(text.replace(anchor, anchor + line, 1), encoding="utf-8")


def _follow_the_recipe(s: Path) -> None:
    # a bot: one file, one BOTS line, one line of docs
    (s / "engine/bots/toy.py").write_text(TOY_BOT, encoding="utf-8")
    _insert_after(s / "engine/bots/registry.py", "BOTS: tuple[Bot, ...] = (\n",
                  '    Bot("toy", "the first legal move", '
                  '"avecaesar.engine.bots.toy:toy_policy"),\n')
    engine_md = s / "docs/engine.md"
    engine_md.write_text(engine_md.read_text(encoding="utf-8")
                         + "\n- `toy`: plays the first legal move.\n", encoding="utf-8")
    # a course check: one file, one CHECKS line, the example course that trips it
    (s / "engine/course/toy_check.py").write_text(TOY_CHECK, encoding="utf-8")
    _insert_after(s / "engine/course/checks.py", "CHECKS: tuple[CourseCheck, ...] = (\n",
                  '    CourseCheck("toy-lanes", "at most five lanes", '
                  '"avecaesar.engine.course.toy_check:at_most_five_lanes"),\n')
    example = (s / "tests/core/courses/oval.yaml").read_text(encoding="utf-8")
    example = re.sub(r"^lanes: 3", "lanes: 6", example, flags=re.M)
    example = re.sub(r"lengths: \[4, 6, 8\]", "lengths: [4, 6, 8, 10, 12, 14]", example)
    (s / "tests/course/invalid/toy-six-lanes.yaml").write_text(
        example + "# expect: 6 lanes: the toy check allows five\n", encoding="utf-8")
    # a command: one file, one COMMANDS line, one row of the README's table
    (s / "editor/cli/toy.py").write_text(TOY_COMMAND, encoding="utf-8")
    _insert_after(s / "editor/commands.py", "COMMANDS: tuple[Command, ...] = (\n",
                  '    Command(("toy",), "Greet someone.", "avecaesar.editor.cli.toy:toy"),\n')
    readme = s / "README.md"
    _insert_after(readme, "| command | what it does |\n|---|---|\n",
                  "| `toy [--name N]` | greets someone |\n")


def test_a_toy_bot_check_and_command_are_picked_up(tmp_path: Path) -> None:
    scratch = tmp_path / "repo"
    _copy_repository(scratch)
    _follow_the_recipe(scratch)
    env = {**os.environ, "PYTHONPATH": str(_package(scratch)), "AVECAESAR_PURE": "1",
           "PYTHONDONTWRITEBYTECODE": "1"}
    for outer in ("PYTEST_XDIST_WORKER", "PYTEST_ADDOPTS"):  # the copy's own run, not ours
        env.pop(outer, None)
    run = [sys.executable, "-m", "avecaesar.editor.registry_docs"]  # the docs step
    docs = subprocess.run(run, cwd=scratch, env=env, capture_output=True, text=True,
                          timeout=300)
    assert docs.returncode == 0, docs.stderr
    probe = subprocess.run([sys.executable, "-c", "import avecaesar.engine.bots.toy as t; "
                            "print(t.__file__)"], cwd=scratch, env=env, capture_output=True,
                           text=True, timeout=120)
    assert probe.stdout.strip().startswith(str(scratch)), probe  # the copy, not the install
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rA", "-p",
         "no:xdist", "tests/layers/test_registries.py", "tests/layers/test_layers.py",
         "tests/course/test_invalid_courses.py",
         # each test that runs an entry, for the toys' entries (bot:toy under every edition,
         # check:toy-lanes, command:toy and its example, the invalid course), and every test
         # of a whole registry or of the import graph
         "-k", "toy or current or unique or not_run_by or test_layers"],
        cwd=scratch, env=env, capture_output=True, text=True, timeout=900)
    out = tests.stdout + tests.stderr
    assert tests.returncode == 0, out[-4000:]
    for picked in ("[toy-ravensburger-1989]", "[toy-lanes]", "[toy]", "toy-six-lanes",
                   "test_every_example_runs_as_written"):
        assert picked in out, f"{picked} was not run: {out[-3000:]}"
    assert "avecaesar toy" in (scratch / "docs/architecture.md").read_text(encoding="utf-8")
