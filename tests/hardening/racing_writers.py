"""Racing writers against the result cache (issue 26): a writer flips one course file
between a valid and a broken version while ``course validate`` runs on it; then the file is
left in a known state and validated again. The second answer must be the one an uncached
run gives for that content — never an answer computed from the other version.

Shared by the CI slice (tests/hardening/test_racing_writers.py) and the long run
(bench/bench_racing_writers.py). Everything runs in this process: the writer is a thread
(the interpreter switches threads every few milliseconds, well inside a validation), the
validation is the light path's own function (editor/cli/course_validate.py).
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from avecaesar.editor.cli.course_validate import plain_validate

OVAL = Path(__file__).parents[1] / "core" / "courses" / "oval.yaml"
# the broken version: the finish line before a piece that does not exist (exit 1, located)
BROKEN = ("finish: {before: home}", "finish: {before: nowhere}")
# a module file (an include) that the writer also flips: a straight of 3 or 5 spaces
MODULE = """pieces:
  back:
    lanes: 3
    track:
      - straight: {{name: back, length: {length}, walls: [[0, 1]]}}
"""


@dataclass
class Tally:
    """How many rounds ran and which ones answered wrong."""

    rounds: int = 0
    wrong: list[str] = field(default_factory=list)
    racing_answers: dict[str, int] = field(default_factory=dict)
    flips: int = 0


def versions(folder: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The course file's two versions and the module file's two versions."""
    text = OVAL.read_text(encoding="utf-8")
    course = text.replace("  - straight: {name: back, length: 3, walls: [[0, 1]]}   # a wall "
                          "between lanes 0 and 1",
                          "  - include: {file: back.yaml, piece: back}")
    assert course != text
    return ({"valid": course, "broken": course.replace(*BROKEN)},
            {"short": MODULE.format(length=3), "long": MODULE.format(length=5)})


def _write(path: Path, text: str, atomic: bool) -> None:
    if atomic:  # an editor's save: a new file renamed over the old one
        tmp = path.with_name(f".{path.name}.{threading.get_ident()}")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    else:  # truncated and rewritten in place: a reader may see half of it
        path.write_text(text, encoding="utf-8")


def _writer(stop: threading.Event, r: random.Random, pause: float, atomic: bool,
            files: tuple[tuple[Path, dict[str, str]], ...], tally: Tally) -> None:
    """Write the files' versions at random, every ``pause`` seconds, until ``stop``."""
    n = 0
    while not stop.is_set():
        for i, (path, texts) in enumerate(files):
            if i == 0 or r.random() < 0.5:
                _write(path, texts[r.choice(list(texts))], atomic)
        n += 1
        time.sleep(pause)
    tally.flips += n


@contextmanager
def _no_cache() -> Iterator[None]:
    old = os.environ.get("AVECAESAR_NO_CACHE")
    os.environ["AVECAESAR_NO_CACHE"] = "1"
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("AVECAESAR_NO_CACHE")
        else:
            os.environ["AVECAESAR_NO_CACHE"] = old


def run(rounds: int, folder: Path, seed: int = 1) -> Tally:
    """``rounds`` rounds of: writers flip both files while a validation runs; both files are
    then left in a state drawn at random and validated again (from the cache when it has an
    entry), compared with the uncached answer for that state."""
    rng = random.Random(seed)
    course_v, module_v = versions(folder)
    course, module = folder / "course.yaml", folder / "back.yaml"
    ref = str(course)
    truth: dict[tuple[str, str], object] = {}
    with _no_cache():
        for c in course_v:
            for m in module_v:
                _write(course, course_v[c], True)
                _write(module, module_v[m], True)
                truth[c, m] = plain_validate(ref)
    assert truth["valid", "short"] != truth["broken", "short"]
    assert truth["valid", "short"] != truth["valid", "long"]
    tally = Tally()
    for i in range(rounds):
        stop = threading.Event()
        pause = rng.choice([0.0005, 0.001, 0.003, 0.008])
        atomic = rng.random() < 0.5

        t = threading.Thread(target=_writer, daemon=True, args=(
            stop, random.Random(seed * 100_003 + i), pause, atomic,
            ((course, course_v), (module, module_v)), tally))
        t.start()
        try:
            time.sleep(rng.random() * 0.01)
            _lines, bad, _usage = plain_validate(ref)
            what = "broken" if bad else "valid"
            tally.racing_answers[what] = tally.racing_answers.get(what, 0) + 1
        finally:
            stop.set()
            t.join()
        state = (rng.choice(list(course_v)), rng.choice(list(module_v)))
        _write(course, course_v[state[0]], True)
        _write(module, module_v[state[1]], True)
        answer = plain_validate(ref)
        tally.rounds += 1
        if answer != truth[state]:
            tally.wrong.append(f"round {i}: {state} answered "
                               f"{'bad' if answer[1] else 'good'}: {answer[0][:2]}")
    return tally
