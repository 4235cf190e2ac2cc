"""Small statistics for simulation reports: proportions with confidence intervals."""

from __future__ import annotations

import math

__all__ = ["mean", "wilson_interval"]


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (sound for small counts and 0 or 1).

    >>> [round(x, 3) for x in wilson_interval(50, 100)]
    [0.404, 0.596]
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean(values: list[float] | list[int]) -> float | None:
    """The arithmetic mean, or None for no values."""
    return sum(values) / len(values) if values else None
