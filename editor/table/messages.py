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
    # the terminal table (play)
    "seed_line": "race on {course} under {ruleset}, seed {seed} (repeat it with --seed {seed})",
    "since_your_turn": "since your last turn:",
    "last_moves": "the last moves:",
    "table_head": "  chariot            space  lap  alley    points left / way home",
    "start_short": "start {place}",
    "finished": "finished",
    "removed": "removed",
    "disqualified": "disqualified",
    "alley_done": "done",
    "alley_todo": "to do",
    "short_warning": "! {short} points short of its shortest way home",
    "short_alert": "warning: {letters} cannot get home on the points left (points left "
                   "< shortest way home)",
    "your_turn": "{letter} ({name}), your turn (turn {ply}): lap {lap}, on {space}; alley "
                 "{alley}",
    "hand": "  hand: {cards}",
    "and": "and",
    "bonus_piece": "the +{points} bonus piece",
    "play_to": "play {card} to {space}",
    "wait_alley": "wait for the alley",
    "no_walk": "a {card} cannot move {card} spaces from here — {cite}",
    "not_now": "a {card} has no legal move now",
    "ask_move": "your move (number, or card:space{undo}, save [FILE])",
    "or_undo": ", undo",
    "answer_help": "  please answer 1-{n} or card:space, e.g. {example}; undo; save FILE",
    "not_allowed": "  not allowed: {why}",
    "undone": "  undone: back to ply {ply}",
    "pass_to": "pass to {name} — press Enter",
    "pass_or_undo": "pass to {name} — press Enter (or type undo: {prev} takes back "
                    "their move)",
    "resuming": "resuming {file}: {turns} turns replayed",
    "start_line": "race on {course} under {ruleset}, seed {seed} (repeat it with --seed "
                  "{seed}); start order: {order}",
    "saved": "  saved to {file} (continue with --resume {file}); from now on every turn is "
             "written there",
    "cannot_save": "  cannot save to {file}: {why}",
    "record_written": "record written to {file}",
    "interrupted_kept": "interrupted (Ctrl-C): the record is kept in {file}: continue with "
                        "--resume {file}",
    "ended_kept": "input ended before the race did; the record is kept in {file}: "
                  "continue with --resume {file}",
    "ended_lost": "input ended before the race did; nothing was recorded (give --record "
                  "FILE to keep a game)",
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
