"""The Course studio's API: the CLI with a board.

A course text (typed, pasted, uploaded or a bundled course's) is read, checked and figured
exactly as ``course validate`` does — from the text itself, nothing is stored per keystroke
(:func:`~avecaesar.engine.course.load.load_courses` with ``text``; its includes name bundled
piece files by id). It answers the problems with line and column, the figures per start
place under a ruleset, ``--explain`` (laps counted as the CLI counts them), the shortest race
lap by lap and the board; on request ``--what-if``, ``--update-figures`` (the text with
its declared figures set to the computed ones), an export (SVG, PNG, PDF) and "try it": a
race against bots on the Play page (under the ruleset shown) and a short simulation (under
the ruleset shown; none chosen is a clear message, never another edition's rules). Only
those two store the text (as an upload, named by its content hash: the Play page and the
simulation read courses from files).
"""

from __future__ import annotations

import re
import time
from pathlib import PurePath
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from avecaesar.editor.render.board import RenderError, board_svg, render
from avecaesar.editor.render.board_problems import drawing_problems
from avecaesar.editor.render.board_svg import inline_svg
from avecaesar.editor.render.lang import catalog, text
from avecaesar.editor.table.messages import say
from avecaesar.editor.web.requests import field, json_body
from avecaesar.editor.web.storage import MAX_COURSE_BYTES, BadRequest, Storage
from avecaesar.editor.web.studio_generate import generate_routes
from avecaesar.engine.course.bundled import CCW, bundled_course_ids
from avecaesar.engine.course.figures import DEFAULT_FIGURES, RaceFigures
from avecaesar.engine.course.load import Course, bundled_courses, load_courses
from avecaesar.engine.data.errors import InputError, Problem

__all__ = ["routes"]

EXPORTS = {"svg": "image/svg+xml", "png": "image/png", "pdf": "application/pdf"}
SIM_RACES = 300  # a short simulation: a few hundred races …
SIM_SECONDS = 8.0  # … within about this long (fewer races on a slow course)
_FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._ -]{0,80}\.ya?ml$")


def _problem(p: Problem) -> dict[str, Any]:
    return {"line": p.line, "column": p.column, "message": p.message, "severity": p.severity}


def _file_name(data: dict[str, Any]) -> str:
    """The name the text goes by (in messages and downloads): a plain file name."""
    name = PurePath(str(field(data, "file", str, "course.yaml"))).name
    return name if _FILE.match(name) else "course.yaml"


def _figure_rules(storage: Storage, data: dict[str, Any]) -> RaceFigures:
    ruleset = field(data, "ruleset", str, "")
    if not ruleset:
        return DEFAULT_FIGURES
    from avecaesar.engine.ruleset.load import load_ruleset, race_figures

    variants = [storage.rule_name(str(v)) for v in field(data, "variants", list, [])]
    return race_figures(load_ruleset(storage.rule_name(ruleset), variants, {}))


def _text(data: dict[str, Any]) -> str:
    text: str = field(data, "text", str)
    if len(text.encode("utf-8")) > MAX_COURSE_BYTES:
        raise BadRequest(say("api_course_over", most=MAX_COURSE_BYTES), 413)
    return text


def _read(data: dict[str, Any]) -> list[Course]:
    """The courses of the request's text (every direction it declares); unreadable text is
    an :class:`InputError`. A bundled course's text, unchanged, keeps the bundled id; a
    changed one is a copy named after its file (as ``course new --from`` makes it)."""
    text = _text(data)
    base = str(field(data, "bundled", str, "")).lower().removesuffix(CCW)
    path = bundled_courses().get(base)
    cid = base if path is not None and path.read_text(encoding="utf-8") == text else None
    return load_courses(_file_name(data), cid, text=text)


def _direction(courses: list[Course], data: dict[str, Any]) -> Course:
    want = field(data, "direction", str, "clockwise")
    for c in courses:
        if c.direction == want:
            return c
    known = "dir_" + want in catalog()["events"]
    raise BadRequest(say("api_not_driven", way=text("events", "dir_" + want) if known else want))


def _board(c: Course, route: list[int] | None, numbers: bool) -> dict[str, Any]:
    return {"svg": inline_svg(board_svg(c.graph, route=route, numbers=numbers))}


def _course_entry(c: Course, rules: RaceFigures, numbers: bool) -> tuple[dict[str, Any],
                                                                       list[Problem]]:
    """One direction: figures, the explanation, the race lap by lap and the board."""
    from avecaesar.engine.course.explain import explain

    figs = None if c.errors else c.figures(rules)
    found = list(c.problems)
    entry: dict[str, Any] = {"id": c.id, "name": c.name, "direction": c.direction,
                             "figures": figs.to_json() if figs else None,
                             "finishable": bool(figs and figs.finishable)}
    if figs is None:
        entry["why_no_board"] = ("the course has errors: no board until they are fixed "
                                 "(the problems above)")
        return entry, found
    found += c.rule_problems(figs, rules) + c.figure_problems(figs) + drawing_problems(c)
    ex = explain(c, rules)
    entry["explain"] = ex.to_json()
    first = ex.places[0] if ex.places else None
    route = [n for seg in first.segments for n in seg] if first and first.race else None
    if first is not None and first.segments:
        entry["laps"] = [{"name": "run-up" if k == 0 else f"lap {k}", "spaces": seg,
                          "steps": first.by_lap[k]}
                         for k, seg in enumerate(first.segments) if k or first.by_lap[0]]
    entry.update(_board(c, route, numbers))
    return entry, found


async def check(request: Request) -> Response:
    storage: Storage = request.app.state.storage
    data = await json_body(request, MAX_COURSE_BYTES + 4096)
    rules = _figure_rules(storage, data)
    numbers = bool(field(data, "numbers", bool, True))
    try:
        courses = await run_in_threadpool(_read, data)
    except InputError as err:
        return JSONResponse({"file": _file_name(data), "valid": False, "rules": rules.source,
                             "problems": [_problem(p) for p in err.problems], "courses": [],
                             "why_no_board": "the text cannot be read as a course: no board "
                                             "until the problems above are fixed"})

    def entries() -> tuple[list[dict[str, Any]], list[Problem]]:
        out, problems = [], []
        for c in courses:
            entry, found = _course_entry(c, rules, numbers)
            out.append(entry)
            problems += found
        return out, problems

    out, problems = await run_in_threadpool(entries)
    unique = sorted(set(problems))
    return JSONResponse({"file": _file_name(data), "rules": rules.source,
                         "valid": not any(p.severity == "error" for p in unique),
                         "problems": [_problem(p) for p in unique], "courses": out})


async def what_if(request: Request) -> Response:
    """``course validate --what-if [--reserve N]`` for one direction of the text."""
    from avecaesar.engine.course.whatif import what_if as search

    storage: Storage = request.app.state.storage
    data = await json_body(request, MAX_COURSE_BYTES + 4096)
    rules = _figure_rules(storage, data)
    reserve = field(data, "reserve", int, 0)
    if not -50 <= reserve <= 50:
        raise BadRequest(say("api_reserve"))
    course = _direction(await run_in_threadpool(_read, data), data)
    if course.errors:
        raise InputError(course.errors)
    report = await run_in_threadpool(search, course, rules, reserve)

    def entry(w: Any) -> dict[str, Any]:
        return {"edits": [{"edit": e.description, "file": PurePath(e.file).name,
                           "line": e.line, "in_this_file": PurePath(e.file).name
                           == _file_name(data)} for e in w.edits],
                "figures": w.figures.to_json(), "warnings": w.warnings, "closes": w.closes}

    return JSONResponse({
        "reserve": reserve, "tried": report.tried, "budget": rules.budget,
        "found": [entry(w) for w in report.found],
        "closing": [entry(w) for w in report.closing],
        "short": report.short, "combinations": [entry(w) for w in report.combinations],
        "combinations_considered": report.combos_considered,
        "combinations_tried": report.combos_tried,
        "invalid": [{"edit": e.description, "problem": why} for e, why in report.invalid]})


async def export(request: Request) -> Response:
    """The board as a file (``course render``): SVG, PNG or an A4 landscape PDF, named after
    the course file."""
    from avecaesar.engine.course.race_path import shortest_race_route

    data = await json_body(request, MAX_COURSE_BYTES + 4096)
    fmt = field(data, "format", str, "svg")
    if fmt not in EXPORTS:
        raise BadRequest(say("api_format", fmt=fmt, formats=", ".join(EXPORTS)))
    course = _direction(await run_in_threadpool(_read, data), data)
    if course.errors:
        raise InputError(course.errors)
    numbers = bool(field(data, "numbers", bool, True))

    def draw() -> bytes:
        route = shortest_race_route(course.graph, 1) if field(data, "route", bool, True) \
            else None
        return render(board_svg(course.graph, route=route, numbers=numbers,
                                paper="a4" if fmt == "pdf" else None), fmt)

    try:
        body = await run_in_threadpool(draw)
    except RenderError as err:
        raise BadRequest(str(err), 503) from None
    stem = PurePath(_file_name(data)).stem
    suffix = "-ccw" if course.direction == "anticlockwise" else ""
    return Response(body, media_type=EXPORTS[fmt], headers={
        "content-disposition": f'attachment; filename="{stem}{suffix}.{fmt}"'})


def _stored(storage: Storage, data: dict[str, Any]) -> tuple[str, str]:
    """(the course reference the Play page takes, the path the engine loads): the bundled id
    when the text is a bundled course's, unchanged; else the text kept as an upload."""
    text = _text(data)
    bundled = field(data, "bundled", str, "")
    base = bundled.lower().removesuffix(CCW)
    path = bundled_courses().get(base)
    if path is not None and path.read_text(encoding="utf-8") == text:
        return bundled, bundled
    ref = storage.store_course(text)
    return ref, storage.course_path(ref)


async def update_figures(request: Request) -> Response:
    """``course validate --update-figures`` on the text: the text with every declared figure
    set to what the course gives under the ruleset shown (each value replaced where it
    stands, every other byte kept), the lines that changed, and whether any did."""
    from avecaesar.engine.course.figures_text import rewrite_figures

    storage: Storage = request.app.state.storage
    data = await json_body(request, MAX_COURSE_BYTES + 4096)
    rules = _figure_rules(storage, data)
    text = _text(data)
    courses = await run_in_threadpool(_read, data)
    errors = [p for c in courses for p in c.errors]
    if errors:
        raise InputError(errors)

    def rewrite() -> str:
        blocks: dict[tuple[str, ...], dict[str, Any]] = {}
        for c in courses:
            block = ("anticlockwise", "figures") if c.direction == "anticlockwise" \
                else ("figures",)
            blocks[block] = c.figures(rules).to_json()
        return rewrite_figures(text, blocks)

    new = await run_in_threadpool(rewrite)
    old_lines, new_lines = text.splitlines(), new.splitlines()
    changed = [i + 1 for i, line in enumerate(new_lines)
               if i >= len(old_lines) or old_lines[i] != line]
    return JSONResponse({"text": new, "changed": new != text, "lines": changed,
                         "rules": rules.source})


async def try_it(request: Request) -> Response:
    """Race it against bots: the Play page's address with this course chosen, under the
    ruleset shown (when one is), the course named by its name."""
    storage: Storage = request.app.state.storage
    data = await json_body(request, MAX_COURSE_BYTES + 4096)
    course = _direction(await run_in_threadpool(_read, data), data)
    if course.errors:
        raise InputError(course.errors)
    ref, _path = _stored(storage, data)
    if course.direction == "anticlockwise" and not ref.endswith(CCW):
        if ref.startswith("upload:"):
            raise BadRequest(say("api_upload_ccw"))
        ref += CCW
    from urllib.parse import urlencode

    ruleset = field(data, "ruleset", str, "")
    query = {"course": ref, "name": course.name, **({"ruleset": ruleset} if ruleset else {})}
    return JSONResponse({"course": ref, "name": course.name, "ruleset": ruleset or None,
                         "play": "/play?" + urlencode(query)})


async def simulate(request: Request) -> Response:
    """A short simulation on this course, now: greedy bots from every start place, a few
    hundred races (fewer when a race is slow), the engine's balance lab
    (:func:`avecaesar.engine.lab.simulate.simulate`): win rate by start place and the
    spaces where chariots are blocked."""
    storage: Storage = request.app.state.storage
    data = await json_body(request, MAX_COURSE_BYTES + 4096)
    course = _direction(await run_in_threadpool(_read, data), data)
    if course.errors:
        raise InputError(course.errors)
    shown = field(data, "ruleset", str, "")
    if not shown:
        raise BadRequest(say("api_choose_rules", hint=_edition_hint(course)))
    ruleset = storage.rule_name(shown)
    variants = tuple(storage.rule_name(str(v)) for v in field(data, "variants", list, []))
    races = field(data, "races", int, SIM_RACES)
    if not 1 <= races <= 1000:
        raise BadRequest(say("api_races"))
    ref, path = _stored(storage, data)
    if course.direction == "anticlockwise":
        if not ref.endswith(CCW) and ref.startswith("upload:"):
            raise BadRequest(say("api_simulate_ccw"))
        path = ref if ref.endswith(CCW) else ref + CCW
    result = await run_in_threadpool(_simulate, course, ruleset, variants, path, races)
    return JSONResponse(result)


def _edition_hint(course: Course) -> str:
    """Which ruleset to pick: the course's own edition, or (a homebrew course) any."""
    from avecaesar.engine.ruleset.catalog import bundled

    names = [e.id for e in bundled() if e.kind == "edition"]
    if course.model.edition in names:
        return say("api_edition_hint", edition=course.model.edition)
    return say("api_homebrew_hint", names=", ".join(names))


def _simulate(course: Course, ruleset: str, variants: tuple[str, ...], path: str,
              races: int) -> dict[str, Any]:
    from avecaesar.engine.lab.simulate import SimSpec, simulate, summarise_race

    players = len(course.graph.graph["start_places"])
    spec = SimSpec(ruleset, path, players, races, seed=1, variants=variants)
    t = time.perf_counter()
    summarise_race(spec, 0)  # the set-up (rules and board, built once) and one race, then …
    setup = time.perf_counter() - t
    times = []
    for i in (1, 2, 3):  # … a few more races: how long does one take (caches warm)?
        lap = time.perf_counter()
        summarise_race(spec, i)
        times.append(time.perf_counter() - lap)
    per_race = max(min(times), 1e-3)
    run = min(races, max(20, int((SIM_SECONDS - setup) / per_race)))
    spec = SimSpec(ruleset, path, players, run, seed=1, variants=variants)
    rep = simulate(spec, workers=1, heat=True)
    g = course.graph
    blocked = sorted(rep.blocked_at.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    finished = 1 - sum(p.not_finished for p in rep.by_place) / max(1, len(rep.by_place))
    return {"ruleset": ruleset, "variants": list(variants), "races": rep.races,
            "asked": races, "players": players, "bots": list(spec.bots),
            "seconds": round(time.perf_counter() - t, 1), "finish_rate": finished,
            "balance": rep.balance, "deadlocks": rep.deadlocks,
            "by_place": [{"place": p.place, "win_rate": p.win_rate,
                          "win_ci": list(p.win_ci), "mean_place": p.mean_place,
                          "not_finished": p.not_finished} for p in rep.by_place],
            "blocked_skips": rep.blocked_skips,
            "blocked": [{"space": n, "label": g.nodes[n]["label"], "turns": k}
                        for n, k in blocked if n in g.nodes]}


async def source(request: Request) -> Response:
    """The text of a bundled course, to open in the studio (``-ccw`` ids open their file)."""
    cid = request.query_params.get("course", "").lower()
    found = bundled_courses().get(cid.removesuffix(CCW))
    if found is None or cid not in bundled_course_ids():
        return JSONResponse({"error": say("api_unknown_bundled", cid=cid)}, 404)
    return Response(found.read_text(encoding="utf-8"), media_type="text/plain")


async def courses(request: Request) -> Response:
    """Every bundled course id (both directions) with its file's name."""
    files = bundled_courses()
    return JSONResponse([{"id": cid, "file": files[cid.removesuffix(CCW)].name,
                          "direction": "anticlockwise" if cid.endswith(CCW) else "clockwise"}
                         for cid in bundled_course_ids()])


def routes() -> list[Route]:
    return [Route("/api/studio/check", check, methods=["POST"]),
            Route("/api/studio/what-if", what_if, methods=["POST"]),
            Route("/api/studio/export", export, methods=["POST"]),
            Route("/api/studio/try", try_it, methods=["POST"]),
            Route("/api/studio/update-figures", update_figures, methods=["POST"]),
            Route("/api/studio/simulate", simulate, methods=["POST"]),
            Route("/api/studio/source", source),
            Route("/api/studio/courses", courses),
            *generate_routes()]
