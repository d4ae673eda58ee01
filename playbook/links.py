"""Every address the playbook gives out: a table's links, a class's, the server's own page,
and the address other devices reach this server at.

A link is a page and a query string. Under a `base` (the server's address as phones reach it:
`http://10.0.0.5:8866`, or `https://school.example/playbook` behind a proxy) a link is whole, as
a QR code or a slip needs it. With base "" it is relative, for a link from one served page to
another: a table's links to the game's own page (`?table=..`), a class's and a page's
(`page("", notebook)`) to the served notebooks' folder (`class.ipynb?code=..`).

The keys a link holds are `playbook.access`'s; which page serves a game is on its card.
"""

from __future__ import annotations

import os
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from i18n import _
from rules.games import card

__all__ = [
    "CLASS_PAGE",
    "DEFAULT_PORT",
    "CommandLineBase",
    "class_links",
    "class_query",
    "command_line_address",
    "in_voila",
    "index_link",
    "local_link",
    "loopback_host",
    "page",
    "public_base",
    "query",
    "server_address",
    "table_links",
    "table_query",
]

DEFAULT_PORT = 8866
#: the page every phone of a class opens (`notebooks/class.ipynb`).
CLASS_PAGE = "class.ipynb"


def server_address(host: str, port: int | str = DEFAULT_PORT) -> str:
    """A server's address by host and port (`http://localhost:8866`)."""
    return f"http://{host}:{port}"


def page(base: str, notebook: str) -> str:
    """Where the server at `base` serves `notebook`; for base "", the notebook alone (a link
    from another of the served pages)."""
    return f"{base.rstrip('/')}/voila/render/{notebook}" if base else notebook


def query(**values: object) -> str:
    """`?name=value&...` of the values given, in order; None leaves its name out."""
    return "?" + urllib.parse.urlencode({name: value for name, value in values.items() if value is not None})


def table_query(table_id: str, **keys: object) -> str:
    """A table's query string: its id, then the keys that say who opens it (`seat`, `key`,
    `facilitator`, `board`, `join`)."""
    return query(table=table_id, **keys)


def class_query(code: str, **keys: object) -> str:
    """A class's query string: its room code, then who opens it (`board`, `monitor`, a
    student's `student` and `key`)."""
    return query(code=code, **keys)


def table_links(base: str, slug: str, table_id: str, meta: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """Every link of a table under `base` (the server's address, or "" for links relative to
    the game's page): `facilitator`, `board`, `join` and one `seats` entry per seat. Only a game
    that hides something (its card's `hides`) has join and seat links, and a board with a key."""
    game = card(slug)
    where = page(base, game.notebook) if base else ""
    links: dict[str, Any] = {
        "table": table_id,
        "game": slug,
        "facilitator": where + table_query(table_id, facilitator=meta.get("facilitator_key")),
    }
    if game.devices:
        keys = dict(meta.get("seat_keys") or {})
        links["board"] = where + table_query(table_id, board=meta.get("board_key"))
        links["join"] = where + table_query(table_id, join=meta.get("join_key"))
        links["seats"] = [
            {"seat": seat, "name": name, "url": where + table_query(table_id, seat=seat, key=keys.get(str(seat)))}
            for seat, name in enumerate(names)
        ]
    else:
        links["board"] = where + table_query(table_id)
        links["seats"] = []
    return links


class ClassKeys(Protocol):
    """What a class's links are made of (`playbook.classes.ClassRecord`)."""

    @property
    def code(self) -> str: ...
    @property
    def board_key(self) -> str: ...
    @property
    def monitor_key(self) -> str: ...


def class_links(base: str, record: ClassKeys) -> dict[str, str]:
    """A class's addresses under `base` (the server's address phones reach, or "" for links
    relative to the class page): the short join address, the board, the monitor."""
    where = page(base, CLASS_PAGE)
    return {
        "code": record.code,
        "join": f"{base.rstrip('/')}/j/{record.code}" if base else where + class_query(record.code),
        "board": where + class_query(record.code, board=record.board_key),
        "monitor": where + class_query(record.code, monitor=record.monitor_key),
    }


def index_link(base: str, key: str) -> str:
    """The index page that lists and resumes every table, with the server's key: what
    `playbook serve` prints for the facilitator."""
    return page(base, "index.ipynb") + query(key=key)


def in_voila() -> bool:
    """True in a kernel Voila started (it sets VOILA_PREHEAT for each), False in JupyterLab."""
    return "VOILA_PREHEAT" in os.environ


def public_base() -> str:
    """The address other devices reach this server at: `PLAYBOOK_URL` (set by `playbook
    serve`), else the host the page was asked for (Voila's SERVER_NAME and SERVER_PORT), else
    (a notebook in JupyterLab) the `playbook serve` running on this machine."""
    if os.environ.get("PLAYBOOK_URL"):
        return os.environ["PLAYBOOK_URL"].rstrip("/")
    if not in_voila():
        from .running import server_url

        return server_url() or server_address("localhost")
    return server_address(os.environ.get("SERVER_NAME", "localhost"), os.environ.get("SERVER_PORT", str(DEFAULT_PORT)))


def loopback_host(host: str) -> bool:
    """True for a host name only this machine reaches (localhost, 127.x, ::1)."""
    host = host.lower()
    return host in ("localhost", "::1") or host.startswith("127.")


def local_link(url: str) -> bool:
    """True for an address only this machine opens: no phone can."""
    return loopback_host(urllib.parse.urlsplit(url).hostname or "")


@dataclass(frozen=True)
class CommandLineBase:
    """The server's address in the links the command line prints, and where it came from."""

    base: str
    #: "--public-url", "PLAYBOOK_URL", "playbook serve" (the one running here) or "network"
    #: (this machine's address on the room's network, or localhost when it has none).
    source: str

    @property
    def local_only(self) -> bool:
        """No phone can open these links."""
        return local_link(self.base)

    def warning(self) -> str:
        """What to say on stderr when no phone can open the links, or ""."""
        if not self.local_only:
            return ""
        if self.source == "network":
            return _(
                "this machine has no network, so the links say {address}, which no phone can open: "
                "connect it to the room's network and make them again, or give --public-url (or PLAYBOOK_URL)",
                address=self.base,
            )
        if self.source == "playbook serve":
            return _("the playbook serve running here is for this machine only (--local), so the links say {address}, which no phone can open", address=self.base)
        return _("the links say {address} (from {source}), which no phone can open: only this machine can", address=self.base, source=self.source)


def command_line_address(url: str | None, network: Callable[[], str]) -> CommandLineBase:
    """The server's address in the links the command line prints: `url` (its `--public-url`),
    else `PLAYBOOK_URL`, else the `playbook serve` running on this machine, else `network()`:
    the address `playbook serve` would give phones here (the command line passes
    `playbook.serve.phone_address`'s: this machine's address on the room's network, localhost
    only when it has none)."""
    if url:
        return CommandLineBase(url.rstrip("/"), "--public-url")
    if os.environ.get("PLAYBOOK_URL"):
        return CommandLineBase(os.environ["PLAYBOOK_URL"].rstrip("/"), "PLAYBOOK_URL")
    from .running import server_url

    running = server_url()
    if running:
        return CommandLineBase(running, "playbook serve")
    return CommandLineBase(network().rstrip("/"), "network")
