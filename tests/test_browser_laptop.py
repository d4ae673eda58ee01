"""The facilitator's laptop (1366 x 768), in headless Chromium, on the whole playbook served as
`playbook serve` serves it: the tables in progress and the class card in the first screen, out
of every folded section, and the header's links keep the server's key on the way back.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from playbook.access import table_keys
from playbook.serve import RunningServer, background_server
from playbook.store import Store
from rules import leerdam as ld
from rules import new_game
from tests.support.browser import LOAD_TIMEOUT_MS, open_dashboard, settled
from tests.support.keys import INDEX

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

LAPTOP = (1366, 768)
HOUSEHOLDS = ("Anneliese", "Bo & <i>Co</i>", "Zoë", "李小龙", "مريم", "🌊 Wave", "Eddie", "Fenna", "Gijs", "Hanneke")

#: Where an element is on the first screen of a page that scrolls #rendered_cells.
PLACE_JS = """(el) => {
  const cells = document.querySelector('#rendered_cells');
  const scrolled = window.scrollY + (cells ? cells.scrollTop : 0);
  const box = el.getBoundingClientRect();
  return {top: box.top + scrolled, bottom: box.bottom + scrolled, folded: el.closest('details') !== null};
}"""


@pytest.fixture
def playbook(tmp_path: Path, server_key: str) -> Iterator[RunningServer]:
    """Every notebook, as `playbook serve` serves them (the header links lead between them),
    with the tests' server key."""
    with background_server(None, tmp_path / "voila.log", db_path=tmp_path / "tables.sqlite3") as server:
        yield server


def laptop(chromium: Browser) -> Page:
    context = chromium.new_context(viewport={"width": LAPTOP[0], "height": LAPTOP[1]})
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    return context.new_page()


def place(page: Page, css: str) -> dict:
    settled(page)
    return dict(page.locator(css).first.evaluate(PLACE_JS))


def test_the_tables_and_the_class_card_are_in_the_first_screen_and_the_tables_link_keeps_the_key(playbook: RunningServer, chromium: Browser) -> None:
    store = Store(playbook.db_path)
    store.create(new_game("leerdam", ld.Setup(names=HOUSEHOLDS), 3), "Leerdam: the fen village", {"bots": {}, **table_keys(len(HOUSEHOLDS))})
    root = playbook.url.rstrip("/") + "/voila/render/"
    page = laptop(chromium)
    try:
        open_dashboard(page, root + "index.ipynb" + INDEX, ".pb-table-list .pb-table-link")
        where = place(page, ".pb-table-list")
        assert not where["folded"], "the tables in progress are inside a folded section"
        assert where["bottom"] <= LAPTOP[1], f"the tables in progress end {where['bottom']:.0f} px down, below the first screen"
        page.screenshot(path="/tmp/playbook-laptop-index.png")
        # The games' and the tools' cards, drawn by the server (playbook.prose) as the notebook had them.
        expect(page.locator(".pb-index-card")).to_have_count(6)
        expect(page.locator(".pb-index-leerdam")).to_contain_text("5-10 households")
        expect(page.locator(".pb-index-leerdam")).to_contain_text("Open the playbook \u2192")
        assert page.locator(".pb-index-leerdam").get_attribute("href") == "leerdam.ipynb"
        expect(page.locator(".pb-index-balance_lab")).to_contain_text("Balance lab")
        # The header's Tables link keeps the key: the list is there after a round trip.
        tables = page.locator("a.playbook-nav-page", has_text="Tables")
        assert "key=" in (tables.get_attribute("href") or "")
        page.locator(".pb-table-link", has_text="the fen village").click()
        open_dashboard(page, page.url, ".playbook-leerdam.playbook-facilitator .pb-class")
        # The class card: the board link and every seat, above the table and in the first screen.
        page.screenshot(path="/tmp/playbook-laptop-facilitator.png")
        card = place(page, ".playbook-leerdam .pb-seat-links")
        seats = place(page, ".playbook-leerdam .pb-class-seats")
        table = place(page, ".playbook-leerdam .pb-dyke")
        assert not card["folded"] and not seats["folded"]
        assert seats["bottom"] <= LAPTOP[1], f"the seats end {seats['bottom']:.0f} px down, below the first screen"
        assert card["top"] < table["top"], "the class card is below the table"
        expect(page.locator(".playbook-leerdam .pb-board-link")).to_be_in_viewport()
        page.locator("a.playbook-nav-page", has_text="Tables").click()
        open_dashboard(page, page.url, ".pb-table-list .pb-table-link")
        expect(page.locator(".pb-table-list")).to_contain_text("the fen village")
        assert "key=" in page.url
    finally:
        page.context.close()
