"""The print studio and the balance lab: the playbook's two tools shared by every game.

`PrintStudio(store=None)` makes the paper materials of any game as a PDF: blank sheets for a
number of players (names optional), or "what you played" from a save file or a table in the
store, on A4 or Letter; it previews every page as a PNG and offers the PDF as a download
link. `BalanceLab()` plays many bot games through each game's `simulate` and shows the
statistics as tables and charts, with the numbers as JSON; its `OddsPanel` gives the exact
odds of a Danger World check or a Dangerous Ideas meme action.

No rule lives here: player counts, refusals, statistics and odds all come from `rules` and
`printables`; this module only lays them out. Every user string is escaped (`esc`).

Stable CSS classes (`add_class`), for browser tests and users' scripts:

- print studio root: ``playbook-print-studio`` (and ``playbook-root``)
- ``pb-studio-game`` (Dropdown), ``pb-studio-source`` (blank sheets or a saved game),
  ``pb-studio-players`` (IntText), ``pb-studio-names`` (Textarea, one name per line),
  ``pb-studio-page`` (a4 or letter), ``pb-studio-upload`` (FileUpload of a save file),
  ``pb-studio-table`` (Dropdown of stored tables), ``pb-studio-refresh``,
  ``pb-studio-loaded`` (what was loaded), ``pb-studio-warning`` (mid-game warning),
  ``pb-studio-make`` (Button), ``pb-status``, ``pb-studio-download`` (HTML holding the
  ``<a download>`` link), ``pb-studio-preview`` (Image), ``pb-studio-prev``,
  ``pb-studio-next``, ``pb-studio-page-number``
- balance lab root: ``playbook-balance-lab`` (and ``playbook-root``)
- ``pb-lab-game``, ``pb-lab-bot-<i>`` (Dropdown, seat i = 0..), ``pb-lab-add-seat``,
  ``pb-lab-remove-seat``, ``pb-lab-games``, ``pb-lab-seed``, ``pb-lab-run``,
  ``pb-lab-progress`` (IntProgress), ``pb-lab-note``, ``pb-lab-results`` (tables),
  ``pb-lab-chart`` (Image), ``pb-lab-download``
- odds: ``pb-odds``, ``pb-odds-game``, ``pb-odds-dice``, ``pb-odds-difficulty``,
  ``pb-odds-penalty``, ``pb-odds-rerolls``, ``pb-odds-pool``, ``pb-odds-seeds``,
  ``pb-odds-result``
"""

from __future__ import annotations

import functools
import importlib
import json
import time
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

import ipywidgets as widgets

from playbook.store import Store
from rules import GAMES, Game, RuleError, SaveFileError, load_game

from .common import STYLE, StatusLine, card, close_tree, download_link, esc, figure_png

__all__ = [
    "BalanceLab",
    "LAB_GAMES",
    "OddsPanel",
    "PRINT_GAMES",
    "PrintStudio",
    "printables_for",
    "seat_range",
]

#: Games the print studio knows, in menu order (each shows only if its printables import).
PRINT_GAMES: tuple[str, ...] = ("new-rule", "leerdam", "danger-world", "dangerous-ideas")
#: Games with bots, for the balance lab.
LAB_GAMES: tuple[str, ...] = ("new-rule", "leerdam", "dangerous-ideas")
#: What a game calls its seats, where not "players".
SEAT_WORDS: Mapping[str, str] = {"leerdam": "households", "danger-world": "player characters"}
#: How many seats a blank print starts with (the rest start at 4).
DEFAULT_SEATS: Mapping[str, int] = {"leerdam": 7}
#: The most bot games one Run plays, by game (Dangerous Ideas bots are the slowest).
MAX_GAMES: Mapping[str, int] = {"new-rule": 2000, "leerdam": 2000, "dangerous-ideas": 500}
DEFAULT_GAMES = 100
#: Danger World odds: pools above this many dice take seconds to work out the first time.
MAX_ODDS_DICE = 12
PREVIEW_SCALE = 1.25  # 90 dpi: an A4 page is 744 px wide, sharp when shown at PREVIEW_WIDTH
PREVIEW_WIDTH = 620  # CSS pixels: a whole A4 page is about 880 px tall
WIDE = {"description_width": "initial"}
#: What a game's own notes say beside the balance lab's numbers.
LAB_NOTES: Mapping[str, str] = {
    "new-rule": (
        "The model also ends a game after max_rounds rounds (a variant, 12 by default, shown below). "
        "The rules text's own ending, an empty common bowl, rarely happens: payments refill the bowl. "
        "Games also end when fewer than two players are still in. See “Endings”."
    ),
    "leerdam": "From year 8 an end roll may end the game each year, so game lengths vary.",
    "dangerous-ideas": "The story runs for the default number of chapters (2 × players for 3-4 players, else 1 ×).",
}


#: The studio's entry for every game at once, for a group of any size (printables.pack).
ALL_GAMES = "all"
GROUP_RANGE = (1, 20)


class _EveryGame:
    """The print pack behind the studio's "Every game, for a group" entry."""

    @staticmethod
    def build_pdf(names: Sequence[str] | None = None, *, players: int | None = None, page: str = "a4") -> bytes:
        from printables import pack

        return pack.build_pdf(players if players is not None else len(names or ()) or 4, names, page=page)


def _title(slug: str) -> str:
    if slug == ALL_GAMES:
        return "Every game, for a group"
    return str(getattr(GAMES[slug], "title", slug))


def _module_name(slug: str) -> str:
    return slug.replace("-", "_")


def printables_for(slug: str) -> ModuleType | None:
    """The game's printables module, or None when it is missing or does not import yet."""
    try:
        module = importlib.import_module(f"printables.{_module_name(slug)}")
    except Exception:  # a module being written may fail in any way; the studio just leaves it out
        return None
    return module if callable(getattr(module, "build_pdf", None)) else None


@functools.lru_cache(maxsize=None)
def seat_range(slug: str, limit: int = 40) -> tuple[int, int]:
    """The fewest and most seats the game's own `Setup` accepts (asked of the rules, not copied)."""
    setup = GAMES[slug].setup
    accepted = []
    for count in range(limit + 1):
        try:
            setup(names=tuple(f"Seat {i + 1}" for i in range(count)))
        except (RuleError, ValueError):
            continue
        accepted.append(count)
    if not accepted:
        raise ValueError(f"{slug} accepts no player count up to {limit}")
    return min(accepted), max(accepted)


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

    def __init__(self, store: Store | None = None) -> None:
        self.store = store if store is not None else Store()
        self.modules: dict[str, Any] = {slug: module for slug in PRINT_GAMES if (module := printables_for(slug)) is not None}
        if len(self.modules) == len(PRINT_GAMES):
            self.modules[ALL_GAMES] = _EveryGame
        self.pdf: bytes | None = None
        self.pages = 0
        self.page_index = 0
        self._pngs: dict[int, bytes] = {}
        self.loaded: Game[Any, Any] | None = None
        self._quiet = False

        self.game = widgets.Dropdown(
            options=[(_title(slug), slug) for slug in self.modules], description="Game", style=WIDE,
            layout=widgets.Layout(width="300px"),
        ).add_class("pb-studio-game")
        self.page = widgets.ToggleButtons(options=[("A4", "a4"), ("Letter", "letter")], value="a4", tooltips=["A4 paper", "US Letter paper"]).add_class(
            "pb-studio-page"
        )
        self.source = widgets.ToggleButtons(
            options=[("Blank sheets", "blank"), ("From a saved game", "saved")], value="blank", style={"button_width": "180px"}
        ).add_class("pb-studio-source")
        missing = [_title(slug) for slug in PRINT_GAMES if slug not in self.modules]
        self.missing_note = widgets.HTML(
            f'<span class="pb-muted">Not available in this installation yet: {esc(", ".join(missing))}.</span>' if missing else ""
        )

        # Blank sheets: how many seats and who sits there.
        self.players = widgets.IntText(value=4, description="Players", style=WIDE, layout=widgets.Layout(width="180px")).add_class(
            "pb-studio-players"
        )
        self.range_hint = widgets.HTML()
        self.names = widgets.Textarea(
            placeholder="One name per line. Seats without a name get a line to write on.",
            description="Names",
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
        self.upload = widgets.FileUpload(accept=".json,application/json", multiple=False, description="Save file").add_class("pb-studio-upload")
        self.table = widgets.Dropdown(description="or a table", style=WIDE, layout=widgets.Layout(width="560px")).add_class("pb-studio-table")
        self.refresh_button = widgets.Button(description="Refresh list", icon="refresh").add_class("pb-studio-refresh")
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
            description="Make PDF", button_style="primary", icon="file-pdf-o", layout=widgets.Layout(width="auto", align_self="flex-start", margin="10px 0 4px")
        ).add_class("pb-studio-make")
        self.status = StatusLine()
        self.download = widgets.HTML().add_class("pb-studio-download")
        self.prev_button = widgets.Button(description="◀ Previous", disabled=True).add_class("pb-studio-prev")
        self.next_button = widgets.Button(description="Next ▶", disabled=True).add_class("pb-studio-next")
        self.page_number = widgets.HTML().add_class("pb-studio-page-number")
        self.preview = widgets.Image(
            format="png",
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

        self.game.observe(lambda _: self._game_changed(), "value")
        self.source.observe(lambda _: self._source_changed(), "value")
        for control in (self.players, self.names, self.page):
            control.observe(lambda _: self._forget_pdf(), "value")
        self.upload.observe(self._uploaded, "value")
        self.table.observe(self._table_chosen, "value")
        self.refresh_button.on_click(lambda _: self.refresh_tables())
        self.make_button.on_click(lambda _: self.make())
        self.prev_button.on_click(lambda _: self.show_page(self.page_index - 1))
        self.next_button.on_click(lambda _: self.show_page(self.page_index + 1))

        super().__init__(
            (
                widgets.HTML(STYLE),
                widgets.HBox((self.game, widgets.HTML("<b>Paper</b>"), self.page), layout=_row()),
                self.missing_note,
                widgets.HBox((widgets.HTML("<b>Print</b>"), self.source), layout=_row()),
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
        if not self.modules:
            self.make_button.disabled = True
            self.status.refuse("No game's printables could be loaded, so nothing can be printed.")

    # -- choosing ------------------------------------------------------------------------------
    def _game_changed(self) -> None:
        slug = self.game.value
        if slug is None:
            return
        low, high = GROUP_RANGE if slug == ALL_GAMES else seat_range(slug)
        self.players.value = min(max(DEFAULT_SEATS.get(slug, 4), low), high)
        who = SEAT_WORDS.get(slug, "players")
        if slug == ALL_GAMES:
            hint = (f"A group of {low}-{high}: each game for the players it takes (New Rule in tables of 3-5, "
                    "Dangerous Ideas of 3-10, Danger World a GM, the first name, and up to 12 players), with a contents page.")
        else:
            hint = f"{_title(slug)} takes {low}-{high} {who}."
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
        options: list[tuple[str, str]] = [("— choose a stored table —", "")]
        for info in self.store.tables():
            if info.game in self.modules:
                state = "finished" if info.finished else "unfinished"
                options.append((f"{info.title} · {info.moves} moves · {state} · {_when(info.updated)}", info.id))
        self._pick_table(self.table.value, options)

    def _pick_table(self, table_id: str | None, options: Sequence[tuple[str, str]] | None = None) -> None:
        """Set the table menu (and its options) without loading anything."""
        self._quiet = True
        try:
            if options is not None:
                self.table.options = list(options)
            ids = [value for _, value in self.table.options]
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
        label = f"“{name}”" if name else "the file"
        try:
            game = load_game(data)
        except (SaveFileError, RuleError, ValueError) as exc:
            self.status.refuse(f"Could not read {label}: {_refusal(exc)}. Nothing was changed.")
            return False
        if not self._take(game, f"save file {label}"):
            return False
        self._pick_table("")
        return True

    def _table_chosen(self, change: Mapping[str, Any]) -> None:
        if change["new"] and not self._quiet:
            self.load_table(change["new"])

    def load_table(self, table_id: str) -> bool:
        """Take a stored table as the game to print."""
        try:
            game = self.store.open(table_id)
        except (KeyError, SaveFileError, RuleError) as exc:
            self.status.refuse(f"Could not open table {table_id}: {_refusal(exc)}")
            return False
        return self._take(game, f"table {table_id}")

    def _take(self, game: Game[Any, Any], where: str) -> bool:
        slug = game.rules.slug
        if slug not in self.modules:
            self.status.refuse(f"{where} is a {_title(slug) if slug in GAMES else slug} game, whose printables are not available here.")
            return False
        self.loaded = game
        self.source.value = "saved"
        self.game.value = slug
        over = bool(getattr(game.state, "over", False))
        names = ", ".join(getattr(game.setup, "names", ()))
        self.loaded_html.value = card(
            "",
            f"<b>{esc(_title(slug))}</b> from {esc(where)}: {esc(names)} · {len(game.actions)} moves · "
            f"{'finished' if over else 'not finished'}",
        )
        self.warning.value = (
            ""
            if over
            else '<div style="color:#8a4b00;font-weight:600;margin:4px 0;line-height:1.4">⚠ This game is not finished. A mid-game '
            "printout may show hidden information (hands, draws, secret picks or pledges): keep it from the players "
            "until the game is over.</div>"
        )
        self._forget_pdf()
        self.status.ok(f"Loaded {where}. Press “Make PDF” to print what was played.")
        return True

    # -- making the PDF ------------------------------------------------------------------------
    def _forget_pdf(self) -> None:
        self.pdf, self.pages, self.page_index, self._pngs = None, 0, 0, {}
        self.download.value = ""
        self.preview.value = b""
        self.preview_box.layout.display = "none"

    def make(self) -> bool:
        """Build the PDF from the form; show its preview and download link. False if refused."""
        self._forget_pdf()
        page = self.page.value
        if self.source.value == "saved":
            if self.loaded is None:
                self.status.refuse("Upload a save file or choose a stored table first.")
                return False
            slug = self.loaded.rules.slug
            args: dict[str, Any] = {"state": self.loaded.state}
            filename = f"{slug}-played-{page}.pdf"
        else:
            slug = self.game.value
            names = self.name_list()
            args = {"names": names or None, "players": self.players.value}
            filename = f"{slug}-{self.players.value}-players-{page}.pdf"
        module = self.modules.get(slug)
        if module is None:
            self.status.refuse("Choose a game to print.")
            return False
        self.status.info("Making the PDF…")
        try:
            pdf = module.build_pdf(**args, page=page)
        except (RuleError, ValueError, TypeError) as exc:
            self.status.refuse(f"Nothing was made: {_refusal(exc)}.")
            return False
        from printables.common import page_count

        self.pdf, self.pages = pdf, page_count(pdf)
        what = "what was played" if self.source.value == "saved" else f"{self.players.value} seats"
        self.status.ok(f"PDF ready: {self.pages} pages of {_title(slug)} ({what}, {'A4' if page == 'a4' else 'Letter'}).")
        size = f"{len(pdf) / 1024:.0f} KB"
        self.download.value = download_link(pdf, filename, f"Download the PDF ({self.pages} pages, {size})", "application/pdf")
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
        self.preview.value = self._pngs[index]
        self.page_number.value = f"<b>Page {index + 1} of {self.pages}</b>"
        self.prev_button.disabled = index == 0
        self.next_button.disabled = index >= self.pages - 1


# -- balance: result tables and charts -----------------------------------------------------------


def _label(key: str) -> str:
    """'win_share_per_seat_by_bot' -> 'Win share per seat by bot'."""
    return key.replace("_", " ").capitalize()


def _number(key: str, value: object) -> str:
    """A value for a table cell: shares and rates as percentages."""
    if value is None:
        return "—"
    if isinstance(value, float) and {"share", "rate"} & set(key.split("_")):
        return f"{value:.1%}"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = "<tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr>" if any(header) else ""
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="pb-table">{head}{body}</table>'


def _is_summary(value: object) -> bool:
    return isinstance(value, dict) and {"mean", "min", "max", "histogram"} <= set(value)


def result_html(result: Mapping[str, Any]) -> str:
    """The statistics `simulate` returned, as readable tables (any game's keys, laid out alike)."""
    bots = list(result.get("bots", ()))
    kinds = sorted(set(bots))
    seats = {kind: bots.count(kind) for kind in kinds}
    facts = [("Games", result.get("games")), ("Seed", result.get("seed"))]
    facts.append(("Seats", ", ".join(f"{i + 1}: {b}" for i, b in enumerate(bots))))
    by_kind: list[tuple[str, Mapping[str, Any]]] = []
    summaries: list[tuple[str, Mapping[str, Any]]] = []
    others: list[tuple[str, Mapping[str, Any]]] = []
    for key, value in result.items():
        if key in ("game", "games", "seed", "bots"):
            continue
        if _is_summary(value):
            summaries.append((key, value))
        elif isinstance(value, dict) and value and set(value) <= set(kinds):
            by_kind.append((key, value))
        elif isinstance(value, dict):
            others.append((key, value))
        else:
            facts.append((_label(key), _number(key, value)))
    parts = [card("The run", _table(("", ""), [(k, _number("", v)) for k, v in facts]))]
    if by_kind:
        header = ["Strategy", "Seats", *(_label(k) for k, _ in by_kind)]
        rows = [[kind, seats[kind], *(_number(k, values.get(kind)) for k, values in by_kind)] for kind in kinds]
        parts.append(card("By strategy", _table(header, rows)))
    if summaries:
        rows = [[_label(k), _number(k, s["mean"]), _number(k, s["min"]), _number(k, s["max"])] for k, s in summaries]
        parts.append(card("Per game", _table(("", "Mean", "Min", "Max"), rows)))
    for key, values in others:
        parts.append(card(_label(key), _table(("", ""), [(_label(str(k)), _number(str(k), v)) for k, v in values.items()])))
    return "".join(parts)


def result_figure(result: Mapping[str, Any]) -> Any:
    """Win share by strategy beside the game-length histogram, as a matplotlib `Figure`."""
    from matplotlib.figure import Figure

    bots = list(result.get("bots", ()))
    shares = next((v for k, v in result.items() if k.startswith("win_share") and isinstance(v, dict)), {})
    length_key, length = next(((k, v) for k, v in result.items() if _is_summary(v)), ("", None))
    figure = Figure(figsize=(11, 3.8), layout="constrained")
    left, right = figure.subplots(1, 2)
    kinds = list(shares)
    left.bar(kinds, [shares[k] or 0 for k in kinds], color="#1d5c7a")
    if bots:
        left.axhline(1 / len(bots), color="#9b1c1c", linestyle="--", label=f"fair share (1 in {len(bots)})")
        left.legend(loc="upper right")
    left.set_title("Win share per seat, by strategy")
    left.yaxis.set_major_formatter(lambda value, _: f"{value:.0%}")
    left.set_ylim(0, max([*(shares[k] or 0 for k in kinds), 1 / max(len(bots), 1)]) * 1.25 or 1)
    if length:
        histogram = length["histogram"]
        right.bar([int(k) for k in histogram], list(histogram.values()), color="#7a5af5")
        right.set_xlabel(_label(length_key).lower())
        right.set_ylabel("games")
        right.xaxis.get_major_locator().set_params(integer=True)
    right.set_title(f"{_label(length_key)}: how many games" if length_key else "")
    return figure


# -- the exact-odds panel -----------------------------------------------------------------------


class OddsPanel(widgets.VBox):
    """Exact chances: a Danger World check, or a Dangerous Ideas meme action.

    `report` holds the last `odds_report` (plain JSON-ready data).
    """

    def __init__(self) -> None:
        from rules.danger_world import ODDS_LIMITS

        self.report: dict[str, Any] | None = None
        self.game = widgets.ToggleButtons(
            options=[("Danger World", "danger-world"), ("Dangerous Ideas", "dangerous-ideas")],
            value="danger-world",
            tooltips=["A check: a pool of d6, a difficulty, penalty dice, re-rolls", "A meme action: 2d6 against a pool of stones"],
        ).add_class("pb-odds-game")

        def number(css: str, label: str, value: int, low: int, high: int, tip: str) -> widgets.BoundedIntText:
            box = widgets.BoundedIntText(
                value=value, min=low, max=high, description=label, tooltip=tip, style=WIDE,
                layout=widgets.Layout(width="190px"),
            )
            return box.add_class(css)

        limits = dict(ODDS_LIMITS)
        self.dice = number("pb-odds-dice", "Pool dice", 6, limits["dice"][0], min(limits["dice"][1], MAX_ODDS_DICE), "dice in the pool")
        self.difficulty = number("pb-odds-difficulty", "Difficulty", 3, *limits["difficulty"], "the set height needed")
        self.penalty = number("pb-odds-penalty", "Penalty dice", 0, *limits["penalty"], "penalty dice rolled with the pool")
        self.rerolls = number("pb-odds-rerolls", "Re-rolls", 2, *limits["rerolls"], "lock-and-re-roll rounds")
        self.pool = number("pb-odds-pool", "Pool stones", 7, 0, 20, "stones in the meme action's pool")
        self.seeds = number("pb-odds-seeds", "Red seeds", 0, 0, 20, "the actor's red seeds to spend")
        self.danger_box = widgets.VBox(
            (
                widgets.HBox((self.dice, self.difficulty, self.penalty, self.rerolls), layout=_row()),
                widgets.HTML(f'<span class="pb-muted">Up to {MAX_ODDS_DICE} pool dice here; a big first query takes a few seconds.</span>'),
            )
        )
        self.ideas_box = widgets.HBox((self.pool, self.seeds), layout=_row())
        self.result = widgets.HTML().add_class("pb-odds-result")
        for control in (self.game, self.dice, self.difficulty, self.penalty, self.rerolls, self.pool, self.seeds):
            control.observe(lambda _: self.compute(), "value")
        super().__init__(
            (widgets.HTML('<h3 style="margin:18px 0 4px">Exact odds</h3>'), self.game, self.danger_box, self.ideas_box, self.result)
        )
        self.add_class("pb-odds")
        self.compute()

    def compute(self) -> None:
        """Work out the chance for the values shown and show it."""
        danger = self.game.value == "danger-world"
        self.danger_box.layout.display = "flex" if danger else "none"
        self.ideas_box.layout.display = "none" if danger else "flex"
        self.result.value = '<span class="pb-muted">Working out the exact odds…</span>'
        try:
            if danger:
                from rules.danger_world import odds_report

                report = odds_report(self.dice.value, self.difficulty.value, self.penalty.value, self.rerolls.value)
            else:
                from rules.dangerous_ideas import odds_report

                report = odds_report(self.pool.value, self.seeds.value)
        except (RuleError, ValueError) as exc:
            self.report = None
            self.result.value = card("", f'<span style="color:#9b1c1c;font-weight:600">✋ {esc(_refusal(exc))}</span>')
            return
        self.report = report
        self.result.value = self._danger_html(report) if danger else self._ideas_html(report)

    @staticmethod
    def _headline(probability: float, fraction: str, what: str) -> str:
        return (
            f'<div style="font-size:1.6em;font-weight:700">{probability:.2%}</div>'
            f'<div>exact chance <b class="pb-odds-fraction">{esc(fraction)}</b> {esc(what)}</div>'
        )

    def _danger_html(self, report: Mapping[str, Any]) -> str:
        what = (
            f"of a set of height {report['difficulty']} or more from {report['dice']} dice, {report['penalty']} penalty dice "
            f"and {report['rerolls']} re-rolls"
        )
        rows = [(r, f"{float(v['chance']):.2%}", v["exact"]) for r, v in report["by_rerolls"].items()]
        body = (
            self._headline(float(report["chance"]), str(report["exact"]), what)
            + _table(("Re-rolls", "Chance", "Exact"), rows)
            + f'<p class="pb-muted">Assumes {esc(report["assumes"])}.</p>'
        )
        return card("Danger World check", body)

    def _ideas_html(self, report: Mapping[str, Any]) -> str:
        success = report["success"]
        what = f"that 2d6 comes in at or under a pool of {report['pool']} with up to {report['seeds']} red seeds"
        rows = [(s, f"{float(v['probability']):.2%}", v["fraction"]) for s, v in report["by_seeds_spent_at_most"].items()]
        body = (
            self._headline(float(success["probability"]), str(success["fraction"]), what)
            + _table(("Seeds at most", "Chance", "Exact"), rows)
            + f'<p class="pb-muted">{esc(report["note"])}</p>'
        )
        return card("Dangerous Ideas meme action", body)


# -- the balance lab ----------------------------------------------------------------------------


def _rules_module(slug: str) -> ModuleType:
    return importlib.import_module(f"rules.{_module_name(slug)}")


class BalanceLab(widgets.VBox):
    """Bots per seat, games and seed; Run plays them with the game's `simulate`.

    Attributes tests and scripts rely on: `game`, `bot_menus` (one Dropdown per seat),
    `games`, `seed`, `run_button`, `progress`, `results`, `chart`, `download`, `status`,
    `odds` (the `OddsPanel`); after a run, `result` (what `simulate` returned).
    """

    def __init__(self) -> None:
        self.result: dict[str, Any] | None = None
        self.bot_menus: tuple[widgets.Dropdown, ...] = ()
        self.game = widgets.Dropdown(
            options=[(_title(slug), slug) for slug in LAB_GAMES], description="Game", style=WIDE, layout=widgets.Layout(width="300px")
        ).add_class("pb-lab-game")
        self.note = widgets.HTML().add_class("pb-lab-note")
        self.seats = widgets.GridBox(
            layout=widgets.Layout(grid_template_columns="repeat(auto-fill, minmax(270px, 1fr))", grid_gap="2px 12px")
        ).add_class("pb-lab-seats")
        self.add_button = widgets.Button(description="Add seat", icon="plus").add_class("pb-lab-add-seat")
        self.remove_button = widgets.Button(description="Remove seat", icon="minus").add_class("pb-lab-remove-seat")
        self.games = widgets.BoundedIntText(
            value=DEFAULT_GAMES, min=1, max=MAX_GAMES[LAB_GAMES[0]], description="Games", style=WIDE, layout=widgets.Layout(width="190px")
        ).add_class("pb-lab-games")
        self.seed = widgets.IntText(value=1, description="Seed", style=WIDE, layout=widgets.Layout(width="190px")).add_class("pb-lab-seed")
        self.run_button = widgets.Button(description="Run", button_style="primary", icon="play").add_class("pb-lab-run")
        self.progress = widgets.IntProgress(value=0, min=0, max=DEFAULT_GAMES, description="0 games", style=WIDE).add_class("pb-lab-progress")
        self.status = StatusLine()
        self.results = widgets.HTML().add_class("pb-lab-results")
        self.chart = widgets.Image(format="png", layout=widgets.Layout(max_width="100%", display="none")).add_class("pb-lab-chart")
        self.download = widgets.HTML().add_class("pb-lab-download")
        self.odds = OddsPanel()

        self.game.observe(lambda _: self._game_changed(), "value")
        self.add_button.on_click(lambda _: self.set_seats(len(self.bot_menus) + 1))
        self.remove_button.on_click(lambda _: self.set_seats(len(self.bot_menus) - 1))
        self.run_button.on_click(lambda _: self.run())
        super().__init__(
            (
                widgets.HTML(STYLE),
                self.game,
                self.note,
                widgets.HTML("<b>Bots, one per seat</b>"),
                self.seats,
                widgets.HBox((self.add_button, self.remove_button), layout=_row()),
                widgets.HBox((self.games, self.seed, self.run_button), layout=_row()),
                self.progress,
                self.status,
                self.results,
                self.chart,
                self.download,
                self.odds,
            )
        )
        self.add_class("playbook-root")
        self.add_class("playbook-balance-lab")
        self._game_changed()

    def _game_changed(self) -> None:
        slug = self.game.value
        self.note.value = f'<div class="pb-muted" style="margin:4px 0 8px;line-height:1.4">ℹ {esc(LAB_NOTES[slug])}</div>' if slug in LAB_NOTES else ""
        self.games.max = MAX_GAMES.get(slug, 500)
        self.set_seats(len(_rules_module(slug).DEFAULT_BOTS), reset=True)
        self._clear_results()

    def set_seats(self, count: int, reset: bool = False) -> None:
        """Show `count` seat menus (kept within the game's range); new seats get the default bots."""
        module = _rules_module(self.game.value)
        low, high = seat_range(self.game.value)
        count = min(max(count, low), high)
        kept = () if reset else self.bot_menus[:count]
        defaults = list(module.DEFAULT_BOTS)
        menus = list(kept)
        for i in range(len(menus), count):
            menus.append(
                widgets.Dropdown(
                    options=list(module.BOTS), value=defaults[i % len(defaults)], description=f"Seat {i + 1}", style=WIDE,
                    layout=widgets.Layout(width="260px"),
                ).add_class(f"pb-lab-bot-{i}")
            )
        dropped = [m for m in self.bot_menus if m not in menus]
        self.bot_menus = tuple(menus)
        self.seats.children = self.bot_menus
        close_tree(dropped)
        self.add_button.disabled = count >= high
        self.remove_button.disabled = count <= low
        self.add_button.tooltip = f"{_title(self.game.value)} seats at most {high}" if count >= high else "Add a bot seat"
        self.remove_button.tooltip = f"{_title(self.game.value)} needs at least {low} seats" if count <= low else "Remove the last seat"

    def _clear_results(self) -> None:
        self.result = None
        self.results.value = ""
        self.chart.value = b""
        self.chart.layout.display = "none"
        self.download.value = ""
        self.status.clear()

    def run(self) -> bool:
        """Play the games (the progress bar follows) and show the statistics; False if refused."""
        slug = self.game.value
        bots = [menu.value for menu in self.bot_menus]
        games, seed = self.games.value, self.seed.value
        self._clear_results()
        self.progress.max, self.progress.value = games, 0
        self.progress.description = f"0 / {games} games"
        step = max(1, games // 100)

        def progress(done: int) -> None:
            if done % step == 0 or done == games:
                self.progress.value = done
                self.progress.description = f"{done} / {games} games"

        self.run_button.disabled = True
        self.status.info(f"Playing {games} games of {_title(slug)}…")
        try:
            result = _rules_module(slug).simulate(games, seed, bots, progress=progress)
        except (RuleError, ValueError) as exc:
            self.status.refuse(f"The bots could not play: {_refusal(exc)}.")
            return False
        finally:
            self.run_button.disabled = False
        self.show(result)
        self.status.ok(f"{games} games of {_title(slug)} played with seed {seed}.")
        return True

    def show(self, result: dict[str, Any]) -> None:
        """Lay out a `simulate` result: tables, charts and the JSON download link."""
        self.result = result
        self.results.value = result_html(result)
        self.chart.value = figure_png(result_figure(result))
        self.chart.layout.display = "block"
        filename = f"{result.get('game', 'balance')}-{result.get('games')}-games-seed-{result.get('seed')}.json"
        self.download.value = download_link(json.dumps(result, indent=2), filename, "Download the numbers (JSON)")
