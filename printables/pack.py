"""Every game's materials for one group of 1-20 people, in one PDF with a contents page.

Each game is printed for the people it takes, as its card says (`plan`): in tables of its
players' range, none larger than its text is written for, as even as a class is dealt (New
Rule in tables of 3-5, Dangerous Ideas of 3-10, Leerdam in villages of 3-10); a game with a
GM (Danger World) gets one more at each table, the table's first name. A group a game's one
table holds but its text is not written for gets the text's warning; a game the group is too
small for is left out, and the contents page says why. Every game's part starts on a new page.

One game for a class (`class_plan`, `class_pdf`: more people than one of its tables takes) is
split into parallel tables as `playbook class new` deals a class, in tables of the card's class
range (Leerdam for 30: three villages of 10; New Rule: six tables of 5). A part of several
tables names its table in every page's header ("Leerdam · Village 2 of 3").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.platypus import Flowable, PageBreak

import i18n
from i18n import _, _n
from rules.core import even_tables
from rules.games import CARDS, Card, card

from . import common, document, fonts

__all__ = ["GROUP_RANGE", "Part", "booklet_pdf", "build_pdf", "build_story", "class_pdf", "class_plan", "plan", "split", "table_rule"]

GROUP_RANGE = (1, 20)


def _word(word: object) -> str:
    """A card's word ("households") in the current language, as its card says it."""
    return i18n.render(word) if isinstance(word, i18n.Said) else str(word)


def _tables(game: Card) -> str:
    """The card's word for several tables ("villages")."""
    return _word(game.words.tables)


def _and_sizes(sizes: Sequence[int]) -> str:
    """'6 and 6', '4 and 4 and 4': table sizes as the pack's notes always wrote them in English."""
    if i18n.current() in (i18n.SOURCE, i18n.PSEUDO):
        return " and ".join(map(i18n.number, sizes))
    return _sizes(sizes)


def _sizes(sizes: Sequence[int]) -> str:
    """'6, 5 and 5': table sizes as a list."""
    numbers = [i18n.number(size) for size in sizes]
    return fonts.name_list(numbers, last=" and ") if i18n.current() in (i18n.SOURCE, i18n.PSEUDO) else common.names_text(numbers)


@dataclass(frozen=True)
class Part:
    """One game's materials for one table: `names` has "" for a seat written in by hand."""

    game: str  # slug
    table: int  # 1-based
    tables: int
    names: tuple[str, ...]
    gm: str = ""  # a game with a GM only

    @property
    def card(self) -> Card:
        return card(self.game)

    @property
    def key(self) -> str:
        return f"{self.game}-{self.table}"

    @property
    def where(self) -> str:
        """Which of the parallel tables: 'Village 2 of 3'; "" for a game's one table."""
        if self.tables == 1:
            return ""
        # TRANSLATORS: which of a class's parallel tables, in a page's header: "Village 2 of 3".
        return _("{Table} {n} of {count}", Table=_word(self.card.words.Table), n=self.table, count=self.tables)

    @property
    def heading(self) -> str:
        game = self.card
        people = len(self.names)
        if self.tables > 1:
            if game.gm:
                return _n("{game}, {table} {index} of {count}: GM + {n} player", "{game}, {table} {index} of {count}: GM + {n} players", people,
                          game=game.title, table=_word(game.words.table), index=self.table, count=self.tables)  # fmt: skip
            return _("{game}, {table} {index} of {count}: {n} {players}", game=game.title, table=_word(game.words.table), index=self.table, count=self.tables, n=people, players=_word(game.words.players))
        if game.gm:
            return _n("{game}: GM + {n} player", "{game}: GM + {n} players", people, game=game.title)
        return _("{game}: {n} {players}", game=game.title, n=people, players=_word(game.words.players))

    @property
    def detail(self) -> str:
        named = [n for n in self.names if n]
        people = fonts.name_list(named) if named else _("names written in by hand")
        if len(named) not in (0, len(self.names)):
            people += " " + _("(+{n} to write in)", n=len(self.names) - len(named))
        if self.card.gm:
            gm = _("GM {name}", name=self.gm) if self.gm else _("GM (to write in)")
            return fonts.name_list([gm, people], sep=" · ")
        return people


def split(count: int, low: int, high: int) -> list[int]:
    """Table sizes for `count` people in tables of `low`-`high`, as even as can be; [] when
    `count` is under `low`."""
    if count < low:
        return []
    # The same sizes as a class is dealt into (`playbook.classes.table_sizes`).
    return even_tables(count, high)


def _games() -> list[Card]:
    """The games the pack prints, in menu order."""
    return [c for c in CARDS if c.has("printables")]


def _at_a_table(game: Card) -> tuple[int, int]:
    """The fewest and most people at one of `game`'s tables in a pack: its players' range,
    capped at what its text is written for (Leerdam's "if more than 10, we can run two parallel
    communities"), and the GM one more."""
    gm = 1 if game.gm else 0
    return game.players.low + gm, game.players.text_high + gm


def table_rule(game: Card) -> str:
    """How a group sits at `game` in a pack, in a few words: 'New Rule in tables of 3-5'."""
    low, high = _at_a_table(game)
    if game.gm:
        return _("{game} a GM, the first name, and up to {n} {players}", game=game.title, n=high - 1, players=_word(game.words.players))
    # TRANSLATORS: {tables} is the game's word for its tables (villages): English plural; another language gets its word for one.
    return _("{game} in {tables} of {low}-{high}", game=game.title, tables=_tables(game), low=low, high=high)


def _cut(names: Sequence[str], sizes: Sequence[int]) -> list[tuple[str, ...]]:
    out, start = [], 0
    for size in sizes:
        out.append(tuple(names[start : start + size]))
        start += size
    return out


def _left_out(game: Card, people: int) -> str:
    """Why a group of `people` gets none of `game`'s materials."""
    low, high = game.players.range
    if game.gm:
        if low == 1:
            return _("{game} needs a GM and at least one player: not printed for {people}.", game=game.title, people=people)
        return _("{game} needs a GM and at least {low} players: not printed for {people}.", game=game.title, low=low, people=people)
    return _("{game} takes {low}-{high} {players}: not printed for {people}.", game=game.title, low=low, high=high, players=_word(game.words.players), people=people)


def plan(players: int, names: Sequence[str] | None = None) -> tuple[list[Part], list[str]]:
    """The parts to print for a group of `players` (named in order, or not), and the notes
    the contents page and the command line give: warnings and games left out."""
    low, high = GROUP_RANGE
    if not low <= players <= high:
        raise ValueError(_("a group of {n} is outside {low}-{high} people", n=players, low=low, high=high))
    seats = _seats(players, names)
    parts: list[Part] = []
    notes: list[str] = []
    for game in _games():
        sizes = split(players, *_at_a_table(game))
        if not sizes:
            notes.append(_left_out(game, players))
        parts += _parts(game, sizes, seats)
        if len(sizes) > 1 and game.players.text_range != game.players.range:
            low_text, high_text = game.players.text_range
            notes.append(
                # TRANSLATORS: {tables} is the game's word for its tables (villages): English plural; another language gets its word for one.
                _(
                    "{game} is written for {low}-{high} {players}: {n} play as {count} {tables} side by side ({sizes}).",
                    game=game.title, low=low_text, high=high_text, players=_word(game.words.players), n=players,
                    count=len(sizes), tables=_tables(game), sizes=_and_sizes(sizes),
                )
            )  # fmt: skip
        elif len(sizes) == 1:
            warning = document.text_warning(game, game.seats(sizes[0]))
            if warning:
                notes.append(warning)
    return parts, notes


def _parts(game: Card, sizes: Sequence[int], seats: Sequence[str]) -> list[Part]:
    """`seats` (in order) cut into tables of `sizes`; a game with a GM has its first at each."""
    parts = []
    for i, group in enumerate(_cut(seats, sizes), 1):
        gm, people = (group[0], group[1:]) if game.gm else ("", group)
        parts.append(Part(game.slug, i, len(sizes), people, gm=gm))
    return parts


def _seats(players: int, names: Sequence[str] | None) -> list[str]:
    seats = list(names or ())
    if seats and len(seats) != players:
        raise ValueError(_("{given} names were given for {n} people", given=len(seats), n=players))
    return seats + [""] * (players - len(seats))


def _headed(sheets: list[Flowable], part: Part) -> list[Flowable]:
    """`part`'s sheets, every page's header naming its table ('Leerdam · Village 2 of 3')."""
    if part.where:
        for flowable in sheets:
            if isinstance(flowable, common.Section):
                flowable.game = f"{part.card.title} · {part.where}"
    return sheets


def _story(parts: Sequence[Part], page: str) -> list[Flowable]:
    """Every part, each starting on a new page, marked for the contents page."""
    story: list[Flowable] = []
    for part in parts:
        named = part.names if any(part.names) else None
        sheets = document.story(part.game, named, players=len(part.names), page=page, gm=part.gm or None)
        story += [PageBreak(), common.ContentsMark(part.key), *_headed(sheets, part)]
    return story


def build_story(players: int, names: Sequence[str] | None = None, *, page: str = "a4") -> list[Flowable]:
    """The contents page, then every part, each starting on a new page."""
    parts, notes = plan(players, names)
    entries = [common.Entry(p.heading, p.detail, p.key) for p in parts]
    story: list[Flowable] = [
        common.Section("Playbook", _n("Contents · {n} person", "Contents · {n} people", players)),
        common.Contents(_("Contents"), entries, notes),
    ]
    return story + _story(parts, page)


def build_pdf(players: int, names: Sequence[str] | None = None, *, page: str = "a4", bleed: bool = False) -> bytes:
    """Every game's materials for the group as PDF bytes (see `plan`)."""
    common.page_size(page)
    story = build_story(players, names, page=page)
    subject = ", ".join(game.title for game in _games())
    return common.build_document(story, page=page, title=_("Playbook: printable materials"), subject=subject, bleed=bleed)


def class_plan(game: Card | str, players: int, names: Sequence[str] | None = None) -> tuple[list[Part], list[str]]:
    """One game's parts for a class of `players` people (named in order, or not): parallel
    tables as a class is dealt (`even_tables` in the card's class range, as
    `playbook.classes.table_sizes`: Leerdam for 30, three villages of 10), and the note the
    contents page and the command line give. A game with a GM has one at each table, the
    table's first name. ValueError for a count whose tables would fall short of the range."""
    game = game if isinstance(game, Card) else card(game)
    low, high = game.players.class_range
    sizes = even_tables(players, high)
    if not sizes or sizes[-1] < low:
        # TRANSLATORS: {tables} is the game's word for its tables (villages): English plural; another language gets its word for one.
        raise ValueError(_("a class of {n} cannot sit at {game} {tables} of {low}-{high}", n=players, game=game.title, tables=_tables(game), low=low, high=high))
    parts = _parts(game, sizes, _seats(players, names))
    if len(sizes) == 1:
        tables = _("one {table}", table=_word(game.words.table))
    else:
        # TRANSLATORS: {tables} is the game's word for its tables (villages): English plural; another language gets its word for one.
        tables = _("{n} {tables}", n=len(sizes), tables=_tables(game))
    if game.gm:
        people = _("{sizes} people, each with a GM", sizes=_sizes(sizes))
    else:
        people = _sizes(sizes)
    note = _("{game} for a class of {n}: {tables} side by side ({people}), as a class is dealt.", game=game.title, n=players, tables=tables, people=people)
    return parts, [note]


def class_pdf(game: Card | str, players: int, names: Sequence[str] | None = None, *, page: str = "a4", bleed: bool = False) -> bytes:
    """One game's materials for a class of `players` (see `class_plan`) as PDF bytes: a
    contents page, then each table's materials, every page's header naming its table."""
    common.page_size(page)
    game = game if isinstance(game, Card) else card(game)
    parts, notes = class_plan(game, players, names)
    entries = [common.Entry(p.heading, p.detail, p.key) for p in parts]
    story: list[Flowable] = [
        common.Section(game.title, _("Contents · a class of {n}", n=players)),
        common.Contents(_("{game} for a class of {n}", game=game.title, n=players), entries, notes),
        *_story(parts, page),
    ]
    subject = ", ".join(document.printables(game).MATERIALS)
    title = _("{game}: printable materials for a class of {n}", game=game.title, n=players)
    return common.build_document(story, page=page, title=title, subject=subject, bleed=bleed)


def booklet_pdf(*, page: str = "a4") -> bytes:
    """Every game's rules card (for its default count) as one fold-in-half booklet."""
    width, _height = common.frame_size(f"{page}-booklet")
    story: list[Flowable] = []
    for game in _games():
        if story:
            story.append(PageBreak())
        module = document.printables(game)
        story += module.rules_card(module.table_of(document.source(game, players=game.players.default)), width)
    return common.build_booklet(story, page=page, title=_("Playbook: rules cards"))
