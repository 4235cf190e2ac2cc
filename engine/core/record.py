"""Game records as JSON Lines, and replaying them move by move.

Line 1 is the header (ruleset, variants, overrides, course, seed, players and their bots,
the start order, and ``content``: the hashes of the course, the composed rules and the house
rules it was played on); then one line per turn (a move with its card and path, a wait, or a
skip with its reason); the last line is the result. ``schemas/game-record.schema.json``
validates each line. :func:`replay` re-checks every move and reports the first illegal one
with its line number; :func:`setup_from_header` builds what a header names and says which of
its files differ from what the record was played on.

**A dealt race** (the web table's, for a table of people): its header's ``deal`` says the
seed was drawn by the server and carries a commitment, shown to every device at the start —
the SHA-256 of the seed, a secret nonce and the race's public header
(:func:`deal_commitment`). The finished record reveals seed and nonce; :func:`verify_deal`
checks the commitment, and :func:`replay` that the seed gives the recorded deal.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from avecaesar.engine.core.board import Board
from avecaesar.engine.core.moves import why_not
from avecaesar.engine.core.race import RaceRun, new_race, outcome
from avecaesar.engine.core.race_setup import CONTENT_KEYS, ChosenRules, RaceSetup, Seat
from avecaesar.engine.core.ruleset_adapter import RaceRules
from avecaesar.engine.core.state import LETTERS, Move, RaceState
from avecaesar.engine.course.load import bundled_course_ids
from avecaesar.engine.data.errors import AveCaesarError, FileAccessError, InputError, Problem
from avecaesar.engine.data.limits import record_bytes_limit
from avecaesar.engine.data.safeio import (
    allowed_roots,
    check_inside,
    read_text,
    real_path,
    write_atomic,
)
from avecaesar.engine.data.schemas import validator
from avecaesar.engine.data.values import JsonDict
from avecaesar.engine.ruleset.embedded import embedded

__all__ = ["FORMAT", "NOT_COMMITTED", "RecordError", "check_header_files", "deal_commitment",
           "files_the_record_named", "parse_record", "read_record", "record_lines", "replay",
           "setup_from_header", "verify_deal", "write_record"]

FORMAT = "avecaesar-game-record"
VERSION = 1
MAX_PROBLEMS = 50
#: header keys a deal's commitment leaves out: the secrets it commits to (the seed, and the
#: start position that follows from it), the deal itself, and what reading adds
NOT_COMMITTED = ("seed", "start", "deal", "public", "_line")
#: the header's start facts replay checks against the seed; a record without one is refused
START_FACTS = {"seats": "the seat on each start place", "reveals": "the cards of the "
               "start-order draw", "start": "the start position",
               "chariots": "the driver of each chariot"}
#: what every turn line carries besides its type, ply and chariot; replay checks each
TURN_FACTS = {"name": "who drives the chariot", "legal": "the number of legal moves"}


class RecordError(AveCaesarError):
    """Raised when a record cannot be replayed; names the line and what is wrong."""

    def __init__(self, file: str, line: int, message: str) -> None:
        self.file, self.line = file, line
        super().__init__(f"{file}:{line}: {message}")


def record_lines(run: RaceRun, header: JsonDict) -> list[JsonDict]:
    """The record of a finished run: header, one line per turn, result. ``header`` is what
    the race was set up under (:meth:`~avecaesar.engine.core.race_setup.RaceSetup.header`);
    the record adds its format and the start facts (start order, reveals, start position,
    the chariots' names)."""
    names = run.state.game.names
    head = {"type": "header", "format": FORMAT, "version": VERSION, **header,
            "seats": run.setup["seats"], "reveals": run.setup["reveals"],
            "start": run.setup["start"],
            "chariots": list(names)}
    lines: list[JsonDict] = [head]
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


def deal_commitment(head: JsonDict, seed: int, nonce: str) -> str:
    """The SHA-256 (hex) a dealt race commits to before its first card: of the canonical
    JSON (keys sorted, no spaces, UTF-8) of ``{"header": H, "nonce": nonce, "seed": seed}``,
    where H is the record's header without :data:`NOT_COMMITTED` — the race's public header
    (rules, course and its hash, players, start order). Anyone can recompute it from the
    finished record."""
    public = {k: v for k, v in head.items() if k not in NOT_COMMITTED}
    text = json.dumps({"header": public, "nonce": nonce, "seed": seed}, sort_keys=True,
                      ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def verify_deal(head: JsonDict, file: str = "record") -> str:
    """Check a finished dealt record's commitment: the seed and nonce it reveals, with its
    header, hash to the commitment shown at the start. Returns what was checked; a
    :class:`RecordError` says what does not hold. (That the seed gives the recorded deal and
    every move is legal is :func:`replay`'s check.)"""
    line = int(head.get("_line", 1))
    deal = head.get("deal")
    if not isinstance(deal, dict):
        raise RecordError(file, line, "the header has no deal: the race's seed was not "
                          "committed to (a race of the CLI, or an older record)")
    if deal.get("by") != "server":
        raise RecordError(file, line, "practice: the seed was chosen by a person (the deal "
                          "was known to them), so there is no commitment to check")
    nonce, commitment = deal.get("nonce"), deal.get("commitment")
    if not isinstance(commitment, str):
        raise RecordError(file, line, "the deal has no commitment")
    if not isinstance(nonce, str):
        raise RecordError(file, line, "the deal's nonce is not revealed: a race in "
                          "progress (its record is public, the nonce comes with the end)")
    again = deal_commitment(head, int(head["seed"]), nonce)
    if again != commitment:
        raise RecordError(file, line, f"the commitment {commitment[:16]}… does not match "
                          f"the seed, nonce and header ({again[:16]}…): this is not the "
                          "deal promised at the start")
    return f"commitment {commitment[:16]}… matches seed {head['seed']} and nonce {nonce}"


def write_record(path: str | Path, lines: Iterable[JsonDict]) -> None:
    """Write a record at once (atomically: a crash never leaves half a record)."""
    write_atomic(path, "".join(json.dumps(line, ensure_ascii=False, separators=(",", ":"))
                               + "\n" for line in lines))


def read_record(path: str | Path, limit: int | None = None) -> list[JsonDict]:
    """Parse and schema-check every line; all problems at once (the first 50), each with its
    line. A record over ``limit`` bytes (default: the records limit) is refused unread."""
    file = str(path)
    return parse_record(read_text(path, limit or record_bytes_limit(), "record"), file)


def parse_record(text: str, file: str = "record") -> list[JsonDict]:
    """The lines of a record's text, parsed and schema-checked as :func:`read_record`
    does (the web table's records come from its database, not from a file)."""
    v = validator("urn:avecaesar:game-record")
    problems: list[Problem] = []
    out: list[JsonDict] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        if len(problems) >= MAX_PROBLEMS:
            problems.append(Problem(file, n, 1, "… and more: stopped reading here"))
            break
        if not raw.strip():
            continue
        try:
            doc = json.loads(raw)
            errors = list(v.iter_errors(doc))
        except json.JSONDecodeError as err:
            problems.append(Problem(file, n, err.colno, f"not JSON: {err.msg}"))
            continue
        except (RecursionError, ValueError):  # nested too deep, a number too long
            problems.append(Problem(file, n, 1, "not a record line: nested too deeply or a "
                                    "number too long"))
            continue
        for e in errors[:5]:
            where = "/".join(str(p) for p in e.absolute_path) or "line"
            problems.append(Problem(file, n, 1, f"{where}: {_clip(e.message)}"))
        out.append({**doc, "_line": n} if isinstance(doc, dict) else {"_line": n})
    if not problems and (not out or out[0].get("type") != "header"):
        problems.append(Problem(file, out[0]["_line"] if out else 1, 1,
                                "the first line must be the header"))
    for line in out[1:]:
        if line.get("type") == "header":
            problems.append(Problem(file, line["_line"], 1, "a second header: a record has "
                                    "one header, on its first line"))
    if problems:
        raise InputError(problems)
    return out


def _clip(text: str, n: int = 120) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def check_header_files(head: JsonDict, file: str, with_course: bool = True
                       ) -> None:
    """A record names its ruleset, variants and course: bundled ids, or files (read, as
    when the race was run, relative to the working folder) in the working folder's tree,
    the record's own folder tree or a folder allowed with ``--allow-path`` — never any file
    on the machine (a record may come from someone else)."""
    here = real_path(file).parent
    roots = allowed_roots(here, Path.cwd())
    line = head.get("_line", 1)
    refs = [("ruleset", head["ruleset"]), *(("variant", v) for v in head["variants"])]
    carried = head.get("rules_files") or {}  # replayed from the record's own copy
    named = [(k, r) for k, r in refs if (r.endswith((".yaml", ".yml")) or "/" in r
                                         or "\\" in r) and r not in carried]
    if with_course and head["course"].lower().strip() not in bundled_course_ids():
        named.append(("course", head["course"]))
    for kind, ref in named:
        if not check_inside(Path(ref), roots):
            raise RecordError(file, line, f"the header names the {kind} file {ref!r}, outside "
                              "the working folder, the record's folder and the bundled data "
                              "— copy it next to the record, or pass --allow-path FOLDER "
                              "before the command")


def _start(head: JsonDict, rules: RaceRules, board: Board, file: str) -> RaceState:
    """The race the header sets up (seed, players, seats), checked against the recorded
    start order, hands and chariot names."""
    players = [p["name"] for p in head["players"]]
    hl = head["_line"]
    for key, what in START_FACTS.items():
        if key not in head:
            raise RecordError(file, hl, f"the header has no {key!r} ({what}): replay checks "
                              "the seed against it — the record was cut or edited")
    seated = head["seats"] if head.get("seated") else None
    chariots = len(players) * rules.chariots_for(len(players))
    if seated is not None and sorted(seated) != list(range(chariots)):
        raise RecordError(file, hl, f"seats {seated} are not an order of the "
                          f"{chariots} chariots")
    state, setup = new_race(rules, board, players, int(head["seed"]), seated)
    if setup["seats"] != head["seats"] or setup["start"] != head["start"]:
        raise RecordError(file, hl, "the seed does not give the recorded start "
                          "order and hands: wrong seed, players or ruleset")
    reveals = [list(r) for r in setup["reveals"]]
    if reveals != head["reveals"]:
        raise RecordError(file, hl, f"the seed reveals {reveals} in the start-order draw, "
                          f"the header records {head['reveals']}: the reveals were changed")
    names = list(state.game.names)
    if list(head["chariots"]) != names:
        raise RecordError(file, hl, f"the chariots are recorded as {head['chariots']}, the "
                          f"replay gives {names}: a name was changed")
    return state


def replay(lines: Sequence[JsonDict], rules: RaceRules, board: Board,
           file: str = "record", partial: bool = False) -> RaceState:
    """Rebuild the race from its header and re-check every turn; return the final state.

    Strict: the header comes first and once, the chariots' names and seats are the replayed
    ones, the plies run 1, 2, 3…, and the record ends with one result line that matches the
    replayed result. With ``partial`` a record without a result (a race in progress, a saved
    game) is accepted; a result line, if there is one, must still match.

    A header with ``seated: true`` (a tournament's later race) takes its recorded seats
    instead of drawing for them."""
    state = _start(lines[0], rules, board, file)
    names = list(state.game.names)
    result_at: int | None = None
    last = lines[0]["_line"]
    for ply, line in enumerate(lines[1:], start=1):
        n, kind = line["_line"], line["type"]
        last = n
        if result_at is not None:
            raise RecordError(file, n, f"a line after the result (line {result_at}): the "
                              "result is the last line")
        if kind == "result":
            result_at = n
            if not state.over and not partial:
                raise RecordError(file, n, "a result line, but the replayed race is not over")
            _check_result(state, line, file, n)
            continue
        if line.get("ply") != ply:
            raise RecordError(file, n, f"ply {line.get('ply')} where ply {ply} is due: a turn "
                              "is missing, repeated or out of order")
        if state.over:
            raise RecordError(file, n, "a turn after the race is over")
        c = LETTERS.index(line["chariot"])
        if c >= len(names):
            raise RecordError(file, n, f"there is no chariot {line['chariot']} in this race "
                              f"({len(names)} chariots)")
        for key, what in TURN_FACTS.items():
            if key not in line:
                raise RecordError(file, n, f"the turn has no {key!r} ({what}): replay checks "
                                  "it — the record was cut or edited")
        if line["name"] != names[c]:
            raise RecordError(file, n, f"chariot {line['chariot']} is driven by {names[c]}, "
                              f"not {line['name']}: a name was changed")
        _turn(state, line, file, n)
    if result_at is None and not partial:
        what = "the race is over" if state.over else "the race is still running"
        raise RecordError(file, last, f"the record ends without its result line ({what}): "
                          "it is cut short — use replay --partial for a race in progress")
    return state


def _check_result(state: RaceState, line: JsonDict, file: str, n: int) -> None:
    """Every field of the result line equals the replayed one: the termination, each
    placing, the teams' points, the final position — and there is no other field."""
    replayed = {"type": "result", **outcome(state).to_json(), "final": state.notation()}
    recorded = {k: v for k, v in line.items() if k != "_line"}
    if state.notation() != recorded.get("final"):
        raise RecordError(file, n, "the recorded final position differs from the replayed "
                          "one")
    for key in sorted(replayed.keys() | recorded.keys()):
        if replayed.get(key) != recorded.get(key):
            what = {"placings": "result"}.get(key, key)
            raise RecordError(file, n, f"the recorded {what} differs from the replayed one"
                              + (f" ({_clip(str(replayed.get(key)), 40)})"
                                 if key == "termination" else ""))


def _turn(state: RaceState, line: JsonDict, file: str, n: int) -> None:
    """Re-check and play one recorded turn."""
    kind = line["type"]
    if line["chariot"] in LETTERS and LETTERS.index(line["chariot"]) in state.choosable():
        state.choose(LETTERS.index(line["chariot"]))  # the player ordered own chariots
    who = LETTERS[state.turn]
    if line["chariot"] != who:
        raise RecordError(file, n, f"it is chariot {who}'s turn, not {line['chariot']}'s")
    moves = state.legal_moves()
    if line["legal"] != len(moves):
        raise RecordError(file, n, f"the record counts {line['legal']} legal moves, the "
                          f"rules give {len(moves)}")
    if kind == "skip":
        if moves:
            raise RecordError(file, n, f"a skip, but chariot {who} can move "
                              f"(e.g. {next(iter(moves))})")
        forced = str(moves.skip_reason or "blocked")
        if line["reason"] != forced:
            raise RecordError(file, n, f"a skip for {line['reason']!r}, but the rules give "
                              f"{forced!r}: the reason was changed")
        state.skip(moves.skip_reason or "blocked")
        return
    ram = LETTERS.index(line["ram"]) if line.get("ram") else -1
    if ram >= len(state.game.names):
        raise RecordError(file, n, f"there is no chariot {line['ram']} to ram")
    move = Move(0, ()) if kind == "wait" else Move(int(line["card"]), tuple(line["path"]), ram)
    reason = why_not(state, move)
    if reason is not None:
        raise RecordError(file, n, f"illegal move {move}: {reason}")
    state.push(move)


@contextlib.contextmanager
def files_the_record_named(file: str, line: int, named_by_user: str | None = None
                           ) -> Iterator[None]:
    """Within this block, problems in a file a record named (not ``file``, the record, or
    ``named_by_user``) become one :class:`RecordError` that counts them without showing
    them: they would quote the keys and values of a file the user never named (a crafted
    header naming a YAML file under the working folder). A missing or unreadable file is
    said as it is: that message tells nothing of the content."""
    try:
        yield
    except FileAccessError:
        raise
    except InputError as err:
        if all(p.file in (file, named_by_user) for p in err.problems):
            raise  # the user named these files: their problems are theirs to see
        named = sorted({p.file for p in err.problems} - {file})
        raise RecordError(file, line, f"the record names {', '.join(named)}, which cannot be "
                          f"used ({len(err.problems)} problems, not shown: the record named "
                          "the file, you did not) — check it with `avecaesar course validate "
                          "FILE` or `avecaesar ruleset validate FILE`") from None


def setup_from_header(head: JsonDict, file: str, course: str | None = None
                      ) -> tuple[RaceSetup, list[str]]:
    """The one reader of a record header: the setup it names (``course``: another course
    file the user names instead, ``--course``), and which of ``course``, ``ruleset``,
    ``house`` differ from the hashes the header carries (none for an older record without
    them), and ``kinds`` when the header's kinds of the rule values (read, conflict, open)
    are not the ones the composed rules give. The record's own copy of its rules files
    (``rules_files``) is read instead of the disk.

    The header's files are checked as :func:`check_header_files` does; a file it names
    that is not a usable course or ruleset is a :class:`RecordError` that counts its
    problems but never shows them — the record named that file, not the user, and the
    problems would quote its keys and values."""
    check_header_files(head, file, with_course=course is None)
    use = head["course"] if course is None else course
    with embedded(head.get("rules_files")), files_the_record_named(
            file, head.get("_line", 1), course):
        chosen = ChosenRules.compose(head["ruleset"], head.get("variants", []),
                                     head.get("overrides", {}), head.get("house"))
        setup = chosen.on(use)
    setup = setup.for_race(
        seats=[Seat(p["name"], p.get("bot")) for p in head.get("players", [])],
        seed=int(head["seed"]), bot_budget=head.get("bot_budget"), race=head.get("race"),
        start_order=head["seats"] if head.get("seated") else None)
    recorded = head.get("content")
    now = setup.content
    differs = ([k for k in CONTENT_KEYS if recorded.get(k) != now.get(k)]
               if isinstance(recorded, dict) else [])
    if "kinds" in head and head["kinds"] != setup.rules.header_facts()["kinds"]:
        differs.append("kinds")  # an older record has none; when there, it is checked
    return setup, differs
