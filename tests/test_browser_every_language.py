"""Every page in every language, in headless Chromium, on one server:

- in the pseudo-language (`i18n.PSEUDO`, the device's `pb-lang` cookie) every text a reader meets
  in the live page (`pseudo.dom_texts`) is a translated message, at a phone, a laptop and a
  projector: the front page, the print studio, the balance lab, a seat and a board of each game
  (its reference panels opened: rules, worked examples, odds, rulings), and a class's join
  page, lobby, monitor and board. Players' names, numbers, the room code and
  the languages' own names aside; a text outside the brackets escaped translation;
- the same page switched by the header's language menu to German, then to Arabic (right to left):
  the layout rules of tests/test_browser_layout.py hold at the three sizes (nothing cut off, no
  word broken, nothing sideways, a seat's decision in a phone's first screen, the board's text
  readable from the back; a game's reference panels opened too); the page says its language and
  direction in `<html lang dir>`;
- the notebooks' prose (their Markdown, playbook.prose) in German and in Arabic as the catalogs
  say it, and the front page's cards drawn in it;
- one Leerdam class whose board reads Dutch while two phones read Spanish and Arabic, each its
  own (switched on the join page's menu), and the monitor counts them.

Each page is opened once and resized in place; a language switch reloads it (as it does for a
student), and every check of that language runs on that load.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

import i18n
import lab
from playbook import classes as cl
from playbook.serve import RunningServer, background_server
from playbook.store import Store
from rules.games import card
from tests.support.browser import LOAD_TIMEOUT_MS, measure, notebook_page, settled
from tests.support.keys import INDEX
from tests.support.layout import LAPTOP, PHONE, PROJECTOR, SIZES, at_size, page_at, read
from tests.support.pseudo import dom_texts, escaped, escaped_across
from tests.support.tables import make_table

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

MENU = ".playbook-header select.playbook-language"
#: each game's seat page: its root and its own decision (a phone's first screen holds it)
GAMES = {
    "new-rule": ".pb-draw",
    "leerdam": ".pb-pledge-confirm",
    "danger-world": ".pb-quick-0",
    "dangerous-ideas": ".pb-place-confirm",
}
SEATS = ("Ana", "Bo & <i>Co</i>", "Zoë", "مريم")
#: names that stand on a page as they are: the product's, the languages' own (the menu, the
#: monitor's count), the players'
NAMES = ("Playbook", *i18n.LANGUAGES.values(), *(card(slug).title for slug in GAMES))
#: the first words of paragraphs of the page's prose (not English quotes) whose lines do not start
#: on the side the page's direction (the argument) reads from
PROSE_ALIGNED_AGAINST = """(dir) => [...document.querySelectorAll('#rendered_cells .jp-RenderedHTMLCommon p')]
  .filter((p) => p.getClientRects().length && !p.closest('[lang="en"]'))
  .filter((p) => { const a = getComputedStyle(p).textAlign; return dir === 'rtl' ? !['right', 'start'].includes(a) : a === 'right'; })
  .map((p) => p.textContent.slice(0, 30))"""
#: an address a page shows (the class's short one, a table's join link)
ADDRESS = re.compile(r"https?://\S+")
#: the names a game page's worked examples give their players, characters and philosophies
EXAMPLE_NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Wren", "Morgan", "Manifest Destiny", "Vegetarianism", "German Efficiency")
#: every reference panel of a page opened (true) or folded again (false)
FOLDS = "(open) => document.querySelectorAll('details.playbook-more').forEach((d) => { d.open = open; })"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """Every notebook on one server, its own table store."""
    folder = tmp_path_factory.mktemp("languages")
    with background_server(None, folder / "voila.log", db_path=folder / "tables.sqlite3") as server:
        yield server


class Pages:
    """The pages of one test, each a device of its own opened in the pseudo-language, all at once
    (their kernels start together); what read wrong, by page and language."""

    def __init__(self, chromium: Browser, server: RunningServer) -> None:
        self.chromium, self.server = chromium, server
        self.ready: dict[str, str] = {}
        self.pages: dict[str, Page] = {}
        self.problems: list[str] = []

    def open(self, name: str, url: str, ready: str, size: tuple[int, int] = LAPTOP, lang: str = i18n.PSEUDO) -> Page:
        page = page_at(self.chromium, size)
        if lang:  # else the page's own: the class's or the table's language
            page.context.add_cookies([{"name": "pb-lang", "value": lang, "url": self.server.url}])
        page.goto(url, wait_until="commit")
        self.pages[name], self.ready[name] = page, ready
        return page

    def loaded(self, lang: str, which: tuple[str, ...] = ()) -> None:
        """Every page (or those named `which`) shown in `lang`, its widgets drawn."""
        for name, page in self.pages.items():
            if which and name not in which:
                continue
            expect(page.locator("html")).to_have_attribute("lang", lang, timeout=LOAD_TIMEOUT_MS)
            page.locator("#rendered_cells").wait_for(state="visible")
            page.locator(self.ready[name]).first.wait_for(state="visible")
            assert page.evaluate("document.documentElement.dir") == i18n.direction(lang), name
            settled(page)

    def switch(self, lang: str) -> None:
        """Each page to `lang` by its header's menu (the page opens again in it)."""
        for page in self.pages.values():
            page.locator(MENU).select_option(lang)
        self.loaded(lang)

    def untranslated(self, names: tuple[str, ...] = (), which: tuple[str, ...] = (), unfold: bool = False) -> None:
        """Note every text outside the pseudo-language's brackets, on every page (or those named
        `which`) at every size; with `unfold`, the folded reference panels opened too (a game's
        rules, examples, odds and rulings), as a reader who opens them all reads them."""
        for name, page in self.pages.items():
            if which and name not in which:
                continue
            if unfold:
                page.evaluate(FOLDS, True)
            for size in SIZES:
                at_size(page, size)
                texts = dom_texts(page)
                shown = [address for text in texts for address in ADDRESS.findall(text)]  # a link to copy, as it is
                found = escaped_across(texts, names=(*NAMES, *names, *shown))
                if found:
                    self.problems.append(f"{name} at {size[0]}x{size[1]} in {i18n.PSEUDO}: escaped {sorted(set(found))[:12]}")
            if unfold:
                page.evaluate(FOLDS, False)

    def lays_out(self, lang: str, seats: dict[str, str] | None = None, boards: dict[str, str] | None = None) -> None:
        """The layout rules on every page at every size: nothing clipped, broken or sideways;
        a seat's decision (`seats`: page name -> selector) in a phone's first screen; a
        board (`boards`: page name -> its root) on a laptop and a projector starting in the
        top third of the screen, its text readable from the back (20 px)."""
        seats, boards = seats or {}, boards or {}
        for name, page in self.pages.items():
            for size in SIZES:
                read(page, f"{name}-{lang}", size, self.problems)
                figures = measure(page, "#rendered_cells .playbook-root", first=seats.get(name) if size == PHONE else None, text=20 if name in boards and size != PHONE else 0, text_in=boards.get(name, "#rendered_cells"))
                where = f"{name} at {size[0]}x{size[1]} in {lang}"
                if figures["scrollWidth"] > figures["width"]:
                    self.problems.append(f"{where}: {figures['scrollWidth']} px wide in a {figures['width']} px screen")
                if seats.get(name) and size == PHONE and (figures["firstBottom"] is None or figures["firstBottom"] > PHONE[1]):
                    self.problems.append(f"{where}: the seat's own decision ends {figures['firstBottom']} px down")
                if name in boards and size != PHONE and (figures["rootTop"] is None or figures["rootTop"] >= size[1] / 3):
                    self.problems.append(f"{where}: the board starts {figures['rootTop']} px down")
                if name in boards and figures["smallText"]:
                    self.problems.append(f"{where}: board text under 20 px: {figures['smallText']}")

    def reference_reads(self, lang: str, which: tuple[str, ...]) -> None:
        """The layout rules on the pages named `which` with their reference panels opened (the
        worked examples, odds tables and rulings said in `lang`), at every size."""
        for name in which:
            page = self.pages[name]
            page.evaluate(FOLDS, True)
            for size in SIZES:
                read(page, f"{name}-reference-{lang}", size, self.problems)
            # Prose starts where the language reads from: JupyterLab aligns paragraphs left.
            ragged = page.evaluate(PROSE_ALIGNED_AGAINST, i18n.direction(lang))
            if ragged:
                self.problems.append(f"{name} in {lang}: paragraphs aligned against the reading: {ragged[:3]}")
            page.evaluate(FOLDS, False)

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()


@pytest.fixture
def pages(chromium: Browser, served: RunningServer) -> Iterator[Pages]:
    found = Pages(chromium, served)
    try:
        yield found
    finally:
        found.close()


def test_the_front_page_the_print_studio_and_the_lab_in_every_language(pages: Pages, served: RunningServer) -> None:
    pages.open("front page", notebook_page(served, "index.ipynb") + INDEX, ".pb-table-list, .pb-class-game")
    pages.open("print studio", notebook_page(served, "print_studio.ipynb"), ".pb-studio-make")
    pages.open("balance lab", notebook_page(served, "balance_lab.ipynb"), "#rendered_cells .playbook-root")
    pages.loaded(i18n.PSEUDO)
    # The bots' names are names (the command line's and a saved run's too): what each does is said.
    pages.untranslated(names=tuple(bot for game in lab.BOTS for bot in lab.BOTS[game]))
    for lang in ("de", "ar"):
        pages.switch(lang)
        pages.lays_out(lang)
        notebooks_prose_in(pages, lang)
    assert pages.problems == [], "\n".join(pages.problems)


def notebooks_prose_in(pages: Pages, lang: str) -> None:
    """The notebooks' Markdown as the catalog of `lang` says it (playbook.prose), the English
    gone, a `##` section's panel titled in it; the front page's six cards in it too."""
    for name, heading in (("front page", "# Four tabletop games, ready to play, print and test"), ("print studio", "# Print studio"), ("balance lab", "# Balance lab")):
        page, translated = pages.pages[name], i18n.catalog_text(heading, lang)
        assert translated != heading, (name, lang)
        expect(page.locator("#pb-main .jp-MarkdownOutput h1").first).to_contain_text(translated[2:])
        assert heading[2:] not in page.locator("#pb-main").inner_text(), (name, lang)
    front = pages.pages["front page"]
    expect(front.locator("details.playbook-more > summary").first).to_have_text(i18n.catalog_text("## The games", lang)[3:])
    expect(front.locator(".pb-index-card")).to_have_count(6)
    expect(front.locator(".pb-index-leerdam")).to_contain_text(said(str(card("leerdam").pitch), lang))


@pytest.mark.parametrize("slug", list(GAMES))
def test_a_games_seat_and_board_in_every_language(pages: Pages, served: RunningServer, slug: str) -> None:
    store = Store(served.db_path)
    game = card(slug)
    root = f".playbook-{slug}"
    _, links = make_table(store, slug, SEATS)
    seat = f"{root}.playbook-seat {GAMES[slug]}"
    pages.open(f"{slug} seat", notebook_page(served, game.notebook) + links["seats"][0]["url"], seat, PHONE)
    pages.open(f"{slug} board", notebook_page(served, game.notebook) + links["board"], f"{root}.playbook-board", PROJECTOR)
    pages.loaded(i18n.PSEUDO)
    pages.untranslated((*SEATS, *EXAMPLE_NAMES), unfold=True)
    for lang in ("de", "ar"):
        pages.switch(lang)
        pages.lays_out(lang, seats={f"{slug} seat": seat}, boards={f"{slug} board": ".playbook-root"})
        pages.reference_reads(lang, (f"{slug} seat",))
    assert pages.problems == [], "\n".join(pages.problems)


def said(message: str, lang: str, **values: object) -> str:
    """A message of the catalogs as a page in `lang` shows it."""
    return i18n.render(i18n.say(message, **values), lang)


def test_a_dutch_class_with_a_spanish_and_an_arabic_phone(pages: Pages, served: RunningServer) -> None:
    """A Leerdam class in Dutch: its board reads Dutch; a phone switches its join page to Spanish
    and one to Arabic, each joins and reads its own language, and the monitor counts them; a
    third phone (its join page and lobby), the monitor and the board in the pseudo-language are
    all translated, then laid out in German and in Arabic."""
    store = Store(served.db_path)
    record = cl.create_class(store, "leerdam", 4, seed=3, lang="nl")
    links = {which: notebook_page(served, "class.ipynb") + "?" + link.split("?", 1)[1] for which, link in cl.class_links("", record).items() if "?" in str(link)}
    board = pages.open("class board", links["board"], ".playbook-class-board", PROJECTOR, lang="")
    phones = {lang: pages.open(f"{lang} phone", links["join"], ".playbook-class-join .pb-name-box input", PHONE, lang="") for lang in ("es", "ar")}
    pages.loaded("nl")  # the class's language, before a phone chose its own
    names = {"es": "Lucía", "ar": "Bo"}
    for lang, phone in phones.items():
        phone.locator(MENU).select_option(lang)
    for lang, phone in phones.items():
        expect(phone.locator("html")).to_have_attribute("lang", lang, timeout=LOAD_TIMEOUT_MS)
        assert phone.evaluate("document.documentElement.dir") == i18n.direction(lang)
        phone.locator(".playbook-class-join .pb-name-box input").fill(names[lang])
        phone.locator(".playbook-class-join .pb-join-class").click()
    # The third phone and the monitor read the pseudo-language.
    third = pages.open("join page", links["join"], ".playbook-class-join .pb-name-box input", PHONE)
    monitor = pages.open("monitor", links["monitor"], ".playbook-class-monitor .pb-deal")
    for lang, phone in phones.items():
        welcome = said("You are in, {name}.", lang, name="X").split("X")[0].strip()
        expect(phone.locator(".playbook-class-student")).to_contain_text(welcome, timeout=LOAD_TIMEOUT_MS)
        assert said("You are in, {name}.", "en", name="X").split("X")[0].strip() not in phone.locator(".playbook-class-student").inner_text()
    # The board stays Dutch: its count of who is here.
    expect(board.locator(".playbook-class-board")).to_contain_text(said("Here: {n} of {expected}", "nl", n=2, expected=4), timeout=LOAD_TIMEOUT_MS)
    assert board.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["nl", "ltr"]
    # The monitor counts each phone in its own language (chosen before it joined).
    expect(monitor.locator(".pb-class-languages")).to_contain_text("Español 1", timeout=LOAD_TIMEOUT_MS)
    expect(monitor.locator(".pb-class-languages")).to_contain_text("العربية 1")
    for phone in phones.values():
        phone.context.close()
    for lang in phones:
        del pages.pages[f"{lang} phone"]

    pages.loaded(i18n.PSEUDO, ("join page", "monitor"))
    players = ("Lucía", "Bo", "Zoë", record.code)
    pages.untranslated(players, ("join page", "monitor"))
    third.locator(".playbook-class-join .pb-name-box input").fill("Zoë")
    third.locator(".playbook-class-join .pb-join-class").click()
    pages.ready["join page"] = ".playbook-class-student"
    third.locator(".playbook-class-student").wait_for(state="visible")
    settled(third)
    pages.untranslated(players, ("join page",))  # now the lobby
    board.context.add_cookies([{"name": "pb-lang", "value": i18n.PSEUDO, "url": served.url}])
    board.reload(wait_until="commit")
    pages.loaded(i18n.PSEUDO, ("class board",))
    pages.untranslated(players, ("class board",))
    for lang in ("de", "ar"):
        pages.switch(lang)
        pages.lays_out(lang, boards={"class board": ".playbook-class-board"})
    assert pages.problems == [], "\n".join(pages.problems)


def test_the_dom_reader_finds_text_outside_the_brackets(page: Page) -> None:
    """The reader on a page of one of each: shown text, attributes, options; hidden text aside."""
    page.set_content(
        '<p>⟦Jóín·⟧ Ana</p><p title="Untranslated tip">⟦Ók·⟧</p><select><option>⟦Ónè·⟧</option><option>Two</option></select>'
        '<button class="pb-heartbeat">beat</button><p style="display:none">Hidden words</p><script>var x = "code";</script>'
    )
    texts = dom_texts(page)
    assert sorted(escaped(texts, names=["Ana"])) == ["Two", "Untranslated tip"]
    # a message split by its markup is read across its nodes; the words beside it are not
    page.set_content('<html lang="qps"><p>⟦Héré: <b>2</b> öf 4·⟧ and more</p><blockquote lang="en"><p>The rules as written</p></blockquote></html>')
    assert escaped(dom_texts(page)) == ["⟦Héré:", "öf 4·⟧ and more"] and escaped_across(dom_texts(page)) == ["and more"]
    assert not any("beat" in t or "Hidden" in t or "code" in t for t in texts)
