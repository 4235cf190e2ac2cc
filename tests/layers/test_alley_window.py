"""The alley window is one predicate (issue 20): engine/course/alley_window.py decides in
which laps a stop counts; the legal moves, the bots, the views and the course figures ask
it, and no other engine module compares a lap with the window itself."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from avecaesar.engine.course.alley_window import counts, later_chance, passed

ENGINE = Path(importlib.import_module("avecaesar.engine").__file__ or "").resolve().parent
# a lap compared with the window: `lap in rules.alley_laps`, `max(alley_laps)`, `x > lap`
COMPARES = re.compile(r"\bin\s+[\w.]*alley_laps\b|max\([\w.]*alley_laps|\bx\s*>\s*lap\b")


def test_no_module_but_the_window_compares_a_lap_with_it():
    found = []
    for path in ENGINE.rglob("*.py"):
        if path.name == "alley_window.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if COMPARES.search(line) and " for " not in line:
                found.append(f"{path.relative_to(ENGINE)}:{n}: {line.strip()}")
    assert found == []


@pytest.mark.covers("rule:alley.laps")
@pytest.mark.parametrize("laps,lap,expect", [
    # (counts, later chance, passed); lap 1 = before the first crossing
    ((1, 2), 1, (True, True, False)),
    ((1, 2), 2, (True, False, False)),
    ((1, 2), 3, (False, False, True)),
    ((2, 3), 1, (False, True, False)),
    ((2, 3), 4, (False, False, True)),
])
def test_the_window(laps, lap, expect):
    assert (counts(laps, lap), later_chance(laps, lap), passed(laps, lap)) == expect
