"""Dangerous Ideas on paper: character sheets, stones cards, a score pad and the story as told.

`printables.document` prints blank materials for 3-10 named (or unnamed) players, or "what
you played" from a `State`: each sheet's memes, holders, stones, bonus stones, seeds and
crossed-off memes; the score pad from `sheet_score`, `tiebreaks` and `standings`; the
story from `transcript`. Nothing in this game is hidden, so a filled set shows everything.

Page order: one character sheet per player (the meme tree, drawn on the canvas), the stones
reference cards (one per player, four to a page, with crop marks), the score pad, then
"The story as told" (a chapter plan to fill in when blank, the transcript from a state).
Everything is black and white: fills are light greys, leaf and coil marks are shapes.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Table, TableStyle

import i18n
from i18n import _, _n
from rules.dangerous_ideas import (
    BRANCHES,
    HUBS,
    NODE_NAMES,
    NODES,
    Crossed,
    Meme,
    Setup,
    Sheet,
    State,
    default_chapters,
    ending,
    sheet_score,
    standings,
    tiebreaks,
    transcript,
)
from rules.decisions import first_states
from rules.games import card

from . import charts, common, fonts, slips
from .fonts import BidiParagraph as Paragraph
from .fonts import markup, name_list

__all__ = ["CARD", "MATERIALS", "booklet", "debrief_compare", "debrief_lines", "debrief_story", "rules_card", "sheets", "table_of"]

# -- layout ------------------------------------------------------------------------------
CARD = card("dangerous-ideas")
MATERIALS = ("Character sheet", "Stones reference card", "Score pad", "The story as told", "Rules card", "Seat slips")
# The character sheet: a header band, the meme tree, a footer band, all one flowable.
SHEET_HEADER = 70  # points: title, seeds, player and idea lines, a status line
SHEET_FOOTER = 100  # points: crossed-off memes, score boxes, the leaf/coil legend
SHEET_TITLE = 15  # points
BOX_SHARE = 0.30  # each column of branch boxes takes this share of the width
BOX_GAP = 6  # points between the boxes of a hub
GROUP_GAP = 16  # points between the upper and the lower hubs' boxes
BOX_PAD = 5
BOX_RADIUS = 4
BOX_LABEL = 7.2  # points: "PROBE 1 · leaf", "stones", "bonus"
MEME_SIZE = 10  # points: a meme text starts at this size and shrinks to fit its box
MEME_MIN = 7.0
HOLDER_SIZE = 8.5
WRITE_LINE_GAP = 15  # points between the ruled lines of a blank meme
THINK_RADIUS = 36
HUB_RADIUS = 24
HUB_DX = 40  # points from the sheet's centre line to each hub's centre
MARK_LENGTH = 16  # points: a leaf or coil at a branch's tip
TRUNK_WIDTH = 3.4  # Think-to-hub links
BRANCH_WIDTH = 1.7
BONUS_RADIUS = 3.3
SEED_RADIUS = 5.5
SEED_STEP = 15  # points between seed centres (shrinks for many seeds)
NODE_FILL = colors.HexColor("#efefef")
LEAF_FILL = colors.HexColor("#d4d4d4")
STONE_FILL = colors.HexColor("#3a3a3a")
STRUCK = colors.HexColor("#7a7a7a")
WRITE_LINE = colors.HexColor("#a8a8a8")
# Which hub sits where: the actor's nodes (Probe, Create) above Think, the responders' nodes
# (Defend, Connect) below; the leaf-rich hubs on the left, the coil-rich ones on the right
# (right to left, the other way round: the tree read from the right, `_CharacterSheet._side`).
HUB_PLACE: dict[str, tuple[int, int]] = {"probe": (-1, 1), "create": (1, 1), "defend": (-1, -1), "connect": (1, -1)}
# Stones cards.
CARD_GRID = (1, 2)  # columns, rows: two A5-sized cards a page keep the text at 7 pt or more
CARD_PAD = 4 * mm
CARD_TITLE = 9.5  # points
CARD_TEXT = 9.5  # points; shrinks until the card's text fits
CARD_MIN = 7.0
# Score pad.
PAD_GROUP_ROWS = 6  # blank meme-group rows per player (more fit on the back)
PAD_ROW = 6.2 * mm  # three rows of players fit a Letter page
PAD_WEIGHTS = (64, 15, 21)  # meme group, copies, points
PAD_GUTTER = 5 * mm
STANDINGS_WEIGHTS = (12, 44, 14, 14, 16, 16)
STANDINGS_ROW = 8 * mm
# The story: a book-like measure in the middle of the page, A5 width or so.
STORY_MEASURE = 128 * mm
PLAN_WEIGHTS = (16, 36, 128)
PLAN_ROW = 12 * mm
MORAL_LINES = 5


# -- what to print -----------------------------------------------------------------------------
#: The setup fields the sheets print with (`common.variants`: a blank print takes `Setup`'s defaults).
_VARIANTS = ("layout", "seeds", "chapters", "start_stones", "story")


@dataclass(frozen=True)
class _Table:
    """The players and variant numbers a set of sheets is printed for."""

    names: tuple[str, ...]  # "" is a seat whose name is written in by hand
    layout: tuple[str, ...]
    seeds: int
    chapters: int | None
    start_stones: int
    story: str = ""
    state: State | None = None
    #: (seat name, URL) per seat for the seat slips' QR codes; None prints blank slips.
    seat_links: tuple[tuple[str, str], ...] | None = None

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def chapter_count(self) -> int:
        return self.chapters if self.chapters is not None else default_chapters(self.n)

    def label(self, seat: int) -> str:
        return self.names[seat] or _("Player {number}", number=seat + 1)

    def branch_type(self, branch: str) -> str:
        return self.layout[BRANCHES.index(branch)]


def table_of(source: common.Source[Setup, State]) -> _Table:
    """The table `source` prints for: its setup's, or blank seats with `Setup`'s default variants."""
    return _Table(names=source.names, state=source.state, seat_links=source.seat_links, **common.variants(source, Setup, _VARIANTS))


# -- text helpers --------------------------------------------------------------------------------
def _p(text: str, style: str | ParagraphStyle = "cell") -> Paragraph:
    """A paragraph of markup that was already escaped (through `markup`) by the caller."""
    return Paragraph(text, common.style(style) if isinstance(style, str) else style)


def _derived(name: str, parent: str | ParagraphStyle, **changes: object) -> ParagraphStyle:
    """A module style built on a shared style (by name) or on another style."""
    base = common.style(parent) if isinstance(parent, str) else parent
    return ParagraphStyle(f"dangerous-ideas-{name}", parent=base, **changes)


def _sized(font: str, size: float, colour: str) -> ParagraphStyle:
    """A plain style in `font` at `size`, its lines set from their start (right to left: the right)."""
    return _sized_style(font, size, colour, common.rtl())


@functools.cache
def _sized_style(font: str, size: float, colour: str, right_to_left: bool) -> ParagraphStyle:
    # Cached: fitting tries many sizes.
    return ParagraphStyle(
        f"dangerous-ideas-{font}-{size:.2f}-{colour}" + ("-rtl" if right_to_left else ""),
        fontName=font,
        fontSize=size,
        leading=size * 1.18,
        textColor=colors.HexColor(colour),
        spaceBefore=0,
        spaceAfter=0,
        **({"alignment": TA_RIGHT} if right_to_left else {}),
    )


def _hex(colour: colors.Color) -> str:
    return "#" + colour.hexval()[2:]


def _fitted(
    text: str,
    width: float,
    height: float,
    *,
    size: float,
    min_size: float = MEME_MIN,
    font: str = fonts.BODY,
    colour: colors.Color = common.INK,
    wrap: str = "{}",
    cut: bool = True,
) -> Paragraph | None:
    """User `text` as a paragraph that fits width x height: it wraps, shrinks down to
    `min_size`, and only then loses words at the end (marked with an ellipsis); with `cut`
    False it gives None instead.

    `wrap` is markup around the escaped text ("<strike>{}</strike>"). The result is wrapped
    already; draw it with `drawOn`.
    """
    style_colour = _hex(colour)
    steps = max(1, round((size - min_size) / 0.25))
    for i in range(steps + 1):
        current = size - (size - min_size) * i / steps
        para = Paragraph(wrap.format(markup(text)), _sized(font, current, style_colour))
        if para.wrap(width, height)[1] <= height:
            return para
    if not cut:
        return None
    # Far too long even at the smallest size: keep as many words as fit. Rare (a meme text is
    # at most 200 characters), but a sheet must never spill over its neighbours.
    words = text.split()
    low, high = 0, len(words)
    style = _sized(font, min_size, style_colour)
    while low < high:
        middle = (low + high + 1) // 2
        trial = Paragraph(wrap.format(markup(" ".join(words[:middle]) + "…")), style)
        if trial.wrap(width, height)[1] <= height:
            low = middle
        else:
            high = middle - 1
    para = Paragraph(wrap.format(markup(" ".join(words[:low]) + "…")), style)
    para.wrap(width, height)
    return para


def _write_line(canvas: Canvas, x0: float, x1: float, y: float) -> None:
    common.write_line(canvas, x0, x1, y, WRITE_LINE, 0.45)


def _node_name(node: str) -> str:
    """A node as the sheet names it ("Probe"), in the current language."""
    return i18n.render(NODE_NAMES[node])


def _kind(kind: str) -> str:
    """A branch type as the sheet names it: leaf or coiled."""
    # TRANSLATORS: a branch type of the Dangerous Ideas sheet (its meme is a leaf or a coil).
    return _("leaf") if kind == "leaf" else _("coiled")


def _branch_label(branch: str) -> str:
    """'probe-2' as printed on the sheet: 'Probe 2'."""
    hub, number = branch.split("-")
    return f"{_node_name(hub)} {number}"


def _crossed_text(table: _Table, crossed: Crossed) -> str:
    """'by Bo in chapter 3' for a crossed-off meme."""
    by = table.label(crossed.by)
    if crossed.chapter:
        return _("replaced by {name} in chapter {chapter}", name=by, chapter=crossed.chapter)
    return _("replaced by {name}", name=by)


# -- marks: leaves and coils ---------------------------------------------------------------------
def _draw_leaf(canvas: Canvas, length: float) -> None:
    """A leaf from the origin along +x: an almond with a midrib, lightly filled."""
    width = length * 0.32
    path = canvas.beginPath()
    path.moveTo(0, 0)
    path.curveTo(length * 0.3, width, length * 0.75, width * 0.95, length, 0)
    path.curveTo(length * 0.75, -width * 0.95, length * 0.3, -width, 0, 0)
    path.close()
    canvas.setFillColor(LEAF_FILL)
    canvas.setStrokeColor(common.INK)
    canvas.setLineWidth(0.8)
    canvas.drawPath(path, stroke=1, fill=1)
    canvas.setLineWidth(0.5)
    canvas.line(0, 0, length * 0.88, 0)


def _draw_coil(canvas: Canvas, length: float) -> None:
    """A spiral whose outer end is at the origin, curling in towards +x (a fern's tip)."""
    radius = length / 2
    turns = 2.3
    points = 56
    path = canvas.beginPath()
    for i in range(points + 1):
        t = i / points
        # Start at the circle's left point (the origin) and wind inwards, clockwise.
        angle = math.pi - t * turns * 2 * math.pi
        r = radius * (1 - t) ** 0.9
        x, y = radius + r * math.cos(angle), r * math.sin(angle)
        if i == 0:
            path.moveTo(x, y)
        else:
            path.lineTo(x, y)
    canvas.setStrokeColor(common.INK)
    canvas.setLineWidth(1.1)
    canvas.drawPath(path, stroke=1, fill=0)


def _draw_mark(canvas: Canvas, kind: str, x: float, y: float, length: float, facing: int) -> None:
    """A leaf or coil at (x, y), pointing right (`facing` 1) or left (-1)."""
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(facing, 1)
    if kind == "leaf":
        _draw_leaf(canvas, length)
    else:
        _draw_coil(canvas, length)
    canvas.restoreState()


# -- (1) the character sheet ---------------------------------------------------------------------
@dataclass(frozen=True)
class _Spot:
    """A branch box: its rectangle and the side its hub is on (-1 left, 1 right)."""

    branch: str
    x: float
    y: float
    width: float
    height: float
    side: int


class _CharacterSheet(Flowable):
    """One player's sheet: the meme tree with its nodes, branches and boxes, filling the frame.

    Drawn on the canvas (a tiny flowable: `wrap` takes the frame, `draw` paints). From a
    state the boxes carry the memes, holders and stones, the nodes their stones.
    """

    def __init__(self, table: _Table, seat: int, height: float) -> None:
        super().__init__()
        self.table = table
        self.seat = seat
        self.height = height
        self.size = (0.0, 0.0)

    @property
    def sheet(self) -> Sheet | None:
        state = self.table.state
        return state.sheets[self.seat] if state is not None else None

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        # Always a whole frame: after other flowables on a page the sheet moves to the next
        # page instead of being squashed into what is left.
        self.size = (availWidth, self.height)
        return self.size

    # -- geometry
    def _mirror(self) -> common.Mirror:
        """The sheet's places in reading order, as the page has them (`common.Mirror`)."""
        return common.mirror(0, self.size[0])

    def _side(self, hub: str) -> tuple[int, int]:
        """(side, level) of a hub on the page: right to left the sides swap, Probe at the right."""
        side, level = HUB_PLACE[hub]
        return self._mirror().facing(side), level

    def _spots(self) -> list[_Spot]:
        width, height = self.size
        top, bottom = height - SHEET_HEADER, SHEET_FOOTER
        box_w = width * BOX_SHARE
        group = (top - bottom - GROUP_GAP) / 2
        box_h = (group - 2 * BOX_GAP) / 3
        spots = []
        for hub in HUBS:
            side, level = self._side(hub)
            x = 0.0 if side < 0 else width - box_w
            group_top = top if level > 0 else bottom + group
            for i in range(3):
                y = group_top - (i + 1) * box_h - i * BOX_GAP
                spots.append(_Spot(f"{hub}-{i + 1}", x, y, box_w, box_h, side))
        return spots

    def _node_centres(self) -> dict[str, tuple[float, float]]:
        width, height = self.size
        top, bottom = height - SHEET_HEADER, SHEET_FOOTER
        group = (top - bottom - GROUP_GAP) / 2
        centres = {"think": (width / 2, (top + bottom) / 2)}
        for hub in HUBS:
            side, level = self._side(hub)
            y = top - group / 2 if level > 0 else bottom + group / 2
            centres[hub] = (width / 2 + side * HUB_DX, y)
        return centres

    # -- painting
    def draw(self) -> None:
        canvas = self.canv
        canvas.saveState()
        self._header(canvas)
        centres = self._node_centres()
        spots = self._spots()
        self._trunks(canvas, centres)
        for spot in spots:
            self._branch(canvas, spot, centres[spot.branch.split("-")[0]])
        for node in NODES:
            self._node(canvas, node, centres[node])
        for spot in spots:
            self._box(canvas, spot)
        self._footer(canvas)
        canvas.restoreState()

    def _header(self, canvas: Canvas) -> None:
        width, height = self.size
        table = self.table
        canvas.setFillColor(common.INK)
        title_y = height - SHEET_TITLE
        title, title_size = fonts.fit(_("{game} — character sheet", game=CARD.title), fonts.BOLD, SHEET_TITLE, width * 0.62)
        m = self._mirror()
        # The title at the line's start, the seeds after it.
        title_w = m.draw_string(canvas, 0, title_y, title, fonts.BOLD, title_size)
        self._seeds(canvas, title_w + 8 * mm, width, title_y + SHEET_TITLE * 0.3)
        # Two write-in lines: the player (printed when known) and their Dangerous Idea.
        line_y = height - 42
        split = width * 0.42
        _write_line(canvas, *m.span(0, split - 6 * mm), line_y)
        _write_line(canvas, *m.span(split, width), line_y)
        canvas.setFillColor(common.MUTED)
        # TRANSLATORS: under the character sheet's write-in line for the player's name.
        m.draw_string(canvas, 0, line_y - 8, _("Player"), fonts.BODY, BOX_LABEL)
        m.draw_string(canvas, split, line_y - 8, _("Dangerous Idea (your philosophy)"), fonts.BODY, BOX_LABEL)
        name = table.names[self.seat]
        if name:
            canvas.setFillColor(common.INK)
            text, size = fonts.fit(name, fonts.BOLD, 13, split - 8 * mm)
            m.draw_string(canvas, 1, line_y + 3, text, fonts.BOLD, size)
        canvas.setFillColor(common.MUTED)
        status, size = common.fit_first(self._status(), fonts.BODY, 7.5, width)
        m.draw_string(canvas, 0, height - SHEET_HEADER + 8, status, fonts.BODY, size)

    def _status(self) -> list[str]:
        """The small line under the header: where this sheet stands, or how a seat starts; then
        shorter lines for a language whose long one does not fit."""
        table, state = self.table, self.table.state
        if state is None:
            mine = [k + 1 for k in range(table.chapter_count) if k % table.n == self.seat]
            if mine:
                chapters = common.names_text(i18n.number(k) for k in mine)
                starts = _n(
                    "you start chapter {chapters} (of {count})", "you start chapters {chapters} (of {count})", len(mine),
                    chapters=chapters, count=table.chapter_count,
                )
            else:
                starts = _n("you start none of the {n} chapter", "you start none of the {n} chapters", table.chapter_count)
            return [
                _n(
                    "Seat {seat} of {players} · {starts} · place {n} stone on your nodes, then write one leaf and one coiled meme",
                    "Seat {seat} of {players} · {starts} · place {n} stones on your nodes, then write one leaf and one coiled meme",
                    table.start_stones, seat=self.seat + 1, players=table.n, starts=starts,
                ),
                _("Seat {seat} of {players} · {starts}", seat=self.seat + 1, players=table.n, starts=starts),
            ]
        sheet = state.sheets[self.seat]
        if state.over:
            where = _("Final sheet")
        elif state.chapter < 0:
            where = _("Before Chapter 1")
        else:
            where = _("Chapter {chapter} of {count}, in play", chapter=state.chapter + 1, count=table.chapter_count)
        memes = _n("{n} meme", "{n} memes", sheet.filled)
        seeds = _n("{n} seed left", "{n} seeds left", sheet.seeds)
        return [
            _(
                "{where} · seat {seat} · {memes} · {stones} own stones on the sheet · {bonus} bonus · {seeds}",
                where=where, seat=self.seat + 1, memes=memes, stones=sheet.stones, bonus=sheet.bonus, seeds=seeds,
            ),
            _("{where} · seat {seat} · {memes} · {seeds}", where=where, seat=self.seat + 1, memes=memes, seeds=seeds),
        ]

    def _seeds(self, canvas: Canvas, left: float, right: float, y: float) -> None:
        """The red seeds at the line's end (reading order from `left` to `right`): circles,
        the spent ones crossed off."""
        total = self.table.seeds
        sheet = self.sheet
        spent = total - sheet.seeds if sheet is not None else 0
        canvas.setFillColor(common.MUTED)
        label = _("Red seeds (cross one off per re-roll)") if total else _("No red seeds in this variant")
        room = right - left - fonts.string_width(label, fonts.BODY, BOX_LABEL) - 3 * mm
        if total and room / total < 2.4 * SEED_RADIUS:
            # Many seeds (a variant): a shorter label leaves them room to stay drawable.
            label = _("Red seeds")
            room = right - left - fonts.string_width(label, fonts.BODY, BOX_LABEL) - 3 * mm
        step = min(SEED_STEP, room / total) if total else 0.0
        radius = min(SEED_RADIUS, step * 0.38) if total else 0.0
        first = right - radius - (total - 1) * step
        m = self._mirror()
        m.draw_string(canvas, first - radius - 2 * mm, y - BOX_LABEL * 0.35, label, fonts.BODY, BOX_LABEL, align="right")
        canvas.setStrokeColor(common.INK)
        for i in range(total):
            x = m.x(first + i * step)
            canvas.setLineWidth(1.2)
            canvas.setFillColor(colors.white)
            canvas.circle(x, y, radius, stroke=1, fill=1)
            if i < spent:  # the first seeds are the ones crossed off
                d = radius * 0.95
                canvas.setLineWidth(1.4)
                canvas.line(x - d, y - d, x + d, y + d)
                canvas.line(x - d, y + d, x + d, y - d)

    def _trunks(self, canvas: Canvas, centres: dict[str, tuple[float, float]]) -> None:
        """Thick links from Think to each hub."""
        canvas.setStrokeColor(common.INK)
        canvas.setLineWidth(TRUNK_WIDTH)
        canvas.setLineCap(1)
        tx, ty = centres["think"]
        for hub in HUBS:
            hx, hy = centres[hub]
            canvas.line(tx, ty, hx, hy)

    def _branch(self, canvas: Canvas, spot: _Spot, hub: tuple[float, float]) -> None:
        """A curved branch from the hub to its box, ending in a leaf or a coil."""
        hx, hy = hub
        inner = spot.x + spot.width if spot.side < 0 else spot.x
        end_y = spot.y + spot.height / 2
        tip = inner - spot.side * (MARK_LENGTH + 2)  # where the mark starts
        dx, dy = tip - hx, end_y - hy
        distance = math.hypot(dx, dy) or 1.0
        start = (hx + HUB_RADIUS * 0.8 * dx / distance, hy + HUB_RADIUS * 0.8 * dy / distance)
        run = tip - start[0]
        path = canvas.beginPath()
        path.moveTo(*start)
        # Leave the hub heading outwards, arrive level with the box: a branch, not a wire.
        path.curveTo(start[0] + run * 0.45, start[1] + (end_y - start[1]) * 0.15, tip - run * 0.55, end_y, tip, end_y)
        canvas.setStrokeColor(common.INK)
        canvas.setLineWidth(BRANCH_WIDTH)
        canvas.drawPath(path, stroke=1, fill=0)
        # The mark points away from the hub, towards the box.
        _draw_mark(canvas, self.table.branch_type(spot.branch), tip, end_y, MARK_LENGTH, spot.side)

    def _node(self, canvas: Canvas, node: str, centre: tuple[float, float]) -> None:
        """A node: a circle big enough for stones, its name and a box for the stone count."""
        x, y = centre
        radius = THINK_RADIUS if node == "think" else HUB_RADIUS
        canvas.setFillColor(NODE_FILL)
        canvas.setStrokeColor(common.INK)
        canvas.setLineWidth(1.8 if node == "think" else 1.4)
        canvas.circle(x, y, radius, stroke=1, fill=1)
        canvas.setFillColor(common.INK)
        # Shrunk to fit inside the circle: CONNECT is the widest name.
        label, size = fonts.fit(_node_name(node).upper(), fonts.BOLD, 10.5 if node == "think" else 7.8, radius * 1.6)
        if label.endswith("…"):  # a longer language's name: as written, across the circle's width
            label, size = fonts.fit(_node_name(node), fonts.BOLD, 7.8, radius * 2.2)
        fonts.draw_string(canvas, x, y + radius * 0.22, label, fonts.BOLD, size, align="centre")
        box_w, box_h = (radius * 1.15, radius * 0.5)
        bx, by = x - box_w / 2, y - radius * 0.5
        canvas.setFillColor(colors.white)
        canvas.setLineWidth(0.6)
        canvas.roundRect(bx, by, box_w, box_h, 2, stroke=1, fill=1)
        sheet = self.sheet
        if sheet is not None:
            canvas.setFillColor(common.INK)
            count, size = fonts.fit(str(sheet.node(node)), fonts.BOLD, box_h * 0.72, box_w - 2)
            fonts.draw_string(canvas, x, by + box_h * 0.24, count, fonts.BOLD, size, align="centre")
        else:
            canvas.setFillColor(common.MUTED)
            # TRANSLATORS: a small label in the sheet's boxes for a count of stones.
            common.draw_fitted(canvas, x, by + box_h / 2 - 2.5, _("stones"), fonts.BODY, 7, box_w - 2, align="centre")

    def _box(self, canvas: Canvas, spot: _Spot) -> None:
        """A branch box: name, type and stone count on top, the meme, then holder and bonus."""
        x, y, w, h = spot.x, spot.y, spot.width, spot.height
        kind = self.table.branch_type(spot.branch)
        meme = self.sheet.meme(spot.branch) if self.sheet is not None else None
        canvas.setFillColor(colors.white)
        canvas.setStrokeColor(common.INK)
        canvas.setLineWidth(0.9)
        canvas.roundRect(x, y, w, h, BOX_RADIUS, stroke=1, fill=1)
        left, right, top = x + BOX_PAD, x + w - BOX_PAD, y + h - BOX_PAD
        # Places inside the box in reading order (right to left: mirrored across the box).
        m = common.mirror(x, x + w)
        # Top row: "PROBE 1 · leaf" at the line's start, "stones [ ]" at its end.
        row_y = top - BOX_LABEL
        hub, number = spot.branch.split("-")
        canvas.setFillColor(common.INK)
        used = m.draw_string(canvas, left, row_y, f"{_node_name(hub).upper()} {number}", fonts.BOLD, BOX_LABEL)
        canvas.setFillColor(common.MUTED)
        m.draw_string(canvas, left + used + 3, row_y, f"· {_kind(kind)}", fonts.BODY, BOX_LABEL)
        count_w, count_h = 19.0, BOX_LABEL + 5
        count_x = right - count_w
        canvas.setFillColor(colors.white)
        canvas.setStrokeColor(common.INK)
        canvas.setLineWidth(0.6)
        canvas.roundRect(m.x(count_x, count_w), row_y - 3, count_w, count_h, 1.5, stroke=1, fill=1)
        canvas.setFillColor(common.MUTED)
        m.draw_string(canvas, count_x - 2.5, row_y, _("stones"), fonts.BODY, 7, align="right")
        if meme is not None:
            canvas.setFillColor(common.INK)
            count, size = fonts.fit(str(meme.stones), fonts.BOLD, BOX_LABEL + 1.5, count_w - 2)
            m.draw_string(canvas, count_x + count_w / 2, row_y - 0.5, count, fonts.BOLD, size, align="centre")
        # Bottom row: "held by ______" and the two bonus-stone circles.
        base = y + BOX_PAD + 1
        step = 2 * BONUS_RADIUS + 2.5
        first = right - BONUS_RADIUS - step  # centre of the left circle
        bonus = meme.bonus if meme is not None else 0
        canvas.setStrokeColor(common.INK)
        canvas.setLineWidth(0.7)
        for i in range(2):
            # A filled circle is a bonus stone still on the meme.
            canvas.setFillColor(STONE_FILL if i < bonus else colors.white)
            canvas.circle(m.x(first + i * step), base + BOX_LABEL * 0.35, BONUS_RADIUS, stroke=1, fill=1)
        canvas.setFillColor(common.MUTED)
        bonus_x = first - BONUS_RADIUS - 2.5
        # TRANSLATORS: a small label beside a meme's two bonus-stone circles.
        bonus_w = m.draw_string(canvas, bonus_x, base, _("bonus"), fonts.BODY, 7, align="right")
        # TRANSLATORS: before the write-in line for the character of the story who holds a meme.
        held_w = m.draw_string(canvas, left, base, _("held by"), fonts.BODY, BOX_LABEL)
        line_x, line_end = left + held_w + 3, bonus_x - bonus_w - 4
        _write_line(canvas, *m.span(line_x, line_end), base - 1.5)
        # The meme's room: between the top row and the holder row.
        area_top, area_bottom = row_y - 5, base + HOLDER_SIZE + 3
        crossed = self._crossed_here(spot.branch)
        if meme is not None:
            holder_w = line_end - line_x - 1
            # A holder fits on its line, or else takes up to three smaller lines above it,
            # and the meme text gives up that room: both stay whole.
            holder = _fitted(meme.holder, holder_w, HOLDER_SIZE * 1.25, size=HOLDER_SIZE, min_size=7, cut=False)
            if holder is None:
                holder = _fitted(meme.holder, holder_w, 3 * 7 * 1.18, size=7, min_size=7)
            assert holder is not None
            # The holder's last line sits on the rule (a paragraph's last baseline is
            # leading - fontSize above its bottom).
            holder_y = base - (holder.style.leading - holder.style.fontSize)
            holder.drawOn(canvas, m.x(line_x + 1, holder_w), holder_y)
            area_bottom = max(area_bottom, holder_y + holder.height + 2)
            room = (meme.text, right - left, area_top - area_bottom)
            # Bold while it fits; a long meme in the narrower regular face before it is cut short.
            text = _fitted(*room, size=MEME_SIZE, font=fonts.BOLD, cut=False) or _fitted(*room, size=MEME_SIZE, font=fonts.BODY)
            assert text is not None
            # Centred in its room, as a hand would write it.
            text.drawOn(canvas, left, area_bottom + (area_top - area_bottom - text.height) / 2)
        elif crossed is not None:
            tall = area_top - area_bottom
            note = _fitted(f"{crossed.text} — {crossed.holder}", right - left, tall * 0.62, size=8, colour=STRUCK, wrap="<strike>{}</strike>")
            why = _fitted(_crossed_text(self.table, crossed), right - left, tall * 0.3, size=7, min_size=7, font=fonts.ITALIC, colour=STRUCK)
            assert note is not None and why is not None
            note.drawOn(canvas, left, area_top - note.height)
            why.drawOn(canvas, left, area_top - note.height - 1.5 - why.height)
        else:
            line = area_top - WRITE_LINE_GAP + 2
            while line >= area_bottom - 1:
                _write_line(canvas, left, right, line)
                line -= WRITE_LINE_GAP

    def _crossed_here(self, branch: str) -> Crossed | None:
        """The latest meme crossed off `branch`, if the branch is empty now."""
        sheet = self.sheet
        if sheet is None:
            return None
        here = [c for c in sheet.crossed if c.branch == branch]
        return here[-1] if here else None

    def _footer(self, canvas: Canvas) -> None:
        """Crossed-off memes (at the line's start: left), the score boxes and the leaf/coil legend (right)."""
        width, _height = self.size
        table, sheet = self.table, self.sheet
        m = self._mirror()
        height = SHEET_FOOTER - 10
        left_w = width * 0.55
        canvas.setStrokeColor(common.INK)
        canvas.setLineWidth(0.9)
        canvas.setFillColor(colors.white)
        canvas.roundRect(m.x(0, left_w), 0, left_w, height, BOX_RADIUS, stroke=1, fill=1)
        canvas.setFillColor(common.INK)
        title_y = height - BOX_PAD - BOX_LABEL - 1
        crossed_title, crossed_size = fonts.fit(_("Crossed-off memes"), fonts.BOLD, BOX_LABEL + 0.7, left_w / 2)
        used = m.draw_string(canvas, BOX_PAD, title_y, crossed_title, fonts.BOLD, crossed_size)
        canvas.setFillColor(common.MUTED)
        aside, aside_size = common.fit_first([_("(replaced: its stones go to the hub)"), ""], fonts.BODY, 7, left_w - 2 * BOX_PAD - used - 4)
        m.draw_string(canvas, BOX_PAD + used + 4, title_y, aside, fonts.BODY, aside_size)
        area_top, area_bottom = title_y - 4, BOX_PAD
        crossed = sheet.crossed if sheet is not None else ()
        if crossed:
            items = []
            for c in crossed:
                items.append(
                    f"<strike>{markup(c.text)} — {markup(c.holder)}</strike> "
                    f'<font color="{_hex(common.MUTED)}">({markup(_branch_label(c.branch))}, {markup(_crossed_text(table, c))})</font>'
                )
            para = _fitted_markup("<br/>".join(items), left_w - 2 * BOX_PAD, area_top - area_bottom, size=8, min_size=7)
            para.drawOn(canvas, m.x(BOX_PAD, left_w - 2 * BOX_PAD), area_top - para.height)
        else:
            line = area_top - WRITE_LINE_GAP + 2
            while line >= area_bottom:
                _write_line(canvas, *m.span(BOX_PAD, left_w - BOX_PAD), line)
                line -= WRITE_LINE_GAP
        # Score boxes.
        right_x = left_w + 4 * mm
        right_w = width - right_x
        # TRANSLATORS: the sheet's three score boxes ("Score" is the noun).
        cells = (_("Memes"), _("Score"), _("Stones + seeds"))
        values: tuple[str, ...] = ("", "", "")
        if sheet is not None:
            values = (str(sheet.filled), str(sheet_score(sheet)), str(sheet.stones + sheet.seeds))
        cell_w = (right_w - 2 * 2 * mm) / 3
        cell_h = 40.0
        cell_y = height - cell_h
        for i, (label, value) in enumerate(zip(cells, values)):
            cx = m.x(right_x + i * (cell_w + 2 * mm), cell_w)
            canvas.setFillColor(colors.white)
            canvas.setStrokeColor(common.INK)
            canvas.setLineWidth(0.9)
            canvas.roundRect(cx, cell_y, cell_w, cell_h, BOX_RADIUS, stroke=1, fill=1)
            canvas.setFillColor(common.MUTED)
            label, label_size = fonts.fit(label, fonts.BODY, BOX_LABEL, cell_w - 2)
            fonts.draw_string(canvas, cx + cell_w / 2, cell_y + cell_h - BOX_LABEL - 3.5, label, fonts.BODY, label_size, align="centre")
            if value:
                canvas.setFillColor(common.INK)
                fonts.draw_string(canvas, cx + cell_w / 2, cell_y + 8, value, fonts.BOLD, 16, align="centre")
        # The legend: what each mark means.
        canvas.setFillColor(common.INK)
        rows = (
            ("leaf", _("Leaf memes help your Spread (Probe) and your Defend.")),
            ("coiled", _("Coiled memes help your Create and your Connect.")),
        )
        for i, (kind, words) in enumerate(rows):
            ly = cell_y - 14 - i * 13
            _draw_mark(canvas, kind, m.x(right_x), ly + 2.5, 11, m.facing(1))
            canvas.setFillColor(common.INK)
            m.draw_fitted(canvas, right_x + 15, ly, words, fonts.BODY, 7.2, right_w - 16)
        canvas.setFillColor(common.MUTED)
        note, size = fonts.fit(_("Score: 4 per meme; k copies of a meme score 4 + k."), fonts.BODY, 7, right_w)
        m.draw_string(canvas, right_x, 1, note, fonts.BODY, size)


def _fitted_markup(text: str, width: float, height: float, *, size: float, min_size: float) -> Paragraph:
    """Ready markup shrunk until it fits width x height (the crossed-off list). At the
    smallest size it is drawn as is: a sheet holds at most a few dozen replacements."""
    steps = max(1, round((size - min_size) / 0.25))
    for i in range(steps + 1):
        current = size - (size - min_size) * i / steps
        para = Paragraph(text, _sized(fonts.BODY, current, _hex(common.INK)))
        if para.wrap(width, height)[1] <= height:
            return para
    return para


def _character_sheets(table: _Table, page: str) -> list[Flowable]:
    """One sheet per player, each a full page."""
    _width, height = common.frame_size(page)
    story: list[Flowable] = []
    for seat in range(table.n):
        if story:
            story.append(PageBreak())
        # A hair under the frame's height, so rounding never pushes a sheet off its page.
        sheet = _CharacterSheet(table, seat, height - 0.5)
        story += [common.Section(CARD.title, _("Character sheet · {name}", name=table.label(seat))), sheet]
    return story


# -- (2) the stones reference card ------------------------------------------------------------
def _card_sections() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The card's text in the playbook's words (see RULINGS.md), said now: (heading, items) as markup."""
    return (
        (
            markup(_('Stones come from')),
            (
                common.rich(_("<b>7</b> before the setting round, spread over your five nodes.")),
                common.rich(_("<b>2</b> at the start of your turn, anywhere: a node or a filled branch.")),
                common.rich(_("<b>3</b> when you take the Gain action, anywhere.")),
                common.rich(_("<b>2 on Think</b> when an action you connected to succeeds (bonus stones alone count).")),
                common.rich(_("<b>1 on your new meme</b> when your meme action succeeds, plus any you move over from its hub.")),
                common.rich(_("<b>2 on Create</b> once a chapter, if you started it and its plot is still unfinished.")),
            ),
        ),
        (
            markup(_('Spend from your nodes')),
            (
                common.rich(_("<b>Probe</b>: spreading one of your memes to a new holder.")),
                common.rich(_("<b>Create</b>: creating a new meme.")),
                common.rich(_("<b>Connect</b>: helping someone else's meme action (each stone adds 1 to the pool).")),
                common.rich(_("<b>Defend</b>: hindering it (each stone takes itself and 1 more out of the pool).")),
                common.rich(_("<b>Think</b>: tops any of these up, with at most as many as that node gave.")),
            ),
        ),
        (
            markup(_('Involve your memes')),
            (
                common.rich(_("<b>Leaf</b>: in your Spread (Probe), or when you Defend.")),
                common.rich(_("<b>Coiled</b>: in your Create, or when you Connect.")),
                common.rich(_("<b>Any type</b>: every copy of the meme you are spreading; and, when one of your memes is targeted for replacement, each of your memes held by that character.")),
                common.rich(_("An involved meme gives <b>1 bonus stone</b> per player's turn, plus any of its own stones. Bonus stones refill to 2 when a chapter starts.")),
                common.rich(_("A <b>targeted meme counts double</b>: each stone spent from it takes 2 out of the pool.")),
            ),
        ),
        (
            markup(_('Also')),
            (
                common.rich(_("<b>Move</b> (an action): every stone one step, branch ↔ its hub ↔ Think.")),
                common.rich(_("<b>Roll 2d6</b>: at or under the pool succeeds; 11 and 12 always fail. A red seed re-rolls one die.")),
            ),
        ),
    )


def _card_flowables(size: float) -> list[Paragraph]:
    """The card's paragraphs with body text at `size` points."""
    ink = _hex(common.INK)
    head = ParagraphStyle(
        f"dangerous-ideas-card-head-{size:.2f}", parent=_sized(fonts.BOLD, size + 0.8, ink), spaceBefore=size * 0.7, spaceAfter=size * 0.25
    )
    item = ParagraphStyle(
        f"dangerous-ideas-card-item-{size:.2f}",
        parent=_sized(fonts.BODY, size, ink),
        leftIndent=size * 0.95,
        bulletIndent=0,
        bulletFontName=fonts.BODY,
        bulletFontSize=size,
        spaceAfter=size * 0.2,
    )
    out: list[Paragraph] = []
    if common.rtl():  # lines start at the right, each opening with its bullet (ReportLab hangs bullets on the left only)
        head = ParagraphStyle(f"{head.name}-rtl", parent=head, alignment=TA_RIGHT)
        item = ParagraphStyle(f"{item.name}-rtl", parent=item, alignment=TA_RIGHT, leftIndent=0, rightIndent=size * 0.95)
    for heading, items in _card_sections():
        out.append(Paragraph(heading, head))
        if common.rtl():
            out += [Paragraph(f"•\u00a0{text}", item) for text in items]
        else:
            out += [Paragraph(text, item, bulletText="•") for text in items]
    return out


@functools.lru_cache(maxsize=16)
def _card_size(width: float, height: float, lang: str) -> float:
    """The largest body size (down to CARD_MIN) at which the card's text fits in `lang`;
    cached, as every card of a sheet has the same size."""
    size = CARD_TEXT
    while size > CARD_MIN:
        paras = _card_flowables(size)
        used = sum(p.wrap(width, height)[1] + p.style.spaceAfter for p in paras)
        used += sum(p.style.spaceBefore for p in paras[1:])  # nothing above the first heading
        if used <= height:
            break
        size -= 0.25
    return max(size, CARD_MIN)


def _layout_card(width: float, height: float) -> list[Paragraph]:
    """The card's paragraphs, wrapped to `width` at the size that fits."""
    paras = _card_flowables(_card_size(round(width, 3), round(height, 3), i18n.current()))
    for para in paras:
        para.wrap(width, height)
    return paras


def _draw_card(canvas: Canvas, table: _Table, index: int, width: float, height: float) -> None:
    """One stones card: title, the player's name if known, then the four short sections."""
    left, right, top = CARD_PAD, width - CARD_PAD, height - CARD_PAD
    canvas.setFillColor(common.INK)
    title, title_size = fonts.fit(_("{game} · stones", game=CARD.title), fonts.BOLD, CARD_TITLE, (right - left) * 0.7)
    # The title at the line's start (right to left: at the right), the player's name at its end.
    start, end, start_align, end_align = (right, left, "right", "left") if common.rtl() else (left, right, "left", "right")
    title_w = fonts.draw_string(canvas, start, top - CARD_TITLE, title, fonts.BOLD, title_size, align=start_align)
    name = table.names[index]
    if name:
        text, size = fonts.fit(name, fonts.BODY, CARD_TITLE - 1, right - left - title_w - 4 * mm)
        canvas.setFillColor(common.MUTED)
        fonts.draw_string(canvas, end, top - CARD_TITLE, text, fonts.BODY, size, align=end_align)
    canvas.setStrokeColor(common.INK)
    canvas.setLineWidth(0.6)
    rule_y = top - CARD_TITLE - 3.5
    canvas.line(left, rule_y, right, rule_y)
    y = rule_y - 4
    for i, para in enumerate(_layout_card(right - left, y - CARD_PAD)):
        if i:
            y -= para.style.spaceBefore
        y -= para.height
        para.drawOn(canvas, left, y)
        y -= para.style.spaceAfter


def _cards(table: _Table) -> list[Flowable]:
    columns, rows = CARD_GRID
    return [common.Section(CARD.title, _("Stones reference card"))] + common.slip_pages(
        table.n, lambda canvas, i, w, h: _draw_card(canvas, table, i, w, h), columns=columns, rows=rows
    )


# -- (3) the score pad --------------------------------------------------------------------------
@dataclass(frozen=True)
class _Group:
    """Memes of one sheet with the same text: the text as first written, holders, points."""

    text: str
    holders: tuple[str, ...]
    points: int


def _groups(sheet: Sheet) -> list[_Group]:
    """The sheet's meme groups in branch order. Points come from `sheet_score` of a sheet
    holding only that group, so the pad never restates the scoring rule."""
    order: dict[str, list[Meme]] = {}
    for _branch, meme in sheet.memes():
        order.setdefault(meme.key, []).append(meme)
    groups = []
    for key, memes in order.items():
        alone = dataclasses.replace(sheet, branches=tuple(m if m is not None and m.key == key else None for m in sheet.branches))
        groups.append(_Group(memes[0].text, tuple(m.holder for m in memes), sheet_score(alone)))
    return groups


def _pad_block(table: _Table, seat: int, width: float, ranks: dict[int, str]) -> Flowable:
    """One player's block: a row per meme group, then total, tie-break and rank."""
    widths = common.columns_of(width, PAD_WEIGHTS)
    name = table.names[seat]
    head_name = _p(f"<b>{markup(name)}</b>" if name else markup(_("Player: ____________")), "cell-head-left")
    copies, points = _("Copies (k)"), _("Points")
    heads = [common.fitted_style("cell-head", words.split(), w) for words, w in ((copies, widths[1]), (points, widths[2]))]
    header: Sequence[common.Cell] = [head_name, _p(markup(copies), heads[0]), _p(markup(points), heads[1])]
    state = table.state
    rows: list[Sequence[common.Cell]] = []
    if state is None:
        rows += [[None, None, None] for _row in range(PAD_GROUP_ROWS)]
        rows.append([_p(common.rich(_("<b>Total</b>")), "cell-right"), None, None])
        rows.append([_p(markup(_("Tie-break: stones ____ + seeds ____ =")), "cell-right"), None, None])
        rows.append([_p(common.rich(_("<b>Rank</b>")), "cell-right"), None, None])
    else:
        sheet = state.sheets[seat]
        for group in _groups(sheet):
            holders = markup(name_list(group.holders))
            held = common.fill(_("held by {names}", names="{names}"), names=holders)
            cell = _p(f'{markup(group.text)}<br/><font size="7" color="{_hex(common.MUTED)}">{held}</font>')
            rows.append([cell, _p(str(len(group.holders)), "cell-centre"), _p(str(group.points), "cell-centre")])
        if not sheet.filled:
            rows.append([_p(f"<i>{markup(_('no memes'))}</i>"), None, _p("0", "cell-centre")])
        rows.append([_p(common.rich(_("<b>Total</b>")), "cell-right"), None, _p(f"<b>{sheet_score(sheet)}</b>", "cell-centre")])
        tie = tiebreaks(state)[seat]
        tie_text = markup(_("Tie-break: stones {stones} + seeds {seeds} =", stones=sheet.stones, seeds=sheet.seeds))
        rows.append([_p(tie_text, "cell-right"), None, _p(str(tie), "cell-centre")])
        rows.append([_p(common.rich(_("<b>Rank</b>")), "cell-right"), None, _p(f"<b>{ranks[seat]}</b>", "cell-centre")])
    grid = common.ruled_table(header, rows, widths, row_height=PAD_ROW)
    last = len(rows)
    # The three summary rows read across: their label spans the meme and copies columns.
    grid.setStyle([("SPAN", (0, r), (1, r)) for r in range(last - 2, last + 1)] + [("LINEABOVE", (0, last - 2), (-1, last - 2), 1, common.INK)])
    return grid


def _ranks(state: State) -> dict[int, str]:
    """Seat -> '1', or '2=' when the rank is shared."""
    table = standings(state)
    shared = {rank for rank, _, _ in table if sum(1 for r, _, _ in table if r == rank) > 1}
    return {seat: f"{rank}{'=' if rank in shared else ''}" for rank, seat, _ in table}


def _score_pad(table: _Table, width: float) -> list[Flowable]:
    """Per player: meme groups, total, tie-break, rank; then the standings."""
    state = table.state
    story: list[Flowable] = [common.Section(CARD.title, _("Score pad")), _p(markup(_("Score pad")), "title")]
    if state is None:
        intro = _(
            "At the end of the story, group each player's memes by text (same words, case and spacing aside). "
            "A meme alone scores 4; a group of k copies scores 4 + k. Ties: most own stones on the sheet "
            "plus unspent seeds; still tied, a shared win."
        )
    elif state.over:
        intro = _("The story ended: {how}.", how=_ended(state))
    elif state.chapter >= 0:
        intro = _("Game in progress (chapter {chapter}): the scores if the story ended now.", chapter=state.chapter + 1)
    else:
        intro = _("Game in progress (the setting round): the scores if the story ended now.")
    story.append(_p(markup(intro), "subtitle"))
    ranks = _ranks(state) if state is not None else {}
    half = (width - PAD_GUTTER) / 2
    blocks = [_pad_block(table, seat, half, ranks) for seat in range(table.n)]
    pairs = [blocks[i : i + 2] + [""] * (2 - len(blocks[i : i + 2])) for i in range(0, len(blocks), 2)]
    # Two players side by side: a four-player pad fits one page.
    grid = Table(pairs, colWidths=[half + PAD_GUTTER / 2] * 2, hAlign="LEFT")
    grid.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (0, -1), PAD_GUTTER / 2),
                ("LEFTPADDING", (1, 0), (1, -1), PAD_GUTTER / 2),
                ("RIGHTPADDING", (1, 0), (1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 4 * mm),
            ]
        )
    )
    story.append(grid)
    standing = _("Standings") if state is None or state.over else _("Standings so far")
    story.append(KeepTogether([common.heading(standing, 2), _standings(table, width)]))
    if state is not None and state.over:
        best = [s for r, s, _score in standings(state) if r == 1]
        names = markup(common.names_text(table.label(s) for s in best))
        if len(best) == 1:
            moral = common.fill(_("{names} <b>wins and announces</b> the moral of the story.", names="{names}"), names=names)
        else:
            moral = common.fill(_("{names} <b>share the win and announce</b> the moral of the story.", names="{names}"), names=names)
        story.append(_p(moral, "body"))
    return story


def _ended(state: State) -> str:
    """Why the story ended, in the current language."""
    why = ending(state)
    return i18n.render(why) if why is not None else i18n.render(state.ended)


def _standings(table: _Table, width: float) -> Flowable:
    # TRANSLATORS: column heads of the score pad's standings ("Score" is the noun).
    heads = (_("Rank"), _("Player"), _("Score"), _("Own stones"), _("Unspent seeds"), _("Tie-break"))
    widths = common.columns_of(width, STANDINGS_WEIGHTS)
    header: Sequence[common.Cell] = [_p(markup(h), common.fitted_style("cell-head", h.replace("-", " ").split(), w)) for h, w in zip(heads, widths)]  # a hyphen is a break
    state = table.state
    rows: list[Sequence[common.Cell]] = []
    if state is None:
        rows = [[None, _p(markup(table.names[s]), "cell-big"), None, None, None, None] for s in range(table.n)]
        return common.ruled_table(header, rows, widths, row_height=STANDINGS_ROW)
    ranks = _ranks(state)
    ties = tiebreaks(state)
    for _rank, seat, score in standings(state):
        sheet = state.sheets[seat]
        rows.append(
            [
                _p(ranks[seat], "cell-number"),
                _p(markup(table.label(seat)), "cell-big"),
                _p(f"<b>{score}</b>", "cell-number"),
                _p(str(sheet.stones), "cell-number"),
                _p(str(sheet.seeds), "cell-number"),
                _p(str(ties[seat]), "cell-number"),
            ]
        )
    return common.ruled_table(header, rows, widths, row_height=STANDINGS_ROW)


# -- the rules card ----------------------------------------------------------------------------
def rules_card(table: _Table, width: float) -> list[Flowable]:
    """The game on one page, in the project's reading (RULINGS.md)."""
    item = _derived("rules-item", "bullet")

    def bullets(*items: str) -> list[Flowable]:
        return common.bullets(*items, look=item)

    # The card's messages are plain text (no markup): each is escaped and shaped by `markup`.
    return [
        *common.card_top(
            CARD.title,
            markup(
                _(
                    "3-10 players tell one story; each plays a Dangerous Idea spreading memes through its characters. {chapters} chapters for {players} players.",
                    chapters=table.chapter_count, players=table.n,
                )
            ),
        ),
        common.heading(_("Setup"), 2),
        *bullets(markup(_("Place {stones} stones on your five nodes. Then, in seat order, write one leaf and one coiled meme, "
                          "each with a holder (a character of the story) and a stone on it.", stones=table.start_stones)),
                 markup(_("Each sheet has {seeds} red seeds: cross one off to re-roll a die.", seeds=table.seeds))),
        common.heading(_("A chapter"), 2),
        *bullets(markup(_("Its starter announces the title; turns go round to the left and the starter plays last.")),
                 markup(_("Bonus stones on every filled meme refill to 2."))),
        common.heading(_("A turn"), 2),
        *bullets(markup(_("Take 2 stones, placed anywhere; then up to two actions: Gain (3 stones), Move (each stone one step), "
                          "Create a new meme or Spread one to a new holder."))),
        common.heading(_("A meme action"), 2),
        *bullets(markup(_("1. You stake stones from Create (or Probe to spread), Think, and your memes.")),
                 markup(_("2. Each other player connects (stones add to the pool) or defends (each stone removes two).")),
                 markup(_("3. Roll 2d6: at or under the pool succeeds; 11 and 12 always fail. Seeds re-roll one die."))),
        # TRANSLATORS: the rules card's heading over how a score is counted.
        common.heading(_("Score"), 2),
        *bullets(markup(_("A meme alone scores 4; k copies of the same meme score 4 + k. Ties: stones plus unspent seeds."))),
    ]


# -- (4) the story as told ------------------------------------------------------------------
class _WriteLines(common.Strip):
    """`count` ruled lines to write on, `gap` apart."""

    def __init__(self, count: int, gap: float = 9 * mm) -> None:
        super().__init__(count * gap)
        self.count = count
        self.gap = gap

    def draw(self) -> None:
        for i in range(self.count):
            _write_line(self.canv, 0, self.width, i * self.gap + 1)


def _story_styles(width: float) -> dict[str, ParagraphStyle]:
    """Book-like styles: a narrow measure centred on the page."""
    indent = max(0.0, (width - STORY_MEASURE) / 2)
    side = {"leftIndent": indent, "rightIndent": indent}
    return {
        "chapter": _derived("chapter", "h1", fontSize=13, leading=17, spaceBefore=10, spaceAfter=5, keepWithNext=1, **side),
        "narration": _derived("narration", "body", fontSize=9.8, leading=14, spaceAfter=5, **side),
        "outcome": _derived(
            "outcome", "body", fontName=fonts.ITALIC, fontSize=8.2, leading=11, textColor=common.MUTED, spaceAfter=3,
            leftIndent=indent + 4 * mm, rightIndent=indent,
        ),
        "end": _derived("end", "body", fontSize=10, leading=14, spaceAfter=6, **side),
    }


def _passage_lines(state: State, chapter: int, lines: Sequence[str]) -> list[tuple[str, int | None]]:
    """Each transcript line with its kind and speaker. The transcript gives plain lines; the
    story lines it is made of say which are narrations, so the booklet can set them apart."""
    told = [line for line in state.story if line.chapter == chapter and line.kind != "title"]
    if len(told) != len(lines):  # a transcript the story does not match: print it plainly
        return [(text, None) for text in lines]
    return [(text, line.seat if line.kind == "narration" else None) for text, line in zip(lines, told)]


def _story_flowables(table: _Table, width: float) -> list[Flowable]:
    state = table.state
    story: list[Flowable] = [common.Section(CARD.title, _("The story as told")), _p(markup(_("The story as told")), "title")]
    if table.story:
        story.append(_p(markup(table.story), "subtitle"))
    if state is None:
        story.append(
            _p(
                markup(_(
                    "Each chapter's starter announces its title, a one-sentence synopsis "
                    "(“In which Red Riding Hood sets off with a basket of goodies”). Write them here as the story goes."
                )),
                "subtitle",
            )
        )
        widths = common.columns_of(width, PLAN_WEIGHTS)
        chapter_head = _("Chapter")
        # TRANSLATORS: the story plan's column heads: who starts a chapter, and its title ("In which ...").
        header: Sequence[common.Cell] = [
            _p(markup(chapter_head), common.fitted_style("cell-head", chapter_head.split(), widths[0])),
            _p(markup(_("Starter")), "cell-head"),
            _p(markup(_("Title: in which …")), "cell-head-left"),
        ]
        rows: list[Sequence[common.Cell]] = []
        for k in range(table.chapter_count):
            starter = table.names[k % table.n]
            seat = markup(starter) if starter else markup(_("seat {number}", number=k % table.n + 1))
            rows.append([_p(str(k + 1), "cell-number"), _p(seat, "cell-centre"), None])
        story.append(common.ruled_table(header, rows, widths, row_height=PLAN_ROW, zebra=True))
        story.append(
            KeepTogether(
                [
                    common.spacer(4 * mm),
                    common.heading(_("The moral of the story"), 2),
                    _p(markup(_("Announced by the winner: ______________________")), "body"),
                    _WriteLines(MORAL_LINES),
                ]
            )
        )
        return story
    styles = _story_styles(width)
    told_by = common.names_text(table.names)
    story.append(_p(markup(_n("Told by {names}, in {n} chapter.", "Told by {names}, in {n} chapters.", table.chapter_count, names=told_by)), "subtitle"))
    for passage in transcript(state, i18n.render):
        story.append(Paragraph(markup(passage.heading), styles["chapter"]))
        for text, seat in _passage_lines(state, passage.chapter, passage.lines):
            speaker = table.names[seat] if seat is not None else ""
            if seat is not None and text.startswith(f"{speaker}: "):
                body = f"<b>{markup(speaker)}</b>: {markup(text[len(speaker) + 2:])}"
                story.append(Paragraph(body, styles["narration"]))
            else:
                story.append(Paragraph(markup(text), styles["outcome"]))
    story += _story_end(table, styles)
    return story


def _story_end(table: _Table, styles: dict[str, ParagraphStyle]) -> list[Flowable]:
    """The winner, the final scores and room for the moral; or where the story stands.

    The model keeps no moral (it is spoken at the table), so the booklet leaves lines for it.
    """
    state = table.state
    assert state is not None
    indent = styles["end"].leftIndent
    scores = _Indented(_standings(table, STORY_MEASURE), indent)
    if not state.over:
        if state.chapter >= 0:
            stands = _("The story stands at Chapter {chapter} of {count}. The scores so far:", chapter=state.chapter + 1, count=table.chapter_count)
        else:
            stands = _("The story stands at the setting round. The scores so far:")
        return [
            Paragraph(markup(_("To be continued")), styles["chapter"]),
            Paragraph(markup(stands), styles["end"]),
            scores,
        ]
    best = [s for r, s, _score in standings(state) if r == 1]
    names = [table.label(s) for s in range(table.n)]
    winners = f"<b>{markup(common.names_text(names[s] for s in best))}</b>"
    if len(best) == 1:
        moral = common.fill(_("{names} wins and announces the moral of the story:", names="{names}"), names=winners)
    else:
        moral = common.fill(_("{names} share the win and announce the moral of the story:", names="{names}"), names=winners)
    return [
        Paragraph(markup(_("The end")), styles["chapter"]),
        Paragraph(markup(_("The story ends: {how}. The final scores:", how=_ended(state))), styles["end"]),
        scores,
        common.spacer(5 * mm),
        KeepTogether(
            [
                Paragraph(markup(_("The moral of the story")), styles["chapter"]),
                Paragraph(moral, styles["end"]),
                _Indented(_WriteLines(MORAL_LINES), indent),
                common.spacer(3 * mm),
                Paragraph(markup(_("And now you know what the story is really all about.")), styles["outcome"]),
            ]
        ),
    ]


class _Indented(Flowable):
    """A flowable drawn inside the story's measure (indented on both sides)."""

    def __init__(self, inner: Flowable, indent: float) -> None:
        super().__init__()
        self.inner = inner
        self.indent = indent
        self.height = 0.0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        _, self.height = self.inner.wrap(availWidth - 2 * self.indent, availHeight)
        return availWidth, self.height

    def draw(self) -> None:
        self.inner.drawOn(self.canv, self.indent, 0)


# -- the document (printables.document) ----------------------------------------------------------
def sheets(table: _Table, page: str) -> list[Flowable]:
    """A character sheet per player, the stones reference cards, the score pad, the story as
    told, the rules card and (until the game is over) the seat slips: each philosophy's phone
    link as a QR code from `table.seat_links`, or blank."""
    width, _ = common.frame_size(page)
    story: list[Flowable] = _character_sheets(table, page) + [PageBreak()]
    story += _cards(table) + [PageBreak()]
    story += _score_pad(table, width) + [PageBreak()]
    story += _story_flowables(table, width)
    story += [PageBreak()] + rules_card(table, width)
    if table.state is None or not table.state.over:
        story += [PageBreak()] + slips.seat_slips(table.seat_links, game_title=CARD.title, players=table.n, page=page)
    return story


def booklet(table: _Table, width: float) -> list[Flowable]:
    """The game's booklet: the rules card, then the story as told, on half pages `width` wide."""
    return rules_card(table, width) + [PageBreak()] + _story_flowables(table, width)


# -- the debrief handout (printables.debrief asks for these) ----------------------------------------
DEBRIEF_ROW = 6 * mm
DEBRIEF_TREE_WEIGHTS = (22, 10, 68)
#: story lines printed per chapter; the rest is in the booklet and the CSV.
DEBRIEF_CHAPTER_LINES = 14
DEBRIEF_LINE_CHARS = 240
DEBRIEF_TREE_HEIGHT = 52 * mm
DEBRIEF_TREE_ROW = 5.5 * mm  # between a hub's three branches
DEBRIEF_TREE_TEXT = 7.5  # points
DEBRIEF_TREE_LABEL_SHARE = 0.37  # of the width, for each side's meme labels
DEBRIEF_NODE = 6.5 * mm  # a hub's radius


def _chapter_ends(game: Any) -> dict[int, State]:
    """The state at the end of the setting round (0) and of each chapter (1..)."""
    starts = first_states(game, lambda s: s.chapter)
    ends = {k: starts[k + 1] for k in range(-1, max(starts)) if k + 1 in starts}
    ends[max(starts)] = game.state
    return {k + 1: s for k, s in ends.items() if k >= -1}


def _tree_text(sheet: Sheet, chapter: int) -> str:
    """A sheet's memes by hub as markup; memes written in `chapter` in bold."""
    parts = []
    for hub in HUBS:
        memes = [m for b, m in sheet.memes() if b.startswith(f"{hub}-")]
        if memes:
            told = ", ".join(f"<b>{markup(_quote(m))}</b>" if m.chapter == chapter else markup(_quote(m)) for m in memes)
            parts.append(f"{markup(_node_name(hub))}: {told}")
    return "; ".join(parts) or markup(_("no memes"))


def _quote(meme: Any) -> str:
    # The mark first: a text that starts right-to-left then stays inside its quotes.
    return f"\u200e‘{meme.text}’ – {meme.holder}"


def debrief_lines(game: Any, reveal: bool = True) -> list[str]:
    """The story in five lines."""

    state: State = game.state
    outcomes = state.outcomes
    won = [o for o in outcomes if o.success]
    told = max(state.chapter + 1, 0)
    if state.over:
        first = _n(
            "{players} players told a story in {told} of {n} chapter; it ended: {how}.",
            "{players} players told a story in {told} of {n} chapters; it ended: {how}.",
            state.setup.chapter_count, players=state.n, told=told, how=_ended(state),
        )
    else:
        first = _n(
            "{players} players told a story in {told} of {n} chapter; it goes on.",
            "{players} players told a story in {told} of {n} chapters; it goes on.",
            state.setup.chapter_count, players=state.n, told=told,
        )
    actions = _n("{n} meme action", "{n} meme actions", len(outcomes))
    replaced = _n("{n} meme replaced.", "{n} memes replaced.", sum(1 for o in won if o.target is not None))
    lines = [
        first,
        _("{actions}: {won} succeeded, {lost} failed; {replaced}", actions=actions, won=len(won), lost=len(outcomes) - len(won), replaced=replaced),
    ]
    if state.titles:
        lines.append(_("Chapters: {titles}.", titles="; ".join(f"{i + 1}. {t}" for i, t in enumerate(state.titles))))
    counts: dict[str, tuple[int, str]] = {}
    for sheet in state.sheets:
        for _branch, m in sheet.memes():
            n, text = counts.get(m.key, (0, m.text))
            counts[m.key] = (n + 1, text)
    if counts:
        n, text = max(counts.values(), key=lambda v: v[0])
        lines.append(_n("The most widely held meme, on {n} branch: ‘{text}’.", "The most widely held meme, on {n} branches: ‘{text}’.", n, text=text))
    lines.append(common.leaders(game, lambda best: _("with {points} points", points=best)))
    return lines


#: A class's Dangerous Ideas tables are not compared.
debrief_compare = None


def debrief_story(game: Any, *, label: str, width: float, reveal: bool, reveal_pledges: bool | None = None, stopped: str = "") -> list[Flowable]:
    """One table's debrief: the results, the story in five lines, the points chapter by chapter,
    then the story chapter by chapter with each player's tree at the chapter's end, and the
    trees as they stand. Nothing is secret in Dangerous Ideas."""

    state: State = game.state
    story: list[Flowable] = common.results_block(game, width, score=_("Points"), stopped=stopped, ended=ending(state))
    story += common.story_block(debrief_lines(game, reveal))
    ends = _chapter_ends(game)
    chapters = [k for k in sorted(ends) if k >= 1]
    if chapters:
        points = [[float(sheet_score(ends[k].sheets[s])) for k in chapters] for s in range(state.n)]
        chart = charts.Chart(
            _("Points at the end of each chapter"), [str(k) for k in chapters], charts.series_of(state.names, points), y_min=0, y_label=_("points · chapter")
        )
        story += [common.spacer(3 * mm), charts.keep(chart)]
    passages = {p.chapter: p for p in transcript(state, i18n.render)}
    widths = common.columns_of(width, DEBRIEF_TREE_WEIGHTS)
    for k in sorted(ends):
        passage = passages.get(k)
        heading = passage.heading if passage is not None else (_("The setting") if k == 0 else _("Chapter {chapter}", chapter=k))
        part: list[Flowable] = [common.heading(heading, 2)]
        lines = list(passage.lines) if passage is not None else []
        for line in lines[:DEBRIEF_CHAPTER_LINES]:
            text = line if len(line) <= DEBRIEF_LINE_CHARS else line[: DEBRIEF_LINE_CHARS - 1] + "…"
            part.append(Paragraph(markup(text if common.rtl() else common.english(text)), common.style("small")))
        if len(lines) > DEBRIEF_CHAPTER_LINES:
            more = len(lines) - DEBRIEF_CHAPTER_LINES
            part.append(common.para(_n("… and {n} more line in the story booklet.", "… and {n} more lines in the story booklet.", more), "small"))
        end = ends[k]
        rows: list[Sequence[common.Cell]] = [
            [end.names[s], str(sheet_score(end.sheets[s])), _p(_tree_text(end.sheets[s], k))] for s in range(state.n)
        ]
        heads = [_("Player"), _("Points"), _("The tree at the chapter's end (new memes in bold)")]
        part.append(common.ruled_table(heads, rows, widths, row_height=DEBRIEF_ROW, zebra=True))
        story += [common.spacer(3 * mm), *part]
    # The trees as they stand, laid out as on the players' sheets.
    story.append(PageBreak())
    story.append(common.Section(CARD.title, _("Debrief · the trees · {table}", table=label) if label else _("Debrief · the trees")))
    story.append(common.heading(_("The trees as they stand"), 1))
    for seat in range(state.n):
        title = _("{name} · {points} points", name=state.names[seat], points=sheet_score(state.sheets[seat]))
        title = title if common.rtl() else common.english(title)
        story.append(KeepTogether([common.para(title, "h2"), _Tree(state, seat)]))
    return story


class _Tree(common.Strip):
    """One player's tree, small: Think in the middle, the four hubs around it with their
    stones, each hub's three branches and the memes on them (text, holder, stones)."""

    def __init__(self, state: State, seat: int) -> None:
        super().__init__(DEBRIEF_TREE_HEIGHT)
        self.state = state
        self.seat = seat

    def draw(self) -> None:
        canvas = self.canv
        sheet = self.state.sheets[self.seat]
        w, h = self.width, DEBRIEF_TREE_HEIGHT
        label_w = w * DEBRIEF_TREE_LABEL_SHARE
        # As on the sheet, right to left the tree grows from the right (Probe at the right).
        sides = {hub: common.mirror(0, w).facing(HUB_PLACE[hub][0]) for hub in HUBS}
        canvas.saveState()
        centres = {"think": (w / 2, h / 2)}
        for hub in HUBS:
            side, level = sides[hub], HUB_PLACE[hub][1]
            centres[hub] = (w / 2 + side * w * 0.09, h / 2 + level * h * 0.25)
        canvas.setStrokeColor(common.INK)
        canvas.setLineWidth(0.8)
        for hub in HUBS:
            canvas.line(*centres["think"], *centres[hub])
        for hub in HUBS:
            side = sides[hub]
            hx, hy = centres[hub]
            for i in range(3):
                branch = f"{hub}-{i + 1}"
                y = hy + (1 - i) * DEBRIEF_TREE_ROW
                x_end = label_w if side < 0 else w - label_w
                canvas.setStrokeColor(common.GRID)
                canvas.line(hx, hy, x_end, y)
                meme = sheet.meme(branch)
                kind = self.state.setup.branch_type(branch)
                text = f"{_quote(meme)} · {meme.stones}+{meme.bonus}" if meme is not None else _("({kind}: empty)", kind=_kind(kind))
                size = DEBRIEF_TREE_TEXT
                fitted, size = fonts.fit(text, fonts.BODY, size, label_w - 2 * mm)
                canvas.setFillColor(common.INK if meme is not None else common.MUTED)
                x = x_end - 1 * mm if side < 0 else x_end + 1 * mm
                fonts.draw_string(canvas, x, y - size / 3, fitted, fonts.BODY, size, align="right" if side < 0 else "left")
        for node, (x, y) in centres.items():
            radius = DEBRIEF_NODE * (1.3 if node == "think" else 1)
            canvas.setFillColor(colors.HexColor("#f0f0f0"))
            canvas.setStrokeColor(common.INK)
            canvas.circle(x, y, radius, stroke=1, fill=1)
            canvas.setFillColor(common.INK)
            # A longer language's name may run over the circle's edge rather than be cut.
            name, name_size = fonts.fit(_node_name(node), fonts.BOLD, DEBRIEF_TREE_TEXT, 2 * radius + 12)
            fonts.draw_string(canvas, x, y + 0.5, name, fonts.BOLD, name_size, align="centre")
            fonts.draw_string(canvas, x, y - DEBRIEF_TREE_TEXT - 0.5, str(sheet.node(node)), fonts.BODY, DEBRIEF_TREE_TEXT, align="centre")
        canvas.restoreState()
