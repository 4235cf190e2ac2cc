"""``avecaesar course generate BRIEF -o DIR``: boards to a brief (engine/lab/generate.py),
each written as a course file with its figures, with a summary table (or ``--json``) and a
contact sheet; Ctrl-C keeps the boards found so far."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from avecaesar.editor.cli.common import ClusterOpt, WorkersOpt, check_workers, echo_json, fail
from avecaesar.editor.cli.signals import stopped_by
from avecaesar.engine.data.errors import UsageError
from avecaesar.engine.data.safeio import write_atomic

if TYPE_CHECKING:
    from avecaesar.engine.lab.brief import Brief
    from avecaesar.engine.lab.generate import Board, Progress, Search
    from avecaesar.engine.lab.generate_balance import BalanceCheck

__all__ = ["balanced", "generate_courses", "write_boards"]

SHEET = "contact-sheet.svg"


def _progress_line(p: Progress) -> str:
    return (f"designs {p.tried:,} · compiled {p.compiled:,} · boards {p.found} · cells "
            f"{p.cells}/{p.cells_total} · {p.seconds:.0f} s")


def _race_printer(done_before: int) -> Callable[[int], None]:
    """A progress callback for the balance races: races run, on one terminal line."""
    def show(done: int) -> None:
        if sys.stderr.isatty():
            sys.stderr.write(f"\rbalance: races run {done_before + done:,}\x1b[K")
            sys.stderr.flush()

    return show


def _printer(quiet: bool) -> Callable[[Progress], None]:
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

    return show


def write_boards(search: Search, brief: Brief, out: Path, seed: int,
                 boards: list[Board] | None = None,
                 checks: list[BalanceCheck] | None = None) -> list[dict[str, object]]:
    """Write the boards (by default every board found) into ``out`` and the contact sheet;
    a row per board (with its balance check when there is one)."""
    from avecaesar.engine.lab.generate_out import (
        board_file,
        board_row,
        board_text,
        contact_sheet,
    )

    boards = search.boards() if boards is None else boards
    rows, files = [], []
    for i, board in enumerate(boards, 1):
        target = out / board_file(brief, i)
        write_atomic(target, board_text(board, brief, seed, i, target))
        rows.append(board_row(board, str(target)))
        if checks is not None:
            rows[-1]["balance"] = checks[i - 1].to_json()
        files.append(str(target))
    if boards:
        write_atomic(out / SHEET, contact_sheet(boards, files, f"{brief.name}: "
                                                f"{len(boards)} boards (seed {seed})"))
    return rows


def balanced(search: Search, brief: Brief, seed: int, workers: int, cluster: str | None
             ) -> tuple[list[Board], list[BalanceCheck], list[BalanceCheck]]:
    """The boards found that meet the brief's balance target on fresh races, at most
    ``count``, verified ``count`` at a time in the order the search ranks them (at most
    four times ``count`` are raced); their checks, and every board's raced."""
    import tempfile

    from avecaesar.engine.lab.generate_balance import verify_balance
    from avecaesar.engine.lab.generate_out import board_text

    assert brief.balance is not None
    candidates = search.boards(limit=4 * search.count)
    kept: list[Board] = []
    checks: list[BalanceCheck] = []
    raced: list[BalanceCheck] = []
    with tempfile.TemporaryDirectory(prefix="avecaesar-generate-") as tmp:
        for start in range(0, len(candidates), search.count):
            if len(kept) >= search.count:
                break
            chunk = candidates[start:start + search.count]
            files = []
            for i, board in enumerate(chunk, start + 1):
                target = Path(tmp) / f"candidate-{i}.yaml"
                target.write_text(board_text(board, brief, seed, i, target), encoding="utf-8")
                files.append(str(target))
            verified = verify_balance(files, brief.ruleset, brief.balance, seed, workers,
                                      cluster, _race_printer(len(raced) * brief.balance.races))
            raced += verified
            for board, check in zip(chunk, verified, strict=True):
                if check.met and len(kept) < search.count:
                    kept.append(board)
                    checks.append(check)
    return kept, checks, raced


def _kept(search: Search, seed: int, workers: int, cluster: str | None,
          stopped: tuple[str, int] | None
          ) -> tuple[list[Board], list[BalanceCheck] | None, list[BalanceCheck],
                     tuple[str, int] | None]:
    """The boards to write (those within the balance target when the brief has one), their
    checks, every board raced, and what stopped the command (Ctrl-C in the races too)."""
    if search.brief.balance is None or stopped is not None:
        return search.boards(), None, [], stopped
    try:
        boards, checks, raced = balanced(search, search.brief, seed, check_workers(workers),
                                         cluster)
    except KeyboardInterrupt:
        return [], None, [], stopped_by()
    finally:
        if sys.stderr.isatty():
            sys.stderr.write("\r\x1b[K")
    return boards, checks, raced, None


def _unmet(search: Search, rows: list[dict[str, object]], raced: list[BalanceCheck]
           ) -> list[str]:
    """What kept the search from ``count`` boards: its constraints, then the balance."""
    from avecaesar.engine.lab.generate import explain

    if len(rows) >= search.count:
        return []
    lines = explain(search) if search.progress.found < search.count else []
    return lines + _balance_miss(search, raced)


def _balance_miss(search: Search, raced: list[BalanceCheck]) -> list[str]:
    """What the balance target missed by: the best board raced."""
    b = search.brief.balance
    if b is None or not raced:
        return []
    best = min(raced, key=lambda c: c.spread)
    return [f"balance ({search.brief.where('balance', 'spread_max')}): the most even of the "
            f"{len(raced)} boards raced has a spread of {best.spread:.1f} pp (95 % interval "
            f"{best.ci[0]:.1f} to {best.ci[1]:.1f}) on {best.races} races, "
            f"{best.spread - b.spread_max:.1f} pp more than {b.spread_max:g}"]


def _report(search: Search, rows: list[dict[str, object]], brief_file: Path, out: Path,
            json_out: bool, raced: list[BalanceCheck]) -> None:
    """The summary table of the boards written (or the ``--json`` document)."""
    from avecaesar.engine.lab.generate_out import summary_lines

    if json_out:
        echo_json({"brief": str(brief_file), "seed": search.seed, "boards": rows,
                   "progress": search.progress.__dict__,
                   "unmet": _unmet(search, rows, raced)})
        return
    typer.echo(_progress_line(search.progress))
    for line in summary_lines(rows):
        typer.echo(line)
    b = search.brief.balance
    if b is not None:
        typer.echo(f"balance: {len(raced)} board(s) raced {b.races} fresh races each ({b.bots}); "
                   f"{len(rows)} within a spread of {b.spread_max:g} pp")
        for r in rows:
            c = r["balance"]
            assert isinstance(c, dict)
            ci = c["ci_pp"]
            assert isinstance(ci, list)
            typer.echo(f"  {Path(str(r['file'])).name}: spread {c['spread_pp']:.1f} pp "
                       f"(95 % interval {ci[0]:.1f} to {ci[1]:.1f})")
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
    from_: Annotated[str | None, typer.Option("--from", help="A course whose pieces the "
                                              "brief's keep: names are kept as they are.")
                     ] = None,
    workers: WorkersOpt = 1,
    cluster: ClusterOpt = None,
) -> None:
    """Find boards that meet a brief: each checked as `course validate` checks it.

    Writes DIR/<name>-<i>.yaml per board and DIR/contact-sheet.svg; prints a table of
    each board's figures (or --json). Exit 1, with what could not be met and by how
    much at best, when fewer boards than --count were found.

    Example: avecaesar course generate my-brief.yaml -o boards --count 2 --tries 15
    """
    from avecaesar.engine.lab.brief import brief_rules, read_brief
    from avecaesar.engine.lab.generate import Search
    from avecaesar.engine.lab.generate_keep import kept_parts

    brief = read_brief(brief_file)
    rules = brief_rules(brief)
    if out.exists() and not out.is_dir():
        raise UsageError(f"-o {out}: this is a file — name a folder")
    search = Search(brief, rules, count=count, seed=seed, max_tries=tries,
                    path=str(out / "generated.yaml"), kept=kept_parts(brief, from_))
    show = _printer(quiet or json_out)
    stopped = None
    try:
        search.run(minutes, show)
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM or SIGHUP: keep what was found
        stopped = stopped_by()
    if sys.stderr.isatty() and not (quiet or json_out):
        sys.stderr.write("\r\x1b[K")
    out.mkdir(parents=True, exist_ok=True)
    boards, checks, raced, stopped = _kept(search, seed, workers, cluster, stopped)
    rows = write_boards(search, brief, out, seed, boards, checks)
    _report(search, rows, brief_file, out, json_out, raced)
    if stopped is not None:
        raise fail(f"interrupted ({stopped[0]}): kept the {len(rows)} board(s) found",
                   stopped[1])
    if len(rows) < count:
        lines = _unmet(search, rows, raced)
        raise fail("\n".join([f"found {len(rows)} of {count} boards — not met:",
                              *(f"  {x}" for x in lines)]), 1)
