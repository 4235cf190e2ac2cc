"""SIGINT, SIGTERM and SIGHUP each stop a long command the way Ctrl-C does (issue 26):
sent to the command's process group (as a terminal or a service manager sends them) in the
middle of real work — once the command has spent seconds of CPU on it —, each leaves the
partial result on disk, marked, exits 128 + the signal's number, prints no traceback (no
``BrokenPipeError`` from a worker) and leaves no temporary file behind."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

OVAL = str(Path(__file__).parents[1] / "core" / "courses" / "oval.yaml")
SIGNALS = [signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)]
NAMES = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM",
         getattr(signal, "SIGHUP", signal.SIGTERM): "SIGHUP"}
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir() or sys.platform != "linux",
                                reason="needs /proc and POSIX process groups (Linux)")


def _stats() -> dict[int, list[str]]:
    """Every process's ``/proc/PID/stat`` fields after its name (``[1]``: its parent)."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                out[int(entry.name)] = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # it ended meanwhile
                continue
    return out


def _cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its children still running."""
    return sum((int(f[11]) + int(f[12])) / TICK for p, f in _stats().items()
               if p == pid or int(f[1]) == pid)


def _start(args: list[str], cwd: Path, **kw) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "avecaesar.editor", *args], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **kw)


def _when_busy(proc: subprocess.Popen[str], cpu: float) -> None:
    """Wait until the process and its children have used ``cpu`` seconds (start-up is
    about one): the command is then in the middle of its work, not before it."""
    deadline = time.monotonic() + 240
    while _cpu(proc.pid) < cpu:
        assert proc.poll() is None, f"it ended before the signal: {proc.communicate()}"
        assert time.monotonic() < deadline, "it never got busy"
        time.sleep(0.1)


def _finish(proc: subprocess.Popen[str]) -> tuple[str, str]:
    """Its output once it has ended (within a minute; a hang is killed and fails)."""
    try:
        return proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _stop_when_busy(proc: subprocess.Popen[str], sig: int, cpu: float) -> tuple[str, str]:
    """Send ``sig`` to the process group once it is busy (:func:`_when_busy`)."""
    _when_busy(proc, cpu)
    os.killpg(proc.pid, sig)
    return _finish(proc)


def _clean(err: str, folder: Path, expected: set[str]) -> None:
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert {p.name for p in folder.iterdir()} == expected  # no temporary file left


@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_simulate_keeps_a_partial_report(tmp_path: Path, sig: int) -> None:
    proc = _start(["simulate", "-r", "2022", "-c", OVAL, "-n", "3", "-k", "100000",
                   "--workers", "2", "--quiet", "--json", "r.json"], tmp_path)
    _out, err = _stop_when_busy(proc, sig, 2.5)
    assert proc.returncode == 128 + sig, err
    assert f"interrupted ({NAMES[sig]})" in err, err
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["partial"] is True and report["races_planned"] == 100000
    assert 0 < report["races"] < 100000
    _clean(err, tmp_path, {"r.json"})


def test_a_tournament_keeps_its_finished_races(tmp_path: Path) -> None:
    # SIGTERM, what a service manager sends: that every signal ends a command as Ctrl-C
    # does is the simulate and play tests' (all three signals); the tournament's own part is
    # the record it keeps (3.5 s of search bots a signal: the three cost 11 s of CPU)
    sig = signal.SIGTERM
    proc = _start(["tournament", "-r", "2022", "-n", "6", "--bots", "search", "--set",
                   "tournament.races=20", "--courses", "dicetree-2022/arena-carthago",
                   "--record", "t.json"], tmp_path)
    # 3.5 s: on pure Python (a plain pip install) one race of six search bots is done by
    # then, at 2.5 s none is
    _out, err = _stop_when_busy(proc, sig, 3.5)
    assert proc.returncode == 128 + sig, err
    assert f"interrupted ({NAMES[sig]})" in err and "(marked partial)" in err, err
    doc = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    assert doc["partial"] is True and 1 <= len(doc["races"]) < 20
    _clean(err, tmp_path, {"t.json"})


@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_play_keeps_its_record(tmp_path: Path, sig: int) -> None:
    """A person has moved a few times and is asked again; the record is kept, and it
    replays (``--partial``: a race in progress)."""
    shutil.copy(OVAL, tmp_path / "oval.yaml")  # the record names it: replay reads it there
    proc = _start(["play", "-r", "2022", "-c", "oval.yaml", "--humans", "Ann", "--players", "3",
                   "--seed", "1", "--record", "game.jsonl"], tmp_path, stdin=subprocess.PIPE)
    assert proc.stdin is not None
    # three moves, each ended by Enter (the card is drawn then); the fourth question waits
    proc.stdin.write("1\n\n" * 3)
    proc.stdin.flush()
    record = tmp_path / "game.jsonl"
    deadline = time.monotonic() + 120
    while not (record.exists() and
               sum('"chariot":"A"' in ln for ln in record.read_text().splitlines()) >= 3):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the moves were not played"
        time.sleep(0.1)
    time.sleep(0.5)  # at the prompt
    os.killpg(proc.pid, sig)
    _out, err = _finish(proc)
    assert proc.returncode == 128 + sig, err
    assert f"interrupted ({NAMES[sig]}): the record is kept in game.jsonl" in err, err
    _clean(err, tmp_path, {"game.jsonl", "oval.yaml"})
    res = subprocess.run([sys.executable, "-m", "avecaesar.editor", "replay", "--partial",
                          "game.jsonl"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr


IDLE_WORKER = r"""
import signal, sys
from avecaesar.engine.lab.simulate import SimSpec, _on_processes, _setup_read, _spec_key

def stop(signum, frame):
    raise KeyboardInterrupt
signal.signal(signal.SIGTERM, stop)
spec = SimSpec("dicetree-2022", sys.argv[1], 3, 10**6, 1)
reads = _setup_read(_spec_key(spec))[1]
# two chunks: one race, then a million; the worker that ran the first waits for another
# chunk, holding the task queue's read lock, while the other races
jobs = [(0, spec, range(0, 1)), (0, spec, range(1, 10**6))]
print("interrupted", _on_processes(2, jobs, False, lambda k, got: None, [reads]), flush=True)
"""


def test_a_sigterm_to_the_group_while_a_worker_waits_for_work_does_not_hang(
        tmp_path: Path) -> None:
    """With ``multiprocessing.Pool`` a worker with no chunk left waited for one holding the
    task queue's lock (a semaphore the parent shares). Killed by a SIGTERM sent to the whole
    group, it never gave the lock back, and the parent's ``pool.terminate()`` waited for it
    for ever. The workers now share no lock with the parent (engine/lab/workers.py)."""
    proc = subprocess.Popen([sys.executable, "-c", IDLE_WORKER, OVAL], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    out, err = _stop_when_busy(proc, signal.SIGTERM, 2.5)
    assert proc.returncode == 0 and "interrupted True" in out, (out, err)
    assert "Traceback" not in err, err


def test_a_worker_killed_on_its_own_is_a_clear_error_not_a_wait(tmp_path: Path) -> None:
    """A worker killed alone (the system out of memory, ``kill -9`` of one process): its
    chunk will never come back. ``multiprocessing.Pool`` waited for it for ever; now the
    command stops at once with one line saying what happened and what to do, exit 2."""
    proc = _start(["simulate", "-r", "2022", "-c", OVAL, "-n", "3", "-k", "100000",
                   "--workers", "2", "--quiet"], tmp_path)
    _when_busy(proc, 2.5)
    workers = [p for p, f in _stats().items() if int(f[1]) == proc.pid]
    assert len(workers) == 2
    os.kill(workers[0], signal.SIGKILL)
    _out, err = _finish(proc)
    assert proc.returncode == 2, err
    assert err.strip() == (f"error: a worker process (pid {workers[0]}) ended before its "
                           "races were done (killed by signal 9); run again, or with "
                           "--workers 1"), err

