"""The vocabulary of events and effects: what happens on named events of a race.

Two registries. :data:`EVENTS`: the named moments of a turn at which rules act (a lap
completed, the alley stop, the alley missed, no legal move, only restricted cards left, out
of cards, the end of a move). :data:`EFFECTS`: named effects, each with the sentence that
defines it, where a rulebook defines it the citation (docs/sources.md's short form, e.g.
``[000 S.8-12]``: the engine names no edition, tests/ruleset), the events it may be
attached to, its parameters and what it does to the mover's own facts (:class:`Facts`,
read by the bots without pushing the move).

This module is data about effects and sits below the rules and the position: the rules
derive their effect lists from it (:func:`avecaesar.engine.core.rule_values.rule_effects`,
summed up by :func:`effect_lists`). What each effect does to a position is
:mod:`avecaesar.engine.core.apply_effects`, one layer up, keyed by the same names (a test
checks that every effect here has its function there). A ruleset may append effects with
``effects.extra`` and needs no code; :meth:`RaceState.push` and :meth:`RaceState.skip`
apply the lists in order and contain no per-rule branches.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from avecaesar.engine.core.types import Event
from avecaesar.engine.data.suggest import unknown_name
from avecaesar.engine.data.values import Json, as_int

__all__ = ["EFFECTS", "EVENTS", "Effect", "EffectLists", "Facts", "Turn", "check_effect_list",
           "effect_lists"]


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

    __slots__ = ("event", "events", "extra", "finished", "hand", "own")

    def __init__(self, hand: list[int], finished: bool, events: list[Event],
                 own: bool) -> None:
        self.hand, self.finished, self.events, self.own = hand, finished, events, own
        self.event = EVENTS["move_ended"]
        self.extra = 0  # cards drawn beyond the hand size this turn (draw_card)


@dataclass(frozen=True)
class Effect:
    """A named effect.

    doc: the sentence that defines it; cite: where a rulebook defines it (docs/sources.md's
    form), else "". events: the events it may be attached to (empty: any).
    params: the parameters it takes (given by the adapter from the ruleset's values, or in
    ``effects.extra`` as ``{effect: name, param: value}``).
    stops, disqualifies, removes, cancels_finish, adds_card: what it does to the mover's
    own facts (:class:`Facts`); changes_hand: a skip with it is not idle (the deadlock
    rule waits for the whole deck to turn).
    offers_moves: it changes which moves are legal rather than the state after a move (it
    has no function in core/apply_effects.py).
    """

    doc: str
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


EFFECTS: dict[str, Effect] = {
    "give_coin": Effect(
        "the chariot hands its coin to Caesar: the alley stop is made",
        events=("alley_stop",), stops=True),
    "take_race_card": Effect(
        "the chariot picks up a race card of the given value in the alley; it joins the "
        "hand (not for a chariot nobody drives)",
        "[000 S.8-12]", params=("card",), adds_card=True),
    "grant_bonus": Effect(
        "the chariot receives the bonus piece, played once instead of a card for the given "
        "points (not for a chariot nobody drives)",
        "[003 comment 1]", params=("points",)),
    "reshuffle": Effect(
        "the played cards go back into the deck, the whole deck is reshuffled, and the "
        "prize of this lap is forfeited (not for a chariot nobody drives)",
        "[000 S.8-12]"),
    "pay_prize": Effect(
        "the prize for completing the lap, by the order of completing it (the first gets "
        "the first amount, ...); forfeited after a reshuffle in this lap",
        "[000 S.8-12]", events=("lap_completed",),
        params=("amounts",)),
    "disqualify": Effect(
        "the chariot is disqualified (it scores the disqualified points)",
        disqualifies=True),
    "remove": Effect(
        "the chariot leaves the race (off the board, 0 points), unless it finishes with "
        "this move", removes=True),
    "execute": Effect(
        "the chariot is executed: out of the race at once, 0 points, even if the move "
        "crosses the line", "[001 Optional Variants]",
        removes=True, cancels_finish=True),
    "crash": Effect(
        "the chariot crashes: out of the race, its wreck blocks its space for the rest of "
        "it", "[001 Optional Variants]",
        events=("only_restricted", "no_move")),
    "cycle_card": Effect(
        "the highest card of the hand goes under the deck and the top card is drawn "
        "instead", "[001 Optional Variants]",
        events=("no_move", "only_restricted", "move_ended"), changes_hand=True),
    "draw_card": Effect(
        "the chariot draws the given number of cards from its deck into its hand, beyond "
        "its hand size (not for a chariot nobody drives)",
        params=("count",), changes_hand=True),
    "discard_card": Effect(
        "the chariot discards the given number of its highest hand cards; they are out of "
        "the race (not for a chariot nobody drives)",
        params=("count",), changes_hand=True),
    "extend_alley_window": Effect(
        "the chariot's alley stop still counts in the given number of laps after the "
        "ruleset's last alley lap (its own window; applied again, the laps do not add up)",
        events=("no_move", "only_restricted", "move_ended"), params=("laps",)),
    "play_smallest_loss": Effect(
        "no card moves in full: the card that loses the fewest movement points is played as "
        "far as it goes (a move, offered instead of the skip)",
        "[000 S.8-12]", events=("no_move",), offers_moves=True),
}


@dataclass(frozen=True)
class EffectLists:
    """The ordered effects per event (names with their parameters), the move-generation
    effects in force, and what the lists do to the mover's own facts (the :class:`Effect`
    flags, folded once per ruleset: :func:`~avecaesar.engine.core.moves.move_facts` and the
    bots read them)."""

    names: Mapping[str, tuple[tuple[str, Mapping[str, Json]], ...]]
    offers: frozenset[str] = field(default_factory=frozenset)
    stop_stops: bool = False  # alley_stop: the stop is made
    stop_cards: tuple[int, ...] = ()  # alley_stop: the cards that join the hand
    alley_missed: bool = False  # alley_missed: the list is not empty
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


def check_effect_list(event: str, entries: Json, where: str) -> list[str]:
    """What is wrong with an effect list for ``event`` (empty: nothing). An entry is a
    name or ``{effect: name, <param>: value}``."""
    if event not in EVENTS:
        return [f"{where}: {unknown_name('event', event, EVENTS)}"]
    if not isinstance(entries, list):
        return [f"{where}: a list of effects, not {entries!r}"]
    out = []
    for i, e in enumerate(entries):
        name = e.get("effect") if isinstance(e, Mapping) else e
        if not isinstance(name, str) or name not in EFFECTS:
            out.append(f"{where}[{i}]: {unknown_name('effect', str(name), EFFECTS)}")
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


def effect_lists(names: Mapping[str, tuple[tuple[str, Mapping[str, Json]], ...]]
                 ) -> EffectLists:
    """The effect lists of ``names`` (checked by :func:`check_effect_list`; every parameter
    given) with their facts folded."""
    def flag(event: str, name: str) -> bool:
        return any(getattr(EFFECTS[e], name) for e, _ in names.get(event, ()))

    return EffectLists(
        names,
        offers=frozenset(e for entries in names.values() for e, _ in entries
                         if EFFECTS[e].offers_moves),
        stop_stops=flag("alley_stop", "stops"),
        stop_cards=tuple(as_int(p["card"], f"{e}.card") for e, p in names.get("alley_stop", ())
                         if EFFECTS[e].adds_card),
        alley_missed=bool(names.get("alley_missed")),
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
