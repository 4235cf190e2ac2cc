"""The Play page's API: the catalogue, uploads, the board, tables with seats, their turn
actions and live views (a WebSocket per device), the saved games and their deal's check.

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
import time
from pathlib import Path
from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from avecaesar.editor.render.board_svg import cached_board
from avecaesar.editor.render.lang import LANGS, current, name_of, text
from avecaesar.editor.table.game import Game
from avecaesar.editor.table.messages import say
from avecaesar.editor.web.requests import field, json_body, off_loop, parse_json
from avecaesar.editor.web.storage import MAX_COURSE_BYTES, MAX_RULES_BYTES, BadRequest, Storage
from avecaesar.editor.web.store import RaceRow
from avecaesar.editor.web.table_setup import SEED_LIMIT, catalog, parse_setup
from avecaesar.editor.web.tables import Role, Seat, Subscriber, Table, Tables
from avecaesar.editor.web.tournament import WebTournament
from avecaesar.engine.core.record import parse_record, read_record, replay, verify_deal
from avecaesar.engine.core.view import public_record
from avecaesar.engine.data.errors import AveCaesarError, InputError

__all__ = ["links", "routes"]

#: a device that has sent nothing for this long is asked again (seconds)
HEARTBEAT = 20.0
#: how often a device that pings is checked for having gone quiet (seconds)
PRESENCE_TICK = 0.25


def _storage(request: Request | WebSocket) -> Storage:
    storage: Storage = request.app.state.storage
    return storage


def _tables(request: Request | WebSocket) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def _token(request: Request) -> str | None:
    return request.headers.get("x-table-token") or None


def client_of(request: Request | WebSocket) -> str:
    """Who asks, for the limits: the client's address (behind a proxy on this machine,
    the address it forwards)."""
    return request.client.host if request.client else ""


async def get_catalog(request: Request) -> Response:
    return JSONResponse(catalog())


async def get_text(request: Request) -> Response:
    """The page's words in every language (the ``page`` section of the one catalog the
    server speaks from too) and the language the request asks for."""
    from avecaesar.editor.render.lang import catalog as words

    return JSONResponse({"languages": words()["languages"], "lang": current(),
                         "page": words()["page"]})


async def upload_course(request: Request) -> Response:
    """A course file, read and validated as the CLI's ``course validate`` reads it — in a
    worker thread, within the time budget."""
    data = await json_body(request, MAX_COURSE_BYTES + 4096)
    text = field(data, "text", str)
    storage, client = _storage(request), client_of(request)
    await anyio.to_thread.run_sync(_tables(request).check_upload, client)

    def read() -> dict[str, Any]:
        from avecaesar.engine.course.load import load_course

        def check(path: str) -> Any:
            course = load_course(path)  # the CLI's reading and checks
            if course.errors:
                raise InputError(course.errors)
            return course
        ref = storage.store_course(text, client, check)
        return {"course": ref, "name": load_course(storage.course_path(ref)).name}
    return JSONResponse(await off_loop(request, read))


async def upload_rules(request: Request) -> Response:
    """A house-rules file or a variant file, read as the CLI reads it."""
    data = await json_body(request, MAX_RULES_BYTES + 4096)
    text, kind = field(data, "text", str), field(data, "kind", str)
    storage, client = _storage(request), client_of(request)
    await anyio.to_thread.run_sync(_tables(request).check_upload, client)
    ref, rules = await off_loop(request, storage.store_rules_file, text, kind, client)
    return JSONResponse({"ref": ref, "keys": sorted(rules)})


async def board(request: Request) -> Response:
    ref = request.query_params.get("course", "")
    storage = _storage(request)
    path = await anyio.to_thread.run_sync(storage.course_path, ref)
    # every space with its number: the messages and the log name spaces by it
    svg = await off_loop(request, lambda: cached_board(path, numbers=True))
    return Response(svg, media_type="image/svg+xml")


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
                scale=4, title=f"{text('page', 'seat_n', n=i + 1)}: {s.name}")
        seats.append(entry)
    return {"table": table.id, "spectator": page, "host": f"{page}#host={table.host}",
            "seats": seats}


# -- tables -------------------------------------------------------------------------------------
async def create_table(request: Request) -> Response:
    """A new table: the setup read and its rules composed off the event loop, the seed
    drawn by the server unless the setup names one (practice), then kept in the database
    with its first race."""
    storage, tables = _storage(request), _tables(request)
    data = await json_body(request)
    client = client_of(request)
    await anyio.to_thread.run_sync(tables.check_new_table, client)
    form, options = await off_loop(request, parse_setup, data, storage)
    table = Table(Tables.new_id(), secrets.token_urlsafe(18), options.shared,
                  options.delay_ms, [Seat(p.name, p.bot, secrets.token_urlsafe(18))
                                     for p in form.seats],
                  confirm_ms=options.confirm_ms, client=client, lobby=options.lobby,
                  turn_s=options.turn_s)
    name = storage.new_race_name(form.seats[0].name)
    deal = "host" if options.practice else "server"

    def build() -> None:
        setup = form.compose()
        if options.tournament:
            tour, game = WebTournament.start(setup, name, setup.course,
                                             dealt=not options.practice)
            table.tournament = tour.to_doc()
        else:
            game = Game.new(setup, None, deal=deal)
            game.path = Path(name)
        table.races.append(name)
        tables.create(table, game)

    await off_loop(request, build)
    tables.add(table)
    table.schedule()
    out = links(table, _base(request))
    announce = request.app.state.announce
    if announce is not None:
        announce(out)
    return JSONResponse({**out, "token": table.host,
                         "view": await table.view(Role.HOST, None)})


async def _table(request: Request) -> Table:
    return await _tables(request).get(request.path_params["tid"])


async def get_table(request: Request) -> Response:
    table = await _table(request)
    role, seat = table.role(_token(request))
    return JSONResponse(await table.view(role, seat))


async def host_links(request: Request) -> Response:
    table = await _table(request)
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


def _mover_check(table: Table, role: Role) -> None:
    """Confirm and undo: the shared device's host, or a seat's own device."""
    if (table.shared and role != Role.HOST) or (not table.shared and role != Role.SEAT):
        raise BadRequest(say("host_only" if table.shared else "spectator"), 403)


def _do(table: Table, role: Role, seat: int | None, what: str, data: dict[str, Any]
        ) -> str | None:
    """One turn action, under the table's lock, on the current table; returns a why-not
    or None."""
    game = table.game
    assert game is not None
    if what == "move":
        shared = _turn_check(table, role, seat)
        confirm = bool(field(data, "confirm", bool, False))
        deadline = (time.time() + table.confirm_ms / 1000
                    if table.confirm_ms is not None and not confirm else None)
        return game.move(field(data, "card", int), field(data, "space", int, None), shared,
                         confirm=confirm, deadline=deadline)
    if what == "confirm":
        _mover_check(table, role)
        game.confirm(None if table.shared else seat)
        return None
    if what == "undo":
        _mover_check(table, role)
        game.take_back(None if table.shared else seat)
        return None
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
    if what == "step":
        if role == Role.SPECTATOR:
            raise BadRequest(say("spectator"), 403)
        game.step_bot()
        return None
    raise BadRequest(f"unknown action {what!r}", 404)


ACTIONS = ("move", "confirm", "undo", "skip", "reveal", "step")


async def action(request: Request) -> Response:
    what = request.path_params["action"]
    if what not in ACTIONS:
        raise BadRequest(f"unknown action {what!r}", 404)
    # the body first: the table is taken (current) only once the request is all here
    data = await json_body(request) if request.headers.get("content-length", "0") != "0" \
        else {}
    table = await _table(request)
    role, seat = table.role(_token(request))
    if table.lobby:
        raise BadRequest(say("lobby_wait"), 409)
    why = await table.change(lambda: _do(table, role, seat, what, data))
    out = dict(await table.view(role, seat))
    if why is not None:
        out["why_not"] = why
    return JSONResponse(out)


async def start(request: Request) -> Response:
    """The host starts a table that waits for its players: every person's seat not online
    is handed to a greedy bot (its device takes it back with "I'm back")."""
    table = await _table(request)
    if table.role(_token(request))[0] != Role.HOST:
        raise BadRequest(say("host_only"), 403)
    await table.open_lobby(empty_to_bots=True)
    return JSONResponse(await table.view(Role.HOST, None))


async def seat_action(request: Request) -> Response:
    """The host hands a person's seat to a bot (``bot``: its name) or takes it back
    (``bot``: null); the seat's own device takes it back too ("I'm back"). A move the
    person left pending is played first."""
    from avecaesar.engine.bots.registry import POLICIES

    data = await json_body(request)
    table = await _table(request)
    role, own = table.role(_token(request))
    i = field(data, "seat", int)
    bot = field(data, "bot", str, None)
    if role != Role.HOST and not (role == Role.SEAT and own == i and bot is None):
        raise BadRequest(say("host_only"), 403)
    if not 0 <= i < len(table.seats):
        raise BadRequest(say("no_seat", seat=i + 1), 404)
    if table.seats[i].bot is not None:
        raise BadRequest(say("seat_is_bot", seat=i + 1), 409)
    if bot is not None and bot not in POLICIES:
        raise BadRequest(say("api_unknown_seat_bot", bot=bot, known=", ".join(POLICIES)))

    def hand_over() -> None:
        game = table.game
        assert game is not None
        if bot is not None and game.pending is not None and game.pending.seat == i:
            game.confirm()
        table.seats[i].stand_in = bot
        table.sync_stand_ins()
        table.sink(game, doc=True)

    await table.change(hand_over)
    return JSONResponse(await table.view(role, own))


async def new_race(request: Request) -> Response:
    """The host starts the next race at the same seats: ``again`` (same setup, a new
    seed drawn by the server) or ``next-race`` (the tournament's next race)."""
    storage, tables = _storage(request), _tables(request)
    kind = request.path_params["kind"]
    if kind not in ("again", "next-race"):
        raise BadRequest(say("api_new_race_kind"), 404)
    table = await _table(request)
    if table.role(_token(request))[0] != Role.HOST:
        raise BadRequest(say("host_only"), 403)

    def start() -> None:
        game = table.game
        assert game is not None
        if kind == "next-race":
            if table.tournament is None:
                raise BadRequest(say("api_not_tournament"))
            tour = tables.tournament(table)
            if tour.races[-1] != table.races[-1] or not game.state.over:
                raise BadRequest(say("api_last_race_only"), 409)
            name = storage.new_race_name(f"{tour.id}-race{len(tour.races) + 1}")
            nxt = tour.next_game(tables.lines_of, name)
            table.tournament = tour.to_doc()
        else:
            name = storage.new_race_name(game.setup.seats[0].name)
            nxt = Game.new(game.setup.for_race(seed=secrets.randbelow(SEED_LIMIT)), None,
                           deal="server")
            nxt.path = Path(name)
        table.races.append(name)
        head = nxt.record()[0]
        table.saved_ply = 0
        table.sink(nxt, new_race=RaceRow(name, table.id, head, str(head["course"])))
        table.attach(nxt)

    await table.change(start)
    return JSONResponse(await table.view(Role.HOST, None))


async def live(ws: WebSocket) -> None:
    """A device's live views: the first message names its token (a text, or none for a
    spectator: anything else is refused); then every change is pushed (the current view
    first, so a device that was away catches up at once)."""
    await ws.accept()
    tables = _tables(ws)
    client = client_of(ws)
    try:
        first = parse_json(await asyncio.wait_for(ws.receive_text(), 10))
        if not isinstance(first, dict):
            raise BadRequest("the first message is {\"token\": …}")
        table = await tables.get(ws.path_params["tid"])
        role, seat = table.role(first.get("token"))
        tables.join(table, client)
    except (AveCaesarError, TimeoutError, WebSocketDisconnect, RuntimeError) as err:
        code = 1013 if getattr(err, "status", 0) in (429, 507) else 1008
        with contextlib.suppress(Exception):
            await ws.send_json({"error": str(err) or "send your token first"})
            await ws.close(code)
        return
    lang = first.get("lang")
    sub = Subscriber(Table.key(role, seat), seat, lang if lang in LANGS else current(),
                     client)
    sub.pings = first.get("ping") is True
    sub.hear(first)
    try:
        table.subscribers.add(sub)
        await _presence(table)
        table.schedule()
        await _pump(ws, sub, table)
    finally:
        table.subscribers.discard(sub)
        tables.leave(client)
        with contextlib.suppress(Exception):
            await table.online_changed()


async def _presence(table: Table) -> None:
    """A device came, went, went quiet or spoke again: every device sees who is online, and
    a lobby whose people are all here starts."""
    await table.online_changed()
    if table.lobby and table.everyone_here():
        await table.open_lobby(empty_to_bots=False)


async def _pump(ws: WebSocket, sub: Subscriber, table: Table) -> None:
    """Send each new view; beat when nothing was sent for a while; end when the device goes.
    A device that pings is shown away when it goes quiet, and back with its next message."""
    tick = PRESENCE_TICK if sub.pings else HEARTBEAT
    receiving = asyncio.ensure_future(ws.receive_text())
    sent = time.monotonic()
    try:
        while True:
            getting = asyncio.ensure_future(sub.queue.get())
            done, _ = await asyncio.wait({receiving, getting}, timeout=tick,
                                         return_when=asyncio.FIRST_COMPLETED)
            if getting in done:
                await ws.send_json(getting.result())
                sent = time.monotonic()
            else:
                getting.cancel()
            if receiving in done:
                text = receiving.result()  # raises WebSocketDisconnect when the device went
                receiving = asyncio.ensure_future(ws.receive_text())
                if sub.hear(_message(text)):
                    await _presence(table)
            elif sub.gone_quiet():
                await _presence(table)
            if time.monotonic() - sent >= HEARTBEAT:
                await ws.send_json({"beat": True})
                sent = time.monotonic()
    except (WebSocketDisconnect, RuntimeError, OSError):
        return
    finally:
        receiving.cancel()


def _message(text: str) -> object:
    """A device's message after its hello (a ping); one that is not JSON is just a sign of
    life."""
    try:
        return json.loads(text)
    except ValueError:
        return None


# -- saved games -----------------------------------------------------------------------------
def _record(tables: Tables, name: str) -> tuple[list[dict[str, Any]], str | None]:
    """A record by its name — a race in the database, an uploaded record or a file in the
    saves folder — and the table it is played at (worker thread)."""
    storage = tables.storage
    storage.check_name(name)
    race = tables.store.race(name)
    if race is not None:
        return tables.lines_of(name), race.table
    text = storage.uploaded_record(name)
    if text is not None:
        return parse_record(text, name), None
    path = storage.saved_file(name)
    if path is None:
        raise BadRequest(say("api_no_saved", name=name), 404)
    return read_record(path), None


def record_of(tables: Tables, name: str) -> list[dict[str, Any]]:
    return _record(tables, name)[0]


def _summary(storage: Storage, name: str, lines: list[dict[str, Any]], table: str | None
             ) -> dict[str, Any]:
    head = lines[0]
    rules = (str(head["ruleset"]), *(str(v) for v in head.get("variants") or []))
    return {"record": name, "ruleset": head["ruleset"],
            "rules_title": " + ".join(name_of(x) for x in rules),
            "course": storage.course_ref(str(head["course"])),
            "course_title": name_of(str(head["course"])),
            "players": [p["name"] for p in head["players"]],
            "turns": sum(1 for ln in lines if ln["type"] not in ("header", "result")),
            "over": lines[-1]["type"] == "result", "table": table}


def _saves(tables: Tables) -> list[dict[str, Any]]:
    storage = tables.storage
    out = []
    for race in tables.store.races(200):
        lines = [race.header, *([{"type": "move"}] * race.ply)]
        if race.result is not None:
            lines.append(race.result)
        owned = race.table if race.table and tables.store.version(race.table) else None
        out.append(_summary(storage, race.name, lines, owned))
    for path in storage.list_saves()[:200]:
        try:
            out.append(_summary(storage, path.name, read_record(path), None))
        except AveCaesarError:
            out.append({"record": path.name, "broken": True})
    return out


async def saves(request: Request) -> Response:
    return JSONResponse(await anyio.to_thread.run_sync(_saves, _tables(request)))


async def save_file(request: Request) -> Response:
    """A record as the table has seen it: whole once the race is over; while it runs,
    without the seed, the start position, the deal's nonce and the legal-move counts."""
    name = request.path_params["name"]
    lines = await anyio.to_thread.run_sync(record_of, _tables(request), name)
    lines = [{k: v for k, v in ln.items() if k != "_line"} for ln in lines]
    text = "".join(json.dumps(ln, ensure_ascii=False, separators=(",", ":")) + "\n"
                   for ln in public_record(lines))
    return Response(text, media_type="application/x-ndjson", headers={
        "content-disposition": f'attachment; filename="{name}"'})


def _verify(tables: Tables, name: str) -> dict[str, Any]:
    """``replay --verify`` on a finished record: the commitment and the deal (worker
    thread)."""
    lines = record_of(tables, name)
    if lines[-1]["type"] != "result":
        raise BadRequest(say("api_still_running"), 409)
    head = lines[0]
    out: dict[str, Any] = {"record": name, "deal": head.get("deal"), "seed": head["seed"]}
    try:
        out["commitment"] = verify_deal(head, name)
        setup = tables.setup_of(head, name)
        replay(lines, setup.race_rules, setup.board, name)
    except AveCaesarError as err:
        return {**out, "verified": False, "error": str(err)}
    return {**out, "verified": True,
            "checked": [out["commitment"], "the seed gives the recorded start order and "
                        "hands, every move is legal and the result is the replayed one"]}


async def verify(request: Request) -> Response:
    name = request.path_params["name"]
    return JSONResponse(await off_loop(request, _verify, _tables(request), name))


async def table_of_save(request: Request) -> Response:
    """Continue a record that no table owns (uploaded, or put into the saves folder from
    the terminal) at a new table with one device passed around; the asker is its host. The
    record is copied into the table's own race: its seed is known to whoever had the file,
    so the new table says so (practice)."""
    storage, tables = _storage(request), _tables(request)
    name = request.path_params["name"]
    body = await json_body(request) if request.headers.get("content-length", "0") != "0" \
        else {}
    delay = field(body, "delay_ms", int, 700)
    client = client_of(request)
    await anyio.to_thread.run_sync(tables.check_new_table, client)
    lines, owner = await anyio.to_thread.run_sync(_record, tables, name)
    kept = None if owner is None else await anyio.to_thread.run_sync(tables.store.version,
                                                                      owner)
    if kept is not None:
        raise BadRequest(say("api_played_at", owner=owner), 409)
    head = lines[0]
    if lines[-1]["type"] == "result":
        raise BadRequest(say("api_race_over"), 409)

    def resume() -> tuple[Table, Game]:
        setup = tables.setup_of(head, name)
        turns = [ln for ln in lines[1:] if ln["type"] != "result"]
        replay([head, *turns], setup.race_rules, setup.board, name, partial=True)
        game = Game.from_lines(setup, head, turns)
        game.deal = {"by": "host"}
        copy = storage.new_race_name(setup.seats[0].name)
        game.path = Path(copy)
        table = Table(Tables.new_id(), secrets.token_urlsafe(18), True, delay,
                      [Seat(p.name, p.bot, secrets.token_urlsafe(18)) for p in setup.seats],
                      [copy], client=client)
        tables.create(table, game, game.record()[1:])
        return table, game

    table, _game = await off_loop(request, resume)
    tables.add(table)
    table.schedule()
    return JSONResponse({**links(table, _base(request)), "token": table.host,
                         "view": await table.view(Role.HOST, None)})


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
        Route("/api/tables/{tid}/start", start, methods=["POST"]),
        Route("/api/tables/{tid}/race/{kind:str}", new_race, methods=["POST"]),
        Route("/api/tables/{tid}/{action}", action, methods=["POST"]),
        WebSocketRoute("/api/tables/{tid}/live", live),
        Route("/api/saves", saves),
        Route("/api/saves/{name}", save_file),
        Route("/api/saves/{name}/verify", verify),
        Route("/api/saves/{name}/table", table_of_save, methods=["POST"]),
    ]
