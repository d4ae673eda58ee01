"""Repo-wide pytest set-up: the kernels nbval starts for notebooks/*.ipynb.

nbval runs every playbook notebook (`--nbval-lax` in pyproject.toml: only cells marked
`# NBVAL_CHECK_OUTPUT` have their outputs compared). Each notebook's kernel gets the same
environment as under `playbook serve` (`playbook.serve.voila_env`), except that its table
store is a fresh SQLite file under a temporary folder, never the user's own tables.
The environment is changed only while that kernel starts, so no other test sees it.
Under pytest-xdist a notebook's cells run in one group (one worker), since they share a kernel.
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


def _is_notebook_cell(item: pytest.Item) -> bool:
    return item.parent is not None and type(item.parent).__module__.split(".")[0] == "nbval"


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> Iterator[None]:
    """Each notebook's cells in one xdist group; then, after every other plugin (tests/conftest.py
    groups the browser tests), each group named in its tests' node ids for `--dist loadgroup`.

    pytest-xdist (3.8) appends `@group` to `item._nodeid`, which pytest 9 no longer reads
    (`nodeid` comes from `item._id`): every test would be a group of its own. Where xdist's
    suffix did not take, the suffix is set the way pytest 9 reads it.
    """
    for item in items:
        if _is_notebook_cell(item):
            item.add_marker(pytest.mark.xdist_group(str(item.parent.nodeid)))
    yield
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in item.iter_markers("xdist_group")})
        if names and hasattr(item, "_id") and "@" not in item.nodeid:
            from _pytest.nodeid import NodeId

            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    """Around the set-up of a notebook's cells (where nbval starts the kernel): our env."""
    if not _is_notebook_cell(item):
        yield
        return
    notebook = item.parent
    db_path = item.config.stash[_STORE_DIR] / f"{Path(str(notebook.path)).stem}.sqlite3"
    wanted = voila_env(db_path)
    saved = dict(os.environ)
    os.environ.update(wanted)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
