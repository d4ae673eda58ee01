"""The new-game form every game's dashboard starts from.

A form (class ``pb-setup``) holds how many play (``pb-players``), a row per seat with its name
(``pb-name-<i>``) and, in a game with bots, who plays it (``pb-kind-<i>``: by hand, or one of
the game's bots), the game's own variants, a seed (``pb-seed``) and Start (``pb-start``). Only
the rows of the seats in play show. A game's form makes its own parts, lays them out, and
turns them into its `Setup` (`setup`); `read` gives the Setup, the seed and the bot seats.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from lab import BOTS

from .common import WIDE

__all__ = ["VARIANTS_NOTE", "NewGameForm", "setup_default"]

#: what a form says above its variants.
VARIANTS_NOTE = '<b>Variants</b> <span class="pb-muted">(set as the rules text plays; change one to try a variant)</span>'


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
        kinds = [("plays by hand", "human")] + [(f"bot: {name}", name) for name in BOTS[slug]]
        self.kinds = tuple(widgets.Dropdown(options=kinds, value="human", tooltip=f"Who plays seat {i + 1}", **_width(kind_width)).add_class(f"pb-kind-{i}") for i in range(len(defaults)))
        self.rows = tuple(widgets.HBox((name, kind)) for name, kind in zip(self.names, self.kinds))

    def _seed_and_start(self, seed_width: str = "", start_below: bool = False) -> None:
        """The seed box and the Start button (`start_below`: on a line of its own, on the left)."""
        self.seed = widgets.IntText(value=0, description="Seed", style=WIDE, **_width(seed_width)).add_class("pb-seed")
        below = {"layout": widgets.Layout(align_self="flex-start", margin="10px 0")} if start_below else {}
        self.start_button = widgets.Button(description="Start new game", button_style="success", icon="play", **below).add_class("pb-start")

    def _ready(self) -> None:
        """The form is laid out: a fresh seed, the rows of the seats in play."""
        self.players.observe(lambda _: self._show_rows(), "value")
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
