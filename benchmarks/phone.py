"""A phone's own part of a seat: the time from navigation to a usable seat page in Chromium with
its CPU slowed as DevTools and Lighthouse model phones (1x this machine, 4x a mid-range phone,
10x a low-end one), beside the bare one-button Voila page (Voila's own template and frontend)
under the same slowdown in the same run.

Pages: a New Rule seat and a Leerdam seat (usable: their main button visible and enabled), and
the class's join page (usable: its name box; then typed, joined, and the lobby shown). Each on a
first visit (a fresh browser context: an empty cache) and a second visit (the same context after
the join page, as a student's phone opens its seat after joining; the bare page: after itself).
Per load: the time, the requests the server answered (cached files are not asked again), the
bytes they took, when the server had written the page (its last byte: a seat's kernel opens the
table first, the server's part), the layout shift (CLS: 'layout-shift' entries without recent
input, summed), the DOM nodes and Chromium's main-thread task time. Then Lighthouse's mobile performance score
of the seat and join pages (Lighthouse pinned in tools/lighthouse, on Debian's Chromium).

Every page is served ready (two kernels kept ready per notebook, made up between loads), so what
is timed is the phone, not a kernel starting. Nothing here asserts a speed.
`python -m benchmarks.phone [--quick] [--json]` runs it alone.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

__all__ = ["LIGHTHOUSE", "PAGES", "RATES", "format_phone", "lighthouse_score", "phone_rows", "run_phone"]

REPO = Path(__file__).resolve().parent.parent
#: Lighthouse at the version tools/lighthouse/package-lock.json pins (`make lighthouse`).
LIGHTHOUSE = REPO / "tools" / "lighthouse" / "node_modules" / "lighthouse" / "cli" / "index.js"
#: CPU slowdowns (CDP Emulation.setCPUThrottlingRate) and the loads of each page at each.
RATES = ((1, 3), (4, 2), (10, 1))
#: kernels kept ready per notebook: a first and a second visit of one round.
READY = 2
#: what makes each page usable: its main control, visible and enabled.
PAGES = {
    "bare": ".bare-button",
    "new-rule seat": ".playbook-new-rule.playbook-seat .pb-draw",
    "leerdam seat": ".playbook-leerdam.playbook-seat .pb-pledge-confirm",
    "join": ".playbook-class-join .pb-name-box input",
}
LOBBY = ".playbook-class-student"
LOAD_TIMEOUT_MS = 120_000

#: summed layout shift without recent input, from the page's start (an init script).
_SHIFT = """(() => {
  window.__pbShift = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__pbShift += e.value;
  }).observe({type: "layout-shift", buffered: true});
})();"""

#: milliseconds since navigation once `selector` is visible and enabled.
_USABLE = """(selector) => {
  const el = document.querySelector(selector);
  if (!el || el.disabled) return false;
  const box = el.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden" ? performance.now() : false;
}"""

#: what the page fetched over the network: resources with bytes transferred (a file from the
#: cache transfers none), the document included.
_FETCHED = """() => {
  const all = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")];
  const asked = all.filter((e) => e.transferSize > 0);
  return {requests: asked.length, bytes: asked.reduce((n, e) => n + e.transferSize, 0),
          nodes: document.getElementsByTagName("*").length, shift: window.__pbShift || 0,
          written: performance.getEntriesByType("navigation")[0].responseEnd};
}"""


def _load(context: Any, url: str, selector: str, rate: int, then: Any = None) -> dict[str, Any]:
    """Open `url` in a new page of `context` at `rate`x CPU slowdown; its figures (None: it
    did not come within `LOAD_TIMEOUT_MS`)."""
    try:
        figures = _figures(context, url, selector, rate, then)
    except Exception as error:  # a page that never came is a figure too: the run goes on
        print(f"  {rate}x {selector}: {type(error).__name__}: {str(error).splitlines()[0]}", file=sys.stderr, flush=True)
        return {"usable_s": None}
    print(f"  {rate}x {selector}: usable {figures['usable_s']} s", file=sys.stderr, flush=True)
    return figures


def _figures(context: Any, url: str, selector: str, rate: int, then: Any) -> dict[str, Any]:
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    cdp.send("Performance.enable")
    page.goto(url, wait_until="commit", timeout=LOAD_TIMEOUT_MS)
    usable_ms = page.wait_for_function(_USABLE, arg=selector, polling=100, timeout=LOAD_TIMEOUT_MS).json_value()
    extra = then(page) if then is not None else {}
    page.wait_for_timeout(1000)  # a late shift counts too
    fetched = page.evaluate(_FETCHED)
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    page.close(run_before_unload=True)  # as a tab closes: Voila ends its kernel
    written_s = round(fetched.pop("written") / 1000, 2)
    return {"usable_s": round(usable_ms / 1000, 2), "written_s": written_s, **extra, **fetched, "task_s": round(metrics.get("TaskDuration", 0.0) / rate, 2)}


def _join(name: str) -> Any:
    def typed(page: Any) -> dict[str, Any]:
        page.locator(PAGES["join"]).fill(name)
        page.locator(".playbook-class-join .pb-join-class").click()
        page.locator(LOBBY).wait_for(state="visible", timeout=LOAD_TIMEOUT_MS)
        return {"lobby_s": round(page.evaluate("performance.now()") / 1000, 2)}

    return typed


def _wait_ready(servers: Sequence[Any], want: Sequence[int], most: float = 120.0) -> None:
    """Until each server holds its ready kernels again (the pools made up after the pages)."""
    from benchmarks.classroom import _kernels

    until = time.monotonic() + most
    # at least: a closed page's kernel may linger until Voila culls it
    while time.monotonic() < until and any(len(_kernels(s)) < n for s, n in zip(servers, want, strict=True)):
        time.sleep(0.5)
    time.sleep(1)  # a kernel just started has settled


def lighthouse_score(url: str) -> dict[str, Any]:
    """Lighthouse's mobile run (its default: a phone's screen, simulated 4x CPU and slow 4G) of
    `url`: the performance score and its layout shift and largest paint; or why there is none."""
    if not LIGHTHOUSE.is_file():
        return {"skipped": "Lighthouse not installed (make lighthouse)"}
    node = shutil.which("node")
    if node is None:
        return {"skipped": "node not found"}
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "report.json"
        env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
        done = subprocess.run(
            [node, str(LIGHTHOUSE), url, "--only-categories=performance", "--output=json", f"--output-path={out}", "--quiet", "--chrome-flags=--headless=new --no-sandbox"],
            env=env, capture_output=True, text=True, timeout=300, check=False,
        )
        if not out.is_file():
            return {"skipped": f"Lighthouse failed: {(done.stderr.strip().splitlines() or ['no output'])[-1]}"}
        report = json.loads(out.read_text())
    audits = report["audits"]
    return {
        "score": report["categories"]["performance"]["score"],
        "cls": round(audits["cumulative-layout-shift"]["numericValue"], 3),
        "lcp_s": round(audits["largest-contentful-paint"]["numericValue"] / 1000, 1),
        "tbt_ms": round(audits["total-blocking-time"]["numericValue"]),
    }


@contextmanager
def _servers(folder: Path) -> Iterator[tuple[Any, Any, dict[str, Any]]]:
    """The playbook's server (its notebooks and a class ready) and the bare page's, both with
    `READY` kernels kept ready per page; and each page's address (a seat's: a function that
    makes a new table, since a seat opened on one device is not another device's)."""
    from benchmarks.bare_button import NOTEBOOK as BARE
    from playbook import classes as cl
    from playbook.links import class_links
    from playbook.serve import CLASS_PAGE, NOTEBOOKS_DIR, background_server
    from playbook.store import Store
    from rules.games import card
    from tests.support.tables import make_table

    db = folder / "tables.sqlite3"
    store = Store(db)

    def seat(slug: str, names: tuple[str, ...]) -> Any:
        return lambda: playbook.url + f"voila/render/{card(slug).notebook}" + make_table(store, slug, names)[1]["seats"][0]["url"]

    record = cl.create_class(store, "leerdam", 40, seed=5)
    pools = {"default": {"pool_size": 0}, **{name: {"pool_size": READY} for name in (CLASS_PAGE, "new_rule.ipynb", "leerdam.ipynb")}}
    quick = ["--VoilaConfiguration.preheat_kernel=True", "--PlaybookVoila.refill_quiet_seconds=1"]
    with ExitStack() as stack:
        playbook = stack.enter_context(background_server(NOTEBOOKS_DIR, folder / "voila.log", db_path=db, timeout=180, extra_args=[*quick, f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}"]))
        # The bare page as Voila draws it: its own lab template and frontend.
        bare = stack.enter_context(background_server(BARE, folder / "bare.log", db_path=folder / "bare.sqlite3", timeout=180, pool_size=READY, extra_args=[*quick[1:], "--VoilaConfiguration.template=lab"]))
        urls = {
            "bare": bare.url,
            "new-rule seat": seat("new-rule", ("Anneliese", "Bo", "Zoë")),
            "leerdam seat": seat("leerdam", ("Anneliese", "Bo", "Zoë", "Daan")),
            "join": class_links(playbook.url, record)["join"],
        }
        yield playbook, bare, urls


def run_phone(quick: bool = False, lighthouse: bool = True) -> dict[str, Any]:
    """Every page at every slowdown, first and second visit; the medians, and Lighthouse's."""
    from playwright.sync_api import sync_playwright

    from tests.support.browser import chromium_missing_reason, launch_chromium

    reason = chromium_missing_reason()
    if reason is not None:
        return {"skipped": reason}
    rates = ((1, 1), (10, 1)) if quick else RATES
    loads: dict[str, list[dict[str, Any]]] = {}
    scores: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="playbook-phone-") as tmp, _servers(Path(tmp)) as (playbook, bare, urls), sync_playwright() as p:
        browser = launch_chromium(p)
        want = (3 * READY, READY)  # class, new rule, leerdam; bare
        student = 0
        try:
            for rate, times in rates:
                for _ in range(times):
                    _wait_ready((playbook, bare), want)
                    # the bare page: a fresh context, then the same page again in it
                    context = browser.new_context(viewport={"width": 390, "height": 844})
                    context.add_init_script(_SHIFT)
                    loads.setdefault(f"bare {rate}x first", []).append(_load(context, urls["bare"], PAGES["bare"], rate))
                    loads.setdefault(f"bare {rate}x second", []).append(_load(context, urls["bare"], PAGES["bare"], rate))
                    context.close()
                    for seat in ("new-rule seat", "leerdam seat"):
                        context = browser.new_context(viewport={"width": 390, "height": 844})
                        context.add_init_script(_SHIFT)
                        loads.setdefault(f"{seat} {rate}x first", []).append(_load(context, urls[seat](), PAGES[seat], rate))
                        context.close()
                    _wait_ready((playbook, bare), want)
                    for seat in ("new-rule seat", "leerdam seat"):
                        # a student's phone: the join page, then their seat from its cache
                        context = browser.new_context(viewport={"width": 390, "height": 844})
                        context.add_init_script(_SHIFT)
                        student += 1
                        joined = _load(context, urls["join"], PAGES["join"], rate, then=_join(f"Student {student}"))
                        if seat == "new-rule seat":
                            loads.setdefault(f"join {rate}x first", []).append(joined)
                        loads.setdefault(f"{seat} {rate}x second", []).append(_load(context, urls[seat](), PAGES[seat], rate))
                        context.close()
            if lighthouse and not quick:
                for name in ("leerdam seat", "new-rule seat", "join"):
                    _wait_ready((playbook, bare), want)
                    scores[name] = lighthouse_score(urls[name]() if callable(urls[name]) else urls[name])
        finally:
            browser.close()
    return {"rates": [r for r, _ in rates], "loads": {k: _summary(v) for k, v in loads.items()}, "lighthouse": scores}


def _summary(every: list[dict[str, Any]]) -> dict[str, Any]:
    """The median of each figure over the loads that came, the range of the time, and how many
    did not come."""
    runs = [r for r in every if r["usable_s"] is not None]
    if not runs:
        return {"usable_s": None, "failed": len(every)}
    keys = runs[0].keys()
    out: dict[str, Any] = {k: round(statistics.median(r[k] for r in runs), 3) for k in keys}
    out["usable_range_s"] = [min(r["usable_s"] for r in runs), max(r["usable_s"] for r in runs)]
    out["runs"], out["failed"] = len(runs), len(every) - len(runs)
    return out


def phone_rows(report: dict[str, Any]) -> list[dict[str, str]]:
    """The rows of `python -m benchmarks`' table: figure, value, baseline, ratio."""
    rows = []
    loads = report.get("loads", {})
    for rate in report.get("rates", []):
        for visit in ("first", "second"):
            base = loads.get(f"bare {rate}x {visit}")
            for name in ("new-rule seat", "leerdam seat", "join"):
                r = loads.get(f"{name} {rate}x {visit}")
                if r is None or base is None:
                    continue
                if r["usable_s"] is None or base["usable_s"] is None:
                    rows.append({"figure": f"{name}, {rate}x CPU, {visit} visit, usable", "value": "did not come" if r["usable_s"] is None else "-", "baseline": "did not come" if base["usable_s"] is None else f"bare {base['usable_s']} s", "ratio": "-"})
                    continue
                lo, hi = r["usable_range_s"]
                value = f"{r['usable_s']} s ({lo}-{hi}), the page written by {r['written_s']} s; {r['requests']:g} requests, {r['bytes'] / 1e6:.2f} MB, CLS {r['shift']:.3f}, {r['nodes']:g} nodes"
                if name == "join":
                    value += f"; lobby {r['lobby_s']} s"
                ratio = f"{r['usable_s'] / base['usable_s']:.2f}x" if base["usable_s"] else "-"
                rows.append({"figure": f"{name}, {rate}x CPU, {visit} visit, usable", "value": value, "baseline": f"bare {base['usable_s']} s, {base['requests']:g} requests", "ratio": ratio})
    for name, s in report.get("lighthouse", {}).items():
        value = s.get("skipped") or f"{s['score']:.2f} (CLS {s['cls']}, LCP {s['lcp_s']} s, TBT {s['tbt_ms']} ms)"
        rows.append({"figure": f"Lighthouse mobile performance, {name}", "value": value, "baseline": "aim 0.7", "ratio": "-"})
    return rows


def format_phone(report: dict[str, Any]) -> str:
    if "skipped" in report:
        return f"phone: skipped ({report['skipped']})"
    return "\n".join(f"{r['figure']:<48} {r['value']}   [{r['baseline']}; {r['ratio']}]" for r in phone_rows(report))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1x and 10x once, no Lighthouse")
    parser.add_argument("--no-lighthouse", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = run_phone(quick=args.quick, lighthouse=not args.no_lighthouse)
    print(json.dumps(report, indent=1) if args.json else format_phone(report))


if __name__ == "__main__":
    main()
