"""The heavy screens of issue 19, measured in headless Chromium at a laptop and a projector.

- Dangerous Ideas: the standings table stays inside its own card (never under the game log's)
  at 1366 and 1920 wide, with ten seats and long names;
- Danger World: once every sheet is done, the dice tray starts in the laptop's first screen.

Screenshots go to a temporary folder (look at them with `PLAYBOOK_SCREENSHOTS=/tmp/x`).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from playbook.serve import NOTEBOOKS_DIR
from tests.browser import LOAD_TIMEOUT_MS, open_dashboard, settled
from tests.conftest import VoilaFactory

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

LAPTOP, PROJECTOR, PHONE = (1366, 768), (1920, 1080), (390, 844)
#: long names, bots' labels beside them, scripts of several directions
NAMES = ("Anneliese-Marie", "Bo & <i>Co</i>", "Zoë Vandenbroucke", "李小龙", "مريم العذراء", "🌊 Wave Rider", "Eddie", "Fenna", "Gijs", "Hanneke")

#: For each selector, its box in page coordinates; a table's own scroll width beside its box.
BOXES_JS = """(sels) => Object.fromEntries(sels.map((s) => {
  const el = document.querySelector(s);
  if (!el) { return [s, null]; }
  const r = el.getBoundingClientRect();
  return [s, {left: r.left, right: r.right, top: r.top + window.scrollY, bottom: r.bottom + window.scrollY,
              scrollWidth: el.scrollWidth, clientWidth: el.clientWidth}];
}))"""


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = os.environ.get("PLAYBOOK_SCREENSHOTS")
    return Path(folder) if folder else tmp_path_factory.mktemp("screenshots")


def page_at(chromium: Browser, size: tuple[int, int]) -> Page:
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    return context.new_page()


def at_size(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    settled(page, size[0])


def boxes(page: Page, *selectors: str) -> dict:
    return dict(page.evaluate(BOXES_JS, list(selectors)))


def test_dangerous_ideas_standings_stay_inside_their_card(voila: VoilaFactory, chromium: Browser, screenshots: Path) -> None:
    root = ".playbook-dangerous-ideas"
    server = voila(NOTEBOOKS_DIR / "dangerous_ideas.ipynb")
    page = page_at(chromium, LAPTOP)
    try:
        open_dashboard(page, server.url, f"{root} .pb-start")
        page.locator(f"{root} .pb-players select").first.select_option(label=f"{len(NAMES)} players")
        for i, name in enumerate(NAMES):
            page.locator(f"{root} .pb-name-{i} input").first.fill(name)
            # Bots play the whole game at once: the standings fill with their groups.
            page.locator(f"{root} .pb-kind-{i} select").first.select_option(label="bot: sensible")
        page.locator(f"{root} .pb-chapters select").first.select_option(label="1")
        page.locator(f"{root} .pb-start").first.click()
        expect(page.locator(f"{root} .pb-standings table").first).to_be_visible()
        expect(page.locator(f"{root} .pb-turn").first).to_contain_text("Game over", timeout=120_000)
        for size in (LAPTOP, PROJECTOR):
            at_size(page, size)
            page.locator(f"{root} .pb-standings").first.scroll_into_view_if_needed()
            settled(page)
            page.screenshot(path=str(screenshots / f"di-standings-{size[0]}.png"))
            b = boxes(page, f"{root} .pb-standings", f"{root} .pb-standings .pb-card", f"{root} .pb-standings table", f"{root} .pb-log")
            card, table, log = b[f"{root} .pb-standings .pb-card"], b[f"{root} .pb-standings table"], b[f"{root} .pb-log"]
            assert table["right"] <= card["right"] + 0.5, f"at {size} the standings table ends at {table['right']}, its card at {card['right']}"
            assert card["right"] <= b[f"{root} .pb-standings"]["right"] + 0.5
            side_by_side = log["top"] < card["bottom"] and card["top"] < log["bottom"]
            if side_by_side:
                assert card["right"] <= log["left"], f"at {size} the standings card runs under the log ({card['right']} > {log['left']})"
    finally:
        page.context.close()


def test_danger_world_quick_characters_and_the_tray_in_the_first_screen(voila: VoilaFactory, chromium: Browser, screenshots: Path) -> None:
    root = ".playbook-danger-world"
    server = voila(NOTEBOOKS_DIR / "danger_world.ipynb")
    page = page_at(chromium, LAPTOP)
    try:
        open_dashboard(page, server.url, f"{root} .pb-start")
        page.locator(f"{root} .pb-start").first.click()
        expect(page.locator(f"{root} .pb-quick-all").first).to_be_visible()
        settled(page)
        page.screenshot(path=str(screenshots / "dw-sheets-laptop.png"))
        page.locator(f"{root} .pb-quick-all").first.click()
        expect(page.locator(f"{root} .pb-roll").first).to_be_visible()
        expect(page.locator(f"{root} .pb-builder-0").first).to_be_hidden()
        at_size(page, LAPTOP)
        page.evaluate("() => { window.scrollTo(0, 0); const c = document.querySelector('#rendered_cells'); if (c) { c.scrollTop = 0; } }")
        settled(page)
        page.screenshot(path=str(screenshots / "dw-tray-laptop.png"))
        b = boxes(page, f"{root} .pb-tray", f"{root} .pb-roll", f"{root} .pb-party")
        assert b[f"{root} .pb-roll"]["bottom"] <= LAPTOP[1], f"Roll ends {b[f'{root} .pb-roll']['bottom']} px down"
        assert b[f"{root} .pb-tray"]["top"] < LAPTOP[1], f"the tray starts {b[f'{root} .pb-tray']['top']} px down"
        assert b[f"{root} .pb-tray"]["top"] < b[f"{root} .pb-party"]["top"]
        at_size(page, PHONE)
        page.evaluate("() => { window.scrollTo(0, 0); }")
        settled(page)
        page.screenshot(path=str(screenshots / "dw-tray-phone.png"))
    finally:
        page.context.close()
