"""``avecaesar course generate BRIEF -o DIR``: boards to a brief (engine/lab/generate.py),
each written as a course file with its figures, with a summary table (or ``--json``) and a
contact sheet; Ctrl-C keeps the boards found so far."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from avecaesar.editor.cli.common import echo_json, fail
from avecaesar.editor.cli.signals import stopped_by
from avecaesar.engine.data.errors import UsageError
from avecaesar.engine.data.safeio import write_atomic

if TYPE_CHECKING:
    from avecaesar.engine.lab.brief import Brief
    from avecaesar.engine.lab.generate import Progress, Search

__all__ = ["generate_courses", "write_boards"]

SHEET = "contact-sheet.svg"


def _progress_line(p: Progress) -> str:
    return (f"designs {p.tried:,} · compiled {p.compiled:,} · boards {p.found} · cells "
            f"{p.cells}/{p.cells_total} · {p.seconds:.0f} s")


def _printer(quiet: bool) -> tuple[object, list[float]]:
    """A progress callback that rewrites one line on a terminal (every 0.5 s)."""
    import time

    last = [0.0]
    live = sys.stderr.isatty() and not quiet

    def show(p: Progress) -> None:
        now = time.monotonic()
        if live and now - last[0] >= 0.5:
            last[0] = now
            sys.stderr.write("\r" + _progress_line(p) + "\x1b[K")
            sys.stderr.flush()

    return show, last


def write_boards(search: Search, brief: Brief, out: Path, seed: int) -> list[dict[str, object]]:
    """Write every board found into ``out`` and the contact sheet; a row per board."""
    from avecaesar.engine.lab.generate_out import (
        board_file,
        board_row,
        board_text,
        contact_sheet,
    )

    boards = search.boards()
    rows, files = [], []
    for i, board in enumerate(boards, 1):
        target = out / board_file(brief, i)
        write_atomic(target, board_text(board, brief, seed, i, target))
        rows.append(board_row(board, str(target)))
        files.append(str(target))
    if boards:
        write_atomic(out / SHEET, contact_sheet(boards, files, f"{brief.name}: "
                                                f"{len(boards)} boards (seed {seed})"))
    return rows


def _report(search: Search, rows: list[dict[str, object]], brief_file: Path, out: Path,
            json_out: bool) -> None:
    """The summary table of the boards written (or the ``--json`` document)."""
    from avecaesar.engine.lab.generate import explain
    from avecaesar.engine.lab.generate_out import summary_lines

    if json_out:
        echo_json({"brief": str(brief_file), "seed": search.seed, "boards": rows,
                   "progress": search.progress.__dict__,
                   "unmet": explain(search) if len(rows) < search.count else []})
        return
    typer.echo(_progress_line(search.progress))
    for line in summary_lines(rows):
        typer.echo(line)
    if rows:
        typer.echo(f"wrote {len(rows)} board(s) and {out / SHEET}")


def generate_courses(
    brief_file: Annotated[Path, typer.Argument(metavar="BRIEF", help="The brief (YAML, "
                                               "schemas/brief.schema.json).")],
    out: Annotated[Path, typer.Option("-o", "--out", help="Folder to write the boards "
                                      "into (created if missing).")],
    count: Annotated[int, typer.Option("--count", "-n", min=1, max=100,
                                       help="Boards to find.")] = 5,
    seed: Annotated[int, typer.Option(help="Seed: the same seed finds the same boards.")] = 1,
    minutes: Annotated[float, typer.Option(min=0.01, max=600,
                                           help="Stop after this long at most.")] = 10.0,
    tries: Annotated[int, typer.Option(min=1, max=1_000_000,
                                       help="Designs to try at most.")] = 4000,
    json_out: Annotated[bool, typer.Option("--json", help="Print the boards' figures as "
                                           "JSON instead of the table.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress line.")] = False,
) -> None:
    """Find boards that meet a brief: each checked as `course validate` checks it.

    Writes DIR/<name>-<i>.yaml per board and DIR/contact-sheet.svg; prints a table of
    each board's figures (or --json). Exit 1, with what could not be met and by how
    much at best, when fewer boards than --count were found.

    Example: avecaesar course generate my-brief.yaml -o boards --count 2 --tries 30
    """
    from avecaesar.engine.lab.brief import brief_rules, read_brief
    from avecaesar.engine.lab.generate import Search, explain

    brief = read_brief(brief_file)
    rules = brief_rules(brief)
    if out.exists() and not out.is_dir():
        raise UsageError(f"-o {out}: this is a file — name a folder")
    search = Search(brief, rules, count=count, seed=seed, max_tries=tries,
                    path=str(out / "generated.yaml"))
    show, _last = _printer(quiet or json_out)
    stopped = None
    try:
        search.run(minutes, show)  # type: ignore[arg-type]
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM or SIGHUP: keep what was found
        stopped = stopped_by()
    if sys.stderr.isatty() and not (quiet or json_out):
        sys.stderr.write("\r\x1b[K")
    out.mkdir(parents=True, exist_ok=True)
    rows = write_boards(search, brief, out, seed)
    _report(search, rows, brief_file, out, json_out)
    if stopped is not None:
        raise fail(f"interrupted ({stopped[0]}): kept the {len(rows)} board(s) found",
                   stopped[1])
    if len(rows) < count:
        lines = explain(search)
        raise fail("\n".join([f"found {len(rows)} of {count} boards — not met:",
                              *(f"  {x}" for x in lines)]), 1)
