"""Shared helpers for the ruleset tests."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from avecaesar.editor.app import app


@pytest.fixture
def run():
    """Run ``avecaesar ruleset ARGS`` in-process; returns the typer Result."""
    runner = CliRunner()

    def _run(*args: str):
        return runner.invoke(app, ["ruleset", *args])

    return _run

