"""The server's doors: a page's kernel answers only that page, and wrong room codes are slowed.

- **A kernel is its page's.** When Voila renders a page and gives it a kernel (a ready one or
  one started for it), the answer sets a cookie of that kernel (`pb-k-` and the kernel id's
  first 8 characters = an HMAC of the id under a secret the server draws at start; HttpOnly,
  SameSite=Strict, on the server's path). The kernel's endpoints a browser can reach under
  Voila 0.5 (`/api/kernels/<id>`: its model and DELETE; `/voila/api/shutdown/<id>`, which the
  page posts when it is closed; the socket `/api/kernels/<id>/channels`) answer only a request
  that carries it: anything else gets a 403, whatever XSRF cookie and header it made up. Voila
  routes no interrupt or restart, nor a list of kernels. A cookie whose kernel is gone is
  cleared when the page is closed or the next page is opened.
- **Room codes** (`RoomDoor`, `/j/CODE` and `/j?code=CODE`): the server looks the code up in
  the table store before redirecting to the class page. A live code opens at once; a wrong one
  gets a light page in plain words, and each client's wrong codes are counted (`WrongCodes`):
  past a few a minute each further wrong one is answered only after a growing wait.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import html
import logging
import math
import os
import re
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from jupyter_core.utils import ensure_async
from jupyter_server.services.kernels.handlers import KernelHandler
from tornado import web
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.tornado.handler import TornadoVoilaHandler

import i18n
from i18n import _
from playbook.budget import client_of as budget_client
from playbook.classes import clean_code
from playbook.links import class_query

__all__ = [
    "OWNER_COOKIE_PREFIX",
    "KernelOwners",
    "OwnKernel",
    "OwnPage",
    "OwnShutdown",
    "RoomDoor",
    "WrongCodes",
    "client_of",
    "refuse_unless_owner",
    "turned_away",
    "wrong_code_page",
]

OWNER_COOKIE_PREFIX = "pb-k-"
#: the page's `<html lang="..">` as Voila's template writes it (the language it was drawn in).
_HTML_LANG = re.compile(r'<html lang="[^"]*"')
#: the application setting that holds the server's `KernelOwners`.
OWNERS_SETTING = "playbook_kernel_owners"
#: how long a browser keeps a kernel's cookie (a page open longer reloads on its next reconnect).
OWNER_COOKIE_SECONDS = 24 * 3600


class KernelOwners:
    """The cookies that say which browser a kernel's page was given to."""

    def __init__(self, secret: bytes | None = None) -> None:
        self._secret = secret if secret is not None else secrets.token_bytes(32)

    @staticmethod
    def name(kernel_id: str) -> str:
        return OWNER_COOKIE_PREFIX + kernel_id[:8]

    def value(self, kernel_id: str) -> str:
        digest = hmac.new(self._secret, kernel_id.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    def owns(self, handler: web.RequestHandler, kernel_id: str) -> bool:
        given = handler.get_cookie(self.name(kernel_id))
        return given is not None and hmac.compare_digest(given.encode(), self.value(kernel_id).encode())

    def give(self, handler: web.RequestHandler, kernel_id: str) -> None:
        handler.set_cookie(self.name(kernel_id), self.value(kernel_id), path=_path(handler), max_age=OWNER_COOKIE_SECONDS, httponly=True, samesite="Strict")

    def forget(self, handler: web.RequestHandler, kernel_id: str) -> None:
        handler.clear_cookie(self.name(kernel_id), path=_path(handler))

    def forget_gone(self, handler: web.RequestHandler, live: set[str]) -> None:
        """Clear the request's kernel cookies that name no live kernel (a browser keeps a
        handful, not one for every page it ever opened)."""
        prefixes = {kernel_id[:8] for kernel_id in live}
        for name in handler.request.cookies:
            if name.startswith(OWNER_COOKIE_PREFIX) and name[len(OWNER_COOKIE_PREFIX) :] not in prefixes:
                handler.clear_cookie(name, path=_path(handler))


def _path(handler: web.RequestHandler) -> str:
    return str(handler.settings.get("base_url") or "/")


def owners_of(handler: web.RequestHandler) -> KernelOwners:
    """The server's `KernelOwners` (made at the first request if the application has none)."""
    owners = handler.application.settings.get(OWNERS_SETTING)
    if owners is None:
        owners = handler.application.settings[OWNERS_SETTING] = KernelOwners()
    return owners


def refuse_unless_owner(handler: web.RequestHandler, kernel_id: str) -> None:
    """403 (a line in the access log, no traceback) unless the request carries the cookie of
    `kernel_id`'s page."""
    if not owners_of(handler).owns(handler, kernel_id):
        raise web.HTTPError(403, reason="not this page's kernel")


def turned_away(handler: web.RequestHandler, kernel_id: str) -> bool:
    """For a socket (whose handler has no error page): answer 403 unless the request carries
    the cookie of `kernel_id`'s page, and say whether it did."""
    if owners_of(handler).owns(handler, kernel_id):
        return False
    handler.set_status(403, "not this page's kernel")
    handler.finish()
    return True


class _GivingKernels:
    """The kernel manager as one page's handler sees it: the kernel it starts or takes from
    the ready ones is given to the page's browser (its cookie set before the first byte)."""

    def __init__(self, manager: Any, handler: OwnPage) -> None:
        self._manager = manager
        self._handler = handler

    def __getattr__(self, name: str) -> Any:
        return getattr(self._manager, name)

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        kernel_id = await ensure_async(self._manager.start_kernel(*args, **kwargs))
        self._handler.given(kernel_id)
        return str(kernel_id)

    async def get_rendered_notebook(self, *args: Any, **kwargs: Any) -> Any:
        rendered = await self._manager.get_rendered_notebook(*args, **kwargs)
        self._handler.given(rendered[2])  # (render task, rendered cells, kernel id)
        return rendered


class OwnPage(TornadoVoilaHandler):
    """Voila's page, whose answer gives the page's browser the cookie of its kernel, in the
    page's language (`playbook.languages`): the kernel hears it in a request header, and the
    page's `<html>` says it (a ready kernel's page was drawn before anyone asked for it)."""

    #: the page's language, once `get` has decided it.
    language: str = ""

    async def get(self, path: str | None = None) -> None:
        from playbook.languages import LANG_HEADER

        self.language = await self.decide_language(path)
        self.request.headers[LANG_HEADER] = self.language  # whatever the browser sent under that name
        self._page_path = self.notebook_path or path or ""
        self._head: list[str] | None = []
        await super().get(path)

    async def decide_language(self, path: str | None = None) -> str:
        """The language this request's page speaks (`playbook.languages.page_language`): the
        page itself, or the light page a server turns it away with (the room is full)."""
        from playbook.languages import LANG_COOKIE, chosen_language, page_language, server_language

        notebook = self.notebook_path or path or ""
        query = self.request.query
        store = self.settings.get("playbook_store")

        def chosen() -> str:
            return chosen_language(store(), notebook, query) if store is not None else ""

        def decide() -> str:
            return page_language(self.get_cookie(LANG_COOKIE), chosen, server_language(), self.request.headers.get("Accept-Language"))

        return await asyncio.get_running_loop().run_in_executor(None, decide)

    def write(self, chunk: str | bytes | dict[str, Any]) -> None:
        # The page's start is held until its head has come as far as its tab's title (after the
        # charset; Jinja sends `<html lang="`, the language and `">` as pieces), then said in the
        # page's language.
        head = getattr(self, "_head", None)
        if head is None or not isinstance(chunk, str):
            self._said_head()
            super().write(chunk)
            return
        head.append(chunk)
        so_far = "".join(head)
        if "</title>" in so_far or len(so_far) > 65536:
            self._said_head()

    def _said_head(self) -> None:
        head = getattr(self, "_head", None)
        if not head:
            self._head = None
            return
        import i18n
        from playbook.page_texts import head_in, script_block

        self._head = None
        text = _HTML_LANG.sub(f'<html lang="{html.escape(self.language)}" dir="{i18n.direction(self.language)}"', "".join(head), count=1)
        # The tab's title in the page's language (a ready kernel's page was drawn in English).
        text, title = head_in(text, self.language)
        # The header's and the scripts' words (the header's title too), and the notebook's prose
        # (prose.js), before any script of the page runs (and after its charset, which a browser
        # looks for in the first kilobyte).
        charset = '<meta charset="utf-8" />'
        at = charset if charset in text else "<head>"
        super().write(text.replace(at, at + script_block(self.language, title, self._prose()), 1))

    def _prose(self) -> dict[str, str]:
        """The page's notebook's Markdown cells in the page's language (`playbook.prose`)."""
        from playbook.prose import cell_htmls

        written = str(getattr(self, "_page_path", "") or "")
        root = str(getattr(self.contents_manager, "root_dir", "") or "")
        if not written.endswith(".ipynb") or not root:
            return {}
        # Only a notebook of the served folder (an address is no way out of it, even on an error page).
        path = os.path.realpath(os.path.join(root, written.lstrip("/")))
        if os.path.commonpath([path, os.path.realpath(root)]) != os.path.realpath(root):
            return {}
        return cell_htmls(path, self.language)

    def finish(self, chunk: str | bytes | dict[str, Any] | None = None) -> Any:
        self._said_head()
        return super().finish(chunk)

    @property
    def kernel_manager(self) -> Any:
        return _GivingKernels(self.settings["kernel_manager"], self)

    def given(self, kernel_id: str) -> None:
        owners = owners_of(self)
        owners.forget_gone(self, set(self.settings["kernel_manager"].list_kernel_ids()))
        owners.give(self, kernel_id)


class OwnKernel(KernelHandler):
    """jupyter_server's `/api/kernels/<id>` (the kernel's model; DELETE), for its page only."""

    async def prepare(self) -> None:  # type: ignore[override]
        await super().prepare()
        refuse_unless_owner(self, self.path_kwargs.get("kernel_id") or self.path_args[0])


class OwnShutdown(VoilaShutdownKernelHandler):
    """Voila's `/voila/api/shutdown/<id>` (a page closed), for its page only; the page's
    cookie is cleared, and a kernel already gone (culled) is a quiet 404."""

    async def prepare(self) -> None:
        await super().prepare()
        refuse_unless_owner(self, self.path_args[0] if self.path_args else "")

    @web.authenticated
    async def post(self, kernel_id: str) -> None:
        owners_of(self).forget(self, kernel_id)
        if kernel_id not in self.kernel_manager:
            raise web.HTTPError(404, reason="no such kernel")
        await ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))
        self.set_status(204)
        self.finish()


# -- room codes ------------------------------------------------------------------------------------


def _number(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


@dataclass
class _Client:
    wrong: deque[float] = field(default_factory=deque)
    #: the client's codes being looked up or waiting for their answer now.
    asking: int = 0


class WrongCodes:
    """Each client's wrong room codes: up to `free` in `window` seconds are answered at once;
    each further one waits `first` seconds, doubled for every one after, at most `most`.
    A client so slowed may have `at_once` codes under way; one more is refused at once (its
    code not even looked at: many at once would be many guesses in one wait). A client is
    forgotten `forget` seconds after its last wrong code, and at most `size` are kept (the
    longest quiet go first)."""

    def __init__(
        self,
        free: int = 5,
        window: float = 60.0,
        first: float = 1.0,
        most: float = 10.0,
        at_once: int = 4,
        forget: float = 600.0,
        size: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.free, self.window, self.first, self.most = free, window, first, most
        self.at_once, self.forget, self.size, self.clock = at_once, forget, size, clock
        self._clients: OrderedDict[str, _Client] = OrderedDict()

    @classmethod
    def from_environment(cls) -> WrongCodes:
        """As set by PLAYBOOK_CODE_FREE, PLAYBOOK_CODE_FIRST_WAIT and PLAYBOOK_CODE_MOST_WAIT
        (the tests make the waits short)."""
        return cls(
            free=int(_number("PLAYBOOK_CODE_FREE", 5)),
            first=_number("PLAYBOOK_CODE_FIRST_WAIT", 1.0),
            most=_number("PLAYBOOK_CODE_MOST_WAIT", 10.0),
        )

    def __len__(self) -> int:
        return len(self._clients)

    def _client(self, client: str, create: bool) -> _Client | None:
        now = self.clock()
        while self._clients:  # the quietest first: forget those past `forget`
            oldest_name, oldest = next(iter(self._clients.items()))
            if oldest.asking or (oldest.wrong and now - oldest.wrong[-1] < self.forget):
                break
            del self._clients[oldest_name]
        found = self._clients.get(client)
        if found is None and create:
            while len(self._clients) >= self.size:
                self._clients.popitem(last=False)
            found = self._clients[client] = _Client()
        return found

    def recent(self, client: str) -> int:
        """The client's wrong codes in the last `window` seconds."""
        found = self._client(client, create=False)
        if found is None:
            return 0
        now = self.clock()
        return sum(1 for at in found.wrong if now - at < self.window)

    def busy(self, client: str) -> bool:
        """Whether the client is slowed and already has `at_once` codes under way."""
        found = self._client(client, create=False)
        return found is not None and found.asking >= self.at_once and self.recent(client) >= self.free

    def wrong(self, client: str) -> float:
        """Count a wrong code of `client`; the seconds its answer waits."""
        found = self._client(client, create=True)
        assert found is not None
        now = self.clock()
        found.wrong.append(now)
        while found.wrong and now - found.wrong[0] >= self.window:
            found.wrong.popleft()
        while len(found.wrong) > 4 * self.free + 64:  # bounded, whatever the window
            found.wrong.popleft()
        self._clients.move_to_end(client)
        over = len(found.wrong) - self.free
        return 0.0 if over <= 0 else min(self.most, self.first * 2 ** min(over - 1, 30))

    @contextlib.contextmanager
    def asking(self, client: str) -> Iterator[None]:
        """While one of `client`'s codes is looked up and answered."""
        found = self._client(client, create=True)
        assert found is not None
        found.asking += 1
        try:
            yield
        finally:
            found.asking -= 1


def client_of(request: Any) -> str:
    """Who asks: the request's peer, or behind nginx on this machine the address nginx says
    (`playbook.budget.client_of`, as the page budget counts them)."""
    return budget_client(str(request.remote_ip or ""), request.headers)


def _code_in(store: Callable[[], Any]) -> Callable[[str], bool]:
    """Whether a code is a class's room code in `store()` (the server's table store)."""
    from playbook.classes import class_by_code

    return lambda code: class_by_code(store(), code) is not None


WRONG_PAGE = """<!DOCTYPE html>
<html lang="{lang}" dir="{dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>body{{font:18px/1.5 system-ui,sans-serif;max-width:34em;margin:2em auto;padding:0 1em}}
input,button{{font:inherit;padding:.3em .5em}}</style></head>
<body><main class="playbook-wrong-code">
<h1>{title}</h1>
<p>{text}</p>
<form method="get" action="{action}"><label>{label} <input name="code" autocomplete="off" autocapitalize="characters" placeholder="{placeholder}" required></label>
<button type="submit">{join}</button></form>
</main></body></html>
"""

def not_found_text() -> str:
    return _("That room code is not one of this server's classes. Check the code on the board and type it again; after several wrong codes each try waits a few seconds.")


def busy_text() -> str:
    return _("This device has sent several wrong room codes at once. Wait a few seconds, check the code on the board and type it again.")


class RoomDoor(web.RequestHandler):
    """`/j` and `/j/CODE` (or `/j?code=CODE`, the form of the page for a wrong code): a live
    code to the class page at once; no code to the class page, which asks for one; a wrong
    code to a light page that says so, slowed per client (`WrongCodes`). `store()`: the
    server's table store."""

    def initialize(self, page: str, wrong_codes: WrongCodes, store: Callable[[], Any]) -> None:
        self.page = page
        self.wrong_codes = wrong_codes
        self.live = _code_in(store)

    async def get(self, code: str = "") -> None:
        code = clean_code(code or self.get_argument("code", ""))
        if not code:
            self.redirect(self.page)
            return
        client = client_of(self.request)
        if self.wrong_codes.busy(client):
            self.wrong_codes.wrong(client)
            self._answer(429, busy_text, self.wrong_codes.most)
            return
        with self.wrong_codes.asking(client):
            try:
                live = await asyncio.get_running_loop().run_in_executor(None, self.live, code)
            except Exception as error:  # the store cannot be read: the class page says what it finds
                logging.getLogger("tornado.application").warning("playbook: a room code could not be looked up: %s", error)
                live = True
            if live:
                self.redirect(self.page + class_query(code))
                return
            wait = self.wrong_codes.wrong(client)
            if wait > 0:
                await asyncio.sleep(wait)  # this client's answer only: the server goes on meanwhile
            self._answer(404, not_found_text, wait)

    def _answer(self, status: int, text: Callable[[], str], wait: float) -> None:
        """The light page for a wrong code, in the device's language (no class is known)."""
        self.set_status(status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Playbook-Wrong-Codes", str(self.wrong_codes.recent(client_of(self.request))))
        if wait > 0:
            self.set_header("Retry-After", str(math.ceil(wait)))
        base = str(self.settings.get("base_url") or "/")
        from playbook.languages import LANG_COOKIE, page_language, server_language

        lang = page_language(self.get_cookie(LANG_COOKIE), "", server_language(), self.request.headers.get("Accept-Language"))
        self.finish(wrong_code_page(lang, text, base))


def wrong_code_page(lang: str, text: Callable[[], str], base: str = "/") -> str:
    """The light page for a wrong room code in `lang`, saying `text()`; its form asks again at
    `base`'s `/j`."""
    with i18n.speaking(lang):
        return WRONG_PAGE.format(
            lang=html.escape(lang),
            dir=i18n.direction(lang),
            title=html.escape(_("Room code not found")),
            text=html.escape(text(), quote=False),
            action=html.escape(base.rstrip("/") + "/j"),
            # TRANSLATORS: the label of the box a student types the class's room code in.
            label=html.escape(_("Room code")),
            placeholder=html.escape(_("e.g. {code}", code="K7QM2P")),
            # TRANSLATORS: a button: join the class whose room code was typed.
            join=html.escape(_("Join")),
        )
