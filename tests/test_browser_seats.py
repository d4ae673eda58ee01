"""Seat links in headless Chromium: a player's own page on another device, kept live by polling."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from playbook.serve import NOTEBOOKS_DIR
from tests.browser import LOAD_TIMEOUT_MS, open_dashboard
from tests.conftest import VoilaFactory

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

ROOT = ".playbook-new-rule"


def test_a_seat_link_opens_that_seat_alone_and_the_host_sees_its_moves(voila: VoilaFactory, page: Page, chromium: Browser) -> None:
    server = voila(NOTEBOOKS_DIR / "new_rule.ipynb")
    open_dashboard(page, server.url, ROOT)
    page.locator(f"{ROOT} .pb-players").first.locator("text=3").click()
    for seat, name in enumerate(("Ana", "Bo", "Cy")):
        page.locator(f"{ROOT} .pb-name-{seat} input").fill(name)
    page.locator(f"{ROOT} .pb-start").first.click()
    expect(page.locator(f"{ROOT} .pb-round")).to_contain_text("Round 1")
    links = page.locator(f"{ROOT} .pb-seat-links a")
    expect(links).to_have_count(3)
    link = links.nth(0)
    assert link.get_attribute("href", timeout=5_000).startswith("?table=")  # relative: keeps the notebook's path
    url = link.evaluate("a => a.href")  # what the browser makes of it
    assert url.startswith(server.url) and "seat=0" in url and "key=" in url

    # Seat 0 on a device of its own (a fresh browser context: no shared cookies or storage).
    context = chromium.new_context(viewport={"width": 412, "height": 915})
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    try:
        phone = context.new_page()
        open_dashboard(phone, url, f"{ROOT} .pb-private")
        expect(phone.locator(f"{ROOT} [data-seat]")).to_have_count(1)  # one private panel: seat 0's
        expect(phone.locator(f'{ROOT} .pb-private-panel [data-seat="0"]')).to_be_visible()
        expect(phone.locator(f"{ROOT} .pb-private").first).to_contain_text("Ana: your bowl")
        for hidden in (".pb-seat-1", ".pb-seat-2", ".pb-hide", ".pb-seat-links", ".pb-download-link", ".pb-save-file", ".pb-new-game", ".pb-start"):
            expect(phone.locator(f"{ROOT} {hidden}")).not_to_be_visible()
        phone.locator(f"{ROOT} .pb-draw").first.click()
        phone.locator(f"{ROOT} .pb-keep").first.click()
        expect(phone.locator(f"{ROOT} .pb-turn")).to_contain_text("Bo")
        # The host's page follows without a click.
        expect(page.locator(f"{ROOT} .pb-turn")).to_contain_text("Bo", timeout=8_000)
    finally:
        context.close()
