"""Who may see what at a table: the keys, the links, and the page a link opens.

A table has four kinds of link, each with its own secret in the table's settings (`meta`):

- the **facilitator** link (`facilitator_key`): the table's controls, every seat's hot-seat
  view, the save file, the other links;
- the **board** link (`board_key`): the public view for the projector, with the join code;
- the **join** link (`join_key`, the board's QR code): a device claims one free seat by name;
- one **seat** link per seat (`seat_keys`): that seat's private view and controls. A seat is
  one device's at a time: the device that opens the link (or joins by the code) claims the seat
  and gets a new key of its own, and the old link opens nothing more (see `playbook.store.Claim`).

The server has a key of its own (`PLAYBOOK_KEY`, made by `playbook serve`): the index lists
and resumes tables only with it. A page with no key, or a wrong one, opens nothing of a table.
Every key is 128 random bits, compared in constant time. The links that carry the keys are
made in `playbook.links`. Nothing here touches widgets: the dashboards and the command line
both build on it.
"""

from __future__ import annotations

import hmac
import os
import secrets
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from i18n import _
from rules.games import CARDS

__all__ = [
    "KEY_BYTES",
    "Access",
    "claim_free",
    "key_matches",
    "new_key",
    "resolve",
    "server_key",
    "table_keys",
]

#: 16 bytes: 128 bits, the least a key may have.
KEY_BYTES = 16

Role = Literal["lobby", "index", "facilitator", "board", "join", "seat", "open", "denied"]


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def key_matches(expected: object, given: object) -> bool:
    """Constant-time comparison; False for anything that is not a non-empty string."""
    if not isinstance(expected, str) or not isinstance(given, str) or not expected or not given:
        return False
    return hmac.compare_digest(expected.encode("utf-8"), given.encode("utf-8"))


def server_key(environ: Mapping[str, str] | None = None) -> str:
    """The server's facilitator key (`PLAYBOOK_KEY`), or "" when none was set."""
    return (os.environ if environ is None else environ).get("PLAYBOOK_KEY", "")


def table_keys(seats: int) -> dict[str, Any]:
    """Fresh keys for a new table of `seats` seats (its `meta`)."""
    return {
        "facilitator_key": new_key(),
        "board_key": new_key(),
        "join_key": new_key(),
        "seat_keys": {str(seat): new_key() for seat in range(seats)},
        "claims": {},
    }


def claim_free(meta: Mapping[str, Any], seat: int, bots: Sequence[int]) -> str:
    """Why `seat` cannot be claimed now, or "" when it can."""
    if seat in bots:
        return _("a bot plays that seat")
    if str(seat) in dict(meta.get("claims") or {}):
        return _("that seat is taken: ask the facilitator to release it if it is yours")
    return ""


@dataclass(frozen=True)
class Access:
    """What a page's link lets it open."""

    role: Role
    table_id: str | None = None
    seat: int | None = None
    #: why nothing was opened, for a `denied` page (never names a key), in the language spoken
    #: when the link was resolved (a page's kernel speaks its page's).
    reason: str = ""


def _param(params: Mapping[str, list[str]], name: str) -> str:
    return (params.get(name) or [""])[0]


def resolve(query: str, slug: str | None, meta_of: Callable[[str], tuple[str, Mapping[str, Any]]], environ: Mapping[str, str] | None = None) -> Access:
    """The page a query string opens for game `slug` (None: the index).

    `meta_of(table_id)` gives a table's (game, meta) or raises KeyError. The order of the
    checks keeps every wrong or edited link on the same answer: nothing private.
    """
    params = urllib.parse.parse_qs(query.lstrip("?"))
    table_id = _param(params, "table")
    key = _param(params, "key")
    if not table_id:
        return Access("index" if key_matches(server_key(environ), key) else "lobby")
    try:
        game, meta = meta_of(table_id)
    except KeyError:
        return Access("denied", reason=_("There is no such table here: the link is wrong, or the table was deleted."))
    if slug is not None and game != slug:
        return Access("denied", reason=_("That link is for another game's page."))
    if key_matches(meta.get("facilitator_key"), _param(params, "facilitator")) or key_matches(server_key(environ), key):
        return Access("facilitator", table_id)
    if game not in CARDS or not CARDS[game].devices:
        # A game played on one shared screen: a table's link opens it for anyone who has it.
        return Access("open", table_id)
    if key_matches(meta.get("board_key"), _param(params, "board")):
        return Access("board", table_id)
    if key_matches(meta.get("join_key"), _param(params, "join")):
        return Access("join", table_id)
    seat_text = _param(params, "seat")
    if seat_text.isdigit() and key_matches(dict(meta.get("seat_keys") or {}).get(seat_text), key):
        return Access("seat", table_id, int(seat_text))
    held = dict(meta.get("claims") or {}).get(seat_text)
    if seat_text.isdigit() and isinstance(held, dict) and not held.get("confirmed") and key_matches(held.get("slip"), key):
        # Claimed by this link a moment ago, but that page never showed (a reload, a retry):
        # the link may claim it again, until a page shows the seat (`playbook.store.Confirm`).
        return Access("seat", table_id, int(seat_text))
    if seat_text:
        return Access(
            "denied",
            reason=_(
                "This link no longer opens its seat: a seat is one device's at a time, and this one is open on another device "
                "(or was released). If the seat is yours, ask the facilitator to release it."
            ),
        )
    return Access("denied", reason=_("This link is not valid (wrong or old key): nothing private was opened. Ask the facilitator for your link."))
