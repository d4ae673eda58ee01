"""The store when the machine fails it: a full disk, a read-only store, a database restarted or gone.

Each fault is real (`tests/support/faults.py`): a small tmpfs filled to the last block, a file
SQLite may grow no further, files root cannot write (`chattr +i`), PostgreSQL ending the store's
connections as a restart does, and a database whose port refuses connections (a forwarder in
front of the tests' server, `tests/support/tcp_proxy.py`). Every time: the store raises its own
`StoreFault` with plain words, nothing is written, the terminal hears of it once, and the next
change after the fault is mended goes through.
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from playbook import classes as cl
from playbook import store_faults
from playbook.refusals import Refusal
from playbook.store import Play, Store, StoreFault
from rules import leerdam as ld
from rules import new_game
from tests.support.faults import fill, read_only, small_disk, terminate
from tests.support.stores import store_location
from tests.support.tcp_proxy import Proxy

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(autouse=True)
def _afresh() -> Iterator[None]:
    store_faults.forget()
    yield
    store_faults.forget()


def village(store: Store) -> str:
    return store.create(new_game("leerdam", ld.Setup(names=("Ana", "Bo", "Cy", "Di", "Ed")), 11))


def pledge(store: Store, table_id: str, seat: int, units: int = 1) -> int:
    """A pledge by `seat`, as a page up to date presses it; the new version."""
    return store.submit(table_id, Play(ld.Contribute(seat=seat, units=units)), store.version(table_id)).table.version


def stored(store: Store, table_id: str) -> tuple[int, list, int]:
    """The table as stored: its version, its log and its changes."""
    return store.version(table_id), store.history(table_id), len(store.changes(table_id))


def said(caplog: pytest.LogCaptureFixture, words: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "playbook.store" and words in r.getMessage()]


# -- a full disk ----------------------------------------------------------------------------------


def test_a_full_disk_refuses_a_pledge_plainly_saves_nothing_and_says_so_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with small_disk(tmp_path / "disk") as disk:
        store = Store(disk / "tables.sqlite3")
        try:
            table = village(store)
            before = stored(store, table)
            filler = fill(disk)
            for _press in range(3):
                with pytest.raises(StoreFault) as fault:
                    pledge(store, table, 0)
                assert isinstance(fault.value, Refusal) and fault.value.reason == "disk-full"
                assert fault.value.message == "The server cannot save right now (its disk is full): nothing was saved; tell your teacher."
                assert fault.value.teacher.startswith("The server's disk is full: free some space") and "Nothing was lost." in fault.value.teacher
                assert isinstance(fault.value.__cause__, sqlite3.OperationalError)  # SQLite's own error
            # A class's change meets the same fault; reading goes on.
            with pytest.raises(StoreFault, match="disk is full"):
                cl.create_class(store, "leerdam", 5)
            assert stored(store, table) == before and store.classes(open_only=False) == []
            assert len(said(caplog, "is full")) == 1  # once, not at every press
            assert "free some space" in said(caplog, "is full")[0] and str(disk) in said(caplog, "is full")[0]
            filler.unlink()
            version = pledge(store, table, 0)
            assert version == before[0] + 1 and len(store.history(table)) == len(before[1]) + 1
            assert len(said(caplog, "can be written again")) == 1
            filler = fill(disk)  # full again: said again
            with pytest.raises(StoreFault):
                pledge(store, table, 1)
            assert len(said(caplog, "is full")) == 2
            filler.unlink()
        finally:
            store.close()


def test_a_file_sqlite_may_grow_no_further_is_a_full_disk_too(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Where no small disk can be mounted: SQLite's own page limit gives the same SQLITE_FULL."""
    store = Store(tmp_path / "tables.sqlite3")
    try:
        first = village(store)
        pages = sqlite3.connect(tmp_path / "tables.sqlite3").execute("PRAGMA page_count").fetchone()[0]
        store._db.pragmas.append(f"PRAGMA max_page_count = {pages}")  # type: ignore[attr-defined]
        made = [first]
        with pytest.raises(StoreFault) as fault:
            for _ in range(200):  # each new table takes room: one of them finds none
                made.append(village(store))
        assert fault.value.reason == "disk-full" and "database or disk is full" in fault.value.detail
        assert [t.id for t in store.tables()][::-1] == made  # the refused one left nothing
        assert len(said(caplog, "is full")) == 1
        store._db.pragmas.clear()  # type: ignore[attr-defined]
        made.append(village(store))
        assert len(store.tables()) == len(made)
    finally:
        store.close()


# -- a read-only store ----------------------------------------------------------------------------


def test_a_read_only_store_refuses_plainly_and_writes_again_once_writable(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = tmp_path / "store"
    store = Store(folder / "tables.sqlite3")
    try:
        table = village(store)
        record = cl.create_class(store, "leerdam", 5)
        before = stored(store, table)
        store.close()  # its connections open again read-only
        with read_only([folder / "tables.sqlite3"]):
            with pytest.raises(StoreFault) as fault:
                pledge(store, table, 0)
            assert fault.value.reason == "read-only"
            assert fault.value.message == "The server cannot save right now (its saved tables are read-only): nothing was saved; tell your teacher."
            assert "make them writable again, then press again" in fault.value.teacher
            with pytest.raises(StoreFault, match="read-only"):
                cl.submit(store, record.id, cl.Join("Ana", "k" * 22, "d" * 22), record.version)
            assert stored(store, table) == before and cl.load_class(store, record.id) == record
        assert len(said(caplog, "cannot be written")) == 1
        assert pledge(store, table, 0) == before[0] + 1
        assert cl.submit(store, record.id, cl.Join("Ana", "k" * 22, "d" * 22), record.version).version == record.version + 1
    finally:
        store.close()


def test_a_postgresql_that_takes_no_writes_is_a_read_only_store(tmp_path: Path) -> None:
    with store_location("postgresql", tmp_path) as url:
        Store(url).close()  # the schema
        options = urllib.parse.quote("-cdefault_transaction_read_only=on ")
        with pytest.raises(StoreFault) as fault:
            Store(url.replace("options=", f"options={options}"))
        assert fault.value.reason == "read-only" and "read-only transaction" in fault.value.detail


# -- PostgreSQL restarted, or gone ----------------------------------------------------------------


def named(url: str) -> tuple[str, str]:
    """`url` with an application name of its own: the connections a test may end."""
    name = f"playbook-faults-{secrets.token_hex(4)}"
    return f"{url}&application_name={name}", name


def test_a_restarted_postgresql_is_retried_once_and_nothing_is_lost_or_doubled(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="playbook.store")
    with store_location("postgresql", tmp_path) as url:
        url, name = named(url)
        store = Store(url)
        try:
            table = village(store)
            record = cl.create_class(store, "leerdam", 5)
            version = pledge(store, table, 0)
            # Every connection the store holds is ended, as a restart ends them.
            assert terminate(url, name) >= 1
            assert pledge(store, table, 1) == version + 1  # went through, retried once
            assert terminate(url, name) >= 1
            joined = cl.submit(store, record.id, cl.Join("Ana", "k" * 22, "d" * 22), record.version)
            assert joined.version == record.version + 1 and [s.name for s in joined.students] == ["Ana"]
            assert terminate(url, name) >= 1
            assert store.version(table) == version + 1  # a read, retried the same way
            assert store.wait(table, version + 1, timeout=0.2) == version + 1  # listening
            assert terminate(url, name) >= 1
            assert store.wait(table, version + 1, timeout=0.2) == version + 1  # listening again, on a new connection
            history = store.history(table)
            pledges = [r["action"] for r in history if r["action"].get("kind") == "contribute"]
            assert [p["seat"] for p in pledges] == [0, 1]  # each once
            assert [c["version"] for c in store.changes(table)] == list(range(1, version + 2))
            lost = said(caplog, "connection to the database was lost")
            assert len(lost) >= 3 and "AdminShutdown" in lost[0] and "went through on a new one" in lost[0]
            assert not said(caplog, "cannot be reached")
        finally:
            store.close()


def test_a_postgresql_that_is_down_refuses_plainly_saves_nothing_and_comes_back(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with store_location("postgresql", tmp_path) as url:
        proxy = Proxy(url)
        store = Store(proxy.url)
        direct = Store(url)  # the same database, not through the forwarder
        try:
            table = village(store)
            before = stored(direct, table)
            proxy.down()
            for _press in range(2):
                with pytest.raises(StoreFault) as fault:
                    pledge(store, table, 0)
                assert fault.value.reason == "database-gone"
                assert fault.value.message.startswith("The server cannot reach its database right now: nothing was saved; tell your teacher")
                assert fault.value.teacher.startswith("The server lost its database (PostgreSQL is down or restarting): wait until it is back, then press again.")
            with pytest.raises(StoreFault):
                store.submit(table, Play(ld.Contribute(seat=0, units=1)), before[0])
            assert stored(direct, table) == before
            gone = said(caplog, "cannot be reached")
            assert len(gone) == 1 and f"127.0.0.1:{proxy.port}" in gone[0] and "playbook@" not in gone[0] and ":playbook" not in gone[0]
            proxy.up()
            assert pledge(store, table, 0) == before[0] + 1
            assert stored(direct, table)[0] == before[0] + 1 and len(direct.history(table)) == len(before[1]) + 1
            assert len(said(caplog, "can be written again")) == 1
            assert pledge(store, table, 1) == before[0] + 2  # the pool's connections are live again
        finally:
            proxy.close()
            store.close()
            direct.close()

