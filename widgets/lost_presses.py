"""A press that reaches the kernel for a button it has just replaced is said, not lost.

A page redraws a panel by making new widgets and closing the old ones. A press made on an old
button in the moment before the browser hears of the new one (a phone a second behind, another
household's move redrawing the panel) reaches the kernel for a widget that is gone, and
ipykernel drops it with a log line: the player saw their press do nothing, and nothing said
why. The kernel remembers the buttons it closed lately (`closing`, from
`widgets.fewer_messages`); a message for one of them is told to the page that listens
(`listen`): its status line asks for the press again. Heartbeat buttons are left out: the
page's script presses again by itself.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import Any

import ipywidgets as widgets

from i18n import _

__all__ = ["RECENT", "closing", "listen", "said", "tell_lost_presses"]

#: how many closed buttons are remembered (a seat page's redraw closes a few dozen).
RECENT = 512

_closed: OrderedDict[str, str] = OrderedDict()
_listeners: list[weakref.ref[Any]] = []
_installed: list[bool] = []


def closing(widget: widgets.Widget) -> None:
    """Remember `widget`, about to close, if it is a button a player presses."""
    comm = widget.comm
    if comm is None or not isinstance(widget, widgets.Button) or "pb-heartbeat" in widget._dom_classes:
        return
    _closed[comm.comm_id] = widget.description or widget.tooltip or _("a button")  # newest last
    while len(_closed) > RECENT:
        _closed.popitem(last=False)


def listen(page: widgets.Widget) -> None:
    """`page` (with a `status` line) hears of a press on a closed button while it is open. The
    page that listened last is told: a seat page built inside a class page, not the class page."""
    _listeners[:] = [ref for ref in _listeners if ref() is not None]
    _listeners.append(weakref.ref(page))


def said(description: str) -> str:
    return _("Your press on “{button}” came just as the screen changed, so it did nothing: look again, and press it if you still mean it.", button=description)


def _tell(comm_id: str) -> None:
    description = _closed.pop(comm_id, None)  # said once: a second press on it is the same news
    if description is None:
        return
    for ref in reversed(_listeners):
        page = ref()
        if page is not None and page.comm is not None:  # a page still open
            page.status.refuse(said(description))
            return


def tell_lost_presses() -> None:
    """Install the watch on the kernel's comm manager (once per process)."""
    if _installed:
        return
    _installed.append(True)
    import comm.base_comm

    get_comm = comm.base_comm.CommManager.get_comm

    def get_comm_or_tell(self: Any, comm_id: str) -> Any:
        found = get_comm(self, comm_id)
        if found is None:
            _tell(comm_id)
        return found

    comm.base_comm.CommManager.get_comm = get_comm_or_tell  # type: ignore[method-assign]  # patching ipykernel's comm manager for every page
