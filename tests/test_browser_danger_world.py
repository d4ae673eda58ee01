"""Danger World in headless Chromium: a sheet, a check with a lock and a re-roll, a hit by clicks.

The dice come from the table's seed: the test asks the rules engine, offline, for a seed whose
check (Wren's sheet, the roll, the coach's best lock, one re-roll) ends with a set and at least
two botches, and which dice that lock is; then it plays the same moves through the page.
"""

from __future__ import annotations

import re
import time

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


# -- a table on its own devices: the GM and three players on phones, the board on a projector ---------


def gm_seed(names: tuple[str, ...]) -> int:
    """A table seed on which Wren's check (Agility + Perception at difficulty 6, no set taken)
    leaves botches for the GM."""
    from rules.danger_world import ChooseSet

    for seed in range(2000):
        game = Game(RULES, Setup(names=names), seed)
        game.apply(CreateCharacter(seat=0, character=0, stats=WREN, aspects=ASPECTS))
        game.apply(BeginCheck(seat=0, character=0, stats=("agility", "perception"), difficulty=6))
        game.apply(ChooseSet(seat=0, height=None))
        if game.state.phase == "gm":
            return seed
    raise AssertionError("no seed leaves botches")


def test_a_check_from_the_players_phone_to_the_gms_botches(voila: VoilaFactory, devices) -> None:
    from playbook.store import Play, Store
    from rules.danger_world import SpendBotches
    from tests.support.browser import quiet, recorded
    from tests.support.tables import make_table

    names = ("Wren", "Bo", "Juno")
    server = voila(NOTEBOOKS_DIR / "danger_world.ipynb")
    store = Store(server.db_path)
    table_id, links = make_table(store, "danger-world", names, seed=gm_seed(names))
    store.submit(table_id, Play(CreateCharacter(seat=0, character=0, stats=WREN, aspects=ASPECTS)), store.version(table_id))
    gm_seat = len(names)
    # Every device at once: the GM's phone, three players' phones, the board on the projector.
    seats = {seat: devices.page() for seat in (gm_seat, 0, 1, 2)}
    frames = {seat: recorded(page) for seat, page in seats.items()}
    board = devices.page(1920, 1080)
    for seat, page in seats.items():
        page.goto(server.url + links["seats"][seat]["url"], wait_until="commit")
    board.goto(server.url + links["board"], wait_until="commit")
    gm, wren, bo, juno = (seats[s] for s in (gm_seat, 0, 1, 2))
    for page in (gm, wren, bo, juno):
        page.locator(f"{ROOT}.playbook-seat .pb-roll").wait_for(state="attached")
    expect(board.locator(f"{ROOT}.playbook-board .pb-board-party")).to_contain_text("Juno")

    # Wren's phone: her own sheet and check; nobody else's sheet to write, no GM panel.
    expect(at(wren, ".pb-sheet-0")).to_contain_text("Cat burglar")
    expect(wren.locator(f"{ROOT} .pb-builder-1")).to_have_count(0)
    expect(wren.locator(f"{ROOT} .pb-gm")).to_have_count(0)
    expect(wren.locator(f"{ROOT} .pb-compel-0")).to_be_hidden()
    # Bo's phone: his sheet to make (a ready-made one, or quick), no check before it.
    expect(at(bo, ".pb-quick-1")).to_be_visible()
    expect(bo.locator(f"{ROOT} .pb-builder-0")).to_have_count(0)
    expect(at(bo, ".pb-roll")).to_be_disabled()
    # The GM's phone: the check for anyone, compels, the odds table.
    expect(at(gm, ".pb-odds-grid")).to_contain_text("Odds of success")
    expect(at(gm, ".pb-gm")).to_be_attached()

    # Wren rolls at difficulty 6 from her phone, with the coach's odds of her own pool.
    at(wren, ".pb-difficulty button:text-is('6')").click()
    expect(at(wren, ".pb-odds")).to_contain_text("%")
    at(wren, ".pb-roll").click()
    expect(at(wren, ".pb-lock")).to_be_visible(timeout=20_000)
    expect(at(wren, ".pb-coach")).to_contain_text("Re-roll coach")
    # The others see her dice fall, but not her lock, her re-roll or her coach.
    for page in (gm, bo):
        expect(page.locator(f"{ROOT} .pb-die-0")).to_be_visible(timeout=20_000)
        expect(page.locator(f"{ROOT} .pb-die-0")).to_be_disabled()
        expect(at(page, ".pb-lock")).to_be_hidden()
        expect(at(page, ".pb-coach")).to_have_text("")
    expect(board.locator(f"{ROOT} .pb-board-scene .pb-check-actor")).to_contain_text("Wren", timeout=20_000)
    # She takes no set: the check fails, and its botches wait for the GM.
    at(wren, ".pb-no-set").click()
    expect(at(gm, ".pb-gm-spend")).to_be_visible(timeout=20_000)
    expect(bo.locator(f"{ROOT} .pb-gm-spend")).to_have_count(0)
    at(gm, ".pb-gm-option-danger").click()
    expect(at(gm, ".pb-gm-basket")).to_contain_text("danger +1")
    at(gm, ".pb-gm-spend").click()
    expect(board.locator(f"{ROOT} .pb-board-scene .pb-check-outcome")).to_contain_text("Failure", timeout=20_000)
    # The board says the outcome as soon as the check fails: the GM's spend lands after it.
    deadline = time.monotonic() + 20
    while not any(isinstance(a, SpendBotches) for a in store.load(table_id).game.actions) and time.monotonic() < deadline:
        time.sleep(0.2)
    game = store.load(table_id).game
    spent = [a for a in game.actions if isinstance(a, SpendBotches)]
    assert len(spent) == 1 and spent[0].seat == gm_seat and game.state.characters[0].danger >= 1
    assert {a.seat for a in game.actions if not a.chance} == {0, gm_seat}

    # The players' pages received no other seat's key and not Wren's coach.
    for page in (bo, juno):
        quiet(page, frames[1 if page is bo else 2])
    meta = store.info(table_id).meta
    for seat in (1, 2):
        received = "\n".join(frames[seat])
        assert received, "no websocket frame was read"
        others = [meta["facilitator_key"], meta["board_key"], meta["join_key"], *(k for s, k in meta["seat_keys"].items() if s != str(seat))]
        assert not [k for k in others if k in received], seat
        assert "Re-roll coach" not in received and "data-lock=" not in received
    assert "Re-roll coach" in "\n".join(frames[0])  # Wren's own page had it: the look is right
