"""Leerdam on paper: the village board, household ledgers, the village record, slips.

`printables.document` prints blank materials for N named (or unnamed) households, or "what
you played" from a `State`: the ledgers filled from `state.ledger`, the village record from `state.years`
and `standings`, and the village chronicle (the public log). Printing only ever shows what
the projector may show plus each household's own rows on its own ledger page: a pledge not
yet revealed prints blank, and with anonymous pledges no household's pledge, VP or Wealth is
printed outside its own page until the game ends (a dash stands in a pledge's place).

Page order: the village board, one ledger page per household, the village record, the
chronicle (from a state), then the contribution slips and labour contracts (not once the
game is over: there is nothing left to pledge or hire).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepTogether, PageBreak

import i18n
from i18n import _, _n, say
from rules.decisions import Game
from rules.games import card
from rules.leerdam import (
    DYKE_MAX,
    DYKE_MIN,
    FLOOD_PENALTY,
    WEALTH_PER_VP,
    LedgerRow,
    Setup,
    State,
    final_divisor,
    flood_odds,
    ledger_rows,
    leisure_vp,
    pledges_public,
    pledges_shown,
    profit_wealth,
    public_pledges_hidden,
    standings,
    subsistence_vp,
    thresholds,
)

from . import charts, common, fonts, slips
from .fonts import BidiParagraph as Paragraph
from .fonts import markup

__all__ = ["CARD", "MATERIALS", "booklet", "debrief_compare", "debrief_lines", "debrief_story", "rules_card", "sheets", "table_of"]

# -- layout ------------------------------------------------------------------------------
CARD = card("leerdam")
MATERIALS = ("Village board", "Household ledger", "Village record", "Village chronicle", "Contribution slips", "Labour contracts", "Seat slips", "Rules card")
BLANK_YEARS = 12  # ledger and record rows when the setup has no year limit
# Board: the dyke track, the pledge scale, the year track.
DYKE_NUMBER = 26  # points: the big numbers of the dyke track
DYKE_TAG = 7.5  # points: "start" / "now" under them
DYKE_SPACE = 12.5 * mm  # height of a dyke space inside its cell
DYKE_LABEL_COLUMN = 42 * mm
DYKE_FILLS = ("#fbe3dc", "#fcefd9", "#f7f4dc", "#e6f1dc", "#d8ebe0", "#cfe3ee")  # weak (warm) to strong (cool)
SCALE_BOX = 11 * mm  # height of a pledge-total box
SCALE_MAX_WIDTH = 13 * mm
SCALE_BAND = 6 * mm  # the zone labels under the pledge scale
SCALE_FALLING = 5  # boxes for the totals that lower the dyke; the lowest one covers the rest
ZONE_FILLS = {"falls": "#f3cfc8", "holds": "#e8e8e8", "rises": "#cfe6cb"}
YEAR_BOX = 12 * mm
YEARS_PER_ROW = 13  # twelve years and the "and on" space fit one row
TRACK_GAP = 1.6 * mm
TRACK_LABEL = 13  # points: a number in a track box
TRACK_NOTE = 7  # points: the small word under it
END_FILL = "#dcdcdc"  # years that end with the end roll
STRONG_LINE = 2.2  # outline of the start / current space
SCHEDULE_LABEL_COLUMN = 42 * mm
SCHEDULE_ROW = 5.5 * mm
BOARD_GUTTER = 6 * mm
# Ledger: the columns share the width by what their header words need; the year column
# also holds the small "end roll" tag.
LEDGER_MIN_COLUMN = 10.5 * mm  # room for "−13" or "+100" in the cell's 11-point figures
LEDGER_ROW = 13 * mm
END_ROLL_TAG = 7  # points: "end roll" under a year number
FINAL_ROW = 11 * mm
# Village record: year, dyke at start, pledge total, dyke after pledges, flood roll, flooded,
# dyke at the end, end roll.
RECORD_WEIGHTS = (14, 20, 20, 22, 18, 16, 20, 24)
RECORD_ROW = 7.5 * mm
PLEDGE_GRID_NAME = 36 * mm
PLEDGE_GRID_YEARS = 12  # year columns per pledge grid before it continues below
PLEDGE_GRID_ROW = 5.5 * mm
STANDINGS_WEIGHTS = (12, 46, 18, 14, 16, 20, 18)
STANDINGS_ROW = 7.5 * mm
CHRONICLE_GUTTER = 7 * mm
CHRONICLE_SIZE = 8  # points
# Slips.
PLEDGE_SLIP_GRID = (3, 8)  # columns, rows: one household's 12 years fill half a page
CONTRACT_SLIP_GRID = (2, 4)
SLIP_PAD = 2.6 * mm
SLIP_TITLE = 7  # points
SLIP_TEXT = 8.5
SLIP_SMALL = 7
SLIP_NAME = 10.5
CONTRACT_NOTES = (
    say("Both sign: then Wealth and labour change hands."),
    say("The units count in the seller's allocation."),
)
WRITE_LINE = colors.HexColor("#9a9a9a")
MINUS = "\u2212"  # a real minus sign: "−5" reads better than "-5" on a board


# -- what to print -----------------------------------------------------------------------------
#: The setup fields the sheets print with (`common.variants`: a blank print takes `Setup`'s defaults).
_VARIANTS = (
    "capacity",
    "misfortune",
    "misfortune_by_hand",
    "dyke_start",
    "sticky_flood",
    "anonymous",
    "end_check_from",
    "end_on",
    "max_years",
)


@dataclass(frozen=True)
class _Village:
    """The households and variant numbers a set of sheets is printed for."""

    names: tuple[str, ...]  # "" is a household whose name is written in by hand
    capacity: int
    misfortune: tuple[int, ...]
    misfortune_by_hand: bool
    dyke_start: int
    sticky_flood: bool
    anonymous: bool
    end_check_from: int
    end_on: tuple[int, ...]
    max_years: int | None
    state: State | None = None
    #: (seat name, URL) per seat for the seat slips' QR codes; None prints blank slips.
    seat_links: tuple[tuple[str, str], ...] | None = None

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def planned_years(self) -> int:
        """Rows for a year-by-year sheet: the year limit, or a dozen when the die decides."""
        return self.max_years or BLANK_YEARS

    @property
    def years(self) -> int:
        """Year rows to print: the years played once over, else at least the planned ones."""
        state = self.state
        if state is None:
            return self.planned_years
        if state.over:
            return max(state.year, 1)
        return max(self.planned_years, state.year)

    def label(self, seat: int) -> str:
        return self.names[seat] or _("Household {n}", n=seat + 1)


def table_of(source: common.Source[Setup, State]) -> _Village:
    """The village `source` prints for: its setup's, or blank households with `Setup`'s default variants."""
    variants = common.variants(source, Setup, _VARIANTS)
    return _Village(names=source.names, state=source.state, seat_links=source.seat_links, **variants)


# -- small text helpers ------------------------------------------------------------------------
def _p(text: str, style: str | ParagraphStyle = "cell") -> Paragraph:
    """A paragraph of markup that was already escaped (through `markup`) by the caller."""
    return Paragraph(text, common.style(style) if isinstance(style, str) else style)


def _signed(value: int) -> str:
    """'+3', '−5' or '0'."""
    if value > 0:
        return f"+{value}"
    return f"{MINUS}{-value}" if value < 0 else "0"


def _chance(p: float) -> str:
    """A d6 chance as '4 in 6 (67%)'."""
    sixths = round(p * 6)
    # TRANSLATORS: a chance on the six-sided die, as "4 in 6 (67%)".
    return _("never") if sixths == 0 else _("{n} in 6 ({percent})", n=sixths, percent=i18n.percent(p))


def _faces(faces: Sequence[int]) -> str:
    """Die faces as '1–3', '6' or '1, 3 or 5'."""
    ordered = sorted(set(faces))
    if not ordered:
        return _("no face")
    if len(ordered) > 1 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]}–{ordered[-1]}"
    if len(ordered) == 1:
        return str(ordered[0])
    # TRANSLATORS: die faces, as "1, 3 or 5".
    return _("{faces} or {last}", faces=", ".join(map(str, ordered[:-1])), last=str(ordered[-1]))


SOFT_HYPHEN = "\u00ad"


def _head_words(label: str) -> list[str]:
    """What a header cell may set on a line: its words, and a long word's parts where the
    translation marks a soft hyphen ("Lebens\u00adunterhalt": "Lebens-", "unterhalt")."""
    chunks = []
    for word in label.split():
        parts = word.split(SOFT_HYPHEN)
        chunks += [part + "-" for part in parts[:-1]] + parts[-1:]
    return chunks


def _header_widths(labels: Sequence[str], total: float, minimum: float) -> list[float]:
    """Column widths for `total`: each at least `minimum`, the rest shared so that each
    header's longest word gets the same share of what it needs (the header shrinks evenly)."""
    head = common.style("cell-head")

    def needs_at(size: float) -> list[float]:
        # 3% over the word: `fitted_style` leaves that much slack against rounding.
        return [
            max(minimum, max(fonts.string_width(w, head.fontName, size) for w in _head_words(label)) / 0.97 + 2 * common.CELL_PAD)
            for label in labels
        ]

    needs = needs_at(head.fontSize)
    if sum(needs) > total:
        needs = needs_at(fonts.MIN_SIZE)  # the headers will be set that small: share by those needs
    if sum(needs) <= total:
        return [total * need / sum(needs) for need in needs]
    if minimum * len(labels) >= total:
        return [total / len(labels)] * len(labels)
    share = (total - minimum * len(labels)) / (sum(needs) - minimum * len(labels))
    return [minimum + (need - minimum) * share for need in needs]


def _headers(labels: Sequence[str], widths: Sequence[float]) -> list[common.Cell]:
    """Header cells in one size, small enough that no column breaks a word in two."""
    fitted = [common.fitted_style("cell-head", _head_words(label), width) for label, width in zip(labels, widths)]
    smallest = min(fitted, key=lambda style: style.fontSize)
    # A long word breaks only where its translation put a soft hyphen, and shows the hyphen.
    hyphenating = ParagraphStyle(f"{smallest.name}-hyphenating", parent=smallest, embeddedHyphenation=1)
    return [Paragraph(markup(label), hyphenating) for label in labels]


def _derived(name: str, parent: str | ParagraphStyle, **changes: object) -> ParagraphStyle:
    """A module style built on a shared style (by name) or on another style."""
    base = common.style(parent) if isinstance(parent, str) else parent
    return ParagraphStyle(f"leerdam-{name}", parent=base, **changes)


# -- tracks: rows of boxes on the board -----------------------------------------------------
@dataclass(frozen=True)
class _Space:
    """One box of a track: a big label, a small note, a fill, and a thick outline if marked."""

    label: str
    note: str = ""
    fill: str | None = None
    strong: bool = False


@dataclass(frozen=True)
class _Zone:
    """A band under spaces `first`..`last` of a one-row track, with its label."""

    first: int
    last: int
    text: str
    fill: str


class _Track(Flowable):
    """Equal boxes in rows of at most `per_row`, centred, with optional zone bands below.

    A tiny flowable in the rst2pdf manner: `wrap` sizes it, `draw` paints at the origin.
    """

    def __init__(
        self,
        spaces: Sequence[_Space],
        *,
        box_height: float,
        per_row: int,
        max_box: float,
        zones: Sequence[_Zone] = (),
    ) -> None:
        super().__init__()
        self.spaces = tuple(spaces)
        self.box_height = box_height
        self.per_row = max(1, min(per_row, len(self.spaces)))
        self.max_box = max_box
        self.zones = tuple(zones)
        self.box_width = max_box
        self.width = 0.0
        self.height = 0.0

    @property
    def rows(self) -> int:
        return math.ceil(len(self.spaces) / self.per_row)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width = availWidth
        self.box_width = min(self.max_box, (availWidth - (self.per_row - 1) * TRACK_GAP) / self.per_row)
        height = self.rows * self.box_height + (self.rows - 1) * TRACK_GAP
        if self.zones:
            height += TRACK_GAP + SCALE_BAND
        self.height = height
        return availWidth, height

    def _origin(self, index: int) -> tuple[float, float]:
        """Bottom-left corner of space `index`."""
        row, col = divmod(index, self.per_row)
        span = self.per_row * self.box_width + (self.per_row - 1) * TRACK_GAP
        left = (self.width - span) / 2
        top = self.height - row * (self.box_height + TRACK_GAP)
        return left + col * (self.box_width + TRACK_GAP), top - self.box_height

    def draw(self) -> None:
        canvas = self.canv
        canvas.saveState()
        for index, space in enumerate(self.spaces):
            x, y = self._origin(index)
            canvas.setFillColor(colors.HexColor(space.fill) if space.fill else colors.white)
            canvas.setStrokeColor(common.INK)
            canvas.setLineWidth(STRONG_LINE if space.strong else 0.7)
            canvas.roundRect(x, y, self.box_width, self.box_height, 1.2 * mm, stroke=1, fill=1)
            canvas.setFillColor(common.INK)
            room = self.box_width - 2
            label, size = fonts.fit(space.label, fonts.BOLD, TRACK_LABEL, room)
            label_y = y + self.box_height / 2 - size * 0.35 + (TRACK_NOTE * 0.55 if space.note else 0)
            fonts.draw_string(canvas, x + self.box_width / 2, label_y, label, fonts.BOLD, size, align="centre")
            if space.note:
                note, note_size = fonts.fit(space.note, fonts.BODY, TRACK_NOTE, room)
                canvas.setFillColor(common.MUTED if not space.strong else common.INK)
                fonts.draw_string(canvas, x + self.box_width / 2, y + 1.6 * mm, note, fonts.BODY, note_size, align="centre")
        for zone in self.zones:
            left, _bottom = self._origin(zone.first)
            right, _bottom = self._origin(zone.last)
            right += self.box_width
            canvas.setFillColor(colors.HexColor(zone.fill))
            canvas.setStrokeColor(common.INK)
            canvas.setLineWidth(0.5)
            canvas.rect(left, 0, right - left, SCALE_BAND, stroke=1, fill=1)
            canvas.setFillColor(common.INK)
            text, size = fonts.fit(zone.text, fonts.BOLD, 7.5, right - left - 2)
            fonts.draw_string(canvas, (left + right) / 2, SCALE_BAND / 2 - size * 0.35, text, fonts.BOLD, size, align="centre")
        canvas.restoreState()


# -- (1) the village board --------------------------------------------------------------------
class _DykeSpace(common.Strip):
    """A space of the dyke track: its number, big, and a small tag under it ("start", "now")."""

    def __init__(self, dyke: int, tag: str) -> None:
        super().__init__(DYKE_SPACE)
        self.dyke = dyke
        self.tag = tag

    def draw(self) -> None:
        canvas = self.canv
        canvas.setFillColor(common.INK)
        fonts.draw_string(canvas, self.width / 2, DYKE_TAG + 2.6 * mm, str(self.dyke), fonts.BOLD, DYKE_NUMBER, align="centre")
        if self.tag:
            tag, size = fonts.fit(self.tag, fonts.BOLD, DYKE_TAG, self.width)
            fonts.draw_string(canvas, self.width / 2, 0.6 * mm, tag, fonts.BOLD, size, align="centre")


def _dyke_table(village: _Village, width: float) -> Flowable:
    """Dyke 1-6 as big spaces, with the flood odds and the final divisor under each."""
    dykes = range(DYKE_MIN, DYKE_MAX + 1)
    state = village.state
    column = (width - DYKE_LABEL_COLUMN) / len(dykes)

    def number(dyke: int) -> _DykeSpace:
        notes = []
        if dyke == village.dyke_start:
            # TRANSLATORS: a tag under a dyke space on the board: where the dyke starts.
            notes.append(_("start"))
        if state is not None and dyke == state.dyke:
            notes.append(_("now") if not state.over else _("at the end"))
        return _DykeSpace(dyke, " · ".join(notes))

    header: Sequence[common.Cell] = [_p(markup(_("Dyke Condition")), "cell-head-left")] + [number(d) for d in dykes]
    rows: list[Sequence[common.Cell]] = [
        [_p(markup(_("Floods on a roll of")))] + [_p(markup(_faces(range(d + 1, 7)) if d < 6 else _("never")), "cell-centre") for d in dykes],
        [_p(markup(_("Chance of a flood")))] + [_p(markup(_chance(flood_odds(d))), "cell-centre") for d in dykes],
        [_p(markup(_("A 6 drops it again")))] + [_p(markup(_chance(1 / 6)), "cell-centre") for d in dykes],
        [_p(common.rich(_("<b>Final scoring:</b> 1 VP per … Wealth")))] + [_p(f"<b>{final_divisor(d)}</b>", "cell-number") for d in dykes],
    ]
    table = common.ruled_table(header, rows, [DYKE_LABEL_COLUMN] + [column] * len(dykes), row_height=SCHEDULE_ROW)
    commands: list[tuple[object, ...]] = [("BACKGROUND", (i + 1, 0), (i + 1, 0), colors.HexColor(DYKE_FILLS[i])) for i in range(len(dykes))]
    marked = {village.dyke_start} | ({state.dyke} if state is not None else set())
    commands += [("BOX", (d, 0), (d, -1), STRONG_LINE, common.INK) for d in sorted(marked)]
    table.setStyle(commands)
    return table


def _pledge_scale(village: _Village) -> list[Flowable]:
    """The pledge total's three zones for this many households, in words and as a scale."""
    n = village.n
    low, high = thresholds(n)
    words = common.rich(_(
        "With {n} households: <b>fewer than {low}</b> units pledged lowers the dyke by 1, {low} to {high} hold it, <b>more than {high}</b> raise it by 1.",
        n=n, low=low, high=high,
    ))
    # One box per total near the thresholds; the far ends share a box each ("0–13", "22+"),
    # since every total there moves the dyke alike. A big village keeps readable boxes.
    spaces: list[_Space] = []
    first = max(0, low - SCALE_FALLING)
    if first > 0:
        spaces.append(_Space(f"0–{first}", fill=ZONE_FILLS["falls"]))
    spaces += [_Space(str(t), fill=ZONE_FILLS["falls"]) for t in range(first + (first > 0), low)]
    falling = len(spaces)
    spaces += [_Space(str(t), fill=ZONE_FILLS["holds"]) for t in range(low, high + 1)]
    spaces.append(_Space(f"{high + 1}+", fill=ZONE_FILLS["rises"]))
    zones = [
        _Zone(0, falling - 1, _("dyke {change}", change=MINUS + "1"), ZONE_FILLS["falls"]),
        _Zone(falling, len(spaces) - 2, _("dyke holds"), ZONE_FILLS["holds"]),
        _Zone(len(spaces) - 1, len(spaces) - 1, _("dyke {change}", change="+1"), ZONE_FILLS["rises"]),
    ]
    track = _Track(spaces, box_height=SCALE_BOX, per_row=len(spaces), max_box=SCALE_MAX_WIDTH, zones=zones)
    return [_p(words, "body"), track]


def _year_track(village: _Village) -> list[Flowable]:
    """Years 1..Y; the years that end with the end roll are shaded; played years marked."""
    state = village.state
    done = {y.year: y for y in state.years} if state is not None else {}
    spaces = []
    for year in range(1, village.years + 1):
        notes = []
        # TRANSLATORS: short tags under a year on the board's year track.
        if year in done:
            notes.append(_("flood") if done[year].flooded else _("dry"))
        elif year >= village.end_check_from:
            notes.append(_("end roll"))
        if village.max_years == year:
            notes.append(_("last"))
        current = state is not None and not state.over and year == state.year
        if current:
            notes = [_("now")]
        fill = END_FILL if year >= village.end_check_from else None
        spaces.append(_Space(str(year), " · ".join(notes), fill, strong=current))
    if village.max_years is None and (state is None or not state.over):
        spaces.append(_Space("…", _("and on")))
    track = _Track(spaces, box_height=YEAR_BOX, per_row=YEARS_PER_ROW, max_box=YEAR_BOX * 1.3)
    return [_p(markup(_end_rule(village)), "body"), track]


def _end_rule(village: _Village) -> str:
    """When the game ends, in one sentence: the end roll, the year limit, or both."""
    if village.max_years is not None and village.max_years < village.end_check_from:
        return _("The game ends after year {year} (the year limit), before any end roll.", year=village.max_years)
    rule = _("From year {year} on, roll a d6 at the end of each year: {faces} ends the game.", year=village.end_check_from, faces=_faces(village.end_on))
    if village.max_years is not None:
        rule += " " + _("It ends after year {year} at the latest (the year limit).", year=village.max_years)
    return rule


def _misfortune_table(village: _Village, width: float) -> Flowable:
    """Capacity lost and left on each face of the misfortune d6."""
    faces = range(1, 7)
    column = (width - SCHEDULE_LABEL_COLUMN) / 6
    header: Sequence[common.Cell] = [_p(markup(_("Misfortune d6")), "cell-head-left")] + [_p(str(f), "cell-head") for f in faces]
    lost = [_p(f"{MINUS}{m}" if m else markup(_("none")), "cell-centre") for m in village.misfortune]
    left = [_p(f"<b>{village.capacity - m}</b>", "cell-centre") for m in village.misfortune]
    rows: list[Sequence[common.Cell]] = [[_p(markup(_("Capacity lost"))), *lost], [_p(markup(_("Capacity this year"))), *left]]
    return common.ruled_table(header, rows, [SCHEDULE_LABEL_COLUMN] + [column] * 6, row_height=SCHEDULE_ROW)


def _allocation_table(village: _Village, width: float) -> Flowable:
    """Per recipient and year: VP for Subsistence and Leisure, Wealth for Profit, by units."""
    units = range(village.capacity + 1)
    column = (width - SCHEDULE_LABEL_COLUMN) / len(units)
    header: Sequence[common.Cell] = [_p(markup(_("Units received")), "cell-head-left")] + [_p(str(u), "cell-head") for u in units]
    marginal = [profit_wealth(u) - profit_wealth(u - 1) if u else 0 for u in units]
    rows: list[Sequence[common.Cell]] = [
        [_p(common.rich(_("<b>Subsistence</b> VP")))] + [_p(_signed(subsistence_vp(u)), "cell-centre") for u in units],
        [_p(common.rich(_("<b>Leisure</b> VP (up to 2)")))] + [_p(_signed(leisure_vp(u)), "cell-centre") for u in units],
        [_p(common.rich(_("<b>Profit</b>: this unit adds")))] + [_p(str(m) if u else "–", "cell-centre") for u, m in zip(units, marginal)],
        [_p(common.rich(_("<b>Profit</b> Wealth in all")))] + [_p(f"<b>{profit_wealth(u)}</b>", "cell-centre") for u in units],
    ]
    return common.ruled_table(header, rows, [SCHEDULE_LABEL_COLUMN] + [column] * len(units), row_height=SCHEDULE_ROW)


def _board(village: _Village, width: float) -> list[Flowable]:
    """The facilitator's board: dyke track, pledge scale, year track, schedules, the year."""
    state = village.state
    story: list[Flowable] = [common.Section(CARD.title, _("Village board")), _p(markup(_("Leerdam — village board")), "title")]
    if state is None:
        intro = _(
            "{n} households, {units} units of labour each a year. Markers on dyke {dyke} and year 1.",
            n=village.n, units=village.capacity, dyke=village.dyke_start,
        )
    elif state.over:
        intro = _("The game ended after year {year} with the dyke at {dyke}.", year=state.year, dyke=state.dyke)
    else:
        intro = _("Year {year} in progress; the dyke stands at {dyke}.", year=state.year, dyke=state.dyke)
    story.append(_p(markup(intro), "subtitle"))
    story += [common.heading(_("Dyke track (never below {low} or above {high})", low=DYKE_MIN, high=DYKE_MAX), 2), _dyke_table(village, width)]
    story += [common.heading(_("Pledges to the dyke"), 2), *_pledge_scale(village)]
    story += [common.heading(_("Years"), 2), *_year_track(village)]
    story.append(common.heading(_("Misfortune"), 2))
    if village.misfortune_by_hand:
        story.append(_p(markup(_("Variant: the facilitator sets each household's losses by hand instead of rolling.")), "small"))
    story.append(_misfortune_table(village, width))
    story += [common.heading(_("Allocation (per household receiving, per year)"), 2), _allocation_table(village, width)]
    steps = common.two_columns(_year_steps(village), BOARD_GUTTER)
    story.append(KeepTogether([common.heading(_("A year"), 2), *steps]))
    return story


def _year_steps(village: _Village) -> list[Flowable]:
    """The order of a year, in the project's reading of the text (RULINGS.md)."""
    pledges = _("only the total is announced (anonymous pledges)") if village.anonymous else _("all are revealed together")
    flooded = _("is Flooded for good (variant)") if village.sticky_flood else _("is Flooded until a dry year")
    misfortune = _("the facilitator sets each loss") if village.misfortune_by_hand else _("each household rolls a d6")
    steps = [
        _("<b>Misfortune</b>: {how}; capacity = {units} {minus} the loss.", how=misfortune, units=village.capacity, minus=MINUS),
        _("<b>Pledges</b>: in secret, 0 up to your capacity, on a slip; {how}. The total moves the dyke.", how=pledges),
        _(
            "<b>Deals and allocation</b>: hire labour with a signed labour contract (Wealth for units, both sign); "
            "put each free unit on any household's Subsistence, Leisure or Profit. Wealth may be given at any time; VP never."
        ),
        _(
            "<b>Flood</b>: roll a d6. If it beats the dyke, the village floods: each household loses a third of its "
            "Wealth (rounded up) and {flooded}, and the dyke drops by 1. A 6 then drops it by 1 more, even at Dyke {top}.",
            flooded=flooded, top=DYKE_MAX,
        ),
        _("<b>Annual VP</b>: 1 VP per {wealth} Wealth held.", wealth=WEALTH_PER_VP),
        _(
            "<b>End</b>: {rule} Final scoring: 1 VP per (26 {minus} 3 × Dyke) Wealth, {minus}{penalty} VP if Flooded. Most VP wins; ties share.",
            rule=_end_rule(village), minus=MINUS, penalty=FLOOD_PENALTY,
        ),
    ]
    step = _derived("step", "bullet", fontSize=8.5, leading=10.5, spaceAfter=2.5, **({} if common.rtl() else {"leftIndent": 11}))
    return common.numbered([(f"{i}.", common.rich(text)) for i, text in enumerate(steps, 1)], step)


# -- the rules card ---------------------------------------------------------------------------
def rules_card(village: _Village, width: float) -> list[Flowable]:
    """The game on one page for the households, in the project's reading (RULINGS.md)."""
    low, high = thresholds(village.n)

    subtitle = _(
        "A village behind a dyke, for 5-10 households ({n} here). Each year you pledge labour to the dyke "
        "in secret, then work for your own Wealth and VP. Keep the dyke up, or the flood takes a third of everyone's Wealth.",
        n=village.n,
    )
    story: list[Flowable] = [
        *common.card_top(CARD.title, markup(subtitle)),
        common.heading(_("Setup"), 2),
        *common.bullets(
            markup(_("Dyke at {dyke} (of {low}-{high}). Every household: 0 Wealth, 0 VP, not Flooded.", dyke=village.dyke_start, low=DYKE_MIN, high=DYKE_MAX)),
            markup(_("Each household has {units} units of labour a year, less its misfortune.", units=village.capacity)),
        ),
        common.heading(_("A year"), 2),
        *_year_steps(village),
        common.heading(_("The dyke"), 2),
        *common.bullets(
            markup(_("With {n} households a pledge total under {low} lowers the dyke by 1; over {high} raises it by 1.", n=village.n, low=low, high=high)),
            markup(_("Flood roll above the dyke: everyone is Flooded and loses a third of their Wealth (rounded up).")),
        ),
        common.heading(_("Winning"), 2),
        *common.bullets(
            markup(_("Final VP: Wealth ÷ (26 {minus} 3 × Dyke), rounded down; {minus}{penalty} if Flooded. Most VP wins; ties share.", minus=MINUS, penalty=FLOOD_PENALTY)),
            markup(_("Only the labour contract binds: both sign, then Wealth and units change hands at once.")),
        ),
    ]
    return story


# -- (2) the household ledger -----------------------------------------------------------------
# TRANSLATORS: the column heads of a household's ledger (printed small: keep them short).
LEDGER_HEADS = (
    say("Year"),
    say("Units lost"),
    say("Capacity"),
    say("Pledged to the dyke"),
    say("Subsistence units received"),
    say("Leisure units received"),
    say("Profit units received"),
    say("VP from labour"),
    say("Wealth from Profit"),
    say("Flood loss"),
    say("Flooded?"),
    say("VP a year"),
    say("Wealth held"),
    say("VP total"),
)


def _stage(state: State, year: int) -> str:
    """How far `year` got: 'closed' (flood and annual VP done), or the current phase."""
    if year < state.year or state.phase in ("end", "over"):
        return "closed"
    return state.phase


def _contributions(state: State, viewer: int | None) -> dict[tuple[int, int], int | None]:
    """(year, seat) -> the pledge `viewer` may see, None where hidden or not yet revealed."""
    seat_of = {name: seat for seat, name in enumerate(state.names)}
    return {(data["year"], seat_of[data["household"]]): data["contribution"] for data in ledger_rows(state, viewer)}


def _ledger_cells(village: _Village, row: LedgerRow | None, year: int, pledge: int | None) -> Sequence[common.Cell]:
    """One year's ledger row: filled as far as the year has got, or ready to write in."""
    end_roll = year >= village.end_check_from
    # The tag is set small, a word a line: a narrow column keeps its figures big.
    tag = "<br/>".join(markup(word) for word in _head_words(_("end roll")))
    year_cell = _p(f"{year}" + (f'<br/><font size="{END_ROLL_TAG}">{tag}</font>' if end_roll else ""), "cell-number")
    if row is None:
        return [year_cell] + [None] * 9 + [_p("☐", "cell-number")] + [None] * 3
    state = village.state
    assert state is not None
    stage = _stage(state, year)
    allocated = stage in ("flood", "closed")
    closed = stage == "closed"

    def num(value: int | str, shown: bool = True) -> common.Cell:
        return _p(markup(str(value)), "cell-number") if shown else None

    def bold(value: int) -> common.Cell:
        return _p(f"<b>{value}</b>", "cell-number") if closed else None

    return [
        year_cell,
        num(f"{MINUS}{row.misfortune}" if row.misfortune else "0"),
        num(row.capacity),
        num("" if pledge is None else pledge),
        num(row.subsistence, allocated),
        num(row.leisure, allocated),
        num(row.profit, allocated),
        num(_signed(row.vp_allocation), allocated),
        num(f"+{row.wealth_profit}" if row.wealth_profit else "0", allocated),
        num(f"{MINUS}{row.wealth_lost}" if row.wealth_lost else "0", closed),
        num(_yes_no(row.flooded)) if closed else _p("☐", "cell-number"),
        num(_signed(row.vp_annual), closed),
        num(row.wealth, closed),
        # The final VP has its own line under the table, so the year's total leaves it out.
        bold(row.vp - row.vp_final),
    ]


def _yes_no(flag: bool) -> str:
    # TRANSLATORS: an answer in a "Flooded?" cell.
    return _("yes") if flag else _("no")


def _ledger_status(village: _Village, seat: int) -> str:
    """The line under a filled ledger's name: standing, Wealth, Flooded."""
    state = village.state
    assert state is not None
    household = state.households[seat]
    rank = next(r for r, s, _vp in standings(state) if s == seat)
    when = _("final") if state.over else _("as of year {year}", year=state.year)
    flooded = _("Flooded") if household.flooded else _("not Flooded")
    return markup(
        _(
            "Seat {seat} · {vp} VP · {wealth} Wealth · {flooded} · rank {rank} ({when})",
            seat=seat + 1, vp=household.vp, wealth=household.wealth, flooded=flooded, rank=rank, when=when,
        )
    )


def _final_box(village: _Village, seat: int, width: float) -> Flowable:
    """End-of-game scoring for one household: Wealth ÷ (26 − 3 × Dyke), −2 if Flooded."""
    heads = (
        _("Wealth at the end"),
        _("Dyke at the end"),
        _("Wealth per VP (26 {minus} 3 × Dyke)", minus=MINUS),
        _("Flooded? ({minus}{penalty}\u00a0VP)", minus=MINUS, penalty=FLOOD_PENALTY),
        _("Final VP"),
        _("VP before"),
        _("Total VP"),
    )
    widths = common.columns_of(width, (1,) * len(heads))
    header = _headers(heads, widths)
    state = village.state
    cells: Sequence[common.Cell] = [None] * len(heads)
    if state is not None and state.over:
        last = next(r for r in reversed(state.ledger) if r.seat == seat)
        household = state.households[seat]
        values = (
            household.wealth,
            state.dyke,
            final_divisor(state.dyke),
            _yes_no(household.flooded),
            _signed(last.vp_final),
            household.vp - last.vp_final,
        )
        cells = [_p(markup(str(v)), "cell-number") for v in values] + [_p(f"<b>{household.vp}</b>", "cell-number")]
    return common.ruled_table(header, [cells], widths, row_height=FINAL_ROW)


def _ledger(village: _Village, seat: int, width: float) -> list[Flowable]:
    """One household's page: a row per year, then the final scoring."""
    name = village.names[seat]
    state = village.state
    story: list[Flowable] = [common.Section(CARD.title, _("Household ledger · {name}", name=village.label(seat)))]
    story.append(_p(markup(_("Household ledger — {name}", name=name or "________________")), "title"))
    if state is not None:
        story.append(_p(_ledger_status(village, seat), "subtitle"))
    else:
        story.append(
            _p(
                markup(
                    _(
                        "Seat {seat}. One row per year. Capacity = {units} {minus} misfortune. "
                        "“Received” counts every unit any household put on your activities, hired labour included. "
                        "The end roll starts after year {year}.",
                        seat=seat + 1, units=village.capacity, minus=MINUS, year=village.end_check_from,
                    )
                ),
                "subtitle",
            )
        )
    if village.anonymous:
        story.append(_p(markup(_("Anonymous pledges: only the village's total is announced until the game ends. Keep this page to yourself.")), "small"))
    heads = [i18n.render(head) for head in LEDGER_HEADS]
    widths = _header_widths(heads, width, LEDGER_MIN_COLUMN)
    header = _headers(heads, widths)
    rows_by_year: dict[int, LedgerRow] = {}
    pledges: dict[tuple[int, int], int | None] = {}
    if state is not None:
        rows_by_year = {r.year: r for r in state.ledger if r.seat == seat}
        # The page is this household's own: it sees its own pledges, never others'.
        pledges = _contributions(state, seat)
    rows = [
        _ledger_cells(village, rows_by_year.get(year), year, pledges.get((year, seat)))
        for year in range(1, village.years + 1)
    ]
    table = common.ruled_table(header, rows, widths, row_height=LEDGER_ROW, zebra=True)
    shaded = [("BACKGROUND", (0, y), (0, y), colors.HexColor(END_FILL)) for y in range(village.end_check_from, village.years + 1)]
    if shaded:
        table.setStyle(shaded)
    story.append(table)
    notes = [_("Annual VP: 1 per {wealth} Wealth held after the flood.", wealth=WEALTH_PER_VP)]
    if village.end_check_from <= village.years:
        notes.insert(0, _("Shaded years end with the end roll ({faces} on a d6 ends the game).", faces=_faces(village.end_on)))
    if village.max_years is not None:
        notes.append(_("The game ends after year {year} at the latest.", year=village.max_years))
    story.append(_p(markup(" ".join(notes)), "small"))
    story.append(common.spacer(3 * mm))
    story.append(KeepTogether([common.heading(_("End of the game"), 2), _final_box(village, seat, width)]))
    return story


# -- (3) the village record -------------------------------------------------------------------
RECORD_HEADS = (
    say("Year"),
    say("Dyke at the start"),
    say("Pledge total"),
    say("Dyke after pledges"),
    say("Flood roll"),
    say("Flooded?"),
    say("Dyke at the end"),
    say("End roll"),
)


def _end_roll(village: _Village, year: int) -> str:
    """The end-roll cell: '–' before the first check, else what came of it (blank if unknown)."""
    state = village.state
    if year < village.end_check_from:
        return "–"
    if state is None or year not in {y.year for y in state.years}:
        return ""
    if state.over and year == state.year:
        limited = village.max_years is not None and year >= village.max_years
        # TRANSLATORS: what came of a year's end roll, in the village record's last column.
        return _("year limit") if limited else _("ends")
    return _("goes on") if year < state.year else ""


def _record_rows(village: _Village) -> list[Sequence[common.Cell]]:
    """A row per year: finished years from `state.years`, the current one so far, blanks after."""
    state = village.state
    summaries = {y.year: y for y in state.years} if state is not None else {}

    def cell(value: object) -> common.Cell:
        return _p(markup(str(value)), "cell-number")

    rows: list[Sequence[common.Cell]] = []
    for year in range(1, village.years + 1):
        middle: list[common.Cell] = [None] * 6
        if year in summaries:
            y = summaries[year]
            values = (y.dyke_before, y.total, y.dyke_after_pledges, y.flood, _yes_no(y.flooded), y.dyke_after)
            middle = [cell(v) for v in values]
        elif state is not None and year == state.year and not state.over:
            # The current year so far: the total and the new dyke once the pledges are revealed.
            middle[0] = cell(state.dyke_before)
            if state.total is not None:
                middle[1], middle[2] = cell(state.total), cell(state.dyke)
        roll = _end_roll(village, year)
        rows.append([cell(year), *middle, cell(roll) if roll else None])
    return rows


def _pledge_grid(village: _Village, width: float) -> list[Flowable]:
    """Every household's revealed pledge per year (all public once revealed)."""
    state = village.state
    assert state is not None
    seen = _contributions(state, None)
    raw = {(r.year, r.seat): r.contribution for r in state.ledger}
    years = list(range(1, state.year + 1))
    story: list[Flowable] = [common.heading(_("Pledges by household"), 2)]
    for first in range(0, len(years), PLEDGE_GRID_YEARS):
        chunk = years[first : first + PLEDGE_GRID_YEARS]
        column = (width - PLEDGE_GRID_NAME) / PLEDGE_GRID_YEARS
        header: Sequence[common.Cell] = [_p(markup(_("Household")), "cell-head-left")] + [_p(markup(_("Year {year}", year=y)), "cell-head") for y in chunk]
        rows: list[Sequence[common.Cell]] = []
        for seat in range(village.n):
            cells: list[common.Cell] = [_p(markup(village.label(seat)))]
            for year in chunk:
                value = seen.get((year, seat))
                if value is not None:
                    cells.append(_p(str(value), "cell-centre"))
                elif raw.get((year, seat)) is not None:
                    cells.append(_p("–", "cell-centre"))  # revealed, but only as part of the total
                else:
                    cells.append(None)  # not revealed yet
            rows.append(cells)
        totals = {y.year: y.total for y in state.years}
        if state.total is not None:
            totals.setdefault(state.year, state.total)
        total = markup(_("Total"))
        rows.append([_p(f"<b>{total}</b>")] + [_p(f"<b>{totals[y]}</b>" if y in totals else "", "cell-centre") for y in chunk])
        story.append(common.ruled_table(header, rows, [PLEDGE_GRID_NAME] + [column] * len(chunk), row_height=PLEDGE_GRID_ROW, zebra=True))
        story.append(common.spacer(2 * mm))
    return story


def _standings_table(village: _Village, width: float) -> Flowable:
    """Rank, household, Wealth, Flooded, final VP and total: filled from a state, else blank."""
    heads = (_("Rank"), _("Household"), _("Wealth"), _("Flooded?"), _("Dyke at the end"), _("Final VP"), _("Total VP"))
    widths = common.columns_of(width, STANDINGS_WEIGHTS)
    header = _headers(heads, widths)
    state = village.state
    rows: list[Sequence[common.Cell]] = []
    if state is None:
        for seat in range(village.n):
            rows.append([None, _p(markup(village.names[seat]), "cell-big")] + [None] * 5)
        return common.ruled_table(header, rows, widths, row_height=STANDINGS_ROW)
    if public_pledges_hidden(state) and not state.over:
        # Anonymous pledges: a household's VP or Wealth would give its pledges away.
        for seat in range(village.n):
            rows.append([None, _p(markup(village.label(seat)), "cell-big")] + [None] * 5)
        return common.ruled_table(header, rows, widths, row_height=STANDINGS_ROW)
    table = standings(state)
    shared = {rank for rank, _seat, _vp in table if sum(1 for r, _seat2, _vp2 in table if r == rank) > 1}
    finals = {r.seat: r.vp_final for r in state.ledger if r.year == state.year} if state.over else {}
    for rank, seat, vp in table:
        household = state.households[seat]
        rows.append(
            [
                _p(f"{rank}{'=' if rank in shared else ''}", "cell-number"),
                _p(markup(village.label(seat)), "cell-big"),
                _p(str(household.wealth), "cell-number"),
                _p(markup(_yes_no(household.flooded)), "cell-number"),
                _p(str(state.dyke) if state.over else "", "cell-number"),
                _p(_signed(finals[seat]) if seat in finals else "", "cell-number"),
                _p(f"<b>{vp}</b>", "cell-number"),
            ]
        )
    return common.ruled_table(header, rows, widths, row_height=STANDINGS_ROW)


def _record(village: _Village, width: float) -> list[Flowable]:
    """The facilitator's sheet: the village year by year, pledges, and the final standings."""
    state = village.state
    story: list[Flowable] = [common.Section(CARD.title, _("Village record")), _p(markup(_("Village record")), "title")]
    if state is None:
        intro = _("The facilitator's sheet: one row per year for the dyke, the pledge total and the flood, then the final scoring.")
    elif state.over:
        intro = _("The game ended: {how}.", how=i18n.render(state.ending or state.ended))
    elif public_pledges_hidden(state):
        intro = _(
            "Game in progress, year {year}. Anonymous pledges: each household's numbers stay on its own ledger page until the game ends.",
            year=state.year,
        )
    else:
        intro = _("Game in progress, year {year}: the standings if the game ended now (before final scoring).", year=state.year)
    story.append(_p(markup(intro), "subtitle"))
    widths = common.columns_of(width, RECORD_WEIGHTS)
    header = _headers([i18n.render(head) for head in RECORD_HEADS], widths)
    story.append(common.ruled_table(header, _record_rows(village), widths, row_height=RECORD_ROW, zebra=True))
    story.append(common.spacer(3 * mm))
    if state is not None and state.years:
        story += _pledge_grid(village, width)
    title = _("Final standings") if state is None or state.over else _("Standings so far")
    block: list[Flowable] = [common.heading(title, 2), _standings_table(village, width)]
    block.append(
        _p(
            markup(
                _(
                    "Final VP = Wealth ÷ (26 {minus} 3 × Dyke at the end), rounded down, {minus}{penalty} if Flooded "
                    "(see the dyke track). Most VP wins; equal VP share a rank (2= and so on).",
                    minus=MINUS, penalty=FLOOD_PENALTY,
                )
            ),
            "small",
        )
    )
    if state is not None and state.over:
        best = [s for r, s, _vp in standings(state) if r == 1]
        names = markup(fonts.name_list([village.label(s) for s in best], last=" and ")) if i18n.current() == i18n.SOURCE else markup(common.names_text(village.label(s) for s in best))
        # The names are escaped markup already: the sentence puts them in as they are.
        # The sentence is made markup with a stand-in for the names, which are user text.
        won = common.rich(_n("{names} <b>wins</b>.", "{names} <b>share the win</b>.", len(best), names="{names}")).replace("{names}", names)
        block += [common.spacer(1 * mm), _p(won, "body")]
    # The table, its note and the winner stay on one page: a lone "X wins." page helps nobody.
    story.append(KeepTogether(block))
    return story


# -- (4) the village chronicle ----------------------------------------------------------------
def _chronicle(village: _Village) -> list[Flowable]:
    """The public log, year by year, in two balanced columns."""
    state = village.state
    assert state is not None
    line = _derived("chronicle", "body", fontSize=CHRONICLE_SIZE, leading=CHRONICLE_SIZE * 1.25, spaceAfter=1.5, leftIndent=6, firstLineIndent=-6)
    # A year's first line ("Year 3 begins ...") is set in bold as its heading: a separate
    # heading could be stranded at the foot of a column, which BalancedColumns allows.
    first = _derived("chronicle-first", line, fontName=fonts.BOLD, spaceBefore=5)
    blocks: list[Flowable] = []
    year = None
    for event in state.log:
        if not event.visible(None):
            continue  # private lines (a household's own pledge, offers) stay out
        blocks.append(_p(markup(i18n.render(event.text)), first if event.round != year else line))
        year = event.round
    return [
        common.Section(CARD.title, _("Village chronicle")),
        _p(markup(_("Village chronicle")), "title"),
        _p(markup(_("What the whole village saw, year by year. Private offers and each household's own pledge are left out.")), "subtitle"),
        *common.two_columns(blocks, CHRONICLE_GUTTER, long=True),
    ]


# -- (5) slips ------------------------------------------------------------------------------------
def _write_line(canvas: Canvas, x0: float, x1: float, y: float) -> None:
    common.write_line(canvas, x0, x1, y, WRITE_LINE)


def _labelled_line(canvas: Canvas, x: float, right: float, y: float, label: str, value: str = "", size: float = SLIP_TEXT) -> None:
    """'label ______' with `value` written on the line when known."""
    canvas.setFillColor(common.INK)
    used = fonts.draw_string(canvas, x, y, label, fonts.BODY, size)
    start = x + used + 1.5 * mm
    _write_line(canvas, start, right, y - 1.2)
    if value:
        text, fitted = fonts.fit(value, fonts.BOLD, size + 1, right - start - 1)
        fonts.draw_string(canvas, start + 1, y + 0.5, text, fonts.BOLD, fitted)


@dataclass(frozen=True)
class _PledgeSlip:
    seat: int
    year: int
    capacity: int | None  # known only for the current year once misfortune is in


def _pledge_slips(village: _Village) -> list[_PledgeSlip]:
    """A slip per household per year still to pledge, household by household."""
    state = village.state
    if state is None:
        first = 1
    elif state.over:
        return []
    else:
        first = state.year if state.phase in ("misfortune", "contribute") else state.year + 1
    last = village.max_years if village.max_years is not None else max(village.planned_years, first)
    slips = []
    for seat in range(village.n):
        for year in range(first, last + 1):
            # This year's capacity is public once misfortune is in; later years are written in.
            known = state is not None and state.phase == "contribute" and year == state.year
            slips.append(_PledgeSlip(seat, year, state.capacity(seat) if state is not None and known else None))
    return slips


def _draw_pledge_slip(canvas: Canvas, village: _Village, slip: _PledgeSlip, width: float, height: float) -> None:
    """Household, year, capacity and 'units pledged', folded and handed in unseen."""
    left, right, top = SLIP_PAD, width - SLIP_PAD, height - SLIP_PAD
    title_y = top - SLIP_TITLE
    canvas.setFillColor(common.MUTED)
    fonts.draw_string(canvas, left, title_y, _("LEERDAM · SECRET PLEDGE"), fonts.BOLD, SLIP_TITLE)
    note_top = SLIP_PAD + SLIP_SMALL
    # Three lines (name and year, capacity, pledge) share the room between title and footnote.
    step = (title_y - note_top - 3.5 * mm) / 3
    name_y, capacity_y, pledge_y = (title_y - step * (i + 1) for i in range(3))
    canvas.setFillColor(common.INK)
    year = _("Year {year}", year=slip.year)
    name = village.names[slip.seat]
    room = right - left - fonts.string_width(year, fonts.BOLD, SLIP_NAME) - 2 * mm
    if name:
        text, size = fonts.fit(name, fonts.BOLD, SLIP_NAME, room)
        fonts.draw_string(canvas, left, name_y, text, fonts.BOLD, size)
    else:
        _labelled_line(canvas, left, left + room, name_y, _("Household"))
    canvas.setFillColor(common.INK)
    fonts.draw_string(canvas, right, name_y, year, fonts.BOLD, SLIP_NAME, align="right")
    capacity = "" if slip.capacity is None else str(slip.capacity)
    _labelled_line(canvas, left, left + (right - left) * 0.6, capacity_y, _("Capacity"), capacity)
    _labelled_line(canvas, left, right, pledge_y, _("Units pledged:"), size=SLIP_TEXT + 1.5)
    canvas.setFillColor(common.MUTED)
    text, size = fonts.fit(_("Pledge 0 up to capacity · fold it"), fonts.BODY, SLIP_SMALL, right - left)
    fonts.draw_string(canvas, left, SLIP_PAD - 0.5, text, fonts.BODY, size)


def _draw_contract(canvas: Canvas, index: int, width: float, height: float) -> None:
    """A labour contract: buyer pays Wealth, seller works units on the buyer's activity; both sign."""
    left, right, top = SLIP_PAD + 1 * mm, width - SLIP_PAD - 1 * mm, height - SLIP_PAD
    middle = left + (right - left) / 2
    canvas.setFillColor(common.MUTED)
    fonts.draw_string(canvas, left, top - SLIP_TITLE, _("LEERDAM · LABOUR CONTRACT"), fonts.BOLD, SLIP_TITLE)
    _labelled_line(canvas, right - 24 * mm, right, top - SLIP_TITLE, _("Year"), size=SLIP_TEXT)
    # Seven lines share the height between the title and the footnote.
    bottom = SLIP_PAD + 2 * SLIP_SMALL + 2 * mm
    step = (top - SLIP_TITLE - bottom) / 7
    y = top - SLIP_TITLE - step
    _labelled_line(canvas, left, right, y, _("Buyer (pays Wealth):"))
    y -= step
    _labelled_line(canvas, left, right, y, _("Seller (works):"))
    y -= step
    _labelled_line(canvas, left, middle - 2 * mm, y, _("Wealth paid:"))
    _labelled_line(canvas, middle + 1 * mm, right, y, _("Units of labour:"))
    y -= step
    canvas.setFillColor(common.INK)
    used = fonts.draw_string(canvas, left, y, _("On the buyer's"), fonts.BODY, SLIP_TEXT)
    # TRANSLATORS: three boxes to tick on a labour contract, the buyer's three activities.
    boxes, size = fonts.fit(_("☐ Subsistence  ☐ Leisure  ☐ Profit"), fonts.BODY, SLIP_TEXT, right - left - used - 2 * mm)
    fonts.draw_string(canvas, left + used + 2 * mm, y, boxes, fonts.BODY, size)
    y -= step * 1.3
    _labelled_line(canvas, left, right, y, _("Buyer's signature:"))
    y -= step * 1.3
    _labelled_line(canvas, left, right, y, _("Seller's signature:"))
    canvas.setFillColor(common.MUTED)
    for i, note in enumerate(CONTRACT_NOTES):
        text, size = fonts.fit(i18n.render(note), fonts.BODY, SLIP_SMALL, right - left)
        fonts.draw_string(canvas, left, SLIP_PAD + (len(CONTRACT_NOTES) - 1 - i) * (SLIP_SMALL + 1), text, fonts.BODY, size)


def _slips(village: _Village) -> list[Flowable]:
    """Pledge slips (a household's years together) and a sheet or more of labour contracts."""
    story: list[Flowable] = []
    pledges = _pledge_slips(village)
    if pledges:
        columns, rows = PLEDGE_SLIP_GRID
        story.append(common.Section(CARD.title, _("Contribution slips")))
        story += common.slip_pages(
            len(pledges),
            lambda canvas, i, w, h: _draw_pledge_slip(canvas, village, pledges[i], w, h),
            columns=columns,
            rows=rows,
        )
    columns, rows = CONTRACT_SLIP_GRID
    per_page = columns * rows
    if story:
        story.append(PageBreak())
    story.append(common.Section(CARD.title, _("Labour contracts")))
    # A full sheet per eight households or part of it: deals are few, and blank ones waste nothing.
    story += common.slip_pages(per_page * math.ceil(village.n / per_page), _draw_contract, columns=columns, rows=rows)
    return story


# -- the document (printables.document) ----------------------------------------------------------
def sheets(village: _Village, page: str) -> list[Flowable]:
    """The village board, a ledger per household, the village record, the chronicle (from a
    state) and, until the game is over, the slips and the seat slips (with QR codes from
    `village.seat_links`); the rules card last."""
    width, _ = common.frame_size(page)
    story: list[Flowable] = _board(village, width) + [PageBreak()]
    for seat in range(village.n):
        story += _ledger(village, seat, width) + [PageBreak()]
    story += _record(village, width)
    if village.state is not None:
        story += [PageBreak()] + _chronicle(village)
    if village.state is None or not village.state.over:
        story += [PageBreak()] + _slips(village)
        story += [PageBreak()] + slips.seat_slips(village.seat_links, game_title=CARD.title, players=village.n, page=page)
    # New pages go last, so a page's place in a set stays what it was.
    story += [PageBreak()] + rules_card(village, width)
    return story



#: The game's booklet is its rules card.
booklet = rules_card


# -- the debrief handout (printables.debrief asks for these) ----------------------------------------
def _debrief_named(game: Game[Setup, State], reveal: bool, reveal_pledges: bool | None) -> tuple[bool, bool]:
    """(pledges by household, VP and Wealth by household) this handout may print: an anonymous
    variant names neither before the end, nor after it unless the facilitator chooses."""
    state = game.state
    public = pledges_public(game.setup)
    # As the exports have it (rules.leerdam.decisions): anonymous pledges are shown only after
    # the end, by the facilitator's choice (`reveal_pledges`, else the one made at the table).
    shown = public or (state.over and (pledges_shown(state) if reveal_pledges is None else bool(reveal_pledges)))
    return shown and reveal_pledges is not False, shown


def _ledger_by(state: State, field: str) -> list[list[int | None]]:
    """`field` of each household's ledger row, year by year (None before the year closed)."""
    years = len(state.years)
    grid: list[list[int | None]] = [[None] * years for _seat in range(state.n)]
    for row in state.ledger:
        if row.year <= years:
            value = getattr(row, field)
            grid[row.seat][row.year - 1] = value
    return grid


def debrief_lines(game: Game[Setup, State], reveal: bool = True, reveal_pledges: bool | None = None) -> list[str]:
    """The story of the village in five lines."""
    state = game.state
    years = state.years
    low, high = thresholds(state.n)
    if not years:
        return [_("{n} households; the first year is under way. The dyke stands at {dyke}.", n=state.n, dyke=state.dyke)]
    total = sum(y.total for y in years)
    floods = [y.year for y in years if y.flooded]
    if state.over:
        kept = _n(
            "{households} households kept the dyke for {n} year; the game ended: {how}.",
            "{households} households kept the dyke for {n} years; the game ended: {how}.",
            len(years), households=state.n, how=i18n.render(state.ending or state.ended),
        )
    else:
        kept = _n(
            "{households} households kept the dyke for {n} year; the game goes on.",
            "{households} households kept the dyke for {n} years; the game goes on.",
            len(years), households=state.n,
        )
    if floods:
        river = _n(
            "The dyke started at {start} and stands at {dyke}; the river flooded the village {n} time (year {years}).",
            "The dyke started at {start} and stands at {dyke}; the river flooded the village {n} times (year {years}).",
            len(floods), start=years[0].dyke_before, dyke=state.dyke, years=", ".join(map(str, floods)),
        )
    else:
        river = _("The dyke started at {start} and stands at {dyke}; the river never flooded the village.", start=years[0].dyke_before, dyke=state.dyke)
    lines = [
        kept,
        _(
            "The village pledged {total} units in all, {mean} a year; a year needs {low} to {high} to hold the dyke.",
            total=total, mean=i18n.number(round(total / len(years), 1)), low=low, high=high,
        ),
        river,
    ]
    named, _households = _debrief_named(game, reveal, reveal_pledges)
    if named:
        given = [sum(v or 0 for v in row) for row in _ledger_by(state, "contribution")]
        most, least = max(range(state.n), key=lambda s: given[s]), min(range(state.n), key=lambda s: given[s])
        # Numbers before names: a number after a right-to-left name would join its run.
        lines.append(
            _(
                "Most given to the dyke, {most} units, by {most_name}; least, {least}, by {least_name}.",
                most=given[most], most_name=state.names[most], least=given[least], least_name=state.names[least],
            )
        )
    else:
        best = max(years, key=lambda y: y.total)
        lines.append(_("The most pledged in one year was {total} units, in year {year}.", total=best.total, year=best.year))
    if _debrief_named(game, reveal, reveal_pledges)[1]:
        lines.append(common.leaders(game, lambda vp: _("with {vp} VP", vp=vp)))
    else:
        lines.append(_("The village holds {vp} VP in all; each household's stays its own.", vp=sum(h.vp for h in state.households)))
    return lines


def debrief_story(game: Game[Setup, State], *, label: str, width: float, reveal: bool, reveal_pledges: bool | None = None, stopped: str = "") -> list[Flowable]:
    """One village's debrief: the results, the story in five lines, the pledges against the
    thresholds, the dyke, and each household's VP and Wealth (and pledges, where allowed)."""
    state = game.state
    years = state.years
    named, households = _debrief_named(game, reveal, reveal_pledges)
    story: list[Flowable] = common.results_block(game, width, score=_("VP"), scores=households, stopped=stopped)
    story += common.story_block(debrief_lines(game, reveal, reveal_pledges))
    if not years:
        return story
    low, high = thresholds(state.n)
    x = [str(y.year) for y in years]
    top = max(max(y.total for y in years), high + 2)
    pledged = charts.Chart(
        _("Pledged in all, year by year, against the thresholds"),
        x,
        [charts.Series(_("units pledged"), tuple(y.total for y in years), charts.PALETTE[0])],
        kind="bar",
        y_min=0,
        y_max=top,
        bands=[
            charts.Band(0, low - 0.5, _("below {low}: the dyke falls", low=low), "#f6dcd6"),
            charts.Band(low - 0.5, high + 0.5, _("{low} to {high}: it holds", low=low, high=high), "#ececec"),
            charts.Band(high + 0.5, top, _("above {high}: it rises", high=high), "#dcefd8"),
        ],
        # TRANSLATORS: a chart's axis label: what is counted · along what.
        y_label=_("units · year"),
        notes=[_("flood") if y.flooded else "" for y in years],
    )
    dyke = charts.Chart(
        _("The dyke: after the pledges and at the year's end"),
        x,
        [
            charts.Series(_("after the pledges"), tuple(y.dyke_after_pledges for y in years), charts.PALETTE[2]),
            charts.Series(_("at the year's end (after the flood roll)"), tuple(y.dyke_after for y in years), charts.PALETTE[3], dashed=True),
        ],
        y_min=DYKE_MIN,
        y_max=DYKE_MAX,
        y_label=_("Dyke Condition · year"),
        # TRANSLATORS: under a year on a chart: what the flood roll showed.
        notes=[_("roll {face}", face=y.flood) for y in years],
    )
    story += [common.spacer(3 * mm), charts.keep(pledged), common.spacer(4 * mm), charts.keep(dyke)]
    if households:
        by_household = ((_("VP by household"), _("VP · year"), "vp"), (_("Wealth by household"), _("Wealth · year"), "wealth"))
        for title, axis, field in by_household:
            chart = charts.Chart(title, x, charts.series_of(state.names, _ledger_by(state, field)), y_label=axis)
            story += [common.spacer(4 * mm), charts.keep(chart)]
    else:
        story.append(common.para(_("Pledges were anonymous: no household's pledge, VP or Wealth by year is printed."), "small"))
    if named:
        grid = _ledger_by(state, "contribution")
        per_row = PLEDGE_GRID_YEARS
        for start in range(0, len(years), per_row):
            chunk = range(start, min(start + per_row, len(years)))
            widths = [PLEDGE_GRID_NAME] + [(width - PLEDGE_GRID_NAME) / per_row] * len(chunk)
            header: Sequence[common.Cell] = [_("Pledges"), *(str(i + 1) for i in chunk)]
            rows: list[Sequence[common.Cell]] = [[state.names[s], *("" if grid[s][i] is None else str(grid[s][i]) for i in chunk)] for s in range(state.n)]
            rows.append([_("in all"), *(str(years[i].total) for i in chunk)])
            story += [common.spacer(4 * mm), common.ruled_table(header, rows, widths, row_height=PLEDGE_GRID_ROW, zebra=True)]
    return story


def debrief_compare(
    tables: Sequence[tuple[str, Game[Setup, State]]], *, width: float, reveal: bool, reveal_pledges: bool | None = None, stopped: Mapping[str, str] | None = None
) -> list[Flowable]:
    """The villages of a class side by side, year by year: pledges, the dyke and floods.
    `stopped` says, by label, where a village its facilitator stopped stood ("stopped in year 2")."""
    labels = [label for label, _ in tables]
    states = [game.state for _, game in tables]
    longest = max(len(s.years) for s in states)
    x = [str(i + 1) for i in range(longest)]

    def by_year(state: State, pick: Any) -> tuple[int | None, ...]:
        return tuple(pick(state.years[i]) if i < len(state.years) else None for i in range(longest))

    story: list[Flowable] = [common.heading(_("The villages compared, year by year"), 0)]
    for state, label in zip(states, labels):
        low, high = thresholds(state.n)
        halted = (stopped or {}).get(label)
        if state.over:
            where = _("the game is over.")
        elif halted:
            where = _("the game was {how}.", how=i18n.render(halted))
        else:
            where = _("year {year} is under way.", year=state.year)
        story.append(common.para(_("{village}: {n} households, a year needs {low}-{high} to hold the dyke; {where}", village=label, n=state.n, low=low, high=high, where=where), "body"))
    if not longest:
        return story
    pledged = charts.Chart(_("Pledged per household, village by village"), x, charts.series_of(labels, [by_year(s, lambda y, n=s.n: round(y.total / n, 2)) for s in states]), y_min=0, y_label=_("units per household · year"))
    dyke = charts.Chart(_("The dyke at each year's end"), x, charts.series_of(labels, [by_year(s, lambda y: y.dyke_after) for s in states]), y_min=DYKE_MIN, y_max=DYKE_MAX, y_label=_("Dyke Condition · year"))
    story += [common.spacer(3 * mm), charts.keep(pledged), common.spacer(4 * mm), charts.keep(dyke), common.spacer(4 * mm)]
    first = min(width, 16 * mm)
    widths = [first] + [(width - first) / len(labels)] * len(labels)
    header: Sequence[common.Cell] = [_("Year"), *labels]
    rows: list[Sequence[common.Cell]] = []
    for i in range(longest):
        cells: list[common.Cell] = [str(i + 1)]
        for s in states:
            if i >= len(s.years):
                cells.append("")
                continue
            y = s.years[i]
            if y.flooded:
                cells.append(_("pledged {total}, dyke {before}→{after}, FLOOD", total=y.total, before=y.dyke_before, after=y.dyke_after))
            else:
                cells.append(_("pledged {total}, dyke {before}→{after}", total=y.total, before=y.dyke_before, after=y.dyke_after))
        rows.append(cells)
    story.append(common.ruled_table(header, rows, widths, row_height=PLEDGE_GRID_ROW, zebra=True))
    return story
