"""Shared helpers for the variant tests: rules by ruleset + variants + settings, the oval."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from avecaesar.engine.core.board import Board
from avecaesar.engine.core.ruleset_adapter import RaceRules, rules_from_ruleset
from avecaesar.engine.core.state import LETTERS, RaceGame, RaceState
from avecaesar.engine.course.load import load_course
from avecaesar.engine.ruleset.load import load_ruleset

OVAL = Path(__file__).parents[1] / "courses" / "oval.yaml"

# values the sources leave open (docs/rulesets.md, "Open values and house rules") and
# that these tests must supply
KEEPS_PLACE = {"disqualification.keeps_place": "false"}


def race_rules(name: str, variants: tuple[str, ...] = (), sets: dict[str, str] | None = None,
               **changes: object) -> RaceRules:
    rules = rules_from_ruleset(load_ruleset(name, list(variants), sets or {}))
    return replace(rules, **changes) if changes else rules


@pytest.fixture(scope="session")
def oval() -> Board:
    return Board.from_graph(load_course(str(OVAL)).graph, "oval")


@pytest.fixture
def position(oval: Board) -> Callable[..., RaceState]:
    """``position(rules, notation, ownerless="B", owners=(0, 0, 1, 1))``: a state on the
    test oval."""

    def make(rules: RaceRules, text: str, ownerless: str = "",
             owners: tuple[int, ...] = ()) -> RaceState:
        n = len(text.split("|")[0].split())
        flags = tuple(LETTERS[c] in ownerless for c in range(n)) if ownerless else ()
        players = tuple(f"P{p + 1}" for p in sorted(set(owners))) if owners else ()
        game = RaceGame(rules, oval, tuple(LETTERS[:n]), flags, owners, players)
        return RaceState.parse(game, text)

    return make
