"""Pure rules models of the four games: no widgets, no PDF, no I/O.

`GAMES` maps each game's slug to its rules object, which the `Game` driver plays.
"""

from __future__ import annotations

from typing import Any

from . import danger_world, dangerous_ideas, leerdam, new_rule
from .core import Action, Event, Game, RuleError, SaveFileError
from .decisions import Decision

GAMES: dict[str, Any] = {rules.slug: rules for rules in (new_rule.RULES, leerdam.RULES, danger_world.RULES, dangerous_ideas.RULES)}
_MODULES: dict[str, Any] = {m.RULES.slug: m for m in (new_rule, leerdam, danger_world, dangerous_ideas)}


def new_game(slug: str, setup: Any, seed: int) -> Game[Any, Any]:
    """A fresh game of `slug` with its chance events drawn from `seed`."""
    if slug not in GAMES:
        raise RuleError("game", f"unknown game {slug!r}; choose one of {', '.join(GAMES)}")
    return Game(GAMES[slug], setup, seed)


def decisions_of(game: Game[Any, Any], reveal: bool = True, reveal_pledges: bool | None = None) -> list[Decision]:
    """Every decision of `game`'s record (see `rules.decisions`); `reveal` names every secret,
    `reveal_pledges` is Leerdam's own say over naming each household's pledge."""
    module = _MODULES[game.rules.slug]
    if module is leerdam:
        return leerdam.decisions(game, reveal=reveal, reveal_pledges=reveal_pledges)
    return module.decisions(game, reveal=reveal)


def load_game(text: str | bytes) -> Game[Any, Any]:
    """A game from a save file's text; `SaveFileError` says what is wrong with a bad one."""
    return Game.from_json(GAMES, text)


__all__ = ["Action", "Decision", "Event", "GAMES", "Game", "RuleError", "SaveFileError", "decisions_of", "load_game", "new_game"]
