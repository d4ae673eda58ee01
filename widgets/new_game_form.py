"""The new-game form every game's dashboard starts from.

A form (class ``pb-setup``) holds how many play (``pb-players``), a row per seat with its name
(``pb-name-<i>``) and, in a game with bots, who plays it (``pb-kind-<i>``: by hand, or one of
the game's bots), the game's own variants, a seed (``pb-seed``) and Start (``pb-start``). Only
the rows of the seats in play show. A game's form makes its own parts, lays them out, and
turns them into its `Setup` (`setup`); `read` gives the Setup, the seed and the bot seats.
Below them, the table's language (``pb-lang``: its board's and every page's, unless a device
chooses its own; `playbook.languages`).
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from i18n import LANGUAGES, _
from lab import BOTS

from .common import WIDE

__all__ = ["VARIANTS_NOTE", "NewGameForm", "language_menu", "setup_default", "variants_note"]

#: what a form says above its variants, in English (`variants_note` says it in the page's language).
VARIANTS_NOTE = '<b>Variants</b> <span class="pb-muted">(set as the rules text plays; change one to try a variant)</span>'


def variants_note() -> str:
    """What a form says above its variants."""
    return "<b>{}</b> <span class=\"pb-muted\">{}</span>".format(_("Variants"), _("(set as the rules text plays; change one to try a variant)"))


def language_menu(what: str) -> widgets.Dropdown:
    """A menu of the languages a class or table may speak (each by its own name), "" first:
    the server's default. `what`: its tooltip."""
    # TRANSLATORS: the first choice of a class's or table's language menu: no language chosen.
    options = [(_("The server's default"), ""), *((name, code) for code, name in LANGUAGES.items())]
    # TRANSLATORS: the label of a class's or table's language menu.
    return widgets.Dropdown(options=options, value="", description=_("Language"), tooltip=what).add_class("pb-lang")


class NewGameForm(widgets.VBox):
    """Seats, variants and seed; a game's form sets `players`, `seed` and `start_button`, makes
    its rows with `_seat_rows` and, once laid out, calls `_ready`."""

    players: widgets.ValueWidget
    seed: widgets.IntText
    start_button: widgets.Button
    names: tuple[widgets.Text, ...] = ()
    #: who plays each seat (empty where the game has no bots).
    kinds: tuple[widgets.Dropdown, ...] = ()
    #: one per seat: shown while the seat is in play.
    rows: tuple[widgets.Widget, ...] = ()
    #: the table's language ("": the server's default).
    language: widgets.Dropdown

    def _seat_rows(
        self,
        slug: str,
        defaults: Sequence[str],
        description: Callable[[int], str],
        placeholder: str,
        name_width: str = "",
        kind_width: str = "",
        bots: bool = True,
    ) -> None:
        """A name box per seat (its default from `defaults`) and, with `bots`, a menu of who
        plays it: the game's bots by name."""
        self.names = tuple(
            widgets.Text(value=default, description=description(i), placeholder=placeholder, **_width(name_width)).add_class(f"pb-name-{i}")
            for i, default in enumerate(defaults)
        )
        if not bots:
            self.rows = self.names
            return
        # TRANSLATORS: a choice in a seat's menu: a person plays this seat (not a bot).
        kinds = [(_("plays by hand"), "human")] + [(_("bot: {name}", name=name), name) for name in BOTS[slug]]
        self.kinds = tuple(
            widgets.Dropdown(options=kinds, value="human", tooltip=_("Who plays seat {number}", number=i + 1), **_width(kind_width)).add_class(f"pb-kind-{i}")
            for i in range(len(defaults))
        )
        self.rows = tuple(widgets.HBox((name, kind)) for name, kind in zip(self.names, self.kinds))

    def _seed_and_start(self, seed_width: str = "", start_below: bool = False) -> None:
        """The seed box and the Start button (`start_below`: on a line of its own, on the left)."""
        # TRANSLATORS: the random seed a game starts from (the same seed plays the same dice and draws).
        self.seed = widgets.IntText(value=0, description=_("Seed"), style=WIDE, **_width(seed_width)).add_class("pb-seed")
        below = {"layout": widgets.Layout(align_self="flex-start", margin="10px 0")} if start_below else {}
        self.start_button = widgets.Button(description=_("Start new game"), button_style="success", icon="play", **below).add_class("pb-start")

    def _ready(self) -> None:
        """The form is laid out: a fresh seed, the rows of the seats in play, and the table's
        language above Start (or at the end, where Start sits inside a row of its own)."""
        self.players.observe(lambda _change: self._show_rows(), "value")
        self.language = language_menu(_("The table's language: its board's and every page's, unless a device chooses its own"))
        parts = list(self.children)
        at = parts.index(self.start_button) if self.start_button in parts else len(parts)
        self.children = (*parts[:at], self.language, *parts[at:])
        self.add_class("pb-setup")
        self.reseed()
        self._show_rows()

    def _show_rows(self) -> None:
        for i, row in enumerate(self.rows):
            row.layout.display = "flex" if i < self.players.value else "none"

    def reseed(self) -> None:
        """A fresh seed, so two new games differ unless someone types one in."""
        self.seed.value = secrets.randbelow(1_000_000)

    def setup(self, names: tuple[str, ...]) -> Any:
        """The game's Setup for the seats' `names` and the form's variants; RuleError when they
        make no game."""
        raise NotImplementedError

    def read(self) -> tuple[Any, int, dict[int, str]]:
        """The Setup, the seed and the bot seats; RuleError when the form does not make a game."""
        count = self.players.value
        setup = self.setup(tuple(t.value for t in self.names[:count]))
        bots = {i: k.value for i, k in enumerate(self.kinds[:count]) if k.value != "human"}
        return setup, self.seed.value, bots


def setup_default(setup: type, name: str) -> Any:
    """A field's default in the game's Setup (a dataclass), so the form starts where the rules model does."""
    return {f.name: f.default for f in dataclasses.fields(setup)}[name]


def _width(width: str) -> dict[str, Any]:
    """A control's layout of that width, or none at all (an unset layout sends nothing)."""
    return {"layout": widgets.Layout(width=width)} if width else {}
