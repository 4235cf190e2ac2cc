"""The Play page's API: catalogue, course upload, board, new game, turn actions, saves."""

from __future__ import annotations

import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from avecaesar.editor.render.board_svg import cached_board
from avecaesar.editor.table.game import Game, GameSetup
from avecaesar.editor.web.requests import field, json_body
from avecaesar.editor.web.storage import MAX_COURSE_BYTES, BadRequest, Storage
from avecaesar.editor.web.tournament import WebTournament
from avecaesar.engine.bots.registry import POLICIES
from avecaesar.engine.core.record import read_record
from avecaesar.engine.course.load import bundled_courses
from avecaesar.engine.data.errors import InputError

__all__ = ["routes"]

MAX_PLAYERS = 12


def _storage(request: Request) -> Storage:
    storage: Storage = request.app.state.storage
    return storage


def _games(request: Request) -> dict[str, Game]:
    games: dict[str, Game] = request.app.state.games
    return games


async def catalog(request: Request) -> Response:
    from avecaesar.engine.ruleset.catalog import bundled

    entries = bundled()
    return JSONResponse({
        "rulesets": [e.to_json() for e in entries if e.kind != "variant"],
        "variants": [e.to_json() for e in entries if e.kind == "variant"],
        "courses": sorted(bundled_courses()), "bots": list(POLICIES),
        "max_course_bytes": MAX_COURSE_BYTES})


async def upload_course(request: Request) -> Response:
    data = await json_body(request, MAX_COURSE_BYTES + 4096)
    ref = _storage(request).store_course(field(data, "text", str))
    path = _storage(request).course_path(ref)
    from avecaesar.engine.course.load import load_course

    course = load_course(path)  # the same reading and validation as the CLI
    if course.errors:
        raise InputError(course.errors)
    return JSONResponse({"course": ref, "name": course.name})


async def board(request: Request) -> Response:
    ref = request.query_params.get("course", "")
    path = _storage(request).course_path(ref)
    return Response(cached_board(path), media_type="image/svg+xml")


def _setup(data: dict[str, Any], storage: Storage) -> GameSetup:
    players = field(data, "players", list)
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise BadRequest(f"give 1 to {MAX_PLAYERS} players")
    seats = []
    for i, p in enumerate(players, start=1):
        if not isinstance(p, dict):
            raise BadRequest(f"player {i} must be an object with name and bot")
        name = str(field(p, "name", str)).strip()[:40] or f"Player {i}"
        bot = field(p, "bot", str, None)
        if bot is not None and bot not in POLICIES:
            raise BadRequest(f"player {i}: unknown bot {bot!r}; known: {', '.join(POLICIES)}")
        seats.append({"name": name, "bot": bot})
    if len({s["name"] for s in seats}) != len(seats):
        raise BadRequest("two players have the same name")
    variants = field(data, "variants", list, [])
    overrides = field(data, "overrides", dict, {})
    if not all(isinstance(v, str) for v in variants) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in overrides.items()):
        raise BadRequest("variants are names and overrides map keys to values (strings)")
    seed = field(data, "seed", int, None)
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    from avecaesar.engine.ruleset.compose import parse_override

    for k, v in overrides.items():
        parse_override(f"{k}={v}")  # the CLI's --set check: unknown keys get "did you mean"
    for name in [field(data, "ruleset", str), *variants]:
        storage.rule_name(name)
    return GameSetup(field(data, "ruleset", str), variants, overrides,
                     storage.course_path(field(data, "course", str)), seed, seats)


async def new_game(request: Request) -> Response:
    storage = _storage(request)
    data = await json_body(request)
    setup = _setup(data, storage)
    path = storage.new_save(setup.players[0]["name"])
    if field(data, "tournament", bool, False):
        _tour, game = WebTournament.start(storage.saves, setup, path, setup.course)
    else:
        game = Game.new(setup, path)
    _games(request)[path.name] = game
    return JSONResponse(_view(game, storage))


async def next_race(request: Request) -> Response:
    """The next race of the tournament the (finished) game belongs to."""
    storage = _storage(request)
    game = _game(request)
    tour = WebTournament.of_record(storage.saves, request.path_params["name"])
    if tour is None:
        raise BadRequest("this game is not part of a tournament")
    if tour.races[-1] != request.path_params["name"] or not game.state.over:
        raise BadRequest("only the last race of a tournament, once over, has a next race", 409)
    path = storage.new_save(f"{tour.id}-race{len(tour.races) + 1}")
    nxt = tour.next_game(storage.saves, path)
    _games(request)[path.name] = nxt
    return JSONResponse(_view(nxt, storage))


def _view(game: Game, storage: Storage) -> dict[str, Any]:
    out = game.view()
    out["course"] = storage.course_ref(game.setup.course)
    out["setup"] = {**game.setup.header(), "course": out["course"]}
    if game.state.over and game.path is not None:
        tour = WebTournament.of_record(storage.saves, game.path.name)
        if tour is not None:
            out["tournament"] = tour.view(storage.saves)
    return out


def _game(request: Request) -> Game:
    name = request.path_params["name"]
    games = _games(request)
    if name not in games:  # not in memory (server restarted, or a saved game): resume it
        storage = _storage(request)
        path = storage.save_path(name)
        games[name] = Game.resume(path, storage.checked_header)
    return games[name]


async def get_game(request: Request) -> Response:
    return JSONResponse(_view(_game(request), _storage(request)))


async def resume_game(request: Request) -> Response:
    """Forget the game in memory and continue it from its record on disk."""
    _games(request).pop(request.path_params["name"], None)
    return await get_game(request)


async def action(request: Request) -> Response:
    game = _game(request)
    what = request.path_params["action"]
    why = None
    if what == "reveal":
        game.reveal()
    elif what == "step":
        game.step_bot()
    elif what == "skip":
        game.human_turn_ready()
        if not game.skip_if_forced():
            raise BadRequest("you have a legal move: no skip", 409)
    elif what == "undo":
        game.undo_last()
    elif what == "move":
        data = await json_body(request)
        why = game.move(field(data, "card", int), field(data, "space", int, None))
    else:
        raise BadRequest(f"unknown action {what!r}", 404)
    out = _view(game, _storage(request))
    if why is not None:
        out["why_not"] = why
    return JSONResponse(out)


async def saves(request: Request) -> Response:
    out = []
    for path in _storage(request).list_saves():
        try:
            lines = read_record(path)
        except InputError:
            out.append({"record": path.name, "broken": True})
            continue
        head = lines[0]
        out.append({"record": path.name, "ruleset": head["ruleset"],
                    "course": _storage(request).course_ref(head["course"]),
                    "players": [p["name"] for p in head["players"]],
                    "turns": sum(1 for ln in lines if ln["type"] != "header"
                                 and ln["type"] != "result"),
                    "over": lines[-1]["type"] == "result"})
    return JSONResponse(out)


async def save_file(request: Request) -> Response:
    path = _storage(request).save_path(request.path_params["name"])
    return Response(path.read_bytes(), media_type="application/x-ndjson", headers={
        "content-disposition": f'attachment; filename="{path.name}"'})


def routes() -> list[Route]:
    return [
        Route("/api/catalog", catalog),
        Route("/api/courses", upload_course, methods=["POST"]),
        Route("/api/board", board),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{name}", get_game),
        Route("/api/games/{name}/resume", resume_game, methods=["POST"]),
        Route("/api/games/{name}/next-race", next_race, methods=["POST"]),
        Route("/api/games/{name}/{action}", action, methods=["POST"]),
        Route("/api/saves", saves),
        Route("/api/saves/{name}", save_file),
    ]
