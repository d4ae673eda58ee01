"""Leerdam's anonymous pledges in headless Chromium: the board page of a table in play.

Every websocket frame the board receives and every widget's state are read for any household's
pledge; and the boards of two tables, the same village and dice with the households' strategies
turned one seat round (so each household pledged differently), read the same on the screen.
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from playbook.access import table_keys
from playbook.links import table_links
from playbook.serve import NOTEBOOKS_DIR
from playbook.store import Store
from rules import Game
from tests.support.anonymous_village import NAMES, world
from tests.support.browser import VoilaFactory, quiet, recorded, settled

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

LEERDAM = ".playbook-leerdam"
#: the parts of the board a room reads (the join code is the table's own: it differs anyway):
#: the board by phase's scene, its chart within it, and the pledges' table below.
PARTS = (".pb-board-scene", ".pb-board-scene .pb-chart", ".pb-pledge-table")


def stored(store: Store, game: Game, steps: int) -> dict:
    """A table holding the first `steps` moves of `game`; its links."""
    part = Game(game.rules, game.setup, game.seed, list(game.actions[:steps]))
    table_id = store.create(part, meta={"bots": {}, **table_keys(len(NAMES))})
    return table_links("", "leerdam", table_id, store.info(table_id).meta, NAMES)


def board_page(chromium: Browser, url: str, ready: str = ".playbook-board .pb-board-scene [data-phase]", width: int = 1920, height: int = 1080) -> tuple[Page, list[str], str]:
    """A page of its own (a device), with every websocket frame it receives from the start."""
    context = chromium.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(45_000)
    page = context.new_page()
    frames = recorded(page)
    response = page.goto(url, wait_until="domcontentloaded")
    first = response.text() if response is not None else ""
    page.locator("#rendered_cells").wait_for(state="visible")
    expect(page.locator(f"{LEERDAM}{ready}")).to_be_visible()
    quiet(page, frames)  # every widget's state has arrived
    return page, frames, first


def chart_of(page: Page) -> str:
    """The board's chart as the page draws it (SVG: the whole drawing, not only its words)."""
    return str(page.locator(f"{LEERDAM} .pb-board-scene .pb-chart").first.inner_html())


def secrets(game: Game, steps: int, skip: int | None = None) -> list[str]:
    """What would name a household's pledge (but household `skip`'s own) on a page."""
    state = game.states[steps]
    found = ["data-seat-pledge", "The pledges are revealed", "You pledged", "Your Wealth brings", "Misfortune costs you"]
    for seat, name in enumerate(NAMES):
        if seat == skip:
            continue
        for shown in {name, html.escape(name), json.dumps(html.escape(name))[1:-1], json.dumps(name)[1:-1]}:
            pledges = {r.contribution for r in state.ledger if r.seat == seat and r.contribution is not None}
            found += [f"{shown}: {p}" for p in pledges] + [f"{shown} {p}" for p in pledges]
            found += [f"{shown} · {state.capacity(seat)}", f"{shown} +"]
    return found


def test_an_anonymous_board_in_play_receives_no_households_pledge_and_two_worlds_read_the_same(voila: VoilaFactory, chromium: Browser) -> None:
    server = voila(NOTEBOOKS_DIR / "leerdam.ipynb")
    store = Store(server.db_path)
    a, b = world(0), world(1)
    # Year 3, just after the reveal: the total is up, two years are behind (their plots too).
    steps = next(i for i, s in enumerate(a.states) if s.phase == "allocate" and s.year == 3)
    assert a.states[steps].pledges != b.states[steps].pledges
    links_a = stored(store, a, steps)
    page_a, frames, first = board_page(chromium, server.url + links_a["board"])
    # Every widget's state reaches the page in these frames; the page's first HTML holds the
    # notebook (its worked example names other households) and nothing of this table.
    assert html.escape(NAMES[5]) not in first and NAMES[6] not in first
    board = page_a.locator(f"{LEERDAM}.playbook-root").first.evaluate("(root) => root.outerHTML")
    received = "\n".join(frames) + board
    assert frames and "total is announced" in "\n".join(frames) and NAMES[6] in board
    for secret in secrets(a, steps):
        assert secret not in received, secret
    read_a = {part: page_a.locator(f"{LEERDAM} {part}").first.inner_text() for part in PARTS}
    plots_a = chart_of(page_a)
    if os.environ.get("PLAYBOOK_SCREENSHOTS_TMP"):
        settled(page_a)
        page_a.screenshot(path=str(Path(os.environ["PLAYBOOK_SCREENSHOTS_TMP"]) / "anonymous-board-1920.png"), full_page=True)
    page_b, _, _ = board_page(chromium, server.url + stored(store, b, steps)["board"])
    read_b = {part: page_b.locator(f"{LEERDAM} {part}").first.inner_text() for part in PARTS}
    plots_b = chart_of(page_b)
    assert read_a == read_b
    assert plots_a and plots_a == plots_b
    assert "Anonymous pledges" in read_a[".pb-board-scene"] and "total is announced" in read_a[".pb-board-scene"]
    # A household's own page: its own numbers, and nothing of the others'.
    phone, phone_frames, _ = board_page(chromium, server.url + links_a["seats"][0]["url"], ".playbook-seat .pb-household", 390, 844)
    expect(phone.locator(f"{LEERDAM}.playbook-seat .pb-household")).to_contain_text(f"Your pledge: {a.states[steps].pledges[0]}")
    received = "\n".join(phone_frames) + phone.locator(f"{LEERDAM}.playbook-root").first.evaluate("(root) => root.outerHTML")
    log = a.states[steps].log
    own = {str(e.text) for e in log if e.visible(0)}  # "You pledged 0 units" may be anyone's words
    others = [str(e.text) for e in log if not e.visible(0) and str(e.text) not in own]
    assert others, "the test needs another household's note to look for"
    for secret in [s for s in secrets(a, steps, skip=0) if s not in ("You pledged", "Your Wealth brings", "Misfortune costs you")] + others:
        assert secret not in received, secret


def test_after_the_end_the_facilitators_switch_shows_the_pledges_on_the_open_board(voila: VoilaFactory, chromium: Browser) -> None:
    server = voila(NOTEBOOKS_DIR / "leerdam.ipynb")
    store = Store(server.db_path)
    game = world(0)
    links = stored(store, game, len(game.actions))
    board, frames, _ = board_page(chromium, server.url + links["board"])
    expect(board.locator(f"{LEERDAM} .pb-board-scene .pb-results-standings")).to_be_visible()  # the result: the winner and the standings
    assert "data-pledges-of" not in "\n".join(frames)
    context = chromium.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(45_000)
    facilitator = context.new_page()
    facilitator.goto(server.url + links["facilitator"], wait_until="domcontentloaded")
    switch = facilitator.locator(f"{LEERDAM} .pb-debrief-choice .pb-show-pledges")
    expect(switch).to_contain_text("Show each household's pledges")
    switch.click()
    # The board follows the table: the pledges, household by household, year by year.
    row = board.locator(f'{LEERDAM} .pb-pledge-table [data-pledges-of="0"]')
    expect(row).to_be_visible(timeout=20_000)
    pledges = [str(r.contribution) for r in game.state.ledger if r.seat == 0]
    assert row.inner_text().split()[1:] == pledges
    if os.environ.get("PLAYBOOK_SCREENSHOTS_TMP"):
        folder = Path(os.environ["PLAYBOOK_SCREENSHOTS_TMP"])
        row.scroll_into_view_if_needed()
        settled(board)
        board.screenshot(path=str(folder / "anonymous-board-shown-1920.png"))
        settled(facilitator)
        switch.scroll_into_view_if_needed()
        facilitator.screenshot(path=str(folder / "anonymous-facilitator-1366.png"))
    expect(switch).to_contain_text("Keep them anonymous")
    switch.click()
    expect(board.locator(f"{LEERDAM} .pb-pledge-table [data-pledges-of]")).to_have_count(0, timeout=20_000)
    assert store.load(links["facilitator"].split("table=")[1].split("&")[0]).game.state.pledges_shown is False
