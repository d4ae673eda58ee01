"""Danger World in headless Chromium: a sheet, a check with a lock and a re-roll, a hit by clicks.

The dice come from the table's seed: the test asks the rules engine, offline, for a seed whose
check (Wren's sheet, the roll, the coach's best lock, one re-roll) ends with a set and at least
two botches, and which dice that lock is; then it plays the same moves through the page.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from playbook.serve import NOTEBOOKS_DIR
from rules import Game
from rules.danger_world import RULES, STATS, BeginCheck, CreateCharacter, Lock, Reroll, Setup, coach
from tests.support.browser import VoilaFactory, open_dashboard

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

ROOT = ".playbook-danger-world"
NAMES = ("Wren & <b>Co</b>", "Bo 🐉")
WREN = (4, 1, 2, 1, 3, 2, 1, 2)
ASPECTS = ("Cat burglar", "Owes the guild", "Never leaves a friend")


def at(page: Page, css: str) -> Locator:
    return page.locator(f"{ROOT} {css}").first


def enter(page: Page, css: str, value: object) -> None:
    """Type into a text or number box and leave it, so the kernel hears the new value."""
    box = at(page, f"{css} input")
    box.fill(str(value))
    box.press("Tab")


def has_class(name: str) -> re.Pattern[str]:
    """A pattern matching a class list that contains `name`."""
    return re.compile(rf"(^|\s){re.escape(name)}(\s|$)")


def scripted_check() -> tuple[int, tuple[int, ...], int]:
    """(seed, the dice the coach locks, the highest set after the re-roll) for a check that ends
    with a set and at least two botches."""
    for seed in range(2000):
        game = Game(RULES, Setup(names=NAMES, gm="Morgan"), seed)
        game.apply(CreateCharacter(seat=0, character=0, stats=WREN, aspects=ASPECTS))
        game.apply(BeginCheck(seat=0, character=0, stats=("agility", "perception"), difficulty=3, complications=2))
        lock = tuple(sorted(coach(game.state)[0][0]))
        if not lock:
            continue
        game.apply(Lock(seat=0, dice=lock))
        game.apply(Reroll(seat=0))
        check = game.state.check
        if check.sets and check.botches >= 2:
            return seed, lock, check.sets[-1].height
    raise AssertionError("no seed gives a set and two botches")


def test_a_sheet_a_check_with_a_lock_and_a_reroll_and_a_hit(voila: VoilaFactory, page: Page) -> None:
    seed, lock, height = scripted_check()
    server = voila(NOTEBOOKS_DIR / "danger_world.ipynb")
    open_dashboard(page, server.url, ROOT)
    enter(page, ".pb-gm-name", "Morgan")
    enter(page, ".pb-players", 2)
    for i, name in enumerate(NAMES):
        enter(page, f".pb-name-{i}", name)
    enter(page, ".pb-seed", seed)
    at(page, ".pb-start").click()
    expect(at(page, ".pb-turn")).to_contain_text("Waiting for sheets")
    # Names are shown as typed, never as markup.
    expect(at(page, ".pb-sheet-0")).to_contain_text("Wren & <b>Co</b>")

    # A sheet one die short is refused by the rules, and nothing changes.
    short = (*WREN[:-1], WREN[-1] - 1)
    for stat, value in zip(STATS, short):
        enter(page, f".pb-stat-0-{stat}", value)
    for k, aspect in enumerate(ASPECTS):
        enter(page, f".pb-aspect-0-{k}", aspect)
    expect(at(page, ".pb-sheet-count-0")).to_contain_text("15 of 16")
    expect(at(page, ".pb-sheet-confirm-0")).to_be_disabled()  # it does not look ready
    expect(at(page, ".pb-sheet-verdict-0")).to_contain_text("add up to 15 dice")
    expect(at(page, ".pb-sheet-0")).to_contain_text("No sheet yet")
    enter(page, ".pb-stat-0-cool", WREN[-1])
    expect(at(page, ".pb-sheet-verdict-0")).to_contain_text("accept")
    at(page, ".pb-sheet-confirm-0").click()
    expect(at(page, ".pb-sheet-0")).to_contain_text("Cat burglar")

    # The check: Agility + Perception at difficulty 3 against two complications.
    at(page, ".pb-check-extras .lm-AccordionPanel-title, .pb-check-extras .p-Collapse-header, .pb-check-extras .jupyter-widget-Collapse-header").click()
    enter(page, ".pb-complications", 2)
    expect(at(page, ".pb-roll")).to_contain_text("Roll 9 dice")
    expect(at(page, ".pb-odds")).to_contain_text("%")
    at(page, ".pb-roll").click()
    expect(at(page, ".pb-die-6")).to_be_visible()
    expect(page.locator(f"{ROOT} .jupyter-button.dw-penalty")).to_have_count(2)
    expect(at(page, ".pb-coach")).to_contain_text("The chance each choice leaves")

    # Click the dice the coach ranks first, lock them, re-roll the rest.
    for k in lock:
        at(page, f".pb-die-{k}").click()
    expect(at(page, ".pb-lock")).to_contain_text(f"Lock {len(lock)}")
    at(page, ".pb-lock").click()
    for k in lock:
        expect(at(page, f".pb-die-{k}")).to_have_class(has_class("dw-locked"))
    at(page, ".pb-reroll").click()
    expect(at(page, ".pb-tray-title")).to_contain_text("Re-rolls left: 1 of 2")

    # Take the set; the GM spends two botches on a reduced hit on Wren (Bo has no sheet yet).
    at(page, f".pb-set-{height}").click()
    expect(at(page, ".pb-gm-spend")).to_be_visible()
    expect(at(page, ".pb-outcome [data-outcome]")).not_to_have_attribute("data-outcome", "")
    expect(at(page, ".pb-track-0 .dw-track")).to_have_attribute("data-track", "0,0,0,0,0")
    at(page, ".pb-gm-target select").select_option(label=NAMES[0])
    enter(page, ".pb-gm-note", "a guard's club")
    at(page, ".pb-gm-option-reduced").click()
    expect(at(page, ".pb-gm-basket")).to_contain_text("a reduced hit (2)")
    at(page, ".pb-gm-spend").click()
    expect(at(page, ".pb-track-0 .dw-track")).to_have_attribute("data-track", "1,0,0,0,0")
    expect(at(page, ".pb-history")).to_contain_text(f"a reduced hit on {NAMES[0]} (a guard's club)")
    expect(at(page, ".pb-turn")).to_contain_text("Waiting for sheets: Bo")
