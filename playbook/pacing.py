"""Pages that arrive together take turns: at most a few kernels build their dashboard at once.

A class opening 30 links in the same second asks Voila for 30 kernels, and each imports the
playbook and builds its dashboard. Sharing two cores, 30 builds all finish late and together,
and while they run no page shows anything. Taking turns, the first pages are up in seconds and
the others follow in order of arrival, with the machine never asked for more than it has.

A turn is a slot: one of `count` lock files in a folder that `playbook serve` makes for its
kernels (`PLAYBOOK_SLOTS`, `PLAYBOOK_SLOT_COUNT`). A kernel holds one with `flock` from the
moment it imports the dashboards until its first cell has run (or, for a kernel Voila keeps
ready, until it starts waiting for its page). The operating system drops the lock of a kernel
that dies, so a crashed page never keeps a turn. Outside a server that sets the folder (tests,
JupyterLab) nothing waits.

A kernel being made ready for a page to come (Voila's preheat) gives way to the pages that are
already asking: while any page's kernel waits for a turn or holds one (a `page-PID` mark in the
folder), a ready kernel does not take a turn. Making up the ready kernels never slows a class
that is arriving.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

__all__ = ["SLOTS_ENV", "SLOT_COUNT_ENV", "Turn", "cpu_seconds", "default_slot_count", "hold_until_first_cell_ends", "release_turn", "take_turn"]

SLOTS_ENV = "PLAYBOOK_SLOTS"
SLOT_COUNT_ENV = "PLAYBOOK_SLOT_COUNT"
#: Longest a kernel waits for its turn; past it, it builds anyway (a page late beats no page).
MAX_WAIT_SECONDS = 300.0


def default_slot_count() -> int:
    """One turn per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time of the processes `pids` so far, their waited-for children
    included (Linux's /proc; a process gone or unreadable counts nothing)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(f) for f in fields[11:15])
    return total / ticks


class Turn:
    """A held slot (or none, where nothing waits); `release()` hands it on."""

    def __init__(self, fd: int | None = None) -> None:
        self._fd = fd

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing the file drops its flock


def _pages_waiting(path: Path) -> bool:
    """True while the kernel of a page someone opened waits for a turn or builds."""
    for mark in path.glob("page-*"):
        try:
            os.kill(int(mark.name[5:]), 0)
        except ValueError:
            continue
        except ProcessLookupError:
            mark.unlink(missing_ok=True)  # its kernel died without handing on
            continue
        except PermissionError:
            pass
        return True
    return False


def take_turn(folder: str | os.PathLike[str] | None = None, count: int | None = None, max_wait: float = MAX_WAIT_SECONDS, give_way: bool = False) -> Turn:
    """Wait for one of `count` slots in `folder` (default: the server's); a `Turn`.

    `give_way`: take no slot while a page's kernel is waiting or building (a kernel made ready
    in advance).
    """
    import fcntl

    where = folder if folder is not None else os.environ.get(SLOTS_ENV)
    if not where:
        return Turn()
    try:
        slots = max(1, int(count if count is not None else os.environ.get(SLOT_COUNT_ENV) or default_slot_count()))
    except ValueError:
        slots = default_slot_count()
    path = Path(where)
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return Turn()  # no folder, no turns: never keep a page from coming up over it
    start = time.monotonic()
    order = list(range(slots))
    while True:
        random.shuffle(order)  # waiters spread over the slots instead of all trying slot 0 first
        if give_way and _pages_waiting(path) and time.monotonic() - start < max_wait:
            time.sleep(0.2)
            continue
        for slot in order:
            try:
                fd = os.open(path / f"slot-{slot}", os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                return Turn()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            return Turn(fd)
        if time.monotonic() - start > max_wait:
            return Turn()
        time.sleep(0.05)


_TURN: Turn | None = None


def hold_until_first_cell_ends() -> Turn:
    """Take this kernel's turn (once) and give it back when the running cell ends.

    Called when the dashboards are imported; a kernel Voila keeps ready gives its turn back
    earlier, in `release_turn`, when it starts waiting for its page.
    """
    global _TURN
    if _TURN is not None:
        return _TURN
    ready_kernel = os.environ.get("VOILA_PREHEAT", "False") == "True"
    if not ready_kernel:
        _mark_page(True)
    _TURN = take_turn(give_way=ready_kernel)
    # Once the cell ends, the turn goes on and the page's mark goes, also for a page that built
    # without a turn (none to open, or past `MAX_WAIT_SECONDS`): a mark left behind would make
    # every ready kernel wait its longest for as long as this kernel lives.
    try:
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:
        shell = None
    if shell is None:
        release_turn()  # not in a kernel: nothing would hand the turn on
    else:

        def hand_on(*_args: object) -> None:
            release_turn()
            shell.events.unregister("post_run_cell", hand_on)

        shell.events.register("post_run_cell", hand_on)
    return _TURN


def _mark_page(waiting: bool) -> None:
    """Say (or stop saying) that this kernel serves a page someone opened and has not built yet."""
    where = os.environ.get(SLOTS_ENV)
    if not where:
        return
    mark = Path(where) / f"page-{os.getpid()}"
    try:
        if waiting:
            mark.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            mark.touch()
        else:
            mark.unlink(missing_ok=True)
    except OSError:
        pass  # without its mark a page only loses its right of way


def release_turn() -> None:
    """Give this kernel's turn back, if it holds one."""
    if _TURN is not None:
        _TURN.release()
        _mark_page(False)
