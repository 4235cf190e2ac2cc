"""Text for ``course validate --explain`` and ``--what-if``: where the points go, what to
change. The numbers come from :mod:`avecaesar.engine.course.explain` and
:mod:`avecaesar.engine.course.whatif`; this module only lays them out."""

from __future__ import annotations

from avecaesar.engine.course.diff import CourseDiff
from avecaesar.engine.course.explain import KINDS, PieceUse, RaceExplanation, explain
from avecaesar.engine.course.figures import RaceFigures
from avecaesar.engine.course.load import Course, CourseFigures
from avecaesar.engine.course.whatif import WhatIf, WhatIfReport, what_if

__all__ = ["course_insight", "diff_lines", "explain_lines", "what_if_lines"]


def course_insight(course: Course, figs: CourseFigures, rules: RaceFigures, *,
                   explain_race: bool, what_ifs: bool, reserve: int
                   ) -> tuple[list[str], dict[str, object]]:
    """The ``--explain`` and ``--what-if`` parts of one course's report: lines, JSON."""
    lines: list[str] = []
    data: dict[str, object] = {}
    if explain_race:
        ex = explain(course, rules)
        lines += explain_lines(ex)
        data["explain"] = ex.to_json()
    if what_ifs:
        report = what_if(course, rules, reserve)
        lines += what_if_lines(report, reserve, figs.deck_points + figs.bonus_points)
        data["what_if"] = {"reserve": reserve, "tried": report.tried,
                           "edits": [w.to_json() for w in report.found],
                           "invalid": [{**e.to_json(), "problem": why}
                                       for e, why in report.invalid],
                           "short": report.short,
                           "combinations": [w.to_json() for w in report.combinations],
                           "combinations_considered": report.combos_considered,
                           "combinations_tried": report.combos_tried,
                           "closing": [w.to_json() for w in report.closing]}
    return lines, data


def _table(rows: list[list[str]], indent: str = "  ") -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [c.ljust(w) if i == 0 and not c.isdigit() else c.rjust(w) for i, (c, w) in
                 enumerate(zip(r, widths, strict=True))]
        out.append(indent + "  ".join(cells).rstrip())
    return out


def _lanes(passes: list[tuple[int, list[int]]], alley: bool = False) -> str:
    if alley:
        return " / ".join("alley" for _ in passes) or "—"
    return " / ".join("→".join(map(str, lanes)) for _lap, lanes in passes) or "—"


def _shortenable(u: PieceUse) -> bool:
    """Whether every lane the race uses through the piece has a space to spare."""
    alley = u.kind == "alley"
    return all(u.lengths[0 if alley else lane] > 1 for _lap, lanes in u.passes for lane in lanes)


def explain_lines(ex: RaceExplanation) -> list[str]:
    """The breakdown of every start place's race: by lap, by kind of piece, by piece."""
    places = [p for p in ex.places if p.race is not None]
    if not places:
        return ["  explain: no start place can finish, nothing to break down"]
    out = ["  where the points go — the shortest legal race taken apart, step by step:"]
    head = ["place", "run-up"] + [f"lap {k}" for k in range(1, ex.laps + 1)] + ["= race",
                                                                                "alley stop"]
    rows = [head] + [[str(p.place), *map(str, p.by_lap), str(p.race),
                      f"lap {p.alley_stop_lap}" if p.alley_stop_lap else "—"] for p in places]
    out += _table(rows)
    kinds = [k for k in KINDS if any(p.by_kind[k] for p in places)]
    out.append("  by kind of piece (the space each step lands on):")
    out += _table([["place", *kinds, "= race"]] +
                  [[str(p.place), *(str(p.by_kind[k]) for k in kinds), str(p.race)]
                   for p in places])
    if ex.alley_detour is not None:
        out.append(f"  alley detour: +{ex.alley_detour} (place 1 without the stop: "
                   f"{ex.race_without_stop})")
    first = places[0]
    out.append(f"  by piece — steps per start place; place {first.place}'s lanes on each pass; "
               "what one space less in those lanes saves:")
    by_piece = {u.piece: u for u in first.pieces}
    names = [u.piece for u in first.pieces]
    for p in places[1:]:
        names += [u.piece for u in p.pieces if u.piece not in names]
    rows = [["piece", "kind", "lengths", "lanes", *(str(p.place) for p in places), "saves"]]
    for name in names:
        steps = []
        for p in places:
            use = next((u for u in p.pieces if u.piece == name), None)
            steps.append(str(use.steps) if use else "0")
        u = by_piece.get(name)
        if u is None:
            rows.append([name, "", "", "—", *steps, "—"])
            continue
        alley = u.kind == "alley"
        saves = f"{u.saving}" if u.passes and _shortenable(u) else "—"
        lengths = str(u.lengths[0]) if u.kind == "alley" else str(u.lengths)
        rows.append([name, u.kind, lengths, _lanes(u.passes, alley), *steps, saves])
    rows.append(["total", "", "", "", *(str(p.race) for p in places), ""])
    out += _table(rows)
    if ex.curves:
        out.append("  lanes through the pieces whose lanes differ (place 1), and what the "
                   "longest lane costs:")
        for c in ex.curves:
            out.append(f"    {c.piece} {c.lengths}: lanes {_lanes([(0, u) for u in c.lanes_used])}"
                       f" — the outside costs +{c.outside_cost} a pass")
    gains = sorted((u for u in first.pieces if u.kind != "alley" and u.passes
                    and _shortenable(u)), key=lambda u: -u.saving)
    best = [u for u in gains if u.saving == gains[0].saving] if gains else []
    if best:
        out.append(f"  cheapest points: one space less in the lane the race uses saves "
                   f"{best[0].saving} in {', '.join(u.piece for u in best)} "
                   "(check with --what-if)")
    return out


def what_if_lines(report: WhatIfReport, reserve: int, budget: int) -> list[str]:
    """The edits that reach the target reserve, best first, each with its new figures; the
    pairs that keep the drawing closed; when no single edit does, how far each start place
    is short and the combinations that get there; then the edits that would make the course
    invalid, and why."""
    results, tried = report.found, report.tried
    out = _found_lines(results, tried, reserve, budget)
    if report.closing:
        out.append("  to keep the drawing closed, make the same change on the other side — "
                   "these pairs do:")
        for w in report.closing:
            out += _what_if_entry(w, closed_note=False)
    if not results:
        out += _combination_lines(report)
    if report.invalid:
        n = len(report.invalid)
        out.append(f"  {n} edit{'' if n == 1 else 's'} would make the course invalid:")
        out += [f"    {e.description}: {why}" for e, why in report.invalid]
    return out


def _target(reserve: int) -> str:
    return ("finishable: reserve ≥ 0 at every place" if reserve == 0 else
            f"keep at least {reserve} in reserve at every place")


def _found_lines(results: list[WhatIf], tried: int, reserve: int, budget: int) -> list[str]:
    target = _target(reserve)
    if not results:
        return [f"  what-if: none of the {tried} one-space edits makes the course {target} "
                f"(deck {budget})"]
    out = [f"  what-if: {len(results)} of {tried} one-space edits make the course {target} "
           f"(deck {budget}); best first:"]
    for w in results:
        out += _what_if_entry(w)
    return out


def _what_if_entry(w: WhatIf, closed_note: bool = True) -> list[str]:
    """One result: each edit with its file:line, then the figures after it."""
    f = w.figures
    races = ", ".join("—" if r is None else str(r) for r in f.shortest_race)
    res = ", ".join("—" if r is None else str(r) for r in f.reserve)
    alley = "—" if f.alley_extra is None else f"+{f.alley_extra}"
    out = [f"    {w.edit.file}:{w.edit.line}: {w.edit.description}"]
    out += [f"      + {e.file}:{e.line}: {e.description}" for e in w.also]
    drawing = ""
    if w.also:
        drawing = " · the drawing closes" if w.closes else " · the drawing does not close"
    elif closed_note and not w.closes:
        drawing = " · the drawing no longer closes"
    out.append(f"        lap {f.lap} · alley {alley} · race {races} · reserve {res}{drawing}")
    for msg in w.warnings:
        out.append(f"        warning: {msg}")
    return out


def _combination_lines(report: WhatIfReport) -> list[str]:
    """How far off the course is, and the combinations of edits that get there."""
    short = ", ".join(f"place {i} {'cannot finish' if s is None else s}"
                      for i, s in enumerate(report.short, 1))
    out = [f"  short of the target by: {short}"]
    if report.combinations:
        n = len(report.combinations)
        out.append(f"  {n} combination{'' if n == 1 else 's'} of up to three edits "
                   f"{'does' if n == 1 else 'do'} (best first; {report.combos_tried} of the "
                   f"{report.combos_considered} the single edits point at recompiled):")
        for w in report.combinations:
            out += _what_if_entry(w)
    elif report.combos_considered:
        out.append(f"  no combination of up to three edits does either "
                   f"({report.combos_tried} of the {report.combos_considered} the single "
                   "edits point at recompiled)")
    else:
        out.append("  no combination of up to three one-space edits saves that much: "
                   "shorten the course by more (see --explain for where the points go)")
    return out


def _num(v: int | None, sign: bool = False) -> str:
    if v is None:
        return "—"
    return f"+{v}" if sign and v >= 0 else str(v)


def diff_lines(d: CourseDiff) -> list[str]:
    """``course diff``: the figures side by side, then what differs in the geometry."""
    fa, fb = d.figures
    rows = [["", f"A: {d.a.id}", f"B: {d.b.id}", "B − A"]]

    def row(name: str, va: int | None, vb: int | None, sign: bool = False) -> None:
        delta = "" if va is None or vb is None else _num(vb - va, True)
        rows.append([name, _num(va, sign), _num(vb, sign), delta])

    row("lap", fa.lap, fb.lap)
    row("alley stop", fa.alley_extra, fb.alley_extra, sign=True)
    row("outside race", fa.outside_race, fb.outside_race)
    for i in range(max(len(fa.shortest_race), len(fb.shortest_race))):
        ra = fa.shortest_race[i] if i < len(fa.shortest_race) else None
        rb = fb.shortest_race[i] if i < len(fb.shortest_race) else None
        row(f"place {i + 1} race", ra, rb)
        sa = fa.reserve[i] if i < len(fa.reserve) else None
        sb = fb.reserve[i] if i < len(fb.reserve) else None
        row(f"place {i + 1} reserve", sa, sb)
    rows.append(["finishable", "yes" if fa.finishable else "NO",
                 "yes" if fb.finishable else "NO", ""])
    out = [f"deck {fa.deck_points}" + (f" + bonus {fa.bonus_points}" if fa.bonus_points
                                        else "")]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        out.append(("  " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w)
                                     in enumerate(zip(r, widths, strict=True)))).rstrip())
    if d.same_geometry:
        out.append("same pieces, alley, finish and start places")
        return out
    if d.pieces:
        out.append("pieces that differ:")
        out += [f"  {name}: {what}" for name, what in d.pieces]
    for key, va, vb in d.other:
        out.append(f"{key}: A {va}")
        out.append(f"{' ' * len(key)}  B {vb}")
    return out
