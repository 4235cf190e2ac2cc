"""Every sentence the table itself says (the web server and the terminal table), in one place
so that it can be translated: :data:`TEXT` maps a key to an English format string, and
:func:`say` fills it in. The engine's own sentences (why a move is not allowed, with the
rule's citation) come from the engine."""

from __future__ import annotations

__all__ = ["TEXT", "say"]

TEXT: dict[str, str] = {
    # turns
    "race_over": "the race is over",
    "not_a_person": "it is not a person's turn",
    "persons_turn": "it is {name}'s turn, a person's",
    "bots_turn": "it is a bot's turn",
    "pass_first": "pass the device to {name} first",
    "not_your_turn": "it is {name}'s turn, not yours",
    "spectator": "a spectator cannot move: open your seat's link",
    "has_move": "you have a legal move: no skip",
    "nothing_to_undo": "nothing to undo (or another person has moved or seen their hand since)",
    "not_your_undo": "only {name} can take back their own move",
    "wait_not_allowed": "waiting is not allowed here",
    "choose_space": "choose a space",
    "record_failed": ("the move could not be saved ({why}), so it was not made: the game "
                      "is as before; free some disk space and try again"),
    # why not: the exact count
    "no_card": "you have no {card} in hand",
    "exact_ahead": "a {card} moves exactly {card}; {space} is {steps} ahead (a {steps} "
                   "reaches it) — {cite}",
    "exact_ahead_many": "a {card} moves exactly {card}; {space} is reached with a {cards}, "
                        "not a {card} — {cite}",
    "behind": "{space} is behind you: chariots move forward only — {cite}",
    "out_of_reach": "{space} is more than {most} spaces ahead: a {card} moves exactly "
                    "{card} — {cite}",
    "not_on_board": "{space} is not on this board",
    # seats
    "bad_token": "this link's seat token is not one of this table's: ask the host for "
                 "your seat's link",
    "host_only": "only the host's device can do that",
    "no_seat": "there is no seat {seat} at this table",
    "seat_is_bot": "seat {seat} is a bot's: only a person's seat can be handed over",
    "shared_table": "at a table that passes one device around, every seat plays on it",
}


def say(key: str, **fields: object) -> str:
    """The sentence ``key`` with its fields filled in."""
    return TEXT[key].format(**fields)
