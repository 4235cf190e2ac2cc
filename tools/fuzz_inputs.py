"""The large fuzz run (issue 11): broken courses, broken rulesets and overlays, tampered game
records, and every CLI option with nonsense values — counting tracebacks, hangs and exit
codes. Prints the figures; exits 1 if any traceback, hang or undocumented exit code occurs.

    .venv/bin/python tools/fuzz_inputs.py                      # 300 / 150 / 40 / all options
    .venv/bin/python tools/fuzz_inputs.py --courses 30 --rulesets 15 --records 10 --seed 2
    .venv/bin/python bench/bench_fuzz.py                      # the full run, ≥ 1,000 cases

``make test`` runs a CI-sized slice (tests/hardening/test_fuzz.py, ``test_the_fuzzer``).

Each case runs in this process through typer's CliRunner under two alarms: 10 s of this
process's CPU time (``ITIMER_PROF``: a hang is a case that computes too long, and a loaded
machine that gives the process less of a core does not make one) and, as a backstop for a
case that blocks without computing, 120 s of wall-clock time. The mutations are those of
tests/hardening/mutations.py (the CI-sized run uses the same ones).
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import random
import re
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.engine.course.load import bundled_courses
from avecaesar.engine.data.errors import EXIT_CODES
from avecaesar.engine.data.paths import RULESETS_DIR

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mutations",
                                               ROOT / "tests" / "hardening" / "mutations.py")
assert _spec and _spec.loader
mutations = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mutations)

LIMIT_S = 10  # CPU seconds a case may take (user + system, this process)
WALL_LIMIT_S = 120  # wall-clock seconds: the backstop for a case waiting on nothing
# the documented exit codes (docs/architecture.md, "Exit codes") but a signal's: no case here
# is interrupted, so 130 would be a failure too
DOCUMENTED = tuple(e.code for e in EXIT_CODES if e.signal is None)
LOCATED = re.compile(r":\d+(:\d+)?: |error: |Error|Invalid value|Missing (option|argument)"
                     r"|NOT finishable")


class Hang(BaseException):
    """Raised by an alarm: a case took more than LIMIT_S of CPU or WALL_LIMIT_S of wall-clock
    time (escapes every handler)."""


def _alarm(signum: int, _frame: object) -> None:
    raise Hang("wall clock" if signum == signal.SIGALRM else "CPU")


def _alarms_on() -> None:
    signal.setitimer(signal.ITIMER_PROF, LIMIT_S)
    signal.alarm(WALL_LIMIT_S)


def _alarms_off() -> None:
    signal.setitimer(signal.ITIMER_PROF, 0)
    signal.alarm(0)


class Tally:
    """Exit codes, tracebacks, hangs and the slowest case of one kind of input."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.codes: collections.Counter[int] = collections.Counter()
        self.tracebacks: list[str] = []
        self.hangs: list[str] = []
        self.unlocated: list[str] = []
        self.bad_codes: list[str] = []
        self.slowest = 0.0
        self.cases = 0

    def run(self, runner: CliRunner, args: list[str], what: str,
            codes: tuple[int, ...] = DOCUMENTED) -> int | None:
        self.cases += 1
        start = time.process_time()
        _alarms_on()
        try:
            res = runner.invoke(app, args)
        except Hang as hang:
            self.hangs.append(f"{what} (over the {hang} limit)")
            return None
        finally:
            _alarms_off()
        self.slowest = max(self.slowest, time.process_time() - start)
        code = res.exit_code
        self.codes[code] += 1
        if res.exception is not None and not isinstance(res.exception, SystemExit):
            self.tracebacks.append(f"{what}: {type(res.exception).__name__}: "
                                   f"{str(res.exception)[:200]}")
        elif code not in codes:
            self.bad_codes.append(f"{what}: exit {code}: {res.output[-300:]}")
        elif code in (1, 2) and not LOCATED.search(res.output):
            self.unlocated.append(f"{what}: {res.output[-300:]}")
        return code

    def report(self) -> str:
        codes = ", ".join(f"exit {c}: {n}" for c, n in sorted(self.codes.items()))
        return (f"{self.name:<22} {self.cases:>5} cases · {codes} · tracebacks "
                f"{len(self.tracebacks)} · hangs > {LIMIT_S} s CPU {len(self.hangs)} · "
                f"undocumented exit codes {len(self.bad_codes)} · errors without a location "
                f"{len(self.unlocated)} · slowest {self.slowest:.2f} s CPU")

    def failures(self) -> list[str]:
        return self.tracebacks + self.hangs + self.bad_codes + self.unlocated


def _write(folder: Path, name: str, content: str | bytes) -> Path:
    p = folder / name
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        p.write_text(content, encoding="utf-8")
    return p


def fuzz_courses(n: int, rng: random.Random, folder: Path, runner: CliRunner) -> Tally:
    tally = Tally("broken courses")
    sources = [p for p in bundled_courses().values()]
    sources += sorted((ROOT / "tests" / "courses" / "valid").glob("*.yaml"))
    for i in range(n):
        src = rng.choice(sources)
        text = src.read_text(encoding="utf-8")
        if rng.random() < 0.7:
            broken: str | bytes = mutations.mutate_yaml(text, rng, rng.randint(1, 3))
        else:
            broken = mutations.mutate_text(text, rng)
        sub = folder / f"c{i}" / src.parent.name
        sub.mkdir(parents=True)
        path = _write(sub, src.name, broken)
        args = ["course", "validate", str(path)]
        if rng.random() < 0.3:
            args += ["--ruleset", rng.choice(["2022", "1989", "2006"]), "--set",
                     "disqualification.keeps_place=true"]
        tally.run(runner, args, f"course {i} from {src.name}")
    return tally


def fuzz_rulesets(n: int, rng: random.Random, folder: Path, runner: CliRunner) -> Tally:
    tally = Tally("broken rulesets/overlays")
    sources = sorted(RULESETS_DIR.rglob("*.yaml"))
    for i in range(n):
        src = rng.choice(sources)
        text = src.read_text(encoding="utf-8")
        broken = (mutations.mutate_yaml(text, rng, rng.randint(1, 3)) if rng.random() < 0.7
                  else mutations.mutate_text(text, rng))
        path = _write(folder, f"r{i}-{src.name}", broken)
        if src.parent.name == "variants":
            args = ["ruleset", "show", "dicetree-2022", "--variant", str(path)]
        elif rng.random() < 0.5:
            args = ["ruleset", "validate", str(path)]
        else:
            args = ["ruleset", "show", str(path)]
        tally.run(runner, args, f"ruleset {i} from {src.name}")
    return tally


def fuzz_records(n: int, rng: random.Random, folder: Path, runner: CliRunner) -> Tally:
    tally = Tally("tampered records")
    course = str(ROOT / "tests" / "core" / "courses" / "oval.yaml")
    good = folder / "good.jsonl"
    res = runner.invoke(app, ["race", "-r", "dicetree-2022", "-c", course, "-n", "3",
                              "--seed", "9", "--record", str(good)])
    assert res.exit_code == 0, res.output
    lines = good.read_text(encoding="utf-8").splitlines()
    accepted = 0
    for i in range(n):
        changed = list(lines)
        k = rng.randrange(len(changed))
        op = rng.random()
        if op < 0.75:
            changed[k] = mutations.mutate_record_line(changed[k], rng)
        elif op < 0.85:
            del changed[k]
        elif op < 0.95:
            changed.insert(k, changed[rng.randrange(len(changed))])
        else:
            changed = changed[:k]
        path = _write(folder, f"rec{i}.jsonl", "\n".join(changed) + "\n")
        code = tally.run(runner, ["replay", str(path)], f"record {i} (line {k + 1})")
        accepted += code == 0
    tally.name = f"tampered records ({accepted} harmless changes accepted)"
    return tally


def _nonsense_for(kind: str, folder: Path) -> list[str]:
    """Nonsense values; the paths among them only ever write inside ``folder`` (the run's
    working folder): a folder, a missing folder, a device, a bare name."""
    common = ["", "nonsense", "-1", "0", "99999999999999999999", "nan", "1e400", "../../x",
              "\x00", "a" * 300]
    if kind == "path":
        return ["", "nonsense", "/dev/zero", "/", str(folder / "a-folder"),
                str(folder / "no" / "f.svg"), "/nonexistent/folder/f.svg", "/proc/self/mem",
                "\x00", "a" * 300]
    return common


# Each command: the arguments that make it valid, then its options (name, kind).
COMMANDS: dict[str, tuple[list[str], list[tuple[str, str]]]] = {
    "course validate": (["course", "validate", "ravensburger-1989/a-white"],
                        [("--deck-points", "int"), ("--ruleset", "str"), ("--variant", "str"),
                         ("--set", "str"), ("--simulate", "int")]),
    "course render": (["course", "render", "ravensburger-1989/a-white"],
                      [("-o", "path"), ("--format", "str"), ("--highlight", "str")]),
    "course dump": (["course", "dump", "ravensburger-1989/a-white"], [("-o", "path")]),
    "course new": (["course", "new", "Fuzz"], [("-o", "path")]),
    "ruleset show": (["ruleset", "show", "2022"], [("--variant", "str"), ("--set", "str")]),
    "ruleset diff": (["ruleset", "diff", "2022", "1989"],
                     [("--variant", "str"), ("--variant-b", "str")]),
    "race": (["race", "-r", "2022", "-c", "dicetree-2022/arena-carthago"],
             [("--players", "int"), ("--variant", "str"), ("--set", "str"), ("--bots", "str"),
              ("--seed", "int"), ("--record", "path"), ("--ruleset", "str"),
              ("--course", "path")]),
    "replay": (["replay"], [("", "path"), ("--max-bytes", "int")]),
    "tournament": (["tournament", "-r", "2022", "-n", "2", "-v", "mini-tournament", "--set",
                    "tournament.races=2"],
                   [("--players", "int"), ("--courses", "str"), ("--bots", "str"),
                    ("--seed", "int"), ("--record", "path"), ("--replay", "path")]),
    "simulate": (["simulate", "-r", "2022", "-c", "dicetree-2022/arena-carthago", "-k", "2",
                  "-n", "3", "--quiet", "--workers", "1"],
                 [("--players", "int"), ("--races", "int"), ("--workers", "int"),
                  ("--bots", "str"), ("--seed", "int"), ("--json", "path"),
                  ("--chart", "path"), ("--heat-map", "path"), ("--cluster", "str")]),
    "play": (["play", "-r", "2022", "-c", "dicetree-2022/arena-carthago", "--humans", "Ann"],
             [("--players", "int"), ("--humans", "str"), ("--board", "path"),
              ("--record", "path")]),
    "global": (["course", "list"], []),
}


def fuzz_options(folder: Path, runner: CliRunner, sample: int | None = None,
                 rng: random.Random | None = None) -> Tally:
    """Every option of every command with nonsense values, run from inside ``folder`` so
    that whatever a command writes (``-o nonsense``, ``--heat-map`` next to a folder) stays
    there."""
    import os

    tally = Tally("CLI options × nonsense")
    work = folder / "options"
    (work / "a-folder").mkdir(parents=True)
    here = Path.cwd()
    os.chdir(work)
    try:
        _all_options(work, runner, tally, sample, rng or random.Random(0))
    finally:
        os.chdir(here)
    return tally


def _all_options(folder: Path, runner: CliRunner, tally: Tally, sample: int | None,
                 rng: random.Random) -> None:
    cases = [([*base, *([option] if option else []), value], f"{name} {option} {value[:30]!r}")
             for name, (base, options) in COMMANDS.items() for option, kind in options
             for value in _nonsense_for(kind, folder)]
    cases += [(["--allow-path", value, "course", "list"], f"--allow-path {value[:30]!r}")
              for value in _nonsense_for("path", folder)]
    if sample is not None and sample < len(cases):
        cases = rng.sample(cases, sample)
    for args, what in cases:
        tally.run(runner, args, what)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--courses", type=int, default=300)
    ap.add_argument("--rulesets", type=int, default=150)
    ap.add_argument("--records", type=int, default=40)
    ap.add_argument("--no-options", action="store_true", help="skip the CLI options run")
    ap.add_argument("--options", type=int, default=None,
                    help="run N of the CLI option cases, drawn with the seed (default: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-v", "--verbose", action="store_true", help="list every failure")
    args = ap.parse_args(argv)
    before = {s: signal.signal(s, _alarm) for s in (signal.SIGALRM, signal.SIGPROF)}
    try:
        return _run(args)
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


def _run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    runner = CliRunner()
    started = time.perf_counter()
    tallies: list[Tally] = []
    with tempfile.TemporaryDirectory(prefix="avecaesar-fuzz-") as tmp:
        folder = Path(tmp)  # outside the checkout: nothing of a run is left in it
        runs: list[tuple[Callable[..., Tally], tuple]] = [
            (fuzz_courses, (args.courses, rng, folder, runner)),
            (fuzz_rulesets, (args.rulesets, rng, folder, runner)),
            (fuzz_records, (args.records, rng, folder, runner)),
        ]
        if not args.no_options:
            runs.append((fuzz_options, (folder, runner, args.options, rng)))
        for fn, fargs in runs:
            tallies.append(fn(*fargs))
            print(tallies[-1].report(), flush=True)
    bad = [f for t in tallies for f in t.failures()]
    print(f"total: {sum(t.cases for t in tallies)} cases in "
          f"{time.perf_counter() - started:.0f} s; {len(bad)} failures (seed {args.seed})")
    for f in bad[: None if args.verbose else 20]:
        print("  FAIL", f)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
