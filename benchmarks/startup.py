"""How long a playbook page takes to become usable, next to a bare one-button notebook.

"Usable" = from navigation start (the page's `performance.timeOrigin`) until the target's
control is visible and actionable in Chromium and one click on it has had its effect (the
round trip to the kernel and back). Every target is measured in the same run as the bare
baseline, runs alternate between targets, and the report gives medians and the ratio
target/baseline: machines differ, ratios travel. Nothing here asserts a speed.

Each target gets its own Voila (the project's template and settings, via
`playbook.serve.background_server`) and each run a fresh browser context, so every page
view starts its own kernel, as a real visit does.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from benchmarks.bare_button import BUTTON_CLASS
from benchmarks.bare_button import NOTEBOOK as BARE_NOTEBOOK
from playbook.serve import NOTEBOOKS_DIR, REPO_ROOT, RunningServer, background_server
from tests.support.browser import chromium_missing_reason, launch_chromium

__all__ = [
    "BASELINE",
    "TARGETS",
    "Result",
    "Run",
    "Target",
    "measure_page",
    "run_benchmark",
]

PAGE_TIMEOUT_MS = 60_000
EFFECT_TIMEOUT_MS = 15_000
MARK = "__playbookBenchChangedAt"


@dataclass(frozen=True)
class Target:
    """One page to time."""

    name: str
    notebook: Path
    ready: str
    """CSS selector that is visible once the dashboard is there (its root class)."""
    click: str | None = None
    """The control to click: a plain `widgets.Button`, whose click changes nothing on the
    page until the kernel answers. None: the first enabled one inside `ready` (toggle
    buttons and dropdowns are not taken: they change the page by themselves)."""
    effect: str | None = None
    """Playwright selector that shows up once the click has had its effect. None: the first
    DOM change inside `ready` after the click (timed in the page, so more exact)."""

    def click_selector(self) -> str:
        return self.click or f"{self.ready} .widget-button:not([disabled])"


BASELINE = Target("bare button", BARE_NOTEBOOK, ready=f".{BUTTON_CLASS}", click=f".{BUTTON_CLASS}")

TARGETS: list[Target] = [
    Target(
        "new-rule",
        NOTEBOOKS_DIR / "new_rule.ipynb",
        ready=".playbook-new-rule",
        click=".playbook-new-rule .pb-start",
    ),
    Target("leerdam", NOTEBOOKS_DIR / "leerdam.ipynb", ready=".playbook-leerdam", click=".playbook-leerdam .pb-start"),
    Target("danger-world", NOTEBOOKS_DIR / "danger_world.ipynb", ready=".playbook-danger-world", click=".playbook-danger-world .pb-start"),
    Target("dangerous-ideas", NOTEBOOKS_DIR / "dangerous_ideas.ipynb", ready=".playbook-dangerous-ideas", click=".playbook-dangerous-ideas .pb-start"),
    Target("balance-lab", NOTEBOOKS_DIR / "balance_lab.ipynb", ready=".playbook-balance-lab", click=".playbook-balance-lab .pb-lab-add-seat"),
]


@dataclass(frozen=True)
class Run:
    """One page view, in milliseconds since navigation start."""

    visible_ms: float
    """The control is visible and actionable."""
    usable_ms: float
    """A click on it has had its effect."""


@dataclass
class Result:
    """Every run of one target, or why there are none."""

    target: str
    notebook: str
    runs: list[Run] = field(default_factory=list)
    skipped: str | None = None
    error: str | None = None

    @property
    def median_visible_ms(self) -> float | None:
        return round(statistics.median(r.visible_ms for r in self.runs), 1) if self.runs else None

    @property
    def median_usable_ms(self) -> float | None:
        return round(statistics.median(r.usable_ms for r in self.runs), 1) if self.runs else None

    def as_dict(self, baseline: Result) -> dict[str, object]:
        """A JSON-ready summary, ratios against `baseline`."""
        return {
            "target": self.target,
            "notebook": self.notebook,
            "runs": [asdict(r) for r in self.runs],
            "median_visible_ms": self.median_visible_ms,
            "median_usable_ms": self.median_usable_ms,
            "ratio_usable": _round(ratio(self.median_usable_ms, baseline.median_usable_ms), 3),
            "skipped": self.skipped,
            "error": self.error,
        }


def ratio(value: float | None, base: float | None) -> float | None:
    """value / base, or None when either is missing."""
    if value is None or not base:
        return None
    return value / base


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def _shown_name(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def measure_page(page: Page, url: str, target: Target) -> Run:
    """Open `url` in `page` (a fresh Playwright page), click the control, time both steps."""
    page.goto(url, wait_until="commit", timeout=PAGE_TIMEOUT_MS)
    control = page.locator(target.click_selector()).first
    # trial=True: wait until Playwright could click (visible, stable, enabled) without clicking.
    control.click(trial=True, timeout=PAGE_TIMEOUT_MS)
    visible_ms = float(page.evaluate("performance.now()"))
    if target.effect is None:
        page.evaluate(
            """([root, mark]) => {
                const el = document.querySelector(root);
                const seen = new MutationObserver(() => {
                    window[mark] = performance.now();
                    seen.disconnect();
                });
                seen.observe(el, {subtree: true, childList: true, attributes: true, characterData: true});
            }""",
            [target.ready, MARK],
        )
    control.click(timeout=EFFECT_TIMEOUT_MS)
    if target.effect is None:
        page.wait_for_function(f"window.{MARK} !== undefined", timeout=EFFECT_TIMEOUT_MS)
        usable_ms = float(page.evaluate(f"window.{MARK}"))
    else:
        page.locator(target.effect).first.wait_for(state="visible", timeout=EFFECT_TIMEOUT_MS)
        usable_ms = float(page.evaluate("performance.now()"))
    return Run(visible_ms=round(visible_ms, 1), usable_ms=round(usable_ms, 1))


def _shut_kernel_down(page: Page) -> None:
    """Close the page the way a browser tab closes, so Voila stops its kernel."""
    page.close(run_before_unload=True)


def run_benchmark(
    targets: Sequence[Target] = tuple(TARGETS),
    runs: int = 5,
    baseline: Target = BASELINE,
    pool_size: int = 0,
    pause: float = 0.5,
    log: bool = True,
) -> list[Result]:
    """Time `baseline` and every target `runs` times, alternating; baseline first in the list.

    A target whose notebook is missing is skipped with a note; one that fails to load keeps
    its error and is left out of later rounds. `pool_size` > 0 measures pre-heated kernels
    (then give `pause` enough seconds for the pool to refill between views).
    """
    everything = [baseline, *targets]
    results = {t.name: Result(t.name, _shown_name(t.notebook)) for t in everything}
    for t in everything:
        if not t.notebook.is_file():
            results[t.name].skipped = f"{_shown_name(t.notebook)} does not exist yet"
    reason = chromium_missing_reason()
    if reason is not None:
        for result in results.values():
            result.skipped = result.skipped or reason
        return list(results.values())

    live = [t for t in everything if results[t.name].skipped is None]
    with tempfile.TemporaryDirectory(prefix="playbook-bench-") as tmp, ExitStack() as stack:
        servers: dict[str, RunningServer] = {}
        for t in live:
            folder = Path(tmp) / t.name.replace(" ", "-")
            folder.mkdir()
            servers[t.name] = stack.enter_context(
                background_server(
                    t.notebook,
                    folder / "voila.log",
                    db_path=folder / "tables.sqlite3",
                    pool_size=pool_size,
                )
            )
        playwright = stack.enter_context(sync_playwright())
        browser = launch_chromium(playwright)
        stack.callback(browser.close)
        if pool_size > 0:
            time.sleep(pause)  # let the first pools fill
        for round_no in range(1, runs + 1):
            for t in live:
                result = results[t.name]
                if result.error is not None:
                    continue
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                page = context.new_page()
                try:
                    run = measure_page(page, servers[t.name].url, t)
                except Exception as exc:
                    first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                    result.error = f"{type(exc).__name__}: {first_line}"
                else:
                    result.runs.append(run)
                    if log:
                        print(
                            f"  round {round_no}/{runs}  {t.name:<16} "
                            f"visible {run.visible_ms:7.0f} ms  usable {run.usable_ms:7.0f} ms",
                            flush=True,
                        )
                finally:
                    _shut_kernel_down(page)
                    context.close()
                time.sleep(pause)
    return list(results.values())


def format_table(results: Sequence[Result]) -> str:
    """A plain-text table: medians and ratios against the first result (the baseline)."""
    base = results[0]
    header = f"{'target':<16} {'notebook':<32} {'runs':>4} {'visible ms':>11} {'usable ms':>10} {'vs bare':>8}"
    lines = [header, "-" * len(header)]
    notes = []
    for r in results:
        if not r.runs:
            lines.append(f"{r.target:<16} {r.notebook:<32} {0:>4} {'-':>11} {'-':>10} {'-':>8}")
        else:
            rel = ratio(r.median_usable_ms, base.median_usable_ms)
            lines.append(
                f"{r.target:<16} {r.notebook:<32} {len(r.runs):>4} "
                f"{r.median_visible_ms:>11.0f} {r.median_usable_ms:>10.0f} "
                f"{(f'{rel:.2f}x' if rel is not None else '-'):>8}"
            )
        if r.skipped:
            notes.append(f"skipped {r.target}: {r.skipped}")
        if r.error:
            notes.append(f"failed {r.target}: {r.error}")
    return "\n".join(lines + ([""] + notes if notes else []))
