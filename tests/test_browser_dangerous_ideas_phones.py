"""Dangerous Ideas from phones, in headless Chromium: four seat pages (390x844) and the board
(1920x1080) of one table, each a browser context of its own on a Voila server.

A meme action's phase 2: two phones spend stones in the same second and both spends land, once
each; a third phone's draft (typed, never sent) and every key stay off the other pages' websocket
frames; each phone offers only what its seat may do.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from lab.dangerous_ideas import legal_actions
from playbook.serve import NOTEBOOKS_DIR
from playbook.store import Play, Store
from rules.dangerous_ideas import Connect, Create, Defend, Pass, Place, Stake, Title, TurnStones, Write
from tests.support.browser import Devices, VoilaFactory, open_dashboard, quiet, recorded
from tests.support.tables import make_table

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

DI = ".playbook-dangerous-ideas"
NAMES = ("Reason", "Faith", "Chaos", "Progress")
DRAFT = "Chaos plots a twist nobody has heard"


def _to_phase_two(store: Store, table_id: str) -> int:
    """The table played by its seats' actions up to a Create's phase 2; returns the actor."""

    def play(action) -> None:
        store.submit(table_id, Play(action), store.version(table_id))

    for seat in range(len(NAMES)):
        play(Place(seat=seat, place=("think",) * 3 + ("create",) * 2 + ("connect", "defend")))
    while (state := store.load(table_id).game.state).phase == "setting":
        branch = next(a.branch for a in legal_actions(state, state.turn) if isinstance(a, Write))
        play(Write(seat=state.turn, branch=branch, text=f"{NAMES[state.turn]} is right on {branch}", holder="Goldilocks"))
    state = store.load(table_id).game.state
    play(Title(seat=state.starter, title="In which Goldilocks wakes"))
    actor = store.load(table_id).game.state.turn
    play(TurnStones(seat=actor, place=("create", "create")))
    play(Create(seat=actor, text="Everything has a reason", holder="Goldilocks"))
    play(Stake(seat=actor, from_node=4))
    play(Pass(seat=actor))
    assert store.load(table_id).game.state.phase == "respond"
    return actor


def _pool(page: Page) -> str:
    return page.locator(f"{DI} .pb-pool [data-pool]").get_attribute("data-pool") or ""


def test_two_phones_spend_in_the_same_second_both_land_and_no_draft_or_key_leaves_its_phone(voila: VoilaFactory, devices: Devices) -> None:
    server = voila(NOTEBOOKS_DIR / "dangerous_ideas.ipynb")
    store = Store(server.db_path)
    table_id, links = make_table(store, "dangerous-ideas", NAMES)
    actor = _to_phase_two(store, table_id)
    pool = store.load(table_id).game.state.attempt.pool
    helper, hinderer, bystander = ((actor + k) % 4 for k in (1, 2, 3))
    board = devices.page(1920, 1080)
    board_frames = recorded(board)
    open_dashboard(board, server.url + links["board"], f"{DI}.playbook-board .pb-board-scene")
    phones: dict[int, Page] = {}
    frames: dict[int, list[str]] = {}
    for seat in (actor, helper, hinderer, bystander):
        phone = devices.page()
        frames[seat] = recorded(phone)
        open_dashboard(phone, server.url + links["seats"][seat]["url"], f"{DI}.playbook-seat .pb-pass")
        phones[seat] = phone
    # Each phone plays its own seat only: no "who spends?", no passing for the others.
    for seat, phone in phones.items():
        expect(phone.locator(f"{DI} .pb-own-sheet [data-seat='{seat}']")).to_have_count(1)
        expect(phone.locator(f"{DI} [class*='pb-responder-'], {DI} .pb-all-pass")).to_have_count(0)
        expect(phone.locator(f"{DI} .pb-connect")).to_have_count(0 if seat == actor else 1)
    # The bystander types a narration it never sends: a draft, its own.
    phones[bystander].locator(f"{DI} .pb-narration textarea").fill(DRAFT)
    # The helper connects, the hinderer defends: chosen on two phones, then sent in the same second.
    phones[helper].locator(f"{DI} .pb-connect").click()
    phones[hinderer].locator(f"{DI} .pb-defend").click()
    for seat in (helper, hinderer):
        box = phones[seat].locator(f"{DI} .pb-stake-node input")
        box.fill("1")
        box.press("Tab")  # a number box sends its value when it is left
        expect(phones[seat].locator(f"{DI} .pb-stake-confirm")).to_be_enabled()
    confirms = [phones[seat].locator(f"{DI} .pb-stake-confirm") for seat in (helper, hinderer)]
    for button in confirms:
        button.click(no_wait_after=True)
    deadline = time.monotonic() + 30
    while len([a for a in store.load(table_id).game.actions if isinstance(a, (Connect, Defend))]) < 2:
        assert time.monotonic() < deadline, [phones[s].locator(f"{DI} .pb-status").inner_text() for s in (helper, hinderer)]
        time.sleep(0.2)
    game = store.load(table_id).game
    spends = [(a.kind, a.seat) for a in game.actions if isinstance(a, (Connect, Defend))]
    assert sorted(spends) == sorted([("connect", helper), ("defend", hinderer)])  # each once
    final = game.state.attempt.pool
    assert len(game.state.attempt.pools) == 3 and game.state.attempt.pools[0] == pool  # the stake, then one pool per spend
    for seat in (helper, hinderer):
        said = phones[seat].locator(f"{DI} .pb-status").inner_text()
        assert "✋" not in said and "moved on" not in said, said
    # Every page shows the pool as it now stands: the board too, with its odds.
    for page in (*phones.values(), board):
        expect(page.locator(f"{DI} .pb-board-scene, {DI} .pb-pool").first).to_contain_text(str(final), timeout=20_000)
    expect(board.locator(f"{DI} .pb-board-scene")).to_contain_text("to succeed")
    # No other page received the bystander's draft, a seat's key, or the board's and join keys.
    meta = store.load(table_id).meta
    keys = [meta["facilitator_key"], meta["join_key"], *meta["seat_keys"].values()]
    for seat, phone in phones.items():
        quiet(phone, frames[seat])
    quiet(board, board_frames)
    for seat in (actor, helper, hinderer):
        received = "\n".join(frames[seat])
        assert frames[seat] and DRAFT not in received
        assert not [k for k in keys if k in received and k != meta["seat_keys"][str(seat)]]
    seen = "\n".join(board_frames)  # the board shows the join code while seats are free: not the seats' keys
    assert DRAFT not in seen and not [k for k in (meta["facilitator_key"], *meta["seat_keys"].values()) if k in seen]
    # Everyone passes from their own phone: the dice roll, on the board.
    for phone in phones.values():
        phone.locator(f"{DI} .pb-pass").click()
        time.sleep(0.3)
    expect(board.locator(f"{DI} .pb-board-scene .pb-roll")).to_be_visible(timeout=20_000)
