"""A phone that cannot reach its server, in headless Chromium against real Voila servers: it says
so within seconds, never leaves its own page for the browser's error page, and is back on its
seat by itself once the server answers (templates/.../static/reconnect.js).

`restart_under_a_seat` measures the seconds from the server's stop (or crash) to the page saying
so, and from the server's return to the seat usable: `python -m tests.test_browser_reconnect`
runs each three times and prints the medians.
"""

from __future__ import annotations

import re
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from playbook.serve import NOTEBOOKS_DIR, free_port
from playbook.store import Play, Store
from rules import leerdam as ld
from tests.support.browser import Devices, VoilaFactory, kernel_id, open_dashboard
from tests.support.cuttable import cuttable_link
from tests.support.nginx import need_nginx, running_nginx
from tests.support.restarts import restartable_server
from tests.support.tables import make_table

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

LEERDAM = ".playbook-leerdam"
SEAT = f"{LEERDAM}.playbook-seat .pb-pledge-confirm"
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")
#: the page's own interval between two questions to its server (reconnect.js RETRY_MS)
RETRY_S = 1.5


@dataclass
class Watched:
    """What a page did: the addresses its window showed, and when it asked its server whether
    its kernel is there (reconnect.js's question, a fetch of /api/kernels/<id>)."""

    addresses: list[str] = field(default_factory=list)
    asked: list[float] = field(default_factory=list)


def watch(page: Page) -> Watched:
    seen = Watched()
    page.on("framenavigated", lambda frame: seen.addresses.append(frame.url) if frame == page.main_frame else None)
    page.on("request", lambda request: seen.asked.append(time.monotonic()) if "/api/kernels/" in request.url and request.resource_type == "fetch" else None)
    return seen


def wait_for_rounds(page: Page, seen: Watched, rounds: int, after: float) -> None:
    """Wait until the page has asked its server `rounds` times since `after`."""
    deadline = time.monotonic() + rounds * (RETRY_S + 3) + 10
    while sum(1 for at in seen.asked if at > after) < rounds:
        assert time.monotonic() < deadline, f"the page asked {sum(1 for at in seen.asked if at > after)} times"
        page.wait_for_timeout(200)


def own_address(phone: Page, store: Store, table_id: str, seat: int) -> str:
    """The seat page's address once it holds the device's own key (the slip's is spent when
    the seat becomes this device's, at the page's first heartbeat)."""
    expect(phone).to_have_url(re.compile(rf"key={re.escape(store.info(table_id).meta['seat_keys'][str(seat)])}"))
    return phone.url


@dataclass
class Restart:
    said_s: float
    """seconds from the server's stop to the page saying it cannot reach it"""
    back_s: float
    """seconds from the server answering again to the seat's controls shown"""


def restart_under_a_seat(devices: Devices, folder: Path, crash: bool = False, press_while_down: bool = True) -> Restart:
    """A seat page of a Leerdam table while its server is stopped (or `crash`es) and is started
    again on the same port with the same store; what the page says and does, checked on the way."""
    with restartable_server(NOTEBOOKS_DIR / "leerdam.ipynb", folder) as server:
        store = Store(server.db_path)
        table_id, links = make_table(store, "leerdam", NAMES)
        store.submit(table_id, Play(ld.Contribute(seat=0, units=3)), store.version(table_id))  # kept across the restart
        phone = devices.page()
        seen = watch(phone)
        open_dashboard(phone, server.url + links["seats"][1]["url"], SEAT)
        address, first = own_address(phone, store, table_id, 1), kernel_id(phone)
        lost = phone.locator("#playbook-lost")
        stopped = time.monotonic()
        if crash:
            server.crash()
        else:
            server.stop()
        expect(lost).to_contain_text("cannot reach the server", timeout=8_000)
        said = time.monotonic() - stopped
        if press_while_down:
            phone.locator(f"{LEERDAM} .pb-pledge input").fill("2")
            phone.locator(f"{LEERDAM} .pb-pledge-confirm").click()
            expect(lost).to_contain_text("Not sent yet: 1 press made since")
        # Round after round the page asks again, on its own address all along.
        wait_for_rounds(phone, seen, 4, after=stopped)
        assert phone.url == address
        expect(lost).to_contain_text("Trying again")
        server.start()
        returned = time.monotonic()
        # The page shown while away is greyed (html.playbook-away) until it is reloaded.
        phone.locator(f"html:not(.playbook-away) {SEAT}").wait_for(state="visible", timeout=15_000)
        back = time.monotonic() - returned
        # The same seat, by the same link, on a kernel of its own; the table as stored.
        assert phone.url == address and kernel_id(phone) != first
        assert not [url for url in seen.addresses if not url.startswith(server.url)], seen.addresses
        expect(phone.locator(f"{LEERDAM}.playbook-seat")).to_contain_text("Bo")
        assert store.load(table_id).game.state.pledges == (3, None, None, None, None)
        expect(phone.locator(f"{LEERDAM}.playbook-seat")).to_contain_text("Ana has made a secret pledge")
        note = phone.locator("#playbook-back")
        if press_while_down:
            expect(note).to_contain_text("Not sent: \u201cPledge in secret\u201d (1 press), made while the server could not be reached")
            expect(note).to_contain_text("The table kept everything before")
        else:
            expect(note).to_contain_text("Nothing you pressed was lost")
        expect(lost).to_have_count(0)
        # The next press is kept.
        phone.locator(f"{LEERDAM} .pb-pledge input").fill("2")
        phone.locator(f"{LEERDAM} .pb-pledge-confirm").click()
        expect(phone.locator(f"{LEERDAM} .playbook-private")).to_contain_text("Your secret pledge: 2", timeout=15_000)
        expect(note).to_have_count(0)  # a press takes the note away
        assert store.load(table_id).game.state.pledges[1] == 2
        return Restart(said, back)


@pytest.mark.parametrize(("crash", "press"), [(False, True), (True, False)], ids=["stopped-a-press-not-sent", "crashed-nothing-pressed"])
def test_a_seat_page_says_the_server_is_gone_keeps_its_page_and_is_back_on_its_seat_when_it_returns(devices: Devices, tmp_path: Path, crash: bool, press: bool) -> None:
    measured = restart_under_a_seat(devices, tmp_path, crash=crash, press_while_down=press)
    print(f"said after {measured.said_s:.1f} s; seat usable {measured.back_s:.1f} s after the server answered")
    assert measured.said_s < 8 and measured.back_s < 15


def test_a_device_gone_offline_says_so_at_once_and_carries_on_once_online(voila: VoilaFactory, devices: Devices) -> None:
    server = voila(NOTEBOOKS_DIR / "leerdam.ipynb")
    store = Store(server.db_path)
    table_id, links = make_table(store, "leerdam", NAMES)
    phone = devices.page()
    open_dashboard(phone, server.url + links["seats"][2]["url"], SEAT)
    address, first = own_address(phone, store, table_id, 2), kernel_id(phone)
    lost = phone.locator("#playbook-lost")
    phone.context.set_offline(True)
    expect(lost).to_contain_text("This device is offline. Trying again", timeout=3_000)
    # Chromium's offline keeps the kernel's socket open: the press still reaches the kernel,
    # and the page says it was sent once it is back.
    phone.locator(f"{LEERDAM} .pb-pledge input").fill("1")
    phone.locator(f"{LEERDAM} .pb-pledge-confirm").click()
    expect(lost).to_contain_text("Not sent yet: 1 press made since")
    phone.wait_for_timeout(3 * RETRY_S * 1000)  # a few rounds of asking, each refused offline
    assert phone.url == address
    phone.context.set_offline(False)
    expect(lost).to_have_count(0, timeout=5_000)
    expect(phone.locator("#playbook-back")).to_contain_text("Connected again. Sent now, made meanwhile: \u201cPledge in secret\u201d (1 press).")
    # The same page and kernel: nothing was reloaded.
    assert kernel_id(phone) == first and phone.url == address
    expect(phone.locator(f"{LEERDAM} .playbook-private")).to_contain_text("Your secret pledge: 1", timeout=15_000)
    assert store.load(table_id).game.state.pledges[2] == 1


def test_a_network_that_breaks_and_mends_sends_what_was_pressed_meanwhile(voila: VoilaFactory, devices: Devices) -> None:
    """The server and the page's kernel keep running while the network between them and the
    phone is cut: the page says so at once, keeps the press made meanwhile, and once the
    network is back opens the kernel's socket again and sends it, without a reload."""
    server = voila(NOTEBOOKS_DIR / "leerdam.ipynb")
    store = Store(server.db_path)
    table_id, links = make_table(store, "leerdam", NAMES)
    with cuttable_link(server.port) as link:
        phone = devices.page()
        seen = watch(phone)
        open_dashboard(phone, link.url + links["seats"][3]["url"], SEAT)
        address, first = own_address(phone, store, table_id, 3), kernel_id(phone)
        lost = phone.locator("#playbook-lost")
        cut = time.monotonic()
        link.cut()
        expect(lost).to_contain_text("This page cannot reach the server. Trying again", timeout=8_000)
        phone.locator(f"{LEERDAM} .pb-pledge input").fill("2")
        phone.locator(f"{LEERDAM} .pb-pledge-confirm").click()
        expect(lost).to_contain_text("Not sent yet: 1 press made since")
        wait_for_rounds(phone, seen, 3, after=cut)
        assert store.load(table_id).game.state.pledges[3] is None and phone.url == address
        link.mend()
        mended = time.monotonic()
        expect(lost).to_have_count(0, timeout=10_000)
        print(f"connected again {time.monotonic() - mended:.1f} s after the network came back")
        expect(phone.locator("#playbook-back")).to_contain_text("Connected again. Sent now, made meanwhile: \u201cPledge in secret\u201d (1 press).")
        expect(phone.locator(f"{LEERDAM} .playbook-private")).to_contain_text("Your secret pledge: 2", timeout=15_000)
        assert kernel_id(phone) == first and phone.url == address  # the same page: nothing was reloaded
        assert store.load(table_id).game.state.pledges[3] == 2


def test_behind_a_proxy_a_stopped_server_is_said_and_the_proxys_error_never_shown(devices: Devices, tmp_path: Path) -> None:
    """nginx answers for a stopped server (502): the page keeps asking on its own address, and
    reloads only once the server itself answers again."""
    need_nginx()
    with (
        restartable_server(NOTEBOOKS_DIR / "leerdam.ipynb", tmp_path, base_url="/playbook/") as server,
        running_nginx(tmp_path / "nginx", free_port(), [server.port]) as proxy,
    ):
        store = Store(server.db_path)
        table_id, links = make_table(store, "leerdam", NAMES)
        phone = devices.page()
        seen = watch(phone)
        open_dashboard(phone, proxy + "/playbook/" + links["seats"][4]["url"], SEAT)
        address, first = own_address(phone, store, table_id, 4), kernel_id(phone)
        stopped = time.monotonic()
        server.stop()
        expect(phone.locator("#playbook-lost")).to_contain_text("This page cannot reach the server", timeout=8_000)
        wait_for_rounds(phone, seen, 4, after=stopped)
        assert phone.url == address
        server.start()
        phone.locator(f"html:not(.playbook-away) {SEAT}").wait_for(state="visible", timeout=15_000)
        assert phone.url == address and kernel_id(phone) != first
        assert not [url for url in seen.addresses if not url.startswith(proxy + "/playbook/")], seen.addresses
        expect(phone.locator("#playbook-back")).to_contain_text("Nothing you pressed was lost")


if __name__ == "__main__":  # the medians of three restarts, for the report
    import os
    import tempfile

    from playwright.sync_api import sync_playwright

    from tests.support.browser import launch_chromium
    from tests.support.keys import SERVER_KEY

    os.environ["PLAYBOOK_KEY"] = SERVER_KEY  # as the tests run: the user's own key file is left alone

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        for crash in (False, True):
            runs = []
            for _ in range(3):
                devices = Devices(browser)
                with tempfile.TemporaryDirectory() as folder:
                    runs.append(restart_under_a_seat(devices, Path(folder), crash=crash))
                devices.close()
                print(runs[-1])
            said, back = statistics.median(r.said_s for r in runs), statistics.median(r.back_s for r in runs)
            print(f"{'crashed' if crash else 'stopped'}, median of 3: said {said:.1f} s; back {back:.1f} s")
        browser.close()
