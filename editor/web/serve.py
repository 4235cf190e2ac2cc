"""``avecaesar serve``: the table in the browser (play, replay, course studio)."""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from avecaesar.engine.data.errors import AveCaesarError

__all__ = ["SWITCH_INTERVAL", "lan_addresses", "serve"]

#: seconds (sys.setswitchinterval) a thread may run before another gets the interpreter
SWITCH_INTERVAL = 0.001


def serve(
    host: Annotated[str, typer.Option(help="Address to bind (127.0.0.1: this machine only; "
                                      "0.0.0.0: every device on your network too).")
                    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (0: any free one).", min=0, max=65535)
                    ] = 8765,
    data: Annotated[Path, typer.Option(help="Folder for the database (tables.db: tables, "
                                       "races, uploads), the uploads' files (uploads/) and "
                                       "records to open (saves/).")
                    ] = Path("avecaesar-data"),
    db: Annotated[str | None, typer.Option(
        "--db", help="The database: a postgresql://USER@HOST/NAME URL, shared by several "
        "server processes behind one proxy (needs psycopg), or a SQLite file (default: "
        "DATA/tables.db).")] = None,
    limit: Annotated[list[str] | None, typer.Option(
        "--limit", help="Change a limit, KEY=VALUE (docs/web.md lists them: "
        "tables-per-client, new-tables, uploads, running-tables, sockets, …); repeat for "
        "more.")] = None,
    allow_host: Annotated[list[str] | None, typer.Option(
        "--allow-host", help="Another name this machine is reached by (besides its IP "
        "addresses, localhost and its own name); repeat for more.")] = None,
) -> None:
    """Serve the web table: play a race, watch a replay, design a course.

    Prints the URL and opens nothing; a new table's join links and QR codes are printed
    too.

    Example: avecaesar serve --port 8000
    """
    from avecaesar.editor.web.limits import Limits
    from avecaesar.engine.data.errors import UsageError

    _check_data_folder(data)
    try:
        limits = Limits.parse(limit or [])
    except AveCaesarError as err:
        raise UsageError(str(err)) from None
    _serve(host, port, data, allow_host or [], db, limits)


def _check_data_folder(data: Path) -> None:
    """``--data`` names a folder (made if missing): not a file, a device or a link that
    loops — refused before anything is served, as a usage error."""
    from avecaesar.engine.data.errors import UsageError
    from avecaesar.engine.data.safeio import is_loop

    if is_loop(data):
        raise UsageError(f"--data {data}: a symbolic link that loops (it points, through "
                         "other links, back to itself) — point it at a folder")
    if data.exists() and not data.is_dir():
        raise UsageError(f"--data {data}: not a folder — name a folder (it is made if "
                         "missing)")
    try:
        data.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UsageError(f"--data {data}: cannot make the folder: {err.strerror}") from None


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other devices on the network may reach (no loopback):
    the one a route to the outside leaves by (no packet is sent), and the host name's."""
    found: list[str] = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: connect() on UDP only picks a route
        found.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    with contextlib.suppress(OSError):
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    out = []
    for a in found:
        ip = ipaddress.ip_address(a)
        if not ip.is_loopback and not ip.is_unspecified and a not in out:
            out.append(a)
    return out


def _reach(host: str, port: int) -> tuple[str, list[str]]:
    """The URL join links name, and the lines that say who can reach the table."""
    if host in ("0.0.0.0", "::", ""):
        lan = lan_addresses()
        if not lan:
            return f"http://127.0.0.1:{port}", [
                "  listening on every network, but this machine has no network address: "
                "only this machine can reach it"]
        lines = [f"  on your network: http://{a}:{port}/" for a in lan]
        lines.append("  anyone on these networks can open it (a home or guest Wi-Fi you "
                     "trust, not a public one); the seats' secret links keep hands apart")
        return f"http://{lan[0]}:{port}", lines
    shown = f"[{host}]" if ":" in host else host
    try:
        loopback = ipaddress.ip_address(socket.gethostbyname(host) if ":" not in host
                                        else host).is_loopback
    except (OSError, ValueError):
        loopback = False
    if loopback:
        return f"http://{shown}:{port}", ["  only this machine can reach it (phones: "
                                          "serve --host 0.0.0.0)"]
    return f"http://{shown}:{port}", [f"  devices that reach {host} can open it"]


def _announce(links: dict[str, Any]) -> None:
    """Print a new table's links and a QR code per seat to the terminal."""
    import io

    import segno

    typer.echo(f"\nTable {links['table']}: watch at {links['spectator']}")
    for s in links["seats"]:
        if "link" not in s:
            continue
        out = io.StringIO()
        segno.make(s["link"], error="m", micro=False).terminal(out=out, compact=True)
        typer.echo(f"seat {s['seat'] + 1}, {s['name']}: {s['link']}\n{out.getvalue()}")


def _serve(host: str, port: int, data: Path, allow_hosts: list[str], db: str | None,
           limits: Any) -> None:
    import uvicorn

    from avecaesar.editor.web.app import create_app

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
    bound = sock.getsockname()[1]
    url, who = _reach(host, bound)
    app = create_app(data, public_url=url, announce=_announce, allow_hosts=allow_hosts,
                     db=db, limits=limits)
    typer.echo(f"Ave Caesar table at {url}/ (tables in {app.state.store.describe()}, data in "
               f"{Path(os.path.realpath(data))}; Ctrl-C stops)")
    for line in who:
        typer.echo(line)
    # an upload parsed in a worker thread holds the interpreter's lock up to this long
    # before the event loop gets it back (5 ms by default, once per thread hop of a move)
    sys.setswitchinterval(SWITCH_INTERVAL)
    config = uvicorn.Config(app, log_level="warning", ws="wsproto")
    uvicorn.Server(config).run(sockets=[sock])
