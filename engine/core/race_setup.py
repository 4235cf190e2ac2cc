"""From names to a race: the composed rules and the board of a course, as every command
(race, play, replay, tournament, simulate) builds them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from avecaesar.engine.core.board import Board
from avecaesar.engine.core.ruleset_adapter import RaceRules, rules_from_ruleset
from avecaesar.engine.course.load import contract_water, load_course
from avecaesar.engine.data.errors import InputError
from avecaesar.engine.ruleset.load import load_ruleset

__all__ = ["race_setup"]


def race_setup(ruleset: str, variants: Sequence[str], overrides: Mapping[str, str],
               course: str, house: Mapping[str, Mapping[str, Any]] | None = None
               ) -> tuple[RaceRules, Board]:
    """The race rules and the board for a ruleset (with variants, house rules and ``--set``
    values) and a course id or file. A course with errors is an :class:`InputError`; water
    ditches are contracted where the rules jump them uncounted."""
    composed = load_ruleset(ruleset, list(variants), dict(overrides), house)
    rules = rules_from_ruleset(composed)
    c = load_course(course)
    if c.errors:
        raise InputError(c.errors)
    g = contract_water(c.graph) if rules.water_skipped else c.graph
    return rules, Board.from_graph(g, c.id)
