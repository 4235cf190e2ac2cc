"""The one adapter from a ruleset to the rule values a race needs.

The engine reads rules only through :class:`~avecaesar.engine.core.rule_values.RaceRules`
(core/rule_values.py, re-exported here); :func:`rules_from_ruleset` is the single place that
knows the ruleset's dotted keys, and the place a house rule's condition and effect names are
checked against the registries. Every field carries its citation (taken from the ruleset's
data at run time), so "why not?" answers can name their source.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from avecaesar.engine.core.conditions import CONDITIONS as CONDITION_REGISTRY
from avecaesar.engine.core.conditions import check_expression
from avecaesar.engine.core.effects import EFFECTS, check_effect_list
from avecaesar.engine.core.rule_values import (
    CardRestriction,
    OwnerlessRules,
    RaceRules,
    UnsupportedRuleError,
    freeze,
)
from avecaesar.engine.data.errors import AveCaesarError, MissingRuleValueError

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


def _conditions(key: str, value: Any) -> tuple[Any, ...] | None:
    """A ``six_rule`` list of conditions (all must hold): each entry a name or an
    ``all`` / ``any`` / ``not`` expression, as ``card_restrictions`` take; checked against
    the registry and frozen (:func:`~avecaesar.engine.core.rule_values.freeze`)."""
    if value is None or value is False or value == [] or value == "none":
        return None
    if isinstance(value, Mapping):
        value = value.get("when", [])
    if isinstance(value, str | Mapping):
        value = [value]
    out = tuple(value)
    for i, e in enumerate(out):
        problems = check_expression(e, f"{key}[{i}]")
        if problems:
            raise UnsupportedRuleError(key, e, list(CONDITIONS), problems[0])
    return tuple(freeze(e) for e in out)


def _joint_exception(key: str, value: Any) -> tuple[Any, ...] | None:
    """The joint leaders' exception: its ``when`` conditions, and the one its ``who`` names
    (:data:`JOINT_WHO`)."""
    when = _conditions(key, value)
    if when is None or not isinstance(value, Mapping) or "who" not in value:
        return when
    who = JOINT_WHO[_check(f"{key}.who", value["who"], tuple(JOINT_WHO))]
    return when if who is None else (*when, who)


def _extra_effects(ruleset: Any, own: Mapping[str, Any]
                   ) -> tuple[tuple[str, tuple[tuple[str, Mapping[str, Any]], ...]], ...]:
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
        for e in entries:
            name, params = (e["effect"], {k: v for k, v in e.items() if k != "effect"}) \
                if isinstance(e, Mapping) else (e, {})
            for p in EFFECTS[name].params:
                if p not in params:
                    if own.get(p) is None:
                        raise UnsupportedRuleError(key, name, [], (
                            f"{key}.{event}: the effect {name!r} needs its {p!r} (give "
                            f"{{effect: {name}, {p}: ...}})"))
                    params[p] = own[p]
            parsed.append((str(name), params))
        out.append((str(event), tuple(parsed)))
    return tuple(out)


def _extra_restrictions(ruleset: Any) -> tuple[CardRestriction, ...]:
    """``card_restrictions.extra``: the house's restrictions, each expression checked."""
    key = "card_restrictions.extra"
    if not ruleset.has(key):
        return ()
    entries = ruleset.value(key) or []
    cite = ruleset.citation(key)
    out = []
    for i, e in enumerate(entries):
        problems = [p for part in ("forbidden_when", "unless", "ends_when", "release")
                    if part in e for p in check_expression(e[part], f"{key}[{i}].{part}")]
        if problems:
            raise UnsupportedRuleError(key, e, list(CONDITION_REGISTRY), problems[0])
        why = e.get("why")
        if why is not None and _why_problem(str(why)):
            raise UnsupportedRuleError(key, e, [], f"{key}[{i}].why: {_why_problem(str(why))}")
        cards = frozenset(int(k) for k in e["cards"])
        out.append(CardRestriction(cards, e["forbidden_when"], e.get("unless"),
                                   e.get("ends_when"), why, cite, release=e.get("release")))
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


def _refuse_unsupported(ruleset: Any) -> None:
    stated = getattr(ruleset, "stated_keys", None)
    keys = list(stated()) if stated else []
    for key, allowed in ASSUMED.items():
        if key in keys:
            try:
                value = ruleset.value(key)
            except AveCaesarError:
                continue
            if value not in allowed:
                raise UnsupportedRuleError(key, value, [repr(a) for a in allowed])


def _ownerless(ruleset: Any) -> OwnerlessRules | None:
    when = ruleset.value("ownerless.when")
    if when == "never":
        return None
    _check("ownerless.when", when, ("fill_empty_places",))
    missing: list[Exception] = []

    plain = getattr(ruleset, "_ruleset", ruleset)  # open values here wait for check()

    def get(key: str, fallback: object) -> Any:
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
        raw = get("position_moves", {"leading": 2, "middle": 4, "last": 6})
        pm = (int(raw["leading"]), int(raw["middle"]), int(raw["last"]))
    return OwnerlessRules(
        move=move, position_moves=pm, out_of_cards=out,
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


def _deck(ruleset: Any) -> list[int]:
    """The deck every chariot races with: the composition, or the chosen alternative deck
    (its cards checked against the alternative's card count and the deck's points)."""
    v = ruleset.value
    deck: list[int] = []
    for entry in v("deck.composition"):
        deck += [int(entry["card"])] * int(entry["count"])
    if not ruleset.has("deck.choice"):
        return deck
    choice = str(v("deck.choice"))
    if choice == "normal":
        return deck
    alts = {a["name"]: int(a["cards"]) for a in v("deck.alternatives") or []}
    if choice not in alts:
        raise UnsupportedRuleError("deck.choice", choice, ["normal", *alts])
    comps = {c["name"]: [int(x) for x in c["values"]]
             for c in v("deck.alternative_compositions") or []}
    if choice not in comps:
        raise UnsupportedRuleError("deck.alternative_compositions", None, [], (
            f"deck.choice is {choice!r}, but deck.alternative_compositions gives no cards "
            f"for it: supply [{{name: {choice}, values: [...]}}]"))
    cards = comps[choice]
    points = int(v("deck.points"))
    if len(cards) != alts[choice] or sum(cards) != points:
        raise UnsupportedRuleError("deck.alternative_compositions", cards, [], (
            f"the {choice} deck must hold {alts[choice]} cards of {points} points in all, "
            f"not {len(cards)} cards of {sum(cards)} ({ruleset.citation('deck.alternatives')})"))
    return cards


class _Collecting:
    """A ruleset whose ``value`` notes each open value it is asked for (returning its first
    choice in the meantime), so that one error can list every open value a race needs."""

    def __init__(self, ruleset: Any) -> None:
        self._ruleset = ruleset
        self.missing: list[MissingRuleValueError] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ruleset, name)

    def value(self, key: str) -> Any:
        try:
            return self._ruleset.value(key)
        except MissingRuleValueError as err:
            self.missing.append(err)
            choices = err.entries[0][2]
            return choices[0] if choices else None


def rules_from_ruleset(ruleset: Any) -> RaceRules:
    """Read a composed ruleset (``.value(key)``, ``.citation(key)``) into :class:`RaceRules`.

    Every value the ruleset declares open that the race needs is listed in one
    MissingRuleValueError; a value the engine has no primitive for raises
    :class:`UnsupportedRuleError`. Nothing is defaulted.
    """
    collecting = _Collecting(ruleset)
    try:
        out = _rules_from(collecting)
    except (AveCaesarError, TypeError, ValueError, KeyError):
        if collecting.missing:
            raise _all_open(ruleset, collecting.missing) from None
        raise
    if collecting.missing:
        raise _all_open(ruleset, collecting.missing)
    return out


def _all_open(ruleset: Any, found: list[MissingRuleValueError]) -> MissingRuleValueError:
    """One error for ``found`` and every other open value a race reads (the chariots nobody
    drives ask for theirs when a race has them; the tournament for its own)."""
    more = []
    for key in getattr(ruleset, "unknown_keys", list)():
        if key.split(".")[0] in ("ownerless", "tournament"):
            continue
        try:
            ruleset.value(key)
        except MissingRuleValueError as err:
            more.append(err)
    return MissingRuleValueError.combined([*found, *more])


def _six_joint(ruleset: Any) -> bool:
    """Whether the 6-card rule binds joint leaders (``forbidden_when: [leading]``) or a
    sole leader only (``[leading_alone]``); the deck's split checked first."""
    v = ruleset.value
    if int(v("deck.piles")) > 1:
        # dealt face down, a pile chosen blind gives an unseen card just like the top of the
        # shuffled deck: the engine draws the deck in order
        _check("deck.split", v("deck.split"), ("dealt_face_down",))
    key = RULE_KEYS["six_joint"]
    forbidden = list(v(key))
    if "leading" in forbidden:
        return True
    if "leading_alone" in forbidden:
        return False
    raise UnsupportedRuleError(key, forbidden, ["[leading]", "[leading_alone]"])


def _variant_values(ruleset: Any) -> tuple[int | None, str | None, tuple[int, ...] | None]:
    """The bonus piece's points, the ramming tie rule and the lap prizes, each None when the
    ruleset has no such variant (their fixed values checked)."""
    v = ruleset.value
    bonus = None
    if ruleset.has("bonus.points"):
        _check("bonus.granted", v("bonus.granted"), ("after_alley_stop",))
        _check("bonus.uses", v("bonus.uses"), (1,))
        _check("bonus.instead_of_card", v("bonus.instead_of_card"), (True,))
        bonus = int(v("bonus.points"))
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
        prizes = tuple(int(x) for x in v("prize_money.per_lap"))
    return bonus, ramming, prizes


def _rules_from(ruleset: Any) -> RaceRules:
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
        alley_card = int(v("alley.race_card"))
    if v(k["alley_overtaking"]) is not False:
        raise UnsupportedRuleError(k["alley_overtaking"], v(k["alley_overtaking"]), ["false"])
    rows = v(k["start_rows"])
    water = v(k["water"])
    raw_cpp = v(k["chariots_per_player"])
    cpp: int | tuple[tuple[int, int], ...] = (
        int(raw_cpp) if isinstance(raw_cpp, int)
        else tuple((int(e["players"]), int(e["chariots"])) for e in raw_cpp))
    bonus, ramming, prizes = _variant_values(ruleset)
    team_order, team_scoring = "in_start_order", None
    if ruleset.has("teams.turn_order") or ruleset.has("teams.scoring") or cpp != 1:
        team_order = _check("teams.turn_order", v("teams.turn_order"), TEAM_ORDER)
        team_scoring = _check("teams.scoring", v("teams.scoring"), TEAM_SCORING)
    rules = RaceRules(
        deck=tuple(sorted(deck)),
        hand_size=int(v(k["hand_size"])),
        laps=int(v(k["laps"])),
        six_card=int(v(k["six_card"])),
        six_joint=joint,
        six_at_start=_check(k["six_at_start"], v(k["six_at_start"]) or "none", SIX_AT_START),
        start_rows=None if rows is None else tuple(tuple(int(p) for p in r) for r in rows),
        six_chicane=_conditions(k["six_chicane"], v(k["six_chicane"])),
        six_joint_exception=_joint_exception(k["six_joint_exception"],
                                             v(k["six_joint_exception"])),
        six_ends=_check(k["six_ends"], v(k["six_ends"]), SIX_ENDS),
        alley_laps=tuple(int(x) for x in v(k["alley_laps"])),
        alley_must_stop=bool(v(k["alley_must_stop"])),
        alley_wait=_check(k["alley_wait"], v(k["alley_wait"]), ALLEY_WAIT).replace(
            "must_move", "no_wait"),
        no_stop=NO_STOP[_check(k["no_stop"], v(k["no_stop"]), tuple(NO_STOP))],
        dq_may_finish=bool(v(k["dq_may_finish"])),
        dq_keeps_place=bool(v(k["dq_keeps_place"])),
        out_of_cards="remove",
        places=tuple(int(p) for p in v(k["places"])),
        not_finished_points=int(v(k["not_finished_points"])),
        disqualified_points=int(v(k["disqualified_points"])),
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
        alley_wait_laps=tuple(int(x) for x in v(k["alley_wait_laps"]))
        if ruleset.has(k["alley_wait_laps"]) else None,
        players_min=int(v(k["players_min"])) if ruleset.has(k["players_min"]) else 1,
        players_max=int(v(k["players_max"])) if ruleset.has(k["players_max"]) else 6,
        finishers_lead=bool(v(k["finishers_lead"])) if ruleset.has(k["finishers_lead"])
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


def tournament_rules_from_ruleset(ruleset: Any) -> TournamentRules:
    """Read the tournament group of a composed ruleset into :class:`TournamentRules`."""
    v = ruleset.value
    k = TOURNAMENT_KEYS
    rotation: dict[int, list[tuple[tuple[int, int] | None, str | None, str]]] = {}
    for entry in v(k["rotation"]) or []:
        players = entry.get("players")
        rng = None
        if players:
            lo, hi = [int(x) for x in str(players).split("-")]
            rng = (lo, hi)
        rotation.setdefault(int(entry["race"]), []).append(
            (rng, entry.get("course_id"), str(entry["course"])))
    return TournamentRules(
        races=int(v(k["races"])),
        next_start_order=NEXT_ORDER[_check(k["next_start_order"], v(k["next_start_order"]),
                                           tuple(NEXT_ORDER))],
        course_choice=_check(k["course_choice"], v(k["course_choice"]),
                             ("rotation", "recommended_then_draw")),
        rotation={r: tuple(e) for r, e in rotation.items()},
        tie_break=TIE_BREAK[_check(k["tie_break"], v(k["tie_break"]), tuple(TIE_BREAK))],
        citations={name: ruleset.citation(key) for name, key in k.items()},
    )
