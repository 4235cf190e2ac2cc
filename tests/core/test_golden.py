"""Golden playthroughs: replay each recorded race and compare every legal-move count, every
decision and the final ranking (regenerate with tests/core/regen_golden.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from avecaesar.engine.core.race import outcome
from avecaesar.engine.core.record import read_record, replay

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.jsonl"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_playthrough(path, rules_of, oval):
    lines = read_record(path)
    edition = lines[0]["ruleset"]
    final = replay(lines, rules_of(edition), oval, str(path))
    last = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
    assert final.notation() == last["final"]
    assert outcome(final).to_json()["placings"] == last["placings"]


def test_there_is_a_golden_playthrough_per_edition_and_player_count():
    names = {p.stem for p in GOLDEN}
    for edition in ("dicetree-2022", "ravensburger-1989", "pro-ludo-2006"):
        for n in range(2, 7):
            assert f"{edition}-{n}p" in names
