"""The suites of the published vectors: the questions ``avecaesar vectors make`` asks the
engine, read from ``suites.yaml`` in the vectors folder (data, like the rulesets: the engine
names no edition).

Each entry is one vector file: the rules and course (a
:class:`~avecaesar.engine.lab.vectors.Suite`), the seeded races its position and count
vectors are sampled from (seeds, players, bots cycling over the seats), how many of each
kind to keep, the positions counted by hand (``hand``: count, position, note), whose
legal-move count ``vectors make`` refuses ever to change, and positions a person chose
(``ask``: position, note — a rulebook's example), answered by the engine. Every mistake in
the file is reported at once, each as ``file:line:col``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from avecaesar.engine.data.errors import InputError, Problem
from avecaesar.engine.data.yamlsource import Source, load_yaml
from avecaesar.engine.lab.vectors import Suite

__all__ = ["SUITES_FILE", "AskedPosition", "HandVector", "SuiteSpec", "find_suite", "read_suites"]

SUITES_FILE = "suites.yaml"

_INT = {"players": 4, "positions": 10, "counts": 3, "races": 1, "tournaments": 0}
_KEYS = ("name", "ruleset", "course", "variants", "set", "house", "seeds", "bots", "hand",
         "ask", *_INT)


@dataclass(frozen=True)
class HandVector:
    """A position whose legal moves were counted by hand: the count, the notation and the
    note saying how (with its source)."""

    count: int
    position: str
    note: str


@dataclass(frozen=True)
class AskedPosition:
    """A position a person chose (a rulebook's example, with its source in the note) whose
    answer the engine gives — not counted by hand: ``vectors make`` shows a change of its
    answer like any other."""

    position: str
    note: str
    ownerless: str = ""  # the letters of the chariots nobody drives
    probes: tuple[str, ...] = ()  # moves whose reason is asked too (the notation's moves)


@dataclass(frozen=True)
class SuiteSpec:
    """One vector file: its suite, the seeded races its vectors are sampled from (seeds,
    players, bots cycling over the seats) and how many of each kind to keep."""

    suite: Suite
    players: int = 4
    seeds: tuple[int, ...] = (1, 2)
    bots: str = "greedy,random"
    positions: int = 10
    counts: int = 3
    races: int = 1
    tournaments: int = 0
    hand: tuple[HandVector, ...] = ()
    ask: tuple[AskedPosition, ...] = ()

    @property
    def name(self) -> str:
        return self.suite.name


def read_suites(folder: Path) -> tuple[SuiteSpec, ...]:
    """The suites of ``folder/suites.yaml`` (an :class:`InputError` with every problem of
    the file, each located)."""
    source = load_yaml(folder / SUITES_FILE)
    data = source.data
    if not isinstance(data, Mapping) or not isinstance(data.get("suites"), list):
        raise InputError([source.problem([], "a suites file holds 'suites:', a list of "
                                         "suites (vectors/README.md)")])
    problems: list[Problem] = []
    out = []
    names: set[str] = set()
    for i, entry in enumerate(data["suites"]):
        spec = _spec(source, i, entry, problems)
        if spec is None:
            continue
        if spec.name in names:
            problems.append(source.problem(["suites", i, "name"], f"a second suite named "
                                           f"{spec.name!r}: each names one file"))
        names.add(spec.name)
        out.append(spec)
    if problems:
        raise InputError(sorted(problems))
    return tuple(out)


def _spec(source: Source, i: int, entry: object, problems: list[Problem]) -> SuiteSpec | None:
    where: list[str | int] = ["suites", i]
    if not isinstance(entry, Mapping):
        problems.append(source.problem(where, "a suite is a mapping with name, ruleset and "
                                       "course"))
        return None
    found = len(problems)
    for key in entry:
        if key not in _KEYS:
            problems.append(source.problem(where, f"unknown key {key!r} (a suite holds "
                                           f"{', '.join(_KEYS)})", key=str(key)))
    for key in ("name", "ruleset", "course"):
        if not isinstance(entry.get(key), str) or not entry.get(key):
            problems.append(source.problem(where, f"missing {key!r}: give it as text"))
    for key in _INT:
        value = entry.get(key, _INT[key])
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            problems.append(source.problem([*where, key], f"{key}: a whole number, not "
                                           f"{value!r}"))
    seeds = entry.get("seeds", [1, 2])
    if not isinstance(seeds, list) or not seeds or not all(
            isinstance(s, int) and not isinstance(s, bool) for s in seeds):
        problems.append(source.problem([*where, "seeds"], "seeds: a list of whole numbers"))
    hand = _hand(source, [*where, "hand"], entry.get("hand", []), problems)
    ask = _ask(source, [*where, "ask"], entry.get("ask", []), problems)
    if len(problems) > found:
        return None
    suite = Suite(str(entry["name"]), str(entry["ruleset"]), str(entry["course"]),
                  tuple(str(v) for v in entry.get("variants", [])),
                  tuple((str(k), str(v)) for k, v in (entry.get("set") or {}).items()),
                  entry.get("house"))
    n = {k: int(entry.get(k, _INT[k])) for k in ("positions", "counts", "races",
                                                  "tournaments")}
    return SuiteSpec(suite, int(entry.get("players", 4)), tuple(seeds),
                     str(entry.get("bots", "greedy,random")), n["positions"], n["counts"],
                     n["races"], n["tournaments"], hand, ask)


def _ask(source: Source, where: list[str | int], raw: object, problems: list[Problem]
         ) -> tuple[AskedPosition, ...]:
    """``ask:``: positions chosen by a person, each ``{position, note}`` (``ownerless``:
    the chariots nobody drives; ``probes``: moves whose reason is asked besides the
    sampled ones)."""
    if not isinstance(raw, list):
        problems.append(source.problem(where, "ask: a list of {position, note}"))
        return ()
    out = []
    for j, a in enumerate(raw):
        if (not isinstance(a, Mapping) or not isinstance(a.get("position"), str)
                or not isinstance(a.get("note"), str)
                or not isinstance(a.get("ownerless", ""), str)
                or not isinstance(a.get("probes", []), list)
                or set(a) - {"position", "note", "ownerless", "probes"}):
            problems.append(source.problem([*where, j], "an asked position is {position: "
                                           "\"<notation>\", note: \"what it shows, with "
                                           "its source\"} (and optionally ownerless: "
                                           "letters, probes: [moves])"))
            continue
        out.append(AskedPosition(str(a["position"]), str(a["note"]),
                                 str(a.get("ownerless", "")),
                                 tuple(str(m) for m in a.get("probes", []))))
    return tuple(out)


def _hand(source: Source, where: list[str | int], raw: object, problems: list[Problem]
          ) -> tuple[HandVector, ...]:
    if not isinstance(raw, list):
        problems.append(source.problem(where, "hand: a list of {count, position, note}"))
        return ()
    out = []
    for j, h in enumerate(raw):
        if (not isinstance(h, Mapping) or not isinstance(h.get("count"), int)
                or not isinstance(h.get("position"), str)
                or not isinstance(h.get("note"), str)):
            problems.append(source.problem([*where, j], "a hand-counted position is {count: "
                                           "N, position: \"<notation>\", note: \"how, with "
                                           "its source\"}"))
            continue
        out.append(HandVector(int(h["count"]), str(h["position"]), str(h["note"])))
    return tuple(out)


def find_suite(suites: Sequence[SuiteSpec], name: str) -> SuiteSpec:
    """The suite called ``name`` (a :class:`KeyError` naming the known ones otherwise)."""
    for s in suites:
        if s.name == name:
            return s
    raise KeyError(f"no vector suite {name!r} (known: {', '.join(s.name for s in suites)})")
