"""Step counts made by hand (perft-style): position → number of legal moves, per edition.

The positions and their counts are the published vectors' hand-counted ones
(vectors/suites.yaml, the suites ``<edition>-oval``: ``hand``), on the test oval; here each
count is checked against the engine in both of its flavours (the Makefile's BOTH_FLAVOURS),
and ``avecaesar vectors make`` refuses ever to change one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

SUITES = Path(__file__).resolve().parents[2] / "vectors" / "suites.yaml"
CASES = [(s["ruleset"], n, h["count"], h["position"], h["note"])
         for s in yaml.safe_load(SUITES.read_text(encoding="utf-8"))["suites"]
         if s["course"] == "courses/oval.yaml"
         for n, h in enumerate(s.get("hand", []), start=1)]


def test_every_edition_has_hand_counted_positions():
    assert {e for e, *_ in CASES} == {"dicetree-2022", "pro-ludo-2006", "ravensburger-1989"}
    assert len(CASES) >= 20


@pytest.mark.parametrize("edition, n, count, text, note", CASES,
                         ids=[f"{e}:h{n:02d}" for e, n, *_ in CASES])
def test_step_counts(edition, n, count, text, note, position):
    s = position(edition, text)
    moves = s.legal_moves()
    assert len(moves) == count, f"{edition} h{n:02d}: {note}: {list(moves)}"
    assert bool(moves) == (count > 0)
    assert all(m in moves for m in moves)
