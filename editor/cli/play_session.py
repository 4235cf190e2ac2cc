"""``avecaesar play`` at one terminal: people and bots around one keyboard.

A random seed unless one is given (printed, so the race can be repeated); between two
people a "pass to NAME — press Enter" screen that clears the previous hand; ``undo`` of
one's own last move (until another person has seen their hand); ``save [FILE]``; the
record is rewritten after every turn when it has a file, and Ctrl-C (or the input ending)
keeps it, to be continued with ``--resume FILE``.
"""

from __future__ import annotations

import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from avecaesar.editor.cli.common import bot_kinds
from avecaesar.editor.cli.signals import stopped_by
from avecaesar.editor.render.event_text import result_lines
from avecaesar.editor.table.choices import options
from avecaesar.editor.table.game import Game, GameSetup
from avecaesar.engine.core.race import outcome
from avecaesar.engine.core.state import LETTERS, Move, RaceState
from avecaesar.engine.data.errors import AveCaesarError

__all__ = ["run_play"]


class _Input(Exception):
    """What a person typed other than a move: undo or save."""


def run_play(ruleset: str, course: str, humans: str, players: int, variants: list[str],
             overrides: dict[str, str], bots: str, seed: int | None, record: Path | None,
             draw: Callable[[RaceState], None] | None, resume: Path | None,
             house: dict[str, dict[str, Any]] | None = None) -> None:
    """Set up (or resume) the race and run it to its end at the terminal."""
    if resume is not None:
        game = Game.resume(resume)
        if record is not None and record != resume:
            game.path = record
            game.write()
        elif record is None:
            game.path = resume
        typer.echo(f"resuming {resume}: {len(game.turns)} turns replayed")
    else:
        game = Game.new(_setup(ruleset, course, humans, players, variants, overrides, bots,
                               seed, house), record)
    state = game.state
    s = game.setup
    typer.echo(f"race on {state.game.board.id} under {s.ruleset}, seed {s.seed} "
               f"(repeat it with --seed {s.seed}); start order: "
               + ", ".join(f"{LETTERS[i]}={n}" for i, n in enumerate(state.game.names)))
    try:
        _loop(game, draw)
    except (typer.Abort, KeyboardInterrupt, EOFError) as err:
        _stopped(game, err)
    if draw is not None:
        draw(game.state)
    _result(game)


def _stopped(game: Game, err: BaseException) -> None:
    """Keep the record of a race stopped before its end: by Ctrl-C, SIGTERM or SIGHUP (exit
    128 + the signal's number) or by the end of the input (exit 1). A prompt turns Ctrl-C
    and the end of input alike into ``Abort``; what it was is the exception it replaced."""
    signal = isinstance(err, KeyboardInterrupt) or isinstance(err.__context__,
                                                              KeyboardInterrupt)
    if game.path is None and sys.stdin.isatty():  # a person at the keyboard: keep it
        game.path = Path(f"avecaesar-play-{time.strftime('%Y%m%d-%H%M%S')}.jsonl")
    if not signal:
        if game.path is None:
            raise AveCaesarError("input ended before the race did; nothing was recorded "
                                 "(give --record FILE to keep a game)") from None
        game.write()
        raise AveCaesarError(f"input ended before the race did; the record is kept in "
                             f"{game.path}: continue with --resume {game.path}") from None
    name, code = stopped_by()
    if game.path is None:
        typer.echo(f"interrupted ({name}): nothing was recorded (give --record FILE to keep "
                   "a game)", err=True)
    else:
        game.write()  # (atomic: a second signal leaves the record of the last turn)
        typer.echo(f"interrupted ({name}): the record is kept in {game.path}: continue "
                   f"with --resume {game.path}", err=True)
    raise typer.Exit(code) from None


def _setup(ruleset: str, course: str, humans: str, players: int, variants: list[str],
           overrides: dict[str, str], bots: str, seed: int | None,
           house: dict[str, dict[str, Any]] | None = None) -> GameSetup:
    people = [h.strip() for h in humans.split(",") if h.strip()]
    if not people:
        raise AveCaesarError("--humans: give at least one name")
    kinds = bot_kinds(bots)
    n = max(players, len(people))
    seats = [{"name": p, "bot": None} for p in people] + [
        {"name": f"P{i + 1}-{kinds[i % len(kinds)]}", "bot": kinds[i % len(kinds)]}
        for i in range(n - len(people))]
    return GameSetup(ruleset, variants, overrides, course,
                     secrets.randbelow(1_000_000) if seed is None else seed, seats,
                     house=house)


def _loop(game: Game, draw: Callable[[RaceState], None] | None) -> None:
    shown = 0
    while not game.state.over:
        state = game.state
        c = state.turn
        if not game.is_human(c):
            game.step_bot()
        elif game.needs_pass():
            _pass_screen(state.game.names[c])
            game.reveal()
            continue
        else:
            if draw is not None:
                draw(state)
            if not game.skip_if_forced():
                _ask(game)
        shown = _echo_log(game, shown)


def _echo_log(game: Game, shown: int) -> int:
    for turn in game.log[shown:]:
        for text in turn["events"]:
            typer.echo(text)
    return len(game.log)


def _clear() -> None:
    """Clear a terminal screen (nothing when the output is not a terminal)."""
    if sys.stdout.isatty():
        sys.stdout.write("\033[2J\033[3J\033[H")
        sys.stdout.flush()


def _pass_screen(name: str) -> None:
    _clear()  # the previous hand leaves the screen (on a terminal)
    typer.echo("\n" * 3 + "=" * 60)
    typer.prompt(f"pass to {name} — press Enter", default="", show_default=False,
                 prompt_suffix=" ")
    _clear()


def _ask(game: Game) -> None:
    state = game.state
    board = state.game.board
    c = state.turn
    moves = options(state)
    pos = state.pos[c]
    where = f"space {pos} ({board.label[pos]})" if pos is not None else "-"
    typer.echo(f"\n{LETTERS[c]} ({state.game.names[c]}), lap {max(state.lap(c), 0)}, on "
               f"{where}; alley {'done' if state.stopped[c] else 'still to do'}")
    typer.echo("  others: " + ", ".join(
        f"{LETTERS[o]} {state.pos[o]}" for o in state.racing()
        if o != c and state.pos[o] is not None))
    typer.echo(f"  hand: {' '.join(str(x) for x in state.cards(c))}")
    for i, m in enumerate(moves, start=1):
        text = "wait for the alley" if m.card == 0 else (
            f"play {m.card} to space {m.path[-1]} ({board.label[m.path[-1]]})")
        typer.echo(f"  {i:2d}. {text}")
    extra = ", undo" if game.undo else ""
    while True:
        answer = typer.prompt(f"your move (number, or card:space{extra}, save [FILE])").strip()
        if answer == "undo":
            if not game.undo:
                typer.echo("  nothing to undo (or another person has seen their hand)")
                continue
            game.undo_last()
            typer.echo(f"  undone: back to ply {game.state.ply}")
            return
        if answer.split(" ")[0] == "save":
            _save(game, answer[4:].strip())
            continue
        chosen = _parse(answer, moves)
        if isinstance(chosen, Move):
            why = game.move(chosen.card, chosen.path[-1] if chosen.path else None)
            if why is None:
                return
            typer.echo(f"  not allowed: {why}")
            continue
        if chosen is not None:
            why = game.move(*chosen)
            if why is None:
                return
            typer.echo(f"  not allowed: {why}")
            continue
        first = moves[0]
        typer.echo(f"  please answer 1-{len(moves)} or card:space, e.g. "
                   f"{first.card}:{first.path[-1] if first.path else ''}; undo; save FILE")


def _parse(answer: str, moves: list[Move]) -> Move | tuple[int, int] | None:
    if answer.isdigit() and 1 <= int(answer) <= len(moves):
        return moves[int(answer) - 1]
    card, sep, target = answer.partition(":")
    if sep and card.isdigit() and target.isdigit():
        return int(card), int(target)
    return None


def _save(game: Game, name: str) -> None:
    if name:
        game.path = Path(name)
    elif game.path is None:
        game.path = Path(f"avecaesar-play-{time.strftime('%Y%m%d-%H%M%S')}.jsonl")
    try:
        game.write()
    except OSError as err:
        typer.echo(f"  cannot save to {game.path}: {err.strerror}")
        return
    typer.echo(f"  saved to {game.path} (continue with --resume {game.path}); from now on "
               "every turn is written there")


def _result(game: Game) -> None:
    game.write()
    for line in result_lines(outcome(game.state)):
        typer.echo(line)
    if game.path is not None:
        typer.echo(f"record written to {game.path}")
