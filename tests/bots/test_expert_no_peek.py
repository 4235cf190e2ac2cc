"""The expert bot does not peek: its decision is the same whatever the hidden cards are.

Races are played with the expert on one start place. At each of its decisions the bot is
forked (same generator, same record of the race) and the fork is asked on a *redealt*
state: every other chariot's hand and deck, and the bot's own deck order, dealt afresh from
the same cards — consistently with the public record: a chariot that skipped since its last
move gets a hand that has no legal move at any of those skips (the harness keeps the exact
positions of the skips, which the bot itself never sees). Where the redealt state gives the
bot other legal moves (the 6-card exceptions read the others' hands, as a real table shows
them) the position is not compared, only counted. The two decisions must be equal.

The harness can fail: a bot that reads one opponent's hand is caught, and so is the
``search`` bot (its dealt worlds start from the real order of the hidden cards).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from avecaesar.engine.bots.expert import ExpertBot
from avecaesar.engine.bots.policies import greedy_policy, random_policy
from avecaesar.engine.bots.registry import OWNERLESS
from avecaesar.engine.bots.search import SearchBot
from avecaesar.engine.core.race import new_race, play_turn
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.state import RaceState
from avecaesar.engine.core.types import RACING, Move

#: (ruleset, variants, course): the three editions on their default courses, and the
#: variants that change what is hidden or who moves (chariots nobody drives, Team Gladiator)
CASES = [
    ("dicetree-2022", (), "dicetree-2022/arena-carthago", {}),
    ("pro-ludo-2006", (), "pro-ludo-2006/circus-maximus", {}),
    ("ravensburger-1989", (), "ravensburger-1989/a-white", {}),
    ("pro-ludo-2006", ("ownerless-chariots",), "pro-ludo-2006/constantinople",
     {"ownerless.occupies_places": "true"}),
    ("dicetree-2022", ("team-gladiator",), "dicetree-2022/hippodrom-constantinople", {}),
]


def redeal(state: RaceState, me: int, skips: dict[int, list[RaceState]],
           rng: random.Random) -> RaceState:
    """``state`` with every card ``me`` cannot see dealt afresh, consistent with the skips
    each chariot made since it last moved."""
    out = state.copy()
    deck = list(out.decks[me])
    rng.shuffle(deck)
    out.decks[me] = tuple(deck)
    own = state.game.rules.ownerless
    for c in range(state.game.chariots):
        if c == me or state.status[c] != RACING:
            continue
        if state.game.is_ownerless(c):
            if not (own is not None and own.position_moves is not None):
                deck = list(out.decks[c])
                rng.shuffle(deck)
                out.decks[c] = tuple(deck)
            continue
        pool = [*state.hands[c], *state.decks[c]]
        k = len(state.hands[c])
        for _ in range(50):
            rng.shuffle(pool)
            hand = tuple(sorted(pool[:k]))
            if all(not _legal_with(at, c, hand) for at in skips.get(c, ())):
                out.hands[c], out.decks[c] = hand, tuple(pool[k:])
                break
        else:  # no other hand explains the skips: keep the real one, reorder the deck
            rest = list(state.decks[c])
            rng.shuffle(rest)
            out.decks[c] = tuple(rest)
    return out


def _legal_with(at: RaceState, c: int, hand: tuple[int, ...]) -> bool:
    s = at.copy()
    s.hands[c] = hand
    return bool(s.legal_moves())


def compare_decisions(bot: Callable[..., Move], fork: Callable[[], Callable[..., Move]],
                      ruleset: str, variants: tuple[str, ...], course: str, seed: int,
                      settings: dict[str, str] | None = None, redeals: int = 2,
                      rival: Callable[..., Move] = greedy_policy
                      ) -> tuple[int, int, list[str]]:
    """Play one race with ``bot`` on start place ``seed % 4 + 1``, ``rival`` (greedy)
    elsewhere; at each decision compare it with ``fork()`` on ``redeals`` redealt states.
    Returns (positions compared, positions skipped for other legal moves, differences)."""
    rules, board = race_setup(ruleset, list(variants), settings or {}, course)
    players = 4 if not rules.ownerless else 3
    state, setup = new_race(rules, board, [f"p{i}" for i in range(players)], seed)
    me = setup["seats"].index(seed % players)
    rng = random.Random(seed)
    skips: dict[int, list[RaceState]] = {}
    compared = skipped = 0
    diffs: list[str] = []
    while not state.over:
        c = state.turn
        moves = state.legal_moves()
        if c == me and moves:
            distinct = {(m.card, m.path[-1:]) for m in moves.distinct()}
            forks = [fork() for _ in range(redeals)]
            chosen = bot(state, moves)
            for other in forks:
                dealt = redeal(state, me, skips, rng)
                legal = dealt.legal_moves()
                if {(m.card, m.path[-1:]) for m in legal.distinct()} != distinct:
                    skipped += 1
                    continue
                compared += 1
                got = other(dealt, legal)
                if (got.card, got.path[-1:]) != (chosen.card, chosen.path[-1:]):
                    diffs.append(f"{state.notation()}: {chosen} vs {got} on {dealt.notation()}")
            state.push(chosen)
            continue
        before = state.copy()
        turn = play_turn(state, rival, OWNERLESS)
        if "skip" in turn:
            skips.setdefault(c, []).append(before)
        elif "move" in turn and turn["move"].card != 0:
            skips.pop(c, None)  # it played a card: a new hand
    return compared, skipped, diffs


@pytest.mark.parametrize(("ruleset", "variants", "course", "settings"), CASES,
                         ids=[f"{r}{'+' + '+'.join(v) if v else ''}" for r, v, _, _ in CASES])
def test_the_expert_decides_the_same_whatever_the_hidden_cards(ruleset, variants, course,
                                                               settings):
    total = 0
    for seed in range(4):
        bot = ExpertBot(seed, budget=24)
        compared, _skipped, diffs = compare_decisions(bot, bot.fork, ruleset, variants,
                                                      course, seed, settings)
        assert not diffs, diffs[:3]
        total += compared
    assert total >= 80  # every decision of four races, twice each (most are compared)


@pytest.mark.parametrize(("option", "ruleset", "course"), [
    # ``lookahead`` (tests/bots/test_expert_lookahead.py) reads only the rollout's world
    ({"lookahead": 3}, "dicetree-2022", "dicetree-2022/arena-carthago"),
    # ``rival_noise`` (tests/bots/test_expert_rivals.py) draws from the bot's generator,
    # once per world: the draws depend on public facts only
    ({"rival_noise": 0.3}, "ravensburger-1989", "ravensburger-1989/a-white"),
], ids=["lookahead", "rival_noise"])
def test_with_an_option_of_its_search_it_still_decides_from_its_seat_alone(
        option: dict[str, float], ruleset: str, course: str) -> None:
    total = 0
    for seed in range(2):
        bot = ExpertBot(seed, budget=16, **option)  # type: ignore[arg-type]
        compared, _skipped, diffs = compare_decisions(bot, bot.fork, ruleset, (), course, seed)
        assert not diffs, diffs[:3]
        total += compared
    assert total >= 40


def test_against_rivals_it_has_marked_off_greedy_it_still_decides_from_its_seat_alone():
    """Random rivals: the bot's record marks them (``type_rivals``) and its rollouts draw
    their moves off greedy's; the decisions still do not depend on the hidden cards."""
    total = 0
    for seed in range(2):
        bot = ExpertBot(seed, budget=16)
        compared, _skipped, diffs = compare_decisions(
            bot, bot.fork, "dicetree-2022", (), "dicetree-2022/arena-carthago", seed,
            rival=random_policy(seed))
        assert not diffs, diffs[:3]
        assert len(bot.observer.off_greedy) >= 2  # the noise was in play
        total += compared
    assert total >= 40


class PeekingBot:
    """Greedy, but it keeps its 6 when the next chariot holds one (it reads that hand)."""

    def __call__(self, state: RaceState, moves):
        nxt = (state.turn + 1) % state.game.chariots
        options = list(moves)
        if 6 in state.hands[nxt]:
            options = [m for m in options if m.card != 6] or options
        return greedy_policy(state, options)


def test_the_harness_catches_a_bot_that_reads_a_hand():
    bot = PeekingBot()
    diffs = [d for seed in range(3) for d in compare_decisions(
        bot, lambda: bot, "dicetree-2022", (), "dicetree-2022/arena-carthago", seed)[2]]
    assert diffs


def test_the_harness_catches_the_search_bot():
    """``search`` deals its worlds by shuffling the real hidden cards in their real order:
    its decisions follow the hidden order (it does not read a hand, but it is not blind)."""
    diffs: list[str] = []
    for seed in range(3):
        bot = SearchBot(seed)

        def fork(bot: SearchBot = bot, seed: int = seed) -> SearchBot:
            other = SearchBot(seed)
            other.rng.setstate(bot.rng.getstate())
            return other

        diffs += compare_decisions(bot, fork, "dicetree-2022", (),
                                   "dicetree-2022/arena-carthago", seed)[2]
    assert diffs
