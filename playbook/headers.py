"""What the server says to every browser about its pages, and what it leaves out of its logs.

Every link of a lesson carries a key in its query string (`?table=..&seat=..&key=..`, the
facilitator's `?key=`, a class's `?code=`) or its path (`/j/CODE`). So:

- no page sends its address on: `Referrer-Policy: no-referrer`, else every script, style and
  socket a page asks for names the page's key to the server and any proxy's log, and a link
  followed to another site hands it over;
- a page runs only what its own server sent (`CONTENT_SECURITY_POLICY`) and no other site may
  frame it (a framed page can be clicked through by a page the player cannot see);
- no log line holds a query string's values or a room code (`keys_out`, `KeysOut`).

`playbook.voila_app.PlaybookVoila` puts these on every answer: Jupyter's handlers send
`SECURITY_HEADERS` from the application's `headers` setting; `SecurityHeaders` adds them to
every other answer (static files, redirects, tornado's own 404s).
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Iterable

from tornado import httputil, web

__all__ = ["CONTENT_SECURITY_POLICY", "SECURITY_HEADERS", "KeysOut", "SecurityHeaders", "keep_keys_out_of_logs", "keys_out", "log_request", "page_policy"]

#: Sources each kind of content may come from: the page's own server, and only the exceptions
#: the pages were seen to need in Chromium (docs/deploy.md says why each is there).
CSP_SOURCES: dict[str, str] = {
    "default-src": "'self'",
    # Scripts of the server's own files; a page's own lines of script (Voila's template runs one
    # per cell and one at its end) by the page's nonce (`SecurityHeaders`), nothing else inline.
    "script-src": "'self'",
    # The widget libraries add style elements and set `style` attributes on what they draw.
    "style-src": "'self' 'unsafe-inline'",
    # Voila's empty favicon, the icons its style sheets draw and the playbook's QR codes and
    # previews are data: images; plots are shown from blob: addresses the page makes.
    "img-src": "'self' data: blob:",
    # The kernel's websocket is the page's own origin ('self' covers ws: and wss: there).
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    # No page is meant to be framed: not by another site, not by the playbook itself.
    "frame-ancestors": "'none'",
}

CONTENT_SECURITY_POLICY = "; ".join(f"{name} {sources}" for name, sources in CSP_SOURCES.items())

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


def page_policy(nonce: str) -> str:
    """`CONTENT_SECURITY_POLICY` for a page whose own script elements carry `nonce`."""
    return "; ".join(f"{name} {sources}" + (f" 'nonce-{nonce}'" if name == "script-src" else "") for name, sources in CSP_SOURCES.items())


_SCRIPT_TAG = re.compile(rb"<script\b", re.IGNORECASE)


class SecurityHeaders(web.OutputTransform):
    """`SECURITY_HEADERS` on every answer that has not set its own (Jupyter's API answers send a
    stricter policy of their own, which stays), and on an HTML page a nonce for its own scripts.

    A page's HTML comes from the templates (Voila's and the playbook's); what a user typed
    reaches it escaped (`<` as `&lt;`), so every `<script` in it is the template's own and is
    given the nonce, one per answer, that the page's policy names: a script that got into the
    page by another way does not run.
    """

    def __init__(self, request: httputil.HTTPServerRequest) -> None:
        self._nonce: bytes | None = None
        #: the end of the last chunk, when it may be the start of a `<script` the next one ends.
        self._held = b""

    def transform_first_chunk(self, status_code: int, headers: httputil.HTTPHeaders, chunk: bytes, finishing: bool) -> tuple[int, httputil.HTTPHeaders, bytes]:
        for name, value in SECURITY_HEADERS.items():
            if name not in headers:
                headers[name] = value
        if headers.get("Content-Type", "").startswith("text/html") and "Content-Encoding" not in headers:
            nonce = secrets.token_urlsafe(18)
            self._nonce = nonce.encode()
            headers["Content-Security-Policy"] = page_policy(nonce)
            chunk = self.transform_chunk(chunk, finishing)
            if finishing:
                headers["Content-Length"] = str(len(chunk))
            else:
                headers.pop("Content-Length", None)
        return status_code, headers, chunk

    def transform_chunk(self, chunk: bytes, finishing: bool) -> bytes:
        if self._nonce is None:
            return chunk
        text, self._held = self._held + chunk, b""
        if not finishing:  # a `<scr` at the end waits for the rest of its tag
            for size in range(min(len(text), 6), 0, -1):
                if b"<script".startswith(text[-size:].lower()):
                    text, self._held = text[:-size], text[-size:]
                    break
        return _SCRIPT_TAG.sub(b'<script nonce="' + self._nonce + b'"', text)


#: a query string's values (`?key=SECRET&seat=1` -> `?key=…&seat=…`), where a URL ends at a space
#: or a quote (tornado writes a request's repr with its URI in quotes).
_QUERY_VALUE = re.compile(r"([?&][^=&#\s\"'<>]*=)[^&#\s\"'<>]+")
#: a room code in the class's short address (`/j/K7QM2P`).
_ROOM_CODE = re.compile(r"(/j/)[A-Za-z0-9-]+")


def keys_out(text: str) -> str:
    """`text` with every query value and room code replaced by `…`; the rest as it was."""
    return _ROOM_CODE.sub(r"\1…", _QUERY_VALUE.sub(r"\1…", text))


class KeysOut(logging.Filter):
    """Writes a record's message (and its traceback's text) without keys: tornado and Voila
    write a request's URI, query string and all, in their 404s, warnings and tracebacks."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit: its own handler says so
            return True
        record.msg, record.args = keys_out(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = keys_out(record.exc_text)
        return True


def log_request(handler: web.RequestHandler) -> None:
    """Tornado's access line (status, method, address, client, time) with the address's query
    values and room code left out; at tornado's levels (a 404 is a warning)."""
    status = handler.get_status()
    request = handler.request
    level = logging.INFO if status < 400 else logging.WARNING if status < 500 else logging.ERROR
    logging.getLogger("tornado.access").log(
        level, "%d %s %s (%s) %.2fms", status, request.method, keys_out(request.uri or ""), request.remote_ip, 1000.0 * request.request_time()
    )


def keep_keys_out_of_logs(loggers: Iterable[logging.Logger] = ()) -> KeysOut:
    """Put one `KeysOut` on tornado's loggers, and on every handler they, `loggers` (the
    server's own) and the root logger write through (Python's last-resort handler included):
    a record logged anywhere and passed up to them is cleaned there. On `loggers` themselves
    only through their handlers, which run last: a filter of their own that reads a record's
    message as logged (`record.msg`) still sees it so. Returns the filter."""
    keeper = KeysOut()
    tornados = [logging.getLogger(name) for name in ("tornado.access", "tornado.application", "tornado.general")]
    handlers = [*logging.getLogger().handlers, *([logging.lastResort] if logging.lastResort else [])]
    for logger in tornados:
        if not any(isinstance(each, KeysOut) for each in logger.filters):
            logger.addFilter(keeper)
    for logger in [*tornados, *loggers]:
        handlers += logger.handlers
    for handler in handlers:
        if not any(isinstance(each, KeysOut) for each in handler.filters):
            handler.addFilter(keeper)
    return keeper
