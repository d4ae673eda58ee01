"""The classroom figures: one Leerdam table of 20 seats, each seat a headless Chromium page, and
the board, on one Voila server (the `playbook serve` settings).

- the time from the last pledge to each page showing the reveal (median and worst), measured by
  the pages' own clocks (one machine: one clock), beside the bare button's click round trip;
- the memory of the Voila server and its kernels per open seat page (proportional set size, so
  shared libraries count once), beside a bare ipywidgets kernel measured in the same run;
- the kernels still running two minutes after every seat page reloaded once (the old pages'
  kernels must be gone: the aim is 0).

Nothing here asserts a speed. `python -m benchmarks.classroom [--seats N]` runs it alone.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playbook.page_kernel import PAGE_KERNEL

__all__ = ["format_classroom", "plays", "run_classroom"]

#: the page records when its reveal appears, by its own clock.
WATCH = """() => {
  window.__revealedAt = null;
  const look = () => {
    if (window.__revealedAt === null && document.querySelector('.pb-reveal [data-revealed="1"], .pb-board-scene .pb-reveal-total')) {
      window.__revealedAt = Date.now();
    }
  };
  new MutationObserver(look).observe(document.body, {childList: true, subtree: true, attributes: true});
  look();
}"""


def _pss_mb(pid: int) -> float:
    """Proportional set size of one process, in MB (0 when it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def plays(store: Any, table_id: str) -> list[dict[str, Any]]:
    """The table's stored moves (its pledges, at a Leerdam table without bots), oldest first."""
    return [c for c in store.changes(table_id) if c["kind"] == "play"]


def _server_processes(server: Any) -> list[int]:
    from playbook.serve import _descendants

    return [server.process.pid] + [pid for pid, _ in _descendants(server.process.pid)]


def _kernels(server: Any) -> list[int]:
    found = []
    for pid in _server_processes(server)[1:]:
        try:
            if PAGE_KERNEL.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            pass
    return found


@contextlib.contextmanager
def _environment(name: str, value: str) -> Iterator[None]:
    """`name=value` in this process's environment (so in the servers it starts) for a while."""
    before = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


def _bare_kernel_mb(chromium: Any) -> float:
    """A bare one-button notebook's kernel, for scale."""
    from benchmarks.bare_button import NOTEBOOK, write
    from playbook.serve import background_server
    from tests.support.browser import open_dashboard

    write()
    with tempfile.TemporaryDirectory() as folder, background_server(NOTEBOOK, Path(folder) / "voila.log") as server:
        context = chromium.new_context()
        page = context.new_page()
        open_dashboard(page, server.url, ".bare-button")
        time.sleep(2)
        kernels = _kernels(server)
        mb = sum(_pss_mb(pid) for pid in kernels) / max(1, len(kernels))
        context.close()
    return mb


def run_classroom(seats: int = 20, quick: bool = False, wait: float = 120.0) -> dict[str, Any]:
    """Play the pledges of one year on `seats` seat pages and the board; the figures."""
    from playwright.sync_api import sync_playwright

    from playbook.access import table_keys
    from playbook.links import table_links
    from playbook.serve import NOTEBOOKS_DIR, background_server
    from playbook.store import Store
    from rules import leerdam as ld
    from rules import new_game
    from tests.support.browser import LOAD_TIMEOUT_MS, chromium_missing_reason, launch_chromium, open_dashboard

    reason = chromium_missing_reason()
    if reason is not None:
        return {"skipped": reason}
    if quick:
        seats, wait = 3, 5.0
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        bare_mb = _bare_kernel_mb(chromium)
        db = Path(folder) / "tables.sqlite3"
        trace = Path(folder) / "trace.txt"
        # Each kernel notes when it saw each version; servers started later (the tests' own)
        # must not trace into this folder once it is gone.
        with _environment("PLAYBOOK_TRACE", str(trace)), background_server(NOTEBOOKS_DIR / "leerdam.ipynb", Path(folder) / "voila.log", db_path=db, timeout=120) as server:
            idle_mb = sum(_pss_mb(pid) for pid in _server_processes(server))
            store = Store(db)
            names = tuple(f"Household {i + 1}" for i in range(seats))
            table_id = store.create(new_game("leerdam", ld.Setup(names=names), 7), meta={"bots": {}, **table_keys(seats)})
            links = table_links("", "leerdam", table_id, store.info(table_id).meta, names)

            def opened(query: str, selector: str, width: int = 390, height: int = 844) -> Any:
                context = chromium.new_context(viewport={"width": width, "height": height})
                context.set_default_timeout(LOAD_TIMEOUT_MS * 3)
                page = context.new_page()
                open_dashboard(page, server.url + query, selector, timeout_ms=LOAD_TIMEOUT_MS * 3)
                return page

            board = opened(links["board"], ".playbook-board .pb-dyke", 1920, 1080)
            phones = [opened(links["seats"][s]["url"], ".playbook-seat .pb-pledge-confirm") for s in range(seats)]
            time.sleep(3)
            pages = [board, *phones]
            open_mb = sum(_pss_mb(pid) for pid in _server_processes(server))
            for page in pages:
                page.evaluate(WATCH)
            for phone in phones:
                phone.locator(".pb-pledge input").fill("1")
            for phone in phones:
                phone.locator(".pb-pledge-confirm").click(no_wait_after=True)
            last = phones[-1].evaluate("() => Date.now()")
            deadline = time.monotonic() + 60
            seen: list[float | None] = [None] * len(pages)
            lost = 0
            while time.monotonic() < deadline and None in seen:
                for i, page in enumerate(pages):
                    if seen[i] is None:
                        try:
                            seen[i] = page.evaluate("() => window.__revealedAt")
                        except Exception:
                            lost += 1
                            seen[i] = float("nan")
                time.sleep(0.2)
            seen = [None if t != t else t for t in seen]  # NaN: a page that reloaded
            delays = [(t - last) / 1000 for t in seen if t is not None]
            # The server's side alone: from the reveal's commit to each kernel redrawing it.
            pledges = plays(store, table_id)
            reveal = pledges[seats - 1] if len(pledges) >= seats else pledges[-1]
            kernel_side, drawn_side = [], []
            for line in trace.read_text().splitlines() if trace.exists() else ():
                stamp, _role, _seat, version, drawn = line.split()
                if int(version) >= reveal["version"]:
                    kernel_side.append(float(stamp) - reveal["at"])
                    drawn_side.append(float(drawn) - reveal["at"])
            commit_after_click = reveal["at"] - last / 1000
            refused = sum("✋" in phone.locator(".pb-status").inner_text() for phone in phones)
            before = len(_kernels(server))
            for phone in phones:
                phone.reload()
            for phone in phones:
                phone.locator(".playbook-seat").first.wait_for(state="visible", timeout=LOAD_TIMEOUT_MS * 3)
            time.sleep(wait)
            after = len(_kernels(server))
            chromium.close()
    return {
        "seats": seats,
        "reveal_median_s": round(statistics.median(delays), 3) if delays else None,
        "reveal_worst_s": round(max(delays), 3) if delays else None,
        "pages_revealed": len(delays),
        "reveal_commit_after_last_click_s": round(commit_after_click, 3),
        "kernel_reveal_median_s": round(statistics.median(kernel_side), 3) if kernel_side else None,
        "kernel_reveal_worst_s": round(max(kernel_side), 3) if kernel_side else None,
        "kernel_drawn_median_s": round(statistics.median(drawn_side), 3) if drawn_side else None,
        "kernel_drawn_worst_s": round(max(drawn_side), 3) if drawn_side else None,
        "pages": len(pages),
        "pledges_refused": refused,
        "pledges_stored": len(pledges),
        "pages_reloaded_by_themselves": lost,
        "mb_per_seat_page": round((open_mb - idle_mb) / len(pages), 1),
        "bare_kernel_mb": round(bare_mb, 1),
        "kernels_before_reload": before,
        "kernels_left_behind": max(0, after - len(pages)),
        "wait_s": wait,
        "settings": "Voila: a kernel per page, cull_idle_timeout=60 s, cull_interval=10 s, cull_connected=False; pages go quiet 30 s after their page stops beating",
    }


def format_classroom(report: dict[str, Any]) -> str:
    if "skipped" in report:
        return f"classroom: skipped ({report['skipped']})"
    return (
        f"classroom, {report['seats']} seat pages and the board: reveal on every page after the last pledge "
        f"median {report['reveal_median_s']} s, worst {report['reveal_worst_s']} s ({report['pages_revealed']} of {report['pages']} pages, "
        f"{report['pledges_refused']} pledges refused, {report['pledges_stored']} of {report['seats']} stored, the reveal committed "
        f"{report['reveal_commit_after_last_click_s']} s after the last click; every kernel had drawn it {report['kernel_drawn_worst_s']} s after the commit); {report['mb_per_seat_page']} MB per page beside {report['bare_kernel_mb']} MB "
        f"for a bare ipywidgets kernel; {report['kernels_left_behind']} kernels left {report['wait_s']:.0f} s after every seat page reloaded. "
        f"{report['settings']}."
    )


def rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The figures as rows of the benchmark table."""
    if "skipped" in report:
        return []
    return [
        {"figure": f"reveal after the last pledge, median of {report['pages']} pages", "value": f"{report['reveal_median_s']} s", "baseline": "1 s aim", "ratio": f"{report['reveal_median_s']:.2f}x" if report["reveal_median_s"] is not None else "-"},
        {"figure": f"server side: the reveal's commit to each kernel having drawn it, median of {report['pages']}", "value": f"{report['kernel_drawn_median_s']} s", "baseline": "1 s aim", "ratio": f"{report['kernel_drawn_median_s']:.2f}x" if report["kernel_drawn_median_s"] is not None else "-"},
        {"figure": "reveal after the last pledge, worst page", "value": f"{report['reveal_worst_s']} s", "baseline": "1 s aim", "ratio": f"{report['reveal_worst_s']:.2f}x" if report["reveal_worst_s"] is not None else "-"},
        {"figure": "memory per open page (Voila and kernels, PSS)", "value": f"{report['mb_per_seat_page']} MB", "baseline": f"{report['bare_kernel_mb']} MB bare kernel", "ratio": f"{report['mb_per_seat_page'] / report['bare_kernel_mb']:.2f}x" if report["bare_kernel_mb"] else "-"},
        {"figure": f"kernels left {report['wait_s']:.0f} s after {report['seats']} pages reloaded", "value": str(report["kernels_left_behind"]), "baseline": f"{report['kernels_before_reload']} before", "ratio": "-"},
    ]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m benchmarks.classroom", description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=20)
    parser.add_argument("--wait", type=float, default=120.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = run_classroom(args.seats, wait=args.wait)
    print(json.dumps(report, indent=2) if args.json else format_classroom(report))
    sys.exit(0)
