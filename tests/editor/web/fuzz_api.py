"""A property fuzz of the web table's API (hypothesis): every route of the app with every
method, its path parameters real or made up, a body of arbitrary JSON — or bytes that are
not JSON, deep nesting, long numbers, lone surrogates —, the host's, a seat's, a made-up or a
non-ASCII token; and the WebSocket's first message. The property: no answer is a 500 and no
WebSocket ends with an internal error. Used by tests/editor/web/test_never_500.py (CI-sized)
and bench/bench_fuzz_api.py (longer)."""

from __future__ import annotations

import json
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from starlette.routing import Mount, Route, WebSocketRoute

SETUP = {"ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago",
         "confirm_ms": None, "delay_ms": None,
         "players": [{"name": "Ada", "bot": None}, {"name": "Bea", "bot": None},
                     {"name": "Bot", "bot": "greedy"}]}


@dataclass
class Found:
    requests: int = 0
    sockets: int = 0
    routes: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner,
                                                                max_size=6),
    max_leaves=20)
KEYS = ["card", "space", "confirm", "seat", "bot", "text", "kind", "ruleset", "course",
        "players", "seed", "variants", "overrides", "answers", "shared", "delay_ms",
        "confirm_ms", "tournament", "house_file", "variant_file", "token", "lang", "races",
        "numbers", "bundled", "reserve"]
NASTY = st.sampled_from([b"", b"{", b"[1, 2]", b"null", b'{"a": ' + b"1" * 5000 + b"}",
                         b'{"text": "\\ud800"}', b"[" * 3000 + b"]" * 3000, b"\xff\xfe",
                         b'{"card": 1e999}', b'{"players": [{"name": "\\udc00"}]}'])


def _routes(app: Any) -> list[tuple[str, list[str], bool]]:
    """(path, methods, websocket) of every route the app serves."""
    out = []
    for r in app.routes:
        if isinstance(r, WebSocketRoute):
            out.append((r.path, [], True))
        elif isinstance(r, Route) and not isinstance(r, Mount):
            out.append((r.path, sorted((r.methods or {"GET"}) - {"HEAD"}), False))
    return out


def fuzz(data: Path, examples: int, derandomize: bool = True) -> Found:
    from avecaesar.editor.web.app import create_app
    from avecaesar.editor.web.limits import Limits

    found = Found()
    app = create_app(data, limits=Limits.parse(["new-tables=100000", "uploads=100000",
                                                "tables-per-client=100000"]))
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as c:
        made = c.post("/api/tables", json=SETUP).json()
        tid, host = made["table"], made["token"]
        seat = made["seats"][0]["link"].split("#seat=")[1]
        record = made["view"]["race"]["record"]
        routes = _routes(app)
        found.routes = len(routes)
        values = {"tid": st.sampled_from([tid, "t000000000000", "x", "t" + "0" * 40]),
                  "name": st.sampled_from([record, "nothing.jsonl", "../x", "a" * 90]),
                  "action": st.sampled_from(["move", "confirm", "undo", "skip", "reveal",
                                             "step", "fly"]),
                  "kind": st.sampled_from(["again", "next-race", "x"]),
                  "job": st.sampled_from(["0123456789abcdef", "x", "é" * 9, "0" * 90])}
        tokens = st.sampled_from([None, host, seat, "guessed", "sché\u00e9ma", ""])
        body = st.one_of(
            st.dictionaries(st.sampled_from(KEYS), JSON, max_size=6).map(
                lambda d: json.dumps(d).encode()),
            JSON.map(lambda v: json.dumps(v).encode()), NASTY)

        @settings(max_examples=examples, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck), derandomize=derandomize)
        @given(st.data())
        def one(data: st.DataObject) -> None:
            path, methods, ws = data.draw(st.sampled_from(routes))
            params = {k: data.draw(values.get(k, st.text(min_size=1, max_size=8).filter(
                lambda x: "/" not in x and "?" not in x and "#" not in x)))
                for k in re.findall(r"{(\w+)(?::\w+)?}", path)}
            url = re.sub(r"{(\w+)(?::\w+)?}", lambda m: str(params[m[1]]), path)
            token = data.draw(tokens)
            if ws:
                first = data.draw(st.one_of(
                    st.dictionaries(st.sampled_from(["token", "lang"]), JSON
                                    | tokens).map(json.dumps),
                    st.text(max_size=30)))
                try:
                    with c.websocket_connect(url, headers={"host": "127.0.0.1"}) as sock:
                        sock.send_text(first)
                        answer = sock.receive_json()
                        if "error" not in answer and "race" not in answer:
                            found.errors.append(f"WS {url} {first!r}: {answer}")
                except Exception as err:
                    if "1011" in str(err) or "Internal" in str(err):
                        found.errors.append(f"WS {url} {first!r}: {err!r}")
                found.sockets += 1
                return
            method = data.draw(st.sampled_from([*methods, "GET", "POST"]))
            headers = {"content-type": "application/json"}
            if token is not None:
                headers["x-table-token"] = token
            content = data.draw(body) if method == "POST" else None
            try:
                r = c.request(method, url, content=content,
                              headers={k: v.encode("utf-8") for k, v in headers.items()})
            except Exception as err:
                found.errors.append(f"{method} {url}: {err!r}")
                return
            found.requests += 1
            found.statuses[r.status_code] = found.statuses.get(r.status_code, 0) + 1
            if r.status_code >= 500 and r.status_code not in (503, 507):
                found.errors.append(f"{method} {url} {content!r:.200}: {r.status_code} "
                                    f"{r.text[:200]}")
        one()
    return found
