"""The Starlette application: pages, static files, the JSON API and its error answers.

Errors: a user's mistake (the project's own errors, a malformed request) is a 4xx with
``{"error": message}``; anything else is a plain 500 without a stack trace.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from importlib.resources import files
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from avecaesar.editor.web.pages import PAGES
from avecaesar.editor.web.storage import BadRequest, Storage
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
        return JSONResponse({"error": str(exc), "missing": exc.key}, 409)
    root = str(request.app.state.storage.root)
    return JSONResponse({"error": str(exc).replace(root + "/", "")}, status_code=400)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code)


async def _server_error(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": f"internal error ({type(exc).__name__}); the game record "
                         "on disk is unchanged"}, status_code=500)


def _page(name: str) -> Callable[[Request], Awaitable[Response]]:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / name, media_type="text/html")
    return page


async def _index(request: Request) -> Response:
    return RedirectResponse("/play")


def create_app(data: Path) -> Starlette:
    """The app serving ``data/uploads`` (courses) and ``data/saves`` (records)."""
    storage = Storage(data)
    routes = [Route("/", _index),
              *[Route(f"/{p.name}", _page(p.html)) for p in PAGES],
              Mount("/static", StaticFiles(directory=STATIC), name="static"),
              *[r for p in PAGES for r in p.api_routes()]]
    app = Starlette(routes=routes, exception_handlers={
        BadRequest: _bad_request, AveCaesarError: _user_error, HTTPException: _http_error,
        Exception: _server_error})
    app.state.storage = storage
    app.state.games = {}
    return app
