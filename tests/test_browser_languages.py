"""A phone's own language, in headless Chromium: a class's join page opens in the phone's
language (its Accept-Language), the header's menu switches it to Arabic, and the page comes
back right to left with the name half typed still in its box; the notebook's prose reads in
each language, the ready kernel's page (drawn in English) too."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

import i18n
from playbook import classes as cl
from playbook.links import class_links
from playbook.serve import NOTEBOOKS_DIR
from playbook.store import Store
from tests.support.browser import Devices, VoilaFactory, open_dashboard

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

NAME_BOX = ".playbook-class .pb-name-box input"
#: the class notebook's intro (a block of its first Markdown cell)
INTRO = "One game for one room: students join with the room code, wait in the lobby, are dealt into tables, and play on their own phones while the board shows every table."


#: whether a <select> (the argument) is wide enough for its chosen option's text, besides its
#: padding and the drop-down arrow (about 20 px in Chromium)
SHOWN_WHOLE = """(menu) => {
  const style = getComputedStyle(menu), ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const text = ctx.measureText(menu.options[menu.selectedIndex].text).width;
  return text + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + 20 <= menu.clientWidth;
}"""


def test_a_phone_switches_its_join_page_from_spanish_to_arabic_keeping_the_name_typed(voila: VoilaFactory, devices: Devices) -> None:
    server = voila(NOTEBOOKS_DIR / "class.ipynb")
    store = Store(server.db_path)
    record = cl.create_class(store, "new-rule", 3, seed=4, lang="nl")
    phone = devices.page(locale="es-ES")  # the phone's browser asks for Spanish
    join = server.url + "?" + class_links("", record)["join"].split("?", 1)[1]  # the one notebook served at the root
    open_dashboard(phone, join, NAME_BOX)
    # The class is Dutch; a phone that chose nothing reads the class's language, not its browser's.
    assert phone.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["nl", "ltr"]
    # The notebook's prose in Dutch too, though the page's kernel was a ready one, its page drawn
    # in English before anyone asked for it (playbook.prose, prose.js).
    intro = phone.locator('#pb-main > div[cell-index="1"] .jp-MarkdownOutput')
    expect(intro).to_contain_text(i18n.catalog_text(INTRO, "nl"))
    assert INTRO not in (intro.text_content() or "") and i18n.catalog_text(INTRO, "nl") != INTRO
    expect(phone.locator("details.playbook-more > summary")).to_have_text(i18n.catalog_text("## How a class works", "nl")[3:])
    menu = phone.locator(".playbook-header select.playbook-language")
    expect(menu).to_have_value("nl")
    assert menu.locator("option").all_inner_texts() == ["English", "Nederlands", "Deutsch", "Español", "Français", "العربية"]
    # The phone's narrow menu shows the language chosen whole ("Nederlan" was cut at 6.5em).
    assert menu.evaluate(SHOWN_WHOLE), "the language menu cuts its chosen name"
    # Its own choice: Spanish, then Arabic, a name half typed in between.
    menu.select_option("es")
    expect(phone.locator("html")).to_have_attribute("lang", "es")
    phone.locator(NAME_BOX).wait_for(state="visible")
    assert phone.get_attribute("a.playbook-skip", "data-pb-text") == "skip_game"
    assert phone.inner_text("a.playbook-skip") in ("Saltar al juego", "Saltar a tu puesto")
    expect(phone.locator("details.playbook-more > summary")).to_have_text(i18n.catalog_text("## How a class works", "es")[3:])
    phone.locator(NAME_BOX).fill("Marí")
    phone.locator(".playbook-header select.playbook-language").select_option("ar")
    expect(phone.locator("html")).to_have_attribute("lang", "ar")
    phone.locator(NAME_BOX).wait_for(state="visible")
    assert phone.evaluate("document.documentElement.dir") == "rtl"
    # the header's words in Arabic letters (the page's charset read them right)
    assert phone.inner_text("a.playbook-skip") in ("انتقل إلى اللعبة", "انتقل إلى مقعدك")
    expect(phone.locator(NAME_BOX)).to_have_value("Marí")
    expect(phone.locator(".playbook-header select.playbook-language")).to_have_value("ar")
    # The header reads right to left: the brand at the right edge, the menu to its left.
    brand, nav = phone.locator("a.playbook-brand").bounding_box(), phone.locator(".playbook-nav").bounding_box()
    assert brand is not None and nav is not None and brand["x"] > nav["x"]
    assert phone.evaluate("document.cookie").count("pb-lang=ar") == 1  # kept for this device
