"""A class's pages headless, each opened by its link as a device would: a student who joins by
the room code, the class board and the facilitator's monitor.

A device is the key its browser keeps (the template's return-to-seat.js reports it in the page's
hidden `pb-device` box, and after a join says it kept the student's link: `kept`); `new_device`
makes one, and `student` reports it as the script does."""

from __future__ import annotations

import re
import secrets

from playbook import classes as cl
from playbook.store import Store
from widgets.classroom import ClassPage

__all__ = ["class_page", "joined", "keep", "monitor", "new_device", "open_as", "student"]


def new_device() -> str:
    """A device's own key, as the page's script makes it."""
    return secrets.token_urlsafe(16)


def open_as(store: Store, query: str, device: str) -> ClassPage:
    """A class page opened by `query` on `device`: the page's script reports the device."""
    page = ClassPage(store, query=query)
    page.device_box.value = device
    return page


def keep(page: ClassPage) -> None:
    """What the page's script does once the page asks (`data-keep`): it keeps the student's
    link and says so."""
    asked = re.search(r'data-keep="([^"]+)"', page.navigator.value)
    assert asked, page.navigator.value
    page.device_box.value = f"{page.device or new_device()} kept:{asked.group(1)}"


def student(store: Store, code: str, name: str, device: str | None = None) -> ClassPage:
    """A phone that opened the room code and joined as `name`; its join kept (the device holds
    its key), as a browser's script makes it."""
    page = open_as(store, f"?code={code}", device or new_device())
    assert page.role == "join", page.status.message
    assert page.join(name), page.status.message
    keep(page)
    assert page.student is not None and page.student.kept, page.status.message
    return page


def class_page(store: Store, record: cl.ClassRecord, which: str) -> ClassPage:
    """The class's board or monitor page, by its link."""
    return ClassPage(store, query="?" + cl.class_links("", record)[which].split("?", 1)[1])


def monitor(store: Store, record: cl.ClassRecord) -> ClassPage:
    return class_page(store, record, "monitor")


def joined(store: Store, game: str, names: list[str], **options: object) -> tuple[list[ClassPage], ClassPage]:
    """A class of `game` that `names` joined, each on a phone of their own (their pages, in
    order of arrival), and its monitor, in the lobby."""
    record = cl.create_class(store, game, max(3, len(names)), **options)  # type: ignore[arg-type]
    phones = [student(store, record.code, name) for name in names]
    return phones, monitor(store, record)
