"""Smoke test of the whole serving stack: Voila + the playbook template + Chromium.

The notebook is the bare one-button fixture (benchmarks/bare_button.ipynb): if this fails,
no game's dashboard can work either.
"""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from benchmarks.bare_button import BUTTON_CLASS, CLICKED, NOTEBOOK, SOURCE
from tests.support.browser import VoilaFactory, kernel_id, open_dashboard, source_text_visible

pytestmark = [pytest.mark.browser, pytest.mark.timeout(60)]


def test_button_renders_and_answers_a_click(voila: VoilaFactory, page: Page) -> None:
    server = voila(NOTEBOOK)
    button = open_dashboard(page, server.url, f".{BUTTON_CLASS}")
    expect(button).to_have_text("Click me")
    button.click()
    expect(button).to_have_text(CLICKED, timeout=10_000)


def test_refresh_shuts_the_old_kernel_down(voila: VoilaFactory, page: Page) -> None:
    server = voila(NOTEBOOK)
    open_dashboard(page, server.url, f".{BUTTON_CLASS}")
    old_kernel = kernel_id(page)
    page.reload()
    page.locator(f".{BUTTON_CLASS}").wait_for(state="visible")
    assert kernel_id(page) != old_kernel
    deadline = time.monotonic() + 10
    while f"Kernel shutdown: {old_kernel}" not in server.log_path.read_text(errors="replace"):
        assert time.monotonic() < deadline, "the refreshed page's old kernel is still running"
        time.sleep(0.2)


def test_pages_and_their_scripts_reach_phones_compressed(voila: VoilaFactory, page: Page) -> None:
    """A page's scripts and styles (about 1.1 MB, the frontend's one script most of it) go over
    the room's Wi-Fi compressed."""
    server = voila(NOTEBOOK)
    encodings: dict[str, tuple[str | None, int]] = {}
    page.on("response", lambda r: encodings.setdefault(r.url, (r.headers.get("content-encoding"), len(r.body()) if r.ok else 0)))
    open_dashboard(page, server.url, f".{BUTTON_CLASS}")
    scripts = {url: enc for url, enc in encodings.items() if urlsplit(url).path.endswith(".js") and enc[1] > 50_000}
    assert scripts, encodings
    assert all(enc == "gzip" for enc, _ in scripts.values()), scripts


def test_template_hides_sources_and_names_the_page(voila: VoilaFactory, page: Page) -> None:
    server = voila(NOTEBOOK)
    open_dashboard(page, server.url, f".{BUTTON_CLASS}")
    expect(page.locator(".playbook-header")).to_contain_text("Bare button")
    assert page.locator(".jp-InputArea, .cm-editor, .jp-CodeMirrorEditor").count() == 0
    assert source_text_visible(page, [SOURCE]) == []


def test_a_waiting_page_stands_still(voila: VoilaFactory, page: Page) -> None:
    """The loading mark does not turn: a turning one redraws a waiting phone 60 times a second,
    and a class's phones wait together (the watchdog's line counts the seconds instead)."""
    server = voila(NOTEBOOK)
    open_dashboard(page, server.url, f".{BUTTON_CLASS}")
    # Voila takes its loading mark away once the page is up: put one back, as it was.
    mark = page.evaluate("""() => {
      const box = document.createElement('div'); box.id = 'loading';
      box.innerHTML = '<div class="spinner-container"><svg class="spinner" viewBox="0 0 10 10"><circle r="4" cx="5" cy="5"/></svg></div>';
      document.body.appendChild(box);
      const spinner = box.querySelector('.spinner');
      return [getComputedStyle(spinner).animationName, spinner.getAnimations().length];
    }""")
    assert mark == ["none", 0]
    assert page.evaluate("() => document.getAnimations().length") == 0  # nothing else moves either
