"""The generic race engine: lane graphs, rulesets, race state and turns, bots, the lab.

The public API, importable from here (docs/api.md); each name lives in one layer
(docs/architecture.md) and is imported on first use, so ``import avecaesar.engine`` stays
cheap and the layers below never import this facade::

    from avecaesar.engine import load_course, load_ruleset, race_setup, run_race, make_policy
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the same names, for type checkers and editors
    from avecaesar.engine.bots.policies import greedy_policy, random_policy
    from avecaesar.engine.bots.registry import OWNERLESS, POLICIES, make_policy
    from avecaesar.engine.bots.search import search_policy
    from avecaesar.engine.core.board import Board
    from avecaesar.engine.core.moves import IllegalMoveError, LegalMoves, why_not
    from avecaesar.engine.core.race import (
        Outcome,
        RaceRun,
        new_race,
        outcome,
        play_turn,
        run_race,
    )
    from avecaesar.engine.core.race_setup import ChosenRules, RaceSetup, Seat, race_setup
    from avecaesar.engine.core.reasons import REASONS, Reason
    from avecaesar.engine.core.record import read_record, record_lines, replay, write_record
    from avecaesar.engine.core.ruleset_adapter import RaceRules, rules_from_ruleset
    from avecaesar.engine.core.state import RaceGame, RaceState
    from avecaesar.engine.core.tournament import run_tournament
    from avecaesar.engine.core.types import WAIT, Event, Move, SkipReason, Status, Termination
    from avecaesar.engine.course.load import Course, bundled_course_ids, load_course
    from avecaesar.engine.data.errors import AveCaesarError, InputError, Problem, UsageError
    from avecaesar.engine.lab.simulate import SimReport, SimSpec, simulate
    from avecaesar.engine.ruleset.load import Ruleset, list_rulesets, load_ruleset

_WHERE = {
    "data.errors": ["AveCaesarError", "InputError", "Problem", "UsageError"],
    "course.load": ["Course", "bundled_course_ids", "load_course"],
    "ruleset.load": ["Ruleset", "list_rulesets", "load_ruleset"],
    "core.types": ["WAIT", "Event", "Move", "SkipReason", "Status", "Termination"],
    "core.reasons": ["REASONS", "Reason"],
    "core.board": ["Board"],
    "core.ruleset_adapter": ["RaceRules", "rules_from_ruleset"],
    "core.race_setup": ["ChosenRules", "RaceSetup", "Seat", "race_setup"],
    "core.state": ["RaceGame", "RaceState"],
    "core.moves": ["IllegalMoveError", "LegalMoves", "why_not"],
    "core.race": ["Outcome", "RaceRun", "new_race", "outcome", "play_turn", "run_race"],
    "core.record": ["read_record", "record_lines", "replay", "write_record"],
    "core.tournament": ["run_tournament"],
    "bots.policies": ["greedy_policy", "random_policy"],
    "bots.search": ["search_policy"],
    "bots.registry": ["OWNERLESS", "POLICIES", "make_policy"],
    "lab.simulate": ["SimReport", "SimSpec", "simulate"],
}
_MODULE = {name: module for module, names in _WHERE.items() for name in names}

__all__ = [
    "OWNERLESS",
    "POLICIES",
    "REASONS",
    "WAIT",
    "AveCaesarError",
    "Board",
    "ChosenRules",
    "Course",
    "Event",
    "IllegalMoveError",
    "InputError",
    "LegalMoves",
    "Move",
    "Outcome",
    "Problem",
    "RaceGame",
    "RaceRules",
    "RaceRun",
    "RaceSetup",
    "RaceState",
    "Reason",
    "Ruleset",
    "Seat",
    "SimReport",
    "SimSpec",
    "SkipReason",
    "Status",
    "Termination",
    "UsageError",
    "bundled_course_ids",
    "greedy_policy",
    "list_rulesets",
    "load_course",
    "load_ruleset",
    "make_policy",
    "new_race",
    "outcome",
    "play_turn",
    "race_setup",
    "random_policy",
    "read_record",
    "record_lines",
    "replay",
    "rules_from_ruleset",
    "run_race",
    "run_tournament",
    "search_policy",
    "simulate",
    "why_not",
    "write_record",
]



def __getattr__(name: str) -> Any:
    module = _MODULE.get(name)
    if module is None:
        raise AttributeError(f"module 'avecaesar.engine' has no attribute {name!r}")
    from avecaesar.native import documented

    value = documented(getattr(import_module(f"avecaesar.engine.{module}"), name),
                       f"avecaesar.engine.{module}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
