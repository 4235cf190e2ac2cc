"""``avecaesar --version``."""

from __future__ import annotations

import typer

__all__ = ["show_version"]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("avecaesar")
    except PackageNotFoundError:
        return "unknown (not installed)"


def show_version(value: bool) -> None:
    """The eager ``--version`` option's callback: print the version and exit."""
    if value:
        typer.echo(f"avecaesar {_version()}")
        raise typer.Exit(0)
