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

from playbook.links import table_links
from playbook.serve import NOTEBOOKS_DIR
from playbook.store import Store
from tests.support.browser import LOAD_TIMEOUT_MS, VoilaFactory, open_dashboard, settled
from tests.support.tables import make_table

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
        b = boxes(page, f"{root} .pb-tray", f"{root} .pb-roll", f"{root} .pb-party", f"{root} .pb-class")
        # The facilitator's page leads with the class card (board, join code, seat links), as
        # every game played on devices does; the table's first screen starts below it.
        top = b[f"{root} .pb-class"]["bottom"]
        assert b[f"{root} .pb-roll"]["bottom"] - top <= LAPTOP[1], f"Roll ends {b[f'{root} .pb-roll']['bottom'] - top} px below the class card"
        assert b[f"{root} .pb-tray"]["top"] - top < LAPTOP[1], f"the tray starts {b[f'{root} .pb-tray']['top'] - top} px below the class card"
        assert b[f"{root} .pb-tray"]["top"] < b[f"{root} .pb-party"]["top"]
        at_size(page, PHONE)
        page.evaluate("() => { window.scrollTo(0, 0); }")
        settled(page)
        page.screenshot(path=str(screenshots / "dw-tray-phone.png"))
    finally:
        page.context.close()


def test_a_meme_action_starts_in_one_panel_at_a_laptop_and_a_phone(voila: VoilaFactory, chromium: Browser, screenshots: Path) -> None:
    from tests.support.dangerous_ideas_page import click, start, to_first_turn
    from tests.support.headless import one
    from widgets.dangerous_ideas import DangerousIdeasDashboard

    root = ".playbook-dangerous-ideas"
    server = voila(NOTEBOOKS_DIR / "dangerous_ideas.ipynb")
    store = Store(server.db_path)
    # The setting round and the turn's stones played on the same store, headless: the browser
    # opens Bo's turn at its first action.
    host = DangerousIdeasDashboard(store, query="")
    start(host)
    to_first_turn(host)
    one(host, "pb-place-create").value = 2
    click(host, "pb-place-confirm")
    links = table_links("", "dangerous-ideas", host.table_id, store.info(host.table_id).meta, host.game.setup.names)
    for size in (LAPTOP, PHONE):
        page = page_at(chromium, size)
        try:
            open_dashboard(page, server.url + links["facilitator"], f"{root} .pb-create")
            page.locator(f"{root} .pb-create").first.click()
            page.locator(f"{root} .pb-meme-text input").first.fill("Bears like honey")
            page.locator(f"{root} .pb-meme-holder input").first.fill("Goldilocks")
            page.locator(f"{root} .pb-meme-holder input").first.press("Tab")
            expect(page.locator(f"{root} .pb-announce-stake").first).to_be_enabled()
            expect(page.locator(f"{root} .pb-announce-stake").first).to_contain_text("Create and stake")
            page.locator(f"{root} .pb-controls").first.scroll_into_view_if_needed()
            settled(page)
            page.screenshot(path=str(screenshots / f"di-meme-form-{size[0]}.png"))
            form = page.locator(f"{root} .pb-meme-form").first.bounding_box()
            for css in (".pb-meme-text input", ".pb-meme-holder input", ".pb-replace-target select"):
                box = page.locator(f"{root} .pb-meme-form {css}").first.bounding_box()
                assert box["x"] + box["width"] <= form["x"] + form["width"] + 0.5, f"{css} runs past the form at {size}"
            page.locator(f"{root} .pb-announce-stake").first.click()
            expect(page.locator(f"{root} .pb-all-pass").first).to_be_visible()
            # The phone starts from the same moment: the announce, the stake and phase 2 undone.
            if size == LAPTOP:
                host.refresh()
                host.undo()
                host.undo()
                host.undo()
        finally:
            page.context.close()


def test_new_rules_payment_on_a_phone_has_one_control_per_colour(voila: VoilaFactory, chromium: Browser, screenshots: Path) -> None:
    from tests.support.new_rule_page import human_seat, play_until
    from widgets.new_rule import NewRuleDashboard

    root = ".playbook-new-rule"
    server = voila(NOTEBOOKS_DIR / "new_rule.ipynb")
    store = Store(server.db_path)
    _, links = make_table(store, "new-rule", ("Ana", "Bo & <i>Co</i>", "Zoë", "مريم"))
    host = NewRuleDashboard(store, query=links["facilitator"].lstrip("?"))
    play_until(host, lambda s: s.phase == "pay" and s.players[human_seat(host)].bowl[s.colours.index("red")] > 0)
    seat = human_seat(host)
    # One device: the seat slip claims the seat for the device that opens it, so the laptop size
    # is the same page made wider.
    page = page_at(chromium, PHONE)
    try:
        open_dashboard(page, server.url + links["seats"][seat]["url"], f"{root} .pb-pay-confirm")
        for size in (PHONE, LAPTOP):
            at_size(page, size)
            numbers = page.locator(f"{root} .pb-pay input[type=number]")
            held = sum(1 for n in host.game.state.players[seat].bowl if n)
            expect(numbers).to_have_count(held)
            expect(page.locator(f"{root} .pb-pay-eat").first).to_contain_text("eat")
            page.locator(f"{root} .pb-pay").first.scroll_into_view_if_needed()
            settled(page)
            page.screenshot(path=str(screenshots / f"nr-payment-{size[0]}.png"))
    finally:
        page.context.close()


def test_leerdams_facilitator_says_its_terms_in_the_rooms_words(voila: VoilaFactory, chromium: Browser, screenshots: Path) -> None:
    root = ".playbook-leerdam"
    server = voila(NOTEBOOKS_DIR / "leerdam.ipynb")
    store = Store(server.db_path)
    _, links = make_table(store, "leerdam", ("Anneliese", "Bo & <i>Co</i>", "Zoë", "李小龙", "مريم"))
    for size in (LAPTOP, PHONE):
        page = page_at(chromium, size)
        try:
            open_dashboard(page, server.url + links["facilitator"], f"{root} .pb-pledged-count")
            expect(page.locator(f"{root} .pb-pledged-count").first).to_contain_text("not pledged yet")
            expect(page.locator(f"{root} .pb-advance").first).to_contain_text("Close the year now")
            expect(page.locator(f"{root} .pb-advance-note").first).to_contain_text("missing pledge counts as 0")
            text = page.locator("#rendered_cells").inner_text()
            for old in ("Hand over", "Advance the year", "rulings' defaults", "(s)"):
                assert old not in text, f"the facilitator's page still says {old!r}"
            settled(page)
            page.screenshot(path=str(screenshots / f"ld-facilitator-{size[0]}.png"))
            page.locator(f"{root} .pb-bot-1").first.scroll_into_view_if_needed()
            settled(page)
            page.screenshot(path=str(screenshots / f"ld-seats-{size[0]}.png"))
        finally:
            page.context.close()
