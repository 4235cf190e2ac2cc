"""Every reader of a user's file goes through one opening path (engine/data/safeio.py,
``read_bytes``) that refuses a symbolic link that loops, a FIFO and a device with a located
message and exit 2 — never a traceback or a hang (issue 26). One case per reader: courses,
includes, rulesets, variants, house files, records, a record header's course, the
tournament replay, ``serve --data``, ``--allow-path`` and ``AVECAESAR_ALLOW_PATH``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app

runner = CliRunner()
OVAL = Path(__file__).parents[1] / "core" / "courses" / "oval.yaml"
LOOP = "a symbolic link that loops"
LOCATED = re.compile(r"^(l\.yaml|l\.jsonl|o\.yaml)[^:]*:1:1: a symbolic link that loops", re.M)


@pytest.fixture()
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with ``l.yaml`` and ``l.jsonl``, each a link to itself."""
    monkeypatch.chdir(tmp_path)
    os.symlink("l.yaml", tmp_path / "l.yaml")
    os.symlink("l.jsonl", tmp_path / "l.jsonl")
    return tmp_path


def run(args: list[str], code: int = 2) -> str:
    res = runner.invoke(app, args)
    assert res.exception is None or isinstance(res.exception, SystemExit), (
        f"{args}: {type(res.exception).__name__}: {res.exception}")
    assert res.exit_code == code, (args, res.exit_code, res.output)
    assert "Traceback" not in res.output
    return res.output


READERS = {
    "course": ["course", "validate", "l.yaml"],
    "course --json": ["course", "validate", "l.yaml", "--json"],
    "course render": ["course", "render", "l.yaml"],
    "course new --from": ["course", "new", "X", "--from", "l.yaml", "-o", "x.yaml"],
    "ruleset validate": ["ruleset", "validate", "l.yaml"],
    "ruleset": ["race", "-r", "l.yaml", "-c", str(OVAL)],
    "variant": ["race", "-r", "2022", "-c", str(OVAL), "--variant", "l.yaml"],
    "house file": ["race", "-r", "2022", "-c", str(OVAL), "--house", "l.yaml"],
    "race course": ["race", "-r", "2022", "-c", "l.yaml"],
    "play course": ["play", "-r", "2022", "-c", "l.yaml", "--humans", "Ann"],
    "record": ["replay", "l.jsonl"],
    "tournament record": ["tournament", "-r", "2022", "--replay", "l.jsonl"],
}


@pytest.mark.parametrize("reader", READERS)
def test_every_reader_refuses_a_link_that_loops(here: Path, reader: str) -> None:
    out = run(READERS[reader])
    if "--json" in READERS[reader]:  # the problem as data: file, line, column
        assert '"line": 1' in out and LOOP in out, out
    else:
        assert LOCATED.search(out), out


def test_an_include_that_loops(here: Path) -> None:
    text = OVAL.read_text(encoding="utf-8").replace(
        "  - straight: {name: back, length: 3, walls: [[0, 1]]}",
        "  - include: {file: l.yaml, piece: back}")
    (here / "c.yaml").write_text(text, encoding="utf-8")
    out = run(["course", "validate", "c.yaml"], code=1)
    assert re.search(r"l\.yaml:1:1: " + LOOP, out), out


def test_a_record_whose_course_loops(here: Path) -> None:
    shutil.copy(OVAL, here / "o.yaml")
    run(["race", "-r", "2022", "-c", "o.yaml", "-n", "2", "--seed", "1", "--record",
         "r.jsonl"], code=0)
    (here / "o.yaml").unlink()
    os.symlink("o.yaml", here / "o.yaml")
    out = run(["replay", "r.jsonl"])
    assert LOCATED.search(out), out


def test_serve_data_and_allow_paths_that_loop(here: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    assert f"--data l.yaml: {LOOP}" in run(["serve", "--data", "l.yaml"])
    assert f"--allow-path l.yaml: {LOOP}" in run(["--allow-path", "l.yaml", "course", "list"])
    monkeypatch.setenv("AVECAESAR_ALLOW_PATH", str(here / "l.yaml"))
    assert f"AVECAESAR_ALLOW_PATH names {here / 'l.yaml'}: {LOOP}" in run(
        ["course", "validate", str(OVAL), "--json"])


def test_the_light_path_refuses_a_loop_too(here: Path) -> None:
    """``course validate l.yaml`` without options runs before typer (editor/main.py)."""
    env = {**os.environ, "AVECAESAR_ALLOW_PATH": str(here / "l.yaml")}
    for args, env_ in ((["course", "validate", "l.yaml"], os.environ),
                       (["course", "list"], env)):
        res = subprocess.run([sys.executable, "-m", "avecaesar.editor", *args],
                             capture_output=True, text=True, cwd=here, env=env_, timeout=60)
        assert res.returncode == 2, res.stderr
        assert LOOP in res.stderr and "Traceback" not in res.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")
def test_a_fifo_and_a_device_are_refused_unopened(here: Path) -> None:
    os.mkfifo(here / "f.yaml")
    for args in (["course", "validate", "f.yaml"], ["race", "-r", "2022", "-c", str(OVAL),
                                                    "--house", "f.yaml"],
                 ["replay", "/dev/zero"], ["ruleset", "validate", "/dev/null"]):
        out = run(args)
        assert "not a regular file (a device, FIFO or socket)" in out, out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")
def test_the_servers_data_folder_survives_links_that_loop_and_fifos(tmp_path: Path) -> None:
    """``serve --data``'s records folder is looked through as a whole (the saved games
    listed): a link that loops or a FIFO in it is listed as broken, never a traceback or a
    read that blocks."""
    from avecaesar.editor.web.routes_play import _saves
    from avecaesar.editor.web.storage import Storage
    from avecaesar.editor.web.store import SQLiteStore
    from avecaesar.editor.web.tables import Tables

    store = SQLiteStore(tmp_path / "tables.db")
    storage = Storage(tmp_path, store)
    os.symlink("l.jsonl", storage.saves / "l.jsonl")
    os.mkfifo(storage.saves / "f.jsonl")
    assert {p.name for p in storage.list_saves()} == {"l.jsonl", "f.jsonl"}
    listed = _saves(Tables(storage, store))
    assert {s["record"] for s in listed} == {"l.jsonl", "f.jsonl"}
    assert all(s.get("broken") for s in listed)
    ref = storage.store_course(OVAL.read_text(encoding="utf-8"))
    assert ref.startswith("upload:")
    store.close()
