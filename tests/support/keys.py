"""The server key every test runs with (`playbook serve` makes one per run; the autouse
`server_key` fixture of tests/conftest.py sets it), and the facilitator's index link."""

from __future__ import annotations

SERVER_KEY = "test-server-key-0123456789abcdef"

#: the query of the facilitator's index link.
INDEX = f"?key={SERVER_KEY}"
