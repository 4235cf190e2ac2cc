"""The few rule values a course's figures depend on (shortest legal race, reserve).

The course validator needs only these; by default they are the values every edition shares
(docs/sources.md). A ruleset supplies its own through
:func:`avecaesar.engine.ruleset.load.race_figures`.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_FIGURES", "RaceFigures"]


@dataclass(frozen=True)
class RaceFigures:
    """Rule values that decide a course's shortest legal race and reserve.

    laps: laps to drive (3 in every edition).
    alley_laps: the laps during which the alley stop counts (1 and 2).
    alley_required: whether the shortest legal race must include an alley stop.
    deck_points: movement points in one deck (84).
    bonus_points: extra points a chariot can use once (the homebrew +3 piece), else 0.
    water: how water ditches count: ``"space"`` (an ordinary space, 003 III) or
        ``"skipped"`` (not a space, jumped over without counting, 002 p.5).
    source: where these values come from, for reports.
    """

    laps: int = 3
    alley_laps: tuple[int, ...] = (1, 2)
    alley_required: bool = True
    deck_points: int = 84
    bonus_points: int = 0
    water: str = "space"
    source: str = "defaults shared by every edition, docs/sources.md"

    @property
    def budget(self) -> int:
        """Points a chariot can spend on the race: the deck plus any bonus."""
        return self.deck_points + self.bonus_points


DEFAULT_FIGURES = RaceFigures()
