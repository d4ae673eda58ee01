"""Where the playbook keeps its files on this machine.

One data folder, `data_folder()`: `$XDG_DATA_HOME/playbook`, by default
`~/.local/share/playbook`, as Jupyter keeps its own. In it:

- `tables.sqlite3`, the table store, unless `PLAYBOOK_DB` names another SQLite file or a
  PostgreSQL server (`store_location`);
- `busy/`, the server's heavy-work slots (`playbook.heavy`), kept beside the SQLite store so
  that servers sharing a store share its slots (`busy_folder`);
- `servers/`, a small file per running `playbook serve` (`playbook.running`);
- `server.key`, the facilitator key of `playbook serve`.

A server's turns (`playbook.pacing`) live in a private temporary folder of its own that goes
when the server stops (`turns_folder`). Nothing else in the playbook works out a place to keep
a file. This module imports nothing of the playbook's: every layer may ask it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

__all__ = ["CONNECTIONS_PREFIX", "DB_ENV", "TURNS_PREFIX", "busy_folder", "connections_folder", "data_folder", "is_postgres", "key_file", "servers_folder", "store_location", "turns_folder"]

#: the variable that chooses the table store: a `postgresql://` URL or a SQLite file's path.
DB_ENV = "PLAYBOOK_DB"


def data_folder() -> Path:
    """`$XDG_DATA_HOME/playbook` (default `~/.local/share/playbook`): the playbook's own files."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "playbook"


def store_location() -> str:
    """`$PLAYBOOK_DB` (a PostgreSQL URL or a SQLite path), else `tables.sqlite3` in the data folder."""
    return os.environ.get(DB_ENV) or str(data_folder() / "tables.sqlite3")


def is_postgres(location: str) -> bool:
    return location.startswith(("postgresql://", "postgres://"))


def busy_folder() -> Path:
    """The heavy-work slots' lock files: beside the SQLite table store, else in the data folder."""
    location = store_location()
    if is_postgres(location):
        return data_folder() / "busy"
    return Path(location).expanduser().parent / "busy"


def servers_folder() -> Path:
    """A file per running `playbook serve` (`playbook.running`)."""
    return data_folder() / "servers"


def key_file() -> Path:
    """Where `playbook serve` keeps its facilitator key."""
    return data_folder() / "server.key"


#: how the temporary folders of one server begin: its turns, its kernels' connection files.
TURNS_PREFIX, CONNECTIONS_PREFIX = "playbook-turns-", "pbk-"


@contextmanager
def _temporary(prefix: str) -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def turns_folder() -> AbstractContextManager[Path]:
    """A private folder for one server's turns (`playbook.pacing`), removed afterwards."""
    return _temporary(TURNS_PREFIX)


def connections_folder() -> AbstractContextManager[Path]:
    """A private folder for one server's kernel connection files, removed afterwards. Its name
    is short: kernels talk over Unix sockets named by their path, which may not pass 107 bytes."""
    return _temporary(CONNECTIONS_PREFIX)
