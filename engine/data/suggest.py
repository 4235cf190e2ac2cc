"""'Did you mean …?' hints for misspelt names."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["closest", "did_you_mean", "unknown_name"]


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


def unknown_name(kind: str, word: str, candidates: Iterable[str]) -> str:
    """``unknown condition 'in_curv' — did you mean 'in_curve'? (one of: …)``: the message
    for a misspelt name of a registry (conditions, effects, events …), shared by the schema
    errors, the rules' checks and the house-rule files."""
    pool = list(candidates)
    return f"unknown {kind} {word!r}{did_you_mean(word, pool)} (one of: {', '.join(pool)})"
