"""Which language a page speaks, and who chose it.

In the order they win:
1. the device's own choice: the `pb-lang` cookie a phone's language menu sets (the join page, a
   seat's header), kept for that device only;
2. the class's or the table's language, chosen by the facilitator when starting it (the front
   page's form, `playbook class new --lang`, `playbook table new --lang`; stored in the class's
   record and the table's meta: an old class or table without one has none);
3. the server's default, `playbook serve --lang` (the `PLAYBOOK_LANG` setting of its process);
4. the browser's `Accept-Language` (`i18n.choose`), else English.

The server decides when it serves a page (`playbook.doors.OwnPage`): it sets the page's
`<html lang dir>`, and hands the language to the page's kernel as the request header
`X-Playbook-Lang` (Voila puts the headers it is told of into the kernel's environment, a ready
kernel's too), which `widgets.address.page_query` then speaks (`i18n.use`).
"""

from __future__ import annotations

import os
import urllib.parse
from collections.abc import Callable, Mapping
from typing import Any

import i18n

__all__ = [
    "KERNEL_ENV",
    "LANG_COOKIE",
    "LANG_ENV",
    "LANG_HEADER",
    "chosen_language",
    "offered",
    "page_language",
    "server_language",
]

#: the cookie a device's language menu sets (readable by the page's script, which sets it).
LANG_COOKIE = "pb-lang"
#: the server's default language (`playbook serve --lang`), in the server's environment.
LANG_ENV = "PLAYBOOK_LANG"
#: the request header that carries the page's language to its kernel.
LANG_HEADER = "X-Playbook-Lang"
#: the same header as Voila puts it in the kernel's environment (RFC 3875's HTTP_ names).
KERNEL_ENV = "HTTP_X_PLAYBOOK_LANG"


def offered(lang: str | None) -> str:
    """`lang` when it is a shipped language (or the pseudo-language the tests read), else ""."""
    if not lang:
        return ""
    lang = lang.strip()
    return lang if lang in i18n.LANGUAGES or lang == i18n.PSEUDO else ""


def server_language(environ: Mapping[str, str] | None = None) -> str:
    """The server's default language (`playbook serve --lang`), or "" when none was given."""
    return offered((os.environ if environ is None else environ).get(LANG_ENV, ""))


def chosen_language(store: Any, notebook: str, query: str) -> str:
    """The language the facilitator chose for the class or table the page `notebook?query`
    opens, or "" (none chosen, no such class or table, or a store that cannot answer). The
    language is no secret: a room code or a table's id is enough to read it."""
    from .links import CLASS_PAGE

    params = urllib.parse.parse_qs(query.lstrip("?"))
    try:
        if notebook.endswith(CLASS_PAGE):
            from .classes import class_by_code, clean_code

            code = clean_code((params.get("code") or [""])[0])
            record = class_by_code(store, code) if code else None
            return offered(record.lang) if record is not None else ""
        table = (params.get("table") or [""])[0]
        return offered(str(store.info(table).meta.get("lang") or "")) if table else ""
    except Exception:  # a store that cannot answer, a table that is not there: nothing chosen
        return ""


def page_language(device: str | None, chosen: str | Callable[[], str], server: str, accept_language: str | None) -> str:
    """The page's language: the device's own choice, else the class's or table's (`chosen`, or
    a function that looks it up, called only when needed), else the server's default, else
    the browser's `Accept-Language`."""
    own = offered(device)
    if own:
        return own
    theirs = offered(chosen() if callable(chosen) else chosen)
    if theirs:
        return theirs
    return offered(server) or i18n.choose(accept_language)
