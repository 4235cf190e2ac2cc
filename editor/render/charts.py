"""A plain SVG bar chart of win rate by start place, with 95 % intervals (no plotting library)."""

from __future__ import annotations

from html import escape

from avecaesar.engine.lab.simulate import SimReport

__all__ = ["difference_map", "heat_map", "histogram", "interval_bars", "round_ticks",
           "win_rate_chart"]


def round_ticks(peak: float, most: int = 6) -> list[float]:
    """Axis ticks from 0 to at least ``peak`` at a round step (1, 2, 2.5 or 5 times a power
    of ten), at most ``most`` + 1 of them.

    >>> round_ticks(0.17), round_ticks(37)
    ([0.0, 0.05, 0.1, 0.15, 0.2], [0.0, 10.0, 20.0, 30.0, 40.0])
    """
    import math

    if peak <= 0:
        return [0.0, 1.0]
    power = 10.0 ** math.floor(math.log10(peak / most))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if peak / (m * power) <= most)
    count = math.ceil(peak / step - 1e-9)
    return [round(k * step, 10) for k in range(count + 1)]


def _tick_label(v: float, step: float, unit: str) -> str:
    """A tick's label: as many decimals as its step needs."""
    if unit == "%":
        v, step = 100 * v, 100 * step
    digits = 0 if step >= 1 or step == 0 else (1 if step * 10 >= 1 - 1e-9 else 2)
    if step * 10 ** digits % 1 > 1e-6 and digits < 2:
        digits += 1  # 2.5
    return f"{v:.{digits}f}" + (" %" if unit == "%" else "")


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


def _svg_open(w: float, h: float, cls: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}" width="{w:.0f}" '
            f'height="{h:.0f}" viewBox="0 0 {w:.0f} {h:.0f}" '
            'font-family="Helvetica, Arial, sans-serif">')


def interval_bars(values: list[tuple[str, float, tuple[float, float]]], *, unit: str,
                  reference: float | None = None, cls: str = "bars") -> str:
    """SVG: one bar per (label, value, 95 % interval), the interval as a whisker, an
    optional dashed reference line (the even share). ``unit`` "%" draws shares as percent."""
    w, h = 90 + 70 * len(values), 260
    left, bottom, top = 56, h - 40, 16
    peak = max([hi for _l, _v, (_lo, hi) in values] + [reference or 0.0, 1e-9])
    ticks = round_ticks(peak)
    scale = ticks[-1]
    step = ticks[1] - ticks[0]

    def y(v: float) -> float:
        return bottom - (bottom - top) * max(0.0, v) / scale

    out = [_svg_open(w, h, cls), f'<rect width="{w}" height="{h}" fill="white"/>']
    for v in ticks:
        out.append(f'<line x1="{left}" x2="{w - 10}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   f'stroke="#ddd"/><text class="tick" x="{left - 6}" y="{y(v) + 4:.1f}" '
                   f'text-anchor="end" font-size="10">{_tick_label(v, step, unit)}</text>')
    if reference is not None:
        out.append(f'<line class="reference" x1="{left}" x2="{w - 10}" y1="{y(reference):.1f}"'
                   f' y2="{y(reference):.1f}" stroke="#555" stroke-dasharray="6 4"/>')
    for i, (name, v, (lo, hi)) in enumerate(values):
        x = left + 14 + 70 * i
        cx = x + 20
        out.append(f'<rect class="bar" data-label="{escape(name)}" data-value="{v:.6g}" '
                   f'x="{x}" y="{y(v):.1f}" width="40" height="{bottom - y(v):.1f}" '
                   f'fill="#c0392b"/>')
        out.append(f'<path class="interval" d="M{cx},{y(lo):.1f} V{y(hi):.1f} M{cx - 7},'
                   f'{y(lo):.1f} H{cx + 7} M{cx - 7},{y(hi):.1f} H{cx + 7}" stroke="black" '
                   'fill="none"/>')
        out.append(f'<text x="{cx}" y="{bottom + 16}" text-anchor="middle" font-size="11">'
                   f'{escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def histogram(bins: list[tuple[int, int, int]], *, xlabel: str, cls: str = "histogram") -> str:
    """SVG: a histogram of (from, to, count) bins, counts on the left axis."""
    w, h = max(320, 60 + 34 * len(bins)), 230
    left, bottom, top = 50, h - 46, 12
    ticks = [t for t in round_ticks(max([n for _a, _b, n in bins] + [1]), 5)]
    if ticks[1] < 1:
        ticks = [float(k) for k in range(int(ticks[-1]) + 2)]  # counts: whole numbers
    peak = ticks[-1]
    out = [_svg_open(w, h, cls), f'<rect width="{w}" height="{h}" fill="white"/>']
    for v in ticks:
        yy = bottom - (bottom - top) * v / peak
        out.append(f'<line x1="{left}" x2="{w - 8}" y1="{yy:.1f}" y2="{yy:.1f}" stroke="#ddd"/>'
                   f'<text class="tick" x="{left - 6}" y="{yy + 4:.1f}" text-anchor="end" '
                   f'font-size="10">{v:.0f}</text>')
    for i, (a, b, n) in enumerate(bins):
        x = left + 4 + 34 * i
        hh = (bottom - top) * n / peak
        out.append(f'<rect class="bin" data-from="{a}" data-to="{b}" data-count="{n}" x="{x}" '
                   f'y="{bottom - hh:.1f}" width="30" height="{hh:.1f}" fill="#2e6da4"/>')
        out.append(f'<text x="{x + 15}" y="{bottom + 14}" text-anchor="middle" '
                   f'font-size="9">{a}</text>')
    out.append(f'<text x="{w / 2}" y="{h - 8}" text-anchor="middle" font-size="11">'
               f'{escape(xlabel)}</text></svg>')
    return "\n".join(out)


def _heat(share: float) -> str:
    """Pale yellow (0) to deep red (1), as the Graphviz heat maps colour."""
    share = min(1.0, max(0.0, share))
    r = 255 if share <= 0.6 else int(255 - 120 * (share - 0.6) / 0.4)
    return f"#{r:02x}{int(245 - 200 * share):02x}{int(200 - 190 * share):02x}"


def heat_map(spaces: dict[int, tuple[tuple[float, float], ...]], counts: dict[int, int],
             races: int, *, what: str, starts: dict[int, int] | None = None,
             cls: str = "heat-map") -> str:
    """SVG: every space (id → its polygon of the board geometry, points, y up) coloured by
    its count (white: never; pale yellow to deep red: up to the most), with a legend bar and
    its scale in turns per 100 races. Each polygon carries its count (``data-count``)."""
    if not spaces:
        return ""
    xs = [p[0] for poly in spaces.values() for p in poly]
    ys = [p[1] for poly in spaces.values() for p in poly]
    pad = 16
    width = max(xs) - min(xs) + 2 * pad
    height = max(ys) - min(ys) + 2 * pad
    legend = 64
    top = max(counts.values(), default=0)
    out = [_svg_open(width, height + legend, cls),
           f'<rect width="{width:.0f}" height="{height + legend:.0f}" fill="#3f6b35"/>']

    def xy(p: tuple[float, float]) -> tuple[float, float]:
        return (p[0] - min(xs) + pad, max(ys) - p[1] + pad)  # the drawing's y axis points up

    for n, poly in sorted(spaces.items()):
        v = counts.get(n, 0)
        fill = _heat(v / top) if v and top else "#ffffff"
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in map(xy, poly))
        out.append(f'<polygon class="space" data-space="{n}" data-count="{v}" '
                   f'points="{points}" fill="{fill}" stroke="#6b4f2a">'
                   f'<title>space {n}: {v} turns</title></polygon>')
        if starts and n in starts:
            cx = sum(x for x, _ in map(xy, poly)) / len(poly)
            cy = sum(y for _, y in map(xy, poly)) / len(poly)
            out.append(f'<text x="{cx:.1f}" y="{cy + 4:.1f}" text-anchor="middle" '
                       f'font-size="12" fill="#1b3a8a">{starts[n]}</text>')
    # the legend: a colour bar from 0 to the most, in turns per 100 races
    y0 = height + 10
    bar_w = min(260.0, width - 40)
    steps = 10
    for k in range(steps):
        out.append(f'<rect x="{20 + bar_w * k / steps:.1f}" y="{y0}" '
                   f'width="{bar_w / steps + 0.5:.1f}" height="12" '
                   f'fill="{_heat((k + 0.5) / steps)}"/>')
    per100 = 100 * top / races if races else 0.0
    out.append(f'<rect class="legend" x="20" y="{y0}" width="{bar_w:.1f}" height="12" '
               'fill="none" stroke="white"/>')
    out.append(f'<text x="20" y="{y0 + 26}" font-size="10" fill="white">white: never · '
               f'scale 0 → {per100:.1f} turns per 100 races ({top} in {races})</text>')
    out.append(f'<text x="20" y="{y0 + 40}" font-size="10" fill="white">{escape(what)}'
               '</text>')
    out.append("</svg>")
    return "\n".join(out)


def _diverging(share: float) -> str:
    """−1 (deep blue: more on side A) through white (0) to +1 (deep red: more on side B)."""
    share = min(1.0, max(-1.0, share))
    if share >= 0:
        return f"#ff{int(255 - 200 * share):02x}{int(255 - 215 * share):02x}"
    k = -share
    return f"#{int(255 - 215 * k):02x}{int(255 - 145 * k):02x}ff"


def difference_map(spaces: dict[int, tuple[tuple[float, float], ...]],
                   a: dict[int, int], b: dict[int, int], races_a: int, races_b: int, *,
                   what: str, starts: dict[int, int] | None = None,
                   cls: str = "difference-map", unit: str = "turns") -> str:
    """SVG: every space coloured by B − A of its count in ``unit`` (turns, chariots) per
    100 races, on one scale symmetric about 0 (blue: more on A, white: the same, red: more
    on B), with a legend. Each polygon carries its difference (``data-difference``, per 100
    races)."""
    if not spaces or not races_a or not races_b:
        return ""
    diff = {n: 100 * b.get(n, 0) / races_b - 100 * a.get(n, 0) / races_a for n in spaces}
    top = max((abs(v) for v in diff.values()), default=0.0)
    xs = [p[0] for poly in spaces.values() for p in poly]
    ys = [p[1] for poly in spaces.values() for p in poly]
    pad, legend = 16, 64
    width = max(xs) - min(xs) + 2 * pad
    height = max(ys) - min(ys) + 2 * pad
    out = [_svg_open(width, height + legend, cls),
           f'<rect width="{width:.0f}" height="{height + legend:.0f}" fill="#3f6b35"/>']
    for n, poly in sorted(spaces.items()):
        v = diff[n]
        points = " ".join(f"{x - min(xs) + pad:.1f},{max(ys) - y + pad:.1f}" for x, y in poly)
        out.append(f'<polygon class="space" data-space="{n}" data-difference="{v:.4g}" '
                   f'points="{points}" fill="{_diverging(v / top if top else 0.0)}" '
                   f'stroke="#6b4f2a"><title>space {n}: {v:+.2f} {unit} per 100 races '
                   "(B − A)</title></polygon>")
        if starts and n in starts:
            cx = sum(x for x, _ in poly) / len(poly) - min(xs) + pad
            cy = max(ys) - sum(y for _, y in poly) / len(poly) + pad
            out.append(f'<text x="{cx:.1f}" y="{cy + 4:.1f}" text-anchor="middle" '
                       f'font-size="12" fill="#1b3a8a">{starts[n]}</text>')
    y0 = height + 10
    bar_w = min(260.0, width - 40)
    for k in range(20):
        out.append(f'<rect x="{20 + bar_w * k / 20:.1f}" y="{y0}" width="{bar_w / 20 + 0.5:.1f}"'
                   f' height="12" fill="{_diverging(-1 + (k + 0.5) / 10)}"/>')
    out.append(f'<text class="scale" x="20" y="{y0 + 26}" font-size="10" fill="white">'
               f'scale −{top:.1f} (more on A) → 0 → +{top:.1f} (more on B) {unit} per 100 '
               "races</text>")
    out.append(f'<text x="20" y="{y0 + 40}" font-size="10" fill="white">{escape(what)}'
               "</text></svg>")
    return "\n".join(out)
