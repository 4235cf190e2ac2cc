"""The expert bot: legal, deterministic, playing under editions and variants, and the public
record it keeps is true (tests/bots/test_expert_no_peek.py proves it does not peek;
bench/bench_expert.py measures its strength)."""

from __future__ import annotations

from collections import Counter

import pytest
from typer.testing import CliRunner

from avecaesar.editor.app import app
from avecaesar.engine.bots.expert import ExpertBot, expert_policy
from avecaesar.engine.bots.information import public_pool, skeleton
from avecaesar.engine.bots.policies import greedy_policy
from avecaesar.engine.bots.registry import OWNERLESS, POLICIES, find_bot, make_policy
from avecaesar.engine.core.moves import why_not
from avecaesar.engine.core.race import new_race, play_turn, run_race
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.types import RACING

runner = CliRunner()


@pytest.mark.covers("bots:expert")
def test_expert_is_registered_and_takes_a_budget(rules_of, oval):
    assert "expert" in POLICIES and find_bot("expert").budget
    bot = make_policy("expert", 3, budget=12)
    assert isinstance(bot, ExpertBot) and bot.budget == 12
    assert make_policy("greedy", 3, budget=12) is greedy_policy  # a bot without one ignores it
    state, _ = new_race(rules_of("dicetree-2022"), oval, ["a", "b", "c"], 3)
    moves = state.legal_moves()
    before = state.notation()
    assert bot(state, moves) in set(moves)
    assert state.notation() == before  # it plays on copies


def test_skeleton_keeps_only_what_the_seat_knows(rules_of, oval):
    state, _ = new_race(rules_of("dicetree-2022"), oval, ["a", "b", "c"], 5)
    for _ in range(9):
        play_turn(state, greedy_policy, greedy_policy)
    me = state.turn
    skel = skeleton(state, me)
    assert skel.hands[me] == state.hands[me] and skel.pos == state.pos
    assert sorted(skel.decks[me]) == sorted(state.decks[me])
    for c in range(3):
        if c != me:
            assert Counter(skel.hands[c] + skel.decks[c]) == Counter(public_pool(state, c))
            assert Counter(public_pool(state, c)) == Counter(state.hands[c] + state.decks[c])
    # another deal of the hidden cards gives the same skeleton
    other = state.copy()
    c = (me + 1) % 3
    pool = sorted(other.hands[c] + other.decks[c], reverse=True)
    other.hands[c] = tuple(sorted(pool[:3]))
    other.decks[c] = tuple(pool[3:])
    assert skeleton(other, me).notation() == skel.notation()


@pytest.mark.parametrize("course", ["dicetree-2022/arena-carthago",
                                    "dicetree-2022/hippodrom-constantinople"])
def test_the_skips_it_records_are_true_and_its_deals_respect_them(course):
    """Every skip the bot infers from what it saw is a real one: the real hand had no legal
    move at the position the bot rebuilt; and the hands it deals have none either."""
    rules, board = race_setup("dicetree-2022", [], {}, course)
    checked = dealt = 0
    for seed in range(8):  # the skips depend on the expert's play: 6 races had only 4 here
        state, _ = new_race(rules, board, [f"p{i}" for i in range(6)], seed)
        me = seed % 6
        bot = ExpertBot(seed, budget=12)
        while not state.over:
            if state.turn == me and state.legal_moves():
                move = bot(state, state.legal_moves())
                for c, found in bot.observer.evidence.items():
                    for _n, at in found:
                        real = at.copy()
                        real.hands[c] = state.hands[c]
                        assert not real.legal_moves(), (c, at.notation())
                        checked += 1
                    world = bot.observer.deal(skeleton(state, me), me, bot.rng)
                    for _n, at in found:
                        trial = at.copy()
                        trial.hands[c] = world.hands[c]
                        dealt += not trial.legal_moves()
                state.push(move)
            else:
                play_turn(state, greedy_policy, OWNERLESS)
    assert checked >= 5  # skips happen in six-chariot races on a narrow course
    assert dealt == checked


VARIANTS = [
    ("ravensburger-1989", [], "ravensburger-1989/a-white", 3, {}),
    ("pro-ludo-2006", ["ownerless-chariots"], "pro-ludo-2006/circus-maximus", 2,
     {"ownerless.occupies_places": "true"}),
    ("dicetree-2022", ["team-gladiator"], "dicetree-2022/arena-carthago", 3, {}),
    ("dicetree-2022", ["dicetree-team-race"], "dicetree-2022/arena-carthago", 2, {}),
    ("dicetree-2022", ["ramming-attacks"], "dicetree-2022/arena-maximus", 4,
     {"ramming.tie": "defender_wins", "ramming.attack_chips": "no_effect"}),
    ("dicetree-2022", ["lapse-movement-points", "no-waiting"], "dicetree-2022/arena-carthago",
     4, {}),
    ("ravensburger-1989", ["missed-turns", "crash-and-burn"], "ravensburger-1989/b-yellow",
     5, {}),
    ("dicetree-2022", ["homebrew-bonus-piece"], "dicetree-2022/circus-maximus", 4, {}),
    ("dicetree-2022", [], "dicetree-2022/arena-carthago", 4, {"race.laps": "4"}),
]


@pytest.mark.parametrize(("ruleset", "variants", "course", "players", "settings"), VARIANTS,
                         ids=[f"{r}+{'+'.join(v) or 'house'}" for r, v, *_ in VARIANTS])
def test_expert_races_under_variants_with_legal_moves_only(ruleset, variants, course,
                                                           players, settings):
    rules, board = race_setup(ruleset, variants, settings, course)
    asked = 0

    def watched(seed):
        bot = expert_policy(seed, budget=16)

        def play(state, legal):
            nonlocal asked
            move = bot(state, legal)
            assert why_not(state, move) is None, f"expert chose {move}"
            asked += 1
            return move
        return play

    runs = [run_race(rules, board, [f"p{i}" for i in range(players)],
                     [watched(7 + i) for i in range(players)], 3, ownerless=OWNERLESS)
            for _ in range(2)]
    assert asked and runs[0].state.over
    assert runs[0].state.notation() == runs[1].state.notation()  # the same seed, the same race
    assert any(s != RACING for s in runs[0].state.status)


def test_race_and_simulate_take_expert_with_a_budget(tmp_path):
    out = runner.invoke(app, ["race", "--ruleset", "dicetree-2022", "--course",
                              "dicetree-2022/arena-carthago", "--players", "3", "--bots",
                              "expert,greedy", "--bot-budget", "8", "--seed", "2", "--json"])
    assert out.exit_code == 0, out.output
    out = runner.invoke(app, ["simulate", "--ruleset", "dicetree-2022", "--course",
                              "dicetree-2022/arena-carthago", "--players", "6", "--races", "4",
                              "--bots", "expert,greedy,search", "--bot-budget", "8",
                              "--workers", "1", "--quiet"])
    assert out.exit_code == 0, out.output
    assert "bots expert,greedy,search (budget 8)" in out.output
    bad = runner.invoke(app, ["race", "--ruleset", "dicetree-2022", "--course",
                              "dicetree-2022/arena-carthago", "--bots", "expert",
                              "--bot-budget", "0"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def test_play_offers_the_expert_as_an_opponent(tmp_path):
    rec = tmp_path / "play.jsonl"
    res = runner.invoke(app, ["play", "--ruleset", "dicetree-2022", "--course",
                              "dicetree-2022/arena-carthago", "--humans", "Anna", "--players",
                              "2", "--bots", "expert", "--seed", "4", "--record", str(rec)],
                        input="1\n" * 300)
    assert res.exit_code == 0, res.output[-2000:]
    assert "-expert" in res.output and "result:" in res.output
    assert runner.invoke(app, ["replay", str(rec)]).exit_code == 0
