"""The vocabulary of conditions: named predicates on (state, chariot), combined with
``all`` / ``any`` / ``not``; and card restrictions, interpreted through them.

One registry, :data:`CONDITIONS`: each entry is a predicate and the sentence that defines
it (the sentence the ruleset schema and the reference docs show). A ruleset names
conditions; where a rulebook defines one, the ruleset's ``source`` cites it (the engine
names no edition). An expression is a name, ``{all: [..]}``, ``{any: [..]}`` or
``{not: ..}``; :func:`check_expression` refuses an unknown name with the known ones.

A card restriction (:class:`~avecaesar.engine.core.rule_values.CardRestriction`, a value
of the rules) forbids its cards while ``forbidden_when`` holds, ``unless`` holds, until
``ends_when`` holds; the 6-card rule of every edition is one of them (derived by
:func:`~avecaesar.engine.core.rule_values.six_restrictions`), a house rule adds more
(``card_restrictions.extra``, checked here by :func:`check_expression`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from avecaesar.engine.core.position import Position
from avecaesar.engine.core.reasons import HOUSE, REASONS, Reason, fields_of
from avecaesar.engine.core.rule_values import CardRestriction
from avecaesar.engine.data.suggest import unknown_name
from avecaesar.engine.data.values import Json

__all__ = ["CONDITIONS", "PARAM_CONDITIONS", "Condition", "Context", "ParamCondition",
           "check_expression", "condition_names", "forbids", "holds", "restriction_why"]


class Context:
    """What a condition is asked about: the state, the chariot, the restricted cards, and
    the helpers of the move rules it may need (given by engine/core/moves.py, which sits
    above this module).

    A plain slotted class, not a dataclass: it is made on every turn the restricted cards
    are in hand (no ``dataclasses.replace``)."""

    __slots__ = ("blocks_others", "cannot_be_passed", "cards", "chariot", "lead", "state")

    def __init__(self, state: Position, chariot: int, cards: frozenset[int],
                 blocks_others: Callable[[Position, int], bool],
                 cannot_be_passed: Callable[[Position, int], bool]) -> None:
        self.state = state
        self.chariot = chariot
        self.cards = cards
        self.blocks_others = blocks_others
        self.cannot_be_passed = cannot_be_passed
        self.lead: list[int] | None = None  # the state's leaders, asked for once

    def with_cards(self, cards: frozenset[int]) -> Context:
        """The same question about another set of restricted cards."""
        x = Context(self.state, self.chariot, cards, self.blocks_others,
                    self.cannot_be_passed)
        x.lead = self.lead
        return x


@dataclass(frozen=True)
class Condition:
    """A named predicate and the sentence that defines it (where a rulebook describes it,
    the rule that names it cites the rulebook; docs/ruleset-reference.md lists them)."""

    doc: str
    test: Callable[[Context], bool]


@dataclass(frozen=True)
class ParamCondition:
    """A named predicate with one parameter, written ``{name: value}``: the sentence that
    defines it (``{param}`` stands for the value), the parameter's name and its kind
    (``count``: a whole number ≥ 0; ``cards``: a list of card values 1–9, at least one)."""

    doc: str
    test: Callable[[Context, Any], bool]
    param: str
    kind: str = "count"


def _leaders(x: Context) -> list[int]:
    """The state's leaders (worked out once per question; the state does not change while
    it is asked)."""
    if x.lead is None:
        x.lead = x.state.leaders()
    return x.lead


def _only(x: Context, c: int) -> bool:
    return all(k in x.cards for k in x.state.cards(c))


def _row(x: Context) -> int | None:
    return x.state.game.rules.row_of(x.chariot + 1)


def _on_chicane(x: Context) -> bool:
    p = x.state.pos[x.chariot]
    return p is not None and x.state.game.board.chicane[p]


def _first_leader_to_move(x: Context) -> bool:
    """Of the leaders, no other moves before it, counting in start-place order from the
    chariot whose turn it is."""
    leaders = _leaders(x)
    if x.chariot not in leaders:
        return False
    n, turn = len(x.state.status), x.state.turn
    return min(leaders, key=lambda c: (c - turn) % n) == x.chariot


def _in_alley(x: Context) -> bool:
    p = x.state.pos[x.chariot]
    return p is not None and x.state.game.board.alley[p]


def _alone_on_track(x: Context) -> bool:
    """No other chariot still racing is on the track: every other has finished or left."""
    st = x.state
    if st.pos[x.chariot] is None:
        return False
    return not any(st.pos[o] is not None for o in st.racing() if o != x.chariot)


def _piece_kind(kind: str) -> Callable[[Context], bool]:
    def test(x: Context) -> bool:
        p = x.state.pos[x.chariot]
        return p is not None and x.state.game.board.piece_kind[p] == kind
    return test


def _on_bridge(x: Context) -> bool:
    p = x.state.pos[x.chariot]
    return p is not None and x.state.game.board.bridge[p]


def _in_lane(outside: bool) -> Callable[[Context], bool]:
    def test(x: Context) -> bool:
        p = x.state.pos[x.chariot]
        if p is None:
            return False
        board = x.state.game.board
        lane = board.lane[p]
        return lane == board.lanes - 1 if outside else lane == 0
    return test


def _within_of_line(x: Context, spaces: int) -> bool:
    p = x.state.pos[x.chariot]
    return p is not None and x.state.game.board.to_line[p] <= spaces


def _only_cards(x: Context, cards: Any) -> bool:
    """Every card the chariot may play from is one of ``cards`` (it holds at least one)."""
    hand = x.state.cards(x.chariot)
    return bool(hand) and all(k in cards for k in hand)


def _last(x: Context) -> bool:
    racing = [c for c in x.state.racing() if x.state.pos[c] is not None]
    if x.chariot not in racing:
        return False
    rp = x.state.race_progress
    return rp(x.chariot) == min(rp(c) for c in racing)


CONDITIONS: dict[str, Condition] = {
    "leading": Condition(
        "the chariot leads, alone or jointly with others (the greatest race progress among "
        "the racing chariots on the track; where a finished chariot is ahead of every "
        "chariot still racing, nobody leads once one has finished)",
        lambda x: x.chariot in _leaders(x)),
    "leading_alone": Condition(
        "the chariot leads and no other is level with it", lambda x: _leaders(x) == [x.chariot]),
    "leading_jointly": Condition(
        "the chariot leads level with at least one other",
        lambda x: x.chariot in _leaders(x) and len(_leaders(x)) > 1),
    "last": Condition(
        "no racing chariot on the track is behind it", _last),
    "on_chicane": Condition(
        "the chariot stands on a chicane (a space alone in its cross-section)", _on_chicane),
    "in_alley": Condition("the chariot stands in the Imperial alley", _in_alley),
    "in_curve": Condition(
        "the chariot stands on a curve piece of the course (a piece whose lanes differ in "
        "length and that turns)", _piece_kind("curve")),
    "on_straight": Condition(
        "the chariot stands on a straight piece of the course", _piece_kind("straight")),
    "on_bridge": Condition(
        "the chariot stands on a piece that crosses over another (a bridge)", _on_bridge),
    "in_inside_lane": Condition(
        "the chariot stands in the inside lane (lane 0)", _in_lane(False)),
    "in_outside_lane": Condition(
        "the chariot stands in the outside lane (the course's outermost track lane)",
        _in_lane(True)),
    "blocks_others": Condition(
        "chariots behind cannot pass it (some other racing chariot cannot move any card of "
        "its hand in full)", lambda x: x.blocks_others(x.state, x.chariot)),
    "cannot_be_passed": Condition(
        "no other chariot still racing can pass it: it is alone on the track, or no other "
        "racing chariot has a legal move", lambda x: x.cannot_be_passed(x.state, x.chariot)),
    "alone_on_track": Condition(
        "no other chariot still racing is on the track (every other has finished or left "
        "the race): nothing is left to pass it", _alone_on_track),
    "only_sixes_in_hand": Condition(
        "every card the chariot may play from is one of the restricted cards",
        lambda x: _only(x, x.chariot)),
    "all_joint_leaders_only_sixes": Condition(
        "every leader holds only restricted cards",
        lambda x: all(_only(x, o) for o in _leaders(x))),
    "in_start_row_1": Condition(
        "the chariot's start place is in the first start row", lambda x: _row(x) == 1),
    "in_a_start_row": Condition(
        "the course's start places are in rows and the chariot's is in one of them",
        lambda x: _row(x) is not None),
    "start_player": Condition(
        "the chariot is on start place 1 (it moves first)", lambda x: x.chariot == 0),
    "to_move": Condition(
        "it is the chariot's turn", lambda x: x.state.turn == x.chariot),
    "first_leader_to_move": Condition(
        "the chariot leads and no other leader moves before it (start-place order from the "
        "chariot whose turn it is)", _first_leader_to_move),
    "first_card": Condition(
        "the chariot has not yet played a card this race",
        lambda x: not x.state.played[x.chariot]),
    "race_has_finisher": Condition(
        "at least one chariot has crossed the finish line after the last lap",
        lambda x: bool(x.state.finish_order)),
    "holds_coin": Condition(
        "the chariot has not yet stopped in the alley and paid its tribute",
        lambda x: not x.state.stopped[x.chariot]),
    "driven_by_nobody": Condition(
        "no player drives the chariot (it plays the top card of its deck)",
        lambda x: x.state.game.is_ownerless(x.chariot)),
    "never": Condition("never true", lambda x: False),
}

#: conditions with a parameter, written ``{name: value}`` (value: a whole number ≥ 0, or a
#: list of card values)
PARAM_CONDITIONS: dict[str, ParamCondition] = {
    "within_spaces_of_line": ParamCondition(
        "the finish line is at most {param} steps ahead of the chariot (the fewest steps of "
        "any way forward to the step over the line)", _within_of_line, "spaces"),
    "only_cards_in_hand": ParamCondition(
        "every card the chariot may play from is one of {param} (the 6-card rule's 'only "
        "sixes in hand' for any cards: a ban's release for a hand that holds nothing else)",
        _only_cards, "cards", "cards"),
}

_PARAM_EXAMPLE = {"count": "3", "cards": "[1, 6]"}

_COMBINATORS = ("all", "any", "not")


def condition_names() -> list[str]:
    """Every condition name, plain and with a parameter (what an error lists)."""
    return [*CONDITIONS, *PARAM_CONDITIONS]


def check_expression(expr: Json, where: str = "condition") -> list[str]:
    """What is wrong with a condition expression (empty: nothing)."""
    if isinstance(expr, str):
        if expr in CONDITIONS:
            return []
        if expr in PARAM_CONDITIONS:
            pc = PARAM_CONDITIONS[expr]
            return [f"{where}: the condition {expr!r} takes its {pc.param}: write "
                    f"{{{expr}: {_PARAM_EXAMPLE[pc.kind]}}}"]
        return [f"{where}: {unknown_name('condition', expr, condition_names())}"]
    if isinstance(expr, Mapping) and len(expr) == 1:
        (op, arg), = expr.items()
        if op == "not":
            return check_expression(arg, f"{where}.not")
        if op in ("all", "any") and isinstance(arg, list) and arg:
            return [p for i, e in enumerate(arg) for p in check_expression(e, f"{where}.{op}[{i}]")]
        if op in PARAM_CONDITIONS:
            return _param_problems(PARAM_CONDITIONS[op], arg, f"{where}.{op}")
        if isinstance(op, str) and op not in _COMBINATORS and op not in CONDITIONS:
            return [f"{where}: {unknown_name('condition', op, condition_names())}"]
    return [f"{where}: a condition is a name, {{name: value}} for one with a parameter, or "
            f"one of {{all: [..]}}, {{any: [..]}}, {{not: ..}}, not {expr!r}"]


def _param_problems(pc: ParamCondition, arg: Any, where: str) -> list[str]:
    """What is wrong with a condition's parameter (empty: nothing)."""
    def whole(v: Any, least: int) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v >= least

    if pc.kind == "cards":
        if (isinstance(arg, list) and arg and all(whole(v, 1) and v <= 9 for v in arg)):
            return []
        return [f"{where}: its {pc.param} are card values, a list such as [1, 6] (each 1 to "
                f"9), not {arg!r}"]
    if whole(arg, 0):
        return []
    return [f"{where}: its {pc.param} is a whole number (0 or more), not {arg!r}"]


def holds(expr: Any, x: Context) -> bool:
    """Whether expression ``expr`` (frozen by :func:`freeze`: a ``Cond``) holds.

    ``Any``: the frozen expression is taken apart by its shape here, in the hot path; typed
    as ``Cond`` each node would cost the compiled build a runtime check."""
    if isinstance(expr, str):
        return CONDITIONS[expr].test(x)
    op, arg = expr
    if op == "all":
        return all(holds(e, x) for e in arg)
    if op == "any":
        return any(holds(e, x) for e in arg)
    if op == "not":
        return not holds(arg, x)
    return PARAM_CONDITIONS[op].test(x, arg)


def forbids(r: CardRestriction, card: int, x: Context) -> bool:
    """Whether restriction ``r`` forbids ``card`` now."""
    if card not in r.cards:
        return False
    if r.ends_when is not None and holds(r.ends_when, x):
        return False
    if not holds(r.forbidden_when, x):
        return False
    if r.release is not None and holds(r.release, x):
        return False
    return not (r.unless is not None and holds(r.unless, x))


def restriction_why(r: CardRestriction, card: int, x: Context) -> Reason:
    """The reason restriction ``r`` gives when it forbids ``card``: its code (or a house
    rule's own words) with the card, the restricted cards and whether the chariot leads,
    as far as its sentence uses them (two cards refused in the same words give the same
    reason); its citation."""
    template = REASONS[r.reason].english if r.why is None else r.why
    used = fields_of(template)
    params: dict[str, object] = {}
    if "card" in used:
        params["card"] = card
    if "cards" in used:
        params["cards"] = tuple(sorted(r.cards))
    if "lead" in used:
        leaders = _leaders(x)
        params["lead"] = Reason("lead_not" if x.chariot not in leaders
                                else "lead_jointly" if len(leaders) > 1 else "lead")
    if r.why is not None:
        return Reason(HOUSE, {"text": r.why, **params}, r.cite or None)
    return Reason(r.reason, params, r.cite or None)
