"""The Starlette application: pages, static files, the JSON API and its error answers.

Errors: a user's mistake (the project's own errors, a malformed request) is a 4xx with
``{"error": message}``; a limit reached is a 429 or 507 (limits.py); a change the database
could not keep is a 503 (the change was not made); a request whose client went away before
its body was read is logged as one line; anything else is a plain 500 without a stack trace.
Every request first passes the guard (guard.py: Host, Origin, content type, size).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import replace
from importlib.resources import files
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from avecaesar.editor.render.lang import choose, from_accept, language
from avecaesar.editor.table.game import RecordWriteError
from avecaesar.editor.table.messages import say
from avecaesar.editor.web.guard import Guard
from avecaesar.editor.web.limits import Limits, TooMany
from avecaesar.editor.web.pages import PAGES
from avecaesar.editor.web.storage import BadRequest, Storage
from avecaesar.editor.web.store import Conflict, StoreError, open_store
from avecaesar.editor.web.table_setup import missing_values
from avecaesar.editor.web.tables import Tables
from avecaesar.engine.data.errors import AveCaesarError, InputError, MissingRuleValueError, Problem

__all__ = ["STATIC", "create_app"]

STATIC = Path(str(files("avecaesar.editor.web") / "static"))


LOG = logging.getLogger("avecaesar.serve")


async def _bad_request(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, BadRequest)
    headers = {}
    if isinstance(exc, TooMany) and exc.retry:
        headers["retry-after"] = str(exc.retry)
    return JSONResponse({"error": str(exc)}, status_code=exc.status, headers=headers)


async def _gone(request: Request, exc: Exception) -> Response:
    """The client went away before its request was read: one line, no traceback."""
    LOG.warning("%s %s: the client went away before its request was read",
                request.method, request.url.path)
    return Response(status_code=400)


def _short(p: Problem) -> Problem:
    """A problem named by its file's name only (the server's folders stay private)."""
    return replace(p, file=Path(p.file).name)


async def _user_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, InputError):
        problems = [_short(p) for p in exc.problems]
        return JSONResponse({"error": "; ".join(str(p) for p in problems),
                             "problems": [p.to_json() for p in problems]}, 400)
    if isinstance(exc, MissingRuleValueError):
        return JSONResponse({"error": str(exc), "missing": exc.key,
                             "open": missing_values(exc)}, 409)
    if isinstance(exc, RecordWriteError | StoreError):
        return JSONResponse({"error": str(exc)}, 503)
    if isinstance(exc, Conflict):
        return JSONResponse({"error": say("api_changed")}, 409)
    root = str(request.app.state.storage.root)
    return JSONResponse({"error": str(exc).replace(root + "/", "")}, status_code=400)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code)


async def _server_error(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": say("api_internal", kind=type(exc).__name__)},
                        status_code=500)


class Language:
    """Each request in its device's language (editor/render/lang.py): a ``lang`` query
    parameter, else the ``Accept-Language`` header (which the page sets to its chosen
    language); server sentences — errors, why-not, the race log — follow it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        from urllib.parse import parse_qs

        asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [""])[0]
        header = dict(scope.get("headers") or []).get(b"accept-language", b"")
        lang = choose(asked) if asked else from_accept(header.decode("latin-1"))
        with language(lang):
            await self.app(scope, receive, send)


def _page(name: str) -> Callable[[Request], Awaitable[Response]]:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / name, media_type="text/html")
    return page


async def _index(request: Request) -> Response:
    return RedirectResponse("/play")


#: how often idle tables are freed from memory (seconds)
SWEEP_EVERY = 60.0
#: how often the database's retention runs (seconds)
RETENTION_EVERY = 600.0


def create_app(data: Path, public_url: str | None = None,
               announce: Callable[[dict[str, Any]], None] | None = None,
               allow_hosts: Iterable[str] = (), db: str | None = None,
               limits: Limits | None = None) -> Starlette:
    """The app keeping its tables in the database ``db`` (a ``postgresql://`` URL shared
    with other server processes; default: the SQLite file ``data/tables.db``) and the
    uploads' files in ``data/uploads``; it reads records put into ``data/saves``.
    ``public_url``: the address the join links name (the LAN address when serving other
    devices); ``announce``: told each new table's links (``serve`` prints them with their
    QR codes); ``limits``: limits.py's, by default."""
    data = Path(data)
    data.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        data.chmod(0o700)  # the database holds the seeds and the seats' tokens
    store = open_store(db, data)
    storage = Storage(data, store)
    tables = Tables(storage, store, limits)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()

        async def sweep() -> None:
            last = loop.time()
            while True:
                await asyncio.sleep(SWEEP_EVERY)
                tables.free()
                if loop.time() - last >= RETENTION_EVERY:
                    last = loop.time()
                    await asyncio.to_thread(tables.retention)
                    await asyncio.to_thread(storage.prune)
        task = loop.create_task(sweep())
        stop = store.listen(lambda tid, v: tables.on_remote(tid, v, loop))
        try:
            yield
        finally:
            task.cancel()
            stop()
            for t in tables.loaded.values():
                t.stop()
            store.close()

    routes = [Route("/", _index),
              *[Route(f"/{p.name}", _page(p.html)) for p in PAGES],
              Mount("/static", StaticFiles(directory=STATIC), name="static"),
              *[r for p in PAGES for r in p.api_routes()]]
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(Guard, allow_hosts=list(allow_hosts)),
                                Middleware(Language)],
                    exception_handlers={
                        BadRequest: _bad_request, AveCaesarError: _user_error,
                        ClientDisconnect: _gone,
                        HTTPException: _http_error, Exception: _server_error})
    app.state.storage = storage
    app.state.store = store
    app.state.tables = tables
    app.state.public_url = public_url
    app.state.announce = announce
    return app
