"""A course brief: what a generated course must be (``schemas/brief.schema.json``).

A brief is YAML checked against the schema (every problem ``file:line:col``), then for what
the schema cannot say (a range whose smallest value is above its largest, laps that differ
from the ruleset's). ``course generate`` (engine/lab/generate.py) searches for boards that
meet it; docs/generate.md describes the keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from avecaesar.engine.course.figures import RaceFigures
from avecaesar.engine.data.errors import InputError, Problem, UsageError
from avecaesar.engine.data.schemas import schema_problems
from avecaesar.engine.data.values import JsonDict
from avecaesar.engine.data.yamlsource import Source, load_yaml, load_yaml_text

__all__ = ["BRIEF_SCHEMA", "Balance", "Brief", "Span", "brief_rules", "read_brief"]

BRIEF_SCHEMA = "urn:avecaesar:brief"
#: what a piece count is when the brief does not give it
_DEFAULT_PIECES = {"curves": (2, 6), "chicanes": (0, 2), "walls": (0, 2), "bridges": (0, 0)}
DEFAULT_SPACE_MM = 36.0


@dataclass(frozen=True)
class Span:
    """An inclusive range of whole numbers."""

    low: int
    high: int

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int) and self.low <= value <= self.high

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low} to {self.high}"

    def distance(self, value: int) -> int:
        """How far ``value`` lies outside the range (0 inside)."""
        return max(self.low - value, value - self.high, 0)


@dataclass(frozen=True)
class Balance:
    """The balance target: the spread of win rates between start places (percentage points)
    at most ``spread_max``, raced by ``bots``, over a tournament (seats rotated) or races."""

    bots: str
    over: str
    spread_max: float
    races: int
    players: int | None


@dataclass(frozen=True)
class Brief:
    """A brief as read: every key with its default filled in."""

    file: str
    name: str
    lanes: int
    start_places: int
    laps: int | None
    reserve: Span
    alley_spaces: Span
    pieces: dict[str, Span]
    footprint_cm: tuple[float, float]
    space_mm: float
    ruleset: str
    balance: Balance | None = None
    keep: tuple[str, ...] = ()
    source: Source | None = field(default=None, compare=False, repr=False)

    def where(self, *path: str | int) -> str:
        """``file:line:col`` of a key of the brief (for an explanation)."""
        if self.source is None:
            return self.file
        line, col = self.source.where(list(path))
        return f"{self.file}:{line}:{col}"


def _span(value: object) -> Span:
    if isinstance(value, list):
        return Span(int(value[0]), int(value[1]))
    return Span(int(str(value)), int(str(value)))


def _ranges(source: Source) -> list[Problem]:
    """Every [min, max] whose min is above its max."""
    data: JsonDict = source.data
    paths: list[tuple[str, ...]] = [("reserve",), ("alley", "spaces")]
    paths += [("pieces", k) for k in data.get("pieces", {})]
    out = []
    for path in paths:
        value: object = data
        for p in path:
            value = value.get(p) if isinstance(value, dict) else None
        if isinstance(value, list) and len(value) == 2 and value[0] > value[1]:
            out.append(source.problem(list(path), f"[{value[0]}, {value[1]}]: the smallest "
                                      f"value is above the largest — write [{value[1]}, "
                                      f"{value[0]}]"))
    return out


def _balance(data: JsonDict | None, start_places: int) -> Balance | None:
    if data is None:
        return None
    return Balance(str(data.get("bots", "greedy")), str(data.get("over", "tournament")),
                   float(data["spread_max"]), int(data.get("races", 400)),
                   int(data["players"]) if "players" in data else None)


def _brief(source: Source) -> Brief:
    d: JsonDict = source.data
    pieces = {k: _span(d.get("pieces", {}).get(k, list(v))) for k, v in _DEFAULT_PIECES.items()}
    width, height = d["footprint_cm"]
    return Brief(
        file=source.file, name=str(d["name"]), lanes=int(d["lanes"]),
        start_places=int(d["start_places"]),
        laps=int(d["laps"]) if "laps" in d else None, reserve=_span(d["reserve"]),
        alley_spaces=_span(d["alley"]["spaces"]), pieces=pieces,
        footprint_cm=(float(width), float(height)),
        space_mm=float(d.get("space_mm", DEFAULT_SPACE_MM)), ruleset=str(d["ruleset"]),
        balance=_balance(d.get("balance"), int(d["start_places"])),
        keep=tuple(str(k) for k in d.get("keep", [])), source=source)


def read_brief(path: str | Path, text: str | None = None) -> Brief:
    """The brief in ``path`` (or ``text`` named ``path``); :class:`InputError` with every
    problem, located, when it is not one."""
    source = load_yaml_text(text, str(path)) if text is not None else load_yaml(path)
    problems = schema_problems(source, BRIEF_SCHEMA)
    if not problems:
        problems = _ranges(source)
    if problems:
        raise InputError(problems)
    return _brief(source)


def brief_rules(brief: Brief) -> RaceFigures:
    """The rule values the brief's figures use: its ruleset's, with its laps (which must be
    the ruleset's: a board is checked afresh under that ruleset)."""
    from avecaesar.engine.ruleset.load import load_ruleset, race_figures

    rules = race_figures(load_ruleset(brief.ruleset))
    if brief.laps is not None and brief.laps != rules.laps:
        raise UsageError(f"{brief.where('laps')}: laps {brief.laps}, but the ruleset "
                         f"{brief.ruleset} races {rules.laps} — write laps: {rules.laps} "
                         "or choose a ruleset with that many laps")
    return rules
