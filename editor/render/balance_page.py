"""``simulate --report OUT.html``: the balance report as one self-contained HTML page — inline
CSS and SVG, no script, nothing fetched — made of the sections registered in
:mod:`avecaesar.editor.render.report_sections`, in their order."""

from __future__ import annotations

from html import escape
from typing import Any

from avecaesar.editor.render.balance_sections import PageData
from avecaesar.editor.render.report_sections import SECTIONS
from avecaesar.engine.lab.paired import Comparison
from avecaesar.engine.lab.simulate import SimReport, SimSpec

__all__ = ["PAIRED", "balance_page", "course_spaces", "describe", "scoring_note"]

STYLE = """
body{font-family:Helvetica,Arial,sans-serif;max-width:1100px;margin:1.5em auto;padding:0 1em;
color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;padding-bottom:.2em;
margin-top:1.6em}h3{font-size:1.05em;color:#555}
table{border-collapse:collapse;margin:.6em 0}th,td{border:1px solid #ccc;padding:.25em .6em;
text-align:right}th:first-child,td:first-child{text-align:left}thead{background:#f3f0e8}
.charts{display:flex;flex-wrap:wrap;gap:1em}figure{margin:.4em 0}
figcaption{font-size:.85em;color:#555;text-align:center}
section.side{border-left:4px solid #c0392b;padding-left:1em;margin-top:2em;min-width:0}
.sides{display:grid;grid-template-columns:1fr 1fr;gap:1.5em}svg{max-width:100%;height:auto}
body.compared{max-width:1800px}
"""


def describe(spec: SimSpec) -> str:
    """One line naming what a simulation raced."""
    extra = f" + {' + '.join(spec.variants)}" if spec.variants else ""
    sets = "".join(f" --set {k}={v}" for k, v in spec.settings)
    edits = "".join(f" · edit: {e}" for e in spec.edits)
    return (f"{spec.course} · ruleset {spec.ruleset}{extra}{sets} · {spec.players} chariots "
            f"· bots {','.join(spec.bots)} · seed {spec.seed}{edits}")


def course_spaces(spec: SimSpec) -> tuple[dict[int, tuple[tuple[float, float], ...]],
                                          dict[int, int]]:
    """The polygon of every space of the simulated course (the board geometry, points, y
    up), and its start spaces."""
    if spec.edits:
        from avecaesar.engine.lab.edited import edited_course

        g: Any = edited_course(spec.course, spec.edits).graph
    else:
        from avecaesar.engine.course.load import load_course

        g = load_course(spec.course).graph
    from avecaesar.engine.course.geometry import board_geometry

    spaces = {int(n): s.polygon for n, s in board_geometry(g).spaces.items()}
    starts = {int(n): int(d["start_place"]) for n, d in g.nodes(data=True)
              if d.get("start_place")}
    return spaces, starts


PAIRED = ("comparison", "differences")  # the sections of a comparison's head, not a side's


def scoring_note(a: SimSpec, b: SimSpec) -> str:
    """A sentence when the two sides score differently (their mean points are on two
    scales), else ""."""
    from avecaesar.engine.lab.simulate import _setup, _spec_key

    def scoring(spec: SimSpec) -> tuple[list[int], int, int, str, str | None]:
        r = _setup(_spec_key(spec))[0]
        return (list(r.places), r.not_finished_points, r.disqualified_points,
                repr(r.bonus), r.team_scoring)

    sa, sb = scoring(a), scoring(b)
    if sa == sb:
        return ""
    return (f"The two sides score differently (points by place A: {sa[0]}, B: {sb[0]}; "
            f"not finished {sa[1]} / {sb[1]}, disqualified {sa[2]} / {sb[2]}): their mean "
            "points are on two scales — compare win rates, not points.")


def _sections(data: PageData, skip: tuple[str, ...] = (), prefix: str = "") -> list[str]:
    out = []
    for s in SECTIONS:
        if s.name in skip:
            continue
        body = s.render(data)
        if body:
            title = s.title or s.name
            out.append(f'<section id="{prefix}{s.name}"><h2>{escape(title)}</h2>{body}'
                       "</section>")
    return out


def balance_page(report: SimReport, other: SimReport | None = None,
                 comparison: Comparison | None = None) -> str:
    """The page: one simulation's sections; for a paired comparison (``other``, and its
    ``comparison``), the comparison first, then each side's sections."""
    runs = [report] if other is None else [report, other]
    datas = []
    for r in runs:
        spaces, starts = course_spaces(r.spec)
        datas.append(PageData(r, spaces, starts))
    body: list[str] = []
    if other is None:
        title = f"Balance report — {report.spec.course}"
        intro = f"<p>{escape(describe(report.spec))} · {report.races:,} races</p>"
        body += _sections(datas[0], skip=("comparison",))
    else:
        title = f"Paired comparison — {report.spec.course}"
        intro = ""
        head = PageData(report, datas[0].spaces, datas[0].starts, comparison,
                        (describe(report.spec), describe(other.spec)), other,
                        datas[1].spaces, scoring_note(report.spec, other.spec))
        body += _sections(head, skip=tuple(s.name for s in SECTIONS
                                           if s.name not in PAIRED))
        sides = []
        for side, d in zip("AB", datas, strict=True):
            inner = "".join(_sections(d, skip=PAIRED, prefix=f"{side.lower()}-"))
            sides.append(f'<section class="side" id="side-{side.lower()}"><h2>{side}: '
                         f"{escape(describe(d.report.spec))}</h2>{inner}</section>")
        body.append(f'<div class="sides">{"".join(sides)}</div>')
    partial = ("<p><b>Partial: stopped before every race ran.</b></p>"
               if any(r.partial for r in runs) else "")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
            + ('<body class="compared">' if other is not None else "<body>") +
            f"<h1>{escape(title)}</h1>{intro}{partial}" + "".join(body) + "</body></html>\n")
