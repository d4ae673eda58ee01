"""Pages a room can use, measured in headless Chromium at a laptop, a projector and a phone.

- every game page: the table (or the lobby) starts in the first screen, nothing scrolls sideways;
- a seat's page on a phone: its own decision in the first screen, text at least 16 px and
  controls at least 44 px, nothing sideways;
- the board on a projector: text at least 20 px, no control that shows a seat's panel;
- every page (the lobby, the facilitator's table, the board, a seat) at a laptop, a projector
  and a phone: no word broken, nothing clipped, no code name and no "(s)" (`scan_text`); the
  same page is resized, so no more pages are opened;
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
from tests.support.browser import VoilaFactory, measure, open_dashboard, scan_text, settled
from tests.support.layout import LAPTOP, PHONE, PROJECTOR, at_size, no_sideways, page_at, read
from tests.support.tables import make_table

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

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
    problems: list[str] = []
    try:
        open_dashboard(page, server.url, f"{root} .pb-start")
        for size in (LAPTOP, PROJECTOR, PHONE):
            read(page, f"{slug}-lobby", size, problems)
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
        # Every reference section open, as a reader who unfolds them all sees them (the same on
        # every page of the game, so read once here).
        folds = "(open) => document.querySelectorAll('details.playbook-more').forEach((d) => { d.open = open; })"
        page.evaluate(folds, True)
        for size in (PHONE, LAPTOP, PROJECTOR):
            read(page, f"{slug}-reference", size, problems)
        page.evaluate(folds, False)
        at_size(page, LAPTOP)
        # The page starts a table and the table is at the top too (the shared-screen games).
        if slug in ("danger-world", "dangerous-ideas"):
            page.locator(f"{root} .pb-start").first.click()
            expect(page.locator(f"{root} .pb-round").first).to_be_visible()
            for size in (LAPTOP, PROJECTOR, PHONE):
                read(page, f"{slug}-table", size, problems)
                figures = measure(page, root)
                no_sideways(figures, f"{slug} table at {size}")
                assert figures["rootTop"] < size[1] / 2
            at_size(page, LAPTOP)
            shot(page, screenshots, f"{slug}-laptop")
    finally:
        page.context.close()
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize(
    "slug, seats, decision",
    [("new-rule", 4, ".pb-draw"), ("leerdam", 10, ".pb-pledge-confirm"), ("danger-world", 4, ".pb-quick-0"), ("dangerous-ideas", 4, ".pb-place-confirm")],
)
def test_a_seat_fits_a_phone_and_the_board_reads_from_the_back(voila: VoilaFactory, chromium: Browser, screenshots: Path, slug: str, seats: int, decision: str) -> None:
    notebook, root = GAMES[slug]
    server = voila(NOTEBOOKS_DIR / notebook)
    store = Store(server.db_path)
    names = HOUSEHOLDS[:seats] if slug == "leerdam" else ("Ana", "Bo & <i>Co</i>", "Zoë", "مريم")
    _, links = make_table(store, slug, names)
    pages: list[Page] = []
    problems: list[str] = []
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
        for size in (PHONE, LAPTOP, PROJECTOR):
            read(phone, f"{slug}-seat", size, problems)

        board = page_at(chromium, PROJECTOR)
        pages.append(board)
        open_dashboard(board, server.url + links["board"], f"{root}.playbook-board")
        settled(board)
        for size in (PROJECTOR, LAPTOP):
            read(board, f"{slug}-board", size, problems)
            figures = measure(board, root, text=20, text_in=".playbook-root")
            no_sideways(figures, f"{slug} board at {size}")
            assert figures["rootTop"] < size[1] / 3
            assert figures["smallText"] == [], f"{slug} board at {size}: text under 20 px: {figures['smallText']}"
        # A board shows no seat's panel and offers no way to open one.
        seat_controls = board.locator(f"{root} button[class*='pb-seat-'], {root} .pb-private, {root} a[href*='seat=']")
        assert seat_controls.count() == 0, seat_controls.evaluate_all("els => els.map(e => e.className)")
        assert "seat=" not in board.content()
        read(board, f"{slug}-board", PHONE, problems)
        at_size(board, PROJECTOR)
        shot(board, screenshots, f"{slug}-board-projector")

        facilitator = page_at(chromium, LAPTOP)
        pages.append(facilitator)
        open_dashboard(facilitator, server.url + links["facilitator"], f"{root} .pb-class")
        figures = measure(facilitator, root)
        no_sideways(figures, f"{slug} facilitator")
        assert figures["rootTop"] < LAPTOP[1] / 2
        shot(facilitator, screenshots, f"{slug}-facilitator-laptop")
        for size in (LAPTOP, PROJECTOR, PHONE):
            read(facilitator, f"{slug}-facilitator", size, problems)
    finally:
        for page in pages:
            page.context.close()
    assert problems == [], "\n".join(problems)


def test_the_danger_world_gms_page_and_a_players_dice_fit_a_phone(voila: VoilaFactory, chromium: Browser, screenshots: Path) -> None:
    """The two Danger World seat pages the seat test above does not open: the GM's (a phone, then
    a laptop) and a player's in the middle of a check (the dice tray, the coach)."""
    from playbook.store import Play
    from rules import danger_world as dw

    notebook, root = GAMES["danger-world"]
    server = voila(NOTEBOOKS_DIR / notebook)
    store = Store(server.db_path)
    table_id, links = make_table(store, "danger-world", ("Wren", "Bo & <i>Co</i>", "مريم"))
    sheet = dw.CreateCharacter(seat=0, character=0, stats=(4, 1, 2, 1, 3, 2, 1, 2), aspects=("Cat burglar", "Owes the guild", "Never leaves a friend"))
    check = dw.BeginCheck(seat=0, character=0, stats=("agility", "perception"), difficulty=4)
    for action in (sheet, check):
        store.submit(table_id, Play(action), store.version(table_id))
    pages: list[Page] = []
    problems: list[str] = []
    try:
        for seat, first, name in ((3, ".pb-die-0", "danger-world-gm"), (0, ".pb-lock", "danger-world-dice")):
            phone = page_at(chromium, PHONE)
            pages.append(phone)
            open_dashboard(phone, server.url + links["seats"][seat]["url"], f"{root}.playbook-seat {first}")
            figures = measure(phone, root, first=f"{root} {first}", text=16, target=44, text_in=".playbook-root")
            no_sideways(figures, name)
            assert figures["firstBottom"] <= PHONE[1], f"{name}: {first} ends {figures['firstBottom']} px down"
            assert figures["smallText"] == [], f"{name}: text under 16 px: {figures['smallText']}"
            assert figures["smallTargets"] == [], f"{name}: controls under 44 px: {figures['smallTargets']}"
            shot(phone, screenshots, f"{name}-phone")
            for size in (PHONE, LAPTOP):
                read(phone, name, size, problems)
                no_sideways(measure(phone, root), f"{name} at {size}")
    finally:
        for page in pages:
            page.context.close()
    assert problems == [], "\n".join(problems)


#: one of each thing the scan is for, and their right-reading twins
WRONGS = """<div id="rendered_cells" style="width: 360px; font: 16px sans-serif">
  <p style="width: 60px; overflow-wrap: anywhere">Subsistence</p>
  <p style="width: 60px">Whole words only</p>
  <div style="width: 100px; overflow: hidden; white-space: nowrap">A label cut off at its end</div>
  <div class="pb-log"><ol style="width: 100px; overflow-x: auto; white-space: nowrap"><li>A log scrolled on purpose</li></ol></div>
  <div style="width: 500px">Wider than the screen</div>
  <select style="width: 120px"><option>A choice too long for its box</option></select>
  <select style="width: 120px"><option>Short</option></select>
  <p>Seed shows probe_one and probe-1 on the table qtT9kEi5waSU; 2 unit(s) left.</p>
  <p>JavaScript and a difficulty-4 check are words; the key qtTkEiwaSUxx is not.</p>
  <p>Open http://127.0.0.1:8866/voila/render/leerdam.ipynb?table=qtT9kEi5waSU&amp;key=Ab3_cdEF-12x to join.</p>
  <p class="pb-heartbeat">probe_two</p>
  <p>Start it with <code>playbook serve --public_url</code>.</p>
</div>"""


def test_the_scan_finds_each_wrong_it_is_for(chromium: Browser) -> None:
    """A page with one of each wrong: the scan names each, and nothing that reads right."""
    page = page_at(chromium, (400, 600))
    try:
        page.set_content(WRONGS)
        found = scan_text(page)
    finally:
        page.context.close()
    assert [word for _, word in found["broken"]] == ["Subsistence"]
    assert {(what, how) for _, what, how, *_ in found["clipped"]} == {
        ("A label cut off at its end", "inside"),
        ("Wider than the screen", "past the screen"),
        ("A choice too long for its box", "inside"),
    }
    assert [name for _, name in found["codeNames"]] == ["probe_one", "probe-1", "qtT9kEi5waSU", "qtTkEiwaSUxx"]
    assert [word for _, word in found["plurals"]] == ["unit(s)"]
