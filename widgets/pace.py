"""A lesson's pace on its pages: the countdown, the timer a page keeps, and the teacher's controls.

- `Countdown` (class ``pb-countdown``): on the board and on each seat page, the time left for
  the decision the table waits for. The kernel sends the deadline once, as data attributes;
  the page's `countdown.js` counts it down by itself (no message a second) and announces the last
  seconds to screen readers (the page's live region: 30 s, 10 s, and 0). A paused table says
  "Paused by the teacher".
- `TimerKeeper`: a page open for a table (its board or facilitator's page, the class monitor or
  board) makes the moves of seats whose time ran out (`playbook.timer.run_timer`), once a
  second, while the page is there. Several pages may keep the same table: the store's version
  check makes a move once.
- `PacePanel` (class ``pb-pace``): the monitor's timer per decision, pause and resume, "next
  round / year for every table", and extra time per student.
- `PaceChoices`: the length and timer of a new class (the front page's "Start a class").
- `TablePaceBar` (class ``pb-table-pace``): a single table's timer and pause, on its
  facilitator's page.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from drawing.common import esc
from i18n import _, render
from playbook import pace, timer
from playbook.pace import timed_out
from playbook.store import Store, Table
from rules.games import card
from rules.text import say

from .common import say_attrs
from .live import in_kernel
from .styles import style_html

__all__ = ["TICK_SECONDS", "Countdown", "PaceChoices", "PacePanel", "TablePaceBar", "TimerKeeper", "countdown_html", "timed_out"]

#: how often a page keeping a timer looks for a seat whose time ran out.
TICK_SECONDS = 1.0
#: the seconds a countdown announces (`countdown.js` reads them from the page).
ANNOUNCE_AT = (30, 10, 0)
PAUSED = say("Paused by the teacher")


def _clock(seconds: float) -> str:
    whole = max(0, int(seconds + 0.999))
    return f"{whole // 60}:{whole % 60:02d}"


def countdown_html(table: Table | None, seat: int | None, now: float, announce: bool = True) -> str:
    """The countdown of `seat`'s decision (None: the board's, the soonest deadline at the table),
    as markup `countdown.js` counts down: the deadline and this server's clock, in ms. Empty when
    no timer runs for it (and the table is not paused). Without `announce` (a class board's
    card per table) the last seconds are shown, not said."""
    if table is None:
        return ""
    if pace.paused(table.meta):
        # Said once by the page's live region: this value is sent again only when the pause changes.
        said = f" {say_attrs()}" if announce else ""
        return f'<div class="pb-countdown-box pb-countdown-paused" data-paused="1"{said}>{esc(render(PAUSED))}</div>'
    due = timer.deadlines(table)
    if seat is not None:
        deadline = due.get(seat)
        label = _("Your time")
    else:
        deadline = min(due.values()) if due else None
        label = _("Time for this decision")
    if deadline is None:
        return ""
    left = max(0.0, deadline - now)
    return (
        f'<div class="pb-countdown-box" data-deadline="{int(deadline * 1000)}" data-now="{int(now * 1000)}" data-announce="{",".join(map(str, ANNOUNCE_AT)) if announce else ""}">'
        f'<span class="pb-countdown-label">{esc(label)}</span> <span class="pb-countdown-time" aria-hidden="true">{_clock(left)}</span>'
        # countdown.js puts the last seconds here, marked for the page's live region (a11y.js).
        '<span class="pb-countdown-say" hidden></span></div>'
    )


def seconds_box(css: str) -> widgets.BoundedIntText:
    """The timer's seconds per decision (0: no timer), in steps of 15."""
    return widgets.BoundedIntText(
        value=0, min=0, max=pace.MOST_SECONDS, step=15, description=_("Seconds per decision"), style={"description_width": "initial"}, layout=widgets.Layout(width="260px")
    ).add_class(css)


def at_zero_box(css: str) -> widgets.Dropdown:
    """Who moves for a seat whose time ran out: the game's stated default, or its fill bot."""
    return widgets.Dropdown(
        options=[(_("then the game's default"), pace.BY_DEFAULT), (_("then the fill bot"), pace.BY_BOT)],
        value=pace.BY_DEFAULT,
        tooltip=_("Who moves for a seat whose time ran out"),
        layout=widgets.Layout(width="210px"),
    ).add_class(css)


class Countdown(widgets.HTML):
    """The countdown of one page (class pb-countdown); `show` sends a new value only when the
    deadline (or the pause) changed, not as the seconds pass."""

    def __init__(self) -> None:
        super().__init__(layout=widgets.Layout(display="none"))
        self.add_class("pb-countdown")
        self._key: tuple[Any, ...] | None = None

    def show(self, table: Table | None, seat: int | None, now: float | None = None) -> None:
        now = time.time() if now is None else now
        due = timer.deadlines(table) if table is not None else {}
        key = (table.id if table else None, pace.paused(table.meta) if table else False, due.get(seat) if seat is not None else min(due.values(), default=None))
        if key == self._key:
            return
        self._key = key
        value = countdown_html(table, seat, now)
        # In JupyterLab (no template) the box brings its sheet; under Voila the template links it.
        self.value = style_html("countdown.css") + value if value else ""
        self.layout.display = "" if value else "none"


class TimerKeeper:
    """Makes the moves of seats whose time ran out at the tables `table_ids()` gives, every
    TICK_SECONDS while `wanted()` (the page is there). `clock` is injected for the tests; `tick`
    is one look, which the tests call by hand."""

    def __init__(self, store: Store, table_ids: Callable[[], Sequence[str]], wanted: Callable[[], bool], clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.table_ids = table_ids
        self.wanted = wanted
        self.clock = clock
        self.task: asyncio.Task[None] | None = None
        #: moves this page made (for its status line and the tests).
        self.made = 0
        #: per table, the version last looked at and its soonest deadline then (None: none):
        #: while neither changed nor passed, a look is one indexed read, not a load.
        self._next: dict[str, tuple[int, float | None]] = {}

    def tick(self) -> int:
        """One look at every table: the moves made now."""
        made = 0
        for table_id in list(self.table_ids()):
            try:
                now = self.clock()
                known = self._next.get(table_id)
                if known is not None and known[0] == self.store.version(table_id) and (known[1] is None or now < known[1]):
                    continue
                made += len(timer.run_timer(self.store, table_id, now))
                table = self.store.load(table_id)
            except KeyError:
                continue
            self._next[table_id] = (table.version, min(timer.deadlines(table).values(), default=None))
        self.made += made
        return made

    def start(self) -> None:
        """Keep the timers from the kernel's event loop (outside a kernel, nothing runs by itself)."""
        if self.task is not None or not in_kernel():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.task = loop.create_task(self._run())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            if not self.wanted():
                continue
            try:
                await asyncio.to_thread(self.tick)
            except asyncio.CancelledError:
                raise
            except Exception:  # a failed look is tried again at the next tick; the page goes on
                await asyncio.sleep(TICK_SECONDS)


class PaceChoices(widgets.HBox):
    """A new class's length and timer (the front page's "Start a class"): the length box says the
    chosen game's steps (years, rounds, chapters)."""

    def __init__(self) -> None:
        self.length = widgets.Text(value="", placeholder=_("the game's own"), description=_("Length"), layout=widgets.Layout(width="230px")).add_class("pb-class-length")
        self.unit = widgets.HTML().add_class("pb-class-length-unit")
        self.seconds = seconds_box("pb-class-timer")
        self.by = at_zero_box("pb-class-at-zero")
        super().__init__((self.length, self.unit, self.seconds, self.by), layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 12px"))
        self.add_class("pb-class-pace")

    def show_game(self, slug: str) -> None:
        measure = card(slug).length
        self.length.layout.display = self.unit.layout.display = "" if measure is not None else "none"
        self.unit.value = _("{units} (or {end}: the text's own end)", units=esc(render(measure.units)), end="<i>end</i>") if measure is not None else ""
        if measure is None:
            self.length.value = ""

    def variants(self, slug: str) -> dict[str, Any]:
        """The length as the game's setup variant; PaceError with a readable reason."""
        return pace.length_variants(slug, self.length.value)

    def timer(self) -> dict[str, Any]:
        return pace.Pace(int(self.seconds.value), self.by.value).to_json()


class PacePanel(widgets.VBox):
    """The monitor's pace (class pb-pace): the timer per decision, Pause / Resume the whole class,
    "next round / year for every table", and each student's extra time. Each press calls the
    page's `submit` (a class change through its write path) or `move_on`."""

    def __init__(self, submit: Callable[[Any], bool], move_on: Callable[[], None]) -> None:
        self._submit = submit
        self._move_on = move_on
        self.summary = widgets.HTML().add_class("pb-pace-summary")
        self.seconds = seconds_box("pb-pace-seconds")
        self.by = at_zero_box("pb-pace-by")
        self.set_button = widgets.Button(description=_("Set the timer")).add_class("pb-pace-set")
        self.set_button.on_click(lambda _event: self.set_timer())
        self.pause_button = widgets.Button(description=_("Pause the class"), icon="pause").add_class("pb-pace-pause")
        self.pause_button.on_click(lambda _event: self.toggle_pause())
        self.next_button = widgets.Button(description=_("Next round for every table"), icon="forward", layout=widgets.Layout(width="auto")).add_class("pb-pace-next")
        self.next_button.on_click(lambda _event: self._move_on())
        #: Pause / Resume and "next round for every table": the monitor puts them in its first
        #: row, beside its phase buttons (`ClassPage.pace_box`).
        self.buttons = (self.pause_button, self.next_button)
        self._paused = False
        self._timer_seen: tuple[int, str] | None = None
        row = widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 12px")
        super().__init__((widgets.HTML(f"<h3>{esc(_('Pace'))}</h3>"), self.summary, widgets.HBox((self.seconds, self.by, self.set_button), layout=row)))
        self.add_class("pb-pace")

    def show(self, record: Any) -> None:
        """Draw from the class record (`playbook.classes.ClassRecord`)."""
        settings = record.pace
        self._paused = settings.get("paused_at") is not None
        seconds, by = int(settings.get("seconds") or 0), str(settings.get("by") or pace.BY_DEFAULT)
        measure = card(record.game).length
        length = pace.length_of(record.game, record.variants)
        if not seconds:
            said = [esc(_("No timer"))]
        elif by == pace.BY_BOT:
            said = [esc(_("{n} s per decision, then the fill bot moves", n=seconds))]
        else:
            said = [esc(_("{n} s per decision, then the game's default move", n=seconds))]
        if length:
            said.append(esc(_("length: {length}", length=length)))
        if self._paused:
            said.insert(0, f"<b>{esc(render(PAUSED))}</b>")
        # The parts are escaped already; the message carries no markup of its own.
        self.summary.value = _("{said}. The timer needs this page or the class board open.", said=" · ".join(said))
        self.pause_button.description = _("Resume the class") if self._paused else _("Pause the class")
        self.pause_button.icon = "play" if self._paused else "pause"
        self.next_button.description = _("Next {unit} for every table", unit=render(measure.unit) if measure else _("step"))
        if self._timer_seen != (seconds, by):  # the class's timer changed: the boxes show it (a number half typed stays)
            self._timer_seen = (seconds, by)
            self.seconds.value, self.by.value = seconds, by

    def extra_time(self, record: Any, student: Any) -> tuple[widgets.Widget, ...]:
        """A student's extra time (an accommodation: x1.5 or x2 of the timer), for their row on
        the monitor while the class plays (`ClassPage.row_extras`)."""
        if record.phase != "playing":
            return ()
        factor = float(dict(record.pace.get("extra") or {}).get(student.id, 1.0))
        choice = widgets.Dropdown(
            options=[(_("time x{factor}", factor="1"), 1.0), (_("time x{factor}", factor="1.5"), 1.5), (_("time x{factor}", factor="2"), 2.0)],
            value=factor,
            tooltip=_("Extra time for this student's decisions"),
            layout=widgets.Layout(width="110px"),
        ).add_class(f"pb-extra-{student.id}")
        choice.observe(lambda change, sid=student.id: self.set_extra(sid, change["new"]) if change["new"] != change["old"] else None, "value")
        return (choice,)

    def set_timer(self) -> bool:
        from playbook.class_pace import SetPace

        return self._submit(SetPace(int(self.seconds.value), self.by.value))

    def toggle_pause(self) -> bool:
        from playbook.class_pace import PauseClass

        return self._submit(PauseClass(not self._paused))

    def set_extra(self, student_id: str, factor: float) -> bool:
        from playbook.class_pace import SetExtra

        return self._submit(SetExtra(student_id, factor))


class TablePaceBar(widgets.HBox):
    """A table's own timer on its facilitator's page (class pb-table-pace): seconds per decision
    (0: none), who moves at zero, and Pause / Resume. Each press is one `SetMeta` through the
    page's `submit` (the store's write path, with the version the page shows)."""

    def __init__(self, submit: Callable[[Any], Any]) -> None:
        from playbook.store import SetMeta

        self._submit = submit
        self._set_meta = SetMeta
        self._meta: dict[str, Any] = {}
        self._seen: tuple[int, str] | None = None
        self.seconds = seconds_box("pb-table-timer")
        self.by = at_zero_box("pb-table-at-zero")
        self.set_button = widgets.Button(description=_("Set the timer")).add_class("pb-table-timer-set")
        self.set_button.on_click(lambda _event: self.set_timer())
        # TRANSLATORS: a button: pause the table's timer
        self.pause_button = widgets.Button(description=_("Pause"), icon="pause").add_class("pb-table-pause")
        self.pause_button.on_click(lambda _event: self.toggle_pause())
        self.note = widgets.HTML(f'<span class="pb-muted">{esc(_("The timer runs while this page or the board is open."))}</span>')
        super().__init__((self.seconds, self.by, self.set_button, self.pause_button, self.note), layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 12px"))
        self.add_class("pb-table-pace")

    def show(self, meta: dict[str, Any]) -> None:
        self._meta = meta
        settings = pace.pace_of(meta)
        if self._seen != (settings.seconds, settings.by):
            self._seen = (settings.seconds, settings.by)
            self.seconds.value, self.by.value = settings.seconds, settings.by
        # TRANSLATORS: a button: let the timer run again (also: open an unfinished table again)
        self.pause_button.description = _("Resume") if settings.paused_at is not None else _("Pause")
        self.pause_button.icon = "play" if settings.paused_at is not None else "pause"

    def set_timer(self) -> Any:
        """The table's timer as the boxes say (its extra time per seat and its pause kept)."""
        try:
            settings = dataclasses.replace(pace.pace_of(self._meta), seconds=int(self.seconds.value), by=self.by.value)
        except pace.PaceError as exc:
            self._submit(None, exc.message)
            return None
        return self._submit(self._set_meta({pace.PACE: settings.to_json()}))

    def toggle_pause(self) -> Any:
        values = pace.pause_meta(self._meta, not pace.paused(self._meta), time.time())
        return self._submit(self._set_meta(values)) if values else None
