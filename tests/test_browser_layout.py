"""Pages a room can use, measured in headless Chromium at a laptop, a projector and a phone.

- every game page: the table (or the lobby) starts in the first screen, nothing scrolls sideways;
- a seat's page on a phone: its own decision in the first screen, text at least 16 px and
  controls at least 44 px, nothing sideways;
- the board on a projector: text at least 20 px, no control that shows a seat's panel;
- the screenshots of the README's guide are taken here: into a temporary folder, or into
  docs/screenshots/ with `make screenshots` (PLAYBOOK_SCREENSHOTS names the folder).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from playbook.serve import NOTEBOOKS_DIR
from playbook.store import Store
from tests.browser import LOAD_TIMEOUT_MS, measure, open_dashboard, settled
from tests.conftest import VoilaFactory
from tests.test_browser_class import make_table

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

LAPTOP, PROJECTOR, PHONE = (1366, 768), (1920, 1080), (390, 844)
GAMES = {
    "new-rule": ("new_rule.ipynb", ".playbook-new-rule"),
    "leerdam": ("leerdam.ipynb", ".playbook-leerdam"),
    "danger-world": ("danger_world.ipynb", ".playbook-danger-world"),
    "dangerous-ideas": ("dangerous_ideas.ipynb", ".playbook-dangerous-ideas"),
}
#: the ten households of the issue, with names that are hard to draw
HOUSEHOLDS = ("Anneliese", "Bo & <i>Co</i>", "Zoë", "李小龙", "مريم", "🌊 Wave", "Eddie", "Fenna", "Gijs", "Hanneke")


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where `shot` saves: $PLAYBOOK_SCREENSHOTS (`make screenshots`), else a temporary folder,
    so a test run leaves the tracked pictures alone."""
    folder = os.environ.get("PLAYBOOK_SCREENSHOTS")
    return Path(folder) if folder else tmp_path_factory.mktemp("screenshots")


def page_at(chromium: Browser, size: tuple[int, int]) -> Page:
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    return context.new_page()


def at_size(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    settled(page, size[0])  # the widgets lay themselves out again


def no_sideways(figures: dict, where: str) -> None:
    assert figures["scrollWidth"] <= figures["width"], f"{where}: the page is {figures['scrollWidth']} px wide in a {figures['width']} px screen"


def shot(page: Page, folder: Path, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => { document.querySelector('#rendered_cells').scrollTop = 0; }")  # the page as it opens
    settled(page)
    page.screenshot(path=str(folder / f"{name}.png"))
    assert (folder / f"{name}.png").stat().st_size > 0


@pytest.mark.parametrize("slug", list(GAMES))
def test_a_game_page_opens_on_its_table_at_every_size(voila: VoilaFactory, chromium: Browser, screenshots: Path, slug: str) -> None:
    notebook, root = GAMES[slug]
    server = voila(NOTEBOOKS_DIR / notebook)
    page = page_at(chromium, LAPTOP)
    try:
        open_dashboard(page, server.url, f"{root} .pb-start")
        for size in (LAPTOP, PROJECTOR, PHONE):
            at_size(page, size)
            figures = measure(page, root, first=f"{root} .pb-start")
            no_sideways(figures, f"{slug} lobby at {size}")
            assert figures["rootTop"] < size[1] / 2, f"{slug} at {size}: the table starts {figures['rootTop']} px down"
        # The reference sections are folded below the table, one click each.
        at_size(page, LAPTOP)
        panels = page.locator("details.playbook-more")
        assert panels.count() >= 2
        expect(panels.first).not_to_have_attribute("open", "")
        page.locator(".playbook-nav-rules").click()
        expect(panels.first).to_have_attribute("open", "")
        assert "How to play" in panels.first.locator("summary").inner_text()
        text = page.locator("#rendered_cells").inner_text()
        for code_name in ("worked_example", "success_chance", "rules.", "max_rounds"):
            assert code_name not in text, f"{slug}: the page shows the code name {code_name!r}"
        if slug == "dangerous-ideas":
            shot(page, screenshots, "lobby-laptop")
        # The page starts a table and the table is at the top too (the shared-screen games).
        if slug in ("danger-world", "dangerous-ideas"):
            page.locator(f"{root} .pb-start").first.click()
            expect(page.locator(f"{root} .pb-round").first).to_be_visible()
            for size in (LAPTOP, PHONE):
                at_size(page, size)
                figures = measure(page, root)
                no_sideways(figures, f"{slug} table at {size}")
                assert figures["rootTop"] < size[1] / 2
            at_size(page, LAPTOP)
            shot(page, screenshots, f"{slug}-laptop")
    finally:
        page.context.close()


@pytest.mark.parametrize("slug, seats, decision", [("new-rule", 4, ".pb-draw"), ("leerdam", 10, ".pb-pledge-confirm")])
def test_a_seat_fits_a_phone_and_the_board_reads_from_the_back(voila: VoilaFactory, chromium: Browser, screenshots: Path, slug: str, seats: int, decision: str) -> None:
    notebook, root = GAMES[slug]
    server = voila(NOTEBOOKS_DIR / notebook)
    store = Store(server.db_path)
    names = HOUSEHOLDS[:seats] if slug == "leerdam" else ("Ana", "Bo & <i>Co</i>", "Zoë", "مريم")
    _, links = make_table(store, slug, names)
    pages: list[Page] = []
    try:
        phone = page_at(chromium, PHONE)
        pages.append(phone)
        open_dashboard(phone, server.url + links["seats"][0]["url"], f"{root}.playbook-seat {decision}")
        figures = measure(phone, root, first=f"{root} {decision}", text=16, target=44, text_in=".playbook-root")
        no_sideways(figures, f"{slug} seat")
        assert figures["firstBottom"] <= PHONE[1], f"{slug}: the seat's own decision ends {figures['firstBottom']} px down"
        assert figures["smallText"] == [], f"{slug} seat: text under 16 px: {figures['smallText']}"
        assert figures["smallTargets"] == [], f"{slug} seat: controls under 44 px: {figures['smallTargets']}"
        shot(phone, screenshots, f"{slug}-seat-phone")

        board = page_at(chromium, PROJECTOR)
        pages.append(board)
        open_dashboard(board, server.url + links["board"], f"{root}.playbook-board")
        settled(board)
        for size in (PROJECTOR, LAPTOP):
            at_size(board, size)
            figures = measure(board, root, text=20, text_in=".playbook-root")
            no_sideways(figures, f"{slug} board at {size}")
            assert figures["rootTop"] < size[1] / 3
            assert figures["smallText"] == [], f"{slug} board at {size}: text under 20 px: {figures['smallText']}"
        # A board shows no seat's panel and offers no way to open one.
        seat_controls = board.locator(f"{root} button[class*='pb-seat-'], {root} .pb-private, {root} a[href*='seat=']")
        assert seat_controls.count() == 0, seat_controls.evaluate_all("els => els.map(e => e.className)")
        assert "seat=" not in board.content()
        at_size(board, PROJECTOR)
        shot(board, screenshots, f"{slug}-board-projector")

        facilitator = page_at(chromium, LAPTOP)
        pages.append(facilitator)
        open_dashboard(facilitator, server.url + links["facilitator"], f"{root} .pb-class")
        figures = measure(facilitator, root)
        no_sideways(figures, f"{slug} facilitator")
        assert figures["rootTop"] < LAPTOP[1] / 2
        shot(facilitator, screenshots, f"{slug}-facilitator-laptop")
    finally:
        for page in pages:
            page.context.close()
