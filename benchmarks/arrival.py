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
import contextlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.classroom import _kernels, _pss_mb, plays
from playbook.pacing import cpu_seconds

__all__ = ["format_arrival", "format_join_storm", "format_light_storm", "light_storm_rows", "light_student", "rows", "run_arrival", "run_join_storm", "run_light_storm"]

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

    from tests.support.browser import CHROMIUM, CHROMIUM_ARGS

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
        except Exception:
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
    except Exception:
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
        except Exception:
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
    from playbook.access import table_keys
    from playbook.links import table_links
    from playbook.serve import NOTEBOOKS_DIR, background_server, seats_waiting, serve_settings
    from playbook.store import Store
    from rules import leerdam as ld
    from rules import new_game
    from tests.support.browser import chromium_missing_reason

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
                server_cpu = cpu_seconds([server.process.pid])
                kernels_cpu = cpu_seconds(_kernels(server))  # the ready kernels' start, before the burst
                browser_cpu = cpu_seconds(_browser_pids())
                results = loop.run_until_complete(_arrive(browser, server.url, urls, timeout))
                usable = [r["usable_s"] for r in results if r["usable_s"] is not None]
                cpu = {
                    "voila": round(cpu_seconds([server.process.pid]) - server_cpu, 1),
                    "kernels": round(cpu_seconds(_kernels(server)) - kernels_cpu, 1),
                    "chromium": round(cpu_seconds(_browser_pids()) - browser_cpu, 1),
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
    except Exception as exc:
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
    _deal_and_start(store, record.id)
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

        async def revealed(page: Any) -> float | None:
            try:
                await page.locator('.pb-reveal [data-revealed="1"]').first.wait_for(state="visible", timeout=60_000)
                return time.monotonic() - clicked
            except Exception:
                return None

        # All pages at once: a village that never reveals costs one minute, not one per page.
        waits = await asyncio.gather(*(revealed(r["page"]) for r in seated))
        for r, waited in zip(seated, waits):
            if waited is None:  # what the page said instead, for the report
                said = " / ".join(await r["page"].locator(".pb-status").all_inner_texts())[:300]
                r["error"] = f"no reveal: {said}; {_pledges_stored(store, r['page'].url, clicked)}"
        reveal_s = round(max(waits), 2) if None not in waits else None
    return playwright, browser, list(results), reveal_s, phones


def _pledges_stored(store: Any, url: str, clicked: float) -> str:
    """What the store holds of the page's village (its link names the table): a pledge that never
    arrived, or a page that did not draw a reveal the store has."""
    from urllib.parse import parse_qs, urlparse

    table_id = parse_qs(urlparse(url).query).get("table", [""])[0]
    if not table_id:
        return f"no table in the page's address ({url})"
    pledges = plays(store, table_id)
    if not pledges:
        return "its village: no pledge stored"
    last = pledges[-1]["at"] - (time.time() - (time.monotonic() - clicked))  # store times are wall clock
    return f"its village: {len(pledges)} pledges stored, the last {last:.1f} s after the clicks"


@contextlib.contextmanager
def _class_server(students: int) -> Iterator[tuple[Any, Any, Any, float]]:
    """`playbook serve`'s server for a class of `students` (its own settings), its kernels ready
    as before a lesson: the server, its store, the settings and a ready kernel's memory (MB)."""
    from playbook.serve import NOTEBOOKS_DIR, background_server, serve_settings
    from playbook.store import Store

    settings = serve_settings(class_size=students)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "tables.sqlite3"
        with background_server(NOTEBOOKS_DIR, Path(folder) / "voila.log", db_path=db, timeout=180, extra_args=settings.args) as server:
            store = Store(db)
            ready_mb, _ = _ready(server, settings)
            yield server, store, settings, ready_mb
            if os.environ.get("PLAYBOOK_BENCH_LOG"):
                shutil.copy(server.log_path, os.environ["PLAYBOOK_BENCH_LOG"] + f".class-{students}")


def run_join_storm(students: int = 30, quick: bool = False, timeout: float = 240.0) -> dict[str, Any]:
    """30 phones open the class address within 5 s, type a name, and are dealt into Leerdam
    villages; from opening the address to the seat page usable; then every village pledges."""
    from playbook import classes as cl
    from tests.support.browser import chromium_missing_reason

    reason = chromium_missing_reason()
    if reason is not None:
        return {"skipped": reason}
    if quick:
        students, timeout = 5, 150.0
    with _class_server(students) as (server, store, settings, ready_mb):
        record = cl.create_class(store, "leerdam", students, seed=5)
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
        "errors": sorted({r["error"] for r in results if "error" in r}),
        "mb_per_page": mb_per_page,
        "phones": phones,
        "settings": settings.summary,
    }


# -- the join storm's server part: phones that draw nothing (benchmarks.light_phone) ------------------


async def light_student(phone: Any, url: str, name: str, opened_at: float, deadline: float, deal: Any = None, seat: str = "pb-pledge-confirm") -> dict[str, Any]:
    """One light phone: open the class address, type a name, join, (`deal()` if given, as the
    facilitator) and wait for the seat (a widget of class `seat` on it); each step's time after
    `opened_at`, and what the lobby said."""
    result: dict[str, Any] = {"served_s": None, "loaded_s": None, "joined_s": None, "lobby": None, "dealt_s": None, "usable_s": None}
    step = "opening the address"
    try:
        await phone.open(url, deadline - time.monotonic())
        step = "waiting for the name box"
        result["served_s"] = round(phone.served_s, 2)
        box = await phone.wait_for(lambda: phone.shown("pb-name-box", "playbook-class-join"), deadline - time.monotonic())
        result["loaded_s"] = round(time.monotonic() - opened_at, 2)
        # What the page's script does: say which device this is, and keep the join (the lobby
        # says "You are in" only then).
        phone.say_device()
        phone.type(box[0], name)
        phone.press(phone.shown("pb-join-class")[0])
        step = "keeping the join"
        await phone.keep(deadline - time.monotonic())
        step = "waiting in the lobby"
        # A student who joins last may be dealt before their page has shown the lobby: the seat
        # then comes in its place.
        await phone.wait_for(
            lambda: "You are in" in phone.text("playbook-class-student") or "The tables have started" in phone.text("playbook-class-student") or phone.shown(seat, "playbook-seat"),
            deadline - time.monotonic(),
        )
        result["joined_s"] = round(time.monotonic() - opened_at, 2)
        result["lobby"] = phone.text(None)
        if deal is not None:
            deal()
            result["dealt_s"] = round(time.monotonic() - opened_at, 2)
        step = "waiting for the seat"
        await phone.wait_for(lambda: phone.shown(seat, "playbook-seat"), deadline - time.monotonic())
        result["usable_s"] = round(time.monotonic() - opened_at, 2)
    except Exception as exc:
        result["error"] = f"{type(exc).__name__} {step}: {exc}"
        if os.environ.get("PLAYBOOK_BENCH_LOG"):
            result["error"] += f" (the page said: {phone.text(None)[:400]!r})"
    return result


def _deal_and_start(store: Any, class_id: str) -> None:
    from playbook import classes as cl

    for change in (cl.Deal(), cl.Start()):
        for _ in range(20):  # a join kept meanwhile moved the class on: look again and press again, as a teacher would
            record = cl.load_class(store, class_id)
            try:
                cl.submit(store, record.id, change, record.version)
                break
            except cl.ClassError as refused:
                if refused.rule != "stale":
                    raise
        else:
            raise RuntimeError("the class kept moving on: the deal was refused twenty times")


def _revealed(phone: Any) -> bool:
    return any('data-revealed="1"' in str(phone.models[m].get("value", "")) for m in phone.shown("pb-reveal", "playbook-seat"))


async def _light_storm(url: str, store: Any, record: Any, students: int, assets: list[str], timeout: float) -> tuple[list[dict[str, Any]], float | None, float]:
    from benchmarks.light_phone import LightPhone
    from playbook import classes as cl

    phones = [LightPhone(assets) for _ in range(students)]
    opened_at = time.monotonic()
    deadline = opened_at + timeout
    tasks = []
    opened = []
    for i, phone in enumerate(phones):
        opened.append(time.monotonic() - opened_at)
        tasks.append(asyncio.create_task(light_student(phone, url, f"Student {i + 1}", time.monotonic(), deadline)))
        await asyncio.sleep(5.0 / students)  # the class opens the address within 5 s
    # The facilitator deals once everyone is in the lobby.
    while time.monotonic() < deadline and len(cl.load_class(store, record.id).students) < students:
        await asyncio.sleep(0.05)
    _deal_and_start(store, record.id)
    dealt = time.monotonic() - opened_at
    results = list(await asyncio.gather(*tasks))
    for result, at in zip(results, opened):
        result["opened_s"] = round(at, 2)
    reveal_s = None
    seated = [p for p, r in zip(phones, results) if r["usable_s"] is not None]
    if seated:
        for phone in seated:
            phone.type(phone.shown("pb-pledge", "playbook-seat")[0], 1)
        clicked = time.monotonic()
        for phone in seated:
            phone.press(phone.shown("pb-pledge-confirm", "playbook-seat")[0])
        try:
            await asyncio.gather(*(phone.wait_for(lambda phone=phone: _revealed(phone), 60) for phone in seated))
            reveal_s = round(time.monotonic() - clicked, 2)
        except TimeoutError:
            pass
    for phone in phones:
        await phone.close()
    return results, reveal_s, dealt


async def _lone_chromium(url: str, store: Any, class_id: str) -> tuple[dict[str, float], list[str]]:
    """One Chromium phone alone on the quiet server, through the same steps: each step's time,
    and the files its page fetched (paths), for the light phones to fetch too."""
    playwright, browser, _ = await _phones()
    try:
        context = await browser.new_context(viewport={"width": 390, "height": 844})
        page = await context.new_page()
        opened = time.monotonic()
        await page.goto(url, wait_until="commit")
        box = page.locator(".playbook-class-join .pb-name-box input")
        await box.wait_for(state="visible", timeout=120_000)
        loaded = time.monotonic() - opened
        await box.fill("Alone")
        pressed = time.monotonic()
        await page.locator(".playbook-class-join .pb-join-class").click()
        await page.locator(".playbook-class-student").wait_for(state="visible", timeout=120_000)
        joined = time.monotonic() - pressed
        _deal_and_start(store, class_id)
        dealt = time.monotonic()
        await page.locator(USABLE).wait_for(state="visible", timeout=120_000)
        seated = time.monotonic() - dealt
        entries = await page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)")
        assets = sorted({"/" + name.split("/", 3)[3] for name in entries if name.startswith(("http://", "https://")) and "/api/" not in name})
        await context.close()
    finally:
        await _phones_done(playwright, browser)
    return {"loaded_s": round(loaded, 2), "joined_s": round(joined, 2), "seated_s": round(seated, 2)}, assets


async def _lone_light(url: str, store: Any, class_id: str, assets: list[str]) -> dict[str, float]:
    """The same steps with a light phone alone."""
    from benchmarks.light_phone import LightPhone

    phone = LightPhone(assets)
    opened = time.monotonic()
    try:
        r = await light_student(phone, url, "Alone", opened, opened + 120, deal=lambda: _deal_and_start(store, class_id))
    finally:
        await phone.close()
    if r["usable_s"] is None:
        raise RuntimeError(f"a light phone alone did not reach its seat: {r.get('error')}")
    return {"loaded_s": r["loaded_s"], "joined_s": round(r["joined_s"] - r["loaded_s"], 2), "seated_s": round(r["usable_s"] - r["dealt_s"], 2)}


def run_light_storm(students: int = 30, quick: bool = False, timeout: float = 120.0) -> dict[str, Any]:
    """The join storm with phones that draw nothing (`benchmarks.light_phone`): the server's
    part of 30 phones opening the class address within 5 s, joining, dealt into Leerdam
    villages and pledging; and one Chromium phone alone, for a page's own drawing time."""
    from playbook import classes as cl
    from tests.support.browser import chromium_missing_reason

    reason = chromium_missing_reason()
    if reason is not None:
        return {"skipped": reason}
    if quick:
        students, timeout = 5, 90.0
    with _class_server(students) as (server, store, settings, ready_mb):
        loop = asyncio.new_event_loop()
        try:
            # One phone of each kind alone first, each in a class of its own (a village
            # of one student and bots).
            alone = cl.create_class(store, "leerdam", 5, seed=6)
            chromium, assets = loop.run_until_complete(_lone_chromium(f"{server.url}j/{alone.code}", store, alone.id))
            alone = cl.create_class(store, "leerdam", 5, seed=7)
            light = loop.run_until_complete(_lone_light(f"{server.url}j/{alone.code}", store, alone.id, assets))
            time.sleep(REFILL_WAIT_SECONDS)  # the ready kernels made up again after the two
            _ready(server, settings)
            record = cl.create_class(store, "leerdam", students, seed=5)
            before = cpu_seconds(_server_pids(server))
            mine = time.process_time()
            results, reveal_s, dealt_s = loop.run_until_complete(_light_storm(f"{server.url}j/{record.code}", store, record, students, assets, timeout))
            server_cpu = round(cpu_seconds(_server_pids(server)) - before, 1)
            phones_cpu = round(time.process_time() - mine, 1)
            mb_per_page = _mb_per_page(server, students, ready_mb)
        finally:
            loop.close()
        villages = len(cl.load_class(store, record.id).tables)
    errors = sorted({r["error"] for r in results if "error" in r})
    usable = [r["usable_s"] for r in results if r["usable_s"] is not None]
    joined = [r["joined_s"] for r in results if r["joined_s"] is not None]
    loaded = [r["loaded_s"] for r in results if r["loaded_s"] is not None]
    drawing = {step: round(max(0.0, chromium[step] - light[step]), 2) for step in chromium}
    own = round(max(usable) + sum(drawing.values()), 1) if usable else None
    return {
        "students": students,
        "villages": villages,
        "assets": len(assets),
        "loaded_median_s": _median(loaded),
        "loaded_worst_s": _worst(loaded),
        "joined": len(joined),
        "joined_median_s": _median(joined),
        "joined_worst_s": _worst(joined),
        "dealt_s": round(dealt_s, 1),
        "seated": len(usable),
        "seated_median_s": _median(usable),
        "seated_worst_s": _worst(usable),
        # from the facilitator's deal (once every name is in the lobby) to the last seat usable
        "seated_after_deal_worst_s": round(max(r["opened_s"] + r["usable_s"] for r in results if r["usable_s"] is not None) - dealt_s, 1) if usable else None,
        "reveal_worst_s": reveal_s,
        "alone_chromium": chromium,
        "alone_light": light,
        "drawing_s": drawing,
        "own_phone_worst_s": own,
        "cpu_s": {"server": server_cpu, "light_phones": phones_cpu},
        "mb_per_page": mb_per_page,
        "errors": errors,
        "settings": settings.summary,
    }


#: seconds for Voila to make up its ready kernels after pages took some (voila_app.REFILL_QUIET_SECONDS, and a margin).
REFILL_WAIT_SECONDS = 25.0


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def _worst(values: list[float]) -> float | None:
    return round(max(values), 1) if values else None


def _server_pids(server: Any) -> list[int]:
    from benchmarks.classroom import _server_processes

    return _server_processes(server)


def format_light_storm(report: dict[str, Any]) -> str:
    if "skipped" in report:
        return f"join storm, light phones: skipped ({report['skipped']})"
    return (
        f"join storm, the server's part: {report['students']} phones that draw nothing (each fetching the page, its {report['assets']} files and its widgets as a browser does) "
        f"open the class address within 5 s and are dealt into {report['villages']} Leerdam villages once all are in: "
        f"the name box there median {report['loaded_median_s']} s, worst {report['loaded_worst_s']} s after opening; in the lobby median {report['joined_median_s']} s, worst {report['joined_worst_s']} s; "
        f"dealt at {report['dealt_s']} s; {report['seated']} on their seat, median {report['seated_median_s']} s, worst {report['seated_worst_s']} s after opening (the last {report['seated_after_deal_worst_s']} s after the deal); "
        f"every village pledging at once, the reveal on every page within {report['reveal_worst_s']} s. "
        f"One Chromium phone alone (s per step): {report['alone_chromium']}; one light phone alone: {report['alone_light']}; "
        f"so a page's own drawing adds {report['drawing_s']}, and on phones of their own the last seat would be usable about {report['own_phone_worst_s']} s after opening. "
        f"CPU seconds: {report['cpu_s']}; {report['mb_per_page']} MB per page"
        + (f"; errors: {report['errors']}" if report["errors"] else "")
        + f". Settings: {report['settings']}."
    )


def light_storm_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The light join storm's figures as rows of the benchmark table."""
    if "skipped" in report:
        return []
    n = report["students"]
    ratio = lambda value: f"{value / 10:.2f}x" if value is not None else "-"  # noqa: E731
    return [
        {"figure": f"join storm, the server's part ({n} phones that draw nothing): on their seat", "value": f"{report['seated']} of {n}", "baseline": f"{n} aim", "ratio": f"{report['seated'] / n:.2f}"},
        {"figure": "join storm, the server's part: opening to the lobby, worst", "value": f"{report['joined_worst_s']} s", "baseline": "10 s aim", "ratio": ratio(report["joined_worst_s"])},
        {"figure": "join storm, the server's part: opening to the seat usable (dealt once all are in), worst", "value": f"{report['seated_worst_s']} s", "baseline": "10 s aim", "ratio": ratio(report["seated_worst_s"])},
        {"figure": "join storm, the server's part: the deal to the last seat usable", "value": f"{report['seated_after_deal_worst_s']} s", "baseline": "-", "ratio": "-"},
        {"figure": "join storm on phones of their own (the server's part, then a page's own drawing), worst", "value": f"{report['own_phone_worst_s']} s", "baseline": "10 s aim", "ratio": ratio(report["own_phone_worst_s"])},
        {"figure": "join storm, the server's part: every village pledging at once, the reveal on every page", "value": f"{report['reveal_worst_s']} s", "baseline": "-", "ratio": "-"},
        {"figure": "join storm, the server's part: CPU seconds, server / light phones", "value": f"{report['cpu_s']['server']} / {report['cpu_s']['light_phones']}", "baseline": "-", "ratio": "-"},
        {"figure": "join storm, the server's part: memory per page (PSS)", "value": f"{report['mb_per_page']} MB", "baseline": "60 MB aim", "ratio": f"{report['mb_per_page'] / 60:.2f}x"},
    ]


def format_join_storm(report: dict[str, Any]) -> str:
    if "skipped" in report:
        return f"join storm: skipped ({report['skipped']})"
    return (
        f"join storm, {report['students']} phones opening the class address within 5 s, dealt into {report['villages']} Leerdam villages: "
        f"class page served (the server's part) median {report['served_median_s']} s, worst {report['served_worst_s']} s; "
        f"{report['joined']} in the lobby (median {report['joined_median_s']} s, worst {report['joined_worst_s']} s after opening), "
        f"{report['seated']} on their seat (median {report['seated_median_s']} s, worst {report['seated_worst_s']} s; the last {report['seated_after_deal_worst_s']} s after the deal); "
        f"every village pledging at once, the reveal on every page within {report['reveal_worst_s']} s; {report['mb_per_page']} MB per page; "
        f"the simulated phones {report['phones']}"
        + (f"; errors: {report['errors']}. " if report.get("errors") else ". ")
        + f"Settings: {report['settings']}."
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
    parser.add_argument("--light", action="store_true", help="the join storm's server part, with phones that draw nothing")
    parser.add_argument("--preheat", type=int, default=None, help="kernels kept ready per page (default: playbook serve's)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.light:
        report = run_light_storm(args.pages)
        print(json.dumps(report, indent=2) if args.json else format_light_storm(report))
    elif args.storm:
        report = run_join_storm(args.pages)
        print(json.dumps(report, indent=2) if args.json else format_join_storm(report))
    else:
        report = run_arrival(args.pages, args.tables, wait=args.wait, preheat=args.preheat)
        print(json.dumps(report, indent=2) if args.json else format_arrival(report))
    sys.exit(0)
