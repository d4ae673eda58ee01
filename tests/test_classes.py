"""A class in one room, without a browser: the code, the deal, joins at the same moment from
real processes, the pages of students, board and facilitator, late students, the class CSV,
and the address the server gives phones.

The browser side is in test_browser_classes.py.
"""

from __future__ import annotations

import csv
import html
import io
import multiprocessing
import re
from collections.abc import Callable

import pytest

from playbook import classes as cl
from playbook.serve import phone_address
from playbook.store import Store
from rules.games import card
from tests.support.class_workers import joiner
from tests.support.classes import class_page as _page
from tests.support.classes import monitor as _monitor
from tests.support.classes import student as _student
from tests.support.headless import find, one, synced_text
from widgets.classroom import ClassPage
from widgets.new_rule import NewRuleDashboard

pytestmark = pytest.mark.timeout(240)


# -- the deal ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, students, sizes",
    [
        ("new-rule", 30, [5] * 6),
        ("leerdam", 30, [10] * 3),
        ("leerdam", 16, [8, 8]),
        ("new-rule", 7, [4, 3]),
        ("new-rule", 12, [4, 4, 4]),
        ("leerdam", 11, [6, 5]),
        ("dangerous-ideas", 25, [5] * 5),
        ("danger-world", 9, [5, 4]),
    ],
)
def test_tables_are_as_few_and_as_even_as_the_game_allows(game, students, sizes) -> None:
    assert cl.table_sizes(students, game) == sizes


def test_a_short_table_is_filled_by_bots_or_refused() -> None:
    assert cl.deal(["a", "b"], "new-rule", bots=True) == (("a", "b", None),)
    with pytest.raises(cl.ClassError, match="allow bots"):
        cl.deal(["a", "b"], "new-rule", bots=False)
    assert cl.deal([str(i) for i in range(4)], "leerdam") == (("0", "1", "2", "3", None),)


def test_arrival_order_fills_the_first_table_first_and_mixing_is_seeded() -> None:
    people = [f"s{i}" for i in range(10)]
    assert cl.deal(people, "new-rule") == (tuple(people[:5]), tuple(people[5:]))
    mixed = cl.deal(people, "new-rule", mix=True, seed=4)
    assert mixed == cl.deal(people, "new-rule", mix=True, seed=4) and mixed != cl.deal(people, "new-rule")
    assert sorted(s for g in mixed for s in g) == sorted(people)


def test_a_room_code_can_be_read_off_a_projector_and_typed() -> None:
    codes = {cl.new_code() for _ in range(200)}
    assert all(len(c) == 6 and not set(c) & set("0O1Il") for c in codes) and len(codes) > 190
    assert cl.clean_code(" k7qm-2p ") == "K7QM2P"


# -- joining at the same moment ----------------------------------------------------------------------


@pytest.mark.heavy
def test_thirty_students_joining_in_the_same_second_get_thirty_seats(location, tmp_path) -> None:
    """Six processes, five students each, all at one barrier: every join is kept, once; the deal
    gives each student one seat and no table more than the game's largest."""
    store = Store(location)
    record = cl.create_class(store, "new-rule", 30, seed=3)
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(6)
    jobs = [context.Process(target=joiner, args=(location, record.id, p, 5, barrier, str(tmp_path / f"p{p}.txt"))) for p in range(6)]
    for job in jobs:
        job.start()
    for job in jobs:
        job.join(180)
        assert job.exitcode == 0
    refused = [line for path in tmp_path.glob("p*.txt") for line in path.read_text().splitlines() if line.startswith("refused")]
    assert refused == []
    record = cl.load_class(store, record.id)
    assert len(record.students) == 30 and len({s.name for s in record.students}) == 30
    record = cl.submit(store, record.id, cl.Deal(), record.version)
    record = cl.submit(store, record.id, cl.Start(), record.version)
    assert len(record.tables) == 6
    seats = set()
    for table_id in record.tables:
        table = store.load(table_id)
        assert len(table.game.setup.names) <= 5 and not table.bots
        seats |= {(table_id, seat) for seat in range(len(table.game.setup.names))}
    assert {cl.seat_of(record, s) for s in record.students} == seats  # 30 distinct seats
    store.close()


def test_a_change_from_a_page_that_is_behind_is_refused_but_a_join_is_not(store) -> None:
    record = cl.create_class(store, "new-rule", 5)
    first = cl.submit(store, record.id, cl.Join("Ana", "k" * 22), record.version)
    later = cl.submit(store, record.id, cl.Join("Bo", "j" * 22), record.version)  # behind: joins commute
    assert [s.name for s in later.students] == ["Ana", "Bo"] and later.version == first.version + 1
    with pytest.raises(cl.ClassError, match="moved on"):
        cl.submit(store, record.id, cl.Deal(), first.version)
    assert cl.load_class(store, record.id).phase == "lobby"


def test_names_a_class_refuses(store) -> None:
    record = cl.create_class(store, "leerdam", 10, roster=("Ana", "Bo"))
    with pytest.raises(cl.ClassError, match="not on this class's list"):
        cl.submit(store, record.id, cl.Join("Cy", "k" * 22), record.version)
    record = cl.submit(store, record.id, cl.Join("ana", "k" * 22), record.version)
    with pytest.raises(cl.ClassError, match="joined already"):
        cl.submit(store, record.id, cl.Join("Ana\u200b", "m" * 22), record.version)
    with pytest.raises(cl.ClassError, match="no visible character"):
        cl.submit(store, record.id, cl.Join("\u200b", "m" * 22), record.version)
    with pytest.raises(cl.ClassError, match="3-60"):
        cl.create_class(store, "leerdam", 61)


def test_a_name_that_looks_like_a_classmates_is_refused_with_why_on_both_stores(location) -> None:
    """"Ana" and "Аna" (a Cyrillic А) cannot both join one class: the second is told why, and so
    is a rename or a class list that would make two such names."""
    store = Store(location)
    record = cl.create_class(store, "new-rule", 5)
    record = cl.submit(store, record.id, cl.Join("Ana", "k" * 22), record.version)
    record = cl.submit(store, record.id, cl.Join("Bo", "j" * 22), record.version)
    with pytest.raises(cl.ClassError) as refused:
        cl.submit(store, record.id, cl.Join("\u0410na", "m" * 22), record.version)
    assert refused.value.rule == "names"
    assert refused.value.message.startswith(
        "\u0410na looks the same as Ana, who has joined already (yours is written partly in another alphabet: Cyrillic \u0410 (U+0410) looks like Latin A)."
    )
    record = cl.submit(store, record.id, cl.Join("PayPal", "p" * 22), record.version)
    for typed, taken in (("PayPaI", "PayPal"), ("\u0412o", "Bo"), ("B\u043e", "Bo")):  # I for l; a Cyrillic В, a Cyrillic о
        with pytest.raises(cl.ClassError, match=f"looks the same as {taken}, who has joined already"):
            cl.submit(store, record.id, cl.Join(typed, "n" * 22), record.version)
    assert [s.name for s in cl.load_class(store, record.id).students] == ["Ana", "Bo", "PayPal"]
    bo = cl.load_class(store, record.id).by_name("Bo")
    assert bo is not None
    with pytest.raises(cl.ClassError, match="Ana is another student's name in this class, and \u0410na looks the same"):
        cl.submit(store, record.id, cl.RenameStudent(bo.id, "\u0410na"), record.version)
    assert cl.submit(store, record.id, cl.RenameStudent(bo.id, "BO"), record.version).by_name("bo").name == "BO"  # their own name, case aside
    with pytest.raises(cl.ClassError, match="the list has two names that look the same: Ana and \u0410na \\(the second is written partly in another alphabet"):
        cl.create_class(store, "new-rule", 5, roster=("Ana", "Bo", "\u0410na"))
    store.close()


# -- the pages ---------------------------------------------------------------------------------------


def test_twelve_new_rule_students_become_three_tables_of_four_each_on_its_own_seat(store) -> None:
    record = cl.create_class(store, "new-rule", 12, seed=5)
    names = [f"Student {i + 1}" for i in range(12)]
    phones = [_student(store, record.code, name) for name in names]
    board = _page(store, record, "board")
    board.refresh()
    shown = synced_text(board)
    assert record.code in shown and all(name in shown for name in names)
    monitor = _monitor(store, record)
    assert monitor.role == "monitor"
    one(monitor, "pb-deal").click()
    assert monitor.record.phase == "dealt", monitor.status.message
    one(monitor, "pb-start-class").click()
    record = monitor.record
    assert record.phase == "playing" and len(record.tables) == 3
    for phone, name in zip(phones, names):
        phone.refresh()
        assert isinstance(phone.seat_page, NewRuleDashboard) and phone.seat_page.role == "seat"
        assert phone.seat_page.seat_name(phone.seat_page.seat) == name
    for table_id in record.tables:
        table = store.load(table_id)
        assert len(table.game.setup.names) == 4 and set(table.meta["claims"]) == {"0", "1", "2", "3"}
    board.refresh()
    # Each table's card and its column of the tables side by side: both at round 1 (the column once said round 0).
    assert "Every table" in synced_text(board) and sorted(re.findall(r"Table (\d) · Round 1", synced_text(board))) == ["1", "1", "2", "2", "3", "3"]
    # A reload: the address bar holds the seat's own link, which opens the seat again.
    mine = html.unescape(phones[0].seat_page.navigator.value)
    link = re.search(r'data-href="([^"]+)"', mine).group(1)
    assert f'data-class-of="{record.code}"' in mine and link.startswith("new_rule.ipynb?")
    again = NewRuleDashboard(store, query=link.split("new_rule.ipynb", 1)[1])
    assert again.role == "seat" and again.seat == phones[0].seat_page.seat
    # A student's page leads nowhere else and holds no one else's key.
    text = synced_text(phones[1])
    assert "index.ipynb" not in text and "print_studio" not in text and "balance_lab" not in text
    assert record.monitor_key not in text and record.board_key not in text
    assert all(s.key not in text for s in record.students if s.name != names[1])


def test_a_seated_students_class_page_waits_quietly_after_the_class_moves_on(store, monkeypatch) -> None:
    """A seated student's class page noted no class change, so every wait for the next one
    returned at once: ending the class set thirty kernels spinning, and the results reached the
    board 20 s late. After a change, the page waits again."""
    import asyncio
    import time

    from tests.support.stores import run_alone

    record = cl.create_class(store, "new-rule", 3, seed=4)
    phone = _student(store, record.code, "Ana")
    for name in ("Bo", "Cy"):
        _student(store, record.code, name)
    monitor = _monitor(store, record)
    monitor.deal()
    monitor.start()
    phone.refresh()
    assert phone.seat_page is not None
    waits: list[int] = []
    real_wait = cl.wait_class

    def counted(store: Store, class_id: str, seen: int, timeout: float = 10.0) -> int:
        waits.append(seen)
        return real_wait(store, class_id, seen, min(timeout, 0.5))

    monkeypatch.setattr(cl, "wait_class", counted)

    async def watch() -> None:
        phone.live.last_beat = time.monotonic()  # the page is there
        task = asyncio.create_task(phone.live.follow())
        await asyncio.sleep(0.3)
        monitor.refresh()
        monitor.end()
        await asyncio.sleep(1.2)
        task.cancel()

    run_alone(watch)
    assert cl.load_class(store, record.id).phase == "over", monitor.status.message
    assert 2 <= len(waits) <= 6, f"{len(waits)} waits in 1.5 s"
    assert phone.record.phase == "over" and phone.seat_page is not None  # noted, not redrawn


def test_a_late_student_is_told_and_the_late_ones_get_a_table_of_their_own(store) -> None:
    record = cl.create_class(store, "new-rule", 4, seed=2)
    for name in ("Ana", "Bo", "Cy"):
        _student(store, record.code, name)
    monitor = _monitor(store, record)
    monitor.deal()
    monitor.start()
    late = _student(store, record.code, "Dee")
    assert late.student.group is None and "The tables have started" in synced_text(late)
    monitor.refresh()
    one(monitor, "pb-deal-waiting").click()
    assert len(monitor.record.tables) == 2, monitor.status.message
    late.refresh()
    assert late.seat_page is not None and late.seat_page.role == "seat"
    table = store.load(monitor.record.tables[1])
    assert table.game.setup.names[0] == "Dee" and table.bots == {1: "balanced", 2: "balanced"}


def test_a_student_moved_before_the_start_sits_at_the_new_table(store) -> None:
    record = cl.create_class(store, "new-rule", 8, seed=2)
    pages = [_student(store, record.code, f"S{i}") for i in range(8)]
    monitor = _monitor(store, record)
    monitor.deal()
    mover = pages[0].student.id
    one(monitor, f"pb-swap-{mover}").click()  # picks the student: each other table offers to take them
    one(monitor, "pb-move-here-1").click()
    assert monitor.record.student(mover).group == 1, monitor.status.message
    monitor.start()
    assert store.load(monitor.record.tables[1]).game.setup.names[-1] == "S0"


def _leerdam_class(store: Store, students: int, **options: object) -> cl.ClassRecord:
    """A Leerdam class of `students` ("Household 1", ...), dealt and started by its monitor."""
    record = cl.create_class(store, "leerdam", students, **options)
    for i in range(students):
        _student(store, record.code, f"Household {i + 1}")
    monitor = _monitor(store, record)
    monitor.deal()
    monitor.start()
    return monitor.record


def _leerdam_year(store: Store, table_id: str, households: int, units: Callable[[int], int]) -> None:
    """A year at one village through the store: every household pledges `units(seat)`, then
    puts 2 units on subsistence."""
    from playbook.store import Play
    from rules import leerdam as ld

    for seat in range(households):
        store.submit(table_id, Play(ld.Contribute(seat=seat, units=units(seat))), store.version(table_id))
    for seat in range(households):
        store.submit(table_id, Play(ld.Allocate(seat=seat, plan=(ld.Assignment(seat, "subsistence", 2),))), store.version(table_id))


def test_sixteen_leerdam_students_are_two_villages_compared_year_by_year(store) -> None:
    record = _leerdam_class(store, 16, seed=9)
    assert [len(store.load(t).game.setup.names) for t in record.tables] == [8, 8]
    for table_id in record.tables:  # a year at each village: everyone pledges, everyone allocates
        _leerdam_year(store, table_id, 8, lambda seat: 1 + seat % 3)
    board = _page(store, record, "board")
    text = synced_text(board)
    assert "Village 1" in text and "Village 2" in text and "Year 1" in text and "pledged 15" in text  # 1+2+3+1+2+3+1+2
    # Each village's card names the year it is in now, and counts who it waits for.
    assert "Village 1 · Year 2" in text and "Village 2 · Year 2" in text
    assert "waiting for 8: Household 1, Household 2, Household 3 and 5 more" in text


def test_the_board_names_villages_and_says_a_tie_in_plain_words(store) -> None:
    """Leerdam's tables are villages on the board too, and a village where every household ends
    level says so, not "Ana and Bo and Cy and ... win"."""
    record = _leerdam_class(store, 12, seed=3, variants={"max_years": 1})
    assert len(record.tables) == 2
    first = record.tables[0]
    _leerdam_year(store, first, 6, lambda seat: 1)  # the first village: every household the same, to the end
    assert store.load(first).game.state.over
    fresh = cl.load_class(store, record.id)
    cl.submit(store, fresh.id, cl.End(), fresh.version)  # the lesson ends: the results go up
    text = re.sub(r"<[^>]+>", "", synced_text(_page(store, record, "board")))
    assert "Village 1 · " in text and "Village 2 · " in text and "Table 1" not in text
    assert "Open its board" in text
    # The second village had not finished: who led when the class ended (all level, nobody moved).
    assert "Village 1: all 6 households tie" in text and "Village 2: all 6 households are level when the class ended (year 1)" in text
    assert " and Household 2 and " not in text


def test_a_table_with_one_winner_or_a_shared_win_is_said_in_plain_words() -> None:
    from rules.core import seats_text

    names = ("Ana", "Bo", "Cy", "Di")
    assert seats_text(names, [2]) == "Cy"
    assert seats_text(names, [0, 1, 3]) == "Ana, Bo and Di"


def test_the_class_csv_has_one_row_per_decision(store) -> None:
    from playbook.store import Play
    from rules import new_rule as nr

    record = cl.create_class(store, "new-rule", 3, seed=1)
    for name in ("Ana", "Bo", "Cy"):
        _student(store, record.code, name)
    monitor = _monitor(store, record)
    monitor.deal()
    monitor.start()
    table_id = monitor.record.tables[0]
    for seat in range(3):
        store.submit(table_id, Play(nr.Draw(seat=seat)), store.version(table_id))
        store.submit(table_id, Play(nr.Keep(seat=seat)), store.version(table_id))
    rows = cl.decision_rows(store, monitor.record)
    game = store.load(table_id).game
    assert len(rows) == sum(1 for a in game.actions if a.seat is not None and not a.chance) == 6
    assert [r["student"] for r in rows[:2]] == ["Ana", "Ana"] and rows[0]["decision"] == "draws blindly" and rows[0]["step"] == "Round 1"
    # The game goes on: what each blind draw held stays out of the facilitator's export.
    assert rows[0]["player"] == "Ana" and " drew " not in " ".join(r["outcome"] for r in rows)
    assert list(rows[0]) == ["table", "step", "step_number", "seat", "player", "student", "timed_out", "decision", "amount", "amount_is", "outcome"]
    monitor.refresh()
    link = one(monitor, "pb-class-csv").value
    assert "text/csv" in link and "6 decisions" in link


def test_only_the_monitor_deals_and_a_wrong_key_opens_nothing(store) -> None:
    record = cl.create_class(store, "leerdam", 10)
    board = _page(store, record, "board")
    assert board.deal() is False and cl.load_class(store, record.id).phase == "lobby"
    wrong = ClassPage(store, query=f"?code={record.code}&monitor={record.board_key}")
    assert wrong.role == "denied" and wrong.record is None
    assert record.monitor_key not in synced_text(board)
    nothing = ClassPage(store, query="?code=ZZZZZZ")
    assert nothing.role == "code" and "no class" in nothing.status.message.lower()


def test_a_released_student_joins_again_on_another_device(store) -> None:
    record = cl.create_class(store, "new-rule", 3)
    phone = _student(store, record.code, "Ana")
    monitor = _monitor(store, record)
    assert monitor.release_student(phone.student.id), monitor.status.message
    assert phone.refresh() and phone.role == "denied"


# -- the address phones open ------------------------------------------------------------------------


def test_the_server_listens_on_the_network_and_links_carry_its_address() -> None:
    lan = lambda: "192.0.2.10"  # noqa: E731 - a documentation address: nothing is sent
    assert phone_address(8866, lan=lan) == phone_address(8866, "0.0.0.0", lan=lan)
    where = phone_address(8866, lan=lan)
    assert where.listen == "0.0.0.0" and where.base == "http://192.0.2.10:8866" and not where.local_only
    assert phone_address(9000, "192.0.2.7", lan=lan).base == "http://192.0.2.7:9000"
    proxied = phone_address(8866, public_url="https://school.example/playbook/", lan=lan)
    assert proxied.base == "https://school.example/playbook" and not proxied.local_only
    local = phone_address(8866, "127.0.0.1", lan=lan)
    assert local.base == "http://localhost:8866" and local.local_only
    offline = phone_address(8866, lan=lambda: "127.0.0.1")
    assert offline.listen == "0.0.0.0" and offline.local_only and "localhost" in offline.base


def test_the_class_csv_cells_are_safe(store) -> None:
    from widgets.common import csv_text

    record = cl.create_class(store, "new-rule", 3)
    for name in ("=HYPERLINK(1)", "Bo", "Cy"):
        _student(store, record.code, name)
    monitor = _monitor(store, record)
    monitor.deal()
    monitor.start()
    from playbook.store import Play
    from rules import new_rule as nr

    table_id = monitor.record.tables[0]
    store.submit(table_id, Play(nr.Draw(seat=0)), store.version(table_id))
    text = csv_text(cl.decision_rows(store, monitor.record))
    assert text.startswith("\ufeff")
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows[0]["student"] == "'=HYPERLINK(1)"


def test_the_facilitator_starts_a_class_from_the_front_page(store) -> None:
    from tests.support.keys import INDEX
    from widgets.front_page import TableIndex

    index = TableIndex(store, query=INDEX)
    one(index, "pb-class-game").value = "new-rule"
    one(index, "pb-class-students-count").value = 25
    one(index, "pb-class-roster").value = "Ana\nBo\n\nCy\n"
    one(index, "pb-class-new").click()
    record = cl.classes(store)[0]
    assert (record.game, record.expected, record.roster) == ("new-rule", 25, ("Ana", "Bo", "Cy"))
    made = html.unescape(one(index, "pb-class-made").value)
    assert record.code in made and record.monitor_key in made and record.code in one(index, "pb-class-list").value
    stranger = TableIndex(store, query="")
    assert not find(stranger, "pb-class-new") and record.monitor_key not in synced_text(stranger)


def test_ending_the_class_takes_two_presses_and_the_board_then_shows_the_results(store) -> None:
    record = cl.create_class(store, "new-rule", 3, seed=4)
    for name in ("Ana", "Bo", "Cy"):
        _student(store, record.code, name)
    monitor = _monitor(store, record)
    monitor.deal()
    monitor.start()
    one(monitor, "pb-end-class").click()
    assert cl.load_class(store, record.id).phase == "playing"  # the first press only asks
    one(monitor, "pb-end-class").click()
    assert cl.load_class(store, record.id).phase == "over"
    board = _page(store, cl.load_class(store, record.id), "board")
    text = synced_text(board)
    # Ended before its end: each table says who led then, and the results come first.
    assert "still playing" not in text and "waiting for" not in text
    assert re.search(r"Table 1: <b>(Ana|Bo|Cy|Ana, Bo and Cy|all 3 players are level)[^<]*(leads|share the lead|are level) when the class ended \(round 1\)</b> \(\d+ points\)", text), text
    assert text.index("Results") < text.index("Every table") and "stopped when the class ended" in text


def test_an_ended_class_stops_its_tables_where_they_stand(location) -> None:
    """Ended, a class's results stand: a phone's move is refused and changes nothing, the seat
    page says why and its move buttons go (on both stores: the stop is in the End's transaction)."""
    from playbook.store import STOPPED, Play, Refused
    from rules import new_rule as nr

    store = Store(location)
    record = cl.create_class(store, "new-rule", 3, seed=4)
    phones = [_student(store, record.code, name) for name in ("Ana", "Bo", "Cy")]
    monitor = _monitor(store, record)
    monitor.deal()
    monitor.start()
    for phone in phones:
        phone.refresh()
    table_id = monitor.record.tables[0]
    seat_page = phones[0].seat_page
    assert seat_page is not None and seat_page.seat_curtain().layout.display != "none"
    version = store.version(table_id)
    monitor.refresh()
    assert find(monitor, "pb-class-bot-0-0") and "waited" in synced_text(monitor)  # before the end
    assert monitor.end() and cl.load_class(store, record.id).phase == "over", monitor.status.message
    assert store.version(table_id) == version + 1 and store.load(table_id).meta[STOPPED] == cl.ENDED
    with pytest.raises(Refused, match="ended the class"):
        store.submit(table_id, Play(nr.Draw(seat=seat_page.seat)), version + 1)
    assert store.version(table_id) == version + 1  # nothing was written
    assert store.changes(table_id)[-1]["kind"] == "stop"
    seat_page.refresh()
    assert seat_page.seat_curtain().layout.display == "none" and "ended the class" in seat_page.status.message
    assert "ended the class" in synced_text(seat_page) and "waiting for" not in seat_page.header.turn_html.value
    monitor.refresh()  # the facilitator's page: stopped, no bot to hand a seat to
    tables = synced_text(monitor)
    assert "stopped when the class ended" in tables and "waited" not in tables and not find(monitor, "pb-class-bot-0-0")


def test_a_student_who_joins_after_the_deal_takes_a_bots_place(store) -> None:
    record = cl.create_class(store, "new-rule", 3, seed=4)
    for name in ("Ana", "Bo"):
        _student(store, record.code, name)
    monitor = _monitor(store, record)
    monitor.deal()
    assert monitor.record.groups == ((monitor.record.students[0].id, monitor.record.students[1].id, None),)
    cy = _student(store, record.code, "Cy")
    record = cl.load_class(store, record.id)
    assert record.groups[0] == tuple(s.id for s in record.students) and cy.student.group == 0


def test_a_student_who_joins_after_the_deal_waits_when_every_table_is_full(store) -> None:
    """Every table dealt at the class's largest size (New Rule: 5): a student who comes after the
    deal waits for a table of late students, and no table grows past the largest size."""
    _low, high = card("new-rule").players.class_range
    record = cl.create_class(store, "new-rule", 2 * high + 1, seed=4)
    for i in range(2 * high):
        _student(store, record.code, f"Student {i + 1}")
    monitor = _monitor(store, record)
    monitor.deal()
    dealt = monitor.record
    assert [len(g) for g in dealt.groups] == [high, high]
    late = _student(store, record.code, "Late")
    record = cl.load_class(store, record.id)
    assert late.student.group is None and [s.name for s in record.waiting] == ["Late"]
    assert record.groups == dealt.groups
    monitor.refresh()
    monitor.start()
    one(monitor, "pb-deal-waiting").click()
    record = cl.load_class(store, record.id)
    assert len(record.tables) == 3 and not record.waiting, monitor.status.message
    seated = [store.load(table_id).game.setup.names for table_id in record.tables]
    assert [len(names) for names in seated[:2]] == [high, high] and seated[2][0] == "Late"


def test_a_student_page_reloaded_before_its_seat_showed_takes_the_seat_again(store) -> None:
    record = cl.create_class(store, "new-rule", 3, seed=4)
    phones = [_student(store, record.code, name) for name in ("Ana", "Bo", "Cy")]
    monitor = _monitor(store, record)
    monitor.deal()
    monitor.start()
    phones[0].refresh()
    assert phones[0].seat_page is not None  # seated, but the page has not shown it yet (no heartbeat)
    me = phones[0].student
    again = ClassPage(store, query=f"?code={record.code}&student={me.id}&key={me.key}")
    assert again.seat_page is not None and again.seat_page.role == "seat", again.status.message
    seat_page = again.seat_page

    def confirmed() -> bool:
        held = store.load(seat_page.table_id).meta["claims"][str(seat_page.seat)]
        return bool(held.get("confirmed")) if isinstance(held, dict) else True

    # The class page's own heartbeat says the page is there, not that it drew the seat page
    # (whose link the address bar gets with it): a reload now must still come back to the seat.
    again.heartbeat.click()
    assert not confirmed()
    seat_page.heartbeat.click()  # the seat page's own heartbeat: it is drawn, its link in the address bar
    assert confirmed()  # the seat is this device's for good
    # The student's own class link, opened again once the seat is confirmed (the join address
    # from the history), is back on the seat too: the seat's key does not change, so the seat
    # link the address bar held opens it as well.
    key = store.load(seat_page.table_id).meta["seat_keys"][str(seat_page.seat)]
    late = ClassPage(store, query=f"?code={record.code}&student={me.id}&key={me.key}")
    assert late.seat_page is not None and late.seat_page.role == "seat", late.status.message
    assert store.load(seat_page.table_id).meta["seat_keys"][str(seat_page.seat)] == key
