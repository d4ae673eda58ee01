"""A live page: the heartbeat its browser presses, and the loop that follows what it shows.

Both a table's page (`widgets.table`) and a class's page (`widgets.classroom`) hold one
`LiveFollow`. The page's own script (the `playbook` template) presses the hidden heartbeat
button (class ``pb-heartbeat``) every few seconds and the kernel answers it (``pb-alive``); a
page whose kernel died sees no answer, says so and reloads. An asyncio task in the kernel waits
on the store for a change and redraws: a kernel whose page is gone hears no heartbeat, stops
looking and goes idle, so Voila culls it.

Outside a kernel (the tests, a script) nothing runs by itself: the page's `refresh` is called
by hand.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable

import ipywidgets as widgets

from drawing.common import esc
from i18n import _, render
from playbook.store_faults import StoreFault
from rules.text import Said

from .common import StatusLine

__all__ = ["QUIET_SECONDS", "REOPEN_SECONDS", "WAIT_SECONDS", "LiveFollow", "in_kernel", "open_page", "wait_in_slices"]

#: Seconds one wait on the store's change signal lasts before it starts again.
WAIT_SECONDS = 10.0
#: The wait's thread looks this often whether the page was closed (`LiveFollow.stop` ends it so).
WAIT_SLICE_SECONDS = 0.5
#: A page that has not pressed its heartbeat for this long is gone: stop following.
QUIET_SECONDS = 30.0
#: After a change, wait this long for the next one before redrawing (at most SETTLE_MAX).
SETTLE_SECONDS = 0.12
SETTLE_MAX_SECONDS = 0.5
#: A page that could not open (the store did not answer) tries again this often.
REOPEN_SECONDS = 5.0


def in_kernel() -> bool:
    """True inside a running IPython kernel (a Voila page), where an asyncio task can run."""
    try:
        from ipykernel.kernelbase import Kernel
    except ImportError:
        return False
    return bool(Kernel.initialized())


def open_page(make: Callable[[], widgets.Widget], every: float = REOPEN_SECONDS, retry: bool | None = None) -> widgets.Widget:
    """The page `make()` builds (a dashboard, the class page, the index); while the store cannot
    answer (its database gone, its file unreadable), a line that says so in plain words instead,
    and in a kernel (or with `retry`, under a running event loop) the page tries again every
    `every` seconds until it opens in its place."""
    try:
        return make()
    except StoreFault as fault:
        first = fault
    line = widgets.HTML(_cannot_open(first))
    holder = widgets.VBox([line])
    holder.add_class("playbook-cannot-open")
    if in_kernel() if retry is None else retry:

        async def again() -> None:
            while True:
                await asyncio.sleep(every)
                try:
                    page = make()
                except StoreFault as fault:
                    line.value = _cannot_open(fault)
                    continue
                holder.children = (page,)
                holder.remove_class("playbook-cannot-open")
                return

        holder._reopening = asyncio.ensure_future(again())  # kept: the loop holds only a weak reference
    return holder


def _cannot_open(fault: StoreFault) -> str:
    cause = {
        "database-gone": _("the server cannot reach its database"),
        "read-only": _("the server cannot open its saved tables for writing"),
        "disk-full": _("the server's disk is full"),
    }[fault.reason]
    return (
        '<div role="status" class="pb-cannot-open">'
        f"<strong>{esc(_('This page cannot open yet: {cause}.', cause=cause))}</strong> "
        + esc(_("Nothing saved is lost. It tries again by itself every few seconds; if it keeps saying so, tell your teacher."))
        + "</div>"
    )


def wait_in_slices(wait: Callable[[float], int], seen: int, closed: threading.Event) -> int:
    """`wait(timeout)` (a store's wait for a version other than `seen`) for up to WAIT_SECONDS,
    in slices, returning early once `closed` is set."""
    deadline, version = time.monotonic() + WAIT_SECONDS, seen
    while version == seen and not closed.is_set() and (left := deadline - time.monotonic()) > 0:
        version = wait(min(left, WAIT_SLICE_SECONDS))
    return version


async def settled(wait: Callable[[int, float], int], version: int) -> int:
    """The version once a burst of changes settles: `wait(version, timeout)` until a quiet
    SETTLE_SECONDS, or SETTLE_MAX_SECONDS in all. A class pledging at once is drawn once, not
    once per pledge: every redraw is work for the server and for every open page."""
    first = time.monotonic()
    while time.monotonic() - first < SETTLE_MAX_SECONDS:
        later = await asyncio.to_thread(wait, version, SETTLE_SECONDS)
        if later == version:
            break
        version = later
    return version


class LiveFollow:
    """One page's heartbeat and its loop of looks at the store.

    `look(closed)` waits for one change and redraws (`closed` is set once the page stops
    following); `following()` says whether there is anything to follow; `trouble` says what a
    failed look was trying to do, on the page's `status` line; `on_beat` runs at each heartbeat;
    `fault` says what the page says when the server cannot read its store (`StoreFault`: a
    database gone), by default a seat's words.
    """

    def __init__(
        self,
        status: StatusLine,
        look: Callable[[threading.Event], Awaitable[None]],
        following: Callable[[], bool],
        trouble: str | Said,
        on_beat: Callable[[], None] | None = None,
        fault: Callable[[StoreFault], str] | None = None,
    ) -> None:
        self._status = status
        self._fault = fault or (lambda exc: exc.message)
        self._look = look
        self._following = following
        self._trouble = trouble
        self._on_beat = on_beat
        #: the hidden button the page's script presses, and the answer it watches.
        self.heartbeat = widgets.Button(description="beat", layout=widgets.Layout(display="none")).add_class("pb-heartbeat")
        self.heartbeat.on_click(lambda _event: self.beat())
        self.alive = widgets.HTML('<span data-beat="0"></span>', layout=widgets.Layout(display="none")).add_class("pb-alive")
        self.last_beat = time.monotonic()
        self.beats = 0
        #: the task following the store (None outside a kernel, or once stopped).
        self.task: asyncio.Task[None] | None = None
        #: set when following stops: a thread waiting on the store returns.
        self.closed = threading.Event()

    def beat(self) -> None:
        """The page's script pressed the heartbeat: it is there. Answer, so it knows we are."""
        self.last_beat = time.monotonic()
        self.beats += 1
        self.alive.value = f'<span data-beat="{self.beats}"></span>'
        if self._on_beat is not None:
            self._on_beat()

    def gone(self) -> bool:
        """No heartbeat for QUIET_SECONDS: the page is gone."""
        return time.monotonic() - self.last_beat > QUIET_SECONDS

    def start(self) -> None:
        """Follow from the kernel's event loop, unless already following; outside a kernel (or
        between cells, with no loop running) do nothing."""
        if self.task is not None or not in_kernel():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # nothing could run the task
        self.task = loop.create_task(self.follow())

    def stop(self) -> None:
        """Stop following: the task is cancelled and a thread waiting on the store wakes."""
        self.closed.set()
        self.closed = threading.Event()
        if self.task is not None:
            self.task.cancel()
            self.task = None

    async def follow(self) -> None:
        closed = self.closed
        said = ""  # the fault the status line shows, until a look goes through again
        while self._following():
            if self.gone():
                # Stay quiet, so the kernel goes idle and is culled.
                await asyncio.sleep(1.0)
                continue
            try:
                await self._look(closed)
            except asyncio.CancelledError:
                raise
            except StoreFault as exc:  # the database gone (said once on the terminal): look again soon
                said = self._fault(exc)
                self._status.refuse(said)
                await asyncio.sleep(2.0)
            except Exception as exc:
                self._status.refuse(_("Could not {what} ({error}: {detail}).", what=render(self._trouble), error=type(exc).__name__, detail=str(exc)))
                await asyncio.sleep(2.0)
            else:
                if said and self._status.message == said:  # the database is back: the line says so no more
                    self._status.clear()
                said = ""
