"""The Starlette application: pages, static files, the JSON API and its error answers.

Errors: a user's mistake (the project's own errors, a malformed request) is a 4xx with
``{"error": message}``; a record that cannot be written is a 503 (the change was not made);
anything else is a plain 500 without a stack trace. Every request first passes the guard
(guard.py: Host, Origin, content type, size).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import replace
from importlib.resources import files
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from avecaesar.editor.render.lang import choose, from_accept, language
from avecaesar.editor.table.game import RecordWriteError
from avecaesar.editor.web.guard import Guard
from avecaesar.editor.web.pages import PAGES
from avecaesar.editor.web.storage import BadRequest, Storage
from avecaesar.editor.web.table_setup import missing_values
from avecaesar.editor.web.tables import Tables
from avecaesar.engine.data.errors import AveCaesarError, InputError, MissingRuleValueError, Problem

__all__ = ["STATIC", "create_app"]

STATIC = Path(str(files("avecaesar.editor.web") / "static"))


async def _bad_request(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, BadRequest)
    return JSONResponse({"error": str(exc)}, status_code=exc.status)


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
    if isinstance(exc, RecordWriteError):
        return JSONResponse({"error": str(exc)}, 503)
    root = str(request.app.state.storage.root)
    return JSONResponse({"error": str(exc).replace(root + "/", "")}, status_code=400)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code)


async def _server_error(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": f"internal error ({type(exc).__name__}); the game record "
                         "on disk is unchanged"}, status_code=500)


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


#: how often idle tables are looked for and freed (seconds)
SWEEP_EVERY = 60.0


def create_app(data: Path, public_url: str | None = None,
               announce: Callable[[dict[str, Any]], None] | None = None,
               allow_hosts: Iterable[str] = ()) -> Starlette:
    """The app serving ``data/uploads`` (courses, rules files), ``data/saves`` (records)
    and ``data/tables`` (the seats' tokens). ``public_url``: the address the join links
    name (the LAN address when serving other devices); ``announce``: told each new
    table's links (``serve`` prints them with their QR codes)."""
    storage = Storage(data)
    tables = Tables(storage)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def sweep() -> None:
            while True:
                await asyncio.sleep(SWEEP_EVERY)
                tables.sweep()
        task = asyncio.get_running_loop().create_task(sweep())
        try:
            yield
        finally:
            task.cancel()
            for t in tables.loaded.values():
                t.stop()

    routes = [Route("/", _index),
              *[Route(f"/{p.name}", _page(p.html)) for p in PAGES],
              Mount("/static", StaticFiles(directory=STATIC), name="static"),
              *[r for p in PAGES for r in p.api_routes()]]
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(Guard, allow_hosts=list(allow_hosts)),
                                Middleware(Language)],
                    exception_handlers={
                        BadRequest: _bad_request, AveCaesarError: _user_error,
                        HTTPException: _http_error, Exception: _server_error})
    app.state.storage = storage
    app.state.tables = tables
    app.state.public_url = public_url
    app.state.announce = announce
    return app
