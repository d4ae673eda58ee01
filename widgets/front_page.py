"""The front page's cards for the facilitator (`notebooks/index.ipynb`): the tables in progress,
each with its facilitator and board links, and "Start a class" with the classes open and the
classes ended (under their day, each with its debrief).

Only the server's key (the link `playbook serve` prints) lists them; without it the page says
where the tables are.
"""

from __future__ import annotations

import time
import urllib.parse
from collections.abc import Mapping

import ipywidgets as widgets

from drawing.common import card as card_html
from drawing.common import esc
from i18n import Said, _, _n, render
from playbook.access import key_matches, server_key
from playbook.links import class_links, page, public_base, table_links
from playbook.store import STOPPED, Store
from rules.games import CARDS, card

from .address import page_query
from .common import day_and_time, say_attrs
from .new_game_form import language_menu
from .pace import PaceChoices
from .styles import style_html

__all__ = ["ClassStarter", "TableIndex"]


class ClassStarter(widgets.VBox):
    """The front page's "Start a class" card (class pb-class-starter), for the facilitator: a game,
    how many students, bots for a short table, the class's language (pb-class-lang), an optional
    list of names; then the class's links. Open classes are listed with the facilitator's page
    of each."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.game = widgets.Dropdown(options=[(game.title, game.slug) for game in CARDS if game.has("dashboard")], value="leerdam", description=_("Game")).add_class("pb-class-game")
        self.students = widgets.BoundedIntText(value=30, min=3, max=60, description=_("Students")).add_class("pb-class-students-count")
        self.bots = widgets.Checkbox(value=True, description=_("Bots fill a short table"), indent=False).add_class("pb-class-bots")
        self.language = language_menu(_("The class's language: its board's and every page's, unless a student's phone chooses its own"))
        self.language.add_class("pb-class-lang")
        #: the variants a class may choose, (game, setup field, checkbox) each: a game's
        #: (its dashboard's CLASS_VARIANTS) are made once it is chosen, and shown only while it is
        #: (Leerdam's anonymous pledges: pb-class-anonymous).
        self.variants: list[tuple[str, str, widgets.Checkbox]] = []
        self._offered: set[str] = set()
        self.game.observe(lambda _change: self._show_variants(), "value")
        self.roster = widgets.Textarea(placeholder=_("Optional: the class's names, one a line (students then pick theirs)"), layout=widgets.Layout(width="100%", height="90px")).add_class(
            "pb-class-roster"
        )
        self.start_button = widgets.Button(description=_("Start a class"), button_style="success", icon="users").add_class("pb-class-new")
        self.start_button.on_click(lambda _button: self.start())
        self.result = widgets.HTML().add_class("pb-class-made")
        self.open_html = widgets.HTML().add_class("pb-class-list")
        self.choices = widgets.HBox((self.game, self.students, self.bots, self.language), layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 16px"))
        #: the lesson's length (years, rounds, chapters) and a timer per decision: `widgets.pace`.
        self.pace = PaceChoices()
        super().__init__(
            (
                widgets.HTML(
                    '<h3 style="margin:10px 0 4px">{}</h3><div class="pb-muted">{}</div>'.format(
                        esc(_("Start a class")), esc(_("One game for one room: students join with a short code and are dealt into tables."))
                    )
                ),
                self.choices,
                self.pace,
                self.roster,
                self.start_button,
                self.result,
                self.open_html,
            )
        )
        self.add_class("pb-class-starter")
        self._show_variants()
        self.show_open()

    def _offer_variants(self, slug: str) -> None:
        """Make the checkboxes of game `slug`'s class variants, once."""
        if slug in self._offered:
            return
        self._offered.add(slug)
        offered: Mapping[str, str | Said] = card(slug).module("dashboard").CLASS_VARIANTS
        for name, label in offered.items():
            box = widgets.Checkbox(value=False, description=render(label), indent=False, layout=widgets.Layout(width="auto")).add_class(f"pb-class-{name}")
            self.variants.append((slug, name, box))
        self.choices.children = (self.game, self.students, self.bots, self.language, *(box for _slug, _name, box in self.variants))

    def _show_variants(self) -> None:
        self._offer_variants(self.game.value)
        self.pace.show_game(self.game.value)
        for slug, _name, box in self.variants:
            box.layout.display = "" if slug == self.game.value else "none"

    def start(self) -> None:
        from playbook.classes import ClassError, create_class
        from playbook.pace import PaceError

        roster = [line for line in self.roster.value.splitlines() if line.strip()]
        try:
            variants = {name: True for slug, name, box in self.variants if slug == self.game.value and box.value}
            variants.update(self.pace.variants(self.game.value))
            timer = self.pace.timer()
            record = create_class(self.store, self.game.value, self.students.value, roster=roster, bots=self.bots.value, variants=variants, pace=timer, lang=self.language.value)
        except (ClassError, PaceError) as exc:
            self.result.value = f'<div class="pb-muted" {say_attrs(True)}><span aria-hidden="true">✋</span> {esc(exc.message)}</div>'
            return
        links = class_links(public_base(), record)
        here = class_links("", record)
        # The message carries markup: each value is escaped first, the result is not escaped again.
        self.result.value = "<div {}>{}</div>".format(
            say_attrs(),
            _(
                "Class {code} is open. {monitor} · {board} · students open {join}",
                code='<b class="pb-class-made-code">' + esc(record.code) + "</b>",
                monitor='<a class="pb-class-monitor-link" href="{}" target="_blank" rel="noopener">{}</a>'.format(esc(here["monitor"]), esc(_("Your page for it"))),
                board='<a class="pb-class-board-link" href="{}" target="_blank" rel="noopener">{}</a>'.format(esc(here["board"]), esc(_("the board for the projector"))),
                join=esc(links["join"]),
            ),
        )
        self.show_open()

    def show_open(self) -> None:
        """The open classes, then the ended ones under the day each was held, each with a link
        to its debrief (the facilitator's page makes the CSV and the handout)."""
        from playbook.classes import classes, ended_classes

        rows = [
            '<li><a href="{}" target="_blank" rel="noopener">{}</a> <span class="pb-muted">· {} · {}</span></li>'.format(
                esc(class_links("", r)["monitor"]), esc(_named(r.heading, r.code)), esc(_students(len(r.students))), esc(_phase(r.phase))
            )
            for r in classes(self.store)
        ]
        listed = '<div><b>{}</b><ul>{}</ul></div>'.format(esc(_("Open classes")), "".join(rows)) if rows else ""
        by_day: dict[str, list[str]] = {}
        for r in ended_classes(self.store):
            tables = len(r.tables)
            by_day.setdefault(time.strftime("%A %d %B %Y", time.localtime(r.created)), []).append(
                '<li class="pb-class-ended">{} <span class="pb-muted">· {}, {}</span> · <a class="pb-class-debrief-link" href="{}" target="_blank" rel="noopener">{}</a></li>'.format(
                    esc(_named(r.heading, r.code)), esc(_students(len(r.students))), esc(_tables(r.game, tables)), esc(class_links("", r)["monitor"]), esc(_("its debrief: the CSV and the handout"))
                )
            )
        if by_day:
            days = "".join(f'<div class="pb-class-day"><i>{esc(day)}</i><ul>{"".join(items)}</ul></div>' for day, items in by_day.items())
            listed += '<div class="pb-class-ended-list"><b>{}</b>{}</div>'.format(esc(_("Ended classes")), days)
        self.open_html.value = listed


def _named(title: str, code: str) -> str:
    """A class as the front page lists it: its title and its room code."""
    return _("{title} · code {code}", title=title, code=code)


def _students(count: int) -> str:
    return _n("{n} student", "{n} students", count)


def _phase(phase: str) -> str:
    """A class's phase as the front page says it."""
    # TRANSLATORS: a class's phase: students are joining, not yet dealt into tables.
    said = {"lobby": _("lobby"), "playing": _("playing"), "over": _("over")}
    return said.get(phase, phase)


def _tables(game: str, count: int) -> str:
    """How many tables a class played, in the game's word for a table (a Leerdam village)."""
    if str(card(game).words.table) == "village":
        return _n("{n} village", "{n} villages", count)
    return _n("{n} table", "{n} tables", count)


class TableIndex(widgets.VBox):
    """The front page's list of unfinished tables (class pb-table-index), for the facilitator.

    Only the server's key (the link `playbook serve` prints) lists them, with each table's
    facilitator and board links; without it the page says where the tables are.
    """

    def __init__(self, store: Store | None = None, query: str | None = None) -> None:
        self.store = store if store is not None else Store()
        query = page_query() if query is None else query
        params = urllib.parse.parse_qs(query.lstrip("?"))
        self.allowed = key_matches(server_key(), (params.get("key") or [""])[0])
        self.list_html = widgets.HTML().add_class("pb-table-list")
        if self.allowed:
            from playbook.classes import expire_empty

            expire_empty(self.store)  # classes made and never used go as the facilitator looks
        self.classes = ClassStarter(self.store) if self.allowed else widgets.HTML()
        # The tables in progress first: a facilitator coming back to a class looks for them.
        super().__init__((widgets.HTML(style_html("dashboard.css")), self.list_html, self.classes))
        self.add_class("playbook-root")
        self.add_class("pb-table-index")
        self.show()

    def show(self) -> None:
        if not self.allowed:
            self.list_html.value = card_html(
                _("Tables in progress"),
                '<span class="pb-muted">{}</span>'.format(
                    _(
                        "The facilitator's link ({command} prints it) lists the tables in progress here. Anyone may start a new game from a game's page.",
                        command="<code>playbook serve</code>",
                    )
                ),
            )
            return
        rows = []
        for info in self.store.tables(unfinished=True):
            # A table its class stopped is done with: its class is listed under the ended ones.
            if info.game not in CARDS or not card(info.game).notebook or info.meta.get(STOPPED):
                continue
            links = table_links("", info.game, info.id, info.meta, ())
            game_page = page("", card(info.game).notebook)
            # TRANSLATORS: a link to a table's board (the projector's page).
            board = ' · <a href="{}" target="_blank" rel="noopener">{}</a>'.format(esc(game_page + links["board"]), esc(_("board"))) if card(info.game).devices and "board_key" in info.meta else ""
            rows.append(
                f'<tr><td><a class="pb-table-link" href="{esc(game_page + links["facilitator"])}">{esc(info.title)}</a>{board}</td>'
                f"<td>{info.moves}</td><td>{esc(day_and_time(info.updated))}</td></tr>"
            )
        head = "".join(f"<th>{esc(name)}</th>" for name in (_("Table (opens its facilitator page)"), _("Moves"), _("Last played")))
        body = f'<table class="pb-table"><tr>{head}</tr>' + "".join(rows) + "</table>" if rows else '<span class="pb-muted">{}</span>'.format(esc(_("No unfinished tables.")))
        self.list_html.value = card_html(_("Tables in progress"), body)
