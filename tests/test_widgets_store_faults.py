"""Pages when the server cannot save, headless: a seat's phone says to tell the teacher, the
facilitator's page and the class monitor say what to do; nothing changes, and the next press
after the fault is mended goes through. The faults are real (`tests/support/faults.py`)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from playbook import store_faults
from playbook.store import Store
from tests.support.classes import joined, new_device, open_as
from tests.support.faults import fill, read_only, small_disk
from tests.support.headless import one, seat_query
from tests.support.leerdam_page import pledge, start
from tests.support.stores import run_alone, store_location
from tests.support.tcp_proxy import Proxy
from widgets.leerdam import LeerdamDashboard

SEAT_FULL = "The server cannot save right now (its disk is full): nothing was saved; tell your teacher."


@pytest.fixture(autouse=True)
def _afresh() -> Iterator[None]:
    store_faults.forget()
    yield
    store_faults.forget()


def test_a_leerdam_seat_pledging_on_a_full_disk_is_told_plainly_and_pledges_once_space_is_freed(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        store = Store(disk / "tables.sqlite3")
        try:
            host = LeerdamDashboard(store, query="")
            start(host, bots={2: "fair", 3: "altruist", 4: "free-rider"})
            ana = LeerdamDashboard(store, query=seat_query(host, 0))
            assert ana.role == "seat", ana.status.message
            version, actions = store.version(host.table_id), list(ana.game.actions)
            filler = fill(disk)
            one(ana, "pb-pledge").value = 3
            one(ana, "pb-pledge-confirm").click()
            assert ana.status.kind == "refuse" and ana.status.message == SEAT_FULL
            assert store.version(host.table_id) == version and ana.game.actions == actions
            assert one(ana, "pb-pledge").value == 3  # still asking, with what was typed
            # The facilitator's page, pledging for a seat at the shared screen, says what to do.
            pledge(host, 1, 2, hide=False)
            assert host.status.kind == "refuse"
            assert host.status.message == "The server's disk is full: free some space on the laptop (or the server), then press again. Nothing was lost."
            assert store.version(host.table_id) == version
            filler.unlink()
            one(ana, "pb-pledge-confirm").click()
            assert ana.status.kind != "refuse", ana.status.message
            assert store.version(host.table_id) == version + 1
            pledged = [a for a in store.load(host.table_id).game.actions if a.kind == "contribute" and a.seat in (0, 1)]
            assert [(a.seat, a.units) for a in pledged] == [(0, 3)]  # Ana's once; Bo's refused one never
        finally:
            store.close()


def test_a_class_on_a_read_only_store_tells_the_monitor_what_to_do_and_a_phone_to_tell_the_teacher(tmp_path: Path) -> None:
    folder = tmp_path / "store"
    store = Store(folder / "tables.sqlite3")
    try:
        _phones, facilitator = joined(store, "new-rule", ["Ana", "Bo", "Cy", "Dee"])
        record = facilitator.record
        late = open_as(store, f"?code={record.code}", new_device())
        store.close()  # its connections open again read-only
        with read_only([folder / "tables.sqlite3"]):
            one(facilitator, "pb-deal").click()
            assert facilitator.status.kind == "refuse"
            assert facilitator.status.message.startswith("The server cannot write its saved tables") and facilitator.status.message.endswith("Nothing was lost.")
            assert not late.join("Eve")
            assert late.status.message == "The server cannot save right now (its saved tables are read-only): nothing was saved; tell your teacher."
            assert late.role == "join"
        facilitator.refresh()
        assert facilitator.record == record  # nothing changed
        assert late.join("Eve"), late.status.message
        facilitator.refresh()
        one(facilitator, "pb-deal").click()
        assert facilitator.status.kind != "refuse", facilitator.status.message
        assert facilitator.record.phase != "lobby" and len(facilitator.record.students) == 5
    finally:
        store.close()


def test_a_seat_page_following_a_postgresql_that_goes_down_says_so_and_clears_it_once_back(tmp_path: Path) -> None:
    with store_location("postgresql", tmp_path) as url:
        proxy = Proxy(url)
        store = Store(proxy.url)
        try:
            host = LeerdamDashboard(store, query="")
            start(host, bots={2: "fair", 3: "altruist", 4: "free-rider"})
            ana = LeerdamDashboard(store, query=seat_query(host, 0))
            gone = "The server cannot reach its database right now: nothing was saved; tell your teacher, then press again in a moment."
            seen: dict[str, str] = {}

            async def follow() -> None:
                ana.live.last_beat = time.monotonic()  # the page is there
                task = asyncio.create_task(ana.live.follow())
                await asyncio.sleep(0.3)
                proxy.down()
                for _ in range(40):
                    await asyncio.sleep(0.1)
                    if ana.status.message == gone:
                        break
                seen["down"] = ana.status.message
                proxy.up()
                await asyncio.sleep(2.5)  # the page looks again, and waits for a change
                pledge(host, 1, 1)  # the facilitator's page, at the shared screen: the seat's page redraws
                assert host.status.kind != "refuse", host.status.message
                for _ in range(80):
                    await asyncio.sleep(0.1)
                    if ana.status.message != gone:
                        break
                seen["up"] = ana.status.message
                ana.live.stop()  # the thread waiting on the store returns
                task.cancel()

            run_alone(follow)
            assert seen == {"down": gone, "up": ""}
            one(ana, "pb-pledge").value = 2
            one(ana, "pb-pledge-confirm").click()
            assert ana.status.kind != "refuse", ana.status.message
            assert [(a.seat, a.units) for a in store.load(host.table_id).game.actions if a.kind == "contribute" and a.seat == 0] == [(0, 2)]
        finally:
            ana.close()
            proxy.close()
            store.close()


def test_a_page_opened_while_postgresql_is_down_says_so_and_opens_by_itself_once_it_is_back(tmp_path: Path) -> None:
    from widgets.live import open_page

    with store_location("postgresql", tmp_path) as url:
        proxy = Proxy(url)
        try:
            proxy.down()
            shown: dict[str, object] = {}

            async def opening() -> None:
                page = open_page(lambda: LeerdamDashboard(Store(proxy.url), query=""), every=0.2, retry=True)
                shown["down"] = page.children[0].value
                await asyncio.sleep(0.6)
                shown["still"] = "playbook-cannot-open" in page._dom_classes
                proxy.up()
                for _ in range(100):
                    await asyncio.sleep(0.1)
                    if isinstance(page.children[0], LeerdamDashboard):
                        break
                shown["page"] = page.children[0]
                shown["classes"] = page._dom_classes

            run_alone(opening)
            assert "This page cannot open yet: the server cannot reach its database." in str(shown["down"])
            assert "tell your teacher" in str(shown["down"]) and "Traceback" not in str(shown["down"])
            assert shown["still"] is True
            assert isinstance(shown["page"], LeerdamDashboard) and "playbook-cannot-open" not in shown["classes"]
            shown["page"].live.stop()
            shown["page"].store.close()
        finally:
            proxy.close()
