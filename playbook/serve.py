"""Serve the playbook notebooks with Voila and the project's template.

`serve()` is what `playbook serve` runs. `voila_command()` and `voila_env()` build the very
same server for the browser tests and the start-up benchmark, so all three agree on the
template, the kernel settings and where the packages come from.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from . import resources, running

__all__ = [
    "CULL_IDLE_TIMEOUT",
    "CULL_INTERVAL",
    "DEFAULT_PORT",
    "NOTEBOOKS_DIR",
    "REPO_ROOT",
    "TEMPLATE_NAME",
    "TEMPLATES_DIR",
    "RunningServer",
    "background_server",
    "base_path",
    "free_port",
    "serve",
    "server_url",
    "stop_server",
    "voila_command",
    "voila_env",
    "wait_until_ready",
]

REPO_ROOT = resources.CODE_ROOT
"""Where the project's packages are imported from (the checkout, or site-packages)."""
NOTEBOOKS_DIR = resources.notebooks_dir()
TEMPLATES_DIR = resources.templates_dir()
TEMPLATE_NAME = "playbook"
DEFAULT_PORT = 8866

CULL_IDLE_TIMEOUT = 60
"""Seconds a kernel with no open page may sit idle before Voila shuts it down.

A refreshed or closed tab leaves its kernel behind (when the page's own "shut me down" request
did not get through); this reclaims it. A table page's kernel goes quiet 30 s after its page
stops beating (`widgets.table`), so it is gone well within two minutes. A page that is still
open keeps its kernel however long it idles (connected kernels are never culled). Games are in
the table store, so a culled kernel loses no game."""

CULL_INTERVAL = 10
"""Seconds between two looks for idle kernels."""

#: the notebooks whose seats hide something: a class opens many of their pages at once, so
#: `playbook serve --preheat N` keeps N kernels ready for each.
PREHEATED = ("new_rule.ipynb", "leerdam.ipynb")


def _prepend_path(new: Path, current: str | None) -> str:
    """`new` in front of an os.pathsep-separated list, without repeating it."""
    parts = [p for p in (current or "").split(os.pathsep) if p and Path(p) != new]
    return os.pathsep.join([str(new), *parts])


def voila_env(
    db_path: str | os.PathLike[str] | None = None,
    base: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The environment for the Voila process (and so for its kernels).

    Puts the `playbook` template's folder on JUPYTER_PATH and the folder the project's packages
    come from on PYTHONPATH (so `import rules, widgets` works in a kernel whatever its folder,
    installed package or not). `db_path` sets PLAYBOOK_DB, the table store's SQLite file.
    """
    env = dict(os.environ if base is None else base)
    env["JUPYTER_PATH"] = _prepend_path(TEMPLATES_DIR, env.get("JUPYTER_PATH"))
    env["PYTHONPATH"] = _prepend_path(REPO_ROOT, env.get("PYTHONPATH"))
    # ipykernel's debugger warns about frozen modules on every kernel start; it is noise here.
    env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    if db_path is not None:
        env["PLAYBOOK_DB"] = str(db_path)
    return env


def voila_command(
    notebook: str | os.PathLike[str] | None = None,
    *,
    port: int = DEFAULT_PORT,
    open_browser: bool = False,
    pool_size: int = 0,
    cull_idle_timeout: int = CULL_IDLE_TIMEOUT,
    cull_interval: int = CULL_INTERVAL,
    base_url: str = "/",
    extra_args: Sequence[str] = (),
) -> list[str]:
    """The argv that starts Voila on `notebook` (default: the whole notebooks/ folder).

    `pool_size` > 0 keeps that many pre-heated kernels per notebook: each has already run
    its notebook when a page asks for it (see `serve` for when that is worth it).
    `base_url` is the path every page and websocket is served under (`/playbook/` behind a
    proxy that passes that path on unchanged).
    `extra_args` (e.g. `--Voila.ip=0.0.0.0`, `--port 9000`) replace the setting of the same
    name here: Voila refuses an option given twice.
    """
    target = Path(notebook).resolve() if notebook is not None else NOTEBOOKS_DIR
    settings = [
        f"--Voila.port={port}",
        "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",
        f"--VoilaConfiguration.template={TEMPLATE_NAME}",
        "--VoilaConfiguration.strip_sources=True",
        f"--MappingKernelManager.cull_idle_timeout={cull_idle_timeout}",
        f"--MappingKernelManager.cull_interval={cull_interval}",
        "--MappingKernelManager.cull_connected=False",
        f"--Voila.open_browser={open_browser}",
    ]
    if base_path(base_url) != "/":
        settings.append(f"--Voila.base_url={base_path(base_url)}")
    if pool_size > 0:
        settings += [
            "--VoilaConfiguration.preheat_kernel=True",
            f"--VoilaConfiguration.default_pool_size={pool_size}",
        ]
    overridden = {_option_key(arg) for arg in extra_args} - {None}
    settings = [arg for arg in settings if _option_key(arg) not in overridden]
    return [sys.executable, "-m", "voila", str(target), *settings, *extra_args]


_SHORT_OPTIONS = {
    "port": "Voila.port",
    "template": "VoilaConfiguration.template",
    "strip_sources": "VoilaConfiguration.strip_sources",
    "preheat_kernel": "VoilaConfiguration.preheat_kernel",
    "pool_size": "VoilaConfiguration.default_pool_size",
    "no_browser": "Voila.open_browser",
    "base_url": "Voila.base_url",
}


def _option_key(arg: str) -> str | None:
    """The trait an option sets (`--pool_size=2` -> `VoilaConfiguration.default_pool_size`)."""
    if not arg.startswith("--"):
        return None
    name = arg[2:].split("=", 1)[0]
    if "." not in name:
        name = name.replace("-", "_")
    return _SHORT_OPTIONS.get(name, name)


def _option_value(args: Sequence[str], key: str) -> str | None:
    """The value `args` give the trait `key` (`--port=9000` or `--port 9000`), if any."""
    value = None
    for i, arg in enumerate(args):
        if _option_key(arg) == key:
            if "=" in arg:
                value = arg.split("=", 1)[1]
            elif i + 1 < len(args):
                value = args[i + 1]
    return value


def base_path(text: str) -> str:
    """A base URL as Voila takes it: a path with a slash at both ends (`playbook` -> `/playbook/`).

    Raises ValueError for anything but a path (a whole address belongs in the public URL).
    """
    parts = urlsplit(text)
    if parts.scheme or parts.netloc or parts.query or parts.fragment:
        raise ValueError(f"base URL {text!r} is not a path such as /playbook/ (the full address goes in the public URL)")
    path = "/".join(part for part in parts.path.split("/") if part)
    return f"/{path}/" if path else "/"


def server_url(port: int = DEFAULT_PORT, host: str = "localhost") -> str:
    """Where the server started by `voila_command(port=port)` answers."""
    return f"http://{host}:{port}"


def wait_until_ready(
    url: str, timeout: float = 60.0, process: subprocess.Popen[bytes] | None = None
) -> None:
    """Block until `url` answers HTTP; raise TimeoutError, or RuntimeError if `process` died."""
    deadline = time.monotonic() + timeout
    while True:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"Voila exited with code {process.returncode} before {url} answered")
        try:
            # Any answer will do, a 404 too; a notebook page would start a kernel, this does not.
            with urllib.request.urlopen(f"{url.rstrip('/')}/api/status", timeout=2):
                return
        except urllib.error.HTTPError:
            return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"Voila did not answer at {url} within {timeout:.0f}s")
        time.sleep(0.2)


def _descendants(pid: int) -> list[tuple[int, str]]:
    """(process id, start time) of every process below `pid`, from Linux's /proc.

    The start time tells a process from a later one that got the same id. Empty where
    /proc is not there.
    """
    children: dict[int, list[tuple[int, str]]] = {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
            parent, started = int(fields[1]), fields[19]
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append((int(entry.parent.name), started))
    found: list[tuple[int, str]] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child[0])
    return found


def _start_time(pid: int) -> str | None:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def stop_server(process: subprocess.Popen[bytes], timeout: float = 15.0) -> None:
    """Stop a Voila started with `start_new_session=True`, its kernels included.

    SIGTERM lets Voila shut its kernels down. Whatever is left after `timeout` is killed:
    Voila's process group, and each kernel it had (jupyter_client starts kernels in
    sessions of their own) by process id, if that id is still the same process.
    """
    if process.poll() is not None:
        return
    kernels = _descendants(process.pid)
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(timeout=5)
    for pid, started in kernels:
        if _start_time(pid) == started:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class RunningServer:
    """A Voila started by `background_server`."""

    process: subprocess.Popen[bytes]
    port: int
    log_path: Path
    """Voila's stdout and stderr."""
    db_path: Path | None
    """The PLAYBOOK_DB the kernels see (None: the user's default)."""
    base_url: str = "/"
    """The path Voila serves under (`--base-url`)."""

    @property
    def url(self) -> str:
        """The server's root; for a single notebook, that notebook's page."""
        return server_url(self.port, host="127.0.0.1") + self.base_url

    def log_tail(self, lines: int = 40) -> str:
        """The end of Voila's log, for error messages."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


@contextmanager
def background_server(
    notebook: str | os.PathLike[str] | None,
    log_path: str | os.PathLike[str],
    *,
    db_path: str | os.PathLike[str] | None = None,
    pool_size: int = 0,
    timeout: float = 60.0,
    base_url: str = "/",
    public_url: str | None = None,
    extra_args: Sequence[str] = (),
) -> Iterator[RunningServer]:
    """Run `voila_command(notebook, ...)` on a free port while the block runs.

    `base_url` and `public_url` are `playbook serve`'s `--base-url` and `--public-url`.

    Waits until the server answers, and stops it with its kernels on the way out. Voila runs
    in a session of its own, so a Ctrl+C in a test run does not reach it half-way.
    """
    log_path = Path(log_path)
    last_error: Exception | None = None
    for _attempt in range(3):  # another program may take the free port before Voila does
        port = free_port()
        argv = voila_command(notebook, port=port, pool_size=pool_size, base_url=base_url, extra_args=extra_args)
        env = voila_env(db_path)
        if public_url is not None:
            env["PLAYBOOK_URL"] = public_url.rstrip("/")
        with log_path.open("ab") as log:
            process = subprocess.Popen(
                argv,
                env=env,
                cwd=REPO_ROOT,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        server = RunningServer(
            process, port, log_path, Path(db_path) if db_path is not None else None, base_path(base_url)
        )
        try:
            wait_until_ready(server_url(port, host="127.0.0.1"), timeout, process)
        except RuntimeError as exc:  # exited early, e.g. port taken
            last_error = exc
            continue
        except TimeoutError as exc:
            stop_server(process)
            raise TimeoutError(f"{exc}; Voila's log:\n{server.log_tail()}") from None
        except BaseException:
            stop_server(process)
            raise
        try:
            yield server
        finally:
            stop_server(process)
        return
    raise RuntimeError(f"{last_error}; Voila's log:\n{server.log_tail()}")


def lan_address() -> str:
    """This machine's address on the room's network (the interface a route out would use;
    no packet is sent), or 127.0.0.1 when there is none."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def facilitator_link(base: str, key: str) -> str:
    """The index page that lists and resumes every table: what `playbook serve` prints."""
    return f"{base.rstrip('/')}/voila/render/index.ipynb?key={key}"


def serve(
    port: int = DEFAULT_PORT,
    notebook: str | None = None,
    open_browser: bool = False,
    extra_args: Sequence[str] = (),
    *,
    ip: str | None = None,
    preheat: int = 0,
    base_url: str | None = None,
    public_url: str | None = None,
) -> int:
    """Run the playbook in Voila until stopped (Ctrl+C or SIGTERM); Voila's exit code.

    Serves every notebook in notebooks/ (or just `notebook`) with the `playbook` template,
    culling kernels whose page is gone. `ip` 0.0.0.0 lets phones on the room's network in.

    The server gets a facilitator key of its own (`PLAYBOOK_KEY`, random unless set), and its
    link is printed, as Jupyter prints its token link: only that link lists and resumes the
    tables. `public_url` (else `PLAYBOOK_URL`: the address other devices use, e.g.
    `https://school.example/playbook/` behind a proxy) goes into seat links and QR codes.
    `base_url` (else `PLAYBOOK_BASE_URL`, else the public URL's path) is the path Voila serves
    under: the proxy's path, passed on unchanged.

    `preheat` > 0 keeps that many kernels ready for each hidden-information game's notebook
    (New Rule, Leerdam): a class opening its seat pages at once waits less. Those notebooks
    wait for the page's request (`voila.utils.wait_for_request`) before they read its link.
    Stopping `playbook serve` stops Voila and every kernel it started.
    """
    key = os.environ.get("PLAYBOOK_KEY") or secrets.token_urlsafe(16)
    host = lan_address() if ip == "0.0.0.0" else (ip or "localhost")
    public = (public_url or os.environ.get("PLAYBOOK_URL") or "").rstrip("/")
    prefix = base_path(base_url or os.environ.get("PLAYBOOK_BASE_URL") or urlsplit(public).path)
    base = public or f"http://{host}:{port}{prefix.rstrip('/')}"
    args = list(extra_args) + ([f"--Voila.ip={ip}"] if ip else [])
    if preheat > 0:
        pools = {"default": {"pool_size": 0}, **{name: {"pool_size": preheat} for name in PREHEATED}}
        args += [
            "--VoilaConfiguration.preheat_kernel=True",
            f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}",
        ]
    argv = voila_command(notebook, port=port, open_browser=False, base_url=prefix, extra_args=args)
    env = voila_env()
    env.update(PLAYBOOK_KEY=key, PLAYBOOK_URL=base)
    page = "" if notebook is not None else "voila/render/index.ipynb"
    link = facilitator_link(base, key) if notebook is None else f"{base}/"
    print(f"Playbook: the facilitator's link (it lists and resumes every table; keep it to yourself):\n    {link}", flush=True)
    if notebook is None:
        print(f"Players open {base}/{page} to start a game, or the links a table gives them. Ctrl+C stops it.", flush=True)
    # A session of its own, so that stopping it reaches Voila's kernels too (stop_server).
    process = subprocess.Popen(argv, env=env, cwd=REPO_ROOT, start_new_session=True)
    running.record(base, os.getpid())  # for links made in JupyterLab (playbook.running)

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        # Only where a window can open: a text-mode browser would take over this terminal.
        if open_browser and (sys.platform in ("darwin", "win32") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            try:
                wait_until_ready(server_url(port, host="127.0.0.1"), 60, process)
                import webbrowser

                webbrowser.open(link)
            except (RuntimeError, TimeoutError):
                pass
        return process.wait()
    except KeyboardInterrupt:
        stop_server(process)
        return 0
    finally:
        running.forget(os.getpid())
        signal.signal(signal.SIGTERM, previous)
