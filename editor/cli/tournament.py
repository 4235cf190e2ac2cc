"""``avecaesar tournament``: a whole evening of races with bots — the course rotation or draw,
the next-race order, points per race and in total, the tie-break, the final standings; a
tournament record that replays (``--replay FILE``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from avecaesar.editor.cli.common import (
    BudgetOpt,
    HouseOpt,
    LangOpt,
    check_players,
    echo_json,
    house_rules,
    players_language,
    rule_settings,
    seat_bots,
)
from avecaesar.editor.cli.complete import complete_bots, complete_ruleset, complete_variant
from avecaesar.editor.cli.signals import stopped_by
from avecaesar.editor.table.messages import say
from avecaesar.engine.bots.registry import POLICIES
from avecaesar.engine.data.errors import InputError, Problem, UsageError
from avecaesar.engine.data.limits import record_bytes_limit
from avecaesar.engine.data.safeio import check_output, read_text, write_atomic

if TYPE_CHECKING:
    from avecaesar.engine.core.tournament import Tournament

# The engine is imported by the command when it runs, not when the app is built: `avecaesar
# --help` answers at once (docs/performance.md).

TOURNAMENT_SCHEMA = "urn:avecaesar:tournament-record"

__all__ = ["tournament"]




def tournament(
    ruleset: Annotated[str | None, typer.Option("--ruleset", "-r", help="Ruleset id or file.",
                                         autocompletion=complete_ruleset)]
    = None,
    players: Annotated[int, typer.Option("--players", "-n", help="Number of players.")] = 4,
    variant: Annotated[list[str] | None, typer.Option(
    "--variant", "-v",
    autocompletion=complete_variant, help="Variant id or overlay file (repeat).")] = None,
    setting: Annotated[list[str] | None, typer.Option("--set", help="Rule value key=value.")]
    = None,
    courses: Annotated[str | None, typer.Option(
        help="Courses race by race, comma-separated (cycled); 'draw' draws a course of the "
             "edition without repeats. Default: the ruleset's rotation.")] = None,
    bots: Annotated[str, typer.Option(autocompletion=complete_bots,
                                      help="Bots per player, comma-separated, cycled: "
                                      + ", ".join(POLICIES))] = "greedy",
    seed: Annotated[int, typer.Option(help="Seed of the tournament.")] = 1,
    record: Annotated[Path | None, typer.Option(help="Write the tournament record (JSON).")]
    = None,
    replay_file: Annotated[Path | None, typer.Option(
        "--replay", help="Re-check a tournament record instead of playing.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    house: HouseOpt = None,
    bot_budget: BudgetOpt = None,
    lang: LangOpt = None,
) -> None:
    """Play a tournament with bots and print each race's result and the standings.

    Example: avecaesar tournament --ruleset 2006 --players 4 --seed 3
    """
    with players_language(lang):
        _tournament(ruleset, players, variant or [], rule_settings(setting), courses, bots,
                    seed, record, replay_file, as_json, house, bot_budget)


def _tournament(ruleset: str | None, players: int, variants: list[str],
                overrides: dict[str, str], courses: str | None, bots: str, seed: int,
                record: Path | None, replay_file: Path | None, as_json: bool,
                house_file: Path | None = None, budget: int | None = None) -> None:
    from avecaesar.engine.bots.registry import OWNERLESS
    from avecaesar.engine.core.race import check_player_count
    from avecaesar.engine.core.race_setup import ChosenRules
    from avecaesar.engine.core.tournament import (
        planned_courses,
        run_tournament,
    )

    check_output(record, "--record")
    if replay_file is not None:
        _replay(replay_file, as_json)
        return
    if ruleset is None:
        raise UsageError("--ruleset is required (or --replay FILE)")
    chosen = ChosenRules.compose(ruleset, variants, overrides, house_rules(house_file))
    t, pool = chosen.tournament_rules, chosen.course_pool()
    given = [c.strip() for c in courses.split(",") if c.strip()] if courses else None
    setup = chosen.course_setups()
    check_player_count(chosen.race_rules, players, ruleset, variants,  # before the courses
                       overrides=overrides, house=chosen.house)
    for course in dict.fromkeys(planned_courses(t, players, seed, given, pool)):
        check_players(setup(course), players)  # every course is checked before the first race
    names, seats, policies = seat_bots(bots, players, seed, budget)
    header: dict[str, Any] = {**chosen.header(), "courses": given,
                              "players": [{"name": n, "bot": k}
                                          for n, k in zip(names, seats, strict=True)],
                              **chosen.header_facts(), "tournament_seed": seed}
    done = run_tournament(t, setup, names, policies, seed, given, pool, header,
                          ownerless=OWNERLESS)
    if record is not None:
        write_atomic(record, json.dumps(done.record(), ensure_ascii=False) + "\n")
    if done.partial:
        typer.echo(say("tournament_interrupted", signal=stopped_by()[0], done=len(done.races),
                       races=t.races)
                   + (say("tournament_partial_record", record=record) if record else ""),
                   err=True)
    if as_json:
        echo_json({"ruleset": ruleset, "variants": variants, "seed": seed, **done.to_json()})
        return
    typer.echo(say("tournament_head", ruleset=ruleset,
                   variants=f" + {', '.join(variants)}" if variants else "",
                   players=players, races=len(done.races), seed=seed))
    _print(done)
    if done.partial:
        raise typer.Exit(stopped_by()[1])


def _replay(replay_file: Path, as_json: bool) -> None:
    """``--replay FILE``: every race re-checked, the standings compared."""
    from avecaesar.engine.core.race_setup import ChosenRules
    from avecaesar.engine.core.record import files_the_record_named
    from avecaesar.engine.core.tournament import replay_tournament
    from avecaesar.engine.ruleset.embedded import embedded

    doc = read_tournament_record(replay_file)
    with embedded(doc.get("rules_files")), files_the_record_named(str(replay_file), 1):
        chosen = ChosenRules.compose(doc["ruleset"], doc["variants"], doc["overrides"],
                                     doc.get("house"))
        done = replay_tournament(doc, chosen.tournament_rules, chosen.course_setups(),
                                 str(replay_file), chosen.course_pool())
    if as_json:
        echo_json({"replayed": True, **done.to_json()})
        return
    typer.echo(say("tournament_replayed", file=replay_file, races=len(done.races)))
    _print(done)


def read_tournament_record(path: Path) -> dict[str, Any]:
    """A tournament record, its shape checked (the races' game records line by line) so
    that replaying it cannot stumble on a missing or mistyped field."""
    from avecaesar.engine.core.record import check_header_files
    from avecaesar.engine.data.schemas import validator

    file = str(path)
    text = read_text(path, record_bytes_limit(), "record")
    try:
        doc: dict[str, Any] = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError([Problem(file, err.lineno, err.colno, f"not JSON: {err.msg}")]
                         ) from None
    except (RecursionError, ValueError):
        raise InputError([Problem(file, 1, 1, "not a tournament record: nested too deeply "
                                  "or a number too long")]) from None
    problems = [Problem(file, 1, 1, f"{'/'.join(str(p) for p in e.absolute_path) or 'top'}: "
                        f"{e.message[:120]}")
                for e in list(validator(TOURNAMENT_SCHEMA).iter_errors(doc))[:20]]
    if problems:
        raise InputError(problems)
    v = validator("urn:avecaesar:game-record")
    for entry in doc["races"]:
        for i, line in enumerate(entry["record"], start=1):
            for e in list(v.iter_errors(line))[:1]:
                where = "/".join(str(p) for p in e.absolute_path) or "line"
                problems.append(Problem(file, 1, 1, f"race {entry['race']}, record line {i}: "
                                        f"{where}: {e.message[:120]}"))
        head = entry["record"][0]
        if head.get("type") != "header":
            problems.append(Problem(file, 1, 1, f"race {entry['race']}: its record does not "
                                    "start with a header"))
        else:
            check_header_files({**head, "_line": 1}, file)
    if problems:
        raise InputError(problems[:50])
    check_header_files({"ruleset": doc["ruleset"], "variants": doc["variants"],
                        "course": doc["races"][0]["course"] if doc["races"] else "",
                        "rules_files": doc.get("rules_files"), "_line": 1}, file)
    return doc


def _print(done: Tournament) -> None:
    from avecaesar.editor.render.event_text import termination_word

    names = done.names
    for r in done.races:
        typer.echo(say("tournament_race", race=r.race, course=r.course,
                       order=", ".join(r.seat_name(names, s) for s in r.seats),
                       termination=termination_word(str(r.termination))))
        for p in r.order:
            place = f"{r.places[p]}." if r.places[p] is not None else "—"
            typer.echo(say("tournament_place", place=place, name=names[p], points=r.points[p]))
    typer.echo(say("tournament_standings"))
    for s in done.standings:
        per = " + ".join(str(x) for x in s.points)
        typer.echo(f"   {s.rank:>2}. {s.name:<14} {s.total:>3}  ({per})")
