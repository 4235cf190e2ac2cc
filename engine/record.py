"""Game records as JSON Lines, and replaying them move by move.

Line 1 is the header (ruleset, variants, overrides, course, seed, players and their bots,
the start order); then one line per turn (a move with its card and path, a wait, or a skip
with its reason); the last line is the result. ``schemas/game-record.schema.json`` validates
each line. :func:`replay` re-checks every move and reports the first illegal one with its
line number.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from avecaesar.engine.board import Board
from avecaesar.engine.moves import why_not
from avecaesar.engine.race import RaceRun, new_race, outcome
from avecaesar.engine.rules import RaceRules
from avecaesar.engine.state import LETTERS, Move, RaceState
from avecaesar.errors import AveCaesarError, InputError, Problem

__all__ = ["FORMAT", "RecordError", "read_record", "record_lines", "replay", "write_record"]

FORMAT = "avecaesar-game-record"
VERSION = 1


class RecordError(AveCaesarError):
    """Raised when a record cannot be replayed; names the line and what is wrong."""

    def __init__(self, file: str, line: int, message: str) -> None:
        self.file, self.line = file, line
        super().__init__(f"{file}:{line}: {message}")


def record_lines(run: RaceRun, header: dict[str, Any]) -> list[dict[str, Any]]:
    """The record of a finished run: header, one line per turn, result."""
    names = run.state.game.names
    head = {"type": "header", "format": FORMAT, "version": VERSION, **header,
            "seats": run.setup["seats"], "reveals": run.setup["reveals"],
            "start": run.setup["start"],
            "chariots": list(names)}
    lines: list[dict[str, Any]] = [head]
    for i, t in enumerate(run.turns, start=1):
        c = t["chariot"]
        base = {"ply": i, "chariot": LETTERS[c], "name": names[c], "legal": t["legal"]}
        if "skip" in t:
            lines.append({"type": "skip", **base, "reason": t["skip"]})
        elif t["move"].card == 0:
            lines.append({"type": "wait", **base})
        else:
            m = t["move"]
            lines.append({"type": "move", **base, "card": m.card, "path": list(m.path),
                          **({"ram": LETTERS[m.ram]} if m.ram >= 0 else {})})
    lines.append({"type": "result", **outcome(run.state).to_json(),
                  "final": run.state.notation()})
    return lines


def write_record(path: str | Path, lines: Iterable[dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")


def read_record(path: str | Path) -> list[dict[str, Any]]:
    """Parse and schema-check every line; all problems at once, each with its line."""
    from avecaesar.schemas import validator

    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise InputError([Problem(file, 1, 1, f"cannot read the record: {err.strerror}")]) \
            from None
    v = validator("urn:avecaesar:game-record")
    problems: list[Problem] = []
    out: list[dict[str, Any]] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            doc = json.loads(raw)
        except json.JSONDecodeError as err:
            problems.append(Problem(file, n, err.colno, f"not JSON: {err.msg}"))
            continue
        for e in v.iter_errors(doc):
            where = "/".join(str(p) for p in e.absolute_path) or "line"
            problems.append(Problem(file, n, 1, f"{where}: {e.message}"))
        out.append({**doc, "_line": n} if isinstance(doc, dict) else {"_line": n})
    if not problems and (not out or out[0].get("type") != "header"):
        problems.append(Problem(file, 1, 1, "the first line must be the header"))
    if problems:
        raise InputError(problems)
    return out


def replay(lines: Sequence[dict[str, Any]], rules: RaceRules, board: Board,
           file: str = "record") -> RaceState:
    """Rebuild the race from its header and re-check every turn; return the final state.

    A header with ``seated: true`` (a tournament's later race) takes its recorded seats
    instead of drawing for them."""
    head = lines[0]
    players = [p["name"] for p in head["players"]]
    state, setup = new_race(rules, board, players, int(head["seed"]),
                            head["seats"] if head.get("seated") else None)
    if (setup["seats"] != head.get("seats", setup["seats"])
            or setup["start"] != head.get("start", setup["start"])):
        raise RecordError(file, head["_line"], "the seed does not give the recorded start "
                          "order and hands: wrong seed, players or ruleset")
    for line in lines[1:]:
        n, kind = line["_line"], line["type"]
        if kind == "result":
            if state.notation() != line["final"]:
                raise RecordError(file, n, "the recorded final position differs from the "
                                  "replayed one")
            if outcome(state).to_json().get("placings") != line["placings"]:
                raise RecordError(file, n, "the recorded result differs from the replayed one")
            continue
        if state.over:
            raise RecordError(file, n, "a turn after the race is over")
        if line["chariot"] in LETTERS and LETTERS.index(line["chariot"]) in state.choosable():
            state.choose(LETTERS.index(line["chariot"]))  # the player ordered own chariots
        who = LETTERS[state.turn]
        if line["chariot"] != who:
            raise RecordError(file, n, f"it is chariot {who}'s turn, not {line['chariot']}'s")
        moves = state.legal_moves()
        if "legal" in line and line["legal"] != len(moves):
            raise RecordError(file, n, f"the record counts {line['legal']} legal moves, the "
                              f"rules give {len(moves)}")
        if kind == "skip":
            if moves:
                raise RecordError(file, n, f"a skip, but chariot {who} can move "
                                  f"(e.g. {next(iter(moves))})")
            state.skip(moves.skip_reason or "blocked")
            continue
        move = Move(0, ()) if kind == "wait" else Move(
            int(line["card"]), tuple(line["path"]),
            LETTERS.index(line["ram"]) if line.get("ram") else -1)
        reason = why_not(state, move)
        if reason is not None:
            raise RecordError(file, n, f"illegal move {move}: {reason}")
        state.push(move)
    return state
