"""The one-line race notation: print and parse a :class:`RaceState` (FEN for chariots).

Grammar (docs/engine.md)::

    <chariot> <chariot> ... | <turn> <idle> <ply> <end>
    chariot = pos,crossings,alley,hand,deck,played,status

pos: node id or ``-`` (off the board); crossings: finish-line crossings so far; alley: ``c``
(still holds its coin), ``s`` (stop made), ``b`` (stop made, holds the unused bonus piece)
or ``p`` (prize money: stopped this lap, the lap's prize forfeited), with ``+N`` appended
when an effect extended the chariot's alley window by N laps (``c+1``); hand, deck (top first)
and played (in order): card digits or ``-``; status: ``r`` racing, ``f`` finished, ``x``
removed (a removed chariot that keeps its space is a crashed wreck), with ``q`` appended
when disqualified; with prize money an 8th field: the money won. turn: the letter of the
chariot to move (A = start place 1); idle: turns in a row without a move; ply: turns taken;
end: ``-``, ``finished`` or ``deadlock``; then the finish order (letters or ``-``) and, when
chariots nobody drives move after the players or a player moves all of their chariots in
one turn, those still to move this round. Example:
``83,1,c,256,1134,6,r 84,1,c,666,-,-,r | B 0 1 -``.
"""

from __future__ import annotations

from typing import Any

from avecaesar.engine.core.position import Position, RaceGame
from avecaesar.engine.core.types import LETTERS, Status, Termination
from avecaesar.engine.data.errors import AveCaesarError

__all__ = ["NotationError", "parse_fields", "to_notation"]


class NotationError(AveCaesarError):
    """Raised when a race notation string cannot be read."""

    def __init__(self, text: str, why: str) -> None:
        super().__init__(f"bad race notation {text!r}: {why}")


def _cards(cards: tuple[int, ...]) -> str:
    return "".join(str(x) for x in cards) or "-"


def to_notation(s: Position) -> str:
    parts = []
    for c in range(len(s.status)):
        pos = "-" if s.pos[c] is None else str(s.pos[c])
        status = s.status[c] + ("q" if s.dq[c] else "")
        alley = ("p" if s.forfeit[c] else "b" if s.bonus[c] else "s") if s.stopped[c] else "c"
        if s.later_laps[c]:
            alley += f"+{s.later_laps[c]}"
        parts.append(",".join((pos, str(s.crossings[c]), alley,
                               _cards(s.hands[c]), _cards(s.decks[c]), _cards(s.played[c]),
                               status)) + (f",{s.money[c]}" if s.game.rules.prizes is not None
                                           else ""))
    order = "".join(LETTERS[c] for c in s.finish_order) or "-"
    queue = "".join(LETTERS[c] for c in s.queue)
    return (" ".join(parts) + f" | {LETTERS[s.turn]} {s.idle} {s.ply} {s.end or '-'}"
            + f" {order}" + (f" {queue}" if queue else ""))


def _read_cards(text: str, field: str, line: str) -> tuple[int, ...]:
    if text == "-":
        return ()
    if not text.isdigit() or "0" in text:
        raise NotationError(line, f"{field} must be card digits 1-9 or '-', not {text!r}")
    return tuple(int(ch) for ch in text)


def _chariot(game: RaceGame, ch: str, text: str) -> tuple[
        int | None, int, bool, bool, bool, tuple[int, ...], tuple[int, ...], tuple[int, ...],
        Status, bool, int | None, int]:
    """One chariot's fields: position, crossings, stopped, bonus, forfeit, hand, deck,
    played, status, disqualified, money (None without prizes), the laps its alley window
    was extended by."""
    f = ch.split(",")
    want = 7 if game.rules.prizes is None else 8
    if len(f) != want:
        raise NotationError(text, f"chariot {ch!r} needs {want} comma-separated fields")
    money = None
    if want == 8:
        if not f[7].isdigit():
            raise NotationError(text, f"chariot {ch!r}: the money is a number")
        money = int(f[7])
    try:
        pos = None if f[0] == "-" else int(f[0])
        crossings = int(f[1])
    except ValueError:
        raise NotationError(text, f"chariot {ch!r}: position and crossings are "
                            "numbers") from None
    if pos is not None and not 0 <= pos < len(game.board.succ):
        raise NotationError(text, f"chariot {ch!r}: no space {pos} on this course")
    alley, plus, later = f[2].partition("+")
    if plus and not (later.isdigit() and int(later) > 0):
        raise NotationError(text, f"chariot {ch!r}: after '+' the alley field gives the laps "
                            "its alley window was extended by, a number from 1")
    if alley not in ("c", "s", "b", "p"):
        raise NotationError(text, f"chariot {ch!r}: alley is 'c' (coin), 's' (stopped), "
                            "'b' (stopped, holds the bonus piece) or 'p' (stopped this "
                            "lap, its prize forfeited)")
    st = f[6]
    if not st or st[0] not in "rfx" or st[1:] not in ("", "q"):
        raise NotationError(text, f"chariot {ch!r}: status is r, f or x, 'q' appended "
                            "when disqualified")
    return (pos, crossings, alley in "sbp", alley == "b", alley == "p",
            tuple(sorted(_read_cards(f[3], "hand", text))), _read_cards(f[4], "deck", text),
            _read_cards(f[5], "played", text), Status(st[0]), st.endswith("q"), money,
            int(later) if plus else 0)


def parse_fields(game: RaceGame, text: str) -> tuple[Any, ...]:
    """Read a state written by :func:`to_notation` (the finish order may be left off).

    Returns the arguments of ``RaceState(game, ...)`` after ``game``;
    ``RaceState.parse(game, text)`` builds the state from them.
    """
    head, sep, tail = text.partition("|")
    if not sep:
        raise NotationError(text, "missing '|' between the chariots and the turn")
    chariots = head.split()
    if len(chariots) != game.chariots:
        raise NotationError(text, f"{len(chariots)} chariots for a race of {game.chariots}")
    fields = [_chariot(game, ch, text) for ch in chariots]
    pos: list[int | None] = [x[0] for x in fields]
    crossings = [x[1] for x in fields]
    stopped, bonus, forfeit = [x[2] for x in fields], [x[3] for x in fields], [x[4] for x in fields]
    hands, decks, played = [x[5] for x in fields], [x[6] for x in fields], [x[7] for x in fields]
    status, dq = [x[8] for x in fields], [x[9] for x in fields]
    money = [x[10] for x in fields if x[10] is not None]
    t = tail.split()
    if len(t) < 4:
        raise NotationError(text, "after '|' give: turn idle ply end")
    if t[0] not in LETTERS[: game.chariots]:
        raise NotationError(text, f"turn {t[0]!r} is not a chariot letter")
    finished = [c for c, s in enumerate(status) if s == Status.FINISHED]
    if len(t) > 4 and t[4] != "-":
        if any(x not in LETTERS[: game.chariots] for x in t[4]):
            raise NotationError(text, f"finish order {t[4]!r} must be chariot letters")
        order = [LETTERS.index(x) for x in t[4]]
    else:
        order = finished
    if sorted(order) != finished:
        raise NotationError(text, "the finish order must list exactly the finished chariots")
    try:
        idle, ply = int(t[1]), int(t[2])
    except ValueError:
        raise NotationError(text, "idle and ply are numbers") from None
    if t[3] not in ("-", Termination.FINISHED, Termination.DEADLOCK):
        raise NotationError(text, f"the end is '-', 'finished' or 'deadlock', not {t[3]!r}")
    end = None if t[3] == "-" else Termination(t[3])
    queue: tuple[int, ...] = ()
    if len(t) > 5:
        if any(x not in LETTERS[: game.chariots] for x in t[5]):
            raise NotationError(text, f"queue {t[5]!r} must be chariot letters")
        queue = tuple(LETTERS.index(x) for x in t[5])
    return (pos, crossings, stopped, hands, decks, played, status, dq, order,
            LETTERS.index(t[0]), idle, ply, end, queue, tuple(bonus),
            tuple(money) if money else None, tuple(forfeit), tuple(x[11] for x in fields))
