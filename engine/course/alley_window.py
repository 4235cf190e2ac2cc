"""The alley window: in which laps an alley stop counts — one predicate for every question
(issue 20). The legal moves (the stop, the miss, the wait), the bots' scores and distance
tables, the views' distances and the course figures all ask these three functions, so a
reading of the window ("the chariot's lap at the moment of the stop", lap 1 = before it
first crosses the line) lives in one place.
"""

from __future__ import annotations

__all__ = ["counts", "later_chance", "passed"]


def counts(laps: tuple[int, ...], lap: int) -> bool:
    """A stop made in ``lap`` counts: ``lap`` is one of the window's ``laps``."""
    return lap in laps


def later_chance(laps: tuple[int, ...], lap: int) -> bool:
    """A stop in a lap after ``lap`` would still count."""
    return any(x > lap for x in laps)


def passed(laps: tuple[int, ...], lap: int) -> bool:
    """``lap`` is after the window's last lap: the stop can no longer be made."""
    return bool(laps) and not counts(laps, lap) and not later_chance(laps, lap)
