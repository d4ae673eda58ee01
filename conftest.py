"""Repo-wide pytest set-up: the kernels nbval starts for notebooks/*.ipynb.

nbval runs every playbook notebook (`--nbval-lax` in pyproject.toml: only cells marked
`# NBVAL_CHECK_OUTPUT` have their outputs compared). Each notebook's kernel gets the same
environment as under `playbook serve` (`playbook.serve.voila_env`), except that its table
store is a fresh SQLite file under a temporary folder, never the user's own tables.
The environment is changed only while that kernel starts, so no other test sees it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from playbook.serve import voila_env

_STORE_DIR = pytest.StashKey[Path]()


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_STORE_DIR] = Path(tempfile.mkdtemp(prefix="playbook-nbval-"))


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_STORE_DIR, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    """Around the set-up of a notebook's cells (where nbval starts the kernel): our env."""
    notebook = item.parent
    if notebook is None or type(notebook).__module__.split(".")[0] != "nbval":
        yield
        return
    db_path = item.config.stash[_STORE_DIR] / f"{Path(str(notebook.path)).stem}.sqlite3"
    wanted = voila_env(db_path)
    saved = dict(os.environ)
    os.environ.update(wanted)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
