"""The board's chart of a game so far: bars and lines over its steps, in plain SVG, and its
numbers as a table.

Plain SVG, so its labels are text a browser sizes (and a test measures). Sizes are for the back
of a room at 1920x1080: chart labels 20 px or more. Every label is user text, escaped here.

Colour is never the only thing that tells series apart: each has a marker shape and a dash of
its own (`SERIES_SHAPES`, `SERIES_DASH_ARRAYS`), drawn in the legend too, so a reader who sees
no colour at all (or a grey printout) still tells every household apart. Beside the drawing,
`chart_svg` writes the same numbers as a `<table>` (in a `<details>`: `charts.css` keeps it in
the accessibility tree and in print while it is closed).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from i18n import _

from .common import SERIES_COLOURS, esc, name, number, text

__all__ = ["CHART_FONT", "CHART_H", "CHART_W", "SERIES_DASH_ARRAYS", "SERIES_SHAPES", "chart_numbers", "chart_svg", "chart_table", "marker_svg", "series_look"]

#: the chart's drawing units; it is drawn across the board's width, so a unit is about a pixel at 1920.
CHART_W, CHART_H = 1800, 420
CHART_FONT = 24

#: Marker shapes, one per series (as many as `SERIES_COLOURS`, the same order as the matplotlib
#: plots' markers): points of a polygon of radius about 1 whose corners average (0, 0), the
#: marker's point; "circle" is a circle.
SERIES_SHAPES: dict[str, tuple[tuple[float, float], ...]] = {
    "circle": (),
    "square": ((-0.85, -0.85), (0.85, -0.85), (0.85, 0.85), (-0.85, 0.85)),
    "triangle-up": ((0, -1.2), (1.05, 0.6), (-1.05, 0.6)),
    "diamond": ((0, -1.2), (1.0, 0), (0, 1.2), (-1.0, 0)),
    "triangle-down": ((0, 1.2), (1.05, -0.6), (-1.05, -0.6)),
    "plus": ((-0.35, -1.1), (0.35, -1.1), (0.35, -0.35), (1.1, -0.35), (1.1, 0.35), (0.35, 0.35), (0.35, 1.1), (-0.35, 1.1), (-0.35, 0.35), (-1.1, 0.35), (-1.1, -0.35), (-0.35, -0.35)),
    "cross": tuple((round((x - y) * 0.7071, 3), round((x + y) * 0.7071, 3)) for x, y in ((-0.35, -1.2), (0.35, -1.2), (0.35, -0.35), (1.2, -0.35), (1.2, 0.35), (0.35, 0.35), (0.35, 1.2), (-0.35, 1.2), (-0.35, 0.35), (-1.2, 0.35), (-1.2, -0.35), (-0.35, -0.35))),
    "star": tuple((round(r * math.sin(math.pi * k / 5), 3), round(-r * math.cos(math.pi * k / 5), 3)) for k in range(10) for r in [1.3 if k % 2 == 0 else 0.55]),
    "triangle-left": ((-1.2, 0), (0.6, -1.05), (0.6, 1.05)),
    "hexagon": tuple((round(math.cos(math.pi * k / 3), 3), round(math.sin(math.pi * k / 3), 3)) for k in range(6)),
}
#: Dash patterns (SVG `stroke-dasharray`, "" solid), one per series after the shapes run out
#: with the colours, so series 1 and 11 still differ.
SERIES_DASH_ARRAYS = ("", "16 8", "16 6 4 6", "4 6", "24 6 4 6 4 6")


def series_look(k: int) -> tuple[str, str, str]:
    """(colour, marker shape, dash) of the chart's `k`-th line. Past ten series the shapes shift
    by one against the colours and the dashes by two, so that even without colour no two of up to
    fifty lines share both shape and dash."""
    shapes = list(SERIES_SHAPES)
    turn = k // len(SERIES_COLOURS)
    return SERIES_COLOURS[k % len(SERIES_COLOURS)], shapes[(k + turn) % len(shapes)], SERIES_DASH_ARRAYS[(k + 2 * turn) % len(SERIES_DASH_ARRAYS)]


def marker_svg(shape: str, cx: float, cy: float, r: float, colour: str) -> str:
    """One marker: filled in the series' colour, edged in white so touching markers stay apart."""
    edge = 'stroke="#fff" stroke-width="1.5"'
    if not SERIES_SHAPES[shape]:
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{colour}" {edge}/>'
    points = " ".join(f"{cx + px * r:.1f},{cy + py * r:.1f}" for px, py in SERIES_SHAPES[shape])
    return f'<polygon points="{points}" fill="{colour}" {edge}/>'


def _legend_rows(entries: Sequence[tuple[str, str]], room: float) -> list[list[tuple[str, int, float]]]:
    """(name, index into `entries`, width) per legend entry, in rows that fit `room` drawing units."""
    rows: list[list[tuple[str, int, float]]] = [[]]
    used = 0.0
    for k, (label, _kind) in enumerate(entries):
        short = label if len(label) <= 18 else label[:17] + "…"
        width = 64 + CHART_FONT * 0.62 * (len(short) + 1)
        if rows[-1] and used + width > room:
            rows.append([])
            used = 0.0
        rows[-1].append((short, k, width))
        used += width
    return [row for row in rows if row]


def _cell(value: float | None) -> str:
    """A value in the table as the chart draws it: a whole number without ".0"; blank for none."""
    if value is None:
        return "<td></td>"
    return f"<td>{number(f'{value:g}')}</td>"


def chart_table(
    title: str,
    x_labels: Sequence[str],
    x_name: str,
    bars: Sequence[float | None] | None = None,
    lines: Sequence[tuple[str, Sequence[float | None]]] = (),
    marks: Sequence[tuple[float, str, str]] = (),
    bar_label: str = "",
    note: str = "",
) -> str:
    """A chart's numbers as a `<table>`: a row per step (`x_labels`, headed `x_name`), a column
    for the bars and for each line; the caption is the chart's title (and `marks`' labels, `note`)."""
    # TRANSLATORS: after a chart's title in its numbers' caption: the labels of the lines drawn across it.
    across = " " + _("Lines across it: {labels}.", labels="; ".join(label for _value, label, _colour in marks)) if marks else ""
    head = f'<th scope="col">{esc(x_name)}</th>'
    if bars is not None:
        # TRANSLATORS: the column of a chart's bars, when the bars have no name of their own.
        head += f'<th scope="col">{text(bar_label or _("Bars"))}</th>'
    head += "".join(f'<th scope="col">{name(series_name)}</th>' for series_name, _series in lines)
    body = []
    for i, label in enumerate(x_labels):
        cells = _cell(bars[i] if i < len(bars) else None) if bars is not None else ""
        cells += "".join(_cell(series[i] if i < len(series) else None) for _name, series in lines)
        body.append(f'<tr><th scope="row">{esc(label)}</th>{cells}</tr>')
    caption = f"{text(title)}.{text(across)}" + (f" {text(note)}" if note else "")
    return f'<table class="pb-chart-table"><caption>{caption}</caption><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def chart_numbers(*tables: str, summary: str | None = None) -> str:
    """`chart_table`s in a `<details>` that stays in the accessibility tree and in print while
    it is closed (`charts.css`). Their box scrolls sideways on a narrow screen, so it takes the
    keyboard's focus (and, focused while closed, shows itself)."""
    summary = summary or _("The numbers of this chart")
    return (
        f'<details class="pb-chart-data"><summary>{esc(summary)}</summary>'
        f'<div class="pb-chart-numbers" tabindex="0" role="region" aria-label="{esc(summary)}">{"".join(tables)}</div></details>'
    )


def chart_svg(
    title: str,
    x_labels: Sequence[str],
    bars: Sequence[int] | None = None,
    lines: Sequence[tuple[str, Sequence[float | None]]] = (),
    marks: Sequence[tuple[float, str, str]] = (),
    y_max: float | None = None,
    bar_label: str = "",
    x_name: str | None = None,
) -> str:
    """A bar and/or line chart over the game's steps, then its numbers' table (`chart_table`;
    `x_name` heads the steps' column: "Year"). `marks`: horizontal lines (value, label, colour).
    Labels are user text (escaped); sizes are in drawing units of `CHART_W`."""
    if not x_labels:
        return ""
    values = [v for _name, series in lines for v in series if v is not None] + list(bars or ()) + [m[0] for m in marks]
    # Whole-number ticks, four or five of them, with room above the highest value.
    highest = y_max if y_max is not None else max([1.0, *values]) * 1.1
    tick: float = next(t * 10**e for e in range(12) for t in (1, 2, 5) if t * 10**e >= highest / 5)
    top = tick * max(1, math.ceil(highest / tick))
    left, right, below = 90, 30, 60
    looks = [series_look(k) for k in range(len(lines))]
    entries = ([(bar_label, "bar")] if bar_label else []) + [(label, "line") for label, _series in lines]
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
    first_line = 1 if bar_label else 0
    for r, row in enumerate(legend):
        lx: float = CHART_W - right
        base = 74 + 36 * r
        for short, k, w in reversed(row):
            ex = lx - w
            # A sample of the series as drawn (its dash and marker), the name in black: light
            # colours are hard to read as text, and the sample tells the series apart without colour.
            if entries[k][1] == "bar":
                parts.append(f'<rect x="{ex + 8:.0f}" y="{base - 24}" width="32" height="24" fill="#9fb4d8" stroke="#4a5a7a" stroke-width="1.5"/>')
            else:
                colour, shape, dash = looks[k - first_line]
                dashed = f' stroke-dasharray="{dash}"' if dash else ""
                parts.append(
                    f'<g class="pb-legend-sample"><line x1="{ex:.0f}" x2="{ex + 50:.0f}" y1="{base - 9}" y2="{base - 9}" stroke="{colour}" stroke-width="4"{dashed}/>'
                    f"{marker_svg(shape, ex + 25, base - 9, 10, colour)}</g>"
                )
            parts.append(f'<text x="{ex + 58:.0f}" y="{base}" font-size="{CHART_FONT}" fill="#14171f" font-weight="700">{esc(short)}</text>')
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
    for k, (_name, series) in enumerate(lines):
        colour, shape, dash = looks[k]
        # Series a little apart sideways: equal values would otherwise hide one another.
        shift = (k - (len(lines) - 1) / 2) * min(step * 0.3 / max(len(lines), 1), 8.0)
        points = [(x(i) + shift, y(v)) for i, v in enumerate(series) if v is not None]
        drawn = []
        if len(points) > 1:
            path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            dashed = f' stroke-dasharray="{dash}"' if dash else ""
            drawn.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="{5 if k == 0 else 3}"{dashed}/>')
        drawn += [marker_svg(shape, px, py, 9, colour) for px, py in points]
        parts.append(f'<g class="pb-series">{"".join(drawn)}</g>')
    svg = (
        f'<svg viewBox="0 0 {CHART_W} {height_all}" role="img" aria-label="{esc(title)}" font-family="DejaVu Sans, sans-serif" '
        f'xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>'
    )
    # TRANSLATORS: the heading of a chart's steps column when the game names none ("Year" is named).
    return svg + chart_numbers(chart_table(title, x_labels, x_name or _("Step"), bars, lines, marks, bar_label))
