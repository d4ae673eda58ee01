"""Leerdam's anonymous pledges chosen at a class's start and on the command line."""

from __future__ import annotations

import json

import pytest

from playbook import classes as cl
from playbook.cli import main
from playbook.store import Play
from rules import leerdam as ld
from tests.support.classes import class_page as _page
from tests.support.classes import monitor as _monitor
from tests.support.classes import student as _student
from tests.support.headless import find, one, synced_text


def test_the_front_page_starts_an_anonymous_leerdam_class(store) -> None:
    from tests.support.keys import INDEX
    from widgets.front_page import TableIndex

    index = TableIndex(store, query=INDEX)
    one(index, "pb-class-game").value = "new-rule"
    assert one(index, "pb-class-anonymous").layout.display == "none"  # Leerdam's variant only
    one(index, "pb-class-game").value = "leerdam"
    assert one(index, "pb-class-anonymous").layout.display != "none"
    one(index, "pb-class-anonymous").value = True
    one(index, "pb-class-students-count").value = 10
    one(index, "pb-class-new").click()
    record = cl.classes(store)[0]
    assert record.variants == {"anonymous": True}
    assert cl.load_class(store, record.id).variants == {"anonymous": True}  # through the store


def test_an_anonymous_class_deals_anonymous_villages_and_its_board_shows_totals_only(store) -> None:
    record = cl.create_class(store, "leerdam", 12, seed=4, variants={"anonymous": True})
    for i in range(12):
        _student(store, record.code, f"Household {chr(65 + i)}")
    monitor = _monitor(store, record)
    monitor.deal()
    monitor.start()
    record = monitor.record
    states = []
    for table_id in record.tables:
        n = len(store.load(table_id).game.setup.names)
        assert n == 6 and store.load(table_id).game.setup.anonymous
        for seat in range(n):
            store.submit(table_id, Play(ld.Contribute(seat=seat, units=seat % 4)), store.version(table_id))
        after = store.load(table_id).game.state
        for seat in range(n):
            free = after.free_units(seat)
            plan = (ld.Assignment(seat, "subsistence", min(2, free)), ld.Assignment(seat, "profit", max(0, free - 2)))
            store.submit(table_id, Play(ld.Allocate(seat=seat, plan=plan)), store.version(table_id))
        state = store.load(table_id).game.state
        assert state.year == 2 and not state.over
        states.append(state)
    board = synced_text(_page(store, record, "board"))
    assert "Village 1" in board and "Village 2" in board and "pledged 7" in board  # 0+1+2+3+0+1, the total only
    for state in states:
        for household in state.households:
            # No household's own numbers on the class board: its Wealth would give its pledge away.
            assert f"{household.name} {household.wealth}" not in board and f"{household.name}: " not in board
    # Students play on: a village carries on to its end with the variant kept.
    assert find(_page(store, record, "board"), "pb-class-board-body")


def test_a_class_refuses_variants_that_make_no_game(store) -> None:
    for bad in ({"anonymous": "yes"}, {"names": ["A", "B", "C"]}, {"hidden": True}, {"capacity": 0}):
        with pytest.raises(cl.ClassError) as err:
            cl.create_class(store, "leerdam", 10, variants=bad)
        assert err.value.rule == "variants"
    assert cl.classes(store) == []


def test_the_command_line_makes_anonymous_tables_and_classes(store, capsys, monkeypatch) -> None:
    monkeypatch.setenv("PLAYBOOK_DB", str(store.location))
    assert main(["table", "new", "leerdam", "--players", "5", "--variant", "anonymous=true", "--json"]) == 0
    links = json.loads(capsys.readouterr().out)
    table_id = links["facilitator"].split("table=")[1].split("&")[0]
    assert store.load(table_id).game.setup.anonymous
    assert main(["class", "new", "leerdam", "--students", "12", "--variant", "anonymous=true misfortune=3,2,1,0,0,0", "--json"]) == 0
    made = json.loads(capsys.readouterr().out)
    assert cl.load_class(store, made["class"]).variants == {"anonymous": True, "misfortune": [3, 2, 1, 0, 0, 0]}
    assert main(["table", "new", "leerdam", "--players", "5", "--variant", "bots=fair*5"]) == 2
    assert "setup variants only" in capsys.readouterr().err
    assert main(["table", "new", "leerdam", "--players", "5", "--variant", "anonymous=maybe"]) == 2
    assert "anonymous is true or false" in capsys.readouterr().err


def test_the_class_csv_keeps_an_anonymous_villages_pledges_out_until_they_are_shown(store) -> None:
    record = cl.create_class(store, "leerdam", 5, seed=2, variants={"anonymous": True})
    for i in range(5):
        _student(store, record.code, f"Household {chr(65 + i)}")
    monitor = _monitor(store, record)
    monitor.deal()
    monitor.start()
    table_id = monitor.record.tables[0]
    for seat in range(5):
        store.submit(table_id, Play(ld.Contribute(seat=seat, units=seat % 3)), store.version(table_id))
    rows = cl.decision_rows(store, monitor.record)
    assert [r["decision"] for r in rows] == ["pledges in secret"] * 5
    assert not any("You pledged" in r["outcome"] or "2 units" in r["decision"] for r in rows)
    assert "4 units for the dyke in all" in rows[-1]["outcome"]  # 0+1+2+0+1: the total, as the board says it
