"""Small statistics for simulation reports: proportions with confidence intervals."""

from __future__ import annotations

import math

__all__ = ["Z95", "mean", "mean_interval", "variance", "wilson_interval"]

Z95 = 1.959964  # the normal quantile of a two-sided 95 % interval


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


def variance(values: list[float] | list[int]) -> float:
    """The sample variance (n − 1 in the denominator); 0 for fewer than two values."""
    n = len(values)
    if n < 2:
        return 0.0
    m = sum(values) / n
    return sum((v - m) ** 2 for v in values) / (n - 1)


def mean_interval(values: list[float] | list[int], z: float = Z95) -> tuple[float, float]:
    """95 % normal interval of a mean (mean ± z·s/√n): sound for the hundreds of races a
    simulation runs; (mean, mean) for fewer than two values.

    >>> [round(x, 3) for x in mean_interval([0, 1] * 50)]
    [0.401, 0.599]
    """
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    m = sum(values) / n
    half = z * math.sqrt(variance(values) / n)
    return (m - half, m + half)
