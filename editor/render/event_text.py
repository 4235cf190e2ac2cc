"""Race events in words: one line per event, for the terminal log, the web log and the
replay viewer."""

from __future__ import annotations

from avecaesar.engine.core.board import Board
from avecaesar.engine.core.race import Outcome
from avecaesar.engine.core.state import LETTERS, Event, RaceGame

__all__ = ["EVENT_TEXT", "describe", "result_lines", "space_name"]


# Events whose text only fills in its fields; the others are worded in describe().
EVENT_TEXT = {
    "crashed": "   {who} crashes (leads with only sixes): its wreck blocks space {space}",
    "cycle": "   {who} puts a {card} under its deck and draws a replacement",
    "reshuffle": "   {who} reshuffles its whole deck ({cards} cards)",
    "bonus": "   {who} receives the +{points} bonus piece",
    "alley_card": "   {who} picks up the race card {card} in the alley",
    "discard_card": "   {who} discards a {card}",
    "wait": "{who} waits in front of the blocked alley",
    "alley_stop": "   {who} stops in the alley: Ave Caesar! (coin paid, lap {lap})",
    "disqualified": "   {who} is disqualified: no alley stop",
    "finish": "   {who} finishes ({order}. over the line)",
    "end": "race over: {termination}",
}


def space_name(board: Board, node: int | None) -> str:
    """A space as the board shows it: its number (the lane graph's node id, what
    ``course render --numbers`` draws); a start place also by its place number, as the box
    on the board reads: ``start place 4 (space 0)``."""
    if node is None:
        return "off the board"
    if node in board.start_places:
        return f"start place {board.start_places.index(node) + 1} (space {node})"
    return f"space {node}"


def describe(game: RaceGame, e: Event) -> str:
    """One event in words; spaces are named by their numbers on the board."""
    who = f"{LETTERS[e.chariot]} ({game.names[e.chariot]})" if e.chariot is not None else ""
    d = e.data
    if e.kind == "cycle" and d.get("card") is None:  # as the others saw it (core/view.py)
        return f"   {who} puts a card under its deck and draws a replacement"
    if e.kind == "draw":  # the card only for its own seat (core/view.py)
        return f"   {who} draws an extra card" + (f" ({d['card']})" if "card" in d else "")
    if e.kind in EVENT_TEXT:
        return EVENT_TEXT[e.kind].format(who=who, **d)
    if e.kind == "move":
        card = f"the +{-d['card']} bonus piece" if d["card"] < 0 else str(d["card"])
        lapsed = "" if d["card"] <= 0 or len(d["path"]) >= d["card"] else \
            f" ({d['card'] - len(d['path'])} points lapse)"
        return (f"{who} plays {card}: {space_name(game.board, d['from'])} → "
                f"{space_name(game.board, d['path'][-1])}" + lapsed)
    if e.kind == "ram":
        o = d["target"]
        won = {e.chariot: "wins", o: "loses"}.get(d["winner"], "is a draw")
        return (f"   {who} rams {LETTERS[o]} ({game.names[o]}): {d['cards'][0]} against "
                f"{d['cards'][1]}, the attack {won}")
    if e.kind == "prize":
        if d.get("forfeited"):
            return f"   {who} forfeits the prize of lap {d['lap']} (stopped in the alley)"
        return f"   {who} wins {d['money']} for lap {d['lap']}"
    if e.kind == "skip":
        if d.get("why"):  # the card restrictions' own words (the 6-card rule, a house ban)
            return f"{who} skips — no card it may play: {d['why']}"
        why = {"blocked": "no card can be moved in full; keeps its cards",
               "six_rule": "the card restrictions forbid every card it could move",
               "alley_blocked": "waits: the alley is blocked and it still owes the stop"}
        return f"{who} skips — {why.get(d['reason'], d['reason'])}"
    if e.kind == "lap":
        if d["lap"] > game.rules.laps:
            return f"   {who} crosses the finish line after the last lap"
        return f"   {who} crosses the line: lap {d['lap']}"
    if e.kind == "removed":
        return f"   {who} is removed ({d['reason'].replace('_', ' ')})"
    return f"{e.kind} {who} {d}"


def result_lines(result: Outcome) -> list[str]:
    """The race's result in words: one line per chariot, then the deadlock note if any."""
    lines = ["result:"]
    for p in result.placings:
        place = f"{p.place}." if p.place else "-"
        notes = ", ".join(x for x, on in (("disqualified", p.disqualified),
                                          ("removed", p.removed),
                                          ("not finished", not p.finished)) if on)
        lines.append(f"  {place:>3} {LETTERS[p.chariot]} {p.name}: {p.points} points"
                     + (f" ({notes})" if notes else ""))
    if result.termination == "deadlock":
        lines.append("the race ended in deadlock: for a full round no chariot moved (each "
                     "still racing skipped its turn or chose to wait at the alley) — the "
                     "safety net; every chariot still racing scores as not finished")
    return lines
