"""Tables that outlive a browser tab: every game kept in SQLite as its action log.

One row per table (game, setup, seed) and one row per applied action. Appending an action
is one small insert, so a dashboard saves after every click; a refreshed page, a restarted
kernel or another device reopens the table by its id and replays the log.

Two pages playing the same table write action n at most once: the (table, n) key makes the
second writer's insert fail with `StaleTable`, and that page reloads instead of forking.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules import GAMES, Game, SaveFileError
from rules.core import SAVE_FORMAT, SAVE_VERSION, _plain, action_from_json, action_to_json

__all__ = ["Store", "StaleTable", "TableInfo", "default_path"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id       TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    title    TEXT NOT NULL,
    setup    TEXT NOT NULL,
    seed     INTEGER NOT NULL,
    created  REAL NOT NULL,
    updated  REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    meta     TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    n        INTEGER NOT NULL,
    action   TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


class StaleTable(RuntimeError):
    """Another page changed this table first; reload it from the store."""


def default_path() -> Path:
    """`$PLAYBOOK_DB`, else the per-user data folder (`$XDG_DATA_HOME/playbook/tables.sqlite3`)."""
    if os.environ.get("PLAYBOOK_DB"):
        return Path(os.environ["PLAYBOOK_DB"]).expanduser()
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "playbook" / "tables.sqlite3"


@dataclass(frozen=True)
class TableInfo:
    id: str
    game: str
    title: str
    created: float
    updated: float
    finished: bool
    moves: int
    #: what the dashboard keeps beside the record (which seats are bots, ...).
    meta: dict[str, Any]


class Store:
    """The SQLite file of saved tables. Cheap to open; safe to share between kernels."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._db() as db:
            db.executescript(SCHEMA)
            # Files made before tables had a meta column gain one.
            columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
            if "meta" not in columns:
                db.execute("ALTER TABLE tables ADD COLUMN meta TEXT NOT NULL DEFAULT '{}'")

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=10)
        try:
            db.execute("PRAGMA foreign_keys = ON")
            db.execute("PRAGMA journal_mode = WAL")
            with db:
                yield db
        finally:
            db.close()

    # -- writing --------------------------------------------------------------------------
    def create(self, game: Game[Any, Any], title: str | None = None, meta: dict[str, Any] | None = None) -> str:
        """Save a new table (with any actions it already has); return its id.

        `meta` is small JSON the front end keeps with the table, such as which seats are bots.
        """
        table_id = secrets.token_urlsafe(6)
        now = time.time()
        names = getattr(game.setup, "names", ())
        title = title or f"{getattr(game.rules, 'title', game.rules.slug)}: {', '.join(names)}"
        with self._db() as db:
            db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, game.rules.slug, title, json.dumps(_plain(game.setup)), game.seed, now, now, int(game.rules.over(game.state)), json.dumps(meta or {})),
            )
            db.executemany(
                "INSERT INTO actions VALUES (?, ?, ?)",
                [(table_id, i, json.dumps(action_to_json(a))) for i, a in enumerate(game.actions)],
            )
        return table_id

    def sync(self, table_id: str, game: Game[Any, Any]) -> None:
        """Bring the stored log level with `game` after applies or an undo.

        The stored log must be a prefix of the game's (new moves appended) or the game's a
        prefix of the stored (an undo). Anything else means another page moved first.
        """
        with self._db() as db:
            stored = [row[0] for row in db.execute("SELECT action FROM actions WHERE table_id = ? ORDER BY n", (table_id,))]
            mine = [json.dumps(action_to_json(a)) for a in game.actions]
            common = min(len(stored), len(mine))
            if stored[:common] != mine[:common]:
                raise StaleTable("this table was changed on another page; reopen it to continue")
            if len(stored) > len(mine):
                db.execute("DELETE FROM actions WHERE table_id = ? AND n >= ?", (table_id, len(mine)))
            try:
                db.executemany(
                    "INSERT INTO actions VALUES (?, ?, ?)",
                    [(table_id, i, mine[i]) for i in range(len(stored), len(mine))],
                )
            except sqlite3.IntegrityError:
                raise StaleTable("this table was changed on another page; reopen it to continue") from None
            over = game.rules.over(game.state)
            db.execute("UPDATE tables SET updated = ?, finished = ? WHERE id = ?", (time.time(), int(over), table_id))

    def set_meta(self, table_id: str, meta: dict[str, Any]) -> None:
        """Replace a table's `meta` (e.g. to give an older table its seat keys)."""
        with self._db() as db:
            if db.execute("UPDATE tables SET meta = ? WHERE id = ?", (json.dumps(meta), table_id)).rowcount == 0:
                raise KeyError(f"no saved table {table_id!r}")

    def delete(self, table_id: str) -> None:
        with self._db() as db:
            db.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    # -- reading --------------------------------------------------------------------------
    def tables(self, game: str | None = None, unfinished: bool = False) -> list[TableInfo]:
        """Saved tables, most recently played first."""
        query = (
            "SELECT t.id, t.game, t.title, t.created, t.updated, t.finished, "
            "(SELECT COUNT(*) FROM actions a WHERE a.table_id = t.id), t.meta FROM tables t WHERE 1"
        )
        args: list[Any] = []
        if game is not None:
            query += " AND t.game = ?"
            args.append(game)
        if unfinished:
            query += " AND t.finished = 0"
        query += " ORDER BY t.updated DESC"
        with self._db() as db:
            return [TableInfo(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6], json.loads(r[7])) for r in db.execute(query, args)]

    def info(self, table_id: str) -> TableInfo:
        """One table's listing; KeyError if there is none."""
        for table in self.tables():
            if table.id == table_id:
                return table
        raise KeyError(f"no saved table {table_id!r}")

    def moves(self, table_id: str) -> int:
        """How many actions the stored log holds: one cheap query, for pages that poll."""
        with self._db() as db:
            return int(db.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table_id,)).fetchone()[0])

    def record(self, table_id: str) -> dict[str, Any]:
        """The table as a save-file record (the same JSON a download gives)."""
        with self._db() as db:
            row = db.execute("SELECT game, setup, seed FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                raise KeyError(f"no saved table {table_id!r}")
            actions = [json.loads(r[0]) for r in db.execute("SELECT action FROM actions WHERE table_id = ? ORDER BY n", (table_id,))]
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": row[0], "setup": json.loads(row[1]), "seed": row[2], "actions": actions}

    def open(self, table_id: str) -> Game[Any, Any]:
        """Replay a saved table into a live game."""
        data = self.record(table_id)
        rules = GAMES.get(data["game"])
        if rules is None:
            raise SaveFileError(f"unknown game {data['game']!r}")
        setup = rules.setup_from_json(data["setup"])
        actions = [action_from_json(rules.actions, a, f"action {i + 1}") for i, a in enumerate(data["actions"])]
        return Game(rules, setup, data["seed"], actions)
