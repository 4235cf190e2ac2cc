"""The choices a person is offered on their turn, and why a chosen space is not one of them.

Shared by the terminal ``play`` and the web table; both only ask the engine (legal moves,
``walks``, ``why_not``, the board's walks) — no rule is decided here. A why-not teaches the
rule: a space the card cannot reach says how far ahead it is ("a 3 moves exactly 3; space
44 is 1 ahead"), naming spaces by the numbers on the board.
"""

from __future__ import annotations

from avecaesar.editor.render.event_text import space_name
from avecaesar.editor.render.lang import reason_text, text
from avecaesar.editor.table.messages import say
from avecaesar.engine.core.moves import walks, why_not
from avecaesar.engine.core.state import Move, RaceState

__all__ = ["options", "reach_counts", "why_not_target"]

#: how far ahead a why-not looks for the space (beyond it: "more than N spaces ahead")
LOOK_AHEAD = 12


def options(state: RaceState) -> list[Move]:
    """One legal move per (card, landing), sorted; the waiting move (if legal) last."""
    seen: dict[tuple[int, int], Move] = {}
    wait = None
    for m in state.legal_moves():
        if m.card == 0:
            wait = m
            continue
        seen.setdefault((m.card, m.path[-1]), m)
    out = sorted(seen.values(), key=lambda m: (m.card, m.path[-1]))
    return out + ([wait] if wait else [])


def reach_counts(state: RaceState, start: int, target: int) -> list[int]:
    """The step counts (1 to :data:`LOOK_AHEAD`) of the walks from ``start`` that end on
    ``target`` on the empty track."""
    board = state.game.board
    c = state.turn
    left = board.start_crossings[c] + state.game.rules.laps - state.crossings[c]
    return [k for k in range(1, LOOK_AHEAD + 1)
            if any(p[-1] == target for p in board.paths(start, k, left))]


def why_not_target(state: RaceState, card: int, target: int) -> str:
    """Why playing ``card`` to space ``target`` is not among the choices, with the rule's
    citation; the cards it names that would reach it are cards the deck holds."""
    c = state.turn
    board = state.game.board
    if card not in state.cards(c):
        return say("no_card", card=card)
    if not 0 <= target < len(board.succ):
        return say("not_on_board", space=text("events", "space", n=target))
    for path in walks(state, c, card, empty=True):
        if path[-1] == target:
            reason = why_not(state, Move(card, path))
            if reason is not None:
                return reason_text(reason)
    cite = state.game.rules.cite("exact_move")
    name = space_name(board, target)
    pos = state.pos[c]
    if pos is None:
        return say("no_card", card=card)
    steps = reach_counts(state, pos, target)
    held = set(state.game.rules.deck)  # a count no card of the deck has is no help
    counts = [k for k in steps if k in held]
    if steps and not counts:
        return say("beyond_deck", space=name, steps=steps[0], card=card, cite=cite)
    if len(counts) == 1:
        return say("exact_ahead", card=card, space=name, steps=counts[0], cite=cite)
    if counts:
        cards = f" {say('or')} ".join(str(k) for k in counts)
        return say("exact_ahead_many", card=card, space=name, cards=cards, cite=cite)
    if target == pos or pos in _ahead_of(state, target):
        return say("behind", space=name, cite=cite)
    return say("out_of_reach", space=name, most=LOOK_AHEAD, card=card, cite=cite)


def _ahead_of(state: RaceState, node: int) -> set[int]:
    """The spaces within :data:`LOOK_AHEAD` steps forward of ``node``."""
    succ = state.game.board.succ
    seen: set[int] = set()
    frontier = {node}
    for _ in range(LOOK_AHEAD):
        frontier = {v for u in frontier for v, _fin in succ[u]} - seen
        seen |= frontier
    return seen
