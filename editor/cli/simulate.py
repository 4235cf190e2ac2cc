"""``avecaesar simulate``: many seeded bot races on one course, and a balance report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from avecaesar.editor.cli.common import (
    BudgetOpt,
    HouseOpt,
    bot_kinds,
    check_players,
    house_rules,
    rule_settings,
)
from avecaesar.editor.cli.complete import (
    complete_bots,
    complete_course,
    complete_ruleset,
    complete_variant,
)
from avecaesar.editor.cli.signals import stopped_by
from avecaesar.engine.data.errors import AveCaesarError, UsageError
from avecaesar.engine.data.limits import MAX_PLAYERS, MAX_RACES, max_workers
from avecaesar.engine.data.safeio import check_output, write_atomic

if TYPE_CHECKING:
    from avecaesar.engine.lab.simulate import SimReport, SimSpec

__all__ = ["format_report", "simulate_cmd", "spec_from_options"]


def spec_from_options(ruleset: str, course: str, players: int, races: int, seed: int,
                      variants: list[str] | None, settings: list[str] | None,
                      bots: str, house: Path | None = None,
                      bot_budget: int | None = None) -> SimSpec:
    from avecaesar.engine.lab.simulate import SimSpec

    pairs = list(rule_settings(settings).items())
    rules = house_rules(house)
    names = tuple(bot_kinds(bots))
    if not 1 <= races <= MAX_RACES:
        raise UsageError(f"--races {races}: give 1 to {MAX_RACES:,} races")
    if not 1 <= players <= MAX_PLAYERS:
        raise UsageError(f"--players {players}: give 1 to {MAX_PLAYERS} players")
    return SimSpec(ruleset, course, players, races, seed, tuple(variants or ()),
                   tuple(pairs), names or ("greedy",),
                   json.dumps(rules, sort_keys=True) if rules else "", bot_budget)


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
              f"balance {r.balance:.3f} (1 − the largest gap in win rate between start "
              "places)",
              f"lead changes per race {r.lead_changes:.2f} · race length {r.turns_mean:.1f} "
              f"turns ({r.turns_min}–{r.turns_max})",
              f"per race: 6-card-rule skips {r.six_rule_skips:.2f} · blocked turns "
              f"{r.blocked_skips:.2f} · alley waits {r.alley_waits:.2f}",
              f"deadlocks {r.deadlocks} of {r.races} races ({r.deadlock_rate:.2%}): the "
              "safety-net end, a full round in which no chariot moved (each skipped or "
              "waited)"]
    return "\n".join(lines)


def simulate_cmd(
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Ruleset id or file.",
                                         autocompletion=complete_ruleset)],
    course: Annotated[str, typer.Option("--course", "-c", help="Course id or file.",
                                        autocompletion=complete_course)],
    players: Annotated[int, typer.Option("--players", "-n", help="Chariots.", min=1, max=6)
                       ] = 6,
    races: Annotated[int, typer.Option("--races", "-k", help="Races to run.", min=1)] = 1000,
    variant: Annotated[list[str] | None, typer.Option("--variant", "-v",
                                                      autocompletion=complete_variant,
                                                      help="Variant (repeat).")] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="key=value.")] = None,
    bots: Annotated[str, typer.Option(autocompletion=complete_bots,
                                      help="Bots per seat, comma-separated, cycled.")
                    ] = "greedy",
    seed: Annotated[int, typer.Option(help="Seed; each race's seed derives from it.")] = 1,
    workers: Annotated[int, typer.Option(help="Processes (0: all cores).", min=0)] = 0,
    json_file: Annotated[Path | None, typer.Option("--json", help="Write the report as "
                                                   "JSON here ('-' for stdout).")] = None,
    chart: Annotated[Path | None, typer.Option(help="Write the win-rate chart (SVG).")
                     ] = None,
    heat_map: Annotated[Path | None, typer.Option(help="Write heat maps: PATH-stood.svg "
                                                  "and PATH-blocked.svg.")] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
    cluster: Annotated[str | None, typer.Option(help="Run on a Dask cluster: the "
                                                "scheduler's address (tcp://host:8786). "
                                                "Needs the 'dask' extra.")] = None,
    house: HouseOpt = None,
    bot_budget: BudgetOpt = None,
) -> None:
    """Run many seeded bot races on one course and report balance figures.

    Ctrl-C (or SIGTERM, SIGHUP) stops the workers and writes the report of the races
    finished so far, marked partial (exit 130; 143, 129).

    Example: avecaesar simulate --ruleset 2022 --course dicetree-2022/hippodrom-constantinople
    --races 200 --chart winrate.svg
    """
    import os
    import sys

    from avecaesar.engine.core.race_setup import race_setup
    from avecaesar.engine.lab.simulate import simulate

    spec = spec_from_options(ruleset, course, players, races, seed, variant, set_, bots, house,
                             bot_budget)
    if workers > max_workers():
        raise UsageError(f"--workers {workers}: at most {max_workers()} (4 per core; "
                         "0 uses every core)")
    check_output(json_file, "--json")
    check_output(chart, "--chart")
    if heat_map is not None:
        if not heat_map.name:
            raise UsageError(f"--heat-map {heat_map}: give a file name prefix, e.g. out/heat")
        for part in ("stood", "blocked"):
            check_output(heat_map.with_name(f"{heat_map.name}-{part}.svg"), "--heat-map")
    rules, board = race_setup(ruleset, spec.variants, dict(spec.settings), course,
                              house_rules(house))
    check_players(ruleset, spec.variants, rules, board, players)
    workers = workers or os.cpu_count() or 1
    heat = heat_map is not None
    if quiet or json_file == Path("-") or not sys.stderr.isatty():
        # no progress bar into a pipe or a file: the output is the report only
        report = simulate(spec, workers, heat, cluster=cluster)
    else:
        with typer.progressbar(length=races, label="racing", file=sys.stderr) as bar:
            done = [0]

            def tick(n: int) -> None:
                bar.update(n - done[0])
                done[0] = n

            report = simulate(spec, workers, heat, tick, cluster=cluster)
    if report.partial:
        typer.echo(f"interrupted ({stopped_by()[0]}): {report.races} of {races} races "
                   "finished; the "
                   "report covers those only (partial)", err=True)
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
    if report.partial:
        raise typer.Exit(stopped_by()[1])


def _heat_maps(spec: SimSpec, report: SimReport, prefix: Path) -> None:
    from avecaesar.editor.render.board import RenderError, course_dot, render
    from avecaesar.engine.course.load import load_course

    g = load_course(spec.course).graph
    for name, counts, what in (("stood", report.stood, "where chariots stood"),
                               ("blocked", report.blocked_at, "where chariots were blocked")):
        dot = course_dot(g, heat={int(k): v for k, v in counts.items()},
                         title=f"{g.graph['name']} — {what}, {report.races} races")
        target = prefix.with_name(f"{prefix.name}-{name}.svg")
        try:
            write_atomic(target, render(dot, "svg"))
        except RenderError as err:
            raise AveCaesarError(str(err)) from err
        typer.echo(f"wrote {target}")
