"""The ``avecaesar`` typer app, built from the command registry (editor/commands.py): one
typer app per group, each command's function imported from the module its entry names, and
every command wrapped in the one error boundary (:func:`~avecaesar.editor.cli.common.harden`).
The console entry point, with its light paths, is editor/main.py."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Annotated, Any

import typer

from avecaesar.editor.cli.common import harden
from avecaesar.editor.commands import APP_HELP, COMMANDS, GLOBAL_OPTIONS, GROUPS, Command
from avecaesar.editor.version import show_version

__all__ = ["app", "build_app"]

_OPTION_HELP = {o.flags: o.help for o in GLOBAL_OPTIONS}


def _options(
    allow_path: Annotated[list[Path] | None, typer.Option(
        "--allow-path", metavar="DIR", help=_OPTION_HELP["--allow-path"])] = None,
    _version: Annotated[bool, typer.Option(
        "--version", "-V", callback=show_version, is_eager=True,
        help=_OPTION_HELP["-V, --version"])] = False,
) -> None:
    """Ave Caesar: validate and render courses, compare rulesets, race, and serve the
    table in the browser (avecaesar serve)."""
    from avecaesar.engine.data.safeio import allow_paths

    allow_paths(allow_path or [])


def _function(command: Command) -> Any:
    module, _, attr = command.target.partition(":")
    return getattr(import_module(module), attr)


def _typer(help_text: str) -> typer.Typer:
    # plain help and usage errors: rich's formatting costs ~0.2 s of start-up per --help
    # (docs/performance.md, "CLI start-up")
    return typer.Typer(no_args_is_help=True, pretty_exceptions_enable=False,
                       rich_markup_mode=None, help=help_text)


def build_app() -> typer.Typer:
    """A new typer app with every registered command."""
    top = _typer(APP_HELP)
    top.callback()(_options)
    groups = {g.name: _typer(g.summary) for g in GROUPS}
    for command in COMMANDS:
        *group, name = command.words
        owner = groups[group[0]] if group else top
        owner.command(name, short_help=command.summary)(_function(command))
    for g in GROUPS:
        top.add_typer(groups[g.name], name=g.name)
    return harden(top)


app = build_app()
