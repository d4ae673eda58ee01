"""Serve the playbook notebooks with Voila and the project's template.

`serve()` is what `playbook serve` runs. `voila_command()` and `voila_env()` build the very
same server for the browser tests and the start-up benchmark, so all three agree on the
template, the kernel settings and where the packages come from.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from i18n import _, _n
from rules.games import CARDS

from . import resources, running
from .budget import KEEP_FREE_MEGABYTES, PAGE_MEGABYTES, available_megabytes, default_max_pages
from .languages import LANG_ENV, LANG_HEADER
from .links import CLASS_PAGE, DEFAULT_PORT, index_link, loopback_host, server_address
from .pacing import SLOTS_ENV, default_slot_count
from .places import CONNECTIONS_PREFIX, DB_ENV, TURNS_PREFIX, connections_folder, key_file, turns_folder

if TYPE_CHECKING:
    from .store import Store

__all__ = [
    "CULL_IDLE_TIMEOUT",
    "CULL_INTERVAL",
    "DEFAULT_PORT",
    "NOTEBOOKS_DIR",
    "REPO_ROOT",
    "TEMPLATES_DIR",
    "TEMPLATE_NAME",
    "UNUSED_EXTENSIONS",
    "PhoneAddress",
    "RunningServer",
    "background_server",
    "base_path",
    "end_leftovers",
    "free_port",
    "lan_address",
    "phone_address",
    "preheated",
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

CULL_IDLE_TIMEOUT = 60
"""Seconds a kernel with no open page may sit idle before Voila shuts it down.

A refreshed or closed tab leaves its kernel behind (when the page's own "shut me down" request
did not get through); this reclaims it. A table page's kernel goes quiet 30 s after its page
stops beating (`widgets.live`), so it is gone well within two minutes. A page that is still
open keeps its kernel however long it idles (connected kernels are never culled). Games are in
the table store, so a culled kernel loses no game."""

CULL_INTERVAL = 10
"""Seconds between two looks for idle kernels."""

IOPUB_TIMEOUT = 120
"""Seconds Voila's executor waits for a cell's output after the cell's reply.

nbclient's default (4 s) drops the output that comes later, and on a laptop starting a class's
pages at once the dashboard's output is often that late: the page then came up blank, for good.
A cell that is done sends its last output at once, so a long wait costs nothing."""

KERNEL_STARTUP_TIMEOUT = 180
"""Seconds a page's kernel may take to start while a class's other pages start too."""

def preheated() -> tuple[str, ...]:
    """The pages a class opens many of at once (the class page, and the pages of the games
    whose seats each have a device: their cards' `devices`): `playbook serve` keeps kernels
    ready for each (`serve_settings`)."""
    return (CLASS_PAGE, *(c.notebook for c in CARDS if c.devices and c.notebook))


def _prepend_path(new: Path, current: str | None) -> str:
    """`new` in front of an os.pathsep-separated list, without repeating it."""
    parts = [p for p in (current or "").split(os.pathsep) if p and Path(p) != new]
    return os.pathsep.join([str(new), *parts])


def voila_env(
    db_path: str | os.PathLike[str] | None = None,
    base: Mapping[str, str] | None = None,
    turns: str | os.PathLike[str] | None = None,
) -> dict[str, str]:
    """The environment for the Voila process (and so for its kernels).

    Puts the `playbook` template's folder on JUPYTER_PATH and the folder the project's packages
    come from on PYTHONPATH (so `import rules, widgets` works in a kernel whatever its folder,
    installed package or not). `db_path` sets PLAYBOOK_DB, the table store's SQLite file.
    `turns` is the folder where the server's kernels take turns to build (`playbook.pacing`).
    """
    env = dict(os.environ if base is None else base)
    env["JUPYTER_PATH"] = _prepend_path(TEMPLATES_DIR, env.get("JUPYTER_PATH"))
    env["PYTHONPATH"] = _prepend_path(REPO_ROOT, env.get("PYTHONPATH"))
    if db_path is not None:
        env[DB_ENV] = str(db_path)
    if turns is not None:
        env[SLOTS_ENV] = str(turns)
    return env


#: JupyterLab extensions installed beside Voila that no page of the playbook uses: no page shows
#: a cell's source, so pygments' colours for it were scripts and styles for nothing. The widgets
#: manager (@jupyter-widgets/jupyterlab-manager, with Voila's own widgets-manager8) draws every
#: dashboard and stays. Denied to every page (VoilaConfiguration.extension_denylist).
UNUSED_EXTENSIONS = ("jupyterlab_pygments",)


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
        "--VoilaConfiguration.multi_kernel_manager_class=playbook.voila_app.PatientKernelManager",
        f"--VoilaExecutor.iopub_timeout={IOPUB_TIMEOUT}",
        f"--VoilaExecutor.startup_timeout={KERNEL_STARTUP_TIMEOUT}",
        # Kernels talk to Voila over Unix sockets: over TCP, kernels started together pick free
        # ports and then race to bind them ("Address already in use": a page that never comes).
        "--KernelManager.transport=ipc",
        # The page's language, decided as it is served (playbook.doors.OwnPage), into its kernel's environment.
        f"--VoilaConfiguration.http_header_envs={LANG_HEADER}",
        # One item per flag: a JSON list in one flag is deprecated by traitlets (a warning on the teacher's terminal).
        *[f"--VoilaConfiguration.extension_denylist={name}" for name in UNUSED_EXTENSIONS],
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
    # Voila with the short join addresses (/j, /j/CODE): playbook.voila_app.
    return [sys.executable, "-m", "playbook.voila_app", str(target), *settings, *extra_args]


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
    return server_address(host, port)


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


def stop_server(process: subprocess.Popen[bytes], timeout: float = 15.0, *, kernels_first: bool = False) -> None:
    """Stop a Voila started with `start_new_session=True`, its kernels included.

    SIGTERM lets Voila shut its kernels down. Whatever is left after `timeout` is killed:
    Voila's process group, and each kernel it had (jupyter_client starts kernels in
    sessions of their own) by process id, if that id is still the same process.

    `kernels_first` kills the kernels before Voila hears SIGTERM, so that its shutdown has none
    to wait for (a server of twenty preheated kernels took 20 s to stop): for servers whose
    kernels keep nothing on their way out, as the store's writes are each one transaction.
    """
    if process.poll() is not None:
        return
    kernels = _descendants(process.pid)
    if kernels_first:
        _kill(kernels)
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(timeout=5)
    _kill(kernels)


def _kill(processes: list[tuple[int, str]]) -> None:
    """SIGKILL each (process id, start time) still running as that same process."""
    for pid, started in processes:
        if _start_time(pid) == started:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def _running(pid: int, started: str) -> bool:
    """True while `pid` is still the process that started at `started` and has not ended (a
    zombie waiting for its parent has)."""
    try:
        fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return False
    return fields[19] == started and fields[0] != "Z"


def end_leftovers(port: int, timeout: float = 10.0) -> list[int]:
    """End what an earlier `playbook serve` on `port` left running when it was killed (SIGKILL,
    or a system where Voila cannot be told to go with it): its Voila, by the process id and
    start time it noted (`playbook.running`), and Voila's kernels. The folders of turns and
    connection files of every server gone (on any port) are removed with their notes. The ids
    of the Voila processes ended."""
    ended = []
    for info in running.records():
        if running.alive(int(info["pid"])):
            continue
        voila, started = info.get("voila"), info.get("voila_started")
        if isinstance(voila, int) and isinstance(started, str) and _running(voila, started):
            if info.get("port") != port:
                continue  # another port's: its own next start ends it
            kernels = _descendants(voila)
            try:
                os.killpg(voila, signal.SIGTERM)  # its own session: Voila and whatever it left in it
            except (ProcessLookupError, PermissionError):
                pass
            deadline = time.monotonic() + timeout
            while _running(voila, started) and time.monotonic() < deadline:
                time.sleep(0.1)
            if _running(voila, started):
                try:
                    os.killpg(voila, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            _kill(kernels)
            ended.append(voila)
        for folder in info.get("folders", ()):
            if isinstance(folder, str) and Path(folder).name.startswith((TURNS_PREFIX, CONNECTIONS_PREFIX)):
                shutil.rmtree(folder, ignore_errors=True)
        running.forget(int(info["pid"]))
    return ended


def _go_with_parent(parent: int) -> Callable[[], None]:
    """What runs in Voila's process before it starts (Linux): the kernel sends it SIGTERM when
    `playbook serve` ends, however it ends (SIGKILL, a closed terminal), and Voila then stops
    its kernels. Elsewhere a later `playbook serve` ends what was left (`end_leftovers`)."""

    def arrange() -> None:
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            return
        if os.getppid() != parent:  # the launcher went before the line above: go now
            os.kill(os.getpid(), signal.SIGTERM)

    return arrange


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

    Waits until the server answers, and stops it with its kernels on the way out (the kernels
    killed first: nothing waits for twenty preheated kernels to shut down one by one). Voila
    runs in a session of its own, so a Ctrl+C in a test run does not reach it half-way.
    """
    with turns_folder() as turns:
        yield from _background(notebook, Path(log_path), db_path, pool_size, timeout, base_url, public_url, extra_args, turns)


def _background(
    notebook: str | os.PathLike[str] | None,
    log_path: Path,
    db_path: str | os.PathLike[str] | None,
    pool_size: int,
    timeout: float,
    base_url: str,
    public_url: str | None,
    extra_args: Sequence[str],
    turns: Path,
) -> Iterator[RunningServer]:
    last_error: Exception | None = None
    for _attempt in range(3):  # another program may take the free port before Voila does
        port = free_port()
        argv = voila_command(notebook, port=port, pool_size=pool_size, base_url=base_url, extra_args=extra_args)
        env = voila_env(db_path, turns=turns)
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
            stop_server(process, kernels_first=True)
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


def kept_server_key(path: Path | None = None) -> str:
    """The server's facilitator key, kept in a file only this account can read, so that the
    facilitator's link still works after a restart; made on first use."""
    path = key_file() if path is None else path
    try:
        key = path.read_text().strip()
        if len(key) >= 22:
            path.chmod(0o600)
            return key
    except OSError:
        pass
    key = secrets.token_urlsafe(16)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(key + "\n")
        path.chmod(0o600)
    except OSError:
        pass  # a read-only home: the key lasts as long as this server
    return key


def page_budget(ready_kernels: int, class_size: int, max_pages: int | None = None) -> tuple[int, int]:
    """The most pages `playbook serve` holds at once (`max_pages`, else `playbook.budget`'s
    default for the class), and, when the free memory holds fewer, how many it holds (else 0)."""
    megabytes = available_megabytes()
    held = (megabytes - KEEP_FREE_MEGABYTES) // PAGE_MEGABYTES if megabytes is not None else None
    most = max_pages or default_max_pages(ready_kernels, class_size, megabytes)
    return most, (max(0, held) if held is not None and held < most else 0)


#: how many pages of a class arrive together by default (`playbook serve --class-size`).
CLASS_SIZE = 30


@dataclass(frozen=True)
class ServeSettings:
    """What `playbook serve` adds to Voila's command line for a class (see `serve_settings`)."""

    args: tuple[str, ...]
    #: kernels Voila keeps ready when no page is open.
    ready_kernels: int
    #: the settings in words, for the benchmark's table.
    summary: str


def serve_settings(class_size: int = CLASS_SIZE, preheat: int | None = None, waiting: Mapping[str, int] | None = None, follow: bool = True) -> ServeSettings:
    """The class settings of `playbook serve`: the one place the headline command and the
    arrival benchmark take them from.

    Every kernel waits for its turn to build (`playbook.pacing`, one turn per core) and the
    executor waits long enough for a late output (`IOPUB_TIMEOUT`). Kernels are kept ready for
    the pages a class opens together (`ready_pools`, with the `seats_waiting` of the tables
    saved; `preheat` sets every pool to that size). Without `preheat`, and with `follow` (every
    page served), the pools then follow the lesson (`voila_app.ready_for_tables`): a game page's
    the seats of the tables prepared, the class page's the students still expected.
    """
    pools = ready_pools(class_size, waiting) if preheat is None else {name: max(0, preheat) for name in preheated()}
    args: list[str] = []
    if any(pools.values()):
        config = {"default": {"pool_size": 0}, **{name: {"pool_size": size} for name, size in pools.items()}}
        args += ["--VoilaConfiguration.preheat_kernel=True", f"--VoilaKernelManager.kernel_pools_config={json.dumps(config)}"]
        if preheat is None and follow:
            args.append("--PlaybookVoila.follow_tables=True")
    kept = ", ".join(f"{size} for {name}" for name, size in pools.items())
    cores = default_slot_count()
    summary = (
        f"playbook serve for a class of {class_size}: kernels kept ready {kept}"
        + ("; the class page's then follow the students still expected" if preheat is None and follow and pools.get(CLASS_PAGE) else "")
        + f"; kernels build {cores} at a time (one per core), ready kernels made up after the arrivals, {cores} at a time; "
        f"executor waits {IOPUB_TIMEOUT} s for late output"
    )
    return ServeSettings(tuple(args), sum(pools.values()), summary)


#: most kernels kept ready for a game's own pages (seat links): each is about 40 MB while it waits.
MAX_PREHEAT = 5
#: most kernels kept ready for the class page, the one every phone of a class opens.
MAX_CLASS_READY = 40


def preheated_for(class_size: int) -> int:
    """Kernels to keep ready for the seat pages of a class's game: a third of the class, at most
    MAX_PREHEAT (a phone's seat is built in its class page; these serve the reloads and seat
    links, and the rest are started as they come, in turns)."""
    return max(0, min(MAX_PREHEAT, -(-class_size // 3)))


def ready_pools(class_size: int, waiting: Mapping[str, int] | None = None) -> dict[str, int]:
    """Kernels kept ready per notebook for a class of `class_size`.

    The class page gets one per student (at most MAX_CLASS_READY): the whole class opens it
    within seconds of the code going up, and a ready kernel is a page that comes at once; they
    are started when the server starts, before the lesson, and a ready kernel gives way to any
    page that is waiting. A game's page gets what is `waiting` on it (`pages_waiting`: one per
    seat of the tables prepared before the lesson, a third of a class made for that game; at
    most MAX_CLASS_READY), and none while nothing waits: a game nobody plays today keeps no
    kernel from the one the class plays.
    """
    waiting = waiting or {}
    pools = {name: max(0, min(MAX_CLASS_READY, waiting.get(name, 0))) for name in preheated()}
    pools[CLASS_PAGE] = max(0, min(MAX_CLASS_READY, class_size))
    return pools


#: a table touched within this many seconds may be opened by a class from its slips.
WAITING_WITHIN_S = 24 * 3600.0


def seats_waiting(store: Store, now: float | None = None) -> dict[str, int]:
    """Per game page, the seats of saved tables a class may open from their slips: unfinished
    tables of a game with seats of their own, touched within WAITING_WITHIN_S, not a class's
    (a class's students come through the class page), without their bots' seats and the seats
    a device already holds."""
    from .store import bots_of

    since = (time.time() if now is None else now) - WAITING_WITHIN_S
    seats: dict[str, int] = {}
    for table in store.tables(unfinished=True):
        if table.game not in CARDS or not CARDS[table.game].devices or table.updated < since or table.meta.get("class"):
            continue
        bots = bots_of(table.meta)
        held = {int(seat) for seat in dict(table.meta.get("claims") or {}) if str(seat).isdigit()}
        free = [seat for seat in dict(table.meta.get("seat_keys") or {}) if str(seat).isdigit() and int(seat) not in bots and int(seat) not in held]
        page = CARDS[table.game].notebook
        seats[page] = seats.get(page, 0) + len(free)
    return seats


def students_expected(store: Store, now: float | None = None) -> dict[str, int]:
    """The class page's arrivals still to come: for the classes made within WAITING_WITHIN_S and
    not over, the students each expects who have not joined yet (`{"class.ipynb": N}`); no
    entry while no class was made then (the server was started for a class to come). Beside
    it, each such class's game page: a third of the class (`preheated_for`), for its seats'
    reloads and links."""
    from .classes import classes

    since = (time.time() if now is None else now) - WAITING_WITHIN_S
    recent = [record for record in classes(store, open_only=False) if record.created >= since]
    if not recent:
        return {}
    expected = {CLASS_PAGE: sum(max(0, record.expected - len(record.students)) for record in recent if record.phase != "over")}
    for record in recent:
        if record.phase == "over" or record.game not in CARDS:
            continue
        card = CARDS[record.game]
        if card.devices and card.notebook:
            expected[card.notebook] = expected.get(card.notebook, 0) + preheated_for(max(record.expected, len(record.students)))
    return expected


def pages_waiting(store: Store, now: float | None = None) -> dict[str, int]:
    """Per page, the kernels the lesson may ask of it at once: the seats of saved tables
    (`seats_waiting`) with the classes' arrivals and seats (`students_expected`)."""
    waiting = seats_waiting(store, now)
    for page, count in students_expected(store, now).items():
        waiting[page] = waiting.get(page, 0) + count
    return waiting


@dataclass(frozen=True)
class PhoneAddress:
    """Where the server listens and the address its links carry (see `phone_address`)."""

    #: the interface Voila listens on.
    listen: str
    #: the server's address in every link, QR code and slip.
    base: str
    #: True when no other device can reach the server: the boards say that phones cannot join.
    local_only: bool


def phone_address(port: int, ip: str | None = None, public_url: str | None = None, lan: Callable[[], str] | None = None) -> PhoneAddress:
    """The address phones in the room open, and where to listen for them.

    `public_url` (a host name, or a proxy's address) wins for the links. Otherwise the server
    listens on every interface (or on `ip`) and its links carry this machine's address on the
    room's network (`lan`, default `lan_address`). Listening on the loopback only, or on a
    machine with no network, the links say localhost and the server is local only.
    """
    listen = ip or "0.0.0.0"
    if loopback_host(listen):
        return PhoneAddress(listen, public_url.rstrip("/") if public_url else server_address("localhost", port), public_url is None)
    host = (lan or lan_address)() if listen in ("0.0.0.0", "::") else listen
    if public_url:
        return PhoneAddress(listen, public_url.rstrip("/"), False)
    if loopback_host(host):
        return PhoneAddress(listen, server_address("localhost", port), True)
    return PhoneAddress(listen, server_address(host, port), False)


def _pages_waiting_here() -> dict[str, int]:
    """`pages_waiting` of this server's table store; none when it cannot be read (the server
    then says why on its pages)."""
    from .store import Store

    try:
        return pages_waiting(Store())
    except Exception:
        return {}


def _expire_empty_classes_here() -> int:
    """Remove this server's classes that no student joined within a day (`classes.expire_empty`);
    0 when the store cannot be read (the server then says why on its pages)."""
    from .classes import expire_empty
    from .store import Store

    try:
        return expire_empty(Store())
    except Exception:
        return 0


def serve(
    port: int = DEFAULT_PORT,
    notebook: str | None = None,
    open_browser: bool = False,
    extra_args: Sequence[str] = (),
    *,
    ip: str | None = None,
    preheat: int | None = None,
    class_size: int = CLASS_SIZE,
    base_url: str | None = None,
    public_url: str | None = None,
    max_pages: int | None = None,
    lang: str | None = None,
) -> int:
    """Run the playbook in Voila until stopped (Ctrl+C or SIGTERM); Voila's exit code.

    Serves every notebook in notebooks/ (or just `notebook`) with the `playbook` template,
    culling kernels whose page is gone, on the room's network (`phone_address`: every
    interface unless `ip` says otherwise; `PLAYBOOK_URL` for a host name or a proxy).

    The server has a facilitator key of its own (`PLAYBOOK_KEY`, else kept in a private file),
    and its link is printed, as Jupyter prints its token link: only that link lists and resumes
    the tables and starts classes. The address phones open goes into every link and QR code:
    `public_url` (else `PLAYBOOK_URL`: a host name, or `https://school.example/playbook/` behind
    a proxy), else this machine's address on the room's network. `base_url` (else
    `PLAYBOOK_BASE_URL`, else the public URL's path) is the path Voila serves under: the
    proxy's path, passed on unchanged.

    A class opening its pages at once is served in turns, with kernels kept ready for it
    (`serve_settings`: the class page's for `class_size` students, and a game page's for the
    seats of the tables prepared for the lesson, `seats_waiting`). Stopping `playbook serve` stops Voila and every
    kernel it started.

    `lang` (else `PLAYBOOK_LANG`) is the pages' language where neither the class or table nor
    the device chose one; without it, each browser's own (`playbook.languages`).
    """
    key = os.environ.get("PLAYBOOK_KEY") or kept_server_key()
    public = (public_url or os.environ.get("PLAYBOOK_URL") or "").rstrip("/")
    prefix = base_path(base_url or os.environ.get("PLAYBOOK_BASE_URL") or urlsplit(public).path)
    where = phone_address(port, ip, public or None)
    # Without a public URL the links carry this machine's address and the path served under.
    base = public or where.base + prefix.rstrip("/")
    expired = _expire_empty_classes_here()
    if expired:
        print(_n("Removed {n} empty class: made over a day ago, and no student joined.", "Removed {n} empty classes: made over a day ago, and no student joined.", expired), flush=True)
    for left in end_leftovers(port):
        print(_("Stopped the playbook server that was left running on port {port} (process {process}): its terminal had closed.", port=str(port), process=str(left)), flush=True)
    # One notebook alone keeps the pools it started with.
    settings = serve_settings(class_size, preheat, _pages_waiting_here(), follow=notebook is None)
    most, short = page_budget(settings.ready_kernels, class_size, max_pages)
    link = index_link(base, key) if notebook is None else f"{base}/"
    print(_("Playbook: the facilitator's link (it lists and resumes every table, starts classes; keep it to yourself):") + "\n    " + link, flush=True)
    if notebook is None and where.local_only:
        print(_("Local only: phones cannot reach this server (no network, or --local). The boards say so."), flush=True)
    elif notebook is None:
        print(_("Phones in the room open {address} and type the class's code (or scan the board). Ctrl+C stops it.", address=base + "/j"), flush=True)
    print(_("Pages open at once: at most {most} (--max-pages sets it); a device asking for more is told the room is full and tries again.", most=most), flush=True)
    if short:
        print(_("Warning: this computer's free memory holds about {short} pages; a class of {size} with its ready pages needs {most}. Close other programs, or use a smaller --class-size.", short=short, size=class_size, most=most), flush=True)
    with turns_folder() as turns, connections_folder() as connections:
        # The kernels' connection files go in the server's own folder, removed with it.
        args = list(extra_args) + [f"--Voila.ip={where.listen}", f"--Voila.connection_dir_root={connections}", f"--PlaybookVoila.max_pages={most}", *settings.args]
        argv = voila_command(notebook, port=port, open_browser=False, base_url=prefix, extra_args=args)
        env = voila_env(turns=turns)
        env.update(PLAYBOOK_KEY=key, PLAYBOOK_URL=base, PLAYBOOK_LOCAL_ONLY="1" if where.local_only else "0")
        if lang:
            env[LANG_ENV] = lang
        # A session of its own, so that stopping it reaches Voila's kernels too (stop_server);
        # on Linux it also goes when this process is killed.
        linux = sys.platform.startswith("linux")
        process = subprocess.Popen(argv, env=env, cwd=REPO_ROOT, start_new_session=True, preexec_fn=_go_with_parent(os.getpid()) if linux else None)
        # For links made in JupyterLab, and for a later `playbook serve` on this port to end what
        # this one might leave (playbook.running).
        running.record(base, os.getpid(), port=port, voila=process.pid, voila_started=_start_time(process.pid), folders=[str(turns), str(connections)])

        def stop(signum: int, frame: Any) -> None:
            raise KeyboardInterrupt

        # A closed terminal (SIGHUP) stops the server as Ctrl+C and SIGTERM do.
        previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGHUP)}
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
            for sig, handler in previous.items():
                signal.signal(sig, handler)
