"""Whatever stops `playbook serve` stops Voila and every kernel, with real processes: a closed
terminal (SIGHUP), a kill of the launcher (SIGKILL), and a new `playbook serve` on the same port
that ends what an earlier one left running and starts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from playbook import running
from playbook.places import CONNECTIONS_PREFIX, TURNS_PREFIX
from playbook.serve import _descendants, _start_time, end_leftovers, free_port, stop_server, voila_command, voila_env, wait_until_ready

pytestmark = [pytest.mark.heavy, pytest.mark.timeout(240)]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """A data folder, a store and a key of the test's own, here and in the servers it starts."""
    values = {"XDG_DATA_HOME": str(tmp_path / "data"), "PLAYBOOK_DB": str(tmp_path / "tables.sqlite3"), "PLAYBOOK_KEY": "k" * 32}
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    yield {**os.environ, **values}


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _gone_within(pids: list[int], seconds: float) -> list[int]:
    """The processes of `pids` still running after up to `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.1)
    return [p for p in pids if _alive(p)]


def _serve(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    """`playbook serve` on this machine only, from a terminal of its own (a session)."""
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "playbook.cli", "serve", "--local", "--port", str(port), "--preheat", "0"],
            env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )
    # Its first words come once any server it ended is gone: only then is the port's answer its.
    deadline = time.monotonic() + 60
    while "the facilitator's link" not in log.read_text(errors="replace") and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.1)
    wait_until_ready(f"http://127.0.0.1:{port}", 90, process)
    return process


def _open_a_page(port: int) -> None:
    """A game page: Voila starts a kernel for it."""
    urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/render/new_rule.ipynb", timeout=90).read()


def _port_free(port: int, within: float = 10.0) -> bool:
    """Nothing answers on `port` (within a few seconds: a process that ended lets go of it a
    moment later)."""
    import socket

    deadline = time.monotonic() + within
    while True:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)


@pytest.mark.parametrize("how", [signal.SIGHUP, signal.SIGKILL], ids=["a closed terminal", "the launcher killed"])
def test_whatever_stops_playbook_serve_stops_voila_and_every_kernel(home: dict[str, str], tmp_path: Path, how: signal.Signals) -> None:
    port, log = free_port(), tmp_path / "serve.log"
    launcher = _serve(home, port, log)
    _open_a_page(port)
    below = [pid for pid, _ in _descendants(launcher.pid)]
    assert len(below) >= 2, "Voila and the page's kernel"
    os.kill(launcher.pid, how)
    assert _gone_within(below, 30) == [], "Voila or a kernel outlived playbook serve"
    launcher.wait(timeout=30)
    assert _port_free(port)
    said = log.read_text(errors="replace")
    assert "Traceback" not in said, said[-3000:]
    if how == signal.SIGHUP:  # stopped in order: its note and its folder of connection files are gone
        assert running.records() == []
    else:  # nothing of it ran on: the next start removes what it noted
        (left,) = running.records()
        folders = [Path(f) for f in left["folders"]]
        assert len(folders) == 2 and all(f.exists() for f in folders)
        assert end_leftovers(port) == [] and running.records() == [] and not any(f.exists() for f in folders)


def test_a_new_playbook_serve_ends_what_a_killed_one_left_on_its_port_and_starts(home: dict[str, str], tmp_path: Path) -> None:
    """A system where Voila cannot be told to go with its launcher: the launcher is gone, Voila
    and its kernel still hold the port. The next `playbook serve` ends them, by the process id
    and start time the first one noted, and serves."""
    port, log = free_port(), tmp_path / "serve.log"
    turns, connections = (Path(tempfile.mkdtemp(prefix=prefix)) for prefix in (TURNS_PREFIX, CONNECTIONS_PREFIX))
    left = subprocess.Popen(
        voila_command(None, port=port, extra_args=[f"--Voila.connection_dir_root={connections}"]),
        env=voila_env(turns=turns), stdin=subprocess.DEVNULL, stdout=(tmp_path / "left.log").open("wb"), stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        wait_until_ready(f"http://127.0.0.1:{port}", 90, left)
        _open_a_page(port)
        kernels = [pid for pid, _ in _descendants(left.pid)]
        ended = subprocess.Popen(["true"])  # the launcher, ended
        ended.wait()
        running.record(f"http://127.0.0.1:{port}", ended.pid, port=port, voila=left.pid, voila_started=_start_time(left.pid), folders=[str(turns), str(connections)])

        again = _serve(home, port, log)
        try:
            assert f"left running on port {port} (process {left.pid})" in log.read_text(errors="replace")
            assert left.wait(timeout=5) is not None and _gone_within(kernels, 10) == []
            assert not turns.exists() and not connections.exists()
            _open_a_page(port)  # the new server serves
        finally:
            stop_server(again)
    finally:
        if left.poll() is None:
            stop_server(left)
