"""A student's own phone is their place in a class, in headless Chromium with the page's own
script (return-to-seat.js): every way back to the seat from the same device, a second device
approved by the facilitator after the start (every websocket frame it receives read), and a
join whose page closed before the device kept its key. The same without a browser, and
release, rename and remove: test_class_devices.py.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import BrowserContext, Page, WebSocketRoute, expect

from playbook import classes as cl
from playbook.serve import RunningServer
from playbook.store import Store
from tests.support.browser import Devices, recorded, serving_class

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

WAIT_MS = 120_000
SEAT = ".playbook-new-rule.playbook-seat .playbook-private"
#: the kernel's websocket, which a test may sit in the middle of (`_between`).
KERNEL_SOCKET = re.compile(r"/api/kernels/[^/]+/channels")


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """The playbook as `playbook serve` runs it, for a small class: one server for the module."""
    with serving_class(tmp_path_factory.mktemp("class-devices"), 3) as server:
        yield server


@pytest.fixture
def devices(chromium) -> Iterator[Devices]:
    with Devices(chromium, timeout_ms=WAIT_MS) as found:
        yield found


def _joined(store: Store, record: cl.ClassRecord, name: str) -> None:
    """A classmate on a device of their own, joined and kept (as their page's script would)."""
    key, device = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    record = cl.submit(store, record.id, cl.Join(name, key, device), 0)
    sid = next(s.id for s in record.students if s.name == name)
    cl.submit(store, record.id, cl.Keep(sid, key, device), 0)


def _started(store: Store, record: cl.ClassRecord) -> cl.ClassRecord:
    record = cl.load_class(store, record.id)
    record = cl.submit(store, record.id, cl.Deal(), record.version)
    return cl.submit(store, record.id, cl.Start(), record.version)


def _join(phone: Page, url: str, name: str) -> None:
    phone.goto(url, wait_until="commit")
    phone.locator(".playbook-class-join .pb-name-box input").fill(name)
    phone.locator(".playbook-class-join .pb-join-class").click()


class Held:
    """The frames a page sent to its kernel that a test holds back (`between`), until `release`."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.server: WebSocketRoute | None = None

    def release(self) -> None:
        assert self.server is not None
        for frame in self.frames:
            self.server.send(frame)
        self.frames.clear()


def _between(page: Page, hold: Callable[[bytes], bool]) -> Held:
    """Sit in the page's kernel websocket: every frame the page sends for which `hold(frame)`
    is true is held back, the rest goes through (and everything the kernel sends)."""
    held = Held()

    def route(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()
        held.server = server

        def up(message: str | bytes) -> None:
            data = message.encode() if isinstance(message, str) else message
            if hold(data):
                held.frames.append(data)
            else:
                server.send(message)

        socket.on_message(up)

    page.route_web_socket(KERNEL_SOCKET, route)
    return held


def _forget_links(phone: Page) -> str:
    """The device forgets the links it kept (the seat's, the class's), as a cleared history or a
    link never kept would; it keeps its own key, which it returns."""
    return str(
        phone.evaluate(
            """() => {
              for (const name of Object.keys(localStorage)) {
                if (name.startsWith('playbook-seat:') || name.startsWith('playbook-class:')) { localStorage.removeItem(name); }
              }
              return localStorage.getItem('playbook-device');
            }"""
        )
    )


def _reopen(context: BrowserContext, old: Page) -> Page:
    """The tab closed, a new one opened on the same phone."""
    old.close()
    return context.new_page()


def test_a_phone_closed_and_opened_again_is_back_on_its_seat_every_way(room: RunningServer, devices: Devices) -> None:
    store = Store(room.db_path)
    record = cl.create_class(store, "new-rule", 3, seed=7)
    phone = devices.page()
    context = phone.context
    _join(phone, room.url + f"j/{record.code}", "Ana")
    expect(phone.locator(".playbook-class-student")).to_contain_text("You are in", timeout=WAIT_MS)
    ana = cl.load_class(store, record.id).students[0]
    assert ana.kept and ana.device, ana  # kept only once the browser said it kept its key
    for name in ("Bo", "Cy"):
        _joined(store, record, name)
    record = _started(store, record)
    expect(phone.locator(SEAT)).to_be_visible(timeout=WAIT_MS)
    expect(phone).to_have_url(re.compile(r"/new_rule\.ipynb\?.*seat="), timeout=WAIT_MS)
    table_id, seat = cl.seat_of(record, record.student(ana.id))

    def confirmed() -> bool:
        held = store.load(table_id).meta["claims"].get(str(seat))
        return isinstance(held, dict) and bool(held.get("confirmed"))

    deadline = time.monotonic() + WAIT_MS / 1000
    while not confirmed() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert confirmed()  # the seat is this device's for good: the old code refused every other way back now
    seat_link = phone.url
    key = store.load(table_id).meta["seat_keys"][str(seat)]

    # 1. The seat's own link, from the history.
    phone = _reopen(context, phone)
    phone.goto(seat_link, wait_until="commit")
    expect(phone.locator(SEAT)).to_be_visible(timeout=WAIT_MS)
    # 2. The join address from the history, the links this device kept forgotten: its key alone.
    _forget_links(phone)
    phone = _reopen(context, phone)
    phone.goto(room.url + "voila/render/" + cl.class_links("", record)["join"], wait_until="commit")
    expect(phone.locator(SEAT)).to_be_visible(timeout=WAIT_MS)
    # 3. The code typed again at the short address.
    _forget_links(phone)
    phone = _reopen(context, phone)
    phone.goto(room.url + "j", wait_until="commit")
    phone.locator(".playbook-class-code .pb-code-box input").fill(record.code.lower())
    phone.locator(".playbook-class-code .pb-code-go").click()
    expect(phone.locator(SEAT)).to_be_visible(timeout=WAIT_MS)
    # 4. The name pressed again: the page has not yet heard which device it is on (its report is
    # held until the press), so the join is refused as taken; then the device is heard.
    device = _forget_links(phone)
    phone = _reopen(context, phone)
    held = _between(phone, lambda frame: device.encode() in frame)
    _join(phone, room.url + f"j/{record.code}", "Ana")
    expect(phone.locator(".playbook-class-join")).to_contain_text("Ana has joined already", timeout=WAIT_MS)
    held.release()
    expect(phone.locator(SEAT)).to_be_visible(timeout=WAIT_MS)
    # Every way back kept the seat's key and the one student: nothing was claimed again.
    assert store.load(table_id).meta["seat_keys"][str(seat)] == key
    assert [s.name for s in cl.load_class(store, record.id).students] == ["Ana", "Bo", "Cy"]


def test_a_second_device_approved_after_the_start_receives_only_its_own_seats_key(room: RunningServer, devices: Devices) -> None:
    store = Store(room.db_path)
    record = cl.create_class(store, "new-rule", 3, seed=8)
    old = devices.page()
    _join(old, room.url + f"j/{record.code}", "Ana")
    expect(old.locator(".playbook-class-student")).to_contain_text("You are in", timeout=WAIT_MS)
    for name in ("Bo", "Cy"):
        _joined(store, record, name)
    record = _started(store, record)
    expect(old.locator(SEAT)).to_be_visible(timeout=WAIT_MS)
    ana = record.students[0]
    table_id, seat = cl.seat_of(record, ana)
    before = store.load(table_id).meta
    # Ana's new phone: every frame it receives, from its first.
    new = devices.page()
    frames = recorded(new)
    _join(new, room.url + f"j/{record.code}", "Ana")
    new.locator(".playbook-class-join .pb-ask-seat").click()
    expect(new.locator(".playbook-class-join")).to_contain_text("Asked for Ana's place", timeout=WAIT_MS)
    # The facilitator: the request is at the top of the monitor, one press.
    monitor = devices.page(1366, 768)
    monitor.goto(room.url + "voila/render/" + cl.class_links("", record)["monitor"], wait_until="domcontentloaded")
    request = monitor.locator(".playbook-class-monitor .pb-class-requests")
    expect(request).to_contain_text("Ana asks for their place on another device", timeout=WAIT_MS)
    top = monitor.evaluate("() => [document.querySelector('.pb-class-requests').getBoundingClientRect().top, document.querySelector('.pb-class-tables').getBoundingClientRect().top]")
    assert top[0] < top[1]
    request.locator("button", has_text="Approve Ana").click()
    expect(new.locator(SEAT)).to_be_visible(timeout=WAIT_MS)
    expect(old.locator(".playbook-class")).to_contain_text("Your place moved to another device", timeout=WAIT_MS)
    expect(old.locator(SEAT)).to_have_count(0)
    after = store.load(table_id).meta
    record = cl.load_class(store, record.id)
    mine = after["seat_keys"][str(seat)]
    received = "\n".join(frames)
    assert mine in received  # the frames were read: its own seat's key is there
    others = [k for s, k in after["seat_keys"].items() if s != str(seat)] + [before["seat_keys"][str(seat)], ana.key]
    others += [after["facilitator_key"], after["board_key"], after["join_key"], record.monitor_key, record.board_key]
    others += [s.key for s in record.students if s.id != ana.id]
    assert not [k for k in others if k in received]
    assert str(seat) in after["claims"] and record.student(ana.id).key != ana.key


def test_a_join_closed_before_its_key_was_kept_leaves_the_name_free(room: RunningServer, devices: Devices) -> None:
    store = Store(room.db_path)
    record = cl.create_class(store, "new-rule", 3, seed=9)
    lost = devices.page()
    # The page's word that the device kept its key never reaches the kernel: the phone locked.
    held = _between(lost, lambda frame: b" kept:" in frame)
    _join(lost, room.url + f"j/{record.code}", "Dara")
    expect(lost.locator(".playbook-class-student")).to_contain_text("Keeping your place", timeout=WAIT_MS)
    deadline = time.monotonic() + 30
    while not held.frames and time.monotonic() < deadline:
        lost.wait_for_timeout(100)
    assert held.frames  # the script did say it; the kernel did not hear it
    expect(lost.locator(".playbook-class-student")).not_to_contain_text("You are in")
    lost.context.close()
    dara = cl.load_class(store, record.id).students[0]
    assert not dara.kept
    # A short while later the name is free: another device joins with it.
    time.sleep(max(0.0, dara.joined + cl.KEEP_SECONDS + 0.5 - time.time()))
    phone = devices.page()
    _join(phone, room.url + f"j/{record.code}", "Dara")
    expect(phone.locator(".playbook-class-student")).to_contain_text("You are in", timeout=WAIT_MS)
    students = cl.load_class(store, record.id).students
    assert [s.name for s in students] == ["Dara"] and students[0].kept and students[0].key != dara.key
