"""The server's page budget (`playbook.budget`): no device in the room can fill the teacher's
laptop with kernels, and the class's own devices always find room."""

from __future__ import annotations

import http.client
import threading
import time
from pathlib import Path

import pytest

from playbook import classes as cl
from playbook.budget import LOOPBACK, PageBudget, client_of, default_max_pages, may_show_key, room_full_page, shows_key
from playbook.links import CLASS_PAGE, class_query, table_query
from playbook.page_kernel import PAGE_KERNEL
from playbook.serve import _descendants, background_server
from playbook.store import Store
from rules.games import CARDS
from tests.support.tables import make_table

PHONE, OTHER, THIRD = "10.0.0.21", "10.0.0.22", "10.0.0.23"


class Clock:
    def __init__(self) -> None:
        self.kernels = 0
        self.ready = False


def budget(most: int = 20, **kwargs: object) -> tuple[PageBudget, Clock]:
    state = Clock()
    return PageBudget(most, kernels=lambda: state.kernels, ready=lambda notebook: state.ready, **kwargs), state  # type: ignore[arg-type]  # kwargs are PageBudget's own fields


def test_the_default_budget_is_what_free_memory_holds_but_never_less_than_the_class() -> None:
    assert default_max_pages(35, 30, 8 * 1024) == (8 * 1024 - 1024) // 45  # an 8 GB laptop: 159 pages
    assert default_max_pages(35, 30, 2 * 1024) == 35 + 30 + 3  # short of memory: the class still fits
    assert default_max_pages(5, 0, None) == 4 * 8  # memory unknown


def test_only_a_proxy_on_the_laptop_may_say_who_it_serves() -> None:
    assert client_of("10.0.0.5", {"X-Real-IP": "10.0.0.99"}) == "10.0.0.5"  # a phone cannot name another
    assert client_of("127.0.0.1", {"X-Real-IP": "10.0.0.99"}) == "10.0.0.99"  # nginx on the laptop
    assert client_of("::1", {}) == "::1" and "::1" in LOOPBACK


def test_a_client_may_have_a_few_pages_loading_without_a_key_and_others_are_not_held_back() -> None:
    pages, _ = budget(per_client=4)
    for kernel in range(4):
        assert pages.admit(PHONE, False, CLASS_PAGE) == ""
        pages.served(f"k{kernel}", PHONE, False, 0.0)
    assert pages.admit(PHONE, False, CLASS_PAGE) == "client"
    assert pages.admit(OTHER, False, CLASS_PAGE) == ""  # another phone in the room
    assert pages.admit(PHONE, True, CLASS_PAGE) == ""  # its own seat, by its key
    pages.served("k9", "127.0.0.1", False, 0.0)  # the laptop itself is not counted per client
    assert [pages.admit("127.0.0.1", False, CLASS_PAGE) for _ in range(6)] == [""] * 6
    assert pages.turned_away == {"client": 1}


def test_pages_without_a_key_stop_short_of_the_budget_and_the_class_keeps_its_reserve() -> None:
    pages, kernels = budget(most=20)
    assert pages.reserve == 3
    kernels.kernels = 17
    assert pages.admit(THIRD, False, CLASS_PAGE) == "full"
    assert pages.admit(THIRD, True, "leerdam.ipynb") == ""  # a claimed seat, the board
    kernels.kernels = 20
    assert pages.admit(THIRD, True, "leerdam.ipynb") == "full"
    kernels.ready = True  # a ready kernel waits: taking it starts none
    assert pages.admit(THIRD, True, "leerdam.ipynb") == ""


def test_a_page_that_never_connects_goes_once_its_device_is_quiet_but_a_loading_phone_keeps_it() -> None:
    pages, _ = budget(gone_seconds=30.0)
    pages.served("script", PHONE, False, 0.0)
    pages.served("slow", OTHER, False, 0.0)
    pages.served("quick", THIRD, False, 0.0)
    pages.served("seat", THIRD, True, 0.0)  # a page with a key is not watched
    connected = {"quick"}
    for second in range(0, 60, 5):
        pages.seen(OTHER, float(second))  # the slow phone still fetches its page's files
        ended = pages.to_end(float(second), connected.__contains__, ["script", "slow", "quick", "seat"])
        assert ended == (["script"] if second == 30 else []), second
    assert set(pages.loading) == {"slow"}
    assert pages.to_end(95.0, connected.__contains__, ["slow"]) == ["slow"]  # quiet for 35 s
    assert pages.to_end(99.0, connected.__contains__, []) == [] and not pages.loading


def test_the_room_full_page_says_what_happened_and_asks_again_by_itself() -> None:
    page = room_full_page("full", retry_seconds=6)
    assert '<meta http-equiv="refresh" content="6">' in page
    assert "as many pages as this computer can hold" in page and "tries again by itself in 6 seconds" in page
    assert "<script" not in page and "tell your teacher" in page
    assert "several pages opening at once" in room_full_page("client")


def test_a_page_shows_a_key_only_with_one_the_store_knows(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.sqlite3")
    table_id, _ = make_table(store, "leerdam", ("Ana", "Bo", "Cy", "Di", "Ed"))
    meta = store.info(table_id).meta
    record = cl.create_class(store, "new-rule", 6)
    leerdam = CARDS["leerdam"].notebook
    assert not may_show_key(class_query(record.code)) and not may_show_key("")
    assert shows_key(store, CLASS_PAGE, class_query(record.code, board=record.board_key))
    assert shows_key(store, CLASS_PAGE, class_query(record.code, monitor=record.monitor_key))
    assert not shows_key(store, CLASS_PAGE, class_query(record.code, board="made-up"))
    assert not shows_key(store, CLASS_PAGE, class_query("NOSUCH", board=record.board_key))
    assert shows_key(store, leerdam, table_query(table_id, seat=2, key=meta["seat_keys"]["2"]))
    assert shows_key(store, leerdam, table_query(table_id, board=meta["board_key"]))
    assert not shows_key(store, leerdam, table_query(table_id, seat=2, key="made-up"))
    assert not shows_key(store, leerdam, table_query(table_id, join=meta["join_key"]))  # a public slip
    assert not shows_key(store, leerdam, table_query("no-such-table", seat=2, key="x"))
    store.close()


# -- a real server --------------------------------------------------------------------------------


def _get(port: int, path: str, source: str) -> tuple[int, str]:
    """GET `path` from the loopback address `source` (each its own device to the server)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=(source, 0))
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, answer.read().decode("utf-8", "replace")
    finally:
        connection.close()


def _kernels(voila_pid: int) -> int:
    """The server's kernels: its processes running the page kernel."""
    count = 0
    for pid, _ in _descendants(voila_pid):
        try:
            count += PAGE_KERNEL.encode() in Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue  # ended meanwhile
    return count


@pytest.mark.heavy
@pytest.mark.timeout(300)
def test_a_burst_of_keyless_pages_stops_at_the_budget_leaves_no_kernel_and_a_claimed_seat_still_opens(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    store = Store(db)
    _, links = make_table(store, "leerdam", ("Ana", "Bo", "Cy", "Di", "Ed"))
    seat = f"/voila/render/leerdam.ipynb{links['seats'][1]['url']}"
    args = ["--PlaybookVoila.max_pages=10", "--PlaybookVoila.page_gone_seconds=6"]
    with background_server(None, tmp_path / "voila.log", db_path=db, extra_args=args) as server:
        # Four devices (127.0.0.2-5) each ask for the join page six times at once: 24 pages.
        answers: list[tuple[str, int, str]] = []
        lock = threading.Lock()

        def ask(source: str) -> None:
            status, body = _get(server.port, f"/voila/render/{CLASS_PAGE}", source)
            with lock:
                answers.append((source, status, body))

        burst = [threading.Thread(target=ask, args=(f"127.0.0.{2 + n % 4}",)) for n in range(24)]
        for thread in burst:
            thread.start()
        for thread in burst:
            thread.join()
        rendered = [a for a in answers if a[1] == 200]
        away = [a for a in answers if a[1] == 503]
        assert len(rendered) + len(away) == 24, [a[1] for a in answers]
        # At most the budget less the class's reserve (10 - 3), and no device more than four.
        assert 4 <= len(rendered) <= 7, len(rendered)
        assert all(sum(1 for a in rendered if a[0] == source) <= 4 for source, _, _ in answers)
        assert all("The room is full for a moment" in body and "<script" not in body for _, _, body in away)
        assert _kernels(server.process.pid) == len(rendered)

        # The class's own device still opens its seat, from a device of its own.
        status, body = _get(server.port, seat, "127.0.0.9")
        assert status == 200 and "The room is full" not in body

        # A slow phone still fetching its page's files keeps its kernel; the burst's go.
        mine = sum(1 for a in rendered if a[0] == "127.0.0.2")
        deadline = time.monotonic() + 60
        while _kernels(server.process.pid) > 1 + mine and time.monotonic() < deadline:
            _get(server.port, "/voila/static/favicon.ico", "127.0.0.2")  # device .2 keeps asking
            time.sleep(1.0)
        for _ in range(8):  # and keeps its pages past the others' end
            _get(server.port, "/voila/static/favicon.ico", "127.0.0.2")
            time.sleep(1.0)
        left = _kernels(server.process.pid)
        assert left == 1 + mine, (left, mine, server.log_tail())  # the seat and device .2's pages
        deadline = time.monotonic() + 40  # device .2 goes quiet too
        while _kernels(server.process.pid) > 1 and time.monotonic() < deadline:
            time.sleep(1.0)
        assert _kernels(server.process.pid) == 1, server.log_tail()
        # The burst is over: the join page opens again for anyone.
        status, body = _get(server.port, f"/voila/render/{CLASS_PAGE}", "127.0.0.3")
        assert status == 200 and "The room is full" not in body
        assert "Traceback" not in server.log_path.read_text(errors="replace")
    store.close()


def test_playbook_serve_takes_max_pages_or_sizes_the_budget_for_its_class() -> None:
    from playbook.cli import parser
    from playbook.serve import page_budget

    assert page_budget(35, 30, 12)[0] == 12  # --max-pages, as the teacher set it
    most, short = page_budget(35, 30)
    assert most >= 35 + 30 + 3 and short in (0, *range(most))
    assert parser().parse_args(["serve", "--max-pages", "80"]).max_pages == 80
    with pytest.raises(SystemExit):
        parser().parse_args(["serve", "--max-pages", "2"])
