"""Value types of a race, with no engine imports: a move, an event, chariot letters.

Every other module of the race engine imports these; they import nothing of the engine, so
no import cycle can pass through them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, NamedTuple, TypeVar

__all__ = ["FINISHED", "LETTERS", "RACING", "REMOVED", "WAIT", "Event", "Move", "SkipReason",
           "Status", "Termination", "with_item"]

LETTERS = "ABCDEFGHIJKL"


class Status(StrEnum):
    """A chariot's status; its value is its letter in the race notation."""

    RACING = "r"
    FINISHED = "f"  # crossed the line after the last lap
    REMOVED = "x"  # left the race (out of cards, executed, a wreck)

    @property
    def word(self) -> str:
        """The status as a view names it: ``racing``, ``finished`` or ``removed``."""
        return _STATUS_WORDS[self]


_STATUS_WORDS: Final = {Status.RACING: "racing", Status.FINISHED: "finished",
                        Status.REMOVED: "removed"}
RACING: Final = Status.RACING
FINISHED: Final = Status.FINISHED
REMOVED: Final = Status.REMOVED


class Termination(StrEnum):
    """How a race ended (python-chess's ``Termination``): the ``end`` of the race notation
    and the ``termination`` of a record's result line."""

    FINISHED = "finished"  # every chariot finished or left the race
    DEADLOCK = "deadlock"  # a full round without a move
    RUNNING = "running"  # not ended: the outcome of a race in progress


class SkipReason(StrEnum):
    """Why the chariot to move has no legal move (``LegalMoves.skip_reason``; a record's
    skip line gives the first three)."""

    BLOCKED = "blocked"  # no card can be moved in full
    SIX_RULE = "six_rule"  # the card restrictions forbid every card it could move
    ALLEY_BLOCKED = "alley_blocked"  # it must wait at a blocked alley
    RACE_OVER = "race_over"  # the race has ended: nobody moves


T = TypeVar("T")


def with_item(values: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """``values`` with item ``i`` replaced: the per-chariot tuples of a state (bonus,
    money, forfeit) are immutable, shared by copies and replaced on change."""
    return (*values[:i], value, *values[i + 1:])


class Move(NamedTuple):
    """A card and the spaces driven through, the landing space last.

    A finishing move may be shorter than its card: steps beyond the line lapse.
    ``Move(0, ())`` is waiting in front of a blocked alley where the rules allow it.
    """

    card: int
    path: tuple[int, ...]
    ram: int = -1  # the chariot attacked in a ramming attack after the move, or -1

    def __str__(self) -> str:
        if self.card == 0:
            return "wait"
        ram = f"!{LETTERS[self.ram]}" if self.ram >= 0 else ""
        if self.card < 0:  # the bonus piece of -card points
            return f"+{-self.card}:" + "-".join(str(n) for n in self.path) + ram
        return f"{self.card}:" + "-".join(str(n) for n in self.path) + ram

    @classmethod
    def parse(cls, text: str) -> Move:
        text = text.strip()
        if text == "wait":
            return WAIT
        card, _, path = text.partition(":")
        path, _, ram = path.partition("!")
        value = -int(card[1:]) if card.startswith("+") else int(card)
        return cls(value, tuple(int(n) for n in path.split("-") if n),
                   LETTERS.index(ram) if ram else -1)


WAIT = Move(0, ())


@dataclass(frozen=True)
class Event:
    """Something that happened: kind, the chariot, and details."""

    kind: str  # move skip wait lap alley_stop disqualified finish removed end
    chariot: int | None
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "chariot": self.chariot, **self.data}
