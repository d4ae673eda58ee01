"""New Rule in headless Chromium: a round through real clicks, a reload, and the game resumed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from playbook.serve import NOTEBOOKS_DIR
from tests.support.browser import VoilaFactory, open_dashboard
from tests.support.new_rule_page import NAMES, ROOT, click, in_seat

pytestmark = [pytest.mark.browser, pytest.mark.timeout(150)]


def test_a_round_then_a_reload_resumes_the_table(voila: VoilaFactory, page: Page) -> None:
    server = voila(NOTEBOOKS_DIR / "new_rule.ipynb")
    open_dashboard(page, server.url, ROOT)
    page.locator(f"{ROOT} .pb-players").first.locator("text=3").click()
    for seat, name in enumerate(NAMES):
        page.locator(f"{ROOT} .pb-name-{seat} input").fill(name)
    page.locator(f"{ROOT} .pb-seed input").fill("7")
    click(page, ".pb-start")
    expect(page.locator(f"{ROOT} .pb-round")).to_contain_text("Round 1")
    # Names are shown as typed, never as markup.
    expect(page.locator(f"{ROOT} .pb-players-table")).to_contain_text("Bo & <i>Co</i>")

    for seat in range(3):
        in_seat(page, seat, ".pb-draw", ".pb-keep")
    for seat in range(3):
        in_seat(page, seat, ".pb-pick")
    expect(page.locator(f"{ROOT} .pb-reveal")).to_contain_text("strength")
    for seat in range(3):
        click(page, f".pb-seat-{seat}")
        click(page, ".pb-show-private")
        suggest = page.locator(f"{ROOT} .pb-pay-suggest")
        expect(suggest.or_(page.get_by_text("You are out of the game."))).to_be_visible()
        if suggest.count():  # a player who could not pay is out
            expect(page.locator(f"{ROOT} .pb-pay-confirm")).to_be_enabled()
            click(page, ".pb-pay-confirm")
        click(page, ".pb-hide")
    expect(page.locator(f"{ROOT} .pb-round")).to_contain_text("Round 2")
    # The header and the log are separate widgets: wait for the log's own update too.
    expect(page.locator(f"{ROOT} .pb-log:not(.pb-private-log)")).to_contain_text("Round 2 begins")
    log_before = page.locator(f"{ROOT} .pb-log:not(.pb-private-log)").inner_text()

    # The address bar holds the table's facilitator link now: a reload reopens the table itself.
    expect(page).to_have_url(re.compile("facilitator="))
    page.reload()
    open_dashboard(page, page.url, ROOT)
    expect(page.locator(f"{ROOT} .pb-round")).to_contain_text("Round 2")
    log = page.locator(f"{ROOT} .pb-log:not(.pb-private-log)")
    expect(log).to_contain_text("Round 2 begins")
    assert log.inner_text() == log_before
    in_seat(page, 0, ".pb-draw")  # the game goes on where it was
