"""What every request must show before any route sees it (an ASGI middleware).

- **Host**: an IP address, ``localhost``, this machine's name (or ``NAME.local``), or a name
  given with ``serve --allow-host``: a web page on another site cannot reach the table by
  pointing its own name at this machine (DNS rebinding).
- **Origin**: a browser's request (and every WebSocket) from a page of another site is
  refused: only this server's own pages drive its API.
- **Content type**: a request with a body sends JSON (``application/json``): a plain HTML
  form of another site cannot post to the API.
- **Size**: a body announced larger than the largest upload is refused before it is read.

Each refusal is a 4xx with ``{"error": message}``, never a 500.
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

__all__ = ["MAX_BODY_BYTES", "Guard"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
App = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]],
               Awaitable[None]]

MAX_BODY_BYTES = 4 * 1024 * 1024 + 4096
_BODY_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


_HOST = re.compile(r"(?:\[(?P<v6>[0-9a-fA-F:.]+)\]|(?P<name>[A-Za-z0-9._-]+))(?::[0-9]{1,5})?")


def _host_name(value: str) -> str | None:
    """``[::1]:8765`` → ``::1``; ``Table.local:80`` → ``table.local``; anything that is not
    a host name or a bracketed IPv6 address, with at most a port (``[::1]evil.example``,
    ``a b``, ``x:y``) → None: refused."""
    m = _HOST.fullmatch(value.strip())
    if m is None:
        return None
    return (m.group("v6") or m.group("name")).lower()


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Guard:
    """Wraps the app: checks Host, Origin, content type and size of every request."""

    def __init__(self, app: App, allow_hosts: Iterable[str] = ()) -> None:
        self.app = app
        me = socket.gethostname().lower()
        self.names = {"localhost", me, f"{me}.local", *(h.lower() for h in allow_hosts)}

    def host_ok(self, host: str) -> bool:
        name = _host_name(host)
        return name is not None and (_is_ip(name) or name in self.names)

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        why = self._refusal(scope, headers)
        if why is None:
            await self.app(scope, receive, send)
            return
        status, message = why
        if scope["type"] == "websocket":
            await receive()  # the connect message
            await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
            return
        body = json.dumps({"error": message}).encode("utf-8")
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
        host = headers.get("host", "")
        if not self.host_ok(host):
            return 400, (f"unknown Host {host!r}: open the table by this machine's address "
                         "(the one `serve` prints), or start it with --allow-host NAME")
        origin = headers.get("origin")
        if origin is not None and origin != "null":
            parts = urlsplit(origin)
            if (parts.netloc or "").lower() != host.lower():
                return 403, "a page of another site may not use this table's API"
        elif origin == "null":
            return 403, "a page of another site may not use this table's API"
        if scope["type"] == "websocket":
            return None
        method = scope.get("method", "GET")
        length = headers.get("content-length", "")
        has_body = (length not in ("", "0")) or "transfer-encoding" in headers
        if method in _BODY_METHODS and has_body:
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return 415, ("send the request body as JSON (content-type: "
                             f"application/json), not {kind or 'no content type'}")
            if length and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
                return 413, f"the request is too large (at most {MAX_BODY_BYTES} bytes)"
        return None
