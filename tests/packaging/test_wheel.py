"""Packaging: the wheel builds without warnings, holds every data file, and works outside
the repository (installed into a folder of its own, run from a folder of its own).

Builds the wheel with pip's build isolation as ``pip install .`` does (~10 s; verbose, so
setuptools' own warnings show), installs it
with ``--target`` (the dependencies are this environment's), and runs the CLI and the notebook
display from a temporary folder. Marked ``wheel`` (``pytest -m "not wheel"`` skips it).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.wheel,
    pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                       reason="needs the git checkout to copy the sources"),
]

#: the one warning pip prints here that is not the project's: the machine's pip config
#: names an extra index folder that does not exist
NOT_OURS = "is ignored: it is neither a file nor a directory"


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None,
         timeout: int = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """(the wheel, pip's output while building it) from a copy of the sources."""
    tmp = tmp_path_factory.mktemp("wheel")
    files = _run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                 ROOT).stdout.split("\0")
    src = tmp / "src"
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    # -v shows the build backend's own output (setuptools' warnings, such as a data folder
    # absent from `packages`); with bytecode writing off, distutils says it skips compiling
    # AVECAESAR_PURE=1: the packaging is checked here, not the mypyc compile of the hot
    # path (make setup builds and smoke-tests that, tests/core/test_native.py checks it;
    # with -v the compile's gcc lines, full of -W flags, would swamp this check, and it
    # would cost 1.5-2.5 min)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["AVECAESAR_PURE"] = "1"
    out = _run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w",
                str(tmp / "whl"), str(src)], tmp, env)
    assert out.returncode == 0, out.stdout + out.stderr
    wheels = list((tmp / "whl").glob("avecaesar-*.whl"))
    assert len(wheels) == 1
    return wheels[0], out.stdout + out.stderr


def test_building_prints_no_warning(built: tuple[Path, str]) -> None:
    _, output = built
    warnings = [line for line in output.splitlines()
                if "warn" in line.lower() and NOT_OURS not in line]
    assert warnings == []


def test_the_wheel_holds_every_data_file(built: tuple[Path, str]) -> None:
    wheel, _ = built
    names = set(zipfile.ZipFile(wheel).namelist())
    data = [p for folder in ("rulesets", "courses", "schemas", "vectors")
            for p in (ROOT / folder).rglob("*") if p.is_file() and p.suffix in (".yaml", ".json")]
    data.append(ROOT / "vectors" / "README.md")  # the vectors' format, for implementers
    data += [p for p in (ROOT / "editor" / "web" / "static").iterdir()
             if p.suffix in (".html", ".js", ".css")]
    data += list((ROOT / "editor" / "render").glob("*.json"))  # the players' words
    assert data
    expected = {"avecaesar/" + str(p.relative_to(ROOT)) for p in data}
    assert sorted(expected - names) == []


def test_the_wheel_works_outside_the_repository(built: tuple[Path, str],
                                                tmp_path: Path) -> None:
    wheel, _ = built
    target = tmp_path / "site"
    out = _run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                str(target), str(wheel)], tmp_path)
    assert out.returncode == 0, out.stderr
    here = tmp_path / "elsewhere"
    here.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}
    cli = [str(target / "bin" / "avecaesar")]

    where = _run([sys.executable, "-c", "import avecaesar; print(avecaesar.__file__)"], here, env)
    assert where.stdout.strip().startswith(str(target)), where.stdout + where.stderr

    course = _run([*cli, "course", "validate", "dicetree-2022/circus-maximus"], here, env)
    assert course.returncode == 0, course.stdout + course.stderr
    assert str(target) in course.stdout and "finishable on the deck" in course.stdout

    german = _run([*cli, "race", "-r", "2022", "-c", "dicetree-2022/circus-maximus", "-n",
                   "2", "--lang", "de"], here, env)
    assert german.returncode == 0 and "Ergebnis:" in german.stdout, german.stderr
    race = _run([*cli, "race", "-r", "dicetree-2022", "-c", "dicetree-2022/circus-maximus",
                 "-n", "3", "--json", "--record", "race.jsonl"], here, env)
    assert race.returncode == 0, race.stdout + race.stderr
    assert json.loads(race.stdout)["termination"] == "finished"
    replay = _run([*cli, "replay", "race.jsonl"], here, env)
    assert replay.returncode == 0 and "every move legal" in replay.stdout

    # every bundled YAML names its schema relative to itself: it resolves in the package too
    for path in [*(target / "avecaesar" / "rulesets").rglob("*.yaml"),
                 *(target / "avecaesar" / "courses").rglob("*.yaml")]:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        ref = first.removeprefix("# yaml-language-server: $schema=")
        assert ref != first and (path.parent / ref).resolve().is_file(), (path, first)
    new = _run([*cli, "course", "new", "via.yaml"], here, env)
    first = (here / "via.yaml").read_text(encoding="utf-8").splitlines()[0]
    ref = first.removeprefix("# yaml-language-server: $schema=")
    assert new.returncode == 0 and not ref.startswith(("/", "file:"))
    assert (here / ref).resolve() == (target / "avecaesar" / "schemas" /
                                      "course.schema.json").resolve()

    # the published vectors check from the wheel alone: a house file's suite (its file in
    # the wheel's rulesets/examples), a suite on a course file of the vectors' own (the
    # test oval) and a 1989 board's
    vectors = _run([*cli, "vectors", "check", "--suite", "house-no-1-in-a-curve", "--suite",
                    "six-rule-examples-1989", "--suite", "ravensburger-1989-a-white"], here,
                   env)
    assert vectors.returncode == 0, vectors.stdout + vectors.stderr
    assert re.search(r"^\d+ vectors in 3 files pass", vectors.stdout, re.M), vectors.stdout

    bundled = sorted(str(p) for p in (target / "avecaesar" / "rulesets").rglob("*.yaml"))
    rulesets = _run([*cli, "ruleset", "validate", *bundled], here, env)
    assert rulesets.returncode == 0, rulesets.stdout + rulesets.stderr

    shown = _run([sys.executable, "-c", (
        "from avecaesar.engine import load_course, load_ruleset\n"
        "print(load_course('dicetree-2022/circus-maximus')._repr_svg_()[:4])\n"
        "print(repr(load_ruleset('dicetree-2022')))")], here, env)
    from avecaesar.engine import load_ruleset

    assert shown.stdout.splitlines() == ["<svg", repr(load_ruleset("dicetree-2022"))], \
        shown.stdout + shown.stderr
