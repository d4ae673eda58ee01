"""A class joins while a device on the room's network asks for pages as fast as it can.

The join storm's server part (`benchmarks.arrival.run_light_storm`: 30 phones that draw nothing
open the class address within 5 s, join, are dealt into Leerdam villages and pledge) twice, on
two fresh servers: once in a quiet room, once while another device (127.0.0.2, a process of its
own, four connections at once) asks for the class page without a key and for wrong room codes,
without pause, from before the class opens the address until the last seat is usable. The
figure is the flooded storm against the quiet one of the same run (`playbook.budget`,
`playbook.doors`).
"""

from __future__ import annotations

import asyncio
import http.client
import multiprocessing
import threading
import time
from typing import Any

from playbook.links import CLASS_PAGE

#: the flooding device's address (the server listens on 127.0.0.1; Linux routes all 127/8 there).
FLOODER = "127.0.0.2"
#: connections the flooding device keeps busy at once.
CONNECTIONS = 4


def flood(port: int, seconds: float, counts: Any, done: Any) -> None:
    """Ask the server on `port` for the class page and for a wrong room code, each over half of
    `CONNECTIONS` connections at once, for `seconds` or until `done` (an event) is set; `counts` (a shared
    dict) gets the answers by kind."""
    stop = time.monotonic() + seconds
    lock = threading.Lock()
    tally: dict[str, int] = {}

    def one(path: str) -> None:
        while time.monotonic() < stop and not done.is_set():
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(FLOODER, 0))
            try:
                connection.request("GET", path)
                answer = connection.getresponse()
                answer.read()
                key = f"{'page' if 'render' in path else 'code'} {answer.status}"
            except OSError:
                key = "refused"
            finally:
                connection.close()
            with lock:
                tally[key] = tally.get(key, 0) + 1

    # Half the connections ask for pages, half for room codes: slowed codes hold no page back.
    paths = (f"/voila/render/{CLASS_PAGE}", "/j/WRONG2")
    threads = [threading.Thread(target=one, args=(paths[n % 2],)) for n in range(CONNECTIONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counts.update(tally)


def run_flooded_storm(students: int = 30, quick: bool = False, timeout: float = 180.0) -> dict[str, Any]:
    from benchmarks.arrival import REFILL_WAIT_SECONDS, _class_server, _light_storm, _lone_chromium, _ready
    from playbook import classes as cl
    from tests.support.browser import chromium_missing_reason

    reason = chromium_missing_reason()
    if reason is not None:
        return {"skipped": reason}
    if quick:
        students, timeout = 5, 90.0
    found: dict[str, Any] = {"students": students}
    assets: list[str] = []
    context = multiprocessing.get_context("spawn")
    for flooded in (False, True):
        with _class_server(students) as (server, store, settings, _):
            loop = asyncio.new_event_loop()
            flooder = None
            counts: Any = None
            try:
                if not assets:  # the files a page fetches, for the light phones to fetch too
                    alone = cl.create_class(store, "leerdam", 5, seed=6)
                    _, assets = loop.run_until_complete(_lone_chromium(f"{server.url}j/{alone.code}", store, alone.id))
                    time.sleep(REFILL_WAIT_SECONDS)
                    _ready(server, settings)
                record = cl.create_class(store, "leerdam", students, seed=5)
                if flooded:
                    manager = context.Manager()
                    counts = manager.dict()
                    done = context.Event()
                    flooder = context.Process(target=flood, args=(server.port, timeout, counts, done))
                    flooder.start()
                    time.sleep(3.0)  # the flood is under way when the class opens the address
                started = time.monotonic()
                results, reveal_s, _ = loop.run_until_complete(_light_storm(f"{server.url}j/{record.code}", store, record, students, assets, timeout))
                took = time.monotonic() - started
            finally:
                if flooder is not None:
                    done.set()
                    flooder.join(timeout=90)
                    if flooder.is_alive():
                        flooder.terminate()
                loop.close()
        usable = [r["usable_s"] for r in results if r["usable_s"] is not None]
        name = "flooded" if flooded else "quiet"
        found[name] = {
            "seated": len(usable),
            "seated_worst_s": round(max(usable), 1) if usable else None,
            "reveal_s": reveal_s,
            "storm_s": round(took, 1),
            "errors": sorted({r["error"] for r in results if "error" in r}),
        }
        if flooded and counts is not None:
            found["flood"] = dict(sorted(dict(counts).items()))
    return found


def format_flooded_storm(report: dict[str, Any]) -> str:
    if "skipped" in report:
        return f"join storm under a flood: skipped ({report['skipped']})"
    quiet, flooded = report["quiet"], report["flooded"]
    return (
        f"join storm under a flood: {report['students']} phones that draw nothing join a Leerdam class (as the join storm's server part) while another device asks for "
        f"the class page without a key and a wrong room code over {CONNECTIONS} connections without pause: {flooded['seated']} on their seat, the last "
        f"{flooded['seated_worst_s']} s after opening (quiet room, same run: {quiet['seated']}, {quiet['seated_worst_s']} s); the reveal {flooded['reveal_s']} s "
        f"(quiet {quiet['reveal_s']} s); the flood's answers: {report.get('flood', {})}"
        + (f"; errors: {flooded['errors'] + quiet['errors']}" if flooded["errors"] or quiet["errors"] else "")
        + "."
    )


def rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The flooded storm's figures as rows of the benchmark table, against the quiet one."""
    if "skipped" in report:
        return []
    n = report["students"]
    quiet, flooded = report["quiet"], report["flooded"]
    ratio = lambda a, b: f"{a / b:.2f}x" if a is not None and b else "-"  # noqa: E731
    flood = report.get("flood", {})
    pages = sum(v for k, v in flood.items() if k.startswith("page"))
    return [
        {"figure": f"join storm while a device floods the server ({n} phones): on their seat", "value": f"{flooded['seated']} of {n}", "baseline": f"{quiet['seated']} quiet", "ratio": f"{flooded['seated'] / n:.2f}"},
        {"figure": "join storm while a device floods the server: opening to the seat usable, worst", "value": f"{flooded['seated_worst_s']} s", "baseline": f"{quiet['seated_worst_s']} s quiet", "ratio": ratio(flooded["seated_worst_s"], quiet["seated_worst_s"])},
        {"figure": "join storm while a device floods the server: the reveal on every page", "value": f"{flooded['reveal_s']} s", "baseline": f"{quiet['reveal_s']} s quiet", "ratio": ratio(flooded["reveal_s"], quiet["reveal_s"])},
        {"figure": "the flooding device's pages: rendered / turned away (room full)", "value": f"{flood.get('page 200', 0)} / {flood.get('page 503', 0)} of {pages}", "baseline": "-", "ratio": "-"},
        {"figure": "the flooding device's wrong room codes answered / refused while slowed", "value": f"{flood.get('code 404', 0)} / {flood.get('code 429', 0)}", "baseline": "-", "ratio": "-"},
    ]
