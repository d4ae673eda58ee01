"""The board's chart of a game so far: bars and lines over its steps, in plain SVG.

Plain SVG, so its labels are text a browser sizes (and a test measures). Sizes are for the back
of a room at 1920x1080: chart labels 20 px or more. Every label is user text, escaped here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .common import SERIES_COLOURS, esc

__all__ = ["CHART_FONT", "CHART_H", "CHART_W", "chart_svg"]

#: the chart's drawing units; it is drawn across the board's width, so a unit is about a pixel at 1920.
CHART_W, CHART_H = 1800, 420
CHART_FONT = 24


def _legend_rows(entries: Sequence[tuple[str, str]], room: float) -> list[list[tuple[str, str, float]]]:
    """(name, colour, width) per legend entry, in rows that fit `room` drawing units."""
    rows: list[list[tuple[str, str, float]]] = [[]]
    used = 0.0
    for name, colour in entries:
        short = name if len(name) <= 18 else name[:17] + "…"
        width = 30 + CHART_FONT * 0.62 * (len(short) + 2)
        if rows[-1] and used + width > room:
            rows.append([])
            used = 0.0
        rows[-1].append((short, colour, width))
        used += width
    return [row for row in rows if row]


def chart_svg(
    title: str,
    x_labels: Sequence[str],
    bars: Sequence[int] | None = None,
    lines: Sequence[tuple[str, Sequence[float | None]]] = (),
    marks: Sequence[tuple[float, str, str]] = (),
    y_max: float | None = None,
    bar_label: str = "",
) -> str:
    """A bar and/or line chart over the game's steps. `marks`: horizontal lines (value, label,
    colour). Labels are user text (escaped); sizes are in drawing units of `CHART_W`."""
    if not x_labels:
        return ""
    values = [v for _, series in lines for v in series if v is not None] + list(bars or ()) + [m[0] for m in marks]
    # Whole-number ticks, four or five of them, with room above the highest value.
    highest = y_max if y_max is not None else max([1.0, *values]) * 1.1
    tick: float = next(t * 10**e for e in range(12) for t in (1, 2, 5) if t * 10**e >= highest / 5)
    top = tick * max(1, math.ceil(highest / tick))
    left, right, below = 90, 30, 60
    entries = ([(bar_label, "#9fb4d8")] if bar_label else []) + [(name, SERIES_COLOURS[k % len(SERIES_COLOURS)]) for k, (name, _) in enumerate(lines)]
    legend = _legend_rows(entries, CHART_W - left - right)
    # The legend has lines of its own, under the title.
    above = 70 + 36 * len(legend)
    height_all = CHART_H + 36 * max(0, len(legend) - 1)
    width, height = CHART_W - left - right, height_all - above - below
    step = width / max(len(x_labels), 1)

    def x(i: int) -> float:
        return left + step * (i + 0.5)

    def y(v: float) -> float:
        return above + height * (1 - v / top)

    parts = [f'<text x="{left}" y="36" font-size="{CHART_FONT + 4}" font-weight="700">{esc(title)}</text>']
    for r, row in enumerate(legend):
        lx: float = CHART_W - right
        for short, colour, w in reversed(row):
            # The square in the series' colour, the name in black: light colours are hard to read as text.
            parts.append(
                f'<text x="{lx:.0f}" y="{74 + 36 * r}" font-size="{CHART_FONT}" text-anchor="end" fill="#14171f" font-weight="700">'
                f'<tspan fill="{colour}">■</tspan> {esc(short)}</text>'
            )
            lx -= w
    for k in range(round(top / tick) + 1):  # y grid and values
        v = k * tick
        parts.append(f'<line x1="{left}" x2="{left + width}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#dde1ea"/>')
        parts.append(f'<text x="{left - 10}" y="{y(v) + 8:.1f}" font-size="{CHART_FONT}" text-anchor="end">{round(v)}</text>')
    every = max(1, len(x_labels) // 16)
    for i, label in enumerate(x_labels):
        if i % every == 0 or i == len(x_labels) - 1:
            parts.append(f'<text x="{x(i):.1f}" y="{above + height + 36}" font-size="{CHART_FONT}" text-anchor="middle">{esc(label)}</text>')
    if bars:
        bar = min(step * 0.6, 90)
        for i, v in enumerate(bars):
            parts.append(f'<rect x="{x(i) - bar / 2:.1f}" y="{y(v):.1f}" width="{bar:.1f}" height="{max(0.0, y(0) - y(v)):.1f}" fill="#9fb4d8"/>')
            parts.append(f'<text x="{x(i):.1f}" y="{y(v) - 8:.1f}" font-size="{CHART_FONT}" text-anchor="middle" font-weight="700">{v}</text>')
    for value, label, colour in marks:
        parts.append(f'<line x1="{left}" x2="{left + width}" y1="{y(value):.1f}" y2="{y(value):.1f}" stroke="{colour}" stroke-width="3" stroke-dasharray="12 8"/>')
        parts.append(f'<text x="{left + width}" y="{y(value) - 8:.1f}" font-size="{CHART_FONT}" text-anchor="end" fill="{colour}">{esc(label)}</text>')
    for k, (_, series) in enumerate(lines):
        colour = SERIES_COLOURS[k % len(SERIES_COLOURS)]
        # Series a little apart sideways: equal values would otherwise hide one another.
        shift = (k - (len(lines) - 1) / 2) * min(step * 0.3 / max(len(lines), 1), 8.0)
        points = [(x(i) + shift, y(v)) for i, v in enumerate(series) if v is not None]
        if len(points) > 1:
            path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="{5 if k == 0 else 3}"/>')
        parts += [f'<circle cx="{px:.1f}" cy="{py:.1f}" r="6" fill="{colour}"/>' for px, py in points]
    return (
        f'<svg viewBox="0 0 {CHART_W} {height_all}" role="img" aria-label="{esc(title)}" font-family="DejaVu Sans, sans-serif" '
        f'xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>'
    )
