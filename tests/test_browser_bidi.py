"""The board's text as Chromium lays it out beside a right-to-left name: the minus sign of "−2"
stands left of its digit, and the number after the name (the room read "(2-)" for "-2"); the
room code's corner on the class board, shown once the large code is gone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

import i18n
from drawing.board import log_html
from drawing.common import esc
from playbook import classes as cl
from playbook.store import Store
from tests.support.classes import class_page, monitor, student
from tests.support.phases import leerdam
from widgets.board import board_scene
from widgets.styles import sheet_text

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


#: the boxes of the sign and the digit after the name in list item `item`, and of the name.
BOXES_JS = """(item) => {
  const li = document.querySelectorAll('li')[item];
  const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
  const box = (node, at) => { const r = document.createRange(); r.setStart(node, at); r.setEnd(node, at + 1); return r.getBoundingClientRect(); };
  let sign = null, digit = null, name = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const t = node.textContent;
    if (name === null && t.includes('מ')) {
      const at = t.indexOf('מ');
      const r = document.createRange(); r.setStart(node, at); r.setEnd(node, at + 4); name = r.getBoundingClientRect();
    }
    if (name !== null && sign === null) {
      const at = t.search(/[-\u2212]2/);
      if (at >= 0) { sign = box(node, at); digit = box(node, at + 1); }
    }
  }
  return {signLeft: sign.left, signRight: sign.right, digitLeft: digit.left, nameRight: name.right, sameLine: Math.abs(sign.top - digit.top) < 2};
}"""


def test_a_negative_number_beside_a_hebrew_name_reads_minus_two(page: Page) -> None:
    game = leerdam(lambda g: any("מרים (-2)" in str(e.text) for e in g.state.log if e.visible_to is None), names=("מרים", "Bo", "Zoë", "Dara"), years=6)
    line = next(str(text) for text in board_scene(game).log if "מרים (-2)" in str(text))
    drawn = log_html([line])  # the board's log, as every scene draws it
    before = f"<ol><li>{esc(line)}</li></ol>"  # the same line left to the bidi algorithm
    page.set_content(f'<html><head><style>{sheet_text("board.css")}</style></head><body style="font-size:28px">{drawn}{before}</body></html>')
    fixed, left_alone = page.evaluate(BOXES_JS, 0), page.evaluate(BOXES_JS, 1)
    assert left_alone["sameLine"] and left_alone["signLeft"] > left_alone["digitLeft"], "Chromium puts the sign after the digit unless isolated"
    assert fixed["sameLine"] and fixed["signRight"] <= fixed["digitLeft"] + 0.5, fixed  # "−2": the sign left of its digit
    assert fixed["nameRight"] <= fixed["signLeft"], fixed  # and the number after the name, as written
    assert "\u22122" in page.inner_text("li >> nth=0")


def test_the_class_boards_corner_shows_the_code_once_the_large_code_is_gone(page: Page, store: Store) -> None:
    record = cl.create_class(store, "new-rule", 3, seed=4)
    board = class_page(store, record, "board")
    sheet = sheet_text("dashboard.css") + sheet_text("class.css")

    def lay_out() -> None:
        body = board.screen.children[0].value
        page.set_content(
            f'<html><head><style>{sheet}</style></head><body><div class="playbook-root playbook-class playbook-class-board">'
            f'<div class="pb-class-header">{board.header.value}</div><div>{body}</div></div></body></html>'
        )

    lay_out()
    assert page.is_visible(".pb-class-code") and not page.is_visible(".pb-class-corner")  # the lobby: the code is large already
    for name in ("מרים", "Bo", "Cy"):
        student(store, record.code, name)
    desk = monitor(store, record)
    assert desk.deal() and desk.start()
    board.refresh()
    lay_out()
    assert page.locator(".pb-class-code").count() == 0
    assert page.inner_text(".pb-corner-code") == record.code and page.inner_text(".pb-corner-address").endswith("/j")
    box, header = page.locator(".pb-class-corner").bounding_box(), page.locator(".pb-class-header").bounding_box()
    assert box is not None and header is not None
    assert box["x"] + box["width"] >= header["x"] + header["width"] - 2 and box["width"] < header["width"] / 2  # a corner, not a banner


#: where Chromium lays out the name and the number after it in paragraph `item`
NAME_AND_NUMBER_JS = """(item) => {
  const p = document.querySelectorAll('p')[item], text = p.firstChild.textContent;
  const box = (at, n) => { const r = document.createRange(); r.setStart(p.firstChild, at); r.setEnd(p.firstChild, at + n); return r.getBoundingClientRect(); };
  return {name: box(text.indexOf('Ana'), 3).left, number: box(text.indexOf('7'), 1).left};
}"""


def test_a_latin_name_in_an_arabic_sentence_keeps_its_place(page: Page) -> None:
    """"Ana 7" in an Arabic sentence: left alone, the number after a Latin name joins the name's
    left-to-right run and shows on its right; the message isolates the name, so the sentence
    reads right to left: the name, then (to its left) the number."""
    said = i18n.render(i18n.say("لدى {name} {count} نقاط", name="Ana", count="7"), "ar")
    page.set_content(f'<html lang="ar" dir="rtl"><body style="font-size:28px"><p>{esc(said)}</p><p>{esc(said.replace(i18n.ISOLATE, "").replace(i18n.POP_ISOLATE, ""))}</p></body></html>')
    isolated, left_alone = page.evaluate(NAME_AND_NUMBER_JS, 0), page.evaluate(NAME_AND_NUMBER_JS, 1)
    assert left_alone["number"] > left_alone["name"], "Chromium carries the number into the name's run unless isolated"
    assert isolated["number"] < isolated["name"], isolated


def test_english_quoted_in_an_arabic_page_keeps_its_question_mark_at_its_end(page: Page) -> None:
    """The designers' rules, quoted in English (lang="en") in an Arabic page, read left to right
    (dashboard.css): the question mark stays after the last word, not carried to the front."""
    page.set_content(
        f'<html lang="ar" dir="rtl"><head><style>{sheet_text("dashboard.css")}</style></head><body>'
        '<div class="playbook-root"><p lang="en">Keep both?</p><p class="left-alone">Keep both?</p></div></body></html>'
    )
    where = "(p) => { const t = p.firstChild, r = (a) => { const g = document.createRange(); g.setStart(t, a); g.setEnd(t, a + 1); return g.getBoundingClientRect().left; }; return [r(t.textContent.indexOf('?')), r(0)]; }"
    mark, first = page.locator("p[lang=en]").evaluate(where)
    assert mark > first  # "Keep both?"
    mark, first = page.locator("p.left-alone").evaluate(where)
    assert mark < first, "without it, Chromium shows '?Keep both'"
