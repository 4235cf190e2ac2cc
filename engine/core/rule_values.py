"""The rule values a race reads, as typed values: :class:`RaceRules` and what it derives.

The engine's lower layers (the position, the conditions, the effects' facts) read rules only
through :class:`RaceRules`; it derives its card restrictions (:func:`six_restrictions`),
its effect lists per event (:func:`rule_effects`) and its named primitives
(:func:`rule_primitives`) from its own values, so ``dataclasses.replace`` keeps them right.
Reading a ruleset's dotted keys into these values, and checking the names a house rule
gives, is the adapter's job (:mod:`avecaesar.engine.core.ruleset_adapter`), one layer up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from avecaesar.engine.core.effects import EffectLists, effect_lists
from avecaesar.engine.data.errors import AveCaesarError, MissingRuleValueError
from avecaesar.engine.data.values import Json

__all__ = ["CardRestriction", "Cond", "EffectNames", "OwnerlessRules", "RaceRules",
           "UnsupportedRuleError", "freeze", "rule_effects", "rule_primitives",
           "six_restrictions"]


class UnsupportedRuleError(AveCaesarError):
    """Raised when a ruleset states a rule value the engine has no primitive for yet."""

    def __init__(self, key: str, value: object, supported: list[str],
                 why: str | None = None) -> None:
        self.key = key
        super().__init__(why or f"the rule {key} = {value!r} is not supported by the race "
                         f"engine (supported: {', '.join(supported)})")



#: a condition expression frozen (:func:`freeze`): a name, or ``(op, arg)`` — ``("not",
#: expr)``, ``("all" | "any", (expr, …))`` or ``(name, number)`` for a condition with a
#: parameter; the evaluator (core/conditions.py's ``holds``) takes it apart by that shape
Cond: TypeAlias = "str | tuple[str, object]"


def freeze(expr: Json | Cond) -> Cond:
    """A checked expression (as the data gives it: a name, ``{op: arg}``) as hashable
    values: a name, or ``(op, args)``; a frozen one as it is."""
    if isinstance(expr, str):
        return expr
    if isinstance(expr, tuple):  # frozen already
        return (str(expr[0]), expr[1])
    if not isinstance(expr, Mapping) or len(expr) != 1:
        raise AveCaesarError(f"not a condition expression: {expr!r}")
    (op, arg), = expr.items()
    if op == "not":
        return (op, freeze(arg))
    if op in ("all", "any") and isinstance(arg, list | tuple):
        return (op, tuple(freeze(e) for e in arg))
    if isinstance(arg, list):  # a condition with a list parameter: {only_cards_in_hand: [..]}
        return (op, frozenset(arg))
    return (op, arg)  # a condition with a parameter: {name: value}


def freeze_or_none(expr: Json | Cond) -> Cond | None:
    return None if expr is None else freeze(expr)


@dataclass(frozen=True)
class CardRestriction:
    """Cards a chariot may not play while ``forbidden_when`` holds, unless ``unless`` or
    ``release`` holds; none of it once ``ends_when`` holds (``None``: no such clause).
    ``release`` is what frees a chariot the restriction would otherwise freeze (the 6-card
    rule's shapes: ``{only_cards_in_hand: [..]}``, ``cannot_be_passed``,
    ``alone_on_track``); a house rule states it apart from ``unless`` so that a restriction
    without one can be found and warned about (``ruleset validate --race``). Its reason is
    the code ``reason`` of core/reasons.py's ``REASONS`` or, when a house rule gives its own
    words, ``why`` (a sentence in which "{card}", "{cards}" and "{lead}" are filled in);
    ``cite`` is its citation."""

    cards: frozenset[int]
    forbidden_when: Cond
    unless: Cond | None = None
    ends_when: Cond | None = None
    why: str | None = None
    cite: str = ""
    reason: str = "no_card_now"
    release: Cond | None = None


@dataclass(frozen=True)
class OwnerlessRules:
    """Chariots that no player drives and that play the top card of their deck.

    unusable: what happens to a drawn card that cannot be moved in full: ``under_deck`` (back
        under the deck) or ``discard``.
    draws_when_blocked: whether a card is drawn when no card at all could move the chariot.
    six_rule: whether the 6-card rule binds them.
    alley: ``exempt`` (need not stop), ``avoid`` (never enters an alley space) or
        ``tries_lap_1`` (bound like the others; the policy stops in lap 1 when it can).
    scores: whether they score points; occupies_places: whether they take finishing places.
    move: ``top_card`` (every turn) or ``first_card_then_position`` (the first move by a
        card, then by race position: ``position_moves`` leading / middle / last).
    out_of_cards: ``remove`` or ``not_applicable``.
    turn_order: ``in_start_order`` or ``after_players_best_placed_first``.
    forbidden_first_card: with ``first_card_then_position``, what happens when the 6-card
        rule forbids the revealed card: ``reveal_next`` (reveal the next card instead, until
        one may be played) or ``skip_move``.
    alley_wait: whether they are held to the alley wait of the players (``must_wait``).
    missing: errors for rule values the ruleset declares unknown, raised as soon as a race
        actually has such a chariot.
    """

    unusable: str
    draws_when_blocked: bool
    six_rule: bool
    alley: str
    scores: bool
    occupies_places: bool
    move: str = "top_card"
    position_moves: tuple[int, int, int] | None = None  # leading, middle, last
    out_of_cards: str = "remove"
    turn_order: str = "in_start_order"
    forbidden_first_card: str = "skip_move"
    alley_wait: bool = True
    missing: tuple[Exception, ...] = ()
    # derived by the adapter from the values above (the engine reads these, not the words)
    alley_free: bool = field(init=False, compare=False)  # need not stop (exempt, avoid)
    avoids_alley: bool = field(init=False, compare=False)  # never enters an alley space
    runs_out: bool = field(init=False, compare=False)  # removed when out of cards
    after_players: bool = field(init=False, compare=False)  # moves after the players
    reveal_next: bool = field(init=False, compare=False)  # a forbidden first card: next one
    under_deck: bool = field(init=False, compare=False)  # an unusable card: under the deck

    def __post_init__(self) -> None:
        for name, value in _ownerless_primitives(self).items():
            object.__setattr__(self, name, value)

    def check(self) -> None:
        """Raise one error listing every open value these chariots need."""
        if self.missing:
            raise MissingRuleValueError.combined(list(self.missing))  # type: ignore[arg-type]



@dataclass(frozen=True)
class RaceRules:
    """Every rule value the race engine uses (field → meaning).

    deck: the cards of one chariot's deck (values, with repeats).
    hand_size: cards in hand after drawing.
    laps: laps to drive.
    six_card: the card the leader may not play (6).
    six_joint: True if joint leaders are bound too ("leading"), False for sole leaders only.
    six_at_start: ``start_player_may`` (the start player's first card is free),
        ``first_row_may_not`` (a first-row chariot may not open with it, a later row may),
        ``none``.
    start_rows: start places (1-based) per row, or None.
    six_chicane: conditions (names or frozen ``all``/``any``/``not`` expressions, all
        must hold) under which a leader on a chicane with only sixes may play one (None: no
        exception).
    six_joint_exception: conditions under which one of several joint leaders, all with only
        sixes, may play one (None: no exception).
    six_ends: ``race_has_finisher`` or ``never``.
    six_free: conditions (as ``six_chicane``) under which a leader is not bound by the rule
        at all (None: none).
    finishers_lead: a chariot that has finished is ahead of every racing chariot, so no
        racing chariot leads once one has finished.
    alley_laps: laps in which the alley stop counts.
    alley_must_stop: whether a chariot must stop in the alley.
    alley_wait: ``must_wait`` / ``may_wait`` / ``no_wait`` when the alley is blocked on
        the last chance (the data's ``must_move`` is ``no_wait``).
    alley_wait_laps: the laps in which a chariot blocked from the alley is held to
        ``alley_wait`` for the stop in that very lap (None: only on its last chance).
    no_stop: what a missing alley stop does: ``disqualify``, ``execute`` (removed at once,
        0 points) or ``none``.
    no_move: when no card can be moved in full: ``skip_turn``, ``cycle_card`` (skip, put
        the highest card under the deck and draw a replacement) or ``smallest_loss`` (play the
        card that loses the fewest movement points, as far as it goes).
    six_only: a leader the 6-card rule leaves without a card: ``skip_turn`` or ``crash``
        (out of the race, its space blocked for the rest of it; if then anyone fails to
        finish, nobody scores).
    alley_card: with the race-card tribute, the value of the card picked up in the alley
        (it joins the hand), else None.
    bonus: the points of the bonus piece a chariot receives with its alley stop and may use
        once instead of a card, or None.
    ramming: None, or ramming attacks on with this tie resolution: ``no_effect``,
        ``attacker_wins`` or ``defender_wins``. A chariot whose move (not over the line) ends
        beside an opponent's, with the space straight ahead of both free, may attack: both
        show their highest hand card, the higher wins, the winner moves one space straight
        ahead, the loser one straight back (if that space is free).
    prizes: None, or prize money instead of laurels: the amounts paid for completing each
        lap, by the order in which the chariots complete it (the first to complete a lap
        gets the first amount, …). A stop in the alley (once per lap, in the alley laps)
        reshuffles the played cards into the deck and forfeits the prize of that lap. A
        chariot's race points are its money.
    chariots_per_player: chariots each player drives: a number, or ``((players, chariots),
        …)`` by the number of players (see :meth:`chariots_for`).
    team_order: ``in_start_order`` (each chariot in the turn of its start place) or
        ``player_orders_own_chariots`` (players in the order of their first start place; on
        a player's turn all their chariots move, in the order the player chooses).
    team_scoring: None (one chariot each) or how a player's chariots score:
        ``all_chariots_score`` / ``individual_and_team`` / ``team_total`` — each chariot
        scores by its place, the player's (team's) points are their sum.
    players_min, players_max: how many players the rules are written for (enforced when a
        race is set up, :func:`~avecaesar.engine.core.race.check_seats`).
    dq_may_finish, dq_keeps_place: what a disqualified chariot may do.
    out_of_cards: ``remove``.
    places: points per place (1st first).
    not_finished_points, disqualified_points: points for those.
    water: ``space`` or ``skipped``.
    citations: field name → citation.
    """

    deck: tuple[int, ...]
    hand_size: int
    laps: int
    six_card: int
    six_joint: bool
    six_at_start: str
    start_rows: tuple[tuple[int, ...], ...] | None
    six_chicane: tuple[Cond, ...] | None
    six_joint_exception: tuple[Cond, ...] | None
    six_ends: str
    alley_laps: tuple[int, ...]
    alley_must_stop: bool
    alley_wait: str
    no_stop: str
    dq_may_finish: bool
    dq_keeps_place: bool
    out_of_cards: str
    places: tuple[int, ...]
    not_finished_points: int
    disqualified_points: int
    water: str = "space"
    ownerless: OwnerlessRules | None = None
    no_move: str = "skip_turn"
    six_only: str = "skip_turn"
    alley_card: int | None = None
    bonus: int | None = None
    ramming: str | None = None
    prizes: tuple[int, ...] | None = None
    chariots_per_player: int | tuple[tuple[int, int], ...] = 1
    team_order: str = "in_start_order"
    team_scoring: str | None = None
    six_free: tuple[Cond, ...] | None = None
    alley_wait_laps: tuple[int, ...] | None = None
    players_min: int = 1
    players_max: int = 6
    finishers_lead: bool = False
    extra_restrictions: tuple[CardRestriction, ...] = ()
    extra_effects: tuple[tuple[str, tuple[tuple[str, Mapping[str, Json]], ...]], ...] = ()
    citations: Mapping[str, str] = field(default_factory=dict, compare=False)
    # derived: the six_rule fields as restrictions, then the extra ones (in that order), and
    # every card some restriction names (a card outside it is never forbidden)
    card_restrictions: tuple[CardRestriction, ...] = field(init=False, compare=False)
    restricted_cards: frozenset[int] = field(init=False, compare=False)
    # derived: the effect lists per event (rule_effects), and the named primitives the
    # engine reads instead of the values' words (rule_primitives)
    effects: EffectLists = field(init=False, compare=False)
    lapse_points: bool = field(init=False, compare=False)  # play the smallest loss
    idle_rounds: int = field(init=False, compare=False)  # idle turns per racing chariot
    stop_each_lap: bool = field(init=False, compare=False)  # an alley stop in every lap
    alley_wait_binds: bool = field(init=False, compare=False)  # must or may wait
    alley_must_wait: bool = field(init=False, compare=False)  # waiting is compulsory
    first_row_six: bool = field(init=False, compare=False)  # no 6 first from start row 1
    player_orders: bool = field(init=False, compare=False)  # a player orders own chariots
    water_skipped: bool = field(init=False, compare=False)  # water spaces are skipped
    ram_tie_winner: int = field(init=False, compare=False)  # a tied ram: 1 attacker, -1
    # defender, 0 nobody

    def __post_init__(self) -> None:
        restrictions = (*six_restrictions(self), *self.extra_restrictions)
        object.__setattr__(self, "card_restrictions", restrictions)
        object.__setattr__(self, "restricted_cards",
                           frozenset(k for r in restrictions for k in r.cards))
        object.__setattr__(self, "effects", effect_lists(rule_effects(self)))
        for name, value in rule_primitives(self).items():
            object.__setattr__(self, name, value)

    def cite(self, name: str) -> str:
        """The citation of a field, or a plain note when none was given."""
        return self.citations.get(name, "rule data")

    def chariots_for(self, players: int) -> int:
        """Chariots each player drives when ``players`` play."""
        cpp = self.chariots_per_player
        if isinstance(cpp, int):
            return cpp
        for n, k in cpp:
            if n == players:
                return k
        raise UnsupportedRuleError(
            "players.chariots_per_player", players, [str(n) for n, _ in cpp],
            f"the rules give chariots per player only for "
            f"{', '.join(str(n) for n, _ in cpp)} players, not {players} "
            f"({self.cite('chariots_per_player')})")

    @property
    def deck_points(self) -> int:
        return sum(self.deck)

    def row_of(self, place: int) -> int | None:
        """The 1-based start row of a 1-based start place, or None without rows."""
        if not self.start_rows:
            return None
        for i, row in enumerate(self.start_rows):
            if place in row:
                return i + 1
        return None


# field → the ruleset key it is read from (the adapter's whole coupling, one table)

def _all(*parts: Cond | None) -> Cond | None:
    """``all`` of the parts given, frozen (a lone part as itself; none: None)."""
    given = tuple(x for x in parts if x is not None)
    if not given:
        return None
    return given[0] if len(given) == 1 else ("all", given)


def _any(*parts: Cond | None) -> Cond | None:
    given = tuple(x for x in parts if x is not None)
    if not given:
        return None
    return given[0] if len(given) == 1 else ("any", given)


def _conds(names: tuple[Cond, ...] | None) -> Cond | None:
    return None if not names else _all(*names)


def six_restrictions(r: RaceRules) -> tuple[CardRestriction, ...]:
    """The ruleset's ``six_rule`` group as card restrictions of the vocabulary: the start
    clause (``at_start: first_row_may_not``) and the leader clause, checked in that order.

    This translation is the only place the group's values are compared: the engine applies
    any :class:`CardRestriction` the same way, whatever rule it came from.
    """
    six = frozenset({r.six_card})
    # finishers_lead needs no clause here: the leading conditions read Position.leaders,
    # which names no leader once a chariot has finished
    ends = "race_has_finisher" if r.six_ends == "race_has_finisher" else None
    exempt = "driven_by_nobody" if r.ownerless is not None and not r.ownerless.six_rule \
        else None
    free = _all("leading", _conds(r.six_free)) if r.six_free else None
    out = []
    first_row = r.six_at_start == "first_row_may_not"
    if first_row:
        out.append(CardRestriction(
            six, ("all", ("first_card", "in_start_row_1")), _any(exempt, free), ends,
            cite=r.cite("six_at_start"), reason="first_row"))
    chicane = _all("only_sixes_in_hand", _conds(r.six_chicane)) if r.six_chicane else None
    joint = (_all("only_sixes_in_hand", "leading_jointly", _conds(r.six_joint_exception))
             if r.six_joint_exception else None)
    out.append(CardRestriction(
        six, "leading" if r.six_joint else "leading_alone",
        _any(exempt,
             ("all", ("first_card", "in_a_start_row")) if first_row else None,
             ("all", ("first_card", "start_player"))
             if r.six_at_start == "start_player_may" else None,
             _conds(r.six_free), chicane, joint),
        ends, cite=r.cite("six_joint"), reason="lead_no"))
    return tuple(out)


EffectNames = dict[str, tuple[tuple[str, Mapping[str, Json]], ...]]


def rule_effects(r: RaceRules) -> EffectNames:
    """The ruleset's values as an ordered effect list per event (the vocabulary of
    core/effects.py), then the ruleset's ``effects.extra`` appended event by event.

    This translation is the only place these values are compared: the engine applies the
    lists, whatever rule they came from.
    """
    none: Mapping[str, Json] = {}
    out: dict[str, list[tuple[str, Mapping[str, Json]]]] = {
        "lap_completed": [], "alley_stop": [("give_coin", none)], "alley_missed": [],
        "no_move": [], "only_restricted": [],
        "out_of_cards": {"remove": [("remove", none)]}[r.out_of_cards], "move_ended": []}
    if r.prizes is not None:
        out["lap_completed"].append(("pay_prize", {"amounts": r.prizes}))
        out["alley_stop"].append(("reshuffle", none))
    if r.alley_card is not None:
        out["alley_stop"].append(("take_race_card", {"card": r.alley_card}))
    if r.bonus is not None:
        out["alley_stop"].append(("grant_bonus", {"points": r.bonus}))
    if r.alley_must_stop:
        out["alley_missed"] += {
            "disqualify": [("disqualify", none)] + ([] if r.dq_may_finish
                                                    else [("remove", none)]),
            "execute": [("disqualify", none), ("execute", none)],
            "none": []}[r.no_stop]
    out["no_move"] += {"skip_turn": [], "cycle_card": [("cycle_card", none)],
                       "smallest_loss": [("play_smallest_loss", none)]}[r.no_move]
    out["only_restricted"] += {"skip_turn": [], "crash": [("crash", none)]}[r.six_only]
    for event, entries in r.extra_effects:
        out[event] += entries
    return {event: tuple(entries) for event, entries in out.items()}


def rule_primitives(r: RaceRules) -> dict[str, bool | int]:
    """The named primitives the engine reads instead of comparing the values' words."""
    fx = r.effects
    return {
        "lapse_points": "play_smallest_loss" in fx.offers,
        # a skip that turns the hand over is not idle until the whole deck has turned
        "idle_rounds": len(r.deck) + 1 if (fx.any_of("no_move", "changes_hand")
                                           or fx.any_of("only_restricted", "changes_hand"))
        else 1,
        "stop_each_lap": r.prizes is not None,
        "alley_wait_binds": r.alley_wait in ("must_wait", "may_wait"),
        "alley_must_wait": r.alley_wait == "must_wait",
        "first_row_six": r.six_at_start == "first_row_may_not",
        "player_orders": r.team_order == "player_orders_own_chariots",
        "water_skipped": r.water == "skipped",
        "ram_tie_winner": {"attacker_wins": 1, "defender_wins": -1}.get(r.ramming or "", 0),
    }


def _ownerless_primitives(o: OwnerlessRules) -> dict[str, bool]:
    """:class:`OwnerlessRules`' values as the named primitives the engine reads."""
    return {
        "alley_free": o.alley in ("exempt", "avoid"),
        "avoids_alley": o.alley == "avoid",
        "runs_out": o.out_of_cards == "remove",
        "after_players": o.turn_order == "after_players_best_placed_first",
        "reveal_next": o.six_rule and o.forbidden_first_card == "reveal_next",
        "under_deck": o.unusable == "under_deck",
    }
