"""Ruleset and variant files carried inside a game record, so that it replays anywhere.

A race run with ``--ruleset FILE`` or ``--variant FILE`` names a file that the machine
replaying the record may not have. While a ruleset is composed inside :func:`recording`,
the text of every ruleset or variant file read is kept (the record header stores them as
``rules_files``: file name as the header gives it → its text); inside :func:`embedded`, a
file named there is read from that text instead of the disk (the record's copy wins: it is
what the race was run under). Bundled rulesets and variants are named by id and never
embedded; house rules are embedded as their values (the header's ``house``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from contextvars import ContextVar

__all__ = ["embedded", "embedded_text", "embedded_texts", "note_read", "recording"]

_GIVEN: ContextVar[Mapping[str, str] | None] = ContextVar("rules_files_given", default=None)
_READ: ContextVar[dict[str, str] | None] = ContextVar("rules_files_read", default=None)


@contextlib.contextmanager
def embedded(texts: Mapping[str, str] | None) -> Iterator[None]:
    """Within the block, the ruleset and variant files named in ``texts`` are read from
    there, not from the disk."""
    token = _GIVEN.set({**(_GIVEN.get() or {}), **(texts or {})})
    try:
        yield
    finally:
        _GIVEN.reset(token)


@contextlib.contextmanager
def recording() -> Iterator[dict[str, str]]:
    """Collect (name → text) every ruleset or variant file read within the block."""
    found: dict[str, str] = {}
    token = _READ.set(found)
    try:
        yield found
    finally:
        _READ.reset(token)


def embedded_texts() -> dict[str, str]:
    """Every file text given to the current block (a cache of what is read from ruleset
    files keys by them too: the same name may be another file's text here)."""
    return dict(_GIVEN.get() or {})


def embedded_text(name: str) -> str | None:
    """The embedded text of the file ``name``, when one is given."""
    return (_GIVEN.get() or {}).get(name)


def note_read(name: str, text: str) -> None:
    """A ruleset or variant file was read (kept when recording)."""
    found = _READ.get()
    if found is not None:
        found[name] = text
