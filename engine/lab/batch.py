"""Simulations set up for a batch run — many courses, unattended (``balance``, ``course
balance``): each course's own edition's rules unless told, as many chariots as it takes, and
the rule values a ruleset leaves open settled. A batch cannot stop to ask, so each open value
is raced at its first choice and the run says so; ``--set`` or ``--house`` chooses another."""

from __future__ import annotations

from collections.abc import Sequence

from avecaesar.engine.core.board import Board
from avecaesar.engine.core.race import check_player_count, check_seats, player_counts
from avecaesar.engine.core.race_setup import ChosenRules, RaceSetup
from avecaesar.engine.core.ruleset_adapter import RaceRules
from avecaesar.engine.data.errors import MissingRuleValueError, UsageError
from avecaesar.engine.data.values import HouseRules
from avecaesar.engine.lab.simulate import SimSpec

__all__ = ["batch_spec", "edition_of", "max_players", "settle_open_values"]


def _text(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return ",".join(_text(v) for v in value)
    return str(value)


def settle_open_values(ruleset: str, variants: Sequence[str],
                       settings: Sequence[tuple[str, str]], course: str,
                       house: HouseRules | None = None
                       ) -> tuple[tuple[tuple[str, str], ...], list[str]]:
    """``settings`` with every value the rules leave open set to its first choice, and one
    note per value so set. A value with no listed choices stays an error (raised)."""
    settled, notes, _setup = _settled(ruleset, variants, settings, course, house)
    return settled, notes


def _settled(ruleset: str, variants: Sequence[str], settings: Sequence[tuple[str, str]],
             course: str, house: HouseRules | None
             ) -> tuple[tuple[tuple[str, str], ...], list[str], RaceSetup]:
    """:func:`settle_open_values` and the setup it settled on."""
    out = list(settings)
    notes: list[str] = []
    for _ in range(8):  # each round settles every value one setup reports
        try:
            setup = ChosenRules.compose(ruleset, variants, dict(out), house).on(course)
            return tuple(out), notes, setup
        except MissingRuleValueError as err:
            if any(not choices for _key, _why, choices in err.entries):
                raise
            for key, _why, choices in err.entries:
                value = _text(choices[0])  # type: ignore[index]
                out.append((key, value))
                notes.append(f"{key} is left open by the rules: raced as {value} (the first "
                             f"choice); --set {key}=… to choose")
    setup = ChosenRules.compose(ruleset, variants, dict(out), house).on(course)
    return tuple(out), notes, setup


def max_players(rules: RaceRules, board: Board) -> int:
    """The most players the rules seat on the board (each player's chariots on their own
    start places) and are written for."""
    allowed = player_counts(rules, board).allowed
    return allowed[-1] if allowed else 1


def batch_spec(course: str, ruleset: str | None, players: int | None, races: int, seed: int,
               bots: tuple[str, ...], variants: tuple[str, ...] = (),
               settings: tuple[tuple[str, str], ...] = (), house: str = "",
               house_rules: HouseRules | None = None
               ) -> tuple[SimSpec, list[str]]:
    """The simulation of one course in a batch, and the notes on what was chosen for it:
    ``ruleset`` None is the course's edition, ``players`` None the most it seats."""
    rules_id = ruleset or edition_of(course)
    settled, notes, setup = _settled(rules_id, variants, settings, course, house_rules)
    rules, board = setup.race_rules, setup.board
    n = players or max_players(rules, board)
    check_player_count(rules, n, rules_id, variants, board)
    check_seats(rules, board, n)
    return SimSpec(rules_id, course, n, races, seed, variants, settled, bots, house), notes


def edition_of(course: str) -> str:
    """The ruleset a course is raced under by default: the edition its file names."""
    from avecaesar.engine.course.load import load_course

    edition = load_course(course).model.edition
    if not edition:
        raise UsageError(f"{course}: the course names no edition; give --ruleset")
    return edition
