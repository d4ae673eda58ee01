"""Voila with the playbook's short addresses, for a room that types them off a projector.

- `/j` asks for a room code (a laptop or Chromebook without a camera types it there);
- `/j/CODE` is a class's join page (`http://HOST:PORT/j/K7QM2P`, beside the board's QR code).

Both redirect to the class page (`notebooks/class.ipynb`); a code no class has is said, and
slowed per client, and a kernel's endpoints answer only its page (`playbook.doors`). A page that
goes away while its kernel socket opens is let go without tracebacks (`KernelSocket`); the
template's files are kept by the browser for a year (`TemplateFiles`); every answer carries the
headers that keep the keys of its address in the room, and no log line writes a key
(`playbook.headers`); everything else is Voila's own.
`playbook serve` and the tests start this instead of `python -m voila`, with the same options.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import sys
import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

# jsonschema checks the "iri" formats with rfc3987_syntax when it is installed, and importing it
# builds 38 grammars: 1.2 CPU-seconds at every server start. No schema Voila validates uses them.
sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]  # None there makes its import fail at once

import jinja2
from jupyter_client.session import DELIM
from jupyter_server._tz import utcnow
from jupyter_server.auth.decorator import ws_authenticated
from jupyter_server.base.handlers import FileFindHandler
from jupyter_server.services.kernels.handlers import KernelHandler
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from jupyter_server.utils import url_path_join
from tornado import httputil, web
from tornado.ioloop import PeriodicCallback
from tornado.websocket import WebSocketClosedError, WebSocketHandler
from traitlets import Bool, Float, Int
from voila.app import Voila
from voila.exporter import VoilaExporter
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.static_file_handler import MultiStaticFileHandler, TemplateStaticFileHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from playbook import budget as pages
from playbook import resources
from playbook.doors import OwnKernel, OwnPage, OwnShutdown, RoomDoor, WrongCodes, turned_away
from playbook.headers import SECURITY_HEADERS, SecurityHeaders, keep_keys_out_of_logs, log_request
from playbook.links import CLASS_PAGE
from playbook.pacing import cpu_seconds, default_slot_count

__all__ = ["BudgetedPage", "CachedGzip", "CompiledTemplates", "ExtensionFiles", "KernelSocket", "PatientKernelManager", "PlaybookVoila", "SeenClients", "TemplateFiles", "VoilaFiles", "compile_templates_once", "main", "ready_for_tables", "refill_when_quiet", "watch_pages"]

#: seconds without a page taking a ready kernel before the ready kernels are made up again.
REFILL_QUIET_SECONDS = 20.0
#: seconds between two looks at the saved tables (`ready_for_tables`).
FOLLOW_SECONDS = 30.0
#: a year: the longest HTTP asks a cache to keep anything.
YEAR = 365 * 24 * 3600


class CompiledTemplates(jinja2.BytecodeCache):
    """The page templates compiled once per server, not once per page.

    Voila builds a new exporter, so a new Jinja environment, for every page it serves, and each
    compiled the page's 14 templates again: 0.4 CPU-seconds a page, a third of the server's
    work for a page. Jinja keeps compiled code by template and source checksum (a changed
    template is compiled again); the key also says whether the environment renders
    asynchronously (Voila's do), since that changes the code.
    """

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None, source: str) -> Any:
        bucket = jinja2.bccache.Bucket(environment, f"{self.get_cache_key(name, filename)}:{environment.is_async}", self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Any) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Any) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


def compile_templates_once(exporter: type[VoilaExporter] = VoilaExporter) -> CompiledTemplates:
    """Give every environment `exporter` makes one `CompiledTemplates` (Voila has no setting for
    it); asked again, the same one."""
    cache: CompiledTemplates | None = getattr(exporter, "_playbook_templates", None)
    if cache is not None:
        return cache
    cache = CompiledTemplates()
    exporter._playbook_templates = cache
    create = exporter._create_environment

    def _create_environment(self: Any) -> jinja2.Environment:
        environment = create(self)
        environment.bytecode_cache = cache
        # The template draws the page with the playbook's frontend when it is built.
        environment.globals["playbook_frontend"] = resources.frontend_built()
        return environment

    exporter._create_environment = _create_environment
    return cache


class CachedGzip(web.GZipContentEncoding):
    """Tornado's response compression, but a static file is compressed once per server rather
    than once per page.

    A page is about 5 MB of scripts and styles (Voila's and the template's own, all under a
    `/static/` path); compressing them again for every page was half of the server's own work
    for a page (0.2 of 0.42 CPU-seconds), so 6 CPU-seconds when a class of 30 arrives. The compressed bytes are kept by path and version (the file's modification time,
    length and Etag: a changed file is compressed again), for static files only, up to `LIMIT`
    bytes.
    """

    LIMIT = 64 * 1024 * 1024
    STATIC = ("/static/", "/labextensions/")
    #: one store for the whole server: every handler of every page reads and fills it.
    _kept: ClassVar[dict[tuple[str, str], bytes]] = {}
    _kept_bytes = 0

    def __init__(self, request: httputil.HTTPServerRequest) -> None:
        super().__init__(request)
        static = request.method == "GET" and any(part in request.path for part in self.STATIC)
        self._path = request.path if static else None
        self._key: tuple[str, str] | None = None
        self._parts: list[bytes] | None = None
        self._sent = False

    def transform_first_chunk(self, status_code: int, headers: httputil.HTTPHeaders, chunk: bytes, finishing: bool) -> tuple[int, httputil.HTTPHeaders, bytes]:
        # A static file's modification time and length, and its Etag where it has one (tornado
        # hashes a file's content once and keeps that hash: alone it would miss a change).
        version = f"{headers.get('Etag')}/{headers['Last-Modified']}/{headers.get('Content-Length')}" if "Last-Modified" in headers else None
        if self._path is not None and self._gzipping and status_code == 200 and version and "Content-Encoding" not in headers:
            self._key = (self._path, version)
        kept = self._kept.get(self._key) if self._key is not None else None
        if kept is not None:  # sent whole now; what the handler writes after this is dropped
            self._gzipping, self._sent = False, True
            status_code, headers, _ = super().transform_first_chunk(status_code, headers, b"", finishing)
            headers["Content-Encoding"] = "gzip"
            headers["Content-Length"] = str(len(kept))
            return status_code, headers, kept
        status_code, headers, chunk = super().transform_first_chunk(status_code, headers, chunk, finishing)
        if self._key is not None and self._gzipping:
            self._parts = [chunk]
            self._keep(finishing)
        return status_code, headers, chunk

    def transform_chunk(self, chunk: bytes, finishing: bool) -> bytes:
        if self._sent:
            return b""
        chunk = super().transform_chunk(chunk, finishing)
        if self._parts is not None:
            self._parts.append(chunk)
            self._keep(finishing)
        return chunk

    def _keep(self, finishing: bool) -> None:
        if not finishing or self._key is None or self._parts is None:
            return
        body = b"".join(self._parts)
        self._parts = None
        if CachedGzip._kept_bytes + len(body) <= self.LIMIT:
            CachedGzip._kept[self._key] = body
            CachedGzip._kept_bytes += len(body)


class SeenClients(web.OutputTransform):
    """Notes, for the page budget, when each client last asked for anything: a phone still
    fetching its page's files is still loading it (`playbook.budget`)."""

    budget: ClassVar[pages.PageBudget | None] = None

    def __init__(self, request: httputil.HTTPServerRequest) -> None:
        super().__init__(request)
        if self.budget is not None:
            self.budget.seen(pages.client_of(request.remote_ip or "", request.headers), time.monotonic())


class TemplateFiles(TemplateStaticFileHandler):
    """Voila's files of the templates (the playbook's CSS and scripts, Voila's own styles), but
    a file asked for by its version is kept for a year and never asked for again.

    A page links each file with its content's hash (`?v=`, Voila's `include_css`/`include_js`):
    a changed file has a new address, so the browser may keep one it has for as long as it
    likes. Tornado says ten years without `immutable`, and a browser may ask again at every
    reload; a year is the longest HTTP asks a cache to keep anything, and `immutable` spares
    the thirty phones of a class those questions. A file asked for without a version is left
    to the browser, as before.
    """

    YEAR = YEAR
    #: the frontend's fonts, named by their content's hash as the build wrote them (esbuild's
    #: `[name]-[hash]`): linked from its stylesheet, without `?v=`, and as safe to keep.
    HASHED = re.compile(r"(?:^|/)frontend/[\w.-]+-[A-Z0-9]{8}\.\w+$")

    def _versioned(self, path: str) -> bool:
        return "v" in self.request.arguments or bool(self.HASHED.search(path))

    def get_cache_time(self, path: str, modified: Any, mime_type: str) -> int:
        return self.YEAR if self._versioned(path) else 0

    def set_extra_headers(self, path: str) -> None:
        if self._versioned(path):
            self.set_header("Cache-Control", f"max-age={self.YEAR}, immutable")


def files_version(folders: list[str]) -> str:
    """A short mark of every file under `folders` (names, sizes, modification times): it
    changes when Voila is upgraded or a file there changes."""
    marks = hashlib.sha256()
    for folder in folders:
        for root, dirs, names in os.walk(folder):
            dirs.sort()
            for name in sorted(names):
                path = os.path.join(root, name)
                try:
                    stat = os.stat(path)
                except OSError:
                    continue
                marks.update(f"{os.path.relpath(path, folder)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return marks.hexdigest()[:12]


class VoilaFiles(MultiStaticFileHandler):
    """Voila's own scripts (voila.js and its 240 chunks, `/voila/static/`), kept for a year.

    Voila links voila.js and loads its chunks under the page's `fullStaticUrl` with no version
    in their addresses, so a phone asked for each again on every page (about a hundred
    questions, a 304 each). The playbook's pages put the files' version in that address
    (`/voila/static/<version>/`, `versioned_static`): a file asked for under the current
    version is kept for a year; an address without one is served as before.
    """

    #: set by `PlaybookVoila` once its static folders are known.
    version: ClassVar[str] = ""

    async def get(self, path: str, include_body: bool = True) -> None:
        prefix = f"{self.version}/"
        self._versioned = bool(self.version) and path.startswith(prefix)
        await super().get(path[len(prefix):] if self._versioned else path, include_body)

    def get_cache_time(self, path: str, modified: Any, mime_type: str) -> int:
        return YEAR if getattr(self, "_versioned", False) else super().get_cache_time(path, modified, mime_type)

    def set_extra_headers(self, path: str) -> None:
        if getattr(self, "_versioned", False):
            self.set_header("Cache-Control", f"max-age={YEAR}, immutable")


def versioned_static(hook: Callable[..., dict[str, Any]] | None) -> Callable[..., dict[str, Any]]:
    """A page-config hook that puts `VoilaFiles.version` in the page's `fullStaticUrl` (after
    `hook`, a hook configured before, if any)."""

    def page_config_hook(page_config: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if hook is not None:
            page_config = hook(page_config, **kwargs)
        if VoilaFiles.version:
            page_config["fullStaticUrl"] = url_path_join(kwargs["base_url"], "voila/static", VoilaFiles.version)
        return page_config

    return page_config_hook


class ExtensionFiles(FileFindHandler):
    """The JupyterLab extensions' files (`/voila/labextensions/`): a file whose name carries its
    content's hash (webpack's `remoteEntry.<hash>.js`, `<chunk>.<hash>.js`) is kept for a year;
    Voila had told the browser to ask again for every one, on every page. Any other file
    (an extension's package.json) is asked again as before."""

    HASHED = re.compile(r"\.[0-9a-f]{16,}\.(js|css)$")

    def set_headers(self) -> None:
        super().set_headers()
        if self.HASHED.search(self.request.path):
            self.set_header("Cache-Control", f"public, max-age={YEAR}, immutable")


class BudgetedPage(OwnPage):
    """Voila's page, rendered only within the server's page budget (`playbook.budget`): over
    it, the light "room is full" page, which starts no kernel and asks again by itself."""

    #: this page's client and whether it showed a key, until the budget has been told its kernel.
    _waiting: tuple[str, bool] | None = None

    async def get(self, path: str | None = None) -> None:
        budget: pages.PageBudget | None = self.settings.get("playbook_budget")
        if budget is None:
            await super().get(path)
            return
        client = pages.client_of(self.request.remote_ip or "", self.request.headers)
        notebook = self.notebook_path or path or ""
        shows_key = self.settings["playbook_shows_key"]
        keyed = pages.may_show_key(self.request.query) and await asyncio.get_running_loop().run_in_executor(None, shows_key, notebook, self.request.query)
        refused = budget.admit(client, keyed, notebook)
        if refused:
            self.set_status(503)
            self.set_header("Retry-After", "5")
            self.set_header("Cache-Control", "no-store")
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(pages.room_full_page(refused, lang=await self.decide_language(path)))
            return
        self._waiting = (client, keyed)
        try:
            await super().get(path)
        finally:
            if self._waiting is not None:  # no kernel was given (the page failed first)
                budget.rendered(client)
                self._waiting = None

    def given(self, kernel_id: str) -> None:
        super().given(kernel_id)
        if self._waiting is not None:
            self.settings["playbook_budget"].served(kernel_id, *self._waiting, time.monotonic())
            self._waiting = None


def watch_pages(kernel_manager: Any, budget: pages.PageBudget, every: float = 5.0) -> PeriodicCallback:
    """End, every `every` seconds, the kernels `budget` finds gone (pages that never connected,
    whose device has gone quiet). `BudgetedPage` tells it which kernel each page was given."""

    def connected(kernel_id: str) -> bool:
        return bool(kernel_manager._kernel_connections.get(kernel_id, 0))

    def look() -> None:
        for kernel_id in budget.to_end(time.monotonic(), connected, kernel_manager.list_kernel_ids()):
            kernel_manager.log.info("Ended a page's kernel: its page never connected, and its device has gone quiet")
            asyncio.ensure_future(kernel_manager.shutdown_kernel(kernel_id)).add_done_callback(lambda done: done.cancelled() or done.exception())

    callback = PeriodicCallback(look, every * 1000)
    callback.start()
    return callback


class KernelSocket(VoilaKernelWebsocketHandler):
    """Voila's kernel socket, but a page that goes away while its socket opens, or while a
    message to it is on its way, is let go quietly.

    Between a page asking for its socket and the socket being opened, jupyter_server asks the
    kernel for its details; while a class arrives that takes a while. A phone locked or a page
    left in that moment closed the socket, and jupyter_server went on with the closed socket:
    three tracebacks in the teacher's terminal every time.
    """

    @ws_authenticated
    async def get(self, kernel_id: str) -> None:
        if turned_away(self, kernel_id):  # only the page given this kernel (playbook.doors)
            return
        self.kernel_id = kernel_id
        await self.pre_get()
        if self.connection is None:  # on_close has run: nobody is left to answer
            self.set_status(499, "page closed while its socket opened")
            return
        await WebSocketHandler.get(self, kernel_id=kernel_id)

    def write_message(self, message: Any, binary: bool = False) -> Any:
        # A page that went away while messages to it were on their way (jupyter_server replays
        # the ones kept for it, or a write was under way): tornado refuses, or fails in a task
        # nobody awaits, and a traceback was printed. Nobody is left to tell.
        try:
            sent = super().write_message(message, binary)
        except WebSocketClosedError:
            return None
        if sent is not None:
            sent.add_done_callback(lambda done: done.cancelled() or done.exception())
        return sent


class PatientKernelManager(AsyncMappingKernelManager):
    """Voila's kernel manager, but a kernel no page has connected to yet is not culled for its
    first `FIRST_CONNECT_SECONDS` (three minutes), and a kernel's activity is watched cheaply.

    When a class opens thirty pages at once on one laptop, a page's browser may take over a
    minute to load and connect after its kernel has run the notebook; the culler (idle 60 s, no
    connection) then killed the kernel of a page still on its way. Once a page has connected, or
    the grace has passed, a kernel is culled as before.

    jupyter_server watches every message a kernel sends for the culler: it checked each one's
    signature and parsed the dates of its headers, a quarter of the server's one thread while a
    class's seat pages came up after the deal. The watcher here reads the two headers' message
    types only, and the content of a status message; what it records is the same.
    """

    FIRST_CONNECT_SECONDS = 180.0

    def start_watching_activity(self, kernel_id: str) -> None:
        super().start_watching_activity(kernel_id)
        kernel = self._kernels[kernel_id]
        untracked = frozenset(self.untracked_message_types)

        def record_activity(msg_list: list[bytes]) -> None:
            # [identities..., DELIM, signature, header, parent header, metadata, content, buffers...]
            at = msg_list.index(DELIM)
            msg_type = json.loads(msg_list[at + 2])["msg_type"]
            parent_type = json.loads(msg_list[at + 3]).get("msg_type")
            if msg_type not in untracked or parent_type not in untracked or kernel.execution_state == "busy":
                self.last_kernel_activity = kernel.last_activity = utcnow()
            if msg_type == "status":
                execution_state = json.loads(msg_list[at + 5])["execution_state"]
                if parent_type not in untracked:
                    kernel.execution_state = execution_state
                elif kernel.execution_state == "starting" and execution_state != "starting":
                    kernel.execution_state = "idle"  # as jupyter_server: idle once started

        kernel._activity_stream.on_recv(record_activity)

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        kernel = self._kernels.get(kernel_id)
        if kernel is None:
            return  # shut down meanwhile
        if self._kernel_connections.get(kernel_id, 0) > 0:
            kernel.playbook_connected = True
        born = getattr(kernel, "playbook_born", None)
        if born is None:
            born = kernel.playbook_born = time.monotonic()
        if not getattr(kernel, "playbook_connected", False) and time.monotonic() - born < self.FIRST_CONNECT_SECONDS:
            return
        await super().cull_kernel_if_idle(kernel_id)


def refill_when_quiet(
    kernel_manager: Any,
    quiet: float = REFILL_QUIET_SECONDS,
    step: int | None = None,
    settled: Callable[[Any, list[Any]], Any] | None = None,
    room: Callable[[], int] | None = None,
) -> None:
    """Make up a notebook's ready kernels only once no page has taken one for `quiet` seconds,
    and then `step` at a time (one per core), each step once the last one's kernels have settled.

    Voila starts a replacement the moment a page takes a ready kernel and puts it in the pool at
    once, so while a class arrives every page both starts a kernel and waits for a half-started
    one: thirty arrivals start sixty kernels on two cores. Deferred, the arrivals beyond the
    ready kernels get kernels of their own (taking turns, `playbook.pacing`) and the pool is
    made up after the burst. It is made up a step at a time: thirty kernels starting together
    would be thirty processes sharing two cores with the class's own pages just as the class
    starts to play. A page that takes a ready kernel while the pool is made up stops it until
    the next pause. The first fill, at start, is neither deferred nor stepped. `room()`: how
    many more kernels the page budget allows (`playbook.budget`); a step starts no more.
    """
    fill = kernel_manager.fill_if_needed
    step = max(1, step or default_slot_count())
    settle = settled or kernels_settled
    waiting: dict[Any, asyncio.TimerHandle] = {}
    #: refills under way: the event loop keeps only a weak reference to a task.
    running: set[asyncio.Future[None]] = set()
    #: per notebook, the arrivals so far: a refill under way goes on only while it has the latest.
    arrivals: dict[Any, int] = {}

    def fill_if_needed(delay: float | None = None, notebook_name: str | None = None, **kwargs: Any) -> None:
        if delay is not None:  # the pools' first fill
            fill(delay=delay, notebook_name=notebook_name, **kwargs)
            return
        arrivals[notebook_name] = seen = arrivals.get(notebook_name, 0) + 1
        earlier = waiting.pop(notebook_name, None)
        if earlier is not None:
            earlier.cancel()

        def refill() -> None:
            waiting.pop(notebook_name, None)
            task = asyncio.ensure_future(make_up(notebook_name, seen, kwargs))
            running.add(task)
            task.add_done_callback(running.discard)

        waiting[notebook_name] = asyncio.get_event_loop().call_later(quiet, refill)

    async def make_up(name: str | None, seen: int, kwargs: dict[str, Any]) -> None:
        while arrivals.get(name) == seen:
            started = _fill_some(kernel_manager, fill, name, step if room is None else min(step, room()), kwargs)
            if not started:
                return
            await settle(kernel_manager, started)

    kernel_manager.fill_if_needed = fill_if_needed


def _fill_some(kernel_manager: Any, fill: Callable[..., None], name: str | None, most: int, kwargs: dict[str, Any]) -> list[Any]:
    """Start up to `most` of the kernels `name`'s pool lacks, through Voila's own `fill`
    (shown a pool `most` larger than now for the call); the pool's new entries (Voila keeps
    them in `_pools`, the pending kernels a page takes in order)."""
    config = kernel_manager.kernel_pools_config
    default = config.get("default", {})
    own = config.get(name)
    size = int((own or default).get("pool_size", default.get("pool_size", 1)))
    pool = kernel_manager._pools.get(name, [])
    before = len(pool)
    if size <= before or most <= 0:
        return []
    config[name] = {**(own or default), "pool_size": before + min(most, size - before)}
    try:
        fill(delay=0, notebook_name=name, **kwargs)
    finally:
        if own is None:
            config.pop(name, None)
        else:
            config[name] = own
    return list(kernel_manager._pools.get(name, [])[before:])


#: a step's kernels have settled when together they use less than this share of a core.
SETTLED_SHARE = 0.1
#: longest a refill step waits for its kernels to settle.
STEP_MOST_SECONDS = 15.0


async def kernels_settled(
    kernel_manager: Any,
    started: list[Any],
    most: float = STEP_MOST_SECONDS,
    window: float = 0.5,
    used: Callable[[list[int]], float] = cpu_seconds,
) -> None:
    """Return once the kernels of `started` (Voila's pool entries) have started and gone quiet:
    a ready kernel has imported the dashboards and waits for its page. At most `most` seconds.
    `used(pids)`: the processor seconds the kernels' processes have used so far."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + most
    await asyncio.wait(started, timeout=most)  # never cancels them: they are the pool's
    pids = []
    for entry in started:
        try:
            pids.append(int(kernel_manager.get_kernel(entry.result()["kernel_id"]).provisioner.pid))
        except Exception:
            continue
    if not pids:
        return
    last = used(pids)
    while loop.time() < deadline:
        await asyncio.sleep(window)
        now = used(pids)
        if now - last < SETTLED_SHARE * window:
            return
        last = now


def ready_for_tables(kernel_manager: Any, look: Callable[[], Mapping[str, int]], most: int, class_floor: int = 5) -> Callable[[], Any]:
    """Keep a game page's ready kernels at what waits on it (`look()`: notebook -> kernels,
    `playbook.serve.pages_waiting`: the seats no device holds yet, a third of a class of that
    game), at most `most`, never fewer than the pool it started with; and the class page's at
    the students its open classes still expect (`look()["class.ipynb"]`; as started while no
    class is open), never fewer than `class_floor`. The returned coroutine function takes one look.

    A teacher starts the server, then prepares the tables and hands out their slips: by the
    time the class opens them together, a kernel is ready for each. Once a class has arrived,
    only a few of the class page's kernels are made up again (a late student, the board on
    another screen): thirty more would only take the machine from the class playing. Kernels are
    added through the kernel manager's own `fill_if_needed` (made up once the arrivals pause,
    a core's worth at a time, `refill_when_quiet`); a smaller pool is simply not made up again.
    """
    config = kernel_manager.kernel_pools_config
    least = {name: int(value.get("pool_size", 0)) for name, value in config.items() if name != "default"}
    started = int(config.get(CLASS_PAGE, {}).get("pool_size", 0))
    if CLASS_PAGE in least:  # the class page: as many as its classes still expect
        least[CLASS_PAGE] = min(started, class_floor)

    async def once() -> None:
        try:
            waiting = await asyncio.get_running_loop().run_in_executor(None, look)
        except Exception as error:
            kernel_manager.log.warning("playbook: the saved tables could not be read for the ready kernels: %s", error)
            return
        for name, floor in least.items():
            wanted = waiting.get(name)
            size = started if name == CLASS_PAGE and wanted is None else max(floor, min(most, int(wanted or 0)))
            now = int(config.get(name, {}).get("pool_size", 0))
            if size != now:
                config[name] = {**config.get(name, {}), "pool_size": size}
                if size > now:
                    kernel_manager.fill_if_needed(notebook_name=name)

    return once


class PlaybookVoila(Voila):
    """Voila, plus the short join addresses, compressed responses, the template's files kept by
    the browser, ready kernels made up after a burst and (`playbook serve`) ready kernels that
    follow the tables saved for the lesson."""

    follow_tables = Bool(False, config=True, help="Keep a game page's ready kernels at the seats of the saved tables waiting on it (playbook serve).")
    max_pages = Int(0, config=True, help="Most kernels (pages, ready kernels included) the server holds; 0: what the free memory holds (playbook.budget).")
    page_gone_seconds = Float(pages.GONE_SECONDS, config=True, help="Seconds a device may ask for nothing while its page without a key loads, before that page's kernel is ended.")
    refill_quiet_seconds = Float(REFILL_QUIET_SECONDS, config=True, help="Seconds without a page taking a ready kernel before the ready kernels are made up again (the phone benchmark shortens it to time one page at a time).")

    def init_settings(self) -> Any:
        settings = super().init_settings()
        # A page is about 5 MB of scripts and styles; 30 phones on a classroom's Wi-Fi fetch it
        # at once. Compressed it is about a quarter of that (`tornado.web.Application` takes
        # its output transforms from this setting). Every answer also says what it may load
        # and sends no address on (playbook.headers: Jupyter's handlers read "headers", the
        # transform covers the rest), and access lines leave the addresses' keys out.
        settings["transforms"] = [SecurityHeaders, SeenClients, CachedGzip]
        settings["headers"] = {**SECURITY_HEADERS, **settings.get("headers", {})}
        settings["log_function"] = log_request
        budget = self.page_budget()
        settings["playbook_budget"] = SeenClients.budget = budget
        settings["playbook_shows_key"] = lambda notebook, query: pages.shows_key(self.store(), notebook, query)
        settings["playbook_store"] = self.store  # a page's language may be its class's (playbook.languages)
        compile_templates_once()
        # traitlets leaves the logger at DEBUG and filters in its handler: every message a
        # kernel sends was made into two debug records, then dropped (0.2 CPU-seconds a page).
        self.log.setLevel(self.log_level)
        # The server's own notebooks are not signed on the teacher's machine: every page and ready
        # kernel said "Notebook class.ipynb is not trusted" (41 lines at the start of a class of
        # 30). Trust decides only whether saved outputs run in a browser; Voila hides them and
        # runs the notebook afresh, so the warning says nothing a teacher can act on.
        self.log.addFilter(lambda record: record.msg != "Notebook %s is not trusted")
        # Access lines, warnings and tracebacks without the keys of their addresses.
        keep_keys_out_of_logs([self.log])
        if hasattr(self.kernel_manager, "fill_if_needed"):  # kernels are kept ready
            refill_when_quiet(self.kernel_manager, quiet=self.refill_quiet_seconds, room=lambda: budget.max_pages - budget.kernels())
            if self.follow_tables:
                from playbook.serve import MAX_CLASS_READY, MAX_PREHEAT, pages_waiting

                look = ready_for_tables(self.kernel_manager, lambda: pages_waiting(self.store()), MAX_CLASS_READY, MAX_PREHEAT)
                PeriodicCallback(lambda: asyncio.ensure_future(look()), FOLLOW_SECONDS * 1000).start()
        return settings

    def setup_template_dirs(self) -> None:
        super().setup_template_dirs()
        # Voila's scripts under an address that names their version (VoilaFiles); set here, as
        # the ready kernels' pages take the hook when the kernel manager is made, before settings.
        VoilaFiles.version = files_version(list(self.static_paths))
        self.voila_configuration.page_config_hook = versioned_static(self.voila_configuration.page_config_hook)

    def store(self) -> Any:
        """The server's one store (opened at the first look: a PostgreSQL store holds a pool)."""
        if getattr(self, "_store", None) is None:
            from playbook.store import Store

            self._store = Store()
        return self._store

    def page_budget(self) -> pages.PageBudget:
        """The server's page budget (`max_pages`, else what the free memory holds), watching
        the kernel manager's kernels."""
        manager = self.kernel_manager
        config = getattr(manager, "kernel_pools_config", {})
        ready = sum(int(pool.get("pool_size", 0)) for name, pool in config.items() if name != "default")
        most = self.max_pages or pages.default_max_pages(ready, 0, pages.available_megabytes())
        pools = getattr(manager, "_pools", {})
        budget = pages.PageBudget(most, kernels=lambda: len(manager.list_kernel_ids()), ready=lambda notebook: bool(pools.get(notebook)), gone_seconds=self.page_gone_seconds)
        watch_pages(manager, budget)
        self.log.info("Pages at once: at most %d kernels", most)
        return budget

    def init_handlers(self) -> list[Any]:
        page = url_path_join(self.server_url, "voila/render", CLASS_PAGE)
        short = (url_path_join(self.server_url, r"/j/?([A-Za-z0-9-]*)/?"), RoomDoor, {"page": page, "wrong_codes": WrongCodes.from_environment(), "store": self.store})
        # A kernel's endpoints answer only the page it was given to (playbook.doors).
        doors = {TornadoVoilaHandler: BudgetedPage, KernelHandler: OwnKernel, VoilaShutdownKernelHandler: OwnShutdown}
        ours = {VoilaKernelWebsocketHandler: KernelSocket, TemplateStaticFileHandler: TemplateFiles, MultiStaticFileHandler: VoilaFiles, FileFindHandler: ExtensionFiles, **doors}
        handlers = [(url, ours.get(handler, handler), *rest) for url, handler, *rest in super().init_handlers()]
        for theirs, mine in ours.items():
            if not any(handler is mine for _url, handler, *_rest in handlers):
                raise RuntimeError(f"Voila no longer serves with {theirs.__name__}: {mine.__name__} is not used")
        return [short, *handlers]


def main() -> None:
    # The ready kernels' pools are a dict of dicts, which traitlets reads only from one JSON
    # option (its key=value form makes each pool a string) and warns that form is deprecated:
    # a line of noise in the teacher's terminal.
    warnings.filterwarnings("ignore", message=r"--.*kernel_pools_config=.* is deprecated", category=DeprecationWarning)
    PlaybookVoila.launch_instance()


if __name__ == "__main__":
    main()
