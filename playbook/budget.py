"""The server's page budget: no more kernels than the machine holds, whoever asks.

Voila starts a kernel (a Python process of about 35 MB, the dashboards imported) for every page
it renders, before any key in the page's address is looked at. Any device on the room's network
could so fill the teacher's laptop: two scripted clients asking for the join page for a minute
started 110 kernels. So, before a page is rendered:

- a page that shows a key (a seat, the board, the facilitator, the class's monitor, a student's
  own link) opens while the server holds fewer than `max_pages` kernels;
- a page without one (the join page, a table's join link, a wrong key) only below
  `max_pages - reserve`, so the class's own devices always find room; and a client (one address)
  may have at most `per_client` of those still loading (their page has not connected yet);
- a page over the budget gets a light page that costs no kernel and tries again by itself.

A kernel whose page never connected goes once its client has asked for nothing for
`gone_seconds` (a script that fetched the page and left), while a slow phone still fetching the
page's files keeps its place. The laptop itself (127.0.0.1, ::1: the teacher's own browser, a
proxy on the laptop that does not say who it serves) has no per-client allowance and keeps the
server's longer wait for a first connection (`playbook.voila_app.PatientKernelManager`).

The budget decides on numbers it is given (`PageBudget`); `playbook.voila_app` asks it.
"""

from __future__ import annotations

import html
import random
import urllib.parse
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import i18n
from i18n import _, _n
from playbook.access import key_matches, resolve
from playbook.links import CLASS_PAGE
from rules.games import CARDS

if TYPE_CHECKING:
    from playbook.store import Store

__all__ = [
    "GONE_SECONDS",
    "KEEP_FREE_MEGABYTES",
    "LOOPBACK",
    "PAGE_MEGABYTES",
    "PER_CLIENT",
    "PageBudget",
    "available_megabytes",
    "client_of",
    "default_max_pages",
    "may_show_key",
    "room_full_page",
    "shows_key",
]

#: a page's kernel, the dashboards imported, and its share of the server (measured: 110 kernels
#: held 3.5 GB), with room for a game in play.
PAGE_MEGABYTES = 45
#: of the memory free when the server starts, what is left to the rest of the laptop.
KEEP_FREE_MEGABYTES = 1024
#: pages without a key one client may have loading at once: a phone opens one, a laptop a few.
PER_CLIENT = 4
#: seconds a client may ask for nothing while its page loads before that page's kernel goes.
GONE_SECONDS = 30.0
#: the addresses of the laptop the server runs on.
LOOPBACK = frozenset({"127.0.0.1", "::1"})


def available_megabytes(meminfo: str = "/proc/meminfo") -> int | None:
    """The memory the system could give (Linux's MemAvailable), or None where it is not known."""
    try:
        with open(meminfo, encoding="ascii") as lines:
            for line in lines:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def default_max_pages(ready_kernels: int, class_size: int, megabytes: int | None) -> int:
    """Kernels the server may hold: what the free memory holds at `PAGE_MEGABYTES` a page, but
    never fewer than the ready kernels and a page for each student and the teacher's three (a
    class the teacher asked for must fit; `playbook serve` says so when memory is short)."""
    least = ready_kernels + class_size + 3
    if megabytes is None:
        return max(least, 4 * least)
    return max(least, (megabytes - KEEP_FREE_MEGABYTES) // PAGE_MEGABYTES)


def client_of(remote_ip: str, headers: Mapping[str, str]) -> str:
    """Who asks: the connection's address; behind a proxy on the laptop (the connection from
    the loopback), the address the proxy says (`X-Real-IP`, as deploy/nginx sets it). Nobody
    else is believed: a client could name any address in a header."""
    if remote_ip in LOOPBACK:
        said = (headers.get("X-Real-IP") or "").strip()
        if said:
            return said
    return remote_ip


@dataclass
class _Loading:
    """A page rendered without a key whose browser has not connected to its kernel yet."""

    client: str
    at: float


@dataclass
class PageBudget:
    """How many kernels the server may hold and who may start one.

    `kernels()` counts the server's kernels (ready ones included); `ready(notebook)` says
    whether a ready kernel waits for that notebook (a page that takes one starts none now).
    """

    max_pages: int
    kernels: Callable[[], int]
    ready: Callable[[str], bool] = lambda notebook: False
    per_client: int = PER_CLIENT
    gone_seconds: float = GONE_SECONDS
    #: kernels kept for the class's own devices: pages without a key stop this far short.
    reserve: int = 0
    loading: dict[str, _Loading] = field(default_factory=dict)
    #: when each client last asked for anything (a page, a file, a socket).
    last_seen: dict[str, float] = field(default_factory=dict)
    #: light pages given, by reason (`admit`'s answers), for the server's own count.
    turned_away: dict[str, int] = field(default_factory=dict)
    #: pages admitted and still being rendered (their kernel not yet given), by client.
    rendering: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.reserve:
            self.reserve = max(3, self.max_pages // 10)

    def seen(self, client: str, now: float) -> None:
        self.last_seen[client] = now
        if len(self.last_seen) > 4096:  # forget the longest quiet (a room has far fewer)
            for old in sorted(self.last_seen, key=self.last_seen.__getitem__)[:1024]:
                del self.last_seen[old]

    def admit(self, client: str, keyed: bool, notebook: str) -> str:
        """Why the page may not be rendered now: "full" (the server holds all it may) or
        "client" (this client has too many pages loading); "" when it may, and then the page
        counts as loading until `rendered` (pages asked for together are counted together)."""
        room = self.max_pages if keyed else self.max_pages - self.reserve
        if self.kernels() + sum(self.rendering.values()) >= room and not self.ready(notebook):
            return self._away("full")
        if not keyed and client not in LOOPBACK and self._loading_for(client) >= self.per_client:
            return self._away("client")
        self.rendering[client] = self.rendering.get(client, 0) + 1
        return ""

    def rendered(self, client: str) -> None:
        """A page `admit` let through is no longer waiting for a kernel (given one, `served`,
        or failed before)."""
        left = self.rendering.get(client, 0) - 1
        if left > 0:
            self.rendering[client] = left
        else:
            self.rendering.pop(client, None)

    def _loading_for(self, client: str) -> int:
        return self.rendering.get(client, 0) + sum(1 for page in self.loading.values() if page.client == client)

    def _away(self, reason: str) -> str:
        self.turned_away[reason] = self.turned_away.get(reason, 0) + 1
        return reason

    def served(self, kernel_id: str, client: str, keyed: bool, now: float) -> None:
        """A page `admit` let through was given `kernel_id` (which `kernels()` counts from now
        on): without a key, it is watched until its browser connects."""
        self.rendered(client)
        if not keyed and client not in LOOPBACK:
            self.loading[kernel_id] = _Loading(client, now)

    def to_end(self, now: float, connected: Callable[[str], bool], alive: Iterable[str]) -> list[str]:
        """The kernels to shut down now: pages without a key that never connected and whose
        client has asked for nothing for `gone_seconds`. Connected or ended ones are forgotten."""
        living = set(alive)
        ending = []
        for kernel_id, page in list(self.loading.items()):
            if kernel_id not in living or connected(kernel_id):
                del self.loading[kernel_id]
            elif now - max(page.at, self.last_seen.get(page.client, page.at)) >= self.gone_seconds:
                del self.loading[kernel_id]
                ending.append(kernel_id)
        return ending


def room_full_page(reason: str, retry_seconds: int | None = None, lang: str | None = None) -> str:
    """The light page a device over the budget gets, in `lang` (the request's language,
    `playbook.languages`; the current one by default): what happened, in plain words, and it
    asks again by itself (a page reload; no script, no kernel). The wait is spread so that a
    room turned away together does not come back together."""
    wait = retry_seconds if retry_seconds is not None else random.randint(4, 9)
    lang = lang or i18n.current()
    with i18n.speaking(lang):
        why = (
            _("This device has several pages opening at once on this server.")
            if reason == "client"
            else _("The server is running as many pages as this computer can hold.")
        )
        # TRANSLATORS: the title of the light page a phone gets when the server holds all the pages it can.
        title = html.escape(_("The room is full for a moment"))
        again = _n("This page tries again by itself in {n} second.", "This page tries again by itself in {n} seconds.", wait)
        # TRANSLATORS: a link on the "room is full" page: load the page again at once.
        now = _("Try again now")
        tell = _("If this page keeps coming back, tell your teacher.")
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{html.escape(lang)}" dir="{i18n.direction(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="refresh" content="{wait}">'
        f"<title>{title}</title></head>"
        '<body style="font-family: system-ui, sans-serif; max-width: 32em; margin: 2em auto; padding: 0 1em; line-height: 1.5">'
        f"<main><h1>{title}</h1>"
        f"<p>{html.escape(why)} {html.escape(again)}</p>"
        f'<p><a href="">{html.escape(now)}</a></p>'
        f"<p>{html.escape(tell)}</p></main></body></html>\n"
    )


#: the parts of a page's address that may hold a key (`playbook.access`, `playbook.links`); a
#: game's table id is one for the games that hide nothing.
KEY_PARTS = ("key", "board", "monitor", "facilitator", "student", "table")


def may_show_key(query: str) -> bool:
    """Whether the query string has anything a key could be in (no store needed to say no)."""
    params = urllib.parse.parse_qs(query.lstrip("?"))
    return any(params.get(name, [""])[0] for name in KEY_PARTS)


def shows_key(store: Store, notebook: str, query: str) -> bool:
    """Whether the page `notebook?query` opens for one of the class's own devices: a seat, the
    board, the facilitator, the class's monitor, a student's own link, or a table of a game
    that hides nothing. A join link, a wrong or old key, a room code alone: no."""
    params = urllib.parse.parse_qs(query.lstrip("?"))

    def given(name: str) -> str:
        return (params.get(name) or [""])[0]

    if notebook.endswith(CLASS_PAGE):
        from playbook.classes import class_by_code, clean_code

        record = class_by_code(store, clean_code(given("code"))) if given("code") else None
        return record is not None and (
            key_matches(record.board_key, given("board")) or key_matches(record.monitor_key, given("monitor")) or record.by_key(given("student"), given("key")) is not None
        )
    slug = next((game.slug for game in CARDS if game.notebook and notebook.endswith(game.notebook)), None)

    def meta_of(table_id: str) -> tuple[str, Mapping[str, object]]:
        info = store.info(table_id)
        return info.game, info.meta

    try:
        return resolve(query, slug, meta_of).role in ("facilitator", "board", "seat", "open", "index")
    except Exception:  # a store that cannot answer: the page is treated as keyless
        return False
