"""The Course studio's API: a course text → its problems (line, column), figures per start
place under a ruleset, and the board with the shortest race — the same reading, checks and
figures as ``course validate`` and ``course render``."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from avecaesar.editor.render.board import RenderError
from avecaesar.editor.render.board_svg import board_svg
from avecaesar.editor.web.requests import field, json_body
from avecaesar.editor.web.storage import MAX_COURSE_BYTES, Storage
from avecaesar.engine.course.figures import DEFAULT_FIGURES, RaceFigures
from avecaesar.engine.course.load import bundled_courses, load_courses
from avecaesar.engine.data.errors import InputError, Problem

__all__ = ["routes"]


def _problem(p: Problem) -> dict[str, Any]:
    return {"line": p.line, "column": p.column, "message": p.message, "severity": p.severity}


def _figure_rules(storage: Storage, data: dict[str, Any]) -> RaceFigures:
    ruleset = field(data, "ruleset", str, "")
    if not ruleset:
        return DEFAULT_FIGURES
    from avecaesar.engine.ruleset.load import load_ruleset, race_figures

    variants = [storage.rule_name(str(v)) for v in field(data, "variants", list, [])]
    return race_figures(load_ruleset(storage.rule_name(ruleset), variants, {}))


def _laps(g: object, route: list[int]) -> list[list[int]]:
    """The route split where it crosses the finish line (the graph marks those steps)."""
    laps: list[list[int]] = [[]]
    for i, n in enumerate(route):
        if i and g.edges[route[i - 1], n].get("finish"):  # type: ignore[attr-defined]
            laps.append([])
        laps[-1].append(n)
    return [lap for lap in laps if lap]


async def check(request: Request) -> Response:
    storage: Storage = request.app.state.storage
    data = await json_body(request, MAX_COURSE_BYTES + 4096)
    text = field(data, "text", str)
    rules = _figure_rules(storage, data)
    ref = storage.upload_ref(text)  # what uploading it would name it; nothing is stored
    try:
        with storage.scratch_course(text) as path:
            courses = load_courses(path)
    except InputError as err:
        return JSONResponse({"course": ref, "valid": False, "rules": rules.source,
                             "problems": [_problem(p) for p in err.problems], "courses": []})
    out = []
    problems: list[Problem] = []
    for c in courses:
        figs = None if c.errors else c.figures(rules)
        found = list(c.problems) + (c.figure_problems(figs) if figs else [])
        problems += found
        entry: dict[str, Any] = {"name": c.name, "direction": c.direction,
                                 "figures": figs.to_json() if figs else None,
                                 "finishable": bool(figs and figs.finishable)}
        if not c.errors:
            from avecaesar.engine.course.race_path import shortest_race_route

            route = shortest_race_route(c.graph, 1, rules)
            entry["route"] = route
            entry["laps"] = _laps(c.graph, route or [])
            try:
                entry["svg"] = board_svg(c.graph, route=route)
            except RenderError as err:
                entry["svg_error"] = str(err)
        out.append(entry)
    unique = sorted(set(problems))
    return JSONResponse({"course": ref, "rules": rules.source,
                         "valid": not any(p.severity == "error" for p in unique),
                         "problems": [_problem(p) for p in unique], "courses": out})


async def source(request: Request) -> Response:
    """The text of a bundled course, to open in the studio."""
    cid = request.query_params.get("course", "")
    found = bundled_courses().get(cid.lower())
    if found is None:
        return JSONResponse({"error": f"unknown bundled course {cid!r}"}, 404)
    return Response(found.read_text(encoding="utf-8"), media_type="text/plain")


def routes() -> list[Route]:
    return [Route("/api/studio/check", check, methods=["POST"]),
            Route("/api/studio/source", source)]
