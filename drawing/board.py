"""The board by phase: what a projector shows of a table, and the same drawing replayed after.

A table's board follows the phase of play. Each game's drawing module (`drawing.new_rule`...)
turns one state into a `Scene` from the public view alone (`view_for(state, None)`): the phase
(waiting for players, the decision in progress, the reveal, the results), a heading, the centre
of the screen, the key numbers with their labels, the public log, and at the end the winner and
the story of the game in five lines; it gives them as its `SCENES` (a `GameScenes`), which its
card names (`card(slug).module("drawing")`). `scene_html` draws a scene; `chart_svg`
(`drawing.chart`) draws a chart of the game so far from the states of its moments
(`drawing.timeline`).

The debrief (`widgets.board`) replays a stored table moment by moment with the very same
functions, fed the state at each step: what it shows at a step is what the board showed then.

Sizes are for the back of a room at 1920x1080: key numbers 56 px, every label 28 px or more,
chart labels 20 px or more; the board fits 1366x768 without scrolling sideways. Every user
string is escaped here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from .common import esc

__all__ = ["BOARD_STYLE", "DrawingModule", "Fact", "GameScenes", "Scene", "log_html", "scene_html", "waiting_scene"]

Phase = Literal["waiting", "decision", "reveal", "results"]
PHASE_WORDS = {"waiting": "Waiting for players", "decision": "Deciding", "reveal": "The reveal", "results": "The results"}
#: log lines the board shows; the rest are one click away.
LOG_LINES = 3

#: The board's own sizes: one stylesheet, scoped to the board's root (`pb-phase-board`).
BOARD_STYLE = """
<style>
.playbook-root.playbook-board { max-width: none; }
.playbook-board > .pb-header, .playbook-board > .pb-status:empty { display: none; }
.pb-phase-board { font-size: 28px; line-height: 1.3; color: #14171f; }
.pb-phase-board .pb-scene { display: flex; flex-direction: column; gap: 10px; }
.pb-phase-board .pb-scene-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 6px 28px; border-bottom: 3px solid #c9cedb; padding-bottom: 4px; }
.pb-phase-board .pb-scene-title { font-size: 44px; font-weight: 800; }
.pb-phase-board .pb-scene-phase { font-size: 32px; font-weight: 700; color: #2f4a8a; }
.pb-phase-board .pb-scene-main { display: flex; flex-wrap: wrap; gap: 16px 28px; align-items: stretch; }
.pb-phase-board .pb-centre { flex: 3 1 640px; min-width: 0; border: 3px solid #9aa3b5; border-radius: 16px; padding: 12px 22px; background: #fff; }
.pb-phase-board .pb-facts { flex: 1 1 300px; display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 10px 18px; align-content: start; }
.pb-phase-board .pb-fact { border: 2px solid #c9cedb; border-radius: 12px; padding: 4px 14px; background: #f8f9fc; }
.pb-phase-board .pb-fact-label, .pb-phase-board .pb-label { font-size: 28px; color: #3c4354; }
.pb-phase-board .pb-key { font-size: 56px; font-weight: 800; line-height: 1.1; overflow-wrap: anywhere; }
.pb-phase-board .pb-huge { font-size: 96px; font-weight: 800; line-height: 1.05; }
.pb-phase-board .pb-line { font-size: 32px; font-weight: 600; margin: 4px 0; overflow-wrap: anywhere; }
.pb-phase-board .pb-chip { font-size: 28px; padding: 2px 14px; }
.pb-phase-board .pb-standings-big { border-collapse: collapse; width: 100%; font-size: 30px; }
.pb-phase-board .pb-standings-big td, .pb-phase-board .pb-standings-big th { padding: 2px 12px; border-bottom: 1px solid #dde1ea; text-align: left; font-size: 28px; }
.pb-phase-board .pb-story { margin: 4px 0; padding-left: 1.4em; font-size: 28px; }
.pb-phase-board .pb-board-log { font-size: 28px; }
.pb-phase-board .pb-board-log ol { margin: 2px 0; padding-left: 2.2em; }
.pb-phase-board .pb-board-log summary { cursor: pointer; color: #2f4a8a; font-weight: 600; }
.pb-phase-board .pb-board-log details ol { max-height: 60vh; overflow-y: auto; }
.pb-phase-board .pb-chart svg { width: 100%; height: auto; display: block; }
.pb-phase-board .pb-join-big { display: flex; flex-wrap: wrap; gap: 28px; align-items: center; }
.pb-phase-board .pb-join-big svg { width: min(42vh, 420px); height: auto; }
.pb-phase-board .pb-join-small svg { width: 150px; height: auto; }
.pb-phase-board .pb-join-link { font-size: 28px; overflow-wrap: anywhere; }
.pb-phase-board .pb-winner { font-size: 64px; font-weight: 800; line-height: 1.15; margin-bottom: 8px; color: #1b5e20; overflow-wrap: anywhere; }
.playbook-root .pb-phase-board .jupyter-button, .playbook-root .pb-phase-board .widget-button { font-size: 28px; min-height: 56px; padding: 4px 22px; }
.playbook-root .pb-phase-board .widget-dropdown select, .playbook-root .pb-phase-board .widget-label,
.playbook-root .pb-phase-board .widget-checkbox label { font-size: 28px; height: auto; min-height: 52px; }
.playbook-root .pb-phase-board .widget-dropdown, .playbook-root .pb-phase-board .widget-checkbox { height: auto; width: auto; }
@media (max-width: 1500px) {
  .pb-phase-board .pb-scene-title { font-size: 36px; }
  .pb-phase-board .pb-huge { font-size: 72px; }
}
</style>
"""


@dataclass(frozen=True)
class Fact:
    """One key number on the board: a label above a big value (both plain text)."""

    label: str
    value: str
    #: an extra CSS class (stable names for tests and users' scripts).
    css: str = ""


@dataclass(frozen=True)
class Scene:
    """What the board shows at one moment, from the public view alone."""

    phase: Phase
    #: plain text: "Year 3 · secret pledges".
    heading: str
    #: safe HTML: the centre of the screen.
    centre: str
    facts: tuple[Fact, ...] = ()
    #: the public log (the board shows the last lines).
    log: tuple[str, ...] = ()
    #: the results: who won (plain text), and the game in five lines.
    winner: str = ""
    story: tuple[str, ...] = ()
    #: safe HTML closing the centre, after the story (Dangerous Ideas' trees).
    after: str = ""


def log_html(lines: Sequence[str], keep: int = LOG_LINES) -> str:
    """The last `keep` lines, newest last; every line one click away (no kernel needed)."""
    if not lines:
        return ""
    start = max(0, len(lines) - keep)
    last = "".join(f"<li>{esc(line)}</li>" for line in lines[start:])
    more = ""
    if start:
        every = "".join(f"<li>{esc(line)}</li>" for line in lines)
        more = f'<details class="pb-log-all"><summary>All {len(lines)} lines of the log</summary><ol>{every}</ol></details>'
    return f'<div class="pb-board-log"><ol start="{start + 1}">{last}</ol>{more}</div>'


def scene_html(scene: Scene, chart: str = "", title: str = "") -> str:
    """A scene as the board draws it; `chart` is safe SVG (or ""), `title` the game's name."""
    facts = "".join(
        f'<div class="pb-fact {esc(f.css)}"><div class="pb-fact-label">{esc(f.label)}</div><div class="pb-key">{esc(f.value)}</div></div>'
        for f in scene.facts
    )
    centre = scene.centre
    if scene.phase == "results":
        story = "".join(f"<li>{esc(line)}</li>" for line in scene.story)
        centre = (
            f'<div class="pb-label">The winner</div><div class="pb-winner pb-results-winner">{esc(scene.winner)}</div>'
            + centre
            + (f'<div class="pb-label" style="margin-top:8px">The story of the game</div><ol class="pb-story">{story}</ol>' if story else "")
        )
    centre += scene.after
    head = (
        f'<div class="pb-scene-head"><span class="pb-scene-title">{esc(title + " · " if title else "")}{esc(scene.heading)}</span>'
        f'<span class="pb-scene-phase">{esc(PHASE_WORDS[scene.phase])}</span></div>'
    )
    return (
        f'<div class="pb-scene pb-scene-{scene.phase}" data-phase="{scene.phase}">{head}'
        f'<div class="pb-scene-main"><div class="pb-centre">{centre}</div>'
        + (f'<div class="pb-facts">{facts}</div>' if facts else "")
        + "</div>"
        + (f'<div class="pb-chart">{chart}</div>' if chart else "")
        + log_html(scene.log)
        + "</div>"
    )


def waiting_scene(scene: Scene, names: Sequence[str], free: Sequence[int]) -> Scene:
    """`scene` (the game's first decision) while seats are still free: the join code first."""
    taken = [n for i, n in enumerate(names) if i not in free]
    centre = (
        f'<div class="pb-line">Scan the code with your phone, then press your name.</div>'
        f'<div class="pb-label">Still free ({len(free)} of {len(names)})</div>'
        + "".join(f'<span class="pb-chip" style="background:#eceef3">{esc(names[i])}</span>' for i in free)
        + ('<div class="pb-label" style="margin-top:6px">Here</div>' + "".join(f'<span class="pb-chip" style="background:#dff3e4">✔ <bdi>{esc(n)}</bdi></span>' for n in taken) if taken else "")
    )
    # The game's own key numbers stay: the room sees where the game starts (the dyke, the bowl).
    facts = (Fact("Players here", f"{len(names) - len(free)} of {len(names)}", "pb-seats-taken"), *scene.facts)
    return Scene("waiting", scene.heading, centre, facts, scene.log)


@dataclass(frozen=True)
class GameScenes:
    """One game's board: its scene, its moments, its chart (each a pure function)."""

    slug: str
    #: the state as the board draws it; `final` (a debrief's step): the finished game's last
    #: state, whose choices decide what the public may see at every step (Leerdam's pledges).
    scene: Callable[..., Scene]
    #: (label, round) when `state` (after `before`) is a moment the debrief stops at, else None.
    moment: Callable[[Any, Any], tuple[str, int] | None]
    #: the round (year, chapter, check) a state is in.
    round_of: Callable[[Any], int]
    #: the chart of the game so far, from the states of its moments so far (and `final`).
    chart: Callable[..., str]
    #: what a round's word is ("Year", "Round"...).
    round_word: str = "Round"
    #: a class's tables compared side by side for its board, from their states (Leerdam's
    #: villages year by year), or None.
    side_by_side: Callable[[Sequence[Any]], str] | None = None


@runtime_checkable
class DrawingModule(Protocol):
    """What a game's drawing module (its card's "drawing" layer) provides: its board by phase."""

    SCENES: GameScenes
