"""A widget's layout and style are sent to the browser only once the page uses them.

ipywidgets makes every widget a `Layout` and most a style (`HTMLStyle`, `ButtonStyle`), each a
widget of its own with a message of its own, whether or not anything is ever set on them. On a
seat page that is 94 of 195 widgets, all empty: half the messages a phone waits for after the
deal, and half of what the server relays for thirty phones at once.

`send_parts_once_used()` changes that for every widget of the process: a widget opens without
its layout or style while they are still the untouched default, and the browser draws it exactly
as with an empty one (both views skip a missing part). The first time Python code reads the part
(`button.layout.display = "none"`, `html.style`), the default is made as before, opens, and the
widget tells the browser it has one. Nothing else changes: a part passed in, or read, is sent
as ipywidgets sends it.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

__all__ = ["LAZY_PARTS", "send_parts_once_used"]

#: the traits of a widget that hold a part widget made on first use.
LAZY_PARTS = ("layout", "style")

_installed: list[bool] = []


def _unmade(widget: widgets.Widget) -> list[str]:
    """The lazy parts of `widget` it has and has not made yet."""
    values = widget._trait_values
    return [name for name in LAZY_PARTS if name not in values and name in widget.keys]


def send_parts_once_used() -> None:
    """Install the change on `ipywidgets.Widget` (once per process)."""
    if _installed:
        return
    _installed.append(True)
    full_state = widgets.Widget.get_state
    notify = widgets.Widget._notify_observers

    def get_state(self: widgets.Widget, key: Any = None, drop_defaults: bool = False) -> dict[str, Any]:
        if key is None:  # the whole state: at opening, or a page asking for every model
            unmade = _unmade(self)
            if unmade:
                key = [name for name in self.keys if name not in unmade]
        return full_state(self, key, drop_defaults)

    def _notify_observers(self: widgets.Widget, event: Any) -> None:
        notify(self, event)
        # A default just made on first use: the browser has not heard of it yet.
        if event.type == "default" and event.name in LAZY_PARTS and self.comm is not None and event.name in self.keys:
            self.send_state(event.name)

    widgets.Widget.get_state = get_state  # type: ignore[method-assign]
    widgets.Widget._notify_observers = _notify_observers  # type: ignore[method-assign]
