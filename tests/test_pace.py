"""A lesson's pace without a browser: a class's length, a timer per decision that runs out (the
game's default, the fill bot), extra time, pause and resume, and every table moved on at once.

The timer's clock is passed in (`run_timer(store, table, now)`): nothing here sleeps. The moments
a table began to wait are the store's own (its transaction's clock), so each test counts from them.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from playbook import classes as cl
from playbook import pace, timer
from playbook.access import new_key
from playbook.class_pace import PauseClass, SetExtra, SetPace
from playbook.cli import main
from playbook.store import Play, StaleTable, Store
from rules import leerdam as ld
from rules import new_rule as nr
from rules.core import Game
from rules.games import CARDS
from tests.support.tables import make_table

pytestmark = pytest.mark.timeout(240)

NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli")


def _class(store: Store, game: str, students: int, **options: Any) -> cl.ClassRecord:
    """A class of `students` ("Student 1", ...) joined, dealt and started through its write path."""
    record = cl.create_class(store, game, students, seed=5, **options)
    for i in range(students):
        record = cl.submit(store, record.id, cl.Join(f"Student {i + 1}", new_key()), record.version)
    record = cl.submit(store, record.id, cl.Deal(), record.version)
    return cl.submit(store, record.id, cl.Start(), record.version)


def _timed_table(store: Store, seconds: int = 60, by: str = pace.BY_DEFAULT, slug: str = "leerdam") -> str:
    table_id, _ = make_table(store, slug, NAMES)
    table = store.load(table_id)
    store.submit(table_id, pace_set(seconds, by), table.version)
    return table_id


def pace_set(seconds: int, by: str) -> Any:
    from playbook.store import SetMeta

    return SetMeta({pace.PACE: pace.Pace(seconds, by).to_json()})


# -- length ------------------------------------------------------------------------------------------


def test_each_game_with_a_length_names_a_field_of_its_setup() -> None:
    for game in CARDS:
        if game.length is None:
            continue
        setup = game.module("rules").Setup
        assert game.length.field in {f.name for f in dataclasses.fields(setup)}, game.slug
    assert pace.length_variants("leerdam", "2") == {"max_years": 2}
    assert pace.length_variants("new-rule", "end") == {"max_rounds": None}
    assert pace.length_variants("dangerous-ideas", 3) == {"chapters": 3}
    assert pace.length_variants("leerdam", "") == {}
    with pytest.raises(pace.PaceError, match="no set length"):
        pace.length_variants("danger-world", 2)
    with pytest.raises(pace.PaceError, match="number of years"):
        pace.length_variants("leerdam", "two")
    assert pace.length_of("leerdam", {"max_years": 2}) == "2 years"
    assert pace.length_of("new-rule", {"max_rounds": None}) == "until the text's end"


def test_a_class_of_two_years_ends_its_villages_after_year_two(store) -> None:
    record = _class(store, "leerdam", 12, variants=pace.length_variants("leerdam", 2))
    assert record.variants == {"max_years": 2} and len(record.tables) == 2
    for table_id in record.tables:
        assert store.load(table_id).game.setup.max_years == 2
        for year in (1, 2):
            assert store.load(table_id).game.state.year == year
            assert timer.move_on(store, table_id) > 0
        state = store.load(table_id).game.state
        assert state.over and state.year == 2 and "2-year limit" in state.ended
        assert timer.move_on(store, table_id) == 0  # over: nothing more is moved


def test_class_new_carries_its_length_and_timer_to_the_record(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("PLAYBOOK_DB", str(tmp_path / "t.sqlite3"))
    assert main(["class", "new", "new-rule", "--students", "12", "--length", "end", "--timer", "45", "--at-zero", "bot", "--json", "--public-url", "http://school.example/"]) == 0
    made = json.loads(capsys.readouterr().out)
    record = cl.load_class(Store(tmp_path / "t.sqlite3"), made["class"])
    assert record.variants == {"max_rounds": None} and record.pace == {"seconds": 45, "by": "bot"}
    assert main(["class", "new", "leerdam", "--students", "12", "--length", "2", "--timer", "60", "--public-url", "http://school.example/"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("class ") and "(leerdam, 12 students, 2 years, 60 s per decision)" in said
    assert main(["class", "new", "leerdam", "--students", "12", "--length", "soon"]) == 2
    assert "number of years (or 'end'), not 'soon'" in capsys.readouterr().err
    assert len(cl.classes(Store(tmp_path / "t.sqlite3"))) == 2  # the refused one made nothing
    with pytest.raises(cl.ClassError, match="5-3600 seconds"):
        cl.create_class(Store(tmp_path / "t.sqlite3"), "leerdam", 12, pace={"seconds": 2})


# -- a timer that runs out ---------------------------------------------------------------------------


def test_a_timer_runs_out_for_one_household_and_the_default_pledges_nothing(location) -> None:
    store = Store(location)
    table_id = _timed_table(store, 60)
    table = store.load(table_id)
    due = timer.deadlines(table)
    assert set(due) == set(range(5)) and len(set(due.values())) == 1  # the phase's start, for all
    start = due[0] - 60
    for seat in range(4):  # four pledge; the fifth's clock still counts from the phase's start
        store.submit(table_id, Play(ld.Contribute(seat=seat, units=seat + 1)), store.version(table_id))
    table = store.load(table_id)
    assert timer.deadlines(table) == {4: start + 60}
    assert timer.run_timer(store, table_id, start + 59) == [] and store.version(table_id) == table.version
    assert timer.run_timer(store, table_id, start + 61) == [4]
    after = store.load(table_id)
    assert after.game.state.phase == "allocate"
    contributions = [a for a in after.game.actions if isinstance(a, ld.Contribute)]
    assert [(a.seat, a.units) for a in contributions] == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]
    assert pace.timed_out(after.meta) == {after.game.actions.index(contributions[-1]): "default"}
    assert "timed out: default" in store.changes(table_id)[-1]["summary"]
    # Allocation is a new decision: every household's clock starts again.
    assert set(timer.deadlines(after)) == set(range(5)) and min(timer.deadlines(after).values()) >= start + 60 - 1


def test_the_fill_bot_moves_for_a_seat_whose_time_ran_out_and_the_csv_says_so(store) -> None:
    record = _class(store, "leerdam", 5, pace={"seconds": 30, "by": "bot"})
    table_id = record.tables[0]
    table = store.load(table_id)
    assert pace.pace_of(table.meta) == pace.Pace(30, "bot")
    start = min(timer.deadlines(table).values()) - 30
    for seat in range(1, 5):
        store.submit(table_id, Play(ld.Contribute(seat=seat, units=2)), store.version(table_id))
    before = store.load(table_id)
    assert timer.run_timer(store, table_id, start + 31) == [0]
    after = store.load(table_id)
    made = after.game.actions[len(before.game.actions)]
    expected, how = timer.timeout_action(before.game, 0, pace.BY_BOT) or (None, "")
    assert made == expected and how == "bot fair" and made.seat == 0
    assert [a for a in after.game.actions if isinstance(a, ld.Contribute) and a.seat != 0] == [ld.Contribute(seat=s, units=2) for s in range(1, 5)]
    rows = [r for r in cl.decision_rows(store, cl.load_class(store, record.id), reveal=True) if r["decision"].startswith(("pledges", "Student"))]
    mine = [r for r in cl.decision_rows(store, cl.load_class(store, record.id), reveal=True) if r["seat"] == 1]
    assert rows and mine[0]["timed_out"] == "bot fair" and mine[0]["student"] == "bot (fair) for Student 1"
    others = [r for r in cl.decision_rows(store, cl.load_class(store, record.id), reveal=True) if r["seat"] == 2]
    assert others[0]["timed_out"] == "" and others[0]["student"] == "Student 2"


def test_two_pages_making_the_same_timed_out_move_make_it_once(store) -> None:
    table_id = _timed_table(store, 20)
    table = store.load(table_id)
    action, how = timer.timeout_action(table.game, 2, pace.BY_DEFAULT) or (None, "")
    assert action == ld.Contribute(seat=2, units=0)
    store.submit(table_id, Play(action, timed_out=how), table.version)
    with pytest.raises(StaleTable):  # the board and the monitor both saw seat 3 run out
        store.submit(table_id, Play(action, timed_out=how), table.version)
    assert sum(1 for a in store.load(table_id).game.actions if a.seat == 2) == 1


def test_new_rules_defaults_draw_keep_pick_what_is_held_most_and_pay_the_best() -> None:
    game = Game(nr.RULES, nr.Setup(names=NAMES[:3]), 4)
    state = game.state
    seat = state.waiting_for()[0]
    assert nr.timeout_move(state, seat) == nr.Draw(seat=seat)
    assert nr.timeout_move(state, (seat + 1) % 3) is None  # not its turn
    while game.state.phase in ("draw", "choose"):
        s = game.state.waiting_for()[0]
        game.apply(nr.timeout_move(game.state, s))
    state = game.state
    assert state.phase == "pick"
    for s in state.waiting_for():
        pick = nr.timeout_move(state, s)
        most = max(state.count(s, c) for c in state.colours)
        assert isinstance(pick, nr.Pick) and state.count(s, pick.colour) == most
    for s in state.waiting_for():
        game.apply(nr.timeout_move(game.state, s))
    if game.state.phase == "pay":
        s = game.state.waiting_for()[0]
        assert nr.timeout_move(game.state, s) == nr.suggested_payment(game.state, s)


# -- extra time, pause, every table moved on ----------------------------------------------------------


def test_twice_the_time_for_one_student_gives_that_seat_twice_the_time(store) -> None:
    record = _class(store, "leerdam", 5, pace={"seconds": 40})
    slow = record.groups[0][3]
    assert slow is not None
    record = cl.submit(store, record.id, SetExtra(slow, 2.0), record.version)
    assert record.pace["extra"] == {slow: 2.0}
    table_id = record.tables[0]
    table = store.load(table_id)
    due = timer.deadlines(table)
    start = due[0] - 40
    assert due[3] == start + 80 and all(due[s] == start + 40 for s in (0, 1, 2, 4))
    assert sorted(timer.run_timer(store, table_id, start + 41)) == [0, 1, 2, 4]
    assert timer.deadlines(store.load(table_id)) == {3: start + 80}
    assert timer.run_timer(store, table_id, start + 79) == []
    assert timer.run_timer(store, table_id, start + 81) == [3]
    with pytest.raises(cl.ClassError, match=r"x1, x1\.5, x2"):
        cl.submit(store, record.id, SetExtra(slow, 3.0), record.version)


def test_pause_then_resume_shifts_the_deadlines_and_no_move_is_made_while_paused(store, monkeypatch) -> None:
    record = _class(store, "leerdam", 5, pace={"seconds": 60})
    table_id = record.tables[0]
    due = timer.deadlines(store.load(table_id))
    start = due[0] - 60
    clock = {"now": start + 20}
    monkeypatch.setattr(cl, "time", type("Clock", (), {"time": staticmethod(lambda: clock["now"])}))
    record = cl.submit(store, record.id, PauseClass(True), record.version)
    paused = store.load(table_id)
    assert pace.paused(paused.meta) and timer.deadlines(paused) == {}
    assert timer.run_timer(store, table_id, start + 10_000) == [] and store.version(table_id) == paused.version
    with pytest.raises(cl.ClassError, match="paused already"):
        cl.submit(store, record.id, PauseClass(True), record.version)
    clock["now"] = start + 320  # five minutes later
    record = cl.submit(store, record.id, PauseClass(False), record.version)
    resumed = store.load(table_id)
    assert not pace.paused(resumed.meta)
    assert timer.deadlines(resumed) == {s: due[s] + 300 for s in due}  # the 40 s each had left, still left
    assert timer.run_timer(store, table_id, start + 359) == []
    assert len(timer.run_timer(store, table_id, start + 361)) == 5


def test_a_timer_set_while_playing_and_next_round_for_every_table(store) -> None:
    record = _class(store, "new-rule", 8)
    assert len(record.tables) == 2 and all(timer.deadlines(store.load(t)) == {} for t in record.tables)  # off by default
    record = cl.submit(store, record.id, SetPace(90, pace.BY_DEFAULT), record.version)
    for table_id in record.tables:
        table = store.load(table_id)
        assert pace.pace_of(table.meta).seconds == 90 and len(timer.deadlines(table)) == 1  # the seat to draw
        round_before = table.game.state.round
        assert timer.move_on(store, table_id) > 0
        after = store.load(table_id)
        assert after.game.state.round == round_before + 1 or after.game.state.over
        people = [i for i, a in enumerate(after.game.actions) if a.seat is not None and not a.chance and not after.by_bot[i]]
        assert people and all(i in pace.timed_out(after.meta) for i in people)


def test_an_undo_takes_back_a_timed_out_mark_with_its_move(store) -> None:
    from playbook.store import Undo

    table_id = _timed_table(store, 30)
    for seat in range(5):
        store.submit(table_id, Play(ld.Contribute(seat=seat, units=1)), store.version(table_id))
    table = store.load(table_id)
    assert table.game.state.phase == "allocate"
    action, how = timer.timeout_action(table.game, 1, pace.BY_DEFAULT) or (None, "")
    store.submit(table_id, Play(action, timed_out=how), table.version)
    assert pace.timed_out(store.load(table_id).meta) == {len(table.game.actions): "default"}
    store.submit(table_id, Undo(), store.version(table_id))
    assert pace.timed_out(store.load(table_id).meta) == {}
    store.submit(table_id, Play(ld.Allocate(seat=1, plan=())), store.version(table_id))  # the player's own, at that place
    assert pace.timed_out(store.load(table_id).meta) == {}


# -- the pages: the countdown, the timer a page keeps, the monitor's controls ----------------------------


def _seat_and_board(store: Store, table_id: str, links: dict[str, Any], seat: int) -> tuple[Any, Any]:
    from widgets.leerdam import LeerdamDashboard

    return LeerdamDashboard(store, query=links["seats"][seat]["url"]), LeerdamDashboard(store, query=links["board"])


def test_a_seat_page_counts_down_its_own_deadline_and_the_board_keeps_the_timer(store) -> None:
    import re

    from tests.support.headless import one
    from widgets.pace import TimerKeeper

    table_id, links = make_table(store, "leerdam", NAMES)
    store.submit(table_id, pace_set(45, pace.BY_DEFAULT), store.version(table_id))
    phone, board = _seat_and_board(store, table_id, links, 2)
    due = timer.deadlines(store.load(table_id))
    for page, seat in ((phone, 2), (board, None)):
        box = one(page, "pb-countdown").value
        deadline = re.search(r'data-deadline="(\d+)"', box)
        assert deadline and int(deadline.group(1)) == int(due[seat if seat is not None else 0] * 1000), box
        # The last seconds go to the page's one live region (a11y.js), not a region of the box's own.
        assert 'class="pb-countdown-say"' in box and "aria-live" not in box and 'data-announce="30,10,0"' in box
    assert "Your time" in one(phone, "pb-countdown").value and "Time for this decision" in one(board, "pb-countdown").value
    sent = one(phone, "pb-countdown").value
    phone.refresh()
    assert one(phone, "pb-countdown").value == sent  # no message as the seconds pass
    # The board keeps the timer (its clock injected): nothing before the deadline, the move at it.
    clock = {"now": due[0] - 1}
    keeper = TimerKeeper(store, board._timed_tables, lambda: True, clock=lambda: clock["now"])
    assert keeper.tick() == 0 and phone._timed_tables() == []  # a seat page keeps no timer
    clock["now"] = due[0] + 0.5
    assert keeper.tick() == 5
    phone.refresh()
    assert phone.game.state.phase == "allocate" and "Your time" in one(phone, "pb-countdown").value  # a new decision, a new deadline
    assert "Your time ran out: the game's default move was made for you (contribute)" in phone.status.message
    assert int(re.search(r'data-deadline="(\d+)"', one(phone, "pb-countdown").value).group(1)) > int(due[2] * 1000)


def test_the_monitor_pauses_resumes_and_moves_every_table_on_and_phones_say_paused(store) -> None:
    from tests.support.classes import class_page, student
    from tests.support.classes import monitor as class_monitor
    from tests.support.headless import one, synced_text

    record = cl.create_class(store, "leerdam", 10, seed=3, pace={"seconds": 60}, variants={"max_years": 3})
    phones = [student(store, record.code, f"Household {i + 1}") for i in range(10)]
    monitor = class_monitor(store, record)
    monitor.deal()
    monitor.start()
    for phone in phones:
        phone.refresh()
    panel = one(monitor, "pb-pace")
    assert "60 s per decision" in synced_text(panel) and "length: 3 years" in synced_text(panel)
    seat_page = phones[0].seat_page
    assert "Your time" in one(seat_page, "pb-countdown").value
    board = class_page(store, monitor.record, "board")
    glance = one(board, "pb-class-board-body").value
    assert glance.count("pb-countdown-box") == 1 and 'data-announce=""' in glance  # shown on the village's card, not said
    one(monitor, "pb-pace-pause").click()
    board.refresh()
    assert "Paused by the teacher" in one(board, "pb-class-board-body").value
    assert cl.load_class(store, record.id).pace.get("paused_at") is not None, monitor.status.message
    seat_page.refresh()
    assert "Paused by the teacher" in one(seat_page, "pb-countdown").value
    assert "Paused by the teacher" in synced_text(panel) and one(monitor, "pb-pace-pause").description == "Resume the class"
    assert monitor.timer.tick() == 0  # paused: no move however late
    one(monitor, "pb-pace-pause").click()
    seat_page.refresh()
    assert "Your time" in one(seat_page, "pb-countdown").value
    table_id = monitor.record.tables[0]
    assert store.load(table_id).game.state.year == 1
    assert one(monitor, "pb-pace-next").description == "Next year for every table"
    one(monitor, "pb-pace-next").click()
    assert store.load(table_id).game.state.year == 2, monitor.status.message
    assert "moved on to its next year" in monitor.status.message
    # Extra time for one student, from the monitor.
    slow = monitor.record.students[4]
    one(monitor, f"pb-extra-{slow.id}").value = 2.0
    assert cl.load_class(store, record.id).pace["extra"] == {slow.id: 2.0}
    assert pace.pace_of(store.load(table_id).meta).extra == {4: 2.0}


def test_the_front_page_starts_a_class_with_a_length_and_a_timer(store, monkeypatch) -> None:
    from playbook.access import server_key
    from tests.support.headless import one
    from widgets.front_page import TableIndex

    page = TableIndex(store, query=f"?key={server_key()}")
    one(page, "pb-class-game").value = "new-rule"
    assert "rounds" in one(page, "pb-class-length-unit").value
    one(page, "pb-class-length").value = "soon"
    one(page, "pb-class-new").click()
    assert "number of rounds" in one(page, "pb-class-made").value and cl.classes(store) == []
    one(page, "pb-class-length").value = "4"
    one(page, "pb-class-timer").value = 90
    one(page, "pb-class-at-zero").value = pace.BY_BOT
    one(page, "pb-class-new").click()
    [record] = cl.classes(store)
    assert record.variants == {"max_rounds": 4} and record.pace == {"seconds": 90, "by": "bot"}


def test_three_pages_keeping_one_timer_at_once_make_each_move_once(location, tmp_path) -> None:
    """The board, the facilitator's page and the monitor, as three processes, all see the same
    five seats run out at the same moment: every seat is moved once, whoever moved it."""
    import multiprocessing

    from tests.support.pace_workers import keep_timer

    store = Store(location)
    table_id = _timed_table(store, 30)
    start = min(timer.deadlines(store.load(table_id)).values()) - 30
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(3)
    outs = [tmp_path / f"page{i}.json" for i in range(3)]
    workers = [context.Process(target=keep_timer, args=(location, table_id, start + 31, barrier, str(out))) for out in outs]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(150)
        assert worker.exitcode == 0
    moved = [seat for out in outs for seat in json.loads(out.read_text())]
    assert sorted(moved) == [0, 1, 2, 3, 4]
    table = store.load(table_id)
    assert [a.seat for a in table.game.actions if isinstance(a, ld.Contribute)] and sorted(a.seat for a in table.game.actions if isinstance(a, ld.Contribute)) == [0, 1, 2, 3, 4]
    assert len(pace.timed_out(table.meta)) == 5 and table.game.state.phase == "allocate"


def test_a_single_tables_facilitator_sets_its_timer_and_pauses_it(store) -> None:
    from tests.support.headless import one
    from widgets.leerdam import LeerdamDashboard

    table_id, links = make_table(store, "leerdam", NAMES)
    host = LeerdamDashboard(store, query=links["facilitator"])
    assert host.role == "facilitator" and timer.deadlines(store.load(table_id)) == {}
    one(host, "pb-table-timer").value = 3  # too short: refused, nothing changes
    one(host, "pb-table-timer-set").click()
    assert "5-3600 seconds" in host.status.message and pace.pace_of(store.load(table_id).meta) == pace.Pace()
    one(host, "pb-table-timer").value = 45
    one(host, "pb-table-at-zero").value = pace.BY_BOT
    one(host, "pb-table-timer-set").click()
    table = store.load(table_id)
    assert pace.pace_of(table.meta) == pace.Pace(45, pace.BY_BOT) and len(timer.deadlines(table)) == 5
    assert host._timed_tables() == [table_id]
    one(host, "pb-table-pause").click()
    assert pace.paused(store.load(table_id).meta) and one(host, "pb-table-pause").description == "Resume"
    one(host, "pb-table-pause").click()
    assert not pace.paused(store.load(table_id).meta) and len(timer.deadlines(store.load(table_id))) == 5
    # The table's own CSV says which moves its timer made.
    from tests.support.headless import csv_rows

    start = min(timer.deadlines(store.load(table_id)).values()) - 45
    assert timer.run_timer(store, table_id, start + 46) == [0, 1, 2, 3, 4]
    host.refresh()
    host.prepare_debrief()
    rows = csv_rows(one(host, "pb-debrief-csv").value)
    assert [r["timed_out"] for r in rows] == ["bot fair"] * 5 and rows[0]["decision"]
