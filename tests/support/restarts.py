"""A Voila server a test stops and starts again on the same port with the same store, as a
teacher restarts `playbook serve` mid-lesson (or as it crashes and is started again)."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playbook.places import turns_folder
from playbook.serve import REPO_ROOT, free_port, stop_server, voila_command, voila_env, wait_until_ready

__all__ = ["RestartableServer", "restartable_server"]


class RestartableServer:
    """One notebook on one port; `stop()` and `start()` as often as a test likes."""

    def __init__(self, notebook: Path, folder: Path, turns: Path, pool_size: int = 1, base_url: str = "/") -> None:
        self.notebook = notebook
        self.base_url = base_url
        self.db_path = folder / "tables.sqlite3"
        self.log_path = folder / "voila.log"
        self.turns = turns
        self.pool_size = pool_size
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.base_url}"

    def start(self, timeout: float = 60.0) -> None:
        """Start Voila and return once it answers."""
        argv = voila_command(self.notebook, port=self.port, pool_size=self.pool_size, base_url=self.base_url)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                argv,
                env=voila_env(self.db_path, turns=self.turns),
                cwd=REPO_ROOT,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_until_ready(self.url, timeout, self.process)

    def stop(self) -> None:
        """Stop Voila and its kernels, as Ctrl+C on `playbook serve` does (the kernels first)."""
        if self.process is not None:
            stop_server(self.process, kernels_first=True)
            self.process = None

    def crash(self) -> None:
        """Kill Voila at once, as a crash does: no shutdown, its kernels left to notice that their
        parent is gone (ipykernel exits when it does)."""
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


@contextmanager
def restartable_server(notebook: str | os.PathLike[str], folder: Path, pool_size: int = 1, base_url: str = "/") -> Iterator[RestartableServer]:
    """A started `RestartableServer` of `notebook`, its store and log in `folder`, serving under
    `base_url` (`playbook serve --base-url`); stopped at the end."""
    with turns_folder() as turns:
        server = RestartableServer(Path(notebook).resolve(), folder, Path(turns), pool_size, base_url)
        server.start()
        try:
            yield server
        finally:
            server.stop()
