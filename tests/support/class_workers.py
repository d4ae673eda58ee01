"""Processes that join one class at the same moment, for tests/test_classes.py.

Each opens its own `Store` (shared by its threads, as a kernel's is), waits at the barrier with
the others, then joins `count` students from threads of its own, each with the version it saw
before the barrier, and writes a line per join ("ok NAME" or "refused NAME: why"). Nothing is
shared between the processes but the database.
"""

from __future__ import annotations

import threading
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
