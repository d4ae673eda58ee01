"""A phone without a browser, for measuring the server's part when a class arrives at once.

A headless Chromium page costs 2.5-3.5 CPU-seconds to draw a dashboard. Thirty of them on the
server's own two cores need 80 CPU-seconds or more, so a join storm of browser pages measures
the simulated phones, not the server; in a classroom every phone draws on its own processor.
`LightPhone` asks the server for everything a phone's browser asks for (the page, the same
scripts and styles, compressed; the kernel's websocket, the widgets' state, a name typed, a
button pressed, the heartbeat every 4 s) and keeps the widgets' state as the browser would, but
draws nothing. What it times is the server's part; a page's own drawing time is measured
apart, on one phone alone (`benchmarks.arrival`).
"""

from __future__ import annotations

import asyncio
import datetime
import json
import re
import secrets
import time
import uuid
from collections.abc import Callable, Iterable
from http.cookies import SimpleCookie
from typing import Any

from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1, serialize_msg_to_ws_v1
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

__all__ = ["LightPhone"]

#: the websocket protocol JupyterLab's kernel connection asks for.
PROTOCOL = "v1.kernel.websocket.jupyter.org"
#: a browser's connections to one host at a time (HTTP/1.1).
CONNECTIONS = 6
#: how often the page's own script presses the hidden heartbeat (templates/.../index.html.j2).
BEAT_SECONDS = 4.0


class LightPhone:
    """One phone's page: `open` it, then find widgets by their classes, type and press."""

    def __init__(self, assets: Iterable[str] = ()) -> None:
        #: the scripts and styles a browser fetched for this page (paths), fetched again here.
        self.assets = tuple(assets)
        #: the key this phone keeps for itself, as a browser's script makes it (`say_device`).
        self.device = secrets.token_urlsafe(16)
        self.models: dict[str, dict[str, Any]] = {}
        self.root: str | None = None
        self.served_s: float | None = None
        self._socket: Any = None
        self._session = uuid.uuid4().hex
        self._changed = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self._beating: asyncio.Task[None] | None = None
        self._http = AsyncHTTPClient(force_instance=True, max_clients=CONNECTIONS)

    # -- the page ------------------------------------------------------------------------------------
    async def open(self, url: str, timeout: float) -> None:
        """The page (its HTML to the end: the server's part of serving it), its files, then its
        kernel's widgets, as the page's script asks for them."""
        opened = time.monotonic()
        page = await self._http.fetch(HTTPRequest(url, headers={"Accept-Encoding": "gzip"}, request_timeout=timeout, follow_redirects=True))
        self.served_s = time.monotonic() - opened
        html = page.body.decode("utf-8", "replace")
        base = re.match(r"(https?://[^/]+)", page.effective_url).group(1)
        await asyncio.gather(*(self._http.fetch(HTTPRequest(base + path, headers={"Accept-Encoding": "gzip"}, request_timeout=timeout)) for path in self.assets))
        kernel = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', html)
        root = re.search(r'"model_id":\s*"([0-9a-f]{32})"', html)
        if kernel is None or root is None:
            raise RuntimeError("the page names no kernel or no widget")
        self.root = root.group(1)
        ws = base.replace("http", "ws", 1) + f"/api/kernels/{kernel.group(1)}/channels?session_id={self._session}"
        # The page's cookies, as a browser keeps them: its kernel's socket answers only the page
        # the kernel was given to (playbook.doors).
        cookies = SimpleCookie()
        for header in page.headers.get_list("Set-Cookie"):
            cookies.load(header)
        kept = "; ".join(f"{name}={morsel.value}" for name, morsel in cookies.items() if morsel.value)
        # The kernel protocol over the socket as JupyterLab's widgets speak it (binary frames).
        self._socket = await websocket_connect(HTTPRequest(ws, headers={"Cookie": kept} if kept else {}), max_message_size=64 * 1024 * 1024, subprotocols=[PROTOCOL])
        control = uuid.uuid4().hex
        snapshot: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read(control, snapshot))
        self._send("shell", "kernel_info_request", {})
        self._send("shell", "comm_open", {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}}, {"version": "1.0.0"})
        self._send("shell", "comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
        states = await asyncio.wait_for(snapshot, timeout)
        self.models = {model: entry["state"] for model, entry in states.items()}
        self._beating = asyncio.create_task(self._beat())

    async def close(self) -> None:
        for task in (self._beating, self._reader):
            if task is not None:
                task.cancel()
        if self._socket is not None:
            self._socket.close()
        self._http.close()

    # -- the widgets ---------------------------------------------------------------------------------
    def shown(self, css_class: str, where: str | None = None) -> list[str]:
        """The widgets with `css_class` a browser would show (reachable from the page's widget,
        none of their boxes hidden), inside a widget with class `where` if given."""
        return self._found(css_class, where, hidden=False)

    def say_device(self) -> None:
        """What the page's script (return-to-seat.js) does first: tell the page which device
        this is (a key of its own, made once per phone)."""
        for box in self.hidden("pb-device"):
            self.type(box, self.device)

    async def keep(self, timeout: float) -> None:
        """What the script does once a join asks it to (`data-keep` on the navigator): keep the
        student's link and say so. A join is final (the lobby says "You are in") only then."""
        self.say_device()
        navigator = lambda: "".join(str(self.models[m].get("value", "")) for m in self.hidden("pb-navigator"))  # noqa: E731
        asked = await self.wait_for(lambda: re.search(r'data-keep="([^"]+)"', navigator()), timeout)
        for box in self.hidden("pb-device"):
            self.type(box, f"{self.device} kept:{asked.group(1)}")

    def hidden(self, css_class: str) -> list[str]:
        """The widgets with `css_class`, hidden ones too (the page's machinery: its navigator,
        the box its script reports the device in)."""
        return self._found(css_class, None, hidden=True)

    def text(self, where: str | None) -> str:
        """What the shown widgets (inside a widget with class `where`, if given) say: their
        values, HTML as sent, in the page's order."""
        values = (self.models[model].get("value") for model in self._found(None, where, hidden=False))
        return "\n".join(value for value in values if isinstance(value, str))

    def _found(self, css_class: str | None, where: str | None, hidden: bool) -> list[str]:
        """The widgets with `css_class` (any, if None) in the page's order, hidden ones too if
        `hidden`."""
        found: list[str] = []

        def walk(model: str, inside: bool) -> None:
            state = self.models.get(model)
            if state is None or (not hidden and self._hidden(state)):
                return
            classes = state.get("_dom_classes") or ()
            inside = inside or where is None or where in classes
            if inside and (css_class is None or css_class in classes):
                found.append(model)
            for child in state.get("children") or ():
                walk(str(child).removeprefix("IPY_MODEL_"), inside)

        if self.root is not None:
            walk(self.root, False)
        return found

    def _hidden(self, state: dict[str, Any]) -> bool:
        layout = self.models.get(str(state.get("layout", "")).removeprefix("IPY_MODEL_"), {})
        return layout.get("display") == "none" or layout.get("visibility") == "hidden"

    async def wait_for(self, found: Callable[[], Any], timeout: float) -> Any:
        """The first true value of `found()`, asked again at every message from the kernel."""
        deadline = time.monotonic() + timeout
        while True:
            value = found()
            if value:
                return value
            self._changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("not on the page in time")
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except TimeoutError:
                pass

    def type(self, model: str, value: Any) -> None:
        self.models[model]["value"] = value
        self._send("shell", "comm_msg", {"comm_id": model, "data": {"method": "update", "state": {"value": value}, "buffer_paths": []}})

    def press(self, model: str) -> None:
        self._send("shell", "comm_msg", {"comm_id": model, "data": {"method": "custom", "content": {"event": "click"}}})

    # -- the kernel's channel --------------------------------------------------------------------
    def _send(self, channel: str, kind: str, content: dict[str, Any], metadata: dict[str, Any] | None = None) -> None:
        header = {"msg_id": uuid.uuid4().hex, "username": "phone", "session": self._session, "msg_type": kind, "version": "5.3", "date": datetime.datetime.now(datetime.UTC).isoformat()}
        message = {"header": header, "parent_header": {}, "metadata": metadata or {}, "content": content}
        self._socket.write_message(serialize_msg_to_ws_v1(message, channel, lambda part: json.dumps(part).encode()), binary=True)

    async def _read(self, control: str, snapshot: asyncio.Future[dict[str, Any]]) -> None:
        while True:
            frame = await self._socket.read_message()
            if frame is None:
                return
            _channel, parts = deserialize_msg_from_ws_v1(frame)
            header, content = json.loads(parts[0]), json.loads(parts[3])
            kind = header["msg_type"]
            data = content.get("data") or {}
            if kind == "comm_open" and content.get("target_name") == "jupyter.widget":
                self.models[content["comm_id"]] = dict(data.get("state") or {})
            elif kind == "comm_msg" and content.get("comm_id") == control and data.get("method") == "update_states":
                if not snapshot.done():
                    snapshot.set_result(data.get("states") or {})
            elif kind == "comm_msg" and data.get("method") in ("update", "echo_update"):
                self.models.setdefault(content["comm_id"], {}).update(data.get("state") or {})
            elif kind == "comm_close":
                self.models.pop(content.get("comm_id"), None)
            self._changed.set()

    async def _beat(self) -> None:
        """As the page's script: the first heartbeat button in the page's order (a seat page
        built inside a class page: the seat page's own, once it is there), pressed every few
        seconds."""
        while True:
            await asyncio.sleep(BEAT_SECONDS)
            beat = self._found("pb-heartbeat", None, hidden=True)
            if beat:
                self.press(beat[0])
