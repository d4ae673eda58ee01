"""Parts every game's printables share: page sizes, the document, styles, rows, slips, previews,
and the blocks of a debrief handout.

Plain functions and tiny flowables: a game module turns its table (blank, from a setup or as
played: a `Source`) into a list of flowables, and `printables.document` hands it to
`build_document`, which returns the PDF's bytes. Identical input always gives byte-identical
PDFs (ReportLab's invariant mode), so tests can compare them and a print studio can cache them.

User text reaches a Paragraph only through `fonts.markup`: `para` and table cells given as
`str` are treated as plain text; pass a ready `Paragraph` where markup is wanted.
"""

from __future__ import annotations

import contextvars
import dataclasses
import functools
import io
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeAlias, TypeVar

import pypdfium2 as pdfium
from babel.lists import format_list
from PIL import Image
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle, StyleSheet1
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageBreak,
    PageTemplate,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.flowables import BalancedColumns

import i18n
from i18n import _
from rules.core import AnyGame
from rules.games import card

from . import fonts
from .fonts import BidiParagraph as Paragraph

__all__ = [
    "PAGE_SIZES",
    "Box",
    "Cell",
    "Mirror",
    "Section",
    "SlipSheet",
    "Source",
    "Strip",
    "Swatch",
    "build_document",
    "bullets",
    "card_top",
    "columns_of",
    "english",
    "fill",
    "fitted_style",
    "frame_size",
    "heading",
    "leaders",
    "mirror",
    "page_count",
    "page_size",
    "para",
    "png_bytes",
    "render_png",
    "results_block",
    "ruled_table",
    "slip_boxes",
    "slip_pages",
    "spacer",
    "story_block",
    "style",
    "stylesheet",
    "variants",
    "write_line",
]

# -- layout ------------------------------------------------------------------------------
PAGE_SIZES: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
MARGIN_SIDE = 15 * mm
MARGIN_TOP = 20 * mm
MARGIN_BOTTOM = 17 * mm
HEADER_BASELINE = 11 * mm  # from the top edge
FOOTER_BASELINE = 9 * mm  # from the bottom edge
HEADER_SIZE = 9
FOOTER_SIZE = 8
RULE_WIDTH = 0.5
INK = colors.HexColor("#1a1a1a")
MUTED = colors.HexColor("#5c5c5c")
GRID = colors.HexColor("#8a8a8a")
HEAD_FILL = colors.HexColor("#e6e6e6")
ZEBRA_FILL = colors.HexColor("#f5f5f5")
CELL_PAD = 3  # points of padding inside table cells
CROP_LENGTH = 5 * mm
CROP_OFFSET = 2 * mm  # gap between a slip's edge and its crop marks
CUT_GUIDE = colors.HexColor("#b0b0b0")
BLEED_FILL = colors.HexColor("#f2f2f2")
PREVIEW_SCALE = 1.0  # 72 dpi: a full page is 595 x 842 pixels on A4
BLEED = 3 * mm  # how far a cut-out's printing runs past its cut line, when bleed is on
#: Half of each page size, for booklets folded in half (A5 on A4, half-letter on Letter).
BOOKLET_PAGES: dict[str, tuple[float, float]] = {"a4": (A4[1] / 2, A4[0]), "letter": (LETTER[1] / 2, LETTER[0])}
BOOKLET_MARGIN = 12 * mm
#: Print options of the document being built (set by `build_document`, read when drawing).
_BLEED: contextvars.ContextVar[bool] = contextvars.ContextVar("playbook_bleed", default=False)


# -- pages ---------------------------------------------------------------------------------
SetupT = TypeVar("SetupT")
StateT = TypeVar("StateT")


@dataclass(frozen=True)
class Source(Generic[SetupT, StateT]):
    """What one game's sheets are printed from, checked by `printables.document` for every game
    alike: blank sheets for `names` ("" for a seat whose name is written in by hand) with the
    game's default variants; or a `setup` (its names and variants); or, with its `state` as
    well, what was played."""

    names: tuple[str, ...]
    setup: SetupT | None = None
    state: StateT | None = None
    #: the GM's name on the sheets of a game with a GM (its card's `gm`), "" to write in.
    gm: str = ""
    #: (seat name, URL) per seat, for seat slips with QR codes (a game that hides); None: blank slips.
    seat_links: tuple[tuple[str, str], ...] | None = None


def variants(source: Source[Any, Any], setup_type: type, names: Iterable[str]) -> dict[str, Any]:
    """The setup fields `names` that sheets print with: the source's setup's, or the defaults of
    the game's `setup_type` for blank sheets."""
    if source.setup is not None:
        return {name: getattr(source.setup, name) for name in names}
    defaults = {f.name: f.default for f in dataclasses.fields(setup_type)}
    return {name: defaults[name] for name in names}


def page_size(name: str) -> tuple[float, float]:
    """(width, height) in points of a page size by name: 'a4' or 'letter' (or the half page
    of a booklet folded from one, 'a4-booklet' or 'letter-booklet')."""
    key = str(name).strip().lower()
    if key.endswith("-booklet") and key.removesuffix("-booklet") in BOOKLET_PAGES:
        return BOOKLET_PAGES[key.removesuffix("-booklet")]
    if key not in PAGE_SIZES:
        raise ValueError(f"unknown page size {name!r}; choose one of: {', '.join(PAGE_SIZES)}")
    return PAGE_SIZES[key]


def frame_size(page: str) -> tuple[float, float]:
    """(width, height) of the writable area inside the margins of `page`."""
    width, height = page_size(page)
    return width - 2 * MARGIN_SIDE, height - MARGIN_TOP - MARGIN_BOTTOM


# -- styles ----------------------------------------------------------------------------------
def rtl() -> bool:
    """Whether the sheets being drawn read right to left (the current language's direction)."""
    return i18n.direction() == "rtl"


def stylesheet() -> StyleSheet1:
    """The one stylesheet, all in the registered DejaVu family; in a right-to-left language
    its text starts at the right (what reads "left" here is the line's start)."""
    return _stylesheet(rtl())


@functools.cache
def _stylesheet(right_to_left: bool) -> StyleSheet1:
    fonts.register()
    sheet = StyleSheet1()
    start = TA_RIGHT if right_to_left else TA_LEFT
    base = ParagraphStyle("body", fontName=fonts.BODY, fontSize=10, leading=13, textColor=INK, spaceAfter=4, alignment=start)
    sheet.add(base)
    sheet.add(ParagraphStyle("title", parent=base, fontName=fonts.BOLD, fontSize=20, leading=24, spaceAfter=4))
    sheet.add(ParagraphStyle("subtitle", parent=base, textColor=MUTED, fontSize=10, leading=13, spaceAfter=8))
    sheet.add(ParagraphStyle("h1", parent=base, fontName=fonts.BOLD, fontSize=15, leading=19, spaceBefore=2, spaceAfter=6))
    sheet.add(ParagraphStyle("h2", parent=base, fontName=fonts.BOLD, fontSize=11.5, leading=14, spaceBefore=7, spaceAfter=3))
    sheet.add(ParagraphStyle("small", parent=base, fontSize=8, leading=10, textColor=MUTED, spaceAfter=2))
    indent = {"rightIndent": 12} if right_to_left else {"leftIndent": 12, "bulletIndent": 2}
    sheet.add(ParagraphStyle("bullet", parent=base, spaceAfter=2, **indent))
    sheet.add(ParagraphStyle("cell", parent=base, fontSize=8.5, leading=10.5, spaceAfter=0))
    sheet.add(ParagraphStyle("cell-centre", parent=sheet["cell"], alignment=TA_CENTER))
    sheet.add(ParagraphStyle("cell-right", parent=sheet["cell"], alignment=TA_LEFT if right_to_left else TA_RIGHT))
    sheet.add(ParagraphStyle("cell-big", parent=sheet["cell"], fontSize=11, leading=13))
    sheet.add(ParagraphStyle("cell-number", parent=sheet["cell-big"], alignment=TA_CENTER))
    sheet.add(ParagraphStyle("cell-symbol", parent=sheet["cell"], fontSize=18, leading=20, alignment=TA_CENTER))
    sheet.add(ParagraphStyle("cell-head", parent=sheet["cell"], fontName=fonts.BOLD, fontSize=8, leading=9.5, alignment=TA_CENTER))
    sheet.add(ParagraphStyle("cell-head-left", parent=sheet["cell-head"], alignment=start))
    return sheet


def style(name: str) -> ParagraphStyle:
    """A paragraph style from the stylesheet by name."""
    sheet = stylesheet()
    if name not in sheet:
        raise KeyError(f"no style {name!r}; the stylesheet has {', '.join(sorted(sheet.byName))}")
    style: ParagraphStyle = sheet[name]
    return style


def fitted_style(name: str, words: Iterable[str], width: float, min_size: float = fonts.MIN_SIZE) -> ParagraphStyle:
    """Style `name`, shrunk (down to `min_size`, never under 7 pt) so the longest of `words` fits `width`
    less the cell padding: narrow header cells then never break a word in two."""
    base = style(name)
    # A hair under the room: a word sized to fit exactly can still be split by rounding.
    room = (width - 2 * CELL_PAD) * 0.97
    widest = max((fonts.string_width(w, base.fontName, base.fontSize) for w in words), default=0.0)
    if widest <= room:
        return base
    size = max(min_size, fonts.MIN_SIZE, base.fontSize * room / widest)
    return ParagraphStyle(f"{name}-{size:.2f}", parent=base, fontSize=size, leading=size * base.leading / base.fontSize)


def para(text: object, style_name: str = "body") -> Paragraph:
    """A paragraph of plain (user) text: escaped, never read as markup."""
    return Paragraph(fonts.markup(text), style(style_name))


_TAG = re.compile(r"(<[^<>]*>)")


def rich(text: str) -> str:
    """Paragraph markup from a translated message that carries its own tags (`<b>`): the text
    between the tags goes through `fonts.markup` (escaped, each script shaped in its font);
    the tags stay. Only for messages whose values are not user text: a name may hold "<"."""
    return "".join(part if _TAG.fullmatch(part) else fonts.markup(part) for part in _TAG.split(text))


_FIELD = re.compile(r"\{(\w+)\}")


def fill(text: str, **values: str) -> str:
    """Paragraph markup of a translated message whose `values` are markup already (a colour
    with its shape, escaped names): say the message with each such field as its own value
    (`_("Eaten {antibody}", antibody="{antibody}")`), and this sets the message's words as
    `rich` does (its tags kept, its text escaped and shaped) and then puts the values in."""
    return _FIELD.sub(lambda m: values.get(m.group(1), m.group(0)), rich(text))


def bullets(*items: str, look: str | ParagraphStyle = "bullet") -> list[Flowable]:
    """A bulleted paragraph per item, of markup the caller escaped (`fonts.markup`)."""
    return numbered([("•", text) for text in items], look)


def two_columns(parts: Sequence[Flowable], gutter: float, *, long: bool = False) -> list[Flowable]:
    """`parts` in two balanced columns, read from the line's start: left first, or right first
    in a right-to-left language. ReportLab balances left to right only, so a right-to-left
    page sets a short block as a mirrored two-cell table and a `long` one (it may run over
    pages, which a table cell cannot) as one column."""
    if not rtl():
        return [BalancedColumns(list(parts), nCols=2, innerPadding=gutter, spaceBefore=0, spaceAfter=0)]
    if long:
        return list(parts)
    return [_MirroredColumns(list(parts), gutter)]


class _MirroredColumns(Flowable):
    """Two columns balanced by height, the first at the right: a right-to-left page's order."""

    def __init__(self, parts: list[Flowable], gutter: float) -> None:
        super().__init__()
        self.parts = parts
        self.gutter = gutter
        self.table: Table | None = None

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        column = (availWidth - self.gutter) / 2
        heights = [part.wrap(column, availHeight)[1] for part in self.parts]
        # The first column takes parts until it holds half the height (or just over).
        cut, held = 0, 0.0
        while cut < len(self.parts) and held < sum(heights) / 2:
            held += heights[cut]
            cut += 1
        first, second = self.parts[:cut], self.parts[cut:]
        self.table = Table([[second, first]], colWidths=[column, column], hAlign="RIGHT", style=TableStyle([
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ("LEFTPADDING", (1, 0), (1, 0), self.gutter),
        ]))
        return self.table.wrap(availWidth, availHeight)

    def draw(self) -> None:
        assert self.table is not None
        self.table.drawOn(self.canv, 0, 0)


def numbered(items: Sequence[tuple[str, str]], look: str | ParagraphStyle = "bullet") -> list[Flowable]:
    """A paragraph per (mark, markup) item, the mark ("•", "3.") hanging at the line's start;
    right to left the mark opens the text, since ReportLab hangs bullets on the left only."""
    given = style(look) if isinstance(look, str) else look
    if rtl():
        return [Paragraph(f"{mark}\u00a0{text}", given) for mark, text in items]
    return [Paragraph(text, given, bulletText=mark) for mark, text in items]


def card_top(game: str, subtitle: str) -> list[Flowable]:
    """The top of `game`'s rules card: the page header's section, the title and, under it,
    `subtitle` (markup the caller escaped)."""
    return [Section(game, _("Rules card")), para(_("{game} — rules card", game=game), "title"), Paragraph(subtitle, style("subtitle"))]


def heading(text: object, level: int = 1) -> Paragraph:
    """A heading (level 0 is the page title) of plain text."""
    names = {0: "title", 1: "h1", 2: "h2"}
    if level not in names:
        raise ValueError(f"heading level must be 0, 1 or 2, not {level}")
    return para(text, names[level])


# -- the page frame: header and footer --------------------------------------------------------
class Section(Flowable):
    """Invisible marker: the pages from here on belong to `material` of `game`.

    The header drawn at each page's end reads the latest marker, so one document can hold
    several games' materials (``playbook print all``). Each marker is also a PDF bookmark.
    """

    def __init__(self, game: str, material: str) -> None:
        super().__init__()
        self.game = game
        self.material = material

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return 0, 0

    def draw(self) -> None:
        canvas = self.canv
        canvas._playbook_section = (self.game, self.material)
        # Bookmark keys must be unique in the document; a per-canvas counter keeps them stable.
        count = getattr(canvas, "_playbook_sections", 0) + 1
        canvas._playbook_sections = count
        key = f"section-{count}"
        canvas.bookmarkPage(key)
        canvas.addOutlineEntry(f"{self.game}: {self.material}", key, level=0)


def _decorate(canvas: Canvas, doc: BaseDocTemplate) -> None:
    """Header (game, material, rule) and footer (page number) on every page."""
    width, height = doc.pagesize
    side = doc.leftMargin
    game, material = getattr(canvas, "_playbook_section", ("", ""))
    # Right to left the header and footer are mirrored: the game's name and "playbook" at the right.
    start, end, toward_end = (width - side, side, "left") if rtl() else (side, width - side, "right")
    toward_start = "right" if rtl() else "left"
    canvas.saveState()
    y = height - HEADER_BASELINE
    canvas.setFillColor(INK)
    used = fonts.draw_string(canvas, start, y, game, fonts.BOLD, HEADER_SIZE, align=toward_start)
    canvas.setFillColor(MUTED)
    # The material (often a name) gives way to the game's name on a narrow booklet page.
    text, size = fonts.fit(material, fonts.BODY, HEADER_SIZE, width - 2 * side - used - 4 * mm)
    fonts.draw_string(canvas, end, y, text, fonts.BODY, size, align=toward_end)
    canvas.setStrokeColor(GRID)
    canvas.setLineWidth(RULE_WIDTH)
    canvas.line(side, y - 2.5 * mm, width - side, y - 2.5 * mm)
    fonts.draw_string(canvas, start, FOOTER_BASELINE, "playbook", fonts.BODY, FOOTER_SIZE, align=toward_start)
    # TRANSLATORS: the page number in a printed sheet's footer.
    fonts.draw_string(canvas, end, FOOTER_BASELINE, _("page {n}", n=doc.page), fonts.BODY, FOOTER_SIZE, align=toward_end)
    canvas.restoreState()


class _Document(BaseDocTemplate):
    """The document template: draws the contents page's form once every page is known."""

    def _endBuild(self) -> None:
        sections = getattr(self.canv, "_playbook_contents", None)
        if sections is not None:
            sections.draw_form(self.canv)
        super()._endBuild()


def build_document(
    story: Iterable[Flowable],
    *,
    page: str = "a4",
    title: str,
    subject: str = "",
    author: str = "playbook",
    bleed: bool = False,
    margins: tuple[float, float, float] | None = None,
    size: tuple[float, float] | None = None,
) -> bytes:
    """The PDF of `story` on `page`: same input, same bytes (no dates or random ids).

    `bleed` prints every cut-out 3 mm past its cut line, with crop marks at each one;
    `size` and `margins` (side, top, bottom) override the page's, for booklet pages.
    A story that draws nothing is refused (ValueError): a PDF of no pages is a file viewers reject."""
    flowables = list(story)
    if not flowables:
        raise ValueError(f"nothing to print in {title!r}: the document would have no pages")
    width, height = size or page_size(page)
    side, top, bottom = margins or (MARGIN_SIDE, MARGIN_TOP, MARGIN_BOTTOM)
    frame_w, frame_h = width - 2 * side, height - top - bottom
    fonts.register()
    buffer = io.BytesIO()
    token = _BLEED.set(bleed)
    try:
        doc = _Document(buffer, pagesize=(width, height), leftMargin=side, rightMargin=side, topMargin=top, bottomMargin=bottom,
                        title=title, subject=subject, author=author, creator="playbook", invariant=1)  # fmt: skip
        frame = Frame(side, bottom, frame_w, frame_h, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0, id="body")
        doc.addPageTemplates([PageTemplate(id="sheet", frames=[frame], onPageEnd=_decorate)])
        doc.build(flowables)
    finally:
        _BLEED.reset(token)
    return buffer.getvalue()


# -- tables of writing rows -----------------------------------------------------------------
Cell: TypeAlias = str | Flowable | None


def _cell(value: Cell, style_name: str) -> Flowable | str:
    if value is None:
        return ""
    if isinstance(value, Flowable):
        return value
    return para(value, style_name)


def _height(cell: Flowable | str, width: float) -> float:
    if isinstance(cell, str):
        return 0.0
    return cell.wrap(width - 2 * CELL_PAD, 10_000)[1] + 2 * CELL_PAD


def ruled_table(
    header: Sequence[Cell],
    rows: Sequence[Sequence[Cell]],
    widths: Sequence[float],
    *,
    row_height: float = 10 * mm,
    cell_style: str = "cell",
    zebra: bool = False,
) -> Table:
    """A ruled grid with a repeated header row; every row at least `row_height` tall.

    Rows grow to fit their content (a wrapped name, a long payment), so nothing is cut off
    when printing what was played, and stay tall enough to write in by hand when blank.
    """
    if any(len(r) != len(widths) for r in (header, *rows)):
        raise ValueError("every row needs one cell per column")
    data = [[_cell(c, "cell-head") for c in header]]
    data += [[_cell(c, cell_style) for c in row] for row in rows]
    heights = [max(row_height if i else 0.0, *(_height(c, w) for c, w in zip(cells, widths))) for i, cells in enumerate(data)]
    commands: list[tuple[object, ...]] = [
        ("GRID", (0, 0), (-1, -1), RULE_WIDTH, GRID),
        ("BOX", (0, 0), (-1, -1), 1, INK),
        ("LINEBELOW", (0, 0), (-1, 0), 1, INK),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_FILL),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
        ("TOPPADDING", (0, 0), (-1, -1), CELL_PAD),
        ("BOTTOMPADDING", (0, 0), (-1, -1), CELL_PAD),
    ]
    if zebra:
        commands += [("BACKGROUND", (0, i), (-1, i), ZEBRA_FILL) for i in range(2, len(data), 2)]
    if rtl():
        # Right to left the first column stands at the right: its cells, widths and styles mirrored.
        return MirroredTable([row[::-1] for row in data], colWidths=list(widths)[::-1], rowHeights=heights, repeatRows=1, style=TableStyle(commands), hAlign="RIGHT")
    return Table(data, colWidths=list(widths), rowHeights=heights, repeatRows=1, style=TableStyle(commands), hAlign="LEFT")


class MirroredTable(Table):
    """A table laid out right to left: style commands given in reading order (column 0 the
    first read) land on the mirrored columns."""

    def setStyle(self, tblstyle: Any) -> None:
        commands = tblstyle.getCommands() if isinstance(tblstyle, TableStyle) else tblstyle
        super().setStyle(TableStyle([self._mirrored(tuple(c)) for c in commands]))

    def _mirrored(self, command: tuple[Any, ...]) -> tuple[Any, ...]:
        if len(command) < 3 or not isinstance(command[1], tuple) or not isinstance(command[2], tuple):
            return command
        columns = self._ncols

        def flip(column: int) -> int:
            return columns - 1 - (column if column >= 0 else columns + column)

        (c0, r0), (c1, r1) = command[1], command[2]
        return (command[0], (flip(c1), r0), (flip(c0), r1), *command[3:])


class Strip(Flowable):
    """A flowable as wide as the frame it is laid out in and `height` tall: `draw` reads its
    `width` (a rule to write on, a title bar, a small drawing)."""

    def __init__(self, height: float) -> None:
        super().__init__()
        self.width = 0.0
        self.height = height

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width = availWidth
        return availWidth, self.height


class Swatch(Flowable):
    """A filled square of `fill` with an optional centred `mark` (a shape symbol)."""

    def __init__(self, fill: colors.Color, size: float = 8 * mm, mark: str = "", mark_colour: colors.Color = colors.black) -> None:
        super().__init__()
        self.fill = fill
        self.size = size
        self.mark = mark
        self.mark_colour = mark_colour

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return self.size, self.size

    def draw(self) -> None:
        canvas = self.canv
        canvas.setFillColor(self.fill)
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(RULE_WIDTH)
        canvas.roundRect(0, 0, self.size, self.size, self.size / 8, stroke=1, fill=1)
        if self.mark:
            canvas.setFillColor(self.mark_colour)
            font_size = self.size * 0.6
            fonts.draw_string(canvas, self.size / 2, self.size * 0.29, self.mark, fonts.BODY, font_size, align="centre")


# -- slips with crop marks --------------------------------------------------------------------
@dataclass(frozen=True)
class Box:
    """A rectangle in points; (x, y) is its bottom-left corner."""

    x: float
    y: float
    width: float
    height: float


# -- drawing on the canvas in reading order -----------------------------------------------------
_OTHER_END = {"left": "right", "right": "left"}


@dataclass(frozen=True)
class Mirror:
    """A canvas drawing's horizontal places in reading order, as the page has them.

    A sheet drawn on the canvas says where things go for a reader who starts at the left;
    right to left (`on`) each place is reflected across the area from `left` to `right`, so
    the first field, column, box of a track or branch stands at the right, and a string set
    from a place is set towards the left. Only places move: a die's face, a number, a box's
    cross or a drawn mark keep their own shape. Off, every place is returned as given.
    """

    left: float
    right: float
    on: bool

    def x(self, x: float, width: float = 0.0) -> float:
        """The page's x of the left edge of a thing `width` wide whose reading-order left edge
        is at `x` (a point: `width` 0). Its own inverse: a page's x back to reading order."""
        return self.left + self.right - x - width if self.on else x

    def span(self, x0: float, x1: float) -> tuple[float, float]:
        """The page's (left, right) of the reading-order span from `x0` to `x1`."""
        return (self.x(x1), self.x(x0)) if self.on else (x0, x1)

    def box(self, box: Box) -> Box:
        return Box(self.x(box.x, box.width), box.y, box.width, box.height) if self.on else box

    def align(self, align: str) -> str:
        """A string's alignment at its place: a string set from a place runs to its other side."""
        return _OTHER_END.get(align, align) if self.on else align

    def facing(self, facing: int) -> int:
        """A drawn mark's direction along x (1 towards the right, -1 towards the left)."""
        return -facing if self.on else facing

    def draw_string(self, canvas: Canvas, x: float, y: float, text: str, font: str, size: float, align: str = "left") -> float:
        """`fonts.draw_string` at the reading-order place `x`; returns the width."""
        return fonts.draw_string(canvas, self.x(x), y, text, font, size, align=self.align(align))

    def draw_fitted(self, canvas: Canvas, x: float, y: float, text: str, font: str, size: float, width: float, align: str = "left") -> float:
        """`draw_fitted` at the reading-order place `x`; returns the width."""
        return draw_fitted(canvas, self.x(x), y, text, font, size, width, align=self.align(align))

    def line(self, canvas: Canvas, x0: float, y0: float, x1: float, y1: float) -> None:
        canvas.line(self.x(x0), y0, self.x(x1), y1)


def mirror(left: float, right: float) -> Mirror:
    """The mirror of the area from `left` to `right` for the language being drawn: on when
    it reads right to left."""
    return Mirror(left, right, rtl())


def slip_boxes(width: float, height: float, columns: int, rows: int, gutter: float = 0.0) -> list[Box]:
    """`columns` x `rows` equal slips filling a width x height area, reading order (top-left first)."""
    if columns < 1 or rows < 1:
        raise ValueError("a slip sheet needs at least one column and one row")
    slip_w = (width - (columns - 1) * gutter) / columns
    slip_h = (height - (rows - 1) * gutter) / rows
    if slip_w <= 0 or slip_h <= 0:
        raise ValueError("the slips do not fit: too many columns/rows or too wide a gutter")
    return [
        Box(c * (slip_w + gutter), height - (r + 1) * slip_h - r * gutter, slip_w, slip_h)
        for r in range(rows)
        for c in range(columns)
    ]


DrawSlip = Callable[[Canvas, int, float, float], None]


class SlipSheet(Flowable):
    """Equal slips in a grid with crop marks outside the grid and light cut guides.

    `draw_slip(canvas, index, width, height)` paints slip `index` with the origin at the slip's
    bottom-left corner. Slips `first` .. `first + count - 1` are drawn; `height` None takes
    the rest of the frame. Crop marks extend every cut line beyond the grid, so a guillotine
    can cut them; the dashed guides help with scissors.
    """

    def __init__(
        self,
        count: int,
        draw_slip: DrawSlip,
        *,
        columns: int = 2,
        rows: int = 4,
        gutter: float = 0.0,
        height: float | None = None,
        first: int = 0,
    ) -> None:
        super().__init__()
        if not 0 <= count <= columns * rows:
            raise ValueError(f"a sheet of {columns} x {rows} slips holds at most {columns * rows}, not {count}")
        self.count = count
        self.draw_slip = draw_slip
        self.columns = columns
        self.rows = rows
        self.gutter = gutter
        self.fixed_height = height
        self.first = first
        self.size = (0.0, 0.0)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.size = (availWidth, self.fixed_height if self.fixed_height is not None else availHeight)
        return self.size

    def draw(self) -> None:
        canvas = self.canv
        margin = CROP_OFFSET + CROP_LENGTH
        width, height = self.size[0] - 2 * margin, self.size[1] - 2 * margin
        bleed = _BLEED.get()
        # With bleed every slip gets a gutter of twice the bleed, and crop marks at its own corners.
        gutter = max(self.gutter, 2 * BLEED) if bleed else self.gutter
        boxes = slip_boxes(width, height, self.columns, self.rows, gutter)[: self.count]
        canvas.saveState()
        canvas.translate(margin, margin)
        for index, box in enumerate(boxes):
            canvas.saveState()
            canvas.setStrokeColor(CUT_GUIDE)
            canvas.setLineWidth(0.3)
            canvas.setDash(2, 2)
            canvas.rect(box.x, box.y, box.width, box.height, stroke=1, fill=0)
            canvas.restoreState()
            canvas.saveState()
            canvas.translate(box.x, box.y)
            if bleed:
                # The bleed: a light tint past the cut line, so a slightly-off cut shows no white edge.
                canvas.saveState()
                canvas.setFillColor(BLEED_FILL)
                canvas.rect(-BLEED, -BLEED, box.width + 2 * BLEED, box.height + 2 * BLEED, stroke=0, fill=1)
                canvas.setFillColor(colors.white)
                canvas.rect(0, 0, box.width, box.height, stroke=0, fill=1)
                canvas.restoreState()
            self.draw_slip(canvas, self.first + index, box.width, box.height)
            canvas.restoreState()
        _crop_marks(canvas, boxes, width, height)
        if bleed:
            _corner_marks(canvas, boxes)
        canvas.restoreState()


def _crop_marks(canvas: Canvas, boxes: Sequence[Box], width: float, height: float) -> None:
    """Marks beyond the grid's edges in line with every slip edge."""
    if not boxes:
        return
    xs = sorted({round(v, 3) for b in boxes for v in (b.x, b.x + b.width)})
    ys = sorted({round(v, 3) for b in boxes for v in (b.y, b.y + b.height)})
    low_y, high_y = min(b.y for b in boxes), max(b.y + b.height for b in boxes)
    low_x, high_x = min(b.x for b in boxes), max(b.x + b.width for b in boxes)
    canvas.setStrokeColor(colors.black)
    canvas.setLineWidth(0.4)
    for x in xs:
        canvas.line(x, low_y - CROP_OFFSET, x, low_y - CROP_OFFSET - CROP_LENGTH)
        canvas.line(x, high_y + CROP_OFFSET, x, high_y + CROP_OFFSET + CROP_LENGTH)
    for y in ys:
        canvas.line(low_x - CROP_OFFSET, y, low_x - CROP_OFFSET - CROP_LENGTH, y)
        canvas.line(high_x + CROP_OFFSET, y, high_x + CROP_OFFSET + CROP_LENGTH, y)


def _corner_marks(canvas: Canvas, boxes: Sequence[Box]) -> None:
    """Short marks at every slip's corners, in the gutter: each slip's own cut lines."""
    length = BLEED * 0.8
    canvas.setStrokeColor(colors.black)
    canvas.setLineWidth(0.3)
    for b in boxes:
        for x, dx in ((b.x, -1), (b.x + b.width, 1)):
            for y, dy in ((b.y, -1), (b.y + b.height, 1)):
                canvas.line(x + dx * 0.6, y, x + dx * (0.6 + length), y)
                canvas.line(x, y + dy * 0.6, x, y + dy * (0.6 + length))


def slip_pages(count: int, draw_slip: DrawSlip, *, columns: int = 2, rows: int = 4, gutter: float = 0.0) -> list[Flowable]:
    """`count` slips laid out `columns` x `rows` per page, as many full pages as needed."""
    per_page = columns * rows
    story: list[Flowable] = []
    for first in range(0, count, per_page):
        if story:
            story.append(PageBreak())
        story.append(SlipSheet(min(per_page, count - first), draw_slip, columns=columns, rows=rows, gutter=gutter, first=first))
    return story


def fit_first(texts: Sequence[str], font: str, size: float, width: float) -> tuple[str, float]:
    """(text, size) of the first of `texts` that fits `width` whole (shrunk down to 7 pt at
    most): a longer language's label falls back to a shorter one instead of being cut; only
    the last is cut short with an ellipsis when even it does not fit."""
    for text in texts[:-1]:
        fitted, fitted_size = fonts.fit(text, font, size, width)
        if fitted == text:
            return fitted, fitted_size
    return fonts.fit(texts[-1], font, size, width)


#: the narrowest a word is condensed (its width, as a share) before it is cut short.
CONDENSED = 0.75


def draw_fitted(canvas: Canvas, x: float, y: float, text: str, font: str, size: float, width: float, align: str = "left") -> float:
    """Draw `text` whole within `width`: shrunk down to 7 pt, then condensed sideways (down to
    `CONDENSED`) for a longer language's long word, and only then cut short. Return the width."""
    fitted, fitted_size = fonts.fit(text, font, size, width)
    if fitted == text:
        return fonts.draw_string(canvas, x, y, text, font, fitted_size, align=align)
    natural = fonts.string_width(text, font, fonts.MIN_SIZE)
    squeeze = max(CONDENSED, width / natural)
    if squeeze == CONDENSED:
        text, _size = fonts.fit(text, font, fonts.MIN_SIZE, width / CONDENSED)
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(squeeze, 1)
    used = fonts.draw_string(canvas, 0, 0, text, font, fonts.MIN_SIZE, align=align)
    canvas.restoreState()
    return used * squeeze


def write_line(canvas: Canvas, x0: float, x1: float, y: float, colour: colors.Color, width: float = 0.5) -> None:
    """A line to write on, from `x0` to `x1` at `y`."""
    canvas.saveState()
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(width)
    canvas.line(x0, y, x1, y)
    canvas.restoreState()


def spacer(height: float) -> Spacer:
    """Vertical space of `height` points."""
    return Spacer(1, height)


# -- previews ----------------------------------------------------------------------------------
def page_count(pdf: bytes) -> int:
    """How many pages the PDF has."""
    document = pdfium.PdfDocument(pdf)
    try:
        return len(document)
    finally:
        document.close()


def render_png(pdf: bytes, page_index: int = 0, scale: float = PREVIEW_SCALE) -> Image.Image:
    """Page `page_index` of the PDF as a Pillow image (`scale` 1 is 72 dpi)."""
    if scale <= 0:
        raise ValueError(f"scale must be positive, not {scale}")
    document = pdfium.PdfDocument(pdf)
    try:
        pages = len(document)
        if not 0 <= page_index < pages:
            counted = f"{pages} page" if pages == 1 else f"{pages} pages"
            raise IndexError(f"page {page_index} does not exist; the PDF has {counted} (0-{pages - 1})")
        page = document[page_index]
        bitmap = page.render(scale=scale)
        image = bitmap.to_pil().convert("RGB")
        bitmap.close()
        page.close()
        return image
    finally:
        document.close()


def png_bytes(pdf: bytes, page_index: int = 0, scale: float = PREVIEW_SCALE) -> bytes:
    """Page `page_index` of the PDF as PNG file bytes, for an ipywidgets Image."""
    out = io.BytesIO()
    render_png(pdf, page_index, scale).save(out, format="PNG")
    return out.getvalue()


def columns_of(total: float, weights: Sequence[float]) -> list[float]:
    """Split `total` width into columns proportional to `weights`."""
    whole = math.fsum(weights)
    return [total * w / whole for w in weights]


# -- the contents page ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """A line of the contents page: a part's heading, its detail (who plays it), and its key."""

    heading: str
    detail: str
    key: str


class ContentsMark(Flowable):
    """Invisible: the part `key` of the contents page starts on this page."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return 0, 0

    def draw(self) -> None:
        contents = getattr(self.canv, "_playbook_contents", None)
        if contents is not None:
            contents.pages.setdefault(self.key, self.canv.getPageNumber())


CONTENTS_LINE = 9 * mm
CONTENTS_NOTE = 4.5 * mm


class Contents(Flowable):
    """The contents page: a line per part with the page it starts on. The page numbers are
    known only once every page is laid out, so the lines are a form drawn at the end of the
    build (`_Document._endBuild`) and shown here: one pass, no second build."""

    FORM = "playbook-contents"

    def __init__(self, title: str, entries: Sequence[Entry], notes: Sequence[str] = ()) -> None:
        super().__init__()
        self.title = title
        self.entries = tuple(entries)
        self.notes = tuple(notes)
        self.pages: dict[str, int] = {}
        self.size = (0.0, 0.0)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        height = 30 + len(self.entries) * CONTENTS_LINE + len(self.notes) * CONTENTS_NOTE + 6 * mm
        self.size = (availWidth, min(height, availHeight))
        return self.size

    def draw(self) -> None:
        canvas = self.canv
        canvas._playbook_contents = self
        canvas.doForm(self.FORM)

    def draw_form(self, canvas: Canvas) -> None:
        width, height = self.size
        canvas.beginForm(self.FORM, 0, 0, width, height)
        canvas.setFillColor(INK)
        y = height - 20
        fonts.draw_string(canvas, 0, y, self.title, fonts.BOLD, 20)
        y -= 10 + 11
        for entry in self.entries:
            page = str(self.pages.get(entry.key, ""))
            canvas.setFillColor(INK)
            page_w = fonts.draw_string(canvas, width, y, page, fonts.BOLD, 11, align="right")
            heading, size = fonts.fit(entry.heading, fonts.BOLD, 11, width - page_w - 6 * mm)
            used = fonts.draw_string(canvas, 0, y, heading, fonts.BOLD, size)
            canvas.setStrokeColor(GRID)
            canvas.setDash(1, 2)
            canvas.line(used + 2 * mm, y, width - page_w - 2 * mm, y)
            canvas.setDash()
            canvas.setFillColor(MUTED)
            detail, size = fonts.fit(entry.detail, fonts.BODY, 8.5, width - page_w - 6 * mm)
            fonts.draw_string(canvas, 4 * mm, y - 11, detail, fonts.BODY, size)
            y -= CONTENTS_LINE
        y -= 2 * mm
        for note in self.notes:
            canvas.setFillColor(INK)
            text, size = fonts.fit(note, fonts.ITALIC, 8.5, width)
            fonts.draw_string(canvas, 0, y, text, fonts.ITALIC, size)
            y -= CONTENTS_NOTE
        canvas.endForm()


# -- booklets: half pages imposed two to a sheet, for folding in half -----------------------------
def booklet_order(pages: int) -> list[tuple[int | None, int | None]]:
    """(left, right) page indices of each sheet side, front then back, for a booklet of
    `pages` pages folded in half: padded with blanks (None) to a multiple of 4."""
    total = max(4, math.ceil(pages / 4) * 4)
    sides = []
    for sheet in range(total // 4):
        front = (total - 1 - 2 * sheet, 2 * sheet)
        back = (2 * sheet + 1, total - 2 - 2 * sheet)
        sides += [front, back]
    return [(left if left < pages else None, right if right < pages else None) for left, right in sides]


def impose_booklet(pdf: bytes, page: str) -> bytes:
    """The half pages of `pdf` two to a landscape `page`, in booklet order for duplex printing
    (flip on the short edge); stacked, folded and stapled in the middle they read in order."""
    from pypdf import PageObject, PdfReader, PdfWriter, Transformation

    width, height = page_size(page)
    sheet_w, sheet_h = height, width  # landscape
    reader = PdfReader(io.BytesIO(pdf))
    writer = PdfWriter()
    for left, right in booklet_order(len(reader.pages)):
        sheet = PageObject.create_blank_page(width=sheet_w, height=sheet_h)
        for index, x in ((left, 0.0), (right, sheet_w / 2)):
            if index is not None:
                sheet.merge_transformed_page(reader.pages[index], Transformation().translate(x, 0))
        writer.add_page(sheet)
    title = reader.metadata.title if reader.metadata is not None else None
    writer.add_metadata({"/Producer": "playbook", "/Creator": "playbook", "/Title": str(title or "")})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def build_booklet(story: Iterable[Flowable], *, page: str = "a4", title: str, subject: str = "") -> bytes:
    """`story` set on half pages of `page` and imposed as a fold-in-half booklet."""
    half = build_document(story, page=f"{page}-booklet", title=title, subject=subject)
    return impose_booklet(half, page)


# -- a debrief's blocks every game's pages share -------------------------------------------------
STANDINGS_WEIGHTS = (10, 60, 20)
STANDINGS_ROW = 6.5 * mm


def results_block(
    game: AnyGame, width: float, *, score: str = "", scores: bool = True, stopped: object = "", ended: i18n.Said | str | None = None
) -> list[Flowable]:
    """The winner (or where the game stands) and the standings table; without `scores` (a
    household's VP would give an anonymous pledge away) neither, only how the game ended.
    `stopped` says where a game the facilitator stopped stood ("stopped in year 2"): it is over
    for the handout, with the standings it stopped at. `ended` says why the game ended, where
    the state keeps no `ending` (the Said of its English `ended`)."""
    rules, state = game.rules, game.state
    names = game.setup.names
    table = rules.standings(state)
    best = [seat for rank, seat, _score in table if rank == 1]
    story: list[Flowable] = []
    if ended is None:
        ended = getattr(state, "ending", "") or getattr(state, "ended", "") or ""
    ended = i18n.render(ended)
    halted = i18n.render(stopped) if isinstance(stopped, str | i18n.Said) else str(stopped or "")
    if not scores:
        if rules.over(state):
            text = _("The game ended: {how}.", how=ended)
        elif halted:
            text = _("The game was {how}.", how=halted)
        else:
            text = _("The game is not over.")
        return [para(text + " " + _("Each {player}'s score stays its own.", player=card(rules.slug).words.player), "h2")]
    if rules.over(state):
        # The sentence starts with a word, not a name: a right-to-left name would turn the line.
        winners = names_text(names[s] for s in best)
        lead = _("The winner: {names}", names=winners) if len(best) == 1 else _("A shared win: {names}", names=winners)
        story.append(para(lead, "h2"))
        if ended:
            story.append(para(_("The game ended: {how}.", how=ended), "body"))
    elif halted:
        story.append(para(_("The game was {how}: these are the standings it stopped at.", how=halted), "h2"))
    else:
        story.append(para(_("The game is not over: these are the standings so far."), "h2"))
    # TRANSLATORS: column heads of a debrief's standings table.
    header: list[Cell] = [_("Rank"), _("Name"), score or _("Score")]
    rows: list[list[Cell]] = [[i18n.number(rank), names[seat], i18n.number(value)] for rank, seat, value in table]
    story.append(ruled_table(header, rows, columns_of(min(width, 120 * mm), STANDINGS_WEIGHTS), row_height=STANDINGS_ROW, zebra=True))
    return story


def leaders(game: AnyGame, score: Callable[[int], str]) -> str:
    """Who leads (or won) and with what, as a debrief's story says it: `score` says the best
    score in the current language, as in 'with 12 points'."""
    table = game.rules.standings(game.state)
    first = [seat for rank, seat, _score in table if rank == 1]
    names = names_text(game.setup.names[s] for s in first)
    if game.rules.over(game.state):
        return _("Won {score}: {names}.", score=score(table[0][2]), names=names)
    return _("Leading {score}: {names}.", score=score(table[0][2]), names=names)


def names_text(names: Iterable[str]) -> str:
    """Names as a list in the current language: "Ana, Bo and Cy", "Ana, Bo y Cy"."""
    items = [str(name) for name in names]
    if i18n.current() in (i18n.SOURCE, i18n.PSEUDO):
        return str(i18n.listed(items))  # English as the sheets always wrote it (no serial comma)
    return format_list(items, locale=i18n.current()) if items else ""


def english(text: str) -> str:
    """`text` set left to right whatever it starts with: an English sentence that opens with
    a right-to-left name would otherwise be laid out from the right (U+200E draws nothing)."""
    return "\u200e" + text


def story_block(lines: Sequence[str]) -> list[Flowable]:
    """The story of the game in a few lines, as bullets."""
    if not lines:
        return []
    story: list[Flowable] = [heading(_("The story in a few lines"), 2)]
    # An English sentence opening with a right-to-left name is held left to right; a
    # right-to-left language's sentence keeps its own direction.
    return story + bullets(*(fonts.markup(line if rtl() else english(line)) for line in lines))
