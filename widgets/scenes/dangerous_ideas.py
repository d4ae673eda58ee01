"""Dangerous Ideas' board by phase: the stones being placed, the meme action with its pool and
odds, the roll against the pool, the winner; the chart of the scores, action by action.

Nothing in Dangerous Ideas is hidden: the board draws `view_for(state, None)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core import winners_text
from rules.dangerous_ideas import ALWAYS_FAILS, State, View, view_for

from ..common import esc
from ..dangerous_ideas import sheet_svg
from . import Fact, GameScenes, Scene, chart_svg

__all__ = ["SCENES", "chart", "moment", "scene"]


def _percent(chance: Any) -> str:
    """A chance in whole percent; never "100%" or "0%" for what is not certain."""
    value = round(float(chance) * 100)
    return f"{min(max(value, 0 if chance == 0 else 1), 100 if chance == 1 else 99)}%"


def _trees(state: State) -> str:
    """Every player's sheet, as the table's page draws it: the story told so far, tree by tree."""
    cells = "".join(
        f'<div class="pb-tree" style="border:2px solid #c9cedb;border-radius:12px;padding:4px 10px;background:#fff">'
        f'<div class="pb-label">{esc(sheet.name)}</div>{sheet_svg(state, seat)}</div>'
        for seat, sheet in enumerate(state.sheets)
    )
    return f'<div class="pb-trees" style="display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:12px;margin-top:10px">{cells}</div>'


def _chapter(view: View) -> str:
    return f"Chapter {view.chapter} of {view.chapters}" if view.chapter >= 1 else "Setting up"


def scene(state: State, final: State | None = None) -> Scene:
    view = view_for(state, None)
    names = [s.name for s in view.sheets]
    heading = _chapter(view) + (f" · “{view.title}”" if view.title else "")
    leader = max(view.scores, default=0)
    facts_common = (Fact("Chapter", f"{max(view.chapter, 0)} of {view.chapters}"), Fact("Top score", str(leader)))
    if view.phase == "over":
        return _results(state, view)
    if view.phase in ("place", "setting"):
        done = sum(1 for s in view.sheets if s.placed) if view.phase == "place" else sum(len(s.memes()) for s in view.sheets)
        goal = len(names) if view.phase == "place" else 2 * len(names)
        what = "sheets with their 7 stones placed" if view.phase == "place" else "first memes written"
        centre = (
            f'<div class="pb-label">Setting up the story</div><div class="pb-huge">{done} of {goal}</div><div class="pb-line">{what}</div>'
            + (f'<div class="pb-label">Waiting for {esc(", ".join(names[s] for s in view.waiting_for))}</div>' if view.waiting_for else "")
        )
        return Scene("waiting", heading, centre, (Fact("Ready", f"{done} of {goal}", "pb-setup-count"), *facts_common), view.log)
    a = view.attempt
    if a is not None and view.phase in ("stake", "respond"):
        sides = [f"{names[s]} {side}s" for s, side in enumerate(a.sides) if side and side != "actor"]
        target = " (replacing a meme)" if a.target is not None else ""
        centre = (
            f'<div class="pb-label">The meme action: {esc(names[a.actor])} tries to {esc(a.kind.lower())}{esc(target)}</div>'
            f'<div class="pb-line">“{esc(a.text)}” held by {esc(a.holder)}</div>'
            f'<div class="pb-huge pb-meme-pool">Pool {a.pool}</div>'
            f'<div class="pb-line">Roll 2d6 at most {a.pool} (11 or 12 always fails)'
            + (f": {_percent(view.odds)} to succeed" if view.odds is not None else "")
            + "</div>"
            + (f'<div class="pb-label">{esc(", ".join(sides))}</div>' if sides else "")
        )
        facts = (Fact("Pool", str(a.pool), "pb-pool-big"), Fact("Odds", _percent(view.odds) if view.odds is not None else "—", "pb-odds-big"), *facts_common)
        return Scene("decision", heading, centre, facts, view.log)
    if a is not None and a.dice:
        total = sum(a.dice)
        verdict = "" if a.success is None else ("Success!" if a.success else "It fails.")
        centre = (
            f'<div class="pb-label">{esc(names[a.actor])}: “{esc(a.text)}” held by {esc(a.holder)}</div>'
            f'<div class="pb-huge pb-roll">{" + ".join(str(d) for d in a.dice)} = {total}</div>'
            f'<div class="pb-line">against the pool of {a.pool}{" · 11 or 12 always fails" if total >= ALWAYS_FAILS else ""}</div>'
            + (f'<div class="pb-huge" style="color:{"#1b5e20" if a.success else "#b71c1c"}">{verdict}</div>' if verdict else '<div class="pb-line">Seeds may still re-roll a die.</div>')
        )
        facts = (Fact("Roll", str(total), "pb-roll-total"), Fact("Pool", str(a.pool)), *facts_common)
        return Scene("reveal", heading, centre, facts, view.log)
    turn = names[view.turn] if view.turn is not None else ""
    last = state.outcomes[-1] if state.outcomes else None
    recent = (
        f'<div class="pb-label">Last meme action: {esc(names[last.actor])}, “{esc(last.text)}”: {"succeeded" if last.success else "failed"} '
        f'({" + ".join(map(str, last.dice))} against {last.pool})</div>'
        if last
        else ""
    )
    centre = (
        (f'<div class="pb-label">Whose turn</div><div class="pb-huge pb-turn-big">{esc(turn)}</div>' if turn else "")
        + (f'<div class="pb-line">{view.actions_left} action{"s" if view.actions_left != 1 else ""} left this turn</div>' if view.phase == "turn" else "")
        + (f'<div class="pb-line">{esc(turn)} names the chapter.</div>' if view.phase == "title" else "")
        + recent
        + (_trees(state) if view.phase == "title" else "")  # a chapter ends: the trees as they stand
    )
    return Scene("decision", heading, centre, (Fact("Turn", turn or "—"), *facts_common), view.log)


def _results(state: State, view: View) -> Scene:
    names = [s.name for s in view.sheets]
    winners = [s for rank, s, _ in view.standings if rank == 1]
    rows = "".join(f"<tr><td>{rank}</td><td>{esc(names[s])}</td><td>{score} points</td></tr>" for rank, s, score in view.standings)
    centre = f'<table class="pb-standings-big pb-results-standings">{rows}</table>'
    winner = winners_text(names, winners)
    return Scene("results", "the end", centre, (Fact("Chapters", str(view.chapters)),), view.log, winner, tuple(story(state)), _trees(state))


def story(state: State) -> list[str]:
    """The game in five lines: the chapters, the actions, the meme that spread the most."""
    view = view_for(state, None)
    names = [s.name for s in view.sheets]
    outcomes = state.outcomes
    won = sum(1 for o in outcomes if o.success)
    counts: dict[str, tuple[int, str]] = {}
    for sheet in view.sheets:
        for _, meme in sheet.memes():
            key = " ".join(meme.text.split()).lower()
            n, text = counts.get(key, (0, meme.text))
            counts[key] = (n + 1, text)
    spread = max(counts.values(), default=None)
    best = view.standings[0] if view.standings else None
    titles = [t for t in state.titles if t]
    return [
        f"{len(titles)} chapter{'s' if len(titles) != 1 else ''}: " + "; ".join(f"“{t}”" for t in titles[:4]) + ("…" if len(titles) > 4 else "") if titles else "No chapter was told.",
        f"{len(outcomes)} meme action{'s' if len(outcomes) != 1 else ''}: {won} succeeded, {len(outcomes) - won} failed.",
        f"The meme that spread the most: “{spread[1]}” on {spread[0]} branches." if spread and spread[0] > 1 else "No meme spread beyond its first branch.",
        f"The top score: {best[2]} ({names[best[1]]})." if best else "No scores.",
        f"The end: {view.ended}.",
    ]


def moment(before: State, state: State) -> tuple[str, int] | None:
    if len(state.outcomes) > len(before.outcomes):
        o = state.outcomes[-1]
        return f"Chapter {o.chapter}: {state.names[o.actor]}'s {o.kind.lower()}", o.chapter
    if state.chapter != before.chapter and before.chapter >= 0:
        return f"Chapter {before.chapter + 1} ends", before.chapter + 1
    return None


def round_of(state: State) -> int:
    return max(state.chapter + 1, 0)


def chart(states: Sequence[Any], final: Any = None) -> str:
    """Each player's score after each meme action."""
    points = [s for s in states if s.outcomes] or list(states[-1:])
    if not points or not points[-1].outcomes:
        return ""
    names = list(points[-1].names)
    series = [(name, [view_for(s, None).scores[i] for s in points]) for i, name in enumerate(names)]
    return chart_svg("Scores after each meme action", [f"A{len(s.outcomes)}" for s in points], lines=series)


SCENES = GameScenes("dangerous-ideas", scene, moment, round_of, chart, "Chapter")
