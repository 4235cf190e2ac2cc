"""``avecaesar simulate``: many seeded bot races on one course, and a balance report."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from avecaesar.editor.cli.common import (
    BudgetOpt,
    ClusterOpt,
    HouseOpt,
    QuietOpt,
    SeedOpt,
    SetOpt,
    VariantOpt,
    WorkersOpt,
    bot_kinds,
    check_counts,
    check_players_on,
    check_workers,
    house_rules,
    rule_settings,
)
from avecaesar.editor.cli.complete import (
    complete_bots,
    complete_course,
    complete_ruleset,
)
from avecaesar.editor.cli.signals import stopped_by
from avecaesar.engine.data.errors import UsageError
from avecaesar.engine.data.safeio import check_output, write_atomic

if TYPE_CHECKING:
    from avecaesar.engine.lab.ladder import Ladder
    from avecaesar.engine.lab.paired import Comparison
    from avecaesar.engine.lab.simulate import SimReport, SimSpec
    from avecaesar.engine.lab.tournament_fairness import TournamentFairness

__all__ = ["compare_spec", "format_comparison", "format_fairness", "format_ladder",
           "format_report",
           "progress_bar", "simulate_cmd", "spec_from_options"]


def spec_from_options(ruleset: str, course: str, players: int, races: int, seed: int,
                      variants: list[str] | None, settings: list[str] | None,
                      bots: str, house: Path | None = None,
                      bot_budget: int | None = None) -> SimSpec:
    from avecaesar.engine.lab.simulate import SimSpec

    pairs = list(rule_settings(settings).items())
    rules = house_rules(house)
    names = tuple(bot_kinds(bots))
    check_counts([("--races", races)])
    return SimSpec(ruleset, course, players, races, seed, tuple(variants or ()),
                   tuple(pairs), names or ("greedy",),
                   json.dumps(rules, sort_keys=True) if rules else "", bot_budget=bot_budget)


def format_report(r: SimReport) -> str:
    """The report as text a designer reads."""
    s = r.spec
    partial = (f"PARTIAL (stopped by {stopped_by()[0]}): {r.races} of {s.races} races\n"
               if r.partial else "")
    lines = [f"{partial}{r.races} races · {s.players} chariots · {s.course} · ruleset {s.ruleset}"
             + (f" + {' + '.join(s.variants)}" if s.variants else "")
             + f" · bots {','.join(s.bots)}"
             + (f" (budget {s.bot_budget})" if s.bot_budget else "") + f" · seed {s.seed}", "",
             "start  wins  win rate (95% interval)   mean place  not finished "
             "(out of cards / disq.)  reserve at finish"]
    for p in r.by_place:
        lo, hi = p.win_ci
        mp = f"{p.mean_place:.2f}" if p.mean_place is not None else "—"
        res = f"{p.mean_reserve:.1f}" if p.mean_reserve is not None else "—"
        mark = "  (driven by no player)" if p.ownerless else ""
        lines.append(f"{p.place:>5}  {p.wins:>4}  {p.win_rate:6.1%} ({lo:5.1%}–{hi:5.1%})    "
                     f"{mp:>9}  {p.not_finished:6.1%} ({p.out_of_cards:5.1%} / "
                     f"{p.disqualified:5.1%})          {res:>5}{mark}")
    lines += ["",
              f"balance {r.balance:.2f}: the largest gap in win rate between start places is "
              f"{100 * r.spread:.1f} percentage points",
              f"lead changes per race {r.lead_changes:.2f} · race length {r.turns_mean:.1f} "
              f"turns ({r.turns_min}–{r.turns_max})",
              f"per race: 6-card-rule skips {r.six_rule_skips:.2f} · blocked turns "
              f"{r.blocked_skips:.2f} · alley waits {r.alley_waits:.2f}",
              f"deadlocks {r.deadlocks} of {r.races} races ({r.deadlock_rate:.2%}): the "
              "safety-net end, a full round in which no chariot moved (each skipped or "
              "waited)"]
    return "\n".join(lines)


RulesetOpt = Annotated[str, typer.Option("--ruleset", "-r", help="Ruleset id or file.",
                                         autocompletion=complete_ruleset)]
CourseOpt = Annotated[str, typer.Option("--course", "-c", help="Course id or file.",
                                        autocompletion=complete_course)]
PlayersOpt = Annotated[int, typer.Option("--players", "-n", help="Chariots.", min=1, max=6)]
RacesOpt = Annotated[int, typer.Option("--races", "-k", help="Races to run.", min=1)]
BotsOpt = Annotated[str, typer.Option(autocompletion=complete_bots,
                                      help="Bots per seat, comma-separated, cycled (all: "
                                      "every registered bot).")]
JsonOpt = Annotated[Path | None, typer.Option("--json", help="Write the report as JSON here "
                                              "('-' for stdout).")]
ChartOpt = Annotated[Path | None, typer.Option(help="Write the win-rate chart (SVG).")]
HeatOpt = Annotated[Path | None, typer.Option(help="Write heat maps: PATH-stood.svg, "
                                              "PATH-blocked.svg and PATH-waited.svg.")]
CompareOpt = Annotated[list[str] | None, typer.Option(
    help="Race a second side on the same deals and seeds and report each figure's "
    "difference with its interval: KEY=VALUE for what differs (ruleset=, course=, "
    "bots=, variant= (comma-separated, empty for none), set=key=value; repeat).")]
ReportOpt = Annotated[Path | None, typer.Option(
    "--report", help="Write the balance report as one self-contained HTML page.")]
LadderOpt = Annotated[str | None, typer.Option(
    "--ladder", help="A skill ladder instead: the entrants (bot or bot:budget, "
    "comma-separated; 'default': " + "random,greedy,search,expert:8,expert:48,expert:192"
    + ") rated with OpenSkill over --races mixed races on this course, best first, with "
    "the races behind each rating and whether each rung stands > 2σ above the next.")]
TournamentOpt = Annotated[bool, typer.Option(
    "--tournament", help="Fairness over a tournament: --races tournaments of the edition's "
    "races with its next-race start order, every race on this course; per start place of "
    "the first race its expected tournament points and tournament win share, and the "
    "single-race spread as a figure of its own (--report: as an HTML page).")]


def simulate_cmd(ruleset: RulesetOpt, course: CourseOpt, players: PlayersOpt = 6,
                 races: RacesOpt = 1000, variant: VariantOpt = None, set_: SetOpt = None,
                 bots: BotsOpt = "greedy", seed: SeedOpt = 1, workers: WorkersOpt = 0,
                 json_file: JsonOpt = None, chart: ChartOpt = None, heat_map: HeatOpt = None,
                 quiet: QuietOpt = False, cluster: ClusterOpt = None, house: HouseOpt = None,
                 compare: CompareOpt = None, report_file: ReportOpt = None,
                 bot_budget: BudgetOpt = None, tournament: TournamentOpt = False,
                 ladder: LadderOpt = None) -> None:
    """Run many seeded bot races on one course and report balance figures.

    With --compare, a second side (another ruleset, course, edited copy or bot line-up)
    races the same deals and seeds, and each figure's difference comes with a 95 % interval
    from the paired races. --report writes every figure as one HTML page. Ctrl-C (or
    SIGTERM, SIGHUP) stops the workers and writes the report of the races finished so far,
    marked partial (exit 130; 143, 129).

    Example: avecaesar simulate --ruleset 2022 --course dicetree-2022/hippodrom-constantinople
    --races 200 --chart winrate.svg
    """
    from avecaesar.engine.lab.paired import compare_summaries
    from avecaesar.engine.lab.simulate import _setup, _spec_key, run_many
    from avecaesar.engine.lab.simulate import report as make_report

    spec = spec_from_options(ruleset, course, players, races, seed, variant, set_, bots, house,
                             bot_budget)
    if tournament or ladder:
        what = "--tournament" if tournament else "--ladder"
        if compare or chart or heat_map or (report_file and ladder) or cluster or \
                (tournament and ladder):
            raise UsageError(f"{what} reports its figures as text or --json"
                             + (" (and --tournament as --report)" if tournament else "")
                             + ": leave out --compare, --chart, --heat-map, "
                             + ("" if tournament else "--report, ") + "and --cluster "
                             "(and give --tournament or --ladder, not both)")
        check_output(json_file, "--json")
        check_output(report_file, "--report")
        if ladder:
            _ladder(spec, ladder, check_workers(workers), json_file)
        else:
            _tournament_fairness(spec, check_workers(workers), json_file, report_file)
        return
    other = _checked_options(spec, compare, workers, json_file, chart, heat_map, report_file)
    specs = [spec] if other is None else [spec, other]
    for side in specs:
        # built once: the simulation's own cache of rules and board, which the workers
        # inherit when they fork
        check_players_on(*_setup(_spec_key(side)), players, side.ruleset, side.variants)
    # a comparison always keeps the per-space counts: its JSON carries both sides'
    heat = heat_map is not None or report_file is not None or other is not None
    with progress_bar(races * len(specs), quiet or json_file == Path("-")) as tick:
        found, interrupted = run_many(specs, check_workers(workers), heat, tick,
                                      cluster=cluster)
    report = replace(make_report(spec, found[0], heat), partial=interrupted)
    if other is not None:
        _compared(report, replace(make_report(other, found[1], heat), partial=interrupted),
                  compare_summaries(found[0], found[1]), json_file, report_file)
        raise typer.Exit(stopped_by()[1] if interrupted else 0)
    _write_report(spec, report, json_file, chart, heat_map, report_file)
    if report.partial:
        raise typer.Exit(stopped_by()[1])


def format_fairness(f: TournamentFairness) -> str:
    """The tournament figures as text a designer reads."""
    s = f.spec
    lo, hi = f.spread_ci
    slo, shi = f.single_race_spread_ci
    lines = [f"{f.tournaments} tournaments of {f.races_each} races · {s.players} players · "
             f"{s.course} every race · ruleset {s.ruleset} · next race: "
             f"{f.next_start_order.replace('_', ' ')} · bots {','.join(s.bots)} · seed "
             f"{s.seed}", "",
             "first-race start  expected points (95% interval)  tournament win share "
             "(95% interval)  single-race win rate"]
    for p in f.places:
        plo, phi = p.points_ci
        wlo, whi = p.win_ci
        lines.append(f"{p.place:>16}  {p.points:6.2f} ({plo:6.2f}–{phi:6.2f})        "
                     f"{p.win_share:6.1%} ({max(0.0, wlo):5.1%}–{min(1.0, whi):5.1%})"
                     f"             {p.single_race_win_rate:6.1%}")
    lines += ["",
              f"tournament spread {100 * f.spread:.1f} percentage points (95% interval "
              f"{100 * lo:.1f} to {100 * hi:.1f}): the tournament win share of the best "
              "start place of the first race minus the worst's, over the whole tournament",
              f"expected points spread {f.points_spread:.2f} ({f.points_spread_ci[0]:.2f} "
              f"to {f.points_spread_ci[1]:.2f})",
              f"single-race spread {100 * f.single_race_spread:.1f} percentage points "
              f"({100 * slo:.1f} to {100 * shi:.1f}): the win rate of a race's best start "
              f"place minus its worst's, over the {f.tournaments * f.races_each:,} races"]
    return "\n".join(lines)


def format_ladder(lad: Ladder) -> str:
    """The ladder as text: best first, each rung's rating and the races behind it."""
    s = lad.spec
    lines = [f"skill ladder · {s.races:,} mixed races · {s.players} chariots · {s.course} · "
             f"ruleset {s.ruleset} · seed {s.seed} · OpenSkill Plackett–Luce", "",
             "rung  entrant        mu     sigma   races   wins   > 2σ above the next"]
    for k, r in enumerate(lad.rungs, 1):
        sep = "—" if r.separated is None else ("yes" if r.separated else "NO")
        if r.races_to_separate is not None:
            sep += f" (about {r.races_to_separate:,} races would tell, if the gap held)"
        lines.append(f"{k:>4}  {r.entrant:<12} {r.mu:6.2f}  {r.sigma:6.2f}  {r.races:6,}  "
                     f"{r.wins:5,}   {sep}")
    lines += ["", "every rung separated by more than two standard deviations"
              if lad.separated else "not every rung is separated: more races would tell"]
    return "\n".join(lines)


def _ladder(spec: SimSpec, text: str, workers: int, json_file: Path | None) -> None:
    """``--ladder``: the mixed races raced and rated, the ladder written."""
    from avecaesar.engine.lab.ladder import DEFAULT_LADDER, entrants, ladder, run_ladder_races

    field_ = entrants(DEFAULT_LADDER if text == "default" else text)
    lad = ladder(spec, field_, run_ladder_races(spec, field_, workers))
    _figures_out(lad.to_json(), lambda: format_ladder(lad), json_file)


def _figures_out(data: object, text: Callable[[], str], json_file: Path | None) -> None:
    """A study's figures: JSON on stdout for ``--json -``, else the text, and the JSON
    written to ``json_file`` when one is named."""
    if json_file == Path("-"):
        typer.echo(json.dumps(data, indent=2))
        return
    typer.echo(text())
    if json_file:
        write_atomic(json_file, json.dumps(data, indent=2))
        typer.echo(f"wrote {json_file}")


def _tournament_fairness(spec: SimSpec, workers: int, json_file: Path | None,
                         report_file: Path | None = None) -> None:
    """``--tournament``: the tournaments raced, their figures written (``report_file``:
    also as an HTML page, editor/render/tournament_page.py)."""
    from avecaesar.engine.lab.tournament_fairness import fairness, run_tournaments

    f = fairness(spec, run_tournaments(spec, spec.races, workers))
    _figures_out(f.to_json(), lambda: format_fairness(f), json_file)
    if report_file is not None:
        from avecaesar.editor.render.tournament_page import tournament_page

        write_atomic(report_file, tournament_page(f))
        typer.echo(f"wrote {report_file}", err=json_file == Path("-"))


def _checked_options(spec: SimSpec, compare: list[str] | None, workers: int,
                     json_file: Path | None, chart: Path | None, heat_map: Path | None,
                     report_file: Path | None) -> SimSpec | None:
    """Every option that can be checked before a race runs (the outputs can be written, the
    workers are not too many, what ``--compare`` draws); the second side with
    ``--compare``."""
    check_workers(workers)
    check_output(json_file, "--json")
    check_output(chart, "--chart")
    check_output(report_file, "--report")
    other = compare_spec(spec, compare) if compare else None
    if other is not None and (chart or heat_map):
        raise UsageError("--chart and --heat-map draw one simulation: with --compare, "
                         "--report draws both sides on one page")
    if heat_map is not None:
        if not heat_map.name:
            raise UsageError(f"--heat-map {heat_map}: give a file name prefix, e.g. out/heat")
        for part in ("stood", "blocked", "waited"):
            check_output(heat_map.with_name(f"{heat_map.name}-{part}.svg"), "--heat-map")
    return other


def _write_report(spec: SimSpec, report: SimReport, json_file: Path | None,
                  chart: Path | None, heat_map: Path | None, report_file: Path | None) -> None:
    """The report as text (or JSON on stdout) and every file asked for."""
    if report.partial:
        typer.echo(f"interrupted ({stopped_by()[0]}): {report.races} of {spec.races} races "
                   "finished; the report covers those only (partial)", err=True)
    if json_file == Path("-"):
        typer.echo(json.dumps(report.to_json(), indent=2))
    else:
        typer.echo(format_report(report))
        if json_file:
            write_atomic(json_file, json.dumps(report.to_json(), indent=2))
            typer.echo(f"wrote {json_file}")
    if chart and report.races:
        from avecaesar.editor.render.charts import win_rate_chart

        write_atomic(chart, win_rate_chart(report))
        typer.echo(f"wrote {chart}")
    if heat_map and report.races:
        _heat_maps(spec, report, heat_map)
    if report_file and report.races:
        from avecaesar.editor.render.balance_page import balance_page

        write_atomic(report_file, balance_page(report))
        typer.echo(f"wrote {report_file}")


COMPARE_KEYS = ("ruleset", "course", "bots", "variant", "set")


def compare_spec(spec: SimSpec, pairs: list[str]) -> SimSpec:
    """The second side of ``--compare``: ``spec`` with what each KEY=VALUE changes."""
    changes: dict[str, object] = {}
    settings: list[str] = []
    for pair in pairs:
        key, eq, value = pair.partition("=")
        key = key.strip()
        if not eq or key not in COMPARE_KEYS:
            raise UsageError(f"--compare {pair!r}: give KEY=VALUE with KEY one of "
                             f"{', '.join(COMPARE_KEYS)} (e.g. --compare ruleset=1989)")
        value = value.strip()
        if key == "set":
            settings.append(value)
        elif key == "variant":
            changes["variants"] = tuple(v.strip() for v in value.split(",") if v.strip())
        elif key == "bots":
            changes["bots"] = tuple(bot_kinds(value))
        elif not value:
            raise UsageError(f"--compare {pair!r}: give the {key} to compare with")
        else:
            changes[key] = value
    if settings:
        changes["settings"] = (*spec.settings, *rule_settings(settings).items())
    other = replace(spec, **changes)  # type: ignore[arg-type]
    if other == spec:
        raise UsageError("--compare: the second side is the same as the first; change the "
                         "ruleset, the course, the bots, the variants or a setting")
    return other


@contextmanager
def progress_bar(length: int, quiet: bool) -> Iterator[Callable[[int], None] | None]:
    """A progress bar's tick on stderr, for ``run_many``: None when quiet or when stderr is
    not a terminal (no bar into a pipe or a file)."""
    import sys

    if quiet or not sys.stderr.isatty():
        yield None
        return
    with typer.progressbar(length=length, label="racing", file=sys.stderr) as bar:
        done = [0]

        def tick(n: int) -> None:
            bar.update(n - done[0])
            done[0] = n

        yield tick


def _compared(a: SimReport, b: SimReport, comparison: Comparison, json_file: Path | None,
              report_file: Path | None) -> None:
    """Print (or write) a paired comparison and its page."""
    from avecaesar.editor.render.balance_page import balance_page

    data = {"a": a.to_json(), "b": b.to_json(), "comparison": comparison.to_json()}
    if json_file == Path("-"):
        typer.echo(json.dumps(data, indent=2))
    else:
        typer.echo(format_comparison(a, b, comparison))
        if json_file:
            write_atomic(json_file, json.dumps(data, indent=2))
            typer.echo(f"wrote {json_file}")
    if report_file and comparison.races:
        write_atomic(report_file, balance_page(a, b, comparison))
        typer.echo(f"wrote {report_file}", err=json_file == Path("-"))


def format_comparison(a: SimReport, b: SimReport, c: Comparison) -> str:
    """The paired comparison as text: each figure, A, B and B − A with its interval."""
    from avecaesar.editor.render.balance_page import describe
    from avecaesar.editor.render.balance_sections import difference_cells

    partial = f"PARTIAL (stopped by {stopped_by()[0]})\n" if a.partial else ""
    lines = [f"{partial}{c.races:,} paired races (the same deals and seeds on both sides)",
             f"A: {describe(a.spec)}", f"B: {describe(b.spec)}", "",
             f"{'figure':28}  {'A':>8}  {'B':>8}  {'B − A (95% interval)':>28}  independent ×"]
    for d in c.differences:
        va, vb, diff, eff = difference_cells(d)
        lines.append(f"{d.name:28}  {va:>8}  {vb:>8}  {diff:>28}{' *' if d.significant else '  '}"
                     f"  {eff:>6}")
    lines += ["", "*: the interval leaves out 0. independent ×: how many times more races two "
              "independent simulations would need for an interval as narrow."]
    return "\n".join(lines)


def _heat_maps(spec: SimSpec, report: SimReport, prefix: Path) -> None:
    from avecaesar.editor.render.board import board_svg
    from avecaesar.engine.course.load import load_course

    g = load_course(spec.course).graph
    for name, counts, what in (("stood", report.stood, "where chariots stood"),
                               ("blocked", report.blocked_at, "where chariots were blocked"),
                               ("waited", report.waited_at, "where chariots waited")):
        top = max(counts.values(), default=0)
        scale = (f"white: never · pale yellow to deep red: 1 to {top} turns "
                 f"({100 * top / max(1, report.races):.1f} per 100 races)")
        svg = board_svg(g, heat={int(k): v for k, v in counts.items()},
                        title=f"{g.graph['name']} — {what}, {report.races} races\n{scale}")
        target = prefix.with_name(f"{prefix.name}-{name}.svg")
        write_atomic(target, svg.encode("utf-8"))
        typer.echo(f"wrote {target}")
