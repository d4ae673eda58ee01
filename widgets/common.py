"""Widget parts every game's dashboard shares.

Parts: `TableHeader`, `LogPanel`, `StatusLine`, `Announcer` (what the page's live region says),
`SaveBar` (undo, download, upload),
`StandingsTable` and `PrivacyCurtain` (hot-seat: one seat's private panel at a time; locked to
one seat on a seat page), and the charts' fonts and styles (matplotlib). The HTML they hold is
drawn with `drawing.common`. The controller every dashboard hangs off, `TableDashboard`, and the
pages of a table (facilitator, board, seat, join) are in `widgets.table`. No rule lives here.

Every string that came from a user (names, titles, colour names) goes through `esc`
(`drawing.common`) before it reaches an HTML widget.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import html
import io
import itertools
import logging
import re
import time
from collections.abc import (
    Callable,
    Collection,
    Hashable,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from contextlib import contextmanager
from typing import Any

import ipywidgets as widgets
import traitlets

from drawing.common import SERIES_COLOURS, card, download_link, esc
from drawing.common import text as plain_html

# csv_text: the one CSV writer, in the page's language (shared with the command line)
from i18n import _, _n, csv_text, render
from rules import RuleError
from rules.text import Said, say

__all__ = [
    "WIDE",
    "Announcer",
    "DebriefBar",
    "LogPanel",
    "Picture",
    "PrivacyCurtain",
    "SaveBar",
    "StandingsTable",
    "StatusLine",
    "TableHeader",
    "close_tree",
    "csv_text",
    "day_and_time",
    "figure_png",
    "optional_limit",
    "plot_context",
    "say_attrs",
    "series_styles",
    "words_of",
]

#: a control's label as wide as its text (ipywidgets' default cuts a long one short).
WIDE = {"description_width": "initial"}

#: why undo is off when no table is open (said in the page's language when shown).
NO_TABLE = say("no table is open")

_STATUS_LOOK = {
    "info": ("#eef2fb", "#2f4a8a", "ℹ"),
    "ok": ("#e8f6ec", "#1d6b35", "✔"),
    "refuse": ("#fdecea", "#9b1c1c", "✋"),
}


def optional_limit(text: str, what: str | Said) -> int | None:
    """A limit typed in a setup form: a whole number, or blank / "none" for no limit."""
    limit = text.strip().lower()
    if limit in ("", "none", "no limit"):
        return None
    if limit.isdigit():
        return int(limit)
    raise RuleError("setup", say("the {what} limit must be a whole number or 'none', not {limit}", what=what, limit=repr(limit)))


def figure_png(figure: Any, dpi: int = 100) -> bytes:
    """A matplotlib `Figure` as PNG bytes for a `widgets.Image`.

    Build the figure with `matplotlib.figure.Figure` (not pyplot): it then belongs to no
    global figure list, needs no close, and renders with Agg whatever the backend.
    """
    out = io.BytesIO()
    with plot_context():  # tick labels are made while drawing: they get the same fonts
        figure.savefig(out, format="png", dpi=dpi)
    return out.getvalue()


class Picture(widgets.HTML):
    """A PNG (a chart, a page's preview) shown as an `<img>` with its alternative text, which
    `widgets.Image` cannot carry: a screen reader names the picture, and says what it shows.
    `png` holds the bytes shown (empty: nothing shown, and the widget takes no room)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.png = b""

    def show(self, png: bytes, alt: str) -> None:
        self.png = bytes(png)
        if not self.png:
            self.value = ""
            return
        data = base64.b64encode(self.png).decode("ascii")
        self.value = f'<img src="data:image/png;base64,{data}" alt="{esc(alt)}" style="max-width: 100%; height: auto; display: block">'


def day_and_time(stamp: float) -> str:
    """When something happened, as a list of tables says it: '03 Dec 14:05'."""
    return time.strftime("%d %b %H:%M", time.localtime(stamp))


def close_tree(items: Iterable[widgets.Widget]) -> None:
    """Close widgets, their children, layouts and styles, so nothing old lives on in the browser.

    Pass only widgets built for one showing: a layout shared with a live widget would go too.
    """
    for item in items:
        close_tree(getattr(item, "children", ()))
        # only parts already made: reading one would make it just to close it (widgets.fewer_messages)
        for part in (item._trait_values.get("layout"), item._trait_values.get("style")):
            if isinstance(part, widgets.Widget):
                part.close()
        item.close()


# -- what a screen reader hears ---------------------------------------------------------
#
# A page has one live region (the template's `a11y.js` makes it, outside every widget, so a
# redraw never rebuilds it). Widgets do not write to it: a message is a mark in their HTML,
# `data-say` (a number no other message of this kernel has) and `data-urgent`, and the script
# says each number once, in the order they came. A redraw that draws the same message again
# carries the same number, so it is not said again; a new message gets a new number even when
# its words are the same (a second refusal of a second press).

_SAID = itertools.count(1)


def say_attrs(urgent: bool = False) -> str:
    """The attributes that mark an element's text as a new message for the page's live region:
    said once, politely, or at once (`urgent`: a refusal) by the assertive region."""
    return f'data-say="{next(_SAID)}" data-urgent="{1 if urgent else 0}"'


def words_of(markup: str) -> str:
    """The words a piece of the page's HTML shows, as one line of plain text."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


class Announcer(widgets.HTML):
    """A page's messages from the state it redraws from (class pb-live-messages, never shown): the
    reveal and its outcome, whose turn it is. `say` adds a message; `follow(topic, text)` says
    `text` only when it differs from what `topic` said last (a redraw of the same state says
    nothing). The last few messages stay in the HTML, so two said in one redraw both reach the
    script. Refusals and confirmations are the status line's (`StatusLine`), marked the same way."""

    KEEP = 4

    def __init__(self) -> None:
        super().__init__(layout=widgets.Layout(display="none"))
        self.add_class("pb-live-messages")  # not pb-announce: a Dangerous Ideas button
        self.said: list[str] = []
        self._marks: list[str] = []
        self._topics: dict[str, str] = {}

    def announce(self, text: str, urgent: bool = False) -> None:
        if not text:
            return
        self.said.append(text)
        self._marks = [*self._marks, f"<p {say_attrs(urgent)}>{plain_html(text)}</p>"][-self.KEEP :]
        self.value = "".join(self._marks)

    def follow(self, topic: str, text: str) -> bool:
        """Say `text` if `topic` last said something else; True when it was said."""
        if self._topics.get(topic) == text:
            return False
        self._topics[topic] = text
        self.announce(text)
        return True

    def forget(self) -> None:
        """Start again (another table opened on the page): nothing followed so far counts."""
        self._topics.clear()


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
        # The page's h1 is the template's title; the table is the page's first section.
        self.title_html.value = f'<h2 class="pb-table-title" style="font-size:1.7em;font-weight:700;margin:0 18px 0 0;display:inline">{esc(title)}</h2>'
        self.round_html.value = (
            f'<span style="font-size:1.2em;font-weight:600;margin-right:18px">{esc(round_text)}</span>' if round_text else ""
        )
        self.turn_html.value = f'<span style="font-size:1.2em">{esc(waiting)}</span>' if waiting else ""


class LogPanel(widgets.HTML):
    """Readable log lines, newest first. Pass only lines the viewer may see."""

    def __init__(self, title: str = "") -> None:
        super().__init__()
        self.title = title or _("Game log")
        self.add_class("pb-log")

    def show(self, lines: Sequence[str], limit: int | None = None) -> None:
        shown = list(lines)[-limit:] if limit else list(lines)
        if not shown:
            self.value = card(self.title, f'<span class="pb-muted">{esc(_("Nothing yet."))}</span>')
            return
        start = len(lines)
        items = "".join(f'<li value="{start - i}">{esc(line)}</li>' for i, line in enumerate(reversed(shown)))
        # The list scrolls (dashboard.css): a keyboard reaches it (tabindex), a screen reader names it.
        self.value = card(self.title, f'<ol reversed tabindex="0" aria-label="{esc(self.title)}">{items}</ol>')


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
        # Said by the page's live region (`say_attrs`), a refusal at once; the icon is for eyes.
        self.value = (
            f'<div {say_attrs(kind == "refuse")} style="background:{background};color:{colour};border-radius:8px;'
            # A name in the message ("This is מרים's own page") is isolated from the words around it.
            f'padding:6px 12px;margin:4px 0;font-weight:600"><span aria-hidden="true">{icon}</span> {plain_html(text)}</div>'
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

    def __init__(self, title: str = "") -> None:
        super().__init__()
        self.title = title or _("Standings")
        self.add_class("pb-standings")

    def show(self, header: Sequence[str], rows: Sequence[Sequence[object]], empty: str = "") -> None:
        if not rows:
            self.value = card(self.title, f'<span class="pb-muted">{esc(empty)}</span>') if empty else ""
            return
        head = "".join(f"<th>{esc(h)}</th>" for h in header)
        body = "".join("<tr>" + "".join(f'<td data-label="{esc(h)}">{esc(c)}</td>' for h, c in zip(header, row)) + "</tr>" for row in rows)
        self.value = card(self.title, f'<table class="pb-table pb-cards"><tr>{head}</tr>{body}</table>')


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
        # TRANSLATORS: a button: take back the last move
        self.undo_button = widgets.Button(description=_("↶ Undo"), disabled=True, tooltip=_("no table is open")).add_class("pb-undo")
        self.prepare_button = widgets.Button(
            description=_("Prepare save file"), icon="download", disabled=True, tooltip=_("Make a download link for this table")
        ).add_class("pb-save-file")
        self.download = widgets.HTML().add_class("pb-download")
        self.upload = widgets.FileUpload(accept=".json,application/json", multiple=False, description=_("Load save file")).add_class("pb-upload")
        self._on_upload = on_upload
        self.undo_button.on_click(lambda _event: on_undo())
        self.prepare_button.on_click(lambda _event: on_prepare())
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

    def show(self, table_open: bool, undo_reason: Said | str | None = NO_TABLE, undo_what: Said | str = "") -> None:
        """Reset for a redraw: no link; `undo_reason` None enables undo of `undo_what` (the
        last move by default). Reasons may be `Said`: they are said in the page's language."""
        self.undo_button.disabled = undo_reason is not None
        if undo_reason:
            self.undo_button.tooltip = _("Cannot undo: {reason}", reason=render(undo_reason))
        else:
            self.undo_button.tooltip = _("Take back {what}", what=render(undo_what)) if undo_what else _("Take back the last move")
        self.prepare_button.disabled = not table_open
        self.download.value = "" if table_open else f'<span class="pb-muted">{esc(_("No table open"))}</span>'

    def offer(self, save_text: str, filename: str, warning: str = "") -> None:
        """Show the download link for `save_text`, with an optional warning beside it."""
        note = f' <span class="pb-muted">{esc(warning)}</span>' if warning else ""
        self.download.value = download_link(save_text, filename, _("Download save file")) + note


# -- hot seat ----------------------------------------------------------------------------


class PrivacyCurtain(widgets.VBox):
    """Seat buttons (pb-seat-<i>); the chosen seat's private panel; "Done - hide" (pb-hide).

    `build(seat)` must return fresh widgets made only from what that seat may see. The old
    panel is closed whenever it is replaced or hidden, so no secret outlives its showing.
    `lock(seat)` turns it into one player's own screen (a seat page): only that seat's
    button, its panel always open, no other seat can be chosen. On a shared screen (not
    locked) a seat button first asks (pb-show-private, pb-show-cancel) and says the view is
    private; a seat a device holds (`set_seats(..., elsewhere=...)`) has no button here at
    all: its player sees it on their own device. While `keep_typed` is set
    (a redraw for another page's move), what the player had typed or chosen in the rebuilt
    panel is carried over to the controls of the same class, where they still accept it.
    """

    def __init__(
        self,
        build: Callable[[int], Sequence[widgets.Widget]],
        label: str = "",
        key: Callable[[int], Hashable] | None = None,
    ) -> None:
        self._build = build
        #: what the seat's panel shows, as a value: while it stays the same the panel is not
        #: rebuilt, so another page's move leaves it (and a click on it) alone.
        self._key = key
        self._shown_key: Hashable = None
        self._waiting: frozenset[int] = frozenset()
        self.seat: int | None = None
        #: the only seat this screen may show (a seat page), or None for hot seat.
        self.locked: int | None = None
        #: carry typed values into the next rebuild of the same seat's panel.
        self.keep_typed = False
        #: seconds a rebuild waits (see `refresh`); 0: at once.
        self.defer = 0.0
        #: False on a page that shows no private view (the board): nothing is built at all.
        self.on_page = True
        self._pending: asyncio.TimerHandle | None = None
        self._shown: int | None = None
        self._built: dict[tuple[str, ...], Any] = {}
        self.seat_buttons: tuple[widgets.Button | None, ...] = ()
        #: seats held by a device: no button here (see `set_seats`).
        self._elsewhere: frozenset[int] = frozenset()
        self._enabled: tuple[bool, ...] = ()
        self._names: tuple[str, ...] = ()
        #: the seat whose view the screen asks about before showing it (None: not asking).
        self.asking: int | None = None
        self.label = widgets.HTML(f"<b>{esc(label or _('Private view:'))}</b>&nbsp;")
        self.seat_row = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self.hide_button = widgets.Button(description=_("Done - hide"), icon="eye-slash", disabled=True).add_class("pb-hide")
        self.hide_button.on_click(lambda _event: self.hide())
        self.prompt = widgets.HTML()
        self.ask_text = widgets.HTML().add_class("pb-ask-private")
        self.show_button = widgets.Button(description=_("Show it"), icon="eye", button_style="warning").add_class("pb-show-private")
        self.show_button.on_click(lambda _event: self.confirm())
        self.cancel_button = widgets.Button(description=_("Cancel"), icon="times").add_class("pb-show-cancel")
        self.cancel_button.on_click(lambda _event: self.cancel())
        self.ask_box = widgets.HBox(
            (self.ask_text, self.show_button, self.cancel_button),
            layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 10px", display="none"),
        ).add_class("pb-ask")
        self.panel = widgets.VBox().add_class("pb-private-panel")
        super().__init__((self.seat_row, self.prompt, self.ask_box, self.panel))
        self.add_class("pb-curtain")

    def set_seats(self, labels: Sequence[str], enabled: Sequence[bool], waiting: Collection[int] = (), elsewhere: Collection[int] = ()) -> None:
        """One button per seat, highlighted while the table waits for it; none for the seats in
        `elsewhere` (held by a device: shown there, never on this shared screen). Call `refresh` next."""
        if not self.on_page:
            return
        elsewhere = frozenset(elsewhere) if self.locked is None else frozenset()
        self._names = tuple(labels)
        if len(self.seat_buttons) != len(labels):
            old = [b for b in self.seat_buttons if b is not None]
            # A seat page has its own button only: other seats' would be widgets for nothing.
            self.seat_buttons = tuple(self._seat_button(i) if self.locked in (None, i) else None for i in range(len(labels)))
            self._elsewhere = elsewhere
            self._show_buttons()
            close_tree(old)
        elif elsewhere != self._elsewhere:
            self._elsewhere = elsewhere
            self._show_buttons()
        self._enabled = tuple(on and i not in elsewhere for i, on in enumerate(enabled))
        for button, label, on in zip(self.seat_buttons, labels, enabled):
            if button is None:
                continue
            button.description = label
            button.disabled = not on
            button.tooltip = _("Show this seat's private view") if on else _("Not a seat played on this screen")
        self._waiting = frozenset(waiting)
        if self.locked is not None:
            self.seat = self.locked
        else:
            if self.seat is not None and not self._enabled[self.seat]:
                self.seat = None
            if self.asking is not None and not self._enabled[self.asking]:
                self._ask(None)

    def _show_buttons(self) -> None:
        if self.locked is None:
            shown = [b for i, b in enumerate(self.seat_buttons) if i not in self._elsewhere]
            # No seat left to show here (all on devices): no row of nothing, no label.
            self.seat_row.children = (self.label, *shown, self.hide_button) if shown else ()
        else:
            # Other seats' buttons are left out of the tree: a seat page offers nothing else.
            self.seat_row.children = (self.label, *self.seat_buttons[self.locked : self.locked + 1])

    def lock(self, seat: int) -> None:
        """Make this a seat page: only `seat`, always shown. Call `refresh` next (or redraw)."""
        self.locked = self.seat = seat
        self.label.value = f"<b>{esc(_('Your seat:'))}</b>&nbsp;"
        self._show_buttons()

    def _seat_button(self, seat: int) -> widgets.Button:
        button = widgets.Button().add_class(f"pb-seat-{seat}")
        button.on_click(lambda _event: self._pressed(seat))
        return button

    def _pressed(self, seat: int) -> None:
        """A seat button: on a shared screen, ask first; on the seat's own page, show it."""
        if self.locked is not None or seat == self.seat:
            self.choose(seat)
        elif seat < len(self._enabled) and self._enabled[seat]:
            if self.seat is not None:
                self.seat = None  # the view on screen goes before the next player's question
                self._ask(seat)
                self.refresh()
            else:
                self._ask(seat)
                self.prompt.value = ""

    def _ask(self, seat: int | None) -> None:
        self.asking = seat
        if seat is None:
            self.ask_box.layout.display = "none"
            self.ask_text.value = ""
            return
        name = esc(self._names[seat]) if seat < len(self._names) else esc(_("seat {n}", n=seat + 1))
        # The name is escaped; the message carries the markup.
        self.ask_text.value = _(
            "<b>{name}'s view is private.</b> Only {name} should see this screen: turn it away from the room (or the projector off) first.",
            name=name,
        )
        self.ask_box.layout.display = "flex"

    def confirm(self) -> None:
        """The screen said the view is private, and the player is ready: show it."""
        seat, self.asking = self.asking, None
        self._ask(None)
        if seat is not None and seat < len(self._enabled) and self._enabled[seat]:
            self.choose(seat)

    def cancel(self) -> None:
        self._ask(None)
        self.refresh()

    def choose(self, seat: int) -> None:
        if self.locked is not None and seat != self.locked:
            return  # a seat page never opens another seat's panel
        if self.locked is None and seat in self._elsewhere:
            return  # held by a device: its view is on that device only
        self._ask(None)
        self.seat = seat
        self.refresh()

    def hide(self) -> None:
        self.seat = self.locked  # a seat page's own panel stays open: it is on the player's device
        self._ask(None)
        self.refresh()

    def refresh(self) -> None:
        """Rebuild the private panel for the chosen seat, or clear it.

        With `defer` set (a redraw for another page's move, inside a kernel), a rebuild waits
        that long, so the public view's change reaches the page first: a panel's new controls
        are many widgets for a phone to make.
        """
        if self.defer > 0 and self.seat is not None and self._key is not None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                loop = None
            if loop is not None:
                if self._pending is not None:
                    self._pending.cancel()
                keep = self.keep_typed
                self._pending = loop.call_later(self.defer, self._deferred, keep)
                return
        if self.on_page:
            self._refresh_now()

    def _deferred(self, keep: bool) -> None:
        self._pending = None
        self.keep_typed, before = keep, self.keep_typed
        try:
            self._refresh_now()
        finally:
            self.keep_typed = before

    def _refresh_now(self) -> None:
        old = self.panel.children
        for i, button in enumerate(self.seat_buttons):
            if button is not None:
                button.button_style = "info" if i == self.seat else ("warning" if i in self._waiting else "")
        key = (self.seat, self._key(self.seat)) if self._key is not None and self.seat is not None else None
        if key is not None and key == self._shown_key and self.seat == self._shown and self.panel.children:
            self.hide_button.disabled = False
            return
        typed = self._typed() if self.keep_typed and self.seat is not None and self.seat == self._shown else {}
        if self.seat is None:
            self.panel.children = ()
            # The hint only where a seat button is there to press (not at a table of bots and devices).
            self.prompt.value = (
                '<span class="pb-muted">' + esc(_('Press your seat to see your private view; press "Done - hide" before you pass the screen on.')) + "</span>"
                if self.asking is None and any(self._enabled)
                else ""
            )
        else:
            self.panel.children = tuple(self._build(self.seat))
            self.prompt.value = ""
        self._restore(typed)
        self._shown = self.seat
        self._shown_key = key
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


# -- plots: every name drawn in a font that has it, every series told apart ------------------------

#: Ten marker shapes, and dashes: a series differs from every other in shape too, not only colour.
SERIES_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", "h")
SERIES_DASHES: tuple[Any, ...] = ("-", "--", "-.", ":", (0, (6, 1.5, 1, 1.5, 1, 1.5)))


@dataclasses.dataclass(frozen=True)
class SeriesStyle:
    """How one series is drawn; `offset`: how far to shift it along x so equal values of
    different series do not sit exactly on top of each other."""

    colour: str
    marker: str
    dash: Any
    linewidth: float
    markersize: float
    zorder: float
    offset: float

    def plot_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for `Axes.plot`: markers hollow (white inside), edged in the colour."""
        return {
            "color": self.colour,
            "marker": self.marker,
            "linestyle": self.dash,
            "linewidth": self.linewidth,
            "markersize": self.markersize,
            "markerfacecolor": "white",
            "markeredgecolor": self.colour,
            "markeredgewidth": 1.8,
            "zorder": self.zorder,
        }


def series_styles(n: int, spread: float = 0.24) -> list[SeriesStyle]:
    """Styles for `n` series, all different in (colour, marker) up to 100 series.

    Series drawn first get thicker lines and bigger markers, and every marker is hollow, so
    where two series share points the later one shows inside the earlier one's outline instead
    of hiding it. `spread` (in x units) is shared out as small sideways offsets.
    """
    styles = []
    k = len(SERIES_COLOURS)
    for i in range(n):
        later = i / max(n - 1, 1)  # 0 for the first series drawn, 1 for the last
        styles.append(
            SeriesStyle(
                colour=SERIES_COLOURS[i % k],
                # past ten series the markers shift by one against the colours: the pairs stay distinct
                marker=SERIES_MARKERS[(i + i // k) % len(SERIES_MARKERS)],
                dash=SERIES_DASHES[(i + i // k) % len(SERIES_DASHES)],
                linewidth=4.2 - 2.6 * later,
                markersize=13.0 - 7.0 * later,
                zorder=2 + later,
                offset=(i - (n - 1) / 2) * spread / max(n - 1, 1),
            )
        )
    return styles


def _font_files() -> list[tuple[str, bool]]:
    """(file, bold) for the fonts printables.fonts sets each script in (the first found of each
    face), then Symbola: found there, so the charts and the printed sheets use the same fonts."""
    from printables.fonts import FALLBACK_ORDER, SCRIPTS, SYMBOLA_FILES

    files: list[tuple[str, bool]] = []
    for name in ("cjk-jp", *FALLBACK_ORDER):
        for sources, bold in ((SCRIPTS[name].regular, False), (SCRIPTS[name].bold, True)):
            found = next((s.path for s in sources if s.path.is_file()), None)
            if found is not None:
                files.append((str(found), bold))
    files += [(str(p), False) for p in SYMBOLA_FILES if p.is_file()][:1]
    return list(dict.fromkeys(files))


class _NoBoldFallbackNote(logging.Filter):
    """Drops matplotlib's note that a fallback font (emoji, symbols) has no bold face."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("findfont: Failed to find font weight")


_PLOT_FAMILIES: list[str] = []


def plot_families() -> tuple[str, ...]:
    """matplotlib's font family list for the playbook's charts: DejaVu Sans, then a font per script
    (CJK, Arabic, Hebrew, Devanagari), emoji and symbols, each registered with matplotlib once.

    matplotlib takes each glyph from the first family in the list that has it, so a legend
    shows a name as typed, whatever its script. Families whose files are missing are left out.
    """
    if not _PLOT_FAMILIES:
        from matplotlib import font_manager

        logging.getLogger("matplotlib.font_manager").addFilter(_NoBoldFallbackNote())
        known = {f.fname for f in font_manager.fontManager.ttflist}
        families = ["DejaVu Sans"]
        for path, bold in _font_files():
            try:
                if path not in known:
                    font_manager.fontManager.addfont(path)
                name = font_manager.get_font(path).family_name
            except (OSError, RuntimeError, ValueError):
                continue
            if not bold:
                families.append(name)
        _PLOT_FAMILIES.extend(dict.fromkeys(families))
    return tuple(_PLOT_FAMILIES)


@contextmanager
def plot_context() -> Iterator[None]:
    """`with plot_context():` build (and draw) a chart with the playbook's fonts, a dollar sign
    drawn as typed (no mathtext), and distinct colour, marker and dash for every series
    drawn without a style of its own.

    Inside it matplotlib looks only at the fonts of `plot_families`: for every new size and
    weight it scores each font it knows, and with the Noto packages that is about 3,500 (0.1 s a
    look, 3-4 s for a village's first charts). Outside, every installed font is there again.
    """
    import matplotlib
    from cycler import cycler
    from matplotlib import font_manager

    families = plot_families()
    manager = font_manager.fontManager
    everything = manager.ttflist
    manager.ttflist = [f for f in everything if f.name in families]
    try:
        with matplotlib.rc_context(
            {
                "font.family": list(families),
                "text.parse_math": False,
                "axes.prop_cycle": cycler(color=list(SERIES_COLOURS))
                + cycler(marker=list(SERIES_MARKERS))
                + cycler(linestyle=[SERIES_DASHES[i % len(SERIES_DASHES)] for i in range(len(SERIES_COLOURS))]),
            }
        ):
            yield
    finally:
        manager.ttflist = everything


# -- the debrief's downloads ----------------------------------------------------------------


class DebriefBar(widgets.HBox):
    """The debrief as downloads (class pb-debrief): every decision as CSV (pb-debrief-csv) and
    the printed handout (pb-debrief-pdf), made when "Prepare the debrief" (pb-debrief-prepare)
    is pressed, and dropped at the next redraw (a new move makes them stale).

    Once a game with secrets is over, "Name the secret choices" (pb-debrief-secrets) is the
    facilitator's say over naming pledges, picks and draws; before the end they are never named.
    `on_prepare(name_secrets)` makes the files and calls `offer`.
    """

    def __init__(self, on_prepare: Callable[[bool], None], label: str = "") -> None:
        label = label or _("Prepare the debrief (CSV and handout)")
        self.prepare_button = widgets.Button(description=label, icon="file-text-o", tooltip=_("Every decision as CSV, and the printed debrief handout")).add_class(
            "pb-debrief-prepare"
        )
        self.secrets = widgets.Checkbox(
            value=True, description=_("Name the secret choices"), indent=False, layout=widgets.Layout(display="none")
        ).add_class("pb-debrief-secrets")
        self.csv_link = widgets.HTML().add_class("pb-debrief-csv")
        self.pdf_link = widgets.HTML().add_class("pb-debrief-pdf")
        self.note = widgets.HTML().add_class("pb-debrief-note")
        self.prepare_button.on_click(lambda _event: on_prepare(bool(self.secrets.value)))
        super().__init__(
            (self.prepare_button, self.secrets, self.csv_link, self.pdf_link, self.note),
            layout=widgets.Layout(align_items="center", flex_flow="row wrap", margin="8px 0 0 0", grid_gap="10px"),
        )
        self.add_class("pb-debrief")

    def show(self, ready: bool, secrets: bool = False, name_by_default: bool = True) -> None:
        """Reset for a redraw: no links. `secrets`: the game is over and had secrets to name;
        `name_by_default` is the checkbox's value when it first appears."""
        self.prepare_button.disabled = not ready
        if secrets and self.secrets.layout.display == "none":
            self.secrets.value = name_by_default
        self.secrets.layout.display = "" if secrets else "none"
        self.csv_link.value = self.pdf_link.value = self.note.value = ""

    def offer(self, csv: str, csv_name: str, rows: int, pdf: bytes, pdf_name: str, note: str = "") -> None:
        """Show the two links (the CSV of `rows` decisions), and an optional note (what the
        files keep secret)."""
        self.csv_link.value = download_link(csv, csv_name, _n("Every decision (CSV, {n} rows)", "Every decision (CSV, {n} rows)", rows), "text/csv")
        self.pdf_link.value = download_link(pdf, pdf_name, _("The debrief handout (PDF)"), "application/pdf")
        self.note.value = f'<span class="pb-muted">{esc(note)}</span>' if note else ""
