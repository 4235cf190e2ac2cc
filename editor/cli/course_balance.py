"""``avecaesar course balance``: the design assistant — edits that even out a course's start
places, each verified by paired simulation (engine/lab/assistant.py), as ``file:line`` edits,
applied with ``--apply``."""

from __future__ import annotations

import json
from collections.abc import Callable
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
    check_workers,
    house_rules,
    rule_settings,
)
from avecaesar.engine.data.errors import UsageError
from avecaesar.engine.data.safeio import check_output, write_atomic

if TYPE_CHECKING:
    from avecaesar.engine.course.whatif import Edit
    from avecaesar.engine.data.errors import Problem
    from avecaesar.engine.lab.assistant import Advice, Proposal
    from avecaesar.engine.lab.simulate import SimSpec

__all__ = ["advice_lines", "apply_proposal", "balance_course", "revalidate"]


def _rates(rates: list[float]) -> str:
    return " ".join(f"{100 * r:.1f}" for r in rates) + " %"


def _shown(file: str) -> str:
    """A file as the designer named it: relative to the current folder when inside it."""
    import os

    rel = os.path.relpath(file)
    return file if rel.startswith("..") else rel


def _words(aim: str) -> tuple[str, str, str]:
    """The target's words: its spread, what is counted, and what each place's rate is."""
    if aim == "tournament":
        return ("tournament spread", "tournaments",
                "tournament win share by first-race start place")
    return "spread", "races", "win rate by start place"


def _proposal_lines(i: int, p: Proposal, target: float) -> list[str]:
    from avecaesar.engine.lab.assistant import win_rates

    v = p.verified
    spread, unit, rates = _words(p.aim)
    head = f"proposal {i}: {spread} {100 * p.spread:.1f} pp"
    if v is not None:
        d = v.spread
        within = "within the target" if p.spread <= target else "not within the target"
        head += (f", {100 * d.diff:+.1f} pp against the original (95 % interval "
                 f"{100 * d.ci[0]:+.1f} to {100 * d.ci[1]:+.1f}, {v.races:,} {unit}, "
                 f"{p.looks} look{'s' if p.looks > 1 else ''}) — {within}")
    out = [head]
    out += [f"  {_shown(e.file)}:{e.line}: {e.description}" for e in p.edits]
    if p.report is not None:
        out.append(f"  {rates} {_rates(win_rates(p.report))}"
                   " · reserve " + ", ".join("—" if r is None else str(r)
                                             for r in p.figures.reserve))
    out += [f"  warning: {w}" for w in p.warnings]
    return out


def _left_out(a: Advice) -> list[str]:
    """What the assistant left out and why, one line each."""
    unit = _words(a.aim)[1]
    out = []
    if a.warned:
        out.append(f"{a.warned} edits left out: each brings a warning or opens the drawing")
    if a.noops:
        one = unit.removesuffix("s")
        out.append(f"{a.noops} edits left out as no-ops: their {unit} are the original's, "
                   f"{one} for {one}")
    if a.wider:
        out.append(f"{a.wider} screened proposals left out: wider for certain on the "
                   f"verification {unit}")
    if a.duplicates:
        out.append(f"{a.duplicates} screened proposals left out: they race the same {unit} "
                   "as a better one (the same board by other edits)")
    if a.undecided:
        out.append(f"{a.undecided} screened proposals left out: undecided at "
                   f"{a.verify_cap:,} {unit} (the interval still includes 0)")
    return out


def advice_lines(a: Advice) -> list[str]:
    """The assistant's answer as text a designer reads."""
    from avecaesar.engine.lab.assistant import win_rates
    from avecaesar.engine.lab.tournament_fairness import TournamentFairness

    s = a.spec
    o = a.original
    spread, unit, rates = _words(a.aim)
    lines = [f"{a.course.id} · ruleset {s.ruleset} · {s.players} players · bots "
             f"{','.join(s.bots)} · target: {spread} ≤ {100 * a.target:.1f} pp"]
    if a.aim == "tournament":
        lines.append("tournament spread: the tournament win share of the best first-race "
                     "start place minus the worst's, over tournaments of the edition's races "
                     "and next-race start order; every count below is of tournaments")
    if o is not None:
        raced = o.tournaments if isinstance(o, TournamentFairness) else o.races
        lines.append(f"the course: {spread} {100 * o.spread:.1f} pp, {rates} "
                     f"{_rates(win_rates(o))} ({raced:,} {unit})")
        if isinstance(o, TournamentFairness):
            lo, hi = o.spread_ci
            slo, shi = o.single_race_spread_ci
            lines.append(f"  tournament spread 95 % interval {100 * lo:.1f} to {100 * hi:.1f} "
                         f"pp; single-race spread in those tournaments' races "
                         f"{100 * o.single_race_spread:.1f} pp ({100 * slo:.1f} to "
                         f"{100 * shi:.1f})")
    lines.append(f"{a.candidates} edits keep every start place's reserve ≥ {a.reserve} "
                 f"({a.invalid} others break the course or cut a reserve); "
                 + (f"{a.combinations} combinations; " if a.combinations else "")
                 + (f"{a.closing} pairs that close the drawing again; " if a.closing else "")
                 + f"each screened on {a.screen_races:,} {unit} paired with the original, the "
                 f"best verified on {a.verify_races:,} fresh paired {unit}, doubled until the "
                 f"interval leaves 0 out or {a.verify_cap:,} {unit}")
    lines += _left_out(a)
    if o is not None and o.spread <= a.target:
        lines.append("the course is already within the target")
    if not a.proposals:
        lines.append(f"no edit narrows the {spread}")
    for i, p in enumerate(a.proposals, 1):
        lines += _proposal_lines(i, p, a.target)
    return lines


def apply_proposal(edits: tuple[Edit, ...], rules: object) -> list[str]:
    """Write the edits into their files (only the edited values change), then update the
    course's declared figures as ``course validate --update-figures`` does; the changed
    files."""
    from avecaesar.editor.cli.figures_update import rewrite_value, unified_diff
    from avecaesar.engine.course.load import load_courses

    by_file: dict[str, list[Edit]] = {}
    for e in edits:
        by_file.setdefault(e.file, []).append(e)
    out = []
    for file, mine in by_file.items():
        old = Path(file).read_text(encoding="utf-8")
        new = old
        for e in mine:
            new = rewrite_value(new, e.path, e.new)
        write_atomic(file, new)
        for line in unified_diff(old, new, Path(file).name):
            typer.echo(line)
        out.append(file)
    from avecaesar.editor.cli.course import _update_figures

    course_file = edits[0].file
    for c in load_courses(course_file):
        if c.errors or c.model.file != course_file:
            continue
        block = ("anticlockwise", "figures") if c.direction == "anticlockwise" else ("figures",)
        _update_figures(c.model.file, {block: c.figures(rules).to_json()},  # type: ignore[arg-type]
                        rules, quiet=False)  # type: ignore[arg-type]
    return out


def _problems(files: list[str], rules: object) -> dict[str, list[str]]:
    """Every course of the files: its errors, warnings and stale figures, as text."""
    from avecaesar.engine.course.load import load_courses
    from avecaesar.engine.lab.assistant import OPENS

    def text(p: Problem) -> str:  # a drawing that did not close may miss by another gap
        return f"{p.severity}: " + (OPENS if p.message.startswith(OPENS) else p.message)

    out: dict[str, list[str]] = {}
    for file in files:
        for c in load_courses(file):
            key = f"{file}:{c.direction}"
            out[key] = [text(p) for p in c.problems]
            if not c.errors:
                figures = c.figures(rules)  # type: ignore[arg-type]
                out[key] += [text(p) for p in c.rule_problems(figures, rules)]  # type: ignore[arg-type]
                out[key] += [f"stale figure: {p.message}" for p in c.figure_problems(figures)]
    return out


def revalidate(files: list[str], before: dict[str, list[str]], rules: object) -> list[str]:
    """What the written files have that they did not have before the edit: an error, a
    warning (the drawing that no longer closes among them) or a stale figure."""
    now = _problems(files, rules)
    return [p for key, found in now.items() for p in found
            if p not in before.get(key, []) and not p.startswith("info")]


def _apply_checked(course: str, edits: tuple[Edit, ...], rules: object) -> None:
    """Apply the edits, then validate the written files again: anything new (an error, a
    warning, a stale figure) puts every file back as it was and exits 1."""
    files = sorted({e.file for e in edits})
    texts = {f: Path(f).read_text(encoding="utf-8") for f in files}
    before = _problems(files, rules)
    apply_proposal(edits, rules)
    new = revalidate(files, before, rules)
    if new:
        for f, text in texts.items():
            write_atomic(f, text)
        for p in new:
            typer.echo(f"--apply: {_shown(files[0])}: the edited file has {p}", err=True)
        typer.echo("--apply: the written file did not validate as the original did: put "
                   "back as it was", err=True)
        raise typer.Exit(1)
    typer.echo(f"applied proposal 1 to {course}; re-validated {', '.join(map(_shown, files))}:"
               " no new warning, no stale figure")


def _check_tournament(aim: str, spec: SimSpec) -> None:
    """``--spread tournament`` under rules that play no tournament of several races: exit 2."""
    if aim != "tournament":
        return
    from avecaesar.engine.lab.tournament_fairness import has_tournament

    if not has_tournament(spec):
        raise UsageError(f"--spread tournament: the ruleset {spec.ruleset} plays no "
                         "tournament of several races; use --spread race")


def _write_advice(advice: Advice, json_file: Path | None) -> None:
    """The advice as text (or JSON on stdout), and as JSON into ``json_file``."""
    if json_file == Path("-"):
        typer.echo(json.dumps(advice.to_json(), indent=2))
        return
    for line in advice_lines(advice):
        typer.echo(line)
    if json_file:
        write_atomic(json_file, json.dumps(advice.to_json(), indent=2))
        typer.echo(f"wrote {json_file}")


def _stages() -> Callable[[str, int, int], None]:
    """The assistant's progress: each stage's name once, on stderr."""
    shown = {"stage": ""}

    def progress(stage: str, done: int, total: int) -> None:
        if stage != shown["stage"]:
            shown["stage"] = stage
            typer.echo(f"{stage} …", err=True)

    return progress


CourseOpt = Annotated[str, typer.Argument(help="Course id or file.")]
RulesetOpt = Annotated[str | None, typer.Option(
        "--ruleset", "-r", help="Ruleset (default: the course's edition).")]
TargetOpt = Annotated[float, typer.Option(
        help="The spread of win rates between start places to reach, in percentage "
        "points.")]
ApplyOpt = Annotated[bool, typer.Option(
        "--apply", help="Write the best verified proposal into the course's files and "
        "update its figures.")]
PlayersOpt = Annotated[int | None, typer.Option(
        "--players", "-n", help="Players (default: the most the course seats).")]
BotsOpt = Annotated[str, typer.Option(help="Bots per seat, comma-separated, cycled.")
                    ]
ScreenOpt = Annotated[int, typer.Option(help="Races to screen each edit with.")]
RacesOpt = Annotated[int, typer.Option("--races", "-k", help="Races to verify each "
                                       "proposal with at first (fresh seeds).")]
MaxRacesOpt = Annotated[int | None, typer.Option(
        "--max-races", help="The most races a proposal is verified on: its races double "
        "from --races until its interval leaves 0 out (default 4 × --races; --races to "
        "verify once).")]
JsonFileOpt = Annotated[Path | None, typer.Option("--json", help="Write the proposals as "
                                                  "JSON here ('-' for stdout).")]
SpreadOpt = Annotated[str, typer.Option(
        "--spread", help="The spread to narrow: race (the win rate of the best start place "
        "minus the worst's in single races) or tournament (the tournament win share of the "
        "best first-race start place minus the worst's, over the edition's races and "
        "next-race start order; --screen, --races and --max-races then count tournaments).")]


def balance_course(course: CourseOpt, ruleset: RulesetOpt = None, target: TargetOpt = 3.0,
                   apply: ApplyOpt = False, players: PlayersOpt = None,
                   variant: VariantOpt = None, set_: SetOpt = None, bots: BotsOpt = "greedy",
                   screen: ScreenOpt = 600, races: RacesOpt = 4000, seed: SeedOpt = 1,
                   workers: WorkersOpt = 0, cluster: ClusterOpt = None,
                   json_file: JsonFileOpt = None, quiet: QuietOpt = False,
                   house: HouseOpt = None, max_races: MaxRacesOpt = None,
                   bot_budget: BudgetOpt = None, spread: SpreadOpt = "race") -> None:
    """Propose up to three edits — the start grid's order, a lane's length, the alley's
    position, a chicane — that bring the spread of win rates between start places within
    the target, keeping every start place's reserve; each proposal verified by paired
    simulation against the original with its interval, written as file:line edits.

    Strong play is one option away: --bots expert (--bot-budget N: its rollouts per
    decision); fairness over a tournament too: --spread tournament.

    Example: avecaesar course balance ravensburger-1989/a-blue --screen 20 --races 100
    """
    from avecaesar.editor.cli.course import cid_of
    from avecaesar.engine.lab.assistant import AIMS, advise, course_rules
    from avecaesar.engine.lab.batch import batch_spec

    if target <= 0 or target >= 100:
        raise UsageError(f"--target {target}: give the spread to reach in percentage points, "
                         "more than 0 and under 100 (e.g. --target 3)")
    check_counts([("--screen", screen), ("--races", races)], least=10)
    if spread not in AIMS:
        raise UsageError(f"--spread {spread}: give race or tournament (the spread to narrow)")
    if spread == "tournament" and cluster:
        raise UsageError("--spread tournament races its tournaments on this machine's "
                         "workers: leave out --cluster (--workers W)")
    if max_races is not None and max_races < races:
        raise UsageError(f"--max-races {max_races}: give at least --races ({races}), the "
                         "races of the first look")
    processes = check_workers(workers)
    check_output(json_file, "--json")
    if apply and cid_of(course):
        raise UsageError(f"--apply writes into the course's files, and {course} is a bundled "
                         f"course: make an editable copy first (avecaesar course new "
                         f"my-course.yaml --from {course}) and balance that")
    rules_file = house_rules(house)
    spec, notes = batch_spec(course, ruleset, players, 1, seed, tuple(bot_kinds(bots)),
                             tuple(variant or ()), tuple(rule_settings(set_).items()),
                             json.dumps(rules_file, sort_keys=True) if rules_file else "",
                             rules_file)
    spec = replace(spec, bot_budget=bot_budget)
    for note in notes:
        typer.echo(note, err=True)
    quiet = quiet or json_file == Path("-")
    _check_tournament(spread, spec)
    advice = advise(spec, target / 100, screen, races, processes, cluster,
                    None if quiet else _stages(), max_races, spread)
    _write_advice(advice, json_file)
    if apply:
        best = advice.proposals[0] if advice.proposals else None
        if best is None or best.verified is None or best.verified.spread.ci[1] >= 0:
            typer.echo("--apply: no proposal narrows the spread for certain (its interval "
                       "leaves out 0); nothing written", err=True)
            raise typer.Exit(1)
        _apply_checked(course, best.edits, course_rules(spec))
