"""When the store cannot save: a full disk, a read-only store, a database that is gone.

The store (`playbook.store`) turns the database's own errors into one typed refusal,
`StoreFault`, with a `reason` ("disk-full", "read-only", "database-gone") and two plain messages:
`message` for a seat or a student's phone ("... nothing was saved; tell your teacher.") and
`teacher` for the facilitator's page and the class monitor (what to do, then press again).
Nothing is written when a change meets a fault: the transaction rolls back.

The server's terminal hears of a fault once per kind until it recovers (`noted`, `recovered`):
not at every press. Its logger is "playbook.store"; with no handler set up (a Voila kernel, whose
stderr the page would catch), it writes to the process's own stderr, the server's terminal.
"""

from __future__ import annotations

import logging
import sqlite3
import sys
import threading
from typing import Literal

from i18n import render
from rules.text import Said, say

from .refusals import Refusal

__all__ = ["StoreFault", "log", "noted", "postgres_fault", "recovered", "sqlite_fault"]

Reason = Literal["disk-full", "read-only", "database-gone"]


class _Terminal(logging.Handler):
    """Writes to the process's own stderr (`sys.__stderr__`), which a kernel does not capture."""

    def emit(self, record: logging.LogRecord) -> None:
        stream = sys.__stderr__
        if stream is None:
            return
        try:
            stream.write(self.format(record) + "\n")
            stream.flush()
        except Exception:
            self.handleError(record)


log = logging.getLogger("playbook.store")
if not log.handlers:
    _handler = _Terminal(logging.WARNING)
    _handler.setFormatter(logging.Formatter("playbook: %(message)s"))
    log.addHandler(_handler)

#: what a seat's or a student's page says, by reason.
FOR_SEATS: dict[str, Said] = {
    "disk-full": say("The server cannot save right now (its disk is full): nothing was saved; tell your teacher."),
    "read-only": say("The server cannot save right now (its saved tables are read-only): nothing was saved; tell your teacher."),
    "database-gone": say("The server cannot reach its database right now: nothing was saved; tell your teacher, then press again in a moment."),
}

#: what the facilitator's page and the class monitor say, by reason (and database).
FOR_TEACHERS: dict[str, Said] = {
    "disk-full": say("The server's disk is full: free some space on the laptop (or the server), then press again. Nothing was lost."),
    "read-only": say("The server cannot write its saved tables (the file or its folder is read-only, or the disk is): make them writable again, then press again. Nothing was lost."),
    "database-gone": say("The server lost its database (PostgreSQL is down or restarting): wait until it is back, then press again. Nothing was lost."),
    "database-gone sqlite": say("The server cannot open its saved tables file (a disk unplugged or failing?): check the laptop's disk, then press again. Nothing was lost."),
}


class StoreFault(Refusal):
    """The store could not save (or read) because of the machine, not the rules: nothing was
    written. `reason` names the kind, `message` is for a seat's page, `teacher` for the
    facilitator's, `detail` (the database's own words and where) for the terminal."""

    def __init__(self, reason: Reason, detail: str, where: str, sqlite: bool = False) -> None:
        super().__init__(FOR_SEATS[reason], reason)
        self.reason: Reason = reason
        self._teacher = FOR_TEACHERS[f"{reason} sqlite" if sqlite and f"{reason} sqlite" in FOR_TEACHERS else reason]
        self.detail = detail
        self.where = where

    @property
    def teacher(self) -> str:
        """The facilitator's message, in the reader's language."""
        return render(self._teacher)

    def for_page(self, teacher: bool) -> str:
        """The message for a page: the teacher's (facilitator, monitor) or a seat's."""
        return self.teacher if teacher else self.message

    def for_terminal(self) -> str:
        """What the server's terminal says, once: what happened, where, and what to do."""
        what, do = {
            "disk-full": ("the disk holding the saved tables is full", "free some space on it"),
            "read-only": ("the saved tables cannot be written (a read-only file, folder or disk)", "make the file and its folder writable by the server's account"),
            "database-gone": ("the database cannot be reached", "start PostgreSQL again (or check the network to it)" if self.where.startswith("PostgreSQL") else "check the disk the file is on"),
        }[self.reason]
        return f"{what} ({self.where}; {self.detail}): {do}. Until then every page refuses its changes and says so; nothing saved is lost."


# SQLite's primary result codes (`sqlite3.Error.sqlite_errorcode & 0xff`).
_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN = 8, 10, 13, 14


def sqlite_fault(error: BaseException, where: str) -> StoreFault | None:
    """The fault a SQLite error is, or None (a constraint, a bug: not the machine's)."""
    if not isinstance(error, sqlite3.OperationalError | sqlite3.DatabaseError) or isinstance(error, sqlite3.IntegrityError):
        return None
    code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
    text = str(error).lower()
    detail = f"{type(error).__name__}: {error}"
    if code == _SQLITE_FULL or "disk is full" in text:
        return StoreFault("disk-full", detail, where, sqlite=True)
    if code == _SQLITE_READONLY or "readonly" in text or "read-only" in text:
        return StoreFault("read-only", detail, where, sqlite=True)
    if code in (_SQLITE_CANTOPEN, _SQLITE_IOERR) or "unable to open" in text or "disk i/o error" in text:
        return StoreFault("database-gone", detail, where, sqlite=True)
    return None


def postgres_fault(error: BaseException, where: str) -> tuple[StoreFault, bool] | None:
    """The fault a psycopg error is, and whether it is a connection lost (worth one retry on a
    new connection), or None (a constraint, a bug, a cancelled query: not the machine's)."""
    import psycopg

    if not isinstance(error, psycopg.OperationalError | psycopg.errors.ReadOnlySqlTransaction):
        return None
    state = getattr(error, "sqlstate", None) or ""
    detail = f"{type(error).__name__}: {' '.join(str(error).split())}"
    if state == "53100":  # disk_full
        return StoreFault("disk-full", detail, where), False
    if state == "25006":  # read_only_sql_transaction: a standby, or default_transaction_read_only
        return StoreFault("read-only", detail, where), False
    # Connection exceptions (08...), the server shutting down or starting (57P01-57P03), and the
    # client's own "the connection is lost / closed / could not be made" (no SQLSTATE).
    if state.startswith("08") or state in ("57P01", "57P02", "57P03") or not state:
        return StoreFault("database-gone", detail, where), True
    return None


_faults: dict[str, str] = {}
_lock = threading.Lock()


def noted(fault: StoreFault) -> None:
    """Say `fault` on the terminal, once per kind until the store recovers."""
    with _lock:
        if fault.reason in _faults:
            return
        _faults[fault.reason] = fault.detail
    log.error(fault.for_terminal())


def recovered(where: str) -> None:
    """A change went through: say so once, if a fault was said."""
    with _lock:
        if not _faults:
            return
        kinds = ", ".join(sorted(_faults))
        _faults.clear()
    log.warning(f"the saved tables can be written again ({where}; after: {kinds}).")


def faults_now() -> dict[str, str]:
    """The faults said and not yet recovered from, by reason (for tests and the status)."""
    with _lock:
        return dict(_faults)


def forget() -> None:
    """Forget the faults said (a test starts afresh)."""
    with _lock:
        _faults.clear()
