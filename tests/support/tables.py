"""Tables made in a store as `playbook table new` makes them (keys and all), with their links."""

from __future__ import annotations

from typing import Any

from playbook.access import table_keys
from playbook.links import table_links
from playbook.store import Store
from rules import new_game
from rules.core import AnyGame
from rules.games import card

__all__ = ["make_table", "stored"]


def stored(store: Store, game: AnyGame) -> tuple[str, dict[str, Any]]:
    """`game` stored as a new table: its id and every link of it."""
    names = card(game.rules.slug).seat_names(game.setup)  # a GM's seat too
    table_id = store.create(game, "a table", table_keys(len(names)))
    return table_id, table_links("", game.rules.slug, table_id, store.info(table_id).meta, names)


def make_table(store: Store, slug: str, names: tuple[str, ...], seed: int = 3) -> tuple[str, dict]:
    """A new table of `names` (a game's default setup otherwise), no bots: its id and every link of it."""
    setup = card(slug).module("rules").Setup(names=names)
    seats = card(slug).seat_names(setup)  # a GM's seat too
    table_id = store.create(new_game(slug, setup, seed), meta={"bots": {}, **table_keys(len(seats))})
    return table_id, table_links("", slug, table_id, store.info(table_id).meta, seats)
