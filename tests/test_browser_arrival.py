"""A class arrives at once, in headless Chromium: twelve seat pages (four Chromium's, eight phones
that draw nothing) opened in the same second on a server with `playbook serve`'s own class
settings.

Each page shows its seat, or says it is on its way and then shows its seat; no page stays blank
and silent. Every seat then belongs to its device: the join page offers none of them, and each
device's key differs from the one its slip holds.
"""

from __future__ import annotations

import re
import time
import urllib.parse
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from playbook.access import table_keys
from playbook.links import table_links
from playbook.serve import NOTEBOOKS_DIR, RunningServer
from playbook.store import Store
from rules import leerdam as ld
from rules import new_game
from tests.support.browser import beside_playwright, serving_class

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]

LEERDAM = ".playbook-leerdam"
PAGES = 12
#: of the twelve, the pages that are Chromium's; the others draw nothing.
BROWSERS = 4
#: a class on a busy 2-core machine: how long the last of twelve pages may take.
ARRIVAL_MS = 240_000


@pytest.fixture(scope="module")
def class_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """The Leerdam page served with the headline command's settings for a class of twelve
    (its kernels kept ready are full before the class arrives)."""
    with serving_class(tmp_path_factory.mktemp("arrival"), PAGES, NOTEBOOKS_DIR / "leerdam.ipynb") as server:
        yield server


def test_twelve_seat_pages_opened_in_the_same_second_each_show_their_seat(class_server: RunningServer, chromium: Browser) -> None:
    """Four pages are Chromium's; eight are phones that draw nothing (`benchmarks.light_phone`:
    the same requests, the same websocket, for a fifth of the CPU), so the twelve arrive together
    on two cores as they would on twelve phones."""
    import asyncio

    from benchmarks.light_phone import LightPhone

    store = Store(class_server.db_path)
    names = tuple(f"Household {i + 1}" for i in range(PAGES))
    table_id = store.create(new_game("leerdam", ld.Setup(names=names), 9), meta={"bots": {}, **table_keys(PAGES)})
    links = table_links("", "leerdam", table_id, store.info(table_id).meta, names)
    wait_s = ARRIVAL_MS / 1000

    async def light_seats(seats: range) -> list[str]:
        """Each light phone's seat button, once its seat page can pledge."""
        phones = [LightPhone() for _ in seats]

        async def arrive(phone: LightPhone, seat: int) -> str:
            await phone.open(class_server.url + links["seats"][seat]["url"], wait_s)
            await phone.wait_for(lambda: phone.shown("pb-pledge-confirm", "playbook-seat"), wait_s)
            return str(phone.models[phone.shown(f"pb-seat-{seat}")[0]].get("description"))

        try:
            return list(await asyncio.gather(*(arrive(phone, seat) for phone, seat in zip(phones, seats))))
        finally:
            for phone in phones:
                await phone.close()

    contexts: list[BrowserContext] = []
    try:
        phones: list[Page] = []
        for _ in range(BROWSERS):
            context = chromium.new_context(viewport={"width": 390, "height": 844})
            contexts.append(context)
            phones.append(context.new_page())
        # The class presses its links together: every page is asked for before any has answered.
        with beside_playwright(lambda: asyncio.run(light_seats(range(BROWSERS, PAGES)))) as light:
            for phone, seat in zip(phones, links["seats"]):
                phone.goto(class_server.url + seat["url"], wait_until="commit")
            for phone in phones:
                # Its seat, or a word that it is on its way (never a blank page that says nothing).
                expect(phone.locator(f"{LEERDAM}.playbook-seat .pb-pledge-confirm, #playbook-starting").first).to_be_visible(timeout=ARRIVAL_MS)
            for seat, phone in enumerate(phones):
                expect(phone.locator(f"{LEERDAM}.playbook-seat .pb-pledge-confirm")).to_be_visible(timeout=ARRIVAL_MS)
                expect(phone.locator("#playbook-starting")).to_have_count(0, timeout=ARRIVAL_MS)
                expect(phone.locator(f"{LEERDAM} .pb-seat-{seat}")).to_contain_text(names[seat], timeout=ARRIVAL_MS)  # its own seat
            assert light.result() == list(names[BROWSERS:])  # the light phones' own seats too
            meta = store.info(table_id).meta
            assert sorted(meta["claims"], key=int) == [str(s) for s in range(PAGES)]  # every seat is held
            for seat, phone in enumerate(phones):
                # The device's own key, in its address bar (the page writes it there on its next look).
                own = meta["seat_keys"][str(seat)]
                expect(phone).to_have_url(re.compile(rf"[?&]key={re.escape(own)}(&|$)"), timeout=ARRIVAL_MS)
                query = urllib.parse.parse_qs(urllib.parse.urlparse(phone.url).query)
                assert f"key={query['key'][0]}" not in links["seats"][seat]["url"]  # not the slip's
            for phone in phones:  # a server busy with a class is slow, never said to be gone (reconnect.js)
                assert phone.locator("#playbook-lost, #playbook-back").count() == 0
            for seat in range(PAGES):  # every device holds a key of its own, never its slip's
                assert f"key={meta['seat_keys'][str(seat)]}" not in links["seats"][seat]["url"]
            # A phone that scans the board's code now finds no seat to take.
            late = chromium.new_context(viewport={"width": 390, "height": 844})
            contexts.append(late)
            page = late.new_page()
            page.goto(class_server.url + links["join"], wait_until="domcontentloaded")
            expect(page.locator(f"{LEERDAM}.playbook-join")).to_be_visible(timeout=ARRIVAL_MS)
            expect(page.locator(f"{LEERDAM} .pb-join")).to_contain_text("Every seat is taken", timeout=ARRIVAL_MS)
            expect(page.locator(f"{LEERDAM} [class*='pb-claim-']")).to_have_count(0, timeout=ARRIVAL_MS)
            # A slip opened on another device opens nothing, and says why, once the seat's page
            # has confirmed it (its beat right after it put its own link in the address bar).
            deadline = time.monotonic() + wait_s
            while not store.info(table_id).meta["claims"]["3"].get("confirmed") and time.monotonic() < deadline:
                time.sleep(0.2)
            assert store.info(table_id).meta["claims"]["3"].get("confirmed"), "seat 3's page never confirmed its seat"
            thief = late.new_page()
            thief.goto(class_server.url + links["seats"][3]["url"], wait_until="domcontentloaded")
            expect(thief.locator(f"{LEERDAM}.playbook-denied")).to_be_visible(timeout=ARRIVAL_MS)
            expect(thief.locator(f"{LEERDAM} .pb-status")).to_contain_text("another device", timeout=ARRIVAL_MS)
    finally:
        for context in contexts:
            context.close()
