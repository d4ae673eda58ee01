"""Pages keeping the same table's timer at once, as real processes (the board, the facilitator's
page and the class monitor of one class): each opens its own `Store`, waits at the barrier, looks
for the seats whose time ran out and makes their moves, and writes the seats it moved to its own
file. Run under the "spawn" start method: nothing is shared but the database."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playbook.store import Store
from playbook.timer import run_timer

__all__ = ["keep_timer"]


def keep_timer(location: str, table_id: str, now: float, barrier: Any, out: str) -> None:
    store = Store(location)
    try:
        barrier.wait(60)
        moved = run_timer(store, table_id, now)
        Path(out).write_text(json.dumps(moved))
    finally:
        store.close()
