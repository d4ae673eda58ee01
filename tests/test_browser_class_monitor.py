"""The facilitator's page for a class of 30 Leerdam students, in headless Chromium: Deal and
Start in the first screen (1366x768, and a phone's 390x844), the students by village, a swap
pressed on the page and its outcome said beside the student pressed; the page at 1366x768,
1920x1080 and 390x844 saved as screenshots under the test's tmp folder (printed with -s).

Headless, the same page's order and refusals: test_class_monitor.py.
"""

from __future__ import annotations

import json
import secrets
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from playbook import classes as cl
from playbook.serve import NOTEBOOKS_DIR
from playbook.store import Store
from tests.support.browser import LOAD_TIMEOUT_MS, VoilaFactory, open_dashboard, settled

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

MONITOR = ".playbook-class-monitor"
WAIT_MS = 60_000


def _thirty(store: Store) -> cl.ClassRecord:
    """A Leerdam class of 30, each joined and kept on a device of their own; 20 of their pages
    heard just now, 10 last heard two minutes ago."""
    record = cl.create_class(store, "leerdam", 30, seed=3)
    for i in range(30):
        key, device = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
        record = cl.submit(store, record.id, cl.Join(f"Household {i + 1}", key, device), 0)
        sid = record.students[-1].id
        record = cl.submit(store, record.id, cl.Keep(sid, key, device), 0)
        store.note_presence(record.id, sid, time.time() - (0 if i % 3 else 120))
    return record


def _top(page: Page, selector: str) -> float:
    """The top of the first match, in page coordinates (the first screen is 0..height)."""
    return float(page.locator(selector).first.evaluate("el => el.getBoundingClientRect().top + window.scrollY"))


def _shot(page: Page, folder: Path, name: str, size: tuple[int, int]) -> dict[str, float]:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    settled(page, size[0])
    page.screenshot(path=str(folder / f"{name}-{size[0]}x{size[1]}.png"), full_page=False)
    shown = [sel for sel in (".pb-start-class", ".pb-deal", ".pb-end-class", ".pb-student-grid") if page.locator(f"{MONITOR} {sel}").count()]
    figures = {sel: _top(page, f"{MONITOR} {sel}") for sel in shown}
    figures["monitor height"] = float(page.locator(MONITOR).first.evaluate("el => el.getBoundingClientRect().height"))
    figures["village height"] = float(page.locator(f"{MONITOR} .pb-student-table-0").evaluate("el => el.getBoundingClientRect().height"))
    figures["scroll width"] = float(page.evaluate("document.documentElement.scrollWidth"))
    return figures


def test_deal_and_start_are_in_the_first_screen_with_thirty_students(voila: VoilaFactory, chromium: Browser, tmp_path: Path) -> None:
    server = voila(NOTEBOOKS_DIR / "class.ipynb")
    store = Store(server.db_path)
    record = _thirty(store)
    context = chromium.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    try:
        page = context.new_page()
        query = "?" + cl.class_links("", record)["monitor"].split("?", 1)[1]
        open_dashboard(page, server.url + query, f"{MONITOR} .pb-deal")
        expect(page.locator(f"{MONITOR} .pb-student-chip")).to_have_count(30, timeout=WAIT_MS)
        settled(page, 1366)
        lobby = {sel: _top(page, f"{MONITOR} {sel}") for sel in (".pb-deal", ".pb-end-class")}
        assert lobby[".pb-deal"] < 768, lobby
        page.screenshot(path=str(tmp_path / "lobby-1366x768.png"))
        expect(page.locator(f"{MONITOR} .pb-dot-on")).to_have_count(20, timeout=WAIT_MS)
        expect(page.locator(f"{MONITOR} .pb-student-chip").first).to_contain_text("not seen for 2 min")
        page.locator(f"{MONITOR} .pb-deal").click()
        expect(page.locator(f"{MONITOR} .pb-start-class")).to_be_visible(timeout=WAIT_MS)
        expect(page.locator(f"{MONITOR} .pb-student-table")).to_have_count(3, timeout=WAIT_MS)
        figures = {f"{w}x{h}": _shot(page, tmp_path, "dealt", (w, h)) for w, h in ((1366, 768), (1920, 1080), (390, 844))}
        for size, found in figures.items():
            height = int(size.split("x")[1])
            assert found[".pb-deal"] < height and found[".pb-start-class"] < height, (size, found)
            assert found["scroll width"] <= int(size.split("x")[0]), (size, found)  # nothing wider than the screen
        # At 1366 wide the three villages stand side by side: their tops are level.
        page.set_viewport_size({"width": 1366, "height": 768})
        settled(page, 1366)
        tops = [_top(page, f"{MONITOR} .pb-student-table-{i}") for i in range(3)]
        assert max(tops) - min(tops) < 2, tops
        # A swap pressed on the page: said beside the second student pressed, not only at the top.
        dealt = cl.load_class(store, record.id)
        first, other = dealt.groups[0][0], dealt.groups[2][9]
        page.locator(f"{MONITOR} .pb-swap-{first}").click()
        expect(page.locator(f"{MONITOR} .pb-swap-hint")).to_contain_text("Household 1 picked", timeout=WAIT_MS)
        page.locator(f"{MONITOR} .pb-swap-{other}").click()
        said = page.locator(f"{MONITOR} .pb-student-{other} .pb-said-ok")
        expect(said).to_contain_text("Swapped", timeout=WAIT_MS)
        chip = page.locator(f"{MONITOR} .pb-student-{other}").bounding_box()
        box = said.bounding_box()
        assert chip is not None and box is not None and chip["y"] <= box["y"] <= chip["y"] + chip["height"], (chip, box)
        swapped = cl.load_class(store, record.id)
        assert swapped.student(first).group == 2 and swapped.student(other).group == 0
        # The same pressed within a village: refused, beside the student pressed.
        mate = swapped.groups[0][1]
        page.locator(f"{MONITOR} .pb-swap-{other}").click()
        expect(page.locator(f"{MONITOR} .pb-swap-hint")).to_contain_text(f"{swapped.student(other).name} picked", timeout=WAIT_MS)
        page.locator(f"{MONITOR} .pb-swap-{mate}").click()
        refused = page.locator(f"{MONITOR} .pb-student-{mate} .pb-said-refuse")
        expect(refused).to_contain_text("same table already", timeout=WAIT_MS)
        pressed = page.locator(f"{MONITOR} .pb-swap-{mate}").bounding_box()
        shown = refused.bounding_box()
        assert pressed is not None and shown is not None
        distance = abs(shown["y"] - pressed["y"])
        assert distance < 80, (pressed, shown)
        page.screenshot(path=str(tmp_path / "refused-1366x768.png"))
        # Started: End the class stays in the first screen, above every table and student.
        page.locator(f"{MONITOR} .pb-start-class").click()
        expect(page.locator(f"{MONITOR} .pb-class-tables")).to_contain_text("Village 3", timeout=WAIT_MS)
        playing = _shot(page, tmp_path, "playing", (1366, 768))
        assert playing[".pb-end-class"] < 768, playing
        figures["playing 1366x768"] = playing
        print(json.dumps({"folder": str(tmp_path), "lobby": lobby, "dealt": figures, "village tops": tops, "refusal to its button (px)": distance}, indent=1))
    finally:
        context.close()


def test_a_phone_in_the_class_shows_as_connected_on_the_monitor(voila: VoilaFactory, chromium: Browser) -> None:
    """A real student page's heartbeat notes its presence (from its kernel, beside the loop):
    the monitor's dot for the student turns to connected without a change to the class."""
    server = voila(NOTEBOOKS_DIR / "class.ipynb")
    store = Store(server.db_path)
    record = cl.create_class(store, "new-rule", 3, seed=5)
    phone_context = chromium.new_context(viewport={"width": 390, "height": 844})
    monitor_context = chromium.new_context(viewport={"width": 1366, "height": 768})
    try:
        phone = phone_context.new_page()
        open_dashboard(phone, server.url + f"?code={record.code}", ".playbook-class-join .pb-name-box input")
        phone.locator(".playbook-class-join .pb-name-box input").fill("Dara")
        phone.locator(".playbook-class-join .pb-join-class").click()
        expect(phone.locator(".playbook-class-student")).to_contain_text("You are in", timeout=WAIT_MS)
        joined = cl.load_class(store, record.id)
        monitor = monitor_context.new_page()
        query = "?" + cl.class_links("", joined)["monitor"].split("?", 1)[1]
        open_dashboard(monitor, server.url + query, f"{MONITOR} .pb-student-chip")
        dara = joined.students[0].id
        expect(monitor.locator(f"{MONITOR} .pb-student-{dara} .pb-dot-on")).to_have_count(1, timeout=WAIT_MS)
        expect(monitor.locator(f"{MONITOR} .pb-student-{dara}")).to_contain_text("connected")
        assert dara in store.presence(record.id)
        assert cl.load_class(store, record.id).version == joined.version
    finally:
        phone_context.close()
        monitor_context.close()
