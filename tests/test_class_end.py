"""The end of a lesson, headless: a stopped class's debrief (its secrets named at the
facilitator's choice, its handout saying where it stopped), the moves of a seat handed to a bot
credited to the bot, the class CSV's numeric columns, ended classes on the front page, empty
classes expiring, and each phone's own place at the end."""

from __future__ import annotations

import base64
import csv
import io
import re

import pypdf
import pytest

from playbook import classes as cl
from playbook.store import HANDED, HandOver, Play, Store
from rules import leerdam as ld
from tests.support.classes import monitor as _monitor
from tests.support.classes import student as _student
from tests.support.headless import find, one

pytestmark = pytest.mark.timeout(240)


def _linked(link: str, mime: str) -> bytes:
    match = re.search(rf'href="data:{re.escape(mime)}(;charset=utf-8)?;base64,([A-Za-z0-9+/=]+)"', link)
    assert match, link[:200]
    return base64.b64decode(match.group(2))


def _village(store: Store, households: int = 5, **options: object) -> tuple[cl.ClassRecord, list]:
    """A Leerdam class of one village, dealt and started; its phones (seated)."""
    record = cl.create_class(store, "leerdam", households, seed=5, **options)
    phones = [_student(store, record.code, f"Household {i + 1}") for i in range(households)]
    monitor = _monitor(store, record)
    assert monitor.deal() is not False and monitor.start() is not False, monitor.status.message
    for phone in phones:
        phone.refresh()
    return monitor.record, phones


def _pledge_all(store: Store, table_id: str, units: dict[int, int]) -> None:
    for seat, n in units.items():
        store.submit(table_id, Play(ld.Contribute(seat=seat, units=n)), store.version(table_id))


def _allocate_all(store: Store, table_id: str, seats: range) -> None:
    for seat in seats:
        store.submit(table_id, Play(ld.Allocate(seat=seat, plan=(ld.Assignment(seat, "subsistence", 2),))), store.version(table_id))


def test_a_stopped_class_names_its_secrets_credits_the_bot_and_says_where_it_stopped(store) -> None:
    record, _phones = _village(store)
    table_id = record.tables[0]
    _pledge_all(store, table_id, {s: 1 + s % 2 for s in range(5)})
    _allocate_all(store, table_id, range(5))
    assert store.load(table_id).game.state.year == 2
    _pledge_all(store, table_id, {0: 3})
    monitor = _monitor(store, record)
    # Household 2 is absent in year 2: the facilitator hands the seat to the class's bot.
    moves_before = len(store.load(table_id).game.actions)
    assert monitor.hand_to_bot(0, 1), monitor.status.message
    handed = store.load(table_id).meta[HANDED]
    assert handed == [[1, "fair", moves_before, None]]  # the hand-over's moment, on record
    assert monitor.end(), monitor.status.message
    monitor.refresh()
    one(monitor, "pb-debrief-prepare").click()
    raw = _linked(one(monitor, "pb-debrief-csv").value, "text/csv").decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(raw, newline="")))
    assert list(rows[0]) == list(cl.CSV_COLUMNS)
    # Stopped in year 2, the table is over for its debrief: its secrets are named.
    assert not any(r["decision"] in ("allocates this year's labour", "pledges in secret") for r in rows)
    first = next(r for r in rows if r["player"] == "Household 1" and r["step"] == "Year 2")
    assert first["decision"] == "pledges 3 units to the dyke" and first["amount"] == "3" and first["amount_is"] == "units pledged"
    assert first["step_number"] == "2" and first["student"] == "Household 1" and first["seat"] == "1" and first["table"] == "1"
    # The bot's pledge is the bot's, for the absent student; the student's own year-1 moves stay theirs.
    by_two = [r for r in rows if r["player"] == "Household 2"]
    assert {r["student"] for r in by_two if r["step"] == "Year 1"} == {"Household 2"}
    assert {r["student"] for r in by_two if r["step"] == "Year 2"} == {"bot (fair) for Household 2"}
    assert all(r["amount"].isdigit() for r in rows if r["decision"].startswith("pledges"))
    allocation = next(r for r in rows if r["decision"].startswith("allocates"))
    assert allocation["amount"] == "2" and allocation["amount_is"] == "units allocated"
    note = one(monitor, "pb-debrief-note").value
    assert "still playing" not in note and "Secret choices are named" in note
    pdf = _linked(one(monitor, "pb-debrief-pdf").value, "application/pdf")
    text = " ".join(" ".join(p.extract_text().split()) for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert "stopped in year 2" in text and "not over" not in text
    # Unticked, the facilitator keeps the secrets of the stopped class.
    one(monitor, "pb-debrief-secrets").value = False
    one(monitor, "pb-debrief-prepare").click()
    kept = list(csv.DictReader(io.StringIO(_linked(one(monitor, "pb-debrief-csv").value, "text/csv").decode("utf-8-sig"), newline="")))
    assert any(r["decision"] == "allocates this year's labour" and r["amount"] == "" for r in kept)


def test_a_seat_handed_back_is_credited_to_the_student_again(store) -> None:
    """A hand-over records the move it came at: a bot's moves are the bot's, the moves after a
    hand-back the student's."""
    record, _phones = _village(store)
    table_id = record.tables[0]
    table = store.load(table_id)
    store.submit(table_id, HandOver(1, "fair"), table.version)  # the bot pledges for Household 2
    store.submit(table_id, HandOver(1, None), store.version(table_id))
    _pledge_all(store, table_id, {0: 2, 2: 1, 3: 1, 4: 1})
    _allocate_all(store, table_id, range(5))
    rows = cl.decision_rows(store, cl.load_class(store, record.id), reveal=True)
    two = [r["student"] for r in rows if r["player"] == "Household 2"]
    assert two == ["bot (fair) for Household 2", "Household 2"]
    assert cl.chooser(None, "fair", True) == "bot (fair)" and cl.chooser("Dara", "", False) == "bot for Dara"


def test_an_ended_class_stays_listed_under_its_day_with_its_debrief_and_its_tables_leave_the_tables_in_progress(store) -> None:
    import time

    from tests.support.keys import INDEX
    from widgets.front_page import TableIndex

    record, _phones = _village(store)
    before = TableIndex(store, query=INDEX)
    title = store.info(record.tables[0]).title
    assert title in before.list_html.value and "Ended classes" not in before.classes.open_html.value
    monitor = _monitor(store, record)
    assert monitor.end(), monitor.status.message
    index = TableIndex(store, query=INDEX)
    assert title not in index.list_html.value  # stopped: no longer in progress
    listed = index.classes.open_html.value
    assert "Ended classes" in listed and time.strftime("%A %d %B %Y", time.localtime(record.created)) in listed
    ended = listed.split("Ended classes", 1)[1]
    assert record.code in ended and "pb-class-debrief-link" in ended and cl.class_links("", record)["monitor"].replace("&", "&amp;") in ended
    assert "1 village" in ended and "5 students" in ended
    # The link opens the facilitator's page of the ended class, with its debrief to make.
    page = _monitor(store, cl.load_class(store, record.id))
    assert page.role == "monitor" and find(page, "pb-debrief-prepare")


def test_an_empty_class_expires_after_a_day_and_a_class_with_a_student_stays(location, monkeypatch) -> None:
    import time

    from tests.support.keys import INDEX
    from widgets.front_page import TableIndex

    store = Store(location)
    day = cl.EMPTY_CLASS_HOURS * 3600
    empty = cl.create_class(store, "new-rule", 5)
    joined = cl.create_class(store, "new-rule", 5)
    _student(store, joined.code, "Ana")
    assert cl.expire_empty(store, now=empty.created + day - 60) == 0  # not yet a day
    # A day on: the empty class goes (with its log); the one a student joined stays.
    assert cl.expire_empty(store, now=joined.created + day + 1) == 1
    with pytest.raises(KeyError):
        cl.load_class(store, empty.id)
    assert cl.class_by_code(store, empty.code) is None and store.class_changes(empty.id) == []
    assert [s.name for s in cl.load_class(store, joined.id).students] == ["Ana"]
    # The front page removes them as it opens (and `playbook serve` as it starts).
    later = cl.create_class(store, "new-rule", 5)
    later_id = later.id
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + 2 * day)
    index = TableIndex(store, query=INDEX)
    monkeypatch.undo()
    assert later.code not in index.classes.open_html.value and joined.code in index.classes.open_html.value
    with pytest.raises(KeyError):
        cl.load_class(store, later_id)


def test_each_phone_at_the_end_shows_its_own_place_and_result(store) -> None:
    from widgets.standing import ordinal, seat_place

    record, phones = _village(store, variants={"max_years": 1})
    table_id = record.tables[0]
    _pledge_all(store, table_id, {s: 1 + s % 2 for s in range(5)})
    _allocate_all(store, table_id, range(5))
    game = store.load(table_id).game
    assert game.state.over
    standings = {seat: (rank, value) for rank, seat, value in game.rules.standings(game.state)}
    for phone in phones:
        page = phone.seat_page
        assert page is not None
        page.refresh()
        rank, value = standings[page.seat]
        joint = "joint " if sum(1 for r, _ in standings.values() if r == rank) > 1 else ""
        place = page.header.turn_html.value
        assert "pb-seat-place" in place and f"Your household finished {joint}{ordinal(rank)} of 5 with {value} VP." in place, place
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]
    assert seat_place(game, 0, "stopped in year 1").startswith("Stopped in year 1: your household stood ")


def test_a_phone_of_a_stopped_class_says_where_its_household_stood(store) -> None:
    record, phones = _village(store)
    _pledge_all(store, record.tables[0], {0: 2})
    assert _monitor(store, record).end()
    page = phones[1].seat_page
    assert page is not None
    page.refresh()
    place = page.header.turn_html.value
    assert re.search(r"Stopped in year 1: your household stood (joint )?\d(st|nd|rd|th) of 5 with \d+ VP\.", place), place
    assert "Thank you for playing" not in place
    # Another game's words: New Rule's seat is "you".
    from rules import new_game
    from rules import new_rule as nr
    from widgets.standing import seat_place

    game = new_game("new-rule", nr.Setup(names=("Ana", "Bo", "Cy")), 1)
    assert re.fullmatch(r"Stopped in round 1: you stood (joint )?\d(st|nd|rd) of 3 with \d+ points\.", seat_place(game, 2, "stopped in round 1")), seat_place(game, 2, "stopped in round 1")


def test_a_tables_own_csv_says_which_bot_made_a_move(store) -> None:
    from tests.support.leerdam_page import play_year
    from tests.support.leerdam_page import start as start_leerdam
    from widgets.leerdam import LeerdamDashboard

    dash = LeerdamDashboard(store, query="")
    start_leerdam(dash, names=("Ana", "Bo", "Cy"), bots={2: "fair"}, max_years="1")
    play_year(dash, {0: 2, 1: 1})
    one(dash, "pb-debrief-prepare").click()
    raw = _linked(one(dash, "pb-debrief-csv").value, "text/csv").decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(raw, newline="")))
    assert {r["by"] for r in rows if r["player"] == "Cy"} == {"bot (fair) for Cy"}
    assert {r["by"] for r in rows if r["player"] == "Ana"} == {"Ana"}
    assert next(r for r in rows if r["player"] == "Bo" and r["decision"].startswith("pledges"))["amount"] == "1"
