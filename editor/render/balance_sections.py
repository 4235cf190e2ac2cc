"""The sections of the balance report's page (``simulate --report``), registered in
:mod:`avecaesar.editor.render.report_sections`. Each writes an HTML fragment from the
simulation's figures, numbers rounded for people (the JSON keeps full precision)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from avecaesar.editor.render.charts import difference_map, heat_map, histogram, interval_bars
from avecaesar.engine.lab.paired import Comparison, Difference
from avecaesar.engine.lab.simulate import SimReport

__all__ = ["DEFINITIONS", "PageData", "attrition", "blocked_waiting", "ci_pct", "comparison",
           "differences", "lead_changes", "pct", "pp", "race_length", "seat_advantage",
           "skill", "start_places"]

#: what the names of the page mean, one meaning each (the comparison's table and each
#: side's start-place table use the same per-race definitions: engine/lab/paired.py)
DEFINITIONS = ("<p class=\"definitions\"><b>out of cards</b>: the chariot had no card left "
               "before the finish; <b>disqualified</b>: the rules disqualified it; <b>not "
               "finished</b>: either of the two, or still racing when the race ended.</p>")


@dataclass
class PageData:
    """What a section reads: the report, the course's space polygons (the board geometry,
    for the heat maps) and start spaces; for a comparison, the comparison and which side
    this is."""

    report: SimReport
    spaces: dict[int, tuple[tuple[float, float], ...]] = field(default_factory=dict)
    starts: dict[int, int] = field(default_factory=dict)  # space → start place
    comparison: Comparison | None = None
    sides: tuple[str, str] = ("A", "B")  # what each side of a comparison is
    other: SimReport | None = None  # side B of a comparison (``report`` is side A)
    other_spaces: dict[int, tuple[tuple[float, float], ...]] = field(default_factory=dict)
    scoring_note: str = ""  # said when the two sides score differently


def pct(x: float, digits: int = 1) -> str:
    """A share as people read it: ``23.6 %``."""
    return f"{100 * x:.{digits}f} %"


def ci_pct(ci: tuple[float, float]) -> str:
    return f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f} %"


def pp(x: float) -> str:
    """A difference of shares in percentage points, signed: ``+4.3 pp``."""
    return f"{100 * x:+.1f} pp"


def _table(head: list[str], rows: list[list[str]], cls: str = "") -> str:
    h = "".join(f"<th>{escape(c)}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f'<table class="{cls}"><thead><tr>{h}</tr></thead><tbody>{body}</tbody></table>'


def difference_cells(d: Difference) -> tuple[str, str, str, str]:
    """One paired difference as people read it, for the report's table and the terminal's:
    A, B, B − A with its interval, and how many times the races two independent runs need
    (``independent ×``)."""
    if d.unit == "rate":
        a, b = pct(d.a), pct(d.b)
        diff = f"{pp(d.diff)} ({100 * d.ci[0]:+.1f} to {100 * d.ci[1]:+.1f})"
    else:
        a, b = f"{d.a:.2f}", f"{d.b:.2f}"
        diff = f"{d.diff:+.2f} ({d.ci[0]:+.2f} to {d.ci[1]:+.2f})"
    eff = "—" if d.efficiency is None else ("∞" if d.efficiency == float("inf")
                                             else f"{d.efficiency:.1f}")
    return a, b, diff, eff


def comparison(data: PageData) -> str:
    """The paired differences, B − A, the significant ones marked."""
    c = data.comparison
    if c is None:
        return ""
    rows = []
    for d in c.differences:
        a, b, diff, eff = difference_cells(d)
        mark = " ◆" if d.significant else ""
        rows.append([escape(d.name), a, b, diff + mark, eff])
    sa, sb = data.sides
    note = f'<p class="scoring-note"><b>{escape(data.scoring_note)}</b></p>' \
        if data.scoring_note else ""
    return (f"<p>A: {escape(sa)}<br>B: {escape(sb)}<br>{c.races:,} paired races: both sides "
            "raced the same deals and seeds. The difference is B − A with its 95 % interval "
            "from the paired races (◆: the interval leaves out 0). <em>independent ×</em>: "
            "how many times more races two independent simulations would need for an "
            "interval as narrow.</p>" + DEFINITIONS + note
            + _table(["figure", "A", "B", "B − A (95 % interval)", "independent ×"], rows,
                     "comparison"))


def differences(data: PageData) -> str:
    """B − A per space of the blocked turns and the waits, on one scale each (the two sides
    on the same board only)."""
    a, b = data.report, data.other
    if data.comparison is None or b is None or not (a.heat and b.heat) or not data.spaces \
            or set(data.spaces) != set(data.other_spaces):
        return ""
    blocked = difference_map(data.spaces, a.blocked_at, b.blocked_at, a.races, b.races,
                             what="blocked turns, B − A", starts=data.starts,
                             cls="difference-map blocked")
    waited = difference_map(data.spaces, a.waited_at, b.waited_at, a.races, b.races,
                            what="alley waits, B − A", starts=data.starts,
                            cls="difference-map waited")
    dq = difference_map(data.spaces, a.disqualified_at, b.disqualified_at, a.races, b.races,
                        what="disqualifications, B − A", starts=data.starts,
                        cls="difference-map disqualified", unit="chariots")
    return ("<p>Per space, side B's count minus side A's per 100 races (turns blocked or "
            "waiting; chariots disqualified, each on the space its disqualifying turn ended "
            "on), on one scale symmetric about 0 each: red where B has more, blue where A "
            "has more, white where they are the same. The counts per space of both sides "
            "are in the JSON (<code>a.spaces</code>, <code>b.spaces</code>: "
            "<code>blocked</code>, <code>waited</code>, <code>disqualified</code>).</p>"
            f'<div class="charts"><figure>{blocked}<figcaption>blocked turns, B − A'
            f"</figcaption></figure><figure>{waited}<figcaption>alley waits, B − A"
            f"</figcaption></figure><figure>{dq}<figcaption>disqualifications, B − A"
            "</figcaption></figure></div>")


def start_places(data: PageData) -> str:
    r = data.report
    rows = []
    for p in r.by_place:
        rows.append([str(p.place) + (" (no player)" if p.ownerless else ""),
                     f"{pct(p.win_rate)} ({ci_pct(p.win_ci)})",
                     f"{p.mean_points:.2f} ({p.points_ci[0]:.2f}–{p.points_ci[1]:.2f})",
                     pct(p.out_of_cards), pct(p.disqualified), pct(p.not_finished),
                     "—" if p.mean_reserve is None else f"{p.mean_reserve:.1f}"])
    even = 1 / len(r.by_place) if r.by_place else 0.0
    wins = interval_bars([(f"place {p.place}", p.win_rate, p.win_ci) for p in r.by_place],
                         unit="%", reference=even, cls="win-rate")
    points = interval_bars([(f"place {p.place}", p.mean_points, p.points_ci)
                            for p in r.by_place], unit="", cls="mean-points")
    return (f"<p>Spread between start places: <b>{100 * r.spread:.1f} percentage points</b> "
            f"(balance {r.balance:.2f}: 1 − the largest gap in win rate). Dashed line: the "
            f"even share {pct(even)}; whiskers: 95 % intervals.</p>" + DEFINITIONS
            + _table(["start place", "win rate (95 % interval)", "mean points (95 % interval)",
                      "out of cards", "disqualified", "not finished", "reserve at the finish"],
                     rows)
            + f'<div class="charts"><figure>{wins}<figcaption>win rate</figcaption></figure>'
            f"<figure>{points}<figcaption>mean points</figcaption></figure></div>")


def seat_advantage(data: PageData) -> str:
    s = data.report.seat
    if s is None:
        return ""
    first = s.first_mover
    who = ", ".join(f"place {k} in {v:,}" for k, v in s.first_places.items())
    rows = [["first to move (" + who + ")", pct(first.rate), ci_pct(first.ci),
             pp(first.rate - s.even)]]
    for places, g in s.rows:
        rows.append([f"{g.name}: places {', '.join(map(str, places))}", pct(g.rate),
                     ci_pct(g.ci), pp(g.rate - s.even)])
    return (f"<p>Win rate per chariot against the even share {pct(s.even)}.</p>"
            + _table(["who", "win rate per chariot", "95 % interval", "against even"], rows))


def lead_changes(data: PageData) -> str:
    r = data.report
    lo, hi = r.lead_changes_ci
    return (f"<p>Lead changes per race (a chariot becoming sole leader): <b>"
            f"{r.lead_changes:.1f}</b> (95 % interval {lo:.1f}–{hi:.1f}). Per race: "
            f"6-card-rule skips {r.six_rule_skips:.2f}, blocked turns {r.blocked_skips:.2f}, "
            f"alley waits {r.alley_waits:.2f}; races ended by the deadlock rule: "
            f"{r.deadlocks:,} of {r.races:,}.</p>")


def attrition(data: PageData) -> str:
    r = data.report
    if not r.attrition:
        return "<p>No chariot left the race or was disqualified.</p>"
    rows = [[str(a["lap"]), escape(str(a["why"]).replace("_", " ")), f"{a['chariots']:,}",
             f"{a['per_race']:.3f}"] for a in r.attrition]
    return ("<p>Chariots that left the race (or were disqualified), by the lap they were "
            "driving.</p>" + _table(["lap", "why", "chariots", "per race"], rows))


def blocked_waiting(data: PageData) -> str:
    r = data.report
    if not r.heat or not data.spaces:
        return ""
    blocked = heat_map(data.spaces, r.blocked_at, r.races, starts=data.starts,
                       what="where chariots were blocked (no card moves in full)",
                       cls="heat-map blocked")
    waited = heat_map(data.spaces, r.waited_at, r.races, starts=data.starts,
                      what="where chariots waited (a blocked alley)", cls="heat-map waited")
    return ('<p>The counts per space are in the JSON report (<code>spaces</code>).</p>'
            f'<div class="charts"><figure>{blocked}<figcaption>blocked</figcaption></figure>'
            f"<figure>{waited}<figcaption>waited</figcaption></figure></div>")


def race_length(data: PageData) -> str:
    r = data.report
    chart = histogram(r.lengths, xlabel="turns per race (all chariots)")
    return (f"<p>Mean {r.turns_mean:.1f} turns ({r.turns_min}–{r.turns_max}).</p>"
            f"<figure>{chart}</figure>")


def skill(data: PageData) -> str:
    t = data.report.skill
    if t is None:
        return ""
    names = [k.name for k in t.kinds]
    rows = [[escape(k.name), f"{k.chariots:.1f}", pct(k.rate), ci_pct(k.ci)] for k in t.kinds]
    versus = []
    for a in names:
        cells = [escape(a)]
        for b in names:
            h = t.head_to_head(a, b) if a != b else None
            cells.append("—" if h is None else f"{pct(h[0], 0)} ({ci_pct(h[1])})")
        versus.append(cells)
    return (f"<p>How much skill matters on this course: <b>{100 * t.spread:.1f} percentage "
            "points</b> between the best and the worst bot kind (win rate per chariot).</p>"
            + _table(["bot kind", "chariots per race", "win rate per chariot",
                      "95 % interval"], rows)
            + "<p>Head to head: the share of races in which the row's best chariot placed "
              "ahead of the column's (races where both were unplaced left out).</p>"
            + _table(["", *names], versus, "versus"))
