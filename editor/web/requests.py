"""Reading a request's JSON body and its fields: a malformed one is a :class:`BadRequest`
(answered 4xx with a message), never a stack trace — also a number too long for Python to
read (over 4,300 digits) and a lone surrogate (``"\\ud800"``, not text: it cannot be
stored or sent on)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

from starlette.requests import Request

from avecaesar.editor.table.messages import say
from avecaesar.editor.web.storage import MAX_RECORD_BYTES, BadRequest

__all__ = ["MAX_JSON_DEPTH", "field", "json_body", "off_loop", "parse_json"]

#: nesting of a request's JSON (the deepest real request, a setup, has 3 levels)
MAX_JSON_DEPTH = 8
_SURROGATE = re.compile("[\ud800-\udfff]")
T = TypeVar("T")


def _depth(value: Any) -> int:
    """How deeply ``value`` nests (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict | list):
            deepest = max(deepest, d)
            if d <= MAX_JSON_DEPTH:
                stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


def _no_surrogates(value: Any) -> None:
    """A string (or key) holding a lone surrogate is refused (without recursion)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if _SURROGATE.search(v):
                raise BadRequest("the request holds a lone surrogate (such as \\ud800), "
                                 "which is not text: send UTF-8 text")
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def parse_json(text: bytes | str) -> Any:
    """JSON text as the server accepts it (a :class:`BadRequest` otherwise): UTF-8, no
    number too long, no lone surrogate, at most :data:`MAX_JSON_DEPTH` levels."""
    try:
        raw = text.decode("utf-8") if isinstance(text, bytes) else text
        data = json.loads(raw or "null")
    except UnicodeDecodeError as err:
        raise BadRequest(f"the request body is not UTF-8 text: {err.reason}") from None
    except json.JSONDecodeError as err:
        raise BadRequest(f"the request body is not JSON: {err}") from None
    except RecursionError:
        raise BadRequest(f"the request body nests deeper than {MAX_JSON_DEPTH} levels"
                         ) from None
    except ValueError:  # Python reads at most 4,300 digits of an integer
        raise BadRequest("the request body holds a number too long to read") from None
    if _depth(data) > MAX_JSON_DEPTH:
        raise BadRequest(f"the request body nests deeper than {MAX_JSON_DEPTH} levels")
    _no_surrogates(data)
    return data


async def json_body(request: Request, limit: int = MAX_RECORD_BYTES + 4096) -> dict[str, Any]:
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > limit):
        raise BadRequest(say("api_too_large", most=limit), 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BadRequest(say("api_too_large", most=limit), 413)
    data = parse_json(body)
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def field(data: dict[str, Any], key: str, kind: type | tuple[type, ...], default: Any = ...,
          ) -> Any:
    """``data[key]`` checked to be of ``kind`` (bool is not an int here)."""
    if key not in data or data[key] is None:
        if default is ...:
            raise BadRequest(f"missing field {key!r}")
        return default
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise BadRequest(f"field {key!r} must be {names}, not {type(value).__name__}")
    return value


async def off_loop(request: Any, fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn`` (reading an upload, resuming a record) in a worker thread, at most two at
    a time, within the limits' time budget: the event loop — every other device's moves —
    never waits for it, and one that takes too long is answered 503 (its thread finishes
    unheard)."""
    import anyio
    import anyio.to_thread

    state = request.app.state
    limiter = getattr(state, "parse_limiter", None)
    if limiter is None:
        limiter = state.parse_limiter = anyio.CapacityLimiter(2)
    seconds = state.tables.limits.parse_seconds
    try:
        with anyio.fail_after(seconds):
            return await anyio.to_thread.run_sync(fn, *args, limiter=limiter,
                                                  abandon_on_cancel=True)
    except TimeoutError:
        raise BadRequest(say("api_too_slow", seconds=f"{seconds:g}"), 503) from None
