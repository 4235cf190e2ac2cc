"""A record as frames for the replay viewer: the position after each ply, every hand, the
legal-move count and the events of the ply. The record is first re-checked by the engine's
``replay``; the frames then come from the same pushes and skips."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from avecaesar.editor.render.board import CHARIOT_FILL
from avecaesar.editor.render.event_text import describe
from avecaesar.engine.core.race import new_race, outcome
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.record import read_record, replay
from avecaesar.engine.core.state import LETTERS, Move, RaceState
from avecaesar.engine.course.load import load_course

__all__ = ["record_frames"]


def _snapshot(state: RaceState) -> list[dict[str, Any]]:
    return [{"pos": state.pos[c], "lap": max(state.lap(c), 0),
             "coin": "paid" if state.stopped[c] else "held", "hand": list(state.cards(c)),
             "status": state.status[c], "dq": state.dq[c]}
            for c in range(state.game.chariots)]


def record_frames(path: Path, course_check: Any = None) -> dict[str, Any]:
    """Everything the viewer shows for the record at ``path`` (a finished or running
    game). ``course_check`` maps the header's course to what may be loaded (the server's
    folder rule)."""
    lines = read_record(path)
    head = lines[0]
    course = head["course"] if course_check is None else course_check(head)
    rules, board = race_setup(head["ruleset"], head.get("variants", []),
                              head.get("overrides", {}), course, head.get("house"))
    turns = [ln for ln in lines[1:] if ln["type"] != "result"]
    replay([head, *turns] + [ln for ln in lines[1:] if ln["type"] == "result"],
           rules, board, path.name, partial=True)
    state, _ = new_race(rules, board, [p["name"] for p in head["players"]], int(head["seed"]),
                        head["seats"] if head.get("seated") else None)
    game = state.game
    frames: list[dict[str, Any]] = [{"ply": 0, "chariot": None, "legal": None, "events": ["start"],
               "chariots": _snapshot(state)}]
    for ln in turns:
        c = LETTERS.index(ln["chariot"])
        if state.queue and c in state.choosable():
            state.choose(c)
        legal = len(state.legal_moves())
        if ln["type"] == "skip":
            events = state.skip(ln["reason"])
        else:
            events = state.push(Move(0, ()) if ln["type"] == "wait" else Move(
                int(ln["card"]), tuple(ln["path"]),
                LETTERS.index(ln["ram"]) if ln.get("ram") else -1))
        frames.append({"ply": len(frames), "chariot": LETTERS[c], "legal": legal,
                       "path": ln.get("path", []),
                       "events": [describe(game, e).strip() for e in events],
                       "chariots": _snapshot(state)})
    return {"record": path.name, "ruleset": head["ruleset"],
            "variants": head.get("variants", []), "course": load_course(course).name,
            "seed": head["seed"], "laps": rules.laps,
            "names": list(game.names), "letters": list(LETTERS[:game.chariots]),
            "colours": [CHARIOT_FILL[c % len(CHARIOT_FILL)] for c in range(game.chariots)],
            "frames": frames, "over": state.over,
            "result": outcome(state).to_json() if state.over else None}
