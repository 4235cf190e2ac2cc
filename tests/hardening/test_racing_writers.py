"""The result cache never answers for content it did not read (issue 26): the CI slice of
the racing-writers run (the long run is bench/bench_racing_writers.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("racing_writers",
                                               Path(__file__).with_name("racing_writers.py"))
assert _spec and _spec.loader
racing = importlib.util.module_from_spec(_spec)
sys.modules["racing_writers"] = racing  # its dataclasses look their module up
_spec.loader.exec_module(racing)


def test_racing_writers_never_get_a_wrong_cached_answer(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    tally = racing.run(150, tmp_path, seed=26)
    assert tally.rounds == 150 and tally.flips > 150
    assert tally.wrong == [], f"{len(tally.wrong)} wrong answers: {tally.wrong[:3]}"
