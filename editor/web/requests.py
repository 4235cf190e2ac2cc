"""Reading a request's JSON body and its fields: a malformed one is a :class:`BadRequest`
(answered 4xx with a message), never a stack trace."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

from avecaesar.editor.web.storage import MAX_RECORD_BYTES, BadRequest

__all__ = ["MAX_JSON_DEPTH", "field", "json_body"]

#: nesting of a request's JSON (the deepest real request, a setup, has 3 levels)
MAX_JSON_DEPTH = 8


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


async def json_body(request: Request, limit: int = MAX_RECORD_BYTES + 4096) -> dict[str, Any]:
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > limit):
        raise BadRequest(f"the request is too large (at most {limit} bytes)", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BadRequest(f"the request is too large (at most {limit} bytes)", 413)
    try:
        data = json.loads(body.decode("utf-8") or "null")
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise BadRequest(f"the request body is not JSON: {err}") from None
    except RecursionError:
        raise BadRequest(f"the request body nests deeper than {MAX_JSON_DEPTH} levels"
                         ) from None
    if _depth(data) > MAX_JSON_DEPTH:
        raise BadRequest(f"the request body nests deeper than {MAX_JSON_DEPTH} levels")
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
