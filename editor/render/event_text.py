"""Race events in words: one line per event, for the terminal log, the web log and the
replay viewer."""

from __future__ import annotations

from avecaesar.editor.render.lang import catalog, reason_text, text
from avecaesar.engine.core.board import Board
from avecaesar.engine.core.race import Outcome
from avecaesar.engine.core.state import LETTERS, Event, RaceGame
from avecaesar.engine.data.shown import escaped

__all__ = ["EVENT_TEXT", "describe", "result_lines", "space_name", "termination_word"]


# Events whose text only fills in its fields (the English; the catalog's ``events`` section
# has every language); the others are worded in describe().
EVENT_TEXT = {k: v["en"] for k, v in catalog()["events"].items()
              if k in ("crashed", "cycle", "reshuffle", "bonus", "alley_card", "discard_card",
                       "wait", "alley_stop", "disqualified", "finish", "end")}


def space_name(board: Board, node: int | None) -> str:
    """A space as the board shows it: its number (the lane graph's node id, what
    ``course render --numbers`` draws); a start place also by its place number, as the box
    on the board reads: ``start place 4 (space 0)``."""
    if node is None:
        return text("events", "off_board")
    if node in board.start_places:
        return text("events", "start_place", place=board.start_places.index(node) + 1, n=node)
    return text("events", "space", n=node)


def _ev(key: str, **fields: object) -> str:
    return text("events", key, **fields)


def termination_word(how: str) -> str:
    """How a race ended (``finished``, ``deadlock``) in the current language."""
    return _ev(f"end_{how}") if f"end_{how}" in catalog()["events"] else how


def describe(game: RaceGame, e: Event) -> str:
    """One event in words, in the current language; spaces are named by their numbers on
    the board."""
    who = ("" if e.chariot is None
           else f"{LETTERS[e.chariot]} ({escaped(game.names[e.chariot])})")
    d = e.data
    if e.kind == "cycle" and d.get("card") is None:  # as the others saw it (core/view.py)
        return _ev("cycle_hidden", who=who)
    if e.kind == "draw":  # the card only for its own seat (core/view.py)
        return _ev("draw", who=who, card=d["card"]) if "card" in d else _ev("draw_hidden", who=who)
    if e.kind == "alley_window":  # an effect extended the chariot's alley window
        return _ev("alley_window", who=who, laps=", ".join(str(x) for x in d["laps"]))
    if e.kind == "end":
        return _ev("end", termination=termination_word(str(d.get("termination"))))
    if e.kind in EVENT_TEXT:
        return _ev(e.kind, who=who, **d)
    if e.kind == "move":
        card = _ev("bonus_card", points=-d["card"]) if d["card"] < 0 else str(d["card"])
        lapsed = "" if d["card"] <= 0 or len(d["path"]) >= d["card"] else \
            _ev("lapse", points=d["card"] - len(d["path"]))
        return _ev("move", who=who, card=card, start=space_name(game.board, d["from"]),
                   end=space_name(game.board, d["path"][-1])) + lapsed
    if e.kind == "undo":  # a pending move taken back before it drew anything (table/game.py)
        return _ev("undo", who=who, card=d["card"] if d["card"] else "-",
                   start=space_name(game.board, d["from"]),
                   end=space_name(game.board, d["path"][-1] if d["path"] else d["from"]))
    if e.kind == "ram":
        o = d["target"]
        won = {e.chariot: "ram_wins", o: "ram_loses"}.get(d["winner"], "ram_draw")
        return _ev("ram", who=who, target=f"{LETTERS[o]} ({escaped(game.names[o])})",
                   mine=d["cards"][0], theirs=d["cards"][1], outcome=_ev(won))
    if e.kind == "prize":
        if d.get("forfeited"):
            return _ev("prize_forfeit", who=who, lap=d["lap"])
        return _ev("prize", who=who, money=d["money"], lap=d["lap"])
    if e.kind == "skip":
        if d.get("why"):  # the card restrictions' reasons (the 6-card rule, a house ban)
            return _ev("skip_why", who=who, why="; ".join(reason_text(r) for r in d["why"]))
        key = f"skip_{d['reason']}"
        why = _ev(key) if key in catalog()["events"] else d["reason"]
        return _ev("skip", who=who, why=why)
    if e.kind == "lap":
        if d["lap"] > game.rules.laps:
            return _ev("lap_last", who=who)
        return _ev("lap", who=who, lap=d["lap"])
    if e.kind == "removed":
        return _ev("removed", who=who, why=d["reason"].replace("_", " "))
    return f"{e.kind} {who} {d}"


def result_lines(result: Outcome) -> list[str]:
    """The race's result in words: one line per chariot, then the deadlock note if any."""
    lines = [_ev("result")]
    for p in result.placings:
        place = f"{p.place}." if p.place else "-"
        notes = ", ".join(_ev(f"note_{x}") for x, on in (("disqualified", p.disqualified),
                                                         ("removed", p.removed),
                                                         ("not_finished", not p.finished))
                          if on)
        lines.append(f"  {place:>3} {LETTERS[p.chariot]} {escaped(p.name)}: "
                     + _ev("points", points=p.points) + (f" ({notes})" if notes else ""))
    if result.termination == "deadlock":
        lines.append(_ev("deadlock"))
    return lines
