"""A class's pages headless, each opened by its link as a device would: a student who joins by
the room code, the class board and the facilitator's monitor."""

from __future__ import annotations

from playbook import classes as cl
from playbook.store import Store
from widgets.classroom import ClassPage

__all__ = ["class_page", "monitor", "student"]


def student(store: Store, code: str, name: str) -> ClassPage:
    """A phone that opened the room code and joined as `name`."""
    page = ClassPage(store, query=f"?code={code}")
    assert page.role == "join", page.status.message
    assert page.join(name), page.status.message
    return page


def class_page(store: Store, record: cl.ClassRecord, which: str) -> ClassPage:
    """The class's board or monitor page, by its link."""
    return ClassPage(store, query="?" + cl.class_links("", record)[which].split("?", 1)[1])


def monitor(store: Store, record: cl.ClassRecord) -> ClassPage:
    return class_page(store, record, "monitor")
