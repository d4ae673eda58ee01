"""Whether the tests run in CI, where a test that cannot run here fails instead of skipping."""

from __future__ import annotations

import os


def in_ci() -> bool:
    """True when the CI environment variable says so (CI must not skip browser or store tests)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
