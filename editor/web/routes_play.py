"""The Play page's API: the catalogue, uploads, the board, tables with seats, their turn
actions and live views (a WebSocket per device), the saved games.

Who asks is told by the ``X-Table-Token`` header (HTTP) or the first message (WebSocket):
the host's token, a seat's token, or none (a spectator). Every answer about a race is the
table's view for that token (tables.py, built from the engine's one view function); the
record of a race in progress is served as the table has seen it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from avecaesar.editor.render.board_svg import cached_board
from avecaesar.editor.render.lang import LANGS, current
from avecaesar.editor.table.game import Game
from avecaesar.editor.table.messages import say
from avecaesar.editor.web.requests import field, json_body
from avecaesar.editor.web.storage import MAX_COURSE_BYTES, MAX_RULES_BYTES, BadRequest, Storage
from avecaesar.editor.web.table_setup import catalog, parse_setup
from avecaesar.editor.web.tables import Role, Seat, Subscriber, Table, Tables
from avecaesar.editor.web.tournament import WebTournament
from avecaesar.engine.core.record import read_record
from avecaesar.engine.core.view import public_record
from avecaesar.engine.data.errors import AveCaesarError, InputError

__all__ = ["links", "routes"]

#: a device that has sent nothing for this long is asked again (seconds)
HEARTBEAT = 20.0


def _storage(request: Request | WebSocket) -> Storage:
    storage: Storage = request.app.state.storage
    return storage


def _tables(request: Request | WebSocket) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def _token(request: Request) -> str | None:
    return request.headers.get("x-table-token") or None


async def get_catalog(request: Request) -> Response:
    return JSONResponse(catalog())


async def get_text(request: Request) -> Response:
    """The page's words in every language (the ``page`` section of the one catalog the
    server speaks from too) and the language the request asks for."""
    from avecaesar.editor.render.lang import catalog as words

    return JSONResponse({"languages": words()["languages"], "lang": current(),
                         "page": words()["page"]})


async def upload_course(request: Request) -> Response:
    data = await json_body(request, MAX_COURSE_BYTES + 4096)
    ref = _storage(request).store_course(field(data, "text", str))
    path = _storage(request).course_path(ref)
    from avecaesar.engine.course.load import load_course

    course = load_course(path)  # the same reading and validation as the CLI
    if course.errors:
        raise InputError(course.errors)
    return JSONResponse({"course": ref, "name": course.name})


async def upload_rules(request: Request) -> Response:
    """A house-rules file or a variant file, read as the CLI reads it."""
    data = await json_body(request, MAX_RULES_BYTES + 4096)
    ref, rules = _storage(request).store_rules_file(field(data, "text", str),
                                                    field(data, "kind", str))
    return JSONResponse({"ref": ref, "keys": sorted(rules)})


async def board(request: Request) -> Response:
    ref = request.query_params.get("course", "")
    path = _storage(request).course_path(ref)
    # every space with its number: the messages and the log name spaces by it
    return Response(cached_board(path, numbers=True), media_type="image/svg+xml")


# -- links -------------------------------------------------------------------------------------
def _base(request: Request) -> str:
    given = request.app.state.public_url
    return given.rstrip("/") if given else f"{request.url.scheme}://{request.headers['host']}"


def links(table: Table, base: str) -> dict[str, Any]:
    """The join link of every person's seat (with its QR code), the spectator's and the
    host's own (to reopen the host screen on another device)."""
    import segno

    page = f"{base}/play?table={table.id}"
    seats = []
    for i, s in enumerate(table.seats):
        entry: dict[str, Any] = {"seat": i, "name": s.name, "bot": s.bot}
        if s.bot is None and not table.shared:
            entry["link"] = f"{page}#seat={s.token}"
            entry["qr"] = segno.make(entry["link"], error="m", micro=False).svg_inline(
                scale=4, title=f"seat {i + 1}: {s.name}")
        seats.append(entry)
    return {"table": table.id, "spectator": page, "host": f"{page}#host={table.host}",
            "seats": seats}


# -- tables -------------------------------------------------------------------------------------
async def create_table(request: Request) -> Response:
    storage, tables = _storage(request), _tables(request)
    data = await json_body(request)
    form, options = parse_setup(data, storage)
    table = Table(Tables.new_id(), secrets.token_urlsafe(18), options.shared,
                  options.delay_ms,
                  [Seat(p.name, p.bot, secrets.token_urlsafe(18)) for p in form.seats])
    path = storage.new_save(form.seats[0].name)

    def build() -> None:
        setup = form.compose()
        if options.tournament:
            _tour, game = WebTournament.start(storage.saves, setup, path, setup.course)
        else:
            game = Game.new(setup, path)
        table.game = game
        table.races.append(path.name)
        tables.save(table)
        table.refresh()

    tables.add(table)
    try:
        await anyio.to_thread.run_sync(build)
    except BaseException:
        tables.loaded.pop(table.id, None)
        raise
    table.schedule_bots()
    out = links(table, _base(request))
    announce = request.app.state.announce
    if announce is not None:
        announce(out)
    return JSONResponse({**out, "token": table.host, "view": table.view(Role.HOST, None)})


def _table(request: Request) -> Table:
    table = _tables(request).get(request.path_params["tid"])
    table.schedule_bots()
    return table


async def get_table(request: Request) -> Response:
    table = _table(request)
    role, seat = table.role(_token(request))
    return JSONResponse(table.view(role, seat))


async def host_links(request: Request) -> Response:
    table = _table(request)
    if table.role(_token(request))[0] != Role.HOST:
        raise BadRequest(say("host_only"), 403)
    return JSONResponse(links(table, _base(request)))


def _turn_check(table: Table, role: Role, seat: int | None) -> bool:
    """Whether the asker may act for the person to move; returns ``shared``."""
    game = table.game
    assert game is not None
    if table.shared:
        if role != Role.HOST:
            raise BadRequest(say("host_only"), 403)
        return True
    if role != Role.SEAT:
        raise BadRequest(say("spectator"), 403)
    s = game.state
    if not s.over and game.owner[s.turn] != seat:
        raise BadRequest(say("not_your_turn", name=s.game.names[s.turn]), 409)
    return False


def _do(table: Table, role: Role, seat: int | None, what: str, data: dict[str, Any]
        ) -> str | None:
    """One turn action, under the table's lock; returns a why-not or None."""
    game = table.game
    assert game is not None
    if what == "move":
        shared = _turn_check(table, role, seat)
        return game.move(field(data, "card", int), field(data, "space", int, None), shared)
    if what == "skip":
        shared = _turn_check(table, role, seat)
        if not game.skip_if_forced(shared):
            raise BadRequest(say("has_move"), 409)
        return None
    if what == "reveal":
        if not table.shared or role != Role.HOST:
            raise BadRequest(say("host_only"), 403)
        game.reveal()
        return None
    if what == "undo":
        if (table.shared and role != Role.HOST) or (not table.shared and role != Role.SEAT):
            raise BadRequest(say("host_only" if table.shared else "spectator"), 403)
        game.undo_last(None if table.shared else seat)
        return None
    if what == "step":
        if role == Role.SPECTATOR:
            raise BadRequest(say("spectator"), 403)
        game.step_bot()
        return None
    raise BadRequest(f"unknown action {what!r}", 404)


async def action(request: Request) -> Response:
    table = _table(request)
    role, seat = table.role(_token(request))
    what = request.path_params["action"]
    data = await json_body(request) if request.headers.get("content-length", "0") != "0" \
        else {}
    why = await table.change(lambda: _do(table, role, seat, what, data))
    out = dict(table.view(role, seat))
    if why is not None:
        out["why_not"] = why
    return JSONResponse(out)


async def seat_action(request: Request) -> Response:
    """The host hands a person's seat to a bot (``bot``: its name) or takes it back
    (``bot``: null)."""
    from avecaesar.engine.bots.registry import POLICIES

    table = _table(request)
    if table.role(_token(request))[0] != Role.HOST:
        raise BadRequest(say("host_only"), 403)
    data = await json_body(request)
    i = field(data, "seat", int)
    bot = field(data, "bot", str, None)
    if not 0 <= i < len(table.seats):
        raise BadRequest(say("no_seat", seat=i + 1), 404)
    if table.seats[i].bot is not None:
        raise BadRequest(say("seat_is_bot", seat=i + 1), 409)
    if bot is not None and bot not in POLICIES:
        raise BadRequest(f"unknown bot {bot!r}; known: {', '.join(POLICIES)}")

    def hand_over() -> None:
        table.seats[i].stand_in = bot
        _tables(request).save(table)

    await table.change(hand_over)
    return JSONResponse(table.view(Role.HOST, None))


async def new_race(request: Request) -> Response:
    """The host starts the next race at the same seats: ``again`` (same setup, a new
    random seed) or ``next-race`` (the tournament's next race)."""
    storage, tables = _storage(request), _tables(request)
    table = _table(request)
    if table.role(_token(request))[0] != Role.HOST:
        raise BadRequest(say("host_only"), 403)
    if request.path_params["kind"] not in ("again", "next-race"):
        raise BadRequest("a new race is 'again' or 'next-race'", 404)
    tournament = request.path_params["kind"] == "next-race"

    def start() -> None:
        game = table.game
        assert game is not None
        current = table.races[-1]
        if tournament:
            tour = WebTournament.of_record(storage.saves, current)
            if tour is None:
                raise BadRequest("this race is not part of a tournament")
            if tour.races[-1] != current or not game.state.over:
                raise BadRequest("only the last race of a tournament, once over, has a next "
                                 "race", 409)
            path = storage.new_save(f"{tour.id}-race{len(tour.races) + 1}")
            nxt = tour.next_game(storage.saves, path)
        else:
            path = storage.new_save(game.setup.seats[0].name)
            nxt = Game.new(game.setup.for_race(seed=secrets.randbelow(1_000_000_000)), path)
        table.game = nxt
        table.races.append(path.name)
        tables.save(table)

    await table.change(start)
    return JSONResponse(table.view(Role.HOST, None))


async def live(ws: WebSocket) -> None:
    """A device's live views: the first message names its token; then every change is
    pushed (the current view first, so a device that was away catches up at once)."""
    await ws.accept()
    try:
        first = json.loads(await asyncio.wait_for(ws.receive_text(), 10))
        token = first.get("token") if isinstance(first, dict) else None
        table = _tables(ws).get(ws.path_params["tid"])
        role, seat = table.role(token if isinstance(token, str) else None)
    except (AveCaesarError, ValueError, TimeoutError, WebSocketDisconnect) as err:
        with contextlib.suppress(Exception):
            await ws.send_json({"error": str(err) or "send your token first"})
            await ws.close(1008)
        return
    lang = first.get("lang") if isinstance(first, dict) else None
    sub = Subscriber(Table.key(role, seat), seat, lang if lang in LANGS else current())
    table.subscribers.add(sub)
    await _online_changed(table)
    sub.offer(table.view(role, seat, sub.lang))
    table.schedule_bots()
    try:
        await _pump(ws, sub)
    finally:
        table.subscribers.discard(sub)
        await _online_changed(table)


async def _online_changed(table: Table) -> None:
    async with table.lock:
        table.refresh()
        table.push()


async def _pump(ws: WebSocket, sub: Subscriber) -> None:
    """Send each new view; answer pings; end when the device goes."""
    receiving = asyncio.ensure_future(ws.receive_text())
    try:
        while True:
            getting = asyncio.ensure_future(sub.queue.get())
            done, _ = await asyncio.wait({receiving, getting}, timeout=HEARTBEAT,
                                         return_when=asyncio.FIRST_COMPLETED)
            if getting in done:
                await ws.send_json(getting.result())
            else:
                getting.cancel()
            if receiving in done:
                receiving.result()  # raises WebSocketDisconnect when the device went
                receiving = asyncio.ensure_future(ws.receive_text())
            if not done:
                await ws.send_json({"beat": True})
    except (WebSocketDisconnect, RuntimeError, OSError):
        return
    finally:
        receiving.cancel()


# -- saved games -----------------------------------------------------------------------------
def _record_tables(tables: Tables) -> dict[str, str]:
    """Record name → the table it was played at."""
    out = {}
    for path in tables.folder.glob("t*.json"):
        with contextlib.suppress(OSError, ValueError, KeyError):
            for name in json.loads(path.read_text(encoding="utf-8"))["races"]:
                out[name] = path.stem
    return out


async def saves(request: Request) -> Response:
    storage = _storage(request)
    owners = _record_tables(_tables(request))
    out = []
    for path in storage.list_saves()[:200]:
        try:
            lines = read_record(path)
        except AveCaesarError:
            out.append({"record": path.name, "broken": True})
            continue
        head = lines[0]
        out.append({"record": path.name, "ruleset": head["ruleset"],
                    "course": storage.course_ref(head["course"]),
                    "players": [p["name"] for p in head["players"]],
                    "turns": sum(1 for ln in lines if ln["type"] not in ("header", "result")),
                    "over": lines[-1]["type"] == "result", "table": owners.get(path.name)})
    return JSONResponse(out)


async def save_file(request: Request) -> Response:
    """A record as the table has seen it: whole once the race is over; while it runs,
    without the seed, the start position and the legal-move counts."""
    path = _storage(request).save_path(request.path_params["name"])
    lines = [{k: v for k, v in ln.items() if k != "_line"} for ln in read_record(path)]
    text = "".join(json.dumps(ln, ensure_ascii=False, separators=(",", ":")) + "\n"
                   for ln in public_record(lines))
    return Response(text, media_type="application/x-ndjson", headers={
        "content-disposition": f'attachment; filename="{path.name}"'})


async def table_of_save(request: Request) -> Response:
    """Continue a saved record that no table owns (uploaded, or from the terminal) at a new
    table with one device passed around; the asker is its host."""
    storage, tables = _storage(request), _tables(request)
    name = request.path_params["name"]
    path = storage.save_path(name)
    owner = _record_tables(tables).get(name)
    if owner is not None:
        raise BadRequest(f"this game is played at table {owner}: open it from its host's "
                         "device", 409)
    game = await anyio.to_thread.run_sync(Game.resume, path, storage.checked_header)
    table = Table(Tables.new_id(), secrets.token_urlsafe(18), True,
                  int(field(await json_body(request), "delay_ms", int, 700))
                  if request.headers.get("content-length", "0") != "0" else 700,
                  [Seat(p.name, p.bot, secrets.token_urlsafe(18))
                   for p in game.setup.seats], [name])
    table.game = game
    tables.save(table)
    tables.add(table)
    table.refresh()
    table.schedule_bots()
    return JSONResponse({**links(table, _base(request)), "token": table.host,
                         "view": table.view(Role.HOST, None)})


def routes() -> list[BaseRoute]:
    return [
        Route("/api/catalog", get_catalog),
        Route("/api/text", get_text),
        Route("/api/courses", upload_course, methods=["POST"]),
        Route("/api/rules-files", upload_rules, methods=["POST"]),
        Route("/api/board", board),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{tid}", get_table),
        Route("/api/tables/{tid}/links", host_links),
        Route("/api/tables/{tid}/seat", seat_action, methods=["POST"]),
        Route("/api/tables/{tid}/race/{kind:str}", new_race, methods=["POST"]),
        Route("/api/tables/{tid}/{action}", action, methods=["POST"]),
        WebSocketRoute("/api/tables/{tid}/live", live),
        Route("/api/saves", saves),
        Route("/api/saves/{name}", save_file),
        Route("/api/saves/{name}/table", table_of_save, methods=["POST"]),
    ]
