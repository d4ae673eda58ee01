"""A page loads nothing from outside its server: the browser tests' guard (tests/support/browser.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.support.browser import OUTSIDE, OUTSIDE_REQUESTS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(60)]


@pytest.mark.parametrize(
    ("url", "outside"),
    [
        ("http://127.0.0.1:8866/voila/render/index.ipynb", False),
        ("ws://127.0.0.1:41234/playbook/api/kernels/x/channels", False),
        ("http://localhost:8866/", False),
        ("http://[::1]:8866/", False),
        ("data:image/png;base64,AAAA", False),
        ("https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/all.min.css", True),
        ("http://127.0.0.1.example/", True),
        ("http://localhost.example:8866/", True),
        ("wss://school.example/playbook/", True),
    ],
)
def test_outside_means_any_host_but_this_machine(url: str, outside: bool) -> None:
    assert bool(OUTSIDE.match(url)) is outside


def test_a_request_to_another_host_is_stopped_and_noted(chromium: Browser) -> None:
    context = chromium.new_context()
    try:
        page = context.new_page()
        failed: list[str] = []
        page.on("requestfailed", lambda request: failed.append(request.url))
        page.set_content(
            '<img src="http://outside.invalid/font.png"><script src="https://cdn.outside.invalid/x.js"></script>'
            '<script>window.closedSocket = new Promise(done => { new WebSocket("wss://live.outside.invalid/ws").onclose = () => done(true); });</script>'
        )
        page.wait_for_load_state("load")
        assert page.evaluate("window.closedSocket") is True  # the socket never opened
        expected = ["http://outside.invalid/font.png", "https://cdn.outside.invalid/x.js", "wss://live.outside.invalid/ws"]
        assert sorted(OUTSIDE_REQUESTS) == expected
        assert sorted(failed) == expected[:2], "none of them loaded"
    finally:
        OUTSIDE_REQUESTS.clear()  # this test asked on purpose
        context.close()
