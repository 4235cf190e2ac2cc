"""Ctrl-C keeps what is finished: ``simulate`` reports the races run so far (marked
partial), ``tournament`` keeps the finished races; no worker outlives ``simulate``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.engine.lab import simulate as sim

runner = CliRunner()
OVAL = str(Path(__file__).parents[1] / "core" / "courses" / "oval.yaml")


def test_ctrl_c_in_simulate_writes_a_partial_report(tmp_path, monkeypatch) -> None:
    calls = {"n": 0}
    real = sim._batch

    def batch(spec, indices, heat, reads=None):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(spec, indices, heat, reads)

    monkeypatch.setattr(sim, "_batch", batch)
    out = tmp_path / "r.json"
    res = runner.invoke(app, ["simulate", "-r", "2022", "-c", OVAL, "-n", "3", "-k", "40",
                              "--workers", "1", "--quiet", "--json", str(out)])
    assert res.exit_code == 130, res.output
    assert "interrupted (Ctrl-C)" in res.output and "PARTIAL" in res.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["partial"] is True and report["races_planned"] == 40
    assert 0 < report["races"] < 40


def test_ctrl_c_in_a_tournament_keeps_the_finished_races(tmp_path, monkeypatch) -> None:
    from avecaesar.engine.core import tournament as tour

    real = tour.run_race
    calls = {"n": 0}

    def run_race(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(tour, "run_race", run_race)
    rec = tmp_path / "t.json"
    res = runner.invoke(app, ["tournament", "-r", "dicetree-2022", "-n", "2", "--record",
                              str(rec)])
    assert res.exit_code == 130, res.output
    assert "1 of 4 races finished" in res.output
    doc = json.loads(rec.read_text(encoding="utf-8"))
    assert doc["partial"] is True and len(doc["races"]) == 1


def _children(pid: int) -> set[int]:
    kids = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.add(int(entry.name))
    return kids


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_for_workers(pid: int) -> set[int]:
    """The worker processes of ``pid`` once two have started (and run for a second)."""
    deadline = time.monotonic() + 30
    workers: set[int] = set()
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
        workers = _children(pid)
    assert len(workers) >= 2, "the workers did not start"
    time.sleep(1)
    return workers


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc (Linux)")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
def test_no_worker_outlives_simulate(tmp_path, sig) -> None:
    out = tmp_path / "r.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "avecaesar.editor", "simulate", "-r", "2022", "-c", OVAL,
         "-n", "3", "-k", "100000", "--workers", "2", "--quiet", "--json", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        workers = _wait_for_workers(proc.pid)
        os.kill(proc.pid, sig)
        _out, err = proc.communicate(timeout=30)
        deadline = time.monotonic() + 10
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(w) for w in workers), "a worker outlived its parent"
        # (the workers share the stderr pipe: communicate() read it until they were gone)
        assert "Traceback" not in err and "BrokenPipeError" not in err, err
        if sig == signal.SIGINT:
            assert proc.returncode == 130, err
            assert "interrupted (Ctrl-C)" in err
            assert json.loads(out.read_text(encoding="utf-8"))["partial"] is True
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


BUSY = """
import time
from avecaesar.engine.lab import simulate as sim
def slow(spec, indices, heat, reads=None):
    time.sleep(120)
    return []
sim._batch = slow
sim.simulate(sim.SimSpec("dicetree-2022", {course!r}, 3, 8), workers=2)
"""


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc (Linux)")
def test_a_busy_worker_exits_when_its_parent_is_killed() -> None:
    """A worker in the middle of a long chunk does not read its queue: it watches for the
    parent instead (``kill -9`` leaves no worker behind)."""
    proc = subprocess.Popen([sys.executable, "-c", BUSY.format(course=OVAL)])
    try:
        workers = _wait_for_workers(proc.pid)
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 10
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(w) for w in workers), "a busy worker outlived its parent"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
