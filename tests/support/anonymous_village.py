"""Leerdam's anonymous pledges as a pair of worlds: the same village and the same dice, with the
households' strategies turned one seat round (`world(0)` and `world(1)`), so every household
pledges differently in the two games while nothing public may differ before the end."""

from __future__ import annotations

from lab import BOTS
from lab.core import play_out
from rules import Game
from rules import leerdam as ld
from rules.core import rng_for

__all__ = ["NAMES", "STRATEGIES", "world"]

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Fé <b>&</b>", "غزال")
#: strategies that pledge differently (0, 1, 2, the average, ...): turned one seat round below.
STRATEGIES = ("free-rider", "fair", "altruist", "conditional", "threshold", "reciprocal", "free-rider")


def world(turn: int, anonymous: bool = True, seed: int = 11, misfortune: tuple[int, ...] = (0, 0, 0, 0, 0, 0)) -> Game:
    """A whole bot game with every state kept; seat i plays STRATEGIES[i + turn].

    No misfortune by default: capacity is then the same for all, so the turned world is the
    same village with its households' choices moved one seat on, and the dice (drawn per step
    of the record, whatever was chosen) fall the same way in both.
    """
    setup = ld.Setup(names=NAMES, anonymous=anonymous, misfortune=misfortune, max_years=9)
    game = Game(ld.RULES, setup, seed, keep=None)
    bots = [BOTS["leerdam"][STRATEGIES[(seat + turn) % len(STRATEGIES)]] for seat in range(len(NAMES))]
    return play_out(game, bots, rng_for(1, 1))
