"""What a page gives its live region, headless: the messages a screen reader hears, each once.

A page marks a message with `data-say` (a number new for each message) and `data-urgent`; the
template's a11y.js says each number once (tests/test_browser_keyboard.py hears it in Chromium).
Here: which messages a page's widgets hold after each move, that a redraw of the same state
adds none, that a refusal is urgent and the rest polite, and that a shared screen never holds a
seat's secret line in them.
"""

from __future__ import annotations

import re

from playbook import classes as cl
from playbook.access import new_key
from playbook.class_pace import PauseClass
from playbook.links import table_query
from playbook.store import Play, Store
from rules.new_rule import Draw
from tests.support.classes import class_page, joined
from tests.support.headless import one, seat_query
from tests.support.leerdam_page import pledge
from tests.support.leerdam_page import start as start_leerdam
from tests.support.new_rule_page import play_one, secrets_of
from tests.support.new_rule_page import start as start_new_rule
from widgets.announce import confirmation, outcome_lines
from widgets.common import Announcer, StatusLine, say_attrs
from widgets.leerdam import LeerdamDashboard
from widgets.new_rule import NewRuleDashboard

MARK = re.compile(r'data-say="([^"]+)" data-urgent="([01])"')


def marks(html: str) -> list[tuple[str, bool]]:
    return [(number, urgent == "1") for number, urgent in MARK.findall(html)]


def test_every_message_has_a_number_of_its_own_and_a_topic_says_only_what_changed() -> None:
    numbers = {say_attrs() for _ in range(50)}
    assert len(numbers) == 50
    assert 'data-urgent="1"' in say_attrs(urgent=True) and 'data-urgent="0"' in say_attrs()
    said = Announcer()
    assert said.layout.display == "none" and "pb-live-messages" in said._dom_classes
    assert said.follow("turn", "Bo: draw two candies.") and not said.follow("turn", "Bo: draw two candies.")
    assert said.follow("turn", "Cy: draw two candies.") and said.said == ["Bo: draw two candies.", "Cy: draw two candies."]
    said.announce("")  # nothing to say: no message
    for n in range(6):
        said.announce(f"line {n} <b>")
    # The last few stay (two said in one redraw both reach the page), escaped.
    assert len(marks(said.value)) == Announcer.KEEP and "line 5 &lt;b&gt;" in said.value and "line 1" not in said.value


def test_a_refusal_is_urgent_a_confirmation_polite_and_the_icon_is_not_read() -> None:
    line = StatusLine()
    line.refuse("Cannot start: pick a game.")
    ((first, urgent),) = marks(line.value)
    assert urgent and 'aria-hidden="true">✋</span>' in line.value and "role=" not in line.value
    line.ok("Saved.")
    ((second, urgent),) = marks(line.value)
    assert not urgent and second != first


def test_a_leerdam_seat_hears_its_pledge_the_reveal_and_its_turn_once_each(store: Store) -> None:
    host = LeerdamDashboard(store, query="")
    start_leerdam(host, bots={2: "fair", 3: "altruist", 4: "free-rider"})
    seat = LeerdamDashboard(store, query=seat_query(host, 0))
    assert seat.announcer.said == ["Your turn. Secret pledges: waiting for you and 1 other."]
    one(seat, "pb-pledge").value = 2
    one(seat, "pb-pledge-confirm").click()
    assert seat.announcer.said[-2:] == ["Done. You pledged 2 units to the dyke.", "Secret pledges: waiting for 1 other."]
    sent = seat.announcer.value
    assert seat.refresh() is False and seat.announcer.value == sent  # nothing new: nothing said
    pledge(host, 1, 1)
    seat.refresh()
    reveal, turn = seat.announcer.said[-2:]
    assert reveal.startswith("Year 1: the pledges revealed. The pledges are revealed: Ana 2, Bo 1,")
    # A seat's routine line is not an outcome (the turn line says who is left); its own line
    # was its confirmation.
    assert "has made a secret pledge" not in reveal and "You pledged" not in reveal
    assert turn == "Your turn. Allocation: waiting for you and 1 other."
    # Every message of the page is polite; the refusals are the status line's.
    assert all(not urgent for _n, urgent in marks(seat.announcer.value))
    # Bo's page never hears Ana's secret.
    bo = LeerdamDashboard(store, query=seat_query(host, 1))
    assert not any("You pledged 2" in line for line in bo.announcer.said)


def test_a_shared_screen_says_the_move_and_never_a_seats_secret(store: Store) -> None:
    host = NewRuleDashboard(store, query="")
    start_new_rule(host)
    play_one(host)  # Ana draws on the facilitator's screen (hot seat)
    assert host.announcer.said[-2:] == ["Done. Ana draws 2 candies blindly.", "Ana: keep the draw or swap it."]
    text = host.announcer.value
    for secret in secrets_of(host, 0):
        assert secret not in text


def test_a_move_refused_behind_the_pages_back_is_said_at_once_and_not_confirmed(store: Store) -> None:
    host = NewRuleDashboard(store, query="")
    start_new_rule(host, bots={1: "random", 2: "random"})
    phone = NewRuleDashboard(store, query=seat_query(host, 0))
    draw = one(phone, "pb-draw")
    # Another page draws for Ana first; this page has not looked yet.
    store.submit(host.table_id, Play(Draw(seat=0)), store.version(host.table_id))
    before = list(phone.announcer.said)
    draw.click()
    assert phone.status.kind == "refuse"
    assert marks(one(phone, "pb-status").value)[0][1]  # urgent
    assert not any(line.startswith("Done.") for line in phone.announcer.said[len(before) :]), phone.announcer.said


def test_the_outcome_skips_routine_lines_and_the_confirmation_prefers_the_seats_own_line() -> None:
    from rules.core import Event

    events = [
        Event("Bo has made a secret pledge."),
        Event("You pledged 1 unit to the dyke.", frozenset({0})),
        Event("The pledges are revealed: Ana 1, Bo 1."),
        *(Event(f"line {n}") for n in range(7)),
    ]
    lines = outcome_lines(events, ("Ana", "Bo"))
    assert lines == [f"line {n}" for n in range(2, 7)]  # the last five, public, no routine line
    assert confirmation(events, 0, "Ana") == "Done. You pledged 1 unit to the dyke."
    # A shared screen: not the seat's secret line, the public one naming the mover.
    assert confirmation(events, None, "Ana") == "Done."
    assert confirmation(events, None, "Bo") == "Done. Bo has made a secret pledge."
    assert confirmation([Event("Ana keeps the draw.")], None, "Ana") == "Done. Ana keeps the draw."


def test_a_students_class_page_says_its_screen_once(store: Store) -> None:
    phones, desk = joined(store, "new-rule", ["Ana", "Bo", "Cy", "Di"])
    ana = phones[0]
    said = list(ana.announcer.said)
    assert any("You are in, Ana." in line for line in said), said
    ana.refresh()
    assert ana.announcer.said == said  # the same screen: said once
    assert desk.deal(), desk.status.message
    ana.refresh()
    (dealt,) = ana.announcer.said[len(said) :]
    assert dealt.startswith("Table 1") and "Wait for the start." in dealt


def test_a_pause_is_said_once_on_the_class_board_and_on_a_seats_countdown(store: Store) -> None:
    record = cl.create_class(store, "leerdam", 5, seed=5, pace={"seconds": 60})
    for i in range(5):
        record = cl.submit(store, record.id, cl.Join(f"Student {i + 1}", new_key()), record.version)
    record = cl.submit(store, record.id, cl.Deal(), record.version)
    record = cl.submit(store, record.id, cl.Start(), record.version)
    board = class_page(store, record, "board")
    assert "Paused by the teacher" not in board.announcer.said
    record = cl.submit(store, record.id, PauseClass(True), record.version)
    board.refresh()
    board.refresh()
    assert board.announcer.said.count("Paused by the teacher") == 1
    # A seat's countdown box says the pause with a number of its own, sent once.
    table = store.load(record.tables[0])
    seat = LeerdamDashboard(store, query=seat_query_of(table.id, table.meta, 0))
    box = one(seat, "pb-countdown").value
    assert "Paused by the teacher" in box and len(marks(box)) == 1
    seat.refresh()
    assert one(seat, "pb-countdown").value == box


def seat_query_of(table_id: str, meta: dict, seat: int) -> str:
    return table_query(table_id, seat=seat, key=meta["seat_keys"][str(seat)])
