"""Every sentence the table itself says (the web server and the terminal table), in one place
so that it can be translated: the ``table`` section of the one catalog
(``editor/render/catalog.json``, every message in English and German), in the language of
the current run or request (``editor/render/lang.py``). :func:`say` fills one in. The
engine's reasons (why a move is not allowed, with the rule's citation) come from the engine
as values and are put in words by :func:`~avecaesar.editor.render.lang.reason_text`."""

from __future__ import annotations

from avecaesar.editor.render.lang import catalog, text

__all__ = ["TEXT", "say"]

#: the English sentences by key (what the other languages translate)
TEXT: dict[str, str] = {k: v["en"] for k, v in catalog()["table"].items()}


def say(key: str, **fields: object) -> str:
    """The sentence ``key`` in the current language, its fields filled in."""
    return text("table", key, **fields)
