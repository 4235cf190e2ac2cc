"""What each effect of the vocabulary does to a position, keyed by the effect's name.

:mod:`avecaesar.engine.core.effects` is the documented registry (what an effect means, its
citation, its events, its parameters, its facts); it is data the rules derive their lists
from and sits below the position. This module is the behaviour one layer up: for every
effect that changes a position (every one but those that offer moves instead), a function
of its parameters returning the function that applies it (:data:`APPLY`), and
:func:`bound_effects`, a ruleset's lists as those functions, per event, which
:meth:`RaceState.push` and :meth:`RaceState.skip` apply in order (bound when a state is
made; its copies share them).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from avecaesar.engine.core.effects import EFFECTS, Turn
from avecaesar.engine.core.position import Position
from avecaesar.engine.core.rule_values import RaceRules
from avecaesar.engine.core.types import REMOVED, Event, with_item
from avecaesar.engine.data.values import Json

__all__ = ["APPLY", "Apply", "BoundEffects", "bound_effects", "remove"]

Apply = Callable[[Position, int, Turn], None]


def remove(state: Position, c: int, reason: str, events: list[Event]) -> None:
    """Chariot ``c`` leaves the race: off the board, 0 points."""
    state.status[c] = REMOVED
    state.pos[c] = None
    events.append(Event("removed", c, {"reason": reason}))


def _give_coin() -> Apply:
    def apply(state: Position, c: int, t: Turn) -> None:
        state.stopped[c] = True
    return apply


def _take_race_card(card: int) -> Apply:
    def apply(state: Position, c: int, t: Turn) -> None:
        if not t.own:
            t.hand.append(card)  # the race-card tribute: it joins the hand
            t.events.append(Event("alley_card", c, {"card": card}))
    return apply


def _grant_bonus(points: int) -> Apply:
    def apply(state: Position, c: int, t: Turn) -> None:
        if not t.own:
            state.bonus = with_item(state.bonus, c, True)
            t.events.append(Event("bonus", c, {"points": points}))
    return apply


def _reshuffle() -> Apply:
    def apply(state: Position, c: int, t: Turn) -> None:
        """The played cards go back and the whole deck is reshuffled (a shuffle seeded by
        the position, so a replay repeats it)."""
        if t.own:
            return
        deck = [*state.decks[c], *state.played[c]]
        random.Random(f"{state.ply}/{c}/{deck}").shuffle(deck)
        state.decks[c], state.played[c] = tuple(deck), ()
        state.forfeit = with_item(state.forfeit, c, True)
        t.events.append(Event("reshuffle", c, {"cards": len(deck)}))
    return apply


def _pay_prize(amounts: tuple[int, ...]) -> Apply:
    def apply(state: Position, c: int, t: Turn) -> None:
        """The prize by the order of completing the lap, unless the chariot stopped in the
        alley during that lap (the reshuffle forfeits it)."""
        start = state.game.board.start_crossings
        done = state.crossings[c] - start[c]
        if done < 1:
            return
        if state.forfeit[c]:
            state.forfeit = with_item(state.forfeit, c, False)
            t.events.append(Event("prize", c, {"lap": done, "money": 0, "forfeited": True}))
            return
        before = sum(1 for o in range(len(state.pos)) if o != c
                     and state.crossings[o] - start[o] >= done)
        won = amounts[before] if before < len(amounts) else 0
        state.money = with_item(state.money, c, state.money[c] + won)
        t.events.append(Event("prize", c, {"lap": done, "money": won}))
    return apply


def _disqualify() -> Apply:
    def apply(state: Position, c: int, t: Turn) -> None:
        if not state.dq[c]:
            state.dq[c] = True
            t.events.append(Event("disqualified", c, {"reason": t.event.dq_reason}))
    return apply


def _remove() -> Apply:
    def apply(state: Position, c: int, t: Turn) -> None:
        if not t.finished and state.status[c] != REMOVED:
            remove(state, c, t.event.remove_reason, t.events)
    return apply


def _execute() -> Apply:
    def apply(state: Position, c: int, t: Turn) -> None:
        t.finished = False  # executed: out at once, 0 points, even over the line
        remove(state, c, "executed", t.events)
    return apply


def _crash() -> Apply:
    def apply(state: Position, c: int, t: Turn) -> None:
        state.status[c] = REMOVED  # out of the race; the wreck (pos kept) blocks its space
        t.events.append(Event("crashed", c, {"space": state.pos[c]}))
    return apply


def _cycle_card() -> Apply:
    def apply(state: Position, c: int, t: Turn) -> None:
        if state.decks[c] and t.hand:
            card = max(t.hand)  # the highest card goes under the deck
            t.hand.remove(card)
            t.hand.append(state.decks[c][0])
            state.decks[c] = (*state.decks[c][1:], card)
            t.events.append(Event("cycle", c, {"card": card}))
    return apply


def _draw_card(count: int) -> Apply:
    def apply(state: Position, c: int, t: Turn) -> None:
        if t.own:
            return
        for _ in range(count):
            if not state.decks[c]:
                break
            t.hand.append(state.decks[c][0])  # beyond the hand size: drawing back to it
            state.decks[c] = state.decks[c][1:]  # after the move does not undo it
            t.extra += 1
            t.events.append(Event("draw", c, {"card": t.hand[-1]}))
    return apply


def _discard_card(count: int) -> Apply:
    def apply(state: Position, c: int, t: Turn) -> None:
        if t.own:
            return
        for _ in range(count):
            if not t.hand:
                break
            card = max(t.hand)
            t.hand.remove(card)
            state.played[c] = (*state.played[c], card)
            t.events.append(Event("discard_card", c, {"card": card}))
    return apply


def _extend_alley_window(laps: int) -> Apply:
    def apply(state: Position, c: int, t: Turn) -> None:
        """The chariot's window reaches ``laps`` laps past the ruleset's last (the most any
        application gave it: applied again, it does not add up)."""
        if laps > state.later_laps[c]:
            state.later_laps = with_item(state.later_laps, c, laps)
            t.events.append(Event("alley_window", c, {"laps": list(state.window(c))}))
    return apply


APPLY: dict[str, Callable[..., Apply]] = {
    "draw_card": _draw_card,
    "discard_card": _discard_card,
    "extend_alley_window": _extend_alley_window,
    "give_coin": _give_coin,
    "take_race_card": _take_race_card,
    "grant_bonus": _grant_bonus,
    "reshuffle": _reshuffle,
    "pay_prize": _pay_prize,
    "disqualify": _disqualify,
    "remove": _remove,
    "execute": _execute,
    "crash": _crash,
    "cycle_card": _cycle_card,
}


class BoundEffects:
    """A ruleset's effect lists as functions to apply, one tuple per event (empty: nothing
    happens on it)."""

    __slots__ = ("alley_missed", "alley_stop", "lap_completed", "move_ended", "no_move",
                 "only_restricted", "out_of_cards")

    move_ended: tuple[Apply, ...]
    lap_completed: tuple[Apply, ...]
    alley_stop: tuple[Apply, ...]
    alley_missed: tuple[Apply, ...]
    no_move: tuple[Apply, ...]
    only_restricted: tuple[Apply, ...]
    out_of_cards: tuple[Apply, ...]

    def __init__(self, names: Mapping[str, tuple[tuple[str, Mapping[str, Json]], ...]]
                 ) -> None:
        def bound(event: str) -> tuple[Apply, ...]:
            return tuple(APPLY[name](**params) for name, params in names.get(event, ())
                         if not EFFECTS[name].offers_moves)

        self.move_ended = bound("move_ended")
        self.lap_completed = bound("lap_completed")
        self.alley_stop = bound("alley_stop")
        self.alley_missed = bound("alley_missed")
        self.no_move = bound("no_move")
        self.only_restricted = bound("only_restricted")
        self.out_of_cards = bound("out_of_cards")


def bound_effects(rules: RaceRules) -> BoundEffects:
    """The effect lists of ``rules`` as functions, bound when a state is made (its copies
    share them): no table of them is kept — binding is a few microseconds (1.7 µs compiled),
    once a race."""
    return BoundEffects(rules.effects.names)
