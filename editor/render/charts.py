"""A plain SVG bar chart of win rate by start place, with 95 % intervals (no plotting library)."""

from __future__ import annotations

from html import escape

from avecaesar.engine.lab.simulate import SimReport

__all__ = ["win_rate_chart"]


def win_rate_chart(report: SimReport, title: str | None = None) -> str:
    """SVG text: one bar per start place, its Wilson interval as a whisker, the even share
    (1 / players) as a dashed line."""
    places = report.by_place
    w, h = 120 + 90 * len(places), 380
    left, bottom, top = 70, h - 60, 50
    span = bottom - top
    peak = max([p.win_ci[1] for p in places] + [1 / max(1, len(places))], default=1.0)
    scale = max(0.1, min(1.0, round(peak + 0.05, 1)))

    def y(v: float) -> float:
        return bottom - span * v / scale

    title = title or (f"Win rate by start place — {report.spec.course}, "
                      f"{report.spec.ruleset}, {report.races} races")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" font-family="Helvetica, Arial, sans-serif">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w / 2}" y="28" text-anchor="middle" font-size="15">{escape(title)}</text>']
    for k in range(0, 11):
        v = scale * k / 10
        out.append(f'<line x1="{left}" x2="{w - 30}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   'stroke="#ddd"/>')
        out.append(f'<text x="{left - 8}" y="{y(v) + 4:.1f}" text-anchor="end" '
                   f'font-size="11">{v:.0%}</text>')
    even = 1 / len(places) if places else 0
    out.append(f'<line class="even-share" x1="{left}" x2="{w - 30}" y1="{y(even):.1f}" '
               f'y2="{y(even):.1f}" stroke="#555" stroke-dasharray="6 4"/>')
    for i, p in enumerate(places):
        x = left + 30 + 90 * i
        out.append(f'<rect class="bar" data-place="{p.place}" data-win-rate="{p.win_rate:.4f}" '
                   f'x="{x}" y="{y(p.win_rate):.1f}" width="50" '
                   f'height="{bottom - y(p.win_rate):.1f}" fill="#c0392b"/>')
        lo, hi = p.win_ci
        cx = x + 25
        out.append(f'<path class="interval" d="M{cx},{y(lo):.1f} V{y(hi):.1f} '
                   f'M{cx - 8},{y(lo):.1f} H{cx + 8} M{cx - 8},{y(hi):.1f} H{cx + 8}" '
                   'stroke="black" fill="none"/>')
        out.append(f'<text x="{cx}" y="{bottom + 18}" text-anchor="middle" font-size="12">'
                   f'place {p.place}</text>')
        out.append(f'<text x="{cx}" y="{y(p.win_rate) - 6:.1f}" text-anchor="middle" '
                   f'font-size="11">{p.win_rate:.0%}</text>')
    out.append(f'<text x="{w / 2}" y="{h - 15}" text-anchor="middle" font-size="11">'
               f'balance {report.balance:.2f} (1 − largest gap in win rate); dashed: even '
               'share; whiskers: 95 % interval</text>')
    out.append("</svg>")
    return "\n".join(out)
