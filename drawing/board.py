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
chart labels 20 px or more; the board fits 1366x768 without scrolling sideways. The look of
what is drawn here is the Voila template's `board.css` (`widgets.styles`). Every user string is
escaped here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from i18n import Said, _, _n, render, say

from .common import esc, name, text

__all__ = ["DrawingModule", "Fact", "GameScenes", "Scene", "log_html", "scene_html", "waiting_scene"]

Phase = Literal["waiting", "decision", "reveal", "results"]
#: each phase's name on the board (said in the page's language when drawn).
PHASE_WORDS: dict[str, Said] = {
    "waiting": say("Waiting for players"),
    # TRANSLATORS: the board's phase while players decide (a heading).
    "decision": say("Deciding"),
    "reveal": say("The reveal"),
    "results": say("The results"),
}
#: log lines the board shows; the rest are one click away.
LOG_LINES = 3

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
    #: the public log (the board shows the last lines), each line said in the page's language.
    log: tuple[str | Said, ...] = ()
    #: the results: who won (plain text), and the game in five lines.
    winner: str = ""
    story: tuple[str, ...] = ()
    #: safe HTML closing the centre, after the story (Dangerous Ideas' trees).
    after: str = ""


def log_html(lines: Sequence[str | Said], keep: int = LOG_LINES) -> str:
    """The last `keep` lines, newest last; every line one click away (no kernel needed)."""
    if not lines:
        return ""
    start = max(0, len(lines) - keep)
    last = "".join(f"<li>{text(render(line))}</li>" for line in lines[start:])
    more = ""
    if start:
        every = "".join(f"<li>{text(render(line))}</li>" for line in lines)
        every_line = _n("The one line of the log", "All {n} lines of the log", len(lines))
        more = f'<details class="pb-log-all"><summary>{text(every_line)}</summary><ol>{every}</ol></details>'
    return f'<div class="pb-board-log"><ol start="{start + 1}">{last}</ol>{more}</div>'


def scene_html(scene: Scene, chart: str = "", title: str = "") -> str:
    """A scene as the board draws it; `chart` is safe SVG (or ""), `title` the game's name."""
    facts = "".join(
        f'<div class="pb-fact {esc(f.css)}"><div class="pb-fact-label">{text(f.label)}</div><div class="pb-key">{text(f.value)}</div></div>'
        for f in scene.facts
    )
    centre = scene.centre
    if scene.phase == "results":
        story = "".join(f"<li>{text(line)}</li>" for line in scene.story)
        the_winner_said = _("The winner")
        the_story_of_said = _("The story of the game")
        centre = (
            f'<div class="pb-label">{text(the_winner_said)}</div><div class="pb-winner pb-results-winner">{text(scene.winner)}</div>'
            + centre
            + (f'<div class="pb-label" style="margin-top:8px">{text(the_story_of_said)}</div><ol class="pb-story">{story}</ol>' if story else "")
        )
    centre += scene.after
    head = (
        f'<div class="pb-scene-head"><span class="pb-scene-title">{text(title + " · " if title else "")}{text(scene.heading)}</span>'
        f'<span class="pb-scene-phase">{esc(render(PHASE_WORDS[scene.phase]))}</span></div>'
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
    scan_the_code_said = _("Scan the code with your phone, then press your name.")
    still_free_n_said = _("Still free ({n} of {total})", n=len(free), total=len(names))
    here_said = _("Here")
    centre = (
        f'<div class="pb-line">{text(scan_the_code_said)}</div>'
        f'<div class="pb-label">{text(still_free_n_said)}</div>'
        + "".join(f'<span class="pb-chip" style="background:#eceef3;color:#14171f">{name(names[i])}</span>' for i in free)
        + (f'<div class="pb-label" style="margin-top:6px">{text(here_said)}</div>' + "".join(f'<span class="pb-chip" style="background:#dff3e4;color:#14171f">✔ {name(n)}</span>' for n in taken) if taken else "")
    )
    # The game's own key numbers stay: the room sees where the game starts (the dyke, the bowl).
    facts = (Fact(_("Players here"), _("{n} of {total}", n=len(names) - len(free), total=len(names)), "pb-seats-taken"), *scene.facts)
    return Scene("waiting", scene.heading, centre, facts, scene.log)


#: a game's round, when its drawing names no other word.
ROUND = say("Round")


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
    round_word: str | Said = ROUND
    #: a class's tables compared side by side for its board, from their states (Leerdam's
    #: villages year by year), or None.
    side_by_side: Callable[[Sequence[Any]], str] | None = None


@runtime_checkable
class DrawingModule(Protocol):
    """What a game's drawing module (its card's "drawing" layer) provides: its board by phase."""

    SCENES: GameScenes
