"""Pig's rules: on your turn roll a die as often as you dare; a 1 loses the turn's pot, holding
banks it. The first to bank the target wins.

The whole of a game's rules module in the sections every game keeps: setup, actions, state,
checking, playing, score, views; then `RULES` and `decisions` (`rules.RulesModule`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from rules.core import Action, Event, Game, GameRules, RuleError, check_names, ranked
from rules.decisions import Decision, Made, Render, collect

from . import CARD


# -- setup ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Setup:
    names: tuple[str, ...] = ("Ana", "Bo")
    #: the score that wins.
    target: int = 20

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", check_names(self.names, CARD.players.low, CARD.players.high))
        if not 5 <= self.target <= 100:
            raise RuleError("target", f"the target is 5-100 points, not {self.target}")


# -- actions ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Roll(Action):
    kind = "roll"


@dataclass(frozen=True)
class Rolled(Action):
    """The die (chance)."""

    kind = "rolled"
    chance = True
    face: int = 1


@dataclass(frozen=True)
class Hold(Action):
    kind = "hold"


ACTIONS: tuple[type[Action], ...] = (Roll, Rolled, Hold)


# -- state ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class State:
    setup: Setup
    banked: tuple[int, ...]
    turn: int = 0
    #: what this turn's rolls add up to, until a 1 or a hold.
    pot: int = 0
    rolling: bool = False
    log: tuple[Event, ...] = field(default=())

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names

    @property
    def over(self) -> bool:
        return max(self.banked) >= self.setup.target

    def waiting_for(self) -> tuple[int, ...]:
        return () if self.over or self.rolling else (self.turn,)


def initial(setup: Setup) -> State:
    return State(setup, banked=(0,) * len(setup.names))


# -- checking ---------------------------------------------------------------------------------
def check(state: State, action: Action) -> None:
    if state.over:
        raise RuleError("game over", "the game is over")
    if isinstance(action, Rolled):
        if not state.rolling:
            raise RuleError("chance", "no die is rolling")
        if not 1 <= action.face <= 6:
            raise RuleError("die", f"a die shows 1-6, not {action.face}")
        return
    if state.rolling or action.seat != state.turn:
        raise RuleError("turn order", f"it is {state.names[state.turn]}'s turn")
    if isinstance(action, Hold) and state.pot == 0:
        raise RuleError("hold", "roll at least once before you hold")


# -- playing ----------------------------------------------------------------------------------
def _say(state: State, text: str) -> tuple[Event, ...]:
    return (*state.log, Event(text))


def _next_turn(state: State) -> State:
    return replace(state, turn=(state.turn + 1) % len(state.names), pot=0, rolling=False)


def play(state: State, action: Action) -> State:
    name = state.names[state.turn]
    if isinstance(action, Roll):
        return replace(state, rolling=True)
    if isinstance(action, Rolled):
        if action.face == 1:
            return _next_turn(replace(state, log=_say(state, f"{name} rolls a 1 and loses {state.pot}.")))
        return replace(state, pot=state.pot + action.face, rolling=False, log=_say(state, f"{name} rolls {action.face}."))
    banked = tuple(b + state.pot if seat == state.turn else b for seat, b in enumerate(state.banked))
    return _next_turn(replace(state, banked=banked, log=_say(state, f"{name} banks {state.pot}, {banked[state.turn]} in all.")))


def chance(state: State, rng: random.Random) -> Action | None:
    return Rolled(face=rng.randint(1, 6)) if state.rolling and not state.over else None


def hides(state: State, action: Action) -> bool:
    """A roll can't be undone: the die has been seen."""
    return action.chance


# -- score ------------------------------------------------------------------------------------
def scores(state: State) -> tuple[int, ...]:
    return state.banked


def standings(state: State) -> list[tuple[int, int, int]]:
    return ranked(state.banked, lambda seat: -state.banked[seat])


# -- views ------------------------------------------------------------------------------------
def view_for(state: State, seat: int | None) -> State:
    """Pig hides nothing: every seat sees the whole table."""
    return state


def timeout_move(state: State, seat: int) -> Action | None:
    """No move is made for a player whose timer runs out: the fill bot makes it."""
    return None


RULES = GameRules.of(globals(), CARD)


def decisions(game: Game[Setup, State], reveal: bool = True, reveal_pledges: bool | None = None, render: Render = str) -> list[Decision]:
    """Each roll and hold, with what the die did; Pig keeps no secret, so `reveal` and
    `reveal_pledges` change nothing."""

    def move(before: State, action: Action, after: State, final: State, revealing: bool) -> Made | None:
        if isinstance(action, Rolled):
            return None  # the die: its line joins the roll
        return Made(f"Turn of {before.names[before.turn]}", before.turn, before.names[before.turn], action.kind)

    return collect(game, move, reveal=reveal, render=render)
