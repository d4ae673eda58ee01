"""The layout rules a page keeps at a laptop, a projector and a phone, measured in Chromium:
the sizes, a page resized in place, nothing sideways, and `read` (no word broken, nothing
clipped, no code name, no "(s)": `browser.scan_text`) noting what reads wrong. Used by
tests/test_browser_layout.py (in English) and tests/test_browser_every_language.py (in German and
in Arabic)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.support.browser import LOAD_TIMEOUT_MS, reads_right, scan_text, settled, show_first

__all__ = ["LAPTOP", "PHONE", "PROJECTOR", "SCANS", "SIZES", "at_size", "no_sideways", "page_at", "read"]

LAPTOP, PROJECTOR, PHONE = (1366, 768), (1920, 1080), (390, 844)
SIZES = (PHONE, LAPTOP, PROJECTOR)
#: where a page that does not read right is pictured, to be judged by eye
SCANS = Path(tempfile.gettempdir()) / "playbook-layout-scans"


def page_at(chromium: Browser, size: tuple[int, int], **options: object) -> Page:
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]}, **options)  # type: ignore[arg-type]
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    return context.new_page()


def at_size(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    settled(page, size[0])  # the widgets lay themselves out again


def no_sideways(figures: dict, where: str) -> None:
    assert figures["scrollWidth"] <= figures["width"], f"{where}: the page is {figures['scrollWidth']} px wide in a {figures['width']} px screen"


def read(page: Page, where: str, size: tuple[int, int], problems: list[str]) -> None:
    """Scan the page as shown at `size` (it is resized first); note what reads wrong."""
    at_size(page, size)
    found = reads_right(scan_text(page))
    if found:
        SCANS.mkdir(parents=True, exist_ok=True)
        show_first(page)
        page.screenshot(path=str(SCANS / f"{where}-{size[0]}.png"))
        problems.append(f"{where} at {size[0]}x{size[1]}: " + "; ".join(found))
