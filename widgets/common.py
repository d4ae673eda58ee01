"""Widget parts every game's dashboard shares, and the controller base they hang off.

Parts: `TableHeader`, `LogPanel`, `StatusLine`, `SaveBar` (undo, download, upload),
`StandingsTable`, `TablePicker` (unfinished tables + a new-game form slot) and
`PrivacyCurtain` (hot-seat: one seat's private panel at a time; locked to one seat on a seat
page). `TableDashboard` shows one version of a stored table: it turns a click into one change
submitted to the `Store`'s one write path with the version it shows (the store applies it to
the latest state, lets bot seats move, and answers with the table as it now stands), and asks
its subclass to redraw from that state. No rule lives here: legality, undo and save files are
the rules core's business, and who may act when is the store's (`docs/tables.md`).

Seat pages: every table gets a secret key per seat (store meta "seat_keys"); the facilitator's
page lists the links (class pb-seat-links), and a page whose query (`$QUERY_STRING`, set by
Voila) holds a matching table, seat and key opens as that seat alone. Pages poll the store
(`TableDashboard.refresh`) so moves made on other devices show up without a click.

Every string that came from a user (names, titles, colour names) goes through `esc`
before it reaches an HTML widget.
"""

from __future__ import annotations

import asyncio
import base64
import csv
import html
import io
import os
import random
import secrets
import time
import urllib.parse
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, ClassVar

import ipywidgets as widgets
import traitlets

from playbook.bots import undo_plan
from playbook.store import HandOver, Play, Refused, Store, Table, TableInfo, Undo
from rules import Action, Game, RuleError, SaveFileError, load_game

__all__ = [
    "STYLE",
    "LogPanel",
    "PrivacyCurtain",
    "SaveBar",
    "StandingsTable",
    "StatusLine",
    "TableDashboard",
    "TableHeader",
    "TablePicker",
    "bots_from_meta",
    "bots_meta",
    "card",
    "chip",
    "close_tree",
    "csv_text",
    "optional_limit",
    "seat_keys",
    "download_link",
    "esc",
    "figure_png",
]

#: One stylesheet for every dashboard, scoped to `.playbook-root`; sized for a projector.
STYLE = """
<style>
.playbook-root { font-size: 17px; line-height: 1.45; max-width: 1180px; }
.playbook-root .pb-card { border: 1px solid #c9cedb; border-radius: 10px; padding: 8px 14px;
  margin: 6px 0; background: #f8f9fc; color: #1c1f26; }
.playbook-root .pb-card h3 { margin: 2px 0 6px; font-size: 1.1em; }
.playbook-root .pb-chip { display: inline-block; border-radius: 999px; padding: 2px 11px;
  margin: 2px 5px 2px 0; font-weight: 600; border: 1px solid rgba(0, 0, 0, .35);
  white-space: nowrap; }
.playbook-root table.pb-table { border-collapse: collapse; width: 100%; }
.playbook-root table.pb-table th, .playbook-root table.pb-table td { padding: 4px 10px;
  border-bottom: 1px solid #dde1ea; text-align: left; vertical-align: top; }
.playbook-root table.pb-table th { font-size: .85em; text-transform: uppercase; color: #4a5163; }
.playbook-root .pb-muted { color: #5b6273; }
.playbook-root .pb-private-panel:not(:empty) { border: 3px dashed #7a5af5; border-radius: 12px;
  background: #f5f2ff; padding: 4px 10px; margin: 6px 0; }
.playbook-root .jupyter-button, .playbook-root .widget-button { font-size: 16px; height: auto;
  min-height: 36px; padding: 4px 14px; width: auto; min-width: 110px; }
.playbook-root .widget-label, .playbook-root .widget-inline-hbox .widget-label { font-size: 16px; }
.playbook-root .pb-log ol { margin: 0; padding-left: 3.2em; max-height: 16em; overflow-y: auto; }
</style>
"""

#: Seconds between two looks at the store for moves made on other pages.
POLL_SECONDS = 1.5

_STATUS_LOOK = {
    "info": ("#eef2fb", "#2f4a8a", "ℹ"),
    "ok": ("#e8f6ec", "#1d6b35", "✔"),
    "refuse": ("#fdecea", "#9b1c1c", "✋"),
}


def esc(value: object) -> str:
    """Text made safe for an HTML widget."""
    return html.escape(str(value), quote=True)


def chip(text: str, background: str = "#e0e3ea", foreground: str = "#111") -> str:
    """A rounded label; `text` is escaped, the colours are the caller's CSS values."""
    return f'<span class="pb-chip" style="background:{background};color:{foreground}">{esc(text)}</span>'


def download_link(data: str | bytes, filename: str, label: str = "Download save file", mime: str = "application/json") -> str:
    """An `<a download>` holding `data` (text is saved as UTF-8) as a data URI: Voila serves no local files."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    charset = ";charset=utf-8" if isinstance(data, str) else ""
    encoded = base64.b64encode(raw).decode("ascii")
    return (
        f'<a class="pb-download-link" download="{esc(filename)}" '
        f'href="data:{esc(mime)}{charset};base64,{encoded}" '
        f'style="font-weight:600">⬇ {esc(label)}</a>'
    )


def optional_limit(text: str, what: str) -> int | None:
    """A limit typed in a setup form: a whole number, or blank / "none" for no limit."""
    limit = text.strip().lower()
    if limit in ("", "none", "no limit"):
        return None
    if limit.isdigit():
        return int(limit)
    raise RuleError("setup", f"the {what} limit must be a whole number or 'none', not {limit!r}")


def csv_text(rows: Sequence[Mapping[str, object]]) -> str:
    """Rows of plain values as CSV text with a header (the first row's keys); None is blank."""
    if not rows:
        return ""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: ("" if v is None else v) for k, v in row.items()} for row in rows)
    return out.getvalue()


def figure_png(figure: Any, dpi: int = 100) -> bytes:
    """A matplotlib `Figure` as PNG bytes for a `widgets.Image`.

    Build the figure with `matplotlib.figure.Figure` (not pyplot): it then belongs to no
    global figure list, needs no close, and renders with Agg whatever the backend.
    """
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=dpi)
    return out.getvalue()


def close_tree(items: Iterable[widgets.Widget]) -> None:
    """Close widgets, their children, layouts and styles, so nothing old lives on in the browser.

    Pass only widgets built for one showing: a layout shared with a live widget would go too.
    """
    for item in items:
        close_tree(getattr(item, "children", ()))
        for part in (getattr(item, "layout", None), getattr(item, "style", None)):
            if isinstance(part, widgets.Widget):
                part.close()
        item.close()


def card(title: str, body: str, extra_class: str = "", attrs: str = "") -> str:
    """A boxed panel: `title` is escaped, `body` must already be safe HTML."""
    heading = f"<h3>{esc(title)}</h3>" if title else ""
    return f'<div class="pb-card {extra_class}" {attrs}>{heading}{body}</div>'


# -- small display parts ---------------------------------------------------------------


class TableHeader(widgets.HBox):
    """Game title, round and what the table waits for (classes pb-title, pb-round, pb-turn)."""

    def __init__(self) -> None:
        self.title_html = widgets.HTML().add_class("pb-title")
        self.round_html = widgets.HTML().add_class("pb-round")
        self.turn_html = widgets.HTML().add_class("pb-turn")
        super().__init__(
            (self.title_html, self.round_html, self.turn_html),
            layout=widgets.Layout(align_items="baseline", justify_content="flex-start", flex_flow="row wrap"),
        )
        self.add_class("pb-header")

    def show(self, title: str, round_text: str = "", waiting: str = "") -> None:
        self.title_html.value = f'<span style="font-size:1.7em;font-weight:700;margin-right:18px">{esc(title)}</span>'
        self.round_html.value = (
            f'<span style="font-size:1.2em;font-weight:600;margin-right:18px">{esc(round_text)}</span>' if round_text else ""
        )
        self.turn_html.value = f'<span style="font-size:1.2em">{esc(waiting)}</span>' if waiting else ""


class LogPanel(widgets.HTML):
    """Readable log lines, newest first. Pass only lines the viewer may see."""

    def __init__(self, title: str = "Game log") -> None:
        super().__init__()
        self.title = title
        self.add_class("pb-log")

    def show(self, lines: Sequence[str], limit: int | None = None) -> None:
        shown = list(lines)[-limit:] if limit else list(lines)
        if not shown:
            self.value = card(self.title, '<span class="pb-muted">Nothing yet.</span>')
            return
        start = len(lines)
        items = "".join(f'<li value="{start - i}">{esc(line)}</li>' for i, line in enumerate(reversed(shown)))
        self.value = card(self.title, f"<ol reversed>{items}</ol>")


class StatusLine(widgets.HTML):
    """One line telling what just happened, or why a click was refused (nothing changed)."""

    def __init__(self) -> None:
        super().__init__()
        self.kind = ""
        self.message = ""
        self.add_class("pb-status")

    def _say(self, kind: str, text: str) -> None:
        self.kind, self.message = kind, text
        background, colour, icon = _STATUS_LOOK[kind]
        self.value = (
            f'<div role="status" style="background:{background};color:{colour};border-radius:8px;'
            f'padding:6px 12px;margin:4px 0;font-weight:600">{icon} {esc(text)}</div>'
        )

    def info(self, text: str) -> None:
        self._say("info", text)

    def ok(self, text: str) -> None:
        self._say("ok", text)

    def refuse(self, text: str) -> None:
        self._say("refuse", text)

    def clear(self) -> None:
        self.kind = self.message = ""
        self.value = ""


class StandingsTable(widgets.HTML):
    """A ranked table; cells are plain text and escaped here."""

    def __init__(self, title: str = "Standings") -> None:
        super().__init__()
        self.title = title
        self.add_class("pb-standings")

    def show(self, header: Sequence[str], rows: Sequence[Sequence[object]], empty: str = "") -> None:
        if not rows:
            self.value = card(self.title, f'<span class="pb-muted">{esc(empty)}</span>') if empty else ""
            return
        head = "".join(f"<th>{esc(h)}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
        self.value = card(self.title, f'<table class="pb-table"><tr>{head}</tr>{body}</table>')


# -- save / load / undo ----------------------------------------------------------------


class SaveBar(widgets.HBox):
    """Undo (disabled with the reason as tooltip), the save file as a link, and an upload.

    A save file holds every secret of the game (hands, draws, picks), so mid-game the link
    is made only on request ("Prepare save file", pb-save-file) and dropped at the next
    redraw; once nothing is secret the dashboard may offer it straight away.
    """

    def __init__(
        self,
        on_undo: Callable[[], None],
        on_upload: Callable[[bytes, str], None],
        on_prepare: Callable[[], None],
    ) -> None:
        self.undo_button = widgets.Button(description="↶ Undo", disabled=True, tooltip="no table is open").add_class("pb-undo")
        self.prepare_button = widgets.Button(
            description="Prepare save file", icon="download", disabled=True, tooltip="Make a download link for this table"
        ).add_class("pb-save-file")
        self.download = widgets.HTML().add_class("pb-download")
        self.upload = widgets.FileUpload(accept=".json,application/json", multiple=False, description="Load save file").add_class("pb-upload")
        self._on_upload = on_upload
        self.undo_button.on_click(lambda _: on_undo())
        self.prepare_button.on_click(lambda _: on_prepare())
        self.upload.observe(self._uploaded, "value")
        super().__init__(
            (self.undo_button, self.prepare_button, self.download, self.upload),
            layout=widgets.Layout(align_items="center", flex_flow="row wrap", margin="8px 0 0 0", grid_gap="8px"),
        )
        self.add_class("pb-savebar")

    def _uploaded(self, change: Mapping[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        data, name = bytes(files[0]["content"]), str(files[0].get("name", ""))
        # Forget the file so choosing the same one again fires once more.
        self.upload.value = ()
        self._on_upload(data, name)

    def show(self, table_open: bool, undo_reason: str | None = "no table is open", undo_what: str = "the last move") -> None:
        """Reset for a redraw: no link; `undo_reason` None enables undo of `undo_what`."""
        self.undo_button.disabled = undo_reason is not None
        self.undo_button.tooltip = f"Cannot undo: {undo_reason}" if undo_reason else f"Take back {undo_what}"
        self.prepare_button.disabled = not table_open
        self.download.value = "" if table_open else '<span class="pb-muted">No table open</span>'

    def offer(self, save_text: str, filename: str, warning: str = "") -> None:
        """Show the download link for `save_text`, with an optional warning beside it."""
        note = f' <span class="pb-muted">{esc(warning)}</span>' if warning else ""
        self.download.value = download_link(save_text, filename) + note


# -- choosing a table ------------------------------------------------------------------


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


def seat_keys(game: Game[Any, Any]) -> dict[str, str]:
    """A fresh secret per seat (store meta "seat_keys"): whoever holds one may see that seat."""
    return {str(seat): secrets.token_urlsafe(16) for seat in range(len(getattr(game.setup, "names", ())))}


def _when(stamp: float) -> str:
    return time.strftime("%d %b %H:%M", time.localtime(stamp))


class TablePicker(widgets.VBox):
    """Unfinished tables with a Resume button each (class pb-resume), then a new-game form."""

    def __init__(self, on_resume: Callable[[str], None], heading: str = "Unfinished tables") -> None:
        self._on_resume = on_resume
        self.heading = widgets.HTML(f'<h3 style="margin:10px 0 4px">{esc(heading)}</h3>')
        self.rows = widgets.VBox().add_class("pb-tables")
        self.form: widgets.Widget = widgets.HTML()
        super().__init__((self.heading, self.rows, self.form))
        self.add_class("pb-picker")

    def set_form(self, form: widgets.Widget) -> None:
        self.form = form
        self.children = (self.heading, self.rows, form)

    def show(self, tables: Sequence[TableInfo]) -> None:
        old = self.rows.children
        rows: list[widgets.Widget] = []
        for info in tables:
            button = widgets.Button(description="Resume", button_style="primary", tooltip=f"Resume table {info.id}")
            button.add_class("pb-resume")
            button.table_id = info.id  # read by tests and scripts
            button.on_click(lambda _, table_id=info.id: self._on_resume(table_id))
            label = widgets.HTML(
                f"<b>{esc(info.title)}</b> "
                f'<span class="pb-muted">· {info.moves} moves · last played {esc(_when(info.updated))}</span>'
            )
            rows.append(widgets.HBox((button, label), layout=widgets.Layout(align_items="center")))
        if not rows:
            rows.append(widgets.HTML('<span class="pb-muted">No unfinished tables: start a new game below.</span>'))
        self.rows.children = tuple(rows)
        close_tree(old)


# -- hot seat ----------------------------------------------------------------------------


class PrivacyCurtain(widgets.VBox):
    """Seat buttons (pb-seat-<i>); the chosen seat's private panel; "Done - hide" (pb-hide).

    `build(seat)` must return fresh widgets made only from what that seat may see. The old
    panel is closed whenever it is replaced or hidden, so no secret outlives its showing.
    `lock(seat)` turns it into one player's own screen (a seat page): only that seat's
    button, its panel always open, no other seat can be chosen. While `keep_typed` is set
    (a redraw for another page's move), what the player had typed or chosen in the rebuilt
    panel is carried over to the controls of the same class, where they still accept it.
    """

    def __init__(self, build: Callable[[int], Sequence[widgets.Widget]], label: str = "Private view:") -> None:
        self._build = build
        self._waiting: frozenset[int] = frozenset()
        self.seat: int | None = None
        #: the only seat this screen may show (a seat page), or None for hot seat.
        self.locked: int | None = None
        #: carry typed values into the next rebuild of the same seat's panel.
        self.keep_typed = False
        self._shown: int | None = None
        self._built: dict[tuple[str, ...], Any] = {}
        self.seat_buttons: tuple[widgets.Button, ...] = ()
        self.label = widgets.HTML(f"<b>{esc(label)}</b>&nbsp;")
        self.seat_row = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self.hide_button = widgets.Button(description="Done - hide", icon="eye-slash", disabled=True).add_class("pb-hide")
        self.hide_button.on_click(lambda _: self.hide())
        self.prompt = widgets.HTML()
        self.panel = widgets.VBox().add_class("pb-private-panel")
        super().__init__((self.seat_row, self.prompt, self.panel))
        self.add_class("pb-curtain")

    def set_seats(self, labels: Sequence[str], enabled: Sequence[bool], waiting: Collection[int] = ()) -> None:
        """One button per seat, highlighted while the table waits for it. Call `refresh` next."""
        if len(self.seat_buttons) != len(labels):
            old = self.seat_buttons
            self.seat_buttons = tuple(self._seat_button(i) for i in range(len(labels)))
            self._show_buttons()
            close_tree(old)
        for button, label, on in zip(self.seat_buttons, labels, enabled):
            button.description = label
            button.disabled = not on
            button.tooltip = "Show this seat's private view" if on else "Not a seat played on this screen"
        self._waiting = frozenset(waiting)
        if self.locked is not None:
            self.seat = self.locked
        elif self.seat is not None and not enabled[self.seat]:
            self.seat = None

    def _show_buttons(self) -> None:
        if self.locked is None:
            self.seat_row.children = (self.label, *self.seat_buttons, self.hide_button)
        else:
            # Other seats' buttons are left out of the tree: a seat page offers nothing else.
            self.seat_row.children = (self.label, *self.seat_buttons[self.locked : self.locked + 1])

    def lock(self, seat: int) -> None:
        """Make this a seat page: only `seat`, always shown. Call `refresh` next (or redraw)."""
        self.locked = self.seat = seat
        self.label.value = "<b>Your seat:</b>&nbsp;"
        self._show_buttons()

    def _seat_button(self, seat: int) -> widgets.Button:
        button = widgets.Button().add_class(f"pb-seat-{seat}")
        button.on_click(lambda _: self.choose(seat))
        return button

    def choose(self, seat: int) -> None:
        if self.locked is not None and seat != self.locked:
            return  # a seat page never opens another seat's panel
        self.seat = seat
        self.refresh()

    def hide(self) -> None:
        self.seat = self.locked  # a seat page's own panel stays open: it is on the player's device
        self.refresh()

    def refresh(self) -> None:
        """Rebuild the private panel for the chosen seat, or clear it."""
        old = self.panel.children
        for i, button in enumerate(self.seat_buttons):
            button.button_style = "info" if i == self.seat else ("warning" if i in self._waiting else "")
        typed = self._typed() if self.keep_typed and self.seat is not None and self.seat == self._shown else {}
        if self.seat is None:
            self.panel.children = ()
            self.prompt.value = (
                '<span class="pb-muted">Press your seat to see your private view; '
                'press "Done - hide" before you pass the screen on.</span>'
            )
        else:
            self.panel.children = tuple(self._build(self.seat))
            self.prompt.value = ""
        self._restore(typed)
        self._shown = self.seat
        self._built = {key: w.value for key, w in _inputs(self.panel).items()}
        self.hide_button.disabled = self.seat is None
        close_tree(old)

    def _typed(self) -> dict[tuple[str, ...], Any]:
        """Values the player changed since the panel was built."""
        return {
            key: w.value for key, w in _inputs(self.panel).items() if key in self._built and w.value != self._built[key]
        }

    def _restore(self, typed: Mapping[tuple[str, ...], Any]) -> None:
        for key, w in _inputs(self.panel).items():
            if key in typed and not getattr(w, "disabled", False):
                try:
                    w.value = typed[key]
                except (traitlets.TraitError, ValueError):
                    pass  # the control no longer takes it (a colour gone, a smaller bowl): keep its default


def _in_kernel() -> bool:
    """True inside a running IPython kernel (a Voila page), where an asyncio task can poll."""
    try:
        from ipykernel.kernelbase import Kernel
    except ImportError:
        return False
    return bool(Kernel.initialized())


def _inputs(root: widgets.Widget) -> dict[tuple[str, ...], widgets.Widget]:
    """The input controls under `root` by their CSS classes; unnamed or repeated ones are left out."""
    found: dict[tuple[str, ...], widgets.Widget] = {}
    repeated: set[tuple[str, ...]] = set()
    stack = list(getattr(root, "children", ()))
    while stack:
        w = stack.pop()
        stack.extend(getattr(w, "children", ()))
        if not isinstance(w, widgets.ValueWidget) or isinstance(w, (widgets.HTML, widgets.HTMLMath, widgets.Label)):
            continue
        key = tuple(sorted(w._dom_classes))
        if not key:
            continue
        if key in found:
            repeated.add(key)
        found[key] = w
    return {k: w for k, w in found.items() if k not in repeated}


# -- the controller base -------------------------------------------------------------------


class TableDashboard(widgets.VBox):
    """Owns (game, store, table_id); every click becomes one action, saved at once.

    Subclasses set `slug` and `game_title`, build their own setup form and table view, and
    implement `draw_table`, `waiting` and `bot_action`; games with a `PrivacyCurtain` return
    it from `seat_curtain`, which enables seat pages. A subclass ends its `__init__` with
    `open_from_query()` (not `show_lobby()`). Attributes tests rely on: `store`, `game`
    (None in the lobby), `table_id`, `bots` (seat -> bot name), `status`, `header`,
    `savebar`, `picker`, `game_log`, `standings`, `new_game_button`, `seat_links`, `seat`
    (the seat of a seat page, else None).

    Seat pages: `start` gives every seat a secret key (store meta "seat_keys"); the
    facilitator's page lists `?table=<id>&seat=<i>&key=<key>` links (pb-seat-links). A page
    opened with such a query (Voila passes it as $QUERY_STRING) shows that one seat's private
    panel and nothing to reach another's: no lobby, no other seat, no save file, no undo.
    Every open page polls the store (`refresh`) so moves made on other devices show up.
    """

    slug: ClassVar[str] = ""
    game_title: ClassVar[str] = ""
    #: bot name -> strategy(state, seat, rng) returning a legal action.
    bot_strategies: ClassVar[Mapping[str, Callable[[Any, int, random.Random], Action]]] = {}
    #: False for games where everything is public: the save file is then always offered.
    hidden_information: ClassVar[bool] = True

    def __init__(self, store: Store | None = None, query: str | None = None) -> None:
        self.store = store if store is not None else Store()
        #: the page's query string; None reads $QUERY_STRING, which Voila sets per page.
        self.query = os.environ.get("QUERY_STRING", "") if query is None else query
        #: the seat this page belongs to (a seat link), or None for the facilitator's page.
        self.seat: int | None = None
        self._poller: asyncio.Task[None] | None = None
        self._keys: tuple[str | None, dict[str, str]] = (None, {})
        self.game: Game[Any, Any] | None = None
        self.table_id: str | None = None
        #: the version of the table this page shows: every change it submits carries it.
        self.version = 0
        self._by_bot: tuple[bool, ...] = ()
        self.bots: dict[int, str] = {}
        self.style_html = widgets.HTML(STYLE)
        self.header = TableHeader()
        self.status = StatusLine()
        self.savebar = SaveBar(self.undo, self.load_file, self.offer_download)
        self.picker = TablePicker(self.resume)
        self.game_log = LogPanel()
        self.standings = StandingsTable()
        self.new_game_button = widgets.Button(description="Tables / new game", icon="th-list").add_class("pb-new-game")
        self.new_game_button.on_click(lambda _: self.show_lobby())
        self.screen = widgets.VBox()
        self.seat_links = widgets.HTML(layout=widgets.Layout(display="none")).add_class("pb-seat-links")
        self._table: widgets.Widget | None = None
        super().__init__((self.style_html, self.header, self.status, self.screen, self.seat_links, self.savebar))
        self.add_class("playbook-root")
        self.add_class(f"playbook-{self.slug}")

    # -- hooks for each game -----------------------------------------------------------
    def table_view(self) -> widgets.Widget:
        """The live game's widgets (built once)."""
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

    def base_title(self, game: Game[Any, Any]) -> str:
        return f"{self.game_title}: {', '.join(getattr(game.setup, 'names', ()))}"

    def seat_name(self, seat: int | None) -> str:
        names = getattr(self.game.setup, "names", ()) if self.game else ()
        return names[seat] if seat is not None and 0 <= seat < len(names) else "the table"

    # -- screens ---------------------------------------------------------------------------
    def show_lobby(self) -> None:
        """The table picker and the new-game form; the open table (if any) stays saved."""
        if self.refused_on_seat_page("go back to the tables"):
            return
        self._stop_polling()
        self.game, self.table_id, self.bots = None, None, {}
        self._show_seat_links()
        self.header.show(self.game_title, "", "Resume a table or start a new game")
        self.picker.show(self.store.tables(game=self.slug, unfinished=True))
        self.screen.children = (self.picker,)
        self.savebar.show(table_open=False)
        self.on_lobby()

    def on_lobby(self) -> None:
        """Called when the lobby shows (reset private views, fresh seed...)."""

    def redraw(self) -> None:
        """Show the open table as its state stands now."""
        if self.game is None:
            return
        if self._table is None:
            self._table = self.table_view()
        if self.screen.children != (self._table,):
            self.screen.children = (self._table,)
        self.draw_table()
        self._show_seat_links()
        if self.seat is not None:
            return  # a seat page has no save bar: the file holds every secret, undo is the table's
        steps, reason = self._undo_plan()
        # Undo takes back what this page shows as the last move: the tooltip names it.
        last = self.game.actions[-steps] if steps else None
        what = f"{self.seat_name(last.seat)}'s {last.kind} (the last move)" if last is not None else "the last move"
        self.savebar.show(table_open=True, undo_reason=reason, undo_what=what)
        self.savebar.prepare_button.layout.display = "" if self.hidden_information else "none"
        if not self.hidden_information or self.game.rules.over(self.game.state):
            self.offer_download()  # nothing is (or is any longer) secret

    def offer_download(self) -> None:
        """Put the save file in the download link (mid-game it shows every secret: warn)."""
        if self.game is None or self.seat is not None:
            return
        secret = self.hidden_information and not self.game.rules.over(self.game.state)
        warning = "This file shows every hidden hand, draw and pick: keep it from the players." if secret else ""
        self.savebar.offer(self.game.to_json(), f"{self.slug}-{self.table_id or 'game'}.json", warning)

    # -- seat pages --------------------------------------------------------------------------
    def _show_seat_links(self) -> None:
        """The facilitator's card of seat links; hidden on seat pages, in the lobby, without a curtain."""
        curtain = self.seat_curtain()
        if self.game is None or self.table_id is None or self.seat is not None or curtain is None:
            self.seat_links.value, self.seat_links.layout.display = "", "none"
            return
        if self._keys[0] != self.table_id:  # read once per table, not at every redraw
            self._keys = (self.table_id, dict(self.store.info(self.table_id).meta.get("seat_keys") or {}))
        keys = self._keys[1]
        rows = []
        for seat, name in enumerate(getattr(self.game.setup, "names", ())):
            key = keys.get(str(seat))
            if seat in self.bots or not key:
                continue
            # Relative: Voila keeps the notebook's path, so the link works on any host name.
            href = "?" + urllib.parse.urlencode({"table": self.table_id, "seat": seat, "key": key})
            rows.append(
                f'<li><a href="{esc(href)}" target="_blank" rel="noopener" data-link-seat="{seat}">'
                f"{esc(name)}'s own page</a></li>"
            )
        if not rows:
            self.seat_links.value, self.seat_links.layout.display = "", "none"
            return
        note = (
            '<div class="pb-muted">Send each player their own link (right-click, copy link): it opens their '
            "private view on their own phone or laptop. Keep the links from the other players.</div>"
        )
        self.seat_links.value = card("Seat links", f"{note}<ul>{''.join(rows)}</ul>")
        self.seat_links.layout.display = ""

    def open_from_query(self) -> None:
        """Open what the page's query asks for: a seat link, a table, or (default) the lobby."""
        params = urllib.parse.parse_qs(self.query.lstrip("?"))
        table_id = (params.get("table") or [""])[0]
        seat_text, key = (params.get("seat") or [""])[0], (params.get("key") or [""])[0]
        if not table_id:
            self.show_lobby()
            return
        try:
            info = self.store.info(table_id)
        except KeyError:
            info = None
        if info is None or info.game != self.slug:
            self.show_lobby()
            self.status.refuse(f"There is no {self.game_title} table {table_id!r} here: the link is wrong or the table was deleted.")
            return
        curtain = self.seat_curtain()
        if curtain is None or (not seat_text and not key):
            # A plain table link, or a game with nothing hidden: the same as its Resume button.
            self.resume(table_id)
            return
        expected = (info.meta.get("seat_keys") or {}).get(seat_text)
        bots = bots_from_meta(info.meta, self.bot_strategies)
        if (
            not seat_text.isdigit()
            or int(seat_text) in bots
            or not isinstance(expected, str)
            or not secrets.compare_digest(expected.encode(), key.encode())
        ):
            self.show_lobby()
            self.status.refuse("This seat link is not valid (wrong seat or key): nothing private was opened. Ask the facilitator for your link.")
            return
        self.seat = int(seat_text)
        curtain.lock(self.seat)
        # A seat page never goes back to the lobby, another table or the save file.
        for part in (self.new_game_button, self.savebar, self.seat_links):
            part.layout.display = "none"
        self.resume(table_id)
        if self.game is not None:
            self.status.ok(f"This is {self.seat_name(self.seat)}'s own page: your private view is below, for your eyes only.")

    def refused_on_seat_page(self, what: str) -> bool:
        """True (and say so) on a seat page, for the table's own controls.

        Their widgets are hidden there, but a hand-made front-end message could still click
        them: the check is here, not only in the layout.
        """
        if self.seat is None:
            return False
        self.status.refuse(f"Only the table's own page can {what}; this page is {self.seat_name(self.seat)}'s.")
        return True

    # -- live updates --------------------------------------------------------------------------
    def refresh(self) -> bool:
        """Reload the open table if another page changed it; True when it did.

        The table's version (one indexed read) tells whether anything changed. Nothing is
        redrawn when nothing did; when something did, the open private panel keeps what its
        player had typed or chosen (`PrivacyCurtain.keep_typed`).
        """
        if self.game is None or self.table_id is None:
            return False
        if self.store.version(self.table_id) == self.version:
            return False
        try:
            table = self.store.load(self.table_id)
        except (KeyError, SaveFileError, RuleError) as exc:
            self.status.refuse(f"Could not reload table {self.table_id}: {exc}")
            return False
        self._adopt(table)
        self._redraw_keeping_typed()
        return True

    def _redraw_keeping_typed(self) -> None:
        curtain = self.seat_curtain()
        if curtain is not None:
            curtain.keep_typed = True  # someone else moved: keep this player's half-filled form
        try:
            self.redraw()
        finally:
            if curtain is not None:
                curtain.keep_typed = False

    def _start_polling(self) -> None:
        """Poll the store from the kernel's event loop; outside a kernel (tests) do nothing."""
        self._stop_polling()
        if not _in_kernel():
            return  # headless use calls `refresh` itself
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # a kernel between cells with no loop running: nothing could run the task
        self._poller = loop.create_task(self._poll())

    def _stop_polling(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            self._poller = None

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(POLL_SECONDS)
            try:
                self.refresh()
            except Exception as exc:  # noqa: BLE001 - a failed poll must not stop the next one
                self.status.refuse(f"Could not check for other pages' moves ({type(exc).__name__}: {exc}).")

    def close(self) -> None:
        self._stop_polling()
        super().close()

    # -- opening tables --------------------------------------------------------------------
    def start(self, game: Game[Any, Any], bots: Mapping[int, str] | None = None) -> None:
        """Save `game` as a new table, with a secret key per seat for seat links, and open it."""
        if self.refused_on_seat_page("start a new table"):
            return
        try:
            table_id = self.store.create(game, self.base_title(game), {**bots_meta(dict(bots or {})), "seat_keys": seat_keys(game)})
            table = self.store.load(table_id)
        except RuleError as exc:
            self.status.refuse(f"Cannot start: {exc.message}.")
            return
        self._open(table, f"New table {table_id} saved: a refresh or another page can resume it.")

    def resume(self, table_id: str) -> None:
        """Replay a stored table and open it."""
        try:
            table = self.store.load(table_id)
            if not table.meta.get("seat_keys"):  # a table saved before seat links: give it keys now
                table = self.store.set_meta(table_id, {"seat_keys": seat_keys(table.game)}, table.version)
        except (KeyError, SaveFileError, RuleError) as exc:
            self.status.refuse(f"Cannot open table {table_id}: {exc}")
            return
        self._open(table, f"Resumed table {table_id} after {len(table.game.actions)} moves.")

    def load_file(self, data: bytes, name: str = "") -> None:
        """Open an uploaded save file as a new table; a bad file changes nothing."""
        if self.refused_on_seat_page("load a save file"):
            return
        label = f"“{name}”" if name else "the file"
        try:
            game = load_game(data)
        except (SaveFileError, RuleError) as exc:
            self.status.refuse(f"Could not load {label}: {exc}. Nothing was changed.")
            return
        except Exception as exc:  # noqa: BLE001 - no file, however made, may break the page
            self.status.refuse(f"Could not load {label} ({type(exc).__name__}). Nothing was changed.")
            return
        if game.rules.slug != self.slug:
            self.status.refuse(f"Could not load {label}: it is a {game.rules.slug} game, not {self.slug}. Nothing was changed.")
            return
        try:
            table_id = self.store.create(game, self.base_title(game), {"seat_keys": seat_keys(game)})
            table = self.store.load(table_id)
        except (RuleError, KeyError) as exc:
            self.status.refuse(f"Could not load {label}: {exc}. Nothing was changed.")
            return
        self._open(table, f"Loaded {label} as table {table_id} ({len(game.actions)} moves); every seat is played by hand.")

    def _adopt(self, table: Table) -> None:
        """Show `table` from now on: its game, version and bot seats."""
        self.game, self.table_id, self.version = table.game, table.id, table.version
        self.bots, self._by_bot = table.bots, table.by_bot

    def _open(self, table: Table, message: str) -> None:
        self._adopt(table)
        self.status.ok(message)
        self.on_open()
        self.redraw()
        self._start_polling()

    def on_open(self) -> None:
        """Called when a table opens (close the previous table's private views...)."""

    # -- playing: every change goes through the store's one write path ----------------------------
    def act(self, action: Action, release_bots: bool = False) -> bool:
        """Submit one action (the store applies it to the latest state, then lets the bots
        move); redraw. False when refused: the status line says why and nothing changed."""
        return self._submit(Play(action, release_bots)) is not None

    def undo(self) -> None:
        """Take back the last move made (with the bot moves that followed it)."""
        if self.refused_on_seat_page("undo"):
            return
        before = self.game
        if self._submit(Undo()) is not None and before is not None:
            undone = before.actions[len(self.game.actions) if self.game else 0 :]
            person = next((a for a in undone if a.seat not in self.bots), undone[0]) if undone else None
            if person is not None:
                self.status.ok(f"Undid {self.seat_name(person.seat)}'s {person.kind}.")

    def hand_over(self, seat: int, bot: str | None) -> bool:
        """Hand `seat` to a bot (`bot` a strategy name) or back to a person (None)."""
        if self.refused_on_seat_page("hand a seat over"):
            return False
        outcome = self._submit(HandOver(seat, bot))
        if outcome is None:
            return False
        self.status.ok(f"{self.seat_name(seat)} is played by " + (f"the bot {bot}." if bot else "a person again."))
        return True

    def _submit(self, change: Any) -> Any:
        if self.game is None or self.table_id is None:
            self.status.refuse("No table is open.")
            return None
        try:
            outcome = self.store.submit(self.table_id, change, self.version)
        except Refused as exc:
            if exc.table is not None and exc.table.version != self.version:
                self._adopt(exc.table)  # the page was behind: show the table as it is now
                self._redraw_keeping_typed()
            self.status.refuse(exc.message)
            return None
        except KeyError:
            self.status.refuse(f"Table {self.table_id} is no longer saved here (deleted?): nothing was changed.")
            return None
        except Exception as exc:  # noqa: BLE001 - a bug in a rules model must not lose the table
            what = change.action.kind if isinstance(change, Play) else change.kind
            self.status.refuse(f"The rules engine failed on {what} ({type(exc).__name__}: {exc}); nothing was saved and the table is as it was.")
            return None
        self._adopt(outcome.table)
        if outcome.note:
            self.status.refuse(f"A bot stopped: {outcome.note}.")
        else:
            self.status.clear()
        self._redraw_keeping_typed() if outcome.behind else self.redraw()
        return outcome

    def _undo_plan(self) -> tuple[int, str | None]:
        """How many actions one Undo takes back (bot moves and the person's before), or why none."""
        if self.game is None:
            return 0, "no table is open"
        return undo_plan(self.game, self._by_bot)
