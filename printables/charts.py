"""Charts for print: line and grouped-bar charts, reference lines and bands, one palette.

They know no game: a game's debrief pages (its printables module) turn its record into
`Series` and hand them to a `Chart`. Every chart draws its series from `PALETTE`, the one
palette of the printed pages. Names and labels are set with `fonts.draw_string` (any script).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any, NamedTuple

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether

import i18n
from i18n import _

from . import common, fonts

__all__ = ["MARKERS", "PALETTE", "Band", "Chart", "Line", "Series", "keep", "numbers_tables", "palette", "series_of"]

# -- layout ------------------------------------------------------------------------------
CHART_HEIGHT = 62 * mm
CHART_TITLE = 10  # points
CHART_TEXT = 7.5  # points: ticks, legend, labels (never below fonts.MIN_SIZE)
CHART_PAD = 2 * mm
AXIS_LEFT = 11 * mm  # room for the y ticks
AXIS_BOTTOM = 6 * mm  # room for the x labels
LEGEND_ROW = 4.2 * mm
LEGEND_SWATCH = 3 * mm
LEGEND_GAP = 4 * mm
TICKS = 5  # about this many y ticks
BAR_SHARE = 0.72  # of a category's width, for its bars
DOT = 1.1 * mm
#: Okabe and Ito's palette: told apart with every kind of colour vision; dashed after eight.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442")
#: A marker shape per line of a chart (its k-th series, in order), so a grey printout or a
#: reader who tells no colours apart still tells the lines apart: corners of a polygon of radius
#: about 1 ("circle" a circle).
MARKERS: dict[str, tuple[tuple[float, float], ...]] = {
    "circle": (),
    "square": ((-0.85, -0.85), (0.85, -0.85), (0.85, 0.85), (-0.85, 0.85)),
    "triangle-up": ((0, 1.2), (1.05, -0.6), (-1.05, -0.6)),
    "diamond": ((0, -1.2), (1.0, 0), (0, 1.2), (-1.0, 0)),
    "triangle-down": ((0, -1.2), (1.05, 0.6), (-1.05, 0.6)),
    "plus": ((-0.35, -1.1), (0.35, -1.1), (0.35, -0.35), (1.1, -0.35), (1.1, 0.35), (0.35, 0.35), (0.35, 1.1), (-0.35, 1.1), (-0.35, 0.35), (-1.1, 0.35), (-1.1, -0.35), (-0.35, -0.35)),
    "star": tuple((r * math.sin(math.pi * k / 5), r * math.cos(math.pi * k / 5)) for k in range(10) for r in [1.3 if k % 2 == 0 else 0.55]),
    "hexagon": tuple((math.cos(math.pi * k / 3), math.sin(math.pi * k / 3)) for k in range(6)),
}
#: a chart's numbers: at most this many steps (columns) per table, then another table
NUMBERS_COLUMNS = 12
NUMBERS_WIDTH = 180 * mm  # A4's frame and Letter's both hold it
NUMBERS_NAME = 38 * mm
AXIS = colors.HexColor("#4d4d4d")
GRIDLINE = colors.HexColor("#dddddd")


def palette(index: int) -> tuple[str, bool]:
    """(colour, dashed) of series `index`: eight colours, then the same dashed."""
    return PALETTE[index % len(PALETTE)], (index // len(PALETTE)) % 2 == 1


class Series(NamedTuple):
    """One series: a value (or None: nothing drawn) per x label."""

    label: str
    values: tuple[float | None, ...]
    colour: str = PALETTE[0]
    dashed: bool = False


class Line(NamedTuple):
    """A horizontal reference line across the chart, labelled at its right end."""

    value: float
    label: str
    colour: str = "#7a7a7a"


class Band(NamedTuple):
    """A shaded band between two values (a zone), labelled at its left end."""

    low: float
    high: float
    label: str
    colour: str = "#eeeeee"


def _step(span: float) -> float:
    """A round tick step giving about `TICKS` ticks over `span`."""
    raw = max(span, 1.0) / TICKS
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return max(1.0, factor * power)
    return 10 * power


class Chart(Flowable):
    """A line or grouped-bar chart drawn on the canvas: y ticks, x labels, reference lines and
    bands, and a legend naming each series (names set with `fonts.draw_string`, any script)."""

    def __init__(
        self,
        title: str,
        x_labels: Sequence[str],
        series: Sequence[Series],
        *,
        kind: str = "line",
        height: float = CHART_HEIGHT,
        y_min: float | None = None,
        y_max: float | None = None,
        lines: Sequence[Line] = (),
        bands: Sequence[Band] = (),
        y_label: str = "",
        notes: Sequence[str] = (),
    ) -> None:
        super().__init__()
        if kind not in ("line", "bar"):
            raise ValueError(f"a chart is 'line' or 'bar', not {kind!r}")
        self.title = title
        self.x_labels = tuple(x_labels)
        self.series = tuple(series)
        self.kind = kind
        self.height = height
        self.lines = tuple(lines)
        self.bands = tuple(bands)
        self.y_label = y_label
        #: one short text per x label drawn above its slot (a flood mark, a colour).
        self.notes = tuple(notes)
        values = [v for s in self.series for v in s.values if v is not None]
        values += [line.value for line in self.lines] + [b.low for b in self.bands] + [b.high for b in self.bands]
        low = min(values, default=0.0) if y_min is None else y_min
        high = max(values, default=1.0) if y_max is None else y_max
        if kind == "bar":
            low = min(low, 0.0)
        if high <= low:
            high = low + 1
        self.step = _step(high - low)
        self.y_min = math.floor(low / self.step) * self.step
        self.y_max = math.ceil(high / self.step) * self.step
        self.width = 0.0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width = availWidth
        return availWidth, self.height + self._legend_height(availWidth)

    def numbers(self) -> list[Flowable]:
        """The chart's numbers as tables to print under it (`numbers_tables`)."""
        step = self.y_label.split("·")[-1].strip() if "·" in self.y_label else ""
        return numbers_tables(self.title, self.x_labels, self.series, step, self.notes)

    def _legend_items(self) -> list[tuple[Series, float]]:
        return [(s, LEGEND_SWATCH + 1.5 * mm + fonts.string_width(s.label, fonts.BODY, CHART_TEXT)) for s in self.series if s.label]

    def _legend_rows(self, width: float) -> list[list[tuple[Series, float]]]:
        rows: list[list[tuple[Series, float]]] = [[]]
        used = 0.0
        for item in self._legend_items():
            if rows[-1] and used + item[1] > width - AXIS_LEFT:
                rows.append([])
                used = 0.0
            rows[-1].append(item)
            used += item[1] + LEGEND_GAP
        return rows if rows[0] else []

    def _legend_height(self, width: float) -> float:
        return len(self._legend_rows(width)) * LEGEND_ROW

    def _y(self, value: float, bottom: float, top: float) -> float:
        return bottom + (value - self.y_min) / (self.y_max - self.y_min) * (top - bottom)

    def draw(self) -> None:
        canvas = self.canv
        canvas.saveState()
        legend = self._legend_height(self.width)
        left, right = AXIS_LEFT, self.width - CHART_PAD
        bottom = legend + AXIS_BOTTOM
        top = legend + self.height - CHART_TITLE - CHART_PAD - (CHART_TEXT + 2 if self.notes else 0)
        canvas.setFillColor(common.INK)
        fonts.draw_string(canvas, 0, legend + self.height - CHART_TITLE, self.title, fonts.BOLD, CHART_TITLE)
        if self.y_label:
            canvas.setFillColor(common.MUTED)
            fonts.draw_string(canvas, self.width, legend + self.height - CHART_TITLE, self.y_label, fonts.BODY, CHART_TEXT, align="right")
        for band in self.bands:
            y0, y1 = self._y(max(band.low, self.y_min), bottom, top), self._y(min(band.high, self.y_max), bottom, top)
            canvas.setFillColor(colors.HexColor(band.colour))
            canvas.rect(left, y0, right - left, y1 - y0, stroke=0, fill=1)
        self._axes(canvas, left, right, bottom, top)
        slot = (right - left) / max(1, len(self.x_labels))
        if self.kind == "bar":
            self._bars(canvas, left, slot, bottom, top)
        else:
            self._lines(canvas, left, slot, bottom, top)
        for band in self.bands:
            # Labelled over the bars, on a patch of the band's colour, so a bar never hides it.
            y1 = self._y(min(band.high, self.y_max), bottom, top)
            text_width = fonts.string_width(band.label, fonts.BODY, CHART_TEXT)
            canvas.setFillColor(colors.HexColor(band.colour))
            canvas.setStrokeColor(AXIS)
            canvas.setLineWidth(0.3)
            canvas.rect(right - text_width - 2.4 * mm, y1 - CHART_TEXT - 2.2, text_width + 1.6 * mm, CHART_TEXT + 1.6, stroke=1, fill=1)
            canvas.setFillColor(common.INK)
            fonts.draw_string(canvas, right - 1.6 * mm, y1 - CHART_TEXT - 0.5, band.label, fonts.BODY, CHART_TEXT, align="right")
        for line in self.lines:
            y = self._y(line.value, bottom, top)
            canvas.setStrokeColor(colors.HexColor(line.colour))
            canvas.setLineWidth(1.1)
            canvas.setDash(4, 2)
            canvas.line(left, y, right, y)
            canvas.setDash()
            canvas.setFillColor(colors.HexColor(line.colour))
            # Under the line: above it, a line at the top would write over the axis label.
            fonts.draw_string(canvas, right - 0.8 * mm, y - CHART_TEXT - 1.0, line.label, fonts.BODY, CHART_TEXT, align="right")
        canvas.setFillColor(common.INK)
        for i, note in enumerate(self.notes):
            if note:
                fonts.draw_string(canvas, left + (i + 0.5) * slot, top + 2, note, fonts.BODY, CHART_TEXT, align="centre")
        self._legend(canvas, legend)
        canvas.restoreState()

    def _axes(self, canvas: Any, left: float, right: float, bottom: float, top: float) -> None:
        canvas.setLineWidth(0.4)
        value = self.y_min
        while value <= self.y_max + 1e-9:
            y = self._y(value, bottom, top)
            canvas.setStrokeColor(GRIDLINE)
            canvas.line(left, y, right, y)
            canvas.setFillColor(AXIS)
            fonts.draw_string(canvas, left - 1.2 * mm, y - CHART_TEXT / 3, _number(value), fonts.BODY, CHART_TEXT, align="right")
            value += self.step
        canvas.setStrokeColor(AXIS)
        canvas.setLineWidth(0.8)
        canvas.line(left, bottom, left, top)
        zero = self._y(0, bottom, top) if self.y_min <= 0 <= self.y_max else bottom
        canvas.line(left, zero, right, zero)
        slot = (right - left) / max(1, len(self.x_labels))
        widest = max((fonts.string_width(x, fonts.BODY, CHART_TEXT) for x in self.x_labels), default=0.0)
        every = max(1, math.ceil((widest + 1.5 * mm) / slot)) if slot else 1
        canvas.setFillColor(AXIS)
        for i, label in enumerate(self.x_labels):
            if i % every == 0:
                fonts.draw_string(canvas, left + (i + 0.5) * slot, bottom - CHART_TEXT - 1.5, label, fonts.BODY, CHART_TEXT, align="centre")

    def _bars(self, canvas: Any, left: float, slot: float, bottom: float, top: float) -> None:
        count = max(1, len(self.series))
        bar = slot * BAR_SHARE / count
        zero = self._y(max(self.y_min, 0), bottom, top)
        for k, s in enumerate(self.series):
            canvas.setFillColor(colors.HexColor(s.colour))
            canvas.setStrokeColor(common.INK)
            canvas.setLineWidth(0.3)
            for i, v in enumerate(s.values):
                if v is None:
                    continue
                x = left + i * slot + slot * (1 - BAR_SHARE) / 2 + k * bar
                y = self._y(v, bottom, top)
                canvas.rect(x, min(zero, y), bar, abs(y - zero), stroke=1, fill=1)

    def _lines(self, canvas: Any, left: float, slot: float, bottom: float, top: float) -> None:
        for k, s in enumerate(self.series):
            colour = colors.HexColor(s.colour)
            canvas.setStrokeColor(colour)
            canvas.setFillColor(colour)
            canvas.setLineWidth(1.4)
            canvas.setDash(*((3, 1.5) if s.dashed else ()))
            points = [(left + (i + 0.5) * slot, self._y(v, bottom, top)) if v is not None else None for i, v in enumerate(s.values)]
            for a, b in itertools.pairwise(points):
                if a is not None and b is not None:
                    canvas.line(a[0], a[1], b[0], b[1])
            canvas.setDash()
            for p in points:
                if p is not None:
                    _marker(canvas, k, p[0], p[1])

    def _legend(self, canvas: Any, height: float) -> None:
        y = height - LEGEND_ROW + 1.2 * mm
        for row in self._legend_rows(self.width):
            x = AXIS_LEFT
            for s, width in row:
                k = self.series.index(s)
                canvas.setFillColor(colors.HexColor(s.colour))
                canvas.setStrokeColor(colors.HexColor(s.colour))
                if self.kind == "line":
                    canvas.setLineWidth(1.4)
                    canvas.setDash(*((3, 1.5) if s.dashed else ()))
                    canvas.line(x, y + LEGEND_SWATCH / 2, x + LEGEND_SWATCH, y + LEGEND_SWATCH / 2)
                    canvas.setDash()
                    _marker(canvas, k, x + LEGEND_SWATCH / 2, y + LEGEND_SWATCH / 2)
                else:
                    canvas.rect(x, y, LEGEND_SWATCH, LEGEND_SWATCH, stroke=0, fill=1)
                canvas.setFillColor(common.INK)
                fonts.draw_string(canvas, x + LEGEND_SWATCH + 1.5 * mm, y + 0.3, s.label, fonts.BODY, CHART_TEXT)
                x += width + LEGEND_GAP
            y -= LEGEND_ROW


def _marker(canvas: Any, k: int, x: float, y: float) -> None:
    """The k-th series' marker at (x, y), filled in the colour already set, edged in white."""
    shape = MARKERS[list(MARKERS)[k % len(MARKERS)]]
    canvas.saveState()
    canvas.setStrokeColor(colors.white)
    canvas.setLineWidth(0.3)
    canvas.setDash()
    if not shape:
        canvas.circle(x, y, DOT, stroke=1, fill=1)
    else:
        path = canvas.beginPath()
        path.moveTo(x + shape[0][0] * DOT * 1.15, y + shape[0][1] * DOT * 1.15)
        for px, py in shape[1:]:
            path.lineTo(x + px * DOT * 1.15, y + py * DOT * 1.15)
        path.close()
        canvas.drawPath(path, stroke=1, fill=1)
    canvas.restoreState()


def _number(value: float | None) -> str:
    """A value on an axis or in a chart's numbers: as English always printed it ("2.5"), in
    another language in its own format ("2,5"); a true minus sign either way."""
    if value is None:
        return ""
    text = f"{value:g}" if i18n.current() in (i18n.SOURCE, i18n.PSEUDO) else i18n.number(value)
    return text.replace("-", "\u2212")


def numbers_tables(title: str, x_labels: Sequence[str], series: Sequence[Series], step: str = "", notes: Sequence[str] = ()) -> list[Flowable]:
    """A chart's numbers, printed under it for a reader who cannot read them off the lines: a
    row per series, a column per step (at most `NUMBERS_COLUMNS` a table, then the next)."""
    out: list[Flowable] = [common.para(_("The numbers of “{chart}”", chart=title), "small")]
    for start in range(0, max(1, len(x_labels)), NUMBERS_COLUMNS):
        shown = list(x_labels[start : start + NUMBERS_COLUMNS])
        rows: list[list[common.Cell]] = [[s.label or "", *(_number(v) for v in s.values[start : start + NUMBERS_COLUMNS])] for s in series]
        if any(notes[start : start + NUMBERS_COLUMNS]):
            # TRANSLATORS: the head of a row of notes (a flood, a roll) under a chart's numbers.
            rows.append([_("note"), *notes[start : start + NUMBERS_COLUMNS]])
        column = (NUMBERS_WIDTH - NUMBERS_NAME) / NUMBERS_COLUMNS
        rows = [row + [""] * (len(shown) + 1 - len(row)) for row in rows]
        out.append(common.ruled_table([step, *shown], rows, [NUMBERS_NAME] + [column] * len(shown), row_height=0, cell_style="cell"))
    return out


def series_of(labels: Sequence[str], rows: Sequence[Sequence[float | None]]) -> list[Series]:
    """One series per label, coloured from the palette in order."""
    out = []
    for i, (label, values) in enumerate(zip(labels, rows)):
        colour, dashed = palette(i)
        out.append(Series(label, tuple(values), colour, dashed))
    return out


def keep(*parts: Flowable) -> Flowable:
    """Flowables kept on one page (a chart with its heading); each chart's numbers follow it,
    on the same page when they fit."""
    kept: list[Flowable] = []
    numbers: list[Flowable] = []
    for part in parts:
        kept.append(part)
        if isinstance(part, Chart):
            numbers += part.numbers()
    if not numbers:
        return KeepTogether(kept)
    return KeepTogether([KeepTogether(kept), *numbers])
