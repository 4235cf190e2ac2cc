"""A race position as SVG for notebooks (:meth:`RaceState._repr_svg_`): the course's spaces
(kept by the board, engine/course/svg), each chariot's letter on its space in its
colour, and a caption with the turn, the laps and the finishers."""

from __future__ import annotations

from typing import Any

from avecaesar.engine.core.types import LETTERS, REMOVED
from avecaesar.engine.course.svg import Mark, spaces_svg

__all__ = ["CHARIOT_COLOURS", "position_svg"]

CHARIOT_COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#7d3c98", "#d35400", "#17202a",
                   "#b7950b", "#a93226", "#148f77", "#5d6d7e", "#6e2c00", "#1a5276")


def position_svg(state: Any) -> str:
    """The SVG of ``state`` (a :class:`~avecaesar.engine.core.state.RaceState`)."""
    board = state.game.board
    drawing = board.drawing
    spaces = drawing.spaces if drawing is not None else {}
    finish = drawing.finish if drawing is not None else None
    name = drawing.name if drawing is not None else None
    marks = {p: Mark(LETTERS[c], CHARIOT_COLOURS[c % len(CHARIOT_COLOURS)])
             for c, p in enumerate(state.pos) if p is not None}
    names = state.game.names
    turn = "race over" if state.over else \
        f"{LETTERS[state.turn]} ({names[state.turn]}) to move"
    laps = ", ".join(f"{LETTERS[c]} lap {state.lap(c)}" for c in state.racing())
    caption = [f"ply {state.ply}: {turn}", laps] if laps else [f"ply {state.ply}: {turn}"]
    if state.finish_order:
        caption.append("finished: " + ", ".join(LETTERS[c] for c in state.finish_order))
    off = [LETTERS[c] for c in range(len(state.pos))
           if state.pos[c] is None and state.status[c] == REMOVED]
    if off:
        caption.append("off the track: " + ", ".join(off))
    return spaces_svg(spaces, marks, str(name or board.id), caption, finish)
