"""Table stores for tests: a fresh SQLite file, or a fresh schema on the CI's PostgreSQL.

`PLAYBOOK_TEST_POSTGRES` (set by `.ci/run`) is the server's URL. Each PostgreSQL store gets its
own schema (dropped afterwards) through the URL's `search_path`, so tests, and the processes a
race test starts, share one table store and never another test's.
"""

from __future__ import annotations

import os
import secrets
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.support.ci import in_ci

__all__ = ["KINDS", "close_stores_at", "fresh_schema", "postgres_url", "store_location"]

KINDS = ("sqlite", "postgresql")


def postgres_url() -> str | None:
    return os.environ.get("PLAYBOOK_TEST_POSTGRES") or None


@contextmanager
def store_location(kind: str, folder: Path) -> Iterator[str]:
    """Where a fresh store of `kind` lives: a file under `folder`, or a PostgreSQL URL."""
    if kind == "sqlite":
        yield str(folder / "tables.sqlite3")
        return
    url = postgres_url()
    if url is None:
        if in_ci():
            pytest.fail("PLAYBOOK_TEST_POSTGRES is not set: CI must run the store tests on PostgreSQL")
        pytest.skip("no PostgreSQL server (set PLAYBOOK_TEST_POSTGRES to a postgresql:// URL)")
    with fresh_schema(url) as location:
        yield location


def close_stores_at(location: str) -> None:
    """Close every store a test left open on `location`: a PostgreSQL store's connection pool
    otherwise runs its threads until the collector finds it, and then may be collected in one of
    its own threads (a warning that names whichever test runs then)."""
    import gc

    from playbook.store import Store

    for found in gc.get_objects():
        if isinstance(found, Store) and found.location == location:
            found.close()


@contextmanager
def fresh_schema(url: str, prefix: str = "test") -> Iterator[str]:
    """A new schema on the PostgreSQL server at `url`, dropped afterwards: the URL that uses it."""
    import psycopg

    schema = f"{prefix}_{secrets.token_hex(6)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    joiner = "&" if "?" in url else "?"
    try:
        yield f"{url}{joiner}options={urllib.parse.quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def run_alone(make: Any, timeout: float = 60.0) -> Any:
    """`asyncio.run(make())` in a thread of its own. Playwright's sync API keeps an event loop
    running in a worker's main thread once a browser test has run there, and a loop cannot be
    started inside another."""
    import asyncio
    import threading

    found: list[Any] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            found.append(asyncio.run(make()))
        except BaseException as exc:
            errors.append(exc)

    runner = threading.Thread(target=run)
    runner.start()
    runner.join(timeout)
    if errors:
        raise errors[0]
    assert found, f"still running after {timeout:.0f} s"
    return found[0]
