"""The choices a person is offered on their turn, and why a chosen space is not one of them.

Shared by the terminal ``play`` and the web table; both only ask the engine (legal moves,
``walks``, ``why_not``) — no rule is decided here.
"""

from __future__ import annotations

from avecaesar.engine.core.moves import walks, why_not
from avecaesar.engine.core.state import Move, RaceState

__all__ = ["options", "why_not_target"]


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


def why_not_target(state: RaceState, card: int, target: int) -> str:
    """Why playing ``card`` to space ``target`` is not among the choices, with the rule's
    citation."""
    c = state.turn
    if card not in state.cards(c):
        return f"you have no {card} in hand"
    for path in walks(state, c, card, empty=True):
        if path[-1] == target:
            reason = why_not(state, Move(card, path))
            if reason:
                return reason
    return (f"space {target} cannot be reached with a {card} — "
            f"{state.game.rules.cite('exact_move')}")
