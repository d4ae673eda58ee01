"""The facilitator's page for a class of 30, headless: the class's buttons first, the students
as small rows grouped by table, a swap between full tables, whose page is connected, and each
press's outcome said beside what was pressed.

The same page in Chromium, measured at 1366x768: test_browser_class_monitor.py.
"""

from __future__ import annotations

import time

import ipywidgets as widgets
import pytest

from playbook import classes as cl
from playbook.store import Store
from tests.support.classes import joined, monitor
from tests.support.headless import find, one, synced_text

pytestmark = pytest.mark.timeout(240)

THIRTY = [f"Household {i + 1}" for i in range(30)]


def _said(page, where: str) -> str:
    """What the monitor says beside `where` (a student's row, or the class's buttons)."""
    root = one(page, f"pb-student-{where}") if where != "controls" else one(page, "pb-class-controls")
    return synced_text(root)


def test_thirty_leerdam_students_dealt_ten_ten_ten_swap_between_villages(store) -> None:
    phones, facilitator = joined(store, "leerdam", THIRTY)
    one(facilitator, "pb-deal").click()
    record = facilitator.record
    assert [sum(1 for s in g if s) for g in record.groups] == [10, 10, 10], facilitator.status.message
    first, other = record.groups[0][0], record.groups[2][4]
    assert first is not None and other is not None
    # Every village is full: no table offers to take a student, a swap does.
    one(facilitator, f"pb-swap-{first}").click()
    assert not find(facilitator, "pb-move-here-1") and not find(facilitator, "pb-move-here-2")
    assert one(facilitator, f"pb-swap-{other}").tooltip == "Swap with Household 1"
    assert "<b>Household 1</b> picked" in synced_text(one(facilitator, "pb-class-students"))
    one(facilitator, f"pb-swap-{other}").click()
    after = facilitator.record
    assert after.version == record.version + 1 and facilitator.status.kind == "ok", facilitator.status.message
    assert after.student(first).group == 2 and after.student(other).group == 0
    assert after.groups[0][0] == other and after.groups[2][4] == first
    assert [sum(1 for s in g if s) for g in after.groups] == [10, 10, 10]
    assert "Swapped: Household 25 is at village 1, Household 1 at village 3." in _said(facilitator, other)
    assert not facilitator._selected
    # Started, each plays at their new village.
    one(facilitator, "pb-start-class").click()
    names = [store.load(t).game.setup.names for t in facilitator.record.tables]
    assert names[0][0] == "Household 25" and names[2][4] == "Household 1"
    phones[0].refresh()
    assert phones[0].seat_page is not None and phones[0].seat_page.table_id == facilitator.record.tables[2]


def test_a_swap_is_refused_at_one_table_before_the_deal_and_after_the_start(store) -> None:
    phones, facilitator = joined(store, "new-rule", ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay"])
    ana, bo = (p.student.id for p in phones[:2])
    with pytest.raises(cl.ClassError, match="deal the tables first"):
        cl.apply_change(facilitator.record, cl.Swap(ana, bo), time.time())
    assert facilitator.deal()
    record = facilitator.record
    with pytest.raises(cl.ClassError, match="at the same table already"):
        cl.apply_change(record, cl.Swap(ana, bo), time.time())
    assert facilitator.start()
    dee = phones[3].student.id
    version = facilitator.record.version
    assert not facilitator.swap(ana, dee)
    assert "The tables have started: Ana and Dee keep their seats" in facilitator.status.message
    assert facilitator.record.version == version and facilitator.record.student(ana).group == 0


def test_a_refusal_is_shown_beside_its_student(store) -> None:
    _phones, facilitator = joined(store, "leerdam", THIRTY)
    facilitator.deal()
    group = facilitator.record.groups[0]
    first, mate = group[0], group[1]
    one(facilitator, f"pb-swap-{first}").click()
    one(facilitator, f"pb-swap-{mate}").click()  # the same village: refused, beside the student pressed
    reason = "Household 1 and Household 2 are at the same village already"
    assert facilitator.status.kind == "refuse"
    assert reason.replace("village", "table") in _said(facilitator, mate)
    assert "table already" not in _said(facilitator, first) and "table already" not in _said(facilitator, "controls")
    assert find(one(facilitator, f"pb-student-{mate}"), "pb-chip-text")[0].value.count("pb-said-refuse") == 1
    # A move to a full village is refused with the way out, beside the student moved.
    assert not facilitator.move(first, 1)
    assert "swap Household 1 with one of its students instead" in _said(facilitator, first)
    # The class's own buttons say theirs beside them: a deal from a page that is behind.
    other = monitor(store, facilitator.record)
    assert other.deal()
    one(facilitator, "pb-start-class").click()
    assert "nothing was done" in _said(facilitator, "controls") and "nothing was done" not in _said(facilitator, first)


def test_deal_and_start_come_first_in_the_monitor(store) -> None:
    _phones, facilitator = joined(store, "leerdam", THIRTY)
    controls = one(facilitator, "pb-class-controls")
    assert facilitator.screen.children[0] is controls
    assert find(controls, "pb-deal") and find(controls, "pb-end-class")
    # The box other controls of the class go in sits in the same first row; what they add to
    # each student's row goes in the row.
    assert facilitator.pace_box in one(facilitator, "pb-controls-row").children
    facilitator.row_extras.append(lambda _record, student: [widgets.Button(description=f"x1 for {student.name}").add_class(f"pb-extra-{student.id}")])
    facilitator.deal()
    row = one(facilitator, "pb-controls-row").children
    assert facilitator.screen.children[0] is controls
    assert "pb-start-class" in row[0]._dom_classes and "pb-deal" in row[1]._dom_classes
    # No dropdown per student: every student is a row of small buttons, by village.
    assert not [w for w in find(facilitator, "pb-class-students")[0].children if type(w).__name__ == "Dropdown"]
    assert len(find(facilitator, "pb-student-chip")) == 30
    first = facilitator.record.students[0]
    assert one(one(facilitator, f"pb-student-{first.id}"), f"pb-extra-{first.id}").description == "x1 for Household 1"
    assert [len(find(one(facilitator, f"pb-student-table-{i}"), "pb-student-chip")) for i in range(3)] == [10, 10, 10]
    facilitator.start()
    assert facilitator.screen.children[0] is controls and find(controls, "pb-end-class")
    order = [c for w in facilitator.screen.children for c in w._dom_classes]
    assert order.index("pb-class-controls") < order.index("pb-class-tables") < order.index("pb-class-students") < order.index("pb-class-csv")


def test_the_monitor_shows_whose_page_is_connected(store) -> None:
    phones, facilitator = joined(store, "new-rule", ["Ana", "Bo", "Cy"])
    version = facilitator.record.version
    # Each page noted itself as it opened (its language with it), before any beat.
    noted = store.presence(facilitator.record.id)
    assert set(noted) == {p.student.id for p in phones}
    phones[0].heartbeat.click()  # written sparingly: not at every beat
    assert store.presence(facilitator.record.id) == noted
    assert cl.load_class(store, facilitator.record.id).version == version  # not a change of the class
    row = one(one(facilitator, f"pb-student-{phones[1].student.id}"), "pb-chip-text")
    assert "connected" in row.value
    store.note_presence(facilitator.record.id, phones[1].student.id, time.time() - 95)
    assert facilitator.refresh()  # someone went quiet, without a change to the class
    # Said in place: the same row, its words changed, no widget made for it.
    assert one(one(facilitator, f"pb-student-{phones[1].student.id}"), "pb-chip-text") is row and "not seen for 1 min" in row.value
    assert "connected" in _said(facilitator, phones[0].student.id)
    assert "not seen for 1 min" in _said(facilitator, phones[1].student.id)
    assert "connected" in _said(facilitator, phones[2].student.id)
    assert "2 connected now" in synced_text(one(facilitator, "pb-class-students"))
    assert not facilitator.refresh()  # nothing new: not redrawn
    facilitator.deal()
    facilitator.start()
    phones[0].refresh()
    assert phones[0].seat_page is not None
    # Seated, the page's script beats the seat page's heartbeat (the first on the page): still
    # connected while playing.
    phones[0]._presence_noted -= cl.PRESENCE_WRITE_SECONDS
    phones[0].seat_page.heartbeat.click()
    assert store.presence(facilitator.record.id)[phones[0].student.id] > noted[phones[0].student.id]


def test_presence_is_kept_beside_the_class_and_moves_no_version(location) -> None:
    store = Store(location)
    record = cl.create_class(store, "new-rule", 3, seed=1)
    record = cl.submit(store, record.id, cl.Join("Ana", "k" * 20, "d" * 20), 0)
    ana = record.students[0].id
    cl.note_presence(store, record, ana, 100.0)
    cl.note_presence(store, record, ana, 130.0)  # one row a student, the latest note
    assert cl.presence(store, record) == {ana: 130.0}
    assert cl.class_version(store, record.id) == record.version
    # A class removed (one no student kept, expired) takes its notes with it.
    assert store.remove_classes(time.time() + 1, lambda _stored: True) == 1
    assert store.presence(record.id) == {}


def test_at_play_a_bot_for_an_absent_student_is_pressed_in_their_row(store) -> None:
    _phones, facilitator = joined(store, "leerdam", THIRTY)
    facilitator.deal()
    facilitator.start()
    tables = one(facilitator, "pb-class-tables")
    # A village waiting on all ten reads as a count, and has no row of ten buttons.
    assert "waited 0 s on 10: Household 1, Household 2, Household 3 and 7 more" in synced_text(tables)
    assert not find(tables, "pb-class-bot-0-3")
    absent = facilitator.record.groups[0][3]
    row = one(facilitator, f"pb-student-{absent}")
    one(row, "pb-class-bot-0-3").click()
    assert store.load(facilitator.record.tables[0]).bots == {3: "fair"}
    assert "A bot (fair) plays Household 4" in _said(facilitator, absent) and facilitator.status.kind == "ok"
    assert "a bot plays their seat" in _said(facilitator, absent)
    assert not find(one(facilitator, f"pb-student-{absent}"), "pb-class-bot-0-3")
