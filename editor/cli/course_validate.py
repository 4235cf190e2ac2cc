"""``avecaesar course validate REF`` without options, without typer: the text a course's
check prints (problems on stderr, figures on stdout) and whether it failed. The command
and the CLI's light path (editor/main.py) both use it; each reference's result is cached
under the digests of the bytes the check parsed (the course file and every include), the
options that matter (none here), the allowed folders and the code version
(editor/cli/result_cache.py)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard

from avecaesar.editor.cli import result_cache

if TYPE_CHECKING:
    from avecaesar.engine.course.figures import RaceFigures
    from avecaesar.engine.course.load import Course, CourseFigures
    from avecaesar.engine.data.errors import Problem

__all__ = ["Checked", "Lines", "check", "plain_validate", "report"]

# what a check prints, in order: ("out" | "err", line)
Lines = list[tuple[str, str]]


def report(course: Course, figs: CourseFigures | None, rules: RaceFigures) -> list[str]:
    """A course's figures as ``course validate`` prints them."""
    lines = [f"{course.model.file}: {course.name} [{course.id}], {course.direction}"]
    if figs is None:
        return lines
    alley = "no alley" if figs.alley_extra is None else f"alley stop +{figs.alley_extra}"
    bonus = f" + bonus {figs.bonus_points}" if figs.bonus_points else ""
    outside = figs.outside_race if figs.outside_race is not None else "—"
    lines.append(f"  lap {figs.lap} (inside line) · {alley} · outside lanes race "
                 f"{outside} · deck {figs.deck_points}{bonus} points "
                 f"({rules.source})")
    lines.append("  place  shortest race  reserve")
    for i, (r, res) in enumerate(zip(figs.shortest_race, figs.reserve, strict=True), 1):
        lines.append(f"  {i:>5}  {r if r is not None else '—':>13}  "
                     f"{res if res is not None else '—':>7}")
    lines.append("  finishable on the deck" if figs.finishable else
                 "  NOT finishable: the shortest legal race needs more points than the deck "
                 "gives")
    return lines


@dataclass(frozen=True)
class Checked:
    """One course direction checked: its figures (None when it has errors), every problem
    (the stale declared figures among them unless they are being rewritten) and which of
    them are the stale figures."""

    course: Course
    figs: CourseFigures | None
    problems: list[Problem]
    stale: list[Problem]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def ok(self) -> bool:
        """Valid and finishable on the deck."""
        return not self.errors and self.figs is not None and self.figs.finishable

    def lines(self, ref: str, rules: RaceFigures) -> Lines:
        """What ``course validate`` prints for it: the problems on stderr (with the hint
        when only the declared figures are stale), the figures on stdout."""
        out: Lines = [("err", str(p)) for p in self.problems]
        errors = self.errors
        if self.stale and errors and set(errors) <= set(self.stale):
            out.append(("err", f"  only the declared figures are stale — `avecaesar course "
                               f"validate {ref} --update-figures` rewrites them"))
        return out + [("out", line) for line in report(self.course, self.figs, rules)]


def check(course: Course, rules: RaceFigures, rewriting_figures: bool = False) -> Checked:
    """The one check of a course direction that ``course validate`` makes, with or without
    options (``rewriting_figures``: stale declared figures are not problems, they are being
    rewritten)."""
    figs = None if course.errors else course.figures(rules)
    problems: list[Problem] = list(course.problems)
    stale = course.figure_problems(figs) if figs is not None else []
    if figs is not None:
        problems += course.rule_problems(figs, rules)
    if not (figs is not None and rewriting_figures):
        problems += stale
    return Checked(course, figs, sorted(problems), stale)


def _compute(ref: str) -> tuple[Lines, bool, bool, bool]:
    """(lines, bad, usage, whether the course could be read)."""
    from avecaesar.engine.course.figures import DEFAULT_FIGURES
    from avecaesar.engine.course.load import load_courses, resolve
    from avecaesar.engine.data.errors import InputError

    rules = DEFAULT_FIGURES
    lines: Lines = []
    path, cid, direction = resolve(ref)
    try:
        courses = load_courses(path, cid)
    except InputError as err:
        return ([("err", str(p)) for p in err.problems], True, err.exit_code == 2, False)
    if direction:
        courses = [c for c in courses if c.direction == direction]
    bad = False
    for course in courses:
        checked = check(course, rules)
        bad |= not checked.ok
        lines += checked.lines(ref, rules)
    return lines, bad, False, True


def _usable(value: object) -> TypeGuard[dict[str, Any]]:
    return (isinstance(value, dict) and isinstance(value.get("bad"), bool)
            and isinstance(value.get("lines"), list)
            and all(isinstance(x, list) and len(x) == 2 and x[0] in ("out", "err")
                    and isinstance(x[1], str) for x in value["lines"]))


def plain_validate(ref: str) -> tuple[Lines, bool, bool]:
    """(lines, bad, usage) of ``course validate REF``; a course name that is not known
    raises as the command does."""
    from avecaesar.engine.course.bundled import resolve
    from avecaesar.engine.data.safeio import allowed_roots, reading, real_path

    path = real_path(resolve(ref)[0], ref)
    key = [ref, os.getcwd(), str(path), *map(str, allowed_roots(path.parent))]
    cached = result_cache.lookup("course-validate", key)
    if _usable(cached):
        return [(s, t) for s, t in cached["lines"]], cached["bad"], False
    with reading() as log:  # what the check parsed is what the result is stored under
        lines, bad, usage, read = _compute(ref)
    if read:
        result_cache.store("course-validate", key, log,
                           {"lines": [list(x) for x in lines], "bad": bad})
    return lines, bad, usage
