"""What a seat has learnt of its own deck, against what the confirmed moves give it.

At a physical table a player knows the cards they hold and have played: the first hand and
one card more for every move of theirs that has been played (the card is drawn then and
never goes back). :func:`check` takes every view a seat's device received, in the order it
received them — through every undo path — and the race's final record, and says whether the
device ever held more of its deck than that: for each own chariot, the cards seen so far
(the most of each value in hand or played at once, over all views up to now) must be cards
the chariot holds or has played after the plies confirmed at the time of that view.

A device that saw a drawn card, undid the move and chose again knew a card that the
confirmed moves at that ply do not give it: caught (``tests/editor/web/test_undo_paths.py``
plants exactly that and sees it caught).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from avecaesar.engine.core.race import new_race
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.state import LETTERS, Move

__all__ = ["DeckLeak", "check", "known_by_ply"]


class DeckLeak(AssertionError):
    """A device held a card of its own deck that the confirmed moves did not give it."""


def known_by_ply(lines: list[dict[str, Any]]) -> list[list[Counter[int]]]:
    """Per ply (0: the deal) and chariot, the cards it holds or has played — what its
    player knows of its deck after that many confirmed plies."""
    head = lines[0]
    rules, board = race_setup(head["ruleset"], head.get("variants", []),
                              head.get("overrides", {}), head["course"], head.get("house"))
    state, _ = new_race(rules, board, [p["name"] for p in head["players"]], int(head["seed"]),
                        head["seats"] if head.get("seated") else None)

    def snapshot() -> list[Counter[int]]:
        return [Counter(state.hands[c]) + Counter(state.played[c])
                for c in range(state.game.chariots)]
    out = [snapshot()]
    for ln in lines[1:]:
        if ln["type"] == "result":
            break
        c = LETTERS.index(ln["chariot"])
        if state.queue and c in state.choosable():
            state.choose(c)
        if ln["type"] == "skip":
            state.skip(ln["reason"])
        else:
            state.push(Move(0, ()) if ln["type"] == "wait" else
                       Move(int(ln["card"]), tuple(ln["path"]),
                            LETTERS.index(ln["ram"]) if ln.get("ram") else -1))
        out.append(snapshot())
    return out


def check(views: Iterable[dict[str, Any]], lines: list[dict[str, Any]], where: str = ""
          ) -> int:
    """Raise :class:`DeckLeak` when a view (a ``race`` part, in the order received) shows
    its device more of an own chariot's deck than the confirmed plies give; return how many
    views were checked."""
    known = known_by_ply(lines)
    seen: dict[str, Counter[int]] = {}
    n = 0
    for race in views:
        ply = int(race["ply"])
        hands = (race.get("private") or {}).get("hands") or {}
        played = {ch["letter"]: ch.get("played", []) for ch in race["chariots"]}
        for letter, hand in hands.items():
            now = Counter(hand) + Counter(played.get(letter, []))
            so_far = seen.setdefault(letter, Counter())
            so_far |= now
            allowed = known[min(ply, len(known) - 1)][LETTERS.index(letter)]
            extra = so_far - allowed
            if extra:
                raise DeckLeak(f"{where}: at ply {ply} chariot {letter}'s device has seen "
                               f"{sorted(extra.elements())} of its deck, which the "
                               f"confirmed moves do not give it yet")
        n += 1
    return n
