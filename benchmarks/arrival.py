"""A class arrives at once: 30 seat pages (two Leerdam villages of 15) opened in the same second,
on the server `playbook serve` runs (its own settings: `serve_settings`), each a headless
Chromium phone.

Figures: the pages usable (their seat's pledge button showing), the time from opening to usable
(median and worst), the pages that said nothing while they waited (the aim is none: a page is
usable or says it is on its way), the pages that retried by themselves, the memory per page
(Voila and its kernels, proportional set size) and the kernels left two minutes after every page
closed (beyond the ones Voila keeps ready).

Nothing here asserts a speed. `python -m benchmarks.arrival [--pages N] [--json]` runs it alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.classroom import _kernels, _pss_mb

__all__ = ["format_arrival", "format_join_storm", "rows", "run_arrival", "run_join_storm"]

#: what a usable seat page shows: its own pledge button.
USABLE = ".playbook-seat .pb-pledge-confirm"
#: what a page that is still on its way shows (the template's watchdog).
SAYS = "#playbook-starting, #playbook-lost"


#: a CPU group of the simulated phones' own (cgroup v1 "cpu", as root), run only when the server
#: leaves a core idle.
PHONES_CGROUP = Path("/sys/fs/cgroup/cpu/playbook-phones")


def _phones_aside(pids: list[int]) -> str:
    """Put the simulated phones where they take only what the server leaves; how, in words.

    In the room every phone draws its own page on its own processor; here they share the
    server's two cores, and 30 Chromium pages take more CPU than the server (about 8 CPU-seconds
    a page in a burst, 3.6 alone). As root, a CPU group at idle priority (`cpu.idle`, else the
    lowest `cpu.shares`) keeps every server process ahead of every phone, whatever session it
    runs in; the phones' own drawing then comes after the server's part, so "served" is the
    server's figure and "usable" the phones' on these two cores. Elsewhere the phones get the
    lowest nice value, which orders them only within the benchmark's own session (Linux
    autogroups share the processor between sessions first).
    """
    try:
        PHONES_CGROUP.mkdir(exist_ok=True)
        idle = PHONES_CGROUP / "cpu.idle"
        if idle.exists():
            idle.write_text("1")
        else:
            (PHONES_CGROUP / "cpu.shares").write_text("2")
        for pid in pids:  # pages' processes are forked from these and stay in the group
            (PHONES_CGROUP / "cgroup.procs").write_text(str(pid))
        return "in a CPU group at idle priority (the server's processes always first, as if the phones were elsewhere)"
    except OSError:
        pass
    for pid in pids:
        try:
            os.setpriority(os.PRIO_PROCESS, pid, 19)
        except OSError:
            pass
    return "at nice 19 (sharing the cores with the server)"


async def _phones_done(playwright: Any, browser: Any) -> None:
    await browser.close()
    await playwright.stop()
    try:
        PHONES_CGROUP.rmdir()  # empty once Chromium is gone
    except OSError:
        pass


async def _phones() -> tuple[Any, Any, str]:
    """Headless Chromium standing for the class's phones, put aside (`_phones_aside`)."""
    from playwright.async_api import async_playwright

    from tests.browser import CHROMIUM, CHROMIUM_ARGS

    playwright = await async_playwright().start()
    browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS))
    return playwright, browser, _phones_aside(_browser_pids())


def _watch_served(response: Any, result: dict[str, Any], opened_at: float) -> asyncio.Task[None] | None:
    """A task that notes `served_s` in `result` when the page's HTML ends: Voila sends its last
    byte once the kernel has run the notebook, so the server's part is done then."""
    if response is None:
        return None

    async def served() -> None:
        try:
            await response.finished()
            result["served_s"] = round(time.monotonic() - opened_at, 2)
        except Exception:  # noqa: BLE001 - cut off: never served
            pass

    return asyncio.create_task(served())


async def _open_page(browser: Any, url: str, opened_at: float, deadline: float) -> dict[str, Any]:
    """Open `url` on a phone-sized page and watch it until it is usable or `deadline` passes."""
    context = await browser.new_context(viewport={"width": 390, "height": 844})
    page = await context.new_page()
    loads = 0

    def loaded(_: Any) -> None:
        nonlocal loads
        loads += 1

    page.on("load", loaded)
    result: dict[str, Any] = {"usable_s": None, "served_s": None, "said": False, "retried": 0}
    try:
        response = await page.goto(url, wait_until="commit", timeout=int((deadline - time.monotonic()) * 1000))
    except Exception:  # noqa: BLE001 - a page the server never answered: not usable, counted as such
        result["context"] = context
        return result

    serving = _watch_served(response, result, opened_at)
    while time.monotonic() < deadline:
        try:
            if await page.locator(USABLE).first.is_visible():
                result["usable_s"] = round(time.monotonic() - opened_at, 2)
                break
            if not result["said"] and await page.locator(SAYS).count():
                result["said"] = True
        except Exception:  # noqa: BLE001 - the page is reloading itself: look again
            pass
        await asyncio.sleep(0.25)
    result["retried"] = max(0, loads - 1)
    result["context"] = context
    if serving is not None and not serving.done():
        serving.cancel()
    return result


async def _arrive(browser: Any, server_url: str, urls: list[str], timeout: float) -> list[dict[str, Any]]:
    opened_at = time.monotonic()
    deadline = opened_at + timeout
    # Every page is asked for within the same second: the class presses its links together.
    tasks = [asyncio.create_task(_open_page(browser, server_url + url, opened_at, deadline)) for url in urls]
    return list(await asyncio.gather(*tasks))


async def _alone(browser: Any, url: str) -> dict[str, Any]:
    """One page opened alone on the quiet server: its times (and its context closed)."""
    opened_at = time.monotonic()
    result = await _open_page(browser, url, opened_at, opened_at + 120)
    await result.pop("context").close()
    return result


def _cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time of `pids` so far (their waited-for children included)."""
    import os as _os

    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(f) for f in fields[11:15]) / _os.sysconf("SC_CLK_TCK")
    return total


def _browser_pids() -> list[int]:
    from playbook.serve import _descendants

    found = []
    for pid, _ in _descendants(os.getpid()):
        try:
            if b"chrom" in Path(f"/proc/{pid}/cmdline").read_bytes()[:200]:
                found.append(pid)
        except OSError:
            pass
    return found


def _ready(server: Any, settings: Any) -> tuple[float, int]:
    """Wait until the kernels Voila keeps ready are up (as in a classroom, where the server
    starts before the lesson); a ready kernel's memory then (MB, the mean) and their count."""
    ready_by = time.monotonic() + 420
    while len(_kernels(server)) < settings.ready_kernels and time.monotonic() < ready_by:
        time.sleep(1)
    time.sleep(3 if settings.ready_kernels else 0)
    kernels = _kernels(server)
    return (sum(_pss_mb(pid) for pid in kernels) / len(kernels) if kernels else 0.0), len(kernels)


def _mb_per_page(server: Any, pages: int, ready_mb: float) -> float:
    """Voila and its kernels (PSS) per open page: every kernel beyond one per page is a ready
    kernel no page took, counted at `ready_mb` and left out."""
    kernels = _kernels(server)
    total = sum(_pss_mb(pid) for pid in [server.process.pid, *kernels])
    return round((total - max(0, len(kernels) - pages) * ready_mb) / max(1, pages), 1)


def run_arrival(pages: int = 30, tables: int = 2, quick: bool = False, timeout: float = 180.0, wait: float = 120.0, preheat: int | None = None) -> dict[str, Any]:
    """Open `pages` seat pages of `tables` Leerdam tables at once; the figures."""
    from playbook.access import table_keys, table_links
    from playbook.serve import NOTEBOOKS_DIR, background_server, seats_waiting, serve_settings
    from playbook.store import Store
    from rules import leerdam as ld
    from rules import new_game
    from tests.browser import chromium_missing_reason

    reason = chromium_missing_reason()
    if reason is not None:
        return {"skipped": reason}
    if quick:
        pages, tables, timeout, wait = 6, 1, 120.0, 5.0
    size = -(-pages // tables)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "tables.sqlite3"
        # The tables are prepared before the lesson (their slips handed out), then the server
        # starts with the headline command's settings for them.
        store = Store(db)
        urls = []
        for t in range(tables + 1):  # the last table's first seat is the page opened alone
            count = size if t < tables else 5
            names = tuple(f"Household {t + 1}.{i + 1}" for i in range(count))
            table_id = store.create(new_game("leerdam", ld.Setup(names=names), 7 + t), meta={"bots": {}, **table_keys(count)})
            links = table_links("", "leerdam", table_id, store.info(table_id).meta, names)
            urls += ["voila/render/leerdam.ipynb" + s["url"] for s in links["seats"]]
        alone_url, urls = urls[pages], urls[:pages]
        settings = serve_settings(class_size=pages, preheat=preheat, waiting=seats_waiting(store))
        with background_server(NOTEBOOKS_DIR, Path(folder) / "voila.log", db_path=db, timeout=180, extra_args=settings.args) as server:
            loop = asyncio.new_event_loop()
            try:
                playwright, browser, phones = loop.run_until_complete(_phones())
                _ready(server, settings)
                alone = loop.run_until_complete(_alone(browser, server.url + alone_url))
                ready_mb, idle_kernels = _ready(server, settings)  # its ready kernel made up again
                server_cpu = _cpu_seconds([server.process.pid])
                kernels_cpu = _cpu_seconds(_kernels(server))  # the ready kernels' start, before the burst
                browser_cpu = _cpu_seconds(_browser_pids())
                results = loop.run_until_complete(_arrive(browser, server.url, urls, timeout))
                usable = [r["usable_s"] for r in results if r["usable_s"] is not None]
                cpu = {
                    "voila": round(_cpu_seconds([server.process.pid]) - server_cpu, 1),
                    "kernels": round(_cpu_seconds(_kernels(server)) - kernels_cpu, 1),
                    "chromium": round(_cpu_seconds(_browser_pids()) - browser_cpu, 1),
                }
                time.sleep(3)
                mb_per_page = _mb_per_page(server, len(urls), ready_mb)
                for r in results:
                    loop.run_until_complete(r.pop("context").close())
                loop.run_until_complete(_phones_done(playwright, browser))
            finally:
                loop.close()
            closed_at = time.monotonic()
            while time.monotonic() - closed_at < wait and len(_kernels(server)) > settings.ready_kernels:
                time.sleep(2)
            left = max(0, len(_kernels(server)) - settings.ready_kernels)
            if os.environ.get("PLAYBOOK_BENCH_LOG"):  # keep Voila's log to read afterwards
                shutil.copy(server.log_path, os.environ["PLAYBOOK_BENCH_LOG"])
    silent = sum(1 for r in results if r["usable_s"] is None and not r["said"])
    served = [r["served_s"] for r in results if r["served_s"] is not None]
    # A phone's own part: from its page served to its seat drawn, measured on the page alone.
    own = round(alone["usable_s"] - alone["served_s"], 1) if alone["usable_s"] is not None and alone["served_s"] is not None else None
    return {
        "pages": len(urls),
        "tables": tables,
        "usable": len(usable),
        "usable_median_s": round(statistics.median(usable), 1) if usable else None,
        "usable_worst_s": round(max(usable), 1) if usable else None,
        "served_median_s": round(statistics.median(served), 1) if served else None,
        "served_worst_s": round(max(served), 1) if served else None,
        "alone_served_s": alone["served_s"],
        "alone_usable_s": alone["usable_s"],
        "own_phone_worst_s": round(max(served) + own, 1) if served and own is not None and len(served) == len(urls) else None,
        "phones": phones,
        "silent": silent,
        "said_so_while_waiting": sum(1 for r in results if r["said"]),
        "retried": sum(1 for r in results if r["retried"]),
        "mb_per_page": mb_per_page,
        "ready_kernel_mb": round(ready_mb, 1),
        "kernels_idle_before": idle_kernels,
        "cpu_s": cpu,
        "kernels_left": left,
        "wait_s": wait,
        "timeout_s": timeout,
        "settings": settings.summary,
    }


async def _student(browser: Any, url: str, name: str, opened_at: float, deadline: float) -> dict[str, Any]:
    """One phone of the join storm: open the class address, type a name, join, wait for the
    seat (the deal comes when everyone is in), pledge when told; its times."""
    context = await browser.new_context(viewport={"width": 390, "height": 844})
    page = await context.new_page()
    result: dict[str, Any] = {"served_s": None, "joined_s": None, "usable_s": None, "revealed_s": None, "context": context, "page": page}
    try:
        response = await page.goto(url, wait_until="commit", timeout=int((deadline - time.monotonic()) * 1000))
        result["serving"] = _watch_served(response, result, opened_at)  # the server's part of the lobby
        box = page.locator(".playbook-class-join .pb-name-box input")
        await box.wait_for(state="visible", timeout=int((deadline - time.monotonic()) * 1000))
        await box.fill(name)
        await page.locator(".playbook-class-join .pb-join-class").click()
        await page.locator(".playbook-class-student").wait_for(state="visible", timeout=int((deadline - time.monotonic()) * 1000))
        result["joined_s"] = round(time.monotonic() - opened_at, 2)
        await page.locator(USABLE).wait_for(state="visible", timeout=int((deadline - time.monotonic()) * 1000))
        result["usable_s"] = round(time.monotonic() - opened_at, 2)
    except Exception as exc:  # noqa: BLE001 - a phone that did not get there is counted as such
        result["error"] = type(exc).__name__
    return result


async def _storm(server_url: str, store: Any, record: Any, students: int, timeout: float) -> tuple[Any, Any, list[dict[str, Any]], float | None, str]:
    from playbook import classes as cl

    playwright, browser, phones = await _phones()
    opened_at = time.monotonic()
    deadline = opened_at + timeout
    tasks = []
    for i in range(students):
        tasks.append(asyncio.create_task(_student(browser, f"{server_url}j/{record.code}", f"Student {i + 1}", opened_at, deadline)))
        await asyncio.sleep(5.0 / students)  # the class opens the address within 5 s
    # The facilitator deals once everyone is in the lobby.
    while time.monotonic() < deadline and len(cl.load_class(store, record.id).students) < students:
        await asyncio.sleep(0.25)
    fresh = cl.load_class(store, record.id)
    fresh = cl.submit(store, fresh.id, cl.Deal(), fresh.version)
    cl.submit(store, fresh.id, cl.Start(), fresh.version)
    dealt_s = round(time.monotonic() - opened_at, 2)
    results = await asyncio.gather(*tasks)
    for r in results:
        r["dealt_s"] = dealt_s
    # Every village pledges at once; the reveal on every page.
    reveal_s = None
    seated = [r for r in results if r["usable_s"] is not None]
    if seated:
        for r in seated:
            await r["page"].locator(".pb-pledge input").fill("1")
        clicked = time.monotonic()
        await asyncio.gather(*(r["page"].locator(".pb-pledge-confirm").click(no_wait_after=True) for r in seated))
        waits = []
        for r in seated:
            try:
                await r["page"].locator('.pb-reveal [data-revealed="1"]').first.wait_for(state="visible", timeout=60_000)
                waits.append(time.monotonic() - clicked)
            except Exception:  # noqa: BLE001 - not revealed in time
                pass
        reveal_s = round(max(waits), 2) if len(waits) == len(seated) else None
    return playwright, browser, list(results), reveal_s, phones


def run_join_storm(students: int = 30, quick: bool = False, timeout: float = 240.0) -> dict[str, Any]:
    """30 phones open the class address within 5 s, type a name, and are dealt into Leerdam
    villages; from opening the address to the seat page usable; then every village pledges."""
    from playbook import classes as cl
    from playbook.serve import NOTEBOOKS_DIR, background_server, serve_settings
    from playbook.store import Store
    from tests.browser import chromium_missing_reason

    reason = chromium_missing_reason()
    if reason is not None:
        return {"skipped": reason}
    if quick:
        students, timeout = 5, 150.0
    settings = serve_settings(class_size=students)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "tables.sqlite3"
        with background_server(NOTEBOOKS_DIR, Path(folder) / "voila.log", db_path=db, timeout=180, extra_args=settings.args) as server:
            store = Store(db)
            record = cl.create_class(store, "leerdam", students, seed=5)
            ready_mb, _ = _ready(server, settings)
            loop = asyncio.new_event_loop()
            try:
                playwright, browser, results, reveal_s, phones = loop.run_until_complete(_storm(server.url, store, record, students, timeout))
                mb_per_page = _mb_per_page(server, students, ready_mb)
                for r in results:
                    loop.run_until_complete(r.pop("context").close())
                    r.pop("page", None)
                    serving = r.pop("serving", None)
                    if serving is not None and not serving.done():
                        serving.cancel()
                loop.run_until_complete(_phones_done(playwright, browser))
            finally:
                loop.close()
            villages = len(cl.load_class(store, record.id).tables)
            if os.environ.get("PLAYBOOK_BENCH_LOG"):
                shutil.copy(server.log_path, os.environ["PLAYBOOK_BENCH_LOG"] + ".storm")
    usable = [r["usable_s"] for r in results if r["usable_s"] is not None]
    joined = [r["joined_s"] for r in results if r["joined_s"] is not None]
    served = [r["served_s"] for r in results if r["served_s"] is not None]
    return {
        "students": students,
        "villages": villages,
        "joined": len(joined),
        "joined_median_s": round(statistics.median(joined), 1) if joined else None,
        "joined_worst_s": round(max(joined), 1) if joined else None,
        "served_median_s": round(statistics.median(served), 1) if served else None,
        "served_worst_s": round(max(served), 1) if served else None,
        "seated": len(usable),
        "seated_median_s": round(statistics.median(usable), 1) if usable else None,
        "seated_worst_s": round(max(usable), 1) if usable else None,
        # from the facilitator's deal (once every name is in the lobby) to the last seat usable
        "seated_after_deal_worst_s": round(max(usable) - results[0]["dealt_s"], 1) if usable else None,
        "reveal_worst_s": reveal_s,
        "mb_per_page": mb_per_page,
        "phones": phones,
        "settings": settings.summary,
    }


def format_join_storm(report: dict[str, Any]) -> str:
    if "skipped" in report:
        return f"join storm: skipped ({report['skipped']})"
    return (
        f"join storm, {report['students']} phones opening the class address within 5 s, dealt into {report['villages']} Leerdam villages: "
        f"class page served (the server's part) median {report['served_median_s']} s, worst {report['served_worst_s']} s; "
        f"{report['joined']} in the lobby (median {report['joined_median_s']} s, worst {report['joined_worst_s']} s after opening), "
        f"{report['seated']} on their seat (median {report['seated_median_s']} s, worst {report['seated_worst_s']} s; the last {report['seated_after_deal_worst_s']} s after the deal); "
        f"every village pledging at once, the reveal on every page within {report['reveal_worst_s']} s; {report['mb_per_page']} MB per page; "
        f"the simulated phones {report['phones']}. "
        f"Settings: {report['settings']}."
    )


def format_arrival(report: dict[str, Any]) -> str:
    if "skipped" in report:
        return f"arrival: skipped ({report['skipped']})"
    return (
        f"arrival, {report['pages']} seat pages of {report['tables']} Leerdam tables opened in the same second: "
        f"{report['usable']} usable within {report['timeout_s']:.0f} s, median {report['usable_median_s']} s, worst {report['usable_worst_s']} s; "
        f"served (the server's part done) median {report['served_median_s']} s, worst {report['served_worst_s']} s; "
        f"a page alone served in {report['alone_served_s']} s, usable in {report['alone_usable_s']} s, so every page usable on a phone of its own by {report['own_phone_worst_s']} s; "
        f"the simulated phones {report['phones']}; "
        f"CPU seconds: {report['cpu_s']}; "
        f"{report['silent']} silent, {report['said_so_while_waiting']} said they were on their way, {report['retried']} retried; "
        f"{report['mb_per_page']} MB per page; {report['kernels_left']} kernels left {report['wait_s']:.0f} s after the pages closed. "
        f"Settings: {report['settings']}."
    )


def rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The figures as rows of the benchmark table."""
    if "skipped" in report:
        return []
    n = report["pages"]
    return [
        {"figure": f"{n} seat pages opened at once: usable", "value": f"{report['usable']} of {n}", "baseline": f"{n} aim", "ratio": f"{report['usable'] / n:.2f}"},
        {"figure": f"{n} seat pages opened at once: opening to usable, median", "value": f"{report['usable_median_s']} s", "baseline": "60 s aim (worst)", "ratio": f"{report['usable_median_s'] / 60:.2f}x" if report["usable_median_s"] is not None else "-"},
        {"figure": f"{n} seat pages opened at once: opening to usable, worst", "value": f"{report['usable_worst_s']} s", "baseline": "60 s aim", "ratio": f"{report['usable_worst_s'] / 60:.2f}x" if report["usable_worst_s"] is not None else "-"},
        {"figure": f"{n} seat pages opened at once: served (notebook run), worst", "value": f"{report['served_worst_s']} s", "baseline": "60 s aim", "ratio": f"{report['served_worst_s'] / 60:.2f}x" if report["served_worst_s"] is not None else "-"},
        {"figure": f"{n} seat pages opened at once: usable on phones of their own (served, then a page's own drawing), worst", "value": f"{report['own_phone_worst_s']} s", "baseline": "60 s aim", "ratio": f"{report['own_phone_worst_s'] / 60:.2f}x" if report["own_phone_worst_s"] is not None else "-"},
        {"figure": f"{n} seat pages opened at once: CPU seconds, server / simulated phones", "value": f"{report['cpu_s']['voila'] + report['cpu_s']['kernels']:.0f} / {report['cpu_s']['chromium']:.0f}", "baseline": "-", "ratio": "-"},
        {"figure": f"{n} seat pages opened at once: blank without a message", "value": str(report["silent"]), "baseline": "0 aim", "ratio": "-"},
        {"figure": "memory per page in the burst (Voila and kernels, PSS)", "value": f"{report['mb_per_page']} MB", "baseline": "60 MB aim", "ratio": f"{report['mb_per_page'] / 60:.2f}x"},
        {"figure": f"kernels left {report['wait_s']:.0f} s after the pages closed", "value": str(report["kernels_left"]), "baseline": "0 aim", "ratio": "-"},
    ]


def storm_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The join storm's figures as rows of the benchmark table."""
    if "skipped" in report:
        return []
    n = report["students"]
    seated = report["seated_worst_s"]
    return [
        {"figure": f"join storm, {n} phones: on their seat", "value": f"{report['seated']} of {n}", "baseline": f"{n} aim", "ratio": f"{report['seated'] / n:.2f}"},
        {"figure": f"join storm, {n} phones: the class page served (the server's part), worst", "value": f"{report['served_worst_s']} s", "baseline": "10 s aim", "ratio": f"{report['served_worst_s'] / 10:.2f}x" if report["served_worst_s"] is not None else "-"},
        {"figure": f"join storm, {n} phones: opening the address to the lobby, median", "value": f"{report['joined_median_s']} s", "baseline": "10 s aim", "ratio": f"{report['joined_median_s'] / 10:.2f}x" if report["joined_median_s"] is not None else "-"},
        {"figure": f"join storm, {n} phones: opening to the seat (dealt once all are in), worst", "value": f"{seated} s", "baseline": "-", "ratio": "-"},
        {"figure": f"join storm, {n} phones: the deal to the last seat usable", "value": f"{report['seated_after_deal_worst_s']} s", "baseline": "10 s aim", "ratio": f"{report['seated_after_deal_worst_s'] / 10:.2f}x" if report["seated_after_deal_worst_s"] is not None else "-"},
        {"figure": f"join storm: every village pledging at once, the reveal on all {report['seated']} pages", "value": f"{report['reveal_worst_s']} s", "baseline": "-", "ratio": "-"},
        {"figure": "join storm: memory per page (PSS)", "value": f"{report['mb_per_page']} MB", "baseline": "60 MB aim", "ratio": f"{report['mb_per_page'] / 60:.2f}x"},
    ]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m benchmarks.arrival", description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=30)
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--wait", type=float, default=120.0)
    parser.add_argument("--storm", action="store_true", help="the class's join storm instead")
    parser.add_argument("--preheat", type=int, default=None, help="kernels kept ready per page (default: playbook serve's)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.storm:
        report = run_join_storm(args.pages)
        print(json.dumps(report, indent=2) if args.json else format_join_storm(report))
    else:
        report = run_arrival(args.pages, args.tables, wait=args.wait, preheat=args.preheat)
        print(json.dumps(report, indent=2) if args.json else format_arrival(report))
    sys.exit(0)
