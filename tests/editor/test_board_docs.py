"""The board pictures in docs/boards and docs/img are the current drawings: each is made
from an SVG whose digest docs/boards/sources.json records, and every SVG is redrawn here
from the board geometry (``make docs`` remakes them)."""

from __future__ import annotations

import json

from avecaesar.editor.render.board_docs import DOCS, SOURCES, main, pictures
from avecaesar.engine.course.load import bundled_course_ids


def test_the_board_pictures_in_the_docs_are_current(capsys) -> None:
    assert main(["--check"]) == 0, capsys.readouterr().out


def test_every_bundled_board_and_the_assembled_print_are_there() -> None:
    made = pictures()
    for cid in bundled_course_ids():
        stem = cid.replace("/", "-")
        assert f"boards/{stem}.svg" in made and f"boards/{stem}.pdf" in made
    assert "img/print-assembled.png" in made
    known = json.loads(SOURCES.read_text(encoding="utf-8"))
    assert set(known) == set(made)
    for name in made:
        assert (DOCS / name).stat().st_size > 1000, name
    svg = (DOCS / "boards" / "ravensburger-1989-a-white.svg").read_text(encoding="utf-8")
    assert svg.count("<polygon data-space=") == 98  # one polygon per space of the dump
