"""The Replay page's API: the frames of a saved or uploaded record, and the board."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from avecaesar.editor.render.replay_frames import record_frames
from avecaesar.editor.web.requests import field, json_body
from avecaesar.editor.web.storage import Storage
from avecaesar.engine.data.errors import AveCaesarError

__all__ = ["routes"]


async def frames(request: Request) -> Response:
    storage: Storage = request.app.state.storage
    path = storage.save_path(request.path_params["name"])
    out = record_frames(path, storage.checked_header)
    out["course_ref"] = storage.course_ref(_course(path))
    return JSONResponse(out)


def _course(path: Path) -> str:
    from avecaesar.engine.core.record import read_record

    return str(read_record(path)[0]["course"])


async def upload_record(request: Request) -> Response:
    storage: Storage = request.app.state.storage
    data = await json_body(request)
    path = storage.store_record(field(data, "text", str))
    try:
        record_frames(path, storage.checked_header)  # refuse what cannot be replayed
    except AveCaesarError:
        path.unlink(missing_ok=True)
        raise
    return JSONResponse({"record": path.name})


def routes() -> list[Route]:
    return [Route("/api/replay/{name}", frames),
            Route("/api/records", upload_record, methods=["POST"])]
