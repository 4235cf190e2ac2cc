"""The published rules test vectors (``vectors/``): what a vector file holds, the answers
the engine gives to its questions, and checking a folder of them against the engine.

A vector file is one **suite**: a ruleset with its variants, ``--set`` values and house rules
on one course, and its vectors of four kinds (vectors/README.md says it for an implementer
in another language; ``schemas/vectors.schema.json`` validates it):

- ``positions``: a position in the race notation (every hand, every deck) → the set of legal
  moves; for each card of the chariot to move that has none, its reason (code, parameters,
  citation: engine/core/reasons.py); why the chariot skips, if it does; and *probes*, moves
  that are not legal, each with the reason :func:`~avecaesar.engine.core.moves.why_not`
  gives;
- ``counts``: from a position, the number of distinct sequences of turns of length 1, 2
  and 3 (perft, with the deck order fixed: a turn is a legal move, or the skip when there is
  none), with the breakdown per first turn ("divide");
- ``races``: a seeded game record (engine/core/record.py), every move's legal-move count
  with it, replayed as ``avecaesar replay`` does;
- ``tournaments``: a seeded tournament record, replayed race by race.

A file also carries what its answers rest on, so that a change of any of it is a visible
difference: the composed rule values with their citations, the player counts the rules allow
on the course (engine/core/player_counts.py) and, in ``boards/``, the course's lane graph as
the engine's board tables. :func:`check_folder` recomputes every answer (in this process, no
subprocess per vector) and lists each difference with its file and line; given ``--set``
values it checks the vectors under changed rules — a rule change shows as the vectors it
breaks, which is also how each vector's ``breaks_if`` is verified.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from avecaesar.engine.core.board import Board
from avecaesar.engine.core.moves import card_reason, why_not
from avecaesar.engine.core.player_counts import player_counts
from avecaesar.engine.core.race_setup import ChosenRules, RaceSetup
from avecaesar.engine.core.reasons import Reason
from avecaesar.engine.core.record import replay
from avecaesar.engine.core.state import LETTERS, Move, RaceGame, RaceState
from avecaesar.engine.core.tournament import replay_tournament
from avecaesar.engine.core.types import SkipReason
from avecaesar.engine.course.load import Course, bundled_course_ids, load_course
from avecaesar.engine.data.errors import (
    AveCaesarError,
    InputError,
    MissingRuleValueError,
    Problem,
)
from avecaesar.engine.data.limits import record_bytes_limit
from avecaesar.engine.data.paths import RULESETS_DIR
from avecaesar.engine.data.safeio import read_text
from avecaesar.engine.data.schemas import validator
from avecaesar.engine.data.values import HouseRules, Json, JsonDict

__all__ = ["BOARD_FORMAT", "FORMAT", "KINDS", "SCHEMA_ID", "SKIP", "VERSION", "Checked",
           "Failure", "Suite", "board_table", "check_folder", "count_answer", "game_for",
           "perft", "position_answer", "read_vector_file", "rule_values", "state_of",
           "turn_options", "vector_lines"]

FORMAT = "avecaesar-vectors"
BOARD_FORMAT = "avecaesar-vector-board"
VERSION = 1
SCHEMA_ID = "urn:avecaesar:vectors"
#: the turn of a chariot with no legal move, in ``counts``
SKIP = "skip"
KINDS = ("positions", "counts", "races", "tournaments")
#: the depth of the ``counts`` vectors
DEPTH = 3


@dataclass(frozen=True)
class Suite:
    """The rules and course of one vector file: ``ruleset`` with ``variants``, the
    ``--set`` ``overrides`` and the ``house`` rules (dotted key → rule), on ``course`` (a
    bundled id, or a course file relative to the vectors folder)."""

    name: str
    ruleset: str
    course: str
    variants: tuple[str, ...] = ()
    overrides: tuple[tuple[str, str], ...] = ()
    house: HouseRules | None = None

    def rules_json(self) -> JsonDict:
        return {"ruleset": self.ruleset, "variants": list(self.variants),
                "set": dict(self.overrides), "house": _plain(self.house)}

    @classmethod
    def from_json(cls, doc: JsonDict) -> Suite:
        rules = doc["rules"]
        return cls(doc["suite"], rules["ruleset"], doc["course"],
                   tuple(rules.get("variants", [])),
                   tuple((str(k), str(v)) for k, v in (rules.get("set") or {}).items()),
                   rules.get("house"))

    def course_ref(self, folder: Path) -> str:
        """The course as the engine loads it: a bundled id, or the file in ``folder``."""
        if self.course.lower() in bundled_course_ids():
            return self.course
        return str(folder / self.course)

    def setup(self, folder: Path, changes: Mapping[str, str] | None = None,
              loaded: Course | None = None) -> RaceSetup:
        """The suite's rules (with ``changes``: more ``--set`` values, applied last) on its
        course (``loaded``: the course already loaded)."""
        chosen = ChosenRules.compose(self.ruleset, [self.file_ref(v, folder)
                                                    for v in self.variants],
                                     {**dict(self.overrides), **dict(changes or {})},
                                     self.house)
        return chosen.on(self.course_ref(folder), loaded)

    @staticmethod
    def file_ref(name: str, folder: Path) -> str:
        """A variant as the engine loads it: a bundled id as it is; a file named relative
        to the vectors folder or to the project's data root (``rulesets/examples/…``, the
        bundled house-rule examples) found there, whatever the working folder."""
        if not name.endswith((".yaml", ".yml")) or Path(name).is_absolute():
            return name
        for base in (folder, RULESETS_DIR.parent):
            if (base / name).is_file():
                return str(base / name)
        return name

    def course_of(self, folder: Path) -> Course:
        """The suite's course, loaded (to build several setups on it)."""
        return load_course(self.course_ref(folder))


def _plain(value: object) -> Json:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value  # type: ignore[return-value]  # a YAML or JSON scalar


# --- what a file carries besides its vectors --------------------------------------------

def rule_values(chosen: ChosenRules) -> tuple[JsonDict, JsonDict]:
    """The composed rules as a vector file carries them: every stated key's value (``open``
    for a value no text decides) and its citation."""
    rs = chosen.composed
    values: JsonDict = {}
    cites: JsonDict = {}
    for key in rs.stated_keys():
        rule = rs.rule(key)
        values[key] = "open" if rule.get("unknown") else _plain(rule.get("value"))
        cites[key] = rs.citation(key)
    return values, cites


def board_table(board: Board) -> JsonDict:
    """A course's lane graph as the engine's board tables (engine/core/board.py): per
    space its label, lane, piece kind, progress, alley and chicane flags, whether it lies on
    a bridge, whether an alley space can still be reached from it in this lap, the steps to
    the line, the spaces straight ahead, behind and beside, and its forward steps (with the
    finish-line flag)."""
    nodes = []
    for n in range(len(board.succ)):
        nodes.append({
            "id": n, "label": board.label[n], "lane": board.lane[n],
            "piece": board.piece_kind[n], "progress": board.progress[n],
            "alley": board.alley[n], "chicane": board.chicane[n], "bridge": board.bridge[n],
            "before_alley": board.before_alley[n], "to_line": board.to_line[n],
            "ahead": board.ahead[n], "behind": board.behind[n],
            "beside": list(board.beside[n]),
            "next": [[v, crosses] for v, crosses in board.succ[n]]})
    return {"format": BOARD_FORMAT, "version": VERSION, "course": board.id,
            "lanes": board.lanes, "lap_value": board.lap_value,
            "start_places": list(board.start_places),
            "start_crossings": list(board.start_crossings), "has_alley": board.has_alley,
            "nodes": nodes}


def board_file(suite: Suite, folder: Path) -> str:
    """The board file of a suite's course, relative to the vectors folder: the course's
    name; a suite whose variants, ``--set`` values or house rules change the lane graph
    (water ditches as plain spaces, …) has its own, named by the course and the suite."""
    stem = Path(suite.course).stem if suite.course.endswith((".yaml", ".yml")) \
        else suite.course
    name = stem.replace("/", "--")
    if (suite.variants or suite.overrides or suite.house) and \
            board_table(suite.setup(folder).board) != board_table(_plain_board(suite, folder)):
        name = f"{name}--{suite.name}"
    return f"boards/{name}.json"


def _plain_board(suite: Suite, folder: Path) -> Board:
    """The suite's course under its ruleset alone; where the ruleset alone leaves a value
    open that a race needs (the homebrew's team turn order), with the suite's ``--set``
    answers, as the suite itself has to give them."""
    try:
        return Suite(suite.name, suite.ruleset, suite.course).setup(folder).board
    except MissingRuleValueError:
        return Suite(suite.name, suite.ruleset, suite.course, (), suite.overrides
                     ).setup(folder).board


# --- the answers ----------------------------------------------------------------------

def game_for(setup: RaceSetup, vector: JsonDict) -> RaceGame:
    """The race a position vector is a moment of: its chariots (as many as the notation
    has), those no player drives (``ownerless``, letters) and the player driving each when
    players drive several (``owners``)."""
    n = len(str(vector["position"]).split("|")[0].split())
    nobody = str(vector.get("ownerless", ""))
    if nobody and setup.race_rules.ownerless is None:
        raise AveCaesarError(f"chariots {nobody} are driven by nobody, and these rules have "
                             "no such chariots (ownerless.when)")
    flags = tuple(LETTERS[c] in nobody for c in range(n)) if nobody else ()
    owners = tuple(int(o) for o in vector.get("owners", ()))
    players = tuple(f"P{i + 1}" for i in range(max(owners) + 1)) if owners else ()
    return RaceGame(setup.race_rules, setup.board, tuple(LETTERS[:n]), flags, owners, players)


def state_of(setup: RaceSetup, vector: JsonDict) -> RaceState:
    state = RaceState.parse(game_for(setup, vector), str(vector["position"]))
    state.log = False
    return state


def _ordered(moves: Iterable[Move]) -> list[Move]:
    return sorted(moves, key=lambda m: (m.card, m.path, m.ram))


def _reason(reason: Reason | None) -> JsonDict | None:
    return None if reason is None else reason.to_json()


def position_answer(state: RaceState, probes: Sequence[str] = ()) -> JsonDict:
    """The answer of a position vector: the legal moves (as ``Move`` text, ordered by card,
    path and ramming target), the skip reason when there is none, the reason of every card
    without a move, and :func:`why_not` of each probe."""
    moves = state.legal_moves()
    legal = _ordered(moves)
    have = {m.card for m in legal}
    cards: JsonDict = {}
    if state.end is None:
        for k in sorted(set(state.cards(state.turn))):
            if k not in have:
                cards[str(k)] = _reason(card_reason(state, k))
    return {"legal": [str(m) for m in legal],
            "skip": None if legal or moves.skip_reason is None else str(moves.skip_reason),
            "cards": cards,
            "probes": [{"move": p, "why": _reason(why_not(state, Move.parse(p)))}
                       for p in probes]}


def turn_options(state: RaceState) -> list[Move | str]:
    """What the chariot to move may do this turn, as ``counts`` count it: its legal moves
    (ordered), or the skip when it has none; nothing once the race is over."""
    if state.end is not None:
        return []
    moves = _ordered(state.legal_moves())
    return list(moves) if moves else [SKIP]


def _after(state: RaceState, option: Move | str) -> RaceState:
    child = state.copy()
    child.log = False
    if isinstance(option, str):
        child.skip(child.legal_moves().skip_reason or SkipReason.BLOCKED)
    else:
        child.push(option)
    return child


def perft(state: RaceState, depth: int) -> int:
    """The number of distinct sequences of ``depth`` turns from ``state`` (a turn: a legal
    move, or the skip; a race over has none)."""
    if depth == 0:
        return 1
    options = turn_options(state)
    if depth == 1:
        return len(options)
    return sum(perft(_after(state, o), depth - 1) for o in options)


def count_answer(state: RaceState, depth: int = DEPTH) -> JsonDict:
    """The answer of a counts vector: ``counts[d - 1]`` sequences of ``d`` turns for ``d`` up
    to ``depth``, and per first turn the counts of the sequences after it (``divide``)."""
    divide: list[list[str | int]] = []
    below: list[list[int]] = []
    for o in turn_options(state):
        child = _after(state, o)
        below.append([perft(child, d) for d in range(1, depth)])
        divide.append([str(o), *below[-1]])
    counts = [len(divide)] + [sum(row[d - 1] for row in below) for d in range(1, depth)]
    return {"counts": counts, "divide": divide}


# --- reading and checking a folder ---------------------------------------------------------

@dataclass(frozen=True)
class Failure:
    """A vector (or a file) whose recorded answer the engine no longer gives."""

    file: str
    line: int
    vector: str
    message: str

    def __str__(self) -> str:
        what = f"{self.vector}: " if self.vector else ""
        return f"{self.file}:{self.line}: {what}{self.message}"


@dataclass
class Checked:
    """What :func:`check_folder` found: files and vectors checked, and the failures."""

    files: int = 0
    vectors: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def vector_lines(text: str) -> dict[str, int]:
    """The line of each vector id in a vector file as :func:`write` lays it out (one vector
    a line)."""
    out: dict[str, int] = {}
    for n, line in enumerate(text.splitlines(), start=1):
        start = line.find('{"id": "')
        if start >= 0:
            vid = line[start + 8:].split('"', 1)[0]
            out.setdefault(vid, n)
    return out


def read_vector_file(path: Path) -> tuple[JsonDict, str, list[str]]:
    """A vector or board file, its text and its schema problems (each ``where: message``);
    a file that is not JSON is an :class:`InputError` located at the mistake."""
    text = read_text(path, record_bytes_limit(), "vector file")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError([Problem(str(path), err.lineno, err.colno, f"not JSON: {err.msg}")]
                         ) from None
    except (RecursionError, ValueError):
        raise InputError([Problem(str(path), 1, 1, "not a vector file: nested too deeply "
                                  "or a number too long")]) from None
    problems = [f"{'/'.join(str(p) for p in e.absolute_path) or 'top'}: {e.message[:160]}"
                for e in list(validator(SCHEMA_ID).iter_errors(doc))[:10]]
    return doc, text, problems


def suite_files(folder: Path) -> list[Path]:
    """The suite files of a vectors folder (its top level's ``*.json`` but ``reasons.json``)."""
    return sorted(p for p in folder.glob("*.json") if p.name != "reasons.json")


def check_folder(folder: Path, changes: Mapping[str, str] | None = None,
                 only: Callable[[str, str], bool] | None = None,
                 files: Collection[str] | None = None) -> Checked:
    """Check every vector file of ``folder`` against the engine: the schema, the board and
    rule values it rests on, and each vector's answer. ``changes``: ``--set`` values applied
    on top of each suite's rules (a planted rule change: the vectors it breaks fail);
    ``only(file, vector id)``: check only the vectors it accepts; ``files``: read only these
    files (names), the others not even opened."""
    out = Checked()
    for path in suite_files(folder):
        if files is not None and path.name not in files:
            continue
        out.files += 1
        _check_file(folder, path, changes, only, out)
    return out


def _check_file(folder: Path, path: Path, changes: Mapping[str, str] | None,
                only: Callable[[str, str], bool] | None, out: Checked) -> None:
    name = path.relative_to(folder).as_posix()
    doc, text, problems = read_vector_file(path)
    lines = vector_lines(text)
    if not problems and doc.get("format") != FORMAT:
        problems = [f"format: {doc.get('format')!r}, not a suite of vectors ({FORMAT})"]
    if problems:
        out.failures += [Failure(name, 1, "", f"not a vector file: {p}") for p in problems]
        return
    if only is not None and not any(only(name, str(v.get("id"))) for kind in KINDS
                                    for v in doc.get(kind, [])):
        return  # none of its vectors asked for: its rules are not even composed
    suite = Suite.from_json(doc)
    try:
        setup = suite.setup(folder, changes)
    except AveCaesarError as err:
        out.failures.append(Failure(name, 1, "", f"the rules do not compose: {err}"))
        return
    if changes is None:
        out.failures += _check_foundations(folder, name, doc, suite, setup)
    for kind in KINDS:
        for vector in doc.get(kind, []):
            vid = str(vector["id"])
            if only is not None and not only(name, vid):
                continue
            out.vectors += 1
            out.by_kind[kind] = out.by_kind.get(kind, 0) + 1
            message = vector_problem(kind, setup, vector, suite)
            if message is not None:
                out.failures.append(Failure(name, lines.get(vid, 1), vid, message))


def _check_foundations(folder: Path, name: str, doc: JsonDict, suite: Suite,
                       setup: RaceSetup) -> list[Failure]:
    """The rule values, the player counts and the board a file's answers rest on."""
    out = []
    values, cites = rule_values(setup.rules)
    for what, have, want in (("rule values", doc.get("values"), values),
                             ("citations", doc.get("citations"), cites)):
        if have != want:
            keys = sorted(k for k in {*(have or {}), *want}
                          if (have or {}).get(k) != want.get(k))
            out.append(Failure(name, 1, "", f"the {what} differ from the rules composed now "
                               f"({', '.join(keys[:6])}{' …' if len(keys) > 6 else ''})"))
    counts = list(player_counts(setup.race_rules, setup.board).allowed)
    if doc.get("players") != counts:
        out.append(Failure(name, 1, "", f"the rules allow {counts} players on the course, "
                           f"the file says {doc.get('players')}"))
    board = folder / str(doc.get("board", ""))
    if not board.is_file():
        out.append(Failure(name, 1, "", f"its board file {doc.get('board')} is missing"))
    elif read_vector_file(board)[0] != board_table(setup.board):
        out.append(Failure(doc["board"], 1, "", f"the lane graph of {suite.course} differs "
                           "from the board tables the vectors rest on"))
    return out


def vector_problem(kind: str, setup: RaceSetup, vector: JsonDict,
                   suite: Suite | None = None) -> str | None:
    """What differs between a vector's recorded answer and the engine's (None: nothing)."""
    try:
        if kind == "positions":
            got = position_answer(state_of(setup, vector),
                                  [p["move"] for p in vector.get("probes", [])])
            return _differs(vector, got, ("legal", "skip", "cards", "probes"))
        if kind == "counts":
            return _differs(vector, count_answer(state_of(setup, vector)),
                            ("counts", "divide"))
        if kind == "races":
            return _race_problem(setup, vector, suite)
        return _tournament_problem(setup, vector)
    except AveCaesarError as err:
        return f"the engine refuses it: {err}"
    except (ValueError, KeyError, IndexError, AssertionError) as err:  # a vector these
        # rules cannot even play (a changed rule under --set): it fails, it does not crash
        return f"the engine cannot play it under these rules ({type(err).__name__}: {err})"


def _differs(vector: JsonDict, got: JsonDict,
             fields: Sequence[str]) -> str | None:
    for f in fields:
        want = vector.get(f, [] if f in ("probes",) else None)
        if f == "cards":
            want = vector.get(f, {})
        if got[f] != want:
            return f"{f}: the engine gives {_short(got[f])}, the vector {_short(want)}"
    return None


def _short(value: object, n: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= n else text[: n - 3] + "..."


def _race_problem(setup: RaceSetup, vector: JsonDict,
                  suite: Suite | None = None) -> str | None:
    lines = [{**line, "_line": i} for i, line in enumerate(vector["record"], start=1)]
    head = lines[0]
    named = (head.get("ruleset"), list(head.get("variants", [])), head.get("overrides", {}))
    want = (setup.rules.ruleset, list(setup.rules.variants), setup.rules.overrides_dict)
    if suite is not None:  # the names as the suite gives them (not where its files lie)
        want = (suite.ruleset, list(suite.variants), want[2])
    if named[:2] != want[:2]:
        return f"the record's header names {named[:2]}, the suite {want[:2]}"
    counts = player_counts(setup.race_rules, setup.board)
    if len(head.get("players", [])) not in counts.allowed:  # a race these rules allow
        return counts.why_not(len(head.get("players", [])))
    replay(lines, setup.race_rules, setup.board, f"race {vector['id']}")
    return None


def _tournament_problem(setup: RaceSetup, vector: JsonDict) -> str | None:
    chosen = setup.rules
    doc = dict(vector["record"])
    counts = player_counts(setup.race_rules)
    if len(doc.get("players") or []) not in counts.allowed:  # a tournament these rules allow
        return counts.why_not(len(doc.get("players") or []))
    replay_tournament(doc, chosen.tournament_rules, chosen.course_setups(),
                      f"tournament {vector['id']}", chosen.course_pool())
    return None
