"""Seat links, headless: each player's own page on their own device, kept live by `refresh`."""

from __future__ import annotations

import asyncio
import concurrent.futures
import html
import urllib.parse

import ipywidgets as widgets
import pytest

from playbook.store import Store
from tests.test_widgets_leerdam import everything, pledge
from tests.test_widgets_leerdam import start as start_leerdam
from tests.test_widgets_new_rule import find, one, secrets_of, start, synced_text
from widgets import common
from widgets.leerdam import LeerdamDashboard
from widgets.new_rule import NewRuleDashboard


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path / "tables.sqlite3")


def links(dash: common.TableDashboard) -> dict[int, str]:
    """Seat -> the query of its link, read from the seat links card's HTML."""
    found = {}
    for part in html.unescape(dash.seat_links.value).split('href="?')[1:]:
        query = part.split('"', 1)[0]
        found[int(urllib.parse.parse_qs(query)["seat"][0])] = query
    return found


def seat_page(store: Store, query: str) -> NewRuleDashboard:
    return NewRuleDashboard(store, query=query)


def visible(widget: widgets.Widget) -> bool:
    return widget.layout.display != "none"


# -- the facilitator's links --------------------------------------------------------------------


def test_a_started_table_lists_one_secret_link_per_human_seat(store):
    dash = NewRuleDashboard(store, query="")
    assert not visible(dash.seat_links)  # nothing in the lobby
    start(dash, bots={2: "random"})
    meta = store.info(dash.table_id).meta
    assert meta["bots"] == {"2": "random"}
    keys = meta["seat_keys"]
    assert set(keys) == {"0", "1", "2"} and len(set(keys.values())) == 3
    assert visible(dash.seat_links) and "pb-seat-links" in dash.seat_links._dom_classes
    found = links(dash)
    assert sorted(found) == [0, 1]  # the bot needs no page
    for seat, query in found.items():
        assert urllib.parse.parse_qs(query) == {"table": [dash.table_id], "seat": [str(seat)], "key": [keys[str(seat)]]}

    dash.show_lobby()
    assert not visible(dash.seat_links) and dash.seat_links.value == ""


def test_three_human_seats_give_three_links(store):
    dash = NewRuleDashboard(store, query="")
    start(dash)
    assert sorted(links(dash)) == [0, 1, 2]


def test_an_older_table_gets_keys_when_resumed(store):
    dash = NewRuleDashboard(store, query="")
    start(dash)
    store.set_meta(dash.table_id, {"bots": {}})
    other = NewRuleDashboard(store, query="")
    other.resume(dash.table_id)
    assert sorted(links(other)) == [0, 1, 2]
    assert set(store.info(dash.table_id).meta["seat_keys"]) == {"0", "1", "2"}


# -- a seat page -------------------------------------------------------------------------------


def test_a_seat_page_shows_its_own_seat_and_nothing_of_the_others(store):
    host = NewRuleDashboard(store, query="")
    start(host)
    pages = {seat: seat_page(store, query) for seat, query in links(host).items()}
    first = pages[0]
    assert first.seat == 0 and first.table_id == host.table_id
    one(first, "pb-draw").click()  # seat 0 draws on its own device: a secret of seat 0
    assert "You drew" in synced_text(first)

    page = pages[1]
    page.refresh()
    assert page.seat == 1 and page.curtain.locked == 1
    assert find(page, "pb-seat-1") and not find(page, "pb-seat-0") and not find(page, "pb-seat-2")
    assert not find(page, "pb-picker") and not find(page, "pb-start")  # no lobby, no other table
    assert 'data-seat="1"' in synced_text(page)
    page.curtain.choose(0)  # even by script, another seat's panel does not open
    page.curtain.hide()
    assert page.curtain.seat == 1
    text = synced_text(page)
    assert 'data-seat="0"' not in text and 'data-seat="2"' not in text and "You drew" not in text
    for secret in secrets_of(first, 0):
        assert secret not in text
    assert "base64" not in text and "pb-download-link" not in text  # no save file: it holds every bowl
    assert not visible(page.savebar) and not visible(page.new_game_button)
    assert page.seat_links.value == "" and not visible(page.seat_links)
    # The table's own controls are hidden; a hand-made click on them is refused as well.
    moves = len(page.game.actions)
    page.offer_download()
    page.undo()
    one(page, "pb-new-game").click()
    page.load_file(host.game.to_json().encode())
    assert page.status.kind == "refuse" and "Bo's" in page.status.message
    assert page.table_id == host.table_id and len(page.game.actions) == moves and page.seat == 1
    assert "base64" not in synced_text(page)


def test_a_wrong_key_or_unknown_table_opens_nothing_private(store):
    host = NewRuleDashboard(store, query="")
    start(host)
    good = links(host)
    key_1 = urllib.parse.parse_qs(good[1])["key"][0]
    bad_queries = [
        f"table={host.table_id}&seat=1&key=wrong",
        f"table={host.table_id}&seat=2&key={key_1}",  # seat 1's key for another seat
        f"table={host.table_id}&seat=9&key={key_1}",
        f"table=nosuchtable&seat=1&key={key_1}",
    ]
    for query in bad_queries:
        page = seat_page(store, query)
        assert page.game is None and page.seat is None, query
        assert page.status.kind == "refuse", query
        assert find(page, "pb-picker")  # back in the lobby
        assert 'data-seat="' not in synced_text(page)
    # A plain table link opens the table like its Resume button: no seat, no lock.
    page = seat_page(store, f"table={host.table_id}")
    assert page.table_id == host.table_id and page.seat is None and page.curtain.locked is None


def test_moves_on_seat_pages_reach_the_other_pages_after_refresh(store):
    host = NewRuleDashboard(store, query="")
    start(host)
    pages = {seat: seat_page(store, query) for seat, query in links(host).items()}
    one(pages[0], "pb-draw").click()
    one(pages[0], "pb-keep").click()
    assert pages[0].status.kind != "refuse", pages[0].status.message

    assert host.refresh() is True
    assert host.game.actions == pages[0].game.actions
    assert "Bo" in one(host, "pb-turn").value
    assert host.refresh() is False  # nothing new

    page = pages[1]
    panel = page.curtain.panel.children
    assert page.refresh() is True
    assert find(page, "pb-draw")
    fresh = page.curtain.panel.children
    assert page.refresh() is False and page.curtain.panel.children == fresh  # nothing changed: panel kept
    assert panel != fresh
    one(page, "pb-draw").click()
    assert page.seat == 1 and page.curtain.seat == 1  # still a seat page after its own move


def test_another_seats_move_keeps_a_half_chosen_pick(store):
    host = NewRuleDashboard(store, query="")
    start(host)
    pages = {seat: seat_page(store, query) for seat, query in links(host).items()}
    for seat in range(3):
        pages[seat].refresh()
        one(pages[seat], "pb-draw").click()
        one(pages[seat], "pb-keep").click()
    for page in pages.values():
        page.refresh()
    assert host.refresh() and host.game.state.phase == "pick"
    colour = one(pages[1], "pb-pick-colour")
    chosen = colour.options[-1][1]
    assert chosen != colour.value
    colour.value = chosen  # seat 1 is still making up its mind...
    one(pages[0], "pb-pick").click()  # ...when seat 0 picks on its own device
    assert pages[1].refresh() is True
    assert one(pages[1], "pb-pick-colour").value == chosen
    one(pages[1], "pb-pick").click()
    assert pages[1].game.actions[-1].colour == chosen and pages[1].game.actions[-1].seat == 1


def test_polling_refreshes_inside_a_running_event_loop(store, monkeypatch):
    monkeypatch.setattr(common, "POLL_SECONDS", 0.02)
    host = NewRuleDashboard(store, query="")
    start(host)
    assert host._poller is None  # not in a kernel: tests call refresh themselves
    monkeypatch.setattr(common, "_in_kernel", lambda: True)

    async def play() -> None:
        host.resume(host.table_id)  # opened inside the loop: it polls
        assert host._poller is not None
        page = seat_page(store, links(host)[0])
        one(page, "pb-draw").click()
        for _ in range(100):
            await asyncio.sleep(0.02)
            if len(host.game.actions) == len(page.game.actions):
                break
        assert host.game.actions == page.game.actions
        page.close()
        host.close()
        assert host._poller is None and page._poller is None

    # A thread of its own: Playwright's sync API may hold a running loop in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, play()).result(timeout=30)


# -- Leerdam -------------------------------------------------------------------------------------


def test_a_leerdam_pledge_on_a_seat_page_shows_as_pledged_never_how_much(store):
    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=("Ana", "Bo", "Cy"), bots={})
    seat_links = links(host)
    assert sorted(seat_links) == [0, 1, 2]
    page = LeerdamDashboard(store, query=seat_links[1])
    assert page.seat == 1
    assert not find(page, "pb-seat-0") and not find(page, "pb-seat-2")
    assert not visible(page.facilitator) and not visible(page.savebar) and not visible(page.seat_links)
    assert page.advance() is False and page.status.kind == "refuse"
    one(page, "pb-pledge").value = 3
    one(page, "pb-pledge-confirm").click()
    assert "Your secret pledge: 3" in everything(page)

    assert host.refresh() is True
    assert "Pledged: 1 of 3" in one(host, "pb-pledged-count").value
    text = everything(host)
    assert "Your secret pledge" not in text and "data-seat-pledge" not in text and "Bo: 3" not in text

    other = LeerdamDashboard(store, query=seat_links[0])
    assert "Your secret pledge" not in everything(other) and "Bo: 3" not in everything(other)
    # Hot seat on the projector still works beside the seat pages.
    pledge(host, 0, 1)
    pledge(host, 2, 2)
    assert page.refresh() is True
    assert find(page, "pb-alloc-confirm")  # the year moved on to the allocation on Bo's device
