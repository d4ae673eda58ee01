"""Every table a player's phone shows, in headless Chromium at 390 x 844: no word broken in
pieces ("HOU SEH OLD", "We alth") and nothing clipped.

The measuring is `tests.support.browser.scan_text` over the page's tables: a word is broken when its
letters sit on more than one line, a box is clipped when it is wider inside than it shows or
ends past the screen's edge.

The pages: a New Rule seat, a Leerdam seat while pledging and while allocating (with a second
household's row added), and the one page of each game played on a shared screen (Danger
World, Dangerous Ideas), which is what a player opens on a phone there.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from playbook.access import table_keys
from playbook.links import table_links
from playbook.serve import NOTEBOOKS_DIR
from playbook.store import Play, Store
from rules import danger_world as dw
from rules import dangerous_ideas as di
from rules import leerdam as ld
from rules import new_game
from rules import new_rule as nr
from rules.games import card
from tests.support.browser import LOAD_TIMEOUT_MS, VoilaFactory, open_dashboard, scan_text

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PHONE = (390, 844)
HOUSEHOLDS = ("Anneliese", "Bo & <i>Co</i>", "Zoë", "李小龙", "مريم", "🌊 Wave", "Eddie", "Fenna", "Gijs", "Hanneke")
SHOTS = Path("/tmp/playbook-phone-shots")

def check_tables(page: Page, root: str, where: str, least: int = 1) -> None:
    found = scan_text(page, root, tables_only=True)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{where}.png"), full_page=True)
    assert found["parts"] >= least, f"{where}: {found['parts']} tables shown, expected at least {least}"
    assert found["broken"] == [], f"{where}: words broken across lines: {found['broken']}"
    assert found["clipped"] == [], f"{where}: clipped: {found['clipped']}"


def phone(chromium: Browser) -> Page:
    context = chromium.new_context(viewport={"width": PHONE[0], "height": PHONE[1]})
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    return context.new_page()


def stored(store: Store, slug: str, setup: object, moves: tuple = (), seed: int = 3) -> tuple[str, dict]:
    names = card(slug).seat_names(setup)  # a GM's seat too
    table_id = store.create(new_game(slug, setup, seed), meta={"bots": {}, **table_keys(len(names))})
    version = store.version(table_id)
    for action in moves:
        version = store.submit(table_id, Play(action), version).table.version
    return table_id, table_links("", slug, table_id, store.info(table_id).meta, names)


def test_leerdam_seat_tables_on_a_phone(voila: VoilaFactory, chromium: Browser) -> None:
    root = ".playbook-leerdam"
    server = voila(NOTEBOOKS_DIR / "leerdam.ipynb")
    store = Store(server.db_path)
    setup = ld.Setup(names=HOUSEHOLDS)
    # Year 2, so a household has Wealth (the hiring form) and last year's pledges on the board.
    _, pledging = stored(store, "leerdam", setup, (*(ld.Contribute(seat=s, units=1) for s in range(10)), ld.Advance(seat=None)))
    page = phone(chromium)
    try:
        open_dashboard(page, server.url + pledging["seats"][1]["url"], f"{root}.playbook-seat .pb-pledge-confirm")
        check_tables(page, root, "leerdam-seat-pledging")
    finally:
        page.context.close()
    _, allocating = stored(store, "leerdam", setup, tuple(ld.Contribute(seat=s, units=1) for s in range(10)))
    page = phone(chromium)
    try:
        open_dashboard(page, server.url + allocating["seats"][1]["url"], f"{root}.playbook-seat .pb-alloc-confirm")
        # A second household's row, as a player adds one to work for a neighbour.
        page.locator(f"{root} .pb-alloc-add select").select_option(label=HOUSEHOLDS[4])
        expect(page.locator(f"{root} .pb-alloc-4-profit input")).to_be_visible()
        page.locator(f"{root} .pb-alloc-1-profit input").fill("3")
        page.locator(f"{root} .pb-alloc-1-profit input").press("Tab")
        expect(page.locator(f"{root} .pb-alloc-preview")).to_contain_text("Wealth")
        check_tables(page, root, "leerdam-seat-allocating", least=3)
        # The boxes are whole on the screen, each with its activity's name beside it.
        for activity in ("Subsistence", "Leisure", "Profit"):
            box = page.locator(f"{root} .pb-alloc-1-{activity.lower()}")
            expect(box).to_contain_text(activity)
            edge = box.locator("input").bounding_box()
            assert edge is not None and edge["x"] + edge["width"] <= PHONE[0], f"{activity}'s box ends past the screen: {edge}"
    finally:
        page.context.close()


def test_new_rule_seat_tables_on_a_phone(voila: VoilaFactory, chromium: Browser) -> None:
    root = ".playbook-new-rule"
    server = voila(NOTEBOOKS_DIR / "new_rule.ipynb")
    store = Store(server.db_path)
    _, links = stored(store, "new-rule", nr.Setup(names=("Anneliese", "Bo & <i>Co</i>", "Zoë", "مريم")))
    page = phone(chromium)
    try:
        open_dashboard(page, server.url + links["seats"][0]["url"], f"{root}.playbook-seat .pb-draw")
        check_tables(page, root, "new-rule-seat")
    finally:
        page.context.close()


@pytest.mark.parametrize("slug", ["danger-world", "dangerous-ideas"])
def test_the_tables_of_a_seat_page_that_hides_nothing_on_a_phone(voila: VoilaFactory, chromium: Browser, slug: str) -> None:
    """These games hide nothing: a player's phone opens their seat's page (a game played on
    devices) or the table itself (one shared screen), its tables (the sheets, the standings)
    whole on the phone."""
    root = f".playbook-{slug}"
    notebook = slug.replace("-", "_") + ".ipynb"
    server = voila(NOTEBOOKS_DIR / notebook)
    store = Store(server.db_path)
    if slug == "danger-world":
        setup = dw.Setup(names=("Anneliese", "Bo 🐉"), gm="Morgan")
        stats = (4, 1, 2, 1, 3, 2, 1, 2)
        moves = (
            dw.CreateCharacter(seat=0, character=0, stats=stats, aspects=("Cat burglar", "Owes the guild", "Never leaves a friend")),
            dw.CreateCharacter(seat=1, character=1, stats=stats, aspects=("Dragon tamer", "Hungry", "Loyal")),
        )
    else:
        setup, moves = di.Setup(names=("Anneliese", "Bo & <i>Co</i>", "Zoë")), ()
    _, links = stored(store, slug, setup, moves)
    page = phone(chromium)
    try:
        own = links["seats"][0]["url"] if card(slug).devices else links["board"]
        open_dashboard(page, server.url + own, f"{root} .pb-round")
        check_tables(page, root, f"{slug}-phone")
    finally:
        page.context.close()
