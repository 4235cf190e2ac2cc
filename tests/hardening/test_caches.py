"""Every cache the project keeps follows one rule (issue 26, docs/architecture.md "Caches"):
a value is kept under the digests of the bytes it was computed from, and a file changed
since is read again — the simulations' rules and boards, the web table's board drawings.
(The result cache on disk: test_light_paths.py and test_racing_writers.py.)"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from avecaesar.engine.data.errors import InputError
from avecaesar.engine.lab import simulate as sim

OVAL = Path(__file__).parents[1] / "core" / "courses" / "oval.yaml"


def _longer(path: Path) -> None:
    path.write_text(path.read_text(encoding="utf-8").replace(
        "straight: {name: back-end, length: 4}", "straight: {name: back-end, length: 6}"),
        encoding="utf-8")


def test_a_simulation_reads_a_saved_course_again(tmp_path: Path) -> None:
    course = tmp_path / "oval.yaml"
    shutil.copy(OVAL, course)
    key = ("dicetree-2022", (), (), str(course), "", ())
    _rules, before = sim._setup(key)
    assert sim._setup(key)[1] is before  # unchanged: kept
    _longer(course)
    _rules, after = sim._setup(key)
    assert after is not before and len(after.label) > len(before.label)


def test_a_worker_that_reads_a_changed_file_stops_the_simulation(tmp_path: Path) -> None:
    """A worker that builds its own rules and board (no fork) must read what its parent
    read; a course saved in between is an error naming it, never a mixed report."""
    course = tmp_path / "oval.yaml"
    shutil.copy(OVAL, course)
    key = ("dicetree-2022", (), (), str(course), "", ())
    (_built, reads) = sim._setup_read(key)
    assert sim._setup_as_read(key, reads) is _built
    _longer(course)
    sim._SETUPS.clear()  # a worker of its own (spawned, or on a cluster): nothing kept
    with pytest.raises(InputError, match=r"oval\.yaml:1:1: changed while the simulation ran"):
        sim._setup_as_read(key, reads)


def test_the_board_drawing_is_drawn_again_for_a_saved_course(tmp_path: Path) -> None:
    from avecaesar.editor.render.board_svg import cached_board

    course = tmp_path / "oval.yaml"
    shutil.copy(OVAL, course)
    first = cached_board(str(course))
    assert cached_board(str(course)) is first
    _longer(course)
    assert cached_board(str(course)) != first


def test_a_relative_name_in_another_folder_is_another_file(tmp_path: Path,
                                                          monkeypatch) -> None:
    from avecaesar.engine.data.content_memo import ContentMemo
    from avecaesar.engine.data.safeio import read_text

    memo: ContentMemo[str] = ContentMemo()
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "f.yaml").write_text(name, encoding="utf-8")
    seen = []
    for name in ("a", "b", "a"):
        monkeypatch.chdir(tmp_path / name)
        seen.append(memo.get("f.yaml", lambda: read_text("f.yaml", 10))[0])
    assert seen == ["a", "b", "a"]


def test_the_distance_tables_live_on_the_board_they_derive_from() -> None:
    """The greedy bot's and the view's distances are the board's own tables (issue 34), not
    a module's dictionary keyed by a board's id, which a new board may reuse once the old
    one is freed (issue 26): another board, even of the same course, has its own."""
    import dataclasses

    from avecaesar.engine.bots import policies
    from avecaesar.engine.core.board import Board
    from avecaesar.engine.core.race import new_race
    from avecaesar.engine.core.race_setup import race_setup
    from avecaesar.engine.course.load import load_course

    rules, board = race_setup("dicetree-2022", [], {}, str(OVAL))
    state, _ = new_race(rules, board, ["a", "b"], 1)
    table = policies.distances(state)
    assert policies.distances(state) is table  # made once per board and rule values
    start = board.start_places[0]
    want = table.to_finish(start, rules.laps, False)
    assert want is not None and want > 0
    for other in (Board.from_graph(load_course(str(OVAL)).graph, "oval"),
                  Board.from_graph(load_course("dicetree-2022/arena-carthago").graph, "x")):
        there, _ = new_race(rules, other, ["a", "b"], 1)
        assert policies.distances(there) is not table
    assert table.to_finish(start, rules.laps, False) == want
    # the greedy's tables: per board and rules value, kept on the board
    policies.greedy_policy(state, state.legal_moves())
    kept = board.kept("greedy", rules)
    assert kept is not None
    fewer = dataclasses.replace(rules, laps=2)
    again, _ = new_race(fewer, board, ["a", "b"], 1)
    policies.greedy_policy(again, again.legal_moves())
    assert board.kept("greedy", fewer) not in (None, kept)
    assert board.kept("greedy", rules) is kept
