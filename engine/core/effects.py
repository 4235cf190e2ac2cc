"""The vocabulary of events and effects: what happens on named events of a race.

Two registries. :data:`EVENTS`: the named moments of a turn at which rules act (a lap
completed, the alley stop, the alley missed, no legal move, only restricted cards left, out
of cards, the end of a move). :data:`EFFECTS`: named effects, each with the sentence that
defines it, where a rulebook defines it the citation (RULES.md's short form, e.g.
``[000 S.8-12]``: the engine names no edition, tests/ruleset), the events it may be
attached to, what it does to the mover's own facts (:class:`Facts`, read by the bots
without pushing the move), and the function that applies it to a state.

The one adapter (:func:`avecaesar.engine.core.rules.rule_effects`) turns a ruleset's values
into an ordered effect list per event (:class:`EffectLists`); a ruleset may append more
with ``effects.extra`` and needs no code. :meth:`RaceState.push` and :meth:`RaceState.skip`
apply the lists in order and contain no per-rule branches.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from avecaesar.engine.core.types import REMOVED, Event

if TYPE_CHECKING:  # annotations only: the state imports this module (tests/layers)
    from avecaesar.engine.core.state import RaceState

__all__ = ["EFFECTS", "EVENTS", "Effect", "EffectLists", "Facts", "Turn", "bind",
           "check_effect_list"]


@dataclass(frozen=True)
class EventKind:
    """A named event: the sentence that defines it, and the reasons an effect reports when
    it disqualifies or removes a chariot on it."""

    doc: str
    dq_reason: str = ""
    remove_reason: str = ""


EVENTS: dict[str, EventKind] = {
    "move_ended": EventKind(
        "a chariot has ended a move (after its laps, alley stop and finish are counted, "
        "before it draws)", "move", "move"),
    "lap_completed": EventKind(
        "a chariot's move crosses the finish line (once per crossing)", "lap", "lap"),
    "alley_stop": EventKind(
        "a chariot's move ends on an alley space in a lap in which the stop counts (once a "
        "race; with a lap prize, once per lap)", "alley_stop", "alley_stop"),
    "alley_missed": EventKind(
        "a chariot bound to stop in the alley passes the last alley lap, or finishes, "
        "without having stopped", "no_alley_stop", "disqualified"),
    "no_move": EventKind(
        "the chariot to move has no legal move (it skips, keeping its cards)",
        "no_move", "no_move"),
    "only_restricted": EventKind(
        "the chariot skips because the card restrictions forbid every card of its hand "
        "(a leader holding only sixes)", "only_restricted", "crashed"),
    "out_of_cards": EventKind(
        "a racing chariot has no card left in hand or deck", "out_of_cards", "out_of_cards"),
}


class Turn:
    """The mover's facts while a move or skip is applied: its hand (a list, sorted and
    stored when the move is done), whether it finishes with this move, the events so far,
    whether nobody drives it, and the event whose effects are applied."""

    __slots__ = ("event", "events", "finished", "hand", "own")

    def __init__(self, hand: list[int], finished: bool, events: list[Event],
                 own: bool) -> None:
        self.hand, self.finished, self.events, self.own = hand, finished, events, own
        self.event = EVENTS["move_ended"]


Apply = Callable[["RaceState", int, Turn], None]


@dataclass(frozen=True)
class Effect:
    """A named effect.

    doc: the sentence that defines it; cite: where a rulebook defines it (RULES.md's short
    form), else "". events: the events it may be attached to (empty: any).
    params: the parameters it takes (given by the adapter from the ruleset's values, or in
    ``effects.extra`` as ``{effect: name, param: value}``). make: params → the function
    that applies it (None: the effect is the move generation's, see ``offers_moves``).
    stops, disqualifies, removes, cancels_finish, adds_card: what it does to the mover's
    own facts (:class:`Facts`); changes_hand: a skip with it is not idle (the deadlock
    rule waits for the whole deck to turn).
    offers_moves: it changes which moves are legal rather than the state after a move.
    """

    doc: str
    make: Callable[..., Apply] | None
    cite: str = ""
    events: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    stops: bool = False
    disqualifies: bool = False
    removes: bool = False
    cancels_finish: bool = False
    adds_card: bool = False
    changes_hand: bool = False
    offers_moves: bool = False


def _with(values: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*values[:i], value, *values[i + 1:])


def remove(state: RaceState, c: int, reason: str, events: list[Event]) -> None:
    """Chariot ``c`` leaves the race: off the board, 0 points."""
    state.status[c] = REMOVED
    state.pos[c] = None
    events.append(Event("removed", c, {"reason": reason}))


def _give_coin() -> Apply:
    def apply(state: RaceState, c: int, t: Turn) -> None:
        state.stopped[c] = True
    return apply


def _take_race_card(card: int) -> Apply:
    def apply(state: RaceState, c: int, t: Turn) -> None:
        if not t.own:
            t.hand.append(card)  # the race-card tribute: it joins the hand
            t.events.append(Event("alley_card", c, {"card": card}))
    return apply


def _grant_bonus(points: int) -> Apply:
    def apply(state: RaceState, c: int, t: Turn) -> None:
        if not t.own:
            state.bonus = _with(state.bonus, c, True)
            t.events.append(Event("bonus", c, {"points": points}))
    return apply


def _reshuffle() -> Apply:
    def apply(state: RaceState, c: int, t: Turn) -> None:
        """The played cards go back and the whole deck is reshuffled (a shuffle seeded by
        the position, so a replay repeats it)."""
        if t.own:
            return
        deck = [*state.decks[c], *state.played[c]]
        random.Random(f"{state.ply}/{c}/{deck}").shuffle(deck)
        state.decks[c], state.played[c] = tuple(deck), ()
        state.forfeit = _with(state.forfeit, c, True)
        t.events.append(Event("reshuffle", c, {"cards": len(deck)}))
    return apply


def _pay_prize(amounts: tuple[int, ...]) -> Apply:
    def apply(state: RaceState, c: int, t: Turn) -> None:
        """The prize by the order of completing the lap, unless the chariot stopped in the
        alley during that lap (the reshuffle forfeits it)."""
        start = state.game.board.start_crossings
        done = state.crossings[c] - start[c]
        if done < 1:
            return
        if state.forfeit[c]:
            state.forfeit = _with(state.forfeit, c, False)
            t.events.append(Event("prize", c, {"lap": done, "money": 0, "forfeited": True}))
            return
        before = sum(1 for o in range(len(state.pos)) if o != c
                     and state.crossings[o] - start[o] >= done)
        won = amounts[before] if before < len(amounts) else 0
        state.money = _with(state.money, c, state.money[c] + won)
        t.events.append(Event("prize", c, {"lap": done, "money": won}))
    return apply


def _disqualify() -> Apply:
    def apply(state: RaceState, c: int, t: Turn) -> None:
        if not state.dq[c]:
            state.dq[c] = True
            t.events.append(Event("disqualified", c, {"reason": t.event.dq_reason}))
    return apply


def _remove() -> Apply:
    def apply(state: RaceState, c: int, t: Turn) -> None:
        if not t.finished and state.status[c] != REMOVED:
            remove(state, c, t.event.remove_reason, t.events)
    return apply


def _execute() -> Apply:
    def apply(state: RaceState, c: int, t: Turn) -> None:
        t.finished = False  # executed: out at once, 0 points, even over the line
        remove(state, c, "executed", t.events)
    return apply


def _crash() -> Apply:
    def apply(state: RaceState, c: int, t: Turn) -> None:
        state.status[c] = REMOVED  # out of the race; the wreck (pos kept) blocks its space
        t.events.append(Event("crashed", c, {"space": state.pos[c]}))
    return apply


def _cycle_card() -> Apply:
    def apply(state: RaceState, c: int, t: Turn) -> None:
        if state.decks[c] and t.hand:
            card = max(t.hand)  # the highest card goes under the deck
            t.hand.remove(card)
            t.hand.append(state.decks[c][0])
            state.decks[c] = (*state.decks[c][1:], card)
            t.events.append(Event("cycle", c, {"card": card}))
    return apply


EFFECTS: dict[str, Effect] = {
    "give_coin": Effect(
        "the chariot hands its coin to Caesar: the alley stop is made", _give_coin,
        events=("alley_stop",), stops=True),
    "take_race_card": Effect(
        "the chariot picks up a race card of the given value in the alley; it joins the "
        "hand (not for a chariot nobody drives)", _take_race_card,
        "[000 S.8-12]", params=("card",), adds_card=True),
    "grant_bonus": Effect(
        "the chariot receives the bonus piece, played once instead of a card for the given "
        "points (not for a chariot nobody drives)", _grant_bonus,
        "[003 comment 1]", params=("points",)),
    "reshuffle": Effect(
        "the played cards go back into the deck, the whole deck is reshuffled, and the "
        "prize of this lap is forfeited (not for a chariot nobody drives)", _reshuffle,
        "[000 S.8-12]"),
    "pay_prize": Effect(
        "the prize for completing the lap, by the order of completing it (the first gets "
        "the first amount, ...); forfeited after a reshuffle in this lap", _pay_prize,
        "[000 S.8-12]", events=("lap_completed",),
        params=("amounts",)),
    "disqualify": Effect(
        "the chariot is disqualified (it scores the disqualified points)", _disqualify,
        disqualifies=True),
    "remove": Effect(
        "the chariot leaves the race (off the board, 0 points), unless it finishes with "
        "this move", _remove, removes=True),
    "execute": Effect(
        "the chariot is executed: out of the race at once, 0 points, even if the move "
        "crosses the line", _execute, "[001 Optional Variants]",
        removes=True, cancels_finish=True),
    "crash": Effect(
        "the chariot crashes: out of the race, its wreck blocks its space for the rest of "
        "it", _crash, "[001 Optional Variants]",
        events=("only_restricted", "no_move")),
    "cycle_card": Effect(
        "the highest card of the hand goes under the deck and the top card is drawn "
        "instead", _cycle_card, "[001 Optional Variants]",
        events=("no_move", "only_restricted", "move_ended"), changes_hand=True),
    "play_smallest_loss": Effect(
        "no card moves in full: the card that loses the fewest movement points is played as "
        "far as it goes (a move, offered instead of the skip)", None,
        "[000 S.8-12]", events=("no_move",), offers_moves=True),
}


@dataclass(frozen=True)
class EffectLists:
    """The ordered effects per event (names with their parameters, and the bound
    functions), and the move-generation effects in force."""

    names: Mapping[str, tuple[tuple[str, Mapping[str, Any]], ...]]
    move_ended: tuple[Apply, ...] = ()
    lap_completed: tuple[Apply, ...] = ()
    alley_stop: tuple[Apply, ...] = ()
    alley_missed: tuple[Apply, ...] = ()
    no_move: tuple[Apply, ...] = ()
    only_restricted: tuple[Apply, ...] = ()
    out_of_cards: tuple[Apply, ...] = ()
    offers: frozenset[str] = field(default_factory=frozenset)
    # what the lists do to the mover's own facts (Effect flags, folded once per ruleset)
    stop_stops: bool = False  # alley_stop: the stop is made
    stop_cards: tuple[int, ...] = ()  # alley_stop: the cards that join the hand
    missed_dq: bool = False  # alley_missed: disqualified
    missed_removes: bool = False  # alley_missed: removed (unless it finishes)
    missed_cancels_finish: bool = False  # alley_missed: not even a finish counts
    out_removes: bool = False  # out_of_cards: removed

    def has(self, event: str, effect: str) -> bool:
        """Whether ``effect`` is on ``event``'s list."""
        return any(name == effect for name, _ in self.names.get(event, ()))

    def any_of(self, event: str, flag: str) -> bool:
        """Whether some effect on ``event``'s list has ``flag`` (an :class:`Effect` field,
        e.g. ``removes``)."""
        return any(getattr(EFFECTS[name], flag) for name, _ in self.names.get(event, ()))


def check_effect_list(event: str, entries: Any, where: str) -> list[str]:
    """What is wrong with an effect list for ``event`` (empty: nothing). An entry is a
    name or ``{effect: name, <param>: value}``."""
    if event not in EVENTS:
        return [f"{where}: unknown event {event!r}; known: {', '.join(EVENTS)}"]
    if not isinstance(entries, list):
        return [f"{where}: a list of effects, not {entries!r}"]
    out = []
    for i, e in enumerate(entries):
        name = e.get("effect") if isinstance(e, Mapping) else e
        if not isinstance(name, str) or name not in EFFECTS:
            out.append(f"{where}[{i}]: unknown effect {name!r}; known: {', '.join(EFFECTS)}")
            continue
        eff = EFFECTS[name]
        if eff.events and event not in eff.events:
            out.append(f"{where}[{i}]: the effect {name!r} cannot be applied on {event!r} "
                       f"(only on {', '.join(eff.events)})")
        given = set(e) - {"effect"} if isinstance(e, Mapping) else set()
        if given - set(eff.params):
            out.append(f"{where}[{i}]: the effect {name!r} takes "
                       f"{', '.join(eff.params) or 'no parameters'}, not "
                       f"{', '.join(sorted(given - set(eff.params)))}")
    return out


def bind(names: Mapping[str, tuple[tuple[str, Mapping[str, Any]], ...]]) -> EffectLists:
    """The effect lists as functions to apply (names checked by :func:`check_effect_list`;
    every parameter given)."""
    lists: dict[str, tuple[Apply, ...]] = {}
    offers: set[str] = set()
    for event, entries in names.items():
        fns = []
        for name, params in entries:
            eff = EFFECTS[name]
            if eff.make is None:
                offers.add(name)
            else:
                fns.append(eff.make(**params))
        lists[event] = tuple(fns)

    def flag(event: str, name: str) -> bool:
        return any(getattr(EFFECTS[e], name) for e, _ in names.get(event, ()))

    return EffectLists(
        names, offers=frozenset(offers), **lists,
        stop_stops=flag("alley_stop", "stops"),
        stop_cards=tuple(int(p["card"]) for e, p in names.get("alley_stop", ())
                         if EFFECTS[e].adds_card),
        missed_dq=flag("alley_missed", "disqualifies"),
        missed_removes=flag("alley_missed", "removes"),
        missed_cancels_finish=flag("alley_missed", "cancels_finish"),
        out_removes=flag("out_of_cards", "removes"))


@dataclass(frozen=True)
class Facts:
    """What a move does to its own chariot, as the effect lists say: the facts a bot's
    score reads (:func:`avecaesar.engine.core.moves.move_facts`)."""

    pos: int | None  # None: finished or removed
    crossings: int
    stopped: bool
    dq: bool
    finished: bool
