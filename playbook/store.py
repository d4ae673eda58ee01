"""Tables many pages share: every game kept as its action log, in SQLite or PostgreSQL.

One write path. Every change to a table (an action, an undo, a seat handed to a bot or back,
its settings) is one call, `Store.submit(table_id, change, seen)`, where `seen` is the version
of the table the page last showed. The store decides it inside one write transaction, holding
the table's lock, against the latest stored state:

- An action by a seat is applied to the latest state when it is still legal for that seat, so
  simultaneous secret choices (pledges, picks) always go through, however far behind the page
  was. It is refused (`Refused`, with the rules' reason) when it no longer is legal, and refused as
  stale (`StaleTable`) when that same seat was moved elsewhere since the page looked (two
  devices on one seat, or a bot took it over): the page's picture of its own seat is out of date.
- A table action (the facilitator's Advance, misfortune by hand) and an Undo need the page to
  be up to date: their meaning depends on the moment they were pressed. A seat handed to a bot
  (or back) or released goes through while other seats move, as long as that seat has not.
- Undo is checked against the version: it takes back exactly what the page showed as the last
  move (a person's move and the bot moves that followed it), never another page's move. An
  undone row stays in the log, marked with the version that undid it, so nothing stored is ever
  lost, written twice or brought back.
- Bots move inside the same transaction as the change that woke them.

Every change bumps the table's `version` (and records a row in `changes`): a page learns that
a table moved by comparing versions (`Store.version`, one indexed read) or by waiting for it
(`Store.wait`; PostgreSQL wakes waiters with LISTEN/NOTIFY).

Classes (`playbook.classes`) are kept beside the tables, each one JSON record with a version,
changed the same way: `Store.change_class` decides one change in one transaction, with the
class's row locked, and may create or stop the class's tables in that same transaction.

`PLAYBOOK_DB` chooses the database: a `postgresql://` URL (a school server, shared by several
Voila servers), else a SQLite file path; by default `tables.sqlite3` in the playbook's data
folder (`playbook.places`).
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

from rules import GAMES, Action, Game, RuleError, SaveFileError
from rules.core import SAVE_FORMAT, SAVE_VERSION, AnyGame, _plain, action_to_json, actions_from_json
from rules.games import card
from rules.text import Said, say

from . import pace
from .access import key_matches
from .bots import run_bots, strategies, undo_plan
from .places import data_folder, is_postgres, store_location
from .refusals import Refusal
from .store_faults import StoreFault, log, noted, postgres_fault, recovered, sqlite_fault

_T = TypeVar("_T")

__all__ = [
    "CLASS_ENDED",
    "HANDED",
    "STOPPED",
    "Change",
    "Claim",
    "ClassTables",
    "ClassUpdate",
    "Confirm",
    "HandOver",
    "Outcome",
    "Play",
    "Refused",
    "Release",
    "SetMeta",
    "StaleTable",
    "StoppedTable",
    "Store",
    "StoreFault",
    "StoredClass",
    "Table",
    "TableInfo",
    "Undo",
    "bot_of_move",
    "bots_of",
    "default_path",
    "undo_reason",
]

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS tables (
        id       TEXT PRIMARY KEY,
        game     TEXT NOT NULL,
        title    TEXT NOT NULL,
        setup    TEXT NOT NULL,
        seed     BIGINT NOT NULL,
        created  DOUBLE PRECISION NOT NULL,
        updated  DOUBLE PRECISION NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0,
        meta     TEXT NOT NULL DEFAULT '{}',
        version  INTEGER NOT NULL DEFAULT 0
    )""",
    # n numbers the rows of a table for good (an undone row keeps its number).
    """CREATE TABLE IF NOT EXISTS actions (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        n        INTEGER NOT NULL,
        action   TEXT NOT NULL,
        version  INTEGER NOT NULL DEFAULT 0,
        undone   INTEGER,
        bot      INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, n)
    )""",
    # A class (playbook.classes): one room's students, code and tables, as one JSON record.
    """CREATE TABLE IF NOT EXISTS classes (
        id       TEXT PRIMARY KEY,
        code     TEXT NOT NULL UNIQUE,
        game     TEXT NOT NULL,
        record   TEXT NOT NULL,
        version  INTEGER NOT NULL,
        created  DOUBLE PRECISION NOT NULL,
        updated  DOUBLE PRECISION NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE IF NOT EXISTS class_changes (
        class_id TEXT NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
        version  INTEGER NOT NULL,
        kind     TEXT NOT NULL,
        summary  TEXT NOT NULL,
        at       DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (class_id, version)
    )""",
    # When a student's page was last heard (its heartbeat, written every PRESENCE_WRITE_SECONDS at
    # most): not a change of the class, so no version moves and no page redraws for it.
    """CREATE TABLE IF NOT EXISTS class_presence (
        class_id TEXT NOT NULL,
        student  TEXT NOT NULL,
        seen     DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (class_id, student)
    )""",
    """CREATE TABLE IF NOT EXISTS changes (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        version  INTEGER NOT NULL,
        kind     TEXT NOT NULL,
        seats    TEXT NOT NULL,
        summary  TEXT NOT NULL,
        at       DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, version)
    )""",
)
#: columns that files made by older playbooks lack, with their definitions.
ADDED_COLUMNS = {
    "tables": {"meta": "TEXT NOT NULL DEFAULT '{}'", "version": "INTEGER NOT NULL DEFAULT 0"},
    "actions": {"version": "INTEGER NOT NULL DEFAULT 0", "undone": "INTEGER", "bot": "INTEGER NOT NULL DEFAULT 0"},
    # the language the student's page speaks (its device's choice, else the class's): the monitor counts them
    "class_presence": {"lang": "TEXT NOT NULL DEFAULT ''"},
}
NOTIFY_CHANNEL = "playbook_tables"
#: a table's meta key saying why it takes no more moves (a class ended by its facilitator): moves,
#: undos and bot hand-overs are refused with it; seats may still be claimed and shown.
STOPPED = "stopped"
#: a table's meta key: every hand-over of a seat, [seat, bot (None: a person), the number of
#: moves before it, the bot before it (None: a person)], oldest first (`bot_of_move`).
HANDED = "handed"
#: why a table of an ended class takes no more moves (its meta's STOPPED keeps it in English).
CLASS_ENDED = say("The facilitator ended the class: this table takes no more moves. Thank you for playing!")
#: the rules' reasons an undo is refused (`Game.undo_blocker`, English), said in the reader's language.
_UNDO_BLOCKERS = {
    str(said): said
    for said in (say("nothing to undo"), say("the last action was a chance outcome"), say("the last action revealed hidden information"))
}
#: how often a SQLite waiter looks at the version (a point read of one row).
POLL_SECONDS = 0.1


# -- changes ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One change a page asks of a table."""

    kind = "change"


@dataclass(frozen=True)
class Play(Change):
    """Apply `action` (then any chance it leads to, then the bots).

    `release_bots` lets bots that wait for the people (Leerdam's allocation) move first; the
    action is then skipped if the bots already finished the step it was to move on.
    """

    action: Action
    release_bots: bool = False
    #: made by a seat's timer at zero (`playbook.pace`): how ("default", or "bot NAME").
    timed_out: str = ""
    kind = "play"


@dataclass(frozen=True)
class Undo(Change):
    """Take back the last move a person made, with the bot moves that followed it."""

    kind = "undo"


@dataclass(frozen=True)
class HandOver(Change):
    """Hand `seat` to the bot `bot`, or back to a person (`bot` None)."""

    seat: int
    bot: str | None = None
    kind = "hand-over"


@dataclass(frozen=True)
class Claim(Change):
    """A device takes `seat` for itself: by the board's join code (`key` None), or by opening
    the seat's own link (`key`, the key that link holds).

    The seat gets `new_key`, which only the claiming device learns: the link it was claimed
    with stops working, so a seat is one device's at a time. Refused when a bot plays the
    seat, when a device already holds it, and for a link whose key is no longer the seat's.
    Claims by different devices commute, so a claim is decided against the latest table
    however far behind the page was."""

    seat: int
    new_key: str
    key: str | None = None
    kind = "claim"


@dataclass(frozen=True)
class Confirm(Change):
    """The page that claimed `seat` is showing it (its first heartbeat): the link it was claimed
    with, which could claim it again until now (a reload before the page showed), opens nothing
    more. `key` is the seat's new key, which only that page knows."""

    seat: int
    key: str
    kind = "confirm"


@dataclass(frozen=True)
class Release(Change):
    """The facilitator frees a claimed `seat` for another device; its old link stops working
    (`new_key` replaces the seat's key)."""

    seat: int
    new_key: str
    kind = "release"


@dataclass(frozen=True)
class SetMeta(Change):
    """Set keys of the table's front-end settings (`meta`); a value None removes its key."""

    values: Mapping[str, Any] = field(default_factory=dict)
    kind = "meta"


# -- what comes back -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """One version of a stored table: the game replayed to it, and its settings."""

    id: str
    version: int
    game: AnyGame
    meta: dict[str, Any]
    #: for each action of `game`, whether a bot chose it (Undo goes back past bot moves).
    by_bot: tuple[bool, ...]

    @property
    def bots(self) -> dict[int, str]:
        return bots_of(self.meta)

    def bot_of_move(self, index: int) -> str | None:
        """The bot that made the move `index` of `game` (from 0), or None for a person ("" for a
        bot the table has no name of)."""
        if index >= len(self.by_bot) or not self.by_bot[index]:
            return None
        action = self.game.actions[index]
        found = bot_of_move(self.meta, action.seat, index) if action.seat is not None else None
        # A bot's move with no bot on record (a table of an older playbook): a bot all the same, unnamed.
        return found or ""

    def undo_plan(self) -> tuple[int, str | None]:
        """How many actions an Undo would take back now, or 0 and why not."""
        return undo_plan(self.game, self.by_bot)


@dataclass(frozen=True)
class Outcome:
    """What a submitted change did: the table after it, and the log rows it touched."""

    table: Table
    #: row numbers written by this change (the action, chance outcomes, bot moves).
    appended: tuple[int, ...] = ()
    #: row numbers this change took back.
    undone: tuple[int, ...] = ()
    #: the page was behind: the action went through on a newer state than it showed.
    behind: bool = False
    #: why the bots stopped early, if they did.
    note: str = ""


def undo_reason(reason: str) -> Said | str:
    """The rules' reason an undo is refused, said in the reader's language (`i18n.render`)."""
    return _UNDO_BLOCKERS.get(reason, reason)


class Refused(Refusal):
    """A change the store did not make; `table` is the table as it stands (nothing changed).
    A move the rules refuse comes back as one, with the rules' reason and `rule`."""

    def __init__(self, rule: str, message: str | Said, table: Table | None = None) -> None:
        super().__init__(message, rule)
        self.table = table


class StaleTable(Refused):
    """The page was behind in a way that changes what its click meant: look again."""

    def __init__(self, message: str | Said, table: Table | None = None) -> None:
        super().__init__("stale", message, table)


class StoppedTable(Refused):
    """The table takes no more moves (its class ended): the message says why (its meta's STOPPED)."""

    def __init__(self, message: str | Said, table: Table | None = None) -> None:
        super().__init__("stopped", message, table)


@dataclass(frozen=True)
class TableInfo:
    id: str
    game: str
    title: str
    created: float
    updated: float
    finished: bool
    moves: int
    #: what the front end keeps beside the record (which seats are bots, seat keys, ...).
    meta: dict[str, Any]
    version: int = 0


@dataclass(frozen=True)
class StoredClass:
    """A class as the store keeps it: its record as JSON (`playbook.classes.ClassRecord`) and
    its version, which grows by one with every change."""

    id: str
    record: str
    version: int


@dataclass(frozen=True)
class ClassUpdate:
    """What a class change leaves (`Store.change_class`): the new record's JSON, and a line for
    the class's log."""

    record: str
    kind: str
    summary: str
    #: the class is over: it is no longer among the open classes.
    finished: bool = False


def bots_of(meta: Mapping[str, Any]) -> dict[int, str]:
    """Seat -> bot name from a table's meta (the names are checked where they are set)."""
    return {int(seat): str(name) for seat, name in dict(meta.get("bots") or {}).items() if str(seat).isdigit()}


def bot_of_move(meta: Mapping[str, Any], seat: int, index: int) -> str | None:
    """The bot that played `seat` when the table's move `index` (from 0) was made, or None for
    a person: the last hand-over of the seat before that move (meta's HANDED), else the bot
    before its first hand-over after it, else the seat's bot now. A table that has never been
    handed over keeps the bots it was made with."""
    handed = [h for h in meta.get(HANDED) or [] if isinstance(h, list) and len(h) == 4 and h[0] == seat]
    before = [h for h in handed if h[2] <= index]
    if before:
        return None if before[-1][1] is None else str(before[-1][1])
    if handed:
        return None if handed[0][3] is None else str(handed[0][3])
    return bots_of(meta).get(seat)


# -- databases ---------------------------------------------------------------------------------------


class _Conn(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any: ...


class _Database(Protocol):
    """What the store asks of a database (`_SQLite`, `_Postgres`)."""

    #: what a write's SELECT adds to lock the row it reads until the transaction ends.
    lock_clause: str
    #: where the database is, for the terminal (no password).
    where: str

    def write(self, fresh: bool = False) -> AbstractContextManager[_Conn]: ...
    def read(self, fresh: bool = False) -> AbstractContextManager[_Conn]: ...
    def setup(self, db: _Conn) -> None: ...
    def fault(self, error: BaseException) -> tuple[StoreFault, bool] | None: ...
    def lost(self) -> None: ...
    def notify(self, db: _Conn, key: str, version: int) -> None: ...
    def wait(self, read_version: Callable[[str], int], key: str, seen: int, timeout: float) -> int: ...
    def unique_clash(self, error: BaseException) -> bool: ...
    def close(self) -> None: ...


def default_path() -> Path:
    """The default SQLite file (`playbook.places.store_location`; for a PostgreSQL
    `PLAYBOOK_DB`, its URL as a path: unused)."""
    return Path(store_location()).expanduser()


def _private_file(path: Path) -> None:
    """Make `path` (and the folder it is in, when the store made that folder or it is the
    playbook's own data folder) readable by this account only: the file holds every key and
    every secret. A folder the user chose (`PLAYBOOK_DB=/tmp/x.sqlite3`) keeps its mode: /tmp
    must keep its sticky bit and stay open to everyone.

    SQLite gives its -wal and -shm files the database file's own mode, so they follow.
    """
    folder = path.parent
    made = not folder.exists()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if made or folder.resolve() == data_folder().resolve():
        _chmod_if_mine(folder, 0o700)
    if not path.exists():
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for part in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        _chmod_if_mine(part, 0o600)


def _chmod_if_mine(path: Path, mode: int) -> None:
    try:
        if path.exists() and path.stat().st_uid == os.getuid() and path.stat().st_mode & 0o777 != mode:
            path.chmod(mode)
    except OSError:
        pass  # a file system without modes (a mounted share): nothing to tighten


class _SQLite:
    """A SQLite file in WAL mode: a write transaction takes the database's write lock at once."""

    lock_clause = ""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = str(path)
        _private_file(path)
        self._local = threading.local()
        #: more pragmas every new connection runs (the tests fill the file with `max_page_count`).
        self.pragmas: list[str] = []

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=60, isolation_level=None)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA synchronous = NORMAL")  # WAL keeps every commit safe from a killed process
        for pragma in self.pragmas:
            db.execute(pragma)
        return db

    def _reader(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self._connect()
        return db

    @contextmanager
    def write(self, fresh: bool = False) -> Iterator[_Conn]:
        db = self._connect()
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                if db.in_transaction:  # SQLite rolls back by itself on some errors (a full disk)
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        finally:
            db.close()

    @contextmanager
    def read(self, fresh: bool = False) -> Iterator[_Conn]:
        db = self._reader()
        db.execute("BEGIN")  # one snapshot for every query of the read
        try:
            yield db
        finally:
            db.execute("COMMIT")

    def setup(self, db: _Conn) -> None:
        """The schema, inside a write transaction."""
        for statement in SCHEMA:
            db.execute(statement)
        for table, columns in ADDED_COLUMNS.items():
            have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            for name, definition in columns.items():
                if name not in have:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {definition}")

    def notify(self, db: _Conn, key: str, version: int) -> None:
        """Readers poll the version: nothing to send."""

    def fault(self, error: BaseException) -> tuple[StoreFault, bool] | None:
        """The machine's fault `error` is (a full disk, a read-only file, a file that cannot be
        opened), never worth a retry: a file has no connection to lose."""
        fault = sqlite_fault(error, str(self.path))
        return None if fault is None else (fault, False)

    def lost(self) -> None:
        """Nothing to mend."""

    def unique_clash(self, error: BaseException) -> bool:
        """Whether `error` is a row whose unique key (its id, a class's code) another row has."""
        return isinstance(error, sqlite3.IntegrityError) and error.sqlite_errorcode in (sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)

    def wait(self, read_version: Callable[[str], int], table_id: str, seen: int, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        while True:
            version = read_version(table_id)
            if version != seen or time.monotonic() >= deadline:
                return version
            time.sleep(min(POLL_SECONDS, max(0.0, deadline - time.monotonic())))

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None


class _PgConn:
    """A psycopg connection that speaks the store's `?` placeholders."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.conn.execute(sql.replace("?", "%s"), tuple(params))


class _Postgres:
    """A PostgreSQL database through a small psycopg pool; a write locks the table's row."""

    lock_clause = " FOR UPDATE"

    #: how long a connection made outside the pool (a retry, or while the database is gone) may take.
    connect_timeout = 5

    def __init__(self, url: str) -> None:
        import psycopg_pool
        from psycopg.conninfo import conninfo_to_dict

        self.url = url
        parts = conninfo_to_dict(url)
        #: where the database is, without its password (for the terminal).
        self.where = f"PostgreSQL {parts.get('host', 'localhost')}:{parts.get('port', 5432)}/{parts.get('dbname', '')}"
        # A database that cannot be reached is said at once (a page opening says so and tries
        # again) rather than after the pool's 30 s, its workers warning meanwhile.
        import psycopg

        try:
            psycopg.connect(url, autocommit=True, connect_timeout=self.connect_timeout).close()
        except psycopg.Error as error:
            found = postgres_fault(error, self.where)
            if found is None:
                raise
            noted(found[0])
            raise found[0] from None
        # Small: every Voila kernel has its own store, and a server has 100 connections.
        self.pool = psycopg_pool.ConnectionPool(url, min_size=1, max_size=3, kwargs={"autocommit": True}, open=True, timeout=30)
        self._listener: Any = None

    @contextmanager
    def _connection(self, fresh: bool) -> Iterator[Any]:
        """A connection from the pool; `fresh`: a new one of its own (a retry after a connection
        was lost, whatever the pool still holds), closed after."""
        if not fresh:
            with self.pool.connection() as conn:
                yield conn
            return
        import psycopg

        with psycopg.connect(self.url, autocommit=True, connect_timeout=self.connect_timeout) as conn:
            yield conn

    @contextmanager
    def write(self, fresh: bool = False) -> Iterator[_Conn]:
        with self._connection(fresh) as conn, conn.transaction():
            yield _PgConn(conn)

    @contextmanager
    def read(self, fresh: bool = False) -> Iterator[_Conn]:
        with self._connection(fresh) as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            yield _PgConn(conn)

    def fault(self, error: BaseException) -> tuple[StoreFault, bool] | None:
        """The machine's fault `error` is, and whether it is a connection lost (one retry)."""
        return postgres_fault(error, self.where)

    def lost(self) -> None:
        """A connection was lost (the server restarted?): the pool drops every idle connection
        that is lost too and opens new ones, so the next change finds a live one."""
        try:
            self.pool.check()
        except Exception:  # the server is still gone: the pool mends itself once it is back
            pass

    def setup(self, db: _Conn) -> None:
        """The schema, inside a write transaction."""
        # Many kernels may start at once: one of them creates the schema.
        db.execute("SELECT pg_advisory_xact_lock(7341)")
        for statement in SCHEMA:
            db.execute(statement)
        for table, columns in ADDED_COLUMNS.items():
            for name, definition in columns.items():
                db.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {name} {definition}")

    def notify(self, db: _Conn, key: str, version: int) -> None:
        # Delivered when the transaction commits, to every connection that listens.
        db.execute("SELECT pg_notify(?, ?)", (NOTIFY_CHANNEL, f"{key} {version}"))

    def unique_clash(self, error: BaseException) -> bool:
        """Whether `error` is a row whose unique key (its id, a class's code) another row has."""
        from psycopg.errors import UniqueViolation

        return isinstance(error, UniqueViolation)

    def wait(self, read_version: Callable[[str], int], table_id: str, seen: int, timeout: float) -> int:
        import psycopg

        if self._listener is None or self._listener.closed:
            self._listener = psycopg.connect(self.url, autocommit=True, connect_timeout=self.connect_timeout)
            self._listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
        deadline = time.monotonic() + timeout
        version = read_version(table_id)  # after LISTEN: a change from now on is not missed
        while version == seen:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            try:
                for note in self._listener.notifies(timeout=left, stop_after=1):
                    if note.payload.split(" ")[0] == table_id:
                        break
            except psycopg.OperationalError:
                self._listener.close()  # lost (the server restarted): a new one at the next wait
                raise
            version = read_version(table_id)
        return version

    def close(self) -> None:
        if self._listener is not None:
            self._listener.close()
        self.pool.close()


# -- the store ---------------------------------------------------------------------------------------


@dataclass
class _Cached:
    """A table as this process last replayed it, to catch up from instead of replaying all."""

    version: int
    game: AnyGame
    rows: list[int]
    by_bot: list[bool]


class Store:
    """The database of tables. Cheap to open; safe to share between processes and servers."""

    def __init__(self, location: str | os.PathLike[str] | None = None) -> None:
        text = str(location) if location is not None else store_location()
        if is_postgres(text):
            self.location = text
            self.path: Path | None = None
            self._db: _Database = _Postgres(text)
        else:
            self.path = Path(text).expanduser()
            self.location = str(self.path)
            self._db = _SQLite(self.path)
        self._cache: dict[str, _Cached] = {}
        self._lock = threading.Lock()
        #: the database was found gone: every try makes a connection of its own (quick to fail),
        #: until one goes through.
        self._gone = False
        try:
            self._run(True, self._db.setup, writes=False)
        except BaseException:
            self._db.close()  # a store that did not open holds no pool (its threads would outlive it)
            raise

    @property
    def kind(self) -> str:
        return "postgresql" if isinstance(self._db, _Postgres) else "sqlite"

    def close(self) -> None:
        self._db.close()

    # -- every transaction -------------------------------------------------------------------------
    def _run(self, write: bool, work: Callable[[_Conn], _T], writes: bool = True) -> _T:
        """`work` in one transaction (a write, or a read's one snapshot); what it gives.

        The machine's faults (a full disk, a read-only store, a database gone) are raised as
        `StoreFault`, with nothing written, and said on the terminal once per kind until a write
        goes through again. A connection lost before the commit (PostgreSQL restarted: its
        connections were ended) is retried once, on a new connection of its own: the transaction
        was rolled back, so nothing is written twice. A connection lost during the commit is not
        retried (the commit may have been made). A write that may write nothing (`writes` False:
        the schema, already made) is no sign that the store can save again.
        """
        lost: BaseException | None = None
        for attempt in (0, 1):
            committing = False
            try:
                with (self._db.write if write else self._db.read)(attempt > 0 or self._gone) as db:
                    result = work(db)
                    committing = True
            except Exception as error:
                found = self._db.fault(error)
                if found is None:
                    raise
                fault, retry = found
                if retry and attempt == 0 and not (write and committing):
                    lost = error
                    self._db.lost()
                    continue
                self._gone = fault.reason == "database-gone"
                noted(fault)
                raise fault from error
            if lost is not None:
                log.warning(f"a connection to the database was lost ({type(lost).__name__}: {' '.join(str(lost).split())}); the {'change' if write else 'read'} went through on a new one.")
            if self._gone:
                self._gone = False
                self._db.lost()  # the pool's connections are new ones from now on
            if write and writes:
                recovered(self._db.where)
            return result
        raise AssertionError("unreachable")

    # -- creating ---------------------------------------------------------------------------------
    def create(self, game: AnyGame, title: str | None = None, meta: dict[str, Any] | None = None) -> str:
        """Save a new table (with any actions it already has, then its bots' moves); its id.

        `meta` is small JSON the front end keeps with the table: which seats are bots ("bots":
        {seat: name}), seat keys, ...
        """
        return self._run(True, lambda db: self._create_in(db, game, title, meta))

    def _create_in(self, db: _Conn, game: AnyGame, title: str | None = None, meta: dict[str, Any] | None = None) -> str:
        """`create`, inside a write transaction the caller holds (a class deals its tables in
        the same transaction as the deal itself)."""
        meta = dict(meta or {})
        self._check_bots(game, bots_of(meta))
        work = game.copy()
        start = len(work.actions)
        note = run_bots(work, bots_of(meta))
        by_bot = [False] * start + [True] * (len(work.actions) - start)
        table_id = secrets.token_urlsafe(9)
        now = time.time()
        meta.update(pace.after_change(meta, None, work, now))
        names = getattr(game.setup, "names", ())
        title = title or f"{game.rules.title}: {', '.join(names)}"
        db.execute(
            "INSERT INTO tables (id, game, title, setup, seed, created, updated, finished, meta, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
            (table_id, game.rules.slug, title, json.dumps(_plain(game.setup), ensure_ascii=False), game.seed, now, now, int(game.rules.over(work.state)), json.dumps(meta, ensure_ascii=False)),
        )
        self._insert_rows(db, table_id, work, 0, by_bot, 1)
        self._record_change(db, table_id, 1, "create", (), f"table created ({len(work.actions)} moves)" + (f"; {note}" if note else ""), now)
        self._db.notify(db, table_id, 1)
        with self._lock:
            self._cache[table_id] = _Cached(1, work.copy(), list(range(len(work.actions))), by_bot)
        return table_id

    def _stop_in(self, db: _Conn, table_id: str, reason: str) -> None:
        """Inside a write transaction: the table takes no more moves, `reason` says why (its
        meta's STOPPED); a new version its pages redraw at. A table already stopped is left as it is."""
        row = db.execute(f"SELECT version, meta FROM tables WHERE id = ?{self._db.lock_clause}", (table_id,)).fetchone()
        if row is None:
            raise KeyError(f"no saved table {table_id!r}")
        version, meta = int(row[0]), json.loads(row[1])
        if meta.get(STOPPED):
            return
        now = time.time()
        db.execute("UPDATE tables SET version = ?, meta = ?, updated = ? WHERE id = ?", (version + 1, json.dumps({**meta, STOPPED: reason}, ensure_ascii=False), now, table_id))
        self._record_change(db, table_id, version + 1, "stop", (), reason, now)
        self._db.notify(db, table_id, version + 1)

    def _update_meta_in(self, db: _Conn, table_id: str, update: Callable[[dict[str, Any]], dict[str, Any] | None], summary: str) -> None:
        """Inside a write transaction: the meta keys `update(meta)` gives set (a value None
        removes its key), as a new version; nothing when it gives None."""
        row = db.execute(f"SELECT version, meta FROM tables WHERE id = ?{self._db.lock_clause}", (table_id,)).fetchone()
        if row is None:
            raise KeyError(f"no saved table {table_id!r}")
        version, meta = int(row[0]), json.loads(row[1])
        values = update(dict(meta))
        if values is None:
            return
        new_meta = {k: v for k, v in {**meta, **values}.items() if v is not None}
        now = time.time()
        db.execute("UPDATE tables SET version = ?, meta = ?, updated = ? WHERE id = ?", (version + 1, json.dumps(new_meta, ensure_ascii=False), now, table_id))
        self._record_change(db, table_id, version + 1, "meta", (), summary, now)
        self._db.notify(db, table_id, version + 1)

    # -- classes ---------------------------------------------------------------------------------------
    def add_class(self, class_id: str, code: str, game: str, record: str, created: float) -> bool:
        """Save a new class (its record's JSON) at version 1; False, and nothing saved, when its
        id or room code is another class's already (the caller draws another)."""

        def add(db: _Conn) -> None:
            db.execute(
                "INSERT INTO classes (id, code, game, record, version, created, updated, finished) VALUES (?, ?, ?, ?, 1, ?, ?, 0)",
                (class_id, code, game, record, created, created),
            )
            db.execute("INSERT INTO class_changes (class_id, version, kind, summary, at) VALUES (?, 1, 'create', ?, ?)", (class_id, "class created", created))

        try:
            self._run(True, add)
        except Exception as error:
            if self._db.unique_clash(error):
                return False
            raise
        return True

    def change_class(self, class_id: str, decide: Callable[[StoredClass, ClassTables], ClassUpdate]) -> StoredClass:
        """The one write path of a class, one transaction a change: `decide` reads the class as
        stored (its row locked until the change is written) and says what it becomes, at version
        `stored.version + 1`; it makes or stops the class's tables through `ClassTables`, in the
        same transaction. Whatever `decide` raises (a refusal, a page that is behind) leaves the
        class and its tables as they were. KeyError for an unknown class."""

        def change(db: _Conn) -> StoredClass:
            row = db.execute(f"SELECT record, version FROM classes WHERE id = ?{self._db.lock_clause}", (class_id,)).fetchone()
            if row is None:
                raise KeyError(f"no class {class_id!r}")
            update = decide(StoredClass(class_id, row[0], int(row[1])), ClassTables(self, db))
            version = int(row[1]) + 1
            now = time.time()
            db.execute("UPDATE classes SET record = ?, version = ?, updated = ?, finished = ? WHERE id = ?", (update.record, version, now, int(update.finished), class_id))
            db.execute("INSERT INTO class_changes (class_id, version, kind, summary, at) VALUES (?, ?, ?, ?, ?)", (class_id, version, update.kind, update.summary, now))
            self._db.notify(db, class_id, version)
            return StoredClass(class_id, update.record, version)

        return self._run(True, change)

    def class_record(self, class_id: str) -> StoredClass:
        """A class as it stands; KeyError if there is none."""
        row = self._run(False, lambda db: db.execute("SELECT record, version FROM classes WHERE id = ?", (class_id,)).fetchone())
        if row is None:
            raise KeyError(f"no class {class_id!r}")
        return StoredClass(class_id, row[0], int(row[1]))

    def class_by_code(self, code: str) -> StoredClass | None:
        """The class with this room code, or None."""
        row = self._run(False, lambda db: db.execute("SELECT id, record, version FROM classes WHERE code = ? ORDER BY created DESC", (code,)).fetchone())
        return None if row is None else StoredClass(row[0], row[1], int(row[2]))

    def class_version(self, class_id: str) -> int:
        """The class's version (one indexed read: the change signal of its pages)."""
        return self._version_in("classes", class_id, f"no class {class_id!r}")

    def wait_class(self, class_id: str, seen: int, timeout: float = 10.0) -> int:
        """Block until the class's version differs from `seen` (or `timeout` passes); the version."""
        return self._wait(self.class_version, class_id, seen, timeout)

    def classes(self, open_only: bool = True) -> list[StoredClass]:
        """Classes (only those not over, when `open_only`), newest first."""
        rows = self._run(False, lambda db: db.execute("SELECT id, record, version FROM classes" + (" WHERE finished = 0" if open_only else "") + " ORDER BY created DESC").fetchall())
        return [StoredClass(r[0], r[1], int(r[2])) for r in rows]

    def remove_classes(self, made_before: float, remove: Callable[[StoredClass], bool]) -> int:
        """Remove, in one transaction, the classes not over made before `made_before` that
        `remove` picks (their records read in that transaction, their rows locked), with their
        changes; how many went. `remove` is the classes module's say (`expire_empty`)."""

        def remove_in(db: _Conn) -> int:
            gone = 0
            rows = db.execute(f"SELECT id, record, version FROM classes WHERE finished = 0 AND created < ?{self._db.lock_clause}", (made_before,)).fetchall()
            for row in rows:
                stored = StoredClass(row[0], row[1], int(row[2]))
                if not remove(stored):
                    continue
                db.execute("DELETE FROM class_changes WHERE class_id = ?", (stored.id,))
                db.execute("DELETE FROM class_presence WHERE class_id = ?", (stored.id,))
                db.execute("DELETE FROM classes WHERE id = ?", (stored.id,))
                gone += 1
            return gone

        return self._run(True, remove_in, writes=False)

    def note_presence(self, class_id: str, student: str, seen: float, lang: str = "") -> None:
        """A student's page was heard at `seen` (its heartbeat), speaking `lang`: kept beside the
        class, not in its record, so no version moves (the page calls this sparingly, not at
        every beat)."""
        self._run(
            True,
            lambda db: db.execute(
                "INSERT INTO class_presence (class_id, student, seen, lang) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (class_id, student) DO UPDATE SET seen = excluded.seen, lang = excluded.lang",
                (class_id, student, seen, lang),
            ),
        )

    def languages(self, class_id: str) -> dict[str, int]:
        """How many students' pages speak each language, as last heard (`note_presence`)."""
        rows = self._run(False, lambda db: db.execute("SELECT lang, COUNT(*) FROM class_presence WHERE class_id = ? AND lang <> '' GROUP BY lang", (class_id,)).fetchall())
        return {str(r[0]): int(r[1]) for r in rows}

    def presence(self, class_id: str) -> dict[str, float]:
        """When each student's page of the class was last heard (`note_presence`), by student id."""
        rows = self._run(False, lambda db: db.execute("SELECT student, seen FROM class_presence WHERE class_id = ?", (class_id,)).fetchall())
        return {str(r[0]): float(r[1]) for r in rows}

    def class_changes(self, class_id: str) -> list[dict[str, Any]]:
        """Every change made to the class, oldest first: version, kind, summary, time."""
        rows = self._run(False, lambda db: db.execute("SELECT version, kind, summary, at FROM class_changes WHERE class_id = ? ORDER BY version", (class_id,)).fetchall())
        return [{"version": int(r[0]), "kind": r[1], "summary": r[2], "at": float(r[3])} for r in rows]

    # -- the one write path --------------------------------------------------------------------------
    def submit(self, table_id: str, change: Change, seen: int) -> Outcome:
        """Decide one change against the latest stored state, in one transaction.

        Raises `Refused` when the change is not made (with the rules' reason for a move they
        refuse), `StaleTable` when the page must look again first, `StoppedTable` for a table
        that takes no more moves, `KeyError` for an unknown table, `StoreFault` when the machine
        could not save it (a full disk, a read-only store, the database gone; a connection lost
        is retried once first). Nothing is written then.
        """
        try:
            return self._submit(table_id, change, seen)
        except (Refused, KeyError):
            raise
        except Exception:  # StoreFault too
            # A failure inside the rules (a bug) or the database: forget this process's copy, so
            # the next change replays the stored log afresh.
            with self._lock:
                self._cache.pop(table_id, None)
            raise

    def _submit(self, table_id: str, change: Change, seen: int) -> Outcome:
        fresh, new_meta, appended, undone, behind, note = self._run(True, lambda db: self._submit_in(db, table_id, change, seen))
        # This process's copy follows only once the change is written.
        with self._lock:
            self._cache[table_id] = fresh
        return Outcome(self._snapshot(table_id, fresh, new_meta), tuple(appended), tuple(undone), behind, note)

    def _submit_in(self, db: _Conn, table_id: str, change: Change, seen: int) -> tuple[_Cached, dict[str, Any], list[int], list[int], bool, str]:
        """`submit`, inside a write transaction the caller holds (a class hands a removed
        student's seat to a bot in the class's own transaction): the table as the change leaves
        it, its meta, the rows appended and undone, whether the page was behind, the bots' note."""
        row = db.execute(f"SELECT version, meta, finished FROM tables WHERE id = ?{self._db.lock_clause}", (table_id,)).fetchone()
        if row is None:
            raise KeyError(f"no saved table {table_id!r}")
        version, meta = int(row[0]), json.loads(row[1])
        cached = self._catch_up(db, table_id, version)
        before = self._snapshot(table_id, cached, meta)
        behind = seen < version
        if seen > version:
            raise StaleTable(say("this page knows a newer table than the store holds; reopen the table"), before)
        if meta.get(STOPPED) and isinstance(change, (Play, Undo, HandOver)):
            raise StoppedTable(CLASS_ENDED if meta[STOPPED] == str(CLASS_ENDED) else str(meta[STOPPED]), before)
        if behind:
            self._check_not_stale(db, table_id, change, seen, before)
        work = cached.game.copy()
        rows, by_bot = list(cached.rows), list(cached.by_bot)
        new_meta = dict(meta)
        undone: list[int] = []
        note = ""
        start = len(work.actions)
        try:
            if isinstance(change, Play):
                note = self._play(work, change, bots_of(meta), by_bot, before)
                seats = {a.seat for a in work.actions[start:] if a.seat is not None}
                summary = f"{change.action.kind}" + (f" by seat {change.action.seat + 1}" if change.action.seat is not None else " by the table")
                if change.timed_out:
                    new_meta.update(pace.timed_out_mark(new_meta, start, change.timed_out))
                    summary += f" (timed out: {change.timed_out})"
            elif isinstance(change, Undo):
                steps, reason = undo_plan(work, by_bot)
                if reason is not None:
                    raise Refused("undo", say("Cannot undo: {reason}.", reason=undo_reason(reason)), before)
                taken = [work.undo() for _step in range(steps)]
                undone = rows[len(rows) - steps :]
                del rows[len(rows) - steps :], by_bot[len(by_bot) - steps :]
                start = len(work.actions)
                new_meta.update(pace.after_undo(new_meta, start))
                seats = {a.seat for a in taken if a.seat is not None}
                summary = f"undo of {taken[-1].kind}" + (f" by seat {taken[-1].seat + 1}" if taken[-1].seat is not None else "")
            elif isinstance(change, HandOver):
                bots = bots_of(meta)
                names = card(work.rules.slug).seat_names(work.setup)  # an absent GM's seat too
                if not isinstance(change.seat, int) or not 0 <= change.seat < len(names):
                    raise Refused("seat", say("there is no seat {seat}", seat=repr(change.seat)), before)
                if change.bot is None:
                    bots.pop(change.seat, None)
                else:
                    bots[change.seat] = change.bot
                self._check_bots(work, bots, before)
                new_meta["bots"] = {str(s): n for s, n in sorted(bots.items())}
                # From which move on, and by whom, the seat is played: the debrief credits
                # each move to the bot or the person who made it (`bot_of_move`).
                handed = [list(h) for h in meta.get(HANDED) or []]
                new_meta[HANDED] = [*handed, [change.seat, change.bot, start, bots_of(meta).get(change.seat)]]
                note = run_bots(work, bots)
                by_bot += [True] * (len(work.actions) - start)
                seats = {change.seat} | {a.seat for a in work.actions[start:] if a.seat is not None}
                summary = f"seat {change.seat + 1} handed to " + (f"the bot {change.bot}" if change.bot else "a person")
            elif isinstance(change, (Claim, Confirm, Release)):
                names = card(work.rules.slug).seat_names(work.setup)  # a GM's seat too
                if not isinstance(change.seat, int) or not 0 <= change.seat < len(names):
                    raise Refused("seat", say("there is no seat {seat}", seat=repr(change.seat)), before)
                claims = dict(meta.get("claims") or {})
                seat = str(change.seat)
                if isinstance(change, Claim):
                    name = names[change.seat]
                    current = dict(meta.get("seat_keys") or {}).get(seat)
                    pending = claims.get(seat) if isinstance(claims.get(seat), dict) and not claims[seat].get("confirmed") else None
                    # A link claimed a moment ago whose page has not shown yet (a reload, a
                    # retry) may claim again: the page that first claimed it never got going.
                    again = pending is not None and change.key is not None and key_matches(pending.get("slip"), change.key)
                    if change.seat in bots_of(meta):
                        raise Refused("claim", say("a bot plays {name}'s seat", name=name), before)
                    if seat in claims and not again:
                        raise Refused("claim", say("{name}'s seat is open on another device: ask the facilitator to release it if it is yours", name=name), before)
                    if change.key is not None and not again and not key_matches(current, change.key):
                        raise Refused("claim", say("this link no longer opens {name}'s seat: ask the facilitator for a new one", name=name), before)
                    if not isinstance(change.new_key, str) or len(change.new_key) < 16:
                        raise Refused("claim", say("a claim needs a new key of its own"), before)
                    slip = pending["slip"] if again and pending is not None else change.key
                    claims[seat] = {"at": time.time(), "confirmed": False, **({"slip": slip} if slip else {})}
                    new_meta["seat_keys"] = {**dict(meta.get("seat_keys") or {}), seat: change.new_key}
                    summary = f"seat {change.seat + 1} claimed" + (" by its link" if change.key is not None else " by the join code")
                elif isinstance(change, Confirm):
                    held = claims.get(seat)
                    if not isinstance(held, dict) or not key_matches(dict(meta.get("seat_keys") or {}).get(seat), change.key):
                        raise Refused("claim", say("{name}'s seat is not this page's", name=names[change.seat]), before)
                    claims[seat] = {"at": held.get("at", time.time()), "confirmed": True}
                    summary = f"seat {change.seat + 1} shown on its device"
                else:
                    claims.pop(seat, None)
                    new_meta["seat_keys"] = {**dict(meta.get("seat_keys") or {}), seat: change.new_key}
                    summary = f"seat {change.seat + 1} released"
                new_meta["claims"] = claims
                seats = {change.seat}
            elif isinstance(change, SetMeta):
                for key, value in change.values.items():
                    if key in ("bots", HANDED):
                        raise Refused("meta", say("bot seats change with HandOver"), before)
                    if value is None:
                        new_meta.pop(key, None)
                    else:
                        new_meta[key] = value
                seats, summary = set(), "settings: " + ", ".join(sorted(change.values))
            else:
                raise Refused("change", say("the store does not know the change {kind}", kind=type(change).__name__), before)
        except Refused:
            raise
        except RuleError as exc:
            raise Refused(exc.rule, exc.said, before) from None
        new_version = version + 1
        now = time.time()
        new_meta.update(pace.after_change(new_meta, before.game, work, now))
        if undone:
            db.execute(f"UPDATE actions SET undone = ? WHERE table_id = ? AND n IN ({', '.join('?' * len(undone))})", (new_version, table_id, *undone))
        first = self._next_row(db, table_id)
        appended = self._insert_rows(db, table_id, work, start, by_bot, new_version, first)
        rows += appended
        over = int(work.rules.over(work.state))
        db.execute(
            "UPDATE tables SET version = ?, meta = ?, updated = ?, finished = ? WHERE id = ?",
            (new_version, json.dumps(new_meta, ensure_ascii=False), now, over, table_id),
        )
        self._record_change(db, table_id, new_version, change.kind, seats, summary + (f"; {note}" if note else ""), now)
        self._db.notify(db, table_id, new_version)
        return _Cached(new_version, work, rows, by_bot), new_meta, list(appended), undone, behind, note

    def _play(self, work: AnyGame, change: Play, bots: dict[int, str], by_bot: list[bool], before: Table) -> str:
        """Apply a Play to `work` (bots first when released, then after); why bots stopped, or ""."""
        note = ""
        if change.release_bots:
            mark = len(work.actions)
            step = _step_of(work.state)
            note = run_bots(work, bots, release=True)
            by_bot += [True] * (len(work.actions) - mark)
            if _step_of(work.state) != step:
                return note  # the bots finished what the action was to move on
        if change.action.seat is not None and change.action.seat in bots:
            raise Refused("bot seat", say("a bot plays this seat now; the facilitator can hand it back"), before)
        mark = len(work.actions)
        work.apply(change.action)
        by_bot += [False] * (len(work.actions) - mark)
        mark = len(work.actions)
        note = run_bots(work, bots) or note
        by_bot += [True] * (len(work.actions) - mark)
        return note

    def _check_bots(self, game: AnyGame, bots: Mapping[int, str], table: Table | None = None) -> None:
        known = strategies(game.rules.slug)
        for seat, name in bots.items():
            if name not in known:
                said = (
                    say("unknown bot {name} for seat {seat}; choose from {choices}", name=repr(name), seat=seat + 1, choices=", ".join(known))
                    if known
                    else say("unknown bot {name} for seat {seat}; choose from none: this game has no bots", name=repr(name), seat=seat + 1)
                )
                raise Refused("bots", said, table)

    def _check_not_stale(self, db: _Conn, table_id: str, change: Change, seen: int, table: Table) -> None:
        since = db.execute("SELECT kind, seats, summary FROM changes WHERE table_id = ? AND version > ? ORDER BY version", (table_id, seen)).fetchall()
        what = "; ".join(r[2] for r in since[-3:]) or "another page moved"
        if isinstance(change, (Claim, Confirm)):
            return  # claims commute: decided against the latest table
        if isinstance(change, (HandOver, Release)):
            # About one seat: it still means what it meant if that seat has not moved since.
            if not any(change.seat in json.loads(r[1]) for r in since):
                return
            if not isinstance(change.seat, int):
                raise StaleTable(say("that's seat moved since this page showed it ({what}): nothing was done. Look again, then press once more if you still mean it.", what=what), table)
            name = _seat_name(table.game, change.seat)
            raise StaleTable(say("{name}'s seat moved since this page showed it ({what}): nothing was done. Look again, then press once more if you still mean it.", name=name, what=what), table)
        if not isinstance(change, Play) or change.action.seat is None:
            raise StaleTable(say("The table moved on since this page showed it ({what}): nothing was done. Look again, then press once more if you still mean it.", what=what), table)
        seat = change.action.seat
        # A device claiming the seat, or its release, is not a move of the seat's game.
        if any(seat in json.loads(r[1]) for r in since if r[0] not in ("claim", "confirm", "release", "meta")):
            name = _seat_name(table.game, seat)
            raise StaleTable(say("{name}'s seat moved on another page since this page showed it ({what}): nothing was done. Look again.", name=name, what=what), table)

    # -- rows ----------------------------------------------------------------------------------------
    def _next_row(self, db: _Conn, table_id: str) -> int:
        row = db.execute("SELECT MAX(n) FROM actions WHERE table_id = ?", (table_id,)).fetchone()
        return 0 if row is None or row[0] is None else int(row[0]) + 1

    def _insert_rows(self, db: _Conn, table_id: str, game: AnyGame, start: int, by_bot: Sequence[bool], version: int, first: int = 0) -> list[int]:
        numbers = []
        for offset, action in enumerate(game.actions[start:]):
            index = start + offset
            data = action_to_json(action)
            if index in game.by_hand:
                data["by_hand"] = True
            db.execute(
                "INSERT INTO actions (table_id, n, action, version, bot) VALUES (?, ?, ?, ?, ?)",
                (table_id, first + offset, json.dumps(data, ensure_ascii=False), version, int(by_bot[index])),
            )
            numbers.append(first + offset)
        return numbers

    def _record_change(self, db: _Conn, table_id: str, version: int, kind: str, seats: Any, summary: str, at: float) -> None:
        db.execute(
            "INSERT INTO changes (table_id, version, kind, seats, summary, at) VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, version, kind, json.dumps(sorted(seats)), summary, at),
        )

    def _replay(self, db: _Conn, table_id: str, version: int) -> _Cached:
        row = db.execute("SELECT game, setup, seed FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise KeyError(f"no saved table {table_id!r}")
        rules = GAMES.get(row[0])
        if rules is None:
            raise SaveFileError(f"unknown game {row[0]!r}")
        stored = db.execute("SELECT n, action, bot FROM actions WHERE table_id = ? AND undone IS NULL ORDER BY n", (table_id,)).fetchall()
        actions, marks = actions_from_json(rules, [json.loads(r[1]) for r in stored])
        game: AnyGame = Game(rules, rules.setup_from_json(json.loads(row[1])), int(row[2]), auto_chance=False, verify=True)
        game.extend(actions, marks)
        game.auto_chance = True
        return _Cached(version, game, [int(r[0]) for r in stored], [bool(r[2]) for r in stored])

    def _catch_up(self, db: _Conn, table_id: str, version: int) -> _Cached:
        """This process's copy of the table brought to `version`: new rows applied to the cached
        game, or the whole log replayed after an undo elsewhere (or on first sight)."""
        with self._lock:
            cached = self._cache.get(table_id)
        if cached is not None and cached.version == version:
            return cached
        if cached is not None and cached.version < version:
            newer = db.execute(
                "SELECT n, action, bot, undone FROM actions WHERE table_id = ? AND (version > ? OR undone > ?) ORDER BY n",
                (table_id, cached.version, cached.version),
            ).fetchall()
            last = cached.rows[-1] if cached.rows else -1
            if all(r[3] is None and int(r[0]) > last for r in newer):
                game = cached.game.copy()
                actions, marks = actions_from_json(game.rules, [json.loads(r[1]) for r in newer])
                offset = len(game.actions)
                game.auto_chance = False
                try:
                    game.extend(actions, {offset + i for i in marks})
                finally:
                    game.auto_chance = True
                fresh = _Cached(version, game, cached.rows + [int(r[0]) for r in newer], cached.by_bot + [bool(r[2]) for r in newer])
                with self._lock:
                    self._cache[table_id] = fresh
                return fresh
        fresh = self._replay(db, table_id, version)
        with self._lock:
            self._cache[table_id] = fresh
        return fresh

    def _snapshot(self, table_id: str, cached: _Cached, meta: dict[str, Any]) -> Table:
        return Table(table_id, cached.version, cached.game.copy(), dict(meta), tuple(cached.by_bot))

    # -- reading ---------------------------------------------------------------------------------------
    def load(self, table_id: str) -> Table:
        """The table as it stands now (replayed, or caught up from this process's last look)."""

        def load(db: _Conn) -> Table:
            row = db.execute("SELECT version, meta FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                raise KeyError(f"no saved table {table_id!r}")
            return self._snapshot(table_id, self._catch_up(db, table_id, int(row[0])), json.loads(row[1]))

        return self._run(False, load)

    def open(self, table_id: str) -> AnyGame:
        """Replay a saved table into a live game (a copy: playing it changes nothing stored)."""
        return self.load(table_id).game

    def version(self, table_id: str) -> int:
        """The table's version: it grows by one with every change (the change signal)."""
        return self._version_in("tables", table_id, f"no saved table {table_id!r}")

    def _version_in(self, kind: Literal["tables", "classes"], key: str, missing: str) -> int:
        """The version of a table's or a class's row (one indexed read); KeyError(`missing`) if none."""
        row = self._run(False, lambda db: db.execute(f"SELECT version FROM {kind} WHERE id = ?", (key,)).fetchone())
        if row is None:
            raise KeyError(missing)
        return int(row[0])

    def wait(self, table_id: str, seen: int, timeout: float = 10.0) -> int:
        """Block until the table's version differs from `seen` (or `timeout` passes); the version."""
        return self._wait(self.version, table_id, seen, timeout)

    def _wait(self, read_version: Callable[[str], int], key: str, seen: int, timeout: float) -> int:
        """`wait`, with the listening connection lost (PostgreSQL restarted) listened for again
        once on a new one; then `StoreFault` (the page looks again a moment later)."""
        for attempt in (0, 1):
            try:
                return int(self._db.wait(read_version, key, seen, timeout))
            except StoreFault:
                raise
            except Exception as error:
                found = self._db.fault(error)
                if found is None:
                    raise
                fault, retry = found
                if retry and attempt == 0:
                    continue
                self._gone = fault.reason == "database-gone"
                noted(fault)
                raise fault from error
        raise AssertionError("unreachable")

    def tables(self, game: str | None = None, unfinished: bool = False) -> list[TableInfo]:
        """Saved tables, most recently played first."""
        query = (
            "SELECT t.id, t.game, t.title, t.created, t.updated, t.finished, "
            "(SELECT COUNT(*) FROM actions a WHERE a.table_id = t.id AND a.undone IS NULL), t.meta, t.version FROM tables t WHERE 1 = 1"
        )
        args: list[Any] = []
        if game is not None:
            query += " AND t.game = ?"
            args.append(game)
        if unfinished:
            query += " AND t.finished = 0"
        query += " ORDER BY t.updated DESC"
        rows = self._run(False, lambda db: db.execute(query, args).fetchall())
        return [TableInfo(r[0], r[1], r[2], float(r[3]), float(r[4]), bool(r[5]), int(r[6]), json.loads(r[7]), int(r[8])) for r in rows]

    def info(self, table_id: str) -> TableInfo:
        """One table's listing; KeyError if there is none."""
        for table in self.tables():
            if table.id == table_id:
                return table
        raise KeyError(f"no saved table {table_id!r}")

    def moves(self, table_id: str) -> int:
        """How many actions the live log holds."""
        return int(self._run(False, lambda db: db.execute("SELECT COUNT(*) FROM actions WHERE table_id = ? AND undone IS NULL", (table_id,)).fetchone()[0]))

    def record(self, table_id: str) -> dict[str, Any]:
        """The table as a save-file record (the same JSON a download gives, without its digest)."""

        def read(db: _Conn) -> tuple[Any, list[Any]]:
            row = db.execute("SELECT game, setup, seed FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                raise KeyError(f"no saved table {table_id!r}")
            return row, db.execute("SELECT action FROM actions WHERE table_id = ? AND undone IS NULL ORDER BY n", (table_id,)).fetchall()

        row, stored = self._run(False, read)
        actions = [json.loads(r[0]) for r in stored]
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": row[0], "setup": json.loads(row[1]), "seed": int(row[2]), "actions": actions}

    def history(self, table_id: str) -> list[dict[str, Any]]:
        """Every row ever written for the table, undone ones included (the audit trail)."""
        rows = self._run(False, lambda db: db.execute("SELECT n, action, version, undone, bot FROM actions WHERE table_id = ? ORDER BY n", (table_id,)).fetchall())
        return [{"n": int(r[0]), "action": json.loads(r[1]), "version": int(r[2]), "undone": None if r[3] is None else int(r[3]), "bot": bool(r[4])} for r in rows]

    def changes(self, table_id: str) -> list[dict[str, Any]]:
        """Every change made to the table, oldest first: version, kind, seats touched, summary."""
        rows = self._run(False, lambda db: db.execute("SELECT version, kind, seats, summary, at FROM changes WHERE table_id = ? ORDER BY version", (table_id,)).fetchall())
        return [{"version": int(r[0]), "kind": r[1], "seats": json.loads(r[2]), "summary": r[3], "at": float(r[4])} for r in rows]

    def set_meta(self, table_id: str, meta: dict[str, Any], seen: int | None = None) -> Table:
        """Replace a table's meta keys (bots excepted) through the write path; the new table."""
        values = {k: v for k, v in meta.items() if k != "bots"}
        return self.submit(table_id, SetMeta(values), self.version(table_id) if seen is None else seen).table

    def delete(self, table_id: str) -> None:

        def delete(db: _Conn) -> None:
            db.execute("DELETE FROM changes WHERE table_id = ?", (table_id,))
            db.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))
            db.execute("DELETE FROM tables WHERE id = ?", (table_id,))

        self._run(True, delete)
        with self._lock:
            self._cache.pop(table_id, None)


class ClassTables:
    """A class's tables, inside the transaction that changes the class (`Store.change_class`):
    a start creates them, an end stops them, and either is written with the change or not at all."""

    def __init__(self, store: Store, db: _Conn) -> None:
        self._store = store
        self._db = db

    def create(self, game: AnyGame, title: str, meta: dict[str, Any]) -> str:
        """A new table (as `Store.create`); its id."""
        return self._store._create_in(self._db, game, title, meta)

    def stop(self, table_id: str, reason: str) -> None:
        """The table takes no more moves; `reason` says why (its meta's STOPPED)."""
        self._store._stop_in(self._db, table_id, reason)

    def submit(self, table_id: str, change: Change) -> Table:
        """One change to a table (as `Store.submit`), decided against the table as it stands in
        this transaction: a student released, moved to another device or removed has their seat
        released or handed to a bot with the class's change, or neither is made. The table after it."""
        row = self._db.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise KeyError(f"no saved table {table_id!r}")
        fresh, meta, _appended, _undone, _behind, _note = self._store._submit_in(self._db, table_id, change, int(row[0]))
        return self._store._snapshot(table_id, fresh, meta)

    def update_meta(self, table_id: str, update: Callable[[dict[str, Any]], dict[str, Any] | None], summary: str) -> None:
        """Set the meta keys `update(meta)` gives (None: nothing to change), as a new version of
        the table (the class's pace: its timer, a pause)."""
        self._store._update_meta_in(self._db, table_id, update, summary)

    def kinds_since(self, class_id: str, version: int) -> list[str]:
        """The kinds of the class's changes after `version`, oldest first (what a page that saw
        `version` has not seen)."""
        rows = self._db.execute("SELECT kind FROM class_changes WHERE class_id = ? AND version > ? ORDER BY version", (class_id, version)).fetchall()
        return [str(row[0]) for row in rows]


def _step_of(state: Any) -> tuple[Any, ...]:
    """Where a game stands, coarsely: its round or year and its phase."""
    return (getattr(state, "year", getattr(state, "round", None)), getattr(state, "phase", None))


def _seat_name(game: AnyGame, seat: int) -> str:
    names = getattr(game.setup, "names", ())
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"
