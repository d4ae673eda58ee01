"""Helpers for the browser tests: Debian's Chromium driven by Playwright, pages served by Voila.

The fixtures in tests/conftest.py (`voila`, `chromium`, `page`, `devices`) use these; a game's
browser test usually needs only `open_dashboard` and `source_text_visible`.
"""

from __future__ import annotations

import concurrent.futures
import functools
import os
import re
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from playwright.sync_api import Browser, BrowserContext, Locator, Page, Playwright

from drawing.common import contrast_ratio
from playbook.serve import NOTEBOOKS_DIR, RunningServer, background_server, serve_settings
from rules import dangerous_ideas as di

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "EXPECT_TIMEOUT_MS",
    "LOAD_TIMEOUT_MS",
    "OUTSIDE",
    "OUTSIDE_REQUESTS",
    "Devices",
    "VoilaFactory",
    "beside_playwright",
    "chromium_missing_reason",
    "guard_hosts",
    "kernel_id",
    "launch_chromium",
    "open_dashboard",
    "quiet",
    "reads_right",
    "recorded",
    "scan_text",
    "settled",
    "show_first",
    "source_text_visible",
    "text_contrasts",
]

VoilaFactory = Callable[..., RunningServer]
"""The `voila` fixture: `voila(notebook, pool_size=1) -> RunningServer`."""

CHROMIUM = Path(os.environ.get("PLAYBOOK_CHROMIUM", "/usr/bin/chromium"))
"""Debian's Chromium (`apt-get install chromium`); Playwright's own browser builds are not used."""

CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Every page stands for a device of its own, in the foreground: no page is throttled as a
    # background tab would be (its timers and frames are what draws the widgets).
    "--disable-renderer-backgrounding",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
)

LOAD_TIMEOUT_MS = 45_000
"""How long a page may take to show its widgets: a kernel start plus the notebook's run."""

EXPECT_TIMEOUT_MS = 20_000
"""How long an `expect(...)` waits for its condition (Playwright's 5 s is short for a kernel's
answer on a busy 2-core machine; a condition that holds returns as soon as it holds)."""


def chromium_missing_reason() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not CHROMIUM.is_file():
        return f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    return None


#: any http(s) or ws(s) address of a host other than this machine's loopback, where every
#: server of the tests listens.
OUTSIDE = re.compile(r"^(?!(https?|wss?)://(127\.0\.0\.1|localhost|\[::1\])([:/]|$))(https?|wss?)://", re.IGNORECASE)

#: requests and websockets to another host than this machine, noted by `guard_hosts` in the
#: `chromium` fixture's browser (tests/conftest.py fails a test that made any).
OUTSIDE_REQUESTS: list[str] = []


@functools.cache
def _refusing() -> socket.socket:
    """A port on this machine bound and never listened on, so every connection to it is
    refused; held for the process's life, so nothing else can take it."""
    held = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    held.bind(("127.0.0.1", 0))
    return held


def _nowhere() -> str:
    """A proxy address that refuses every connection."""
    return f"http://127.0.0.1:{_refusing().getsockname()[1]}"


def guard_hosts(browser: Browser, found: list[str]) -> None:
    """Every context `browser.new_context()` makes from now on notes in `found` each request
    and websocket its pages make to another host: a page must load nothing from outside its
    server (a classroom may have no internet). The browser must come from
    `launch_chromium(..., guarded=True)`, which sends all but this machine's own traffic to a
    proxy that refuses it, so nothing outside is reached either.

    The guard only listens: routing every request through Playwright (`context.route`) would
    turn Chromium's HTTP cache off and hold each request for a round trip, and every page loads
    Voila's 5 MB of scripts.

    `new_context(..., server_host="10.213.5.2")` also lets through the one other host a test
    serves on (a network namespace the test made itself), and nothing else."""
    make = browser.new_context

    def new_context(*args: Any, server_host: str | None = None, **kwargs: Any) -> BrowserContext:
        if server_host is not None:  # straight to its own host; everything else to nowhere
            kwargs["proxy"] = {"server": _nowhere(), "bypass": server_host}
        context = make(*args, **kwargs)
        own = re.compile(rf"^(https?|wss?)://{re.escape(server_host)}([:/]|$)", re.IGNORECASE) if server_host else None

        def note(url: str) -> None:
            if OUTSIDE.match(url) and not (own is not None and own.match(url)):
                found.append(url)

        context.on("request", lambda request: note(request.url))
        context.on("page", lambda page: page.on("websocket", lambda socket: note(socket.url)))
        return context

    browser.new_context = new_context


T = TypeVar("T")


@contextmanager
def beside_playwright(run: Callable[[], T]) -> Iterator[concurrent.futures.Future[T]]:
    """`run()` (asyncio code: light phones, a kernel manager) in a thread of its own, beside a
    test's browser pages: Playwright's sync API keeps an event loop running in the test's thread.
    Yields its future; the thread is waited for at the end."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        yield thread.submit(run)


def launch_chromium(playwright: Playwright, *, guarded: bool = False) -> Browser:
    """Headless Debian Chromium; `guarded`, it reaches nothing but this machine (see
    `guard_hosts`): every other host goes to a proxy that refuses it, and Chromium never sends
    loopback addresses to a proxy."""
    args = list(CHROMIUM_ARGS)
    if guarded:
        args.append(f"--proxy-server={_nowhere()}")
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=args)


def notebook_page(server: RunningServer, notebook: str) -> str:
    """The address of one of the server's notebooks as a page."""
    return server.url.rstrip("/") + "/voila/render/" + notebook


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


#: Resolves once the fonts are in and two frames in a row lay the page out the same.
SETTLED_JS = """async () => {
  await document.fonts.ready;
  const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const cells = () => document.querySelector('#rendered_cells') || document.body;
  const shape = () => [window.innerWidth, window.innerHeight, cells().scrollWidth, cells().scrollHeight,
    document.documentElement.scrollWidth, document.querySelectorAll('#rendered_cells *').length].join();
  let last = shape();
  for (;;) {
    await frame();
    const now = shape();
    if (now === last) { return now; }
    last = now;
  }
}"""


def settled(page: Page, width: int | None = None) -> None:
    """Wait until the page has laid itself out (after a load or a new viewport of `width`):
    the viewport has that width, the fonts are loaded and the layout holds still for a frame."""
    if width is not None:
        page.wait_for_function("(width) => window.innerWidth === width", arg=width)
    page.evaluate(SETTLED_JS)


def quiet(page: Page, frames: list[str], looks: int = 3) -> None:
    """Wait until the page's kernel has gone idle and sent nothing more while the page drew
    `looks` times in a row (every widget's state has arrived). `frames`: the websocket frames
    received (a kernel's last message of a request is its idle status)."""
    idle = re.compile(r'"execution_state":\s*"idle"')
    still = 0
    while still < looks:
        count = len(frames)
        settled(page)
        went_idle = any(idle.search(frame) for frame in frames[-5:])
        still = still + 1 if went_idle and len(frames) == count else 0


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


#: Measures a page as a reader meets it (see `measure`).
MEASURE_JS = """(limits) => {
  const shown = (el) => {
    if (!el || el.closest('details:not([open]) > :not(summary)')) { return false; }
    const box = el.getBoundingClientRect(), look = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && look.visibility !== 'hidden' && look.opacity !== '0';
  };
  const where = (el) => (el.className && el.className.baseVal === undefined ? String(el.className) : el.tagName).slice(0, 80);
  const cells = document.querySelector('#rendered_cells');
  const small = [];
  const walker = document.createTreeWalker(cells, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent.trim(), el = walker.currentNode.parentElement;
    if (!text || !shown(el) || el.closest('script, style, .pb-heartbeat, .pb-alive, .pb-navigator')) { continue; }
    if (el.closest(limits.textIn) === null) { continue; }
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < limits.text) { small.push([where(el), text.slice(0, 40), size]); }
  }
  const tiny = [];
  if (limits.target) {
    cells.querySelectorAll('button, select, input:not([type=checkbox]):not([type=radio]), a[href], summary, .widget-checkbox').forEach((el) => {
      if (!shown(el) || el.closest('.pb-heartbeat, .pb-alive, .pb-navigator') || el.closest(limits.textIn) === null) { return; }
      const box = el.getBoundingClientRect();
      if (box.height < limits.target - 0.5 || box.width < limits.target - 0.5) { tiny.push([where(el), (el.textContent || el.value || '').trim().slice(0, 30), Math.round(box.width), Math.round(box.height)]); }
    });
  }
  const root = document.querySelector(limits.root);
  const first = limits.first ? document.querySelector(limits.first) : null;
  const firstBox = first && shown(first) ? first.getBoundingClientRect() : null;
  // Voila's lab page scrolls #rendered_cells (a Lumino panel, overflow: auto), not the window.
  const scrolled = window.scrollY + document.body.scrollTop + cells.scrollTop;
  const sideways = cells.scrollWidth - cells.clientWidth;
  return {
    scrollWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth, window.innerWidth + sideways),
    width: window.innerWidth,
    height: window.innerHeight,
    rootTop: root ? root.getBoundingClientRect().top + scrolled : null,
    firstBottom: firstBox ? firstBox.bottom + scrolled : null,
    smallText: small.slice(0, 20),
    smallTargets: tiny.slice(0, 20),
  };
}"""


def measure(page: Page, root: str, *, first: str | None = None, text: float = 0, target: float = 0, text_in: str = "#rendered_cells") -> dict:
    """The figures of a page as shown: its scroll width beside the viewport's, the top of `root`
    and the bottom of `first` (page coordinates: the first screen is 0..height), and the shown
    text smaller than `text` px and controls smaller than `target` px inside `text_in`."""
    return dict(page.evaluate(MEASURE_JS, {"root": root, "first": first, "text": text, "target": target, "textIn": text_in}))


#: What a reader would call wrong in the text shown inside a root (see `scan_text`).
SCAN_JS = """({root, tablesOnly, scrolled, branches}) => {
  const shown = (el) => {
    if (!el || el.closest('details:not([open]) > :not(summary)')) { return false; }
    const box = el.getBoundingClientRect(), look = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && look.visibility !== 'hidden' && look.display !== 'none';
  };
  const where = (el) => (el.className && el.className.baseVal === undefined ? String(el.className) : el.tagName).slice(0, 60);
  // The page's own machinery (a heartbeat, the kernel's state), never read as text.
  const machinery = 'script, style, .pb-heartbeat, .pb-alive, .pb-navigator';
  const top = document.querySelector(root);
  const parts = !top ? [] : tablesOnly
    ? [...top.querySelectorAll('table, .ld-grid, .pb-cards')].filter(shown)
    : [top].filter(shown);
  const found = {broken: [], clipped: [], codeNames: [], plurals: []};
  const seen = [];  // the elements, in the order found (the first is shown by `show_first`)
  const note = (kind, el, ...what) => { found[kind].push([where(el), ...what]); seen.push(el); };
  const screen = document.documentElement.clientWidth;
  // What sticks out furthest to the right of a box that is wider inside than it shows.
  const outermost = (box) => {
    let far = null, right = -Infinity;
    for (const child of box.querySelectorAll('*')) {
      const edge = child.getBoundingClientRect().right;
      if (edge > right) { far = child; right = edge; }
    }
    return far ? `${where(far)}: ${(far.textContent || far.value || '').trim().slice(0, 30)}` : '';
  };
  // A shown address may break anywhere and carries ids by design: its own words are not read.
  const address = /(?:https?:\\/\\/|\\/voila\\/|[?&](?:table|key|seat|board|facilitator|join)=)\\S*/g;
  const code = [
    /\\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\\b/g,  // snake_case
    new RegExp(String.raw`\\b(?:${branches.join('|')})-\\d\\b`, 'g'),  // a branch's name: probe-1
  ];
  // An id (a table's, a key): a long run of letters in both cases with a digit or with capitals
  // inside it more than once (qtT9kEi5waSU, qtTkEiwaSUxx), which a word ("JavaScript") is not.
  const ids = (text) => [...text.matchAll(/(?<![\\w-])[\\w-]{10,}(?![\\w-])/g)].map((m) => m[0]).filter((token) =>
    /[a-z]/.test(token) && /[A-Z]/.test(token) && (/\\d/.test(token) || (token.match(/[a-z][A-Z]/g) || []).length > 1));
  for (const part of parts) {
    const walker = document.createTreeWalker(part, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode, el = node.parentElement;
      if (!node.textContent.trim() || !shown(el) || el.closest(machinery)) { continue; }
      const text = node.textContent.replace(address, (link) => ' '.repeat(link.length));
      // Text set in code type is shown as code on purpose (a command, a setting as it is typed).
      if (!el.closest('code, kbd')) {
        for (const pattern of code) {
          for (const match of text.matchAll(pattern)) { note('codeNames', el, match[0]); }
        }
        for (const id of ids(text)) { note('codeNames', el, id); }
      }
      for (const match of text.matchAll(/\\S*\\w\\(s\\)\\S*/g)) { note('plurals', el, match[0]); }
      // Words: runs without spaces; a hyphen, a dash or a slash is a fair place for a line to end.
      for (const match of text.matchAll(/[^\\s\\-\\/\\u00b7\\u2013\\u2014\\u200b]+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
        // Another line: a piece wholly below or above the first (a glyph from another font on
        // the same line only sits a little higher or lower).
        if (rects.some((r) => r.top >= rects[0].bottom - 2 || r.bottom <= rects[0].top + 2)) { note('broken', el, match[0]); }
      }
    }
    for (const el of [part, ...part.querySelectorAll('*')]) {
      if (!shown(el) || el.closest(machinery)) { continue; }
      const what = (el.textContent || el.value || '').trim().slice(0, 30);
      // A box the page scrolls on purpose shows the rest by scrolling; any other box that is
      // wider inside than it shows hides it (ipywidgets' boxes scroll by default: that counts).
      const onPurpose = el.closest(scrolled) !== null;
      // The root's own scrolling is the page's (`measure` checks that it never goes sideways).
      const inner = el.tagName === 'INPUT' || (el === part && !tablesOnly) ? 0 : el.scrollWidth - el.clientWidth;
      if (inner > 1 && !onPurpose) { note('clipped', el, what, 'inside', inner, outermost(el)); }
      // A drop-down shows its chosen option's words in its box, cut at the arrow when too long.
      if (el.tagName === 'SELECT' && el.selectedIndex >= 0) {
        const look = getComputedStyle(el), pen = document.createElement('canvas').getContext('2d');
        pen.font = look.font;
        const words = el.options[el.selectedIndex].text;
        // Chromium's own drop-down keeps ~20 px for its arrow; a styled one (ipywidgets') draws
        // its arrow in its right padding.
        const arrow = look.appearance === 'none' ? 0 : 20;
        const room = el.clientWidth - parseFloat(look.paddingLeft) - parseFloat(look.paddingRight) - arrow;
        const over = Math.round(pen.measureText(words).width - room);
        if (over > 1) { note('clipped', el, words.slice(0, 30), 'inside', over, 'its chosen option'); }
      }
      const box = el.getBoundingClientRect();
      if (box.right > screen + 0.5 && !el.parentElement.closest(scrolled)) {
        note('clipped', el, what, 'past the screen', Math.round(box.right - screen));
      }
    }
  }
  window.__pbScanSeen = seen;
  for (const kind in found) { found[kind] = found[kind].slice(0, 20); }
  return {parts: parts.length, ...found};
}"""

#: Boxes the pages scroll on purpose (overflow auto in the project's own CSS): a game's log,
#: the reference tables and the rulings' tables, Dangerous Ideas' standings.
SCROLLED = ".pb-log ol, .pb-reference-table, .jp-RenderedMarkdown table, .pb-rulings table, .pb-standings .pb-card"


def scan_text(page: Page, root: str = "#rendered_cells", *, tables_only: bool = False, scrolled: str = SCROLLED) -> dict:
    """What a reader would call wrong in the shown text of `root` (every table in it with
    `tables_only`), each as [where, what, ...], at most 20 of a kind:

    - `broken`: a word whose letters sit on more than one line (each word of each text node is
      measured with a Range, so a box squeezed narrower than its longest word is caught however
      the browser got there);
    - `clipped`: a box wider inside than it shows (`scrollWidth > clientWidth`), unless it is
      one of the boxes the page `scrolled` on purpose, a drop-down whose chosen option is cut
      at its arrow, or a box ending past the screen's edge;
    - `codeNames`: snake_case words, Dangerous Ideas' branch names (`probe-1`; a word and a
      number, "a difficulty-4 check", is English), ids like a table's (not in
      code type: a `<code>` shows a command or a setting as it is typed, on purpose);
    - `plurals`: "(s)" plurals ("unit(s)").

    `parts`: how many roots (or tables) were read. Shown addresses are not read for words or
    code names: a link is meant to be copied as it is, and may break anywhere."""
    settled(page)
    return dict(page.evaluate(SCAN_JS, {"root": root, "tablesOnly": tables_only, "scrolled": scrolled, "branches": list(di.HUBS)}))


def show_first(page: Page) -> None:
    """Scroll the first thing the last `scan_text` found into the middle of the screen."""
    page.evaluate("() => { const el = (window.__pbScanSeen || [])[0]; if (el) { el.scrollIntoView({block: 'center'}); } }")


def reads_right(found: dict) -> list[str]:
    """The problems `scan_text` found, one line a kind (want: none)."""
    return [f"{kind}: {found[kind]}" for kind in ("broken", "clipped", "codeNames", "plurals") if found[kind]]


class Devices:
    """Browser contexts, one per device, closed at the end (the `devices` fixture)."""

    def __init__(self, chromium: Browser, timeout_ms: int = LOAD_TIMEOUT_MS) -> None:
        self.chromium = chromium
        self.timeout_ms = timeout_ms
        self.contexts: list[BrowserContext] = []

    def page(self, width: int = 390, height: int = 844, **options: Any) -> Page:
        context = self.chromium.new_context(viewport={"width": width, "height": height}, **options)
        context.set_default_timeout(self.timeout_ms)
        self.contexts.append(context)
        return context.new_page()

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    def __enter__(self) -> Devices:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextmanager
def serving_class(folder: Path, class_size: int, notebook: Path | None = None) -> Iterator[RunningServer]:
    """The playbook served as `playbook serve` serves it for a class of `class_size` (its
    settings, its kernels kept ready), its tables in `folder`; `notebook` alone, if given."""
    settings = serve_settings(class_size=class_size, follow=notebook is None)
    with background_server(notebook or NOTEBOOKS_DIR, folder / "voila.log", db_path=folder / "tables.sqlite3", timeout=180, extra_args=settings.args) as server:
        yield server


def recorded(page: Page) -> list[str]:
    """Every websocket frame the page receives from now on (text, or bytes decoded)."""
    frames: list[str] = []

    def on_socket(socket) -> None:
        socket.on("framereceived", lambda payload: frames.append(payload if isinstance(payload, str) else payload.decode("utf-8", "replace")))

    page.on("websocket", on_socket)
    return frames


#: each element with text of its own inside a root: its text colour and the colour it stands on
#: (the nearest opaque background up the tree), both as #rrggbb.
_TEXT_COLOURS = """root => {
  const hex = c => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(',').map(Number); if (p.length > 3 && p[3] < 0.5) return null;
    return '#' + p.slice(0, 3).map(v => Math.round(v).toString(16).padStart(2, '0')).join(''); };
  const ground = el => { for (let e = el; e; e = e.parentElement) {
    const c = hex(getComputedStyle(e).backgroundColor); if (c) return c; } return '#ffffff'; };
  const found = [];
  for (const el of document.querySelectorAll(root + ' *')) {
    if (![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const fg = hex(getComputedStyle(el).color);
    if (fg) found.push([el.textContent.trim().slice(0, 60), fg, ground(el)]);
  }
  return found;
}"""


def text_contrasts(page: Page, root: str) -> list[tuple[float, str]]:
    """WCAG 2's contrast of each visible text inside `root` against what it stands on, lowest
    first, with the text (a page's light and dark themes each have their own colours)."""
    found = page.evaluate(_TEXT_COLOURS, root)
    return sorted((contrast_ratio(fg, bg), text) for text, fg, bg in found)
