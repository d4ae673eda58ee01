"""Pages for any eyes, in Chromium: charts without colour, high contrast, big text, narrow
screens, no motion.

One Leerdam village of ten households, its third year's pledges open: its board (at a
projector's size) and a household's seat, then a New Rule seat. On each page, loaded once:

- the board's charts: each chart's numbers are a table in the accessibility tree (CDP
  `Accessibility.getFullAXTree`), out of sight while closed and shown in print; under
  deuteranopia (CDP `Emulation.setEmulatedVisionDeficiency`) the legend's samples of households
  that look alike in colour (4 and 10; 3, 5 and 8) differ in shape, pixel by pixel, whatever
  their colours;
- at 320 x 640 (WCAG's reflow: 1280 px at 400%, or a 640 px window at 200%): the page does not
  scroll sideways, nothing sticks out past the screen's edge outside a box that scrolls on its
  own (a chart's table, opened), and the page's key controls are on the screen with nothing
  over them;
- asked to reduce motion: no animation or transition runs or is set on any element (with
  motion allowed some are, so the check can fail);
- forced colours (Windows high contrast): every control shown keeps a border on all sides,
  and focus an outline; more contrast, asked by the device or by the header's "Contrast",
  gives controls firmer borders (the reader's choice outranks the device's).
"""

from __future__ import annotations

import io
import tempfile
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from playbook.serve import NOTEBOOKS_DIR
from playbook.store import Store
from tests.support import phases
from tests.support.browser import LOAD_TIMEOUT_MS, VoilaFactory, open_dashboard, settled
from tests.support.tables import make_table, stored

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

HOUSEHOLDS = ("Anneliese", "Bo & <i>Co</i>", "Zoë", "李小龙", "مريم", "🌊 Wave", "Eddie", "Fenna", "Gijs", "Hanneke")
PROJECTOR, NARROW = (1920, 1080), (320, 640)
SHOTS = Path(tempfile.gettempdir()) / "playbook-any-eyes"

#: Where a page's box sticks out past the screen's right or left edge (not inside a box that
#: scrolls sideways on its own, as a wide table may), and how wide the page scrolls.
REFLOW_JS = """() => {
  const cells = document.querySelector('#rendered_cells') || document.body;
  const width = document.documentElement.clientWidth;
  const sideways = cells.scrollWidth - cells.clientWidth;
  const own = (el) => {
    for (let p = el.parentElement; p && p !== cells && p !== document.body; p = p.parentElement) {
      const look = getComputedStyle(p).overflowX;
      if ((look === 'auto' || look === 'scroll') && p.getBoundingClientRect().right <= width + 1) { return true; }
    }
    return false;
  };
  const past = [];
  for (const el of document.querySelectorAll('header *, #rendered_cells *')) {
    if (el.closest('details:not([open]) > :not(summary), svg *')) { continue; }
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(el).visibility === 'hidden') { continue; }
    if ((box.right > width + 1 || box.left < -1) && !own(el)) {
      past.push(`${el.tagName.toLowerCase()}.${String(el.className.baseVal ?? el.className).slice(0, 50)} ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
  }
  return {scroll: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth, width + sideways), width, past: past.slice(0, 8)};
}"""

#: Whether a control is on the screen, whole and on top: the topmost element at its centre and
#: near its corners is the control or inside it.
ON_TOP_JS = """(el) => {
  el.scrollIntoView({block: 'center'});
  const box = el.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  const points = [[0.5, 0.5], [0.15, 0.3], [0.85, 0.7]].map(([fx, fy]) => [box.left + box.width * fx, box.top + box.height * fy]);
  const covered = points.filter(([x, y]) => { const hit = document.elementFromPoint(x, y); return !hit || !(el === hit || el.contains(hit) || hit.contains(el)); });
  return {inside: box.left >= 0 && box.right <= width + 0.5 && box.width > 0, covered: covered.length};
}"""

#: Elements with an animation or transition set, and the animations running.
MOTION_JS = """() => {
  const named = (el) => `${el.tagName.toLowerCase()}.${String(el.className.baseVal ?? el.className).slice(0, 40)}`;
  const running = document.getAnimations().filter((a) => a.playState === 'running').map((a) => named(a.effect.target));
  const set = [];
  for (const el of document.querySelectorAll('*')) {
    for (const part of [null, '::before', '::after']) {
      const look = getComputedStyle(el, part);
      const moves = look.transitionDuration.split(',').some((d) => parseFloat(d) > 0) || (look.animationName !== 'none' && parseFloat(look.animationDuration) > 0);
      if (moves) { set.push(named(el) + (part || '')); }
    }
  }
  return {running, set: set.length, some: set.slice(0, 6)};
}"""

#: Parts of the playbook that move, added to a page for the motion check.
PROBE_JS = """() => {
  const probe = document.createElement('div');
  probe.className = 'playbook-root playbook-danger-world pb-motion-probe';
  probe.innerHTML = '<button class="jupyter-button dw-die" aria-label="a die"></button> <i class="fa fa-spinner fa-spin" aria-hidden="true"></i>';
  document.querySelector('#rendered_cells').appendChild(probe);
}"""

#: Controls shown without a border on every side (forced colours take their backgrounds away).
EDGES_JS = """() => {
  const bare = [];
  for (const el of document.querySelectorAll('#rendered_cells button, #rendered_cells select, #rendered_cells textarea, #rendered_cells input:not([type=hidden])')) {
    const box = el.getBoundingClientRect(), look = getComputedStyle(el);
    if (!box.width || !box.height || look.visibility === 'hidden') { continue; }
    const sides = ['Top', 'Right', 'Bottom', 'Left'].filter((s) => look[`border${s}Style`] !== 'none' && parseFloat(look[`border${s}Width`]) >= 1);
    if (sides.length < 4) { bare.push(`${el.tagName.toLowerCase()}.${String(el.className).slice(0, 40)}`); }
  }
  return bare;
}"""


def page_at(chromium: Browser, size: tuple[int, int]) -> Page:
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    return context.new_page()


def at_size(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    settled(page, size[0])


def ax_nodes(page: Page) -> list[dict[str, Any]]:
    """The page's accessibility tree as Chromium gives it to a screen reader (nodes not ignored)."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    return [n for n in nodes if not n.get("ignored")]


def role_names(nodes: list[dict[str, Any]], role: str) -> list[str]:
    return [str(n.get("name", {}).get("value", "")) for n in nodes if n.get("role", {}).get("value") == role]


def ink(png: bytes) -> set[tuple[int, int]]:
    """Where a picture is drawn on, whatever the colour: pixels far from the white around it."""
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    return {(x, y) for x in range(picture.width) for y in range(picture.height) if max(255 - c for c in picture.getpixel((x, y))) > 70}  # type: ignore[union-attr]


def check_reflow(page: Page, where: str, controls: tuple[str, ...]) -> None:
    """At 320 x 640: no sideways scroll, nothing past the edge, every key control whole and on top."""
    at_size(page, NARROW)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{where.replace(' ', '-')}.png"))  # to judge by eye
    found = page.evaluate(REFLOW_JS)
    assert found["scroll"] <= found["width"], f"{where}: the page scrolls sideways ({found['scroll']} px in {found['width']})"
    assert found["past"] == [], f"{where}: past the screen's edge: {found['past']}"
    for css in controls:
        control = page.locator(css).first
        expect(control).to_be_visible()
        placed = control.evaluate(ON_TOP_JS)
        assert placed["inside"] and placed["covered"] == 0, f"{where}: {css} is {placed}"


def check_motion_and_forced_colours(page: Page, where: str, focus: str) -> None:
    """Reduced motion stops every animation and transition; forced colours keep edges and focus."""
    # What moves elsewhere in the playbook, put on this page too (these pages have little that
    # moves of their own): Danger World's die slides when pressed, a widget's icon may spin.
    page.evaluate(PROBE_JS)
    page.emulate_media(reduced_motion="no-preference")
    before = page.evaluate(MOTION_JS)
    page.emulate_media(reduced_motion="reduce")
    after = page.evaluate(MOTION_JS)
    page.evaluate("() => document.querySelector('.pb-motion-probe').remove()")
    assert before["set"] >= 2, f"{where}: nothing moves even with motion allowed: the check below would prove nothing ({before})"
    assert after["running"] == [] and after["set"] == 0, f"{where}: still moving with reduced motion: {after}"
    page.emulate_media(forced_colors="active")
    try:
        assert page.evaluate(EDGES_JS) == [], f"{where}: controls without a border in forced colours"
        page.locator(focus).first.focus()
        outline = page.evaluate("() => { const e = document.activeElement, s = getComputedStyle(e); return [s.outlineStyle, parseFloat(s.outlineWidth), e.tagName + '.' + e.className, e.matches(':focus'), e.matches(':focus-visible')]; }")
        assert outline[0] != "none" and outline[1] >= 2, f"{where}: focus in forced colours: {outline}"
    finally:
        page.emulate_media(forced_colors="none", reduced_motion="no-preference")


def check_more_contrast(page: Page, where: str, control: str) -> None:
    """A device asking for more contrast gets it; the header's "Contrast" switches it by hand."""
    switch = page.locator(".playbook-contrast")
    border = f"() => parseFloat(getComputedStyle(document.querySelector({control!r})).borderTopWidth)"
    page.emulate_media(contrast="no-preference")
    expect(switch).to_have_attribute("aria-pressed", "false")
    assert page.evaluate(border) < 2, f"{where}: a thin border before"
    page.emulate_media(contrast="more")
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(border) >= 2, f"{where}: with more contrast, a control's border is 2 px or more"
    switch.click()  # the reader's own choice outranks the device's
    expect(switch).to_have_attribute("aria-pressed", "false")
    assert page.evaluate(border) < 2
    page.emulate_media(contrast="no-preference")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(border) >= 2


def test_a_ten_household_village_for_any_eyes(voila: VoilaFactory, chromium: Browser) -> None:
    root = ".playbook-leerdam"
    server = voila(NOTEBOOKS_DIR / "leerdam.ipynb")
    store = Store(server.db_path)
    # Two years played, the third year's pledges open: charts on the board, a pledge on a seat.
    game = phases.leerdam(until=lambda g: g.state.year == 3, names=HOUSEHOLDS)
    _, links = stored(store, game)

    board = page_at(chromium, PROJECTOR)
    try:
        open_dashboard(board, server.url + links["board"], f"{root} .pb-board-scene .pb-chart svg")
        settled(board)
        # The numbers of every chart, read as tables by a screen reader while out of sight.
        nodes = ax_nodes(board)
        tables = role_names(nodes, "table")
        for title in ("Pledged each year, and the dyke after it", "VP of each household", "Wealth of each household"):
            assert any(t.startswith(title) for t in tables), f"no table {title!r} in the accessibility tree: {tables}"
        headers = role_names(nodes, "columnheader")
        assert all(headers.count(name) >= 2 for name in HOUSEHOLDS), f"every household heads a column of VP and of Wealth: {headers}"
        assert "Year" in headers and len(role_names(nodes, "cell")) >= 2 * 2 * 10, "a cell per household and year in each"
        numbers = board.locator(f"{root} .pb-chart .pb-chart-numbers").first
        box = numbers.bounding_box()
        assert box is not None and box["height"] <= 1, f"the closed table is out of sight: {box}"
        board.emulate_media(media="print")
        box = numbers.bounding_box()
        assert box is not None and box["height"] > 100, f"printed, the table is under its chart: {box}"
        board.emulate_media(media="screen")

        # Deuteranopia: households 4 and 10, and 3, 5 and 8, told apart by their marker and dash.
        session = board.context.new_cdp_session(board)
        session.send("Emulation.setEmulatedVisionDeficiency", {"type": "deuteranopia"})
        chart = board.locator(f"{root} .pb-chart svg", has=board.locator("text", has_text="VP of each household")).first
        samples = chart.locator("g.pb-legend-sample line")
        expect(samples).to_have_count(10)
        samples.first.scroll_into_view_if_needed()  # the page scrolls #rendered_cells, not the window
        drawn = {}
        for k in (2, 3, 4, 7, 9):
            line = samples.nth(k).bounding_box()
            assert line is not None
            clip = {"x": line["x"], "y": line["y"] + line["height"] / 2 - 14, "width": line["width"], "height": 28}
            drawn[k] = ink(board.screenshot(clip=clip))
        session.send("Emulation.setEmulatedVisionDeficiency", {"type": "none"})
        session.detach()
        for a, b in ((3, 9), (2, 4), (2, 7), (4, 7)):
            unlike = len(drawn[a] ^ drawn[b]) / max(1, len(drawn[a] | drawn[b]))
            assert unlike > 0.2, f"households {a + 1} and {b + 1} are drawn alike ({unlike:.0%} of their pixels differ)"

        check_motion_and_forced_colours(board, "the board", f"{root} .pb-chart details.pb-chart-data > summary")
        check_reflow(board, "the board at 320 px", (f"{root} .pb-board-scene .pb-scene-title", f"{root} .pb-chart details.pb-chart-data > summary"))
        # Opened at 320 px, ten households' numbers scroll inside their own box (which takes the
        # keyboard's focus to scroll), never the page.
        board.locator(f"{root} .pb-chart details.pb-chart-data > summary").nth(1).click()
        opened = board.locator(f"{root} .pb-chart details.pb-chart-data[open] > .pb-chart-numbers").first
        expect(opened).to_be_visible()
        assert opened.evaluate("(el) => el.scrollWidth > el.clientWidth && el.tabIndex === 0"), "the open table scrolls in its own box"
        check_reflow(board, "the board at 320 px, a chart's numbers open", ())
        # A keyboard reaching a closed table's box sees it.
        closed = board.locator(f"{root} .pb-chart details.pb-chart-data:not([open]) > .pb-chart-numbers").first
        closed.focus()
        box = closed.bounding_box()
        assert box is not None and box["height"] > 100, f"a closed table focused shows itself: {box}"
    finally:
        board.context.close()

    seat = page_at(chromium, NARROW)
    try:
        open_dashboard(seat, server.url + links["seats"][3]["url"], f"{root}.playbook-seat .pb-pledge-confirm")
        check_reflow(seat, "a Leerdam seat at 320 px", (f"{root} .pb-pledge input", f"{root} .pb-pledge-confirm"))
        check_motion_and_forced_colours(seat, "a Leerdam seat", f"{root} .pb-pledge input")
        check_more_contrast(seat, "a Leerdam seat", f"{root} .pb-pledge input")
    finally:
        seat.context.close()


def test_a_new_rule_seat_for_any_eyes(voila: VoilaFactory, chromium: Browser) -> None:
    root = ".playbook-new-rule"
    server = voila(NOTEBOOKS_DIR / "new_rule.ipynb")
    store = Store(server.db_path)
    _, links = make_table(store, "new-rule", ("Anneliese", "Bo & <i>Co</i>", "Zoë", "مريم"))
    seat = page_at(chromium, NARROW)
    try:
        open_dashboard(seat, server.url + links["seats"][0]["url"], f"{root}.playbook-seat .pb-draw")
        check_reflow(seat, "a New Rule seat at 320 px", (f"{root} .pb-draw",))
        check_motion_and_forced_colours(seat, "a New Rule seat", f"{root} .pb-draw")
    finally:
        seat.context.close()
