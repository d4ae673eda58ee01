"""Repo-wide pytest set-up: the kernels nbval starts for notebooks/*.ipynb.

nbval runs every playbook notebook (`--nbval-lax` in pyproject.toml: only cells marked
`# NBVAL_CHECK_OUTPUT` have their outputs compared). Each notebook's kernel gets the same
environment as under `playbook serve` (`playbook.serve.voila_env`), except that its table
store is a fresh SQLite file under a temporary folder, never the user's own tables.
The environment is changed only while that kernel starts, so no other test sees it.
Under pytest-xdist a notebook's cells run in one group (one worker), since they share a kernel.

The tool notebooks end on a widget whose output nbval cannot compare (a widget's id), so after
their last cell `NOTEBOOK_CHECKS` asks the same kernel for one output that matters.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from playbook.serve import voila_env

_STORE_DIR = pytest.StashKey[Path]()

#: notebook -> (code run in its kernel after its last cell, with `_` the cell's widget; strings
#: its printed text must hold).
NOTEBOOK_CHECKS: dict[str, tuple[str, tuple[str, ...]]] = {
    # The front page: the tables card of its live part (the games are its markdown cards).
    "index.ipynb": ("print(_.list_html.value)", ("Tables in progress",)),
    # The lab's example run: a few games of the first game, and the findings it prints.
    "balance_lab.ipynb": (
        "_.games.value = 20\n_.workers.value = 1\nassert _.run(), _.status.message\nprint(_.findings.value)",
        ("What the numbers show", "<li"),
    ),
    # The studio offers each game, and the whole set.
    "print_studio.ipynb": (
        "print([label for label, _slug in _.game.options])",
        ("New Rule", "Leerdam", "Danger World", "Dangerous Ideas", "Every game"),
    ),
}


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


def _printed_by(cell: pytest.Item, code: str, timeout: float = 300) -> str:
    """Run `code` in the kernel of `cell`'s notebook; what it printed (an error fails the test)."""
    notebook: Any = cell.parent
    msg_id = notebook.kernel.execute_cell_input(code, allow_stdin=False)
    notebook.kernel.await_reply(msg_id, timeout=timeout)
    printed: list[str] = []
    while True:
        msg = notebook.get_kernel_message(timeout=timeout)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        content = msg["content"]
        if msg["msg_type"] == "stream":
            printed.append(content["text"])
        elif msg["msg_type"] == "error":
            raise AssertionError(f"{code!r} failed in the notebook's kernel: {content['ename']}: {content['evalue']}")
        elif msg["msg_type"] == "status" and content["execution_state"] == "idle":
            return "".join(printed)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """After a tool notebook's last cell: its `NOTEBOOK_CHECKS` output."""
    result = yield
    check = NOTEBOOK_CHECKS.get(Path(str(item.parent.path)).name) if _is_notebook_cell(item) else None
    if check is not None and item is [i for i in item.session.items if i.parent is item.parent][-1]:
        code, wanted = check
        printed = _printed_by(item, code)
        missing = [text for text in wanted if text not in printed]
        assert not missing, f"{Path(str(item.parent.path)).name}: {missing} not in what {code!r} printed:\n{printed[:2000]}"
    return result


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
