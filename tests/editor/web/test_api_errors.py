"""Malformed requests get a 4xx with a message, never a stack trace; the server reads no
path outside its folders; uploads are size-limited and validated like the CLI's."""

from __future__ import annotations

import httpx
import pytest

from avecaesar.editor.web.storage import MAX_COURSE_BYTES

GOOD = {"ruleset": "dicetree-2022", "course": "dicetree-2022/arena-carthago",
        "players": [{"name": "A", "bot": None}, {"name": "B", "bot": "greedy"}]}

BAD = [
    ("POST", "/api/games", b"{not json", 400, "not JSON"),
    ("POST", "/api/games", b"[1, 2]", 400, "JSON object"),
    ("POST", "/api/games", b'{"ruleset": "dicetree-2022"}', 400, "missing field 'players'"),
    ("POST", "/api/games", {**GOOD, "players": "two"}, 400, "must be list"),
    ("POST", "/api/games", {**GOOD, "seed": "x"}, 400, "must be int"),
    ("POST", "/api/games", {**GOOD, "players": [{"name": "A", "bot": "clever"}]}, 400,
     "unknown bot"),
    ("POST", "/api/games", {**GOOD, "ruleset": "dicetree-2O22"}, 400, "dicetree-2022"),
    ("POST", "/api/games", {**GOOD, "ruleset": "/etc/passwd"}, 400, "bundled ruleset"),
    ("POST", "/api/games", {**GOOD, "variants": ["../../x.yaml"]}, 400, "bundled"),
    ("POST", "/api/games", {**GOOD, "course": "/etc/passwd"}, 404, "unknown course"),
    ("POST", "/api/games", {**GOOD, "course": "../../courses/homebrew/rome.yaml"}, 404,
     "unknown course"),
    ("POST", "/api/games", {**GOOD, "course": "upload:../../x"}, 404, "no uploaded course"),
    ("POST", "/api/games", {**GOOD, "overrides": {"hand.sise": "3"}}, 400, "hand.size"),
    ("POST", "/api/games", {**GOOD, "ruleset": "dicetree-2022",
                            "variants": ["ramming-attacks"]}, 409, "ramming.tie"),
    ("GET", "/api/board?course=../../../etc/passwd", None, 404, "unknown course"),
    ("GET", "/api/games/..%2F..%2Fetc%2Fpasswd", None, 404, "Not Found"),
    ("GET", "/api/games/.hidden.jsonl", None, 400, "not a record name"),
    ("GET", "/api/saves/passwd", None, 400, "not a record name"),
    ("GET", "/api/games/nothing.jsonl", None, 404, "no saved record"),
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
    kwargs = {"content": body} if isinstance(body, bytes) else {"json": body}
    r = httpx.request(method, live_server.url + path, timeout=10,
                      **(kwargs if body is not None else {}))
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert "Traceback" not in r.text and 'File "' not in r.text
    assert str(live_server.data) not in r.text  # no server paths in the answer


def test_turn_actions_out_of_turn_are_refused(live_server) -> None:
    game = httpx.post(live_server.url + "/api/games", json={**GOOD, "seed": 3}).json()
    name = game["record"]
    human_first = game["turn"]["human"]
    r = httpx.post(f"{live_server.url}/api/games/{name}/{'step' if human_first else 'move'}",
                   json={"card": 1, "space": 0})
    assert r.status_code == 400 and "turn" in r.json()["error"]
    r = httpx.post(f"{live_server.url}/api/games/{name}/undo")
    assert r.status_code == 400 and "nothing to undo" in r.json()["error"]
    r = httpx.post(f"{live_server.url}/api/games/{name}/fly")
    assert r.status_code == 404


def test_an_uploaded_course_is_validated_drawn_and_raced(live_server) -> None:
    from avecaesar.engine.data.paths import COURSES_DIR

    text = (COURSES_DIR / "homebrew" / "rome.yaml").read_text(encoding="utf-8")
    up = httpx.post(live_server.url + "/api/courses", json={"text": text}).json()
    assert up["course"].startswith("upload:") and up["name"].startswith("Rome")
    svg = httpx.get(live_server.url + "/api/board", params={"course": up["course"]})
    assert svg.status_code == 200 and 'id="space&#45;0"' in svg.text
    game = httpx.post(live_server.url + "/api/games",
                      json={**GOOD, "course": up["course"]}).json()
    assert game["course"] == up["course"] and len(game["chariots"]) == 2
    broken = text.replace("lanes: 2", "lanes: two")
    r = httpx.post(live_server.url + "/api/courses", json={"text": broken})
    assert r.status_code == 400 and ".yaml:8:" in r.json()["error"]
