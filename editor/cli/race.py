"""``avecaesar race`` and ``avecaesar replay``: run a race with bots, print its log, re-check
a record."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from avecaesar.editor.cli.common import (
    BudgetOpt,
    HouseOpt,
    LangOpt,
    check_names,
    check_players,
    echo_json,
    house_rules,
    players_language,
    rule_settings,
    seat_bots,
)
from avecaesar.editor.cli.complete import (
    complete_bots,
    complete_course,
    complete_ruleset,
    complete_variant,
)
from avecaesar.editor.table.messages import say
from avecaesar.engine.bots.registry import POLICIES
from avecaesar.engine.data.errors import UsageError
from avecaesar.engine.data.safeio import check_output, write_atomic

if TYPE_CHECKING:
    from avecaesar.engine.core.race import RaceRun
    from avecaesar.engine.core.race_setup import RaceSetup
    from avecaesar.engine.core.state import RaceState

# The engine is imported by the commands when they run, not when the app is built:
# `avecaesar --help` answers at once (docs/performance.md).


__all__ = ["play", "race", "replay_cmd"]


def race(
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Ruleset id or file.",
                                         autocompletion=complete_ruleset)],
    course: Annotated[str, typer.Option("--course", "-c", help="Course id or file.",
                                        autocompletion=complete_course)],
    players: Annotated[int, typer.Option("--players", "-n", help="Number of chariots.")] = 4,
    variant: Annotated[list[str] | None, typer.Option("--variant", "-v",
                                                      autocompletion=complete_variant,
                                                      help="Variant to apply (repeat).")] = None,
    setting: Annotated[list[str] | None, typer.Option("--set",
                                                      help="Rule value key=value.")] = None,
    bots: Annotated[str, typer.Option(autocompletion=complete_bots,
                                      help="Bots per seat, comma-separated, cycled: "
                                      + ", ".join(POLICIES))] = "greedy",
    seed: Annotated[int, typer.Option(help="Seed of the race's random generator.")] = 1,
    record: Annotated[Path | None, typer.Option(help="Write the game record (JSONL).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    house: HouseOpt = None,
    lang: LangOpt = None,
    bot_budget: BudgetOpt = None,
) -> None:
    """Run a race with bots: print a readable log and the result.

    Example: avecaesar race --ruleset dicetree-2022 --course dicetree-2022/arena-carthago
    --players 4 --bots search,greedy --seed 7 --record game.jsonl
    """
    with players_language(lang):
        _race(ruleset, course, players, variant or [], rule_settings(setting), bots, seed,
              record, as_json, house, bot_budget)


def _race(ruleset: str, course: str, players: int, variants: list[str],
          overrides: dict[str, str], bots: str, seed: int, record: Path | None,
          as_json: bool, house_file: Path | None = None,
          budget: int | None = None) -> None:
    from avecaesar.editor.render.event_text import describe
    from avecaesar.engine.bots.registry import OWNERLESS
    from avecaesar.engine.core.race import run_race
    from avecaesar.engine.core.race_setup import ChosenRules, Seat
    from avecaesar.engine.core.record import record_lines, write_record
    from avecaesar.engine.core.state import LETTERS

    check_output(record, "--record")
    chosen = ChosenRules.compose(ruleset, variants, overrides, house_rules(house_file))
    setup = chosen.on(course)
    check_players(setup, players)
    names, kinds, policies = seat_bots(bots, players, seed, budget)
    setup = setup.for_race(seats=[Seat(n, k) for n, k in zip(names, kinds, strict=True)],
                           seed=seed, bot_budget=budget)
    run = run_race(setup.race_rules, setup.board, names, policies, seed, ownerless=OWNERLESS)
    if as_json:
        if record is not None:
            write_record(record, record_lines(run, setup.header()))
        echo_json({"seed": seed, "turns": len(run.turns), **run.outcome.to_json(),
                   "final": run.state.notation()})
        return
    game = run.state.game
    typer.echo(say("race_start", course=setup.board.id, ruleset=ruleset, seed=seed,
                   order=", ".join(f"{LETTERS[i]}={n}" for i, n in enumerate(game.names))))
    for i, t in enumerate(run.turns, start=1):
        for e in t["events"]:
            text = describe(game, e)
            typer.echo(f"{i:4d} {text}" if not text.startswith(" ") else f"     {text}")
    _result(run, setup, record)


def play(
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Ruleset id or file.",
                                         autocompletion=complete_ruleset)] = "",
    course: Annotated[str, typer.Option("--course", "-c", help="Course id or file.",
                                        autocompletion=complete_course)] = "",
    humans: Annotated[str, typer.Option(help="Names of the people, comma-separated.")] = "",
    players: Annotated[int, typer.Option("--players", "-n",
                                         help="Chariots driven by people and bots.")] = 2,
    variant: Annotated[list[str] | None, typer.Option("--variant", "-v",
                                                      autocompletion=complete_variant,
                                                      help="Variant to apply (repeat).")] = None,
    setting: Annotated[list[str] | None, typer.Option("--set",
                                                      help="Rule value key=value.")] = None,
    bots: Annotated[str, typer.Option(autocompletion=complete_bots,
                                      help="Bots for the other seats, cycled.")] = "greedy",
    seed: Annotated[int | None, typer.Option(
        help="Seed of the race's random generator (default: a random one, printed).")
    ] = None,
    record: Annotated[Path | None, typer.Option(
        help="Write the game record (JSONL), rewritten after every turn.")] = None,
    board_svg: Annotated[Path | None, typer.Option(
        "--board", help="Keep this SVG of the board up to date: redrawn with the chariots "
        "before each person's turn and at the end (open it in a browser and reload).")
    ] = None,
    resume: Annotated[Path | None, typer.Option(
        help="Continue the game of this record (saved, or kept when the game stopped).")
    ] = None,
    house: HouseOpt = None,
    lang: LangOpt = None,
) -> None:
    """Race at one terminal: people choose their moves, bots drive the other seats.

    Answer a move's number or card:space, then Enter to end the turn (the card is drawn) or
    'undo' to choose again; 'save [FILE]' keeps the record. Between two people a "pass to
    NAME" screen hides the previous hand, and without --seed their deal is drawn in secret
    (its commitment shown; the seed comes at the end). Ctrl-C keeps the record.

    Example: avecaesar play -r dicetree-2022 -c dicetree-2022/arena-carthago --humans Anna,Ben
    --players 4 --bots greedy,search
    """
    with players_language(lang):
        _play(ruleset, course, humans, players, variant or [], rule_settings(setting), bots,
              seed, record, board_svg, resume, house)


def board_writer(course: str, path: Path) -> Callable[[RaceState], None]:
    """A function that draws the course with the chariots on it (letters, one colour each)
    as an SVG at ``path``."""
    from avecaesar.editor.render.board import board_svg
    from avecaesar.engine.core.state import LETTERS
    from avecaesar.engine.course.load import load_course

    graph = load_course(course).graph
    name = graph.graph.get("name", "")

    def write(state: RaceState) -> None:
        on = {p: LETTERS[c] for c, p in enumerate(state.pos)
              if p is not None and p in graph}
        who = "race over" if state.over else f"{LETTERS[state.turn]} to move"
        title = f"{name} — turn {state.ply}, {who}"
        write_atomic(path, board_svg(graph, title=title, chariots=on).encode("utf-8"))

    return write


def _play(ruleset: str, course: str, humans: str, players: int, variants: list[str],
          overrides: dict[str, str], bots: str, seed: int | None, record: Path | None,
          board_svg: Path | None = None, resume: Path | None = None,
          house_file: Path | None = None) -> None:
    from avecaesar.editor.cli.ask_open import with_answers
    from avecaesar.editor.cli.play_session import run_play
    from avecaesar.engine.core.race import ownerless_count
    from avecaesar.engine.core.race_setup import ChosenRules
    from avecaesar.engine.core.record import read_record

    check_output(record, "--record")
    check_output(board_svg, "--board")
    house = house_rules(house_file)
    setup: RaceSetup | None = None
    if resume is None:
        if not (ruleset and course and humans):
            raise UsageError("give --ruleset, --course and --humans (or --resume FILE)")
        people = [h.strip() for h in humans.split(",") if h.strip()]
        if not people:
            raise UsageError("--humans: give 1 or more names, comma-separated")
        check_names("--humans", people)
        chariots_of = max(players, len(people))

        def build(answers: dict[str, dict[str, Any]] | None) -> RaceSetup:
            found = ChosenRules.compose(ruleset, variants, overrides, answers).on(course)
            check_players(found, chariots_of)
            rules = found.race_rules
            chariots = chariots_of * rules.chariots_for(chariots_of)
            if rules.ownerless is not None and ownerless_count(rules, found.board, chariots):
                rules.ownerless.check()  # the open values of the chariots nobody drives
            return found

        setup, _house = with_answers(build, house)
    else:
        course = str(read_record(resume)[0]["course"])
    draw = board_writer(course, board_svg) if board_svg is not None else None
    run_play(setup, humans, players, bots, seed, record, draw, resume)
    if board_svg is not None:
        typer.echo(f"board drawn to {board_svg}")


def _result(run: RaceRun, setup: RaceSetup, record: Path | None,
            board_svg: Path | None = None) -> None:
    from avecaesar.editor.render.event_text import result_lines
    from avecaesar.engine.core.record import record_lines, write_record

    if record is not None:
        write_record(record, record_lines(run, setup.header()))
    for line in result_lines(run.outcome):
        typer.echo(line)
    if record is not None:
        typer.echo(say("record_written", file=record))
    if board_svg is not None:
        typer.echo(f"board drawn to {board_svg}")


def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A game record (.jsonl).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    html: Annotated[Path | None, typer.Option(
        "--html", help="Also write the replay viewer as one self-contained HTML file.")
    ] = None,
    partial: Annotated[bool, typer.Option(
        "--partial", help="Accept a race in progress (a saved game): no result line "
        "needed.")] = False,
    max_bytes: Annotated[int | None, typer.Option(
        "--max-bytes", min=1, help="Refuse records larger than this (default 20 MB, or "
        "AVECAESAR_MAX_RECORD_BYTES).")] = None,
    course: Annotated[str | None, typer.Option(
        "--course", "-c", help="Re-check the moves on this course (id or file) instead of "
        "the one the header names.")] = None,
    verify: Annotated[bool, typer.Option(
        "--verify", help="Also check the deal of a dealt race (the web table's, a table of "
        "people): the seed and nonce the finished record reveals hash, with its header, to "
        "the commitment every device was shown at the start.")] = False,
    lang: LangOpt = None,
) -> None:
    """Re-check every move of a game record; report the first illegal one with its line.

    Strict: the header first and once, the names and seats as replayed, every ply in
    order, and a result line whose every field matches the replayed result (exit 1
    otherwise). The header's hashes of the course, rules and house rules are compared with
    the files given: when one differs, every move is still re-checked against the files
    given, and replay says so (exit 1, unless --course names the course to use).

    With --verify, a dealt race's commitment is checked too (exit 1 when it does not match,
    when the record is practice or has no deal).

    Example: avecaesar replay game.jsonl --html game.html
    """
    check_output(html, "--html")
    with players_language(lang):
        _replay(file, as_json, partial, max_bytes, course, verify)
        if html is not None:
            _replay_html(file, html)


def _replay_html(file: Path, out: Path) -> None:
    from avecaesar.editor.render.replay_page import write_replay_html

    write_replay_html(file, out)
    typer.echo(say("replay_html_written", file=out))


def _replay(file: Path, as_json: bool, partial: bool, max_bytes: int | None,
            course: str | None = None, verify: bool = False) -> None:
    from avecaesar.editor.render.event_text import termination_word
    from avecaesar.engine.core.race import outcome
    from avecaesar.engine.core.record import read_record, replay, setup_from_header, verify_deal
    from avecaesar.engine.core.state import LETTERS

    lines = read_record(file, max_bytes)
    head = lines[0]
    checked = verify_deal(head, str(file)) if verify else None  # a RecordError: exit 1
    setup, differs = setup_from_header(head, str(file), course)
    state = replay(lines, setup.race_rules, setup.board, str(file), partial=partial)
    result = outcome(state)
    turns = sum(1 for line in lines if line["type"] not in ("header", "result"))
    running = not state.over
    # with --course the user chose the course: a difference there is what they asked for
    failing = [k for k in differs if not (k == "course" and course is not None)]
    if as_json:
        echo_json({"ok": not failing, "turns": turns, "in_progress": running,
                   "differs": differs, **result.to_json(),
                   **({"deal": checked} if checked else {})})
        if failing:
            raise typer.Exit(1)
        return
    for k in differs:
        typer.echo(say("replay_differs", level=say("replay_error" if k in failing
                                                   else "replay_note"),
                       where=f"{file}:{head['_line']}", what=say(f"differs_{k}"),
                       against=say("differs_kinds_why" if k == "kinds"
                                   else "differs_played_on")), err=True)
    if running:
        typer.echo(say("replay_partial", file=file, turns=turns, letter=LETTERS[state.turn]))
        if failing:
            raise typer.Exit(1)
        return
    typer.echo(say("replay_done", file=file, turns=turns,
                   termination=termination_word(str(result.termination))))
    if checked:
        typer.echo(say("replay_verified", file=file, checked=checked))
    if failing:
        raise typer.Exit(1)
