"""Processes that change classes at the same moment, for tests/test_classes.py and
tests/test_store.py.

`joiner` opens its own `Store` (shared by its threads, as a kernel's is), waits at the barrier
with the others, then joins `count` students from threads of its own, each with the version it
saw before the barrier, and writes a line per join ("ok NAME" or "refused NAME: why").
`code_taker` adds a class with a room code the others want too; `hung_change` dies inside a
class's transaction. Nothing is shared between the processes but the database.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from playbook import classes as cl
from playbook.access import new_key
from playbook.store import Store


def joiner(location: str, class_id: str, process: int, count: int, barrier: Any, out_path: str) -> None:
    store = Store(location)
    seen = cl.load_class(store, class_id).version
    lines: list[str] = []
    ready = threading.Barrier(count + 1)

    def join(i: int) -> None:
        name = f"Student {process}-{i}"
        ready.wait(60)
        try:
            cl.submit(store, class_id, cl.Join(name, new_key()), seen)
            lines.append(f"ok {name}")
        except cl.ClassError as exc:
            lines.append(f"refused {name}: {exc.message}")

    threads = [threading.Thread(target=join, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    barrier.wait(60)
    ready.wait(60)
    for thread in threads:
        thread.join(120)
    Path(out_path).write_text("\n".join(lines) + "\n")
    store.close()


def code_taker(location: str, process: int, code: str, barrier: Any, out_path: str) -> None:
    """Add a class with room code `code` at the same moment as the other processes; writes
    "added" or "taken"."""
    store = Store(location)
    barrier.wait(60)
    added = store.add_class(f"class-of-process-{process}", code, "new-rule", f'{{"process": {process}}}', time.time())
    Path(out_path).write_text("added" if added else "taken")
    store.close()


def hung_change(location: str, class_id: str, ready_path: str) -> None:
    """Change a class: make one of its tables, say so (`ready_path`), then stay inside the
    transaction until the test kills this process."""
    from playbook.store import ClassTables, ClassUpdate, StoredClass
    from rules import new_game
    from rules import new_rule as nr

    store = Store(location)

    def decide(stored: StoredClass, tables: ClassTables) -> ClassUpdate:
        tables.create(new_game("new-rule", nr.Setup(names=("Ana", "Bo", "Cy")), 1), "a table half made", {"bots": {}})
        Path(ready_path).write_text("inside")
        time.sleep(600)
        return ClassUpdate(stored.record, "never", "the process is killed before this")

    store.change_class(class_id, decide)
