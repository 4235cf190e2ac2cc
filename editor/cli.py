"""The ``avecaesar`` command: one typer app per command group, joined here."""

from __future__ import annotations

import typer

from avecaesar.editor import (
    course_cli,
    race_cli,
    ruleset_cli,
    serve_cli,
    simulate_cli,
    tournament_cli,
    version,
)

app = typer.Typer(
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Ave Caesar: validate and render courses, compare rulesets, race.",
)
app.add_typer(course_cli.app, name="course")
app.add_typer(ruleset_cli.app, name="ruleset")
race_cli.register(app)  # race, replay
app.command("simulate")(simulate_cli.simulate_cmd)
tournament_cli.register(app)  # tournament
app.command("serve")(serve_cli.serve)
version.add_version_option(app)



def main() -> None:
    """Console entry point."""
    app()
