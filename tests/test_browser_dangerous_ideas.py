"""Dangerous Ideas in headless Chromium: setup, the setting round and a whole meme action by real clicks."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from playbook.serve import NOTEBOOKS_DIR
from tests.support.browser import VoilaFactory, open_dashboard, text_contrasts

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

ROOT = ".playbook-dangerous-ideas"
NAMES = ("Ana & <i>Co</i>", "Bo", "Cy 🐻")
START = (("think", 3), ("create", 2), ("connect", 1), ("defend", 1))
MEMES = (
    ("The woods need telegraph wires", "Goldilocks"),
    ("Humans will own the forest", "Goldilocks"),
    ("Bears are friends, not food", "Goldilocks"),
    ("Porridge is healthy", "Mama Bear"),
    ("Punctual exercise matters", "Papa Bear"),
    ("Everything has its place", "Baby Bear"),
)


def part(page: Page, css: str) -> Locator:
    return page.locator(f"{ROOT} {css}").first


def act(page: Page, css: str) -> None:
    """Click an enabled control and wait until it is gone: every applied move rebuilds the controls."""
    button = part(page, css)
    expect(button).to_be_enabled()
    handle = button.element_handle()
    button.click()
    page.wait_for_function("el => !el.isConnected", arg=handle)


def number(page: Page, css: str, value: int) -> None:
    """Type into a number box and commit it (number boxes sync on Enter or blur)."""
    box = part(page, f"{css} input")
    box.fill(str(value))
    box.press("Enter")


def test_a_meme_action_with_a_connector_and_a_defender(voila: VoilaFactory, page: Page) -> None:
    server = voila(NOTEBOOKS_DIR / "dangerous_ideas.ipynb")
    open_dashboard(page, server.url, ROOT)
    for seat, name in enumerate(NAMES):
        part(page, f".pb-name-{seat} input").fill(name)
    part(page, ".pb-seed input").fill("1")
    part(page, ".pb-seed input").press("Enter")
    part(page, ".pb-chapters select").select_option(value="2")
    part(page, ".pb-start").click()
    expect(part(page, ".pb-round")).to_contain_text("starting stones")
    # Names are shown as typed, never as markup.
    expect(part(page, ".pb-chapter")).to_contain_text("Ana & <i>Co</i>")
    # The controls' panel reads in both themes (it was a light card under the dark page's light text).
    for theme in ("dark", "light"):
        page.locator(".playbook-theme").click()
        expect(page.locator("html")).to_have_attribute("data-playbook-theme", theme)
        lowest = text_contrasts(page, f"{ROOT} .pb-controls")[:3]
        assert lowest[0][0] >= 4.5, (theme, lowest)

    for _ in NAMES:
        for node, count in START:
            number(page, f".pb-place-{node}", count)
        act(page, ".pb-place-confirm")
    expect(part(page, ".pb-round")).to_contain_text("setting round")
    for i, (text, holder) in enumerate(MEMES):
        part(page, ".pb-write-text input").fill(text)
        part(page, ".pb-write-holder input").fill(holder)
        part(page, ".pb-narration textarea").fill(f"Setting line {i} about {holder}.")
        act(page, ".pb-write-confirm")
    expect(part(page, ".pb-sheet-2")).to_contain_text("Everything has")
    part(page, ".pb-title-text input").fill("In Which Goldilocks Wanders Into The Woods")
    act(page, ".pb-title-confirm")
    expect(part(page, ".pb-round")).to_contain_text("Chapter 1 of 2")

    # Bo's turn: the turn's stones, then a Create.
    number(page, ".pb-place-create", 2)
    act(page, ".pb-place-confirm")
    part(page, ".pb-create").click()
    part(page, ".pb-meme-text input").fill("Bears like honey")
    part(page, ".pb-meme-holder input").fill("Goldilocks")
    part(page, ".pb-narration textarea").fill("Bo wonders about honey.")
    act(page, ".pb-announce")
    expect(part(page, ".pb-attempt")).to_contain_text("Bears like honey")

    # Phase 1: the pool preview follows the number boxes before anything is staked.
    number(page, ".pb-stake-node", 4)
    number(page, ".pb-stake-think", 2)
    expect(part(page, ".pb-pool")).to_contain_text("→ 6")
    expect(part(page, ".pb-pool .di-big")).to_have_text("0")
    act(page, ".pb-stake-confirm")
    expect(part(page, ".pb-pool .di-big")).to_have_text("6")
    act(page, ".pb-pass")

    # Phase 2: Cy connects, Ana defends, each clicking for themselves.
    expect(part(page, ".pb-responder-2")).to_be_visible()
    part(page, ".pb-connect").click()
    number(page, ".pb-stake-node", 1)
    expect(part(page, ".pb-pool")).to_contain_text("→ 7")
    part(page, ".pb-narration textarea").fill("Cy's Baby Bear agrees.")
    act(page, ".pb-stake-confirm")
    expect(part(page, ".pb-pool .di-big")).to_have_text("7")
    expect(part(page, ".pb-attempt")).to_contain_text("Connecting: Cy")

    expect(part(page, ".pb-responder-0")).to_be_visible()
    part(page, ".pb-defend").click()
    number(page, ".pb-stake-node", 1)
    expect(part(page, ".pb-pool")).to_contain_text("→ 6")
    part(page, ".pb-narration textarea").fill("Ana's Goldilocks scoffs.")
    act(page, ".pb-stake-confirm")
    expect(part(page, ".pb-pool .di-big")).to_have_text("6")
    expect(part(page, ".pb-attempt")).to_contain_text("Defending: Ana")

    # Everyone else passes: the dice roll; seeds may re-roll; Bo concludes.
    act(page, ".pb-all-pass")
    expect(part(page, ".pb-dice svg")).to_be_visible()
    # Either the seeds' re-roll step or the outcome comes next: wait for one of them to be drawn.
    expect(part(page, ".pb-seed-all-pass, .pb-conclude")).to_be_visible()
    if part(page, ".pb-seed-all-pass").count():
        expect(part(page, ".pb-seed-advice")).not_to_be_empty()
        act(page, ".pb-seed-all-pass")
    expect(part(page, ".pb-conclude")).to_be_visible()
    part(page, ".pb-narration textarea").fill("Goldilocks thought about honey all day.")
    act(page, ".pb-conclude")
    outcome = part(page, ".pb-outcome")
    expect(outcome).to_contain_text("Bears like honey")
    expect(outcome).to_contain_text("Pool 6 → 7 → 6")
    if "Success" in outcome.inner_text():
        expect(part(page, ".pb-sheet-1")).to_contain_text("honey")
        expect(outcome).to_contain_text("+2 stones on Think")
    else:
        expect(outcome).to_contain_text("Failed")
    story = part(page, ".pb-story")
    for line in (
        "Bo wonders about honey.",
        "Cy's Baby Bear agrees.",
        "Ana's Goldilocks scoffs.",
        "Goldilocks thought about honey all day.",
    ):
        expect(story).to_contain_text(line)
    expect(part(page, ".pb-turn")).to_contain_text("Bo's turn: 1 action left")
