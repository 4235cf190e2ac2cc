"""What one seat may know of a race, and worlds dealt consistently with it.

A bot that must not peek decides from an *information set*: its own hand, every public fact
(positions, laps, alley stops, the cards each chariot has played, skips, coins, money) and
nothing else. This module builds it in two parts:

- :func:`skeleton`: the race as the seat sees it — a copy of the state in which every card
  the seat cannot see is replaced by a canonical fill made from public facts only (each
  other chariot's remaining cards, the 24-card deck minus the cards it has played, sorted;
  the seat's own deck sorted, since a player does not know its order). Whatever the hidden
  cards really are, the skeleton is the same, so anything computed from it cannot peek.
- :class:`Observer`: the public record between two of the seat's turns. A chariot that
  skipped showed the table that no card of its hand could be moved ("blocked", or the
  6-card rule: the skip's reason is public, both mean no legal move); as long as it has
  not played since, its hand is still that hand. :meth:`Observer.deal` deals a *world* — a
  full state — from the skeleton: the seat's own deck shuffled, each other hand drawn from
  that chariot's remaining cards, each other deck shuffled. The hand of a chariot that
  skipped since its last move is drawn exactly from the hands that explain every such skip:
  each distinct hand its remaining cards allow (a few dozen at most) is checked once per
  decision, and one is drawn with the weight of the ways it can be dealt. (If the record
  explains no hand — a position the seat could not rebuild exactly — the hand is drawn as
  if there were no skip.) With ``type_rivals`` it also checks each card another chariot
  played: if greedy, with no hand that chariot's remaining cards allowed, would have played
  that card to that space, the chariot is marked in ``off_greedy`` (its record shows it
  plans; the expert's rollouts then let it leave greedy's move).

The rules are read only through the engine: a skip's evidence is checked by asking the
engine for the legal moves of the position at that skip with the candidate hand, a played
card by asking it for the legal moves and greedy's choice among them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from itertools import combinations
from math import comb
from typing import TypeVar

from avecaesar.engine.bots.policies import greedy_policy
from avecaesar.engine.core.moves import alley_pending
from avecaesar.engine.core.state import RaceState
from avecaesar.engine.core.types import RACING, REMOVED

T = TypeVar("T")

__all__ = ["Observer", "consistent_hands", "distinct_hands", "public_pool", "skeleton",
           "turns_between"]


def public_pool(state: RaceState, c: int) -> list[int]:
    """The cards chariot ``c`` still holds (hand and deck together), as the table can count
    them: the deck of the rules minus the cards it has played, ascending.

    Where the rules add cards unseen (a race card picked up face down), the count does not
    match; then the pool is the chariot's own multiset (the table knows how many cards and
    how many points it holds, not always which)."""
    left = Counter(state.game.rules.deck)
    left.subtract(state.played[c])
    held = len(state.hands[c]) + len(state.decks[c])
    if all(v >= 0 for v in left.values()) and sum(left.values()) == held:
        return sorted(left.elements())
    return sorted((*state.hands[c], *state.decks[c]))


def _revealed_deck(state: RaceState, c: int) -> bool:
    """An ownerless chariot that moves by its race position holds one revealed card (its
    first move), public: its deck is not hidden."""
    own = state.game.rules.ownerless
    return (state.game.is_ownerless(c) and own is not None
            and own.position_moves is not None)


def skeleton(state: RaceState, me: int) -> RaceState:
    """``state`` with every card seat ``me`` cannot see replaced by a canonical fill made
    from public facts (module docstring); the events are not built (``log`` off)."""
    s = state.copy()
    s.log = False
    for c in range(state.game.chariots):
        if c == me:
            s.decks[c] = tuple(sorted(state.decks[c]))
            continue
        if _revealed_deck(state, c):
            continue
        pool = public_pool(state, c)
        k = len(state.hands[c])
        s.hands[c] = tuple(pool[:k])
        s.decks[c] = tuple(pool[k:])
    return s


class Observer:
    """The public record of one race as seat ``me`` saw it at its turns (module docstring).

    ``observe(state, me)`` is called at each of the seat's decisions: it compares the
    position with the one at its previous decision and keeps, for each chariot that skipped
    in between, the position at that skip (a skeleton), while it still holds that hand.
    """

    def __init__(self, type_rivals: bool = False) -> None:
        self.game: object | None = None
        self.type_rivals = type_rivals
        # the chariots the record shows leaving greedy's move (:meth:`_type_rival`)
        self.off_greedy: set[int] = set()
        self.prev: RaceState | None = None  # skeleton at the seat's previous decision
        self.me = -1
        # per chariot: (cards played then, skeleton at the skip with the turn set to it)
        self.evidence: dict[int, list[tuple[int, RaceState]]] = {}
        # per chariot, for the decision at ``ply``: the hands that explain its skips
        self.hands_at: dict[int, tuple[int, list[tuple[int, ...]], list[int]]] = {}

    def fork(self) -> Observer:
        """An independent copy (the stored skeletons are never changed, so they are shared)."""
        other = Observer(self.type_rivals)
        other.game, other.prev, other.me = self.game, self.prev, self.me
        other.off_greedy = set(self.off_greedy)
        other.evidence = {c: list(v) for c, v in self.evidence.items()}
        other.hands_at = dict(self.hands_at)
        return other

    def observe(self, skel: RaceState, me: int) -> None:
        """Take in the position ``skel`` (a :func:`skeleton`) at seat ``me``'s decision."""
        prev = self.prev
        if (self.game is not skel.game or me != self.me or prev is None
                or prev.ply >= skel.ply):
            self.evidence = {}  # a new race (or a seat's first decision)
            self.off_greedy = set()
        else:
            self._read_round(prev, skel, me)
        self.game, self.me, self.prev = skel.game, me, skel
        for c in list(self.evidence):
            now = len(skel.played[c])
            kept = [(n, s) for n, s in self.evidence[c] if n == now]
            if kept:
                self.evidence[c] = kept
            else:
                del self.evidence[c]

    def _read_round(self, prev: RaceState, now: RaceState, me: int) -> None:
        """The other chariots' turns between the seat's decision ``prev`` and ``now``
        (:func:`turns_between`): each skip is kept as evidence about a hand; with
        ``type_rivals``, each card played is checked against the greedy policy
        (:meth:`_type_rival`)."""
        for c, at in turns_between(prev, now, me):
            if len(now.played[c]) == len(prev.played[c]):
                if now.pos[c] != prev.pos[c] or now.crossings[c] != prev.crossings[c]:
                    continue
                if now.status[c] != RACING:
                    continue
                if now.game.rules.alley_wait_binds and alley_pending(at, c):
                    continue  # it may have waited by choice: no evidence about its hand
                self.evidence.setdefault(c, []).append((len(now.played[c]), at))
            elif self.type_rivals and c not in self.off_greedy:
                self._type_rival(c, at, now)

    def _type_rival(self, c: int, at: RaceState, now: RaceState) -> None:
        """Chariot ``c`` played one card between ``at`` (its turn) and ``now``: if no hand
        its remaining cards allow makes the greedy policy play that card to that space, the
        record shows it does not always play greedy's move (``off_greedy``)."""
        if len(now.played[c]) != len(at.played[c]) + 1:
            return
        card = now.played[c][-1]
        pool = [*at.hands[c], *at.decks[c]]
        k = len(at.hands[c])
        if card not in pool or k == 0:
            return
        rest = list(pool)
        rest.remove(card)
        seen = (now.pos[c], now.crossings[c], now.stopped[c], now.status[c])
        for others in distinct_hands(rest, k - 1):
            if _greedy_makes(at, c, tuple(sorted((card, *others))), pool, card, seen):
                return  # greedy with this hand makes the move: nothing shown
        self.off_greedy.add(c)

    def deal(self, skel: RaceState, me: int, rng: random.Random) -> RaceState:
        """A world: ``skel`` with the hidden cards dealt from ``rng``, consistent with the
        public record (module docstring)."""
        world = skel.copy()
        if len(world.decks[me]) > 1:
            deck = list(world.decks[me])
            rng.shuffle(deck)
            world.decks[me] = tuple(deck)
        for c in range(skel.game.chariots):
            if c == me or skel.status[c] != RACING or _revealed_deck(skel, c):
                continue
            pool = [*skel.hands[c], *skel.decks[c]]
            k = len(skel.hands[c])
            hands, weights = self._explained(skel, c)
            if hands:
                hand = rng.choices(hands, weights)[0]
                rest = list((Counter(pool) - Counter(hand)).elements())
                rng.shuffle(rest)
                world.hands[c], world.decks[c] = hand, tuple(rest)
                continue
            rng.shuffle(pool)
            world.hands[c] = tuple(sorted(pool[:k]))
            world.decks[c] = tuple(pool[k:])
        return world

    def _explained(self, skel: RaceState, c: int) -> tuple[list[tuple[int, ...]], list[int]]:
        """The hands of chariot ``c`` that explain every skip it made since it last played,
        with the ways each can be dealt; none when there is no such skip (kept per
        decision)."""
        evidence = self.evidence.get(c)
        if not evidence:
            return [], []
        kept = self.hands_at.get(c)
        if kept is not None and kept[0] == skel.ply:
            return kept[1], kept[2]
        pool = [*skel.hands[c], *skel.decks[c]]
        found = consistent_hands(pool, len(skel.hands[c]),
                                 lambda hand: all(not _moves_with(at, c, hand)
                                                  for _n, at in evidence))
        self.hands_at[c] = (skel.ply, [h for h, _w in found], [w for _h, w in found])
        return self.hands_at[c][1], self.hands_at[c][2]


def consistent_hands(pool: list[int], k: int, explains: Callable[[tuple[int, ...]], bool]
                     ) -> list[tuple[tuple[int, ...], int]]:
    """Each distinct hand of ``k`` cards from the multiset ``pool`` for which
    ``explains(hand)`` holds, with the number of ways it is dealt from ``pool``, in sorted
    order (a hand is a sorted tuple)."""
    counts = Counter(pool)
    out = []
    for hand in distinct_hands(pool, k):
        ways = 1
        for v, m in Counter(hand).items():
            ways *= comb(counts[v], m)
        if explains(hand):
            out.append((hand, ways))
    return out


def distinct_hands(pool: list[int], k: int) -> list[tuple[int, ...]]:
    """Each distinct hand of ``k`` cards from the multiset ``pool``, as a sorted tuple, in
    sorted order."""
    return sorted(set(combinations(sorted(pool), k)))


def turns_between(prev: RaceState, now: RaceState, me: int) -> list[tuple[int, RaceState]]:
    """Each other chariot's turn between seat ``me``'s decision ``prev`` and its next one
    ``now`` (one round in start order: each chariot racing then took one turn after the
    seat), with the position at that turn as far as the two positions show it: the
    chariots before it in the round as in ``now``, itself and those after it as in
    ``prev``. Turn orders that depend on choices (a player ordering several chariots, the
    chariots nobody drives moving after the players) are not reconstructed, nor rules under
    which a skip changes the hand or lapses points: there it is empty, which only makes
    what the seat infers less informed."""
    game = now.game
    rules = game.rules
    own = rules.ownerless
    if game.player_turns or (game.ownerless and own is not None and own.after_players):
        return []
    if now.fx.no_move or rules.lapse_points:
        return []
    n = game.chariots
    order = [(me + i) % n for i in range(1, n)]
    movers = [c for c in order if prev.status[c] == RACING]
    if now.ply - prev.ply - 1 != len(movers):
        return []
    out = []
    for i, c in enumerate(movers):
        if game.is_ownerless(c) or now.status[c] == REMOVED:
            continue
        at = now.copy()
        later = movers[i:]
        for d in later:  # not yet moved at c's turn: as at the seat's decision
            at.pos[d], at.crossings[d] = prev.pos[d], prev.crossings[d]
            at.stopped[d], at.dq[d], at.status[d] = prev.stopped[d], prev.dq[d], prev.status[d]
            at.played[d] = prev.played[d]
            at.hands[d], at.decks[d] = prev.hands[d], prev.decks[d]
        # the variants' facts (a bonus piece granted at the alley stop, prize money) too
        at.bonus = _merged(now.bonus, prev.bonus, later)
        at.money = _merged(now.money, prev.money, later)
        at.forfeit = _merged(now.forfeit, prev.forfeit, later)
        at.later_laps = _merged(now.later_laps, prev.later_laps, later)
        # one that finished at or after c's turn had not finished then (who leads, and with
        # it the 6-card rule, can depend on it)
        at.finish_order = [x for x in at.finish_order if x not in later]
        at.turn, at.queue = c, ()
        out.append((c, at))
    return out


def _greedy_makes(at: RaceState, c: int, hand: tuple[int, ...], pool: list[int], card: int,
                  seen: tuple[object, ...]) -> bool:
    """Chariot ``c``, holding ``hand`` (the rest of ``pool`` its deck) at ``at``, would play
    ``card`` as greedy's move, to the position ``seen`` (space, crossings, stopped,
    status)."""
    s = at.copy()
    s.hands[c] = hand
    s.decks[c] = tuple((Counter(pool) - Counter(hand)).elements())
    moves = s.legal_moves()
    if not moves:
        return False
    move = greedy_policy(s, moves)
    if move.card != card:
        return False
    s.push(move)
    return (s.pos[c], s.crossings[c], s.stopped[c], s.status[c]) == seen


def _merged(now: tuple[T, ...], prev: tuple[T, ...], later: list[int]) -> tuple[T, ...]:
    """``now`` with the items of the chariots in ``later`` as in ``prev``."""
    return tuple(prev[c] if c in later else v for c, v in enumerate(now))


def _moves_with(at: RaceState, c: int, hand: tuple[int, ...]) -> bool:
    """Chariot ``c`` would have had a legal move at the skip ``at`` holding ``hand``."""
    s = at.copy()
    s.hands[c] = hand
    return bool(s.legal_moves())
