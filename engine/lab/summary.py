"""What one race of a simulation contributes to its report: small and picklable, so that it
travels back from a worker process or a cluster (engine/lab/simulate.py makes it)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RaceSummary"]


@dataclass(frozen=True)
class RaceSummary:
    """What one race contributes to the report (small and picklable)."""

    index: int
    places: tuple[int | None, ...]  # per start place (chariot i stands on place i + 1)
    finished: tuple[bool, ...]
    out_of_cards: tuple[bool, ...]
    disqualified: tuple[bool, ...]
    reserve: tuple[int | None, ...]  # points left in hand and deck at the finish
    lead_changes: int
    turns: int
    six_rule_skips: int
    blocked_skips: int
    alley_waits: int
    termination: str
    ownerless: tuple[bool, ...] = ()  # per start place: a chariot no player drives
    stood: tuple[tuple[int, int], ...] = ()  # (space, turns a chariot stood there)
    blocked_at: tuple[tuple[int, int], ...] = ()  # (space, turns a chariot was stuck there)
    points: tuple[int, ...] = ()  # per start place: the points the race gave it
    kinds: tuple[str, ...] = ()  # per start place: the bot kind driving it ("": nobody)
    out_lap: tuple[int | None, ...] = ()  # per start place: the lap it left the race in
    out_why: tuple[str, ...] = ()  # per start place: why it left ("": it did not)
    first: int = 0  # the start place (0-based) that moved first
    waited_at: tuple[tuple[int, int], ...] = ()  # (space, turns a chariot waited there)
    disqualified_at: tuple[tuple[int, int], ...] = ()  # (space, chariots disqualified there)
