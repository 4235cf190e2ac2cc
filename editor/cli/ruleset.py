"""``avecaesar ruleset …``: list, show, validate and diff rulesets and variants."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from avecaesar.editor.cli.common import echo_json, house_rules, rule_settings
from avecaesar.editor.cli.complete import complete_ruleset, complete_variant
from avecaesar.engine.data.errors import FileAccessError, InputError, Problem

if TYPE_CHECKING:
    from avecaesar.engine.ruleset.load import Ruleset

# The rulesets (YAML, the schemas) are imported by the commands when they run, not when the
# app is built: `avecaesar --help` answers at once (docs/performance.md).

__all__ = ["diff_cmd", "list_cmd", "show_cmd", "validate_cmd"]

VariantOpt = Annotated[list[str] | None, typer.Option(
    "--variant", "-v",
    autocompletion=complete_variant,
    help="a variant id, alias or overlay file; repeat, applied in order")]
SetOpt = Annotated[list[str] | None, typer.Option(
    "--set", help="KEY=VALUE: set a rule (dotted key, e.g. scoring.places=9,6,4,3,2,1)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON instead of text")]


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


def _rule_text(rs: Ruleset, key: str) -> str:
    rule = rs.rule(key)
    if rule.get("unknown"):
        return "OPEN — " + str(rule["why"])
    return _shown(rule["value"])


def list_cmd(as_json: JsonOpt = False) -> None:
    """Editions, homebrew rulesets and variants.

    Example: avecaesar ruleset list
    """
    from avecaesar.engine.ruleset.load import list_rulesets

    entries = list_rulesets()
    if as_json:
        echo_json([e.to_json() for e in entries])
        return
    width = max(len(e.id) for e in entries)
    for e in entries:
        extra = f"  (applies to: {', '.join(e.applies_to)})" if e.kind == "variant" else ""
        alias = f"  [aliases: {', '.join(e.aliases)}]" if e.aliases else ""
        typer.echo(f"{e.kind:<8}  {e.id:<{width}}  {e.title}{alias}{extra}")


HouseOpt = Annotated[Path | None, typer.Option(
    "--house", help="a house-rules file: rules: with key: value pairs, applied after the "
                    "variants")]


def show_cmd(name: Annotated[str, typer.Argument(help="ruleset id, alias or file",
                                               autocompletion=complete_ruleset)],
             variant: VariantOpt = None, set_: SetOpt = None, house: HouseOpt = None,
             as_json: JsonOpt = False,
             only_open: Annotated[bool, typer.Option(
                 "--open", help="list only the values no text decides")] = False) -> None:
    """The composed rules, grouped, each with its citation and kind (stated, read,
    conflict, open).

    Example: avecaesar ruleset show dicetree-2022 --variant four-hand-cards
    """
    from avecaesar.engine.ruleset.load import load_ruleset

    rs = load_ruleset(name, variant or [], rule_settings(set_), house=house_rules(house))
    if only_open:
        _show_open(rs, as_json)
        return
    if as_json:
        echo_json({**rs.data, "kinds": rs.kinds()})
        return
    typer.echo(f"{rs.title} — {rs.label}")
    if rs.data.get("based_on"):
        typer.echo(f"based on: {', '.join(rs.data['based_on'])}")
    group = None
    for key in rs.stated_keys():
        g, _, k = key.partition(".")
        if g != group:
            group = g
            typer.echo(f"\n[{g}]")
        origin = rs.origins.get(key, "")
        by = f"  (set by {origin})" if origin and origin != rs.id else ""
        kind = rs.kind_of(key)
        typer.echo(f"  {k}: {_rule_text(rs, key)}  [{kind}]")
        typer.echo(f"      source: {rs.citation(key)}{by}")
        rule = rs.rule(key)
        if kind == "read":
            typer.echo(f"      reading: {rule['reading']}")
        if kind == "conflict":
            typer.echo(f"      other reading(s): variant {', '.join(rule['conflict'])}")
    unknown = rs.unknown_keys()
    if unknown:
        typer.echo(f"\nopen values (supply with --set KEY=VALUE or --house FILE): "
                   f"{', '.join(unknown)}")


def _show_open(rs: Ruleset, as_json: bool) -> None:
    """``--open``: the values no text decides, each with its choices."""
    rows = [{"key": k, "why": rs.rule(k)["why"], "source": rs.citation(k),
             "choices": rs.rule(k).get("choices")} for k in rs.unknown_keys()]
    if as_json:
        echo_json({"ruleset": rs.label, "open": rows})
        return
    if not rows:
        typer.echo(f"{rs.label}: no open values — every value is stated, read or a conflict "
                   "with a default")
        return
    typer.echo(f"{rs.label}: {len(rows)} open value(s)")
    for r in rows:
        pick = f" (one of: {', '.join(_shown(c) for c in r['choices'])})" if r["choices"] else ""
        typer.echo(f"  {r['key']}: {r['why']}{pick} [{r['source']}]")


def validate_cmd(files: Annotated[list[str], typer.Argument(
        help="ruleset, variant or house-rules files")],
        race: Annotated[int, typer.Option(
            "--race", metavar="N", min=0, max=100_000,
            help="race each valid house or variant file N times under each edition it "
                 "applies to (greedy bots, 2, 3 and 6 chariots) and report its freezes")] = 0,
        ) -> None:
    """Check files against the schema and the rules' consistency; exit 1 on problems.

    A house-rules file (rules: with group.key: value lines, as --house reads and play
    writes) is recognised and checked as one. Every problem is reported at once, each as
    file:line:col. With --race N each valid file is raced and every freeze (a race that
    ends with no chariot able to move) is a warning at its card restrictions: where a
    chariot got stuck and the release that would end it.

    Example: avecaesar ruleset validate my-variant.yaml
    """
    from avecaesar.engine.data.yamlsource import load_yaml
    from avecaesar.engine.ruleset.catalog import check_source
    from avecaesar.engine.ruleset.house import house_rules_of, is_house_file

    problems: list[Problem] = []
    unreadable = False  # a missing or unreadable file: exit 2
    for f in files:
        try:
            source = load_yaml(f)
        except InputError as err:
            problems += err.problems
            unreadable |= err.exit_code == 2
            continue
        if source.data is None:
            problems.append(Problem(f, 1, 1, "the file is empty — a ruleset needs id, kind, "
                                    "title and rules; a house-rules file needs rules"))
            continue
        # a group's house rules (--house) are not a ruleset
        found = (house_rules_of(source)[1] if is_house_file(source.data)
                 else check_source(source))
        problems += found
        if not found:
            for warning in _bans_without_release(source):
                typer.echo(str(warning), err=True)
        if race and not found:
            _race_file(source, race)
    if problems:
        raise (FileAccessError if unreadable else InputError)(problems)
    typer.echo(f"{len(files)} file(s) valid")


EDITIONS = ("ravensburger-1989", "pro-ludo-2006", "dicetree-2022")


def _bans_without_release(source: Any) -> list[Problem]:
    """A warning at each card restriction of a valid file that states no ``release``: a
    chariot holding only its cards where it holds can never play (docs/rulesets.md)."""
    from avecaesar.engine.lab.freezes import release_hint
    from avecaesar.engine.ruleset.house import is_house_file

    data = source.data
    where = ["rules", "card_restrictions.extra", "value"] if is_house_file(data) else [
        "rules", "card_restrictions", "extra", "value"]
    node: Any = data
    for part in where:
        node = node.get(part) if isinstance(node, dict) else None
    out = []
    for i, entry in enumerate(node if isinstance(node, list) else []):
        if isinstance(entry, dict) and "release" not in entry:
            cards = [c for c in entry.get("cards", []) if isinstance(c, int)]
            line, col = source.where([*where, i])
            out.append(Problem(
                source.file, line, col,
                f"this ban of {', '.join(str(c) for c in cards)} has no release: a chariot "
                "holding only these cards where it holds can never play, and the race may "
                f"freeze; state how it ends, e.g. {release_hint(cards)} (check with --race N)",
                severity="warning"))
    return out


def _race_file(source: Any, races: int) -> None:
    """``ruleset validate --race``: race a valid file under each edition it applies to and
    print its freeze rate; each edition's freezes as one located warning."""
    from avecaesar.engine.lab.freezes import freeze_report, release_hint
    from avecaesar.engine.ruleset.house import house_rules_of, is_house_file

    data = source.data
    house = house_rules_of(source)[0] if is_house_file(data) else None
    if house is not None:
        editions, variants, where = list(EDITIONS), [], ["rules"]
        key: str | None = "card_restrictions.extra"
    elif data.get("kind") == "variant":
        named = [str(e) for e in data.get("applies_to") or ["any"]]
        editions = list(EDITIONS) if "any" in named else named
        variants, where, key = [source.file], ["rules", "card_restrictions"], "extra"
    else:  # a ruleset file: raced as itself
        editions, variants, where, key = [source.file], [], ["rules", "card_restrictions"], \
            "extra"
    for edition in editions:
        report = freeze_report(edition, variants, house, races)
        typer.echo(f"{source.file}: {Path(edition).stem}: {report.races} races, "
                   f"{len(report.frozen)} froze ({report.rate:.1%})")
        if not report.frozen:
            continue
        line, col = source.where(where, key)
        first = report.stuck[0] if report.stuck else None
        at = (f"; e.g. {first.course} seed {first.seed}, {first.chariots} bots: chariot "
              f"{first.chariot} on {first.space} holds only "
              f"{', '.join(str(c) for c in first.cards)} "
              f"({'; '.join(dict.fromkeys(first.why))}); a release would end it: "
              f"{release_hint(first.cards)}") if first else ""
        typer.echo(str(Problem(source.file, line, col,
                               f"freezes {len(report.frozen)} of {report.races} races under "
                               f"{Path(edition).stem}{at}", severity="warning")), err=True)


def _differences(a: Ruleset, b: Ruleset) -> list[dict[str, Any]]:
    from avecaesar.engine.ruleset.keys import rule_keys

    rows = []
    for key in rule_keys():
        ra = a.rule(key) if a.has(key) else None
        rb = b.rule(key) if b.has(key) else None
        va = None if ra is None else ("unknown" if ra.get("unknown") else ra.get("value"))
        vb = None if rb is None else ("unknown" if rb.get("unknown") else rb.get("value"))
        if (ra is None and rb is None) or (va == vb and (ra is None) == (rb is None)):
            continue
        rows.append({"key": key,
                     "a": {"value": va, "stated": ra is not None,
                           "source": a.citation(key) if ra else None},
                     "b": {"value": vb, "stated": rb is not None,
                           "source": b.citation(key) if rb else None}})
    return rows


def diff_cmd(a: Annotated[str, typer.Argument(help="first ruleset",
                                              autocompletion=complete_ruleset)],
             b: Annotated[str, typer.Argument(help="second ruleset",
                                              autocompletion=complete_ruleset)],
             variant: VariantOpt = None,
             variant_b: Annotated[list[str] | None, typer.Option(
                 "--variant-b", help="variants for B only (--variant applies to both)")] = None,
             as_json: JsonOpt = False) -> None:
    """Every rule that differs between A and B, with both citations.

    Example: avecaesar ruleset diff ravensburger-1989 dicetree-2022
    """
    from avecaesar.engine.ruleset.load import load_ruleset

    ra = load_ruleset(a, variant or [])
    rb = load_ruleset(b, [*(variant or []), *(variant_b or [])])
    rows = _differences(ra, rb)
    if as_json:
        echo_json({"a": ra.label, "b": rb.label, "differences": rows})
        return
    typer.echo(f"A = {ra.label}\nB = {rb.label}\n{len(rows)} rule(s) differ\n")
    for row in rows:
        typer.echo(row["key"])
        for side in ("a", "b"):
            s = row[side]
            text = _shown(s["value"]) if s["stated"] else "(not stated)"
            cite = f"  [{s['source']}]" if s["source"] else ""
            typer.echo(f"  {side.upper()}: {text}{cite}")
