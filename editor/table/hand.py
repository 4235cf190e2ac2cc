"""The hand of the person to move, card by card: the moves each card offers, or why it
offers none (the rule's reason with its citation, from the engine).

Shared by the terminal ``play`` and anything else that lists a hand in words; it asks the
engine only (``legal moves``, ``card_reason``, ``walks``).
"""

from __future__ import annotations

from dataclasses import dataclass

from avecaesar.editor.render.lang import reason_text
from avecaesar.editor.table.choices import options
from avecaesar.editor.table.messages import say
from avecaesar.engine.core.moves import card_reason as engine_card_reason
from avecaesar.engine.core.moves import walks
from avecaesar.engine.core.state import Move, RaceState

__all__ = ["CardLine", "hand_lines"]


@dataclass(frozen=True)
class CardLine:
    """One distinct card of the hand: its legal moves (numbered in :func:`options` order)
    or, when it has none, why (``cards``: every card value sharing that reason)."""

    cards: tuple[int, ...]
    moves: tuple[tuple[int, Move], ...]  # (number shown, move)
    why: str | None


def hand_lines(state: RaceState) -> tuple[list[CardLine], int | None]:
    """Every card value in the chariot to move's hand, in order, with its numbered moves or
    the reason it has none (cards with the same reason merged: "5 and 6: you lead jointly…");
    and the number of the waiting move when it is legal (numbered last)."""
    moves = options(state)
    numbered = list(enumerate(moves, start=1))  # the numbers a person answers with
    c = state.turn
    lines: list[CardLine] = []
    merged: dict[str, int] = {}  # reason → index in lines
    for card in sorted(set(state.cards(c))):
        mine = tuple((i, m) for i, m in numbered if m.card == card)
        if mine:
            lines.append(CardLine((card,), mine, None))
            continue
        why = card_reason(state, card)
        if why in merged:
            old = lines[merged[why]]
            lines[merged[why]] = CardLine((*old.cards, card), (), why)
            continue
        merged[why] = len(lines)
        lines.append(CardLine((card,), (), why))
    bonus = tuple((i, m) for i, m in numbered if m.card < 0)
    if bonus:
        lines.insert(0, CardLine((bonus[0][1].card,), bonus, None))  # numbered first
    wait = next((i for i, m in numbered if m.card == 0), None)
    return lines, wait


def card_reason(state: RaceState, card: int) -> str:
    """Why ``card`` in hand has no legal move now, in the current language: a card
    restriction's reason, else the first reason the engine gives for a walk of that card
    (taken space, …: the engine's ``card_reason``, the one the published vectors give); the
    citation as its source writes it."""
    why = engine_card_reason(state, card)
    if why is not None:
        return reason_text(why)
    c = state.turn
    cite = state.game.rules.cite("exact_move")
    if next(walks(state, c, card, empty=True), None) is None:
        return say("no_walk", card=card, cite=cite)
    return say("not_now", card=card)
