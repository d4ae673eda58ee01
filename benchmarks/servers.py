"""More than one server: two `playbook serve` on one PostgreSQL behind one nginx (the site of
docs/deploy.md), each with 20 pages open in headless Chromium.

Two Leerdam tables, each a board and 19 households; every table's pages are split over both
servers (nginx keeps a browser on one server by its route cookie), so a pledge made on one
server reaches the pages of the other through the store's change signal (PostgreSQL NOTIFY).
Figures: the time from each table's last pledge to each page showing the reveal (the pages' own
clocks: one machine, one clock), on the pages of the same server as that pledge and on the
other's; pledges refused. Needs PLAYBOOK_TEST_POSTGRES (a PostgreSQL URL) and nginx; nothing
here asserts a speed. `python -m benchmarks.servers [--pages N]` runs it alone.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

__all__ = ["format_servers", "rows", "run_servers"]


#: a seat page notes when its pledge was clicked, by its own clock.
PLEDGED = """() => document.addEventListener('click', (event) => {
  if (event.target.closest('.pb-pledge-confirm')) { window.__pledgedAt = Date.now(); }
}, true)"""

CONNECTIONS_PER_PAGE = 4
"""A page's kernel holds up to 4 PostgreSQL connections: its store's pool (1-3) and its LISTEN."""


def _connections_short(url: str, pages: int) -> str:
    """Why PostgreSQL at `url` cannot take `pages` more pages now, or ""."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        limit = int(conn.execute("SHOW max_connections").fetchone()[0])
        used = int(conn.execute("SELECT count(*) FROM pg_stat_activity").fetchone()[0])
    needed = CONNECTIONS_PER_PAGE * pages + 5
    if limit - used < needed:
        return f"{pages} pages need about {needed} PostgreSQL connections, {limit - used} of max_connections={limit} are free (raise it: docs/deploy.md)"
    return ""


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None


def run_servers(pages_per_server: int = 20, quick: bool = False) -> dict[str, Any]:
    """Two servers behind nginx, `pages_per_server` pages each; the figures."""
    import os

    from playwright.sync_api import sync_playwright

    from benchmarks.classroom import WATCH, plays
    from playbook.access import table_keys
    from playbook.links import table_links
    from playbook.serve import background_server, free_port
    from playbook.store import Store
    from rules import leerdam as ld
    from rules import new_game
    from tests.support.browser import LOAD_TIMEOUT_MS, chromium_missing_reason, launch_chromium, open_dashboard
    from tests.support.nginx import NGINX, running_nginx, server_for_route
    from tests.support.stores import fresh_schema

    url = os.environ.get("PLAYBOOK_TEST_POSTGRES")
    reason = chromium_missing_reason() or (None if NGINX.is_file() else "no nginx") or (None if url else "PLAYBOOK_TEST_POSTGRES is not set")
    if quick:  # the smoke run's time goes to the other parts: tests/test_proxy.py plays this set-up
        reason = "a smoke run (--quick) opens no pages here"
    if reason is not None:
        return {"skipped": reason}
    count, households = 2, pages_per_server - 1  # tables of a board and `households` seats
    short = _connections_short(url, count * (households + 1))
    if short:
        return {"skipped": short}
    with tempfile.TemporaryDirectory() as folder, fresh_schema(url, "bench") as db, sync_playwright() as playwright, ExitStack() as stack:
        port = free_port()
        public = f"http://127.0.0.1:{port}/playbook/"
        servers = [
            stack.enter_context(background_server(None, Path(folder) / f"voila-{i}.log", db_path=db, base_url="/playbook/", public_url=public, timeout=120))
            for i in range(2)
        ]
        proxy = stack.enter_context(running_nginx(Path(folder) / "nginx", port, [s.port for s in servers]))
        routes = {server_for_route(proxy + "/playbook/", f"route-{i}"): f"route-{i}" for i in range(64)}
        upstream = [f"127.0.0.1:{s.port}" for s in servers]
        chromium = launch_chromium(playwright)
        store = Store(db)
        tables = []
        for t in range(count):
            names = tuple(f"Household {t + 1}.{i + 1}" for i in range(households))
            table_id = store.create(new_game("leerdam", ld.Setup(names=names), 7 + t), meta={"bots": {}, **table_keys(households)})
            tables.append((table_id, table_links(public, "leerdam", table_id, store.info(table_id).meta, names)))

        def opened(link: str, selector: str, server: int) -> Any:
            context = chromium.new_context(viewport={"width": 390, "height": 844})
            context.set_default_timeout(LOAD_TIMEOUT_MS * 3)
            context.add_cookies([{"name": "playbook_route", "value": routes[upstream[server]], "url": proxy + "/"}])
            page = context.new_page()
            open_dashboard(page, link, selector, timeout_ms=LOAD_TIMEOUT_MS * 3)
            return page

        # page k of table t on server (k + t) % 2: each table split over both servers.
        opened_pages: list[tuple[int, int, Any]] = []  # (table, server, page); seats after the board
        started = time.monotonic()
        for t, (_table_id, links) in enumerate(tables):
            opened_pages.append((t, t % 2, opened(links["board"], ".playbook-board .pb-dyke", t % 2)))
            for seat in range(households):
                server = (seat + 1 + t) % 2
                opened_pages.append((t, server, opened(links["seats"][seat]["url"], ".playbook-seat .pb-pledge-confirm", server)))
        open_s = time.monotonic() - started
        time.sleep(3)
        for _t, _s, page in opened_pages:
            page.evaluate(WATCH)
        phones = [(t, s, page) for t, s, page in opened_pages if page.locator(".pb-pledge-confirm").count()]
        for _t, _s, page in phones:
            page.locator(".pb-pledge input").fill("1")
            page.evaluate(PLEDGED)
        for _t, _s, page in phones:
            page.locator(".pb-pledge-confirm").click(no_wait_after=True)
        seen: dict[int, float | None] = dict.fromkeys(range(len(opened_pages)))
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and None in seen.values():
            for i, (_t, _s, page) in enumerate(opened_pages):
                if seen[i] is None:
                    seen[i] = page.evaluate("() => window.__revealedAt")
            time.sleep(0.2)
        last: dict[int, tuple[float, int]] = {}  # each table's last pledge: (when, its page's server)
        for t, s, page in phones:
            at = page.evaluate("() => window.__pledgedAt")
            if at is not None and (t not in last or at > last[t][0]):
                last[t] = (at, s)
        same, other = [], []
        for i, (t, s, _page) in enumerate(opened_pages):
            if seen[i] is not None:
                (same if s == last[t][1] else other).append((seen[i] - last[t][0]) / 1000)
        refused = sum("✋" in page.locator(".pb-status").inner_text() for _t, _s, page in phones)
        # A table whose pages never showed the reveal: were its pledges all stored (a page that
        # did not draw it), or was one never made (a press that went nowhere)?
        unrevealed = sorted({t for i, (t, _s, _p) in enumerate(opened_pages) if seen[i] is None})
        stored = {t: len(plays(store, tables[t][0])) for t in unrevealed}
        unpledged = [
            f"table {t + 1}, server {s + 1}: {page.locator('.pb-status').inner_text()[:120]!r}"
            for t, s, page in phones
            if t in unrevealed and page.evaluate("() => window.__pledgedAt") is None
        ]
        per_server = [sum(1 for _t, s, _p in opened_pages if s == i) for i in range(2)]
        chromium.close()
    return {
        "servers": 2,
        "pages_per_server": per_server,
        "tables": len(tables),
        "households": households,
        "open_all_s": round(open_s, 1),
        "pages_revealed": len(same) + len(other),
        "pages": len(opened_pages),
        "same_server_median_s": _median(same),
        "other_server_median_s": _median(other),
        "other_server_worst_s": round(max(other), 3) if other else None,
        "worst_s": round(max(same + other), 3) if same + other else None,
        "pledges_refused": refused,
        "unrevealed_tables": {f"table {t + 1}": f"{n} of {households} pledges stored" for t, n in stored.items()},
        "pages_whose_press_was_not_seen": unpledged,
    }


def format_servers(report: dict[str, Any]) -> str:
    if "skipped" in report:
        return f"servers: skipped ({report['skipped']})"
    return (
        f"two servers on one PostgreSQL behind nginx, {report['pages_per_server']} pages, {report['tables']} Leerdam "
        f"table(s) of {report['households']} households, each split over both: reveal after a table's last pledge median "
        f"{report['same_server_median_s']} s on the pledging server's pages, {report['other_server_median_s']} s on the "
        f"other's (worst {report['worst_s']} s; {report['pages_revealed']} of {report['pages']} pages, "
        f"{report['pledges_refused']} pledges refused); opening every page took {report['open_all_s']} s."
        + (f" Not revealed: {report['unrevealed_tables']}; presses not seen: {report['pages_whose_press_was_not_seen']}." if report["unrevealed_tables"] else "")
    )


def rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The figures as rows of the benchmark table."""
    if "skipped" in report:
        return [{"figure": "not measured", "value": report["skipped"], "baseline": "-", "ratio": "-"}]
    pages = "+".join(str(n) for n in report["pages_per_server"])
    same, other = report["same_server_median_s"], report["other_server_median_s"]
    return [
        {"figure": f"reveal on the other server's pages, median ({pages} pages)", "value": f"{other} s", "baseline": f"{same} s same server", "ratio": f"{other / same:.2f}x" if same and other else "-"},
        {"figure": "reveal after the last pledge, worst page", "value": f"{report['worst_s']} s", "baseline": "1 s aim", "ratio": f"{report['worst_s']:.2f}x" if report["worst_s"] else "-"},
        {"figure": "pledges refused", "value": str(report["pledges_refused"]), "baseline": "0 aim", "ratio": "-"},
    ]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m benchmarks.servers", description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20, help="pages per server (default 20)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = run_servers(args.pages)
    print(json.dumps(report, indent=2) if args.json else format_servers(report))
    sys.exit(0)
