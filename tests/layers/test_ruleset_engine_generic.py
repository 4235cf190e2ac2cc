"""DESIGN.md: the engine contains no edition or variant names (issue 4, "Done when")."""

from __future__ import annotations

import re
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = re.compile(
    r"ravensburger|pro[-_ ]?ludo|dice[-_ ]?tree|gladiator|ausgebremst|\b(1989|2006|2022)\b",
    re.IGNORECASE)


def _hits(pattern: str) -> list[str]:
    hits = []
    paths = sorted(ENGINE.rglob(pattern))  # every layer: engine/data, engine/core, …
    assert paths, f"no engine module matches {pattern}"
    for path in paths:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if FORBIDDEN.search(line):
                hits.append(f"{path.relative_to(ENGINE)}:{n}: {line.strip()}")
    return hits


def test_ruleset_modules_name_no_edition_or_variant() -> None:
    """Aliases and every edition-specific value live in rulesets/, not in code."""
    assert _hits("ruleset*.py") == []


def test_engine_names_no_edition_or_variant() -> None:
    """The whole engine, comments and docstrings included (cite sources as docs/sources.md's
    "cite it as" column names them, in code)."""
    assert _hits("*.py") == []


def test_the_check_would_catch_a_name() -> None:
    assert FORBIDDEN.search('if edition == "ProLudo":')
    assert FORBIDDEN.search("ALIASES = {'1989': ...}")
    assert not FORBIDDEN.search("deck_points = 84")
