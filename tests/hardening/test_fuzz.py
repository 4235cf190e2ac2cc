"""The CI-sized fuzz run: generated breakages of bundled courses and rulesets and tampered
records never end in a traceback or a hang, only in exit 0, 1 or 2 — and an error always
says where. The large run is tools/fuzz_inputs.py (same mutations, hundreds of cases)."""

from __future__ import annotations

import importlib.util
import random
import re
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.engine.course.load import bundled_courses
from avecaesar.engine.data.errors import EXIT_CODES
from avecaesar.engine.data.paths import RULESETS_DIR

_spec = importlib.util.spec_from_file_location("fuzz_mutations",
                                               Path(__file__).with_name("mutations.py"))
assert _spec and _spec.loader
mutations = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mutations)

runner = CliRunner()
HERE = Path(__file__).parent
COURSES = sorted(bundled_courses().values())
RULESETS = sorted(RULESETS_DIR.rglob("*.yaml"))
# docs/architecture.md "Exit codes", but a signal's (nothing here is interrupted)
DOCUMENTED = {e.code for e in EXIT_CODES if e.signal is None}
LOCATED = re.compile(r":\d+(:\d+)?: |error: |NOT finishable")
FUZZ = settings(max_examples=20, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])


def check(args: list[str]) -> int:
    """Run one case: a documented exit code, a located error, and no hang — under 10 s of
    this process's CPU (a loaded machine stretches the wall clock, not the CPU time), with
    120 s of wall-clock time as the backstop (the fuzzer's limits)."""
    start, cpu = time.perf_counter(), time.process_time()
    res = runner.invoke(app, args)
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert res.exception is None or isinstance(res.exception, SystemExit), (
        f"{args}: {type(res.exception).__name__}: {res.exception}")
    assert res.exit_code in DOCUMENTED, (args, res.exit_code, res.output[-500:])
    if res.exit_code:
        assert LOCATED.search(res.output), (args, res.output[-500:])
    assert cpu < 10, f"{args} took {cpu:.1f} s of CPU"
    assert took < 120, f"{args} took {took:.1f} s"
    return res.exit_code


def _write_broken(source: Path, path: Path, rng: random.Random, structural: bool) -> Path:
    """``source`` mutated (its YAML structure, or its bytes) and written to ``path``."""
    text = source.read_text(encoding="utf-8")
    broken = (mutations.mutate_yaml(text, rng, rng.randint(1, 3)) if structural
              else mutations.mutate_text(text, rng))
    if isinstance(broken, bytes):
        path.write_bytes(broken)
    else:
        path.write_text(broken, encoding="utf-8")
    return path


@FUZZ
@given(rng=st.randoms(use_true_random=False), source=st.sampled_from(COURSES),
       structural=st.booleans())
def test_broken_courses(tmp_path_factory, rng: random.Random, source: Path,
                        structural: bool) -> None:
    folder = tmp_path_factory.mktemp("c") / source.parent.name
    folder.mkdir()
    path = _write_broken(source, folder / source.name, rng, structural)
    check(["course", "validate", str(path)])


@FUZZ
@given(rng=st.randoms(use_true_random=False), source=st.sampled_from(RULESETS),
       structural=st.booleans())
def test_broken_rulesets_and_overlays(tmp_path_factory, rng: random.Random, source: Path,
                                      structural: bool) -> None:
    path = _write_broken(source, tmp_path_factory.mktemp("r") / source.name, rng, structural)
    if source.parent.name == "variants":
        check(["ruleset", "show", "dicetree-2022", "--variant", str(path)])
    else:
        check(["ruleset", "validate", str(path)])
        check(["ruleset", "show", str(path)])


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> list[str]:
    rec = tmp_path_factory.mktemp("rec") / "r.jsonl"
    oval = HERE.parent / "core" / "courses" / "oval.yaml"
    res = runner.invoke(app, ["race", "-r", "dicetree-2022", "-c", str(oval), "-n", "3",
                              "--seed", "9", "--record", str(rec)])
    assert res.exit_code == 0, res.output
    return rec.read_text(encoding="utf-8").splitlines()


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(rng=st.randoms(use_true_random=False), data=st.data())
def test_tampered_records(tmp_path_factory, record: list[str], rng: random.Random,
                          data: st.DataObject) -> None:
    k = data.draw(st.integers(0, len(record) - 1))
    lines = list(record)
    lines[k] = mutations.mutate_record_line(lines[k], rng)
    path = tmp_path_factory.mktemp("t") / "r.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = check(["replay", str(path)])
    if k == len(record) - 1 and _parsed(lines[k]) != _parsed(record[k]):
        assert code != 0  # the result line must match the replayed result exactly


def _parsed(line: str) -> object:
    import json

    try:
        return json.loads(line)
    except ValueError:
        return line


@pytest.fixture(scope="module")
def fuzz():
    spec = importlib.util.spec_from_file_location(
        "fuzz_inputs", HERE.parents[1] / "tools" / "fuzz_inputs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_fuzzers_hang_alarm_counts_cpu_time_with_a_wall_clock_backstop(
        fuzz, monkeypatch: pytest.MonkeyPatch) -> None:
    """A case that computes past the CPU limit is a hang; one that only waits longer than
    the CPU limit is not (a loaded machine is not a hang); one that waits past the
    wall-clock backstop is."""
    import signal

    import typer

    toy = typer.Typer()

    @toy.command()
    def spin() -> None:
        while True:
            pass

    @toy.command()
    def wait(seconds: float) -> None:
        time.sleep(seconds)

    monkeypatch.setattr(fuzz, "app", toy)
    monkeypatch.setattr(fuzz, "LIMIT_S", 0.4)
    monkeypatch.setattr(fuzz, "WALL_LIMIT_S", 3)
    before = {s: signal.signal(s, fuzz._alarm) for s in (signal.SIGALRM, signal.SIGPROF)}
    try:
        tally = fuzz.Tally("toy")
        assert tally.run(CliRunner(), ["spin"], "spin") is None
        assert tally.run(CliRunner(), ["wait", "1"], "wait 1 s") == 0, tally.hangs
        assert tally.run(CliRunner(), ["wait", "8"], "wait 8 s") is None
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
    assert tally.hangs == ["spin (over the CPU limit)", "wait 8 s (over the wall clock limit)"]


def test_the_fuzzer_is_green(fuzz, capsys) -> None:
    """The project's own fuzzer (tools/fuzz_inputs.py), a CI-sized run: every case ends in
    a documented exit code with a located message; no traceback, no hang (issue 26). The
    full run is bench/bench_fuzz.py."""
    code = fuzz.main(["--courses", "12", "--rulesets", "8", "--records", "8",
                      "--options", "60", "--seed", "26", "-v"])
    out = capsys.readouterr().out
    assert "total: 88 cases" in out, out
    assert code == 0, out
