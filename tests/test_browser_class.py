"""A class on their own devices, in headless Chromium: board, seats and facilitator of one table.

Each page is a browser context of its own (a device: no shared cookies or storage) on a Voila
server with its own table store; tables are made in that store as `playbook table new` does.
"""

from __future__ import annotations

import json
import os
import re
import signal
import urllib.parse
from pathlib import Path

import pytest
from playwright.sync_api import expect

from playbook.serve import NOTEBOOKS_DIR
from playbook.store import Play, Store
from rules import leerdam as ld
from rules import new_rule as nr
from tests.support.browser import LOAD_TIMEOUT_MS, Devices, VoilaFactory, kernel_id, open_dashboard, quiet, recorded
from tests.support.tables import make_table

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

LEERDAM = ".playbook-leerdam"
NEW_RULE = ".playbook-new-rule"


# -- a Leerdam year: a board and five phones, every pledge at once ---------------------------------


# Once in three loaded runs on 2026-12-02 one of the five pledges never reached the store (its
# page still showed the pledge button, no message): not yet understood, so it may run twice.
@pytest.mark.flaky(reruns=1)
def test_a_board_and_five_seat_pages_play_a_leerdam_year_with_every_pledge_at_once(voila: VoilaFactory, devices: Devices) -> None:
    server = voila(NOTEBOOKS_DIR / "leerdam.ipynb")
    store = Store(server.db_path)
    names = ("Ana", "Bo", "Cy", "Di", "Ed")
    table_id, links = make_table(store, "leerdam", names)
    board = devices.page(1366, 768)
    open_dashboard(board, server.url + links["board"], f"{LEERDAM}.playbook-board .pb-dyke")
    expect(board.locator(".pb-join-code svg")).to_be_visible()
    phones = []
    for seat in range(5):
        phone = devices.page()
        open_dashboard(phone, server.url + links["seats"][seat]["url"], f"{LEERDAM}.playbook-seat .pb-pledge-confirm")
        phones.append(phone)
    for seat, phone in enumerate(phones):
        phone.locator(f"{LEERDAM} .pb-pledge input").fill(str(1 + seat % 2))
    # One phone reloads midway: it comes back as the same seat, its pledge still to make.
    phones[2].reload()
    open_dashboard(phones[2], phones[2].url, f"{LEERDAM}.playbook-seat .pb-pledge-confirm")
    phones[2].locator(f"{LEERDAM} .pb-pledge input").fill("1")
    # Every pledge at the same moment: five clicks in a row, before any kernel has answered.
    buttons = [phone.locator(f"{LEERDAM} .pb-pledge-confirm") for phone in phones]
    for button in buttons:
        button.click(no_wait_after=True)
    for page in phones:
        expect(page.locator(f'{LEERDAM} .pb-reveal [data-revealed="1"]')).to_be_visible(timeout=20_000)
    # The board by phase: the reveal is the centre of its screen.
    expect(board.locator(f"{LEERDAM} .pb-board-scene .pb-reveal-total")).to_have_attribute("data-total", "7", timeout=20_000)
    for phone in phones:
        said = phone.locator(f"{LEERDAM} .pb-status").inner_text()
        assert "✋" not in said, said
    state = store.load(table_id).game.state
    assert [r.contribution for r in state.ledger if r.year == 1] == [1, 2, 1, 2, 1]
    refused = [c for c in store.changes(table_id) if c["kind"] == "play"]
    assert len(refused) == 5  # five pledges, each stored once, none refused
    # The year goes on: each phone allocates, and the board shows year 2.
    for phone in phones:
        phone.locator(f"{LEERDAM} .pb-alloc-confirm").first.click()
    expect(board.locator(f"{LEERDAM} .pb-board-scene .pb-fact").first).to_contain_text(re.compile(r"Year\s*2"), timeout=20_000)


# -- what reaches a page: websocket frames and the HTML ----------------------------------------------


def _secrets(store: Store, table_id: str, seat: int) -> list[str]:
    """What seat `seat`'s page may not receive: other seats' private lines and every key but its own."""
    table = store.load(table_id)
    meta = table.meta
    own = meta["seat_keys"][str(seat)]
    keys = [meta["facilitator_key"], meta["board_key"], meta["join_key"], *(k for k in meta["seat_keys"].values() if k != own)]
    lines = [str(e.text) for e in table.game.state.log if e.visible_to is not None and seat not in e.visible_to]
    assert lines, "the test needs another seat's secret to look for"
    return keys + lines + [json.dumps(line)[1:-1] for line in lines]


@pytest.mark.parametrize("slug, notebook, root", [("new-rule", "new_rule.ipynb", NEW_RULE), ("leerdam", "leerdam.ipynb", LEERDAM)])
def test_a_seat_page_receives_no_other_seats_secret_and_no_key(voila: VoilaFactory, devices: Devices, slug: str, notebook: str, root: str) -> None:
    server = voila(NOTEBOOKS_DIR / notebook)
    store = Store(server.db_path)
    table_id, links = make_table(store, slug, ("Anneliese", "Bartholomew", "Cyrano", "Dorothea", "Evander"))
    # Another seat's secret: New Rule's first draw and every dealt hand; a Leerdam pledge.
    if slug == "new-rule":
        table = store.submit(table_id, Play(nr.Draw(seat=0)), store.version(table_id)).table
    else:
        table = store.submit(table_id, Play(ld.Contribute(seat=0, units=4)), store.version(table_id)).table
    secrets = _secrets(store, table_id, 1)
    meta = table.meta
    pages = {
        "seat 1": links["seats"][1]["url"],
        "edited seat link": f"?table={table_id}&seat=0&key={meta['seat_keys']['1']}",
        "wrong key": f"?table={table_id}&seat=0&key={meta['seat_keys']['0'][:-2]}xx",
        "plain address": "",
        "plain table link": f"?table={table_id}",
    }
    for name, query in pages.items():
        page = devices.page()
        frames = recorded(page)
        response = page.goto(server.url + query, wait_until="domcontentloaded")
        html = response.text() if response is not None else ""
        page.locator("#rendered_cells").wait_for(state="visible")
        page.locator(f"{root}.playbook-root").first.wait_for(state="visible")
        if name == "seat 1":
            expect(page.locator(f"{root}.playbook-seat .playbook-private")).to_be_visible()
        else:
            expect(page.locator(f"{root} .playbook-private [data-seat]")).to_have_count(0)
        quiet(page, frames)  # every widget's state has arrived
        received = html + "\n".join(frames) + page.content()
        assert frames, "no websocket frame was read"
        for secret in secrets:
            assert secret not in received, (name, secret[:40])
        if name != "seat 1":
            assert meta["seat_keys"]["1"] not in "\n".join(frames), name


# -- a kernel killed under a seat page ---------------------------------------------------------------


def _kernel_pid(server, kernel: str) -> int:
    """The process of kernel `kernel` among the Voila server's children (its connection file
    names it)."""
    from playbook.serve import _descendants

    seen = []
    for pid, _ in _descendants(server.process.pid):
        try:
            args = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        seen.append(args)
        if kernel in args:
            return pid
    raise AssertionError(f"no process for kernel {kernel} among {seen}")


def test_a_kernel_killed_under_a_seat_page_is_said_and_the_table_reopens(voila: VoilaFactory, devices: Devices) -> None:
    server = voila(NOTEBOOKS_DIR / "leerdam.ipynb")
    store = Store(server.db_path)
    table_id, links = make_table(store, "leerdam", ("Ana", "Bo", "Cy", "Di", "Ed"))
    phone = devices.page()
    url = server.url + links["seats"][1]["url"]
    open_dashboard(phone, url, f"{LEERDAM}.playbook-seat .pb-pledge-confirm")
    first = kernel_id(phone)
    # The kernel is frozen before the press and killed after it: the press goes into the void
    # (a kernel killed first can be noticed, and the page reopened, before the press is made).
    kernel = _kernel_pid(server, first)
    os.kill(kernel, signal.SIGSTOP)
    phone.locator(f"{LEERDAM} .pb-pledge input").fill("2")
    phone.locator(f"{LEERDAM} .pb-pledge-confirm").click()  # into the void: it must not be lost silently
    os.kill(kernel, signal.SIGKILL)
    # The page reloads by itself, as the same seat, with a kernel of its own, and says what the
    # press may have missed (reconnect.js).
    note = phone.locator("#playbook-back")
    expect(note).to_contain_text("This page was reopened", timeout=LOAD_TIMEOUT_MS)
    expect(note).to_contain_text("\u201cPledge in secret\u201d (1 press), pressed just before, may not have reached the table")
    expect(phone.locator("#playbook-lost")).to_have_count(0)
    phone.locator(f"{LEERDAM}.playbook-seat .pb-pledge-confirm").wait_for(state="visible", timeout=LOAD_TIMEOUT_MS)
    # The same seat, by the link this device was given when it opened the slip (the slip's key is spent).
    query = urllib.parse.parse_qs(urllib.parse.urlparse(phone.url).query)
    assert kernel_id(phone) != first and query["seat"] == ["1"] and query["key"] == [store.info(table_id).meta["seat_keys"]["1"]]
    assert f"key={query['key'][0]}" not in links["seats"][1]["url"]
    assert store.load(table_id).game.state.pledges[1] is None  # the lost click changed nothing
    phone.locator(f"{LEERDAM} .pb-pledge input").fill("2")
    phone.locator(f"{LEERDAM} .pb-pledge-confirm").click()
    expect(phone.locator(f"{LEERDAM} .playbook-private")).to_contain_text("Your secret pledge: 2", timeout=15_000)
    assert store.load(table_id).game.state.pledges[1] == 2  # the next click is kept


# -- the facilitator's page -----------------------------------------------------------------------------


def test_a_started_table_gives_the_facilitator_every_link_and_a_phone_joins_by_the_code(voila: VoilaFactory, devices: Devices) -> None:
    server = voila(NOTEBOOKS_DIR / "new_rule.ipynb")
    host = devices.page(1366, 768)
    open_dashboard(host, server.url, NEW_RULE)
    host.locator(f"{NEW_RULE} .pb-players").first.locator("text=3").click()
    for seat, name in enumerate(("Ana", "Bo", "Cy")):
        host.locator(f"{NEW_RULE} .pb-name-{seat} input").fill(name)
    host.locator(f"{NEW_RULE} .pb-start").first.click()
    expect(host.locator(f"{NEW_RULE} .pb-round")).to_contain_text("Round 1")
    expect(host.locator(f"{NEW_RULE}.playbook-facilitator")).to_be_visible()
    expect(host).to_have_url(re.compile("facilitator="))  # a reload reopens the table, as its facilitator
    expect(host.locator(f"{NEW_RULE} .pb-class a[data-link-seat]")).to_have_count(3)
    join = host.locator(f"{NEW_RULE} .pb-join-link").evaluate("a => a.href")
    board = host.locator(f"{NEW_RULE} .pb-board-link").evaluate("a => a.href")
    projector = devices.page(1920, 1080)
    open_dashboard(projector, board, f"{NEW_RULE}.playbook-board")
    expect(projector.locator(".pb-join-code svg")).to_be_visible()
    phone = devices.page()
    open_dashboard(phone, join, f"{NEW_RULE}.playbook-join .pb-claim-0")
    phone.locator(f"{NEW_RULE} .pb-claim-0").click()
    expect(phone.locator(f"{NEW_RULE}.playbook-seat .pb-draw")).to_be_visible()
    expect(phone).to_have_url(re.compile(r"key=(?!.*join=)"))  # the phone keeps its seat
    assert "join=" not in phone.url
    phone.locator(f"{NEW_RULE} .pb-draw").click()
    phone.locator(f"{NEW_RULE} .pb-keep").click()
    # The other pages follow without a click.
    expect(host.locator(f"{NEW_RULE} .pb-turn")).to_contain_text("Bo", timeout=5_000)
    expect(projector.locator(f"{NEW_RULE} .pb-board-scene .pb-drawer")).to_contain_text("Bo", timeout=5_000)
    phone.reload()
    expect(phone.locator(f"{NEW_RULE}.playbook-seat .playbook-private")).to_be_visible()
