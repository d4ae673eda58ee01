"""Whole games for the record of decisions and the debrief: each of the four games played to
the end, every state kept, by names that test every path of a CSV and a PDF (markup, an
ampersand, an emoji, right-to-left script, a would-be formula)."""

from __future__ import annotations

import dataclasses
from typing import Any

import lab
from lab.core import play_out
from rules import GAMES
from rules import danger_world as dw
from rules import leerdam as ld
from rules.core import AnyGame, Game, rng_for

__all__ = ["NAMES", "AnonymousSetup", "danger_world_game", "played"]

#: markup, an ampersand, an emoji, right-to-left script and a would-be formula.
NAMES = ("<b>Ana</b>", "Bo & Co", "Cy 🐉", "דנה", "=SUM(1)")


def played(slug: str, players: int, seed: int = 3, **variants: Any) -> AnyGame:
    """A finished game of `slug` played by the lab's default bots, every state kept."""
    setup = GAMES[slug].setup(names=NAMES[:players], **variants)
    bots = [lab.BOTS[slug][b] for b in lab.DEFAULT_BOTS[slug]]
    game = Game(GAMES[slug], setup, seed, keep=None)
    return play_out(game, (bots * players)[:players], rng_for(seed, -1))


def danger_world_game() -> AnyGame:
    """A Danger World session: sheets, a check with locks and re-rolls, the GM's botches and
    hits, a rest. Every roll from the seed."""
    game = Game(dw.RULES, dw.Setup(names=NAMES[:3], gm="Morgan <GM>"), 11, keep=None)
    gm = 3
    for i in range(3):
        game.apply(dw.CreateCharacter(seat=i, character=i, stats=(3, 3, 2, 2, 2, 2, 1, 1), aspects=("Quick & 🐉", "Stubborn", "Kind")))
    for i in range(3):
        game.apply(dw.BeginCheck(seat=i, character=i, stats=("agility", "endurance"), difficulty=3, danger=1 if i else 0))
        for _ in range(2):
            game.apply(dw.Lock(seat=i, dice=(0,)) if 0 not in game.state.check.locked else dw.Reroll(seat=i))
            if game.state.phase == "reroll":
                break
        if game.state.phase == "lock":
            game.apply(dw.Reroll(seat=i))
        sets = game.state.check.sets
        game.apply(dw.ChooseSet(seat=i, height=sets[-1].height if sets else None))
        if game.state.phase == "gm":
            game.apply(dw.SpendBotches(seat=gm, options=(dw.GmOption("danger"),) * min(game.state.check.botches, 1)))
    game.apply(dw.ApplyHit(seat=gm, character=0, hit="full"))
    game.apply(dw.ShortRest(seat=gm))
    return game


@dataclasses.dataclass(frozen=True)
class AnonymousSetup(ld.Setup):
    """Leerdam with anonymous pledges (the variant's field, as branch i18a adds it to `Setup`)."""

    anonymous: bool = True
