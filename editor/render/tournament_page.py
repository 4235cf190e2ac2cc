"""``simulate --tournament --report OUT.html``: fairness over a tournament as one
self-contained HTML page (inline CSS and SVG, no script, nothing fetched), in the balance
report's style: per start place of the first race the expected tournament points and the
tournament win share with their 95 % intervals, the tournament spread and, as a figure of
its own, the single-race spread (engine/lab/tournament_fairness.py), each name defined once
on the page.

A page of its own rather than a section of the plain report: a plain run races single
races under drawn start orders, and the tournament figures need tournaments (the edition's
races, each start order from the last race's result) — four times the races, which a plain
report should not cost without being asked."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from avecaesar.editor.render.balance_page import STYLE, describe
from avecaesar.editor.render.balance_sections import ci_pct, pct
from avecaesar.editor.render.charts import interval_bars

if TYPE_CHECKING:
    from avecaesar.engine.lab.tournament_fairness import TournamentFairness

__all__ = ["TOURNAMENT_DEFINITIONS", "tournament_page", "tournament_section"]

#: the page's names, one meaning each (as engine/lab/tournament_fairness.py computes them)
TOURNAMENT_DEFINITIONS = (
    '<p class="definitions"><b>first-race start place</b>: the place a player drew for the '
    "first race (the later races' places follow from the rotation); <b>expected tournament "
    "points</b>: that player's total points over the tournament, the mean over the "
    "tournaments; <b>tournament win share</b>: the share of tournaments that player won (a "
    "first rank shared by j players counts 1/j to each, after the edition's tie-break); "
    "<b>tournament spread</b>: the tournament win share of the best first-race start place "
    "minus the worst's; <b>single-race spread</b>: in the single races of those "
    "tournaments, the win rate of a race's best start place minus its worst's. Intervals "
    "are 95 %; a spread's is that of the per-tournament (per-race) differences at its two "
    "places.</p>")


def _range(lo: float, hi: float, scale: float = 100.0, unit: str = " pp") -> str:
    return f"{scale * lo:.1f}–{scale * hi:.1f}{unit}"


def tournament_section(f: TournamentFairness) -> str:
    """The figures as an HTML fragment: the spreads, the table and two charts."""
    rows = "".join(
        f"<tr><td>{p.place}</td><td>{p.points:.2f} ({p.points_ci[0]:.2f}–"
        f"{p.points_ci[1]:.2f})</td><td>{pct(p.win_share)} "
        f"({ci_pct((max(0.0, p.win_ci[0]), min(1.0, p.win_ci[1])))})</td>"
        f"<td>{pct(p.single_race_win_rate)}</td></tr>" for p in f.places)
    even = 1 / len(f.places) if f.places else 0.0
    shares = interval_bars([(f"place {p.place}", p.win_share, p.win_ci) for p in f.places],
                           unit="%", reference=even, cls="tournament-win-share")
    points = interval_bars([(f"place {p.place}", p.points, p.points_ci) for p in f.places],
                           unit="", cls="tournament-points")
    return (f'<p class="spreads">Tournament spread: <b class="tournament-spread">'
            f"{100 * f.spread:.1f} percentage points</b> (95 % interval "
            f"{_range(*f.spread_ci)}); expected tournament points, best − worst first-race "
            f"start place: {f.points_spread:.2f} ({f.points_spread_ci[0]:.2f}–"
            f"{f.points_spread_ci[1]:.2f}); single-race spread: <b class=\"single-race-"
            f'spread">{100 * f.single_race_spread:.1f} percentage points</b> (95 % interval '
            f"{_range(*f.single_race_spread_ci)}, over {f.tournaments * f.races_each:,} "
            "races).</p>" + TOURNAMENT_DEFINITIONS
            + '<table class="tournament"><thead><tr><th>first-race start place</th>'
              "<th>expected tournament points (95 % interval)</th><th>tournament win share "
              "(95 % interval)</th><th>single-race win rate (a race's own start place)</th>"
              "</tr></thead>"
              f"<tbody>{rows}</tbody></table>"
            + f'<p>Dashed line: the even share {pct(even)}; whiskers: 95 % intervals.</p>'
              f'<div class="charts"><figure>{shares}<figcaption>tournament win share'
              f"</figcaption></figure><figure>{points}<figcaption>expected tournament "
              "points</figcaption></figure></div>")


def tournament_page(f: TournamentFairness) -> str:
    """The page (the module's docstring)."""
    title = f"Tournament fairness — {f.spec.course}"
    order = f.next_start_order.replace("_", " ")
    intro = (f"<p>{escape(describe(f.spec))} · {f.tournaments:,} tournaments of "
             f"{f.races_each} races, every race on this course · next race's start order: "
             f"{escape(order)} (the ruleset's <code>tournament.next_start_order</code>)</p>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
            f"<h1>{escape(title)}</h1>{intro}"
            f'<section id="tournament"><h2>Fairness over a tournament</h2>'
            f"{tournament_section(f)}</section></body></html>\n")
