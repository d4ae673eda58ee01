"""New Rule's board by phase: who is drawing, the picks coming in, the infection revealed, the
winner; the chart of the infections and of every bowl's size, round by round.

Drawn from `view_for(state, None)` only: never a blind draw, a pick before the reveal or a bowl
before the end (the results show the bowls the public view then shows).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core import seats_text, winners_text
from rules.new_rule import State, View, view_for

from ..common import esc
from ..new_rule import candy_chip, candy_chips
from . import Fact, GameScenes, Scene, chart_svg

__all__ = ["SCENES", "chart", "moment", "scene"]


def _round(view: View) -> str:
    return f"Round {view.round}" + (f" of {view.max_rounds}" if view.max_rounds else "")


def _players_in(view: View) -> str:
    return f"{sum(1 for s in view.seats if not s.out)} of {len(view.seats)}"


def scene(state: State, final: State | None = None) -> Scene:
    view = view_for(state, None)
    names = [s.name for s in view.seats]
    bowl = Fact("Common bowl", f"{view.common_total} candies", "pb-bowl-total")
    players = Fact("Players in", _players_in(view))
    if view.phase == "over":
        return _results(state, view)
    if view.phase == "pay" and view.strength:
        paid = sum(1 for i, s in enumerate(view.seats) if s.paid and not s.out)
        due = sum(1 for s in view.seats if not s.out)
        picks = "".join(f'<span style="margin-right:18px;white-space:nowrap"><bdi>{esc(s.name)}</bdi> {candy_chip(view.colours, s.pick)}</span>' for s in view.seats if s.pick)
        centre = (
            f'<div class="pb-label">The infection</div>'
            f'<div class="pb-huge pb-infection">{"".join(candy_chip(view.colours, c) for c in view.infection)} strength {view.strength}</div>'
            f'<div class="pb-line">Everyone pays {view.strength} level{"s" if view.strength != 1 else ""}: 2 other candies or 1 {esc(view.antibody)} eaten per level.</div>'
            f'<div class="pb-label">The picks</div><div class="pb-line">{picks}</div>'
        )
        facts = (Fact("Strength", str(view.strength), "pb-strength"), Fact("Paid", f"{paid} of {due}"), bowl, players)
        return Scene("reveal", f"{_round(view)} · the infection", centre, facts, view.log)
    if view.phase == "pick":
        picked = sum(1 for s in view.seats if s.picked and not s.out)
        due = sum(1 for s in view.seats if not s.out)
        waiting = seats_text(names, view.waiting_for)
        centre = (
            f'<div class="pb-label">Secret picks: each player picks one colour they hold</div>'
            f'<div class="pb-huge pb-picks-in">Picks in: {picked} of {due}</div>'
            + (f'<div class="pb-line">Waiting for {esc(waiting)}</div>' if waiting else "")
            + '<div class="pb-label">The colours picked the most become the infection.</div>'
        )
        facts = (Fact("Picks in", f"{picked} of {due}", "pb-picks-count"), bowl, players)
        return Scene("decision", f"{_round(view)} · secret picks", centre, facts, view.log)
    drawer = names[view.turn] if view.turn is not None else ""
    doing = "keeps or swaps the draw" if view.phase == "choose" else "is drawing"
    centre = (
        f'<div class="pb-label">Blind draws, in seat order</div>'
        + (f'<div class="pb-huge pb-drawing">{esc(drawer)}</div><div class="pb-line">{doing} two candies</div>' if drawer else "")
        + f'<div class="pb-label">The common bowl still holds</div><div>{candy_chips(view.colours, candies=view.common_colours, counted=False)}</div>'
    )
    facts = (Fact("Drawing", drawer or "—", "pb-drawer"), bowl, players)
    return Scene("decision", f"{_round(view)} · the draw", centre, facts, view.log)


def _results(state: State, view: View) -> Scene:
    names = [s.name for s in view.seats]
    winners = [s for rank, s, _ in view.standings if rank == 1]
    rows = "".join(
        f"<tr><td>{rank}</td><td>{esc(names[s])}</td><td>{score} point{'s' if score != 1 else ''}</td><td>{'out' if view.seats[s].out else ''}</td></tr>"
        for rank, s, score in view.standings
    )
    centre = f'<table class="pb-standings-big pb-results-standings">{rows}</table>'
    facts = (Fact("Rounds", str(view.round)), Fact("Players in", _players_in(view)))
    winner = winners_text(names, winners)
    return Scene("results", "the end", centre, facts, view.log, winner, tuple(story(state)))


def story(state: State) -> list[str]:
    """The game in five lines, from the public record (the score pad and the log)."""
    view = view_for(state, None)
    names = [s.name for s in view.seats]
    infections = [(line.round, line) for line in state.pad if getattr(line, "strength", 0)]
    strongest = max(infections, key=lambda p: p[1].strength, default=None)
    out = [s.name for s in view.seats if s.out]
    best = view.standings[0] if view.standings else None
    lines = [
        f"{view.round} round{'s' if view.round != 1 else ''} played.",
        f"The strongest infection: {' and '.join(strongest[1].infection)} at strength {strongest[1].strength} in round {strongest[0]}."
        if strongest and getattr(strongest[1], "infection", None)
        else "No infection was strong enough to stand out.",
        f"Out of the game: {seats_text(names, [names.index(n) for n in out])}." if out else "Nobody was knocked out.",
        f"The top score: {best[2]} ({names[best[1]]})." if best else "No scores.",
        f"The end: {view.ended}.",
    ]
    return lines


def moment(before: State, state: State) -> tuple[str, int] | None:
    if state.phase == "pay" and before.phase != "pay" and state.strength:
        return f"Round {state.round}: the infection", state.round
    if state.round != before.round and before.round > 0:
        return f"Round {before.round}: paid", before.round
    return None


def round_of(state: State) -> int:
    return state.round


def chart(states: Sequence[Any], final: Any = None) -> str:
    """Each round's infection strength (bars) and every player's bowl size at the round's end."""
    rounds: dict[int, State] = {}
    strength: dict[int, int] = {}
    for s in states:
        if s.round <= 0:
            continue
        rounds[s.round] = s
        if s.phase == "pay":
            strength[s.round] = max(strength.get(s.round, 0), s.strength)
    if not strength:
        return ""  # nothing to draw before the first infection
    order = sorted(rounds)
    views = [view_for(rounds[r], None) for r in order]
    names = [s.name for s in views[-1].seats]
    series = [(name, [v.seats[i].candies for v in views]) for i, name in enumerate(names)]
    return chart_svg(
        "Infection strength each round (bars) and each bowl's candies",
        [f"R{r}" for r in order],
        bars=[strength.get(r, 0) for r in order],
        lines=series,
        bar_label="Strength",
    )


SCENES = GameScenes("new-rule", scene, moment, round_of, chart, "Round")
