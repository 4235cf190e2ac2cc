"""Step-count vectors (perft-style): position → number of legal moves, one file per edition."""

from __future__ import annotations

from pathlib import Path

import pytest

VECTORS = Path(__file__).parent / "vectors"
CASES = [(f.stem, n, line) for f in sorted(VECTORS.glob("*.txt"))
         for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), start=1)
         if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize("edition, lineno, line", CASES,
                         ids=[f"{e}:{n}" for e, n, _ in CASES])
def test_step_counts(edition, lineno, line, position):
    count, text, note = (x.strip() for x in line.split(";", 2))
    s = position(edition, text)
    moves = s.legal_moves()
    assert len(moves) == int(count), f"{edition}.txt:{lineno}: {note}: {list(moves)}"
    assert bool(moves) == (int(count) > 0)
    assert all(m in moves for m in moves)
