"""A seat played with keys only, and heard, in headless Chromium on a phone (390 x 844).

Leerdam's year and New Rule's round are played on a seat page with Tab, Shift+Tab, Enter,
Space and the arrow keys: no click. After each action the focus is where a keyboard user needs
it (the first control of the rebuilt panel, or its heading), never the page's body. The page's
live region (the template's a11y.js) is read twice: its text as it changes (a recorder on the
page) and, through CDP's accessibility tree, its live property: the reveal, the confirmation
and the turn are said once each and politely, a refusal once and assertively. The page's
landmarks (a banner, a main, the skip link first) and its heading outline (one h1, no level
skipped) are checked on both seat pages.

The other seats are bots, so the table moves on by itself after the player's move; one move
is made through the store behind the page's back, so the player's next press is refused.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from playbook.access import table_keys
from playbook.links import table_links
from playbook.serve import NOTEBOOKS_DIR
from playbook.store import Play, Store
from rules import leerdam as ld
from rules import new_game
from rules import new_rule as nr
from rules.games import card
from tests.support.browser import LOAD_TIMEOUT_MS, VoilaFactory, open_dashboard
from tests.support.tables import make_table

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

NAMES = ("Ana", "Bo", "Cy")
PANEL = ".pb-private-panel"

#: Records every text the live regions take (a11y.js makes them once the page's body is there).
RECORD_JS = """() => {
  window.__said = [];
  document.querySelectorAll('.playbook-live').forEach((region) => {
    const now = region.textContent.trim();  // said before the recorder came
    if (now) { window.__said.push([region.getAttribute('aria-live'), now]); }
    new MutationObserver(() => {
      const text = region.textContent.trim();
      if (text) { window.__said.push([region.getAttribute('aria-live'), text]); }
    }).observe(region, { childList: true, subtree: true, characterData: true });
  });
  return document.querySelectorAll('.playbook-live').length;
}"""

#: Where the focus is: its tag, classes (its own and its widget's), and whether in the seat's panel.
FOCUS_JS = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) { return { tag: 'BODY', cls: '', panel: false, seat: false, text: '' }; }
  const widget = e.closest('.jupyter-widgets') || e;
  return { tag: e.tagName, cls: e.className + ' ' + widget.className, panel: !!e.closest('.pb-private-panel'), seat: !!e.closest('.playbook-seat'), text: (e.textContent || '').trim().slice(0, 80) };
}"""

#: The page's outline: landmarks and headings as the page has them.
OUTLINE_JS = """() => {
  const focusable = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, [tabindex]:not([tabindex="-1"])';
  const first = Array.from(document.querySelectorAll(focusable)).find((e) => e.getClientRects().length > 0 || e.matches('.playbook-skip'));
  const headings = Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6'))
    .filter((h) => h.getClientRects().length > 0 && !['none', 'presentation'].includes(h.getAttribute('role')))
    .map((h) => Number(h.tagName[1]));
  return {
    first: first ? first.className : '',
    banner: document.querySelectorAll('header.playbook-header').length,
    main: document.querySelectorAll('main, [role=main]').length,
    bannerInMain: !!document.querySelector('main header.playbook-header'),
    rootInMain: !!document.querySelector('main .playbook-root'),
    headings: headings,
  };
}"""


#: An icon's characters (arrows, shapes, dingbats, emoji): a control named by one says nothing.
ICON = re.compile("[\u2190-\u21ff\u2300-\u23ff\u25a0-\u27bf\U0001f000-\U0001faff]")
#: A symbol standing alone as a word of a name ("Take \u2665 red"): read aloud as "black heart suit".
SYMBOL_WORD = re.compile("(^|\\s)[\u2190-\u21ff\u2300-\u23ff\u25a0-\u27bf\u2b00-\u2bff]\ufe0f?(\\s|$)")


class Reader:
    """What a screen reader reads as the keys move: after each key, the focused element's role
    and name in Chromium's accessibility tree (CDP `Accessibility.getPartialAXTree` on
    `document.activeElement`), kept with the key."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.session = page.context.new_cdp_session(page)
        self.read: list[tuple[str, str, str]] = []

    def focused(self) -> tuple[str, str] | None:
        """The focused element's (role, name), None on the page's body."""
        found = self.session.send("Runtime.evaluate", {"expression": "document.activeElement === document.body ? null : document.activeElement"})["result"]
        if "objectId" not in found:
            return None
        nodes = self.session.send("Accessibility.getPartialAXTree", {"objectId": found["objectId"], "fetchRelatives": False})["nodes"]
        self.session.send("Runtime.releaseObject", {"objectId": found["objectId"]})
        node = next((n for n in nodes if not n.get("ignored")), nodes[0])
        return str(node.get("role", {}).get("value", "")), str(node.get("name", {}).get("value", "")).strip()

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        now = self.focused()
        # A press that redraws the panel leaves the focus for a moment on what is being replaced;
        # a11y.js puts it on the new panel at its next look (200 ms): read where it settles.
        settle = 30
        while now is not None and not now[1] and settle:
            self.page.wait_for_timeout(100)
            now, settle = self.focused(), settle - 1
        if now is not None:
            self.read.append((key, *now))

    def tab_to(self, css: str, back: bool = False, limit: int = 40) -> None:
        """Tab (Shift+Tab with `back`) until the focus is on or in an element of class `css`."""
        for _ in range(limit):
            if self.page.evaluate("(css) => !!(document.activeElement && document.activeElement.closest('.' + css))", css):
                return
            self.press("Shift+Tab" if back else "Tab")
        raise AssertionError(f"Tab never reached .{css}: the focus is on {focus(self.page)}")

    def unnamed(self) -> list[tuple[str, str, str]]:
        """Every stop the keys made whose name is empty, begins with or is only an icon, or has
        a symbol for a word."""
        return [(key, role, name) for key, role, name in self.read if not name or ICON.match(name) or not ICON.sub("", name).strip() or SYMBOL_WORD.search(name)]

    def close(self) -> None:
        self.session.detach()


def new_table(store: Store, slug: str, setup: Any, bots: dict[str, str], seed: int = 3) -> tuple[str, str]:
    names = card(slug).seat_names(setup)
    table_id = store.create(new_game(slug, setup, seed), meta={"bots": bots, **table_keys(len(names))})
    return table_id, table_links("", slug, table_id, store.info(table_id).meta, names)["seats"][0]["url"]


def phone(chromium: Browser) -> Page:
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    return context.new_page()


def focus(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(FOCUS_JS))


def focus_settles(page: Page, css: str | None = None, heading: bool = False) -> dict[str, Any]:
    """Wait until the focus is in the seat's panel (on a control of class `css`, or on a heading),
    then say where it is."""
    page.wait_for_function(
        """([css, heading]) => {
          const e = document.activeElement;
          if (!e || e === document.body || !e.closest('.pb-private-panel')) { return false; }
          if (heading) { return /^H[1-6]$/.test(e.tagName); }
          return !css || !!e.closest('.' + css);
        }""",
        arg=[css, heading],
    )
    return focus(page)


def said(page: Page) -> list[tuple[str, str]]:
    return [(live, text) for live, text in page.evaluate("() => window.__said")]


def heard(page: Page, words: str, live: str = "polite") -> None:
    """Wait until a region of `live` has said something with `words`."""
    try:
        page.wait_for_function("([words, live]) => window.__said.some(([l, t]) => l === live && t.includes(words))", arg=[words, live], timeout=20_000)
    except Exception as exc:
        raise AssertionError(f"never said {words!r} ({live}): {said(page)}; the focus on {focus(page)}") from exc


def start_recording(page: Page) -> None:
    page.wait_for_function("() => document.querySelectorAll('.playbook-live').length === 2")
    assert page.evaluate(RECORD_JS) == 2


def check_outline(page: Page, where: str) -> None:
    page.wait_for_timeout(300)  # a11y.js looks five times a second: the page as it has made it
    outline = page.evaluate(OUTLINE_JS)
    assert "playbook-skip" in outline["first"], f"{where}: the first focusable element is {outline['first']!r}"
    assert outline["banner"] == 1 and outline["main"] == 1 and not outline["bannerInMain"] and outline["rootInMain"], f"{where}: {outline}"
    levels = outline["headings"]
    assert levels.count(1) == 1 and levels[0] == 1, f"{where}: headings {levels}"
    # No level skipped on the way down (an h3 only under an h2).
    assert all(b <= a + 1 for a, b in itertools.pairwise(levels)), f"{where}: headings {levels}"


def live_nodes(page: Page) -> dict[str, str]:
    """Every text of the accessibility tree inside a live region, with the region's live value
    (CDP Accessibility.getFullAXTree: the regions' nodes carry the `live` property)."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    by_id = {n["nodeId"]: n for n in nodes}
    found: dict[str, str] = {}
    for node in nodes:
        props = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
        if props.get("live") in ("polite", "assertive") and node.get("role", {}).get("value") in ("status", "alert"):
            words = []
            stack = list(node.get("childIds", []))
            while stack:
                child = by_id.get(stack.pop(0))
                if child is None:
                    continue
                if child.get("role", {}).get("value") in ("StaticText",):
                    words.append(child.get("name", {}).get("value", ""))
                stack.extend(child.get("childIds", []))
            found[" ".join(words).strip()] = str(props["live"])
    return found


def once_each(page: Page, *phrases: str) -> None:
    """Each of `phrases` was said, in one message, once."""
    every = said(page)
    for phrase in phrases:
        times = [text for _live, text in every if phrase in text]
        assert len(times) == 1, f"{phrase!r} said {len(times)} times: {every}"


def test_a_leerdam_year_played_with_keys_and_heard_on_a_phone(voila: VoilaFactory, chromium: Browser) -> None:
    root = ".playbook-leerdam"
    server = voila(NOTEBOOKS_DIR / "leerdam.ipynb")
    store = Store(server.db_path)
    table_id, url = new_table(store, "leerdam", ld.Setup(names=NAMES), {"1": "fair", "2": "free-rider"})
    page = phone(chromium)
    reader = Reader(page)
    try:
        open_dashboard(page, server.url + url, f"{root}.playbook-seat .pb-pledge-confirm")
        start_recording(page)
        check_outline(page, "Leerdam seat")
        # The skip link is the first stop, and leads into the seat's own panel.
        reader.press("Tab")
        assert "playbook-skip" in focus(page)["cls"] and focus(page)["text"] == "Skip to your seat"
        reader.press("Enter")
        assert page.evaluate("() => !!document.activeElement.closest('.pb-private-panel')")
        heard(page, "Your turn. Secret pledges")
        # Pledge 2: type it in the box, Tab on to the button, Enter.
        reader.tab_to("pb-pledge")
        reader.press("Control+A")
        page.keyboard.type("2")
        reader.tab_to("pb-pledge-confirm")
        reader.press("Enter")
        # The bots had pledged: the pledges are revealed, and the panel is the allocation: the
        # focus is on its first control (the first preset), not the page's body.
        where = focus_settles(page, "pb-alloc-presets")
        assert where["tag"] == "BUTTON", where
        heard(page, "Done. You pledged 2 units")
        heard(page, "Year 1: the pledges revealed. The pledges are revealed")
        # Arrow keys move within the presets; Tab goes on past them.
        first = focus(page)["text"]
        reader.press("ArrowRight")
        assert focus(page)["text"] != first and "pb-alloc-preset-" in focus(page)["cls"]
        reader.press("ArrowLeft")
        assert focus(page)["text"] == first
        reader.press("Space")  # "Feed myself, rest to Profit"
        # The bots allocate, the year ends: the panel is next year's pledge, focused on its box.
        where = focus_settles(page, "pb-pledge")
        assert where["tag"] == "INPUT", where
        heard(page, "Year 1: the flood")
        heard(page, "Your turn. Secret pledges")
        once_each(page, "Done. You pledged 2 units", "Year 1: the pledges revealed", "Year 1: the flood", "Done. Ana has allocated")
        assert all(live == "polite" for live, _ in said(page)), said(page)
        # Shift+Tab goes back the way it came: out of the panel to the seat's own button.
        reader.tab_to("pb-seat-0", back=True)
        assert not focus(page)["panel"]
        # Another device pledges for Ana behind this page's back; the press on Confirm comes
        # before the page has redrawn: refused with its reason, said at once and once.
        reader.tab_to("pb-pledge-confirm")
        store.submit(table_id, Play(ld.Contribute(seat=0, units=1)), store.version(table_id))
        reader.press("Enter")
        page.wait_for_function("() => window.__said.some(([l]) => l === 'assertive')")
        refusals = [text for live, text in said(page) if live == "assertive"]
        assert len(refusals) == 1 and "Ana's seat moved on another page" in refusals[0] and "nothing was done" in refusals[0], said(page)
        # The other page's pledge revealed year 2: heard once, as the first year's was.
        heard(page, "Year 2: the pledges revealed")
        once_each(page, "Year 2: the pledges revealed", refusals[0])
        # Each turn said once, in the order it came: no turn twice, none missed.
        turns = re.findall(r"Your turn\. (\w+)", " ".join(text for _live, text in said(page)))
        assert turns == ["Secret", "Allocation", "Secret", "Allocation"], said(page)
        # What the keys met: every stop has a name a screen reader says, not an icon.
        assert len(reader.read) >= 8 and reader.unnamed() == [], reader.unnamed() or reader.read
    finally:
        reader.close()
        page.context.close()


def test_a_new_rule_round_played_with_keys_and_a_refusal_heard_at_once(voila: VoilaFactory, chromium: Browser) -> None:
    root = ".playbook-new-rule"
    server = voila(NOTEBOOKS_DIR / "new_rule.ipynb")
    store = Store(server.db_path)
    table_id, url = new_table(store, "new-rule", nr.Setup(names=NAMES, max_rounds=2), {"1": "random", "2": "random"})
    page = phone(chromium)
    reader = Reader(page)
    try:
        open_dashboard(page, server.url + url, f"{root}.playbook-seat .pb-draw")
        start_recording(page)
        check_outline(page, "New Rule seat")
        heard(page, "Your turn. Ana: draw two candies.")
        # The skip link is the first stop, and leads into the seat's own panel.
        reader.press("Tab")
        assert "playbook-skip" in focus(page)["cls"] and focus(page)["text"] == "Skip to your seat"
        reader.press("Enter")
        assert focus(page)["panel"], focus(page)
        reader.tab_to("pb-draw")
        reader.press("Enter")
        # The rebuilt panel's first control: Keep both; the arrows reach the colours beside it.
        assert focus_settles(page, "pb-keep")["tag"] == "BUTTON"
        heard(page, "Done. Ana drew")  # the seat's own page says what it drew (a line only Ana reads)
        reader.press("ArrowRight")
        assert "pb-swap" in focus(page)["cls"], focus(page)
        reader.press("End")
        reader.press("Home")
        assert "pb-keep" in focus(page)["cls"]
        reader.press("Space")
        # The bots draw and keep; the picks: the focus is on the first colour.
        assert focus_settles(page, "pb-pick")["tag"] == "BUTTON"
        heard(page, "Done. Ana keeps the draw.")
        reader.press("ArrowRight")
        assert "pb-pick" in focus(page)["cls"]
        reader.press("Enter")
        heard(page, "Round 1: the infection. Revealed:")
        # Paying: the chooser opens on the best payment; Tab to Confirm, Enter.
        focus_settles(page)
        reader.tab_to("pb-pay-confirm")
        reader.press("Enter")
        heard(page, "Round 2")
        where = focus_settles(page, "pb-draw")
        assert where["tag"] == "BUTTON"
        # Another device draws for Ana behind this page's back; the press on Draw comes before
        # the page has redrawn: refused, and said at once.
        table = store.load(table_id)
        store.submit(table_id, Play(nr.Draw(seat=0)), table.version)
        reader.press("Enter")
        page.wait_for_function("() => window.__said.some(([l]) => l === 'assertive')")
        refusals = [text for live, text in said(page) if live == "assertive"]
        assert len(refusals) == 1 and "nothing was done" in refusals[0], said(page)
        # The other page's draw is no confirmation of this page's press.
        assert len([text for _live, text in said(page) if text.startswith("Done. Ana drew")]) == 1, said(page)
        # In the accessibility tree: the refusal in an assertive region, the rest polite.
        nodes = live_nodes(page)
        assert nodes.get(refusals[0]) == "assertive", nodes
        assert any(live == "polite" and text for text, live in nodes.items()), nodes
        once_each(page, "Round 1: the infection", "Done. Ana keeps the draw.", "Round 1: paid", refusals[0])
        # Each turn said once, in the order it came (the last: the other page's draw for Ana).
        page.wait_for_function("() => window.__said.filter(([l, t]) => t.includes('Your turn. Ana: keep')).length === 2")
        turns = re.findall(r"Your turn\. (Ana: \w+|Secret picks|Infection)", " ".join(text for _live, text in said(page)))
        assert turns == ["Ana: draw", "Ana: keep", "Secret picks", "Infection", "Ana: draw", "Ana: keep"], said(page)
        paid = next(text for _live, text in said(page) if "Round 1: paid" in text)
        assert paid.count("Ana returns") == 1, paid  # confirmed once, not again in the outcome
        # Never the page's body after an action.
        page.wait_for_function("() => document.activeElement && document.activeElement !== document.body")
        # What the keys met: every stop has a name a screen reader says, not an icon.
        assert len(reader.read) >= 8 and reader.unnamed() == [], reader.unnamed() or reader.read
    finally:
        reader.close()
        page.context.close()


def test_every_kind_of_seat_page_has_its_landmarks_its_skip_link_and_one_outline(voila: VoilaFactory, chromium: Browser) -> None:
    """Danger World's player and GM and a Dangerous Ideas philosopher (New Rule's and Leerdam's
    seats are checked above): a banner, a main, the skip link first and to the seat's panel (a
    Danger World seat has none of its own: its page), no button named with an icon."""
    page = phone(chromium)
    try:
        for slug, notebook, names, seats in (
            ("danger-world", "danger_world.ipynb", ("Ana", "Bo"), (0, 1)),
            ("dangerous-ideas", "dangerous_ideas.ipynb", ("Ana", "Bo", "Cy"), (0,)),
        ):
            server = voila(NOTEBOOKS_DIR / notebook)
            store = Store(server.db_path)
            _table_id, links = make_table(store, slug, names)
            for seat in seats:
                where = f"{slug} seat {seat}"
                open_dashboard(page, server.url + links["seats"][seat]["url"], f".playbook-{slug}.playbook-seat .pb-header")
                page.wait_for_function("() => document.querySelector('a.playbook-skip').textContent === 'Skip to your seat'")
                check_outline(page, where)
                page.keyboard.press("Tab")
                assert "playbook-skip" in focus(page)["cls"], f"{where}: {focus(page)}"
                page.keyboard.press("Enter")
                assert focus(page)["seat"], f"{where}: {focus(page)}"
                # Icons are for the eye: no button's name begins with one.
                names_with_icons = page.evaluate(
                    """() => Array.from(document.querySelectorAll('.playbook-root button')).filter((b) => b.getClientRects().length)
                        .map((b) => b.getAttribute('aria-label') || b.textContent.trim())
                        .filter((name) => /^[\\u2190-\\u21ff\\u2300-\\u23ff\\u25a0-\\u27bf\\u{1f000}-\\u{1faff}]/u.test(name))"""
                )
                assert names_with_icons == [], f"{where}: {names_with_icons}"
        # A game's own page, where the notebook's title shows: that is the h1, the header's not.
        open_dashboard(page, server.url, ".playbook-dangerous-ideas .pb-header")
        page.wait_for_function("() => document.querySelector('.playbook-header .playbook-title').getAttribute('role') === 'none'")
        check_outline(page, "the Dangerous Ideas page")
        assert page.locator("a.playbook-skip").text_content() == "Skip to the game"
    finally:
        page.context.close()
