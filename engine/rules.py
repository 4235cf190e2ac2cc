"""The rule values a race needs, as one typed value, and the one adapter from a ruleset.

The engine reads rules only through :class:`RaceRules`; :func:`rules_from_ruleset` is the
single place that knows the ruleset's dotted keys. Every field carries its citation (taken
from the ruleset's data at run time), so "why not?" answers can name their source.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from avecaesar.errors import AveCaesarError

__all__ = ["RULE_KEYS", "OwnerlessRules", "RaceRules", "UnsupportedRuleError",
           "rules_from_ruleset"]


class UnsupportedRuleError(AveCaesarError):
    """Raised when a ruleset states a rule value the engine has no primitive for yet."""

    def __init__(self, key: str, value: object, supported: list[str],
                 why: str | None = None) -> None:
        self.key = key
        super().__init__(why or f"the rule {key} = {value!r} is not supported by the race "
                         f"engine (supported: {', '.join(supported)})")


SIX_AT_START = ("start_player_may", "first_row_may_not", "none")
SIX_ENDS = ("race_has_finisher", "never")
ALLEY_WAIT = ("must_wait", "may_wait", "no_wait", "must_move")

# Rule values the engine assumes without a switch: a ruleset stating another value is refused
# (never silently ignored). Groups the engine has no primitives for yet are refused whole.
ASSUMED: dict[str, tuple[object, ...]] = {
    "players.chariots_per_player": (1,),
    "deck.piles": (1,),
    "start.order": ("reveal_highest_card",),
    "start.ties": ("redraw",),
    "start.reshuffle_after": (True,),
    "turns.order": ("start_place_order",),
    "alley.tribute": ("coin",),
    "scoring.method": ("laurels_by_place",),
    "ownerless.turn_order": ("in_start_order", "after_players_best_placed_first"),
}
UNSUPPORTED_GROUPS = ("bonus", "prize_money", "ramming", "teams")
CONDITIONS = ("on_chicane", "blocks_others", "leading_jointly", "all_joint_leaders_only_sixes")


@dataclass(frozen=True)
class OwnerlessRules:
    """Chariots that no player drives and that play the top card of their deck.

    unusable: what happens to a drawn card that cannot be moved in full: ``under_deck`` (back
        under the deck) or ``discard``.
    draws_when_blocked: whether a card is drawn when no card at all could move the chariot.
    six_rule: whether the 6-card rule binds them.
    alley: ``exempt`` (need not stop) or ``tries_lap_1`` (bound like the others; the policy
        stops in lap 1 when it can).
    scores: whether they score points; occupies_places: whether they take finishing places.
    move: ``top_card`` (every turn) or ``first_card_then_position`` (the first move by a
        card, then by race position: ``position_moves`` leading / middle / last).
    out_of_cards: ``remove`` or ``not_applicable``.
    turn_order: ``in_start_order`` or ``after_players_best_placed_first``.
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
    missing: tuple[Exception, ...] = ()

    def check(self) -> None:
        if self.missing:
            raise self.missing[0]


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
    six_chicane: conditions under which a leader on a chicane with only sixes may play one
        (None: no exception).
    six_joint_exception: conditions under which one of several joint leaders, all with only
        sixes, may play one (None: no exception).
    six_ends: ``race_has_finisher`` or ``never``.
    alley_laps: laps in which the alley stop counts.
    alley_must_stop: whether a chariot must stop in the alley.
    alley_wait: ``must_wait`` / ``may_wait`` / ``no_wait`` when the alley is blocked on
        the last chance (the data's ``must_move`` is ``no_wait``).
    no_stop: what a missing alley stop does: ``disqualify`` or ``none``.
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
    six_chicane: tuple[str, ...] | None
    six_joint_exception: tuple[str, ...] | None
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
    citations: Mapping[str, str] = field(default_factory=dict, compare=False)

    def cite(self, name: str) -> str:
        """The citation of a field, or a plain note when none was given."""
        return self.citations.get(name, "rule data")

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
RULE_KEYS: dict[str, str] = {
    "deck": "deck.composition",
    "hand_size": "hand.size",
    "laps": "race.laps",
    "six_card": "six_rule.card",
    "six_joint": "six_rule.forbidden_when",
    "six_at_start": "six_rule.at_start",
    "start_rows": "start.rows",
    "six_only": "six_rule.only_sixes",
    "six_chicane": "six_rule.chicane_exception",
    "six_joint_exception": "six_rule.joint_leader_exception",
    "six_ends": "six_rule.ends_when",
    "leader": "leader.measure",
    "alley_laps": "alley.laps",
    "alley_must_stop": "alley.must_stop",
    "alley_overtaking": "alley.overtaking",
    "alley_wait": "alley.blocked_last_chance",
    "no_stop": "alley.no_stop",
    "dq_may_finish": "disqualification.may_finish",
    "dq_keeps_place": "disqualification.keeps_place",
    "out_of_cards": "out_of_cards.effect",
    "overshoot": "finish.overshoot",
    "others_continue": "finish.others_continue",
    "places": "scoring.places",
    "not_finished_points": "scoring.not_finished",
    "disqualified_points": "scoring.disqualified",
    "water": "water.ditches",
    "ownerless": "ownerless.when",
    "must_play": "turns.must_play",
    "exact_move": "turns.exact_move",
    "no_move": "turns.no_move",
}


def _check(key: str, value: object, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise UnsupportedRuleError(key, value, list(allowed))
    return str(value)


def _conditions(key: str, value: Any) -> tuple[str, ...] | None:
    if value in (None, False, [], "none"):
        return None
    if isinstance(value, Mapping):
        value = value.get("when", [])
    out = tuple(str(v) for v in value)
    for c in out:
        _check(key, c, CONDITIONS)
    return out


def _refuse_unsupported(ruleset: Any) -> None:
    stated = getattr(ruleset, "stated_keys", None)
    keys = list(stated()) if stated else []
    for key in keys:
        if key.split(".")[0] in UNSUPPORTED_GROUPS:
            group = key.split(".")[0]
            raise UnsupportedRuleError(key, None, [], f"the ruleset states {key}, but the race "
                                       f"engine has no '{group}' rules yet; race without "
                                       "that variant")
    for key, allowed in ASSUMED.items():
        if key in keys:
            try:
                value = ruleset.value(key)
            except AveCaesarError:
                continue
            if value not in allowed:
                raise UnsupportedRuleError(key, value, [repr(a) for a in allowed])


def _ownerless(ruleset: Any) -> OwnerlessRules | None:
    from avecaesar.errors import MissingRuleValueError

    when = ruleset.value("ownerless.when")
    if when == "never":
        return None
    _check("ownerless.when", when, ("fill_empty_places",))
    missing: list[Exception] = []

    def get(key: str, fallback: object) -> Any:
        try:
            return ruleset.value(f"ownerless.{key}")
        except MissingRuleValueError as err:
            missing.append(err)
            return fallback  # never used: check() raises before a race uses it

    move = _check("ownerless.move", get("move", "top_card"),
                  ("top_card", "first_card_then_position"))
    out = _check("ownerless.out_of_cards", get("out_of_cards", "remove"),
                 ("remove", "not_applicable"))
    pm = None
    if move == "first_card_then_position":
        raw = get("position_moves", {"leading": 2, "middle": 4, "last": 6})
        pm = (int(raw["leading"]), int(raw["middle"]), int(raw["last"]))
    return OwnerlessRules(
        move=move, position_moves=pm, out_of_cards=out,
        turn_order=str(get("turn_order", "in_start_order")),
        unusable=_check("ownerless.unusable_card", get("unusable_card", "discard"),
                        ("under_deck", "discard", "skip_move")),
        draws_when_blocked=bool(get("draws_when_blocked", True)),
        six_rule=bool(get("six_rule", True)),
        alley=_check("ownerless.alley", get("alley", "exempt"), ("exempt", "tries_lap_1")),
        scores=bool(get("scores", False)),
        occupies_places=bool(get("occupies_places", True)),
        missing=tuple(missing))


def rules_from_ruleset(ruleset: Any) -> RaceRules:
    """Read a composed ruleset (``.value(key)``, ``.citation(key)``) into :class:`RaceRules`.

    A value the ruleset declares unknown raises its MissingRuleValueError; a value the engine
    has no primitive for raises :class:`UnsupportedRuleError`. Nothing is defaulted.
    """
    v = ruleset.value
    k = RULE_KEYS
    _refuse_unsupported(ruleset)
    cites = {name: ruleset.citation(key) for name, key in k.items()}
    deck: list[int] = []
    for entry in v(k["deck"]):
        deck += [int(entry["card"])] * int(entry["count"])
    forbidden = list(v(k["six_joint"]))
    if "leading" in forbidden:
        joint = True
    elif "leading_alone" in forbidden:
        joint = False
    else:
        raise UnsupportedRuleError(k["six_joint"], forbidden, ["[leading]", "[leading_alone]"])
    _check(k["six_only"], v(k["six_only"]), ("skip_turn",))
    _check(k["leader"], v(k["leader"]), ("progress",))
    _check(k["overshoot"], v(k["overshoot"]), ("lapses",))
    _check(k["others_continue"], v(k["others_continue"]), (True,))  # type: ignore[arg-type]
    _check(k["out_of_cards"], v(k["out_of_cards"]), ("remove",))
    _check(k["no_move"], v(k["no_move"]), ("skip_turn",))
    if v(k["alley_overtaking"]) is not False:
        raise UnsupportedRuleError(k["alley_overtaking"], v(k["alley_overtaking"]), ["false"])
    rows = v(k["start_rows"])
    water = v(k["water"])
    return RaceRules(
        deck=tuple(sorted(deck)),
        hand_size=int(v(k["hand_size"])),
        laps=int(v(k["laps"])),
        six_card=int(v(k["six_card"])),
        six_joint=joint,
        six_at_start=_check(k["six_at_start"], v(k["six_at_start"]) or "none", SIX_AT_START),
        start_rows=None if rows is None else tuple(tuple(int(p) for p in r) for r in rows),
        six_chicane=_conditions(k["six_chicane"], v(k["six_chicane"])),
        six_joint_exception=_conditions(k["six_joint_exception"], v(k["six_joint_exception"])),
        six_ends=_check(k["six_ends"], v(k["six_ends"]), SIX_ENDS),
        alley_laps=tuple(int(x) for x in v(k["alley_laps"])),
        alley_must_stop=bool(v(k["alley_must_stop"])),
        alley_wait=_check(k["alley_wait"], v(k["alley_wait"]), ALLEY_WAIT).replace(
            "must_move", "no_wait"),
        no_stop=_check(k["no_stop"], v(k["no_stop"]), ("disqualify", "none")),
        dq_may_finish=bool(v(k["dq_may_finish"])),
        dq_keeps_place=bool(v(k["dq_keeps_place"])),
        out_of_cards="remove",
        places=tuple(int(p) for p in v(k["places"])),
        not_finished_points=int(v(k["not_finished_points"])),
        disqualified_points=int(v(k["disqualified_points"])),
        water="skipped" if water == "skipped" else "space",
        ownerless=_ownerless(ruleset),
        citations=cites,
    )
