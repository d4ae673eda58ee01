"""Pure rules models of the four games: no widgets, no PDF, no I/O.

`GAMES` maps each game's slug to its rules object, which the `Game` driver plays.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from .core import Action, ByGame, Event, Game, RuleError, SaveFileError
from .decisions import Decision

#: each game's slug and the module of this package that holds its rules.
MODULE_NAMES: dict[str, str] = {"new-rule": "new_rule", "leerdam": "leerdam", "danger-world": "danger_world", "dangerous-ideas": "dangerous_ideas"}


def game_module(package: str, slug: str) -> ModuleType:
    """Game `slug`'s module of `package` (a layer with one module per game: rules, lab), loaded
    on first use (see `ByGame`)."""
    return importlib.import_module(f"{package}.{MODULE_NAMES[slug]}")


def rules_module(slug: str) -> ModuleType:
    """The rules module of game `slug`."""
    return game_module(__name__, slug)


GAMES: Mapping[str, Any] = ByGame(MODULE_NAMES, lambda slug: rules_module(slug).RULES)


def new_game(slug: str, setup: Any, seed: int) -> Game[Any, Any]:
    """A fresh game of `slug` with its chance events drawn from `seed`."""
    if slug not in GAMES:
        raise RuleError("game", f"unknown game {slug!r}; choose one of {', '.join(GAMES)}")
    return Game(GAMES[slug], setup, seed)


def decisions_of(game: Game[Any, Any], reveal: bool = True, reveal_pledges: bool | None = None) -> list[Decision]:
    """Every decision of `game`'s record (see `rules.decisions`); `reveal` names every secret,
    `reveal_pledges` is Leerdam's own say over naming each household's pledge."""
    module = rules_module(game.rules.slug)
    if game.rules.slug == "leerdam":
        return module.decisions(game, reveal=reveal, reveal_pledges=reveal_pledges)  # type: ignore[no-any-return]
    return module.decisions(game, reveal=reveal)  # type: ignore[no-any-return]


def load_game(text: str | bytes) -> Game[Any, Any]:
    """A game from a save file's text; `SaveFileError` says what is wrong with a bad one."""
    return Game.from_json(GAMES, text)


__all__ = ["Action", "Decision", "Event", "GAMES", "Game", "MODULE_NAMES", "RuleError", "SaveFileError", "decisions_of", "game_module", "load_game", "new_game", "rules_module"]
