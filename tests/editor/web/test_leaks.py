"""No hand leaks, by test: a CI-sized slice of the leak audit (bench/bench_leaks.py runs it
over 10,000 turns). Whole races at tables with people, bots, a host and a spectator; every
response to every token is checked (tests/editor/web/leak_audit.py)."""

from __future__ import annotations

import pytest

from .leak_audit import run


@pytest.mark.covers("page:play", "page:replay")
def test_no_response_holds_another_seats_cards(tmp_path) -> None:
    audit = run(tmp_path, turns=150, seed=3)
    assert audit.turns >= 150 and audit.races >= 2
    assert audit.pushes >= audit.turns and audit.responses >= 3 * audit.turns
    assert audit.refused > 0 and audit.records > 0  # wrong tokens tried, records audited
    assert audit.undos > 0  # moves chosen, seen by every device and taken back
