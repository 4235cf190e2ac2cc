"""The Replay page's API: the frames of a saved or uploaded record, and the board."""

from __future__ import annotations

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from avecaesar.editor.render.replay_frames import frames_of_lines
from avecaesar.editor.web.requests import field, json_body, off_loop
from avecaesar.editor.web.storage import MAX_RECORD_BYTES, Storage
from avecaesar.editor.web.tables import Tables
from avecaesar.engine.core.record import parse_record

__all__ = ["routes"]


async def frames(request: Request) -> Response:
    """Every frame of a record (a race of this server's, an uploaded record, a file in the
    saves folder), re-checked by the engine in a worker thread."""
    from avecaesar.editor.web.routes_play import record_of

    storage: Storage = request.app.state.storage
    tables: Tables = request.app.state.tables
    name = request.path_params["name"]
    lines = await anyio.to_thread.run_sync(record_of, tables, name)
    out = await off_loop(request, frames_of_lines, lines, name, storage.checked_header)
    out["course_ref"] = storage.course_ref(str(lines[0]["course"]))
    return JSONResponse(out)


async def upload_record(request: Request) -> Response:
    """A record file to watch: read and replayed (off the event loop, within the time
    budget) before it is kept."""
    from avecaesar.editor.web.routes_play import client_of

    storage: Storage = request.app.state.storage
    tables: Tables = request.app.state.tables
    data = await json_body(request, MAX_RECORD_BYTES + 4096)
    text = field(data, "text", str)
    client = client_of(request)
    await anyio.to_thread.run_sync(tables.check_upload, client)

    def check() -> str:
        lines = parse_record(text, "record")
        frames_of_lines(lines, "record", storage.checked_header)  # refuse what cannot replay
        return storage.store_record(text, client)
    return JSONResponse({"record": await off_loop(request, check)})


def routes() -> list[Route]:
    return [Route("/api/replay/{name}", frames),
            Route("/api/records", upload_record, methods=["POST"])]
