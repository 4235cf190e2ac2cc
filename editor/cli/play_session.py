"""``avecaesar play`` at one terminal: people and bots around one keyboard.

A random seed unless one is given (printed, so the race can be repeated) — except for a
table of several people without ``--seed``: their deal is drawn in secret and only a
commitment to it is shown (the seed and nonce come with the end, and ``replay --verify``
checks them). Each person's turn screen keeps what everyone at the table may see — the seed
line, the moves since their last turn (the bots' too), every chariot's space, lap, alley
stop and points left against its shortest way home — and below it their hand, card by card:
the numbered moves, or why a card has none (the rule's reason and citation). A chosen move
waits (pending, nothing drawn: ``undo`` chooses again) until Enter ends the turn and draws
the card; after that there is no undo (table/game.py, "The turn"). Between two people a
pass screen clears only the hand (the public part is drawn again) and waits for Enter.
``save [FILE]`` keeps the record, which is then rewritten after every turn. Ctrl-C exits
130 and the end of input 1, both keeping the record (``--resume FILE`` continues it).
"""

from __future__ import annotations

import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path

import typer

from avecaesar.editor.cli.common import bot_kinds
from avecaesar.editor.cli.play_screen import hand_screen, short_chariots, table_screen
from avecaesar.editor.cli.signals import stopped_by
from avecaesar.editor.render.event_text import result_lines, space_name
from avecaesar.editor.table.choices import options
from avecaesar.editor.table.game import Game
from avecaesar.editor.table.messages import say
from avecaesar.engine.core.race import outcome
from avecaesar.engine.core.race_setup import RaceSetup, Seat
from avecaesar.engine.core.state import LETTERS, Move, RaceState
from avecaesar.engine.data.errors import AveCaesarError

__all__ = ["run_play"]


def run_play(setup: RaceSetup | None, humans: str, players: int, bots: str,
             seed: int | None, record: Path | None,
             draw: Callable[[RaceState], None] | None, resume: Path | None) -> None:
    """Seat the people and bots on ``setup`` (the rules on the course) and run the race to
    its end at the terminal; or resume the record ``resume`` (``setup`` None)."""
    if setup is None:
        if resume is None:
            raise AveCaesarError("give the race's setup or a record to resume")
        game = Game.resume(resume)
        if record is not None and record != resume:
            game.path = record
            game.write()
        elif record is None:
            game.path = resume
        typer.echo(say("resuming", file=resume, turns=len(game.turns)))
    else:
        seated = _seated(setup, humans, players, bots, seed)
        people = sum(1 for p in seated.seats if p.bot is None)
        game = Game.new(seated, record,
                        deal="server" if seed is None and people > 1 else None)
    state = game.state
    s = game.setup
    order = ", ".join(f"{LETTERS[i]}={n}" for i, n in enumerate(state.game.names))
    if _dealt(game):
        assert game.deal is not None
        typer.echo(say("start_line_dealt", course=state.game.board.id,
                       ruleset=s.rules.ruleset, commitment=game.deal["commitment"],
                       order=order))
    else:
        typer.echo(say("start_line", course=state.game.board.id, ruleset=s.rules.ruleset,
                       seed=s.seed, order=order))
    table = _Table(game, draw)
    try:
        table.run()
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM or SIGHUP (editor/cli/signals.py)
        name, code = stopped_by()
        _keep(game, always=True)  # (atomic: a second signal leaves the last turn's record)
        how = say("ctrl_c") if name == "Ctrl-C" else name
        typer.echo(say("interrupted_kept", file=game.path, signal=how), err=True)
        raise typer.Exit(code) from None
    except EOFError:
        if not _keep(game, always=sys.stdin.isatty()):  # Ctrl-D at a terminal: a person
            raise AveCaesarError(say("ended_lost")) from None
        raise AveCaesarError(say("ended_kept", file=game.path)) from None
    if draw is not None:
        draw(game.state)
    _result(game)


def _dealt(game: Game) -> bool:
    """The deal was drawn in secret (its seed shown only at the end)."""
    return game.deal is not None and game.deal.get("by") == "server"


def _keep(game: Game, always: bool) -> bool:
    """Write the record; without a file, into a new one in the working folder when
    ``always``. False: nothing was written."""
    if game.path is None and always:
        game.path = Path(f"avecaesar-play-{time.strftime('%Y%m%d-%H%M%S')}.jsonl")
    if game.path is None:
        return False
    game.write()
    return True


def _read(text: str, default: str | None = None) -> str:
    """One answer typed at the terminal; Ctrl-C raises KeyboardInterrupt and the end of
    input EOFError (click's prompt turns both into Abort)."""
    try:
        answer: str = typer.prompt(text, default=default, show_default=False,
                                   prompt_suffix=" " if default is not None else ": ")
    except typer.Abort as err:
        if isinstance(err.__context__, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        raise EOFError from None
    return answer.strip()


def _seated(setup: RaceSetup, humans: str, players: int, bots: str, seed: int | None
            ) -> RaceSetup:
    people = [h.strip() for h in humans.split(",") if h.strip()]
    if not people:
        raise AveCaesarError("--humans: give at least one name")
    kinds = bot_kinds(bots)
    n = max(players, len(people))
    seats = [Seat(p) for p in people] + [
        Seat(f"P{i + 1}-{kinds[i % len(kinds)]}", kinds[i % len(kinds)])
        for i in range(n - len(people))]
    drawn = secrets.randbelow(2**53 if len(people) > 1 else 1_000_000)  # several: secret
    return setup.for_race(seats=seats, seed=drawn if seed is None else seed)


class _Table:
    """The turns at one terminal: whose screen shows what, and when it is cleared."""

    def __init__(self, game: Game, draw: Callable[[RaceState], None] | None) -> None:
        self.game = game
        self.draw = draw
        self.seen: dict[int, int] = {}  # seat → log entries shown on its last turn screen
        self.passed = len(game.log)  # log entries shown on the last pass screen
        self.shared = game.humans > 1

    def run(self) -> None:
        game = self.game
        while not game.state.over:
            c = game.state.turn
            if not game.is_human(c):
                game.step_bot()
            elif game.needs_pass():
                self._pass_screen(game.state.game.names[c])
            elif not game.skip_if_forced():
                self._turn_screen()
        _clear(self.shared)
        for line in table_screen(game, self._since(), say("last_moves")):
            typer.echo(line)

    def _since(self) -> int:
        """The first log entry not yet on a screen of the person to move (or anyone's)."""
        if self.game.state.over:
            return min(self.passed, *self.seen.values()) if self.seen else 0
        return self.seen.get(self.game.owner[self.game.state.turn], 0)

    def _pass_screen(self, name: str) -> None:
        """Between two people: the hand leaves the screen, the public part stays; Enter
        shows the next hand. (The last move was confirmed, its card drawn: no undo.)"""
        game = self.game
        _clear(True)
        for line in table_screen(game, self.passed, say("last_moves")):
            typer.echo(line)
        _read(say("pass_to", name=name), default="")
        self.passed = len(game.log)
        game.reveal()
        _clear(True)

    def _turn_screen(self) -> None:
        game = self.game
        if self.draw is not None:
            self.draw(game.state)
        seat = game.owner[game.state.turn]
        since = self.seen.get(seat, 0)
        for line in table_screen(game, since, say("since_your_turn")):
            typer.echo(line)
        short = short_chariots(game)
        if short:
            typer.echo(say("short_alert", letters=", ".join(short)))
        for line in hand_screen(game):
            typer.echo(line)
        _ask(game)
        self.seen[seat] = len(game.log)
        if not self.shared:
            self.passed = len(game.log)


def _clear(shared: bool) -> None:
    """Clear a terminal screen at a table of several people (nothing when the output is not
    a terminal: a pipe keeps everything)."""
    if shared and sys.stdout.isatty():
        sys.stdout.write("\033[2J\033[3J\033[H")
        sys.stdout.flush()


def _ask(game: Game) -> None:
    """Ask the person to move until they have chosen a move and ended their turn with it
    (Enter: the move is played and its card drawn); ``undo`` before that chooses again."""
    moves = options(game.state)
    while True:
        answer = _read(say("ask_move", undo=""))
        if answer == "undo":
            typer.echo("  " + say("nothing_to_undo"))
            continue
        if answer.split(" ")[0] == "save":
            _save(game, answer[4:].strip())
            continue
        chosen = _parse(answer, moves)
        if chosen is None:
            first = next((m for m in moves if m.card), None)
            example = f"{first.card}:{first.path[-1]}" if first is not None else "1"
            typer.echo(say("answer_help", n=len(moves), example=example))
            continue
        if isinstance(chosen, Move):
            why = game.move(chosen.card, chosen.path[-1] if chosen.path else None)
        else:
            why = game.move(*chosen)
        if why is not None:
            typer.echo(say("not_allowed", why=why))
            continue
        if _confirm(game):
            return


def _confirm(game: Game) -> bool:
    """The pending move: Enter plays it (True), ``undo`` takes it back (False)."""
    p = game.pending
    assert p is not None
    board = game.state.game.board
    move = say("wait_alley") if p.move.card == 0 else say(
        "play_to", card=p.move.card, space=space_name(board, p.move.path[-1]))
    answer = _read(say("confirm_move", move=move), default="")
    if answer == "undo":
        game.take_back()
        typer.echo(say("taken_back"))
        return False
    game.confirm()
    return True


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
        typer.echo(say("cannot_save", file=game.path, why=err.strerror))
        return
    typer.echo(say("saved", file=game.path))


def _result(game: Game) -> None:
    game.write()
    for line in result_lines(outcome(game.state)):
        typer.echo(line)
    if _dealt(game):
        assert game.deal is not None
        typer.echo(say("deal_revealed", seed=game.setup.seed, nonce=game.deal["nonce"],
                       commitment=game.deal["commitment"][:16]))
    if game.path is not None:
        typer.echo(say("record_written", file=game.path))
