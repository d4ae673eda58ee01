"""A class of Danger World and a class of Dangerous Ideas in headless Chromium, phones only: three
phones (390x844) join by the class's short address, the monitor (1366x768) deals and starts,
every phone becomes its student's seat (the first student of a Danger World table its GM), a
phone plays the first move of its seat, the class board (1920x1080) says whom the table waits
for, and the class is ended with the monitor's two presses. New Rule's and Leerdam's classes are
played the same way in tests/test_browser_classes.py and tests/test_browser_class.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from playbook import classes as cl
from playbook.serve import RunningServer
from playbook.store import Store
from rules.games import card
from tests.support.browser import Devices, serving_class

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]

PHONES = 3
WAIT_MS = 120_000
NAMES = ("Ana", "Bo", "Cy")


@pytest.fixture
def room(tmp_path: Path) -> Iterator[RunningServer]:
    with serving_class(tmp_path, PHONES) as server:
        yield server


@pytest.fixture
def devices(chromium) -> Iterator[Devices]:
    with Devices(chromium, timeout_ms=WAIT_MS) as found:
        yield found


def _first_move_danger_world(phones: dict[str, Page], record: cl.ClassRecord, store: Store) -> str:
    """The GM's phone has the GM's panel and no sheet to write; each player's phone writes only
    its own character's sheet. A player takes a ready-made sheet: the table then waits for the
    other player. Returns the name the class board should say it waits for."""
    root = ".playbook-danger-world.playbook-seat"
    gm_name = next(s.name for s in record.students if s.seat == 0)
    players = [s for s in record.students if s.seat != 0]
    expect(phones[gm_name].locator(f"{root} .pb-gm").first).to_be_attached(timeout=WAIT_MS)
    expect(phones[gm_name].locator(f"{root} [class*='pb-quick-']")).to_have_count(0)
    seats = {s.name: s.seat - 1 for s in players}  # the GM is the table's first student
    for student in players:
        phone = phones[student.name]
        expect(phone.locator(f"{root} .pb-quick-{seats[student.name]}")).to_be_visible(timeout=WAIT_MS)
        expect(phone.locator(f"{root} .pb-gm")).to_have_count(0)
        other = 1 - seats[student.name]
        expect(phone.locator(f"{root} .pb-quick-{other}")).to_have_count(0)
    maker, waiting = players[0], players[1]
    phones[maker.name].locator(f"{root} .pb-quick-{seats[maker.name]}").click()
    expect(phones[maker.name].locator(f"{root} .pb-roll")).to_be_enabled(timeout=WAIT_MS)
    return waiting.name


def _first_move_dangerous_ideas(phones: dict[str, Page], record: cl.ClassRecord, store: Store) -> str:
    """Each phone places its own starting stones; one places them, the table waits for the rest."""
    root = ".playbook-dangerous-ideas.playbook-seat"
    for phone in phones.values():
        expect(phone.locator(f"{root} .pb-placer .pb-place-confirm")).to_be_visible(timeout=WAIT_MS)
    first = record.students[0].name
    phone = phones[first]
    for place, count in (("think", 3), ("create", 2), ("connect", 1), ("defend", 1)):
        box = phone.locator(f"{root} .pb-place-{place} input")
        box.fill(str(count))
        box.press("Tab")  # a number box sends its value when it is left
    expect(phone.locator(f"{root} .pb-place-confirm")).to_be_enabled(timeout=WAIT_MS)
    phone.locator(f"{root} .pb-place-confirm").click()
    expect(phone.locator(f"{root} .pb-placer")).to_have_count(0, timeout=WAIT_MS)
    return record.students[1].name


@pytest.mark.parametrize("game", ["danger-world", "dangerous-ideas"])
def test_a_class_is_dealt_started_and_ended_with_phones_only(game: str, room: RunningServer, devices: Devices) -> None:
    store = Store(room.db_path)
    record = cl.create_class(store, game, PHONES, seed=5)
    links = cl.class_links("", record)
    board = devices.page(1920, 1080)
    board.goto(room.url + "voila/render/" + links["board"], wait_until="domcontentloaded")
    phones = {name: devices.page() for name in NAMES}
    for phone in phones.values():
        phone.goto(room.url + f"j/{record.code.lower()}", wait_until="commit")
    for name, phone in phones.items():
        phone.locator(".playbook-class-join .pb-name-box input").fill(name)
        phone.locator(".playbook-class-join .pb-join-class").click()
    for phone in phones.values():
        expect(phone.locator(".playbook-class-student")).to_contain_text("You are in", timeout=WAIT_MS)
    expect(board.locator(".playbook-class-board")).to_contain_text(f"Here: {PHONES}", timeout=WAIT_MS)

    monitor = devices.page(1366, 768)
    monitor.goto(room.url + "voila/render/" + links["monitor"], wait_until="domcontentloaded")
    monitor.locator(".playbook-class-monitor .pb-deal").click()
    monitor.locator(".playbook-class-monitor .pb-start-class").click()
    # Every phone becomes its own seat, built in place: no shared screen to pass round.
    root = f".playbook-{game}.playbook-seat"
    for phone in phones.values():
        expect(phone.locator(root)).to_be_visible(timeout=WAIT_MS)
        expect(phone.locator(".playbook-class-student")).not_to_contain_text("shared screen")
    record = cl.load_class(store, record.id)
    (table_id,) = record.tables
    table = store.load(table_id)
    assert len(table.meta["claims"]) == PHONES and not table.meta.get("bots")  # every seat on a phone

    first_move = _first_move_danger_world if game == "danger-world" else _first_move_dangerous_ideas
    waiting = first_move(phones, record, store)
    assert len([a for a in store.load(table_id).game.actions if not a.chance]) == 1
    # The class board at a glance says, by name, whom the table waits for.
    expect(board.locator(".pb-class-table .pb-glance-line").first).to_contain_text(waiting, timeout=WAIT_MS)

    # Two presses end the class: the tables stop, every phone is told, the board shows the results.
    end = monitor.locator(".playbook-class-monitor .pb-end-class")
    end.click()
    expect(end).to_contain_text("Press again")
    end.click()
    for phone in phones.values():
        expect(phone.locator(root)).to_contain_text("The facilitator ended the class", timeout=WAIT_MS)
    if card(game).words.points:  # a game that keeps score: each phone leads with its own place
        expect(phones[NAMES[0]].locator(f"{root} .pb-seat-place")).to_contain_text("Stopped in setup: you stood", timeout=WAIT_MS)
    expect(board.locator(".playbook-class-board")).to_contain_text("Results", timeout=WAIT_MS)
    assert cl.load_class(store, record.id).phase == "over"
    assert card(game).devices
