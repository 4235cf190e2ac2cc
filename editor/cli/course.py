"""``avecaesar course …``: validate, render, list, dump and start courses."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from avecaesar.editor.cli.common import (
    HouseOpt,
    echo_json,
    fail,
    house_rules,
    rule_settings,
)
from avecaesar.editor.cli.complete import complete_course, complete_ruleset, complete_variant
from avecaesar.editor.cli.course_validate import check
from avecaesar.engine.course.figures import DEFAULT_FIGURES, RaceFigures
from avecaesar.engine.data.errors import InputError, UsageError
from avecaesar.engine.data.safeio import check_output, write_atomic

if TYPE_CHECKING:
    from avecaesar.engine.course.load import Course

# The course library (networkx, the schemas) is imported by the commands that use it, not
# when the app is built: `avecaesar --help` answers at once (docs/performance.md).

COURSE_HELP = "A course file (.yaml) or a bundled course id (see `avecaesar course list`)."


def _rules(deck_points: int | None, ruleset: str | None, variants: list[str] | None,
           settings: list[str] | None, house: Path | None = None) -> RaceFigures:
    """The rule values for the figures: a ruleset's, else the shared defaults."""
    figures = DEFAULT_FIGURES
    if ruleset:
        from avecaesar.engine.ruleset.load import load_ruleset, race_figures

        overrides = rule_settings(settings)
        figures = race_figures(load_ruleset(ruleset, variants or [], overrides,
                                            house_rules(house)))
    elif house is not None:
        raise UsageError("--house needs --ruleset (house rules change a ruleset)")
    elif variants:
        raise UsageError("--variant needs --ruleset (the variant applies to a ruleset)")
    if deck_points is not None:
        figures = RaceFigures(**{**figures.__dict__, "deck_points": deck_points,
                                 "source": f"--deck-points {deck_points}"})
    return figures


def _courses(ref: str) -> list[Course]:
    from avecaesar.engine.course.load import load_courses, resolve

    path, cid, direction = resolve(ref)
    courses = load_courses(path, cid)
    if direction:
        courses = [c for c in courses if c.direction == direction]
    return courses


CoursesOpt = Annotated[list[str], typer.Argument(help=COURSE_HELP,
                                                      autocompletion=complete_course)]
JsonOutOpt = Annotated[bool, typer.Option(
       "--json", help="Print one JSON array with an object per course checked (course, "
       "name, file, direction, valid, figures, rules, problems; docs/course-format.md).")
   ]
DeckPointsOpt = Annotated[int | None, typer.Option(help="Points in a deck (default 84, or "
                                                   "the ruleset's).", min=1)]
RulesetOpt = Annotated[str | None, typer.Option(help="Take deck points, bonus, laps and alley "
                                                "laps from this ruleset.",
                                                autocompletion=complete_ruleset)]
VariantOpt = Annotated[list[str] | None, typer.Option(help="Variant(s) of the ruleset, in "
                                                      "order.",
                                                      autocompletion=complete_variant)]
SetOpt = Annotated[list[str] | None, typer.Option("--set", help="key=value for a rule "
                                                  "value.")]
SimulateOpt = Annotated[int, typer.Option("--simulate", help="Also run K seeded greedy-bot "
                                          "races (needs --ruleset): finish rate and "
                                          "balance.", min=0)]
ExplainOpt = Annotated[bool, typer.Option("--explain", help="Where the points go: each "
                                          "start place's race by lap, by kind of piece and "
                                          "by piece.")]
WhatIfOpt = Annotated[bool, typer.Option("--what-if", help="Try every one-space edit; list "
                                         "those that reach --reserve, best first.")]
ReserveOpt = Annotated[int, typer.Option("--reserve", help="Target reserve for --what-if "
                                         "(points left at every start place).")]
UpdateFiguresOpt = Annotated[bool, typer.Option("--update-figures", help="Rewrite the "
                                                "file's declared figures in place (only "
                                                "those lines change) and show the diff."
                                                )]


def validate(courses: CoursesOpt, json_out: JsonOutOpt = False,
             deck_points: DeckPointsOpt = None, ruleset: RulesetOpt = None,
             variant: VariantOpt = None, set_: SetOpt = None, simulate: SimulateOpt = 0,
             explain: ExplainOpt = False, what_if: WhatIfOpt = False, reserve: ReserveOpt = 0,
             update_figures: UpdateFiguresOpt = False, house: HouseOpt = None) -> None:
    """Check course files — every problem as file:line:col — and compute their figures.

    Exit 0 when valid and finishable, 1 when a problem is found or a start place cannot
    finish on the deck.

    Example: avecaesar course validate homebrew/rome --ruleset homebrew
    """
    given = dict(locals())
    refs = given.pop("courses")
    opts = ValidateOptions(**given)  # every option of the command, by its name
    if opts == ValidateOptions():
        _validate_plain(refs)
    rules = _rules(opts.deck_points, opts.ruleset, opts.variant, opts.set_, opts.house)
    if opts.simulate and not opts.ruleset:
        raise UsageError("--simulate needs --ruleset: the races are run under its rules")
    if opts.reserve and not opts.what_if:
        raise UsageError("--reserve is the target of --what-if: add --what-if")
    results: list[dict[str, object]] = []
    bad = usage = False  # usage: a file that cannot be read at all (exit 2)
    updates: dict[str, dict[tuple[str, ...], dict[str, object]]] = {}
    for ref in refs:
        try:
            loaded = _courses(ref)
        except InputError as err:
            bad = True
            usage |= err.exit_code == 2
            results.append({"course": ref, "file": ref, "valid": False,
                            "problems": [p.to_json() for p in err.problems]})
            if not opts.json_out:
                for p in err.problems:
                    typer.echo(str(p), err=True)
            continue
        for course in loaded:
            entry, ok = _validated(ref, course, rules, opts, updates)
            results.append(entry)
            bad |= not ok
    for file, blocks in updates.items():
        bad |= not _update_figures(file, blocks, rules, quiet=opts.json_out)
    if opts.json_out:
        echo_json(results)
    raise typer.Exit(2 if usage else 1 if bad else 0)


@dataclass(frozen=True)
class ValidateOptions:
    """The options of ``course validate``, one field per option of the command (built from
    the command's own parameters, so an option missing here fails at once): all at their
    defaults is the plain check, answered from the cache (editor/cli/course_validate.py)."""

    json_out: bool = False
    deck_points: int | None = None
    ruleset: str | None = None
    variant: list[str] | None = None
    set_: list[str] | None = None
    simulate: int = 0
    explain: bool = False
    what_if: bool = False
    reserve: int = 0
    update_figures: bool = False
    house: Path | None = None


def _validated(ref: str, course: Course, rules: RaceFigures, opts: ValidateOptions,
               updates: dict[str, dict[tuple[str, ...], dict[str, object]]]
               ) -> tuple[dict[str, object], bool]:
    """One course direction checked as the options ask (figures to rewrite go to
    ``updates``): its JSON entry, printed as text unless ``--json``; and whether it is
    valid and finishable."""
    checked = check(course, rules, rewriting_figures=opts.update_figures)
    figs = checked.figs
    if figs is not None and opts.update_figures:
        block = ("anticlockwise", "figures") if course.direction == "anticlockwise" \
            else ("figures",)
        updates.setdefault(course.model.file, {})[block] = figs.to_json()
    entry: dict[str, object] = {
        "course": course.id, "name": course.name, "file": course.model.file,
        "direction": course.direction, "valid": not checked.errors,
        "figures": figs.to_json() if figs else None, "rules": rules.source,
        "problems": [p.to_json() for p in checked.problems]}
    more: list[str] = []
    if opts.simulate and checked.ok:
        entry["simulation"], more = _simulation(
            course.id if cid_of(ref) else ref, opts.ruleset, opts.variant, opts.set_, course,
            opts.simulate, opts.house)
    if figs is not None and (opts.explain or opts.what_if):
        from avecaesar.editor.cli.course_insight import course_insight

        extra, data = course_insight(course, figs, rules, explain_race=opts.explain,
                                     what_ifs=opts.what_if, reserve=opts.reserve)
        entry.update(data)
        more = extra + more
    if not opts.json_out:
        for stream, line in checked.lines(ref, rules):
            typer.echo(line, err=stream == "err")
        for line in more:
            typer.echo(line)
    return entry, checked.ok


def _validate_plain(refs: list[str]) -> None:
    """``course validate REF…`` without options: each course's result, cached by the content
    of its files (editor/cli/course_validate.py), then the exit."""
    from avecaesar.editor.cli.course_validate import plain_validate

    bad = usage = False
    for ref in refs:
        lines, ref_bad, ref_usage = plain_validate(ref)
        bad |= ref_bad
        usage |= ref_usage
        for stream, line in lines:
            typer.echo(line, err=stream == "err")
    raise typer.Exit(2 if usage else 1 if bad else 0)


def _update_figures(file: str, blocks: dict[tuple[str, ...], dict[str, object]],
                    rules: RaceFigures, quiet: bool) -> bool:
    """Rewrite the declared figures of ``file`` and show the change (on stderr with --json);
    False when a declared figure still does not hold (an anticlockwise direction that
    shares the clockwise figures but drives differently)."""
    from avecaesar.editor.cli.figures_update import rewrite_figures, unified_diff, write_text
    from avecaesar.engine.course.load import load_courses

    old = Path(file).read_text(encoding="utf-8")
    new = rewrite_figures(old, blocks)
    if new == old:
        typer.echo(f"{file}: the declared figures hold, nothing to update", err=quiet)
    else:
        write_text(file, new)
        for line in unified_diff(old, new, Path(file).name):
            typer.echo(line, err=quiet)
        typer.echo(f"updated the figures of {file}", err=quiet)
    left = [p for c in load_courses(file) if not c.errors
            for p in c.figure_problems(c.figures(rules))]
    for p in left:
        typer.echo(f"{p} — give this direction its own 'figures:' block", err=True)
    return not left


def cid_of(ref: str) -> bool:
    """Whether ``ref`` names a bundled course rather than a file."""
    return not (ref.endswith((".yaml", ".yml")) or Path(ref).exists())


def _simulation(ref: str, ruleset: str | None, variants: list[str] | None,
                settings: list[str] | None, course: Course, races: int,
                house: Path | None = None) -> tuple[dict[str, object], list[str]]:
    """K seeded greedy races on the course: finish rate and balance."""
    import os

    from avecaesar.editor.cli.simulate import spec_from_options
    from avecaesar.engine.lab.simulate import simulate as run

    if course.direction == "anticlockwise" and not cid_of(ref):
        why = "the anticlockwise direction of a file is simulated once it is bundled (by id)"
        return {"skipped": why}, [f"  simulation: skipped — {why}"]
    players = len(course.graph.graph["start_places"])
    spec = spec_from_options(ruleset or "", ref, players, races, 1, variants, settings,
                             "greedy", house)
    rep = run(spec, workers=min(2, os.cpu_count() or 1))
    finished = 1 - sum(p.not_finished for p in rep.by_place) / len(rep.by_place)
    data = {"races": rep.races, "players": players, "finish_rate": finished,
            "balance": rep.balance, "win_rate": [p.win_rate for p in rep.by_place]}
    line = (f"  simulation: {rep.races} greedy races, {players} chariots — finish rate "
            f"{finished:.0%}, balance {rep.balance:.2f}, win rate by place "
            + " ".join(f"{p.win_rate:.0%}" for p in rep.by_place))
    return data, [line]


CourseOpt = Annotated[str, typer.Argument(help=COURSE_HELP,
                                                      autocompletion=complete_course)]
OutOpt = Annotated[Path | None, typer.Option("-o", "--out", help="Output file; its name "
                                             "gives the format (.svg, .png, .pdf, .dot). "
                                             "Default: <course>.<format> here.")]
FmtOpt = Annotated[str | None, typer.Option("--format", help="svg, png, pdf or dot "
                                            "(overrides the file name).")]
HighlightOpt = Annotated[str | None, typer.Option(help="'shortest': draw the shortest legal "
                                                  "race from start place 1, a shade per "
                                                  "lap, the alley stop marked.")]
LabelsOpt = Annotated[bool, typer.Option(help="Write each space's label in it.")]
NumbersOpt = Annotated[bool, typer.Option(help="Write each space's id in it (the ids moves "
                                          "are named by, e.g. 51 → 53).")]
DirectionOpt = Annotated[str | None, typer.Option(help="clockwise or anticlockwise (a file "
                                                  "that declares 'anticlockwise:').")]
PaperOpt = Annotated[str, typer.Option(help="PDF paper, landscape: a4 or a3.")]


def render(course: CourseOpt, out: OutOpt = None, fmt: FmtOpt = None,
           highlight: HighlightOpt = None, labels: LabelsOpt = False,
           numbers: NumbersOpt = False, direction: DirectionOpt = None,
           paper: PaperOpt = "a4") -> None:
    """Draw a course as a board: every space the board geometry's polygon, lanes as bands.

    SVG is written directly; PNG and PDF (landscape, --paper) through librsvg's
    rsvg-convert; --format dot writes the lane graph as DOT text. Exit 1 when a step is drawn
    across the board (the pieces do not close there): the picture is still written, without
    that line, and the step is reported.

    Example: avecaesar course render dicetree-2022/hippodrom-constantinople --highlight shortest
    -o board.png
    """
    from avecaesar.editor.render.board import (
        PAPERS,
        RenderError,
        board_svg,
        lane_graph_dot,
        output_format,
    )
    from avecaesar.editor.render.board import render as convert
    from avecaesar.editor.render.board_problems import drawing_problems
    from avecaesar.engine.course.race_path import shortest_race_route

    check_output(out, "--out")
    try:
        fmt = output_format(str(out) if out else None, fmt)
    except RenderError as err:
        raise fail(f"error: {err}", 2) from None
    if highlight not in (None, "shortest"):
        shown = highlight if len(highlight) <= 40 else highlight[:37] + "..."
        raise fail(f"error: --highlight {shown!r}: the only highlight is 'shortest' — write "
                   "--highlight shortest or leave it out", 2)
    if paper not in PAPERS:
        raise fail(f"--paper {paper!r}: use {' or '.join(PAPERS)}", 2)
    c = _course_in_direction(course, direction)
    if c.errors:
        raise InputError(c.errors)
    route = shortest_race_route(c.graph, 1) if highlight else None
    target = out or Path(f"{c.id.replace('/', '_')}.{fmt}")
    if fmt == "dot":
        _write_output(target, lane_graph_dot(c.graph).encode("utf-8"))
    else:
        svg = board_svg(c.graph, route=route, labels=labels, numbers=numbers,
                        paper=paper if fmt == "pdf" else None)
        try:
            data = convert(svg, fmt)
        except RenderError as err:
            svg_file = target.with_suffix(".svg")
            _write_output(svg_file, svg.encode("utf-8"))
            raise fail(f"error: {err} (the SVG: {svg_file})") from None
        _write_output(target, data)
    typer.echo(f"wrote {target}")
    problems = drawing_problems(c)
    for p in problems:
        typer.echo(str(p), err=True)
    if problems:
        raise typer.Exit(1)


def print_board(
    course: Annotated[str, typer.Argument(help=COURSE_HELP,
                                                      autocompletion=complete_course)],
    out: Annotated[Path | None, typer.Option("-o", "--out", help="The PDF to write (default: "
                                             "<course>-print.pdf here).")] = None,
    paper: Annotated[str, typer.Option(help="a4, a3 or letter.")] = "a4",
    scale: Annotated[str, typer.Option(help="real: the real game's space size, tiled over "
                                       "sheets to tape together; fit: the board on one "
                                       "sheet.")] = "real",
    numbers: Annotated[bool, typer.Option(help="Write each space's id in it (the ids the "
                                          "race log names moves by).")] = False,
    space_mm: Annotated[float | None, typer.Option("--space-mm", help="A space's length in "
                                                   "mm (default: the course's space_mm, else "
                                                   "36, from the 1989 board).", min=10,
                                                   max=100)] = None,
    direction: Annotated[str | None, typer.Option(help="clockwise or anticlockwise (a file "
                                                  "that declares 'anticlockwise:').")] = None,
    style: Annotated[str, typer.Option(help="ink: a white ground and dark outlines (saves "
                                       "ink); green: the screen's colours.")] = "ink",
) -> None:
    """Print a course as a board to play on: at real size over several sheets with cut and
    glue marks, sheet coordinates and an overview (or, --scale fit, on one sheet).

    Example: avecaesar course print homebrew/rome -o rome.pdf --paper a4 --numbers
    """
    from avecaesar.editor.render.board import RenderError
    from avecaesar.editor.render.board_print import DEFAULT_SPACE_MM, PAPERS, print_pdf

    check_output(out, "--out")
    if paper not in PAPERS:
        raise fail(f"--paper {paper!r}: use {', '.join(PAPERS)}", 2)
    if scale not in ("real", "fit"):
        raise fail(f"--scale {scale!r}: use real or fit", 2)
    if style not in ("ink", "green"):
        raise fail(f"--style {style!r}: use ink or green", 2)
    if out is not None and out.suffix.lower() != ".pdf":
        raise fail(f"--out {out}: course print writes a PDF — end the name in .pdf", 2)
    c = _course_in_direction(course, direction)
    if c.errors:
        raise InputError(c.errors)
    mm = space_mm or c.model.space_mm or DEFAULT_SPACE_MM
    try:
        data, plan = print_pdf(c.graph, paper, mm, fit=scale == "fit", numbers=numbers,
                               style=style)
    except RenderError as err:
        raise fail(f"error: {err}") from None
    target = out or Path(f"{c.id.replace('/', '_')}-print.pdf")
    _write_output(target, data)
    size = f"{plan.width / 72 * 2.54:.0f} × {plan.height / 72 * 2.54:.0f} cm"
    orient = "landscape" if plan.landscape else "portrait"
    if scale == "fit" or plan.sheets == 1:
        what = (f"1 {paper.upper()} sheet ({orient})" if scale == "fit" else
                f"1 {paper.upper()} sheet ({orient}), the board {size} at {mm:g} mm a space")
    else:
        what = (f"an overview and {plan.sheets} {paper.upper()} sheets ({orient}, "
                f"{plan.rows} rows × {plan.cols} columns), the board {size} at {mm:g} mm a "
                "space")
    typer.echo(f"wrote {target} — {what}")


def _write_output(path: Path, data: str | bytes) -> None:
    """Write a file a command produces, atomically (temp file + rename)."""
    write_atomic(path, data)


def _course_in_direction(ref: str, direction: str | None) -> Course:
    """The course ``ref`` in ``direction`` (default: the one the reference names)."""
    from avecaesar.engine.course.load import load_course

    if direction is None:
        return load_course(ref)
    if direction not in ("clockwise", "anticlockwise"):
        raise fail(f"--direction {direction!r}: use clockwise or anticlockwise", 2)
    found = [c for c in _courses(ref) if c.direction == direction]
    if not found:
        raise UsageError(f"{ref} is not driven {direction} — declare 'anticlockwise:' in "
                        "the course file (docs/course-format.md)")
    return found[0]


def diff(
    a: Annotated[str, typer.Argument(help="The first course (file or bundled id).",
                                     autocompletion=complete_course)],
    b: Annotated[str, typer.Argument(help="The second course.",
                                     autocompletion=complete_course)],
    json_out: Annotated[bool, typer.Option("--json", help="Machine-readable.")] = False,
    deck_points: Annotated[int | None, typer.Option(help="Points in a deck (default 84).",
                                                    min=1)] = None,
    ruleset: Annotated[str | None, typer.Option(help="Figures under this ruleset.")] = None,
    variant: Annotated[list[str] | None, typer.Option(help="Variant(s) of the ruleset.")
                       ] = None,
) -> None:
    """Two courses side by side: lap, alley, race and reserve per start place, and which
    pieces differ.

    Example: avecaesar course diff pro-ludo-2006/circus-maximus homebrew/rome
    """
    from avecaesar.editor.cli.course_insight import diff_lines
    from avecaesar.engine.course.diff import diff_courses
    from avecaesar.engine.course.load import load_course

    rules = _rules(deck_points, ruleset, variant, None)
    ca, cb = load_course(a), load_course(b)
    errors = ca.errors + cb.errors
    if errors:
        raise InputError(errors)
    d = diff_courses(ca, cb, rules)
    if json_out:
        echo_json(d.to_json())
        return
    for line in diff_lines(d):
        typer.echo(line)


def list_courses(
    json_out: Annotated[bool, typer.Option("--json", help="Machine-readable.")] = False,
) -> None:
    """The bundled courses with their figures (84-point deck, shared rule values).

    Example: avecaesar course list --json
    """
    from avecaesar.editor.cli.course_list import course_rows, course_table

    rows = course_rows()
    if json_out:
        echo_json(rows)
        return
    for line in course_table(rows):
        typer.echo(line)


def dump(
    course: Annotated[str, typer.Argument(help=COURSE_HELP,
                                                      autocompletion=complete_course)],
    out: Annotated[Path | None, typer.Option("-o", "--out", help="File (default: stdout).")
                   ] = None,
) -> None:
    """The compiled lane graph as node-link JSON, for debugging.

    Example: avecaesar course dump ravensburger-1989/a-white
    """
    import networkx as nx

    from avecaesar.engine.course.load import load_course

    check_output(out, "--out")
    c = load_course(course)
    data = nx.node_link_data(c.graph, edges="edges")
    text = json.dumps(data, indent=1, default=str)
    if out:
        write_atomic(out, text)
        typer.echo(f"wrote {out}")
    else:
        typer.echo(text)


STARTER = '''\
# yaml-language-server: $schema={schema}
# A starter course: a three-lane oval with an alley and a chicane.
# Validate:  avecaesar course validate {file}
# Draw:      avecaesar course render {file} --highlight shortest
# Format:    docs/course-format.md
name: {name}
edition: homebrew
players: [2, 6]
lanes: 3                        # lane 0 is the inside lane
track:                          # pieces in driving (clockwise) order
  - straight: {{name: home, length: 2}}
  - straight: {{name: caesar, length: 3}}          # the alley lies beside this one
  - straight: {{name: run-out, length: 1}}
  - curve: {{name: north, turn: 180, lengths: [4, 6, 8]}}   # spaces per lane, inside first
  - straight: {{name: back, length: 3, walls: [[0, 1]]}}   # a wall between lanes 0 and 1
  - chicane: {{name: neck, lane: 1}}                # one space wide
  - straight: {{name: back-end, length: 4}}
  - curve: {{name: south, turn: 180, lengths: [4, 6, 8]}}
  - straight: {{name: grid, length: 2}}             # the start grid, right behind the line
finish: {{before: home}}          # the line lies right before this piece
start: [grid.0.-1, grid.1.-1, grid.2.-1, grid.0.-2, grid.1.-2, grid.2.-2]   # place 1 first
alley: {{from: caesar, to: caesar, spaces: 4, side: outside}}
'''


def new(
    name: Annotated[str, typer.Argument(help="A file to write (ends in .yaml/.yml or has a "
                                        "folder: written exactly there), or a course name "
                                        "(the file is <name>.yaml here).")],
    out: Annotated[Path | None, typer.Option("-o", "--out", help="File to write.")] = None,
    force: Annotated[bool, typer.Option(help="Overwrite an existing file.")] = False,
    from_: Annotated[str | None, typer.Option("--from", help="Start from this course (a "
                                              "bundled id or a file): an editable copy "
                                              "instead of the starter.")] = None,
) -> None:
    """Write a commented starter course that validates, or an editable copy of any course.

    Example: avecaesar course new --from dicetree-2022/arena-carthago my-arena.yaml
    """
    from avecaesar.engine.data.paths import schema_modeline

    if not name.strip() and out is None:
        raise fail("error: give the course a name or a file to write (e.g. avecaesar "
                   "course new my-arena.yaml)", 2)
    target, title = _new_target(name, out)
    if target.exists() and not force:
        raise fail(f"error: {target} exists — choose another name or pass --force")
    if not target.parent.is_dir():
        raise fail(f"error: the folder {target.parent} does not exist — create it first", 2)
    schema = schema_modeline(target, "course.schema.json").split("$schema=", 1)[1]
    if from_ is not None:
        from avecaesar.editor.cli.course_copy import course_copy

        keep_name = title if _names_a_course(name, out) else None
        text, what = course_copy(from_, target, schema, keep_name)
        _write_output(target, text)
        typer.echo(f"wrote {target} — a copy of {what}; next: avecaesar course validate "
                   f"{target}")
        return
    text = STARTER.format(schema=schema, file=target, name=title)
    _write_output(target, text)
    typer.echo(f"wrote {target} — next: avecaesar course validate {target}")


def _names_a_course(name: str, out: Path | None) -> bool:
    """Whether ``course new NAME`` got a course name (not a file to write)."""
    as_path = Path(name)
    return out is not None or not (as_path.suffix in (".yaml", ".yml")
                                   or len(as_path.parts) > 1)


def _new_target(name: str, out: Path | None) -> tuple[Path, str]:
    """(file, course name) for ``course new``: a path is taken as written, a bare name
    becomes ``<slug>.yaml`` here; the course's name comes from the other one."""
    as_path = Path(name)
    if out is None and (as_path.suffix in (".yaml", ".yml") or len(as_path.parts) > 1):
        title = as_path.stem.replace("-", " ").replace("_", " ").strip().title() or "Course"
        return as_path, title
    slug = "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-") or "course"
    return out or Path(f"{slug}.yaml"), name
