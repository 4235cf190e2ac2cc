"""What seeing the hands would be worth to the expert bot: a reference, not a bot to play.

The same races as ``bench/bench_expert.py`` (each edition's default course, four chariots,
the bot rotating through the start places, seeds ``--first-seed`` on), with the bot under
test replaced by a *seeing* expert: the same bot, except that each world it deals gives
every other chariot its true hand (the decks are still shuffled, its own deck too). The
gap between its win rate and the expert's on the same seeds is the most that reading the
hidden hands from the public record could add to the expert's search; the real bot must
not peek (tests/bots/test_expert_no_peek.py), so this bot lives here and nowhere else.

Run: .venv/bin/python bench/bench_expert_peek.py [--races 1000] [--against greedy,search] \
    [--editions dicetree-2022,...] [--workers 2] [--tune name=value ...]
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_expert  # the race loop and report of the bench, its bot swapped below

from avecaesar.engine.bots.expert import ExpertBot
from avecaesar.engine.bots.information import Observer
from avecaesar.engine.core.moves import LegalMoves
from avecaesar.engine.core.state import RaceState
from avecaesar.engine.core.types import RACING, Move


class SeeingObserver(Observer):
    """The expert's record, but every world it deals holds the other chariots' true hands."""

    truth: RaceState | None = None

    def deal(self, skel: RaceState, me: int, rng: random.Random) -> RaceState:
        world = super().deal(skel, me, rng)  # the same draws as the expert's own deal
        truth = self.truth
        assert truth is not None
        for c in range(skel.game.chariots):
            if c == me or skel.status[c] != RACING or skel.game.is_ownerless(c):
                continue
            hand = tuple(truth.hands[c])
            rest = list((Counter(world.hands[c]) + Counter(world.decks[c])
                         - Counter(hand)).elements())
            rng.shuffle(rest)
            world.hands[c], world.decks[c] = hand, tuple(rest)
        return world


class SeeingExpert(ExpertBot):
    """:class:`ExpertBot` with a :class:`SeeingObserver` (it is told the true state)."""

    def __init__(self, seed: int, **tuning: Any) -> None:
        super().__init__(seed, **tuning)
        self.observer = SeeingObserver(type_rivals=self.type_rivals)

    def __call__(self, state: RaceState, moves: LegalMoves | Sequence[Move]) -> Move:
        assert isinstance(self.observer, SeeingObserver)
        self.observer.truth = state
        return super().__call__(state, moves)


def make_seeing(name: str, seed: int, budget: int | None, tune: dict[str, float]) -> Any:
    """The bench's bot factory, for the seeing expert whatever ``--bot`` says."""
    return SeeingExpert(seed, **({"budget": budget} if budget is not None else {}), **tune)


if __name__ == "__main__":
    bench_expert.make_bot = make_seeing  # the worker processes are forked: they see it too
    print("the SEEING expert (true hands of the other chariots in every world):")
    bench_expert.main()
