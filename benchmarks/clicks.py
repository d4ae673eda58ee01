"""Click-to-update times in Chromium: each dashboard's main click, beside the bare button.

The clicks: a New Rule blind draw, a Leerdam pledge and the reveal (the last pledge), and the
balance lab's Run (20 New Rule games, findings, charts and the PDF report). Danger World's and
Dangerous Ideas' main clicks (a check's roll, a meme action) need a whole scripted setup first
and are not timed yet.

Each time is taken inside the page: `performance.now()` just before a DOM click on the
control, and again when a MutationObserver first sees the expected text in the watched
element, so Playwright's own round trips are not counted. The bare one-button notebook
(click -> "Clicked N") is timed in the same run as the baseline; the report gives medians
and ratios. Nothing here asserts a speed.
"""

from __future__ import annotations

import statistics
import tempfile
from contextlib import ExitStack
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from benchmarks.bare_button import BUTTON_CLASS
from benchmarks.bare_button import NOTEBOOK as BARE_NOTEBOOK
from playbook.serve import NOTEBOOKS_DIR, background_server
from tests.support.browser import chromium_missing_reason, launch_chromium, open_dashboard

__all__ = ["format_clicks", "run_clicks"]

LEERDAM = ".playbook-leerdam"
NEW_RULE = ".playbook-new-rule"
LAB = ".playbook-balance-lab"
TIMEOUT_MS = 30_000

_TIME_CLICK = """([click, watch, want]) => new Promise((resolve) => {
    const target = document.querySelector(watch);
    const button = document.querySelector(click);
    let start = 0;
    const done = () => {
        if (target.innerText.includes(want)) {
            seen.disconnect();
            resolve(performance.now() - start);
        }
    };
    const seen = new MutationObserver(done);
    seen.observe(target, {subtree: true, childList: true, characterData: true, attributes: true});
    start = performance.now();
    button.click();
})"""


def time_click(page: Page, click: str, watch: str, want: str) -> float:
    """Milliseconds from a DOM click on `click` until `watch` shows the text `want`."""
    return round(float(page.evaluate(_TIME_CLICK, [click, watch, want])), 1)


def _bare(page: Page, url: str, clicks: int) -> list[float]:
    open_dashboard(page, url, f".{BUTTON_CLASS}")
    button = f".{BUTTON_CLASS}"
    return [time_click(page, button, button, f"Clicked {n}") for n in range(1, clicks + 1)]


def _leerdam_year(page: Page, url: str) -> tuple[float, float]:
    """One new village (five households, three bots): time the first human pledge and the reveal."""
    open_dashboard(page, url, LEERDAM)
    root = page.locator(LEERDAM)
    root.locator(".pb-players input").fill("5")
    root.locator(".pb-players input").press("Enter")
    for seat, bot in ((2, "fair"), (3, "free-rider"), (4, "altruist")):
        root.locator(f".pb-kind-{seat} select").select_option(label=f"bot: {bot}")
    root.locator(".pb-start").click()
    root.locator(".pb-pledged-count").filter(has_text="3 of 5").wait_for(timeout=TIMEOUT_MS)
    times = []
    for seat, want, watch in ((0, "4 of 5", ".pb-pledged-count"), (1, "Total", ".pb-reveal")):
        root.locator(f".pb-seat-{seat}").click()
        root.locator(".pb-show-private").click()  # the shared screen asks first
        root.locator(".pb-pledge-confirm").wait_for(timeout=TIMEOUT_MS)
        root.locator(".pb-pledge input").fill("1")
        root.locator(".pb-pledge input").press("Tab")
        page.wait_for_timeout(300)  # let the typed value reach the kernel first
        times.append(time_click(page, f"{LEERDAM} .pb-pledge-confirm", f"{LEERDAM} {watch}", want))
        root.locator(".pb-hide").click()
    return times[0], times[1]


def _new_rule_draw(page: Page, url: str) -> float:
    open_dashboard(page, url, NEW_RULE)
    root = page.locator(NEW_RULE)
    root.locator(".pb-players").first.locator("text=3").click()
    root.locator(".pb-start").click()
    root.locator(".pb-round").filter(has_text="Round 1").wait_for(timeout=TIMEOUT_MS)
    root.locator(".pb-seat-0").click()
    root.locator(".pb-show-private").click()  # the shared screen asks first
    root.locator(".pb-draw").wait_for(timeout=TIMEOUT_MS)
    return time_click(page, f"{NEW_RULE} .pb-draw", NEW_RULE, "You drew")


def _lab_run(page: Page, url: str) -> float:
    open_dashboard(page, url, LAB)
    games = page.locator(f"{LAB} .pb-lab-games input")
    games.fill("20")
    games.press("Tab")
    page.wait_for_timeout(300)
    return time_click(page, f"{LAB} .pb-lab-run", f"{LAB} .pb-lab-download", "report (PDF)")


def run_clicks(runs: int = 3, clicks: int = 5) -> dict[str, object]:
    """Medians of `runs` page views each (the bare button clicked `clicks` times per view)."""
    reason = chromium_missing_reason()
    if reason is not None:
        return {"skipped": reason}
    bare: list[float] = []
    pledge: list[float] = []
    reveal: list[float] = []
    draw: list[float] = []
    lab_run: list[float] = []
    with tempfile.TemporaryDirectory(prefix="playbook-clicks-") as tmp, ExitStack() as stack:
        folder = Path(tmp)
        bare_server = stack.enter_context(background_server(BARE_NOTEBOOK, folder / "bare.log", db_path=folder / "bare.sqlite3"))
        leerdam_server = stack.enter_context(
            background_server(NOTEBOOKS_DIR / "leerdam.ipynb", folder / "leerdam.log", db_path=folder / "leerdam.sqlite3")
        )
        new_rule_server = stack.enter_context(
            background_server(NOTEBOOKS_DIR / "new_rule.ipynb", folder / "new_rule.log", db_path=folder / "new_rule.sqlite3")
        )
        lab_server = stack.enter_context(background_server(NOTEBOOKS_DIR / "balance_lab.ipynb", folder / "lab.log", db_path=folder / "lab.sqlite3"))
        playwright = stack.enter_context(sync_playwright())
        browser = launch_chromium(playwright)
        stack.callback(browser.close)
        for _ in range(runs):  # alternate, so both see the same machine load
            for name in ("bare", "leerdam year", "new rule draw", "lab"):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                try:
                    if name == "bare":
                        bare += _bare(page, bare_server.url, clicks)
                    elif name == "new rule draw":
                        draw.append(_new_rule_draw(page, new_rule_server.url))
                    elif name == "lab":
                        lab_run.append(_lab_run(page, lab_server.url))
                    else:
                        a, b = _leerdam_year(page, leerdam_server.url)
                        pledge.append(a)
                        reveal.append(b)
                finally:
                    page.close(run_before_unload=True)
                    context.close()
    base = statistics.median(bare)
    rows = {
        "bare button click": bare,
        "new-rule blind draw": draw,
        "leerdam pledge": pledge,
        "leerdam reveal (last pledge)": reveal,
        "balance lab Run (20 games, report)": lab_run,
    }
    return {
        name: {"median_ms": round(statistics.median(v), 1), "samples": len(v), "vs_bare": round(statistics.median(v) / base, 2)}
        for name, v in rows.items()
    }


def format_clicks(report: dict[str, object]) -> str:
    if "skipped" in report:
        return f"click-to-update skipped: {report['skipped']}"
    lines = [f"{'click':32} {'median ms':>10} {'samples':>8} {'vs bare':>8}", "-" * 61]
    for name, row in report.items():
        assert isinstance(row, dict)
        lines.append(f"{name:32} {row['median_ms']:>10} {row['samples']:>8} {row['vs_bare']:>7}x")
    return "\n".join(lines)


if __name__ == "__main__":
    print(format_clicks(run_clicks()))
