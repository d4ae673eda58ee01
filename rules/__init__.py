"""Pure rules models of the four games: no widgets, no PDF, no I/O.

`GAMES` maps each game's slug to its rules object, which the `Game` driver plays.
"""

from __future__ import annotations

from typing import Any

from . import danger_world, dangerous_ideas, leerdam, new_rule
from .core import Action, Event, Game, RuleError, SaveFileError

GAMES: dict[str, Any] = {rules.slug: rules for rules in (new_rule.RULES, leerdam.RULES, danger_world.RULES, dangerous_ideas.RULES)}


def new_game(slug: str, setup: Any, seed: int) -> Game[Any, Any]:
    """A fresh game of `slug` with its chance events drawn from `seed`."""
    if slug not in GAMES:
        raise RuleError("game", f"unknown game {slug!r}; choose one of {', '.join(GAMES)}")
    return Game(GAMES[slug], setup, seed)


def load_game(text: str | bytes) -> Game[Any, Any]:
    """A game from a save file's text; `SaveFileError` says what is wrong with a bad one."""
    return Game.from_json(GAMES, text)


__all__ = ["Action", "Event", "GAMES", "Game", "RuleError", "SaveFileError", "load_game", "new_game"]
