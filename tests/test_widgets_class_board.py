"""The class board while a lesson runs, headless: its tables side by side say what its live
cards say for the round being played, and the room code and short address stay in its corner."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

import lab
from playbook import classes as cl
from playbook.store import Play, Store
from tests.support.classes import class_page, monitor, student
from tests.support.phases import PHASES
from widgets.board import ClassDebrief, board_scene

#: a class of five with a right-to-left name and one with markup in it.
STUDENTS = ("מרים", "Bo", "Ana & <i>Co</i>", "Dara", "Ed")


def _text(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def _started(store: Store, game: str, students: int) -> cl.ClassRecord:
    record = cl.create_class(store, game, students, seed=4)
    for name in STUDENTS[:students]:
        student(store, record.code, name)
    desk = monitor(store, record)
    assert desk.deal() and desk.start(), desk.status.message
    return cl.load_class(store, record.id)


def _play_until(store: Store, table_id: str, until: Callable[[Any], bool]) -> None:
    """Bots play every seat through the store (as the phones would) until `until(state)`."""
    bots = list(lab.BOTS[store.load(table_id).game.rules.slug].values())
    rng = random.Random(1)
    while not until((table := store.load(table_id)).game.state):
        seat = table.game.rules.waiting_for(table.game.state)[0]
        store.submit(table_id, Play(bots[seat % len(bots)](table.game.state, seat, rng)), table.version)


def _cards(body: str) -> list[str]:
    """Each table's live card on the class board, in order."""
    return re.findall(r'<div class="pb-card pb-class-table".*?</a></div></div>', body, re.S)


def _cell(debrief_body: str, table: int) -> str:
    """Table `table`'s column of the tables side by side."""
    found = re.search(rf'<div class="pb-phase-board pb-class-debrief-table" data-table="{table}" data-step="(\w+)">(.*?)(?=<div class="pb-phase-board pb-class-debrief-table"|$)', debrief_body, re.S)
    assert found is not None, debrief_body[:400]
    return found.group(1) + " " + found.group(2)


# What a phase's live card and its column are checked by: the phases of tests/support/phases.py.
MID_ROUND = {
    "leerdam": (5, PHASES["leerdam"]["decision"], lambda s: s.phase == "contribute" and sum(p is not None for p in s.pledges) == 1, "Pledged", "1 of 5"),
    "new-rule": (3, PHASES["new-rule"]["decision"], lambda s: s.phase == "pick" and any(s.picks), "Picks in", "1 of 3"),
}


@pytest.mark.parametrize("game", list(MID_ROUND))
def test_the_tables_side_by_side_say_what_the_live_cards_say_for_the_round_being_played(store: Store, game: str) -> None:
    students, phase_game, mid_round, label, count = MID_ROUND[game]
    # The phases' own game mid-round: its column is its board now, heading and key numbers.
    played = phase_game()
    alone = ClassDebrief("A class")
    alone.show([played])
    live_now = board_scene(played)
    assert live_now.phase == "decision"
    drawn = _text(_cell(alone.body.value, 0))
    assert drawn.startswith("now") and live_now.heading in drawn
    assert all(f"{f.label} {f.value}" in drawn for f in live_now.facts)
    # The same in a class, through the store, against the class board's own card for the table.
    record = _started(store, game, students)
    table_id = record.tables[0]
    _play_until(store, table_id, mid_round)
    board = class_page(store, record, "board")
    card = _cards(board.screen.children[0].value)[0]
    assert board.class_debrief is not None
    column = _cell(board.class_debrief.body.value, 0)
    assert column.startswith("now "), "the round being played is drawn as it is now"
    live = board_scene(store.load(table_id).game)
    # The same phase, in the card's data and the column's words ...
    assert f'data-phase="{live.phase}"' in card and f'data-phase="{live.phase}"' in column
    assert "Deciding" in _text(column) and "The facilitator sets" not in _text(column)
    # ... and the same key numbers: every one the card shows is in the column, under its label.
    shown = re.findall(r'pb-glance-label">(.*?)</div><div class="pb-key-number">(.*?)</div>', card)
    assert (label, count) in shown and len(shown) == 3
    for name, value in shown:
        assert re.search(rf'pb-fact-label">{re.escape(name)}</div><div class="pb-key">{re.escape(value)}</div>', column), (name, value)
    # The round being played is the side by side's last and its "now"; a round before it shows its end.
    word = "Year" if game == "leerdam" else "Round"
    assert board.class_debrief.jump.options[-1] == (f"{word} 1 · now", 1)


def test_a_round_already_played_is_drawn_as_it_ended_and_the_one_being_played_as_it_is(store: Store) -> None:
    record = _started(store, "leerdam", 5)
    table_id = record.tables[0]
    _play_until(store, table_id, lambda s: s.year == 2 and s.phase == "contribute" and sum(p is not None for p in s.pledges) == 2)
    board = class_page(store, record, "board")
    compare = board.class_debrief
    assert compare is not None and compare.round == 2
    now = _text(_cell(compare.body.value, 0))
    assert now.startswith("now") and "Year 2 · secret pledges" in now and "Pledged 2 of 5" in now
    compare.back.click()
    ended = _text(_cell(compare.body.value, 0))
    assert not ended.startswith("now") and "Year 1 · the flood" in ended and "Pledged" in ended


def test_the_room_code_and_short_address_stay_in_the_boards_corner_all_lesson(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYBOOK_URL", "http://192.168.1.20:8866")
    record = cl.create_class(store, "new-rule", 3, seed=4)
    board, desk = class_page(store, record, "board"), monitor(store, record)
    corner = re.compile(r'<div class="pb-class-corner".*?<b class="pb-corner-code">(\w+)</b><div class="pb-corner-address">(.*?)</div></div>')

    def shown(page: Any) -> tuple[str, str]:
        page.refresh()
        found = corner.search(page.header.value)
        assert found is not None, page.header.value
        return found.group(1), html.unescape(found.group(2))

    where = (record.code, "http://192.168.1.20:8866/j")
    assert shown(board) == shown(desk) == where  # the lobby (the board shows it large too)
    phones = [student(store, record.code, name) for name in STUDENTS[:3]]
    assert all("pb-class-corner" not in phone.header.value for phone in phones)  # a student's header is theirs
    desk.refresh()
    assert desk.deal() and shown(board) == where
    assert desk.start()
    board.refresh()
    playing = board.screen.children[0].value
    assert "pb-class-code" not in playing and "pb-short-address" not in playing  # the large code is gone ...
    assert shown(board) == shown(desk) == where  # ... the corner keeps it, on the facilitator's page too
    desk.refresh()
    assert desk.end()
    assert shown(board) == where  # a phone reopened after the end still finds its student's place
    assert all("pb-class-corner" not in phone.header.value for phone in phones)


def test_the_live_cards_isolate_a_right_to_left_name_from_the_words_and_numbers_beside_it(store: Store) -> None:
    """"waiting for מרים, Bo ..." on the class board: the name in a <bdi>, so the comma and the
    names after it keep their places (plain escaping let a trailing number read "(2-)")."""
    record = _started(store, "leerdam", 5)
    board = class_page(store, record, "board")
    card = _cards(board.screen.children[0].value)[0]
    line = re.search(r'pb-glance-line"[^>]*>(.*?)</div>', card)
    assert line is not None and "<bdi>מרים</bdi>" in line.group(1), line
    assert "&lt;i&gt;" in card or "Ana" not in card  # markup in a name stays text
