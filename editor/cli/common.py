"""What every command shares: turning the project's errors into messages and exit codes.

Exit codes: 0 valid / done; 1 problems in a valid input (a course with problems, a course
that cannot be finished, an illegal move in a record); 2 usage (unknown ids, bad option
values, missing files or folders — typer's own usage errors are 2 too); 128 + N stopped by
signal N (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP: editor/cli/signals.py). The one table is in
docs/architecture.md ("Exit codes").

:func:`harden` wraps every command of the app in :func:`handles_errors`, so a command added
anywhere gets the same boundary: option parsing, ``--set``, file reading and output writing
all run inside it, and no user's mistake ends in a traceback.
"""

from __future__ import annotations

import contextlib
import functools
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from avecaesar.editor.cli.complete import complete_variant
from avecaesar.editor.cli.signals import stopped_by, stopping_like_ctrl_c
from avecaesar.engine.data.errors import AveCaesarError, InputError, UsageError
from avecaesar.engine.data.shown import escaped, is_plain

if TYPE_CHECKING:
    from avecaesar.engine.core.board import Board
    from avecaesar.engine.core.race_setup import RaceSetup
    from avecaesar.engine.core.ruleset_adapter import RaceRules

__all__ = ["bot_kinds", "echo_json", "fail", "handles_errors", "harden", "rule_settings",
           "seat_bots"]

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print ``message`` to stderr and return the Exit to raise."""
    typer.echo(message, err=True)
    return typer.Exit(code)


def handles_errors(func: F) -> F:
    """Wrap a command: a user's mistake becomes its message on stderr and its exit code
    (``err.exit_code``: 1 for problems in an input, 2 for usage), never a traceback."""
    if getattr(func, "_handles_errors", False):
        return func

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            with stopping_like_ctrl_c():
                return func(*args, **kwargs)
        except InputError as err:
            for p in err.problems:
                typer.echo(str(p), err=True)
            raise typer.Exit(err.exit_code) from None
        except AveCaesarError as err:
            raise fail(f"error: {err}", err.exit_code) from None
        except BrokenPipeError:  # `avecaesar … | head`
            sys.stderr.close()
            raise typer.Exit(0) from None
        except KeyboardInterrupt:  # Ctrl-C, SIGTERM or SIGHUP
            name, code = stopped_by()
            raise fail(f"interrupted ({name}): stopped; no output was half-written", code
                       ) from None
        except RecursionError:
            raise fail("error: the input is nested too deeply to read", 1) from None
        except OSError as err:  # a disk full, a permission refused while writing, …
            where = f" {err.filename}:" if err.filename else ""
            raise fail(f"error:{where} {err.strerror or err}", 2) from None

    wrapper._handles_errors = True  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


def harden(app: typer.Typer) -> typer.Typer:
    """Wrap every command of ``app`` and of its sub-apps in :func:`handles_errors`
    (call it once, after every command is registered)."""
    for info in app.registered_commands:
        if info.callback is not None:
            info.callback = handles_errors(info.callback)
    cb = app.registered_callback
    if cb is not None and cb.callback is not None:
        cb.callback = handles_errors(cb.callback)
    for group in app.registered_groups:
        if group.typer_instance is not None:
            harden(group.typer_instance)
    return app


def echo_json(value: object) -> None:
    """Print one JSON document on stdout."""
    typer.echo(json.dumps(value, indent=2, ensure_ascii=False))


def rule_settings(texts: list[str] | None) -> dict[str, str]:
    """``--set KEY=VALUE`` options as a mapping; each key and value is checked early against
    the ruleset schema (an unknown key gets "did you mean")."""
    out: dict[str, str] = {}
    if not texts:
        return out  # nothing to check: the ruleset library is not loaded (start-up)
    from avecaesar.engine.ruleset.compose import parse_override

    for text in texts:
        key, _value = parse_override(text)
        out[key] = text.partition("=")[2].strip()
    return out


VariantOpt = Annotated[list[str] | None, typer.Option("--variant", "-v",
                                                      autocompletion=complete_variant,
                                                      help="Variant (repeat).")]
SetOpt = Annotated[list[str] | None, typer.Option("--set", help="key=value.")]
SeedOpt = Annotated[int, typer.Option(help="Seed; each race's seed derives from it.")]
WorkersOpt = Annotated[int, typer.Option(help="Processes (0: all cores).", min=0)]
ClusterOpt = Annotated[str | None, typer.Option(help="Run on a Dask cluster: the scheduler's "
                                                "address (tcp://host:8786). Needs the "
                                                "'dask' extra.")]
QuietOpt = Annotated[bool, typer.Option(help="No progress bar.")]


def check_workers(workers: int) -> int:
    """``--workers N`` within the limit; the number of processes it means (0: every core)."""
    import os

    from avecaesar.engine.data.limits import max_workers

    if workers > max_workers():
        raise UsageError(f"--workers {workers}: at most {max_workers()} (4 per core; "
                         "0 uses every core)")
    return workers or os.cpu_count() or 1


def check_counts(races: Sequence[tuple[str, int]] = (), least: int = 1) -> None:
    """Each ``(option, races)`` from ``least`` to the races limit. (The number of players is
    checked once the rules are composed, by the one function that says which counts they
    allow: :func:`check_players`.)"""
    from avecaesar.engine.data.limits import MAX_RACES

    for name, n in races:
        if not least <= n <= MAX_RACES:
            raise UsageError(f"{name} {n}: give {least} to {MAX_RACES:,} races")


BudgetOpt = Annotated[int | None, typer.Option(
    "--bot-budget", min=1, help="Budget per decision of the bots that take one (expert: "
                                "rollouts per decision at most, its candidates racing for "
                                "them; more plays stronger and slower).")]

HouseOpt = Annotated[Path | None, typer.Option(
    "--house", help="A house-rules file (rules: with group.key: value lines): your group's "
                    "answers to the open values, applied after the variants.")]


LangOpt = Annotated[str | None, typer.Option(
    "--lang", metavar="en|de", help="The players' language: en or de, the catalog's "
    "languages (default: AVECAESAR_LANG, else the locale, LANG; English when neither names "
    "one of these). Another value exits 2 listing them.")]


def players_language(lang: str | None) -> contextlib.AbstractContextManager[None]:
    """The block's language: ``--lang`` checked against the catalog (exit 2 listing its
    languages), else the environment's (editor/render/lang.py ``choose``)."""
    from avecaesar.editor.render.lang import asked, choose, language

    return language(asked(lang) if lang else choose())


def house_rules(path: Path | str | None) -> dict[str, dict[str, Any]] | None:
    """``--house FILE``: the file's rules (dotted key → rule), or None without the option."""
    if path is None:
        return None
    from avecaesar.engine.ruleset.house import load_house

    return load_house(path)


def check_names(option: str, names: Sequence[str]) -> None:
    """Refuse a player's name with a control, format or line-breaking character (exit 2),
    showing it escaped."""
    for name in names:
        if not is_plain(name):
            raise UsageError(f"{option}: the name '{escaped(name)}' holds a control or "
                             "direction character — give names of letters, digits, spaces "
                             "and punctuation")


def bot_kinds(bots: str) -> list[str]:
    """``--bots greedy,search`` as a list of known bot names (an unknown one is an error
    with "did you mean"); ``all`` stands for every registered bot, in registry order."""
    from avecaesar.engine.bots.registry import POLICIES
    from avecaesar.engine.data.suggest import did_you_mean

    kinds = [b.strip() for b in bots.split(",") if b.strip()]
    if not kinds and bots.strip():  # ",,,": commas and no name (empty: the default)
        raise UsageError(f"--bots {bots!r}: no bot named — give bot names separated by "
                         f"commas, e.g. --bots greedy,search (known: {', '.join(POLICIES)})")
    kinds = kinds or ["greedy"]
    kinds = [k for b in kinds for k in (POLICIES if b == "all" else (b,))]
    for k in kinds:
        if k not in POLICIES:
            raise UsageError(f"unknown bot {k!r}{did_you_mean(k, POLICIES)}; known: "
                                 f"{', '.join(POLICIES)}")
    return kinds


def seat_bots(bots: str, players: int, seed: int, budget: int | None = None
              ) -> tuple[list[str], list[str], list[Any]]:
    """Names (``P1-greedy``, …), bot kinds and policies for ``players`` seats, cycled
    (``budget``: ``--bot-budget``, for the bots that take one)."""
    from avecaesar.engine.bots.registry import make_policy

    kinds = bot_kinds(bots)
    seats = [kinds[i % len(kinds)] for i in range(players)]
    names = [f"P{i + 1}-{k}" for i, k in enumerate(seats)]
    return names, seats, [make_policy(k, seed * 100 + i, budget)
                          for i, k in enumerate(seats)]


def check_players(setup: RaceSetup, players: int) -> int:
    """The number of chariots ``players`` players race with under the setup's rules on its
    course; a number they do not allow is refused in the words of the one function that
    says which they do (engine/core/player_counts.py), with the bundled variants for the
    edition that would allow it."""
    return check_players_on(setup.race_rules, setup.board, players, setup.rules.ruleset,
                            setup.rules.variants, setup.rules.overrides_dict,
                            setup.rules.house)


def check_players_on(rules: RaceRules, board: Board, players: int, ruleset: str,
                     variants: Sequence[str], overrides: dict[str, str] | None = None,
                     house: Any = None) -> int:
    """:func:`check_players` given the rules and board themselves (a simulation's, built
    by the lab's own cache)."""
    from avecaesar.engine.core.race import check_player_count, check_seats

    check_player_count(rules, players, ruleset, variants, board, overrides, house)
    return check_seats(rules, board, players)
