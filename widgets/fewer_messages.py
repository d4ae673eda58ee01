"""Fewer messages from a page's kernel to its browser, the same page drawn.

Every widget is a message when it opens and another each time a trait changes. ipywidgets opens
a widget the moment it is made, then sends each class added and each value set as one more
message, and makes every widget a `Layout` and most a style (`HTMLStyle`, `ButtonStyle`), each a
widget of its own, whether or not anything is ever set on them. A Leerdam seat page built after
the deal was 195 widgets and 99 updates: thirty phones at once are 8,800 messages through one
Voila thread, and each phone redraws at every one.

`send_fewer_messages()` changes two things for every widget of the process:

- **Parts once used.** A widget opens without its layout or style while they are still the
  untouched default, and the browser draws it exactly as with an empty one (both views skip a
  missing part). The first time Python code reads the part (`button.layout.display = "none"`),
  the default is made as before and the widget tells the browser it has one.
- **Opened once, when the kernel's turn ends.** In a kernel's running event loop (answering a
  click, a page following its table), a widget made opens when the loop's current turn is over,
  with the state it has by then: one message instead of one and an update per change. Anything
  that needs its id sooner opens it at once: a box it is put in, a display, its own id asked for.
  Children therefore always reach the browser before the boxes that hold them. Outside a kernel's
  loop (a script, a headless test, even one beside Playwright's running loop) widgets open at
  once, as ipywidgets does.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
from typing import Any

import ipywidgets as widgets

from .lost_presses import closing

__all__ = ["LAZY_PARTS", "send_fewer_messages"]

#: the traits of a widget that hold a part widget made on first use.
LAZY_PARTS = ("layout", "style")

_installed: list[bool] = []


class _Turn(threading.local):
    """A thread's widgets made in this turn of its event loop, not opened yet (in the order they
    were made), and the loop whose next turn opens them."""

    def __init__(self) -> None:
        self.waiting: dict[int, widgets.Widget] = {}
        self.loop: asyncio.AbstractEventLoop | None = None


_turn = _Turn()


def _in_a_kernel() -> bool:
    """True in an IPython kernel (a Voila page's), whose loop's turns are a page's answers."""
    kernel = sys.modules.get("ipykernel.kernelbase")
    return kernel is not None and kernel.Kernel.initialized()


def _unmade(widget: widgets.Widget) -> list[str]:
    """The lazy parts of `widget` it has and has not made yet."""
    values = widget._trait_values
    return [name for name in LAZY_PARTS if name not in values and name in widget.keys]


def _open_waiting() -> None:
    """Open every widget still waiting (a box opens the children it holds first)."""
    _turn.loop = None
    waiting = _turn.waiting
    while waiting:
        widget = next(iter(waiting.values()))
        try:  # asking for the id takes it off its waiting list and opens it (and what it holds)
            widget.model_id  # noqa: B018
        except Exception:  # one widget that cannot say its state must not keep the others back
            logging.getLogger(__name__).exception("a widget could not be opened")
        finally:  # whatever happened, this loop ends: a widget is asked once
            waiting.pop(id(widget), None)


def send_fewer_messages() -> None:
    """Install both changes on `ipywidgets.Widget` (once per process)."""
    if _installed:
        return
    _installed.append(True)
    widget = widgets.Widget
    full_state, notify, open_now, close = widget.get_state, widget._notify_observers, widget.open, widget.close
    repr_bundle, view_spec, model_id, repr_keys = widget._repr_mimebundle_, widget.get_view_spec, widget.model_id, widget._repr_keys
    finalizing = sys.is_finalizing  # held here: at the end, this module's globals are gone too

    def get_state(self: widgets.Widget, key: Any = None, drop_defaults: bool = False) -> dict[str, Any]:
        if key is None:  # the whole state: at opening, or a page asking for every model
            unmade = _unmade(self)
            if unmade:
                key = [name for name in self.keys if name not in unmade]
        return full_state(self, key, drop_defaults)

    def _repr_keys(self: widgets.Widget) -> Any:
        unmade = _unmade(self)  # a repr() reads every trait: it must not make (and send) a part
        if not unmade:
            return repr_keys(self)
        keys = self._trait_values["keys"]
        self._trait_values["keys"] = [key for key in keys if key not in unmade]  # not a change: nothing sent
        try:
            return list(repr_keys(self))
        finally:
            self._trait_values["keys"] = keys

    def _notify_observers(self: widgets.Widget, event: Any) -> None:
        notify(self, event)
        # A default just made on first use: the browser has not heard of it yet.
        if event.type == "default" and event.name in LAZY_PARTS and self.comm is not None and event.name in self.keys:
            self.send_state(event.name)

    def open(self: widgets.Widget) -> None:
        if self.comm is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop: open now, as ipywidgets does
            loop = None
        if loop is None or not _in_a_kernel():
            open_now(self)
            return
        if _turn.loop is not loop:
            _turn.loop = loop
            loop.call_soon(_open_waiting)
        _turn.waiting[id(self)] = self
        self._waits = _turn.waiting  # its own thread's list, wherever its id is asked from

    def opened_id(self: widgets.Widget) -> str:
        waits = self._waits
        if waits is not None:  # only a widget waiting for its turn opens here (not one closed since)
            self._waits = None
            waits.pop(id(self), None)
            open_now(self)
        return model_id.fget(self)  # type: ignore[no-any-return]  # ipywidgets' property is untyped

    def close_waiting(self: widgets.Widget) -> None:
        if finalizing():  # Python is ending (ipywidgets' own globals are gone): no page to tell
            return
        waits = self._waits
        if waits is not None:  # closed before it opened: the browser never hears of it
            self._waits = None
            waits.pop(id(self), None)
        closing(self)  # a press on it still on its way is said, not lost (`widgets.lost_presses`)
        close(self)

    def _repr_mimebundle_(self: widgets.Widget, **kwargs: Any) -> Any:
        self.model_id  # noqa: B018 - displayed: open now
        return repr_bundle(self, **kwargs)

    def get_view_spec(self: widgets.Widget) -> Any:
        self.model_id  # noqa: B018
        return view_spec(self)

    widget._waits = None  # a class default; a widget waiting for its turn holds the list it waits in
    widget.get_state = get_state  # type: ignore[method-assign]  # patching ipywidgets' Widget for every page
    widget._notify_observers = _notify_observers  # type: ignore[method-assign]  # patching ipywidgets' Widget for every page
    widget.open = open  # type: ignore[method-assign]  # patching ipywidgets' Widget for every page
    widget.model_id = property(opened_id, doc=model_id.__doc__)  # type: ignore[assignment]  # patching ipywidgets' Widget for every page
    widget.close = close_waiting  # type: ignore[method-assign]  # patching ipywidgets' Widget for every page
    widget._repr_keys = _repr_keys  # type: ignore[method-assign]  # patching ipywidgets' Widget for every page
    widget._repr_mimebundle_ = _repr_mimebundle_  # type: ignore[method-assign]  # patching ipywidgets' Widget for every page
    widget.get_view_spec = get_view_spec  # type: ignore[method-assign]  # patching ipywidgets' Widget for every page
