"""Heavy work a page may start: a few at once for the whole server, the rest told to wait.

A balance-lab run or comparison, a review, every game's print pack: each takes a core or more
for seconds to minutes. A server shared by a class runs `HEAVY_AT_ONCE` of them at once, so
that the tables keep being served. Voila's kernels are separate processes, so a slot is a lock
file (`flock`), which the operating system releases when a kernel dies: a crashed page never
keeps one.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from .places import busy_folder
from .refusals import Refusal

__all__ = ["HEAVY_AT_ONCE", "HEAVY_WAIT_SECONDS", "ServerBusy", "heavy_work"]

#: heavy jobs the whole server runs at once.
HEAVY_AT_ONCE = 2
#: how long a page waits for a free slot before it is told the server is busy.
HEAVY_WAIT_SECONDS = 20.0


class ServerBusy(Refusal):
    """Every heavy-work slot stayed taken while a page waited: nothing was started."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "busy")


@contextmanager
def heavy_work(what: str, wait: float | None = None) -> Iterator[None]:
    """Hold one of the server's `HEAVY_AT_ONCE` slots while `what` runs; waits up to `wait`
    seconds (default `HEAVY_WAIT_SECONDS`), then refuses with `ServerBusy`."""
    import fcntl  # POSIX only: a page's module imports this one wherever it runs

    folder = busy_folder()
    folder.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + (HEAVY_WAIT_SECONDS if wait is None else wait)
    while True:
        for slot in range(HEAVY_AT_ONCE):
            handle = open(folder / f"slot-{slot}.lock", "a+")  # noqa: SIM115 - held until released
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.close()
                continue
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
                handle.close()
            return
        if time.monotonic() >= deadline:
            raise ServerBusy(f"the server is already running {HEAVY_AT_ONCE} heavy jobs; {what} was not started: try again in a minute")
        time.sleep(0.25)
