"""The ``avecaesar`` typer app: one typer app per command group, joined here (the console
entry point, with its light paths, is editor/cli.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from avecaesar.editor import (
    course_cli,
    race_cli,
    ruleset_cli,
    serve_cli,
    simulate_cli,
    tournament_cli,
)
from avecaesar.editor.common import harden
from avecaesar.editor.version import show_version

app = typer.Typer(
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # plain help and usage errors: rich's formatting costs ~0.2 s of start-up per --help
    # (docs/performance.md, "CLI start-up"); the sub-apps say the same
    rich_markup_mode=None,
    help="Ave Caesar: validate and render courses, compare rulesets, race.",
)


@app.callback()
def _options(
    allow_path: Annotated[list[Path] | None, typer.Option(
        "--allow-path", help="A folder that course includes and record headers may also "
        "read from (repeat); by default only the course's own folder tree and the bundled "
        "data.")] = None,
    _version: Annotated[bool, typer.Option(
        "--version", callback=show_version, is_eager=True,
        help="Print the version and exit.")] = False,
) -> None:
    """Ave Caesar: validate and render courses, compare rulesets, race, and serve the
    table in the browser (avecaesar serve)."""
    from avecaesar.engine.data.safeio import allow_paths

    allow_paths(allow_path or [])


app.add_typer(course_cli.app, name="course")
app.add_typer(ruleset_cli.app, name="ruleset")
race_cli.register(app)  # race, replay
app.command("simulate")(simulate_cli.simulate_cmd)
tournament_cli.register(app)  # tournament
app.command("serve")(serve_cli.serve)


harden(app)  # every command above and any added later in this file: one error boundary
