"""Processes that take turns to build (`playbook.pacing`), for tests/test_arrival.py.

A module of their own, importing nothing else of the project: a spawned process imports the
module its target lives in, and a test module would bring every dashboard with it.
"""

from __future__ import annotations

import time
from typing import Any

from playbook.pacing import take_turn


def hold(folder: str, held: Any, go: Any, released_at: Any) -> None:
    """Take the only turn, say so, and keep it until told to go."""
    turn = take_turn(folder, 1)
    held.set()
    go.wait(60)
    released_at.value = time.monotonic()
    turn.release()


def wait_for_turn(folder: str, got_at: Any) -> None:
    """Wait for the only turn; note when it came."""
    turn = take_turn(folder, 1)
    got_at.value = time.monotonic()
    turn.release()
