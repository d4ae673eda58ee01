"""Every game's printed materials through one door, by its card: the sheets as flowables, the
PDF, a page's preview and the fold-in-half booklet.

    from printables import document
    document.pdf("leerdam", ["Ana", "Bo", "Cy"], players=5)      # blank ledgers, two to write in
    document.pdf("new-rule", state=game.state, page="letter")    # what was played
    document.booklet("dangerous-ideas")                          # the rules card and the story

What is printed from is checked here, for every game alike, from what its card says (how many
seats, how many by default, what it calls them, whether it has a GM or hides its seats): names
and/or a count for blank sheets, a setup, or a state. A game's printables module
(`card.module("printables")`) fills the document with its materials: what it provides is
`Printables`. Same input, same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypedDict, Unpack, cast, runtime_checkable

from reportlab.platypus import Flowable

from i18n import _
from rules.core import AnyGame, check_names
from rules.games import Card, card

from . import common
from .common import Source

__all__ = ["Given", "Printables", "booklet", "pdf", "preview_png", "printables", "source", "story", "text_warning"]

#: A class's tables of one game compared: (tables, *, width, reveal, reveal_pledges, stopped) to
#: flowables; `stopped` maps the label of a table its facilitator stopped to where it stood.
Compare = Callable[..., list[Flowable]]


@runtime_checkable
class Printables(Protocol):
    """What a game's printables module provides, for this module and the debrief handout.

    `table_of` reads a `Source` this module made and checked into the module's own terms (a
    table, a village); its sheets, rules card and booklet draw from that."""

    #: the materials a set holds, in print order (the PDF's subject).
    MATERIALS: tuple[str, ...]

    def table_of(self, source: Source[Any, Any], /) -> Any:
        """What the sheets print for: names, variants and (from a state) the game as played."""
        ...

    def sheets(self, table: Any, page: str, /) -> list[Flowable]:
        """Every material on `page` ('a4' or 'letter'), each part starting on a new page."""
        ...

    def rules_card(self, table: Any, width: float, /) -> list[Flowable]:
        """The rules card, `width` wide (the booklet of every game holds each game's)."""
        ...

    def booklet(self, table: Any, width: float, /) -> list[Flowable]:
        """What the game's own fold-in-half booklet holds, on half pages `width` wide."""
        ...

    def debrief_story(
        self, game: AnyGame, /, *, label: str, width: float, reveal: bool, reveal_pledges: bool | None = None, stopped: str = ""
    ) -> list[Flowable]:
        """One table's pages of a debrief handout: the results, the charts, the story; `stopped`
        says where a game its facilitator stopped stood ("stopped in year 2")."""
        ...

    @property
    def debrief_compare(self) -> Compare | None:
        """The tables of a class side by side, `debrief_compare(tables, *, width, reveal,
        reveal_pledges, stopped)`; None for a game whose debrief compares no tables."""
        ...


class Given(TypedDict, total=False):
    """What sheets are printed from besides names (see `source`)."""

    #: how many seats blank sheets have (the card's default when neither this nor names is given).
    players: int | None
    #: the game's `Setup`: its names and variants.
    setup: Any
    #: the game's `State`: what was played.
    state: Any
    #: the GM's name, for a game with a GM.
    gm: str | None
    #: (seat name, URL) per seat, for the seat slips of a game that hides its seats.
    seat_links: Sequence[tuple[str, str]] | None


def _card(game: Card | str) -> Card:
    return game if isinstance(game, Card) else card(game)


def printables(game: Card | str) -> Printables:
    """The printables module of `game` (a card or its slug), loaded on first use."""
    return cast(Printables, _card(game).module("printables"))


def _blank_seats(game: Card, names: Sequence[str] | None, players: int | None) -> tuple[str, ...]:
    """Names for blank sheets: as given (checked as a game's setup checks them), padded with
    "" for seats whose name is written in by hand; the card's default count when neither is given."""
    given = tuple(names or ())
    count = players if players is not None else (len(given) or game.players.default)
    low, high = game.players.range
    who = game.words.players
    if not low <= count <= high:
        raise ValueError(_("{game} takes {low}-{high} {players}, not {n}", game=game.title, low=low, high=high, players=who, n=count))
    if len(given) > count:
        raise ValueError(_("{given} names were given for {n} {players}", given=len(given), n=count, players=who))
    cleaned = check_names(given, 0, high, who) if given else ()
    return cleaned + ("",) * (count - len(cleaned))


def source(game: Card | str, names: Sequence[str] | None = None, **given: Unpack[Given]) -> Source[Any, Any]:
    """What `game`'s sheets print from: `names` and/or `players` (blank sheets), or a `setup`,
    or a `state`; never a mix. `gm` names the GM of a game with one; `seat_links` are (seat
    name, URL) per seat for the seat slips of a game that hides its seats."""
    game = _card(game)
    unknown = sorted(set(given) - set(Given.__annotations__))
    if unknown:
        raise TypeError(f"unexpected keyword argument {unknown[0]!r}")
    players, setup, state = given.get("players"), given.get("setup"), given.get("state")
    gm, seat_links = given.get("gm"), given.get("seat_links")
    if state is not None and (names is not None or players is not None or setup is not None):
        raise ValueError("print from a state alone: its setup already holds the names and variants")
    if setup is not None and (names is not None or players is not None):
        raise ValueError("print from a setup alone: it already holds the names")
    if isinstance(names, str):
        raise TypeError("names must be a sequence of names, not one string")
    if gm and not game.gm:
        raise ValueError(_("{game} has no GM", game=game.title))
    if seat_links is not None and not game.devices:
        raise ValueError(_("{game} is played on one shared screen: it has no seat slips", game=game.title))
    links = tuple((name, url) for name, url in seat_links) if seat_links is not None else None
    if state is not None:
        setup = state.setup
    seats = tuple(setup.names) if setup is not None else _blank_seats(game, names, players)
    return Source(seats, setup, state, gm=gm or "", seat_links=links)


def _table(game: Card, names: Sequence[str] | None, given: Given) -> Any:
    return printables(game).table_of(source(game, names, **given))


def story(game: Card | str, names: Sequence[str] | None = None, *, page: str = "a4", **given: Unpack[Given]) -> list[Flowable]:
    """Every material of `game` as flowables (see `source`), for documents holding several
    games; each material starts a new page and names itself in the page header."""
    game = _card(game)
    return printables(game).sheets(_table(game, names, given), page)


def pdf(game: Card | str, names: Sequence[str] | None = None, *, page: str = "a4", bleed: bool = False, **given: Unpack[Given]) -> bytes:
    """The materials of `game` as PDF bytes (see `source`): blank sheets for names (unnamed seats
    get a line to write on; the card's default count when neither names nor `players` is
    given), a setup's, or what was played from a state. `page` is 'a4' or 'letter'; `bleed`
    prints cut-outs past their cut lines."""
    common.page_size(page)  # refuse a bad page size before any work
    game = _card(game)
    flowables = story(game, names, page=page, **given)
    if given.get("state") is not None:
        title = _("{game}: what you played", game=game.title)
    else:
        title = _("{game}: printable materials", game=game.title)
    subject = ", ".join(printables(game).MATERIALS)
    return common.build_document(flowables, page=page, title=title, subject=subject, bleed=bleed)


def preview_png(
    game: Card | str, names: Sequence[str] | None = None, *, page: str = "a4", page_index: int = 0, scale: float = common.PREVIEW_SCALE, **given: Unpack[Given]
) -> bytes:
    """PNG bytes of page `page_index` of `pdf(...)`, for a print preview."""
    return common.png_bytes(pdf(game, names, page=page, **given), page_index, scale)


def booklet(game: Card | str, names: Sequence[str] | None = None, *, page: str = "a4", **given: Unpack[Given]) -> bytes:
    """`game`'s fold-in-half booklet (its rules card, and what else the game keeps there) on
    half pages of `page`, imposed two to a sheet for duplex printing."""
    common.page_size(page)
    game = _card(game)
    width, _height = common.frame_size(f"{page}-booklet")
    parts = printables(game).booklet(_table(game, names, given), width)
    return common.build_booklet(parts, page=page, title=_("{game}: booklet", game=game.title))


def text_warning(game: Card | str, seats: int) -> str:
    """The warning a game's text gives for `seats` outside the count it is written for (where
    the playbook accepts more than the text), or ""."""
    game = _card(game)
    low, high = game.players.text_range
    if low <= seats <= high:
        return ""
    fewest, most = game.players.range
    return _(
        "{game} is written for {low}-{high} {who}; printed for {seats} (the playbook accepts {fewest}-{most}).",
        game=game.title, low=low, high=high, who=game.words.players, seats=seats, fewest=fewest, most=most,
    )
