"""Courses: load by id or path, compile both directions, check, and compute the figures.

>>> course = load_course("homebrew/oval")          # doctest: +SKIP
>>> course.figures().shortest_race                  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from avecaesar.engine.course.bundled import (
    CCW,
    _bundled_ids,
    bundled_course_ids,
    bundled_courses,
    resolve,
)
from avecaesar.engine.course.checks import check_graph, check_layout
from avecaesar.engine.course.checks import rule_problems as course_rule_problems
from avecaesar.engine.course.figures import DEFAULT_FIGURES, RaceFigures
from avecaesar.engine.course.graph import build_graph
from avecaesar.engine.course.model import AlleySpec, CourseModel, Where, read_course
from avecaesar.engine.course.race_path import lap_length, outside_race, shortest_race
from avecaesar.engine.data.errors import Problem, UnknownNameError

__all__ = [
    "Course",
    "CourseFigures",
    "bundled_course_ids",
    "bundled_courses",
    "contract_water",
    "load_course",
    "load_courses",
    "resolve",
]



@dataclass
class CourseFigures:
    """What a designer wants to know about a course under some rule values."""

    lap: int | None
    alley_extra: int | None
    shortest_race: list[int | None]
    outside_race: int | None
    deck_points: int
    bonus_points: int
    reserve: list[int | None]

    @property
    def finishable(self) -> bool:
        """Every start place can finish within the deck (and bonus)."""
        return bool(self.reserve) and all(r is not None and r >= 0 for r in self.reserve)

    def to_json(self) -> dict[str, object]:
        return {"lap": self.lap, "alley_extra": self.alley_extra,
                "shortest_race": self.shortest_race, "outside_race": self.outside_race,
                "deck_points": self.deck_points, "bonus_points": self.bonus_points,
                "reserve": self.reserve, "finishable": self.finishable}


@dataclass
class Course:
    """One course in one driving direction: its lane graph and the problems found."""

    id: str
    name: str
    direction: str
    model: CourseModel
    graph: nx.DiGraph
    problems: list[Problem] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    def figures(self, rules: RaceFigures = DEFAULT_FIGURES) -> CourseFigures:
        """Lap, alley cost, shortest legal race and reserve per start place under ``rules``."""
        g = contract_water(self.graph) if rules.water == "skipped" else self.graph
        races = shortest_race(g, rules)
        plain = shortest_race(g, RaceFigures(laps=rules.laps, alley_required=False))
        alley_extra = None
        if g.graph.get("alley") and races and races[0] is not None and plain[0] is not None:
            alley_extra = races[0] - plain[0]
        reserve = [None if r is None else rules.budget - r for r in races]
        return CourseFigures(lap_length(g), alley_extra, races, outside_race(g, rules),
                             rules.deck_points, rules.bonus_points, reserve)

    def __repr__(self) -> str:
        return (f"<Course {self.id} ({self.direction}): {self.graph.number_of_nodes()} spaces, "
                f"{len(self.errors)} error(s)>")

    def _repr_svg_(self) -> str:
        """The course drawn as SVG (Jupyter shows it): spaces, start places, finish line."""
        from avecaesar.engine.course.geometry import board_geometry
        from avecaesar.engine.course.svg import Mark, course_spaces, spaces_svg

        marks = {n: Mark(str(p)) for n, p in self.graph.nodes(data="start_place") if p}
        return spaces_svg(course_spaces(self.graph), marks, f"{self.name} — {self.direction}",
                          finish=board_geometry(self.graph).finish)

    def rule_problems(self, figures: CourseFigures,
                      rules: RaceFigures = DEFAULT_FIGURES) -> list[Problem]:
        """Problems under ``rules``: no alley (or none that can be stopped in) where the
        rules require the stop; start places away from the line (warnings)."""
        g = contract_water(self.graph) if rules.water == "skipped" else self.graph
        return course_rule_problems(self.model, g, rules, figures.shortest_race)

    def figure_problems(self, figures: CourseFigures) -> list[Problem]:
        """The declared ``figures:`` of the file that the compiled course does not show."""
        declared = self.model.figures
        if self.direction == "anticlockwise":
            declared = (self.model.reverse or {}).get("figures", declared)
        key = ("anticlockwise", "figures") if self.direction == "anticlockwise" else ("figures",)
        where = Where(self.model.source, key)
        out = []
        for name, want in declared.items():
            got = getattr(figures, name)
            if got != want:
                out.append(where.problem(
                    f"declared {name} {want} but the course gives {got} — change the "
                    "geometry or the declared figure", None, name))
        return out


def contract_water(g: nx.DiGraph) -> nx.DiGraph:
    """The graph with water ditches jumped over without counting (one reading in docs/sources.md
    section 2, "water ditches"): each ditch is removed and its predecessors step straight to
    its successors."""
    wet = [n for n, w in g.nodes(data="water") if w]
    if not wet:
        return g
    h = g.copy()
    for w in wet:
        for u in list(h.predecessors(w)):
            for v in list(h.successors(w)):
                if u != v and not h.has_edge(u, v):
                    h.add_edge(u, v, diagonal=h.nodes[u]["lane"] != h.nodes[v]["lane"],
                               finish=h.edges[u, w]["finish"] or h.edges[w, v]["finish"],
                               alley=h.edges[u, w]["alley"] or h.edges[w, v]["alley"])
        h.remove_node(w)
    return h


def _compile(model: CourseModel, direction: str) -> Course:
    problems: list[Problem] = list(model.problems) if direction == "clockwise" else []
    if direction == "clockwise":
        g = build_graph(model, problems=problems)
        cid, name = model.id, model.name
    else:
        rev = model.reverse or {}
        alley = model.alley
        if "alley" in rev:
            a = rev["alley"]
            alley = AlleySpec(a["from"], a["to"], a["spaces"], a.get("side", "outside"),
                              Where(model.source, ("anticlockwise", "alley")))
        cid = rev.get("id") or model.id + CCW
        name = rev.get("name") or f"{model.name} (anticlockwise)"
        g = build_graph(model, direction="anticlockwise", start=list(rev["start"]),
                        finish_before=rev.get("finish", {}).get("before"), alley=alley,
                        course_id=cid, name=name, problems=problems)
    errors_so_far = [p for p in problems if p.severity == "error"]
    if not errors_so_far:
        problems.extend(check_graph(model, g, "anticlockwise" if direction != "clockwise"
                                    else ""))
    if direction == "clockwise":
        problems.extend(check_layout(model))
    return Course(cid, name, direction, model, g, problems)


def load_courses(path: str | Path, course_id: str | None = None,
                 text: str | None = None) -> list[Course]:
    """Every direction a course file declares: clockwise, and anticlockwise if declared.
    With ``text``, the course is that text named ``path`` (no file is read but bundled
    piece files included by id: the studio checks what is typed without storing it)."""
    model = read_course(path, course_id, text)
    courses = [_compile(model, "clockwise")]
    if model.reverse:
        courses.append(_compile(model, "anticlockwise"))
    return courses


def load_course(ref: str) -> Course:
    """One course by bundled id (``…-ccw`` for anticlockwise) or file path (clockwise)."""
    path, cid, direction = resolve(ref)
    courses = load_courses(path, cid)
    for c in courses:
        if direction is None or c.direction == direction:
            return c
    raise UnknownNameError("course", ref, _bundled_ids())
