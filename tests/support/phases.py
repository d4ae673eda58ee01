"""Games at each phase of play, for the board's tests: bots play every seat from a fixed seed
until a phase is reached (`PHASES[slug][phase]()`), with names that test the drawing (markup,
an emoji, right-to-left script)."""

from __future__ import annotations

import random
from collections.abc import Callable

import lab
from rules import danger_world as dw
from rules import leerdam as ld
from rules import new_game
from rules import new_rule as nr
from rules.core import AnyGame

__all__ = ["NAMES", "PHASES", "danger_world", "dangerous_ideas", "leerdam", "new_rule", "play"]

NAMES = ("Ana & <i>Co</i>", "Bo 🐻", "مريم", "Zoë")


def play(game: AnyGame, until: Callable[[AnyGame], bool] = lambda g: False, seed: int = 1) -> AnyGame:
    """Bots play every seat of `game` until `until(game)` holds or the game is over."""
    slug = game.rules.slug
    bots = list(lab.BOTS[slug].values())
    rng = random.Random(seed)
    while not game.rules.over(game.state) and not until(game):
        seat = game.rules.waiting_for(game.state)[0]
        game.apply(bots[seat % len(bots)](game.state, seat, rng))
    return game


def leerdam(until: Callable[[AnyGame], bool] = lambda g: False, names: tuple[str, ...] = NAMES, years: int = 3) -> AnyGame:
    return play(new_game("leerdam", ld.Setup(names=names, max_years=years), 5), until)


def new_rule(until: Callable[[AnyGame], bool] = lambda g: False) -> AnyGame:
    return play(new_game("new-rule", nr.Setup(names=NAMES[:3], max_rounds=3), 2), until)


def danger_world(until: Callable[[AnyGame], bool] = lambda g: False, sheets: int = 2) -> AnyGame:
    """Two characters: sheets made, then checks until `until`, the GM spending every botch on hits."""
    from lab.danger_world import ASPECTS, SHEET, _gm_hits, player_bot

    game = new_game("danger-world", dw.Setup(names=NAMES[:2]), 3)
    for i in range(sheets):
        game.apply(dw.CreateCharacter(seat=i, character=i, stats=SHEET, aspects=ASPECTS))
    if sheets < 2:
        return game
    bot, rng, turn = player_bot("bold", 6), random.Random(3), 0
    while not game.state.over and not until(game):
        s = game.state
        if s.phase == "gm":
            hits = tuple(dw.GmOption(o, s.check.actor) for o in _gm_hits(s.check.botches))
            game.apply(dw.SpendBotches(seat=2, options=hits))
        elif s.phase == "lock":
            game.apply(bot(s, s.check.actor, rng))
        else:
            able = [i for i, c in enumerate(s.characters) if not c.dead and not c.knocked_out]
            if not able:  # every one K.O.'d: the GM finishes one off
                game.apply(dw.ApplyHit(seat=2, character=next(i for i, c in enumerate(s.characters) if not c.dead), hit="overload"))
                continue
            game.apply(bot(s, able[turn % len(able)], rng))
            turn += 1
    return game


def dangerous_ideas(until: Callable[[AnyGame], bool] = lambda g: False) -> AnyGame:
    from rules.dangerous_ideas import Setup

    return play(new_game("dangerous-ideas", Setup(names=NAMES[:3]), 4), until)


PHASES: dict[str, dict[str, Callable[[], AnyGame]]] = {
    "leerdam": {
        "decision": lambda: leerdam(lambda g: sum(p is not None for p in g.state.pledges) == 1),
        "reveal": lambda: leerdam(lambda g: g.state.phase == "allocate"),
        "results": lambda: leerdam(),
    },
    "new-rule": {
        "decision": lambda: new_rule(lambda g: g.state.phase == "pick" and any(g.state.picks)),
        "reveal": lambda: new_rule(lambda g: g.state.phase == "pay"),
        "results": lambda: new_rule(),
    },
    "danger-world": {
        "waiting": lambda: danger_world(sheets=1),
        "decision": lambda: danger_world(lambda g: g.state.phase == "lock"),
        "reveal": lambda: danger_world(lambda g: g.state.phase == "table" and len(g.state.results) == 2),
        "results": lambda: danger_world(),
    },
    "dangerous-ideas": {
        "waiting": lambda: dangerous_ideas(lambda g: g.state.phase == "setting"),
        "decision": lambda: dangerous_ideas(lambda g: g.state.phase == "respond"),
        "reveal": lambda: dangerous_ideas(lambda g: g.state.phase in ("outcome", "reroll") and g.state.attempt is not None and bool(g.state.attempt.dice)),
        "results": lambda: dangerous_ideas(),
    },
}
