"""Shared by every test: the CLI's result cache (editor/cli/result_cache.py) goes to a folder of
this test session, never the user's ~/.cache; and the race fixtures of the core, bots, lab
and editor tests: the test oval (tests/core/courses/oval.yaml), rules by edition, states."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from avecaesar.engine.core.board import Board
from avecaesar.engine.core.ruleset_adapter import RaceRules, rules_from_ruleset
from avecaesar.engine.core.state import LETTERS, RaceGame, RaceState
from avecaesar.engine.course.load import load_course

# the players' language of `play` and `race` follows the locale (editor/render/lang.py): the
# tests read English unless they ask for another language
os.environ["AVECAESAR_LANG"] = "en"

# A runner that starts the suite as a background job of a non-interactive shell (`make test &`,
# some CI agents) has SIGINT ignored, and an ignored signal stays ignored across exec: the
# Ctrl-C tests' commands would never see their Ctrl-C. A signal with a handler is reset to
# its default in a child, so the suite (each xdist worker loads this file) takes Python's own.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

OVAL = Path(__file__).parent / "core" / "courses" / "oval.yaml"


@pytest.fixture(scope="session", autouse=True)
def _session_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    yield
    if old is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = old


# Every edition races by default (issue 10): no values to supply.
OVERRIDES: dict[str, dict[str, str]] = {
    "dicetree-2022": {},
    "ravensburger-1989": {},
    "pro-ludo-2006": {},
}
EDITIONS = tuple(OVERRIDES)


def edition_rules(name: str, **changes: object) -> RaceRules:
    from avecaesar.engine.ruleset.load import load_ruleset

    variants: list[str] = []
    overrides = OVERRIDES.get(name)
    if name == "dicetree-2022+team-gladiator":
        variants, overrides, name = ["team-gladiator"], {}, "dicetree-2022"
    if name == "pro-ludo-2006+ownerless":
        variants = ["ownerless-chariots"]
        overrides = {**OVERRIDES["pro-ludo-2006"], "ownerless.occupies_places": "true"}
        name = "pro-ludo-2006"
    rules = rules_from_ruleset(load_ruleset(name, variants, overrides))
    return replace(rules, **changes) if changes else rules


@pytest.fixture(scope="session")
def oval() -> Board:
    return Board.from_graph(load_course(str(OVAL)).graph, "oval")


@pytest.fixture(scope="session")
def rules_of() -> Callable[..., RaceRules]:
    cache: dict[str, RaceRules] = {}

    def get(name: str, **changes: object) -> RaceRules:
        if name not in cache:
            cache[name] = edition_rules(name)
        return replace(cache[name], **changes) if changes else cache[name]

    return get


@pytest.fixture
def position(oval: Board, rules_of: Callable[..., RaceRules]) -> Callable[..., RaceState]:
    """``position(edition, notation, **rule_changes)``: a state on the test oval."""

    def make(edition: str, text: str, ownerless: str = "", **changes: object) -> RaceState:
        n = len(text.split("|")[0].split())
        flags = tuple(LETTERS[c] in ownerless for c in range(n)) if ownerless else ()
        game = RaceGame(rules_of(edition, **changes), oval, tuple(LETTERS[:n]), flags)
        return RaceState.parse(game, text)

    return make
