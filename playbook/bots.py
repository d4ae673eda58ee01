"""Bot seats at a stored table: which bot moves next, and how far one Undo goes back.

The store runs bots inside the same transaction as the change that woke them, so every page
sees a human move and the bot moves it led to as one version of the table. Nothing here
touches the store: these are plain functions of a `Game` and the table's bot seats.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules import Action, RuleError
from rules.core import AnyGame
from rules.games import CARDS

__all__ = ["Strategy", "bot_turn", "run_bots", "strategies", "undo_plan"]

Strategy = Callable[[Any, int, random.Random], Action]


def _has_bots(slug: str) -> bool:
    return slug in CARDS and CARDS[slug].has("lab")


def strategies(slug: str) -> Mapping[str, Strategy]:
    """Bot name -> strategy for a game (empty for a game without bots)."""
    if not _has_bots(slug):
        return {}
    import lab

    return lab.BOTS[slug]


def bot_turn(game: AnyGame, bots: Mapping[int, str], release: bool = False) -> int | None:
    """The bot seat that moves now, or None when the game waits for a person (or is over).

    A game's lab may keep its bots waiting for the people at the table (`LabGame.bots_move_now`:
    Leerdam's allocate after them); `release` (the facilitator moving the year on) lets them
    move anyway.
    """
    state = game.state
    if game.rules.over(state):
        return None
    waiting = tuple(game.rules.waiting_for(state))
    if not release and _has_bots(game.rules.slug):
        import lab

        move_now = lab.GAMES[game.rules.slug].bots_move_now
        if move_now is not None:
            waiting = move_now(state, waiting, bots.keys())
    return next((s for s in waiting if s in bots), None)


def run_bots(game: AnyGame, bots: Mapping[int, str], release: bool = False, limit: int = 10_000) -> str:
    """Let bot seats move until the game waits for a person; "" or why a bot stopped.

    Each bot move draws from a generator of (seed, step), so a replayed table makes the same
    bot moves.
    """
    known = strategies(game.rules.slug)
    for _ in range(limit):
        seat = bot_turn(game, bots, release)
        if seat is None or bots[seat] not in known:
            return ""
        rng = random.Random(f"bot:{game.seed}:{len(game.actions)}")
        action = known[bots[seat]](game.state, seat, rng)
        try:
            game.apply(action)
        except RuleError as exc:
            return f"the bot at seat {seat + 1} made a refused move ({exc.message}); it waits for a person"
    return f"the bots made {limit} moves without stopping"


def undo_plan(game: AnyGame, by_bot: Sequence[bool]) -> tuple[int, str | None]:
    """How many actions one Undo takes back (the last move a person chose and the bot moves
    that followed it), or 0 and why it cannot. `by_bot[i]` tells whether action i was a bot's."""
    trial = game.copy()
    steps = 0
    while True:
        reason = trial.undo_blocker()
        if reason is not None:
            return 0, reason
        index = len(trial.actions) - 1
        trial.undo()
        steps += 1
        if index >= len(by_bot) or not by_bot[index]:
            return steps, None
