"""The page of one table: facilitator, board, seat or join, as the link that opened it says.

`TableDashboard` is the controller every game's dashboard hangs off. It shows one version of a
stored table and turns each click into one change submitted to the store's one write path
(`docs/tables.md`), with the version it shows. What a page is comes from its link alone
(`playbook.access`):

- **lobby**: the new-game form (anyone may start a table); with the server's key (the link
  `playbook serve` prints) also the list of unfinished tables: the **index** role;
- **facilitator** (`?table=..&facilitator=..`): the table's controls, the hot-seat curtain,
  the save file, the class card (board link, join code, seat links, claims, bots);
- **board** (`?table=..&board=..`): the public view for the projector, read-only, drawn by
  phase (`widgets.board.PhaseBoard`): the join code large while players come, the decision,
  the reveal, the results and then the debrief (root class `playbook-board`); a game that hides
  nothing has one too, without a key (`?table=..&board=1`);
- **join** (`?table=..&join=..`, the board's QR code): pick your name, and the page becomes
  that seat's own page;
- **seat** (`?table=..&seat=..&key=..`): that seat's private panel first, then the public
  view (root class `playbook-seat`);
- **open**: a table of a game that hides nothing (Danger World, Dangerous Ideas);
- **denied**: a wrong or edited link: nothing of the table at all.

A page receives only what its link allows: the widgets of other roles are never filled in, so
no other seat's secret and no key reaches its browser. Every private panel carries the class
`playbook-private`.

Live pages (`widgets.live`). An asyncio task in the kernel waits on the store's change signal
and redraws within a fraction of a second of another page's change; widgets whose values did
not change send nothing. The page's own script presses a hidden heartbeat button every few
seconds and the kernel answers it; a kernel whose page is gone hears nothing, stops following
the table and goes idle, so Voila culls it; a page whose kernel died sees no answer, says so
and reopens its table by reloading.
"""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
import urllib.parse
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast, runtime_checkable

import ipywidgets as widgets

from drawing.common import esc
from i18n import _, _n, render
from playbook.access import Access, key_matches, new_key, resolve, server_key, table_keys
from playbook.bots import undo_plan
from playbook.classes import chooser, stopped_text
from playbook.links import public_base, table_links, table_query
from playbook.prose import markdown_ready
from playbook.store import CLASS_ENDED, STOPPED, Claim, Confirm, HandOver, Play, Refused, Release, SetMeta, StaleTable, Store, StoreFault, Table, TableInfo, Undo, bot_of_move, undo_reason
from rules import Action, RuleError, SaveFileError, load_game, new_game
from rules.core import AnyGame, seats_said
from rules.games import card
from rules.text import Said, say

from . import live
from .address import page_query, qr_svg
from .announce import GameSaid
from .board import Debrief, PhaseBoard
from .class_card import ClassPanel
from .common import NO_TABLE, Announcer, DebriefBar, LogPanel, PrivacyCurtain, SaveBar, StandingsTable, StatusLine, TableHeader, close_tree, csv_text, day_and_time
from .live import LiveFollow
from .lost_presses import listen
from .pace import Countdown, TablePaceBar, TimerKeeper, timed_out
from .standing import seat_place
from .styles import style_html

__all__ = ["DashboardModule", "TableDashboard", "TablePicker", "bots_from_meta", "bots_meta", "seat_keys", "seat_names"]

#: Another page's move: the public view is redrawn at once, a seat's own panel this much later.
PANEL_DEFER_SECONDS = 0.05


def bots_meta(bots: Mapping[int, str]) -> dict[str, Any]:
    """The store's `meta` for a table: which seats bots play."""
    return {"bots": {str(seat): name for seat, name in sorted(bots.items())}}


def bots_from_meta(meta: Mapping[str, Any], known: Collection[str]) -> dict[int, str]:
    """Seat -> bot name from a table's `meta`; unknown bot names are played by hand."""
    found = {}
    for seat, name in dict(meta.get("bots") or {}).items():
        if str(seat).isdigit() and name in known:
            found[int(seat)] = name
    return found


#: how a refusal names a page that is neither the facilitator's nor a seat's, by its role.
_ROLE_PAGES = {
    "board": say("a board page"),
    "lobby": say("a lobby page"),
    "index": say("a index page"),
    "join": say("a join page"),
    "denied": say("a denied page"),
    "open": say("a open page"),
}


def _reason(exc: BaseException) -> str:
    """An error's reason in the page's language: a rule's or the playbook's refusal said, else its text."""
    if isinstance(exc, RuleError):
        return render(exc.said)
    if isinstance(exc, Refused):
        return exc.message
    return str(exc)


def seat_names(game: AnyGame) -> tuple[str, ...]:
    """Every seat a device may hold at `game`'s table, by name (its card's `seat_names`: a GM's
    seat too, said in the page's language): what keys, links, the join page and the board count."""
    return tuple(render(label) for label in card(game.rules.slug).seat_labels(game.setup))


def seat_keys(game: AnyGame) -> dict[str, str]:
    """A fresh secret per seat (store meta "seat_keys"): whoever holds one may see that seat."""
    return table_keys(len(seat_names(game)))["seat_keys"]


class TablePicker(widgets.VBox):
    """Unfinished tables with a Resume button each (class pb-resume), then a new-game form."""

    def __init__(self, on_resume: Callable[[str], None], heading: str = "") -> None:
        self._on_resume = on_resume
        self.heading = widgets.HTML(f'<h3 style="margin:10px 0 4px">{esc(heading or _("Unfinished tables"))}</h3>')
        self.rows = widgets.VBox().add_class("pb-tables")
        self.form: widgets.Widget = widgets.HTML()
        super().__init__((self.heading, self.rows, self.form))
        self.add_class("pb-picker")

    def set_form(self, form: widgets.Widget) -> None:
        self.form = form
        self.children = (self.heading, self.rows, form)

    def show(self, tables: Sequence[TableInfo] | None) -> None:
        """The tables to offer; None: this page may not list them (no facilitator key)."""
        old = self.rows.children
        rows: list[widgets.Widget] = []
        for info in tables or ():
            # TRANSLATORS: a button: open an unfinished table again
            button = widgets.Button(description=_("Resume"), button_style="primary", tooltip=_("Resume {title}", title=info.title))
            button.add_class("pb-resume")
            button.table_id = info.id  # read by tests and scripts
            button.on_click(lambda _event, table_id=info.id: self._on_resume(table_id))
            about = _n("{n} moves · last played {when}", "{n} moves · last played {when}", info.moves, when=day_and_time(info.updated))
            label = widgets.HTML(f'<b>{esc(info.title)}</b> <span class="pb-muted">· {esc(about)}</span>')
            rows.append(widgets.HBox((button, label), layout=widgets.Layout(align_items="center", flex_flow="row wrap")))
        if tables is None:
            rows.append(
                widgets.HTML(
                    '<span class="pb-muted">'
                    + _(
                        "Tables in progress open from their own links: the facilitator's link (which {command} prints) lists them. Anyone may start a new game below.",
                        command="<code>playbook serve</code>",
                    )
                    + "</span>"
                )
            )
        elif not rows:
            rows.append(widgets.HTML(f'<span class="pb-muted">{esc(_("No unfinished tables: start a new game below."))}</span>'))
        self.heading.layout.display = "none" if tables is None else ""
        self.rows.children = tuple(rows)
        close_tree(old)


P = TypeVar("P", bound=widgets.Widget)


class _Part(Generic[P]):
    """A part of a table's page built the first time it is asked for (`TableDashboard._parts`)."""

    def __init__(self, build: Callable[[TableDashboard], P]) -> None:
        self._build = build
        self._name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    def __get__(self, page: TableDashboard, owner: type | None = None) -> P:
        if self._name not in page._parts:
            page._keep_part(self._name, self._build(page))
        return cast(P, page._parts[self._name])  # each name holds the part its own `_Part` built


class TableDashboard(widgets.VBox):
    """One table's page, in the role its link gives it (see the module docstring).

    Subclasses set `slug` and `game_title`, build their own setup form and views, and
    implement `table_view` (the facilitator's page), `draw_table` and `waiting`; games with a
    `PrivacyCurtain` return it from `seat_curtain` and give the public parts from
    `public_view` (the board, and a seat page below its own panel). A subclass ends its
    `__init__` with `open_from_query()`. Attributes tests rely on: `store`, `role`, `game` (None
    in the lobby), `table_id`, `version`, `bots`, `status`, `header`, `savebar`, `picker`,
    `game_log`, `standings`, `new_game_button`, `class_panel`, `join_html`, `seat`,
    `phase_board` (a board's), `debrief` (the facilitator's, once opened: `open_debrief`).
    """

    slug: ClassVar[str] = ""
    game_title: ClassVar[str] = ""
    #: bot name -> strategy(state, seat, rng) returning a legal action.
    bot_strategies: ClassVar[Mapping[str, Callable[[Any, int, random.Random], Action]]] = {}
    #: the game's new-game form (a widget with a `start_button`, `read()` and `reseed()`).
    setup_form: ClassVar[Callable[[], Any]]
    #: the game's own stylesheets, after `dashboard.css` (`widgets.styles`: `leerdam.css`).
    sheets: ClassVar[tuple[str, ...]] = ()

    @property
    def hidden_information(self) -> bool:
        """The game keeps secrets (its card says): else the save file is always offered."""
        return card(self.slug).hides

    @property
    def played_on_devices(self) -> bool:
        """Each player plays on a device of their own (its card says): a table has seat, board
        and join links, and only its facilitator's page runs it. Else it is one shared screen."""
        return card(self.slug).devices

    def __init__(self, store: Store | None = None, query: str | None = None) -> None:
        self.store = store if store is not None else Store()
        if query is None:
            # The page's rulings panel is rendered after its request: its Markdown renderer
            # is imported before (a ready kernel waits for the request in `page_query`).
            markdown_ready()
        #: the page's query string; None reads the page's own (`page_query`).
        self.query = page_query() if query is None else query
        self.role = "lobby"
        #: the seat of a seat page (None elsewhere), and the key its link gave.
        self.seat: int | None = None
        self._seat_key = ""
        self.game: AnyGame | None = None
        self.table_id: str | None = None
        #: the version of the table this page shows: every change it submits carries it.
        self.version = 0
        self._by_bot: tuple[bool, ...] = ()
        self.bots: dict[int, str] = {}
        self._meta: dict[str, Any] = {}
        self.style_html = widgets.HTML(style_html("dashboard.css", *self.sheets))
        self.header = TableHeader()
        self.status = StatusLine()
        #: what the page's live region says of the game (`widgets.announce`); the status line
        #: says the refusals itself.
        self.announcer = Announcer()
        self.game_said = GameSaid(self.announcer)
        # Following the table: the page's heartbeat, and the look at the store for other pages' moves.
        self.live = LiveFollow(self.status, self._look, lambda: self.table_id is not None, say("check for other pages' moves"), self._beaten, self.fault_message)
        listen(self)  # a press on a button just replaced is said here (`widgets.lost_presses`)
        # The save bar, the debrief bar, the table picker and the class panel: built the first
        # time a page wants them (`_part`). A seat page or a board shows none of them, and their
        # 56 widgets were a quarter of a seat page's messages, to every phone of a class.
        self._parts: dict[str, widgets.Widget] = {}
        self.game_log = LogPanel()
        self.standings = StandingsTable()
        self.new_game_button = widgets.Button(description=_("Tables / new game"), icon="th-list").add_class("pb-new-game")
        self.new_game_button.on_click(lambda _event: self.show_lobby())
        self.screen = widgets.VBox()
        #: the board's join code (QR) and link: only a board page fills it.
        self.join_html = widgets.HTML().add_class("pb-join-code")
        # The page's script presses the heartbeat (hidden) and watches the answer (pb-alive).
        self.heartbeat, self.alive = self.live.heartbeat, self.live.alive
        #: a link the page's script puts in the address bar (a new table's facilitator link).
        self.navigator = widgets.HTML(layout=widgets.Layout(display="none")).add_class("pb-navigator")
        self._table: widgets.Widget | None = None
        #: the board's drawing by phase (a board page's), and the debrief (facilitator, open).
        self.phase_board: PhaseBoard | None = None
        self.debrief: Debrief | None = None
        self.debrief_button = widgets.Button(description=_("Debrief: step through the game"), icon="history", layout=widgets.Layout(width="auto", display="none")).add_class("pb-replay-open")
        self.debrief_button.on_click(lambda _event: self.open_debrief())
        #: a game that hides nothing: the link to its board, for the projector.
        self.board_link = widgets.HTML().add_class("pb-open-board-link")
        self.debrief_area = widgets.VBox((self.board_link, self.debrief_button)).add_class("pb-replay-area")
        self._form: Any = None
        #: the last change this page submitted was refused as stale (the page was behind).
        self._stale = False
        #: the server could not save the last change this page submitted (a full disk...), or None.
        self.last_fault: StoreFault | None = None
        #: this page claimed its seat and has not yet shown it (see `confirm_seat`).
        self._confirm_pending = False
        #: the time left for the decision (board, seat), and the timer this page keeps (board,
        #: facilitator): `widgets.pace`.
        self.countdown = Countdown()
        self.timer = TimerKeeper(self.store, self._timed_tables, lambda: not self.live.gone())
        self._timed_out_seen: set[int] | None = None
        # The class card (board link, seats) above the table: the first thing a facilitator needs.
        super().__init__()
        self._place_parts()
        self.add_class("playbook-root")
        self.add_class(f"playbook-{self.slug}")

    # -- parts only some pages show ---------------------------------------------------------------
    def _new_picker(self) -> TablePicker:
        picker = TablePicker(self.resume)
        if self._form is not None:
            picker.set_form(self._form)
        return picker

    savebar: _Part[SaveBar] = _Part(lambda page: SaveBar(page.undo, page.load_file, page.offer_download))
    debrief_bar: _Part[DebriefBar] = _Part(lambda page: DebriefBar(page.prepare_debrief))
    picker: _Part[TablePicker] = _Part(lambda page: page._new_picker())
    class_panel: _Part[ClassPanel] = _Part(ClassPanel)
    pace_bar: _Part[TablePaceBar] = _Part(lambda page: TablePaceBar(page._pace_submit))

    def _keep_part(self, name: str, part: widgets.Widget) -> None:
        """A part built: put it in its place, shown as the page's role wants it."""
        self._parts[name] = part
        self._place_parts()
        self._show_parts()

    def _place_parts(self) -> None:
        """The page's children: the class card (board link, seats) above the table, the first
        thing a facilitator needs; the debrief's downloads right under the save bar (the table's
        files together). Parts not built are left out. The navigator comes before the heartbeat:
        the page's script beats only once the page's own link is drawn (see the template)."""
        built = self._parts.get
        order = (self.style_html, self.header, self.status, self.announcer, built("class_panel"), self.screen, built("savebar"), built("pace_bar"), built("debrief_bar"), self.debrief_area, self.navigator, self.heartbeat, self.alive)
        self.children = tuple(w for w in order if w is not None)

    def _show_parts(self) -> None:
        """Show or hide the parts built so far as the page's role wants them."""
        controls = self.role in ("facilitator", "open", "lobby", "index")
        if "savebar" in self._parts:
            self._parts["savebar"].layout.display = "flex" if controls else "none"
        # The debrief names secrets once the game is over: the facilitator's page only.
        if "debrief_bar" in self._parts:
            self._parts["debrief_bar"].layout.display = "flex" if self.role in ("facilitator", "open") else "none"
        if "pace_bar" in self._parts:
            self._parts["pace_bar"].layout.display = "flex" if self.role in ("facilitator", "open") else "none"
        if "class_panel" in self._parts and self.role != "facilitator":
            self.class_panel.hide()

    @property
    def form(self) -> Any:
        """The new-game form, built the first time it is wanted: a seat page or a board never
        shows it, and its widgets (a Leerdam form has 230) would only load those pages down."""
        if self._form is None:
            self._form = type(self).setup_form()
            self._form.start_button.on_click(lambda _event: self._start_clicked())
            self.picker.set_form(self._form)
        return self._form

    def _start_clicked(self) -> None:
        try:
            setup, seed, bots = self.form.read()
            game = new_game(self.slug, setup, seed)
        except RuleError as exc:
            self.status.refuse(_("Cannot start: {reason}.", reason=render(exc.said)))
            return
        self.start(game, bots, self.form.language.value)
        self.started(setup)

    def started(self, setup: Any) -> None:
        """Called once a table started from the form (Leerdam says when a village is outside the
        text's range)."""

    # -- hooks for each game -----------------------------------------------------------
    def table_view(self) -> widgets.Widget:
        """The facilitator's page of the live game (built once)."""
        raise NotImplementedError

    def public_view(self) -> widgets.Widget:
        """The public parts only (the board; a seat page below its own panel)."""
        raise NotImplementedError

    def draw_table(self) -> None:
        """Redraw the live game from `self.game.state`."""
        raise NotImplementedError

    def waiting(self, state: Any) -> Iterable[int]:
        """Seats the game waits for now."""
        raise NotImplementedError

    def seat_curtain(self) -> PrivacyCurtain | None:
        """The game's privacy curtain; None (no hidden information) means no seat pages."""
        return None

    def base_title(self, game: AnyGame) -> str:
        return f"{self.game_title}: {', '.join(getattr(game.setup, 'names', ()))}"

    def table_title(self, table: Table) -> str:
        """How a banner names a table: its stored title ("Leerdam: Ana, Bo, ..."), never its id."""
        try:
            title = self.store.info(table.id).title
        except KeyError:
            title = ""
        return title or self.base_title(table.game)

    def seat_name(self, seat: int | None) -> str:
        names = getattr(self.game.setup, "names", ()) if self.game else ()
        return names[seat] if seat is not None and 0 <= seat < len(names) else _("the table")

    def own_page_name(self, seat: int | None) -> str:
        """Whose page a seat page is, in plain words ("Ana's own page")."""
        return _("{name}'s own page", name=self.seat_name(seat))

    def on_devices(self) -> frozenset[int]:
        """Seats a device holds (meta "claims"): their private views are on those devices, so
        a shared screen offers no button for them."""
        return frozenset(int(seat) for seat in dict(self._meta.get("claims") or {}) if str(seat).isdigit())

    def on_lobby(self) -> None:
        """Called when the lobby shows (reset private views, fresh seed...)."""

    def on_open(self) -> None:
        """Called when a table opens (close the previous table's private views...)."""

    # -- roles -----------------------------------------------------------------------------
    def _set_role(self, role: str) -> None:
        if role != self.role:
            self._table = None  # each role has its own arrangement of the game's parts
        for old in ("facilitator", "board", "seat", "join", "index", "lobby", "open", "denied"):
            self.remove_class(f"playbook-{old}")
        self.role = role
        self.add_class(f"playbook-{role}")
        controls = role in ("facilitator", "open", "lobby", "index")
        self._show_parts()
        self.new_game_button.layout.display = "" if controls else "none"
        if not controls:
            self.debrief_button.layout.display = "none"

    def _meta_of(self, table_id: str) -> tuple[str, dict[str, Any]]:
        info = self.store.info(table_id)
        return info.game, info.meta

    def open_from_query(self) -> None:
        """Open what the page's link asks for (see the module docstring)."""
        access = resolve(self.query, self.slug, self._meta_of)
        if access.role in ("lobby", "index"):
            self._set_role(access.role)
            self.show_lobby()
        elif access.role == "denied":
            self._deny(access.reason)
        elif access.role == "join":
            self._set_role("join")
            self._show_join(access)
        else:
            if access.role == "open" and (urllib.parse.parse_qs(self.query.lstrip("?")).get("board") or [""])[0]:
                # A game that hides nothing has a board too: the same public view, read-only.
                access = Access("board", access.table_id)
            if access.role == "seat":
                params = urllib.parse.parse_qs(self.query.lstrip("?"))
                self._seat_key = (params.get("key") or [""])[0]
                self.seat = access.seat
                if not self._hold_seat(access.table_id or "", access.seat):
                    return
            self._set_role(access.role)
            self.resume(access.table_id or "")
            if access.role == "seat" and self.game is not None:
                self.status.ok(_("This is {page}: {what}.", page=self.own_page_name(self.seat), what=self._seat_page_words()))

    def _hold_seat(self, table_id: str, seat: int | None) -> bool:
        """Opening a seat's link claims the seat for this device (False: it could not).

        The seat gets a new key that only this page knows (and puts in the address bar, so a
        reload keeps the seat): the link it was opened with, a printed slip say, now opens
        nothing on another device. A seat this device already holds (a reload: its link holds
        the seat's new key) and a seat a bot plays are opened as they are.
        """
        try:
            table = self.store.load(table_id)
        except StoreFault as exc:
            self._deny(exc.message)
            return False
        except (KeyError, SaveFileError, RuleError) as exc:
            self._deny(_("Cannot open this table: {reason}", reason=_reason(exc)))
            return False
        held = dict(table.meta.get("claims") or {}).get(str(seat))
        mine = key_matches(dict(table.meta.get("seat_keys") or {}).get(str(seat)), self._seat_key)
        if seat is None or seat in table.bots or (held is not None and mine):
            self._confirm_pending = isinstance(held, dict) and not held.get("confirmed")
            if seat is not None and held is not None and mine:
                # Its link in the address bar again: a class page reloaded before its seat's
                # link got there opens the seat by the class's address, and would stay on it.
                self._remember_seat(table_id, seat, self._seat_key or "")
            return True
        key = new_key()
        try:
            self.store.submit(table_id, Claim(seat, key, key=self._seat_key), table.version)
        except StoreFault as exc:
            self._deny(exc.message)
            return False
        except Refused as exc:
            self._deny(_("{reason}.", reason=exc.message[:1].upper() + exc.message[1:]))
            return False
        self._seat_key = key
        self._confirm_pending = True  # the seat is this page's for good once the page shows it
        self._remember_seat(table_id, seat, key)
        return True

    def _seat_page_words(self) -> str:
        """What a seat's own page is, in a game that keeps secrets and in one that keeps none."""
        if self.hidden_information:
            return _("your private view is first, for your eyes only")
        return _("it plays your seat alone; the table is the same for everyone")

    def _remember_seat(self, table_id: str, seat: int, key: str) -> None:
        """Put this seat's own link in the address bar and in the device's memory: a reload,
        or the join code opened again on this device, comes back to the seat."""
        # A query for this page's own address (a class page that builds a seat page puts the
        # game's page in front: it is on another page).
        link = table_query(table_id, seat=seat, key=key)
        self.navigator.value = f'<a data-href="{esc(link)}" data-seat-of="{esc(table_id)}"></a>'

    def _deny(self, reason: str) -> None:
        self._set_role("denied")
        self._stop_watching()
        self.game, self.table_id, self.seat, self.bots = None, None, None, {}
        self.header.show(self.game_title, "", "")
        old = self.screen.children
        self.screen.children = ()
        close_tree([w for w in old if w is not self._table and w is not self._parts.get("picker")])
        self.status.refuse(reason)

    def allowed(self, what: str | Said, roles: Collection[str] = ("facilitator", "open")) -> bool:
        """Whether this page may do `what` (say why not). The widgets of the table's own
        controls are not on other pages, but a hand-made front-end message could still reach
        their handlers: the check is here, not only in the layout."""
        if self.role in roles:
            return True
        if self.role == "seat":
            who = self.own_page_name(self.seat)
        else:
            who = render(_ROLE_PAGES[self.role]) if self.role in _ROLE_PAGES else f"a {self.role} page"
        self.status.refuse(_("Only the facilitator's page can {what}; this is {page}.", what=render(what), page=who))
        return False

    def refused_on_seat_page(self, what: str | Said) -> bool:
        """True (and say so) when this page may not run the table (a seat page, the board)."""
        return not self.allowed(what)

    def may_run(self, what: str | Said) -> bool:
        """This page may `what` on the table it has open (else it says why)."""
        if self.refused_on_seat_page(what):
            return False
        if self.game is None:
            self.status.refuse(_("No table is open."))
            return False
        return True

    # -- screens ---------------------------------------------------------------------------
    def show_lobby(self) -> None:
        """The new-game form; with the server's key also the unfinished tables."""
        if not self.allowed(say("go back to the tables"), ("facilitator", "open", "lobby", "index")):
            return
        self._stop_watching()
        if self.role not in ("lobby", "index"):
            self._set_role("index" if self.role == "facilitator" and self._index_key() else "lobby")
        self.game, self.table_id, self.bots = None, None, {}
        self.header.show(self.game_title, "", _("Resume a table or start a new game") if self.role == "index" else _("Start a new game"))
        self.picker.show(self.store.tables(game=self.slug, unfinished=True) if self.role == "index" else None)
        self.form  # noqa: B018 - built now, the first time the lobby shows
        self.screen.children = (self.picker,)
        self.savebar.show(table_open=False)
        self.debrief_bar.show(ready=False)
        self.on_lobby()

    def _index_key(self) -> bool:
        params = urllib.parse.parse_qs(self.query.lstrip("?"))
        return key_matches(server_key(), (params.get("key") or [""])[0])

    def redraw(self) -> None:
        """Show the open table as its state stands now."""
        if self.game is None:
            return
        if self._table is None:
            self._table = self._view_for_role()
        if self.screen.children != (self._table,):
            self.screen.children = (self._table,)
        self._show_countdown()
        if self.role == "board":
            self._draw_board()
            self._announce()
            return
        self.draw_table()
        self._draw_debrief()
        self._draw_stopped()
        self._draw_place()
        self._announce()
        if self.role not in ("facilitator", "open"):
            return  # no save bar: the file holds every secret, undo is the facilitator's
        steps, reason = self._undo_plan()
        # Undo takes back what this page shows as the last move: the tooltip names it.
        last = self.game.actions[-steps] if steps else None
        what = _("{name}'s {move} (the last move)", name=self.seat_name(last.seat), move=last.kind) if last is not None else ""
        self.savebar.show(table_open=True, undo_reason=reason, undo_what=what)
        self.pace_bar.show(self._meta)
        over = self.game.rules.over(self.game.state) or bool(self._meta.get(STOPPED))
        # An anonymous-pledges village is named only when the facilitator ticks the box.
        anonymous = bool(getattr(self.game.setup, "anonymous", False)) and not getattr(self.game.state, "pledges_shown", False)
        self.debrief_bar.show(ready=True, secrets=over and self.hidden_information, name_by_default=not anonymous)
        self.savebar.prepare_button.layout.display = "" if self.hidden_information else "none"
        if not self.hidden_information or self.game.rules.over(self.game.state):
            self.offer_download()  # nothing is (or is any longer) secret

    def _announce(self) -> None:
        """What a player must know, for the page's live region, once (`GameSaid`)."""
        if self.game is not None:
            seat = self.seat if self.role == "seat" else None
            self.game_said.redrawn(self.game, self.table_id, seat, seat_names(self.game), self.seat_name, self.header.turn_html.value, self.waiting(self.game.state))

    def _draw_stopped(self) -> None:
        """A table that takes no more moves (its class ended) says so, and its private panels
        with their move buttons go: the public view stays, as the results stand."""
        stopped = self._meta.get(STOPPED)
        if not stopped:  # a table is stopped once, for good; its layout untouched till then (fewer_messages)
            return
        curtain = self.seat_curtain()
        if curtain is not None:
            curtain.layout.display = "none"
        self.status.info(render(CLASS_ENDED) if stopped == str(CLASS_ENDED) else str(stopped))
        self.header.turn_html.value = f'<span style="font-size:1.2em">{esc(_("This table has stopped."))}</span>'

    def _bot_of(self, index: int, seat: int) -> str | None:
        """The bot that made this table's move `index` (its store's record), or None for a person."""
        if index >= len(self._by_bot) or not self._by_bot[index]:
            return None
        return bot_of_move(self._meta, seat, index) or ""

    def _draw_place(self) -> None:
        """A seat's page at the end (the game over, or stopped by its class) leads with its own
        result and place: "Your household finished 2nd of 10 with 14 VP"."""
        if self.role != "seat" or self.seat is None or self.game is None:
            return
        game = self.game
        stopped = stopped_text(game, self._meta)
        if not game.rules.over(game.state) and not stopped:
            return
        line = seat_place(game, self.seat, stopped)
        if line:
            # Said by the page's live region as the turn line (`_announce`).
            self.header.turn_html.value = f'<span class="pb-seat-place" style="font-size:1.3em;font-weight:700">{esc(line)}</span>'

    def _view_for_role(self) -> widgets.Widget:
        curtain = self.seat_curtain()
        if self.role == "board":
            if self.phase_board is None:
                self.phase_board = PhaseBoard(self.game_title, self.join_html)
            return widgets.VBox((self.countdown, self.phase_board, *self.board_parts())).add_class("pb-board")
        if self.role == "seat" and curtain is not None:
            return widgets.VBox((self.countdown, curtain, self.public_view())).add_class("pb-seat-page")
        return self.table_view()

    def _draw_board(self) -> None:
        """The board by phase: the game's scene now, the join code while seats are free."""
        if self.game is None or self.phase_board is None:
            return
        meta = self._meta
        names = seat_names(self.game)
        join, free = "", None
        if self.table_id is not None and "join_key" in meta and self.played_on_devices:
            join = table_links(public_base(), self.slug, self.table_id, meta, names)["join"]
            claims = dict(meta.get("claims") or {})
            free = [i for i in range(len(names)) if i not in self.bots and str(i) not in claims]
        self.phase_board.show(self.game, free, join, qr_svg, reveal=bool(meta.get("debrief_reveal")))
        self.draw_board_parts()

    def board_parts(self) -> tuple[widgets.Widget, ...]:
        """A game's own parts below its board (Leerdam: the pledges' table an anonymous game's
        facilitator shows after the end); drawn by `draw_board_parts`."""
        return ()

    def draw_board_parts(self) -> None:
        """Redraw `board_parts` from the public view."""

    def _draw_debrief(self) -> None:
        """The facilitator's debrief button, and the debrief itself once opened."""
        if self.role not in ("facilitator", "open") or self.game is None:
            self.debrief_button.layout.display = "none"
            self.board_link.value = ""
            return
        if not self.played_on_devices and self.table_id is not None:
            href = table_query(self.table_id, board=1)
            link = f'<a class="pb-board-link" href="{esc(href)}" target="_blank" rel="noopener">{esc(_("Open the board"))}</a>'
            self.board_link.value = _("{link} for the projector (read-only).", link=link)
        self.debrief_button.layout.display = "none" if self.debrief is not None else ""
        if self.debrief is not None:
            self.debrief.show(self.game, reveal=bool(self._meta.get("debrief_reveal")))

    def open_debrief(self) -> None:
        """Step through the table so far (a running one: public views only)."""
        if not self.allowed(say("open the debrief")) or self.game is None:
            return
        if self.debrief is None:
            self.debrief = Debrief(self.game_title, facilitator=self.hidden_information, on_reveal=self.reveal_secrets)
            self.debrief_area.children = (self.board_link, self.debrief_button, self.debrief)
        self._draw_debrief()

    def reveal_secrets(self, reveal: bool) -> bool:
        """After the end, show (or hide again) the secret choices in the debrief, on this page
        and on the board. Refused while the game runs: the board never shows a secret before."""
        if not self.allowed(say("reveal the secret choices"), ("facilitator",)) or self.game is None:
            return False
        if not self.game.rules.over(self.game.state):
            self.status.refuse(_("The secret choices stay secret until the game is over."))
            self._draw_debrief()
            return False
        if self._submit(SetMeta({"debrief_reveal": True if reveal else None})) is None:
            return False
        self.status.ok(_("The debrief shows the secret choices, here and on the board.") if reveal else _("The debrief keeps the secret choices hidden."))
        return True

    def offer_download(self) -> None:
        """Put the save file in the download link (mid-game it shows every secret: warn)."""
        if self.game is None or self.role not in ("facilitator", "open"):
            return
        secret = self.hidden_information and not self.game.rules.over(self.game.state)
        warning = _("This file shows every hidden hand, draw and pick: keep it from the players.") if secret else ""
        self.savebar.offer(self.game.to_json(), f"{self.slug}-{self.table_id or 'game'}.json", warning)

    def prepare_debrief(self, name_secrets: bool = True) -> None:
        """The debrief's CSV (every decision) and handout (PDF) as links on the facilitator's page.

        Before the end they name only what the board has shown; once the game is over, or stopped
        (its class ended), they name the secrets (pledges, picks, draws) when `name_secrets` (the
        facilitator's choice)."""
        if self.game is None or not self.allowed(say("make the debrief"), ("facilitator", "open")):
            return
        from printables import debrief
        from rules import decisions_of
        from rules.decisions import columns_with, decision_rows

        game = self.game
        # A table its class stopped plays no more: over, for its debrief.
        stopped = "" if game.rules.over(game.state) or not self._meta.get(STOPPED) else stopped_text(game, self._meta)
        over = game.rules.over(game.state) or bool(stopped)
        reveal = over and (name_secrets or not self.hidden_information)
        # Leerdam's own say: named or kept, whatever its variant, once the game is over.
        pledges = name_secrets if over else None
        # The table as the room knows it: its title (its id only when it has none).
        try:
            label = self.store.info(self.table_id).title if self.table_id else ""
        except KeyError:
            label = ""
        label = label or (_("table {id}", id=self.table_id) if self.table_id else "")
        found = decisions_of(game, reveal=reveal, reveal_pledges=pledges, render=render)
        # Who chose: the seat's player, or the bot that played the seat then ("bot (fair) for Ana").
        by = {d.number: chooser(d.player, self._bot_of(d.number - 1, d.seat), False) for d in found if d.seat is not None}
        # Moves a seat's timer made say so (a column of their own, when the table has any).
        marks = {index + 1: how for index, how in timed_out(self._meta).items()}
        extra = {"by": by, **({"timed_out": marks} if marks else {})}
        text = csv_text(decision_rows(found, table=label or 1, **extra), columns=columns_with(*extra))
        pdf = debrief.build_pdf([(label, game)], reveal=reveal, reveal_pledges=pledges, stopped={label: stopped} if stopped else None)
        stem = f"{self.slug}-{self.table_id or 'game'}-debrief"
        if not self.hidden_information:
            note = ""
        elif not over:
            note = _("The game goes on: the files name only what the board has shown. Secrets are named once it is over.")
        else:
            note = _("Secret choices are named.") if reveal else _("Secret choices are kept: nothing the board did not show is named.")
        self.debrief_bar.offer(text, f"{stem}.csv", len(found), pdf, f"{stem}.pdf", note)

    # -- joining ---------------------------------------------------------------------------------
    def _show_join(self, access: Access) -> None:
        try:
            table = self.store.load(access.table_id or "")
        except StoreFault as exc:
            self._deny(exc.message)
            return
        except (KeyError, SaveFileError, RuleError) as exc:
            self._deny(_("Cannot open this table: {reason}", reason=_reason(exc)))
            return
        self.table_id, self.version = table.id, table.version
        names = seat_names(table.game)
        claims = dict(table.meta.get("claims") or {})
        buttons = []
        for seat, name in enumerate(names):
            if seat in table.bots or str(seat) in claims:
                continue
            button = widgets.Button(description=_("I am {name}", name=name), button_style="primary").add_class(f"pb-claim-{seat}")
            button.on_click(lambda _event, seat=seat: self.claim(seat))
            buttons.append(button)
        self.header.show(self.game_title, _("Join the table"), _("Which seat is yours?"))
        note = widgets.HTML(
            '<div style="font-size:1.1em;margin:6px 0">'
            + esc(_("Press your own name. This phone becomes your seat: keep this page open (or bookmark it) to play."))
            + "</div>"
            if buttons
            else '<div class="pb-muted">' + esc(_("Every seat is taken. If one is yours, ask the facilitator to release it.")) + "</div>"
        )
        old = self.screen.children
        self.screen.children = (widgets.VBox((note, widgets.VBox(tuple(buttons)).add_class("pb-join-seats"))).add_class("pb-join"),)
        close_tree([w for w in old if w is not self._table and w is not self._parts.get("picker")])

    def claim(self, seat: int) -> bool:
        """Take `seat` (a join page): the page becomes that seat's own page, for good."""
        if self.role != "join" or self.table_id is None:
            self.status.refuse(_("Only a join page can claim a seat."))
            return False
        key = new_key()  # the seat's key from now on: this device's alone
        try:
            outcome = self.store.submit(self.table_id, Claim(seat, key), self.version)
        except StoreFault as exc:
            self.status.refuse(exc.message)
            return False
        except Refused as exc:
            self.status.refuse(exc.message)
            if exc.table is not None:
                self._show_join(Access("join", exc.table.id))
            return False
        self.seat, self._seat_key = seat, key
        self._confirm_pending = True
        self._set_role("seat")
        self._remember_seat(self.table_id, seat, key)
        self._open(outcome.table, "")
        words = self._seat_page_words()
        self.status.ok(_("Welcome, {name}: this is your own page. {what}.", name=self.seat_name(seat), what=words[:1].upper() + words[1:]))
        return True

    # -- the facilitator's class controls -------------------------------------------------------------
    def release(self, seat: int) -> bool:
        """Free a claimed seat for another device; its old link stops working."""
        if not self.allowed(say("release a seat"), ("facilitator",)):
            return False
        outcome = self._submit(Release(seat, new_key()))
        if outcome is None:
            return False
        self.status.ok(_("{name}'s seat is free again: a device can join as {name}; the old link no longer opens it.", name=self.seat_name(seat)))
        return True

    def own_seat(self, seat: int | None) -> bool:
        """Whether this is `seat`'s own page: its header says "Your turn", not its name."""
        return self.role == "seat" and seat is not None and self.seat == seat

    def waiting_names(self, names: Sequence[str], seats: Iterable[int]) -> str:
        """Who the table waits for while several move at once: every name on a shared screen;
        on a seat page "you and 4 others". That line sits above the player's own buttons, and a
        list of names that shortens with every other player's move made them jump under the
        player's finger (a press then lands beside the button)."""
        seats = list(seats)
        if self.role != "seat" or self.seat is None or not seats:
            return render(seats_said(names, seats))
        others = sum(1 for s in seats if s != self.seat)
        if self.seat not in seats:
            return _n("{n} other", "{n} others", others)
        # TRANSLATORS: who a table waits for, as in "Secret pledges: waiting for {who}.": the object form.
        return _n("you and {n} other", "you and {n} others", others) if others else _("you")

    # -- live updates --------------------------------------------------------------------------

    def _beaten(self) -> None:
        """The page is there: a seat it claimed is shown, and its own for good."""
        if self._confirm_pending:
            self.confirm_seat()

    def confirm_seat(self) -> None:
        """The page shows its seat (its address bar holds the seat's new link): the link it was
        claimed with stops working."""
        if self.role != "seat" or self.table_id is None or self.seat is None:
            return
        try:
            self.store.submit(self.table_id, Confirm(self.seat, self._seat_key), self.version)
        except (Refused, KeyError):
            return  # released meanwhile: the next refresh says so
        except StoreFault as exc:
            self.status.refuse(exc.message)  # confirmed at the next look, once the server can save
            return
        self._confirm_pending = False

    def refresh(self) -> bool:
        """Reload the open table if another page changed it; True when it did.

        The table's version (one indexed read) tells whether anything changed. Nothing is
        redrawn when nothing did; when something did, the open private panel keeps what its
        player had typed or chosen (`PrivacyCurtain.keep_typed`).
        """
        if self.game is None or self.table_id is None:
            return False
        try:
            if self.store.version(self.table_id) == self.version:
                return False
            table = self.store.load(self.table_id)
        except StoreFault as exc:
            self.status.refuse(self.fault_message(exc))
            return False
        except (KeyError, SaveFileError, RuleError) as exc:
            self.status.refuse(_("Could not reload this table: {reason}", reason=_reason(exc)))
            return False
        seen = time.time()
        mine = self._my_moves()
        self._adopt(table)
        if self.game is None:
            return True
        taken = mine - self._my_moves()
        if taken and self.role == "seat":
            self.status.refuse(_("The facilitator took back your last move ({moves}): make it again if you still mean it.", moves=", ".join(sorted(taken))))
        self._redraw_keeping_typed(defer=PANEL_DEFER_SECONDS)
        if os.environ.get("PLAYBOOK_TRACE"):  # benchmarks: when each page's kernel saw and drew each version
            try:
                with open(os.environ["PLAYBOOK_TRACE"], "a") as trace:
                    trace.write(f"{seen:.3f} {self.role} {self.seat} {table.version} {time.time():.3f}\n")
            except OSError:
                pass  # a benchmark's trace is never worth a page
        return True

    def _my_moves(self) -> set[str]:
        if self.game is None or self.seat is None:
            return set()
        return {f"{a.kind} #{i + 1}" for i, a in enumerate(self.game.actions) if a.seat == self.seat}

    def _redraw_keeping_typed(self, defer: float = 0.0) -> None:
        curtain = self.seat_curtain()
        if curtain is not None:
            curtain.keep_typed = True  # someone else moved: keep this player's half-filled form
            # Only a kernel's own loop draws a deferred panel (elsewhere a loop may be running
            # that nobody turns: Playwright's, in the tests).
            curtain.defer = defer if live.in_kernel() else 0.0
        try:
            self.redraw()
        finally:
            if curtain is not None:
                curtain.keep_typed = False
                curtain.defer = 0.0

    def _start_watching(self) -> None:
        """Follow the table from the kernel's event loop; outside a kernel (tests) do nothing."""
        self.live.stop()
        self.live.start()
        self.timer.stop()
        self.timer.start()

    def _stop_watching(self) -> None:
        self.live.stop()
        self.timer.stop()

    def _pace_submit(self, change: Any, refusal: str = "") -> Any:
        """The pace bar's change (a SetMeta), through this page's write path; a refusal said."""
        if change is None:
            self.status.refuse(_("{reason}.", reason=refusal[:1].upper() + refusal[1:]))
            return None
        if not self.allowed(say("set the table's timer")):
            return None
        return self._submit(change)

    def _timed_tables(self) -> list[str]:
        """The table whose timers this page keeps: its own, on its board or facilitator's page."""
        return [self.table_id] if self.table_id is not None and self.role in ("board", "facilitator", "open") else []

    def _show_countdown(self) -> None:
        """The time left for this seat's decision (a board: the table's soonest), or the pause."""
        if self.role not in ("board", "seat") or self.game is None or self.table_id is None:
            return
        self.countdown.show(Table(self.table_id, self.version, self.game, self._meta, self._by_bot), self.seat if self.role == "seat" else None)
        if self.role == "seat" and self.seat is not None:
            # The seat's time ran out since this page last looked: say what was done for it.
            actions = self.game.actions
            marks = {i: how for i, how in timed_out(self._meta).items() if i < len(actions) and actions[i].seat == self.seat}
            new = [how for i, how in marks.items() if self._timed_out_seen is not None and i not in self._timed_out_seen]
            if new:
                move = actions[max(marks)].kind
                if new[-1] == "default":
                    self.status.info(_("Your time ran out: the game's default move was made for you ({move}).", move=move))
                else:
                    self.status.info(_("Your time ran out: a bot made your move ({move}).", move=move))
            self._timed_out_seen = set(marks)

    async def _look(self, closed: threading.Event) -> None:
        """Wait for another page's change to this table (a burst once it settles), then redraw."""
        table_id, seen = self.table_id, self.version
        if table_id is None:
            return
        version = await asyncio.to_thread(live.wait_in_slices, lambda timeout: self.store.wait(table_id, seen, timeout), seen, closed)
        if version != seen:
            version = await live.settled(lambda after, timeout: self.store.wait(table_id, after, timeout), version)
        if version != self.version and table_id == self.table_id and not self.live.gone():
            self.refresh()

    def close(self) -> None:
        self._stop_watching()
        super().close()

    # -- opening tables --------------------------------------------------------------------
    def start(self, game: AnyGame, bots: Mapping[int, str] | None = None, lang: str = "") -> None:
        """Save `game` as a new table with its keys (and its language, `lang`: "" for the
        server's), and open it as its facilitator."""
        if not self.allowed(say("start a new table"), ("facilitator", "open", "lobby", "index")):
            return
        meta = {**bots_meta(dict(bots or {})), **table_keys(len(seat_names(game)))}
        if lang:
            meta["lang"] = lang
        try:
            table_id = self.store.create(game, self.base_title(game), meta)
            table = self.store.load(table_id)
        except StoreFault as exc:
            self.status.refuse(self.fault_message(exc))
            return
        except (RuleError, Refused) as exc:
            self.status.refuse(_("Cannot start: {reason}.", reason=render(exc.said)))
            return
        self._become_facilitator(table)
        self._open(table, _("New table saved: {title}. A refresh or another page can resume it.", title=self.table_title(table)))

    def resume(self, table_id: str) -> None:
        """Replay a stored table and open it (as this page's role: the index's is the facilitator)."""
        try:
            table = self.store.load(table_id)
            keyless = len(dict(table.meta.get("seat_keys") or {})) < len(seat_names(table.game))
            if "facilitator_key" not in table.meta or (self.played_on_devices and ("board_key" not in table.meta or keyless)):
                # A table saved before these links (or before its GM had a seat): give it keys
                # now (its seats keep theirs).
                fresh = table_keys(len(seat_names(table.game)))
                fresh["seat_keys"] = {**fresh["seat_keys"], **dict(table.meta.get("seat_keys") or {})}
                fresh["claims"] = dict(table.meta.get("claims") or {})
                table = self.store.submit(table_id, SetMeta(fresh), table.version).table
        except StoreFault as exc:
            self.status.refuse(self.fault_message(exc))
            return
        except (KeyError, SaveFileError, RuleError, Refused) as exc:
            self.status.refuse(_("Cannot open that table: {reason}", reason=_reason(exc)))
            return
        if self.role in ("lobby", "index"):
            self._become_facilitator(table)
        moves = len(table.game.actions)
        # A board is read by a room: it needs no word about how the page was opened.
        said = "" if self.role == "board" else _n("Resumed {title} after {n} move.", "Resumed {title} after {n} moves.", moves, title=self.table_title(table))
        self._open(table, said)

    def _become_facilitator(self, table: Table) -> None:
        self._set_role("facilitator" if self.played_on_devices else "open")
        self._table = None
        link = table_links("", self.slug, table.id, table.meta, ())["facilitator"]
        # The address bar now holds the table's facilitator link: a reload reopens it.
        self.navigator.value = f'<a data-href="{esc(link)}"></a>'

    def load_file(self, data: bytes, name: str = "") -> None:
        """Open an uploaded save file as a new table; a bad file changes nothing."""
        if not self.allowed(say("load a save file"), ("facilitator", "open", "lobby", "index")):
            return
        label = f"“{name}”" if name else _("the file")
        try:
            game = load_game(data)
        except (SaveFileError, RuleError) as exc:
            self.status.refuse(_("Could not load {file}: {reason}. Nothing was changed.", file=label, reason=_reason(exc)))
            return
        except Exception as exc:
            self.status.refuse(_("Could not load {file} ({error}). Nothing was changed.", file=label, error=type(exc).__name__))
            return
        if game.rules.slug != self.slug:
            self.status.refuse(_("Could not load {file}: it is a {saved} game, not {game}. Nothing was changed.", file=label, saved=game.rules.slug, game=self.slug))
            return
        try:
            table_id = self.store.create(game, self.base_title(game), table_keys(len(seat_names(game))))
            table = self.store.load(table_id)
        except StoreFault as exc:
            self.status.refuse(self.fault_message(exc))
            return
        except (RuleError, Refused, KeyError) as exc:
            self.status.refuse(_("Could not load {file}: {reason}. Nothing was changed.", file=label, reason=_reason(exc)))
            return
        self._become_facilitator(table)
        self._open(table, _n(
            "Loaded {file} as a new table, {title} ({n} moves); every seat is played by hand.",
            "Loaded {file} as a new table, {title} ({n} moves); every seat is played by hand.",
            len(game.actions), file=label, title=self.table_title(table),
        ))  # fmt: skip

    def _adopt(self, table: Table) -> None:
        """Show `table` from now on: its game, version and bot seats (a released seat: nothing)."""
        released = self.role == "seat" and self.seat is not None and not key_matches(dict(table.meta.get("seat_keys") or {}).get(str(self.seat)), self._seat_key)
        if released:
            self._deny(_("This seat was released by the facilitator: this link no longer opens it. Ask for a new link."))
            self.navigator.value = f'<a data-forget="{esc(table.id)}"></a>'
            return
        self.game, self.table_id, self.version = table.game, table.id, table.version
        self.bots, self._by_bot = table.bots, table.by_bot
        self._meta = table.meta
        if self.role == "facilitator" and self.played_on_devices:
            self.class_panel.show(table)

    def _open(self, table: Table, message: str) -> None:
        self._adopt(table)
        if self.game is None:
            return
        if self.debrief is not None:  # another table's debrief: closed, the button offers this one's
            old, self.debrief = self.debrief, None
            self.debrief_area.children = (self.board_link, self.debrief_button)
            close_tree([old])
        curtain = self.seat_curtain()
        if curtain is not None:
            curtain.on_page = self.role != "board"
            curtain.panel.add_class("playbook-private")
            if self.role == "seat" and self.seat is not None:
                curtain.lock(self.seat)
        if message:
            self.status.ok(message)
        self.on_open()
        self.redraw()
        self._start_watching()

    # -- playing: every change goes through the store's one write path ----------------------------
    def act(self, action: Action, release_bots: bool = False) -> bool:
        """Submit one action (the store applies it to the latest state, then lets the bots
        move); redraw. False when refused: the status line says why and nothing changed."""
        if self.role not in ("facilitator", "open", "seat"):
            self.status.refuse(_("This page only shows the table."))
            return False
        if self.role == "seat" and action.seat != self.seat:
            self.status.refuse(_("This is {page}: it plays only that seat.", page=self.own_page_name(self.seat)))
            return False
        self.game_said.acting = action.seat  # the redraw that follows confirms the move
        try:
            return self._submit(Play(action, release_bots)) is not None
        finally:
            self.game_said.acting = None

    def undo(self) -> None:
        """Take back the last move made (with the bot moves that followed it)."""
        if not self.allowed(say("undo")):
            return
        before = self.game
        outcome = self._submit(Undo())
        if outcome is None and self._stale and self.game is not None:
            # Another page moved first: this page now shows the table as it is, and Undo takes
            # back what the page now shows as the last move: say which, one click does it.
            steps, reason = self._undo_plan()
            if reason is None and steps:
                last = self.game.actions[-steps]
                self.status.refuse(_("{said} Undo now takes back {name}'s {move}: press Undo again for that.", said=self.status.message, name=self.seat_name(last.seat), move=last.kind))
            return
        if outcome is not None and before is not None:
            undone = before.actions[len(self.game.actions) if self.game else 0 :]
            person = next((a for a in undone if a.seat not in self.bots), undone[0]) if undone else None
            if person is not None:
                self.status.ok(_("Undid {name}'s {move}.", name=self.seat_name(person.seat), move=person.kind))

    def hand_over(self, seat: int, bot: str | None) -> bool:
        """Hand `seat` to a bot (`bot` a strategy name) or back to a person (None)."""
        if not self.allowed(say("hand a seat over")):
            return False
        outcome = self._submit(HandOver(seat, bot))
        if outcome is None:
            return False
        self.status.ok(_("{name} is played by the bot {bot}.", name=self.seat_name(seat), bot=bot) if bot else _("{name} is played by a person again.", name=self.seat_name(seat)))
        return True

    def _submit(self, change: Any) -> Any:
        if self.game is None or self.table_id is None:
            self.status.refuse(_("No table is open."))
            return None
        self._stale = False
        self.last_fault = None
        try:
            outcome = self.store.submit(self.table_id, change, self.version)
        except Refused as exc:
            self._stale = isinstance(exc, StaleTable)
            self.game_said.acting = None  # what the redraw shows is another page's move, not this one's
            if exc.table is not None and exc.table.version != self.version:
                self._adopt(exc.table)  # the page was behind: show the table as it is now
                self._redraw_keeping_typed()
            self.status.refuse(exc.message)
            return None
        except KeyError:
            self.status.refuse(_("This table is no longer saved here (deleted?): nothing was changed."))
            return None
        except StoreFault as exc:  # the machine's (a full disk, a database gone): said plainly, nothing saved
            self.last_fault = exc
            self.status.refuse(self.fault_message(exc))
            return None
        except Exception as exc:
            what = change.action.kind if isinstance(change, Play) else change.kind
            self.status.refuse(_("The rules engine failed on {what} ({error}: {detail}); nothing was saved and the table is as it was.", what=what, error=type(exc).__name__, detail=str(exc)))
            return None
        self._adopt(outcome.table)
        if outcome.note:
            self.status.refuse(_("A bot stopped: {note}.", note=outcome.note))
        else:
            self.status.clear()
        self._redraw_keeping_typed() if outcome.behind else self.redraw()
        return outcome

    def fault_message(self, fault: StoreFault) -> str:
        """What this page says when the server cannot save (or read): the facilitator's page
        says what to do about it, a seat's page or a board to tell the teacher."""
        return fault.for_page(self.role in ("facilitator", "open", "lobby", "index"))

    def _undo_plan(self) -> tuple[int, Said | str | None]:
        """How many actions one Undo takes back (bot moves and the person's before), or why none
        (said in the page's language when shown)."""
        if self.game is None:
            return 0, NO_TABLE
        steps, reason = undo_plan(self.game, self._by_bot)
        return steps, undo_reason(reason) if reason is not None else None


@runtime_checkable
class DashboardModule(Protocol):
    """What a game's dashboard module (its card's "dashboard" layer) provides: the page that
    plays a table of it (a class's seat pages are built with it too), and the setup variants a
    class starter offers (field name: what the box says), none for most games."""

    DASHBOARD: type[TableDashboard]
    CLASS_VARIANTS: Mapping[str, str | Said]
