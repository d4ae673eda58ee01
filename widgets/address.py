"""A page's address: the query its link gave it, a hint where no server opens its links, and a
link as a QR code (the links themselves are `playbook.links`').

A kernel Voila keeps ready before any page asks for it (`playbook serve --preheat`) waits in
`page_query` for its page's request.
"""

from __future__ import annotations

import functools
import json
import os

import i18n
from drawing.common import esc
from i18n import _
from playbook.languages import KERNEL_ENV
from playbook.links import in_voila
from playbook.pacing import release_turn

__all__ = ["page_query", "qr_svg", "serve_hint"]


def qr_svg(text: str, size: int = 220) -> str:
    """`text` as a QR code in inline SVG (ReportLab's pure-Python encoder; no image library),
    named in the page's language."""
    return _qr_svg(text, size, _("QR code"))


@functools.lru_cache(maxsize=32)
def _qr_svg(text: str, size: int, label: str) -> str:
    from reportlab.graphics.barcode import qrencoder

    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(text)
    code.make()
    count = code.getModuleCount()
    border = 4
    cells = "".join(
        f'<rect x="{c + border}" y="{r + border}" width="1" height="1"/>' for r in range(count) for c in range(count) if code.isDark(r, c)
    )
    span = count + 2 * border
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {span} {span}" width="{size}" height="{size}" '
        f'shape-rendering="crispEdges" role="img" aria-label="{esc(label)}"><rect width="{span}" height="{span}" fill="#fff"/>'
        f'<g fill="#000">{cells}</g></svg>'
    )


def serve_hint() -> str:
    """A line for a class card made outside Voila (JupyterLab) with no `playbook serve` to
    open its links, else ""."""
    if os.environ.get("PLAYBOOK_URL") or in_voila():
        return ""
    from playbook.running import server_url

    if server_url() is not None:
        return ""
    serve, command = "<code>playbook serve</code>", "<code>playbook serve --ip 0.0.0.0</code>"
    return (
        '<div class="pb-serve-hint"><b>'
        + _("These links open on {serve}, and none is running.", serve=serve)
        + "</b> "
        + _("Start it in a terminal ({command} for phones on the room's network), then the board, join and seat links below work.", command=command)
        + "</div>"
    )


_REQUEST_SEEN = False


def page_query() -> str:
    """The page's query string (Voila sets $QUERY_STRING for its page); from then on the
    kernel speaks the page's language (the server decided it: `playbook.languages`).

    A kernel Voila keeps ready before any page asks for it (`playbook serve --preheat`) waits
    here for its page's request first. `voila.utils` is imported only then: it brings a web
    server's worth of modules (about 45 MB) that a page's kernel does not otherwise need.
    """
    global _REQUEST_SEEN
    if os.environ.get("VOILA_PREHEAT", "False") == "True" and not _REQUEST_SEEN:
        release_turn()  # a ready kernel may wait long for its page: let the others build meanwhile
        try:
            _wait_for_page_request()
        except Exception:
            from voila.utils import wait_for_request

            wait_for_request()
        _REQUEST_SEEN = True
    speak_page_language()
    return os.environ.get("QUERY_STRING", "")


def speak_page_language() -> None:
    """This kernel speaks its page's language, when its server said one (a page outside
    `playbook serve` speaks as it did)."""
    lang = os.environ.get(KERNEL_ENV, "")
    if lang:
        i18n.use(lang)


def _wait_for_page_request() -> None:
    """Wait for the page a ready kernel is given, and take its request (its query string)
    into the environment, as `voila.utils.wait_for_request` does.

    Voila's helper imports a web server's worth of modules (about 45 MB in every ready kernel);
    this asks Voila's same socket for the same answer with the websockets client alone.
    """
    from websockets.sync.client import connect

    env = os.environ
    base = env.get("VOILA_WS_BASE_URL", env.get("VOILA_SERVER_URL", "/"))
    url = (
        f"{env.get('VOILA_WS_PROTOCOL', 'ws')}://{env.get('VOILA_APP_IP', '127.0.0.1')}:{env.get('VOILA_APP_PORT', '8866')}"
        f"{base}voila/query/{env['VOILA_KERNEL_ID']}"
    )
    with connect(url, open_timeout=5, max_size=None) as socket:
        info = socket.recv()
    for name, value in json.loads(info).items():
        os.environ[name] = str(value)
