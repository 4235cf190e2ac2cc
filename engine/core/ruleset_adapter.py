"""The one adapter from a ruleset to the rule values a race needs.

The engine reads rules only through :class:`~avecaesar.engine.core.rule_values.RaceRules`
(core/rule_values.py, re-exported here); :func:`rules_from_ruleset` is the single place that
knows the ruleset's dotted keys, and the place a house rule's condition and effect names are
checked against the registries. Every field carries its citation (taken from the ruleset's
data at run time), so "why not?" answers can name their source.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from avecaesar.engine.core.conditions import CONDITIONS as CONDITION_REGISTRY
from avecaesar.engine.core.conditions import check_expression
from avecaesar.engine.core.effects import EFFECTS, check_effect_list
from avecaesar.engine.core.rule_values import (
    CardRestriction,
    Cond,
    OwnerlessRules,
    RaceRules,
    UnsupportedRuleError,
    freeze,
    freeze_or_none,
)
from avecaesar.engine.data.errors import AveCaesarError, MissingRuleValueError
from avecaesar.engine.data.values import Json, as_bool, as_int, as_list, as_map, as_str

if TYPE_CHECKING:
    from avecaesar.engine.ruleset.load import Ruleset

__all__ = ["RULE_KEYS", "OwnerlessRules", "RaceRules", "TournamentRules",
           "UnsupportedRuleError", "rules_from_ruleset", "tournament_rules_from_ruleset"]


SIX_AT_START = ("start_player_may", "first_row_may_not", "none")
SIX_ENDS = ("race_has_finisher", "never")
ALLEY_WAIT = ("must_wait", "may_wait", "no_wait", "must_move")

# Rule values the engine assumes without a switch: a ruleset stating another value is refused
# (never silently ignored). Groups the engine has no primitives for yet are refused whole.
ASSUMED: dict[str, tuple[object, ...]] = {
    "start.order": ("reveal_highest_card",),
    "start.ties": ("redraw",),
    "start.reshuffle_after": (True,),
    "turns.order": ("start_place_order",),
    "alley.tribute": ("coin", "race_card"),
    "scoring.method": ("laurels_by_place", "prize_money"),
    "ownerless.turn_order": ("in_start_order", "after_players_best_placed_first"),
}
RAM_TIE = ("no_effect", "attacker_wins", "defender_wins")
TEAM_ORDER = ("in_start_order", "player_orders_own_chariots")
TEAM_SCORING = ("all_chariots_score", "individual_and_team", "team_total")
NO_MOVE = {"skip_turn": "skip_turn", "skip_turn_cycle_card": "cycle_card",
           "play_smallest_loss": "smallest_loss"}
NO_STOP = {"disqualify": "disqualify", "execute": "execute", "none": "none",
           "no_penalty": "none"}
CONDITIONS = tuple(CONDITION_REGISTRY)  # every condition of the vocabulary (core/conditions.py)
# six_rule.joint_leader_exception.who → the condition it adds to the exception's ``when``
# (None: any of the joint leaders). Under the turn order the three coincide for the chariot
# to move (the engine asks about it); they differ for a joint leader asked about out of turn.
JOINT_WHO: dict[str, str | None] = {"one_of_them": None, "first_to_move": "first_leader_to_move",
                                    "whose_turn_it_is": "to_move"}


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
    "six_free": "six_rule.free_when",
    "finishers_lead": "leader.finishers_lead",
    "leader": "leader.measure",
    "alley_laps": "alley.laps",
    "alley_must_stop": "alley.must_stop",
    "alley_overtaking": "alley.overtaking",
    "alley_wait": "alley.blocked_last_chance",
    "alley_wait_laps": "alley.wait_laps",
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
    "chariots_per_player": "players.chariots_per_player",
    "players_min": "players.min",
    "players_max": "players.max",
    "exact_move": "turns.exact_move",
    "no_move": "turns.no_move",
}


def _check(key: str, value: object, allowed: tuple[object, ...]) -> str:
    # allowed: tuple[object, ...], not tuple[str, ...]: mypy would narrow ``value`` to str
    # after the ``in`` test and compiled code would then refuse a bool or int it allows
    if value not in allowed:
        raise UnsupportedRuleError(key, value, [str(a) for a in allowed])
    return str(value)


def _conditions(key: str, value: Json) -> tuple[Cond, ...] | None:
    """A ``six_rule`` list of conditions (all must hold): each entry a name or an
    ``all`` / ``any`` / ``not`` expression, as ``card_restrictions`` take; checked against
    the registry and frozen (:func:`~avecaesar.engine.core.rule_values.freeze`)."""
    if value is None or value is False or value == [] or value == "none":
        return None
    if isinstance(value, Mapping):
        value = value.get("when", [])
    entries = [value] if isinstance(value, str | Mapping) else as_list(value, key)
    for i, e in enumerate(entries):
        problems = check_expression(e, f"{key}[{i}]")
        if problems:
            raise UnsupportedRuleError(key, e, list(CONDITIONS), problems[0])
    return tuple(freeze(e) for e in entries)


def _joint_exception(key: str, value: Json) -> tuple[Cond, ...] | None:
    """The joint leaders' exception: its ``when`` conditions, and the one its ``who`` names
    (:data:`JOINT_WHO`)."""
    when = _conditions(key, value)
    if when is None or not isinstance(value, Mapping) or "who" not in value:
        return when
    who = JOINT_WHO[_check(f"{key}.who", value["who"], tuple(JOINT_WHO))]
    return when if who is None else (*when, who)


EffectList = tuple[tuple[str, tuple[tuple[str, Mapping[str, Json]], ...]], ...]


def _extra_effects(ruleset: RuleReader, own: Mapping[str, Json]) -> EffectList:
    """``effects.extra``: the house's effects per event, each checked by name (an entry is
    an effect name or ``{effect: name, <param>: value}``). A parameter the entry leaves out
    is the ruleset's own value for it (``own``: the race card, the bonus points, the lap
    prizes); refused by name when there is none."""
    key = "effects.extra"
    if not ruleset.has(key):
        return ()
    given = ruleset.value(key) or {}
    if not isinstance(given, Mapping):
        raise UnsupportedRuleError(key, given, [], f"{key} maps events to lists of effects, "
                                   f"not {given!r}")
    out = []
    for event, entries in given.items():
        problems = check_effect_list(str(event), entries, f"{key}.{event}")
        if problems:
            raise UnsupportedRuleError(key, problems[0], [], problems[0])
        parsed = []
        for e in as_list(entries, f"{key}.{event}"):
            name, params = (as_str(e["effect"], key), {k: v for k, v in e.items()
                                                      if k != "effect"}) \
                if isinstance(e, Mapping) else (as_str(e, key), {})
            for p in EFFECTS[name].params:
                if p not in params:
                    if own.get(p) is None:
                        raise UnsupportedRuleError(key, name, [], (
                            f"{key}.{event}: the effect {name!r} needs its {p!r} (give "
                            f"{{effect: {name}, {p}: ...}})"))
                    params[p] = own[p]
            parsed.append((name, params))
        out.append((str(event), tuple(parsed)))
    return tuple(out)


def _extra_restrictions(ruleset: RuleReader) -> tuple[CardRestriction, ...]:
    """``card_restrictions.extra``: the house's restrictions, each expression checked."""
    key = "card_restrictions.extra"
    if not ruleset.has(key):
        return ()
    cite = ruleset.citation(key)
    out = []
    for i, e in enumerate(ruleset.maps(key)):
        problems = [p for part in ("forbidden_when", "unless", "ends_when", "release")
                    if part in e for p in check_expression(e[part], f"{key}[{i}].{part}")]
        if problems:
            raise UnsupportedRuleError(key, e, list(CONDITION_REGISTRY), problems[0])
        why = e.get("why")
        if why is not None and _why_problem(str(why)):
            raise UnsupportedRuleError(key, e, [], f"{key}[{i}].why: {_why_problem(str(why))}")
        cards = frozenset(as_int(k, key) for k in as_list(e["cards"], key))
        out.append(CardRestriction(cards, freeze(e["forbidden_when"]),
                                   freeze_or_none(e.get("unless")),
                                   freeze_or_none(e.get("ends_when")),
                                   None if why is None else str(why), cite,
                                   release=freeze_or_none(e.get("release"))))
    return tuple(out)


_WHY_FIELDS = ("card", "cards", "lead")


def _why_problem(why: str) -> str | None:
    """What is wrong with a restriction's own ``why`` (None: nothing): it may fill in only
    ``{card}``, ``{cards}`` and ``{lead}``."""
    try:
        used = {f for _, f, _, _ in string.Formatter().parse(why) if f is not None}
    except ValueError as err:
        return f"{why!r} is not a sentence with {{fields}}: {err} (write {{{{ for a brace)"
    odd = sorted(used - set(_WHY_FIELDS))
    if odd:
        return (f"{why!r} fills in {', '.join('{' + f + '}' for f in odd)}; a reason may fill "
                "in only {card}, {cards} and {lead}")
    return None


def _refuse_unsupported(ruleset: RuleReader) -> None:
    keys = ruleset.stated_keys()
    for key, allowed in ASSUMED.items():
        if key in keys:
            try:
                value = ruleset.value(key)
            except AveCaesarError:
                continue
            if value not in allowed:
                raise UnsupportedRuleError(key, value, [repr(a) for a in allowed])


def _ownerless(ruleset: RuleReader) -> OwnerlessRules | None:
    when = ruleset.value("ownerless.when")
    if when == "never":
        return None
    _check("ownerless.when", when, ("fill_empty_places",))
    missing: list[Exception] = []
    plain = ruleset.ruleset  # open values here wait for check()

    def get(key: str, fallback: Json) -> Json:
        try:
            return plain.value(f"ownerless.{key}")
        except MissingRuleValueError as err:
            missing.append(err)
            return fallback  # never used: check() raises before a race uses it

    move = _check("ownerless.move", get("move", "top_card"),
                  ("top_card", "first_card_then_position"))
    out = _check("ownerless.out_of_cards", get("out_of_cards", "remove"),
                 ("remove", "not_applicable"))
    pm = None
    if move == "first_card_then_position":
        raw = as_map(get("position_moves", {"leading": 2, "middle": 4, "last": 6}),
                     "ownerless.position_moves")
        pm = tuple(as_int(raw[k], "ownerless.position_moves") for k in ("leading", "middle",
                                                                          "last"))
    return OwnerlessRules(
        move=move, position_moves=(pm[0], pm[1], pm[2]) if pm else None, out_of_cards=out,
        turn_order=str(get("turn_order", "in_start_order")),
        forbidden_first_card=_check(
            "ownerless.forbidden_first_card",
            get("forbidden_first_card", "skip_move") if plain.has("ownerless.forbidden_first_card")
            else "skip_move", ("reveal_next", "skip_move")),
        alley_wait=bool(get("alley_wait", True)) if plain.has("ownerless.alley_wait") else True,
        unusable=_check("ownerless.unusable_card", get("unusable_card", "discard"),
                        ("under_deck", "discard", "skip_move")),
        draws_when_blocked=bool(get("draws_when_blocked", True)),
        six_rule=bool(get("six_rule", True)),
        alley=_check("ownerless.alley", get("alley", "exempt"), ("exempt", "avoid",
                                                                  "tries_lap_1")),
        scores=bool(get("scores", False)),
        occupies_places=bool(get("occupies_places", True)),
        missing=tuple(missing))


def _deck(ruleset: RuleReader) -> list[int]:
    """The deck every chariot races with: the composition, or the chosen alternative deck
    (its cards checked against the alternative's card count and the deck's points)."""
    deck: list[int] = []
    for entry in ruleset.maps("deck.composition"):
        deck += [as_int(entry["card"], "deck.composition")] * as_int(entry["count"],
                                                                    "deck.composition")
    if not ruleset.has("deck.choice"):
        return deck
    choice = ruleset.text("deck.choice")
    if choice == "normal":
        return deck
    alts = {as_str(a["name"], "deck.alternatives"): as_int(a["cards"], "deck.alternatives")
            for a in ruleset.maps("deck.alternatives")}
    if choice not in alts:
        raise UnsupportedRuleError("deck.choice", choice, ["normal", *alts])
    comps = {as_str(c["name"], "deck.alternative_compositions"):
             [as_int(x, "deck.alternative_compositions")
              for x in as_list(c["values"], "deck.alternative_compositions")]
             for c in ruleset.maps("deck.alternative_compositions")}
    if choice not in comps:
        raise UnsupportedRuleError("deck.alternative_compositions", None, [], (
            f"deck.choice is {choice!r}, but deck.alternative_compositions gives no cards "
            f"for it: supply [{{name: {choice}, values: [...]}}]"))
    cards = comps[choice]
    points = ruleset.integer("deck.points")
    if len(cards) != alts[choice] or sum(cards) != points:
        raise UnsupportedRuleError("deck.alternative_compositions", cards, [], (
            f"the {choice} deck must hold {alts[choice]} cards of {points} points in all, "
            f"not {len(cards)} cards of {sum(cards)} ({ruleset.citation('deck.alternatives')})"))
    return cards


class RuleReader:
    """A composed ruleset as the adapter reads it: typed getters, each value's shape
    checked (the schema has checked it already: a wrong one is a bug, said with its key).

    An open value the race needs is noted (``missing``) and its first choice given in the
    meantime — a neutral value of its type when it lists none — so that one error can list
    every open value a race needs."""

    def __init__(self, ruleset: Ruleset, collect: bool = True) -> None:
        self.ruleset = ruleset
        self.collect = collect  # False: an open value raises at once
        self.missing: list[MissingRuleValueError] = []

    def has(self, key: str) -> bool:
        return self.ruleset.has(key)

    def citation(self, key: str) -> str:
        return self.ruleset.citation(key)

    def value(self, key: str) -> Json:
        """The value of ``key`` (an open one noted, its first choice or None given)."""
        try:
            return self.ruleset.value(key)
        except MissingRuleValueError as err:
            if not self.collect:
                raise
            self.missing.append(err)
            choices = err.entries[0][2]
            first = choices[0] if choices else None
            return first if isinstance(first, bool | int | float | str) else None

    def _given(self, key: str) -> tuple[Json, bool]:
        """The value and whether it is a stand-in for an open value without choices."""
        before = len(self.missing)
        got = self.value(key)
        return got, got is None and len(self.missing) > before

    def integer(self, key: str) -> int:
        got, open_ = self._given(key)
        return 0 if open_ else as_int(got, key)

    def text(self, key: str) -> str:
        got, open_ = self._given(key)
        return "" if open_ else as_str(got, key)

    def flag(self, key: str) -> bool:
        got, open_ = self._given(key)
        return False if open_ else as_bool(got, key)

    def items(self, key: str) -> Sequence[Json]:
        """A list value (None, an empty list)."""
        got, _open = self._given(key)
        return () if got is None else as_list(got, key)

    def ints(self, key: str) -> tuple[int, ...]:
        return tuple(as_int(x, key) for x in self.items(key))

    def maps(self, key: str) -> list[Mapping[str, Json]]:
        """A list of mappings."""
        return [as_map(x, key) for x in self.items(key)]

    def unknown_keys(self) -> list[str]:
        return self.ruleset.unknown_keys()

    def stated_keys(self) -> list[str]:
        return self.ruleset.stated_keys()


def rules_from_ruleset(ruleset: Ruleset) -> RaceRules:
    """Read a composed ruleset into :class:`RaceRules`.

    Every value the ruleset declares open that the race needs is listed in one
    MissingRuleValueError; a value the engine has no primitive for raises
    :class:`UnsupportedRuleError`. Nothing is defaulted: an open value's stand-in only lets
    the reading go on to find the others (a rule refused for a stand-in is then reported as
    the open values it came from, any other error as itself).
    """
    reader = RuleReader(ruleset)
    try:
        out = _rules_from(reader)
    except AveCaesarError:
        if reader.missing:
            raise _all_open(ruleset, reader.missing) from None
        raise
    if reader.missing:
        raise _all_open(ruleset, reader.missing)
    return out


def _all_open(ruleset: Ruleset, found: list[MissingRuleValueError]) -> MissingRuleValueError:
    """One error for ``found`` and every other open value a race reads (the chariots nobody
    drives ask for theirs when a race has them; the tournament for its own)."""
    more = []
    for key in ruleset.unknown_keys():
        if key.split(".")[0] in ("ownerless", "tournament"):
            continue
        try:
            ruleset.value(key)
        except MissingRuleValueError as err:
            more.append(err)
    return MissingRuleValueError.combined([*found, *more])


def _six_joint(ruleset: RuleReader) -> bool:
    """Whether the 6-card rule binds joint leaders (``forbidden_when: [leading]``) or a
    sole leader only (``[leading_alone]``); the deck's split checked first."""
    v = ruleset.value
    if ruleset.integer("deck.piles") > 1:
        # dealt face down, a pile chosen blind gives an unseen card just like the top of the
        # shuffled deck: the engine draws the deck in order
        _check("deck.split", v("deck.split"), ("dealt_face_down",))
    key = RULE_KEYS["six_joint"]
    forbidden = list(ruleset.items(key))
    if "leading" in forbidden:
        return True
    if "leading_alone" in forbidden:
        return False
    raise UnsupportedRuleError(key, forbidden, ["[leading]", "[leading_alone]"])


def _variant_values(ruleset: RuleReader
                    ) -> tuple[int | None, str | None, tuple[int, ...] | None]:
    """The bonus piece's points, the ramming tie rule and the lap prizes, each None when the
    ruleset has no such variant (their fixed values checked)."""
    v = ruleset.value
    bonus = None
    if ruleset.has("bonus.points"):
        _check("bonus.granted", v("bonus.granted"), ("after_alley_stop",))
        _check("bonus.uses", v("bonus.uses"), (1,))
        _check("bonus.instead_of_card", v("bonus.instead_of_card"), (True,))
        bonus = ruleset.integer("bonus.points")
    ramming = None
    if ruleset.has("ramming.trigger"):
        _check("ramming.trigger", v("ramming.trigger"), ("stop_beside_opponent_free_space_ahead",))
        _check("ramming.card", v("ramming.card"), ("highest_in_hand",))
        _check("ramming.winner", v("ramming.winner"), ("forward_one_take_chip",))
        _check("ramming.loser", v("ramming.loser"), ("back_one",))
        _check("ramming.attack_chips", v("ramming.attack_chips"), ("no_effect",))
        ramming = _check("ramming.tie", v("ramming.tie"), RAM_TIE)
    prizes = None
    if v("scoring.method") == "prize_money":
        _check("prize_money.alley_stop", v("prize_money.alley_stop"),
               ("reshuffle_forfeit_lap_prize",))
        prizes = ruleset.ints("prize_money.per_lap")
    return bonus, ramming, prizes


def _rules_from(ruleset: RuleReader) -> RaceRules:
    """:func:`rules_from_ruleset`'s reading.

    Long because it builds :class:`RaceRules` in one call, one line per field, so that each
    field's key and check sit together; the groups with more than a line of checks have
    their own functions (:func:`_deck`, :func:`_six_joint`, :func:`_variant_values`,
    :func:`_ownerless`, :func:`_extra_effects`)."""
    v = ruleset.value
    k = RULE_KEYS
    _refuse_unsupported(ruleset)
    cites = {name: ruleset.citation(key) for name, key in k.items() if ruleset.has(key)}
    deck = _deck(ruleset)
    joint = _six_joint(ruleset)
    six_only = _check(k["six_only"], v(k["six_only"]), ("skip_turn", "crash"))
    _check(k["leader"], v(k["leader"]), ("progress",))
    _check(k["overshoot"], v(k["overshoot"]), ("lapses",))
    _check(k["others_continue"], v(k["others_continue"]), (True,))
    _check(k["out_of_cards"], v(k["out_of_cards"]), ("remove",))
    no_move = NO_MOVE[_check(k["no_move"], v(k["no_move"]), tuple(NO_MOVE))]
    alley_card = None
    if v("alley.tribute") == "race_card":
        alley_card = ruleset.integer("alley.race_card")
    if v(k["alley_overtaking"]) is not False:
        raise UnsupportedRuleError(k["alley_overtaking"], v(k["alley_overtaking"]), ["false"])
    rows = v(k["start_rows"])
    water = v(k["water"])
    raw_cpp = v(k["chariots_per_player"])
    cpp: int | tuple[tuple[int, int], ...] = (
        raw_cpp if isinstance(raw_cpp, int) and not isinstance(raw_cpp, bool)
        else tuple((as_int(e["players"], k["chariots_per_player"]),
                    as_int(e["chariots"], k["chariots_per_player"]))
                   for e in ruleset.maps(k["chariots_per_player"])))
    bonus, ramming, prizes = _variant_values(ruleset)
    team_order, team_scoring = "in_start_order", None
    if ruleset.has("teams.turn_order") or ruleset.has("teams.scoring") or cpp != 1:
        team_order = _check("teams.turn_order", v("teams.turn_order"), TEAM_ORDER)
        team_scoring = _check("teams.scoring", v("teams.scoring"), TEAM_SCORING)
    rules = RaceRules(
        deck=tuple(sorted(deck)),
        hand_size=ruleset.integer(k["hand_size"]),
        laps=ruleset.integer(k["laps"]),
        six_card=ruleset.integer(k["six_card"]),
        six_joint=joint,
        six_at_start=_check(k["six_at_start"], v(k["six_at_start"]) or "none", SIX_AT_START),
        start_rows=None if rows is None else tuple(
            tuple(as_int(p, k["start_rows"]) for p in as_list(r, k["start_rows"]))
            for r in as_list(rows, k["start_rows"])),
        six_chicane=_conditions(k["six_chicane"], v(k["six_chicane"])),
        six_joint_exception=_joint_exception(k["six_joint_exception"],
                                             v(k["six_joint_exception"])),
        six_ends=_check(k["six_ends"], v(k["six_ends"]), SIX_ENDS),
        alley_laps=ruleset.ints(k["alley_laps"]),
        alley_must_stop=ruleset.flag(k["alley_must_stop"]),
        alley_wait=_check(k["alley_wait"], v(k["alley_wait"]), ALLEY_WAIT).replace(
            "must_move", "no_wait"),
        no_stop=NO_STOP[_check(k["no_stop"], v(k["no_stop"]), tuple(NO_STOP))],
        dq_may_finish=ruleset.flag(k["dq_may_finish"]),
        dq_keeps_place=ruleset.flag(k["dq_keeps_place"]),
        out_of_cards="remove",
        places=ruleset.ints(k["places"]),
        not_finished_points=ruleset.integer(k["not_finished_points"]),
        disqualified_points=ruleset.integer(k["disqualified_points"]),
        water="skipped" if water == "skipped" else "space",
        ownerless=_ownerless(ruleset),
        no_move=no_move,
        six_only=six_only,
        alley_card=alley_card,
        bonus=bonus,
        ramming=ramming,
        prizes=prizes,
        chariots_per_player=cpp,
        team_order=team_order,
        team_scoring=team_scoring,
        six_free=_conditions(k["six_free"], v(k["six_free"])) if ruleset.has(k["six_free"])
        else None,
        alley_wait_laps=ruleset.ints(k["alley_wait_laps"])
        if ruleset.has(k["alley_wait_laps"]) else None,
        players_min=ruleset.integer(k["players_min"]) if ruleset.has(k["players_min"]) else 1,
        players_max=ruleset.integer(k["players_max"]) if ruleset.has(k["players_max"]) else 6,
        finishers_lead=ruleset.flag(k["finishers_lead"]) if ruleset.has(k["finishers_lead"])
        else False,
        citations=cites,
    )
    extra = _extra_effects(ruleset, {"card": alley_card, "points": bonus, "amounts": prizes})
    return replace(rules, extra_restrictions=_extra_restrictions(ruleset), extra_effects=extra)


@dataclass(frozen=True)
class TournamentRules:
    """The rule values of a tournament (field → meaning).

    races: races in the tournament.
    next_start_order: ``reveal`` (draw again), ``loser_first`` (the last-placed player opens,
        the others follow clockwise), ``last_starter_opens`` (whoever started last opens,
        clockwise), ``by_result`` (the winner on start place 1, the others in finishing
        order, non-finishers behind, farthest from the line last).
    course_choice: ``rotation`` or ``recommended_then_draw``.
    rotation: per race, entries ``(players range or None, course id or None, rulebook
        name)``.
    tie_break: ``none`` (tied players share the place) or ``places`` (more wins, then more
        second places, and so on).
    citations: field name → citation.
    """

    races: int
    next_start_order: str
    course_choice: str
    rotation: Mapping[int, tuple[tuple[tuple[int, int] | None, str | None, str], ...]]
    tie_break: str
    citations: Mapping[str, str] = field(default_factory=dict, compare=False)
    # derived: a course is drawn where the rotation names none (``recommended_then_draw``)
    draws_course: bool = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "draws_course", self.course_choice == "recommended_then_draw")

    def cite(self, name: str) -> str:
        return self.citations.get(name, "rule data")


TOURNAMENT_KEYS = {"races": "tournament.races", "next_start_order": "tournament.next_start_order",
                   "course_choice": "tournament.course_choice",
                   "rotation": "tournament.course_rotation", "tie_break": "tournament.tie_break"}
NEXT_ORDER = {"loser_first": "loser_first", "last_starter_opens": "last_starter_opens",
              "winner_stays_reseat_by_place": "by_result", "by_previous_result": "by_result",
              "reveal_highest_card": "reveal"}
TIE_BREAK = {"none": "none", "more_wins_then_seconds": "places"}


def tournament_rules_from_ruleset(ruleset: Ruleset) -> TournamentRules:
    """Read the tournament group of a composed ruleset into :class:`TournamentRules`."""
    reader = RuleReader(ruleset, collect=False)
    v = reader.value
    k = TOURNAMENT_KEYS
    rotation: dict[int, list[tuple[tuple[int, int] | None, str | None, str]]] = {}
    for entry in reader.maps(k["rotation"]):
        players = entry.get("players")
        rng = None
        if players:
            lo, hi = [int(x) for x in str(players).split("-")]
            rng = (lo, hi)
        cid = entry.get("course_id")
        rotation.setdefault(as_int(entry["race"], k["rotation"]), []).append(
            (rng, None if cid is None else str(cid), str(entry["course"])))
    return TournamentRules(
        races=reader.integer(k["races"]),
        next_start_order=NEXT_ORDER[_check(k["next_start_order"], v(k["next_start_order"]),
                                           tuple(NEXT_ORDER))],
        course_choice=_check(k["course_choice"], v(k["course_choice"]),
                             ("rotation", "recommended_then_draw")),
        rotation={r: tuple(e) for r, e in rotation.items()},
        tie_break=TIE_BREAK[_check(k["tie_break"], v(k["tie_break"]), tuple(TIE_BREAK))],
        citations={name: ruleset.citation(key) for name, key in k.items()},
    )
