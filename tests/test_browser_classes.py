"""A class in one room, in headless Chromium: twelve phones (four of them Chromium pages, eight
that draw nothing) join a New Rule class by its short address in the same second and are dealt
into three tables; the class board on a projector; a
late phone; a reload. Then the server as the room's phones meet it: `playbook serve` in a network
namespace the test makes itself, reached only at that namespace's own address.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from playbook import classes as cl
from playbook.serve import RunningServer, stop_server
from playbook.store import Store
from tests.support.browser import Devices, beside_playwright, serving_class
from tests.support.ci import in_ci

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

NEW_RULE = ".playbook-new-rule"
PHONES = 12
#: of the twelve, the phones that are Chromium pages; the others draw nothing.
BROWSERS = 4
WAIT_MS = 240_000


@pytest.fixture
def room(tmp_path: Path) -> Iterator[RunningServer]:
    """The whole playbook, served with the headline command's settings for a class of twelve.

    Stopped as soon as its test ends (before the devices close): once the class has arrived it
    makes up its ready kernels, a dozen kernels' work that no later test would use."""
    with serving_class(tmp_path, PHONES) as server:
        yield server


@pytest.fixture
def devices(chromium) -> Iterator[Devices]:
    """A class's devices: a busy laptop serves twelve at once, so each waits longer."""
    with Devices(chromium, timeout_ms=WAIT_MS) as found:
        yield found


def _size(page: Page, selector: str) -> float:
    return float(page.locator(selector).first.evaluate("el => parseFloat(getComputedStyle(el).fontSize)"))


def test_twelve_phones_join_a_new_rule_class_and_play_at_three_tables(devices: Devices, room: RunningServer) -> None:
    """Four phones are Chromium pages; eight draw nothing (`benchmarks.light_phone`: the same
    requests, the same websocket, for a fifth of the CPU), so the twelve arrive together on two
    cores as they would on twelve phones."""
    import asyncio

    from benchmarks.arrival import light_student
    from benchmarks.light_phone import LightPhone

    store = Store(room.db_path)
    record = cl.create_class(store, "new-rule", PHONES, seed=11)
    board = devices.page(1920, 1080)
    board.goto(room.url + "voila/render/" + cl.class_links("", record)["board"], wait_until="domcontentloaded")
    expect(board.locator(".playbook-class-board .pb-class-code")).to_have_text(record.code, timeout=WAIT_MS)
    assert _size(board, ".pb-class-code") >= 48 and _size(board, ".playbook-class-board h2") >= 28
    names = [f"Student {i + 1}" for i in range(PHONES)]
    short = room.url + f"j/{record.code.lower()}"

    async def light_phones() -> list[dict[str, object]]:
        phones = [LightPhone() for _ in names[BROWSERS:]]
        deadline = time.monotonic() + WAIT_MS / 1000
        try:
            steps = (light_student(phone, short, name, time.monotonic(), deadline, seat="playbook-private") for phone, name in zip(phones, names[BROWSERS:]))
            return list(await asyncio.gather(*steps))
        finally:
            for phone in phones:
                await phone.close()

    # Twelve phones open the short address at once, then each types a name.
    with beside_playwright(lambda: asyncio.run(light_phones())) as light:
        phones = [devices.page() for _ in range(BROWSERS)]
        for phone in phones:
            phone.goto(short, wait_until="commit")
        for phone, name in zip(phones, names):
            phone.locator(".playbook-class-join .pb-name-box input").fill(name)
            phone.locator(".playbook-class-join .pb-join-class").click()
        for phone in phones:
            expect(phone.locator(".playbook-class-student")).to_contain_text("You are in", timeout=WAIT_MS)
            # A student's page leads nowhere else: no tables, print studio or lab.
            expect(phone.locator("a[href*='index.ipynb'], a[href*='print_studio'], a[href*='balance_lab']")).to_have_count(0, timeout=WAIT_MS)
        expect(board.locator(".playbook-class-board")).to_contain_text(f"Here: {PHONES}", timeout=WAIT_MS)
        # The facilitator deals and starts.
        monitor = devices.page(1366, 768)
        monitor.goto(room.url + "voila/render/" + cl.class_links("", record)["monitor"], wait_until="domcontentloaded")
        monitor.locator(".playbook-class-monitor .pb-deal").click()
        monitor.locator(".playbook-class-monitor .pb-start-class").click()
        expect(monitor.locator(".playbook-class-monitor .pb-class-tables")).to_contain_text("Table 3", timeout=WAIT_MS)
        # Every phone is on its own seat: New Rule's seat page, built in place.
        for phone in phones:
            expect(phone.locator(f"{NEW_RULE}.playbook-seat .playbook-private")).to_be_visible(timeout=WAIT_MS)
        for name, steps in zip(names[BROWSERS:], light.result()):
            assert steps["usable_s"] is not None, (name, steps)
            assert "You are in" in str(steps["lobby"]) and not re.search(r"index\.ipynb|print_studio|balance_lab", str(steps["lobby"])), steps
    record = cl.load_class(store, record.id)
    assert sorted(s.name for s in record.students) == sorted(names)
    assert len(record.tables) == 3
    for table_id in record.tables:
        table = store.load(table_id)
        assert len(table.game.setup.names) == 4 and len(table.meta["claims"]) == 4
    expect(board.locator(".pb-class-table")).to_have_count(3, timeout=WAIT_MS)
    expect(board.locator(".playbook-class-board")).to_contain_text("Round 1", timeout=WAIT_MS)
    # A reload keeps the seat, even one made as the seat page comes up, before the page has put
    # the seat's own link in the address bar; the page puts it there then.
    phones[2].reload()
    expect(phones[2].locator(f"{NEW_RULE}.playbook-seat .playbook-private")).to_be_visible(timeout=WAIT_MS)
    expect(phones[2]).to_have_url(re.compile(r"/new_rule\.ipynb\?.*seat="), timeout=WAIT_MS)
    phones[2].reload()
    expect(phones[2].locator(f"{NEW_RULE}.playbook-seat .playbook-private")).to_be_visible(timeout=WAIT_MS)
    # A late phone, on a laptop with no camera, types the code at the short address and is
    # told what happens.
    late = devices.page(1366, 768)
    late.goto(room.url + "j", wait_until="commit")
    late.locator(".playbook-class-code .pb-code-box input").fill(record.code.lower())
    late.locator(".playbook-class-code .pb-code-go").click()
    late.locator(".playbook-class-join .pb-name-box input").fill("Late Lou")
    late.locator(".playbook-class-join .pb-join-class").click()
    expect(late.locator(".playbook-class-student")).to_contain_text("The tables have started", timeout=WAIT_MS)


# -- phones on the room's network ----------------------------------------------------------------------


def _run(*argv: str) -> None:
    subprocess.run(argv, check=True, capture_output=True, timeout=30)


@pytest.fixture
def namespace() -> Iterator[tuple[str, str, str]]:
    """A network namespace with a veth pair of its own: (name, host side's address, the
    namespace's address). Only root can make one; CI runs as root and must run this."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        if in_ci():
            pytest.fail("CI runs as root with iproute2: the network test must run")
        pytest.skip("needs root and iproute2 to make a network namespace")
    name = f"pbtest{os.getpid() % 100000}"
    host_if, ns_if = f"pbh{os.getpid() % 100000}", f"pbn{os.getpid() % 100000}"
    octet = 16 + os.getpid() % 200
    host_ip, ns_ip = f"10.213.{octet}.1", f"10.213.{octet}.2"
    try:
        _run("ip", "netns", "add", name)
        _run("ip", "link", "add", host_if, "type", "veth", "peer", "name", ns_if)
        _run("ip", "link", "set", ns_if, "netns", name)
        _run("ip", "addr", "add", f"{host_ip}/30", "dev", host_if)
        _run("ip", "link", "set", host_if, "up")
        _run("ip", "netns", "exec", name, "ip", "addr", "add", f"{ns_ip}/30", "dev", ns_if)
        _run("ip", "netns", "exec", name, "ip", "link", "set", ns_if, "up")
        _run("ip", "netns", "exec", name, "ip", "link", "set", "lo", "up")
        # A route out, so the server finds its own address the way it would in a classroom (no packet is sent).
        _run("ip", "netns", "exec", name, "ip", "route", "add", "default", "via", host_ip)
        yield name, host_ip, ns_ip
    finally:
        subprocess.run(["ip", "link", "del", host_if], capture_output=True, timeout=30)
        subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=30)


def test_playbook_serve_is_reached_at_the_address_it_prints(namespace: tuple[str, str, str], devices: Devices, tmp_path: Path) -> None:
    """The headline command in a namespace whose only network is the test's veth: it listens
    on the room's side and every link it gives carries the namespace's own address, which a
    browser outside the namespace opens (no other address is ever asked for)."""
    name, _host_ip, ns_ip = namespace
    port = 18866
    env = {**os.environ, "PLAYBOOK_DB": str(tmp_path / "tables.sqlite3"), "PLAYBOOK_KEY": "k" * 24, "XDG_DATA_HOME": str(tmp_path)}
    env.pop("PLAYBOOK_URL", None)
    out = (tmp_path / "serve.log").open("w")
    process = subprocess.Popen(
        ["ip", "netns", "exec", name, sys.executable, "-m", "playbook.cli", "serve", "--port", str(port), "--class-size", "3"],
        env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        printed = ""
        while time.monotonic() < deadline and f"{ns_ip}:{port}/j" not in printed:
            printed = (tmp_path / "serve.log").read_text()
            assert process.poll() is None, printed
            time.sleep(0.5)
        assert f"http://{ns_ip}:{port}/voila/render/index.ipynb?key=" in printed and "localhost" not in printed.split("Phones")[1].splitlines()[0]
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://{ns_ip}:{port}/api/status", timeout=2)
                break
            except urllib.error.HTTPError:
                break
            except OSError:
                time.sleep(0.5)
        store = Store(tmp_path / "tables.sqlite3")
        record = cl.create_class(store, "new-rule", 3)
        page = devices.page(1920, 1080, server_host=ns_ip)
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        page.goto(f"http://{ns_ip}:{port}/voila/render/" + cl.class_links("", record)["board"], wait_until="domcontentloaded")
        expect(page.locator(".playbook-class-board .pb-class-code")).to_have_text(record.code, timeout=WAIT_MS)
        expect(page.locator(".pb-short-address")).to_have_text(f"http://{ns_ip}:{port}/j", timeout=WAIT_MS)
        assert all(re.match(rf"(http|ws)://{re.escape(ns_ip)}:{port}/|data:|blob:", url) for url in requested), [u for u in requested if ns_ip not in u][:3]
        phone = devices.page(server_host=ns_ip)
        phone.goto(f"http://{ns_ip}:{port}/j/{record.code}", wait_until="commit")
        expect(phone.locator(".playbook-class-join .pb-name-box input")).to_be_visible(timeout=WAIT_MS)
        # The teacher's terminal: the addresses and Voila's own lines, no warning or traceback.
        said = (tmp_path / "serve.log").read_text()
        assert "warning" not in said.lower() and "Traceback" not in said and "not trusted" not in said, said[:2000]
    finally:
        stop_server(process)
        out.close()


# -- the join storm's server part (benchmarks.light_phone) ------------------------------------------


def test_a_phone_that_draws_nothing_joins_sits_and_pledges_as_a_browser_does(room: RunningServer) -> None:
    """`make bench` times the server's part of a join storm with these phones: one must reach
    what a browser reaches (the lobby, its seat, its pledge counted in the store), no more."""
    import asyncio

    from benchmarks.light_phone import LightPhone

    store = Store(room.db_path)
    record = cl.create_class(store, "leerdam", 5)

    async def visit() -> list[str]:
        phone = LightPhone()
        try:
            await phone.open(f"{room.url}j/{record.code}", 120)
            box = await phone.wait_for(lambda: phone.shown("pb-name-box", "playbook-class-join"), 120)
            assert not phone.shown("pb-pledge-confirm"), "no seat before the deal"
            phone.type(box[0], "Light")
            phone.press(phone.shown("pb-join-class")[0])
            await phone.keep(120)  # as the page's script does: the join is final once kept
            await phone.wait_for(lambda: "You are in" in phone.text("playbook-class-student"), 120)
            dealt = cl.submit(store, record.id, cl.Deal(), cl.load_class(store, record.id).version)
            cl.submit(store, record.id, cl.Start(), dealt.version)
            confirm = await phone.wait_for(lambda: phone.shown("pb-pledge-confirm", "playbook-seat"), 120)
            phone.type(phone.shown("pb-pledge", "playbook-seat")[0], 2)
            phone.press(confirm[0])
            await phone.wait_for(lambda: _pledged(store, record.id), 60)
            # The same button again, a moment late: the kernel had replaced it, and says so.
            phone.press(confirm[0])
            await phone.wait_for(lambda: "came just as the screen changed" in phone.text("playbook-seat"), 60)
            return phone.shown("pb-join-class")
        finally:
            await phone.close()

    with beside_playwright(lambda: asyncio.run(visit())) as done:
        assert done.result() == []  # the join form is gone once the page is the student's
    assert [s.name for s in cl.load_class(store, record.id).students] == ["Light"]


def _pledged(store: Store, class_id: str) -> bool:
    """Whether the class's first table has a pledge (the light phone's: the others are bots')."""
    tables = cl.load_class(store, class_id).tables
    return bool(tables) and any(type(a).__name__ == "Contribute" and a.seat == 0 for a in store.load(tables[0]).game.actions)
