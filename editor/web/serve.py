"""``avecaesar serve``: the table in the browser (play, replay, course studio)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from avecaesar.engine.data.errors import AveCaesarError

__all__ = ["serve"]


def serve(
    host: Annotated[str, typer.Option(help="Address to bind (127.0.0.1: this machine only).")
                    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (0: any free one).", min=0, max=65535)
                    ] = 8765,
    data: Annotated[Path, typer.Option(help="Folder for uploaded courses (uploads/) and "
                                       "game records (saves/).")] = Path("avecaesar-data"),
) -> None:
    """Serve the web table: play a race, watch a replay, design a course.

    Prints the URL and opens nothing.

    Example: avecaesar serve --port 8000
    """
    _serve(host, port, data)


def _serve(host: str, port: int, data: Path) -> None:
    import socket

    import uvicorn

    from avecaesar.editor.web.app import create_app

    app = create_app(data)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    # accepted connections inherit it: no 40 ms Nagle/delayed-ACK stall per kept-alive request
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        # listening before the URL is printed: a browser (or a test) that connects at once
        # waits in the backlog until uvicorn accepts, instead of being refused
        sock.listen(128)
    except OSError as err:
        raise AveCaesarError(f"cannot listen on {host}:{port}: {err.strerror} — choose "
                             "another --port") from None
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"Ave Caesar table at http://{shown}:{sock.getsockname()[1]}/ "
               f"(records in {data.resolve() / 'saves'}; Ctrl-C stops)")
    config = uvicorn.Config(app, log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])
