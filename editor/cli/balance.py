"""``avecaesar balance``: the balance report over many courses, ranked best to worst."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from avecaesar.editor.cli.common import (
    ClusterOpt,
    HouseOpt,
    QuietOpt,
    SeedOpt,
    SetOpt,
    VariantOpt,
    WorkersOpt,
    bot_kinds,
    check_counts,
    check_workers,
    house_rules,
    rule_settings,
)
from avecaesar.editor.cli.signals import stopped_by
from avecaesar.engine.data.errors import UsageError
from avecaesar.engine.data.safeio import check_output, write_atomic

if TYPE_CHECKING:
    from avecaesar.engine.lab.simulate import SimReport, SimSpec
    from avecaesar.engine.lab.tournament_fairness import TournamentFairness

#: per course (its spec's course and ruleset): the tournament figures (None: its rules play
#: no tournament of several races)
Tournaments = dict[tuple[str, str], "TournamentFairness | None"]

__all__ = ["balance_cmd", "balance_rows", "pick_courses", "race_tournaments"]


def pick_courses(courses: list[str], editions: list[str]) -> list[str]:
    """The courses named, or every bundled course of the editions named, or every bundled
    course (both directions of each)."""
    from avecaesar.engine.course.bundled import bundled_course_ids

    known = bundled_course_ids()
    out = list(courses)
    for edition in editions:
        found = [c for c in known if c.split("/")[0] == edition.strip().lower()]
        if not found:
            names = sorted({c.split("/")[0] for c in known})
            raise UsageError(f"--edition {edition}: no bundled course of that edition; "
                             f"editions with courses: {', '.join(names)}")
        out += found
    return list(dict.fromkeys(out)) if out else known


def balance_rows(reports: list[SimReport]) -> list[SimReport]:
    """The reports best balanced first: the smallest spread between start places; a tie
    goes to the course id."""
    return sorted(reports, key=lambda r: (r.spread, r.spec.course))


def _table(reports: list[SimReport], tournaments: Tournaments | None = None) -> list[str]:
    head = ["rank", "course", "ruleset", "players", "spread", "balance", "win rate by place",
            "not finished", "lead changes", "turns"]
    if tournaments is not None:  # each spread named for what it is
        head[4:5] = ["race spread", "tournament spread (95 %)"]
    rows = [head]
    for i, r in enumerate(balance_rows(reports), 1):
        rates = " ".join(f"{100 * p.win_rate:.0f}" for p in r.by_place)
        dnf = sum(p.not_finished for p in r.by_place) / max(1, len(r.by_place))
        row = [str(i), r.spec.course, r.spec.ruleset, str(r.spec.players),
               f"{100 * r.spread:.1f} pp", f"{r.balance:.2f}", f"{rates} %",
               f"{100 * dnf:.1f} %", f"{r.lead_changes:.1f}", f"{r.turns_mean:.0f}"]
        if tournaments is not None:
            f = tournaments.get((r.spec.course, r.spec.ruleset))
            row.insert(5, "no tournament" if f is None else
                       f"{100 * f.spread:.1f} pp ({100 * f.spread_ci[0]:.1f}–"
                       f"{100 * f.spread_ci[1]:.1f})")
        rows.append(row)
    widths = [max(len(row[k]) for row in rows) for k in range(len(head))]
    left = {1, 2, head.index("win rate by place")}
    return ["  ".join(c.ljust(w) if k in left else c.rjust(w)
                      for k, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip()
            for row in rows]


def race_tournaments(specs: list[SimSpec], workers: int) -> tuple[Tournaments, bool]:
    """``--tournament``: each course's ``spec.races`` tournaments of its edition's races
    (engine/lab/tournament_fairness.py), the courses whose rules play none left at None;
    and whether Ctrl-C stopped them (the courses done by then keep their figures)."""
    from avecaesar.engine.lab.tournament_fairness import (
        fairness,
        has_tournament,
        run_tournaments,
    )

    out: Tournaments = {}
    for spec in specs:
        key = (spec.course, spec.ruleset)
        if not has_tournament(spec):
            out[key] = None
            continue
        try:
            out[key] = fairness(spec, run_tournaments(spec, spec.races, workers))
        except KeyboardInterrupt:
            return out, True
    return out, False


CoursesOpt = Annotated[list[str] | None, typer.Argument(
        help="Course ids or files (default: every bundled course).")]
EditionOpt = Annotated[list[str] | None, typer.Option(
        help="Every bundled course of this edition (repeat).")]
RulesetOpt = Annotated[str | None, typer.Option(
        "--ruleset", "-r", help="Ruleset for every course (default: each course's own "
        "edition).")]
PlayersOpt = Annotated[int | None, typer.Option(
        "--players", "-n", help="Players (default: the most each course seats).")]
RacesOpt = Annotated[int, typer.Option("--races", "-k", help="Races per course.")]
BotsOpt = Annotated[str, typer.Option(help="Bots per seat, comma-separated, cycled (all: "
                                      "every registered bot).")]
ReportDirOpt = Annotated[Path | None, typer.Option(
       "--report-dir", help="Write each course's balance report (HTML) into this folder.")
                         ]
JsonFileOpt = Annotated[Path | None, typer.Option("--json", help="Write every report as "
                                                  "JSON here ('-' for stdout).")]
TournamentOpt = Annotated[bool, typer.Option(
    "--tournament", help="Also race --races tournaments of each course's edition (its "
    "races and next-race start order, every race on the course) and give the tournament "
    "spread with its 95 % interval next to the single-race spread.")]


def balance_cmd(courses: CoursesOpt = None, edition: EditionOpt = None,
                ruleset: RulesetOpt = None, players: PlayersOpt = None, races: RacesOpt = 2000,
                variant: VariantOpt = None, set_: SetOpt = None, bots: BotsOpt = "greedy",
                seed: SeedOpt = 1, workers: WorkersOpt = 0, cluster: ClusterOpt = None,
                report_dir: ReportDirOpt = None, json_file: JsonFileOpt = None,
                quiet: QuietOpt = False, house: HouseOpt = None,
                tournament: TournamentOpt = False) -> None:
    """Simulate every bundled course of an edition (or a list) and rank them from best to
    worst balanced: the spread of win rates between start places, with each course's other
    figures; --report-dir writes each course's balance report.

    Each course races under its own edition's rules unless --ruleset says otherwise, with as
    many players as it seats; a value the rules leave open is raced at its first choice and
    the run says so.

    Example: avecaesar balance --edition ravensburger-1989 --races 100
    """
    from avecaesar.editor.cli.simulate import progress_bar
    from avecaesar.engine.lab.batch import batch_spec
    from avecaesar.engine.lab.simulate import report, run_many

    check_counts([("--races", races)])
    processes = check_workers(workers)
    if report_dir is not None and report_dir.exists() and not report_dir.is_dir():
        raise UsageError(f"--report-dir {report_dir}: a file of that name exists; give a "
                         "folder")
    check_output(json_file, "--json")
    kinds = tuple(bot_kinds(bots))
    settings = tuple(rule_settings(set_).items())
    rules_file = house_rules(house)
    house_text = json.dumps(rules_file, sort_keys=True) if rules_file else ""
    specs = []
    for course in pick_courses(courses or [], edition or []):
        spec, notes = batch_spec(course, ruleset, players, races, seed, kinds,
                                 tuple(variant or ()), settings, house_text, rules_file)
        specs.append(spec)
        for note in notes:
            typer.echo(f"{course}: {note}", err=True)
    started = time.perf_counter()
    quiet = quiet or json_file == Path("-")
    heat = report_dir is not None
    with progress_bar(races * len(specs), quiet) as tick:
        found, interrupted = run_many(specs, processes, heat, tick, cluster=cluster)
    reports = [report(s, f, heat) for s, f in zip(specs, found, strict=True) if f]
    tournaments: Tournaments | None = None
    if tournament and not interrupted:
        tournaments, interrupted = race_tournaments(specs, processes)
    elapsed = time.perf_counter() - started
    _write(reports, json_file, report_dir, elapsed, interrupted, tournaments)
    if interrupted:
        raise typer.Exit(stopped_by()[1])


def _write(reports: list[SimReport], json_file: Path | None, report_dir: Path | None,
           elapsed: float, interrupted: bool, tournaments: Tournaments | None = None) -> None:
    ranked = balance_rows(reports)

    def entry(r: SimReport) -> dict[str, object]:
        if tournaments is None:
            return r.to_json()
        f = tournaments.get((r.spec.course, r.spec.ruleset))
        return {**r.to_json(), "tournament": None if f is None else f.to_json()}

    data = {"seconds": elapsed, "partial": interrupted,
            "courses": [{"rank": i, **entry(r)} for i, r in enumerate(ranked, 1)]}
    if json_file == Path("-"):
        typer.echo(json.dumps(data, indent=2))
    else:
        partial = f" (PARTIAL: stopped by {stopped_by()[0]})" if interrupted else ""
        total = sum(r.races for r in reports)
        played = [f for f in (tournaments or {}).values() if f is not None]
        more = (f" and {sum(f.tournaments for f in played):,} tournaments "
                f"({sum(f.tournaments * f.races_each for f in played):,} races)"
                if tournaments is not None else "")
        typer.echo(f"{len(reports)} courses, {total:,} races{more} in {elapsed:.0f} s{partial}; "
                   "best balanced first (spread: the largest gap in win rate between start "
                   "places)")
        if tournaments is not None:
            typer.echo("race spread: that gap in single races (start orders drawn); "
                       "tournament spread: the tournament win share of the best start place "
                       "of the first race minus the worst's, over --races tournaments of the "
                       "edition's races and next-race start order, with its 95 % interval")
        for line in _table(reports, tournaments):
            typer.echo(line)
        if json_file:
            write_atomic(json_file, json.dumps(data, indent=2))
            typer.echo(f"wrote {json_file}")
    if report_dir is not None:
        from avecaesar.editor.render.balance_page import balance_page

        report_dir.mkdir(parents=True, exist_ok=True)
        for r in ranked:
            target = report_dir / (r.spec.course.replace("/", "_").removesuffix(".yaml")
                                   + ".html")
            write_atomic(target, balance_page(r))
        typer.echo(f"wrote {len(ranked)} reports into {report_dir}",
                   err=json_file == Path("-"))
