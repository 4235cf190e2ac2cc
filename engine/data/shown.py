"""How a name from outside (a player's, a record's) is shown: every control, format (bidi
overrides, zero-width) and line-breaking character as its escape, so a name can neither
forge a line of output nor turn the text around it. The CLI and the web table refuse such
a name when it is given; what a record or an older file carries is shown escaped."""

from __future__ import annotations

import unicodedata

__all__ = ["escaped", "is_plain"]


def escaped(text: str) -> str:
    """``text`` with each control, format and separator character but the space shown as
    its escape (``\\n``, ``\\u202e``)."""
    return "".join(ch if unicodedata.category(ch)[0] not in "CZ" or ch == " "
                   else ch.encode("unicode_escape").decode("ascii") for ch in text)


def is_plain(text: str) -> bool:
    """True when ``text`` shows as it is (nothing :func:`escaped` would change)."""
    return escaped(text) == text
