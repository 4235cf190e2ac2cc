"""``avecaesar --version``."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

import typer

__all__ = ["add_version_option"]


def _version() -> str:
    try:
        return version("avecaesar")
    except PackageNotFoundError:
        return "unknown (not installed)"


def add_version_option(app: typer.Typer) -> None:
    """Give ``app`` a ``--version`` option that prints the version and exits."""

    def show(value: bool) -> None:
        if value:
            typer.echo(f"avecaesar {_version()}")
            raise typer.Exit(0)

    @app.callback()
    def main(
        version_: bool = typer.Option(False, "--version", callback=show, is_eager=True,
                                      help="Print the version and exit."),
    ) -> None:
        """Ave Caesar: validate and render courses, compare rulesets, race, and serve the
        table in the browser (avecaesar serve)."""
