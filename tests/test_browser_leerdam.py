"""Leerdam in headless Chromium: a year with five households (three bots) through real clicks."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from playbook.serve import NOTEBOOKS_DIR
from tests.support.browser import VoilaFactory, open_dashboard

pytestmark = [pytest.mark.browser, pytest.mark.timeout(150)]

ROOT = ".playbook-leerdam"


def at(page: Page, css: str):
    return page.locator(f"{ROOT} {css}").first


def in_household(page: Page, seat: int, act) -> None:
    """Open a household's private panel, act in it, and hide it again."""
    at(page, f".pb-seat-{seat}").click()
    at(page, ".pb-show-private").click()  # the shared screen asks first: the view is private
    expect(at(page, ".pb-household")).to_be_visible()
    act()
    at(page, ".pb-hide").click()
    expect(page.locator(f"{ROOT} .pb-household")).to_have_count(0)


def test_a_year_with_bots_and_two_households_by_hand(voila: VoilaFactory, page: Page) -> None:
    server = voila(NOTEBOOKS_DIR / "leerdam.ipynb")
    open_dashboard(page, server.url, ROOT)
    at(page, ".pb-players input").fill("5")
    at(page, ".pb-players input").press("Enter")
    at(page, ".pb-name-0 input").fill("Anna <&>")
    for seat, bot in ((2, "fair"), (3, "free-rider"), (4, "altruist")):
        at(page, f".pb-kind-{seat} select").select_option(label=f"bot: {bot}")
    at(page, ".pb-seed input").fill("11")
    at(page, ".pb-start").click()
    expect(at(page, ".pb-year")).to_contain_text("1")
    expect(at(page, ".pb-pledged-count")).to_contain_text("3 of 5")  # the bots pledged at once

    def pledge(units: int):
        def act() -> None:
            at(page, ".pb-pledge input").fill(str(units))
            at(page, ".pb-pledge-confirm").click()
            expect(at(page, ".pb-pledged-count")).not_to_contain_text(f"{units} unit")

        return act

    in_household(page, 0, pledge(2))
    # The projector shows who pledged, never how much, until the last pledge is in.
    expect(at(page, ".pb-pledged-count")).to_contain_text("4 of 5")
    expect(at(page, ".pb-reveal")).not_to_contain_text("Anna <&>: 2")
    in_household(page, 1, pledge(1))
    expect(at(page, ".pb-reveal")).to_contain_text("Anna <&>: 2")

    for seat in (0, 1):
        def act(seat: int = seat) -> None:
            at(page, f".pb-alloc-{seat}-subsistence input").fill("2")
            at(page, f".pb-alloc-{seat}-subsistence input").press("Tab")
            expect(at(page, ".pb-alloc-preview")).to_contain_text("left")
            at(page, ".pb-alloc-confirm").click()

        in_household(page, seat, act)
    # The harvest, the flood and the next year follow at once.
    expect(at(page, ".pb-flood")).to_contain_text("Flood strength")
    expect(at(page, ".pb-year")).to_contain_text("2")
    expect(at(page, ".pb-chronicle")).to_contain_text("Year 2 begins")
