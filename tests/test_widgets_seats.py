"""A class on their own devices, headless: facilitator, board, join and seat pages of one table.

Each page is its own dashboard on the same store, opened with the query its link gives; what a
page's widgets would send a browser is read from their state (`synced_text`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import html
import re
import threading
from typing import ClassVar

import ipywidgets as widgets
import pytest

from playbook.access import key_matches, resolve, table_keys
from playbook.store import Store
from tests.support.headless import everything, find, links, one, seat_query, synced_text, visible
from tests.support.keys import INDEX
from tests.support.leerdam_page import pledge
from tests.support.leerdam_page import start as start_leerdam
from tests.support.new_rule_page import secrets_of, start
from widgets import live as live_module
from widgets import table as table_module
from widgets.leerdam import LeerdamDashboard
from widgets.new_rule import NewRuleDashboard, colour_class


def keys_of(store: Store, table_id: str) -> list[str]:
    meta = store.info(table_id).meta
    return [meta["facilitator_key"], meta["board_key"], meta["join_key"], *meta["seat_keys"].values()]


# -- links and keys ------------------------------------------------------------------------------


def test_a_started_table_is_its_facilitators_page_with_every_link(store):
    host = NewRuleDashboard(store, query="")
    assert host.role == "lobby"
    start(host, bots={2: "random"})
    assert host.role == "facilitator" and "playbook-facilitator" in host._dom_classes
    meta = store.info(host.table_id).meta
    assert meta["bots"] == {"2": "random"}
    keys = keys_of(store, host.table_id)
    assert len(set(keys)) == len(keys) == 6 and all(len(k) >= 22 for k in keys)  # 128 bits each
    # The address bar gets the facilitator's link, so a reload reopens the table.
    assert f"facilitator={meta['facilitator_key']}" in html.unescape(host.navigator.value)
    card = html.unescape(host.class_panel.links_html.value)
    assert visible(host.class_panel) and f"board={meta['board_key']}" in card and f"join={meta['join_key']}" in card
    seats = [html.unescape(r.children[0].value) for r in host.class_panel.rows.children]
    assert len(seats) == 3 and "bot: random" in seats[2]
    for seat, row in enumerate(seats):
        assert f"key={meta['seat_keys'][str(seat)]}" in row
    host.show_lobby()
    assert not visible(host.class_panel) and host.class_panel.links_html.value == ""


def test_links_resolve_to_their_pages_and_anything_else_to_nothing(store):
    host = NewRuleDashboard(store, query="")
    start(host)
    meta = store.info(host.table_id).meta
    found = links(host)

    def role(query: str) -> str:
        return resolve(query, "new-rule", lambda t: (store.info(t).game, store.info(t).meta)).role

    assert role(found["facilitator"]) == "facilitator" and role(found["board"]) == "board" and role(found["join"]) == "join"
    assert role(found["seats"][1]["url"]) == "seat"
    key_1 = meta["seat_keys"]["1"]
    for bad in (
        f"?table={host.table_id}",
        f"?table={host.table_id}&seat=1&key=wrong",
        f"?table={host.table_id}&seat=2&key={key_1}",  # seat 1's key for another seat
        f"?table={host.table_id}&seat=9&key={key_1}",
        f"?table={host.table_id}&board={meta['join_key']}",
        f"?table={host.table_id}&facilitator={meta['board_key']}",
        f"?table=nosuchtable&facilitator={meta['facilitator_key']}",
        f"?table={host.table_id}&facilitator=",
    ):
        assert role(bad) == "denied", bad
    assert role("") == "lobby" and role(INDEX) == "index" and role("?key=wrong") == "lobby"
    assert not key_matches("abc", "abd") and not key_matches("", "") and not key_matches(None, "x")


# -- pages without the right key ---------------------------------------------------------------------


def test_edited_links_and_the_plain_address_show_nothing_of_the_table(store):
    host = NewRuleDashboard(store, query="")
    start(host, names=("Anneliese", "Bartholomew", "Cyrano"))
    one(host, "pb-seat-0").click()
    one(host, "pb-show-private").click()  # the screen asks first: the view is private
    one(host, "pb-draw").click()  # seat 0 now holds a private draw
    meta = store.info(host.table_id).meta
    secrets = secrets_of(host, 0) + keys_of(store, host.table_id) + [n for n in host.game.setup.names]
    for query in ("", f"?table={host.table_id}&seat=1&key=wrong", f"?table={host.table_id}", f"?table={host.table_id}&board={meta['join_key'][:-1]}x"):
        page = NewRuleDashboard(store, query=query)
        text = synced_text(page)
        assert page.game is None and page.table_id is None, query
        for secret in secrets:
            assert secret not in text, (query, secret)
        assert not find(page, "pb-resume")  # no list of tables without the server key


@pytest.mark.parametrize("slug", ["new-rule", "leerdam"])
def test_a_link_without_a_key_opens_nothing_of_a_table_older_than_seat_keys(store, slug):
    # A hidden-information table saved before seat keys: its meta has no key at all.
    from rules import leerdam as ld
    from rules import new_game
    from rules import new_rule as nr

    setup = nr.Setup(names=("Ana", "Bo", "Cy")) if slug == "new-rule" else ld.Setup(names=("Ana", "Bo", "Cy", "Di", "Ed"))
    table_id = store.create(new_game(slug, setup, 3), meta={"bots": {}})
    assert not {"seat_keys", "board_key", "join_key", "facilitator_key"} & set(store.info(table_id).meta)
    queries = [f"?table={table_id}&seat=0", f"?table={table_id}&seat=1&key=", f"?table={table_id}&board=", f"?table={table_id}&join=", f"?table={table_id}&facilitator="]
    for query in queries:
        assert resolve(query, slug, lambda t: (store.info(t).game, store.info(t).meta)).role == "denied", query
    dashboard = NewRuleDashboard if slug == "new-rule" else LeerdamDashboard
    for query in queries:
        page = dashboard(store, query=query)
        assert page.role == "denied" and page.game is None and page.table_id is None and page.seat is None, query
        assert "Ana" not in synced_text(page), query
    assert set(store.info(table_id).meta) == {"bots", "waiting_since"}  # no page gave the table keys on the way (the store keeps when it began to wait)


def test_the_index_lists_tables_only_with_the_server_key(store):
    host = NewRuleDashboard(store, query="")
    start(host)
    index = NewRuleDashboard(store, query=INDEX)
    (button,) = find(index, "pb-resume")
    button.click()
    assert index.role == "facilitator" and index.table_id == host.table_id
    assert "playbook-facilitator" in index._dom_classes


# -- a seat page -------------------------------------------------------------------------------


def test_a_seat_page_shows_its_own_seat_first_and_nothing_of_the_others(store):
    host = NewRuleDashboard(store, query="")
    start(host)
    first = NewRuleDashboard(store, query=seat_query(host, 0))
    one(first, "pb-draw").click()  # seat 0 draws on its own device: a secret of seat 0
    assert "You drew" in synced_text(first)

    page = NewRuleDashboard(store, query=seat_query(host, 1))
    assert page.role == "seat" and "playbook-seat" in page._dom_classes and page.seat == 1
    view = page.screen.children[0]
    assert view.children[:2] == (page.countdown, page.curtain)  # its own panel first (under its time left), then the public view
    assert "playbook-private" in page.curtain.panel._dom_classes
    assert find(page, "pb-seat-1") and not find(page, "pb-seat-0") and not find(page, "pb-seat-2")
    assert not find(page, "pb-picker") and not find(page, "pb-start")
    page.curtain.choose(0)  # even by script, another seat's panel does not open
    text = synced_text(page)
    assert 'data-seat="0"' not in text and "You drew" not in text
    for secret in secrets_of(first, 0) + [k for k in keys_of(store, host.table_id) if not key_matches(k, store.info(host.table_id).meta["seat_keys"]["1"])]:
        assert secret not in text
    assert "base64" not in text and not visible(page.savebar) and not visible(page.class_panel)
    # The table's own controls are refused here even when a hand-made message reaches them.
    moves = len(page.game.actions)
    page.undo()
    page.show_lobby()
    page.load_file(host.game.to_json().encode())
    page.hand_over(0, "random")
    assert page.status.kind == "refuse" and "Bo's own page" in page.status.message
    assert page.act(host.game.state and first.game.actions[-1]) is False  # another seat's move
    assert page.table_id == host.table_id and len(page.game.actions) == moves and page.seat == 1


def test_moves_on_seat_pages_reach_the_other_pages_after_refresh(store):
    host = NewRuleDashboard(store, query="")
    start(host)
    pages = {seat: NewRuleDashboard(store, query=seat_query(host, seat)) for seat in range(3)}
    one(pages[0], "pb-draw").click()
    one(pages[0], "pb-keep").click()
    assert pages[0].status.kind != "refuse", pages[0].status.message
    assert host.refresh() is True and host.game.actions == pages[0].game.actions
    assert "Bo" in one(host, "pb-turn").value
    assert host.refresh() is False  # nothing new

    page = pages[1]
    panel = page.curtain.panel.children
    assert page.refresh() is True and find(page, "pb-draw")
    fresh = page.curtain.panel.children
    assert page.refresh() is False and page.curtain.panel.children == fresh  # nothing changed: panel kept
    assert panel != fresh


def test_another_seats_move_leaves_a_seats_pick_buttons_be(store):
    host = NewRuleDashboard(store, query="")
    start(host)
    pages = {seat: NewRuleDashboard(store, query=seat_query(host, seat)) for seat in range(3)}
    for seat in range(3):
        pages[seat].refresh()
        one(pages[seat], "pb-draw").click()
        one(pages[seat], "pb-keep").click()
    for page in pages.values():
        page.refresh()
    buttons = find(pages[1], "pb-pick")
    assert len(buttons) > 1  # a button per colour held: a pick is one click
    find(pages[0], "pb-pick")[0].click()  # seat 0 picks on its own device while seat 1 looks
    assert pages[1].refresh() is True
    assert find(pages[1], "pb-pick") == buttons  # the same buttons: nothing flickers under a finger
    chosen = buttons[-1]
    colour = next(c for c in chosen._dom_classes if c.startswith("pb-pick-"))[len("pb-pick-"):]
    chosen.click()
    last = pages[1].game.actions[-1]
    assert last.seat == 1 and colour_class(last.colour) == colour


def test_a_seat_page_hears_when_the_facilitator_takes_its_move_back(store):
    host = NewRuleDashboard(store, query="")
    start(host)
    phone = NewRuleDashboard(store, query=seat_query(host, 0))
    one(phone, "pb-draw").click()
    one(phone, "pb-keep").click()
    host.refresh()
    host.undo()
    assert host.status.kind == "ok" and "Ana's keep" in host.status.message
    assert phone.refresh() is True
    assert phone.status.kind == "refuse" and "took back your last move" in phone.status.message


# -- the board ---------------------------------------------------------------------------------------


def test_the_board_is_public_read_only_and_shows_the_join_code(store):
    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=("Ana", "Bo", "Cy", "Di", "Ed"), bots={})
    pledge(host, 0, 4)
    board = LeerdamDashboard(store, query=links(host)["board"])
    assert board.role == "board" and "playbook-board" in board._dom_classes
    assert not find(board, "pb-seat-0") and not find(board, "pb-hide") and not find(board, "pb-pledge")
    assert not visible(board.savebar) and not visible(board.class_panel) and not find(board, "pb-facilitator")
    text = everything(board)
    meta = store.info(host.table_id).meta
    assert "<svg" in board.join_html.value and f"join={meta['join_key']}" in html.unescape(board.join_html.value)
    for secret in (meta["facilitator_key"], meta["board_key"], *meta["seat_keys"].values(), "Your secret pledge", "Ana: 4"):
        assert secret not in text
    # The board by phase: a pledge is in, so the board shows the decision, the join code small.
    assert board.phase_board.last.phase == "decision" and 'class="pb-fact pb-pledged-count"' in board.phase_board.scene.value
    assert "1 of 5" in html.unescape(board.phase_board.scene.value)
    assert board.act(host.game.state and type(host.game.actions[-1])(seat=1, units=1)) is False
    assert board.advance() is False and board.status.kind == "refuse"


# -- joining by the code ---------------------------------------------------------------------------------


def test_a_device_joins_by_the_code_and_a_claimed_seat_cannot_be_claimed_twice(store):
    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=("Ana", "Bo", "Cy"), bots={2: "fair"})
    join = links(host)["join"]
    phone = LeerdamDashboard(store, query=join)
    assert phone.role == "join" and "playbook-join" in phone._dom_classes
    assert find(phone, "pb-claim-0") and find(phone, "pb-claim-1") and not find(phone, "pb-claim-2")  # a bot's seat
    text = synced_text(phone)
    for key in keys_of(store, host.table_id):
        if not key_matches(key, store.info(host.table_id).meta["join_key"]):
            assert key not in text
    slip = links(host)["seats"][1]["url"]
    one(phone, "pb-claim-1").click()
    assert phone.role == "seat" and phone.seat == 1 and "playbook-seat" in phone._dom_classes
    key = store.info(host.table_id).meta["seat_keys"]["1"]
    assert f"key={key}" in html.unescape(phone.navigator.value)  # the address bar keeps the seat
    assert f"key={key}" not in slip  # the claim gave this device a key of its own
    slip_page = LeerdamDashboard(store, query=slip)
    assert slip_page.role == "denied" and "another device" in slip_page.status.message
    one(phone, "pb-pledge").value = 2
    one(phone, "pb-pledge-confirm").click()
    assert phone.status.kind != "refuse" and host.refresh()

    other = LeerdamDashboard(store, query=join)
    assert not find(other, "pb-claim-1") and find(other, "pb-claim-0")
    assert other.claim(1) is False and "open on another device" in other.status.message  # even by script

    # The facilitator releases Bo's seat: the old phone loses it, a new device may join as Bo.
    row = html.unescape(host.class_panel.rows.children[1].children[0].value)
    assert "📱 on a device" in row and key not in row and "pb-seat-link-1" not in row  # a held seat's key stays on its device
    one(host, "pb-release-1").click()
    assert host.status.kind == "ok"
    assert phone.refresh() is True and phone.role == "denied" and phone.game is None
    again = LeerdamDashboard(store, query=join)
    one(again, "pb-claim-1").click()
    assert again.role == "seat" and again.seat == 1


def test_the_facilitator_hands_an_absent_seat_to_a_bot_and_back(store):
    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=("Ana", "Bo", "Cy", "Di", "Ed"), bots={})
    one(host, "pb-bot-3").value = "altruist"
    one(host, "pb-hand-over-3").click()
    assert host.bots == {3: "altruist"} and host.game.state.pledges[3] == 2  # it pledged at once
    one(host, "pb-bot-3").value = ""
    one(host, "pb-hand-over-3").click()
    assert host.bots == {} and host.status.kind == "ok"


# -- live, in an event loop ---------------------------------------------------------------------------------


def test_pages_follow_the_change_signal_inside_a_running_event_loop(store, monkeypatch):
    host = NewRuleDashboard(store, query="")
    start(host)
    assert host.live.task is None  # not in a kernel: tests call refresh themselves
    monkeypatch.setattr(live_module, "in_kernel", lambda: True)

    async def play() -> None:
        host.resume(host.table_id)  # opened inside the loop: it follows the table
        assert host.live.task is not None
        page = NewRuleDashboard(store, query=seat_query(host, 0))
        one(page, "pb-draw").click()
        for _ in range(200):
            await asyncio.sleep(0.02)
            if len(host.game.actions) == len(page.game.actions):
                break
        assert host.game.actions == page.game.actions
        page.close()
        host.close()
        assert host.live.task is None

    # A thread of its own: Playwright's sync API may hold a running loop in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, play()).result(timeout=30)


def test_closing_a_page_wakes_the_thread_waiting_for_the_table(store, monkeypatch):
    monkeypatch.setattr(live_module, "WAIT_SECONDS", 3600.0)  # only `close` can end this wait
    host = NewRuleDashboard(store, query="")
    start(host)
    seen = host.version
    woken: list[int] = []
    closed = host.live.closed
    waiter = threading.Thread(target=lambda: woken.append(live_module.wait_in_slices(lambda t: store.wait(host.table_id, seen, t), seen, closed)), daemon=True)
    waiter.start()
    host.close()
    waiter.join(timeout=60)
    assert woken == [seen], "close() left the page's waiting thread asleep"


def test_a_page_without_a_heartbeat_stops_following_the_table(store, monkeypatch):
    host = NewRuleDashboard(store, query="")
    start(host)
    monkeypatch.setattr(live_module, "in_kernel", lambda: True)
    monkeypatch.setattr(live_module, "QUIET_SECONDS", 0.2)

    async def play() -> None:
        host.resume(host.table_id)
        host.heartbeat.click()
        assert re.search(r'data-beat="1"', host.alive.value)
        await asyncio.sleep(0.5)  # no heartbeat since: the page is gone
        other = NewRuleDashboard(store, query=seat_query(host, 0))
        one(other, "pb-draw").click()
        await asyncio.sleep(0.5)
        assert len(host.game.actions) < len(other.game.actions)  # it stayed quiet
        for _ in range(200):
            host.heartbeat.click()  # the page is back (a laptop woke up), beating: it catches up
            await asyncio.sleep(0.02)
            if len(host.game.actions) == len(other.game.actions):
                break
        assert host.game.actions == other.game.actions, host.status.message
        host.close()
        other.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, play()).result(timeout=30)


# -- Leerdam ------------------------------------------------------------------------------------------


def test_a_leerdam_pledge_on_a_seat_page_shows_as_pledged_never_how_much(store):
    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=("Ana", "Bo", "Cy"), bots={})
    page = LeerdamDashboard(store, query=seat_query(host, 1))
    assert page.seat == 1 and not find(page, "pb-seat-0") and not find(page, "pb-seat-2")
    assert not visible(page.facilitator) and not visible(page.savebar)
    assert page.advance() is False and page.status.kind == "refuse"
    one(page, "pb-pledge").value = 3
    one(page, "pb-pledge-confirm").click()
    assert "Your secret pledge: 3" in everything(page)

    assert host.refresh() is True
    assert "Pledged: 1 of 3" in one(host, "pb-pledged-count").value
    text = everything(host)
    assert "Your secret pledge" not in text and "data-seat-pledge" not in text and "Bo: 3" not in text
    other = LeerdamDashboard(store, query=seat_query(host, 0))
    assert "Your secret pledge" not in everything(other) and "Bo: 3" not in everything(other)
    # Hot seat on the facilitator's page still works beside the seat pages.
    pledge(host, 0, 1)
    pledge(host, 2, 2)
    assert page.refresh() is True
    assert find(page, "pb-alloc-confirm")  # the year moved on to the allocation on Bo's device


def test_a_seat_page_counts_whom_the_table_waits_for_so_its_buttons_stay_put(store):
    """The line above a player's own buttons says "you and 2 others", not the names still to
    move: a list that shortened with every pledge moved the Pledge button under the finger."""
    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=("Ana", "Bo", "Cy", "Di"), bots={})
    page = LeerdamDashboard(store, query=seat_query(host, 1))
    turn = one(page, "pb-turn")
    assert "Secret pledges: waiting for you and 3 others." in turn.value
    pledge(host, 0, 1)
    assert page.refresh() is True
    assert "waiting for you and 2 others." in turn.value and "Cy" not in turn.value and "Di" not in turn.value
    one(page, "pb-pledge").value = 2
    one(page, "pb-pledge-confirm").click()
    assert "Secret pledges: waiting for 2 others." in turn.value
    host.refresh()
    assert "Secret pledges: waiting for Cy and Di." in one(host, "pb-turn").value  # the shared screen names them
    pledge(host, 2, 1)
    assert page.refresh() is True and "waiting for 1 other." in turn.value
    last = LeerdamDashboard(store, query=seat_query(host, 3))
    assert "Secret pledges: waiting for you." in one(last, "pb-turn").value
    # New Rule's secret picks, made at once: counted on a seat page, named on the shared screen.
    nr = NewRuleDashboard(store, query="")
    start(nr, names=("Ana", "Bo", "Cy"), bots={0: "random", 1: "random"})
    seat = NewRuleDashboard(store, query=seat_query(nr, 2))
    for move in ("pb-draw", "pb-keep"):  # the bots draw and keep by themselves
        if seat.game.state.phase != "pick":
            seat.refresh()
            one(seat, move).click()
    assert nr.refresh() and "Secret picks: waiting for Cy." in one(nr, "pb-turn").value
    assert "Secret picks: waiting for you." in one(seat, "pb-turn").value


def test_a_press_on_a_button_the_page_just_replaced_is_said_not_lost(store):
    """A phone a moment behind presses the pledge button its kernel has just replaced: the kernel
    hears of a widget it no longer has (ipykernel asks its comm manager, which finds nothing)."""
    import comm

    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=("Ana", "Bo", "Cy"), bots={})
    page = LeerdamDashboard(store, query=seat_query(host, 1))
    old = one(page, "pb-pledge-confirm")
    old_id, beat_id = old.model_id, page.heartbeat.model_id
    one(page, "pb-pledge").value = 3
    old.click()  # the pledge is made; the panel is rebuilt without the old button
    assert old.comm is None and "Your secret pledge: 3" in everything(page)
    manager = comm.get_comm_manager()
    assert manager.get_comm(old_id) is None  # the same press again, late
    assert page.status.kind == "refuse" and "“Pledge in secret” came just as the screen changed" in page.status.message
    assert sum(type(a).__name__ == "Contribute" for a in store.load(host.table_id).game.actions) == 1  # nothing more made
    page.status.clear()
    assert manager.get_comm(old_id) is None and page.status.message == ""  # said once
    page.heartbeat.close()
    assert manager.get_comm(beat_id) is None and page.status.message == ""  # the page's script beats again by itself
    assert manager.get_comm("never-a-widget") is None and page.status.message == ""
    page.close()
    other = LeerdamDashboard(store, query=seat_query(host, 2))
    lost = one(other, "pb-pledge-confirm")
    lost_id = lost.model_id
    lost.close()
    manager.get_comm(lost_id)
    assert "came just as the screen changed" in other.status.message  # the open page is told, not a closed one


def test_a_leerdam_refusal_stays_with_its_household(store):
    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=("Ana", "Bo", "Cy"), bots={})
    capacity = host.game.state.capacity(1)
    page = LeerdamDashboard(store, query=seat_query(host, 1))
    one(page, "pb-pledge").value = capacity + 2
    one(page, "pb-pledge-confirm").click()
    # Bo's own device: the status line and the panel both say why (it is Bo's screen).
    assert page.status.kind == "refuse" and f"not {capacity + 2}" in page.status.message
    assert f"not {capacity + 2}" in one(page, "pb-panel-status").value
    # The facilitator's page and the board never hear of the secret pledge Bo tried.
    board = LeerdamDashboard(store, query=links(host)["board"])
    for other in (host, board):
        other.refresh()
        assert f"not {capacity + 2}" not in everything(other) and other.status.kind != "refuse"
    # On the facilitator's hot seat a refusal goes to the household's panel only.
    one(host, "pb-seat-0").click()
    one(host, "pb-show-private").click()  # the screen asks first: the view is private
    one(host, "pb-pledge").value = 99
    one(host, "pb-pledge-confirm").click()
    assert "not 99" in one(host, "pb-panel-status").value
    assert host.status.kind != "refuse" and "not 99" not in one(host, "pb-status").value
    one(host, "pb-hide").click()
    assert "not 99" not in everything(host)
    # A later move that works clears the panel's old refusal.
    one(page, "pb-pledge").value = 1
    one(page, "pb-pledge-confirm").click()
    assert page.status.kind != "refuse" and "not" not in one(page, "pb-panel-status").value


def test_an_older_table_gets_its_links_when_resumed(store):
    host = NewRuleDashboard(store, query="")
    start(host)
    meta = store.info(host.table_id).meta
    old = {"bots": {}, "seat_keys": meta["seat_keys"]}
    store.submit(host.table_id, table_module.SetMeta({k: None for k in table_keys(3) if k != "seat_keys"}), store.version(host.table_id))
    assert set(store.info(host.table_id).meta) - {"waiting_since"} == set(old)
    index = NewRuleDashboard(store, query=INDEX)
    index.resume(host.table_id)
    fresh = store.info(host.table_id).meta
    assert {"facilitator_key", "board_key", "join_key"} <= set(fresh) and fresh["seat_keys"] == old["seat_keys"]


# -- seat slips ---------------------------------------------------------------------------------------


def test_seat_slips_are_a_pdf_that_says_what_it_holds_or_a_message_and_no_file(store):
    import base64

    from printables.common import page_count
    from tests.support.pdfs import pages_text

    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=("Ana", "Bo", "Cy", "Di", "Ed"), bots={1: "altruist", 3: "altruist"})
    one(host, "pb-slips").click()
    link = host.class_panel.slips_link.value
    found = re.search(r'href="data:application/pdf;base64,([^"]+)"', link)
    assert found, link
    pdf = base64.b64decode(found.group(1))
    assert page_count(pdf) == 1
    text = pages_text(pdf)[0]
    assert all(name in text for name in ("Ana", "Cy", "Ed")) and "Bo" not in text and "Seat slips" in text
    said = html.unescape(link)
    assert "3 slips: Ana, Cy, Ed (not printed: 2 seats are played by a bot)" in said

    # Every seat a bot: a message, and no file to download.
    bots = LeerdamDashboard(store, query="")
    start_leerdam(bots, names=("Ana", "Bo", "Cy", "Di", "Ed"), bots={i: "altruist" for i in range(5)})
    one(bots, "pb-slips").click()
    assert "data:" not in bots.class_panel.slips_link.value
    assert "No slips to print: 5 seats are played by a bot." in html.unescape(bots.class_panel.slips_link.value)


# -- the facilitator's shared screen -------------------------------------------------------------------


@pytest.mark.parametrize("game", ["leerdam", "new-rule"])
def test_a_seat_on_a_device_has_no_hot_seat_button_and_the_others_ask_first(store, game):
    host = LeerdamDashboard(store, query="") if game == "leerdam" else NewRuleDashboard(store, query="")
    if game == "leerdam":
        start_leerdam(host, names=("Ana", "Bo", "Cy", "Di", "Ed"), bots={})
    else:
        start(host, names=("Ana", "Bo", "Cy"))
    panel = host.curtain.panel
    assert find(host, "pb-seat-1") and visible_in_tree(host, "pb-seat-1")
    phone = type(host)(store, query=seat_query(host, 1))  # Bo opens the seat on a phone: claimed
    assert phone.role == "seat"
    assert host.refresh()
    # Bo's button is gone from the facilitator's page; the others are still there.
    assert not visible_in_tree(host, "pb-seat-1") and visible_in_tree(host, "pb-seat-0")
    host.curtain.choose(1)  # even by script, a held seat's view does not open here
    assert host.curtain.seat is None and panel.children == ()
    # Another seat's button asks first, says the view is private, and shows nothing yet.
    one(host, "pb-seat-0").click()
    assert panel.children == () and visible(one(host, "pb-ask"))
    asked = html.unescape(one(host, "pb-ask-private").value)
    assert "Ana's view is private" in asked and "Only Ana should see this screen" in asked
    one(host, "pb-show-cancel").click()
    assert panel.children == () and not visible(one(host, "pb-ask"))
    one(host, "pb-seat-0").click()
    one(host, "pb-show-private").click()
    assert panel.children and host.curtain.seat == 0 and not visible(one(host, "pb-ask"))
    # Pressing the next seat closes Ana's view before it asks about Cy's.
    one(host, "pb-seat-2").click()
    assert panel.children == () and "Cy's view is private" in html.unescape(one(host, "pb-ask-private").value)
    # Every seat on a device: no seat buttons, and no hint to press one.
    for seat in (0, 2) + ((3, 4) if game == "leerdam" else ()):
        type(host)(store, query=seat_query(host, seat))
    host.refresh()
    assert not any(visible_in_tree(host, f"pb-seat-{seat}") for seat in range(len(host.game.setup.names)))
    assert "Press your seat" not in host.curtain.prompt.value and not visible(one(host, "pb-ask"))


def visible_in_tree(root: widgets.Widget, css: str) -> bool:
    """A widget with class `css` is in the page's tree (reachable from `root`) and not hidden."""
    return any(visible(w) for w in find(root, css))


def test_no_hint_to_press_a_seat_when_there_is_no_seat_button_to_press(store):
    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=("Ana", "Bo", "Cy", "Di", "Ed"), bots={i: "altruist" for i in range(5)}, max_years="2")
    assert host.game.state.over, host.game.state.phase
    assert "Game over" in host.header.turn_html.value
    assert all(one(host, f"pb-seat-{seat}").disabled for seat in range(5))
    assert "Press your seat" not in host.curtain.prompt.value
    people = LeerdamDashboard(store, query="")
    start_leerdam(people, names=("Ana", "Bo", "Cy", "Di", "Ed"), bots={})
    assert "Press your seat" in people.curtain.prompt.value  # a button to press: the hint stays


def test_banners_name_a_table_by_its_title_never_its_id(store):
    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=("Ana", "Bo & <i>Co</i>", "Cy", "Di", "Ed"), bots={})
    table_id = host.table_id
    said = host.status.message
    assert table_id not in said and "New table saved: Leerdam: Ana, Bo & <i>Co</i>, Cy, Di, Ed." in said
    assert "&lt;i&gt;" in host.status.value  # the name is escaped on its way to the page
    pledge(host, 0, 1)
    again = LeerdamDashboard(store, query=links(host)["facilitator"])
    assert table_id not in again.status.message and again.status.message.startswith("Resumed Leerdam: Ana, Bo")
    index = LeerdamDashboard(store, query=INDEX)
    index.load_file(host.game.to_json().encode(), "village.json")
    assert index.table_id not in index.status.message and "Leerdam: Ana, Bo" in index.status.message
    assert all(table_id not in b.tooltip for b in find(LeerdamDashboard(store, query=INDEX), "pb-resume"))


def test_your_notes_say_the_year_or_the_round(store):
    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=("Ana", "Bo", "Cy", "Di", "Ed"), bots={})
    one(host, "pb-seat-0").click()
    one(host, "pb-show-private").click()
    assert "Your notes · year 1" in one(host, "pb-private-log").value
    bowl = NewRuleDashboard(store, query="")
    start(bowl, names=("Ana", "Bo", "Cy"))
    phone = NewRuleDashboard(store, query=seat_query(bowl, 0))
    assert "Your notes · round 1" in one(phone, "pb-private-log").value


# -- what a page sends (widgets.fewer_messages) -------------------------------------------------------


class RecordingComm:
    """Stands in for a kernel's comm: keeps every message a widget would send to the page."""

    sent: ClassVar[list[tuple[str, str, dict]]] = []

    def __init__(self, target_name="", data=None, comm_id=None, **_):
        import uuid

        self.comm_id = comm_id or uuid.uuid4().hex
        self.kernel = True
        RecordingComm.sent.append(("open", self.comm_id, data or {}))

    def send(self, data=None, **_):
        RecordingComm.sent.append(("msg", self.comm_id, data or {}))

    def close(self, *_, **__):
        RecordingComm.sent.append(("close", self.comm_id, {}))

    def on_msg(self, _callback):
        pass

    def on_close(self, _callback):
        pass


@pytest.fixture
def recorded(monkeypatch):
    """Every comm message widgets send, as a kernel would send them (in a running event loop,
    widgets wait for its turn to end, as in a kernel)."""
    import comm

    from widgets import fewer_messages

    RecordingComm.sent = []
    monkeypatch.setattr(comm, "create_comm", RecordingComm)
    monkeypatch.setattr(fewer_messages, "_in_a_kernel", lambda: True)
    return RecordingComm.sent


def _in_a_thread(run):
    """`run()` in a thread of its own: a browser test before this one may have left an event
    loop running in this one, and in a running loop widgets open when its turn ends."""
    from tests.support.browser import beside_playwright

    with beside_playwright(run) as done:
        return done.result()


def _in_a_kernels_turn(build):
    """Run `build()` as a kernel runs a click's handler: inside a running event loop, then let
    the loop's turn end."""
    import asyncio

    async def turn():
        result = build()
        await asyncio.sleep(0)
        return result

    return _in_a_thread(lambda: asyncio.run(turn()))


def test_a_widget_opens_without_its_empty_layout_and_style_and_sends_them_once_used(recorded):
    label = _in_a_thread(lambda: widgets.HTML("<b>Year 1</b>"))
    opened = [m for m in recorded if m[0] == "open"]
    assert len(opened) == 1, "an untouched layout and style are no widgets of their own"
    state = opened[0][2]["state"]
    assert "layout" not in state and "style" not in state and state["value"] == "<b>Year 1</b>"
    assert label.get_state().keys() == state.keys(), "a page asking for every model hears the same"

    recorded.clear()
    label.layout.display = "none"
    kinds = [(kind, data.get("state", {})) for kind, _, data in recorded]
    assert kinds[0][0] == "open" and kinds[0][1]["_model_name"] == "LayoutModel", kinds
    assert ("msg", {"layout": f"IPY_MODEL_{label.layout.model_id}"}) in [(k, d.get("state")) for k, _, d in recorded]
    assert recorded[-1][2]["state"] == {"display": "none"}
    assert label.get_state()["layout"] == f"IPY_MODEL_{label.layout.model_id}"


def test_a_layout_given_is_sent_at_opening(recorded):
    box = _in_a_thread(lambda: widgets.VBox(layout=widgets.Layout(width="300px")))
    box_state = next(d["state"] for kind, _, d in recorded if kind == "open" and d["state"]["_model_name"] == "VBoxModel")
    assert box_state["layout"] == f"IPY_MODEL_{box.layout.model_id}"


def _a_leerdam_seat_link(store) -> str:
    """The second seat's link of a Leerdam table of three just started (its widgets opened)."""

    def host():
        dash = LeerdamDashboard(store, query="")
        start_leerdam(dash, ["Ana", "Bo", "Cy"])
        return dash

    return seat_query(_in_a_thread(host), 1)


def test_a_leerdam_seat_page_is_about_a_hundred_widgets_and_closing_one_makes_none(store, recorded):
    query = _a_leerdam_seat_link(store)
    recorded.clear()
    page = _in_a_thread(lambda: LeerdamDashboard(store, query=query))
    opened = [m for m in recorded if m[0] == "open"]
    # 195 with a layout and a style for every widget; every one is a message to each phone
    assert len(opened) <= 120, len(opened)
    assert sum(1 for _, _, d in opened if d["state"]["_model_name"] == "LayoutModel") <= 30
    recorded.clear()
    from widgets.common import close_tree

    close_tree([page])
    assert not [m for m in recorded if m[0] == "open"], "closing reads no part into being"


def test_in_a_kernel_a_seat_page_opens_each_widget_once_children_first_and_sends_no_update_to_them(store, recorded):
    from ipywidgets.widgets.widget import _instances

    query = _a_leerdam_seat_link(store)
    opened = set(_instances)  # what the page may hold that was made before
    recorded.clear()
    _in_a_kernels_turn(lambda: LeerdamDashboard(store, query=query) and None)
    for kind, comm_id, data in recorded:
        assert kind == "open", f"an update to a widget just made: {data}"  # 99 of them before
        # whatever a widget holds (children, layout) reached the page before it
        held = re.findall(r"IPY_MODEL_([0-9a-f]{32})", str(data["state"]))
        assert set(held) <= opened, data["state"]
        opened.add(comm_id)
    assert 80 <= len(recorded) <= 120, len(recorded)


def test_a_widget_closed_in_the_turn_it_was_made_never_reaches_the_page_and_a_displayed_one_opens_at_once(recorded):
    def build():
        gone = widgets.HTML("gone")
        gone.close()
        shown = widgets.Button(description="Join")
        bundle = shown._repr_mimebundle_()
        assert [d["state"].get("description") for k, _, d in recorded if k == "open"] == ["Join"]
        return bundle["application/vnd.jupyter.widget-view+json"]["model_id"]

    shown_id = _in_a_kernels_turn(build)
    assert [(kind, comm_id) for kind, comm_id, _ in recorded] == [("open", shown_id)]


def test_a_widget_closed_after_it_opened_is_not_opened_again_by_asking_its_id(recorded):
    def build():
        label = widgets.HTML("once")
        label.model_id  # noqa: B018 - opened
        label.close()
        with pytest.raises(AttributeError):
            label.model_id  # noqa: B018 - as ipywidgets: a closed widget has no id
        return label

    _in_a_kernels_turn(build)
    assert [kind for kind, _, _ in recorded] == ["open", "close"]


def test_a_widget_whose_id_another_thread_asks_for_opens_once_and_its_turn_still_ends(recorded):
    async def turn():
        label = widgets.HTML("asked from elsewhere")
        with concurrent.futures.ThreadPoolExecutor(1) as other:
            asked = other.submit(lambda: label.model_id).result()
        await asyncio.sleep(0)  # the turn ends: the widgets still waiting open
        return asked

    answer: list[str] = []
    # A daemon thread: a widget left on its own thread's list once opened elsewhere kept the
    # turn's end asking for it forever (a page that never answers again), and this test must
    # fail then, not hang the suite.
    kernel = threading.Thread(target=lambda: answer.append(asyncio.run(turn())), daemon=True)
    kernel.start()
    kernel.join(timeout=20)
    assert answer, "the kernel's turn never ended"
    assert [(kind, comm_id) for kind, comm_id, _ in recorded] == [("open", answer[0])]


def test_outside_a_kernel_a_widget_made_in_a_running_loop_opens_at_once(monkeypatch):
    """Playwright's sync API leaves a loop running in a test's thread: a widget made there must
    not wait for a turn that comes only with the next browser call (at the session's end, a
    page's widgets waited for a store already gone)."""
    import comm

    RecordingComm.sent = []
    monkeypatch.setattr(comm, "create_comm", RecordingComm)

    async def made():
        label = widgets.HTML("now")
        return label, [kind for kind, _, _ in RecordingComm.sent]

    label, sent = _in_a_thread(lambda: asyncio.run(made()))
    assert sent == ["open"] and label.comm is not None
