"""Malformed requests get a 4xx with a message, never a stack trace; the server reads no
path outside its folders; uploads are size-limited and validated like the CLI's."""

from __future__ import annotations

import httpx
import pytest

from avecaesar.editor.web.storage import MAX_COURSE_BYTES

GOOD = {"ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago",
        "players": [{"name": "A", "bot": None}, {"name": "B", "bot": "greedy"}]}

BAD = [
    ("POST", "/api/tables", b"{not json", 400, "not JSON"),
    ("POST", "/api/tables", b"[1, 2]", 400, "JSON object"),
    ("POST", "/api/tables", b'{"ruleset": "dicetree-2022"}', 400, "missing field 'players'"),
    ("POST", "/api/tables", {**GOOD, "players": "two"}, 400, "must be list"),
    ("POST", "/api/tables", {**GOOD, "seed": "x"}, 400, "must be int"),
    ("POST", "/api/tables", {**GOOD, "players": [{"name": "A", "bot": "clever"}]}, 400,
     "unknown bot"),
    ("POST", "/api/tables", {**GOOD, "ruleset": "dicetree-2O22"}, 400, "dicetree-2022"),
    ("POST", "/api/tables", {**GOOD, "ruleset": "/etc/passwd"}, 400, "bundled ruleset"),
    ("POST", "/api/tables", {**GOOD, "variants": ["../../x.yaml"]}, 400, "bundled"),
    ("POST", "/api/tables", {**GOOD, "course": "/etc/passwd"}, 404, "unknown course"),
    ("POST", "/api/tables", {**GOOD, "course": "../../courses/homebrew/rome.yaml"}, 404,
     "unknown course"),
    ("POST", "/api/tables", {**GOOD, "course": "upload:../../x"}, 404, "no uploaded course"),
    ("POST", "/api/tables", {**GOOD, "overrides": {"hand.sise": "3"}}, 400, "hand.size"),
    ("POST", "/api/tables", {**GOOD, "ruleset": "dicetree-2022",
                            "variants": ["ramming-attacks"]}, 409, "ramming.tie"),
    ("GET", "/api/board?course=../../../etc/passwd", None, 404, "unknown course"),
    ("GET", "/api/tables/..%2F..%2Fetc%2Fpasswd", None, 404, "Not Found"),
    ("GET", "/api/tables/tnothing", None, 404, "not a table"),
    ("GET", "/api/tables/t000000000000", None, 404, "no table"),
    ("GET", "/api/saves/passwd", None, 400, "not a record name"),
    ("POST", "/api/saves/nothing.jsonl/table", None, 404, "no saved record"),
    ("POST", "/api/tables", b"[" * 5000 + b"]" * 5000, 400, "nests deeper"),
    ("POST", "/api/tables", {**GOOD, "x": [[[[[[[[[[1]]]]]]]]]]}, 400, "nests deeper"),
    ("POST", "/api/tables", {**GOOD, "delay_ms": 10**9}, 400, "delay_ms"),
    # a name that would turn the text around it (issue 38, point 5): refused, shown escaped
    ("POST", "/api/tables", {**GOOD, "players": [{"name": "Eve\u202eevil", "bot": None},
                                                {"name": "B", "bot": "greedy"}]}, 400,
     "the name 'Eve\\u202eevil' holds a control or direction character"),
    # the rules' range of players (issue 20): 1989 is for 3 to 6
    ("POST", "/api/tables", {**GOOD, "ruleset": "ravensburger-1989",
                            "course": "ravensburger-1989/a-white"}, 400,
     "2 players are too few: these rules are for 3 to 6 players"),
    ("POST", "/api/tables", {**GOOD, "house_file": "house:0123456789abcdef"}, 404,
     "no uploaded rules file"),
    ("POST", "/api/rules-files", {"text": "rules:\n  hand.sise: 4\n", "kind": "house"}, 400,
     "hand.size"),
    ("POST", "/api/rules-files", {"text": "x: 1\n", "kind": "other"}, 400, "house or variant"),
    ("GET", "/api/replay/nothing.jsonl", None, 404, "no saved record"),
    ("POST", "/api/courses", {"text": "name: [unclosed"}, 400, ":1:"),
    ("POST", "/api/courses", {"text": "x" * (MAX_COURSE_BYTES + 10)}, 413, "at most"),
    ("POST", "/api/courses", {"text": "x" * (MAX_COURSE_BYTES + 9000)}, 413, "too large"),
    ("POST", "/api/records", {"text": '{"type": "move"}\n'}, 400, "required property"),
    ("POST", "/api/records", {"text": 'not json\n'}, 400, "not JSON"),
    ("POST", "/api/studio/check", {"text": 5}, 400, "must be str"),
    ("GET", "/api/studio/source?course=../../etc/passwd", None, 404, "unknown bundled"),
]


@pytest.mark.parametrize(("method", "path", "body", "status", "words"), BAD,
                         ids=[f"{m} {p} {s}" for m, p, _, s, _ in BAD])
def test_a_bad_request_is_a_4xx_with_a_message(live_server, method, path, body, status,
                                               words) -> None:
    kwargs = ({"content": body, "headers": {"content-type": "application/json"}}
              if isinstance(body, bytes) else {"json": body})
    r = httpx.request(method, live_server.url + path, timeout=10,
                      **(kwargs if body is not None else {}))
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert "Traceback" not in r.text and 'File "' not in r.text
    assert str(live_server.data) not in r.text  # no server paths in the answer


def test_turn_actions_out_of_turn_are_refused(live_server) -> None:
    table = httpx.post(live_server.url + "/api/tables",
                       json={**GOOD, "seed": 3, "delay_ms": None}).json()
    tid, host = table["table"], table["token"]
    seat = table["seats"][0]["link"].split("#seat=")[1]
    human_first = table["view"]["race"]["turn"]["human"]
    url = f"{live_server.url}/api/tables/{tid}"
    if human_first:  # a bot step while a person is to move
        r = httpx.post(f"{url}/step", headers={"x-table-token": host})
        assert r.status_code == 400 and "turn" in r.json()["error"]
    else:  # the person moves on the bot's turn
        r = httpx.post(f"{url}/move", json={"card": 1, "space": 0},
                       headers={"x-table-token": seat})
        assert r.status_code == 409 and "turn" in r.json()["error"]
    r = httpx.post(f"{url}/move", json={"card": 1, "space": 0})  # no token: a spectator
    assert r.status_code == 403 and "spectator" in r.json()["error"]
    r = httpx.post(f"{url}/move", json={"card": 1}, headers={"x-table-token": host})
    assert r.status_code == 403  # the host of a table with a device per seat does not play
    r = httpx.post(f"{url}/undo", headers={"x-table-token": seat})
    assert r.status_code == 400 and "nothing to undo" in r.json()["error"]
    r = httpx.post(f"{url}/fly", headers={"x-table-token": seat})
    assert r.status_code == 404
    r = httpx.get(url, headers={"x-table-token": "guessed"})
    assert r.status_code == 403 and "seat token" in r.json()["error"]


@pytest.mark.parametrize(("headers", "status", "words"), [
    ({"origin": "http://evil.example"}, 403, "another site"),
    ({"origin": "null"}, 403, "another site"),
    ({"host": "evil.example:8765"}, 400, "unknown Host"),
    ({"content-type": "text/plain"}, 415, "as JSON"),
    ({"content-type": "application/x-www-form-urlencoded"}, 415, "as JSON"),
    ({"content-length": "999999999999"}, 413, "too large"),
], ids=["origin", "null-origin", "host", "text", "form", "length"])
def test_another_site_or_a_wrong_body_is_refused(live_server, headers, status, words) -> None:
    """The guard: a page of another site, a rebinding Host, a form post or a huge body never
    reach the API (a 4xx, never a 500)."""
    import http.client

    port = int(live_server.url.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    body = b'{"text": "x"}'
    hdrs = {"content-type": "application/json", "content-length": str(len(body)), **headers}
    conn.request("POST", "/api/courses", body=body, headers=hdrs)
    r = conn.getresponse()
    data = r.read().decode()
    conn.close()
    assert r.status == status, data
    assert words in data and "Traceback" not in data
    same = httpx.post(live_server.url + "/api/courses", json={"text": "name: [x"},
                      headers={"origin": live_server.url})
    assert same.status_code == 400  # the server's own page passes the guard


def test_an_uploaded_course_is_validated_drawn_and_raced(live_server) -> None:
    from avecaesar.engine.data.paths import COURSES_DIR

    text = (COURSES_DIR / "homebrew" / "rome.yaml").read_text(encoding="utf-8")
    up = httpx.post(live_server.url + "/api/courses", json={"text": text}).json()
    assert up["course"].startswith("upload:") and up["name"].startswith("Rome")
    svg = httpx.get(live_server.url + "/api/board", params={"course": up["course"]})
    assert svg.status_code == 200 and '<polygon data-space="0"' in svg.text
    game = httpx.post(live_server.url + "/api/tables",
                      json={**GOOD, "course": up["course"]}).json()
    view = game["view"]
    assert view["table"]["course"] == up["course"] and len(view["race"]["chariots"]) == 2
    broken = text.replace("lanes: 2", "lanes: two")
    r = httpx.post(live_server.url + "/api/courses", json={"text": broken})
    assert r.status_code == 400 and ".yaml:8:" in r.json()["error"]
