"""`playbook.serve`: the Voila command line and environment (no server started here)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import nbformat
import pytest

from benchmarks import bare_button
from playbook.serve import (
    NOTEBOOKS_DIR,
    REPO_ROOT,
    TEMPLATE_NAME,
    TEMPLATES_DIR,
    _option_key,
    voila_command,
    voila_env,
)


def _options(argv: list[str]) -> dict[str, str]:
    return {a[2:].split("=", 1)[0]: a.split("=", 1)[1] for a in argv if a.startswith("--") and "=" in a}


def test_command_serves_the_notebooks_folder_on_localhost_with_the_template() -> None:
    argv = voila_command(port=9123)
    assert argv[1:4] == ["-m", "playbook.voila_app", str(NOTEBOOKS_DIR)]
    opts = _options(argv)
    assert opts["Voila.port"] == "9123"
    assert opts["Voila.ip"] == "127.0.0.1"
    assert opts["Voila.port_retries"] == "0"
    assert opts["VoilaConfiguration.template"] == TEMPLATE_NAME
    assert opts["VoilaConfiguration.strip_sources"] == "True"
    assert opts["Voila.open_browser"] == "False"
    assert int(opts["MappingKernelManager.cull_idle_timeout"]) > 0
    assert "VoilaConfiguration.preheat_kernel" not in opts


def test_command_for_one_notebook_with_a_kernel_pool(tmp_path: Path) -> None:
    notebook = tmp_path / "game.ipynb"
    opts = _options(voila_command(notebook, pool_size=2))
    assert voila_command(notebook)[3] == str(notebook.resolve())
    assert opts["VoilaConfiguration.preheat_kernel"] == "True"
    assert opts["VoilaConfiguration.default_pool_size"] == "2"


@pytest.mark.parametrize(
    "extra",
    [["--Voila.ip=0.0.0.0"], ["--port", "9000"], ["--port=9000"], ["--template=lab"], ["--no-browser"]],
)
def test_extra_args_replace_ours_instead_of_repeating_them(extra: list[str]) -> None:
    """Voila refuses an option given twice, so ours must go."""
    argv = voila_command(extra_args=extra)
    assert argv[-len(extra) :] == extra
    keys = [_option_key(a) for a in argv if a.startswith("--")]
    assert len(keys) == len(set(keys))


def test_env_finds_the_template_and_the_packages(tmp_path: Path) -> None:
    env = voila_env(tmp_path / "t.sqlite3", base={"PYTHONPATH": "/elsewhere", "HOME": "/h"})
    assert env["JUPYTER_PATH"].split(os.pathsep)[0] == str(TEMPLATES_DIR)
    assert env["PYTHONPATH"].split(os.pathsep) == [str(REPO_ROOT), "/elsewhere"]
    assert env["PLAYBOOK_DB"] == str(tmp_path / "t.sqlite3")
    assert env["HOME"] == "/h"
    assert "PLAYBOOK_DB" not in voila_env(base={})


def test_template_extends_voilas_lab_template() -> None:
    folder = TEMPLATES_DIR / "voila" / "templates" / TEMPLATE_NAME
    assert json.loads((folder / "conf.json").read_text())["base_template"] == "lab"
    assert "extends 'voila/templates/lab/index.html.j2'" in (folder / "index.html.j2").read_text()


def test_bare_button_notebook_is_the_generated_one() -> None:
    """benchmarks/bare_button.ipynb is written by `python -m benchmarks.bare_button`."""
    stored = nbformat.read(bare_button.NOTEBOOK, as_version=4)
    assert stored == bare_button.build()
    assert all(not cell.get("outputs") for cell in stored.cells)


@pytest.mark.parametrize(("notebook", "preheat", "follows"), [(None, None, True), (None, 3, False), ("leerdam.ipynb", None, False)])
def test_the_headline_command_keeps_kernels_ready_for_the_tables_saved_while_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, notebook: str | None, preheat: int | None, follows: bool
) -> None:
    """`playbook serve` asks Voila to follow the saved tables (PlaybookVoila.follow_tables) unless
    the pools are set by hand or one notebook is served alone; the tables saved before it starts
    size the game's pool at once."""
    import subprocess

    from playbook import serve as serving
    from playbook.access import table_keys
    from playbook.store import Store
    from rules import leerdam as ld
    from rules import new_game

    monkeypatch.setenv("PLAYBOOK_DB", str(tmp_path / "tables.sqlite3"))
    monkeypatch.setenv("PLAYBOOK_KEY", "k" * 32)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    names = tuple(f"H{i}" for i in range(9))
    Store().create(new_game("leerdam", ld.Setup(names=names), 1), meta={"bots": {}, **table_keys(9)})
    started: list[list[str]] = []

    class Voila:
        pid = 0  # no process: nothing to note for a later start

        def __init__(self, argv: list[str], **kwargs: object) -> None:
            started.append(argv)

        def wait(self) -> int:
            return 0

    monkeypatch.setattr(subprocess, "Popen", Voila)
    assert serving.serve(port=serving.free_port(), notebook=notebook, ip="127.0.0.1", preheat=preheat, class_size=6) == 0
    argv = started[0]
    assert ("--PlaybookVoila.follow_tables=True" in argv) is follows
    pools = json.loads(next(a.split("=", 1)[1] for a in argv if a.startswith("--VoilaKernelManager.kernel_pools_config=")))
    assert pools["leerdam.ipynb"]["pool_size"] == (9 if preheat is None else preheat)


def test_page_templates_are_compiled_once_per_server_not_once_per_page(tmp_path: Path) -> None:
    """Voila makes a Jinja environment per page; they share the compiled templates, a changed
    template is compiled again, and an async environment never gets a sync one's code."""
    import jinja2

    from playbook.voila_app import CompiledTemplates

    (tmp_path / "page.j2").write_text("{{ 6 * 7 }} {{ name }}")
    cache = CompiledTemplates()
    compiled: list[str] = []

    class Counting(jinja2.Environment):
        def _compile(self, source: str, filename: str) -> object:
            compiled.append(filename)
            return super()._compile(source, filename)

    def page(is_async: bool = False) -> Counting:
        return Counting(loader=jinja2.FileSystemLoader(tmp_path), bytecode_cache=cache, enable_async=is_async)

    assert page().get_template("page.j2").render(name="Ana") == "42 Ana"
    assert page().get_template("page.j2").render(name="Bo") == "42 Bo"
    assert len(compiled) == 1  # the second page's environment used the first one's code
    (tmp_path / "page.j2").write_text("{{ name }}!")
    assert page().get_template("page.j2").render(name="Cy") == "Cy!"
    assert len(compiled) == 2
    from tests.support.stores import run_alone

    assert run_alone(lambda: page(is_async=True).get_template("page.j2").render_async(name="Di")) == "Di!"
    assert len(compiled) == 3


def test_stopping_kernels_first_leaves_a_server_nothing_to_wait_for() -> None:
    """A stand-in for Voila: on SIGTERM it waits for its "kernel" (a child in a session of its
    own, as jupyter_client starts kernels) to end, as Voila waits for each kernel's shutdown.
    Killed first, the kernel leaves it nothing to wait for: it ends on its own, not by the
    SIGKILL that ends a server still waiting after the timeout."""
    import signal
    import subprocess
    import sys

    from playbook.serve import _start_time, stop_server

    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import signal, subprocess, sys\n"
            "kernel = subprocess.Popen(['sleep', '600'], start_new_session=True)\n"
            "signal.signal(signal.SIGTERM, lambda *_: (kernel.wait(), sys.exit(0)))\n"
            "print(kernel.pid, flush=True)\n"
            "signal.pause()\n",
        ],
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    kernel = int(server.stdout.readline())  # the kernel is running
    try:
        stop_server(server, timeout=60, kernels_first=True)
        assert server.returncode == 0, server.returncode  # ended itself: -9 is the timeout's kill
        assert _start_time(kernel) is None or "Z" in Path(f"/proc/{kernel}/stat").read_text().split(")")[1].split()[0]
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
        server.stdout.close()
