"""Helpers for the browser tests: Debian's Chromium driven by Playwright, pages served by Voila.

Not a test module. The fixtures in tests/conftest.py use these; a game's browser test
usually needs only `open_dashboard` and `source_text_visible`.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page, Playwright

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "LOAD_TIMEOUT_MS",
    "chromium_missing_reason",
    "in_ci",
    "kernel_id",
    "launch_chromium",
    "open_dashboard",
    "source_text_visible",
]

CHROMIUM = Path(os.environ.get("PLAYBOOK_CHROMIUM", "/usr/bin/chromium"))
"""Debian's Chromium (`apt-get install chromium`); Playwright's own browser builds are not used."""

CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)

LOAD_TIMEOUT_MS = 45_000
"""How long a page may take to show its widgets: a kernel start plus the notebook's run."""


def in_ci() -> bool:
    """True when the CI environment variable says so (CI must not skip browser tests)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def chromium_missing_reason() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not CHROMIUM.is_file():
        return f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    return None


def launch_chromium(playwright: Playwright) -> Browser:
    """Headless Debian Chromium."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS))


def open_dashboard(page: Page, url: str, selector: str, timeout_ms: int = LOAD_TIMEOUT_MS) -> Locator:
    """Go to a Voila page and wait until `selector` is visible; return its locator.

    Voila shows `#rendered_cells` once every cell has run; widgets appear in it a moment
    later, when their views are built.
    """
    page.goto(url, wait_until="domcontentloaded", timeout=timeout_ms)
    page.locator("#rendered_cells").wait_for(state="visible", timeout=timeout_ms)
    target = page.locator(selector).first
    target.wait_for(state="visible", timeout=timeout_ms)
    return target


def kernel_id(page: Page) -> str:
    """The id of the kernel Voila started for this page view."""
    return str(
        page.evaluate(
            "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
        )
    )


def source_text_visible(page: Page, sources: list[str]) -> list[str]:
    """The lines of code-cell `sources` that a reader can see on the page (want: none).

    Lines too short or too common to tell apart from output (a bare name, blank lines) are
    not checked.
    """
    shown = page.locator("body").inner_text()
    seen = []
    for source in sources:
        for line in source.splitlines():
            line = line.strip()
            if len(line) >= 12 and line in shown:
                seen.append(line)
    return seen
