"""The board as the pages show it: the same drawing as ``course render`` (each space a
``<g id="space-N" class="space …">`` holding its ``<polygon data-space="N">``), without the
XML prologue so it can be inlined."""

from __future__ import annotations

import re

import networkx as nx

from avecaesar.editor.render.board import board_svg as draw
from avecaesar.engine.data.content_memo import ContentMemo

__all__ = ["board_svg", "cached_board", "inline_svg"]

_PROLOGUE = re.compile(r"^.*?(?=<svg)", re.S)


def inline_svg(data: bytes | str) -> str:
    """An SVG document as an element for an HTML page."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    return _PROLOGUE.sub("", text, count=1)


def board_svg(g: nx.DiGraph, route: list[int] | None = None, title: str | None = None,
              numbers: bool = False) -> str:
    """The course drawn as in ``course render`` (route: the race lap by lap; numbers: every
    space's number, as messages name it)."""
    return inline_svg(draw(g, route=route, title=title, numbers=numbers))


_BOARDS: ContentMemo[str] = ContentMemo(64)


def cached_board(course: str, numbers: bool = False) -> str:
    """The drawing of a course by the reference the engine loads (bundled or uploaded),
    kept while the files it was drawn from are unchanged (the cache rule, docs/architecture.md
    "Caches")."""
    from avecaesar.editor.render.lang import current
    from avecaesar.engine.course.load import load_course

    return _BOARDS.get((course, numbers, current()),  # its title in the current language
                       lambda: board_svg(load_course(course).graph, numbers=numbers))[0]
