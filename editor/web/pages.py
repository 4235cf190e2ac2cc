"""The pages of ``avecaesar serve``, one registry: each entry is a page's name (its address
is ``/NAME``), what it is for, its HTML file in ``static/`` and the module whose ``routes()``
gives its JSON API.

Adding a page is one routes module (``routes() -> list[Route]``), its HTML file and one
:data:`PAGES` line (docs/architecture.md, "Extension points"); ``app.py`` serves every
registered page and its routes, and a test checks each one is documented in docs/web.md,
answers, and is covered by a test.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

__all__ = ["PAGES", "Page"]


@dataclass(frozen=True)
class Page:
    """A page of the web table.

    name: its address ``/NAME``. doc: one line, what a person does there. html: its file in
    ``static/``. routes: ``"module:function"``, a function returning the page's API routes.
    """

    name: str
    doc: str
    html: str
    routes: str

    def api_routes(self) -> list[Any]:
        """The page's Starlette routes."""
        module, _, attr = self.routes.partition(":")
        found: list[Any] = getattr(import_module(module), attr)()
        return found


PAGES: tuple[Page, ...] = (
    Page("play", "set up a table, join a seat by its link or QR code, play: your own hand, "
         "legal moves, why-not, take back before the draw, the deal checked, resume",
         "play.html", "avecaesar.editor.web.routes_play:routes"),
    Page("replay", "watch a game record move by move", "replay.html",
         "avecaesar.editor.web.routes_replay:routes"),
    Page("studio", "edit a course: problems, figures and the board as you type",
         "studio.html", "avecaesar.editor.web.routes_studio:routes"),
)
