"""Every kind of page passes axe-core's WCAG 2.1 A and AA rules, in Chromium, in both themes, in
every phase it goes through, at a phone's, a laptop's and a projector's size.

One server serves every notebook for the whole module. Each page is opened once and walked
through its phases by the table store (as the other devices of a table would move it) or by its
own buttons; its theme is switched (the header's button, and the device's own colour scheme)
and it is resized in place, never reloaded. At its first phase and at its results a page is
read in full: at each of the three sizes, in the dark theme at its own size, the light at the
next, the dark at the last (a size changes the layout, never a colour: phone.css sets none).
A phase between is read once, at the next size and theme in turn, and only in the game's region
(the header and the page's frame were read in full and do not change). So each page meets each
size and each theme, and every phase is read, without reading every phase six times. The pages
of a test are read side by side: axe runs on all of them at once, and they wait for a change
together. The keyboard's focus ring is read on the front page and on each game's seat and
facilitator. States the phases pass by (a hire offer, a countdown, the GM's botches) are read
on tables stored in them.

A failure lists each element axe-core flags, with its rule, its selector and what to fix
(tests/support/axe.py); axe-core is pinned in tools/axe/ (`npm ci --prefix tools/axe`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from drawing.common import contrast_ratio
from playbook import classes as cl
from playbook import pace
from playbook.access import table_keys
from playbook.links import class_links, table_links
from playbook.serve import RunningServer, background_server
from playbook.store import Play, Store
from rules import leerdam as ld
from rules.core import AnyGame
from rules.games import card
from tests.support import axe
from tests.support import phases as phase_game
from tests.support.browser import LOAD_TIMEOUT_MS, notebook_page, settled
from tests.support.keys import INDEX
from tests.support.phases import PHASES
from tests.support.tables import stored

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

PHONE, LAPTOP, PROJECTOR = (390, 844), (1366, 768), (1920, 1080)
SIZES = (PHONE, LAPTOP, PROJECTOR)
THEMES = ("light", "dark")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """Every notebook on one server, its own table store."""
    axe.axe_source()  # skip (or fail in CI) before a server starts for nothing
    folder = tmp_path_factory.mktemp("a11y")
    with background_server(None, folder / "voila.log", db_path=folder / "tables.sqlite3") as server:
        yield server


class Checker:
    """The pages of one test and what axe-core found on them."""

    def __init__(self, chromium: Browser) -> None:
        self.chromium = chromium
        self.pages: list[Page] = []
        self.own_size: dict[int, tuple[int, int]] = {}
        self.problems: dict[str, list[str]] = {}
        self.turn = 0

    def open(self, *wanted: tuple[str, str, tuple[int, int]]) -> list[Page]:
        """Pages of (address, what shows it has loaded, size), asked for all at once (their
        kernels start together), each returned once its selector shows."""
        pages = []
        for url, _, size in wanted:
            context = self.chromium.new_context(viewport={"width": size[0], "height": size[1]})
            context.set_default_timeout(LOAD_TIMEOUT_MS)
            page = context.new_page()
            self.pages.append(page)
            self.own_size[id(page)] = size
            page.goto(url, wait_until="commit")
            pages.append(page)
        for page, (_, selector, _) in zip(pages, wanted):
            page.locator("#rendered_cells").wait_for(state="visible")
            page.locator(selector).first.wait_for(state="visible")
        return pages

    def theme(self, page: Page, theme: str) -> None:
        """The page in `theme`: the device's colour scheme and the header's button."""
        page.emulate_media(color_scheme=theme)
        if self.theme_of(page) != theme:
            page.locator(".playbook-theme").click()
        expect(page.locator("html")).to_have_attribute("data-playbook-theme", theme)

    def theme_of(self, page: Page) -> str:
        return str(page.evaluate("() => document.documentElement.getAttribute('data-playbook-theme')"))

    def size(self, page: Page, size: tuple[int, int]) -> None:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        settled(page, size[0])

    def check(self, pages: dict[str, Page], full: bool = False) -> None:
        """axe-core on `pages` (each named for the report), side by side: each step resizes
        every page and sets its theme, then runs axe on all of them at once.

        `full` (a page's first phase, and its results): at each of the three sizes, its own
        first, in the dark theme, then the light, then the dark again (a size changes the
        layout, never a colour: phone.css sets none; the dark theme, which a device in dark
        mode turns on by itself, has the most colours of its own). Else (the phases between) in
        one theme at one size, each the next in turn, and only the game's region
        (`#rendered_cells`): the header, the live regions and the page's frame were read in
        full and do not change."""
        if full:
            order = [[self.own_size[id(page)], *(size for size in SIZES if size != self.own_size[id(page)])] for page in pages.values()]
            steps = [[(sizes[i], theme) for sizes in order] for i, theme in enumerate(("dark", "light", "dark"))]
            region = None
        else:
            steps = [[(SIZES[self.turn % len(SIZES)], THEMES[self.turn % len(THEMES)]) for _ in pages]]
            self.turn += 1
            region = "#rendered_cells"
        for step in steps:
            for page, (size, theme) in zip(pages.values(), step):
                self.size(page, size)
                self.theme(page, theme)
                settled(page)
                axe.start(page, region)
            for (where, page), (size, theme) in zip(pages.items(), step):
                axe.note(axe.collect(page), where, self.problems, f"{theme} {size[0]}x{size[1]}")

    def rings(self, page: Page, where: str, presses: int = 16) -> None:
        """The keyboard's focus ring on the page's first controls, in both themes."""
        for theme in THEMES:
            self.theme(page, theme)
            read = focus_rings(page, where, presses, self.problems, theme)
            assert read >= 3, f"{where}: Tab reached {read} controls"

    def close(self) -> None:
        for page in self.pages:
            page.context.close()

    def verdict(self) -> None:
        assert self.problems == {}, f"{len(self.problems)} accessibility violations:\n" + axe.report(self.problems)


@pytest.fixture
def checker(chromium: Browser) -> Iterator[Checker]:
    found = Checker(chromium)
    try:
        yield found
    finally:
        found.close()


#: The element with the keyboard's focus: its outline, and the colour it is drawn on (the nearest
#: opaque background outside the element: the outline is offset from it).
_FOCUSED_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) { return null; }
  const opaque = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(',').map(Number); return p.length > 3 && p[3] < 0.5 ? null : '#' + p.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, '0')).join(''); };
  let ground = '#ffffff';
  for (let e = el.parentElement; e; e = e.parentElement) { const c = opaque(getComputedStyle(e).backgroundColor); if (c) { ground = c; break; } }
  const look = getComputedStyle(el);
  return {what: `${el.tagName.toLowerCase()}.${String(el.className).split(' ').filter((c) => c.startsWith('pb-') || c.startsWith('playbook-')).join('.')} ${(el.textContent || el.value || '').trim().slice(0, 30)}`,
          width: parseFloat(look.outlineWidth) || 0, style: look.outlineStyle, colour: opaque(look.outlineColor), ground};
}"""


def focus_rings(page: Page, where: str, presses: int, problems: dict[str, list[str]], when: str) -> int:
    """Tab through the first `presses` controls of `page`: each must show an outline of 2 px or
    more at 3:1 or more against the colour around it (WCAG 2.4.7 and 1.4.11). How many were read."""
    page.locator("body").focus()
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    read = 0
    for _ in range(presses):
        page.keyboard.press("Tab")
        ring = page.evaluate(_FOCUSED_JS)
        if ring is None:
            continue
        read += 1
        ratio = contrast_ratio(ring["colour"], ring["ground"]) if ring["colour"] else 1.0
        if ring["style"] == "none" or ring["width"] < 2 or ratio < 3:
            line = f"{where}: focus ring of {ring['what']!r}: {ring['style']} {ring['width']} px, {ratio:.2f}:1 on {ring['ground']}"
            problems.setdefault(line, []).append(when)
    return read


def step_to(store: Store, table_id: str, target: AnyGame, refresh: Callable[[], None] = lambda: None) -> None:
    """Play the stored table on to `target`'s state: its players' actions, as their pages would
    send them (chance outcomes follow from the shared seed)."""
    done = len(store.load(table_id).game.actions)
    for action in target.actions[done:]:
        if not action.chance:
            store.submit(table_id, Play(action), store.version(table_id))
    assert len(store.load(table_id).game.actions) == len(target.actions)


def shown_text(page: Page, root: str) -> str:
    return page.locator(root).first.inner_text()


def redrawn(pages: dict[Page, str], root: str) -> None:
    """Wait until each page has drawn the latest change (the text of `root` is no longer the
    one given) and they hold still: one pause for all of them, not one a page."""
    for page, before in pages.items():
        page.wait_for_function(
            "([root, before]) => { const el = document.querySelector(root); return el && el.innerText !== before; }",
            arg=[root, before],
            timeout=LOAD_TIMEOUT_MS,
        )
    next(iter(pages)).wait_for_timeout(600)  # the rest of the redraw (a follower settles for up to 0.5 s)
    for page in pages:
        settled(page)


@pytest.mark.xdist_group("accessibility:pages")
def test_the_front_page_the_print_studio_and_the_balance_lab(served: RunningServer, checker: Checker) -> None:
    ready = "#rendered_cells .playbook-root"
    pages = checker.open(
        (notebook_page(served, "index.ipynb") + INDEX, ".pb-table-list, .pb-class-game", LAPTOP),
        (notebook_page(served, "print_studio.ipynb"), ".pb-studio-make", LAPTOP),
        (notebook_page(served, "balance_lab.ipynb"), ready, LAPTOP),
    )
    checker.check(dict(zip(("front page", "print studio", "balance lab"), pages)), full=True)
    checker.rings(pages[0], "front page")
    # What a press brings: the print studio's page preview, the balance lab's results (a few
    # games on one core: the tables and the chart are the same for any number).
    studio, lab = pages[1], pages[2]
    studio.locator(".pb-studio-make").click()
    lab.locator(".pb-lab-games input").fill("6")
    lab.locator(".pb-lab-workers input").fill("1")
    lab.locator(".pb-lab-run").click()
    studio.locator(".pb-studio-preview img").wait_for(state="visible")
    lab.locator(".pb-lab-chart img").wait_for(state="visible")
    expect(lab.locator(".pb-lab-results table").first).to_be_visible()
    checker.check({"print studio with its preview": studio, "balance lab with its results": lab}, full=True)
    checker.verdict()


@pytest.mark.xdist_group("accessibility:pages")
def test_the_states_a_table_meets_on_the_way(served: RunningServer, checker: Checker) -> None:
    """States the phases above pass by: a Leerdam household's seat in the second year's
    allocation with a hire offer to accept or decline, its own countdown running (a timer of an
    hour: nothing moves during the test), and the board's countdown; Danger World's GM page
    while a check waits on the GM's botches."""
    store = Store(served.db_path)
    village = phase_game.leerdam(lambda g: g.state.year == 2 and g.state.phase == "allocate")
    village.apply(ld.Offer(seat=1, partner=0, wealth=1, units=1, activity="profit"))
    names = card("leerdam").seat_names(village.setup)
    village_id = store.create(village, "a timed table", {"bots": {}, **table_keys(len(names)), pace.PACE: pace.Pace(3600).to_json()})
    village_links = table_links(served.url, "leerdam", village_id, store.info(village_id).meta, names)
    check = phase_game.danger_world(lambda g: g.state.phase == "gm")
    check_id, _ = stored(store, check)
    check_links = table_links(served.url, "danger-world", check_id, store.info(check_id).meta, card("danger-world").seat_names(check.setup))
    seat, board, gm = checker.open(
        (village_links["seats"][0]["url"], ".playbook-leerdam.playbook-seat .pb-accept-1", PHONE),
        (village_links["board"], ".playbook-leerdam .pb-countdown-box", PROJECTOR),
        (check_links["seats"][check.setup.gm_seat]["url"], ".playbook-danger-world.playbook-seat .pb-gm", LAPTOP),
    )
    expect(seat.locator(".pb-countdown-box")).to_contain_text("Your time")
    expect(seat.locator(".pb-offer-send")).to_be_visible()
    checker.check({"leerdam seat with a hire offer and its countdown": seat, "leerdam board with its countdown": board, "danger-world GM page at the botches": gm}, full=True)
    checker.verdict()


# Each game in an xdist group of its own: the module's minutes spread over the workers.
@pytest.mark.parametrize("slug", [pytest.param(slug, marks=pytest.mark.xdist_group(f"accessibility:{slug}")) for slug in PHASES])
def test_a_games_pages_in_every_phase(served: RunningServer, checker: Checker, slug: str) -> None:
    """The game's page as it opens (the lobby), then one stored table's join page (its first
    seat claimed there: the seat page), board and facilitator pages, each followed through the
    table's phases; the keyboard's focus ring on the seat and the facilitator's controls."""
    game = card(slug)
    root = f".playbook-{slug}"
    store = Store(served.db_path)
    phases = PHASES[slug]
    first = phases[next(iter(phases))]()
    table_id, _ = stored(store, type(first)(first.rules, first.setup, first.seed))
    links = table_links(served.url, slug, table_id, store.info(table_id).meta, game.seat_names(first.setup))
    lobby, join, board, facilitator = checker.open(
        (notebook_page(served, game.notebook), f"{root} .pb-start", LAPTOP),
        (links["join"], f"{root}.playbook-join .pb-claim-0", PHONE),
        (links["board"], f"{root}.playbook-board", PROJECTOR),
        (links["facilitator"], f"{root}.playbook-facilitator", LAPTOP),
    )
    checker.check({f"{slug} lobby": lobby, f"{slug} join page": join}, full=True)
    join.locator(f"{root} .pb-claim-0").click()
    join.locator(f"{root}.playbook-seat").first.wait_for(state="visible")
    pages = {"seat": join, "board": board, "facilitator": facilitator}
    checker.check({f"{slug} {name} at the start": page for name, page in pages.items()}, full=True)
    for name in ("seat", "facilitator"):
        checker.rings(pages[name], f"{slug} {name}")
    last = list(phases)[-1]
    for phase, make in phases.items():
        shown = {page: shown_text(page, f"{root}.playbook-root") for page in pages.values()}
        step_to(store, table_id, make())
        redrawn(shown, f"{root}.playbook-root")
        checker.check({f"{slug} {name} in the {phase}": page for name, page in pages.items()}, full=phase == last)
    checker.verdict()


@pytest.mark.xdist_group("accessibility:pages")
def test_a_class_from_the_room_code_to_the_debrief(served: RunningServer, checker: Checker) -> None:
    """A Leerdam class: the room-code page, a student's join, lobby and seat, the monitor and
    the class board, in the lobby, while the tables play, and once the class has ended (the
    results, and the debrief's tables side by side)."""
    store = Store(served.db_path)
    record = cl.create_class(store, "leerdam", 3, seed=3)
    links = class_links(served.url, record)
    phone, monitor, board = checker.open(
        (served.url.rstrip("/") + "/j", ".playbook-class-code .pb-code-box input", PHONE),
        (links["monitor"], ".playbook-class-monitor .pb-deal", LAPTOP),
        (links["board"], ".playbook-class-board", PROJECTOR),
    )
    checker.check({"class room-code page": phone}, full=True)
    phone.locator(".playbook-class-code .pb-code-box input").fill(record.code)
    phone.locator(".playbook-class-code .pb-code-go").click()
    phone.locator(".playbook-class-join .pb-name-box input").fill("Ana")
    checker.check({"class join page": phone})
    phone.locator(".playbook-class-join .pb-join-class").click()
    expect(phone.locator(".playbook-class-student")).to_contain_text("You are in")
    for name in ("Bo", "Cy", "Di"):
        record = cl.submit(store, record.id, cl.Join(name, name.lower() * 8), cl.class_version(store, record.id))
    expect(monitor.locator(".playbook-class-monitor .pb-student-chip")).to_have_count(4)
    expect(board.locator(".playbook-class-board")).to_contain_text("Di")
    checker.check({"class monitor in the lobby": monitor, "class board in the lobby": board}, full=True)
    checker.check({"class student lobby": phone})
    monitor.locator(".playbook-class-monitor .pb-deal").click()
    expect(monitor.locator(".playbook-class-monitor .pb-start-class")).to_be_visible()
    checker.check({"class monitor dealt": monitor})
    monitor.locator(".playbook-class-monitor .pb-start-class").click()
    expect(phone.locator(".playbook-leerdam.playbook-seat .pb-pledge-confirm")).to_be_visible()
    expect(board.locator(".pb-class-table")).to_have_count(1)
    expect(board.locator(".pb-class-debrief-round")).to_be_visible()
    # A phase between: the phone's frame was read in full at the room code, a Leerdam seat's
    # panel in full in the game's own test; the monitor and the board in full in the lobby.
    checker.check({"class seat": phone, "class monitor playing": monitor, "class board playing": board})
    shown = {page: shown_text(page, "#rendered_cells") for page in (board, monitor)}
    record = cl.load_class(store, record.id)
    cl.submit(store, record.id, cl.End(), record.version)
    redrawn(shown, "#rendered_cells")
    checker.check({"class board with the results and the debrief": board, "class monitor ended": monitor, "class student after the end": phone}, full=True)
    checker.verdict()


def test_the_axe_helper_names_what_to_fix(chromium: Browser) -> None:
    """A page with a dropdown without a name and grey text on white: each is one readable line."""
    context = chromium.new_context(viewport={"width": 400, "height": 300})
    try:
        page = context.new_page()
        page.set_content('<html lang="en"><head><title>t</title></head><body><main><select><option>One</option></select><p style="color: #aaaaaa">Faint</p></main></body></html>')
        found = axe.describe(axe.violations(page), "sample")
    finally:
        context.close()
    assert any("select-name (critical) select" in line for line in found), found
    assert any("color-contrast (serious) p" in line and "Faint" in line for line in found), found
    assert Path(axe.AXE_DIR / "package-lock.json").is_file()
