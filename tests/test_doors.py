"""No page can sink the lesson (issue 33): a kernel answers only the page it was given to, and
wrong room codes are slowed per client while a live code opens at once (`playbook.doors`).

Against a real server: a page in Chromium plays; a second client with a made-up XSRF cookie
and header cannot end, inspect or connect to its kernel; the page's own unload still shuts it
down. Thirty wrong room codes from one client are slowed, another client at the same time is
not, and a live code opens at once for both.
"""

from __future__ import annotations

import base64
import http.client
import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from benchmarks.bare_button import BUTTON_CLASS, CLICKED, NOTEBOOK
from playbook import classes as cl
from playbook.doors import OWNER_COOKIE_PREFIX, KernelOwners, WrongCodes, client_of
from playbook.serve import RunningServer, background_server, free_port
from playbook.store import Store
from tests.support.browser import LOAD_TIMEOUT_MS, VoilaFactory, kernel_id, open_dashboard
from tests.support.headless import one
from tests.support.keys import SERVER_KEY
from tests.support.nginx import need_nginx, running_nginx
from widgets.classroom import ClassPage

# -- without a server ----------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_wrong_codes_are_free_up_to_a_few_a_minute_then_wait_longer_each_time_up_to_a_cap() -> None:
    clock = Clock()
    codes = WrongCodes(free=5, window=60, first=1, most=10, clock=clock)
    waits = [codes.wrong("10.0.0.5") for _ in range(10)]
    assert waits == [0, 0, 0, 0, 0, 1, 2, 4, 8, 10]
    assert codes.wrong("10.0.0.6") == 0  # another client: not slowed
    assert codes.recent("10.0.0.5") == 10
    clock.now += 61  # a minute later the count starts again
    assert codes.recent("10.0.0.5") == 0 and codes.wrong("10.0.0.5") == 0


def test_the_table_of_clients_forgets_after_ten_minutes_and_keeps_at_most_its_size() -> None:
    clock = Clock()
    codes = WrongCodes(forget=600, size=100, clock=clock)
    for n in range(250):
        codes.wrong(f"10.0.{n // 256}.{n % 256}")
    assert len(codes) == 100
    clock.now += 601
    codes.wrong("10.1.0.1")
    assert len(codes) == 1


def test_a_kernel_cookie_is_an_hmac_of_its_id_under_the_servers_secret() -> None:
    owners = KernelOwners(b"s" * 32)
    kernel = "7cda4fb5-3fc3-4c4e-9a43-0123456789ab"
    assert owners.name(kernel) == OWNER_COOKIE_PREFIX + "7cda4fb5"
    assert owners.value(kernel) == KernelOwners(b"s" * 32).value(kernel) != KernelOwners(b"t" * 32).value(kernel)
    assert owners.value(kernel) != owners.value(kernel[:-1] + "c")


def test_the_client_is_the_peer_or_the_address_nginx_on_this_machine_says() -> None:
    def request(peer: str, real: str) -> Any:
        return SimpleNamespace(remote_ip=peer, headers={"X-Real-IP": real} if real else {})

    assert client_of(request("10.0.0.9", "")) == "10.0.0.9"
    assert client_of(request("127.0.0.1", "10.0.0.5")) == "10.0.0.5"
    assert client_of(request("10.0.0.9", "10.0.0.5")) == "10.0.0.9"  # only nginx on this machine is believed


@pytest.mark.parametrize("served", [True, False], ids=["in Voila", "in JupyterLab"])
def test_a_code_typed_wrong_on_the_class_page_is_sent_to_the_servers_door(served: bool, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    if served:
        monkeypatch.setenv("VOILA_PREHEAT", "False")
    else:
        monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    typed = ClassPage(store, query="")
    assert typed.role == "code"
    box, go = one(typed, "pb-code-box"), one(typed, "pb-code-go")
    box.value = "zz-9zz9"
    go.click()
    assert "no class" in typed.status.message.lower()
    if served:  # the page goes to /j/CODE, which counts and slows; this page checks no more codes
        assert 'data-go="../../j/ZZ9ZZ9"' in typed.navigator.value and box.disabled and go.disabled
    else:  # no server's door to go to: typed again in place
        assert "data-go" not in typed.navigator.value and not box.disabled


# -- a kernel is its page's ----------------------------------------------------------------------

MADE_UP = {"Cookie": "_xsrf=madeup", "X-XSRFToken": "madeup"}


def ask(server: RunningServer | int, method: str, path: str, headers: dict[str, str] | None = None, source: str | None = None) -> tuple[int, dict[str, str], str]:
    """One request to `server` (or to 127.0.0.1:`server`, an nginx in front of it), from the
    address `source` of this machine if given."""
    port, base = (server, "/") if isinstance(server, int) else (server.port, server.base_url)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0) if source else None)
    try:
        connection.request(method, base.rstrip("/") + path, body=b"" if method in ("POST", "DELETE") else None, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read().decode(errors="replace")
    finally:
        connection.close()


def socket_status(server: RunningServer, kernel: str, cookie: str) -> int:
    """The status of a websocket upgrade to `kernel`'s channels with `cookie`."""
    key = base64.b64encode(os.urandom(16)).decode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as end:
        end.sendall(
            (
                f"GET /api/kernels/{kernel}/channels?session_id=intruder HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                f"Origin: http://127.0.0.1:{server.port}\r\nCookie: {cookie}\r\n\r\n"
            ).encode()
        )
        return int(end.recv(4096).split(b" ", 2)[1])


@pytest.mark.browser
@pytest.mark.heavy
@pytest.mark.timeout(180)
@pytest.mark.parametrize("pool_size", [1, 0], ids=["ready kernel", "kernel started for the page"])
def test_only_the_page_given_a_kernel_can_end_it_or_talk_to_it(pool_size: int, voila: VoilaFactory, chromium: Browser) -> None:
    server = voila(NOTEBOOK, pool_size=pool_size)
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    try:
        page = context.new_page()
        button = open_dashboard(page, server.url, f".{BUTTON_CLASS}")
        kernel = kernel_id(page)
        mine = [c for c in context.cookies() if c["name"] == OWNER_COOKIE_PREFIX + kernel[:8]]
        assert len(mine) == 1 and mine[0]["httpOnly"] and mine[0]["sameSite"] == "Strict", context.cookies()
        owner = f"{mine[0]['name']}={mine[0]['value']}"

        # Another client, with an XSRF cookie and header it made up (and a made-up kernel cookie).
        forged = {**MADE_UP, "Cookie": f"_xsrf=madeup; {mine[0]['name']}=AAAA"}
        for headers in (MADE_UP, forged):
            assert ask(server, "POST", f"/voila/api/shutdown/{kernel}", headers)[0] == 403
            assert ask(server, "DELETE", f"/api/kernels/{kernel}", headers)[0] == 403
            assert ask(server, "GET", f"/api/kernels/{kernel}", headers)[0] == 403
            assert socket_status(server, kernel, headers["Cookie"]) == 403
        # Voila 0.5 routes neither interrupt nor restart, nor a list of kernels (serving one
        # notebook, its page's route takes every other address, and answers GET only).
        for path in (f"/api/kernels/{kernel}/interrupt", f"/api/kernels/{kernel}/restart"):
            assert ask(server, "POST", path, MADE_UP)[0] in (404, 405)
        listed = ask(server, "GET", "/api/kernels", MADE_UP)
        assert listed[0] >= 300 and kernel not in listed[2]

        # The kernel is alive and the page plays on.
        status, _headers, body = ask(server, "GET", f"/api/kernels/{kernel}", {"Cookie": owner})
        assert status == 200 and kernel in body
        button.click()
        expect(button).to_have_text(CLICKED, timeout=20_000)

        # The page's own unload still shuts its kernel down.
        page.goto("about:blank")
        deadline = time.monotonic() + 20
        while ask(server, "GET", f"/api/kernels/{kernel}", {"Cookie": owner})[0] != 404:
            assert time.monotonic() < deadline, server.log_tail()
            time.sleep(0.3)
        assert f"Kernel shutdown: {kernel}" in server.log_path.read_text(errors="replace")
    finally:
        context.close()
    log = server.log_path.read_text(errors="replace")
    assert "Traceback" not in log, server.log_tail(80)
    assert f"403 DELETE /api/kernels/{kernel}" in log


# -- room codes ----------------------------------------------------------------------------------

FIRST_WAIT, MOST_WAIT, FREE = 0.3, 0.6, 3


@dataclass
class Door:
    server: RunningServer
    code: str


@pytest.fixture(scope="module")
def door(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Door]:
    folder = tmp_path_factory.mktemp("doors")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PLAYBOOK_KEY", SERVER_KEY)
        env.setenv("PLAYBOOK_CODE_FREE", str(FREE))
        env.setenv("PLAYBOOK_CODE_FIRST_WAIT", str(FIRST_WAIT))
        env.setenv("PLAYBOOK_CODE_MOST_WAIT", str(MOST_WAIT))
        record = cl.create_class(Store(folder / "tables.sqlite3"), "new-rule", 3)
        with background_server(None, folder / "voila.log", db_path=folder / "tables.sqlite3") as server:
            yield Door(server, record.code)


def wrong_code(n: int) -> str:
    return f"WR{n:04d}"


@pytest.mark.heavy
@pytest.mark.timeout(180)
def test_wrong_room_codes_are_slowed_for_their_client_only_and_a_live_code_opens_at_once(door: Door) -> None:
    server = door.server
    # The second client: another address of this machine (the server sees another peer).
    other = "127.0.0.2"
    answers: list[tuple[int, dict[str, str], str, float]] = []

    def thirty() -> None:
        for n in range(30):
            start = time.monotonic()
            status, headers, body = ask(server, "GET", f"/j/{wrong_code(n)}")
            answers.append((status, headers, body, time.monotonic() - start))

    slowed = threading.Thread(target=thirty)
    started = time.monotonic()
    slowed.start()
    while len(answers) < FREE + 3:  # the first client is slowed by now
        time.sleep(0.05)
    theirs = [ask(server, "GET", f"/j/{wrong_code(100 + n)}", source=other) for n in range(2)]
    live = time.monotonic()
    status, headers, _ = ask(server, "GET", f"/j/{door.code.lower()}", source=other)
    live_took = time.monotonic() - live
    slowed.join()
    took = time.monotonic() - started

    assert [a[0] for a in answers] == [404] * 30
    counted = [int(a[1]["x-playbook-wrong-codes"]) for a in answers]
    assert counted == list(range(1, 31))
    assert all("retry-after" not in a[1] for a in answers[:FREE])
    assert all(a[1].get("retry-after") == "1" for a in answers[FREE:])
    assert all(a[3] >= FIRST_WAIT for a in answers[FREE:]), [round(a[3], 2) for a in answers]
    assert took >= FIRST_WAIT + (30 - FREE - 1) * MOST_WAIT  # 15.9 s at the least
    body = answers[-1][2]
    assert "That room code is not one of this server's classes. Check the code on the board and type it again" in body
    assert "<form" in body and door.code not in body
    # The other client at the same time: not slowed, and its live code opens at once.
    assert [(s, h["x-playbook-wrong-codes"], "retry-after" in h) for s, h, _ in theirs] == [(404, "1", False), (404, "2", False)]
    assert status == 302 and headers["location"].endswith(f"/voila/render/class.ipynb?code={door.code}")
    assert live_took < MOST_WAIT
    # The slowed client's live code opens at once too, by the address and by the form.
    for path in (f"/j/{door.code}", f"/j?code={door.code.lower()}"):
        start = time.monotonic()
        status, headers, _ = ask(server, "GET", path)
        assert status == 302 and headers["location"].endswith(f"?code={door.code}"), path
        assert time.monotonic() - start < MOST_WAIT
    # Many wrong codes at once from the slowed client: a few wait, the rest are refused at once.
    statuses: list[int] = []
    burst = [threading.Thread(target=lambda n=n: statuses.append(ask(server, "GET", f"/j/{wrong_code(200 + n)}")[0])) for n in range(10)]
    for each in burst:
        each.start()
    for each in burst:
        each.join()
    assert sorted(statuses).count(429) >= 5 and 404 in statuses, statuses
    # No code is checked without one; the log holds no code.
    assert ask(server, "GET", "/j")[0] == 302
    log = server.log_path.read_text(errors="replace")
    assert "Traceback" not in log and door.code not in log and "WR0001" not in log


@pytest.mark.heavy
@pytest.mark.timeout(120)
def test_behind_nginx_each_phone_is_counted_on_its_own(door: Door, tmp_path: Path) -> None:
    """Through nginx every request comes from 127.0.0.1; told it is behind nginx, the server
    counts the address nginx puts in X-Real-IP."""
    need_nginx()
    port = free_port()
    with running_nginx(tmp_path / "nginx", port, [door.server.port], prefix="/"):
        first = [ask(port, "GET", f"/j/{wrong_code(300 + n)}", source="127.0.0.3")[1] for n in range(FREE + 2)]
        second = [ask(port, "GET", f"/j/{wrong_code(400 + n)}", source="127.0.0.4")[1] for n in range(2)]
        status, headers, _ = ask(port, "GET", f"/j/{door.code}", source="127.0.0.3")
    assert [h["x-playbook-wrong-codes"] for h in first] == [str(n) for n in range(1, FREE + 3)]
    assert "retry-after" not in first[FREE - 1] and first[FREE]["retry-after"] == "1"
    assert [(h["x-playbook-wrong-codes"], "retry-after" in h) for h in second] == [("1", False), ("2", False)]
    assert status == 302 and headers["location"].endswith(f"?code={door.code}")


@pytest.mark.browser
@pytest.mark.heavy
@pytest.mark.timeout(180)
def test_a_code_typed_wrong_on_the_class_page_goes_to_the_door_and_a_live_one_opens_the_class(door: Door, chromium: Browser) -> None:
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    try:
        page = context.new_page()
        open_dashboard(page, door.server.url + "j", ".playbook-class-code .pb-code-box input")
        page.locator(".playbook-class-code .pb-code-box input").fill("zz9zz9")
        page.locator(".playbook-class-code .pb-code-go").click()
        expect(page.locator(".playbook-wrong-code")).to_contain_text("That room code is not one of this server's classes", timeout=30_000)
        assert page.url.endswith("/j/ZZ9ZZ9")
        page.locator(".playbook-wrong-code input[name=code]").fill(door.code.lower())
        page.locator(".playbook-wrong-code button").click()
        page.locator(".playbook-class-join").wait_for(state="visible", timeout=LOAD_TIMEOUT_MS)
        assert f"code={door.code}" in page.url
    finally:
        context.close()
