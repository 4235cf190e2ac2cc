"""What the published vectors say that can be confirmed without the rules: a checker that
imports nothing of the engine (only the standard library), as an implementer in another
language would write first.

Run: ``python tests/vectors_check.py [vectors]`` — prints each problem and exits 1 if
there is one. ``tests/lab/test_vectors.py`` runs it on ``vectors/`` (and checks it imports
no ``avecaesar`` module).

It confirms, for every suite file:

- every listed move (a position's legal moves, a count's first turns) plays a card the
  chariot to move plays from — a card of its hand; for a chariot no player drives, the top
  card of its deck (or, once its deck is gone, a move by position of the rules' values);
  the bonus piece only when the notation says the chariot holds it — and each step of its
  path is a forward step of the course's board file;
- no card listed as having no move (with its reason) is played by a legal move;
- every count's breakdown adds up: one row per first turn, the sequences after each summed;
- every reason code (nested ones too) is documented in ``reasons.json``;
- every race record runs header, turns with plies 1, 2, 3…, one result line; a move has at
  least one legal move, a skip none.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

LETTERS = "ABCDEFGHIJKL"


def _chariots(position: str) -> tuple[list[list[str]], str]:
    head, _, turn = position.partition("|")
    return [g.split(",") for g in head.split()], turn.split()[0]


def _digits(field: str) -> list[int]:
    return [] if field == "-" else [int(x) for x in field]


def _plays_from(vector: Mapping[str, Any], values: Mapping[str, Any]) -> tuple[set[int], bool]:
    """The cards the chariot to move plays from, and whether it holds the bonus piece."""
    groups, turn = _chariots(str(vector["position"]))
    c = LETTERS.index(turn)
    fields = groups[c]
    bonus = fields[2].startswith("b")
    if turn in str(vector.get("ownerless", "")):
        deck = _digits(fields[4])
        if deck:
            return {deck[0]}, False
        by_position = values.get("ownerless.position_moves") or {}
        return {int(v) for v in by_position.values()}, False
    return set(_digits(fields[3])), bonus


def _steps(board: Mapping[str, Any]) -> dict[int, set[int]]:
    return {int(n["id"]): {int(v) for v, _crosses in n["next"]} for n in board["nodes"]}


def _move_problems(text: str, vector: Mapping[str, Any], values: Mapping[str, Any],
                   steps: Mapping[int, set[int]]) -> Iterator[str]:
    if text in ("wait", "skip"):
        return
    card_text, _, rest = text.partition(":")
    path = [int(n) for n in rest.partition("!")[0].split("-") if n]
    cards, bonus = _plays_from(vector, values)
    if card_text.startswith("+"):
        if not bonus or int(card_text[1:]) != values.get("bonus.points"):
            yield f"{text}: the bonus piece, which the chariot does not hold"
    elif int(card_text) not in cards:
        yield f"{text}: plays a {card_text}, not a card it plays from {sorted(cards)}"
    groups, turn = _chariots(str(vector["position"]))
    start = groups[LETTERS.index(turn)][0]
    if start == "-":
        return
    node = int(start)
    for nxt in path:
        if nxt not in steps.get(node, set()):
            yield f"{text}: {node} → {nxt} is not a forward step of the board"
            return
        node = nxt


def _codes(reason: Any) -> Iterator[str]:
    if isinstance(reason, Mapping) and "code" in reason:
        yield str(reason["code"])
        for value in (reason.get("params") or {}).values():
            yield from _codes(value)


def _position_problems(v: Mapping[str, Any], values: Mapping[str, Any],
                       steps: Mapping[int, set[int]], known: set[str]) -> Iterator[str]:
    played = set()
    for text in v["legal"]:
        yield from _move_problems(text, v, values, steps)
        if text != "wait" and not text.startswith("+"):
            played.add(text.partition(":")[0])
    for card, reason in v["cards"].items():
        if card in played:
            yield f"card {card} is said to have no move, but {card}:… is legal"
        for code in _codes(reason):
            if code not in known:
                yield f"card {card}: reason code {code!r} is not in reasons.json"
    for probe in v["probes"]:
        if probe["move"] in v["legal"]:
            yield f"probe {probe['move']} is one of the legal moves"
        for code in _codes(probe["why"]):
            if code not in known:
                yield f"probe {probe['move']}: reason code {code!r} is not in reasons.json"


def _count_problems(v: Mapping[str, Any], values: Mapping[str, Any],
                    steps: Mapping[int, set[int]]) -> Iterator[str]:
    counts, divide = v["counts"], v["divide"]
    if counts[0] != len(divide):
        yield f"{counts[0]} sequences of one turn, but {len(divide)} rows in the breakdown"
    for d in range(1, len(counts)):
        total = sum(int(row[d]) for row in divide)
        if total != counts[d]:
            yield f"the breakdown adds up to {total} sequences of {d + 1} turns, not {counts[d]}"
    for row in divide:
        yield from _move_problems(str(row[0]), v, values, steps)


def _record_problems(lines: list[Mapping[str, Any]]) -> Iterator[str]:
    if not lines or lines[0].get("type") != "header":
        yield "the record does not start with its header"
        return
    if lines[-1].get("type") != "result" or any(x.get("type") == "result" for x in lines[:-1]):
        yield "the record does not end with its one result line"
    for ply, line in enumerate(lines[1:-1], start=1):
        if line.get("ply") != ply:
            yield f"line {ply + 1}: ply {line.get('ply')} where {ply} is due"
        legal = line.get("legal")
        if line.get("type") == "skip" and legal != 0:
            yield f"ply {ply}: a skip with {legal} legal moves"
        if line.get("type") in ("move", "wait") and not (isinstance(legal, int) and legal > 0):
            yield f"ply {ply}: a {line['type']} with {legal} legal moves"


def check_file(path: Path, folder: Path, known: set[str]) -> Iterator[str]:
    """Every problem of one suite file, each ``file: vector: what``."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    name = path.name
    values = doc["values"]
    board = json.loads((folder / doc["board"]).read_text(encoding="utf-8"))
    steps = _steps(board)
    ids = [v["id"] for kind in ("positions", "counts", "races", "tournaments")
           for v in doc[kind]]
    if len(ids) != len(set(ids)):
        yield f"{name}: two vectors share an id"
    for v in doc["positions"]:
        yield from (f"{name}: {v['id']}: {p}" for p in _position_problems(v, values, steps,
                                                                          known))
    for v in doc["counts"]:
        yield from (f"{name}: {v['id']}: {p}" for p in _count_problems(v, values, steps))
    for v in doc["races"]:
        yield from (f"{name}: {v['id']}: {p}" for p in _record_problems(v["record"]))
    for v in doc["tournaments"]:
        for race in v["record"]["races"]:
            yield from (f"{name}: {v['id']} race {race['race']}: {p}"
                        for p in _record_problems(race["record"]))


def check(folder: Path) -> tuple[int, list[str]]:
    """The number of vectors in ``folder`` and every problem found."""
    reasons = json.loads((folder / "reasons.json").read_text(encoding="utf-8"))["reasons"]
    known = {code for code, r in reasons.items() if r.get("meaning") and r.get("english")}
    problems: list[str] = []
    vectors = 0
    for path in sorted(folder.glob("*.json")):
        if path.name == "reasons.json":
            continue
        doc = json.loads(path.read_text(encoding="utf-8"))
        vectors += sum(len(doc[k]) for k in ("positions", "counts", "races", "tournaments"))
        problems += check_file(path, folder, known)
    return vectors, problems


def main(argv: list[str]) -> int:
    folder = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[1] / "vectors"
    vectors, problems = check(folder)
    for p in problems:
        print(p)
    print(f"{vectors} vectors, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
