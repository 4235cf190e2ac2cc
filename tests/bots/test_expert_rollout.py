"""The expert's rollouts and how its candidates share the budget (issue 39, point 2).

``play_out`` (compiled with the hot path) must play exactly the turns the Python loop it
replaced played: the same moves and the same draws from the rivals' generator. The
candidates race for the budget (``race_z``): a candidate that trails the leader by more
than ``race_z`` standard errors of the world-by-world difference gets no more worlds; with
``race_z`` 0 every candidate gets every world, the bot as it was before
(docs/performance.md, "The expert at a lower cost")."""

from __future__ import annotations

import random

import pytest

from avecaesar.engine.bots import expert as expert_module
from avecaesar.engine.bots.expert import ExpertBot, _survivors
from avecaesar.engine.bots.information import skeleton
from avecaesar.engine.bots.policies import greedy_policy, greedy_scored
from avecaesar.engine.bots.rollout import NoisyRivals, near_best, off_greedy, play_out
from avecaesar.engine.core.moves import LegalMoves, alley_pending
from avecaesar.engine.core.race import play_turn
from avecaesar.engine.core.state import RaceState
from avecaesar.engine.core.types import RACING, Move

from .positions import greedy_positions


def _python_loop(s: RaceState, me: int, horizon: int, alley_horizon: int,
                 noise: random.Random | None, noisy: frozenset[int], rate: float) -> None:
    """The rollout loop as the expert played it in Python before it was compiled."""
    def choose(t: RaceState, moves: LegalMoves) -> Move:
        if noise is not None and t.turn in noisy and noise.random() < rate:
            return off_greedy(t, moves, 100.0, noise)
        return greedy_policy(t, moves)

    own = steps = 0
    while not s.over and s.status[me] == RACING and steps < 400:
        if s.turn == me:
            if own >= horizon and (own >= alley_horizon or not alley_pending(s, me)):
                break
            own += 1
        play_turn(s, choose, choose)
        steps += 1


@pytest.mark.covers("bots:expert")
@pytest.mark.parametrize("rate", [0.0, 0.5])
def test_play_out_plays_the_turns_and_draws_of_the_python_loop(rate: float) -> None:
    compared = 0
    for s in greedy_positions(2)[::6]:
        me = s.turn
        noisy = frozenset(c for c in range(4) if c != me) if rate else frozenset()
        ours, theirs = s.copy(), s.copy()
        a, b = random.Random(11), random.Random(11)
        play_out(ours, me, 2, 5, NoisyRivals(a, noisy, rate, 100.0) if rate else None)
        _python_loop(theirs, me, 2, 5, b if rate else None, noisy, rate)
        assert ours.notation() == theirs.notation()
        assert (ours.pos, ours.turn, ours.hands) == (theirs.pos, theirs.turn, theirs.hands)
        assert a.random() == b.random()  # the same number of draws
        compared += len(ours.notation()) > len(s.notation())
    assert compared >= 5


def test_a_candidate_behind_in_every_world_drops_out_and_a_close_one_stays() -> None:
    rng = random.Random(5)
    leader = [rng.gauss(5.0, 1.0) for _ in range(12)]
    behind = [v - 0.5 for v in leader]                       # 0.5 worse in each world
    close = [v + rng.gauss(0.0, 1.0) for v in leader]        # sometimes better, sometimes worse
    worse = [v - 2.0 + rng.gauss(0.0, 0.3) for v in leader]  # clearly worse, noisily
    values = [leader, behind, close, worse]
    kept = _survivors(values, [0.0] * 4, [0, 1, 2, 3], 2.0)
    assert 1 not in kept and 3 not in kept
    assert (kept[0] in (0, 2) and 2 in kept) or kept == [0]
    # greedy's bonus counts: a first candidate 0.03 behind in every world leads with 0.05
    tie = [leader, [v + 0.03 for v in leader]]
    assert _survivors(tie, [0.05, 0.0], [0, 1], 2.0) == [0]


def _exhaustive_choice(bot: ExpertBot, s: RaceState) -> int:
    """The choice with every world for every candidate, computed here as the bot did
    before the candidates raced."""
    me = s.turn
    skel = skeleton(s, me)
    bot.observer.observe(skel, me)
    candidates = near_best(greedy_scored(skel, s.legal_moves().distinct()), bot.margin,
                           bot.width)
    worlds = max(bot.min_worlds, bot.budget // len(candidates))
    totals = [0.0] * len(candidates)
    for _ in range(worlds):
        world = bot.observer.deal(skel, me, bot.rng)
        for i, move in enumerate(candidates):
            totals[i] += bot.rollout(world, move, me)
    totals[0] += bot.greedy_bonus * worlds
    return max(range(len(candidates)), key=lambda i: (totals[i], -i))


def test_without_the_race_every_candidate_gets_every_world_as_before() -> None:
    for s in greedy_positions(3)[::9]:
        me = s.turn
        skel = skeleton(s, me)
        candidates = near_best(greedy_scored(skel, s.legal_moves().distinct()), 100.0, 8)
        if len(candidates) < 2:
            continue
        bot = ExpertBot(4, budget=48, race_z=0, rival_noise=0.0)
        bot.observer.observe(skel, me)
        worlds = max(bot.min_worlds, bot.budget // len(candidates))
        assert bot.compare(skel, me, candidates, worlds) == \
            _exhaustive_choice(ExpertBot(4, budget=48, race_z=0, rival_noise=0.0), s)


def test_racing_candidates_costs_fewer_rollouts(monkeypatch: pytest.MonkeyPatch) -> None:
    counts = {"raced": 0, "all": 0}
    key = ["all"]
    real = ExpertBot.rollout

    def counted(self: ExpertBot, *args: object, **kwargs: object) -> float:
        counts[key[0]] += 1
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(expert_module.ExpertBot, "rollout", counted)
    for s in greedy_positions(4)[::8]:
        for name, z in (("all", 0.0), ("raced", 2.0)):
            key[0] = name
            ExpertBot(6, budget=96, race_z=z)(s, s.legal_moves())
    assert counts["raced"] < 0.8 * counts["all"]
