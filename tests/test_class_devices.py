"""A student's device is their place in a class, without a browser: every way back to the seat
from the same device, a join that is final only once the device kept its key, another device
approved by the facilitator, and release, rename and remove at every phase.

The same in Chromium, with the page's own script: test_browser_class_devices.py.
"""

from __future__ import annotations

import html
import re

import pytest

from playbook import classes as cl
from playbook.store import Store
from rules.games import card
from tests.support.classes import keep, monitor, new_device, open_as, student
from tests.support.headless import find, one, synced_text
from widgets.classroom import ClassPage

pytestmark = pytest.mark.timeout(240)


def _playing(store: Store, game: str = "new-rule", names: tuple[str, ...] = ("Ana", "Bo", "Cy"), roster: tuple[str, ...] = ()) -> tuple[cl.ClassRecord, list[ClassPage], list[str], ClassPage]:
    """A class whose students joined (each on a device of their own) and whose tables started."""
    record = cl.create_class(store, game, max(3, len(names)), seed=4, roster=roster)
    devices = [new_device() for _ in names]
    phones = [student(store, record.code, name, device) for name, device in zip(names, devices)]
    facilitator = monitor(store, record)
    assert facilitator.deal() and facilitator.start(), facilitator.status.message
    for phone in phones:
        phone.refresh()
    return facilitator.record, phones, devices, facilitator


def _seat_link(page: ClassPage) -> str:
    """The seat's own link, as the address bar holds it once the seat page is drawn."""
    assert page.seat_page is not None
    found = re.search(r'data-href="[^"?]*(\?[^"]+)"', html.unescape(page.seat_page.navigator.value))
    assert found, page.seat_page.navigator.value
    return found.group(1)


# -- back on the seat from the same device -------------------------------------------------------------


def test_every_way_back_brings_the_same_device_to_its_seat(store) -> None:
    record, phones, devices, _ = _playing(store)
    ana = phones[0].student
    seat = phones[0].seat_page
    assert ana is not None and seat is not None
    seat.heartbeat.click()  # the seat page is drawn: its seat is confirmed (the old code then refused every other way back)
    link = _seat_link(phones[0])
    key = store.load(seat.table_id).meta["seat_keys"][str(seat.seat)]
    ways = {
        "the join address from the history": f"?code={record.code}",
        "the student's own class link": f"?code={record.code}&student={ana.id}&key={ana.key}",
        "an old class link of this device's": f"?code={record.code}&student={ana.id}&key=old{ana.key}",
    }
    for way, query in ways.items():
        page = open_as(store, query, devices[0])
        assert page.role == "student" and page.student.id == ana.id, (way, page.status.message)
        assert page.seat_page is not None and page.seat_page.role == "seat" and page.seat_page.seat == seat.seat, (way, page.status.message)
        # and its address becomes the seat's own link again (a reload of the class page before
        # the link got there stayed on the class's address)
        assert _seat_link(page) == link and f"{card(record.game).notebook}?" in page.seat_page.navigator.value, way
    # The code typed again at the short address (/j), on the same device.
    typed = open_as(store, "", devices[0])
    assert typed.role == "code"
    one(typed, "pb-code-box").value = record.code.lower()
    one(typed, "pb-code-go").click()
    assert typed.role == "student" and typed.seat_page is not None and typed.seat_page.seat == seat.seat, typed.status.message
    # The name pressed (typed) again before the device was heard: the join is refused as the
    # device's own, and the page goes back to its place.
    again = ClassPage(store, query=f"?code={record.code}")
    again.device = devices[0]
    assert again.join("ana") and again.student.id == ana.id and again.seat_page is not None, again.status.message
    # The seat's own link, from the history: it still opens, its key unchanged by every way back.
    dashboard = card(record.game).module("dashboard").DASHBOARD
    assert dashboard(store, query=link).role == "seat"
    assert store.load(seat.table_id).meta["seat_keys"][str(seat.seat)] == key
    # Another device is none of these: the join address is a join page, the name is taken.
    stranger = open_as(store, f"?code={record.code}", new_device())
    assert stranger.role == "join" and not stranger.join("Ana") and "has joined already" in stranger.status.message
    assert find(stranger, "pb-ask-seat") and ana.key not in synced_text(stranger)


def test_a_roster_name_pressed_again_on_its_own_device_is_its_place(store) -> None:
    record = cl.create_class(store, "leerdam", 5, roster=("Ana", "Bo", "Cy", "Dee", "Eve"))
    device = new_device()
    page = open_as(store, f"?code={record.code}", device)
    one(page, "pb-roster-0").click()
    keep(page)
    assert page.student.kept and "You are in" in page.student_card.value
    # The same device opens the join address: every name is on the list, its own brings it back.
    again = ClassPage(store, query=f"?code={record.code}")
    assert again.role == "join" and find(again, "pb-roster-0")
    again.device = device
    one(again, "pb-roster-0").click()
    assert again.role == "student" and again.student.id == page.student.id, again.status.message
    # Heard before any press, the device is back at once.
    at_once = open_as(store, f"?code={record.code}", device)
    assert at_once.role == "student" and "Welcome back, Ana" in at_once.status.message


# -- a join is final once the device kept its key -------------------------------------------------------


def test_a_join_whose_device_never_kept_its_key_holds_no_name(store, monkeypatch) -> None:
    record = cl.create_class(store, "new-rule", 4, seed=3)
    lost = open_as(store, f"?code={record.code}", new_device())
    assert lost.join("Dara")
    assert not lost.student.kept and "You are in" not in synced_text(lost) and "Keeping your place" in synced_text(lost)
    assert 'data-keep="' in lost.navigator.value  # the page asks its script to keep it
    # The phone locks now. Within KEEP_SECONDS the name waits for it...
    other = open_as(store, f"?code={record.code}", new_device())
    assert not other.join("Dara") and "has joined already" in other.status.message
    # ...after it, the name is free: another device joins with it, and the deal leaves no ghost.
    later = cl.time.time() + cl.KEEP_SECONDS + 1
    monkeypatch.setattr(cl.time, "time", lambda: later)
    assert other.join("Dara"), other.status.message
    keep(other)
    for name in ("Bo", "Cy"):
        student(store, record.code, name)
    lost_too = open_as(store, f"?code={record.code}", new_device())
    assert lost_too.join("Ghost")
    monkeypatch.setattr(cl.time, "time", lambda: later + cl.KEEP_SECONDS + 1)
    facilitator = monitor(store, record)
    assert facilitator.deal(), facilitator.status.message
    names = [s.name for s in facilitator.record.students]
    assert names == ["Dara", "Bo", "Cy"] and all(s.group is not None for s in facilitator.record.students)
    # The first phone's page no longer holds the name: it says so at its next look.
    lost.refresh()
    assert lost.role == "denied"


def test_keeping_needs_the_students_own_key_and_a_device_key(store) -> None:
    record = cl.create_class(store, "new-rule", 3)
    page = open_as(store, f"?code={record.code}", new_device())
    assert page.join("Ana")
    sid = page.student.id
    with pytest.raises(cl.ClassError, match="no longer holds"):
        cl.submit(store, record.id, cl.Keep(sid, "x" * 22, new_device()), 0)
    with pytest.raises(cl.ClassError, match="key of its own"):
        cl.submit(store, record.id, cl.Keep(sid, page.student.key, "short"), 0)
    assert not cl.load_class(store, record.id).student(sid).kept


def test_a_deal_pressed_as_the_last_devices_keep_their_keys_is_not_stale(store) -> None:
    """The facilitator's page saw 3 names; devices keeping their keys since change nothing it
    decides on, so Deal goes through; a name that joined since makes the press stale."""
    record = cl.create_class(store, "new-rule", 4)
    pages = [open_as(store, f"?code={record.code}", new_device()) for _ in range(3)]
    for page, name in zip(pages, ("Ana", "Bo", "Cy")):
        assert page.join(name)
    seen = cl.load_class(store, record.id).version
    for page in pages[1:]:
        keep(page)
    assert cl.load_class(store, record.id).version == seen + 2
    dealt = cl.submit(store, record.id, cl.Deal(), seen)
    assert dealt.phase == "dealt" and all(s.group is not None for s in dealt.students)
    assert open_as(store, f"?code={record.code}", new_device()).join("Dara")
    with pytest.raises(cl.ClassError) as refused:
        cl.submit(store, record.id, cl.Start(), dealt.version)
    assert refused.value.rule == "stale" and cl.load_class(store, record.id).phase == "dealt"


# -- another device, approved by the facilitator ------------------------------------------------------


def test_another_device_asks_and_one_press_on_the_monitor_moves_the_seat(store) -> None:
    record, phones, _, facilitator = _playing(store)
    old = phones[0]
    old_seat = old.seat_page
    assert old_seat is not None
    old_seat.heartbeat.click()
    old_link = _seat_link(old)
    table_id, seat = old_seat.table_id, old_seat.seat
    phone = open_as(store, f"?code={record.code}", new_device())
    assert not phone.join("Ana") and find(phone, "pb-ask-seat")
    one(phone, "pb-ask-seat").click()
    assert "Asked for Ana" in synced_text(phone), phone.status.message
    facilitator.refresh()
    requests = one(facilitator, "pb-class-requests")
    assert "Ana" in synced_text(requests)
    # At the top of the monitor, below only the class's buttons, before the tables and the students.
    assert facilitator.screen.children[:2] == (one(facilitator, "pb-class-controls"), requests)
    (button,) = [w for w in find(facilitator, "pb-class-requests")[0].children[1].children if "Approve" in getattr(w, "description", "")]
    version = store.version(table_id)
    button.click()
    assert not cl.load_class(store, record.id).requests, facilitator.status.message
    # The seat was released in the approval's own transaction: one table version more.
    assert store.version(table_id) == version + 1 and str(seat) not in store.load(table_id).meta["claims"]
    phone.refresh()
    assert phone.role == "student" and phone.seat_page is not None and phone.seat_page.seat == seat, phone.status.message
    assert str(seat) in store.load(table_id).meta["claims"]
    # The old device: its seat page and its class page open nothing more, its seat link neither.
    old_seat.refresh()
    assert old_seat.role == "denied"
    old.refresh()
    assert old.role == "denied" and "moved to another device" in old.status.message
    dashboard = card(record.game).module("dashboard").DASHBOARD
    assert dashboard(store, query=old_link).role == "denied"
    # The new device comes back by every way too; the old one, by its device, does not.
    assert open_as(store, f"?code={record.code}", phone.device).seat_page is not None
    assert open_as(store, f"?code={record.code}", old.device).role == "join"


def test_a_request_turned_down_changes_nothing_and_the_page_says_so(store) -> None:
    record, phones, _, facilitator = _playing(store)
    phone = open_as(store, f"?code={record.code}", new_device())
    assert phone.ask_seat("Bo"), phone.status.message
    facilitator.refresh()
    request = facilitator.record.requests[0]
    assert facilitator.deny_request(request.id)
    assert facilitator.approve(request.id) is False and "gone" in facilitator.status.message
    phone.refresh()
    assert phone.role == "join" and "did not move" in phone.status.message
    phones[1].refresh()
    assert phones[1].seat_page is not None and phones[1].role == "student"
    # Only the monitor approves.
    again = open_as(store, f"?code={record.code}", new_device())
    assert again.ask_seat("Bo")
    assert phones[2].approve(cl.load_class(store, record.id).requests[0].id) is False
    assert cl.load_class(store, record.id).requests


# -- release, rename and remove at every phase ------------------------------------------------------------


def test_release_after_the_start_frees_the_name_and_the_seat_for_another_device(store) -> None:
    record, phones, _, facilitator = _playing(store)
    bo = phones[1]
    seat, bo_id = bo.seat_page, bo.student.id
    assert seat is not None
    table_id, number = seat.table_id, seat.seat
    facilitator.refresh()
    assert find(facilitator, f"pb-release-student-{bo.student.id}")  # the class page has Release after the start
    version = store.version(table_id)
    one(facilitator, f"pb-release-student-{bo.student.id}").click()
    assert store.version(table_id) == version + 1 and str(seat.seat) not in store.load(table_id).meta["claims"], facilitator.status.message
    bo.refresh()
    seat.refresh()
    assert bo.role == "denied" and "released" in bo.status.message and seat.role == "denied"
    # The name is free: a new device joins with it and sits in the same seat.
    laptop = student(store, record.code, "Bo")
    laptop.refresh()
    assert laptop.student.id == bo_id and laptop.seat_page is not None and laptop.seat_page.seat == number
    assert len(cl.load_class(store, record.id).students) == 3


def test_rename_at_every_phase_and_what_cannot_be_renamed_is_said(store) -> None:
    record = cl.create_class(store, "new-rule", 3, seed=2)
    pages = [student(store, record.code, name) for name in ("Ana", "Bo", "Cy")]
    facilitator = monitor(store, record)
    one(facilitator, f"pb-rename-student-{pages[0].student.id}").click()
    one(facilitator, f"pb-rename-box-{pages[0].student.id}").value = "Anna"
    one(facilitator, f"pb-rename-save-{pages[0].student.id}").click()
    assert cl.load_class(store, record.id).student(pages[0].student.id).name == "Anna", facilitator.status.message
    version = cl.load_class(store, record.id).version
    assert not facilitator.rename_student(pages[1].student.id, "ANNA") and "another student's name" in facilitator.status.message
    assert not facilitator.rename_student(pages[1].student.id, "\u202eBo") and cl.load_class(store, record.id).version == version
    facilitator.deal()
    facilitator.start()
    # After the start the class knows the new name; the game keeps the one it was dealt.
    assert facilitator.rename_student(pages[1].student.id, "Bob"), facilitator.status.message
    assert "keeps the name Bo" in facilitator.status.message
    record = cl.load_class(store, record.id)
    assert record.student(pages[1].student.id).name == "Bob" and "Bo" in store.load(record.tables[0]).game.setup.names
    assert not facilitator.rename_student("nobody", "X") and "no such student" in facilitator.status.message.lower()


def test_remove_in_the_lobby_after_the_deal_and_after_the_start(store) -> None:
    record = cl.create_class(store, "new-rule", 6, seed=2)
    pages = [student(store, record.code, f"S{i}") for i in range(6)]
    facilitator = monitor(store, record)
    # The lobby: two presses, and the student is gone.
    one(facilitator, f"pb-remove-student-{pages[5].student.id}").click()
    assert len(cl.load_class(store, record.id).students) == 6  # the first press only asks
    one(facilitator, f"pb-remove-student-{pages[5].student.id}").click()
    assert [s.name for s in cl.load_class(store, record.id).students] == [f"S{i}" for i in range(5)], facilitator.status.message
    pages[5].refresh()
    assert pages[5].role == "denied" and "took you out" in pages[5].status.message
    # Dealt: out of the table, whose seats close up.
    facilitator.deal()
    assert facilitator.remove_student(pages[4].student.id), facilitator.status.message
    record = cl.load_class(store, record.id)
    assert record.groups == ((*(p.student.id for p in pages[:4]),),) and [s.seat for s in record.students] == [0, 1, 2, 3]
    # Playing: the seat stays, a bot plays it, and the device holds it no more.
    facilitator.start()
    record = cl.load_class(store, record.id)
    pages[0].refresh()
    table_id = record.tables[0]
    assert facilitator.remove_student(pages[0].student.id), facilitator.status.message
    table = store.load(table_id)
    assert table.bots == {0: card("new-rule").fill_bot} and "0" not in table.meta["claims"]
    assert "a bot plays their seat at table 1" in facilitator.status.message.lower()
    record = cl.load_class(store, record.id)
    assert record.groups[0][0] is None and len(record.students) == 3
    pages[0].seat_page.refresh()
    assert pages[0].seat_page.role == "denied"


def test_what_a_class_cannot_do_is_refused_and_changes_nothing(store) -> None:
    # Danger World's GM removed: a bot takes the GM's seat (it spends the botches); a character's
    # player removed before the sheets are made: the bot takes a quick sheet.
    record, phones, _, facilitator = _playing(store, "danger-world", ("Gem", "Ash", "Bo"))
    gm = next(p for p in phones if p.student.seat == 0)
    other = next(p for p in phones if p.student.seat == 1)
    table_id = record.tables[0]
    assert facilitator.remove_student(other.student.id), facilitator.status.message
    game = store.load(table_id).game
    assert all(c.ready for c in game.state.characters[:1]) and store.load(table_id).bots == {0: "careful"}
    assert facilitator.remove_student(gm.student.id), facilitator.status.message
    assert store.load(table_id).bots == {0: "careful", game.setup.gm_seat: "careful"}
    # The class over: no more changes but a release.
    version = cl.load_class(store, record.id).version
    assert facilitator.end()
    third = next(p for p in phones if p.student.seat == 2)
    assert not facilitator.remove_student(third.student.id) and "over" in facilitator.status.message
    assert cl.load_class(store, record.id).version == version + 1  # the end only


def test_a_table_that_refuses_the_seats_change_leaves_the_class_as_it_was(location) -> None:
    """The class's change and its table's are one transaction (on both stores): a table that
    refuses (here a seat out of its range, edited into the record) leaves the class as it was too,
    and an approval releases the seat with it."""
    import dataclasses

    from playbook.store import ClassUpdate

    store = Store(location)
    record, phones, _, _ = _playing(store)
    table_id = record.tables[0]
    bo = phones[1].student
    bad = dataclasses.replace(record, students=tuple(dataclasses.replace(s, seat=9) if s.id == bo.id else s for s in record.students))
    store.change_class(record.id, lambda stored, tables: ClassUpdate(bad.to_json(), "edit", "a seat out of range"))
    version, class_version = store.version(table_id), cl.class_version(store, record.id)
    with pytest.raises(cl.ClassError, match="the table refused"):
        cl.submit(store, record.id, cl.ReleaseStudent(bo.id, "n" * 22), class_version)
    assert store.version(table_id) == version and cl.class_version(store, record.id) == class_version
    assert cl.load_class(store, record.id).student(bo.id).key == bo.key
    # An approval: the class's change and the seat's release, one new version of each.
    ana = phones[0].student
    asked = cl.submit(store, record.id, cl.AskSeat("Ana", "k" * 22, new_device()), 0)
    seat_table, seat = cl.seat_of(asked, ana)
    before = store.version(seat_table)
    approved = cl.submit(store, record.id, cl.Approve(asked.requests[0].id), 0)
    assert approved.student(ana.id).key == "k" * 22 and store.version(seat_table) == before + 1
    assert str(seat) not in store.load(seat_table).meta["claims"]
    store.close()


# -- a lesson that continues ---------------------------------------------------------------------------


def test_a_class_paused_until_next_lesson_comes_back_on_a_new_server_a_week_later(tmp_path, monkeypatch) -> None:
    """The teacher pauses the class at the bell; the laptop is shut (a new server, a store opened
    afresh from its file) and the lesson goes on a week later: the same code brings each device
    back to its own seat, the tables are as they were left, and Resume lets them play on."""
    from playbook.class_pace import PauseClass
    from playbook.pace import paused

    store = Store(tmp_path / "tables.sqlite3")
    record, phones, devices, _ = _playing(store)
    seats = {i: (phone.seat_page.table_id, phone.seat_page.seat) for i, phone in enumerate(phones) if phone.seat_page is not None}
    assert len(seats) == len(phones)
    record = cl.submit(store, record.id, PauseClass(True), record.version)
    before = {table_id: store.load(table_id).version for table_id in record.tables}
    assert all(paused(store.load(table_id).meta) for table_id in record.tables)
    store.close()

    import time as clock

    week_later = clock.time() + 7 * 24 * 3600
    monkeypatch.setattr(clock, "time", lambda: week_later)
    again = Store(tmp_path / "tables.sqlite3")  # the new server's store, from the same file
    for i, device in enumerate(devices):
        typed = open_as(again, "", device)
        one(typed, "pb-code-box").value = record.code
        one(typed, "pb-code-go").click()
        assert typed.role == "student" and typed.seat_page is not None, typed.status.message
        assert (typed.seat_page.table_id, typed.seat_page.seat) == seats[i]
        assert "Paused by the teacher" in synced_text(typed)
    assert {table_id: again.load(table_id).version for table_id in record.tables} == before  # nothing moved meanwhile
    kept = cl.load_class(again, record.id)
    assert kept.phase == "playing" and kept.code == record.code
    kept = cl.submit(again, kept.id, PauseClass(False), kept.version)
    assert not any(paused(again.load(table_id).meta) for table_id in kept.tables)
