"""The course checks (engine/course/checks.py, CHECKS) that no course file can trip alone:
each on a compiled graph changed by hand, as a later edit of the compiler might leave it."""

from __future__ import annotations

from pathlib import Path

import pytest

from avecaesar.engine.course.checks import CHECKS, Compiled
from avecaesar.engine.course.load import load_course

OVAL = Path(__file__).resolve().parents[1] / "core" / "courses" / "oval.yaml"


def _check(name: str):
    return next(c for c in CHECKS if c.name == name)


@pytest.mark.covers("check:line-cuts-loop")
def test_a_loop_that_skips_the_finish_line_is_found() -> None:
    course = load_course(str(OVAL))
    g = course.graph.copy()
    label = {d["label"]: n for n, d in g.nodes(data=True)}
    check = _check("line-cuts-loop")
    assert check.run(Compiled(course.model, g, "")) == []
    # a step from the end of the south curve back to the start of the north curve: a loop
    # north → back → south → north that never crosses the line before 'home'
    g.add_edge(label["south.2.7"], label["north.2.0"], diagonal=False, finish=False,
               alley=None)
    problems = check.run(Compiled(course.model, g, ""))
    assert len(problems) == 1 and "does not cut the loop" in problems[0].message
    assert problems[0].line > 0  # located at the finish line in the file
