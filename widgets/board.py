"""The projector's board by phase, and the debrief that replays a table on it.

- `PhaseBoard` (class ``pb-phase-board``): a table's board page. It draws the game's `Scene`
  for the state it is given (`drawing.board`, and the game's own drawing module): the join code large while players are still
  to come, small in a corner while seats are free, gone at the end; once the game is over,
  the results and below them the debrief.
- `Debrief` (class ``pb-replay``): a table replayed moment by moment from its record
  (``pb-replay-back``, ``pb-replay-next``, ``pb-replay-round`` to jump to a round,
  ``pb-replay-step`` says where it stands, ``pb-replay-scene`` the board at that moment,
  ``pb-replay-secrets`` what was secret, shown only after the end when the facilitator
  chooses: ``pb-replay-reveal`` on the facilitator's page). Each step is drawn by the same
  functions as the live board, fed the state of that moment.
- `ClassDebrief` (class ``pb-class-debrief``): a class's tables side by side, round by round:
  a round a table has finished as its board was at that round's end, the round it is playing
  as its board is now (the very scene of the class board's live cards).

Nothing here decides a rule or reads a seat's view: secrets come only from a finished game's
record, and only when the facilitator has said so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from drawing.board import Scene, scene_html, waiting_scene
from drawing.common import esc
from drawing.timeline import Timeline, scenes_for, secret_lines
from i18n import _, render
from rules.core import AnyGame
from rules.games import card

from .common import close_tree
from .styles import style_html

__all__ = ["ClassDebrief", "Debrief", "PhaseBoard", "board_scene"]


def board_scene(game: AnyGame, free: Sequence[int] | None = None) -> Scene:
    """The scene a board draws for `game` now; `free`: seats no device or bot holds yet (while
    some are free and no seat has moved, the board waits for players)."""
    scene = scenes_for(game.rules.slug).scene(game.state)
    if free and not game.rules.over(game.state) and not any(a.seat is not None and not a.chance for a in game.actions):
        return waiting_scene(scene, tuple(render(label) for label in card(game.rules.slug).seat_labels(game.setup)), free)
    return scene


class Debrief(widgets.VBox):
    """A table's moments, one at a time (see the module docstring)."""

    def __init__(self, title: str, facilitator: bool = False, on_reveal: Callable[[bool], None] | None = None) -> None:
        self.title = title
        self.timeline: Timeline | None = None
        self.step = 0
        self.reveal_secrets = False
        self._game: AnyGame | None = None
        self.back = widgets.Button(description=_("◀ Back"), tooltip=_("The moment before")).add_class("pb-replay-back")
        self.next = widgets.Button(description=_("Next ▶"), tooltip=_("The moment after")).add_class("pb-replay-next")
        self.jump = widgets.Dropdown(options=[("—", 0)], value=0, tooltip=_("Go to a round"), layout=widgets.Layout(width="auto")).add_class("pb-replay-round")
        self.step_html = widgets.HTML().add_class("pb-replay-step")
        self.scene = widgets.HTML().add_class("pb-replay-scene")
        self.secrets = widgets.HTML().add_class("pb-replay-secrets")
        self.reveal = widgets.Checkbox(value=False, description=_("Show the secret choices on the board"), indent=False).add_class("pb-replay-reveal")
        self.reveal.layout.display = "flex" if facilitator else "none"
        self._on_reveal = on_reveal
        self.back.on_click(lambda _event: self.step_to(self.step - 1))
        self.next.on_click(lambda _event: self.step_to(self.step + 1))
        self.jump.observe(self._jumped, "value")
        self.reveal.observe(self._revealed, "value")
        bar = widgets.HBox((self.back, self.next, widgets.HTML(f'<span class="pb-label">{esc(_("Jump to"))}</span>'), self.jump, self.step_html), layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="8px 14px"))
        # The board's sizes wherever it is shown (the facilitator's page too).
        super().__init__((widgets.HTML(style_html("board.css") + f'<h2 style="margin:16px 0 4px">{esc(_("The debrief: step through the game"))}</h2>'), bar, self.reveal, self.scene, self.secrets))
        self.add_class("pb-replay")
        self.add_class("pb-phase-board")

    def show(self, game: AnyGame, reveal: bool = False) -> None:
        """Follow `game` (a running table: its moments so far); stay on the step shown unless it
        was the last one."""
        at_end = self.timeline is None or self.step >= len(self.timeline.moments) - 1
        if self.timeline is None or self.timeline.rules is not game.rules or self.timeline.setup != game.setup:
            self.timeline = Timeline.of(game)
        else:
            self.timeline.update(game.actions)
        self._game = game
        over = game.rules.over(game.state)
        # A game whose seats keep secrets (its card says so) may show them once over, if the facilitator says so.
        self.reveal_secrets = reveal and over and card(game.rules.slug).hides
        if getattr(game.setup, "anonymous", False):
            # An anonymous village has the rules' own choice (ShowPledges): it alone decides.
            self.reveal_secrets = over and bool(getattr(game.state, "pledges_shown", False))
            self.reveal.layout.display = "none"
        self.reveal.disabled = not over
        self.reveal.tooltip = "" if over else _("Secrets stay secret until the game is over")
        if self.reveal.value != self.reveal_secrets and self.reveal.layout.display != "none":
            self.reveal.unobserve(self._revealed, "value")
            self.reveal.value = self.reveal_secrets
            self.reveal.observe(self._revealed, "value")
        moments = self.timeline.moments
        word = render(self.timeline.scenes.round_word)
        firsts: dict[int, int] = {}
        for k, m in enumerate(moments):
            firsts.setdefault(m.round, k)
        options = [(_("the start"), 0)] + [(_("{round} {n}", round=word, n=r), k) for r, k in sorted(firsts.items()) if k > 0]
        if tuple(self.jump.options) != tuple(options):
            self.jump.unobserve(self._jumped, "value")
            self.jump.options = options
            self.jump.observe(self._jumped, "value")
        self.step_to(len(moments) - 1 if at_end else self.step)

    def step_to(self, k: int) -> None:
        """Show moment `k` (clamped to the moments there are)."""
        if self.timeline is None:
            return
        moments = self.timeline.moments
        k = max(0, min(k, len(moments) - 1))
        self.step = k
        m = moments[k]
        scenes = self.timeline.scenes
        # A finished game's choices (Leerdam: pledges shown or kept anonymous) decide every step.
        final = self._game.state if self._game is not None and self._game.rules.over(self._game.state) else None
        self.scene.value = f'<div class="pb-phase-board">{scene_html(scenes.scene(m.state, final), self.timeline.chart(k, final), self.title)}</div>'
        self.step_html.value = f'<span class="pb-label" data-step="{k}" data-steps="{len(moments)}">{esc(_("Step {step} of {steps}: {moment}", step=k + 1, steps=len(moments), moment=m.label))}</span>'
        self.back.disabled = k == 0
        self.next.disabled = k == len(moments) - 1
        round_first = max((v for _label, v in self.jump.options if v <= k), default=0)
        if self.jump.value != round_first:
            self.jump.unobserve(self._jumped, "value")
            self.jump.value = round_first
            self.jump.observe(self._jumped, "value")
        self.secrets.value = self._secrets(m.round) if self.reveal_secrets else ""

    def _secrets(self, round_: int) -> str:
        game = self._game
        if game is None or not game.rules.over(game.state):
            return ""  # never before the end, whatever was asked
        names = getattr(game.setup, "names", ())
        lines = secret_lines(game.state, names, round_)
        if not lines:
            return ""
        items = "".join(f"<li><b><bdi>{esc(who)}</bdi></b>: {esc(text)}</li>" for who, text in lines)
        word = render(self.timeline.scenes.round_word) if self.timeline else _("Round")
        label = _("What was secret in {round} {n}", round=word.lower(), n=round_)
        return f'<div class="pb-phase-board"><div class="pb-label">{esc(label)}</div><ul class="pb-story">{items}</ul></div>'

    def _jumped(self, change: dict[str, Any]) -> None:
        if change["new"] is not None:
            self.step_to(int(change["new"]))

    def _revealed(self, change: dict[str, Any]) -> None:
        if self._on_reveal is not None:
            self._on_reveal(bool(change["new"]))


class PhaseBoard(widgets.VBox):
    """A table's board: the scene of the moment, the join code as the phase wants it, and at
    the end the debrief. `join_html` is the page's own join widget (class pb-join-code)."""

    def __init__(self, title: str, join_html: widgets.HTML) -> None:
        self.title = title
        self.timeline: Timeline | None = None
        self.scene = widgets.HTML().add_class("pb-board-scene")
        self.scene.layout = widgets.Layout(flex="1 1 640px", min_width="0")
        self.join_html = join_html
        self.last: Scene | None = None
        self.debrief: Debrief | None = None
        self.debrief_box = widgets.VBox()
        top = widgets.HBox((self.scene, join_html), layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start", grid_gap="16px"))
        super().__init__((widgets.HTML(style_html("board.css")), top, self.debrief_box))
        self.add_class("pb-phase-board")

    def show(self, game: AnyGame, free: Sequence[int] | None, join_url: str, qr: Callable[[str, int], str], reveal: bool = False) -> Scene:
        """Draw `game` now; `free` seats and `join_url` ("" for none) place the join code."""
        if self.timeline is None or self.timeline.rules is not game.rules or self.timeline.setup != game.setup:
            self.timeline = Timeline.of(game)
        else:
            self.timeline.update(game.actions)
        scene = board_scene(game, free)
        self.last = scene
        self.scene.value = scene_html(scene, self.timeline.chart(), self.title)
        if scene.phase == "waiting" and join_url:
            self.join_html.value = (
                f'<div class="pb-join-big"><div>{qr(join_url, 420)}<div class="pb-label">{esc(_("Scan to join"))}</div>'
                f'<div class="pb-join-link" style="max-width:420px">{esc(join_url)}</div></div></div>'
            )
        elif scene.phase != "results" and join_url and free:
            # Small, while seats are free: the address is the code's own (and its link's).
            self.join_html.value = (
                f'<div class="pb-join-small"><a href="{esc(join_url)}" target="_blank" rel="noopener" aria-label="{esc(_("Join: {address}", address=join_url))}">'
                f'{qr(join_url, 150)}</a><div class="pb-label">{esc(_("Join"))}</div></div>'
            )
        else:
            self.join_html.value = ""
        over = game.rules.over(game.state)
        if over:
            if self.debrief is None:
                self.debrief = Debrief(self.title)
                self.debrief_box.children = (self.debrief,)
            self.debrief.show(game, reveal)
        elif self.debrief is not None:
            old, self.debrief = self.debrief, None  # an undo took the end back
            self.debrief_box.children = ()
            close_tree([old])
        return scene


class ClassDebrief(widgets.VBox):
    """A class's tables side by side, round by round (classes pb-class-debrief,
    pb-class-debrief-back, -next, -round): each table drawn as its board was at the end of that
    round, or, for the round it is playing now (or any later one), as its board is now."""

    def __init__(self, title: str, label: str = "") -> None:
        self.title, self.label = title, render(label) if label else _("Table")
        self.timelines: list[Timeline] = []
        self.games: list[AnyGame] = []
        self.round = 0
        self.back = widgets.Button(description=_("◀ Back")).add_class("pb-class-debrief-back")
        self.next = widgets.Button(description=_("Next ▶")).add_class("pb-class-debrief-next")
        self.jump = widgets.Dropdown(options=[("—", 0)], value=0, tooltip=_("Go to a round"), layout=widgets.Layout(width="auto")).add_class("pb-class-debrief-round")
        self.body = widgets.HTML().add_class("pb-class-debrief-body")
        self.back.on_click(lambda _event: self.round_to(self.round - 1))
        self.next.on_click(lambda _event: self.round_to(self.round + 1))
        self.jump.observe(lambda c: self.round_to(int(c["new"])) if c["new"] is not None else None, "value")
        bar = widgets.HBox((self.back, self.next, widgets.HTML(f'<span class="pb-label">{esc(_("Jump to"))}</span>'), self.jump), layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="8px 14px"))
        super().__init__((widgets.HTML(style_html("board.css") + f'<h2 style="margin:16px 0 4px">{esc(_("The tables side by side"))}</h2>'), bar, self.body))
        self.add_class("pb-class-debrief")
        self.add_class("pb-phase-board")  # the board's sizes for its controls too

    def show(self, games: Sequence[AnyGame]) -> None:
        fresh = len(self.timelines) != len(games)
        if fresh:
            self.timelines = [Timeline.of(g) for g in games]
        else:
            for timeline, game in zip(self.timelines, games):
                timeline.update(game.actions)
        self.games = list(games)
        # The rounds being played count too: a table's first year has no moment until its reveal.
        now = [t.scenes.round_of(g.state) for t, g in zip(self.timelines, self.games)]
        last = max([m.round for t in self.timelines for m in t.moments] + now, default=0)
        word = render(self.timelines[0].scenes.round_word) if self.timelines else _("Round")
        now_too = not self._all_over()
        options = [
            (_("{round} {n} · now", round=word, n=r) if r == last and now_too else _("{round} {n}", round=word, n=r), r) for r in range(1, last + 1)
        ] or [(_("now"), 0)]
        at_end = fresh or self.round >= (self.jump.options[-1][1] if self.jump.options else 0)
        if tuple(self.jump.options) != tuple(options):
            self.jump.options = options
        self.round_to(last if at_end else self.round)

    def _all_over(self) -> bool:
        return all(g.rules.over(g.state) for g in self.games)

    def round_to(self, r: int) -> None:
        if not self.timelines:
            self.body.value = ""
            return
        values = [v for _label, v in self.jump.options]
        r = max(min(values), min(r, max(values)))
        self.round = r
        if self.jump.value != r:
            self.jump.value = r
        self.back.disabled = r <= min(values)
        self.next.disabled = r >= max(values)
        cells, charts = [], []
        for i, (timeline, game) in enumerate(zip(self.timelines, self.games)):
            name = _("{table} {n}", table=self.label, n=i + 1)
            if r >= timeline.scenes.round_of(game.state):
                # The round it plays now: the live board's own scene (`board_scene`), so this
                # column and the class board's card for the table say the same.
                step, scene, chart = "now", board_scene(game), timeline.chart()
            else:
                k = max((j for j, m in enumerate(timeline.moments) if m.round <= r), default=0)
                step, scene, chart = str(k), timeline.scenes.scene(timeline.moments[k].state), timeline.chart(k)
            cells.append(
                f'<div class="pb-phase-board pb-class-debrief-table" data-table="{i}" data-step="{step}">{scene_html(scene, "", name)}</div>'
            )
            # Each table's chart across the whole width, below: side by side its labels would be too small to read.
            if chart:
                charts.append(f'<div class="pb-phase-board"><div class="pb-label">{esc(name)}</div><div class="pb-chart">{chart}</div></div>')
        self.body.value = (
            f'<div style="display:grid;grid-template-columns:repeat(auto-fit,minmax(600px,1fr));gap:24px">{"".join(cells)}</div>' + "".join(charts)
        )
