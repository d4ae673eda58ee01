"""A game's moments, replayed from its record: what the board showed at each step.

`Timeline` plays a stored table's actions again from its setup and keeps the moments its
board's scenes (the game's `GameScenes`, `scenes_for`) stop at: the debrief steps through them,
and the board's chart is drawn from their states. `secret_lines` are a finished game's secrets,
for a debrief that shows them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from i18n import _, render
from rules import Action
from rules.core import AnyGame, GameRules
from rules.games import card

from .board import GameScenes

__all__ = ["Moment", "Timeline", "scenes_for", "secret_lines"]


@dataclass(frozen=True)
class Moment:
    """One step of the debrief: the state after `index` actions, and its label."""

    index: int
    label: str
    round: int
    state: Any


def scenes_for(slug: str) -> GameScenes:
    """The board functions of game `slug`: its drawing module's `SCENES`, as its card names it."""
    scenes: GameScenes = card(slug).module("drawing").SCENES
    return scenes


@dataclass
class Timeline:
    """A game's moments, replayed from its record (`rules.initial` then `rules.play` per action:
    the stored actions were checked when they were played). `update` follows a live table
    cheaply: actions added at the end are played on; an undo replays from the start."""

    rules: GameRules
    setup: Any
    scenes: GameScenes
    actions: list[Action] = field(default_factory=list)
    moments: list[Moment] = field(default_factory=list)
    state: Any = None

    @classmethod
    def of(cls, game: AnyGame) -> Timeline:
        timeline = cls(game.rules, game.setup, scenes_for(game.rules.slug))
        timeline.update(game.actions)
        return timeline

    def update(self, actions: Sequence[Action]) -> None:
        if self.state is None or list(actions[: len(self.actions)]) != self.actions:
            self.state = self.rules.initial(self.setup)
            self.actions, self.moments = [], [Moment(0, _("The start"), 0, self.state)]
        pending: tuple[str, int] | None = None
        for i in range(len(self.actions), len(actions)):
            before = self.state
            self.state = self.rules.play(before, actions[i])
            self.actions.append(actions[i])
            pending = self.scenes.moment(before, self.state) or pending
            # A moment is where the game rests (what a board shows): past the rolls it leads to.
            rests = i + 1 == len(actions) or not actions[i + 1].chance
            if pending is not None and rests:
                label = _("The end") if self.rules.over(self.state) else pending[0]
                self.moments.append(Moment(len(self.actions), label, pending[1], self.state))
                pending = None
        if self.rules.over(self.state) and self.moments[-1].index != len(self.actions):
            # A choice made after the end (Leerdam's pledges shown) changes the end, not the story.
            if self.rules.over(self.moments[-1].state):
                self.moments.pop()
            self.moments.append(Moment(len(self.actions), _("The end"), self.scenes.round_of(self.state), self.state))

    def chart(self, upto: int | None = None, final: Any = None) -> str:
        """The chart of the game up to moment `upto` (None: the game so far, now included)."""
        if upto is None:
            states = [m.state for m in self.moments]
            if self.moments[-1].state is not self.state:
                states.append(self.state)
        else:
            states = [m.state for m in self.moments[: upto + 1]]
        return self.scenes.chart(states, final=final)


def secret_lines(state: Any, names: Sequence[str], round_: int | None = None) -> list[tuple[str, str]]:
    """(whose, line) for every log line that was one seat's secret (in `round_`, or all): for a
    finished game's debrief only, when the facilitator chooses to show them."""
    found = []
    for event in getattr(state, "log", ()):
        if event.visible_to is None or (round_ is not None and event.round != round_):
            continue
        whose = ", ".join(names[s] for s in sorted(event.visible_to) if 0 <= s < len(names))
        found.append((whose, render(event.text)))
    return found
