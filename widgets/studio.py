"""The print studio: the paper materials of every game.

`PrintStudio(store=None)` makes the paper materials of any game as a PDF: blank sheets for a
number of players (names optional), or "what you played" from a save file or a table in the
store, on A4 or Letter; it previews every page as a PNG and offers the PDF as a download
link. The balance lab is `widgets.balance_lab`.

No rule lives here: what a game is (its seats, their words) comes from its card, refusals and
the PDFs from `printables.document` (the pack of every game from `printables.pack`); this
module only lays them out. Every user string is escaped (`esc`).

Stable CSS classes (`add_class`), for browser tests and users' scripts:

- print studio root: ``playbook-print-studio`` (and ``playbook-root``)
- ``pb-studio-game`` (Dropdown), ``pb-studio-source`` (blank sheets or a saved game),
  ``pb-studio-players`` (IntText), ``pb-studio-names`` (Textarea, one name per line),
  ``pb-studio-page`` (a4 or letter), ``pb-studio-upload`` (FileUpload of a save file),
  ``pb-studio-table`` (Dropdown of stored tables), ``pb-studio-refresh``,
  ``pb-studio-loaded`` (what was loaded), ``pb-studio-warning`` (mid-game warning),
  ``pb-studio-make`` (Button), ``pb-status``, ``pb-studio-download`` (HTML holding the
  ``<a download>`` link), ``pb-studio-preview`` (a `Picture`), ``pb-studio-prev``,
  ``pb-studio-next``, ``pb-studio-page-number``, ``pb-studio-lang`` (the language printed in)
"""

from __future__ import annotations

import os
import time
import urllib.parse
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

import ipywidgets as widgets

import i18n
from i18n import _, _n
from playbook.access import key_matches, server_key
from playbook.heavy import ServerBusy, heavy_work
from playbook.store import Store
from rules import RuleError, SaveFileError, load_game
from rules.core import AnyGame
from rules.games import CARDS
from rules.games import card as game_card

from .common import Picture, StatusLine, card, download_link, esc
from .styles import style_html

__all__ = [
    "PrintStudio",
    "printables_for",
    "seat_range",
]

PREVIEW_SCALE = 1.25  # 90 dpi: an A4 page is 744 px wide, sharp when shown at PREVIEW_WIDTH
PREVIEW_WIDTH = 620  # CSS pixels: a whole A4 page is about 880 px tall
WIDE = {"description_width": "initial"}


#: The studio's entry for every game at once, for a group of any size (printables.pack).
ALL_GAMES = "all"
#: How many a print of every game starts with.
GROUP_START = 4


def _title(slug: str) -> str:
    if slug == ALL_GAMES:
        return _("Every game, for a group")
    return game_card(slug).title if slug in CARDS else slug


def printables_for(slug: str) -> ModuleType | None:
    """The game's printables module (by its card), or None when it has none or it does not import yet."""
    try:
        return game_card(slug).module("printables")
    except Exception:  # a module being written may fail in any way; the studio just leaves it out
        return None


def seat_range(slug: str) -> tuple[int, int]:
    """The fewest and most seats the game's `Setup` accepts, as its card says."""
    return game_card(slug).players.range


def _row() -> widgets.Layout:
    """A wrapping row's layout: a fresh one each time, since hiding a box hides all sharing it."""
    return widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="6px 14px")


def _refusal(exc: Exception) -> str:
    """A refusal's own words, without the "(rule: ...)" tail."""
    return str(getattr(exc, "message", None) or exc)


def _when(stamp: float) -> str:
    return time.strftime("%d %b %H:%M", time.localtime(stamp))


# -- the print studio ---------------------------------------------------------------------------


class PrintStudio(widgets.VBox):
    """Choose a game, the players (or a saved game) and the paper, then "Make PDF".

    Attributes tests and scripts rely on: `game`, `source`, `players`, `names`, `page`,
    `upload`, `table`, `make_button`, `status`, `download`, `preview`, `prev_button`,
    `next_button`, `page_number`; after a make, `pdf` (bytes or None), `page_index`,
    `pages`; after a load, `loaded` (a `Game` or None).
    """

    def __init__(self, store: Store | None = None, query: str | None = None) -> None:
        self.store = store if store is not None else Store()
        # A stored table holds every secret of a game in progress: only the facilitator's
        # link (the server's key) lists them here; a save file can always be uploaded.
        query = os.environ.get("QUERY_STRING", "") if query is None else query
        self.may_list = key_matches(server_key(), (urllib.parse.parse_qs(query.lstrip("?")).get("key") or [""])[0])
        games = [c.slug for c in CARDS if c.has("printables")]
        #: the games whose printables load here, and every game at once when they all do.
        self.printable: list[str] = [slug for slug in games if printables_for(slug) is not None]
        if len(self.printable) == len(games):
            self.printable.append(ALL_GAMES)
        self.pdf: bytes | None = None
        self.pages = 0
        self.page_index = 0
        self._pngs: dict[int, bytes] = {}
        self.loaded: AnyGame | None = None
        self._quiet = False

        self.game = widgets.Dropdown(
            options=[(_title(slug), slug) for slug in self.printable], description=_("Game"), style=WIDE,
            layout=widgets.Layout(width="300px"),
        ).add_class("pb-studio-game")
        # TRANSLATORS: the ISO paper size, on a button beside "Letter" (as your language writes it).
        a4 = _("A4")
        self.page = widgets.ToggleButtons(
            # TRANSLATORS: the US paper size, on a button beside "A4".
            options=[(a4, "a4"), (_("Letter"), "letter")], value="a4", tooltips=[_("A4 paper"), _("US Letter paper")]
        ).add_class("pb-studio-page")
        # The language the sheets are printed in: the page's own to start with; each language by its own name.
        self.lang = widgets.Dropdown(
            options=[(name, code) for code, name in i18n.LANGUAGES.items()],
            value=i18n.current() if i18n.current() in i18n.LANGUAGES else i18n.SOURCE,
            description=_("Print in"), style=WIDE, layout=widgets.Layout(width="220px"),
        ).add_class("pb-studio-lang")
        self.source = widgets.ToggleButtons(
            options=[(_("Blank sheets"), "blank"), (_("From a saved game"), "saved")], value="blank", style={"button_width": "auto"}
        ).add_class("pb-studio-source")
        missing = [_title(slug) for slug in games if slug not in self.printable]
        note = _("Not available in this installation yet: {games}.", games=", ".join(missing))
        self.missing_note = widgets.HTML(f'<span class="pb-muted">{esc(note)}</span>' if missing else "")

        # Blank sheets: how many seats and who sits there.
        self.players = widgets.IntText(value=4, description=_("Players"), style=WIDE, layout=widgets.Layout(width="180px")).add_class(
            "pb-studio-players"
        )
        self.range_hint = widgets.HTML()
        self.names = widgets.Textarea(
            placeholder=_("One name per line. Seats without a name get a line to write on."),
            description=_("Names"),
            style=WIDE,
            layout=widgets.Layout(width="460px", height="9em"),
        ).add_class("pb-studio-names")
        self.blank_box = widgets.VBox(
            (
                widgets.HBox((self.players, self.range_hint), layout=widgets.Layout(align_items="center", grid_gap="12px")),
                self.names,
            )
        )

        # A saved game: an uploaded save file or a table from the store.
        self.upload = widgets.FileUpload(accept=".json,application/json", multiple=False, description=_("Save file")).add_class("pb-studio-upload")
        self.table = widgets.Dropdown(description=_("or a table"), style=WIDE, layout=widgets.Layout(width="560px")).add_class("pb-studio-table")
        self.refresh_button = widgets.Button(description=_("Refresh list"), icon="refresh").add_class("pb-studio-refresh")
        self.loaded_html = widgets.HTML().add_class("pb-studio-loaded")
        self.warning = widgets.HTML().add_class("pb-studio-warning")
        self.saved_box = widgets.VBox(
            (
                widgets.HBox(
                    (self.upload, self.table, self.refresh_button),
                    layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="8px 14px"),
                ),
                self.loaded_html,
                self.warning,
            )
        )

        self.make_button = widgets.Button(
            description=_("Make PDF"), button_style="primary", icon="file-pdf-o", layout=widgets.Layout(width="auto", align_self="flex-start", margin="10px 0 4px")
        ).add_class("pb-studio-make")
        self.status = StatusLine()
        self.download = widgets.HTML().add_class("pb-studio-download")
        self.prev_button = widgets.Button(description=_("◀ Previous"), disabled=True).add_class("pb-studio-prev")
        self.next_button = widgets.Button(description=_("Next ▶"), disabled=True).add_class("pb-studio-next")
        self.page_number = widgets.HTML().add_class("pb-studio-page-number")
        self.preview = Picture(
            layout=widgets.Layout(width=f"{PREVIEW_WIDTH}px", max_width="100%", height="auto", align_self="flex-start", border="1px solid #c9cedb", margin="6px 0"),
        ).add_class("pb-studio-preview")
        self.preview_box = widgets.VBox(
            (
                widgets.HBox(
                    (self.prev_button, self.page_number, self.next_button),
                    layout=widgets.Layout(align_items="center", grid_gap="14px"),
                ),
                self.preview,
            ),
            layout=widgets.Layout(display="none"),
        )

        self.game.observe(lambda _change: self._game_changed(), "value")
        self.source.observe(lambda _change: self._source_changed(), "value")
        for control in (self.players, self.names, self.page, self.lang):
            control.observe(lambda _change: self._forget_pdf(), "value")
        self.upload.observe(self._uploaded, "value")
        self.table.observe(self._table_chosen, "value")
        self.refresh_button.on_click(lambda _button: self.refresh_tables())
        self.make_button.on_click(lambda _button: self.make())
        self.prev_button.on_click(lambda _button: self.show_page(self.page_index - 1))
        self.next_button.on_click(lambda _button: self.show_page(self.page_index + 1))

        # TRANSLATORS: a label before the paper sizes (A4, Letter).
        paper = _("Paper")
        # TRANSLATORS: a label before "Blank sheets" / "From a saved game" (a verb: what to print).
        what = _("Print")
        super().__init__(
            (
                widgets.HTML(style_html("dashboard.css")),
                widgets.HBox((self.game, widgets.HTML(f"<b>{esc(paper)}</b>"), self.page, self.lang), layout=_row()),
                self.missing_note,
                widgets.HBox((widgets.HTML(f"<b>{esc(what)}</b>"), self.source), layout=_row()),
                self.blank_box,
                self.saved_box,
                self.make_button,
                self.status,
                self.download,
                self.preview_box,
            )
        )
        self.add_class("playbook-root")
        self.add_class("playbook-print-studio")
        self._game_changed()
        self._source_changed()
        if not self.printable:
            self.make_button.disabled = True
            self.status.refuse(_("No game's printables could be loaded, so nothing can be printed."))

    # -- choosing ------------------------------------------------------------------------------
    def _game_changed(self) -> None:
        slug = self.game.value
        if slug is None:
            return
        if slug == ALL_GAMES:
            from printables import pack

            low, high = pack.GROUP_RANGE
            self.players.value = GROUP_START
            rules = ", ".join(pack.table_rule(c) for c in CARDS if c.slug in self.printable)
            hint = _("A group of {low}-{high}: each game for the players it takes ({rules}), with a contents page.", low=low, high=high, rules=rules)
        else:
            game = game_card(slug)
            low, high = game.players.range
            self.players.value = game.players.default
            hint = _("{game} takes {low}-{high} {who}.", game=game.title, low=low, high=high, who=game.words.players)
        self.range_hint.value = f'<span class="pb-muted">{esc(hint)}</span>'
        self._forget_pdf()

    def _source_changed(self) -> None:
        saved = self.source.value == "saved"
        self.blank_box.layout.display = "none" if saved else "flex"
        self.saved_box.layout.display = "flex" if saved else "none"
        self.game.disabled = saved
        if saved:
            self.refresh_tables()
        self._forget_pdf()

    def name_list(self) -> list[str]:
        """The names typed, one per non-blank line."""
        return [line for line in self.names.value.splitlines() if line.strip()]

    def refresh_tables(self) -> None:
        """List the stored tables of the games the studio can print, most recent first."""
        options: list[tuple[str, str]] = [(_("— choose a stored table —") if self.may_list else _("— the facilitator's link lists the tables —"), "")]
        for info in self.store.tables() if self.may_list else ():
            if info.game in self.printable:
                if info.finished:
                    label = _n("{title} · {n} move · finished · {when}", "{title} · {n} moves · finished · {when}", info.moves, title=info.title, when=_when(info.updated))
                else:
                    label = _n("{title} · {n} move · unfinished · {when}", "{title} · {n} moves · unfinished · {when}", info.moves, title=info.title, when=_when(info.updated))
                options.append((label, info.id))
        self._pick_table(self.table.value, options)

    def _pick_table(self, table_id: str | None, options: Sequence[tuple[str, str]] | None = None) -> None:
        """Set the table menu (and its options) without loading anything."""
        self._quiet = True
        try:
            if options is not None:
                self.table.options = list(options)
            ids = [value for _label, value in self.table.options]
            self.table.value = table_id if table_id in ids else ""
        finally:
            self._quiet = False

    # -- loading a saved game --------------------------------------------------------------------
    def _uploaded(self, change: Mapping[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        data, name = bytes(files[0]["content"]), str(files[0].get("name", ""))
        self.upload.value = ()  # so choosing the same file again fires once more
        self.load_file(data, name)

    def load_file(self, data: bytes | str, name: str = "") -> bool:
        """Take an uploaded save file as the game to print; a bad file changes nothing."""
        try:
            game = load_game(data)
        except (SaveFileError, RuleError, ValueError) as exc:
            if name:
                self.status.refuse(_("Could not read “{name}”: {reason}. Nothing was changed.", name=name, reason=_refusal(exc)))
            else:
                self.status.refuse(_("Could not read the file: {reason}. Nothing was changed.", reason=_refusal(exc)))
            return False
        if not self._take(game, _("save file “{name}”", name=name) if name else _("save file the file")):
            return False
        self._pick_table("")
        return True

    def _table_chosen(self, change: Mapping[str, Any]) -> None:
        if change["new"] and not self._quiet:
            self.load_table(change["new"])

    def load_table(self, table_id: str) -> bool:
        """Take a stored table as the game to print (only with the facilitator's link)."""
        if not self.may_list:
            self.status.refuse(_("Only the facilitator's link may print a stored table: upload its save file instead."))
            return False
        try:
            game = self.store.open(table_id)
        except (KeyError, SaveFileError, RuleError) as exc:
            self.status.refuse(_("Could not open that table: {reason}", reason=_refusal(exc)))
            return False
        try:
            title = self.store.info(table_id).title
        except KeyError:
            title = ""
        return self._take(game, _("the table “{title}”", title=title) if title else _("a stored table"))

    def _take(self, game: AnyGame, where: str) -> bool:
        slug = game.rules.slug
        if slug not in self.printable:
            self.status.refuse(_("{where} is a {game} game, whose printables are not available here.", where=where, game=_title(slug)))
            return False
        self.loaded = game
        self.source.value = "saved"
        self.game.value = slug
        over = bool(getattr(game.state, "over", False))
        names = ", ".join(getattr(game.setup, "names", ()))
        shown = {"game": _title(slug), "where": where, "names": names}
        if over:
            loaded = _n("{game} from {where}: {names} · {n} move · finished", "{game} from {where}: {names} · {n} moves · finished", len(game.actions), **shown)
        else:
            loaded = _n("{game} from {where}: {names} · {n} move · not finished", "{game} from {where}: {names} · {n} moves · not finished", len(game.actions), **shown)
        self.loaded_html.value = card("", esc(loaded))
        mid_game = _(
            "⚠ This game is not finished. A mid-game printout may show hidden information (hands, draws, secret picks or pledges): "
            "keep it from the players until the game is over."
        )
        self.warning.value = "" if over else f'<div class="pb-tone-warn" style="font-weight:600;margin:4px 0;line-height:1.4">{esc(mid_game)}</div>'
        self._forget_pdf()
        self.status.ok(_("Loaded {where}. Press “Make PDF” to print what was played.", where=where))
        return True

    # -- making the PDF ------------------------------------------------------------------------
    def _forget_pdf(self) -> None:
        self.pdf, self.pages, self.page_index, self._pngs = None, 0, 0, {}
        self.download.value = ""
        self.preview.show(b"", "")
        self.preview_box.layout.display = "none"

    def make(self) -> bool:
        """Build the PDF from the form; show its preview and download link. False if refused."""
        self._forget_pdf()
        page = self.page.value
        if self.source.value == "saved":
            if self.loaded is None:
                self.status.refuse(_("Upload a save file or choose a stored table first."))
                return False
            slug = self.loaded.rules.slug
            args: dict[str, Any] = {"state": self.loaded.state}
            filename = f"{slug}-played-{page}.pdf"
        else:
            slug = self.game.value
            names = self.name_list()
            args = {"names": names or None, "players": self.players.value}
            filename = f"{slug}-{self.players.value}-players-{page}.pdf"
        if slug not in self.printable:
            self.status.refuse(_("Choose a game to print."))
            return False
        if self.lang.value != i18n.SOURCE:
            filename = filename.removesuffix(".pdf") + f"-{self.lang.value}.pdf"
        self.status.info(_("Making the PDF…"))
        try:
            # The sheets in the chosen language; the studio itself goes on in the page's.
            with i18n.speaking(self.lang.value):
                if slug == ALL_GAMES:  # every game's pack: one of the server's few heavy slots
                    from printables import pack

                    with heavy_work("printing every game"):
                        pdf = pack.build_pdf(args["players"], args["names"], page=page)
                else:
                    from printables import document

                    pdf = document.pdf(slug, **args, page=page)
        except (RuleError, ServerBusy, ValueError, TypeError) as exc:
            self.status.refuse(_("Nothing was made: {reason}.", reason=_refusal(exc)))
            return False
        from printables.common import page_count

        self.pdf, self.pages = pdf, page_count(pdf)
        paper = _("A4") if page == "a4" else _("Letter")
        if self.source.value == "saved":
            ready = _n("PDF ready: {n} page of {game} (what was played, {paper}).", "PDF ready: {n} pages of {game} (what was played, {paper}).", self.pages, game=_title(slug), paper=paper)
        else:
            ready = _n(
                "PDF ready: {n} page of {game} ({seats} seats, {paper}).", "PDF ready: {n} pages of {game} ({seats} seats, {paper}).",
                self.pages, game=_title(slug), seats=self.players.value, paper=paper,
            )
        self.status.ok(ready)
        size = f"{len(pdf) / 1024:.0f}"  # as the label always read: no thousands separator
        label = _n("Download the PDF ({n} page, {size} KB)", "Download the PDF ({n} pages, {size} KB)", self.pages, size=size)
        self.download.value = download_link(pdf, filename, label, "application/pdf")
        self.preview_box.layout.display = "flex"
        self.show_page(0)
        return True

    def show_page(self, index: int) -> None:
        """Show page `index` (0-based) of the PDF made last."""
        if self.pdf is None or not 0 <= index < self.pages:
            return
        from printables.common import png_bytes

        if index not in self._pngs:
            self._pngs[index] = png_bytes(self.pdf, index, PREVIEW_SCALE)
        self.page_index = index
        self.preview.show(self._pngs[index], _("Page {page} of {pages} of the PDF, as it prints", page=index + 1, pages=self.pages))
        number = _("Page {page} of {pages}", page=index + 1, pages=self.pages)
        self.page_number.value = f"<b>{esc(number)}</b>"
        self.prev_button.disabled = index == 0
        self.next_button.disabled = index >= self.pages - 1
