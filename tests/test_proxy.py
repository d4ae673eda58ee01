"""The playbook behind a real nginx at a path, as a school server runs it: `playbook serve
--base-url /playbook/ --public-url http://HOST/playbook/` and deploy/nginx/playbook-proxy.conf.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from playbook.access import table_keys, table_links
from playbook.serve import background_server, free_port
from playbook.store import Store
from rules import leerdam as ld
from rules import new_game
from tests.browser import LOAD_TIMEOUT_MS, open_dashboard
from tests.nginx import need_nginx, running_nginx
from widgets.table import qr_svg

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

LEERDAM = ".playbook-leerdam"
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")


class Device:
    """A browser context of its own, recording every request and websocket it opens."""

    def __init__(self, chromium: Browser, width: int, height: int) -> None:
        self.context: BrowserContext = chromium.new_context(viewport={"width": width, "height": height})
        self.context.set_default_timeout(LOAD_TIMEOUT_MS)
        self.requests: list[str] = []
        self.sockets: list[str] = []
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.page: Page = self.context.new_page()
        self.page.on("websocket", lambda socket: self.sockets.append(socket.url))


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """(public URL, table store) of a server at /playbook/ behind nginx on a free port."""
    need_nginx()
    port = free_port()
    public = f"http://127.0.0.1:{port}/playbook/"
    with background_server(
        None, tmp_path / "voila.log", db_path=tmp_path / "tables.sqlite3", base_url="/playbook/", public_url=public
    ) as server, running_nginx(tmp_path / "nginx", port, [server.port]):
        yield public, tmp_path / "tables.sqlite3"


def qr_cells(svg: str) -> set[tuple[str, str]]:
    """The dark cells of a QR code drawn by `qr_svg`."""
    return set(re.findall(r'<rect x="(\d+)" y="(\d+)" width="1"', svg))


def test_a_seat_behind_nginx_pledges_over_the_websocket_and_every_link_and_qr_code_carries_the_public_url(
    proxied: tuple[str, Path], chromium: Browser
) -> None:
    public, db_path = proxied
    store = Store(db_path)
    table_id = store.create(new_game("leerdam", ld.Setup(names=NAMES), 3), meta={"bots": {}, **table_keys(len(NAMES))})
    links = table_links(public, "leerdam", table_id, store.info(table_id).meta, NAMES)
    assert links["join"].startswith(public + "voila/render/leerdam.ipynb?")

    board, phone = Device(chromium, 1366, 768), Device(chromium, 390, 844)
    try:
        open_dashboard(board.page, links["board"], f"{LEERDAM}.playbook-board .pb-dyke")
        # The join code and its link, as the board shows them, lead to the public address.
        expect(board.page.locator(".pb-join-code")).to_contain_text(links["join"])
        drawn = board.page.locator(".pb-join-code svg").first.evaluate("svg => svg.outerHTML")
        assert qr_cells(drawn) == qr_cells(qr_svg(links["join"]))

        open_dashboard(phone.page, links["seats"][1]["url"], f"{LEERDAM}.playbook-seat .pb-pledge-confirm")
        for nav in phone.page.locator("a.playbook-nav-page").all():
            assert nav.evaluate("a => a.href").startswith(public + "voila/render/")
        phone.page.locator(f"{LEERDAM} .pb-pledge input").fill("2")
        phone.page.locator(f"{LEERDAM} .pb-pledge-confirm").click()
        expect(board.page.locator(f"{LEERDAM} .pb-pledged-count")).to_contain_text("1 of 5")
        assert [change["kind"] for change in store.changes(table_id)].count("play") == 1

        origin = public.split("/playbook/")[0]
        for device in (board, phone):
            assert device.sockets and all(url.startswith(origin.replace("http", "ws", 1) + "/playbook/") for url in device.sockets)
            assert [url for url in device.requests if not url.startswith((origin + "/playbook/", "data:", "blob:"))] == []
    finally:
        board.context.close()
        phone.context.close()
