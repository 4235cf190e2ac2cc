"""The players' language: one catalog of every sentence a player sees, in English and German.

``editor/render/catalog.json`` holds, per section, each message in every language side by
side (``{"key": {"en": "…", "de": "…"}}``): ``table`` (what the table says: the terminal
``play`` and the web server), ``events`` (the race log and the result lines), ``why`` (the
engine's reasons, keyed by their codes: engine/core/reasons.py's ``REASONS`` holds each
code's English sentence, the engine's one English rendering, and the catalog every other
language) and ``page`` (the browser table's own words; the server sends this section to the
page, so the page and the server share one file) and ``names`` (the titles of the bundled
rulesets, variants and courses, by id). A test checks that every message has every
language and the same ``{fields}`` in each.

A reason is rendered from its value (:func:`reason_text`: the code's sentence in the wanted
language, its parameters filled in, reasons inside it rendered the same way); nothing reads
an English sentence back.

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

from avecaesar.engine.core.reasons import REASONS, Reason

__all__ = ["LANGS", "asked", "catalog", "choose", "current", "from_accept", "language",
           "name_of", "reason_text", "sentence", "set_language", "text"]

CATALOG_FILE = Path(__file__).with_name("catalog.json")
DEFAULT = "en"
_CURRENT: ContextVar[str] = ContextVar("avecaesar_lang", default=DEFAULT)


@cache
def catalog() -> dict[str, Any]:
    """The whole catalog (``languages`` and one mapping per section)."""
    data: dict[str, Any] = json.loads(CATALOG_FILE.read_text(encoding="utf-8"))
    return data


#: the languages a player can choose: the catalog's own list, nothing else
LANGS: tuple[str, ...] = tuple(catalog()["languages"])


def asked(explicit: str) -> str:
    """``--lang VALUE`` checked: one of the catalog's languages (``de``, ``de_DE.UTF-8``,
    ``de-AT``), else a :class:`UsageError` (exit 2) that lists them."""
    from avecaesar.engine.data.errors import UsageError

    short = _short(explicit)
    if short is None:
        listed = ", ".join(f"{code} ({name})" for code, name in catalog()["languages"].items())
        raise UsageError(f"--lang {explicit!r}: unknown language; choose one of {listed}")
    return short


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


def name_of(ident: str, fallback: str | None = None) -> str:
    """The title of a bundled ruleset, variant or course (by its id) in the current
    language: the catalog's ``names`` section; ``fallback`` (else the id) for one it does
    not name (an uploaded course, a file)."""
    entry = catalog()["names"].get(ident)
    if entry is None:
        return fallback or ident
    return str(entry.get(current()) or entry[DEFAULT])


def sentence(code: str, lang: str | None = None) -> str:
    """The sentence of the engine's reason ``code`` in ``lang`` (default: the current
    language): English is the engine's own (``REASONS`` in engine/core/reasons.py, its one
    English renderer); another language is the catalog's ``why`` entry for the code
    (English where the catalog has none)."""
    want = lang or current()
    if want != DEFAULT:
        entry = catalog()["why"].get(code)
        if entry and entry.get(want):
            return str(entry[want])
    return REASONS[code].english


def reason_text(reason: Reason, lang: str | None = None) -> str:
    """An engine's reason in words, in ``lang`` (default: the current language), rendered
    from its code and parameters — a parameter that is a reason in the same language; the
    citation as its source writes it; a house rule's own words as its group wrote them."""
    return reason.render(lambda code: sentence(code, lang))
