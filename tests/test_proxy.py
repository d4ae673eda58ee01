"""The playbook behind a real nginx at a path, as a school server runs it: `playbook serve
--base-url /playbook/ --public-url http://HOST/playbook/` and deploy/nginx/playbook-proxy.conf.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from playbook.access import table_keys
from playbook.links import table_links
from playbook.serve import RunningServer, background_server, free_port
from playbook.store import Store
from rules import leerdam as ld
from rules import new_game
from tests.support.browser import LOAD_TIMEOUT_MS, open_dashboard
from tests.support.nginx import need_nginx, running_nginx, server_for_route
from tests.support.stores import store_location
from widgets.address import qr_svg

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

LEERDAM = ".playbook-leerdam"
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")


class Device:
    """A browser context of its own, recording every request, websocket and answering server."""

    def __init__(self, chromium: Browser, width: int, height: int, proxy: str = "", route: str = "") -> None:
        self.context: BrowserContext = chromium.new_context(viewport={"width": width, "height": height})
        self.context.set_default_timeout(LOAD_TIMEOUT_MS)
        if route:  # the route cookie nginx keeps a browser on one server by
            self.context.add_cookies([{"name": "playbook_route", "value": route, "url": proxy + "/"}])
        self.requests: list[str] = []
        self.sockets: list[str] = []
        self.servers: set[str] = set()
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.context.on("response", lambda response: self._answered(response.headers.get("x-playbook-server")))
        self.page: Page = self.context.new_page()
        self.page.on("websocket", lambda socket: self.sockets.append(socket.url))

    def _answered(self, server: str | None) -> None:
        if server:
            self.servers.add(server)

    def stays_behind(self, proxy: str) -> None:
        """Assert that every request and websocket of the device went through `proxy`/playbook/."""
        assert self.sockets and all(url.startswith(proxy.replace("http", "ws", 1) + "/playbook/") for url in self.sockets)
        assert [url for url in self.requests if not url.startswith((proxy + "/playbook/", "data:", "blob:"))] == []


@contextmanager
def behind_nginx(folder: Path, db: str, servers: int = 1) -> Iterator[tuple[str, str, list[RunningServer]]]:
    """(public URL, nginx's address, the servers): `servers` servers at /playbook/ on the store
    `db`, behind nginx on a free port."""
    need_nginx()
    port = free_port()
    public = f"http://127.0.0.1:{port}/playbook/"
    with ExitStack() as stack:
        running = [
            stack.enter_context(
                background_server(None, folder / f"voila-{i}.log", db_path=db, base_url="/playbook/", public_url=public)
            )
            for i in range(servers)
        ]
        proxy = stack.enter_context(running_nginx(folder / "nginx", port, [server.port for server in running]))
        yield public, proxy, running


def leerdam_table(store: Store, public: str) -> tuple[str, dict]:
    """A new Leerdam table of five households in `store`, and its links at `public`."""
    table_id = store.create(new_game("leerdam", ld.Setup(names=NAMES), 3), meta={"bots": {}, **table_keys(len(NAMES))})
    return table_id, table_links(public, "leerdam", table_id, store.info(table_id).meta, NAMES)


def pledge(device: Device, units: int) -> None:
    device.page.locator(f"{LEERDAM} .pb-pledge input").fill(str(units))
    device.page.locator(f"{LEERDAM} .pb-pledge-confirm").click()


def qr_cells(svg: str) -> set[tuple[str, str]]:
    """The dark cells of a QR code drawn by `qr_svg`."""
    return set(re.findall(r'<rect x="(\d+)" y="(\d+)" width="1"', svg))


def test_a_seat_behind_nginx_pledges_over_the_websocket_and_every_link_and_qr_code_carries_the_public_url(
    tmp_path: Path, chromium: Browser
) -> None:
    with behind_nginx(tmp_path, str(tmp_path / "tables.sqlite3")) as (public, proxy, _servers):
        store = Store(tmp_path / "tables.sqlite3")
        table_id, links = leerdam_table(store, public)
        assert links["join"].startswith(public + "voila/render/leerdam.ipynb?")
        board, phone = Device(chromium, 1366, 768), Device(chromium, 390, 844)
        try:
            open_dashboard(board.page, links["board"], f"{LEERDAM}.playbook-board .pb-dyke")
            # The join code and its link, as the board shows them, lead to the public address.
            expect(board.page.locator(".pb-join-code")).to_contain_text(links["join"])
            drawn = board.page.locator(".pb-join-code svg").first.evaluate("svg => svg.outerHTML")
            assert qr_cells(drawn) == qr_cells(qr_svg(links["join"]))

            open_dashboard(phone.page, links["seats"][1]["url"], f"{LEERDAM}.playbook-seat .pb-pledge-confirm")
            # Read at once: a seat page takes its header links away once it shows the seat.
            for href in phone.page.eval_on_selector_all("a.playbook-nav-page", "links => links.map(a => a.href)"):
                assert href.startswith(public + "voila/render/")
            pledge(phone, 2)
            expect(board.page.locator(f"{LEERDAM} .pb-pledged-count")).to_contain_text("1 of 5")
            assert [change["kind"] for change in store.changes(table_id)].count("play") == 1
            board.stays_behind(proxy)
            phone.stays_behind(proxy)
        finally:
            board.context.close()
            phone.context.close()


def test_two_servers_on_one_postgresql_behind_nginx_follow_one_table_live(tmp_path: Path, chromium: Browser) -> None:
    with store_location("postgresql", tmp_path) as db, behind_nginx(tmp_path, db, servers=2) as (public, proxy, servers):
        store = Store(db)
        table_id, links = leerdam_table(store, public)
        first, second = (f"127.0.0.1:{server.port}" for server in servers)
        routes = {server_for_route(proxy + "/playbook/", f"route-{i}"): f"route-{i}" for i in range(64)}
        board = Device(chromium, 1366, 768, proxy, routes[first])
        phones = [Device(chromium, 390, 844, proxy, routes[second]), Device(chromium, 390, 844, proxy, routes[first])]
        try:
            open_dashboard(board.page, links["board"], f"{LEERDAM}.playbook-board .pb-dyke")
            for seat, phone in enumerate(phones):
                open_dashboard(phone.page, links["seats"][seat]["url"], f"{LEERDAM}.playbook-seat .pb-pledge-confirm")
            # A pledge on a seat page of the second server shows on the board of the first, and
            # the first server's pledge on the board too: one table in PostgreSQL, its change
            # signal reaching the kernels of both servers.
            pledge(phones[0], 2)
            expect(board.page.locator(f"{LEERDAM} .pb-pledged-count")).to_contain_text("1 of 5")
            pledge(phones[1], 1)
            expect(board.page.locator(f"{LEERDAM} .pb-pledged-count")).to_contain_text("2 of 5")
            assert [change["kind"] for change in store.changes(table_id)].count("play") == 2
            assert (board.servers, phones[0].servers, phones[1].servers) == ({first}, {second}, {first})
            for device in (board, *phones):
                device.stays_behind(proxy)
        finally:
            for device in (board, *phones):
                device.context.close()
