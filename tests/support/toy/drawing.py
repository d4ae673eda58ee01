"""Pig's board: whose turn it is, the pot, every bank; at the end who won (`drawing.board`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from drawing.board import Fact, GameScenes, Scene
from drawing.chart import chart_svg
from drawing.common import esc
from rules.core import winners_text

from .rules import State, standings


def scene(state: State, final: State | None = None) -> Scene:
    banks = "".join(f"<li><bdi>{esc(name)}</bdi>: {banked}</li>" for name, banked in zip(state.names, state.banked))
    facts = (Fact("Target", str(state.setup.target)), Fact("Pot", str(state.pot), "pig-pot"))
    if state.over:
        leaders = [seat for rank, seat, _ in standings(state) if rank == 1]
        story = tuple(f"{name} banked {banked}." for name, banked in zip(state.names, state.banked))
        return Scene("results", "the end", f"<ol>{banks}</ol>", facts, tuple(e.text for e in state.log), winners_text(state.names, leaders), story)
    centre = f'<div class="pb-huge">{esc(state.names[state.turn])} rolls</div><ol>{banks}</ol>'
    return Scene("decision", f"{state.names[state.turn]}'s turn", centre, facts, tuple(e.text for e in state.log))


def moment(before: State, state: State) -> tuple[str, int] | None:
    """The debrief stops where a turn ends."""
    return (f"{before.names[before.turn]}'s turn", round_of(before)) if state.turn != before.turn else None


def round_of(state: State) -> int:
    return 1 + sum(1 for e in state.log if "banks" in e.text or "loses" in e.text) // len(state.names)


def chart(states: Sequence[Any], final: Any = None) -> str:
    """Every bank after each moment."""
    lines = [(name, [s.banked[seat] for s in states]) for seat, name in enumerate(states[-1].names)] if states else []
    return chart_svg("The banks", [str(k + 1) for k in range(len(states))], lines=lines)


SCENES = GameScenes("pig", scene, moment, round_of, chart, "Turn")
