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
from avecaesar.engine.core.rule_values import CardRestriction

__all__ = ["CONDITIONS", "Condition", "Context", "check_expression", "holds",
           "restriction_reason"]


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
    """A named predicate and the sentence that defines it."""

    doc: str
    test: Callable[[Context], bool]


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

_COMBINATORS = ("all", "any", "not")


def check_expression(expr: Any, where: str = "condition") -> list[str]:
    """What is wrong with a condition expression (empty: nothing)."""
    if isinstance(expr, str):
        if expr in CONDITIONS:
            return []
        return [f"{where}: unknown condition {expr!r}; known: {', '.join(CONDITIONS)}"]
    if isinstance(expr, Mapping) and len(expr) == 1:
        (op, arg), = expr.items()
        if op == "not":
            return check_expression(arg, f"{where}.not")
        if op in ("all", "any") and isinstance(arg, list) and arg:
            return [p for i, e in enumerate(arg) for p in check_expression(e, f"{where}.{op}[{i}]")]
    return [f"{where}: a condition is a name or one of {{all: [..]}}, {{any: [..]}}, "
            f"{{not: ..}}, not {expr!r}"]


def holds(expr: Any, x: Context) -> bool:
    """Whether expression ``expr`` (frozen by :func:`freeze`) holds."""
    if isinstance(expr, str):
        return CONDITIONS[expr].test(x)
    op, arg = expr
    if op == "all":
        return all(holds(e, x) for e in arg)
    if op == "any":
        return any(holds(e, x) for e in arg)
    return not holds(arg, x)


def _lead_words(x: Context) -> str:
    leaders = _leaders(x)
    if x.chariot not in leaders:
        return "you do not lead"
    return "you lead jointly" if len(leaders) > 1 else "you lead"


def restriction_reason(r: CardRestriction, card: int, x: Context) -> str | None:
    """Why restriction ``r`` forbids ``card`` now, or None if it does not."""
    if card not in r.cards:
        return None
    if r.ends_when is not None and holds(r.ends_when, x):
        return None
    if not holds(r.forbidden_when, x):
        return None
    if r.unless is not None and holds(r.unless, x):
        return None
    text = r.why.format(card=card, cards=", ".join(str(k) for k in sorted(r.cards)),
                        lead=_lead_words(x))
    return f"{text} — {r.cite}" if r.cite else text
