"""Danger World on paper: a character sheet per player character, and the GM screen.

`printables.document` prints blank sheets for named (or unnamed) characters, or "what you
played" from a `State`: each sheet filled with the character's stats (dice lost to injuries marked),
aspects, story points, one-time bonus pools, danger level, zone rank and damage boxes. The
GM screen gathers the rules the GM looks up at the table and an odds table computed by the
rules model itself (`rules.danger_world.success_chance`), never by a second implementation.

Page order: one character sheet per character (seat order), then the GM screen: page 1
checks, outcomes, PC difficulties, GM options, special dice, the general pool and the danger
zones; page 2 the odds of success and the damage track (and, from a state, who stands where
at the table).

Everything is drawn to print in black and white: filled dice are solid, damage boxes are
crossed, the danger level is a solid box with the levels already passed in light grey.
"""

from __future__ import annotations

import dataclasses
import functools
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Table, TableStyle

import i18n
from i18n import _, _n
from rules.danger_world import (
    ACCOMPLISHMENT,
    BOXES,
    GM_OPTIONS,
    HITS,
    LEVELS_PER_ZONE,
    MAX_ZONE,
    MENTAL,
    PHYSICAL,
    SECTION_NAMES,
    STAT_MAX,
    STAT_NAMES,
    STATS,
    TRACK,
    Character,
    Setup,
    State,
    success_chance,
    zone_rank,
)
from rules.decisions import first_states
from rules.games import card

from . import charts, common, fonts
from .common import Box
from .fonts import BidiParagraph as Paragraph
from .fonts import markup

__all__ = [
    "CARD",
    "MATERIALS",
    "CharacterSheet",
    "SheetLayout",
    "booklet",
    "debrief_compare",
    "debrief_lines",
    "debrief_story",
    "odds_table",
    "percent",
    "rules_card",
    "sheet_layout",
    "sheets",
    "table_of",
]

# -- layout ------------------------------------------------------------------------------
CARD = card("danger-world")
MATERIALS = ("Character sheet", "GM screen", "Rules card")
# Character sheet: panels stacked top to bottom, the notes panel takes what is left.
GAP = 2.4 * mm  # between panels
PAD = 2.2 * mm  # inside a panel
BAR = 5.2 * mm  # a panel's black title bar
BAR_SIZE = 8.5  # points: the bar's title
BAR_ASIDE = 7  # points: the small text at the bar's right end
RADIUS = 1.6 * mm  # panel corners
NAMEPLATE = 12 * mm
NAME_SIZE = 17  # points
LABEL_SIZE = 7  # points: the small caps labels under write-in lines
NAME_WEIGHTS = (52, 26, 22)  # character, player, GM
STAT_HEAD = 5 * mm  # "PHYSICAL" / "MENTAL" above each column
STAT_ROW = 7.4 * mm
STAT_NAME = 26 * mm  # room for the stat's name before its dice
STAT_SIZE = 10  # points
DIE = 5.4 * mm
DIE_GAP = 1.5 * mm
COLUMN_GAP = 6 * mm
NOTE_SIZE = 7  # points: explanations inside panels
NOTE_LEADING = 8.4
STATS_NOTE = 2 * NOTE_LEADING + 1.5 * mm
ASPECT_ROW = 7.6 * mm
ASPECT_SIZE = 10.5  # points
SP_BOXES = 12
SP_BOX = 4.4 * mm
SP_GAP = 1.1 * mm
BONUS_ROWS = 3  # bonus-pool rows; a character holding more gets two columns of them
BONUS_ROW = 5.2 * mm
BONUS_DICE = 12 * mm  # the dice column of the bonus pools
DANGER_LEVELS = LEVELS_PER_ZONE * MAX_ZONE  # boxes 0..24; the last stands for 24 and up
DANGER_BOX = 6.4 * mm  # height of a danger box
DANGER_GAP = 0.4 * mm  # between boxes of a zone
ZONE_GAP = 1.6 * mm  # between zones
ZONE_BAND = 3.8 * mm
RANK_BLOCK = 18 * mm  # the zone-rank box at the danger panel's right end
RANK_BOX = 10 * mm
DAMAGE_BOX = 6 * mm
DAMAGE_GAP = 1.5 * mm
DAMAGE_WEIGHTS = (2.9, 2.9, 3.8, 2.2, 1.9)  # Bashed .. Dead: Injured also lists the lowered stats
DAMAGE_HEAD = 4.2 * mm
DAMAGE_TEXT = 5 * NOTE_LEADING  # effect (2 lines), clears, lowered stats (2 lines)
HIT_ROWS = 4  # three hits and the rests
NOTES_MIN = 18 * mm
NOTE_LINE = 7 * mm
# Fills: all greys, so a black-and-white printer keeps every meaning.
DIE_FILL = colors.HexColor("#262626")
LOST_FILL = colors.HexColor("#c8c8c8")
PASSED_FILL = colors.HexColor("#d9d9d9")
ZONE_FILL = colors.HexColor("#e6e6e6")
WRITE_LINE = colors.HexColor("#9a9a9a")
FAINT = colors.HexColor("#b8b8b8")
CROSS_WIDTH = 1.5
# GM screen.
SCREEN_GUTTER = 6 * mm
SCREEN_TEXT = 8.4  # points: steps and bullets, read at arm's length
SCREEN_TABLE = 8  # points: small tables
SCREEN_NOTE = 7.4  # points: notes under tables
TABLE_ROW = 5.4 * mm
ODDS_DICE: tuple[int, ...] = tuple(range(2, 13))
ODDS_DIFFICULTIES: tuple[int, ...] = tuple(range(2, 7))
ODDS_REROLLS: tuple[int, ...] = (0, 2)
ODDS_ROW = 6 * mm
ODDS_SHADE = 0.26  # how dark a certain success is shaded (0 white .. 1 black)
POOL_BOXES = 20  # the general pool's tally on the GM screen
MINUS = "\u2212"
#: The sheet's two stat columns, as the rules text groups them.
STAT_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (("PHYSICAL", PHYSICAL), ("MENTAL", MENTAL))


def _group_title(group: int) -> str:
    """A stat column's head, in the current language."""
    # TRANSLATORS: the heads of the character sheet's columns of physical and mental stats (capitals if the language has them).
    return _("PHYSICAL") if group == 0 else _("MENTAL")


# -- what to print -----------------------------------------------------------------------------
#: The setup fields the sheets print with (`common.variants`: a blank print takes `Setup`'s defaults).
_VARIANTS = ("story_points", "pool_start", "rerolls", "danger_resets", "sheet_dice")
_DEFAULTS: Mapping[str, Any] = {f.name: f.default for f in dataclasses.fields(Setup) if f.name != "names"}


@dataclass(frozen=True)
class _Table:
    """The characters and variant numbers a set of sheets is printed for."""

    names: tuple[str, ...]  # "" is a character whose name is written in by hand
    gm: str  # "" when the GM writes their name in
    story_points: int
    pool_start: int
    rerolls: int
    danger_resets: bool
    sheet_dice: int
    state: State | None = None
    #: the person playing each character, where known ("" to write in).
    players: tuple[str, ...] = ()

    def label(self, index: int) -> str:
        return self.names[index] or self.player(index) or _("Character {number}", number=index + 1)

    def player(self, index: int) -> str:
        return self.players[index] if index < len(self.players) else ""

    def character(self, index: int) -> Character | None:
        """The character as played, or None on blank sheets."""
        return self.state.characters[index] if self.state is not None else None


def table_of(source: common.Source[Setup, State]) -> _Table:
    """The table `source` prints for: its setup's, or blank characters with `Setup`'s default
    variants; the GM named by `source.gm`, where it names one."""
    variants = common.variants(source, Setup, _VARIANTS)
    setup = source.setup
    # Setup's default GM name is only a placeholder: the GM's line is left to be written in instead.
    gm = source.gm or (setup.gm if setup is not None and setup.gm != _DEFAULTS["gm"] else "")
    if setup is not None:
        return _Table(names=source.names, gm=gm, state=source.state, **variants)
    people, characters = zip(*(_player_and_character(seat) for seat in source.names)) if source.names else ((), ())
    return _Table(names=tuple(characters), gm=gm, players=tuple(people), **variants)


def _player_and_character(name: str) -> tuple[str, str]:
    """(player, character) from a name given for a blank sheet: the name is the person at
    the table (PLAYER), whose character is made at the first session; "Ana: Wren" names both.
    A saved game's names are its characters (the model keeps no players' names)."""
    player, _, character = name.partition(":")
    return player.strip(), character.strip()


# -- odds, computed by the rules model ---------------------------------------------------------
@functools.cache
def odds_table(
    dice: tuple[int, ...] = ODDS_DICE,
    difficulties: tuple[int, ...] = ODDS_DIFFICULTIES,
    rerolls: tuple[int, ...] = ODDS_REROLLS,
) -> Mapping[tuple[int, int, int], Fraction]:
    """{(dice, difficulty, rerolls): exact chance of success} with no penalty dice.

    Cached for the process: the rules model's tables are cold the first time (a fraction of
    a second for the default range), and every GM screen after that reuses the numbers.
    """
    table = {(n, d, r): success_chance(n, d, 0, r) for r in rerolls for d in difficulties for n in dice}
    return types.MappingProxyType(table)


def percent(chance: Fraction) -> str:
    """A chance as the GM screen prints it: '37%', '<1%' and '>99%' at the ends, '—' when
    it cannot happen and '100%' only when it is certain."""
    if chance <= 0:
        return "—"
    if chance >= 1:
        return i18n.percent(1)
    value = chance * 100
    if value < 1:
        return "<" + i18n.percent(0.01)
    if value > 99:
        return ">" + i18n.percent(0.99)
    # Round half up on the exact fraction, so the printed number never depends on float noise.
    return i18n.percent(int(value + Fraction(1, 2)) / 100)


# -- small helpers --------------------------------------------------------------------------------
def _style(name: str, parent: str, **changes: object) -> ParagraphStyle:
    """A module style built on a shared style from the stylesheet."""
    return ParagraphStyle(f"danger-world-{name}", parent=common.style(parent), **changes)


def _note_style(size: float = NOTE_SIZE, leading: float = NOTE_LEADING, colour: colors.Color = common.INK) -> ParagraphStyle:
    return _style(f"note-{size}-{leading}", "body", fontSize=size, leading=leading, spaceAfter=0, textColor=colour)


def _p(text: str, style: str | ParagraphStyle = "cell") -> Paragraph:
    """A paragraph of markup that was already escaped (through `markup`) by the caller."""
    return Paragraph(text, common.style(style) if isinstance(style, str) else style)


def _hit_line(hit: str) -> str:
    """Markup: '<b>Full hit</b> (4 botches): where it lands.' with the cost from GM_OPTIONS
    (where each hit lands: RULINGS.md, Danger World)."""
    cost = GM_OPTIONS[hit]
    if hit == "reduced":
        line = _n(
            "<b>Reduced hit</b> ({n} botch): the left-most empty box of the whole track.",
            "<b>Reduced hit</b> ({n} botches): the left-most empty box of the whole track.",
            cost,
        )
    elif hit == "full":
        line = _n(
            "<b>Full hit</b> ({n} botch): the left-most empty box of the current zone's section, spilling right while it is full.",
            "<b>Full hit</b> ({n} botches): the left-most empty box of the current zone's section, spilling right while it is full.",
            cost,
        )
    else:
        line = _n(
            "<b>Overload hit</b> ({n} botch): as a full hit, and every box of every section to its left.",
            "<b>Overload hit</b> ({n} botches): as a full hit, and every box of every section to its left.",
            cost,
        )
    return common.rich(line)


def _section_text(section: int) -> tuple[str, str]:
    """What a section of the damage track (TRACK index) does and when it clears, said now
    (model: docs/rules/danger-world.md)."""
    effects = (
        _("+1 penalty die per filled box."),
        _("{minus}1 pool die per filled box.", minus=MINUS),
        _("Each box: a random stat {minus}1 (never below 1).", minus=MINUS),
        _("Out until the encounter ends."),
        _("The character dies."),
    )
    clears = (_("short rest."), _("short rest."), _("long rest."), _("long rest."), _("Permanent."))
    return effects[section], clears[section]


def _clears(section: int) -> str:
    """'Clears: short rest.' ('Permanent.' for Dead), as the sheet's damage columns say it."""
    _effect, when = _section_text(section)
    return when if section == len(TRACK) - 1 else _("Clears: {when}", when=when)


def _section_name(section: int) -> str:
    return i18n.render(SECTION_NAMES[section])


def _stat_name(stat: str) -> str:
    return i18n.render(STAT_NAMES[stat])


# -- drawing on the canvas -------------------------------------------------------------------------
def _paragraph(canvas: Canvas, text: str, x: float, top: float, width: float, style: ParagraphStyle) -> float:
    """Draw markup `text` wrapped to `width` with its top at `top`; return its height."""
    para = Paragraph(text, style)
    _, height = para.wrapOn(canvas, width, 10_000)
    para.drawOn(canvas, x, top - height)
    return height


def _panel(canvas: Canvas, box: Box, title: str, aside: str | Sequence[str] = "") -> None:
    """A framed panel with a black title bar: the look of a printed RPG sheet."""
    canvas.saveState()
    canvas.setStrokeColor(common.INK)
    canvas.setLineWidth(1)
    canvas.roundRect(box.x, box.y, box.width, box.height, RADIUS, stroke=1, fill=0)
    # The bar: a rounded strip whose lower corners are squared off by a plain rectangle.
    top = box.y + box.height
    canvas.setFillColor(common.INK)
    canvas.roundRect(box.x, top - BAR, box.width, BAR, RADIUS, stroke=0, fill=1)
    canvas.rect(box.x, top - BAR, box.width, BAR / 2, stroke=0, fill=1)
    canvas.setFillColor(colors.white)
    _bar_text(canvas, box.x, box.width, top - BAR / 2, title, aside)
    canvas.restoreState()


def _bar_text(canvas: Canvas, x: float, width: float, middle: float, title: str, aside: str | Sequence[str]) -> None:
    """A bar's title at the line's start and its aside at the other end (right to left: the
    title at the right); `aside` may be a longer text and shorter ones to fall back to."""
    m = common.mirror(x, x + width)
    # A title longer than the bar (a long language) shrinks; the aside takes what is left.
    title, title_size = fonts.fit(title, fonts.BOLD, BAR_SIZE, width * 0.6)
    used = m.draw_string(canvas, x + PAD, middle - title_size * 0.36, title, fonts.BOLD, title_size)
    if aside:
        room = width - 3 * PAD - used
        # No room even for the shortest aside (a long title in a longer language): the bar keeps its title alone.
        text, size = common.fit_first([*([aside] if isinstance(aside, str) else aside), ""], fonts.BODY, BAR_ASIDE, room)
        canvas.setFillColor(colors.HexColor("#e0e0e0"))
        m.draw_string(canvas, x + width - PAD, middle - size * 0.36, text, fonts.BODY, size, align="right")


def _write_line(canvas: Canvas, x0: float, x1: float, y: float) -> None:
    common.write_line(canvas, x0, x1, y, WRITE_LINE)


def _die(canvas: Canvas, box: Box, state: str) -> None:
    """A stat die: 'filled' (solid, a white pip), 'empty' (to fill in), 'lost' (to an injury)."""
    canvas.saveState()
    canvas.setStrokeColor(common.INK)
    canvas.setLineWidth(0.9)
    fill = {"filled": DIE_FILL, "lost": LOST_FILL}.get(state, colors.white)
    canvas.setFillColor(fill)
    canvas.roundRect(box.x, box.y, box.width, box.height, box.width / 5, stroke=1, fill=1)
    cx, cy = box.x + box.width / 2, box.y + box.height / 2
    if state == "filled":
        canvas.setFillColor(colors.white)
        canvas.circle(cx, cy, box.width * 0.11, stroke=0, fill=1)
    elif state == "lost":
        # A slash: the die is on the sheet but the injury takes it away until a long rest.
        canvas.setLineWidth(1.2)
        canvas.line(box.x + 1.5, box.y + 1.5, box.x + box.width - 1.5, box.y + box.height - 1.5)
    canvas.restoreState()


def _damage_box(canvas: Canvas, box: Box, filled: bool, faint: str = "") -> None:
    """A damage box, crossed when filled; `faint` is a light symbol inside an empty one."""
    canvas.saveState()
    canvas.setStrokeColor(common.INK)
    canvas.setFillColor(colors.white)
    canvas.setLineWidth(1)
    canvas.rect(box.x, box.y, box.width, box.height, stroke=1, fill=1)
    if filled:
        inset = box.width * 0.16
        canvas.setLineWidth(CROSS_WIDTH)
        canvas.setLineCap(1)
        canvas.line(box.x + inset, box.y + inset, box.x + box.width - inset, box.y + box.height - inset)
        canvas.line(box.x + inset, box.y + box.height - inset, box.x + box.width - inset, box.y + inset)
    elif faint:
        canvas.setFillColor(FAINT)
        size = box.height * 0.62
        fonts.draw_string(canvas, box.x + box.width / 2, box.y + box.height / 2 - size * 0.36, faint, fonts.BODY, size, align="centre")
    canvas.restoreState()


def _tally(canvas: Canvas, m: common.Mirror, x: float, y: float, count: int, filled: int, size: float, gap: float) -> float:
    """`count` small square boxes in a row from (x, y) in reading order, the first `filled`
    solid; return the width."""
    canvas.saveState()
    canvas.setStrokeColor(common.INK)
    canvas.setLineWidth(0.8)
    for i in range(count):
        canvas.setFillColor(DIE_FILL if i < filled else colors.white)
        canvas.rect(m.x(x + i * (size + gap), size), y, size, size, stroke=1, fill=1)
    canvas.restoreState()
    return count * size + (count - 1) * gap


# -- the character sheet ---------------------------------------------------------------------------
@dataclass(frozen=True)
class SheetLayout:
    """Where everything sits on a character sheet, in points from the sheet's bottom-left.

    Drawing and tests read the same numbers: a test can look at the pixel in the middle of
    a damage box and know whether it was crossed. Right to left the places are the page's,
    mirrored (`common.Mirror`): the first die, danger level and damage section at the right.
    """

    nameplate: Box
    stats: Box
    aspects: Box
    story: Box
    bonus: Box
    danger: Box
    damage: Box
    notes: Box
    #: per stat (STATS order), its four dice.
    dice: tuple[tuple[Box, ...], ...]
    #: per section of the damage track (TRACK order), its boxes.
    damage_boxes: tuple[tuple[Box, ...], ...]
    #: danger levels 0 .. DANGER_LEVELS - 1.
    danger_boxes: tuple[Box, ...]
    #: the x range (left, right on the page) of each damage section's column.
    damage_columns: tuple[tuple[float, float], ...]


def _stat_place(stat: str) -> tuple[int, int]:
    """(column, row) of a stat on the sheet: Physical the first column read, Mental the second."""
    for group, (_title, names) in enumerate(STAT_GROUPS):
        if stat in names:
            return group, names.index(stat)
    raise ValueError(f"{stat!r} is in no stat group")


def sheet_layout(width: float, height: float) -> SheetLayout:
    """The layout of a character sheet `width` x `height` points (the frame of a page).

    Fixed whatever the character holds, so every sheet of a set looks the same and a Letter
    page (the shorter one) still leaves lines for notes.
    """
    m = common.mirror(0, width)
    top = height

    def take(panel_height: float) -> Box:
        nonlocal top
        box = Box(0, top - panel_height, width, panel_height)
        top -= panel_height + GAP
        return box

    nameplate = take(NAMEPLATE)
    stats = take(BAR + PAD + STAT_HEAD + 4 * STAT_ROW + STATS_NOTE + PAD)
    aspects = take(BAR + PAD + 3 * ASPECT_ROW + PAD)
    pools_height = BAR + PAD + max(SP_BOX + 3 * NOTE_LEADING + 2 * mm, (BONUS_ROWS + 1) * BONUS_ROW) + PAD
    pools = take(pools_height)
    half = (width - GAP) / 2
    story = m.box(Box(0, pools.y, half, pools.height))
    bonus = m.box(Box(half + GAP, pools.y, half, pools.height))
    danger = take(BAR + PAD + DANGER_BOX + 1 * mm + ZONE_BAND + NOTE_LEADING + 1 * mm + 2 * NOTE_LEADING + PAD)
    damage = take(BAR + PAD + DAMAGE_HEAD + DAMAGE_BOX + 1.5 * mm + DAMAGE_TEXT + 1.5 * mm + HIT_ROWS * NOTE_LEADING + PAD)
    notes = Box(0, 0, width, max(NOTES_MIN, top))

    column = (width - 2 * PAD - COLUMN_GAP) / 2
    dice = []
    for stat in STATS:
        group, row = _stat_place(stat)
        x0 = PAD + group * (column + COLUMN_GAP) + STAT_NAME
        row_top = stats.y + stats.height - BAR - PAD - STAT_HEAD - row * STAT_ROW
        y = row_top - (STAT_ROW + DIE) / 2
        dice.append(tuple(m.box(Box(x0 + k * (DIE + DIE_GAP), y, DIE, DIE)) for k in range(STAT_MAX)))

    rank_left = width - PAD - RANK_BLOCK
    room = rank_left - 2 * mm - PAD
    per_zone = LEVELS_PER_ZONE
    box_w = (room - (MAX_ZONE - 1) * ZONE_GAP - MAX_ZONE * (per_zone - 1) * DANGER_GAP) / DANGER_LEVELS
    danger_y = danger.y + danger.height - BAR - PAD - DANGER_BOX
    danger_boxes = []
    for level in range(DANGER_LEVELS):
        zone, k = divmod(level, per_zone)
        x = PAD + zone * (per_zone * box_w + (per_zone - 1) * DANGER_GAP + ZONE_GAP) + k * (box_w + DANGER_GAP)
        danger_boxes.append(m.box(Box(x, danger_y, box_w, DANGER_BOX)))

    widths = common.columns_of(width - 2 * PAD, DAMAGE_WEIGHTS)
    columns = []
    damage_boxes = []
    x = PAD
    box_y = damage.y + damage.height - BAR - PAD - DAMAGE_HEAD - DAMAGE_BOX
    for (_name, count), w in zip(TRACK, widths):
        columns.append(m.span(x, x + w))
        left = x + 1.5 * mm
        damage_boxes.append(tuple(m.box(Box(left + k * (DAMAGE_BOX + DAMAGE_GAP), box_y, DAMAGE_BOX, DAMAGE_BOX)) for k in range(count)))
        x += w
    return SheetLayout(
        nameplate=nameplate,
        stats=stats,
        aspects=aspects,
        story=story,
        bonus=bonus,
        danger=danger,
        damage=damage,
        notes=notes,
        dice=tuple(dice),
        damage_boxes=tuple(damage_boxes),
        danger_boxes=tuple(danger_boxes),
        damage_columns=tuple(columns),
    )


class CharacterSheet(Flowable):
    """One character's sheet, a whole page: blank, or filled from the character as played.

    A tiny flowable in the rst2pdf manner: `wrap` takes the frame and works out the layout
    (kept in `layout`), `draw` paints every panel at the frame's origin.
    """

    def __init__(self, table: _Table, index: int) -> None:
        super().__init__()
        self.table = table
        self.index = index
        self.character = table.character(index)
        self.width = 0.0
        self.height = 0.0
        self.layout: SheetLayout | None = None

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width, self.height = availWidth, availHeight
        self.layout = sheet_layout(availWidth, availHeight)
        return availWidth, availHeight

    @property
    def made(self) -> bool:
        """The character's sheet has been filled in (stats and aspects) in the game."""
        return self.character is not None and self.character.ready

    def draw(self) -> None:
        assert self.layout is not None
        canvas = self.canv
        layout = self.layout
        self._nameplate(canvas, layout.nameplate)
        self._stats(canvas, layout)
        self._aspects(canvas, layout.aspects)
        self._story_points(canvas, layout.story)
        self._bonus(canvas, layout.bonus)
        self._danger(canvas, layout)
        self._damage(canvas, layout)
        self._notes(canvas, layout.notes)

    # -- panels ----------------------------------------------------------------------------------
    def _nameplate(self, canvas: Canvas, box: Box) -> None:
        """Three write-in lines: the character's name (big), the player, the GM."""
        name = self.table.names[self.index]
        fields = (
            # TRANSLATORS: small capitals under the character sheet's write-in line for the character's name.
            (_("CHARACTER"), name, NAME_SIZE),
            # TRANSLATORS: small capitals under the write-in line for the player's name.
            (_("PLAYER"), self.table.player(self.index), 11),
            # TRANSLATORS: small capitals under the write-in line for the game master's name.
            (_("GM"), self.table.gm, 11),
        )
        widths = common.columns_of(box.width, NAME_WEIGHTS)
        m = common.mirror(box.x, box.x + box.width)
        x = box.x
        line_y = box.y + LABEL_SIZE + 2.5
        for (label, value, size), w in zip(fields, widths):
            right = x + w - 3 * mm
            canvas.setStrokeColor(common.INK)
            canvas.setLineWidth(0.8)
            m.line(canvas, x, line_y, right, line_y)
            canvas.setFillColor(common.MUTED)
            label, label_size = fonts.fit(label, fonts.BOLD, LABEL_SIZE, right - x)
            m.draw_string(canvas, x, box.y + 1, label, fonts.BOLD, label_size)
            if value:
                canvas.setFillColor(common.INK)
                text, fitted = fonts.fit(value, fonts.BOLD, size, right - x - 2)
                m.draw_string(canvas, x + 1, line_y + 2.5, text, fonts.BOLD, fitted)
            x += w
        if not name and not self.table.player(self.index):
            canvas.setFillColor(FAINT)
            m.draw_string(canvas, box.x + 1, line_y + 3, _("seat {number}", number=self.index + 1), fonts.BODY, 7)

    def _stats(self, canvas: Canvas, layout: SheetLayout) -> None:
        box = layout.stats
        c = self.character
        dice = self.table.sheet_dice
        extra = dice - len(STATS)
        rule = _("1 die each + {extra} more, none above {most}, {dice} in all", extra=extra, most=STAT_MAX, dice=dice)
        on_sheet = _n("{n} die on the sheet", "{n} dice on the sheet", dice)
        # TRANSLATORS: a panel's title on the character sheet (capitals if the language has them).
        _panel(canvas, box, _("STATS"), rule if not self.made else on_sheet)
        m = common.mirror(box.x, box.x + box.width)
        column = (box.width - 2 * PAD - COLUMN_GAP) / 2
        head_y = box.y + box.height - BAR - PAD - STAT_HEAD + 1.6 * mm
        for group, (_title, _names) in enumerate(STAT_GROUPS):
            x0 = box.x + PAD + group * (column + COLUMN_GAP)
            canvas.setFillColor(common.MUTED)
            m.draw_string(canvas, x0, head_y, _group_title(group), fonts.BOLD, 7.5)
            canvas.setStrokeColor(FAINT)
            canvas.setLineWidth(0.5)
            m.line(canvas, x0, head_y - 1.2 * mm, x0 + column, head_y - 1.2 * mm)
        for i, stat in enumerate(STATS):
            row = layout.dice[i]  # placed by the layout, the page's places already
            baseline = row[0].y + DIE / 2 - STAT_SIZE * 0.36
            group, _row = _stat_place(stat)
            x0 = box.x + PAD + group * (column + COLUMN_GAP)
            canvas.setFillColor(common.INK)
            m.draw_fitted(canvas, x0, baseline, _stat_name(stat), fonts.BOLD, STAT_SIZE, STAT_NAME - 1.5 * mm)
            if self.made:
                assert c is not None
                sheet, now = c.stats[i], c.effective[i]
                states = ["filled"] * now + ["lost"] * (sheet - now) + ["empty"] * (STAT_MAX - sheet)
            else:
                states = ["filled"] + ["empty"] * (STAT_MAX - 1)
            for die, state in zip(row, states):
                _die(canvas, die, state)
            after = m.x(row[-1].x, DIE) + DIE + 2.5 * mm  # in reading order, after the last die
            if self.made:
                assert c is not None
                sheet, now = c.stats[i], c.effective[i]
                canvas.setFillColor(common.INK)
                used = m.draw_string(canvas, after, baseline, str(now), fonts.BOLD, STAT_SIZE)
                if now != sheet:
                    canvas.setFillColor(common.MUTED)
                    note = _("injured {minus}{lost} (sheet {sheet})", minus=MINUS, lost=sheet - now, sheet=sheet)
                    room = x0 + column - after - used - 1.5 * mm
                    text, size = common.fit_first([note, f"{MINUS}{sheet - now} ({sheet})"], fonts.ITALIC, 7, room)
                    m.draw_string(canvas, after + used + 1.5 * mm, baseline + 0.5, text, fonts.ITALIC, size)
        # The pool reminder: what a check adds up, so the sheet alone is enough to play.
        text = common.rich(_(
            "<b>Check:</b> pick two stats; the pool is their dice, "
            "{minus}1 per Stunned box, + bonus dice, + 0 up to your zone rank in danger dice. "
            "Penalty dice: 1 per Bashed box, + complications and compels. Filled dice are yours; "
            "a slashed die is lost to an injury until a long rest.",
            minus=MINUS,
        ))
        note = _note_style(colour=common.MUTED)
        if Paragraph(text, note).wrap(box.width - 2 * PAD, 10_000)[1] > 2 * NOTE_LEADING:
            # A longer language's reminder takes a third line: set solid, it still fits above the frame.
            note = _note_style(leading=NOTE_SIZE, colour=common.MUTED)
        _paragraph(canvas, text, m.x(box.x + PAD, box.width - 2 * PAD), box.y + PAD + STATS_NOTE - 1 * mm, box.width - 2 * PAD, note)

    def _aspects(self, canvas: Canvas, box: Box) -> None:
        c = self.character
        # TRANSLATORS: a panel's title on the character sheet (capitals if the language has them).
        _panel(canvas, box, _("ASPECTS"), _("invoke: spend SP for bonus dice · the GM compels: gain SP, take penalty dice"))
        aspects = c.aspects if c is not None and c.aspects else ("", "", "")
        m = common.mirror(box.x, box.x + box.width)
        left = box.x + PAD + 6 * mm
        right = box.x + box.width - PAD
        for i, aspect in enumerate(aspects):
            line_y = box.y + box.height - BAR - PAD - (i + 1) * ASPECT_ROW + 1.6 * mm
            canvas.setFillColor(common.MUTED)
            m.draw_string(canvas, box.x + PAD + 1.5 * mm, line_y + 1.2, str(i + 1), fonts.BOLD, 9, align="centre")
            _write_line(canvas, *m.span(left, right), line_y)
            if aspect:
                canvas.setFillColor(common.INK)
                text, size = fonts.fit(aspect, fonts.BODY, ASPECT_SIZE, right - left - 2)
                m.draw_string(canvas, left + 1, line_y + 2, text, fonts.BODY, size)

    def _story_points(self, canvas: Canvas, box: Box) -> None:
        c = self.character
        start = self.table.story_points
        # TRANSLATORS: a panel's title on the character sheet (capitals if the language has them).
        _panel(canvas, box, _("STORY POINTS"), _("{count} SP at the start of each session", count=start))
        y = box.y + box.height - BAR - PAD - SP_BOX
        held = c.sp if c is not None else 0
        m = common.mirror(box.x, box.x + box.width)
        width = _tally(canvas, m, box.x + PAD, y, SP_BOXES, min(held, SP_BOXES), SP_BOX, SP_GAP)
        if c is not None:
            canvas.setFillColor(common.INK)
            held_text = _("{count} SP (+{more})", count=held, more=held - SP_BOXES) if held > SP_BOXES else _("{count} SP", count=held)
            # Shrunk when it does not fit beside the boxes (more SP than boxes, a longer language).
            held_text, held_size = fonts.fit(held_text, fonts.BOLD, 9, box.width - 2 * PAD - width - 2 * mm)
            m.draw_string(canvas, box.x + PAD + width + 2 * mm, y + 2, held_text, fonts.BOLD, held_size)
        text = common.rich(_(
            "<b>Invoke</b> an aspect: your SP go to the general pool, +1 bonus die each. "
            "<b>Compel</b>: the GM pays you SP from the pool, +1 penalty die each. "
            "Spend SP before the roll."
        ))
        _paragraph(canvas, text, box.x + PAD, y - 1.5 * mm, box.width - 2 * PAD, _note_style(colour=common.MUTED))

    def _bonus(self, canvas: Canvas, box: Box) -> None:
        """Rows of (dice, won from): full-width rows to write in; two columns when a character
        holds more pools than rows, and a last "+ n more" slot beyond that."""
        c = self.character
        pools: list[tuple[str, str]] = [(str(b.dice), i18n.render(b.source)) for b in (c.bonus if c is not None else ())]
        slots = BONUS_ROWS if len(pools) <= BONUS_ROWS else 2 * BONUS_ROWS
        if len(pools) > slots:
            rest = pools[slots - 1 :]
            total = sum(int(dice) for dice, _source in rest)
            more = _n("{n} more pool ({dice})", "{n} more pools ({dice})", len(rest), dice=" + ".join(d for d, _source in rest))
            pools = pools[: slots - 1] + [(str(total), more)]
        # TRANSLATORS: a panel's title on the character sheet (capitals if the language has them).
        _panel(canvas, box, _("BONUS DICE"), _("one-time pools: a check uses a pool whole"))
        top = box.y + box.height - BAR - PAD
        columns = slots // BONUS_ROWS
        span = (box.width - 2 * PAD - (columns - 1) * 3 * mm) / columns
        dice_w = BONUS_DICE if columns == 1 else BONUS_DICE * 0.7
        m = common.mirror(box.x, box.x + box.width)
        for col in range(columns):
            left = box.x + PAD + col * (span + 3 * mm)
            right = left + span
            canvas.setFillColor(common.MUTED)
            # TRANSLATORS: small capitals over the bonus pools' column of dice.
            dice_label, dice_size = fonts.fit(_("DICE"), fonts.BOLD, LABEL_SIZE, dice_w + 2 * mm)
            m.draw_string(canvas, left, top - BONUS_ROW + 2.5, dice_label, fonts.BOLD, dice_size)
            # TRANSLATORS: small capitals over the column saying where a bonus pool came from.
            labels = [_("WON FROM (benefit, partial success, aid)"), _("WON FROM")] if columns == 1 else [_("WON FROM")]
            label, label_size = common.fit_first(labels, fonts.BOLD, LABEL_SIZE, right - left - dice_w - 2 * mm)
            m.draw_string(canvas, left + dice_w + 2 * mm, top - BONUS_ROW + 2.5, label, fonts.BOLD, label_size)
            for row in range(BONUS_ROWS):
                i = col * BONUS_ROWS + row
                line_y = top - (row + 2) * BONUS_ROW + 1.5
                _write_line(canvas, *m.span(left, left + dice_w), line_y)
                _write_line(canvas, *m.span(left + dice_w + 2 * mm, right), line_y)
                if i < len(pools):
                    dice, source = pools[i]
                    canvas.setFillColor(common.INK)
                    m.draw_string(canvas, left + dice_w / 2, line_y + 2, dice, fonts.BOLD, 10, align="centre")
                    text, size = fonts.fit(source, fonts.BODY, 8.5, right - left - dice_w - 3 * mm)
                    m.draw_string(canvas, left + dice_w + 3 * mm, line_y + 2, text, fonts.BODY, size)

    def _danger(self, canvas: Canvas, layout: SheetLayout) -> None:
        box = layout.danger
        c = self.character
        # TRANSLATORS: a panel's title on the character sheet (capitals if the language has them).
        _panel(canvas, box, _("DANGER"), _("zone rank = the most danger dice a check may add"))
        level = c.danger if c is not None else None
        for i, cell in enumerate(layout.danger_boxes):
            at_end = i == DANGER_LEVELS - 1
            current = level is not None and (i == level or (at_end and level >= i))
            passed = level is not None and i < level and not current
            canvas.setStrokeColor(common.INK)
            canvas.setLineWidth(1.4 if i % LEVELS_PER_ZONE == 0 else 0.8)
            canvas.setFillColor(DIE_FILL if current else PASSED_FILL if passed else colors.white)
            canvas.rect(cell.x, cell.y, cell.width, cell.height, stroke=1, fill=1)
            label = str(i)
            if at_end:
                label = str(level) if current and level is not None and level > i else f"{i}+"
            canvas.setFillColor(colors.white if current else common.MUTED)
            face = fonts.BOLD if current else fonts.BODY
            text, size = fonts.fit(label, face, 7.5, cell.width - 1)
            middle = cell.y + cell.height / 2 - size * 0.36
            fonts.draw_string(canvas, cell.x + cell.width / 2, middle, text, face, size, align="centre")
        # A band under each zone, naming it and the section its full hits land in.
        band_top = layout.danger_boxes[0].y - 1 * mm
        for zone in range(MAX_ZONE):
            first = layout.danger_boxes[zone * LEVELS_PER_ZONE]
            last = layout.danger_boxes[zone * LEVELS_PER_ZONE + LEVELS_PER_ZONE - 1]
            # The page's ends of the zone (right to left its first level is at the right).
            x0, x1 = min(first.x, last.x), max(first.x + first.width, last.x + last.width)
            canvas.setFillColor(ZONE_FILL)
            canvas.setStrokeColor(common.INK)
            canvas.setLineWidth(0.5)
            canvas.rect(x0, band_top - ZONE_BAND, x1 - x0, ZONE_BAND, stroke=1, fill=1)
            canvas.setFillColor(common.INK)
            label = _("ZONE {zone} · {section}", zone=zone + 1, section=_section_name(zone))
            # Too long for the band in a longer language: the zone alone (the track names its section).
            text, size = common.fit_first([label, _("ZONE {zone}", zone=zone + 1)], fonts.BOLD, 7, x1 - x0 - 2)
            fonts.draw_string(canvas, (x0 + x1) / 2, band_top - ZONE_BAND / 2 - size * 0.36, text, fonts.BOLD, size, align="centre")
            canvas.setFillColor(common.MUTED)
            hint = _n("up to {n} danger die", "up to {n} danger dice", zone + 1)
            text, size = common.fit_first([hint, f"0–{zone + 1}"], fonts.BODY, 7, x1 - x0)
            fonts.draw_string(canvas, (x0 + x1) / 2, band_top - ZONE_BAND - 6.5, text, fonts.BODY, size, align="centre")
        # The zone rank, big, at the track's end (right to left: at the left).
        m = common.mirror(box.x, box.x + box.width)
        right = box.x + box.width - PAD
        rank_middle = right - RANK_BLOCK / 2
        rank_x = m.x(rank_middle)
        rank_top = box.y + box.height - BAR - PAD
        canvas.setFillColor(common.MUTED)
        # TRANSLATORS: small capitals over the box for the character's danger zone rank.
        rank_label, rank_size = fonts.fit(_("ZONE RANK"), fonts.BOLD, LABEL_SIZE, RANK_BLOCK + 2 * mm)
        fonts.draw_string(canvas, rank_x, rank_top - 6, rank_label, fonts.BOLD, rank_size, align="centre")
        square = Box(rank_x - RANK_BOX / 2, rank_top - 7.5 - RANK_BOX, RANK_BOX, RANK_BOX)
        canvas.setStrokeColor(common.INK)
        canvas.setLineWidth(1.4)
        canvas.setFillColor(colors.white)
        canvas.roundRect(square.x, square.y, square.width, square.height, 1.2 * mm, stroke=1, fill=1)
        if level is not None:
            canvas.setFillColor(common.INK)
            rank = str(zone_rank(level))
            fonts.draw_string(canvas, rank_x, square.y + RANK_BOX / 2 - 16 * 0.36, rank, fonts.BOLD, 16, align="centre")
        canvas.setFillColor(common.MUTED)
        how, how_size = common.fit_first([_("levels ÷ 5, + 1"), "÷ 5, + 1"], fonts.BODY, 7, RANK_BLOCK + 2 * mm)
        fonts.draw_string(canvas, rank_x, square.y - 7.5, how, fonts.BODY, how_size, align="centre")
        if self.table.danger_resets:
            text = _(
                "Danger starts at 0 and returns to 0 when an encounter ends. It rises by 1 for each danger die used in a set "
                "and for each botch the GM spends on it. Mark the level; the levels passed stay shaded."
            )
        else:
            text = _(
                "Danger starts at 0 and stays when an encounter ends (variant). It rises by 1 for each danger die used in a set "
                "and for each botch the GM spends on it. Mark the level; the levels passed stay shaded."
            )
        text = markup(text)
        room = rank_middle - RANK_BLOCK / 2 - box.x - 2 * PAD
        _paragraph(canvas, text, m.x(box.x + PAD, room), box.y + PAD + 2 * NOTE_LEADING, room, _note_style(colour=common.MUTED))

    def _damage(self, canvas: Canvas, layout: SheetLayout) -> None:
        box = layout.damage
        c = self.character
        aside = _("a hit fills a box: cross it out")
        if c is not None:
            status = _("DEAD") if c.dead else _("K.O.'d until the encounter ends") if c.knocked_out else ""
            penalty = _n("+{n} penalty die", "+{n} penalty dice", c.penalty_dice)
            lost = _n("{minus}{n} pool die", "{minus}{n} pool dice", c.lost_dice, minus=MINUS)
            effects = _("now: {penalty}, {lost}", penalty=penalty, lost=lost)
            aside = _("{status} · {effects}", status=status, effects=effects) if status else effects
        # TRANSLATORS: a panel's title on the character sheet and the GM screen (capitals if the language has them).
        _panel(canvas, box, _("DAMAGE TRACK"), aside)
        damage = c.damage if c is not None else (0,) * len(BOXES)
        head_top = box.y + box.height - BAR - PAD
        body = _note_style()
        muted = _note_style(colour=common.MUTED)
        for s, ((section, count), (x0, x1), boxes) in enumerate(zip(TRACK, layout.damage_columns, layout.damage_boxes)):
            # The layout's columns and boxes are the page's; inside a column, places are in
            # reading order, mirrored across the column itself.
            m = common.mirror(box.x + x0, box.x + x1)
            if s:
                canvas.setStrokeColor(FAINT)
                canvas.setLineWidth(0.5)
                m.line(canvas, box.x + x0, box.y + PAD + HIT_ROWS * NOTE_LEADING + 1 * mm, box.x + x0, head_top)
            left = box.x + x0 + 1.5 * mm
            canvas.setFillColor(common.MUTED)
            zone_label = _("ZONE {zone}", zone=s + 1) + " "
            room = x1 - x0 - 3 * mm
            if fonts.string_width(zone_label, fonts.BOLD, 7) + fonts.string_width(_section_name(s), fonts.BOLD, fonts.MIN_SIZE) > room:
                zone_label = ""  # a narrow column and a long name: the name alone (the danger band numbers the zones)
            label_width = fonts.string_width(zone_label, fonts.BOLD, 7) if zone_label else 0.0
            name, name_size = fonts.fit(_section_name(s), fonts.BOLD, 9, room - label_width)
            # The zone's word opens the head, the section's name after it.
            if zone_label:
                m.draw_string(canvas, left, head_top - 8, zone_label.strip() if m.on else zone_label, fonts.BOLD, 7)
            canvas.setFillColor(common.INK)
            m.draw_string(canvas, left + label_width, head_top - 8, name, fonts.BOLD, name_size)
            if c is not None:
                # On the box row: the narrow K.O.'d and Dead columns have no room beside the title.
                canvas.setFillColor(common.INK)
                count_y = boxes[0].y + DAMAGE_BOX / 2 - 8 * 0.36
                m.draw_string(canvas, box.x + x1 - 1.5 * mm, count_y, f"{damage[s]}/{count}", fonts.BOLD, 8, align="right")
            for k, cell in enumerate(boxes):
                faint = "☠" if s == len(TRACK) - 1 else ""
                _damage_box(canvas, Box(box.x + cell.x, cell.y, cell.width, cell.height), k < damage[s], faint)
            effect, clears = _section_text(s)[0], _clears(s)
            text_top = boxes[0].y - 1.5 * mm
            width = x1 - x0 - 3 * mm
            used_h = _paragraph(canvas, markup(effect), m.x(left, width), text_top, width, body)
            used_h += _paragraph(canvas, f"<i>{markup(clears)}</i>", m.x(left, width), text_top - used_h, width, muted)
            if section == "Injured" and c is not None and any(c.lowered):
                sep = "، " if common.rtl() else ", "
                lowered_text = sep.join(_("{stat} {minus}{lost}", stat=_stat_name(stat), minus=MINUS, lost=n) for stat, n in zip(STATS, c.lowered) if n)
                lowered = common.fill(_("<b>Lowered:</b> {stats}", stats="{stats}"), stats=markup(lowered_text))
                _paragraph(canvas, lowered, m.x(left, width), text_top - used_h, width, body)
        # How hits land, and the rests, under the columns.
        y = box.y + PAD + HIT_ROWS * NOTE_LEADING
        rule_style = _note_style()
        for hit in HITS:
            y -= _paragraph(canvas, _hit_line(hit), box.x + PAD, y, box.width - 2 * PAD, rule_style)
        rests = common.rich(_(
            "<b>Short rest</b>: clears Bashed and Stunned. <b>Long rest</b>: also clears Injured and K.O.'d, "
            "and restores lowered stats."
        ))
        _paragraph(canvas, rests, box.x + PAD, y, box.width - 2 * PAD, rule_style)

    def _notes(self, canvas: Canvas, box: Box) -> None:
        # TRANSLATORS: a panel's title on the character sheet (capitals if the language has them).
        _panel(canvas, box, _("NOTES"), _("gear, contacts, setbacks to overcome"))
        y = box.y + box.height - BAR - NOTE_LINE
        while y > box.y + 2 * mm:
            _write_line(canvas, box.x + PAD, box.x + box.width - PAD, y)
            y -= NOTE_LINE


def _character_sheet(table: _Table, index: int) -> list[Flowable]:
    return [common.Section(CARD.title, _("Character sheet · {name}", name=table.label(index))), CharacterSheet(table, index)]


# -- the rules card ----------------------------------------------------------------------------------
def rules_card(table: _Table, width: float) -> list[Flowable]:
    """The game on one page for the players, in the project's reading (RULINGS.md)."""
    if table.rerolls == 0:
        rerolls = _("no re-rolls")
    elif table.rerolls == 1:
        rerolls = _("one re-roll")
    else:
        rerolls = _n("up to {n} re-roll", "up to {n} re-rolls", table.rerolls)
    roll = _("Roll everything; then {rerolls}: lock dice for good and re-roll the rest.", rerolls=rerolls)
    # The card's messages are plain text (no markup): each is escaped and shaped by `markup`.
    story: list[Flowable] = [
        *common.card_top(CARD.title, markup(_("A GM and 1-12 players. Every check is a pool of d6s: make a set of matching dice at least as high as the difficulty."))),
        common.heading(_("Your character"), 2),
        *_bullets([
            markup(_("Eight stats, 1 to {most} dice each: {dice} dice in all. Three aspects.", most=STAT_MAX, dice=table.sheet_dice)),
            markup(_n("{n} story point (SP) at the start of each session.", "{n} story points (SP) at the start of each session.", table.story_points)),
        ]),
        common.heading(_("A check"), 2),
        *_steps([
            markup(_("Agree two stats and a difficulty 2–6 with the GM.")),
            markup(_("Pool: the two stats' dice, + invoked aspects (1 SP each), + bonus pools, + danger dice up to your zone rank.")),
            markup(roll),
            markup(_("A set of height h is h dice showing h. Height ≥ difficulty succeeds; more adds bonus dice for later.")),
            markup(_("Every 1 showing is a botch the GM spends: danger, penalty dice, setbacks or hits.")),
        ]),
        common.heading(_("Danger and damage"), 2),
        *_bullets([
            markup(_("Danger rises with each danger die used in a set; zone rank = danger ÷ 5 + 1 (at most 5).")),
            markup(_("Damage fills boxes: Bashed (penalty dice), Stunned (fewer pool dice), Injured (a stat lowered), K.O.'d, Dead.")),
            markup(_("A short rest clears Bashed and Stunned; a long rest also Injured and K.O.'d.")),
        ]),
    ]
    return story


# -- the GM screen ---------------------------------------------------------------------------------
class _Bar(common.Strip):
    """A section title in a black bar, like the panels of the character sheet."""

    def __init__(self, title: str, aside: str | Sequence[str] = "") -> None:
        super().__init__(BAR)
        self.title = title
        self.aside = aside
        self.spaceBefore = 2.5 * mm
        self.spaceAfter = 1.5 * mm

    def draw(self) -> None:
        canvas = self.canv
        canvas.saveState()
        canvas.setFillColor(common.INK)
        canvas.roundRect(0, 0, self.width, BAR, RADIUS, stroke=0, fill=1)
        canvas.setFillColor(colors.white)
        _bar_text(canvas, 0, self.width, BAR / 2, self.title, self.aside)
        canvas.restoreState()


class _Tally(Flowable):
    """A row of tally boxes (the general pool of story points), the first `filled` solid;
    the boxes shrink to fit the width they are given."""

    def __init__(self, count: int, filled: int, size: float = SP_BOX) -> None:
        super().__init__()
        self.count = count
        self.filled = filled
        self.size = self.box = size

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.box = min(self.size, (availWidth - 1 - (self.count - 1) * SP_GAP) / self.count)
        self.width = availWidth
        return availWidth, self.box + 1

    def draw(self) -> None:
        _tally(self.canv, common.mirror(0, self.width), 0.5, 0.5, self.count, min(self.filled, self.count), self.box, SP_GAP)


def _small_table(header: Sequence[str], rows: Sequence[Sequence[str]], widths: Sequence[float]) -> Table:
    """A compact ruled table of plain texts (shared grid look, tighter rows than the sheets)."""
    style = _note_style(SCREEN_TABLE, SCREEN_TABLE * 1.2)
    widths = _room_for_heads(header, widths)
    # One header size for the whole table, small enough that no narrow column splits a word.
    fitted = [common.fitted_style("cell-head-left", h.split(), w) for h, w in zip(header, widths)]
    head = min(fitted, key=lambda st: st.fontSize)
    return common.ruled_table(
        [_p(markup(h), head) for h in header],
        [[_p(markup(c), style) for c in row] for row in rows],
        widths,
        row_height=TABLE_ROW,
    )


def _room_for_heads(header: Sequence[str], widths: Sequence[float]) -> list[float]:
    """`widths`, except that a column whose head has a word too wide for it even at the
    smallest type (a long language's compound) takes the room from the others' spare width;
    widths are kept as they are when every word fits."""
    need = [max((fonts.string_width(w, fonts.BOLD, fonts.MIN_SIZE) for w in h.split()), default=0.0) / 0.97 + 2 * common.CELL_PAD + 1 for h in header]
    short = sum(max(0.0, n - w) for n, w in zip(need, widths))
    spare = [max(0.0, w - n) for n, w in zip(need, widths)]
    if short <= 0 or sum(spare) < short:
        return list(widths)
    total = sum(spare)
    return [n if w < n else w - short * s / total for n, w, s in zip(need, widths, spare)]


def _list_style(name: str, indent: float, size: float = SCREEN_TEXT) -> ParagraphStyle:
    return _style(
        f"{name}-{size}",
        "bullet",
        fontSize=size,
        leading=size * 1.25,
        leftIndent=indent,
        bulletIndent=0,
        bulletFontName=fonts.BOLD,
        bulletFontSize=size,
        spaceAfter=1.8,
    )


def _bullets(items: Sequence[str]) -> list[Flowable]:
    style = _list_style("bullet", 9)
    if common.rtl():  # ReportLab hangs a bullet on the left only: right to left it opens the line
        return common.numbered([("•", text) for text in items], style)
    return [Paragraph(text, style, bulletText="•") for text in items]


def _steps(items: Sequence[str]) -> list[Flowable]:
    style = _list_style("step", 11)
    if common.rtl():
        return common.numbered([(f"{i}.", text) for i, text in enumerate(items, 1)], style)
    return [Paragraph(text, style, bulletText=f"{i}.") for i, text in enumerate(items, 1)]


def _screen_note(text: str) -> Paragraph:
    """A muted explanation under a GM-screen table (plain text)."""
    return _p(markup(text), _note_style(SCREEN_NOTE, SCREEN_NOTE * 1.22, common.MUTED))


def _columns(left: Sequence[Flowable], right: Sequence[Flowable], width: float) -> Table:
    """Two columns of flowables side by side: the GM screen's landscape-like panels."""
    column = (width - SCREEN_GUTTER) / 2
    if common.rtl():  # right to left the first column is the right one
        left, right = right, left
    table = Table([[list(left), list(right)]], colWidths=[column + SCREEN_GUTTER / 2, column + SCREEN_GUTTER / 2], hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (0, 0), 0),
                ("RIGHTPADDING", (0, 0), (0, 0), SCREEN_GUTTER / 2),
                ("LEFTPADDING", (1, 0), (1, 0), SCREEN_GUTTER / 2),
                ("RIGHTPADDING", (1, 0), (1, 0), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    return table


def _screen_intro(table: _Table) -> str:
    parts = [
        _("GM: {name}", name=table.gm or "________________"),
        _("{count} SP per player a session", count=table.story_points),
        _("pool starts at {count}", count=table.pool_start),
        _n("{n} re-roll a check", "{n} re-rolls a check", table.rerolls),
    ]
    if table.sheet_dice != _DEFAULTS["sheet_dice"]:
        parts.append(_n("{n} die per sheet", "{n} dice per sheet", table.sheet_dice))
    return markup(" · ".join(parts))


def _check_panel(table: _Table, width: float) -> list[Flowable]:
    if table.rerolls == 0:
        rolling = _("Roll everything, once: this table plays without re-rolls.")
    elif table.rerolls == 1:
        rolling = _(
            "Roll everything. Then, up to once: <b>lock</b> any unlocked pool dice (locks are for good) "
            "and <b>re-roll</b> the rest. Penalty dice are never locked or re-rolled."
        )
    elif table.rerolls == 2:
        rolling = _(
            "Roll everything. Then, up to twice: <b>lock</b> any unlocked pool dice (locks are for good) "
            "and <b>re-roll</b> the rest. Penalty dice are never locked or re-rolled."
        )
    else:
        rolling = _n(
            "Roll everything. Then, up to {n} time: <b>lock</b> any unlocked pool dice (locks are for good) "
            "and <b>re-roll</b> the rest. Penalty dice are never locked or re-rolled.",
            "Roll everything. Then, up to {n} times: <b>lock</b> any unlocked pool dice (locks are for good) "
            "and <b>re-roll</b> the rest. Penalty dice are never locked or re-rolled.",
            table.rerolls,
        )
    steps = [
        _(
            "The player describes the intent; the table agrees on <b>two stats</b> and a <b>difficulty</b> 2–6. "
            "Each modifier of the challenge is +1 (harder) or {minus}1 (easier); clamp to 2–6. "
            "Keep the net change within ±1 (more is allowed, but flagged).",
            minus=MINUS,
        ),
        _(
            "<b>Pool</b>: the two stats' dice, "
            "{minus}1 per Stunned box (never below 0), + bonus dice (invoked aspects, aid, one-time pools), "
            "+ 0 up to the zone rank in <b>danger dice</b>. <b>Penalty dice</b>: 1 per Bashed box, "
            "+ complications, + compels. All SP are spent before the roll.",
            minus=MINUS,
        ),
        rolling,
        _(
            "<b>Sets</b>: a set of height <i>h</i> needs <i>h</i> dice showing <i>h</i>, after penalty dice cancel "
            "dice of their height. Ones never make a set. At most one set per check; the player may take none."
        ),
        _("<b>Botches</b>: every 1 showing at the end (pool, danger and penalty dice) is a botch for the GM."),
    ]
    quarter = width / 4
    outcome = _small_table(
        (_("Set height H vs difficulty D"), _("Outcome")),
        (
            # TRANSLATORS: rows of the GM screen's outcome table: H and D are the letters of its head "Set height H vs difficulty D".
            (_("H = D"), _("Success.")),
            (_("H > D"), _("Success + benefit: H − D one-time bonus dice.")),
            (_("0 < H < D"), _("Partial success if taken: H one-time bonus dice.")),
            # TRANSLATORS: a row of the GM screen's outcome table: the check made no set.
            (_("no set"), _("Failure.")),
            # TRANSLATORS: a row of the GM screen's outcome table: a check made to help another character.
            (_("aid check"), _("The aided character gains H bonus dice.")),
        ),
        (quarter * 1.35, width - quarter * 1.35),
    )
    difficulties = _small_table(
        (_("Difficulty (set)"), _("Narrative weight")),
        [(str(h), _accomplishment(h)) for h in sorted(ACCOMPLISHMENT)],
        (quarter * 1.35, width - quarter * 1.35),
    )
    return [
        # TRANSLATORS: the GM screen's section titles are printed in a black bar (capitals if the language has them).
        _Bar(_("HOW A CHECK WORKS")),
        *_steps([common.rich(step) for step in steps]),
        _Bar(_("OUTCOME")),
        outcome,
        _Bar(_("PC DIFFICULTIES"), _("set height for each accomplishment")),
        difficulties,
    ]


#: GM options (RULINGS.md) with a mechanical effect; the others are narrative setbacks.
_MECHANICAL = ("danger", "penalty", "reduced", "full", "overload")


def _mechanical(option: str) -> str:
    """A mechanical GM option as the screen words it."""
    words = {
        "danger": _("the character's danger +1"),
        "penalty": _("a penalty die on a challenge"),
        "reduced": _("reduced hit"),
        "full": _("full hit"),
        "overload": _("overload hit"),
    }
    return words[option]


def _setback(option: str) -> str:
    """A narrative GM option as the screen words it ("minor setback")."""
    words = {
        "minor": _("minor setback"),
        "meaningful": _("meaningful setback"),
        "significant": _("significant setback"),
        "major": _("major setback"),
        "huge": _("huge setback"),
    }
    return words[option]


def _accomplishment(height: int) -> str:
    """The narrative weight of a set of `height` ("minor accomplishment"), as the GM screen says it."""
    words = {
        2: _("minor accomplishment"),
        3: _("meaningful accomplishment"),
        4: _("significant accomplishment"),
        5: _("major accomplishment"),
        6: _("huge accomplishment"),
    }
    return words[height]


def _options_panel(table: _Table, width: float) -> list[Flowable]:
    """GM options by botch cost, from `GM_OPTIONS`: narrative setbacks and mechanical effects."""
    rows = []
    sep = "، " if common.rtl() else ", "
    for cost in sorted(set(GM_OPTIONS.values())):
        names = [name for name, c in GM_OPTIONS.items() if c == cost]
        narrative = [_setback(name) for name in names if name not in _MECHANICAL]
        mechanical = [_mechanical(name) for name in names if name in _MECHANICAL]
        if len(mechanical) > 1:
            # TRANSLATORS: two GM options of the same cost, either of which the GM may buy.
            either = _("{first} or {second}", first=mechanical[0], second=mechanical[1])
        else:
            either = "".join(mechanical)
        rows.append((str(cost), sep.join(narrative) or "–", either or "–"))
    options = _small_table((_("Cost"), _("Narrative"), _("Mechanical")), rows, common.columns_of(width, (13, 42, 45)))
    pool = table.state.pool if table.state is not None else None
    if pool is not None:
        starts = _("starts each session at {count} · now {pool} SP", count=table.pool_start, pool=pool)
    else:
        starts = _("starts each session at {count}", count=table.pool_start)
    return [
        _Bar(_("GM OPTIONS"), _("costs add up to at most the botches")),
        options,
        _screen_note(_(
            "A setback of cost c usually takes a successful check of height c to overcome directly. "
            "Botches not spent are lost. Setbacks can come with a failure or complicate a success."
        )),
        _Bar(_("SPECIAL DICE"), _("use dice of a different colour")),
        *_bullets(
            [
                common.rich(_(
                    "<b>Danger dice</b>: the player adds 0 up to the character's zone rank. A 1 is a botch. "
                    "Each danger die used in a set raises the danger level by 1."
                )),
                common.rich(_(
                    "<b>Penalty dice</b>: from Bashed boxes, complications and compels. A 1 is a botch. "
                    "Otherwise each one cancels one normal or danger die of the same height; "
                    "danger dice are cancelled before normal dice. A set uses normal dice before danger dice."
                )),
            ]
        ),
        _Bar(_("STORY POINT POOL"), starts),
        _Tally(POOL_BOXES, pool or 0),
        _screen_note(_("Invocations pay SP into the pool; compels pay SP from the pool to the player.")),
        *_danger_panel(table, width),
    ]


def _odds_flowables(table: _Table, width: float) -> list[Flowable]:
    """The chance of success by pool size and difficulty, with and without re-rolls."""
    shown = tuple(sorted({0, table.rerolls}))
    odds = odds_table(ODDS_DICE, ODDS_DIFFICULTIES, shown)
    per = len(shown)
    columns = len(ODDS_DIFFICULTIES) * per
    first = 16 * mm  # "Reserva", "Réserve" whole at the head's smallest size
    widths = [first] + [(width - first) / columns] * columns
    head = common.style("cell-head")
    number = _style("odds", "cell-centre", fontSize=8.2, leading=9.5)
    # The table's narrow first column: the number of dice in the pool, as the board's fact names it.
    pool_head = _("Pool")
    header: list[common.Cell] = [_p(markup(pool_head), common.fitted_style("cell-head", pool_head.split(), first))]
    for d in ODDS_DIFFICULTIES:
        header += [_p(markup(_("Difficulty {number}", number=d)), head)] + [None] * (per - 1)
    labels = [_("no re-roll") if r == 0 else _n("{n} re-roll", "{n} re-rolls", r) for r in shown]
    sub = common.fitted_style("cell-head", [w for label in labels for w in label.split()], widths[1])
    rows: list[Sequence[common.Cell]] = [[None] + [_p(markup(label), sub) for _d in ODDS_DIFFICULTIES for label in labels]]
    shading: list[tuple[object, ...]] = []
    for y, n in enumerate(ODDS_DICE, start=2):
        row: list[common.Cell] = [_p(i18n.number(n), "cell-number")]
        for i, d in enumerate(ODDS_DIFFICULTIES):
            for j, r in enumerate(shown):
                chance = odds[(n, d, r)]
                row.append(_p(markup(percent(chance)), number))
                grey = 1 - ODDS_SHADE * float(chance)
                shading.append(("BACKGROUND", (1 + i * per + j, y), (1 + i * per + j, y), colors.Color(grey, grey, grey)))
        rows.append(row)
    grid = common.ruled_table(header, rows, widths, row_height=ODDS_ROW)
    commands: list[tuple[object, ...]] = [
        ("SPAN", (0, 0), (0, 1)),
        ("BACKGROUND", (0, 1), (-1, 1), common.HEAD_FILL),
        ("LINEBELOW", (0, 1), (-1, 1), 1, common.INK),
        *shading,
    ]
    for i in range(len(ODDS_DIFFICULTIES)):
        left = 1 + i * per
        if per > 1:
            commands.append(("SPAN", (left, 0), (left + per - 1, 0)))
        commands.append(("LINEBEFORE", (left, 0), (left, -1), 1, common.INK))
    grid.setStyle(commands)
    note = _(
        "Exact chance that a check makes a set at least as high as the difficulty, locking and re-rolling "
        "as well as possible, with no penalty dice (danger dice count like any pool die). Penalty dice from "
        "Bashed boxes, complications and compels lower these odds. Computed by the playbook's rules model; "
        "darker cells are likelier, — means impossible."
    )
    return [
        _Bar(_("ODDS OF SUCCESS"), _("chance of a set of at least the difficulty")),
        grid,
        _screen_note(note),
    ]


def _danger_panel(table: _Table, width: float) -> list[Flowable]:
    rows = []
    for zone in range(1, MAX_ZONE + 1):
        low = (zone - 1) * LEVELS_PER_ZONE
        levels = _("{level} and up", level=low) if zone == MAX_ZONE else f"{low}–{low + LEVELS_PER_ZONE - 1}"
        rows.append((str(zone), levels, f"0–{zone}", _section_name(zone - 1)))
    zones = _small_table((_("Zone rank"), _("Danger levels"), _("Danger dice"), _("Full hits land in")), rows, common.columns_of(width, (20, 26, 22, 32)))
    if table.danger_resets:
        note = _("Danger starts at 0 and returns to 0 when an encounter ends. +1 per danger die used in a set; +1 per botch spent on it.")
    else:
        note = _("Danger starts at 0 and stays when an encounter ends (variant). +1 per danger die used in a set; +1 per botch spent on it.")
    return [
        _Bar(_("DANGER AND ZONES"), _("zone rank = min(5, level ÷ 5 + 1)")),
        zones,
        _screen_note(note),
    ]


def _damage_panel(width: float) -> list[Flowable]:
    """The track's sections (left) and how hits land and rests clear them (right)."""
    column = (width - SCREEN_GUTTER) / 2
    rows = []
    for zone, (_section, count) in enumerate(TRACK, 1):
        effect, clears = _section_text(zone - 1)
        rows.append((f"{zone} {_section_name(zone - 1)}", str(count), effect, clears))
    track = _small_table((_("Zone, section"), _("Boxes"), _("Effect"), _("Clears")), rows, common.columns_of(column, (28, 13, 35, 24)))
    hits = [_hit_line(hit) for hit in HITS]
    rests = [
        common.rich(_(
            "<b>Short rest</b>: Bashed and Stunned clear. <b>Long rest</b>: Injured and K.O.'d clear too, "
            "and lowered stats return."
        )),
        markup(_("A rest ends the running encounter: the K.O.'d wake up. An Injured box lowers a stat chosen by a die.")),
    ]
    sections = " · ".join(f"{_section_name(i)} {n}" for i, (_name, n) in enumerate(TRACK))
    return [
        _Bar(_("DAMAGE TRACK"), (_("{sections}: a hit fills one box (overload: more)", sections=sections), _("a hit fills one box (overload: more)"))),
        _columns([track], _bullets(hits) + _bullets(rests), width),
    ]


def _roster(table: _Table, width: float) -> list[Flowable]:
    """From a state: each character's SP, danger, zone, damage and pools at a glance."""
    state = table.state
    assert state is not None
    # TRANSLATORS: the GM screen's table of characters: the column of each one's damage, section by section.
    track_head = _("Bashed · Stunned · Injured · K.O. · Dead")
    heads = (_("Character"), _("SP"), _("Danger"), _("Zone"), track_head, _("Bonus pools"), _("Status"))
    widths = common.columns_of(width, (30, 8, 11, 9, 30, 16, 16))
    rows = []
    for c in state.characters:
        # TRANSLATORS: a character's status on the GM screen.
        status = _("dead") if c.dead else _("K.O.'d") if c.knocked_out else _("ready") if c.ready else _("no sheet yet")
        pools = " + ".join(str(p.dice) for p in c.bonus) or "–"
        track = " · ".join(f"{filled}/{count}" for filled, (_name, count) in zip(c.damage, TRACK))
        rows.append((c.name, str(c.sp), str(c.danger), str(zone_rank(c.danger)), track, pools, status))
    grid = _small_table(heads, rows, widths)
    where = _n(
        "Session {session}, encounter {encounter} · general pool {pool} SP · {n} check made",
        "Session {session}, encounter {encounter} · general pool {pool} SP · {n} checks made",
        state.checks,
        session=state.session,
        encounter=state.encounter,
        pool=state.pool,
    )
    return [KeepTogether([_Bar(_("AT THE TABLE"), where), grid])]


def _gm_screen(table: _Table, width: float) -> list[Flowable]:
    column = (width - SCREEN_GUTTER) / 2
    story: list[Flowable] = [
        common.Section(CARD.title, _("GM screen · checks and botches")),
        _p(markup(_("GM screen")), "title"),
        _p(_screen_intro(table), "subtitle"),
        _columns(_check_panel(table, column), _options_panel(table, column), width),
        PageBreak(),
        common.Section(CARD.title, _("GM screen · odds and damage")),
        *_odds_flowables(table, width),
        *_damage_panel(width),
    ]
    if table.state is not None:
        story += _roster(table, width)
    return story


# -- the document (printables.document) ----------------------------------------------------------
def sheets(table: _Table, page: str) -> list[Flowable]:
    """A character sheet per player character, the two-page GM screen and the rules card."""
    width, _ = common.frame_size(page)
    story: list[Flowable] = []
    for index in range(len(table.names)):
        story += _character_sheet(table, index) + [PageBreak()]
    story += _gm_screen(table, width)
    story += [PageBreak()] + rules_card(table, width)
    return story



#: The game's booklet is its rules card.
booklet = rules_card


# -- the debrief handout (printables.debrief asks for these) ----------------------------------------
DEBRIEF_ROW = 6 * mm
DEBRIEF_PARTY_WEIGHTS = (26, 14, 40, 12, 10)
DEBRIEF_CHECK_WEIGHTS = (6, 18, 22, 8, 8, 13, 11, 28)
#: an outcome as a short mark above its check's bars ("aid" is a word: `_outcome_mark`).
OUTCOME_MARK = {"success": "✓", "benefit": "✓+", "partial": "½", "failure": "✗", "aid": "aid"}


def _outcome_mark(outcome: str) -> str:
    # TRANSLATORS: the debrief chart's short mark above a check made to help another character.
    return _("aid") if outcome == "aid" else OUTCOME_MARK.get(outcome, "")


def _outcome_word(outcome: str) -> str:
    """A check's outcome in the debrief's table of checks."""
    words = {
        # TRANSLATORS: a check's outcome in the debrief's table of checks.
        "benefit": _("benefit"),
        "success": _("success"),
        "partial": _("partial"),
        "failure": _("failure"),
        # TRANSLATORS: the outcome of a check made to help another character.
        "aid": _("aid"),
    }
    return words.get(outcome, outcome)


def _gm_option(option: str) -> str:
    """A GM option the GM spent botches on, by the name the debrief has always printed."""
    words = {
        "danger": _("danger"),
        "penalty": _("penalty"),
        "reduced": _("reduced"),
        "minor": _("minor"),
        "meaningful": _("meaningful"),
        "full": _("full"),
        "significant": _("significant"),
        "major": _("major"),
        "overload": _("overload"),
        "huge": _("huge"),
    }
    return words.get(option, option)


def _gm_spent(state: State, spent: Sequence[Any]) -> str:
    parts = []
    for option in spent:
        if option.character is not None:
            # TRANSLATORS: a GM option spent on a character, in the debrief ("full on Ana").
            parts.append(_("{option} on {name}", option=_gm_option(option.option), name=state.names[option.character]))
        else:
            parts.append(_gm_option(option.option))
    return ("، " if common.rtl() else ", ").join(parts)


def debrief_lines(game: Any, reveal: bool = True) -> list[str]:
    """The party's story in five lines."""
    state: State = game.state
    results = state.results
    count = {k: sum(1 for r in results if r.outcome == k) for k in OUTCOME_MARK}
    characters = _n("{n} character", "{n} characters", len(state.characters))
    checks = _n("{n} check", "{n} checks", len(results))
    encounters = _n("{n} encounter", "{n} encounters", state.encounter)
    sessions = _n("{n} session", "{n} sessions", state.session)
    lines = [
        _(
            "{characters} and {gm} as GM: {checks} over {encounters} and {sessions}.",
            characters=characters, gm=state.setup.gm, checks=checks, encounters=encounters, sessions=sessions,
        ),
        _(
            "Successes {successes} (with a benefit {benefits}), partial {partial}, failures {failures}, aid checks {aid}.",
            successes=count["success"] + count["benefit"], benefits=count["benefit"], partial=count["partial"], failures=count["failure"], aid=count["aid"],
        ),
    ]
    if results:
        danger = _danger_after(game)
        peak, peak_level = 0, 0
        for i, levels in enumerate(danger):
            top = max(levels, default=0)
            if top > peak_level:
                peak, peak_level = i, top
        if peak_level:
            lines.append(_("The highest danger: level {level} (zone {zone}), reached by {name}.", level=peak_level, zone=zone_rank(peak_level), name=state.names[peak]))
        else:
            lines.append(_("Nobody's danger rose during a check."))
    botches = sum(r.botches for r in results)
    lines.append(_n("{n} botch in all for {gm} to spend.", "{n} botches in all for {gm} to spend.", botches, gm=state.setup.gm))
    sep = "، " if common.rtl() else ", "
    dead = [c.name for c in state.characters if c.dead]
    down = [c.name for c in state.characters if c.knocked_out and not c.dead]
    standing = sep.join(c.name for c in state.characters if not c.dead and not c.knocked_out)
    # TRANSLATORS: the debrief's line of who is still on their feet: nobody.
    parts = [_("Still standing: {names}.", names=standing) if standing else _("Still standing: nobody.")]
    if down:
        parts.append(_("K.O.'d: {names}.", names=sep.join(down)))
    if dead:
        parts.append(_("Dead: {names}.", names=sep.join(dead)))
    lines.append(" ".join(parts))
    return lines


def _danger_after(game: Any) -> list[list[int]]:
    """Each character's danger level after each finished check."""
    after = first_states(game, lambda s: len(s.results))
    checks = [k for k in sorted(after) if k >= 1]
    return [[after[k].characters[i].danger for k in checks] for i in range(len(game.state.characters))]


#: A class's Danger World tables are not compared.
debrief_compare = None


def debrief_story(game: Any, *, label: str, width: float, reveal: bool, reveal_pledges: bool | None = None, stopped: str = "") -> list[Flowable]:
    """One table's debrief: the party, the story, every check against its difficulty and the
    danger track check by check. Nothing at a Danger World table is secret."""
    state: State = game.state
    story: list[Flowable] = [common.heading(_("The party"), 2)]
    header: Sequence[common.Cell] = [_("Character"), _("Empty boxes"), _("Damage"), _("Danger"), _("SP")]
    rows: list[Sequence[common.Cell]] = []
    sep = "، " if common.rtl() else ", "
    for c in state.characters:
        damage = sep.join(f"{_section_name(i)} {n}/{BOXES[i]}" for i in range(len(TRACK)) if (n := c.damage[i])) or _("unhurt")
        # TRANSLATORS: after a character's name in the debrief's party table.
        status = " " + _("(dead)") if c.dead else " " + _("(K.O.'d)") if c.knocked_out else ""
        rows.append([c.name + status, str(c.health), damage, _("{level} (zone {zone})", level=c.danger, zone=c.zone), str(c.sp)])
    story.append(common.ruled_table(header, rows, common.columns_of(width, DEBRIEF_PARTY_WEIGHTS), row_height=DEBRIEF_ROW, zebra=True))
    story += common.story_block(debrief_lines(game, reveal))
    results = state.results
    if not results:
        return story
    x = [str(r.number) for r in results]
    checks = charts.Chart(
        _("Every check: the set made against the difficulty"),
        x,
        [
            # TRANSLATORS: a series of the debrief's chart of checks.
            charts.Series(_("difficulty"), tuple(float(r.difficulty) for r in results), "#bdbdbd"),
            charts.Series(_("set made (0: none)"), tuple(float(r.height or 0) for r in results), charts.PALETTE[0]),
        ],
        kind="bar",
        y_min=0,
        y_max=6,
        y_label=_("height · check"),
        notes=[_outcome_mark(r.outcome) for r in results],
    )
    levels = _danger_after(game)
    highest = max((v for row in levels for v in row), default=0)
    danger = charts.Chart(
        _("The danger track after each check"),
        x,
        charts.series_of(state.names, levels),
        y_min=0,
        # Only the zone lines the party came near: an empty chart of five zones says nothing.
        lines=[charts.Line(LEVELS_PER_ZONE * z, _("zone {zone} from here", zone=z + 1)) for z in range(1, MAX_ZONE) if LEVELS_PER_ZONE * (z - 1) <= highest],
        y_label=_("danger level · check"),
    )
    marks = "   ".join(f"{_outcome_mark(word) if word == 'aid' else mark} {_outcome_word(word)}" for word, mark in OUTCOME_MARK.items())
    above = common.para(_("Above each check: {marks}", marks=marks), "small")
    story += [common.spacer(3 * mm), charts.keep(checks, above), common.spacer(3 * mm), charts.keep(danger)]
    # TRANSLATORS: column heads of the debrief's table of checks ("Diff.": the difficulty, short).
    header = ["#", _("Who"), _("Stats"), _("Diff."), _("Set"), _("Outcome"), _("Botches"), _("The GM spent")]
    rows = [
        [
            str(r.number),
            _("{name} (aids {other})", name=state.names[r.actor], other=state.names[r.aid]) if r.aid is not None else state.names[r.actor],
            " + ".join(_stat_name(s) for s in r.stats),
            str(r.difficulty),
            # TRANSLATORS: the set a check made, in the debrief's table of checks: no set.
            str(r.height) if r.height else _("none"),
            _outcome_word(r.outcome),
            str(r.botches),
            _gm_spent(state, r.spent),
        ]
        for r in results
    ]
    story += [common.spacer(4 * mm), common.heading(_("The checks"), 2), common.ruled_table(header, rows, common.columns_of(width, DEBRIEF_CHECK_WEIGHTS), row_height=DEBRIEF_ROW, zebra=True)]
    return story
