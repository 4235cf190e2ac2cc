"""The players' language: one catalog of every sentence a player sees, in English and German.

``editor/render/catalog.json`` holds, per section, each message in every language side by
side (``{"key": {"en": "…", "de": "…"}}``): ``table`` (what the table says: the terminal
``play`` and the web server), ``events`` (the race log and the result lines), ``why`` (the
engine's reasons why a move is not allowed, matched by their English wording) and ``page``
(the browser table's own words; the server sends this section to the page, so the page and
the server share one file). A test checks that every message has every language and the
same ``{fields}`` in each.

The language is chosen per run (``--lang``, else the ``LC_ALL`` / ``LC_MESSAGES`` / ``LANG``
/ ``LANGUAGE`` environment) or per request (the browser's ``Accept-Language``); it lives in a
context variable, so two devices of one server each get their own. Rule citations stay in
the language of their source: they are filled in as they are written in the ruleset.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["LANGS", "catalog", "choose", "current", "from_accept", "language",
           "set_language", "text", "translate"]

CATALOG_FILE = Path(__file__).with_name("catalog.json")
LANGS = ("en", "de")
DEFAULT = "en"
_CURRENT: ContextVar[str] = ContextVar("avecaesar_lang", default=DEFAULT)


@cache
def catalog() -> dict[str, Any]:
    """The whole catalog (``languages`` and one mapping per section)."""
    data: dict[str, Any] = json.loads(CATALOG_FILE.read_text(encoding="utf-8"))
    return data


def current() -> str:
    return _CURRENT.get()


def set_language(lang: str) -> None:
    """Use ``lang`` from now on in this context (a command's whole run)."""
    _CURRENT.set(lang if lang in LANGS else DEFAULT)


@contextlib.contextmanager
def language(lang: str) -> Iterator[None]:
    """Use ``lang`` within the block (one request, one view)."""
    token = _CURRENT.set(lang if lang in LANGS else DEFAULT)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def _short(tag: str) -> str | None:
    """``de_DE.UTF-8`` / ``de-AT`` → ``de`` when that language is in the catalog."""
    code = re.split(r"[_.@-]", tag.strip().lower(), maxsplit=1)[0]
    return code if code in LANGS else None


def choose(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language of a command: ``explicit`` (``--lang``), else ``AVECAESAR_LANG``, else
    the locale of the environment (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, then
    ``LANGUAGE``'s first entry), else English."""
    if explicit:
        return _short(explicit) or DEFAULT
    env = os.environ if environ is None else environ
    for name in ("AVECAESAR_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(name, "")
        for tag in value.split(":"):
            if tag and tag not in ("C", "POSIX") and not tag.startswith("C."):
                return _short(tag) or DEFAULT
    return DEFAULT


def from_accept(header: str | None) -> str:
    """The first language of an HTTP ``Accept-Language`` header that the catalog has."""
    best: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")):
        tag, _, params = part.partition(";")
        q = 1.0
        m = re.search(r"q=([0-9.]+)", params)
        if m:
            try:
                q = float(m[1])
            except ValueError:
                q = 0.0
        short = _short(tag)
        if short:
            best.append((-q, i, short))
    return min(best)[2] if best else DEFAULT


def text(section: str, key: str, **fields: object) -> str:
    """Message ``key`` of ``section`` in the current language, its fields filled in."""
    entry = catalog()[section][key]
    template = entry.get(current()) or entry[DEFAULT]
    return str(template).format(**fields)


@cache
def _patterns() -> list[tuple[re.Pattern[str], str]]:
    """Each English reason of the ``why`` section as a pattern, the longest first."""
    out = []
    for key, entry in catalog()["why"].items():
        en = entry[DEFAULT]
        seen: set[str] = set()
        rx = ""
        for part in re.split(r"(\{\w+\})", en):
            name = part[1:-1]
            if not re.fullmatch(r"\{\w+\}", part):
                rx += re.escape(part)
            elif name in seen:  # the same field again: the same text
                rx += f"(?P={name})"
            else:
                seen.add(name)
                rx += f"(?P<{name}>(?:(?! — ).)+?)"  # never across a citation's dash
        out.append((re.compile(f"^{rx}$", re.S), key))
    return sorted(out, key=lambda item: -len(catalog()["why"][item[1]][DEFAULT]))


def translate(message: str, lang: str | None = None) -> str:
    """An English sentence of the engine (why a move is not allowed, …) in the current
    language: matched against the ``why`` section, its fields translated in turn (``{lead}``
    is itself a sentence); a citation after the last `` — `` is kept as written. A sentence
    the catalog does not know (a house rule's own ``why``) is returned as it is."""
    want = lang or current()
    if want == DEFAULT:
        return message
    with language(want):
        return _translate(message, 0)


def _translate(message: str, depth: int) -> str:
    if depth > 4 or not message:
        return message
    for rx, key in _patterns():
        m = rx.match(message)
        if m:
            fields = {k: v if k == "cite" or v.lstrip("-+").isdigit() else _translate(v, depth + 1)
                      for k, v in m.groupdict().items()}
            return text("why", key, **fields)
    head, sep, cite = message.rpartition(" — ")
    if sep:
        inner = _translate(head, depth + 1)
        if inner != head:
            return f"{inner} — {cite}"
    return message
