"""What each game is: one card per game, and the only place a layer learns of a game.

Read a card to know a game: its slug and title, which module of each layer plays, draws,
prints and bots it, how many people it takes (as its text says, at a table, in a class), what
it hides, whether a class table has a GM, what it calls its players and tables, its notebook,
the bot that fills an empty seat and how long its review runs. Every layer reads the cards;
no layer keeps its own dict by game, and no code outside a game's own modules asks which game
it is: it asks the card.

    from rules.games import CARDS, card
    card("leerdam").words.players       # 'households'
    card("leerdam").module("lab").GAME  # the game's part of the lab, loaded on first use

A new game is a card and its modules (docs/adding-a-game.md); `register` adds one at run time
(the tests' toy game). This module imports nothing heavy: the command line and a page's
kernel read it before any game is loaded.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Literal, TypeVar

from .text import Said, say

__all__ = ["CARDS", "LAYERS", "ByGame", "Card", "Layer", "Length", "Players", "Words", "card", "register", "slugs", "unknown_game", "unregister"]

#: The layers that hold a module per game (ARCHITECTURE.md): the rules, the bots of the lab,
#: the pure HTML and SVG drawing (the projector's scenes among it), the dashboard, the printables.
Layer = Literal["rules", "lab", "drawing", "dashboard", "printables"]
LAYERS: tuple[Layer, ...] = ("rules", "lab", "drawing", "dashboard", "printables")


@dataclass(frozen=True)
class Players:
    """How many people play, in three places."""

    #: what the game's `Setup` accepts: a table made by hand, a print of blank materials.
    low: int
    high: int
    #: what the rules text is written for (outside it the playbook warns, where they differ).
    text_low: int
    text_high: int
    #: people at one table of a class: the text's range, kept short enough for a lesson. With a
    #: GM (`Card.gm`), the GM is one of them.
    class_low: int
    class_high: int
    #: the seats a blank print starts with (a new table's form may start smaller).
    default: int

    @property
    def range(self) -> tuple[int, int]:
        return self.low, self.high

    @property
    def text_range(self) -> tuple[int, int]:
        return self.text_low, self.text_high

    @property
    def class_range(self) -> tuple[int, int]:
        return self.class_low, self.class_high


# The words of a game that names its people and tables as most do.
_PLAYER, _PLAYERS, _TABLE, _TITLED, _POINTS, _YOU = say("player"), say("players"), say("table"), say("Table"), say("points"), say("You")
_TABLES, _EVERY = say("tables"), say("Every table")


@dataclass(frozen=True)
class Words:
    """What a game calls its people and its tables: messages (`str()` is the running English),
    said in the reader's language where a page shows them (`i18n.render`)."""

    player: str | Said = _PLAYER
    players: str | Said = _PLAYERS
    #: a table of a class (a Leerdam table is a village).
    table: str | Said = _TABLE
    #: several of them ("villages"): a plural is a word of its own in most languages.
    tables: str | Said = _TABLES
    #: `table` starting a label or heading ("Village 1").
    titled: str | Said = _TITLED
    #: the unit after a score ("12 VP"), or "" where a game keeps no score to print.
    points: str | Said = _POINTS
    #: how a seat's own page names the seat at the end ("Your household finished 2nd of 10").
    you: str | Said = _YOU
    #: a heading over all the tables: one message, as "every" agrees with the noun's gender.
    every: str | Said = _EVERY

    @property
    def Table(self) -> str | Said:
        return self.titled


@dataclass(frozen=True)
class Length:
    """How a game's length is set: the `Setup` field that stops it after a number of its steps
    (None there plays until the text's own end), and what the steps are called."""

    #: the `Setup` field (Leerdam's `max_years`, New Rule's `max_rounds`).
    field: str
    #: one step and several ("year", "years"): messages, `str()` their English.
    unit: str | Said
    units: str | Said


@dataclass(frozen=True)
class Card:
    """One game: what every layer needs to know of it."""

    #: the name in links, save files, the command line and the store.
    slug: str
    title: str
    #: module paths by layer (`LAYERS`); a layer a game has no module in is left out.
    modules: dict[Layer, str]
    players: Players
    #: its seats keep secrets (hidden cards, secret pledges): its debrief names them only once
    #: it is over, and its save file mid-game is a secret too.
    hides: bool
    #: a class table's first person is its GM, outside the rules' seats (Danger World).
    gm: bool = False
    #: each player plays on a device of their own: a table has seat, board and join links (its
    #: facilitator's page is the only one that runs it), and a class student's phone becomes
    #: their seat. Otherwise a table is one shared screen, open to whoever has its link.
    devices: bool = False
    words: Words = field(default_factory=Words)
    #: the playbook notebook that serves the game (in `notebooks/`), or "" for none.
    notebook: str = ""
    #: the bot (of its lab) that fills a seat when a class table is short or a student is absent.
    fill_bot: str = ""
    #: how a lesson sets the game's length (a class's `--length`), or None for a game that
    #: has no set length (Danger World's encounters go on as long as the GM runs them).
    length: Length | None = None
    #: games a review plays by default: enough that its intervals are a few points wide.
    review_games: int = 1000
    #: the most games the balance lab plays of one setup (bot games that are slow have fewer).
    lab_max_games: int = 20_000
    #: the game's card on the front page (index.ipynb, drawn by `playbook.prose`): who plays
    #: as the text says, one line of what the game is (messages), and the card's colour.
    who: str | Said = ""
    pitch: str | Said = ""
    colour: str = "#4a5163"

    def module(self, layer: Layer) -> ModuleType:
        """The game's module of `layer`, loaded on first use (so a page of one game loads that
        game alone); `LookupError` when the game has none there."""
        path = self.modules.get(layer)
        if path is None:
            raise LookupError(f"{self.title} has no {layer} module")
        return importlib.import_module(path)

    def has(self, layer: Layer) -> bool:
        return layer in self.modules

    def seats(self, people: int) -> int:
        """The rules' seats of a class table of `people` (a GM is not one of them)."""
        return people - 1 if self.gm else people

    def seat_names(self, setup: Any) -> tuple[str, ...]:
        """Every seat a device may hold at a table of `setup`, by name: the rules' players, then
        (a game with a GM) the GM's own seat after them, named by the setup's `gm`. Keys, links,
        claims and the join page count a table's seats here, never by its names alone."""
        return tuple(str(name) for name in self.seat_labels(setup))

    def seat_labels(self, setup: Any) -> tuple[str | Said, ...]:
        """`seat_names` as a page says them: the GM's seat in the reader's language ("GM", or
        "Morgan (GM)"), the players' names as typed. `str()` of each is its `seat_names`."""
        names: tuple[str | Said, ...] = tuple(getattr(setup, "names", ()))
        if not self.gm:
            return names
        gm = str(getattr(setup, "gm", "") or "GM")
        return (*names, say("GM") if gm == "GM" else say("{name} (GM)", name=gm))


def _modules(name: str) -> dict[Layer, str]:
    """A game of the four: its module is called `name` in every layer."""
    return {
        "rules": f"rules.{name}",
        "lab": f"lab.{name}",
        "drawing": f"drawing.{name}",
        "dashboard": f"widgets.{name}",
        "printables": f"printables.{name}",
    }


_CARDS: dict[str, Card] = {}
_VIEWS: list[ByGame[Any]] = []


def register(new: Card) -> Card:
    """Add a game (a card whose slug is not taken); returns it."""
    if new.slug in _CARDS:
        raise ValueError(f"a game called {new.slug!r} is already registered")
    _CARDS[new.slug] = new
    return new


def unregister(slug: str) -> None:
    """Take back a game `register` added (the tests' toy game)."""
    if slug in _BUILT_IN:
        raise ValueError(f"{slug!r} is one of the playbook's own games")
    _CARDS.pop(slug, None)
    for view in _VIEWS:
        view._made.pop(slug, None)


class _Cards:
    """Every card, in menu order; `slug in CARDS` and `CARDS[slug]` as on a mapping."""

    def __iter__(self) -> Iterator[Card]:
        return iter(tuple(_CARDS.values()))

    def __len__(self) -> int:
        return len(_CARDS)

    def __contains__(self, slug: object) -> bool:
        return slug in _CARDS

    def __getitem__(self, slug: str) -> Card:
        return _CARDS[slug]

    def __repr__(self) -> str:
        return f"CARDS({', '.join(_CARDS)})"


CARDS = _Cards()


def slugs() -> tuple[str, ...]:
    return tuple(_CARDS)


def unknown_game(slug: object) -> str:
    """What to say of a name that is no game."""
    return f"unknown game {slug!r}; choose one of {', '.join(_CARDS)}"


def card(slug: str) -> Card:
    """The card of game `slug`; `KeyError` (saying which games there are) for any other name."""
    try:
        return _CARDS[slug]
    except (KeyError, TypeError):
        raise KeyError(unknown_game(slug)) from None


V = TypeVar("V")


class ByGame(Mapping[str, V]):
    """One value per game (its rules, its lab), made from its card the first time it is asked for.

    A page of one game (a class of Leerdam students, say) loads that game alone, lighter and
    quicker to start for every one of thirty kernels. Asking whether a slug is known loads
    nothing; a game registered later is in it too.
    """

    def __init__(self, make: Callable[[Card], V]) -> None:
        self._make = make
        self._made: dict[str, V] = {}
        _VIEWS.append(self)

    def __getitem__(self, slug: str) -> V:
        if slug not in self._made:
            if slug not in _CARDS:
                raise KeyError(slug)
            self._made[slug] = self._make(_CARDS[slug])
        return self._made[slug]

    def __contains__(self, slug: object) -> bool:
        return slug in _CARDS

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(_CARDS))

    def __len__(self) -> int:
        return len(_CARDS)

    def __repr__(self) -> str:
        return f"ByGame({', '.join(_CARDS)})"


# -- the four games, in menu order ---------------------------------------------------------------

register(
    Card(
        slug="new-rule",
        title="New Rule",
        modules=_modules("new_rule"),
        players=Players(low=3, high=5, text_low=3, text_high=5, class_low=3, class_high=5, default=4),
        hides=True,
        devices=True,
        notebook="new_rule.ipynb",
        fill_bot="balanced",
        length=Length("max_rounds", say("round"), say("rounds")),
        # TRANSLATORS: who plays a game, on its card on the front page.
        who=say("{low}-{high} players", low=3, high=5),
        pitch=say("Candy immune systems: draw blind, keep or swap, pick a colour in secret, and pay the infection out of your own bowl."),
        colour="#c62828",
    )
)
register(
    Card(
        slug="leerdam",
        title="Leerdam",
        modules=_modules("leerdam"),
        # The text: 5-10 households, "if more than 10, we can run two parallel communities";
        # the model plays 3-20 and warns outside 5-10.
        players=Players(low=3, high=20, text_low=5, text_high=10, class_low=5, class_high=10, default=7),
        hides=True,
        devices=True,
        # TRANSLATORS: Leerdam's words for its players, its tables and its points.
        words=Words(player=say("household"), players=say("households"), table=say("village"), tables=say("villages"), titled=say("Village"), points=say("VP"), you=say("Your household"), every=say("Every village")),
        notebook="leerdam.ipynb",
        fill_bot="fair",
        length=Length("max_years", say("year"), say("years")),
        # TRANSLATORS: who plays Leerdam, on its card on the front page.
        who=say("{low}-{high} households", low=5, high=10),
        pitch=say("A village in the Rhine delta, a dyke that needs everyone, and households that would rather not pay for it."),
        colour="#1d5c7a",
    )
)
register(
    Card(
        slug="danger-world",
        title="Danger World",
        modules=_modules("danger_world"),
        # Seats are the player characters (the GM is not one): 1-12. A class table is a GM and 1-4.
        players=Players(low=1, high=12, text_low=1, text_high=12, class_low=2, class_high=5, default=4),
        hides=False,
        gm=True,
        devices=True,
        words=Words(player=say("player character"), players=say("player characters"), points=""),
        notebook="danger_world.ipynb",
        fill_bot="careful",
        review_games=2000,
        # TRANSLATORS: who plays Danger World (a game master and players), on its card on the front page.
        who=say("a GM and {low}-{high} players", low=1, high=12),
        pitch=say("Pools of d6 and sets of matching dice: lock, re-roll, and watch every botch feed the danger."),
        colour="#8a4b00",
    )
)
register(
    Card(
        slug="dangerous-ideas",
        title="Dangerous Ideas",
        modules=_modules("dangerous_ideas"),
        # The text allows 10; six keep a chapter short enough for a lesson.
        players=Players(low=3, high=10, text_low=3, text_high=10, class_low=3, class_high=6, default=4),
        hides=False,
        # Each philosophy on its own phone (nothing secret, but one screen for a class is crowded).
        devices=True,
        notebook="dangerous_ideas.ipynb",
        fill_bot="sensible",
        length=Length("chapters", say("chapter"), say("chapters")),
        # Its bots are the slowest of the four.
        review_games=200,
        lab_max_games=2_000,
        # TRANSLATORS: who plays a game, on its card on the front page.
        who=say("{low}-{high} players", low=3, high=10),
        pitch=say("Competing philosophies retell a story everyone knows; whoever spreads the most memes tells its moral."),
        colour="#7a5af5",
    )
)

_BUILT_IN = frozenset(_CARDS)
