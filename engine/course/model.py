"""Read a course file into a flat model of pieces, resolving includes; collect every problem.

The model is what the author wrote, flattened: pieces in clockwise order with per-lane space
counts. :mod:`avecaesar.engine.course.graph` turns it into the lane graph.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from avecaesar.engine.course.bundled import bundled_pieces
from avecaesar.engine.data.errors import InputError, Problem
from avecaesar.engine.data.limits import MAX_COURSE_SPACES, MAX_INCLUDE_DEPTH, MAX_PIECES
from avecaesar.engine.data.safeio import allowed_roots, check_inside, real_path
from avecaesar.engine.data.schemas import schema_problems
from avecaesar.engine.data.suggest import did_you_mean
from avecaesar.engine.data.values import JsonDict
from avecaesar.engine.data.yamlsource import Source, load_yaml, load_yaml_text

__all__ = ["AlleySpec", "CourseModel", "Piece", "Where", "read_course"]

COURSE_SCHEMA = "urn:avecaesar:course"
PIECES_SCHEMA = "urn:avecaesar:course-pieces"


@dataclass(frozen=True)
class Where:
    """A place in a source file, to point problems at."""

    source: Source
    path: tuple[str | int, ...]

    def problem(self, message: str, key: str | None = None, *extra: str | int,
                severity: str = "error") -> Problem:
        p = self.source.problem([*self.path, *extra], message, key=key)
        return Problem(p.file, p.line, p.column, p.message, severity)


@dataclass
class Piece:
    """One piece of track: spaces per lane (0 = lane absent here) and how it turns."""

    name: str
    kind: str
    lengths: list[int]
    turn: float
    walls: list[tuple[int, int]]
    water: list[tuple[int, int]]
    crossing: str | None
    where: Where


@dataclass(frozen=True)
class AlleySpec:
    """The Imperial alley: a one-lane side track from piece ``first`` to piece ``last``."""

    first: str
    last: str
    spaces: int
    side: str
    where: Where


@dataclass
class CourseModel:
    """A course file read and flattened, with everything needed to build its graphs."""

    file: str
    source: Source
    id: str
    name: str
    edition: str
    players: tuple[int, int] | None
    lanes: int
    reconstructed: bool
    provenance: JsonDict
    description: str
    pieces: list[Piece]
    finish_before: str
    start: list[str]
    alley: AlleySpec | None
    wall_spans: list[tuple[tuple[int, int], str, str, Where]]
    water: list[str]
    remove_spaces: list[str]
    add_steps: list[tuple[str, str]]
    remove_steps: list[tuple[str, str]]
    reverse: JsonDict | None
    figures: JsonDict
    problems: list[Problem] = field(default_factory=list)
    # every module file an include named (resolved; read or not): with the course file, the
    # inputs of the compiled course (editor/cli/result_cache.py keys cached figures by them)
    includes: list[str] = field(default_factory=list)
    space_mm: float | None = None  # a space's length on the printed board (course print)


def _piece(entry: JsonDict, lanes: int, where: Where, index: int,
           problems: list[Problem]) -> Piece:
    ((kind, spec),) = entry.items()
    name = spec.get("name") or f"{kind}{index + 1}"
    turn = float(spec.get("turn", 0))
    if kind == "straight":
        lengths = [spec["length"]] * lanes
    elif kind == "chicane":
        lane = spec["lane"]
        lengths = [0] * lanes
        if lane >= lanes:
            problems.append(where.problem(
                f"chicane lane {lane} does not exist — the course has lanes 0..{lanes - 1}",
                None, kind, "lane"))
        else:
            lengths[lane] = spec.get("length", 1)
    else:  # curve, section
        lengths = list(spec["lengths"])
        if len(lengths) != lanes:
            problems.append(where.problem(
                f"{len(lengths)} lane lengths for a {lanes}-lane course — give one number "
                "per lane, inside lane first", None, kind, "lengths"))
            lengths = (lengths + [0] * lanes)[:lanes]
            kind_checks = False
        else:
            kind_checks = True
        if not any(lengths):
            problems.append(where.problem("every lane is 0 — a piece needs at least one space",
                                          None, kind, "lengths"))
        if kind_checks and kind == "curve" and lengths != sorted(lengths) and turn > 0:
            problems.append(where.problem(
                "a right-hand curve normally has its fewest spaces on the inside (lane 0) — "
                "check the order of 'lengths'", None, kind, "lengths", severity="warning"))
    walls: list[tuple[int, int]] = []
    for i, pair in enumerate(spec.get("walls", [])):
        a, b = sorted(pair)
        if b - a != 1 or b >= lanes:
            problems.append(where.problem(
                f"a wall runs between two adjacent lanes of 0..{lanes - 1}; {list(pair)} is "
                "not such a pair — write e.g. [0, 1]", None, kind, "walls", i))
            continue
        if lengths[a] == 0 or lengths[b] == 0:
            problems.append(where.problem(
                f"wall {list(pair)} stands beside a lane that this piece does not have "
                "(a chicane or narrowing) — remove the wall or the narrowing",
                None, kind, "walls", i))
            continue
        walls.append((a, b))
    water: list[tuple[int, int]] = []
    for i, (lane, idx) in enumerate(spec.get("water", [])):
        if not (0 <= lane < lanes and -lengths[lane] <= idx < lengths[lane]):
            problems.append(where.problem(
                f"no space [{lane}, {idx}] in this piece — lanes 0..{lanes - 1}, index "
                "within the lane's length", None, kind, "water", i))
            continue
        water.append((lane, idx % lengths[lane]))
    return Piece(name, kind, lengths, turn, walls, water, spec.get("crossing"),
                 Where(where.source, (*where.path, kind)))


def _expand(track: list[Any], lanes: int, source: Source, path: tuple[str | int, ...],
            prefix: str, problems: list[Problem], depth: int, seen: set[str],
            roots: list[Path] | None, count: list[int], files: list[str]) -> list[Piece]:
    """The pieces of ``track``, includes resolved; ``roots``: the folders an include may
    read from; ``count``: pieces so far (all levels), to stop a module used many times
    over from multiplying without end; ``files``: every module file named, appended to."""
    out: list[Piece] = []
    for i, entry in enumerate(track):
        where = Where(source, (*path, i))
        count[0] += 1
        if count[0] > MAX_PIECES:
            problems.append(where.problem(
                f"over {MAX_PIECES} pieces with the includes expanded — a course this long "
                "is not a board; use fewer or shorter modules"))
            return out
        if "include" not in entry:
            piece = _piece(entry, lanes, where, i, problems)
            piece.name = prefix + piece.name
            out.append(piece)
            continue
        inc = entry["include"]
        if depth >= MAX_INCLUDE_DEPTH:
            problems.append(where.problem("includes nested too deep (a cycle?)", None,
                                          "include"))
            continue
        target = _module_file(inc, source, where, roots, problems)
        if target is None:
            continue
        if str(target) not in files:
            files.append(str(target))
        try:
            module_src = load_yaml(target)
        except InputError as err:
            if not os.path.lexists(target):  # a link that loops is there: its own message
                hint = _by_id_hint(inc["file"], inc["piece"])
                problems.append(where.problem(
                    f"no module file {inc['file']!r} (looked at {target}) — check the path, "
                    f"relative to this file{hint}", None, "include", "file"))
            else:
                problems.extend(err.problems)
            continue
        mod_problems = schema_problems(module_src, PIECES_SCHEMA)
        if mod_problems:
            problems.extend(mod_problems)
            continue
        modules = module_src.data["pieces"]
        name = inc["piece"]
        if name not in modules:
            problems.append(where.problem(
                f"{inc.get('id') or inc['file']} has no piece {name!r}"
                f"{did_you_mean(name, modules)} "
                f"(it has: {', '.join(modules)})", None, "include", "piece"))
            continue
        module = modules[name]
        if module["lanes"] != lanes:
            problems.append(where.problem(
                f"module {name!r} has {module['lanes']} lanes, this course {lanes} — "
                "use a module with the same number of lanes", None, "include"))
            continue
        key = f"{os.path.realpath(target)}#{name}"
        if key in seen:
            problems.append(where.problem(f"module {name!r} includes itself", None, "include"))
            continue
        sub_prefix = prefix + inc.get("name", name) + "/"
        out.extend(_expand(module["track"], lanes, module_src, ("pieces", name, "track"),
                           sub_prefix, problems, depth + 1, seen | {key}, roots, count,
                           files))
    return out


def _module_file(inc: JsonDict, source: Source, where: Where,
                 roots: list[Path] | None, problems: list[Problem]) -> Path | None:
    """The module file an include names: a bundled piece file by ``id`` (from anywhere), or
    a ``file`` relative to the including file inside ``roots`` (None: a course given as text,
    which names files by id only). None, with the problem, when there is none."""
    if ("id" in inc) == ("file" in inc):
        example = next(iter(bundled_pieces()), "ID")
        problems.append(where.problem(
            f"an include names its module file once: by bundled id (include: {{id: "
            f"{example}, piece: {inc['piece']}}}) or by path (include: {{file: PATH, piece: "
            f"{inc['piece']}}})", None, "include"))
        return None
    if "id" in inc:
        pieces = bundled_pieces()
        found = pieces.get(inc["id"])
        if found is None:
            problems.append(where.problem(
                f"no bundled piece file {inc['id']!r}{did_you_mean(inc['id'], pieces)} "
                f"(bundled: {', '.join(pieces) or 'none'})", None, "include", "id"))
        return found
    hint = _by_id_hint(inc["file"], inc["piece"], always=roots is None)
    if roots is None:
        problems.append(where.problem(
            f"a course given as text includes modules by bundled id, not by path "
            f"{inc['file']!r}{hint}", None, "include", "file"))
        return None
    # read by the path as the course names it (a cache logs it so: a link pointed elsewhere
    # is another input); whether it may be read is decided by where its links lead
    target = Path(os.path.abspath(Path(source.file).parent / str(inc["file"])))
    if not check_inside(target, roots):
        problems.append(where.problem(
            f"the module file {inc['file']!r} lies outside the course's folder and the "
            "bundled data — move it into the course's folder (and fix the path), or pass "
            f"--allow-path FOLDER before the command{hint}", None, "include", "file"))
        return None
    return target


def _by_id_hint(file: str, piece: str, always: bool = False) -> str:
    """`` — or include it by its bundled id …`` when ``file`` names a bundled piece file
    (also by the name it had before ids, ``<edition>-<name>.yaml``)."""
    stem = Path(file).with_suffix("").as_posix()
    for pid in bundled_pieces():
        if stem.endswith(pid) or Path(stem).name == pid.replace("/", "-"):
            how = "write it as" if always else "or include the bundled piece file by its id:"
            return f" — {how} include: {{id: {pid}, piece: {piece}}}"
    return f" — write include: {{id: BUNDLED-ID, piece: {piece}}}" if always else ""


def read_course(path: str | Path, course_id: str | None = None,
                text: str | None = None) -> CourseModel:
    """Read a course file (or ``text``, named ``path``, which reads no other file: its
    includes name bundled piece files by id). Schema problems raise :class:`InputError`; all
    other problems found while reading are kept in ``model.problems`` for the validator."""
    source = load_yaml(path) if text is None else load_yaml_text(text, str(path))
    if not isinstance(source.data, dict):
        raise InputError([source.problem([], "a course file is a mapping with keys name, "
                                              "lanes, track, finish, start — see "
                                              "`avecaesar course new`")])
    problems = schema_problems(source, COURSE_SCHEMA)
    if problems:
        raise InputError(problems)
    d = source.data
    lanes = d["lanes"]
    found: list[Problem] = []
    roots = allowed_roots(real_path(path).parent) if text is None else None
    includes: list[str] = []
    pieces = _expand(d["track"], lanes, source, ("track",), "", found, 0, set(), roots, [0],
                     includes)
    if not pieces:  # e.g. every include failed: nothing to build a course from
        raise InputError(found or [source.problem(["track"], "the track has no pieces — "
                                                  "list its pieces in driving order")])
    spaces = sum(sum(p.lengths) for p in pieces)
    if spaces > MAX_COURSE_SPACES:
        raise InputError([source.problem(["track"], f"the track has {spaces:,} spaces; the "
                                         f"limit is {MAX_COURSE_SPACES:,} — shorten it")])
    names: dict[str, Piece] = {}
    for p in pieces:
        if p.name in names:
            found.append(p.where.problem(
                f"duplicate piece name {p.name!r} — piece names must be unique (labels start "
                "with them)", "name"))
        names.setdefault(p.name, p)
    alley = None
    if "alley" in d:
        a = d["alley"]
        alley = AlleySpec(a["from"], a["to"], a["spaces"], a.get("side", "outside"),
                          Where(source, ("alley",)))
    spans = [((min(w["lanes"]), max(w["lanes"])), w["from"], w["to"],
              Where(source, ("walls", i))) for i, w in enumerate(d.get("walls", []))]
    players = tuple(d["players"]) if "players" in d else None
    cid = course_id or d.get("id") or Path(path).stem
    return CourseModel(
        file=str(path), source=source, id=cid, name=d["name"],
        edition=d.get("edition", "homebrew"), players=players,
        lanes=lanes, reconstructed=bool(d.get("reconstructed", False)),
        provenance=d.get("provenance", {}), description=d.get("description", ""),
        pieces=pieces, finish_before=d["finish"]["before"], start=list(d["start"]),
        alley=alley, wall_spans=spans, water=list(d.get("water", [])),
        remove_spaces=list(d.get("remove_spaces", [])),
        add_steps=[tuple(s) for s in d.get("add_steps", [])],
        remove_steps=[tuple(s) for s in d.get("remove_steps", [])],
        reverse=d.get("anticlockwise"), figures=d.get("figures", {}), problems=found,
        includes=includes, space_mm=d.get("space_mm"))
