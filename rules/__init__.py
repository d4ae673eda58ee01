"""Pure rules models of the four games: no widgets, no PDF, no I/O.

`GAMES` maps each game's slug to its rules object, which the `Game` driver plays; what a game
is beside its rules is on its card (`rules.games`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from .core import Action, AnyGame, Event, Game, GameRules, RuleError, SaveFileError
from .decisions import Decision, Render
from .games import CARDS, ByGame, card, unknown_game


@runtime_checkable
class RulesModule(Protocol):
    """What a game's rules module (its card's "rules" layer) provides."""

    #: the game as the `Game` driver plays it (`GameRules.of(globals(), CARD)`).
    RULES: GameRules

    def decisions(self, game: AnyGame, reveal: bool = True, reveal_pledges: bool | None = None, render: Render = str) -> list[Decision]:
        """Every decision of `game`'s record, in the room's words (`rules.decisions`), said by
        `render` (the export's language; English by default)."""
        ...

    def timeout_move(self, state: Any, seat: int, /) -> Action | None:
        """The move the game's stated default makes for `seat` when its timer runs out (a pledge
        of nothing...), or None where the game has none (the fill bot then moves)."""
        ...


#: each game's rules, loaded when the game is first used.
GAMES: Mapping[str, GameRules] = ByGame(lambda game: game.module("rules").RULES)


def new_game(slug: str, setup: Any, seed: int) -> AnyGame:
    """A fresh game of `slug` with its chance events drawn from `seed`."""
    if slug not in GAMES:
        raise RuleError("game", unknown_game(slug))
    return Game(GAMES[slug], setup, seed)


def decisions_of(game: AnyGame, reveal: bool = True, reveal_pledges: bool | None = None, render: Render = str) -> list[Decision]:
    """Every decision of `game`'s record (see `rules.decisions`); `reveal` names every secret,
    `reveal_pledges` says whether each seat's secret amount is named (Leerdam's anonymous
    pledges; a game without one ignores it). `render` says the rows: `i18n.render` (bound to a
    language) from the layer that writes them, English (`str`) by default."""
    decisions: list[Decision] = card(game.rules.slug).module("rules").decisions(game, reveal=reveal, reveal_pledges=reveal_pledges, render=render)
    return decisions


def load_game(text: str | bytes) -> AnyGame:
    """A game from a save file's text; `SaveFileError` says what is wrong with a bad one."""
    return Game.from_json(GAMES, text)


__all__ = ["CARDS", "GAMES", "Action", "Decision", "Event", "Game", "RuleError", "RulesModule", "SaveFileError", "card", "decisions_of", "load_game", "new_game"]
