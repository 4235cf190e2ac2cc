"""race.shuffle draws exactly as random.Random.shuffle (seeded races must not change)."""

from __future__ import annotations

import random

from avecaesar.engine.core.race import shuffle


def test_shuffle_equals_random_shuffle() -> None:
    for seed in range(300):
        for size in (0, 1, 2, 3, 7, 13, 24, 31):
            ours, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(size)), list(range(size))
            shuffle(ours, a)
            theirs.shuffle(b)
            assert a == b
            assert ours.getstate() == theirs.getstate()  # the same draws, no more


def test_shuffle_of_a_random_subclass_is_its_own() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    items = [1, 2, 3]
    shuffle(Reversing(1), items)
    assert items == [3, 2, 1]
