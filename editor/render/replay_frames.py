"""A record as frames for the replay viewer: the position after each ply, every hand, the
legal-move count and the events of the ply. The record is first re-checked by the engine's
``replay``; the frames then come from the same pushes and skips.

A race still in progress is shown as its table has seen it (``public``): no hands, no
legal-move counts, no seed, and events without the cards nobody saw
(``engine/core/view.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from avecaesar.editor.render.board import CHARIOT_FILL
from avecaesar.editor.render.event_text import describe
from avecaesar.editor.render.lang import name_of, text
from avecaesar.engine.core.race import new_race, outcome
from avecaesar.engine.core.record import read_record, replay, setup_from_header
from avecaesar.engine.core.state import LETTERS, Move, RaceState
from avecaesar.engine.core.view import public_event
from avecaesar.engine.data.shown import escaped

__all__ = ["frames_of_lines", "record_frames"]


def _snapshot(state: RaceState, public: bool) -> list[dict[str, Any]]:
    out = []
    for c in range(state.game.chariots):
        one: dict[str, Any] = {"pos": state.pos[c], "lap": max(state.lap(c), 0),
                               "coin": "paid" if state.stopped[c] else "held",
                               "status": state.status[c], "dq": state.dq[c],
                               "cards": len(state.hands[c])}
        if not public:
            one["hand"] = list(state.cards(c))
        out.append(one)
    return out


def record_frames(path: Path, course_check: Any = None, public: bool | None = None
                  ) -> dict[str, Any]:
    """Everything the viewer shows for the record at ``path`` (a finished or running
    game). ``course_check`` maps the header's course to what may be loaded (the server's
    folder rule). ``public``: as the table has seen it (default: while the race runs)."""
    return frames_of_lines(read_record(path), str(path), course_check, public)


def frames_of_lines(lines: list[dict[str, Any]], file: str, course_check: Any = None,
                    public: bool | None = None) -> dict[str, Any]:
    """:func:`record_frames` of a record already read (``file``: its name in messages)."""
    head = lines[0]
    setup, _differs = setup_from_header(
        head, file, None if course_check is None else course_check(head))
    rules, board = setup.race_rules, setup.board
    turns = [ln for ln in lines[1:] if ln["type"] != "result"]
    replay([head, *turns] + [ln for ln in lines[1:] if ln["type"] == "result"],
           rules, board, Path(file).name, partial=True)
    # the names as the viewer shows them (a name with a hidden character escaped) in every
    # place the frames carry one: the names, the events, the result
    shown = [escaped(n) for n in setup.names]
    state, _ = new_race(rules, board, shown, setup.seed, setup.start_order)
    game = state.game
    over = any(ln["type"] == "result" for ln in lines)
    hidden = not over if public is None else public
    frames: list[dict[str, Any]] = [{"ply": 0, "chariot": None, "legal": None,
                                     "events": [text("events", "race_start")],
                                     "chariots": _snapshot(state, hidden)}]
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
        frames.append({"ply": len(frames), "chariot": LETTERS[c],
                       "legal": None if hidden else legal, "path": ln.get("path", []),
                       "events": [describe(game, public_event(e) if hidden else e).strip()
                                  for e in events],
                       "chariots": _snapshot(state, hidden)})
    titles = {"rules_title": " + ".join(name_of(str(x)) for x in
                                        (head["ruleset"], *head.get("variants", []))),
              "course_title": name_of(str(head["course"]), setup.course_name)}
    return {**titles, "record": Path(file).name, "ruleset": head["ruleset"], "public": hidden,
            "variants": head.get("variants", []), "course": setup.course_name,
            "seed": None if hidden else head["seed"], "laps": rules.laps,
            "names": list(game.names), "letters": list(LETTERS[:game.chariots]),
            "colours": [CHARIOT_FILL[c % len(CHARIOT_FILL)] for c in range(game.chariots)],
            "frames": frames, "over": state.over,
            "result": outcome(state).to_json() if state.over else None}
