"""Setting up and running a race: start order, dealing, the turn loop, placing and scoring.

All chance comes from one ``random.Random(seed)``: the decks are shuffled, the top cards
revealed for the start order (ties redraw), the decks reshuffled, the hands dealt. After the
setup a race has no chance left: the deck order is part of the state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from avecaesar.engine.core.board import Board
from avecaesar.engine.core.moves import LegalMoves, first_card_forbidden
from avecaesar.engine.core.player_counts import (
    PlayerCountError,
    check_player_count,
    player_counts,
)
from avecaesar.engine.core.ruleset_adapter import RaceRules, UnsupportedRuleError
from avecaesar.engine.core.state import RaceGame, RaceState
from avecaesar.engine.core.types import RACING, REMOVED, Event, Move, SkipReason, Termination
from avecaesar.engine.data.errors import AveCaesarError, UsageError
from avecaesar.engine.data.limits import MAX_PLAYERS
from avecaesar.engine.data.values import Json, JsonDict

__all__ = [
    "Outcome",
    "OwnerlessPolicyError",
    "Placing",
    "PlayerCountError",
    "Policy",
    "RaceRun",
    "check_player_count",
    "check_seats",
    "new_race",
    "outcome",
    "play_turn",
    "player_counts",
    "run_race",
]


@dataclass(frozen=True)
class Placing:
    """One chariot's result."""

    chariot: int
    name: str
    place: int | None  # None: not placed (not finished, or disqualified without a place)
    points: int
    finished: bool
    disqualified: bool
    removed: bool

    def to_json(self) -> dict[str, Json]:
        return {"chariot": self.chariot, "name": self.name, "place": self.place,
                "points": self.points, "finished": self.finished,
                "disqualified": self.disqualified, "removed": self.removed}


@dataclass(frozen=True)
class Outcome:
    """How a race ended: its termination (``finished`` or ``deadlock``; ``running`` for a
    race in progress), every chariot's placing, best first, and the teams' points when
    players drive several chariots."""

    termination: Termination
    placings: tuple[Placing, ...]
    teams: tuple[tuple[str, int], ...] = ()  # several chariots each: (player, points), best first

    def to_json(self) -> dict[str, Json]:
        out: JsonDict = {"termination": self.termination,
                               "placings": [p.to_json() for p in self.placings]}
        if self.teams:
            out["teams"] = [{"player": p, "points": x} for p, x in self.teams]
        return out


def _place_points(state: RaceState, c: int, place: int, dq: bool) -> int:
    """The points of a finisher in ``place`` (1 = first): the disqualified points, its prize
    money, or the table's points for the place."""
    rules = state.game.rules
    if dq:
        return rules.disqualified_points
    if rules.prizes is not None:
        return state.money[c]
    return rules.places[place - 1] if place <= len(rules.places) else 0


def outcome(state: RaceState) -> Outcome:
    """Places and points by the ruleset's table (a disqualified chariot may keep its place)."""
    rules = state.game.rules
    own = rules.ownerless
    placings: dict[int, Placing] = {}
    place = 0
    for c in state.finish_order:
        dq = state.dq[c]
        if state.game.is_ownerless(c) and own is not None:
            # one that missed its alley stop is placed like a disqualified player
            takes = own.occupies_places and (rules.dq_keeps_place or not dq)
            if takes:
                place += 1
            # a chariot nobody drives scores only when the rules say so (ownerless.scores),
            # then as a player would in its place
            pts = 0 if not (own.scores and takes) else _place_points(state, c, place, dq)
            placings[c] = Placing(c, state.game.names[c], place if takes else None, pts,
                                  True, dq, False)
            continue
        if dq and not rules.dq_keeps_place:
            placings[c] = Placing(c, state.game.names[c], None, rules.disqualified_points,
                                  True, True, False)
            continue
        place += 1
        placings[c] = Placing(c, state.game.names[c], place,
                              _place_points(state, c, place, dq), True, dq, False)
    for c in range(len(state.status)):
        if c not in placings:
            pts = 0 if state.game.is_ownerless(c) else (
                state.money[c] if rules.prizes is not None and not state.dq[c]
                else rules.not_finished_points)
            placings[c] = Placing(c, state.game.names[c], None, pts,
                                  False, state.dq[c], state.status[c] == REMOVED)
    if state.end == Termination.DEADLOCK and any(state.crashed(c)
                                                 for c in range(len(state.status))):
        # crash and burn: the wreck stops someone from finishing, so nobody scores
        placings = {c: replace(p, points=0) for c, p in placings.items()}
    teams: tuple[tuple[str, int], ...] = ()
    if state.game.players:
        sums = [0] * len(state.game.players)
        for c, p in placings.items():
            if state.game.owners[c] >= 0:
                sums[state.game.owners[c]] += p.points
        teams = tuple(sorted(zip(state.game.players, sums, strict=True),
                             key=lambda t: -t[1]))
    return Outcome(state.end or Termination.RUNNING,
                   tuple(sorted(placings.values(),
                                key=lambda p: (p.place is None, p.place or 0,
                                               -state.race_progress(p.chariot)))), teams)


def shuffle(rng: random.Random, items: list[int]) -> None:
    """``rng.shuffle(items)``: the same draws in the same order (CPython's Fisher-Yates over
    ``getrandbits``, ``Random._randbelow_with_getrandbits``), run as compiled code; a
    race's start spent about 6 % of a simulated race in the library's shuffle (issue 13).
    A subclass of ``Random`` gets its own ``shuffle``. tests/core/test_shuffle.py checks
    both agree."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def start_order(rng: random.Random, deck: Sequence[int], seats: int) -> tuple[list[int],
                                                                              list[list[int]]]:
    """Seats in start-place order: each reveals a top card, highest takes place 1, the
    others follow clockwise (seat order); ties for highest redraw. Returns the order and the
    cards revealed in each round."""
    decks = [list(deck) for _ in range(seats)]
    for d in decks:
        shuffle(rng, d)
    contenders = list(range(seats))
    reveals: list[list[int]] = []
    depth = 0
    while True:
        shown = [decks[s][depth % len(deck)] for s in contenders]
        reveals.append(shown)
        top = max(shown)
        contenders = [s for s, v in zip(contenders, shown, strict=True) if v == top]
        if len(contenders) == 1 or depth > 4 * len(deck):
            break
        depth += 1
    first = contenders[0]
    return [(first + i) % seats for i in range(seats)], reveals


OWNERLESS_NAME = "ownerless {}"


def ownerless_count(rules: RaceRules, board: Board, players: int) -> int:
    """How many chariots no player drives: the empty start places, if the rules fill them."""
    if rules.ownerless is None:
        return 0
    return max(0, len(board.start_places) - players)


def check_seats(rules: RaceRules, board: Board, players: int) -> int:
    """The number of chariots ``players`` players race with on ``board``; a count whose
    chariots do not fit the start places (or that the rules give no chariots per player for)
    is a :class:`~avecaesar.engine.data.errors.UsageError` saying why and which numbers of
    players do, in the words of :func:`~avecaesar.engine.core.player_counts.player_counts`
    (checked before any race starts)."""
    places = len(board.start_places)
    if 1 <= players <= MAX_PLAYERS:
        try:
            n = players * rules.chariots_for(players)
        except UnsupportedRuleError:
            n = places + 1
        if n <= places:
            return n
    raise UsageError(player_counts(rules, board).why_not(players))


def new_race(rules: RaceRules, board: Board, players: Sequence[str],
             seed: int, seats: Sequence[int] | None = None) -> tuple[RaceState, JsonDict]:
    """The initial state and the setup facts (start order and reveals) for the record.

    The players draw for the start places — or, given ``seats`` (player indices in start-place
    order, as a tournament's next-race order decides), take them; chariots that no player
    drives (if the rules fill empty places) take the places behind them.
    """
    per = rules.chariots_for(len(players))
    people = tuple(players)
    if per > 1:  # several chariots each: every chariot draws for its start place
        players = [f"{p}/{j + 1}" for p in people for j in range(per)]
    n = check_seats(rules, board, len(people))
    extra = ownerless_count(rules, board, n)
    if extra and rules.ownerless is not None:
        rules.ownerless.check()
    rng = random.Random(seed)
    reveals: list[list[int]]
    if seats is not None:
        if sorted(seats) != list(range(n)):
            raise ValueError(f"seats {list(seats)} are not an order of {n} players")
        order, reveals = list(seats), list[list[int]]()
    else:
        order, reveals = start_order(rng, rules.deck, n)
    names = tuple(players[s] for s in order) + tuple(
        OWNERLESS_NAME.format(i + 1) for i in range(extra))
    flags = (False,) * n + (True,) * extra
    owners: tuple[int, ...] = ()
    if per > 1:
        owners = tuple(s // per for s in order) + (-1,) * extra
        if extra and rules.ownerless and (
                rules.ownerless.after_players and rules.player_orders):
            raise UnsupportedRuleError("teams.turn_order", rules.team_order, [], (
                "chariots nobody drives that move after the players, and players who order "
                "their own chariots, in one race: the rules give no common turn order; fill "
                "the start places with players' chariots or use teams.turn_order="
                "in_start_order"))
    game = RaceGame(rules, board, names, flags if extra else (), owners,
                    people if per > 1 else ())
    decks: list[tuple[int, ...]] = []
    hands: list[tuple[int, ...]] = []
    for c in range(n + extra):
        d = list(rules.deck)
        shuffle(rng, d)
        size = 0 if flags[c] else rules.hand_size
        hands.append(tuple(sorted(d[:size])))
        if flags[c] and rules.ownerless and rules.ownerless.position_moves:
            decks.append((_revealed(rules, c + 1, d),))  # the first move, then by position
        else:
            decks.append(tuple(d[size:]))
    n += extra
    state = RaceState(game, list(board.start_places[:n]), [0] * n, [False] * n, hands, decks,
                      [()] * n, [RACING] * n, [False] * n, [], 0)
    if game.player_turns:  # the first player's turn: all their chariots, best placed first
        mine = state.player_turn_queue(owners[0], state.racing())
        state.turn, state.queue = mine[0], tuple(mine[1:])
    return state, {"seats": order, "reveals": reveals, "start": state.notation()}


def _revealed(rules: RaceRules, place: int, deck: Sequence[int]) -> int:
    """The card revealed for the first move of a chariot that then moves by position: the
    top card — or, with ``forbidden_first_card: reveal_next``, the first card the 6-card
    rule allows from this start place (a player would pick another card)."""
    own = rules.ownerless
    if own is not None and own.reveal_next and first_card_forbidden(rules, place):
        return next((x for x in deck if x != rules.six_card), deck[0])
    return deck[0]


Policy = Callable[[RaceState, LegalMoves], Move]


@dataclass
class RaceRun:
    """A race run to its end by :func:`run_race`: the final state, the setup facts for the
    record (start order, reveals), every turn and the outcome."""

    state: RaceState
    setup: JsonDict
    turns: list[JsonDict]  # one per turn: chariot, decision or skip, events
    outcome: Outcome


class OwnerlessPolicyError(AveCaesarError):
    """Raised when a chariot nobody drives must move and no policy was given for it."""


def run_race(rules: RaceRules, board: Board, players: Sequence[str],
             policies: Sequence[Policy], seed: int, max_turns: int = 100_000,
             seats: Sequence[int] | None = None, ownerless: Policy | None = None) -> RaceRun:
    """Play a race to its end; ``policies[i]`` drives the player in seat ``i``.

    ``ownerless`` drives the chariots no player drives (the rules say "to its own best
    advantage": the bots' registry gives the greedy policy); it is needed only when the
    rules fill empty start places.
    """
    state, setup = new_race(rules, board, players, seed, seats)
    per = rules.chariots_for(len(players))
    by_chariot = [policies[s // per] for s in setup["seats"]]
    turns: list[JsonDict] = []
    while not state.over and len(turns) < max_turns:
        c = state.turn
        policy = by_chariot[c] if c < len(by_chariot) else ownerless
        turns.append(play_turn(state, policy, ownerless))
    return RaceRun(state, setup, turns, outcome(state))


def play_turn(state: RaceState, policy: Policy | None,
              ownerless: Policy | None = None) -> JsonDict:
    """One turn: the policy picks among the legal moves, or the chariot skips.

    A chariot that no player drives moves by ``ownerless`` whatever ``policy`` is given;
    :class:`OwnerlessPolicyError` when it must move and none is given.
    """
    if state.queue and policy is not None:  # else nothing to choose (choosable() is empty)
        options = state.choosable()
        if len(options) > 1 and hasattr(policy, "choose_chariot"):
            state.choose(policy.choose_chariot(state, options))
    c = state.turn
    if state.game.is_ownerless(c):
        policy = ownerless
    moves = state.legal_moves()
    count = len(moves)
    events: list[Event]
    if not moves:
        reason = moves.skip_reason or SkipReason.BLOCKED
        events = state.skip(reason)
        return {"chariot": c, "skip": reason, "legal": 0, "events": events}
    if policy is None:
        raise OwnerlessPolicyError(f"chariot {c + 1} is driven by nobody: run_race and "
                                   f"play_turn need the ownerless chariots' policy")
    move = policy(state, moves)
    events = state.push(move)
    return {"chariot": c, "move": move, "legal": count, "events": events}
