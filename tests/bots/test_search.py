"""The rollout search bot: registered, chooses among the legal moves only, deterministic for
a seed, and its dealt worlds keep what it can know (bench/bench_bots.py measures its
strength)."""

from __future__ import annotations

from collections import Counter

from avecaesar.engine.bots.policies import greedy_policy
from avecaesar.engine.bots.registry import POLICIES, make_policy
from avecaesar.engine.bots.search import SearchBot, turns_needed
from avecaesar.engine.core.race import new_race, play_turn, run_race


def test_search_is_a_registered_policy(rules_of, oval):
    assert "search" in POLICIES
    state, _ = new_race(rules_of("dicetree-2022"), oval, ["a", "b", "c"], 3)
    bot = make_policy("search", 3)
    moves = state.legal_moves()
    before = state.notation()
    assert bot(state, moves) in set(moves)
    assert state.notation() == before  # it searches on copies


def test_search_only_picks_legal_moves_and_is_deterministic(rules_of, oval):
    from avecaesar.engine.core.moves import why_not

    rules = rules_of("dicetree-2022")

    def race(seed):
        bot = SearchBot(seed, worlds=2, width=3)
        picks = []

        def checked(state, moves):
            move = bot(state, moves)
            assert why_not(state, move) is None
            picks.append(str(move))
            return move

        run = run_race(rules, oval, ["s", "g"], [checked, greedy_policy], seed,
                       ownerless=greedy_policy)
        assert run.state.over
        return picks, run.state.notation()

    assert race(11) == race(11)


def test_dealt_worlds_keep_what_the_bot_can_know(rules_of, oval):
    state, _ = new_race(rules_of("dicetree-2022"), oval, ["a", "b", "c"], 5)
    for _ in range(7):
        play_turn(state, greedy_policy, greedy_policy)
    me = state.turn
    bot = SearchBot(1)
    for _ in range(5):
        world = bot.deal(state, me)
        assert world.hands[me] == state.hands[me]  # its own hand it sees
        assert world.pos == state.pos and world.played == state.played
        for c in range(state.game.chariots):
            # the unseen cards are the same multiset (what was played is public)
            assert Counter(world.hands[c] + world.decks[c]) == Counter(
                state.hands[c] + state.decks[c])
            assert len(world.hands[c]) == len(state.hands[c])
    assert state.legal_moves() is not None  # the real state is untouched
    assert turns_needed(state, me) > 0
