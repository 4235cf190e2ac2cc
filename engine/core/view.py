"""What a table sees of a race: the public view, one seat's private view, the public record.

Hidden information has one owner (DESIGN.md): a chariot's hand, every deck's order and the
seed (from which every deck follows) belong to the engine and to the seat that drives the
chariot. Every view a device or a record receives while a race runs is built here, from the
state and the asking seat: :func:`public_view` (what everyone at the table sees — positions,
laps, the alley coin, cards in hand as a count, the points a chariot still holds, the
distance it still has to race) plus, for a seat, :func:`private_view` (its own hands, the
full 6-card status of its own chariots). A view is JSON data: a reason in it (why a 6 may
not be played) is ``Reason.to_json()`` — its code, parameters and citation — which the table
puts in each device's words. :func:`public_record` is the record of a race in
progress as the table has seen it (no seed, no start notation, no legal-move counts); the
full record exists once the race is over.

The 6-card status of another seat's chariot is worked out by :func:`public_card_status` in
three values: conditions that read hands (:data:`HAND_CONDITIONS`) count as unknown, so a
status that depends on cards nobody else has seen is shown as "depends on the cards", never
decided from them. Where the rules themselves make a move depend on another chariot's cards
(the joint-leader and chicane exceptions ask whether the others can move), the legal moves
say so, as the players at a real table would by showing their cards.

Cards leave a hand only face up (played, a ramming attack's highest card, the crash with
only sixes); the one event that moves a card unseen (a card put under the deck on a missed
turn) is made public without its card by :func:`public_event`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from avecaesar.engine.core.conditions import (
    CONDITIONS,
    PARAM_CONDITIONS,
    Context,
    restriction_why,
)
from avecaesar.engine.core.moves import six_rule
from avecaesar.engine.core.position import Position
from avecaesar.engine.core.reasons import Reason
from avecaesar.engine.core.rule_values import CardRestriction
from avecaesar.engine.core.types import LETTERS, RACING, Event
from avecaesar.engine.data.values import JsonDict

__all__ = ["HAND_CONDITIONS", "PRIVATE_HEADER", "distance_to_finish", "private_view",
           "public_card_status", "public_event", "public_record", "public_view",
           "view_for"]

#: the conditions that read a hand (one's own or another chariot's): unknown to the others
HAND_CONDITIONS = frozenset({"only_sixes_in_hand", "all_joint_leaders_only_sixes",
                             "blocks_others", "cannot_be_passed"})
#: what a record's header holds that the table has not seen: the seed (every deck follows
#: from it) and the start position in race notation (every hand and deck)
PRIVATE_HEADER = ("seed", "start")
#: per turn line, what the table has not seen: how many moves the hand allowed
PRIVATE_TURN = ("legal",)
#: event kinds whose data names a card nobody else saw, and that field
PRIVATE_EVENT_FIELDS = {"cycle": "card", "draw": "card"}


# -- the 6-card status, in three values -----------------------------------------------------
def _holds3(expr: Any, x: Context) -> bool | None:
    """``holds`` in three values: a condition reading hands is None (unknown)."""
    if expr is None:
        return None
    if isinstance(expr, str):
        return None if expr in HAND_CONDITIONS else CONDITIONS[expr].test(x)
    op, arg = expr
    if op == "not":
        inner = _holds3(arg, x)
        return None if inner is None else not inner
    if op in PARAM_CONDITIONS:  # where the chariot stands: no hand is read
        return PARAM_CONDITIONS[op].test(x, arg)
    found = [_holds3(e, x) for e in arg]
    if op == "all":
        return False if False in found else (True if all(found) else None)
    return True if True in found else (False if all(v is False for v in found) else None)


def _forbids(r: CardRestriction, x: Context) -> str:
    """Whether ``r`` forbids its cards now: ``forbidden``, ``free``, ``unless`` (forbidden
    unless an exception holds that depends on cards in hand) or ``depends``."""
    ends = _holds3(r.ends_when, x) if r.ends_when is not None else False
    if ends is True:
        return "free"
    forbidden = _holds3(r.forbidden_when, x)
    if forbidden is False:
        return "free"
    unless = _holds3(r.unless, x) if r.unless is not None else False
    if unless is True:
        return "free"
    if ends is False and forbidden is True:
        return "forbidden" if unless is False else "unless"
    return "depends"


def _never(state: Position, c: int) -> bool:
    return False  # a hand condition is never asked here: _holds3 answers None first


#: the order of the answers, strongest first: the first restriction that forbids outright
#: decides; else the first one forbidding unless an exception, else one that depends
_STRENGTH = ("forbidden", "unless", "depends")


def public_card_status(state: Position, c: int, card: int) -> tuple[str, Reason | None]:
    """Whether chariot ``c`` may play ``card`` as far as the table can tell without seeing
    any hand: ``free``, ``forbidden``, ``unless`` (forbidden unless an exception that
    depends on cards in hand holds — the player shows it by playing the card) or
    ``depends`` (the restriction itself depends on cards); with the reason."""
    rules = state.game.rules
    if card not in rules.restricted_cards:
        return "free", None
    x = Context(state, c, frozenset(), _never, _never)
    best: tuple[int, str, Reason] | None = None
    for r in rules.card_restrictions:
        if card not in r.cards:
            continue
        found = _forbids(r, x.with_cards(r.cards))
        if found != "free":
            rank = _STRENGTH.index(found)
            if best is None or rank < best[0]:
                best = (rank, found, restriction_why(r, card, x.with_cards(r.cards)))
    return ("free", None) if best is None else (best[1], best[2])


# -- the distance still to race ---------------------------------------------------------------
def distance_to_finish(state: Position, c: int) -> int | None:
    """The fewest movement points chariot ``c`` still needs to finish on the empty track
    (the remaining laps, and the alley stop if it must still make it); None when it is out
    of the race or cannot finish. Read from the board's distance table
    (engine/course/race_distance.py) for the chariot's own alley window."""
    if state.status[c] != RACING or state.pos[c] is None:
        return None
    game = state.game
    board, rules = game.board, game.rules
    own = rules.ownerless
    need = board.has_alley and rules.alley_must_stop
    alley = (need and not state.stopped[c]
             and not (game.is_ownerless(c) and own is not None and own.alley_free))
    left = board.start_crossings[c] + rules.laps - state.crossings[c]
    # the chariot's own alley window (an effect may extend it)
    table = board.distances(rules.laps, state.window(c), need)
    return table.to_finish(int(state.pos[c] or 0), left, not alley)


# -- the views --------------------------------------------------------------------------------
def _public_chariot(state: Position, c: int) -> JsonDict:
    game = state.game
    racing = state.status[c] == RACING
    six: JsonDict | None = None
    if racing and game.rules.six_card in game.rules.restricted_cards:
        status, why = public_card_status(state, c, game.rules.six_card)
        six = {"status": status, "why": None if why is None else why.to_json()}
    out: JsonDict = {
        "letter": LETTERS[c], "name": game.names[c], "pos": state.pos[c],
        "lap": max(state.lap(c), 0), "laps": game.rules.laps,
        "alley": "done" if state.stopped[c] else "to do",
        "status": state.status[c].word,
        "disqualified": state.dq[c], "cards": len(state.hands[c]),
        "points_left": sum(state.hands[c]) + sum(state.decks[c]),
        "to_race": distance_to_finish(state, c), "six": six,
        "ownerless": game.is_ownerless(c), "played": list(state.played[c])}
    if game.rules.bonus is not None:
        out["bonus"] = state.bonus[c]
    if state.later_laps[c]:  # an effect extended its alley window: the laps it has now
        out["alley_laps"] = list(state.window(c))
    if game.rules.prizes is not None:
        out["money"] = state.money[c]
    return out


def public_view(state: Position) -> JsonDict:
    """What every device at the table may see: no hand, no deck order, no seed."""
    return {"ply": state.ply, "over": state.over, "end": state.end,
            "turn": state.current(),
            "queue": [LETTERS[c] for c in state.queue],
            "finish_order": [LETTERS[c] for c in state.finish_order],
            "chariots": [_public_chariot(state, c) for c in range(state.game.chariots)]}


def private_view(state: Position, chariots: Iterable[int]) -> JsonDict:
    """What the seat driving ``chariots`` sees beyond the public view: their hands and
    their full 6-card status (the engine's own reason as JSON data, with its citation;
    None: free)."""
    hands: dict[str, list[int]] = {}
    six: dict[str, JsonDict | None] = {}
    for c in sorted(set(chariots)):
        hands[LETTERS[c]] = list(state.hands[c])
        why = six_rule(state, c) if state.status[c] == RACING else None
        six[LETTERS[c]] = None if why is None else why.to_json()
    return {"hands": hands, "six": six}


def view_for(state: Position, chariots: Iterable[int] = ()) -> JsonDict:
    """The one view of a race for a device: the public view and, for a seat, its own."""
    return {"public": public_view(state), "private": private_view(state, chariots)}


def public_event(e: Event) -> Event:
    """``e`` as the table saw it: a card put away unseen is not named."""
    hidden = PRIVATE_EVENT_FIELDS.get(e.kind)
    if hidden is None:
        return e
    return Event(e.kind, e.chariot, {**e.data, hidden: None})


def public_record(lines: Sequence[JsonDict]) -> list[JsonDict]:
    """A record as the table has seen it: a finished race's record whole; a race in
    progress without the seed, the start notation and the legal-move counts (a record
    without its result line is in progress)."""
    if lines and lines[-1].get("type") == "result":
        return [dict(ln) for ln in lines]
    out = []
    for ln in lines:
        drop = PRIVATE_HEADER if ln.get("type") == "header" else PRIVATE_TURN
        out.append({k: v for k, v in ln.items() if k not in drop})
    if out:
        out[0]["public"] = True
    return out
