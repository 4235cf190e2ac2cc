"""The greedy bot's fast path (working out a move's effects without copying the state)
agrees with copying and pushing, on every legal move of many positions and rulesets."""

from __future__ import annotations

import pytest

from avecaesar.engine.bots.policies import (
    _after,
    _after_slow,
    greedy_policy,
    greedy_policy_reference,
)
from avecaesar.engine.bots.registry import make_policy
from avecaesar.engine.core.race import new_race, play_turn

RULESETS = ("dicetree-2022", "ravensburger-1989", "pro-ludo-2006", "pro-ludo-2006+ownerless",
            "dicetree-2022+team-gladiator")
# the variants whose effects differ (execution, race card, bonus piece, prizes, ramming,
# crash, cycling a card, no penalty): move_facts must agree with copy-and-push under each
VARIANTS = (
    ("ravensburger-1989", ("dishonour",), {}),
    ("dicetree-2022", ("alley-race-card",), {"alley.race_card": "4"}),
    ("pro-ludo-2006", ("homebrew-bonus-piece",), {}),
    ("dicetree-2022", ("money-instead-of-laurels",), {"prize_money.per_lap": "[5, 3, 1]"}),
    ("dicetree-2022", ("ramming-attacks",), {"ramming.attack_chips": "no_effect",
                                             "ramming.tie": "attacker_wins"}),
    ("dicetree-2022", ("ramming-attacks",), {"ramming.attack_chips": "no_effect",
                                             "ramming.tie": "defender_wins"}),
    ("dicetree-2022", ("crash-and-burn", "missed-turns"), {}),
    ("dicetree-2022", (), {"alley.no_stop": "no_penalty",
                           "disqualification.may_finish": "false"}),
)


def positions(rules, oval, seeds: int = 12):
    """Every position of seeded races with 2-6 chariots, random and greedy bots mixed; the
    race goes on once the caller has looked at a position."""
    for seed in range(seeds):
        n = 2 + seed % 5
        state, _ = new_race(rules, oval, [f"p{i}" for i in range(n)], seed)
        bots = [make_policy("random" if (seed + i) % 2 else "greedy", seed + i)
                for i in range(state.game.chariots)]
        while not state.over:
            yield state
            play_turn(state, bots[state.turn], greedy_policy)


@pytest.mark.parametrize("name", RULESETS)
def test_fast_effects_equal_copy_and_push(name: str, rules_of, oval) -> None:
    checked = 0
    for state in positions(rules_of(name), oval):
        for move in state.legal_moves():
            assert _after(state, move) == _after_slow(state, move), (state.notation(), move)
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize(("edition", "variants", "sets"), VARIANTS)
def test_move_facts_equal_copy_and_push_under_the_variants(edition, variants, sets,
                                                           oval) -> None:
    """The one "effects of this move" function (core/moves.py move_facts, which the greedy
    scores by) equals copying and pushing under every variant's effect lists; and the
    greedy's inline scores equal its reference there too."""
    from avecaesar.engine.bots.policies import _distinct_scored, _distinct_scored_fast
    from avecaesar.engine.core.ruleset_adapter import rules_from_ruleset
    from avecaesar.engine.ruleset.load import load_ruleset

    rules = rules_from_ruleset(load_ruleset(edition, list(variants), sets))
    checked = 0
    for state in positions(rules, oval, seeds=6):
        moves = state.legal_moves()
        for move in moves:
            assert _after(state, move) == _after_slow(state, move), (state.notation(), move)
            checked += 1
        if moves:
            assert list(_distinct_scored_fast(state, moves)) == list(
                _distinct_scored(state, moves)), state.notation()
    assert checked > 500


def test_greedy_is_deterministic(rules_of, oval) -> None:
    rules = rules_of("dicetree-2022")
    runs = []
    for _ in range(2):
        state, _ = new_race(rules, oval, ["a", "b", "c"], 5)
        while not state.over:
            play_turn(state, greedy_policy, greedy_policy)
        runs.append(state.notation())
    assert runs[0] == runs[1]


@pytest.mark.parametrize("name", RULESETS)
def test_fast_greedy_scores_equal_reference(name: str, rules_of, oval) -> None:
    """The greedy's inline scoring gives the same moves, in the same order, with the same
    scores as :func:`_score` one move at a time."""
    from avecaesar.engine.bots.policies import _distinct_scored, _distinct_scored_fast

    checked = 0
    for state in positions(rules_of(name), oval):
        moves = state.legal_moves()
        if moves:
            fast = list(_distinct_scored_fast(state, moves))
            assert fast == list(_distinct_scored(state, moves)), state.notation()
            assert greedy_policy(state, moves) == greedy_policy_reference(
                state, moves), state.notation()
            assert len(moves) == len(list(moves)) == moves.count()
            checked += len(fast)
    assert checked > 1000


@pytest.mark.parametrize(("ruleset", "course", "settings"), [
    ("ravensburger-1989", "ravensburger-1989/b-yellow", {"disqualification.keeps_place": "true"}),
    ("pro-ludo-2006", "pro-ludo-2006/circus-maximus", {"disqualification.keeps_place": "true"}),
    ("dicetree-2022", "dicetree-2022/hippodrom-constantinople", {}),
])
def test_fast_greedy_equals_reference_on_bundled_courses(ruleset: str, course: str,
                                                         settings: dict[str, str]) -> None:
    """Six greedy chariots on a bundled course of each edition: the legal moves (count,
    order) and the greedy's choice equal the one-move-at-a-time reference every turn."""
    from avecaesar.engine.bots.policies import _distinct
    from avecaesar.engine.core.board import Board
    from avecaesar.engine.core.moves import (
        _Analysis,
        _stop_possible_on_empty_track,
        gives_up_alley,
        walks,
    )
    from avecaesar.engine.core.ruleset_adapter import rules_from_ruleset
    from avecaesar.engine.course.load import load_course
    from avecaesar.engine.ruleset.load import load_ruleset

    rules = rules_from_ruleset(load_ruleset(ruleset, [], settings))
    loaded = load_course(course)
    board = Board.from_graph(loaded.graph, loaded.id)
    turns = 0
    for seed in range(6):
        state, _ = new_race(rules, board, [f"g{i}" for i in range(6)], seed)
        while not state.over:
            moves = state.legal_moves()
            if moves:
                every = list(moves)
                assert len(moves) == len(every)
                assert _distinct(state, moves) == _distinct(state, every)
                assert greedy_policy(state, moves) == greedy_policy_reference(state, moves)
                c = state.turn
                fresh = _Analysis(state)  # the alley checks by walk tables, before any list
                if all(m.card for m in every):  # (asked before waiting is added)
                    assert fresh._keeps_alley(state, c) == any(
                        not gives_up_alley(state, c, m.path) for m in every)
                for forbidden in (frozenset(), frozenset({rules.six_card})):
                    assert _stop_possible_on_empty_track(state, c, forbidden) == any(
                        not gives_up_alley(state, c, p)
                        for k in set(state.cards(c)) if k not in forbidden
                        for p in walks(state, c, k, empty=True))
            play_turn(state, greedy_policy, greedy_policy)
            turns += 1
    assert turns > 500
