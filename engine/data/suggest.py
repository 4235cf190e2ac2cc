"""'Did you mean …?' hints for misspelt names."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["closest", "did_you_mean"]


def closest(word: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """The candidates most like ``word``, best first (case-insensitive)."""
    pool = list(candidates)
    lowered = {c.lower(): c for c in pool}
    hits = difflib.get_close_matches(word.lower(), list(lowered), n=n, cutoff=0.6)
    return [lowered[h] for h in hits]


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """`` — did you mean 'x' or 'y'?`` or the empty string when nothing is close."""
    hits = closest(word, candidates)
    if not hits:
        return ""
    return " — did you mean " + " or ".join(repr(h) for h in hits) + "?"
