"""What the terminal ``play`` shows, as lines: the part everyone at the table may see (the
seed line, the moves since a person's last turn, every chariot's space, lap, alley stop and
points left against its shortest way home) and the part only the person to move may see
(their hand, card by card).

The public part is built from the engine's one public view (``Game.view_for(None)``), the
hand from ``editor/table/hand.py``; nothing here decides a rule.
"""

from __future__ import annotations

from typing import Any

from avecaesar.editor.render.event_text import space_name
from avecaesar.editor.table.game import Game
from avecaesar.editor.table.hand import hand_lines
from avecaesar.editor.table.messages import say
from avecaesar.engine.core.state import LETTERS

__all__ = ["hand_screen", "seed_line", "short_chariots", "table_screen"]

RULE = "=" * 64


def seed_line(game: Game) -> str:
    """The race and its seed — or, for a deal drawn in secret while the race runs, the
    commitment to it."""
    s = game.setup
    d = game.deal
    if d is not None and d.get("by") == "server" and not game.state.over:
        return say("seed_line_dealt", course=game.state.game.board.id,
                   ruleset=s.rules.ruleset, commitment=d["commitment"][:16])
    return say("seed_line", course=game.state.game.board.id, ruleset=s.rules.ruleset,
               seed=s.seed)


def table_screen(game: Game, since: int, heading: str) -> list[str]:
    """The public part: ``heading``, the log from entry ``since`` on, every chariot."""
    view = game.view_for(None)
    out = [RULE, seed_line(game)]
    events = [text for turn in game.log_texts(since) for text in turn["events"]]
    if events:
        out.append(heading)
        out += [f"  {t.strip()}" if not t.startswith("   ") else f"    {t.strip()}"
                for t in events]
    out.append(say("table_head"))
    board = game.state.game.board
    turn = None if game.state.over else game.state.turn
    for c, ch in enumerate(view["chariots"]):
        out.append(_chariot_row(board, c, ch, c == turn))
    return out


def _chariot_row(board: Any, c: int, ch: dict[str, Any], to_move: bool) -> str:
    mark = ">" if to_move else " "
    name = f"{ch['letter']} {ch['name']}"[:15]
    if ch["status"] != "racing":
        state = say("finished") if ch["status"] == "finished" else say("removed")
        if ch.get("disqualified"):
            state += ", " + say("disqualified")
        return f" {mark}{name:<15} {state}"
    pos = ch["pos"]
    where = (say("start_short", place=board.start_places.index(pos) + 1)
             if pos in board.start_places else str(pos))
    alley = say("alley_done") if ch["alley"] == "done" else say("alley_todo")
    to_race = ch["to_race"]
    points = f"{ch['points_left']} / {'-' if to_race is None else to_race}"
    lap = f"{min(ch['lap'], ch['laps'])}/{ch['laps']}"  # a finished chariot: 3/3, not 4/3
    row = f" {mark}{name:<15} {where:>8}  {lap}  {alley:<8} {points:>9}"
    if to_race is not None and ch["points_left"] < to_race:
        row += "  " + say("short_warning", short=to_race - ch["points_left"])
    return row


def short_chariots(game: Game) -> list[str]:
    """The letters of the racing chariots whose points left fall short of their shortest
    way home."""
    view = game.view_for(None)
    return [ch["letter"] for ch in view["chariots"] if ch["status"] == "racing"
            and ch["to_race"] is not None and ch["points_left"] < ch["to_race"]]


def hand_screen(game: Game) -> list[str]:
    """The part only the person to move may see: whose turn, the hand card by card, each
    card's numbered moves or why it has none, and the waiting move."""
    state = game.state
    board = state.game.board
    c = state.turn
    pos = state.pos[c]
    out = ["-" * 64, say("your_turn", letter=LETTERS[c], name=state.game.names[c],
                         ply=state.ply + 1,
                         lap=max(state.lap(c), 0), space=space_name(board, pos),
                         alley=say("alley_done") if state.stopped[c] else say("alley_todo"))]
    out.append(say("hand", cards=" ".join(str(x) for x in state.cards(c)) or "-"))
    lines, wait = hand_lines(state)
    for line in lines:
        if line.why is not None:
            out.append(f"       {_and(line.cards)}: {line.why}")
            continue
        for number, m in line.moves:
            card = say("bonus_piece", points=-m.card) if m.card < 0 else str(m.card)
            out.append(f"  {number:>3}. " + say("play_to", card=card,
                                                space=space_name(board, m.path[-1])))
    if wait is not None:
        out.append(f"  {wait:>3}. " + say("wait_alley"))
    return out


def _and(cards: tuple[int, ...]) -> str:
    words = [str(k) for k in cards]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " " + say("and") + " " + words[-1]
