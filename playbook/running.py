"""Which `playbook serve` runs on this machine, so that links made elsewhere lead to it.

A table started in JupyterLab makes class links (board, join code, seats) for phones to open,
and those pages are served by `playbook serve`, not by JupyterLab. `playbook serve` leaves a
small file per process in the data folder (`playbook.places.servers_folder`), as Jupyter does
with its runtime files; `server_url()` reads the newest whose process is still alive.
"""

from __future__ import annotations

import json
import os
from typing import Any

from .places import servers_folder

__all__ = ["alive", "forget", "record", "records", "server_url"]


def record(url: str, pid: int, **about: object) -> None:
    """Note that the process `pid` serves the playbook at `url` (best effort); `about` adds what
    a later `playbook serve` needs to end what this one might leave (its port, Voila's process)."""
    try:
        servers_folder().mkdir(parents=True, exist_ok=True)
        (servers_folder() / f"{pid}.json").write_text(json.dumps({"url": url, "pid": pid, **about}), encoding="utf-8")
    except OSError:
        pass


def records() -> list[dict[str, Any]]:
    """Every server noted here, alive or not (a damaged note is passed over)."""
    found = []
    try:
        paths = list(servers_folder().glob("*.json"))
    except OSError:
        return []
    for path in paths:
        try:
            info = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(info, dict) and isinstance(info.get("pid"), int):
                found.append(info)
        except (OSError, ValueError):
            continue
    return found


def forget(pid: int) -> None:
    (servers_folder() / f"{pid}.json").unlink(missing_ok=True)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def server_url() -> str | None:
    """The address of the newest `playbook serve` still running here, or None."""
    try:
        files = sorted(servers_folder().glob("*.json"), key=lambda path: path.stat().st_mtime, reverse=True)
    except OSError:
        return None
    for path in files:
        try:
            info = json.loads(path.read_text(encoding="utf-8"))
            if alive(int(info["pid"])):
                return str(info["url"]).rstrip("/")
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return None
