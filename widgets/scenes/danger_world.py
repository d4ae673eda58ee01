"""Danger World's board by phase: sheets being made, the check being rolled, the roll and its
outcome, the party's fate; the chart of each character's danger level, check by check.

Danger World is cooperative and hides nothing: the board draws `view_for(state, None)`. The
game ends only when every character is dead, so its results name no winner: the party fell.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core import plural
from rules.danger_world import CheckResult, State, View, view_for

from ..common import esc
from ..danger_world import _result_dice, die_span
from . import Fact, GameScenes, Scene, chart_svg

__all__ = ["SCENES", "chart", "moment", "scene"]

OUTCOME_WORDS = {"benefit": "Success, with a benefit", "success": "Success", "partial": "A partial success", "failure": "Failure", "aid": "Aid given"}


def _danger_track(view: View) -> str:
    """Each character's danger level and zone: the track the table watches rise."""
    cells = "".join(
        f'<span class="pb-chip" style="background:{"#fdecea" if c.zone >= 3 else "#fff3e0" if c.zone == 2 else "#eceef3"}">'
        f"<bdi>{esc(c.name)}</bdi>: danger {c.danger} · zone {c.zone}{' · K.O.' if c.knocked_out else ''}{' · dead' if c.dead else ''}</span>"
        for c in view.characters
    )
    return f'<div class="pb-label">The danger track</div><div class="pb-danger-track">{cells}</div>'


def _names(view: View) -> list[str]:
    return [c.name for c in view.characters]


def scene(state: State, final: State | None = None) -> Scene:
    view = view_for(state, None)
    names = _names(view)
    most = max((c.danger for c in view.characters), default=0)
    facts_common = (Fact("Checks made", str(len(view.results))), Fact("Highest danger", str(most), "pb-danger-level"), Fact("Story-point pool", str(view.pool)))
    heading = f"Session {view.session} · encounter {view.encounter}"
    if view.phase == "over":
        return _results(state, view)
    ready = sum(1 for c in view.characters if c.ready)
    if ready < len(view.characters) and view.check is None:
        centre = (
            f'<div class="pb-label">The characters are being made</div><div class="pb-huge">{ready} of {len(names)} sheets ready</div>'
            f'<div class="pb-line">Still to finish: {esc(", ".join(c.name for c in view.characters if not c.ready))}</div>'
        )
        return Scene("waiting", heading, centre, (Fact("Sheets ready", f"{ready} of {len(names)}", "pb-sheets-ready"), *facts_common[1:]), view.log)
    check = view.check
    if check is not None and check.result is None:
        stats = " + ".join(check.stats)
        aid = f" (aiding {names[check.aid]})" if check.aid is not None else ""
        dice = "".join(die_span(f, "danger" if k >= check.normal else "pool", ["dw-locked"] if k in check.locked else [], small=False) for k, f in enumerate(check.faces))
        dice += "".join(die_span(f, "penalty", small=False) for f in check.penalty_faces)
        rolled = f'<div class="pb-label">The dice</div><div>{dice}</div>' if check.faces else '<div class="pb-line">The dice are about to be rolled.</div>'
        centre = (
            f'<div class="pb-label">The check being rolled</div><div class="pb-huge pb-check-actor">{esc(names[check.actor])}</div>'
            f'<div class="pb-line">{esc(stats)}{esc(aid)} against difficulty {check.difficulty}</div>{rolled}' + _danger_track(view)
        )
        facts = (Fact("Difficulty", str(check.difficulty), "pb-difficulty-big"), Fact("Pool", f"{check.pool} dice"), Fact("Re-rolls left", str(view.rerolls_left)), facts_common[1])
        return Scene("decision", f"{heading} · check {check.number}", centre, facts, view.log)
    if view.results:
        last: CheckResult = view.results[-1]
        height = f"a set of {last.height}" if last.height else "no set"
        centre = (
            f'<div class="pb-label">Check {last.number}: {esc(names[last.actor])}, {esc(" + ".join(last.stats))} against {last.difficulty}</div>'
            f'<div class="pb-huge pb-check-outcome">{esc(OUTCOME_WORDS.get(last.outcome, last.outcome))}</div>'
            f'<div class="pb-line">{esc(height)} · {last.botches} botch{"es" if last.botches != 1 else ""}'
            + (f" · danger +{last.danger_raised}" if last.danger_raised else "")
            + f'</div><div style="zoom:1.6">{_result_dice(last, small=True)}</div>'
            + _danger_track(view)
        )
        facts = (Fact("Set", str(last.height or 0), "pb-set-height"), Fact("Difficulty", str(last.difficulty)), Fact("Botches", str(last.botches)), facts_common[1])
        return Scene("reveal", f"{heading} · check {last.number}", centre, facts, view.log)
    centre = '<div class="pb-huge">Ready</div><div class="pb-line">The GM sets the scene; any character may make the first check.</div>' + _danger_track(view)
    return Scene("decision", heading, centre, facts_common, view.log)


def _results(state: State, view: View) -> Scene:
    rows = "".join(f"<tr><td>{esc(c.name)}</td><td>{'dead' if c.dead else 'alive'}</td><td>danger {c.danger}</td></tr>" for c in view.characters)
    centre = f'<table class="pb-standings-big pb-results-standings">{rows}</table>'
    return Scene("results", "the end", centre, (Fact("Checks made", str(len(view.results))),), view.log, "Nobody: the party fell", tuple(story(state)))


def story(state: State) -> list[str]:
    view = view_for(state, None)
    results = view.results
    won = sum(1 for r in results if r.outcome in ("benefit", "success"))
    partial = sum(1 for r in results if r.outcome == "partial")
    names = _names(view)
    hardest = max(results, key=lambda r: r.difficulty, default=None)
    return [
        f"{plural(len(results), 'check')} in {plural(view.session, 'session')}: {won} succeeded, {partial} partly, {len(results) - won - partial} failed or aided.",
        f"The hardest check: difficulty {hardest.difficulty}, by {names[hardest.actor]}." if hardest else "No check was made.",
        f"Botches rolled: {sum(r.botches for r in results)}; danger raised by sets: {sum(r.danger_raised for r in results)}.",
        f"The party: {', '.join(c.name + (' (dead)' if c.dead else '') for c in view.characters)}.",
        "The game ended: every character is dead." if view.over else "The game goes on.",
    ]


def moment(before: State, state: State) -> tuple[str, int] | None:
    if len(state.results) > len(before.results):
        r = state.results[-1]
        return f"Check {r.number}: {state.characters[r.actor].name}", len(state.results)
    return None


def round_of(state: State) -> int:
    return len(state.results)


def chart(states: Sequence[Any], final: Any = None) -> str:
    """Each character's danger level after each check (the danger track over the game)."""
    points = [s for s in states if s.results]
    if not points:
        return ""
    names = [c.name for c in points[-1].characters]
    series = [(name, [view_for(s, None).characters[i].danger for s in points]) for i, name in enumerate(names)]
    return chart_svg("Danger level after each check", [f"C{len(s.results)}" for s in points], lines=series)


SCENES = GameScenes("danger-world", scene, moment, round_of, chart, "Check")
