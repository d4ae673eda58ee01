"""New Rule on paper: score pads, the final scoring worksheet, a rules card and a colour key.

`printables.document` prints blank materials for named (or unnamed) players, or "what you
played" from a `State`: the score pads filled from `state.pad`, the worksheet from the bowls and
`standings`. Every colour carries its shape from `rules.new_rule.symbol`, so the sheets work
for colour-blind players and in black and white.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepTogether, PageBreak

import i18n
from i18n import _, _n, say
from rules.decisions import Game, first_states
from rules.games import card
from rules.new_rule import RoundLine, Setup, State, colour_word, scores, standings, symbol

from . import charts, common, fonts, slips
from .fonts import BidiParagraph as Paragraph
from .fonts import markup

__all__ = ["CARD", "MATERIALS", "booklet", "debrief_compare", "debrief_lines", "debrief_story", "rules_card", "sheets", "table_of"]

# -- layout ------------------------------------------------------------------------------
CARD = card("new-rule")
MATERIALS = ("Score pad", "Final scoring worksheet", "Rules card", "Colour key", "Seat slips")
BLANK_ROUNDS = 12  # pad rows when the setup has no round limit
PAD_ROW = 14 * mm  # tall enough to write two candy colours by hand
# Relative widths: round, drawn, kept/swap, picked, infection, strength, paid, eaten.
PAD_WEIGHTS = (13, 28, 27, 20, 26, 17, 36, 13)
WORKSHEET_ROW = 13 * mm
WORKSHEET_NAME = 30 * mm
KEY_ROW = 11 * mm
KEY_SWATCH = 8 * mm
KEY_WEIGHTS = (16, 16, 34, 114)
CARD_COLUMNS = 2
CARD_PAD = 3 * mm
CARD_TITLE = 8  # points
CARD_LABEL = 7.5  # points
CARD_SWATCH = 4.5 * mm
CARD_GAP = 2.5 * mm  # between rows of swatches
CARD_SPACING = 3 * mm  # between a swatch's label and the next swatch
# Print colours for the candy names; other names go through ReportLab's CSS table.
SWATCHES: dict[str, str] = {
    "red": "#d7263d",
    "orange": "#f28c28",
    "yellow": "#f6d02f",
    "green": "#2e9e44",
    "blue": "#1f6fd1",
    "brown": "#7b4a26",
    "purple": "#7d3c98",
    "pink": "#f06fa8",
}
UNKNOWN_SWATCH = "#d0d0d0"


# -- what to print -----------------------------------------------------------------------------
#: The setup fields the sheets print with (`common.variants`: a blank print takes `Setup`'s defaults).
_VARIANTS = ("colours", "antibody", "max_rounds", "hand", "bags_per_player", "per_bag")


@dataclass(frozen=True)
class _Table:
    """The players and variant numbers a set of sheets is printed for."""

    names: tuple[str, ...]  # "" is a seat whose name is written in by hand
    colours: tuple[str, ...]
    max_rounds: int | None
    antibody: str
    hand: int
    bags_per_player: int
    per_bag: int
    state: State | None = None
    #: (seat name, URL) per seat for the seat slips' QR codes; None prints blank slips.
    seat_links: tuple[tuple[str, str], ...] | None = None

    @property
    def scoring(self) -> tuple[str, ...]:
        """The colours whose smallest count scores (all but the antibody)."""
        return tuple(c for c in self.colours if c != self.antibody)


def table_of(source: common.Source[Setup, State]) -> _Table:
    """The table `source` prints for: its setup's, or blank seats with `Setup`'s default variants."""
    variants = common.variants(source, Setup, _VARIANTS)
    return _Table(names=source.names, state=source.state, seat_links=source.seat_links, **variants)


# -- small text helpers ------------------------------------------------------------------------
def _word(colour: str) -> str:
    """A candy colour as the reader's language names it (a colour the facilitator typed, as typed)."""
    return i18n.render(colour_word(colour))


def _colour(table: _Table, colour: str) -> str:
    """Markup for one colour: its shape, then its (escaped) name, never split across lines."""
    return markup(f"{symbol(table.colours, colour)}\u00a0{_word(colour)}")


def _candies(table: _Table, candies: Sequence[str]) -> str:
    """Markup for a handful of candies in the game's colour order: '2 ● blue, ♣ green'."""
    counts = Counter(candies)
    order = [c for c in table.colours if c in counts] + sorted(c for c in counts if c not in table.colours)
    parts = [(f"{i18n.number(counts[c])} " if counts[c] > 1 else "") + _colour(table, c) for c in order]
    return _comma().join(parts)


def _comma() -> str:
    """What separates the items of a list of colours: ", ", Arabic's "، "."""
    return i18n.render(_COMMA)


# TRANSLATORS: the separator between the items of a list of candy colours, as ", " (keep its space).
_COMMA = say(", ")


def _names(names: Sequence[str]) -> str:
    """Names as a list: in English as the sheets always set them (each name in its own
    direction), in another language as that language lists them."""
    if i18n.current() in (i18n.SOURCE, i18n.PSEUDO):
        return fonts.name_list(names, last=" and ")
    return common.names_text(names)


def _fitted_heads(heads: Sequence[str], widths: Sequence[float]) -> ParagraphStyle:
    """One head style for a table's columns: the size at which every head's longest word fits its own column."""
    # A soft hyphen is where a long word may break: the parts must fit, not the whole word.
    looks = [common.fitted_style("cell-head", head.replace("\u00ad", " ").split(), width) for head, width in zip(heads, widths)]
    return min(looks, key=lambda look: look.fontSize)


def _p(text: str, style: str = "cell") -> Paragraph:
    """A paragraph of markup that was already escaped by the helpers above."""
    return Paragraph(text, common.style(style))


def _seat_label(table: _Table, seat: int) -> str:
    return table.names[seat] or _("Player {n}", n=seat + 1)


# -- (1) the score pad ------------------------------------------------------------------------
def _pad_rows(table: _Table) -> int:
    state = table.state
    planned = table.max_rounds or BLANK_ROUNDS
    if state is None:
        return planned
    if state.over:
        return max(state.round, 1)
    return max(planned, state.round)


def _pad_cells(table: _Table, seat: int, line: RoundLine | None, number: int) -> list[common.Cell]:
    """One round's row: filled from the pad line, or ready to write in."""
    round_cell = _p(i18n.number(number), "cell-number")
    if line is None:
        state = table.state
        # Hints only on rows still to be played: not after the end, not for a player who is out.
        playable = state is None or not (state.over or state.players[seat].out)
        # TRANSLATORS: two boxes to tick in an empty score pad row: kept the draw, or swapped it for...
        hint = _p(markup(_("☐ kept   ☐ swap →")), "small") if playable else None
        return [round_cell, None, hint, None, None, None, None, None]
    if line.choice == "kept":
        # TRANSLATORS: a filled score pad's "Kept or swapped for" cell: the player kept the draw.
        choice = markup(_("kept"))
    elif line.choice == "swapped":
        # TRANSLATORS: a filled score pad's "Kept or swapped for" cell, before the colour taken.
        choice = markup(_("swap →")) + " " + (_colour(table, line.chosen) if line.chosen else "")
    else:
        choice = ""
    paid = _candies(table, line.returned)
    if line.note:
        # TRANSLATORS: a score pad's row of a player who went out, and why ("out: the bowl is empty").
        note = _("out: {why}", why=line.out) if line.out else line.note
        paid = (paid + "<br/>" if paid else "") + f"<i>{markup(note)}</i>"
    infection = _comma().join(_colour(table, c) for c in line.infection)
    return [
        round_cell,
        _p(_candies(table, line.drawn)),
        _p(choice),
        _p(_colour(table, line.picked) if line.picked else ""),
        _p(infection),
        _p(i18n.number(line.strength) if line.strength else "", "cell-centre"),
        _p(paid),
        _p(i18n.number(line.eaten) if line.eaten else "", "cell-centre"),
    ]


def _pad_status(table: _Table, seat: int) -> str:
    """The line under a filled pad's name: in or out, candies held, score so far."""
    state = table.state
    assert state is not None
    player = state.players[seat]
    rank = next(r for r, s, _score in standings(state) if s == seat)
    score = scores(state)[seat]
    if player.out:
        where = _("out in round {round}", round=player.out_round)
    else:
        where = _n("holds {n} candy", "holds {n} candies", player.candies)
    # TRANSLATORS: a filled score pad: whether its score is the final one.
    when = _("final") if state.over else _("as of round {round}", round=state.round)
    return markup(_("Seat {seat} · {where} · score {score}, rank {rank} ({when})", seat=seat + 1, where=where, score=score, rank=rank, when=when))


def _score_pad(table: _Table, seat: int, width: float) -> list[Flowable]:
    """One player's page: a row per round for the draw, the pick, the infection and the payment."""
    name = table.names[seat]
    story: list[Flowable] = [common.Section(CARD.title, _("Score pad · {name}", name=_seat_label(table, seat)))]
    if name:
        story.append(_p(markup(_("Score pad — {name}", name=name)), "title"))
    else:
        story.append(_p(markup(_("Score pad — player: ______________________")), "title"))
    if table.state is not None:
        story.append(_p(_pad_status(table, seat), "subtitle"))
    else:
        story.append(
            _p(
                markup(_("Seat {seat}. One row per round: what you drew, what you kept, your secret pick, the infection and what you paid.", seat=seat + 1)),
                "subtitle",
            )
        )
    antibody = _colour(table, table.antibody)
    # TRANSLATORS: the column heads of a New Rule score pad (narrow columns: keep them short).
    heads = [_("Round"), _("Drawn"), _("Kept or swapped for"), _("Picked"), _("Infection"), _("Strength"), _("Paid (returned to the bowl)")]
    widths = common.columns_of(width, PAD_WEIGHTS)
    # A language's longest word still fits its column: the heads shrink rather than break a word.
    eaten = _("Eaten {antibody}", antibody="{antibody}")
    plain = eaten.replace("{antibody}", f"{symbol(table.colours, table.antibody)} {_word(table.antibody)}")
    look = _fitted_heads([*heads, plain], widths)
    header = [Paragraph(markup(head), look) for head in heads]
    header.append(Paragraph(common.fill(eaten, antibody=antibody), look))
    lines: dict[int, RoundLine] = {}
    if table.state is not None:
        lines = {line.round: line for line in table.state.pad if line.seat == seat}
    rows = [_pad_cells(table, seat, lines.get(n), n) for n in range(1, _pad_rows(table) + 1)]
    story.append(common.ruled_table(header, rows, widths, row_height=PAD_ROW, zebra=True))
    story.append(common.spacer(3 * mm))
    story.append(_p(_legend(table), "small"))
    return story


def _legend(table: _Table) -> str:
    """One line naming every colour with its shape."""
    parts = [_colour(table, c) + (" " + markup(_("(antibody)")) if c == table.antibody else "") for c in table.colours]
    return common.fill(_("Colours: {colours}", colours="{colours}"), colours=" · ".join(parts))


# -- (2) the final scoring worksheet ------------------------------------------------------------
def _worksheet(table: _Table, width: float) -> list[Flowable]:
    """Per player: the count of each scoring colour, the smallest, plus antibodies, the score, the rank."""
    state = table.state
    antibody = _colour(table, table.antibody)
    story: list[Flowable] = [
        common.Section(CARD.title, _("Final scoring worksheet")),
        _p(markup(_("Final scoring worksheet")), "title"),
    ]
    if state is None:
        intro = common.fill(
            _("Count each colour in your bowl except {antibody}. Circle the smallest count, add the {antibody} you still hold: that is your score.", antibody="{antibody}"),
            antibody=antibody,
        )
    elif state.over:
        intro = markup(_("The game ended: {how}.", how=i18n.render(state.ending or state.ended)))
    else:
        intro = markup(_("Game in progress, round {round}: the scores if the game ended now.", round=state.round))
    story.append(_p(intro, "subtitle"))

    rest = width - WORKSHEET_NAME
    narrow = rest / (len(table.scoring) + 4)
    widths = [WORKSHEET_NAME] + [narrow] * (len(table.scoring) + 4)
    # TRANSLATORS: the worksheet's last column heads: the smallest count, + the antibody, = the score, the rank.
    totals = [_("Smallest"), f"+ {symbol(table.colours, table.antibody)} {_word(table.antibody)}", _("= Score"), _("Rank")]
    words = [w for label in (*map(_word, table.scoring), *totals) for w in label.split()]
    head = common.fitted_style("cell-head", words, narrow)
    header: list[common.Cell] = [_p(markup(_("Player")), "cell-head-left")]
    # Shape above name in every colour header, so the columns read alike however wide they are.
    header += [Paragraph(markup(symbol(table.colours, c)) + "<br/>" + markup(_word(c)), head) for c in table.scoring]
    header += [Paragraph(markup(label), head) for label in totals]

    ranks = {seat: rank for rank, seat, _score in standings(state)} if state is not None else {}
    shared = Counter(ranks.values())
    points = scores(state) if state is not None else ()
    rows: list[Sequence[common.Cell]] = []
    for seat, name in enumerate(table.names):
        label = _p(markup(name) if name else "", "cell-big")
        if state is None:
            rows.append([label] + [None] * (len(table.scoring) + 4))
            continue
        player = state.players[seat]
        counts = dict(zip(table.colours, player.bowl))
        reds = counts[table.antibody]
        rank = i18n.number(ranks[seat]) + ("=" if shared[ranks[seat]] > 1 else "")
        if player.out:
            rank += f'<br/><font size="7">{markup(_("out in round {round}", round=player.out_round))}</font>'
        rows.append(
            [label]
            + [_p(i18n.number(counts[c]), "cell-centre") for c in table.scoring]
            + [
                _p(i18n.number(points[seat] - reds), "cell-centre"),
                _p(i18n.number(reds), "cell-centre"),
                _p(f"<b>{i18n.number(points[seat])}</b>", "cell-centre"),
                _p(rank, "cell-centre"),
            ]
        )
    story.append(common.ruled_table(header, rows, widths, row_height=WORKSHEET_ROW))
    story.append(common.spacer(5 * mm))
    if state is not None and state.over:
        best = [s for r, s, _score in standings(state) if r == 1]
        winners = markup(_names([table.names[s] for s in best]))
        if len(best) == 1:
            story.append(_p(common.fill(_("{names} <b>wins</b>.", names="{names}"), names=winners), "body"))
        else:
            story.append(_p(common.fill(_("{names} <b>share the win</b>.", names="{names}"), names=winners), "body"))
    story.append(common.heading(_("How to score"), 2))
    story += common.bullets(
        common.fill(
            _("Your score is the smallest count among {colours}, plus every {antibody} you hold.", colours="{colours}", antibody="{antibody}"),
            colours=_comma().join(_colour(table, c) for c in table.scoring),
            antibody=antibody,
        ),
        markup(_("Highest score wins. Players who went out rank below everyone still in; of those, the one who went out later ranks higher.")),
        markup(_("Equal scores share a rank (shown as 2= and so on).")),
    )
    return story


# -- (3) the rules card ------------------------------------------------------------------------------
def rules_card(table: _Table, width: float) -> list[Flowable]:
    """The whole game on one page, in the project's reading of the text (RULINGS.md)."""
    red = _colour(table, table.antibody)
    low, high = CARD.players.range
    colour_list = _comma().join(_colour(table, c) for c in table.colours)
    if table.max_rounds is not None:
        # TRANSLATORS: a line of the rules card's "End", after "The game ends ... or".
        limit = _("or after round {round} (the playbook's round limit; the text has none),", round=table.max_rounds)
    else:
        limit = _("or never by a round limit (played as written),")

    def body(text: str) -> Paragraph:
        return _p(common.rich(text), "body")

    subtitle = markup(
        _("{low}-{high} players. Your bowl of candy is your body: each round an infection strikes, and you pay for it with candy. Keep a balanced bowl to score.", low=low, high=high)
    )
    # The messages below carry their own <b>/<i>; their values are colours, already markup.
    story: list[Flowable] = [
        *common.card_top(CARD.title, subtitle),
        common.heading(_("You need"), 2),
        *common.bullets(
            common.fill(
                _(
                    "{bags} bags of candy per player, each with {per_bag} of every colour: {colours}. {antibody} is the antibody colour.",
                    bags=table.bags_per_player, per_bag=table.per_bag, colours="{colours}", antibody="{antibody}",
                ),
                colours=colour_list,
                antibody=red,
            ),
            markup(_("A common bowl in the middle and a bowl for each player.")),
        ),
        common.heading(_("Setup"), 2),
        *common.bullets(
            markup(_("Pour every candy into the common bowl. Each player draws {hand} blindly into their own bowl.", hand=table.hand)),
            markup(_("Choose a first player; play goes to the left.")),
        ),
        common.heading(_("Each round"), 2),
        body(_("<b>1. Draw.</b> In seat order, each player still in draws 2 candies blindly (fewer if the bowl holds fewer) "
               "and looks at them in secret. Then either <b>keep both</b>, or <b>return both</b> and take "
               "1 candy of any colour the common bowl now holds.")),
        body(_("<b>2. Pick.</b> Everyone still in secretly picks one colour they hold (a candy hidden in a closed hand). "
               "Reveal at the same moment. The colour picked most often is the <b>infection</b>; how many times it was "
               "picked is its <b>strength</b>. A tie makes <i>every</i> tied colour an infection colour. "
               "The picked candies stay in their owners' bowls.")),
        body(_("<b>3. Pay.</b> Every player pays exactly <i>strength</i> levels, mixing these as they like:")),
        *common.bullets(
            common.rich(_("return <b>2 candies</b> of non-infection colours to the common bowl (they may differ in colour);")),
            common.fill(_("or <b>eat 1 {antibody}</b> (it leaves the game; allowed even when {antibody} is an infection colour);", antibody="{antibody}"), antibody=red),
            common.rich(_("or return <b>4 infection-colour candies</b>, but only once you hold fewer than 2 non-infection candies "
                          "(not counting the antibodies you are eating).")),
        ),
        _p(common.fill(_("A returned {antibody} counts as a non-infection candy unless {antibody} is an infection colour.", antibody="{antibody}"), antibody=red), "small"),
        common.heading(_("Out"), 2),
        *common.bullets(
            markup(_("If you cannot pay every level, return all your candies to the common bowl: you are out.")),
            markup(_("A player whose bowl is empty is out too.")),
        ),
        # Not "End", as the card said before the catalogs: that message is Danger World's
        # abbreviation of Endurance, and a message cannot mean two things in one catalog.
        common.heading(_("End of the game"), 2),
        *common.bullets(
            markup(_("The game ends at the start of a round when the common bowl is empty,")),
            markup(limit),
            markup(_("or as soon as fewer than two players are still in.")),
        ),
        # TRANSLATORS: the rules card's heading over how a score is counted.
        common.heading(_("Score"), 2),
        *common.bullets(
            common.fill(
                _(
                    "Count each colour you hold except {antibody}; your score is the <b>smallest</b> of those counts <b>plus</b> the {antibody} you still hold. Highest score wins.",
                    antibody="{antibody}",
                ),
                antibody=red,
            ),
            markup(_("Players who are out rank below everyone still in (later out ranks higher); equal scores share a rank.")),
        ),
        common.heading(_("Example"), 2),
        _p(
            common.fill(
                _(
                    "Four players pick {yellow}, {yellow}, {green} and {brown}: {yellow} is the infection at strength 2. "
                    "Everyone pays 2 levels: 4 non-{yellow} candies, or 2 {antibody}, or 2 non-{yellow} candies and 1 {antibody}.",
                    yellow=_word("yellow"), green=_word("green"), brown=_word("brown"), antibody="{antibody}",
                ),
                antibody=red,
            ),
            "body",
        ),
    ]
    return story


# -- (4) the colour key -----------------------------------------------------------------------------
def _swatch_colour(colour: str) -> colors.Color:
    """The print colour for a candy colour name; grey when the name is not a known colour."""
    if colour in SWATCHES:
        return colors.HexColor(SWATCHES[colour])
    try:
        return colors.toColor(colour)
    except ValueError:
        return colors.HexColor(UNKNOWN_SWATCH)


def _mark_colour(fill: colors.Color) -> colors.Color:
    """Black on light swatches, white on dark ones, so the shape always shows."""
    light = 0.299 * fill.red + 0.587 * fill.green + 0.114 * fill.blue
    return colors.black if light > 0.55 else colors.white


def _role(table: _Table, colour: str) -> str:
    if colour == table.antibody:
        return _("Antibody: eat 1 to pay 1 level. Each one you hold adds 1 to your score.")
    return _("Scoring colour: your smallest count of these colours is your base score.")


def _colour_key(table: _Table, width: float) -> list[Flowable]:
    """Each colour's swatch, shape and name, then cut-out key cards, one per player."""
    story: list[Flowable] = [
        common.Section(CARD.title, _("Colour key")),
        _p(markup(_("Colour key")), "title"),
        _p(
            markup(_("Every colour has its own shape, on these sheets and in the playbook, so no one has to tell "
                     "colours apart by hue. Mark the bowls or the candy cups with the shapes if that helps.")),
            "subtitle",
        ),
    ]
    # TRANSLATORS: the colour key's column heads: a colour's swatch, its shape, its name, its role in the game.
    heads = [_("Colour"), _("Shape"), _("Name"), _("Role")]
    widths = common.columns_of(width, KEY_WEIGHTS)
    narrow = _fitted_heads(heads[:2], widths[:2])
    header = [Paragraph(markup(heads[0]), narrow), Paragraph(markup(heads[1]), narrow), _p(markup(heads[2]), "cell-head-left"), _p(markup(heads[3]), "cell-head-left")]
    rows: list[Sequence[common.Cell]] = []
    for colour in table.colours:
        fill = _swatch_colour(colour)
        shape = symbol(table.colours, colour)
        rows.append(
            [
                common.Swatch(fill, KEY_SWATCH, shape, _mark_colour(fill)),
                _p(markup(shape), "cell-symbol"),
                _p(markup(_word(colour)), "cell-big"),
                _p(markup(_role(table, colour))),
            ]
        )
    key = common.ruled_table(header, rows, widths, row_height=KEY_ROW)
    key.setStyle([("ALIGN", (0, 1), (1, -1), "CENTER")])
    story.append(key)
    story.append(common.spacer(6 * mm))
    cards = len(table.names)
    card_rows = math.ceil(cards / CARD_COLUMNS)
    margin = 2 * (common.CROP_OFFSET + common.CROP_LENGTH)
    _per_row, _rows, card_height = _card_grid(table, (width - margin) / CARD_COLUMNS)
    story.append(
        KeepTogether(
            [
                common.heading(_("Key cards to cut out"), 2),
                common.spacer(2 * mm),
                common.SlipSheet(
                    cards,
                    lambda canvas, index, w, h: _draw_card(canvas, table, index, w, h),
                    columns=CARD_COLUMNS,
                    rows=card_rows,
                    height=card_rows * card_height + margin,
                ),
            ]
        )
    )
    return story


def _card_grid(table: _Table, width: float) -> tuple[int, int, float]:
    """(colours per row, rows, card height) for key cards `width` wide."""
    room = width - 2 * CARD_PAD
    widest = max(fonts.string_width(_word(c), fonts.BODY, CARD_LABEL) for c in table.colours)
    cell = CARD_SWATCH + 1.5 * mm + widest + CARD_SPACING
    per_row = max(1, min(len(table.colours), int(room // cell)))
    rows = math.ceil(len(table.colours) / per_row)
    per_row = math.ceil(len(table.colours) / rows)  # even rows: 3 + 3 rather than 5 + 1
    height = 2 * CARD_PAD + CARD_TITLE + 3 * mm + rows * CARD_SWATCH + (rows - 1) * CARD_GAP
    return per_row, rows, height


def _draw_card(canvas: Canvas, table: _Table, index: int, width: float, height: float) -> None:
    """One pocket key card: the player's name and every colour's swatch, shape and name."""
    per_row, rows, _height = _card_grid(table, width)
    block = CARD_TITLE + 3 * mm + rows * CARD_SWATCH + (rows - 1) * CARD_GAP
    top = (height + block) / 2  # centre the card's content vertically
    canvas.setFillColor(common.INK)
    # The title and the name share the card's top line: the title gets at most two thirds of it.
    title, title_size = fonts.fit(_("{game} colour key", game=CARD.title), fonts.BOLD, CARD_TITLE, (width - 2 * CARD_PAD) * 2 / 3)
    start, end, toward_end = (width - CARD_PAD, CARD_PAD, "left") if common.rtl() else (CARD_PAD, width - CARD_PAD, "right")
    title_w = fonts.draw_string(canvas, start, top - CARD_TITLE, title, fonts.BOLD, title_size, align="right" if common.rtl() else "left")
    if table.names[index]:
        room = width - 2 * CARD_PAD - title_w - 3 * mm
        name, size = fonts.fit(table.names[index], fonts.BODY, CARD_TITLE, room)
        fonts.draw_string(canvas, end, top - CARD_TITLE, name, fonts.BODY, size, align=toward_end)
    cell_w = (width - 2 * CARD_PAD) / per_row
    for i, colour in enumerate(table.colours):
        row, col = divmod(i, per_row)
        # Right to left, the colours run from the card's right edge, each name left of its swatch.
        x = width - CARD_PAD - col * cell_w - CARD_SWATCH if common.rtl() else CARD_PAD + col * cell_w
        y = top - CARD_TITLE - 3 * mm - CARD_SWATCH - row * (CARD_SWATCH + CARD_GAP)
        fill = _swatch_colour(colour)
        canvas.setFillColor(fill)
        canvas.setStrokeColor(common.INK)
        canvas.setLineWidth(0.4)
        canvas.rect(x, y, CARD_SWATCH, CARD_SWATCH, stroke=1, fill=1)
        canvas.setFillColor(_mark_colour(fill))
        shape = symbol(table.colours, colour)
        fonts.draw_string(canvas, x + CARD_SWATCH / 2, y + CARD_SWATCH * 0.25, shape, fonts.BODY, CARD_SWATCH * 0.65, align="centre")
        canvas.setFillColor(common.INK)
        label, size = fonts.fit(_word(colour), fonts.BODY, CARD_LABEL, cell_w - CARD_SWATCH - 1.5 * mm - CARD_SPACING / 2)
        if common.rtl():
            fonts.draw_string(canvas, x - 1.5 * mm, y + CARD_SWATCH * 0.28, label, fonts.BODY, size, align="right")
        else:
            fonts.draw_string(canvas, x + CARD_SWATCH + 1.5 * mm, y + CARD_SWATCH * 0.28, label, fonts.BODY, size)


# -- the document (printables.document) ----------------------------------------------------------
def sheets(table: _Table, page: str) -> list[Flowable]:
    """A score pad per player, the scoring worksheet, the rules card, the colour key and (until
    the game is over) the seat slips: blank, with QR codes from `table.seat_links`."""
    width, _height = common.frame_size(page)
    story: list[Flowable] = []
    for seat in range(len(table.names)):
        story += _score_pad(table, seat, width) + [PageBreak()]
    story += _worksheet(table, width) + [PageBreak()]
    story += rules_card(table, width) + [PageBreak()]
    story += _colour_key(table, width)
    if table.state is None or not table.state.over:
        story += [PageBreak()] + slips.seat_slips(table.seat_links, game_title=CARD.title, players=len(table.names), page=page)
    return story



#: The game's booklet is its rules card.
booklet = rules_card


# -- the debrief handout (printables.debrief asks for these) ----------------------------------------
DEBRIEF_ROW = 6 * mm
DEBRIEF_ROUND_WEIGHTS = (8, 22, 10, 60)
DEBRIEF_PLAYER_WEIGHTS = (34, 22, 14, 14, 16)


def _rounds(state: State) -> dict[int, list[RoundLine]]:
    """The score pad's rows, round by round."""
    found: dict[int, list[RoundLine]] = {}
    for line in state.pad:
        found.setdefault(line.round, []).append(line)
    return found


def _infections(state: State) -> list[tuple[int, tuple[str, ...], int]]:
    """(round, infection colours, strength) for every round whose picks were revealed."""
    out = []
    for number, lines in sorted(_rounds(state).items()):
        shown = next((line for line in lines if line.strength), None)
        if shown is not None:
            out.append((number, shown.infection, shown.strength))
    return out


def debrief_lines(game: Game[Setup, State], reveal: bool = True) -> list[str]:
    """The story of the table in five lines."""
    state = game.state
    infections = _infections(state)
    rounds = _n("{n} round", "{n} rounds", state.round)
    if state.over:
        lines = [_n("{n} player, {rounds}; the game ended: {how}.", "{n} players, {rounds}; the game ended: {how}.", state.setup.players, rounds=rounds, how=i18n.render(state.ending or state.ended))]
    else:
        lines = [_n("{n} player, {rounds}; the game goes on.", "{n} players, {rounds}; the game goes on.", state.setup.players, rounds=rounds)]
    if infections:
        number, colours, strength = max(infections, key=lambda i: (i[2], -i[0]))
        named = " and ".join(map(_word, colours)) if i18n.current() in (i18n.SOURCE, i18n.PSEUDO) else common.names_text(map(_word, colours))
        lines.append(_("The strongest infection: {colours} at strength {strength}, in round {round}.", colours=named, strength=strength, round=number))
    out = sorted((p.out_round, seat) for seat, p in enumerate(state.players) if p.out_round is not None)
    if out:
        # TRANSLATORS: one player who went out, in the debrief's "Out of the game: ..." line (several are joined by "; ").
        went = "; ".join(_("in round {round}, {name}", round=r, name=state.names[s]) for r, s in out)
        lines.append(_("Out of the game: {who}.", who=went))
    else:
        lines.append(_("Nobody went out."))
    eaten = sum(p.eaten for p in state.players)
    lines.append(_n("{n} {antibody} eaten in all; the common bowl holds {candies} candies.", "{n} {antibody} eaten in all; the common bowl holds {candies} candies.", eaten, antibody=_word(state.setup.antibody), candies=sum(state.common)))
    lines.append(common.leaders(game, lambda best: _("with a score of {score}", score=best)))
    return lines


#: A class's New Rule tables are not compared.
debrief_compare = None


def debrief_story(game: Game[Setup, State], *, label: str, width: float, reveal: bool, reveal_pledges: bool | None = None, stopped: str = "") -> list[Flowable]:
    """One table's debrief: the results, the story, the infection round by round, the bowls'
    sizes and who went out; with `reveal` (after the end, the facilitator's choice) each
    player's pick every round."""
    state = game.state
    story: list[Flowable] = common.results_block(game, width, score=_("Score"), stopped=stopped)
    story += common.story_block(debrief_lines(game, reveal))
    infections = _infections(state)
    if not infections:
        return story
    starts = first_states(game, lambda s: s.round)
    rounds = [r for r in sorted(starts) if r >= 1]
    # TRANSLATORS: a chart's last mark on its round axis: the state at the game's end.
    x = [i18n.number(r) for r in rounds] + [_("end")]
    colours = state.colours
    chart = charts.Chart(
        _("The infection, round by round"),
        [i18n.number(r) for r, _i, _c in infections],
        [charts.Series(_("strength"), tuple(s for _r, _c, s in infections), charts.PALETTE[3])],
        kind="bar",
        y_min=0,
        # TRANSLATORS: a chart's axis label: what is counted · along what.
        y_label=_("strength · round"),
        notes=["".join(symbol(colours, c) for c in cs) for _r, cs, _s in infections],
    )
    key = "   ".join(f"{symbol(colours, c)} {_word(c)}" for c in colours)
    bowls = [[float(starts[r].players[s].candies) for r in rounds] + [float(state.players[s].candies)] for s in range(state.setup.players)]
    common_bowl = [float(sum(starts[r].common)) for r in rounds] + [float(sum(state.common))]
    sizes = charts.Chart(
        _("Candies in each bowl at the start of each round"),
        x,
        charts.series_of(state.names, bowls),
        y_min=0,
        y_label=_("candies · round"),
    )
    pool = charts.Chart(_("The common bowl"), x, [charts.Series(_("common bowl"), tuple(common_bowl), charts.PALETTE[6])], height=40 * mm, y_label=_("candies · round"))
    story += [common.spacer(3 * mm), charts.keep(chart, common.para(_("Above each bar, the shape of each infection colour: {key}", key=key), "small"))]
    story += [common.spacer(3 * mm), charts.keep(sizes), common.spacer(3 * mm), charts.keep(pool)]
    # Who went out, and where everyone finished.
    points = scores(state)
    # TRANSLATORS: the column heads of the debrief's table of who went out.
    header: Sequence[common.Cell] = [_("Player"), _("Out"), _("Candies"), _("Reds eaten"), _("Score")]
    rows: list[Sequence[common.Cell]] = [
        [p.name, _("round {round}", round=p.out_round) if p.out_round is not None else _("still in"), i18n.number(p.candies), i18n.number(p.eaten), i18n.number(points[s])]
        for s, p in enumerate(state.players)
    ]
    story += [common.spacer(4 * mm), common.heading(_("Who is out"), 2), common.ruled_table(header, rows, common.columns_of(width, DEBRIEF_PLAYER_WEIGHTS), row_height=DEBRIEF_ROW, zebra=True)]
    # Round by round: the reveal, and each player's pick where the facilitator shows them.
    header = [_("Round"), _("Infection"), _("Strength"), _("Picks") if reveal else _("What happened")]
    by_round = _rounds(state)
    rows = []
    for number, infection, strength in infections:
        if reveal:
            told = _comma().join(_("{name}: {colour}", name=state.names[line.seat], colour=_word(line.picked)) for line in by_round[number] if line.picked)
        else:
            told = "; ".join(_out_note(state.names[line.seat], line) for line in by_round[number] if line.note) or _("everyone paid")
        told = told if common.rtl() else common.english(told)
        rows.append([i18n.number(number), _comma().join(map(_word, infection)), i18n.number(strength), told])
    story += [common.spacer(4 * mm), common.heading(_("Round by round"), 2), common.ruled_table(header, rows, common.columns_of(width, DEBRIEF_ROUND_WEIGHTS), row_height=DEBRIEF_ROW, zebra=True)]
    return story


def _out_note(name: str, line: RoundLine) -> str:
    """'Ana out: the bowl is empty', in the reader's language (the English record as it was)."""
    if line.out:
        # TRANSLATORS: a debrief's round row: who went out, and why.
        return _("{name} out: {why}", name=name, why=line.out)
    return f"{name} {line.note}"
