"""Real faults for a store under test: a full disk, a read-only store, a database that is gone.

- `small_disk(folder)`: a 2 MB tmpfs mounted at `folder` (root only; skipped where mounting is
  not allowed), and `fill(folder)` writes a file until the kernel answers "No space left on
  device": SQLite's own "database or disk is full" follows.
- `read_only(paths)`: the files cannot be written, by root too (`chattr +i`; for another
  account, their modes). SQLite then opens the database read-only: "attempt to write a readonly
  database". Close the store's connections first (`Store.close`; it opens new ones when asked):
  SQLite reuses a file this process already has open for writing, as a server that was running
  when its file was made read-only would.
- `terminate(url, application_name)`: PostgreSQL ends the store's connections exactly as a
  restart does ("terminating connection due to administrator command"); the server itself keeps
  running for the other tests. `tests.support.tcp_proxy.Proxy` is a database that is down.
"""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

__all__ = ["fill", "read_only", "small_disk", "terminate"]


@contextmanager
def small_disk(folder: Path, size: str = "2m") -> Iterator[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(folder)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({done.stderr.strip() or done.returncode}): the full disk is tested by a file that can grow no more instead")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def fill(folder: Path) -> Path:
    """Write a file in `folder` until its disk is full; the file (unlink it to free the space)."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as error:
        assert error.errno == errno.ENOSPC, error
    finally:
        os.close(fd)
    return filler


@contextmanager
def read_only(paths: Sequence[Path]) -> Iterator[None]:
    if os.geteuid() == 0:
        done = subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"chattr +i is not possible here ({done.stderr.strip()}), and root writes whatever the modes")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", *map(str, paths)], check=True)
        return
    modes = {path: path.stat().st_mode & 0o777 for path in paths}
    for path in paths:
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        yield
    finally:
        for path, mode in modes.items():
            path.chmod(mode)


def terminate(url: str, application_name: str) -> int:
    """End every connection of `application_name` (a store's, named in its URL); how many."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = %s",
            (application_name,),
        ).fetchone()
    return int(row[0]) if row else 0
