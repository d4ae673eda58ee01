"""The countdown in Chromium: a seat page on a phone (390 x 844) says the last seconds of its
decision to screen readers (the page's live region's text at 30 s, 10 s and 0), and the board on a
projector (1920 x 1080) shows the time left large and, kept open, makes the moves at zero.

A deadline is brought near by setting the moment the table began to wait (its meta, through the
store's write path), so no test waits half a minute.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from playbook import pace, timer
from playbook.access import table_keys
from playbook.links import table_links
from playbook.page_texts import script_block
from playbook.serve import NOTEBOOKS_DIR
from playbook.store import SetMeta, StaleTable, Store
from rules import leerdam as ld
from rules import new_game
from tests.support.browser import LOAD_TIMEOUT_MS, VoilaFactory, open_dashboard
from widgets.pace import countdown_html

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

ROOT = ".playbook-leerdam"
NAMES = ("Anneliese", "Bo", "Zoë", "مريم", "Eddie")
SECONDS = 40
STATIC = Path(__file__).resolve().parents[1] / "templates" / "voila" / "templates" / "playbook" / "static"

#: Every text the page's two live regions take, in order, with the region's politeness: each
#: mutation record's added paragraph (a11y.js puts a new one for each message), so messages
#: made between two looks are all kept.
HEAR_JS = """() => {
  window.__said = [];
  document.querySelectorAll('.playbook-live').forEach((region) => {
    new MutationObserver((records) => records.forEach((record) => record.addedNodes.forEach((node) => {
      window.__said.push([region.getAttribute('aria-live'), node.textContent.trim()]);
    }))).observe(region, { childList: true });
  });
  return document.querySelectorAll('.playbook-live').length;
}"""


def _table(store: Store) -> tuple[str, dict]:
    setup = ld.Setup(names=NAMES)
    meta = {"bots": {}, **table_keys(len(NAMES)), pace.PACE: pace.Pace(SECONDS).to_json()}
    table_id = store.create(new_game("leerdam", setup, 3), meta=meta)
    return table_id, table_links("", "leerdam", table_id, store.info(table_id).meta, NAMES)


def _due_in(store: Store, table_id: str, seconds: float) -> None:
    """Every seat's decision due `seconds` from now (its wait began SECONDS - `seconds` ago)."""
    began = time.time() - (SECONDS - seconds)
    for _ in range(10):  # the page's own writes (its seat shown on its device) may come between
        try:
            store.submit(table_id, SetMeta({pace.SINCE: {str(s): began for s in range(len(NAMES))}}), store.version(table_id))
            return
        except StaleTable:
            continue
    raise AssertionError("the table kept moving on: the deadline was never set")


def _page(chromium: Browser, width: int, height: int) -> Page:
    context = chromium.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    return context.new_page()


def _font_px(page: Page, selector: str) -> float:
    return float(page.locator(selector).first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))


def test_a_phone_hears_the_last_seconds_of_its_decision(voila: VoilaFactory, chromium: Browser) -> None:
    server = voila(NOTEBOOKS_DIR / "leerdam.ipynb")
    store = Store(server.db_path)
    table_id, links = _table(store)
    _due_in(store, table_id, 33)
    phone = _page(chromium, 390, 844)
    try:
        open_dashboard(phone, server.url + links["seats"][1]["url"], f"{ROOT}.playbook-seat .pb-countdown-box")
        box = phone.locator(f"{ROOT} .pb-countdown-box")
        say = box.locator(".pb-countdown-say")
        expect(say).to_have_text("Your decision: 30 seconds left.", timeout=10_000)
        # Said by the page's one live region (a11y.js), politely.
        expect(phone.locator(".playbook-live-polite")).to_have_text("Your decision: 30 seconds left.", timeout=5_000)
        # Readable on the phone: large enough, whole on the screen.
        assert _font_px(phone, f"{ROOT} .pb-countdown-time") >= 16 and _font_px(phone, f"{ROOT} .pb-countdown-label") >= 16
        edge = box.bounding_box()
        assert edge is not None and edge["x"] >= 0 and edge["x"] + edge["width"] <= 390, edge
        _due_in(store, table_id, 12)  # the page is told the new deadline once; it counts by itself
        expect(say).to_have_text("Your decision: 10 seconds left.", timeout=10_000)
        time_text = box.locator(".pb-countdown-time").inner_text()
        assert time_text.startswith("0:0") or time_text == "0:10", time_text
        _due_in(store, table_id, 1.5)
        expect(say).to_have_text("Time is up.", timeout=10_000)
        # No page that keeps the timer is open: the seat still waits, and its page says so.
        assert store.load(table_id).game.state.pledges[1] is None
    finally:
        phone.context.close()


def test_the_board_shows_the_time_large_and_makes_the_moves_at_zero(voila: VoilaFactory, chromium: Browser) -> None:
    server = voila(NOTEBOOKS_DIR / "leerdam.ipynb")
    store = Store(server.db_path)
    table_id, links = _table(store)
    _due_in(store, table_id, 25)
    board = _page(chromium, 1920, 1080)
    try:
        open_dashboard(board, server.url + links["board"], f"{ROOT} .pb-board .pb-countdown-box")
        assert _font_px(board, f"{ROOT} .pb-countdown-time") >= 48 and _font_px(board, f"{ROOT} .pb-countdown-label") >= 20
        box = board.locator(f"{ROOT} .pb-countdown-box").bounding_box()
        assert box is not None and box["y"] < 1080 and box["x"] + box["width"] <= 1920, box
        _due_in(store, table_id, 2)
        deadline = time.time() + 30
        while store.load(table_id).game.state.phase == "contribute" and time.time() < deadline:
            time.sleep(0.5)
        table = store.load(table_id)
        assert table.game.state.phase == "allocate", "the open board made no move at zero"
        assert [table.game.state.pledges[s] for s in range(len(NAMES))] == [0] * len(NAMES)
        assert len(pace.timed_out(table.meta)) == len(NAMES)
    finally:
        board.context.close()


def test_a_countdown_says_each_of_its_last_seconds_once_and_politely(store: Store, chromium: Browser) -> None:
    """The countdown's markup (widgets.pace) with the page's own scripts (countdown.js and
    a11y.js) on a blank page whose clock the test moves: a seat's box says 30 s, 10 s and 0
    once each, in the polite region, and the box sent again mid-countdown (another change at
    the table redraws it) says nothing a second time; a box sent without `announce` (the class
    board's cards) says nothing. No server: the words come from the page's block of texts."""
    table_id, _links = _table(store)
    table = store.load(table_id)
    due = timer.deadlines(table)[0]
    began = due - SECONDS
    page = _page(chromium, 390, 844)
    try:
        page.clock.install(time=began * 1000)
        boxes = f'<div class="pb-seat-box">{countdown_html(table, 0, began)}</div><div>{countdown_html(table, 1, began, announce=False)}</div>'
        # The words come as the server sends them: the page's block of texts, read by texts.js.
        page.set_content(f'<html lang="en"><head><title>countdown</title>{script_block("en")}</head><body><main class="playbook-root">{boxes}</main></body></html>')
        for script in ("texts.js", "changes.js", "a11y.js", "countdown.js"):
            page.add_script_tag(content=(STATIC / script).read_text(encoding="utf-8"))
        page.clock.run_for(1000)  # a11y.js makes its regions on its first look
        assert page.evaluate(HEAR_JS) == 2
        page.clock.run_for((SECONDS - 26) * 1000)  # 25 s left: the 30 s mark passed
        # The kernel sends the seat's box again (the same deadline, its clock now): the mark
        # already passed is not said again.
        page.evaluate("(html) => { document.querySelector('.pb-seat-box').innerHTML = html; }", countdown_html(table, 0, due - 25))
        page.clock.run_for(27 * 1000)  # past zero
        said = [tuple(pair) for pair in page.evaluate("() => window.__said")]
    finally:
        page.context.close()
    assert said == [("polite", "Your decision: 30 seconds left."), ("polite", "Your decision: 10 seconds left."), ("polite", "Time is up.")], said
