"""The facilitator's card for a class on their own devices: the board link and the join code,
a row per seat (its own link, whether a device holds it, who plays it) and the seat slips.

It is part of a table's facilitator page (`widgets.table.TableDashboard.class_panel`), and asks
that page (a `SeatsHost`) to release a seat or hand it to a bot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

import ipywidgets as widgets

from drawing.common import card, download_link, esc
from i18n import _, _n, listed, render
from playbook.links import in_voila, public_base, table_links
from playbook.store import Store, Table
from rules import Action
from rules.core import AnyGame
from rules.games import card as card_of

from .address import serve_hint
from .common import close_tree, say_attrs

__all__ = ["ClassPanel", "SeatsHost"]


class SeatsHost(Protocol):
    """What the class card needs of the page it sits on."""

    slug: str
    game_title: str
    store: Store
    role: str
    game: AnyGame | None
    table_id: str | None
    bot_strategies: Mapping[str, Callable[[Any, int, Any], Action]]

    def release(self, seat: int) -> bool: ...

    def hand_over(self, seat: int, bot: str | None) -> bool: ...


class ClassPanel(widgets.VBox):
    """The facilitator's card for a class on their own devices (class pb-class).

    The board link and the join code (what the projector shows), one row per seat with its own
    link (pb-seat-link-<i>), whether a device claimed it (Release, pb-release-<i>) and who
    plays it (a person, or a bot: pb-bot-<i> and pb-hand-over-<i>), and printable seat slips
    with each seat's QR code (pb-slips).
    """

    def __init__(self, dashboard: SeatsHost) -> None:
        self._dash = dashboard
        self.links_html = widgets.HTML().add_class("pb-seat-links")
        # Seats side by side where the screen is wide: a class of ten fits above the table.
        self.rows = widgets.GridBox(
            layout=widgets.Layout(grid_template_columns="repeat(auto-fill, minmax(min(100%, 540px), 1fr))", grid_gap="0 18px")
        ).add_class("pb-class-seats")
        self.slips_button = widgets.Button(description=_("Seat slips (PDF)"), icon="print").add_class("pb-slips")
        self.slips_button.on_click(lambda _event: self._make_slips())
        self.slips_link = widgets.HTML().add_class("pb-slips-link")
        self._shown: tuple[Any, ...] | None = None
        super().__init__(
            (self.links_html, self.rows, widgets.HBox((self.slips_button, self.slips_link), layout=widgets.Layout(align_items="center", flex_flow="row wrap")))
        )
        self.add_class("pb-class")
        self.layout.display = "none"

    def hide(self) -> None:
        self.layout.display = "none"
        self.links_html.value = self.slips_link.value = ""
        old, self._shown = self.rows.children, None
        self.rows.children = ()
        close_tree(old)

    def show(self, table: Table) -> None:
        dash = self._dash
        names = [render(label) for label in card_of(dash.slug).seat_labels(table.game.setup)]
        # In Voila, links relative to the page; in JupyterLab, to the `playbook serve` that opens them.
        links = table_links("" if in_voila() else public_base(), dash.slug, table.id, table.meta, names)
        claims = dict(table.meta.get("claims") or {})
        key = (table.id, tuple(sorted(table.bots.items())), tuple(sorted(claims)), tuple(sorted(dict(table.meta.get("seat_keys") or {}).items())))
        self.layout.display = "flex"
        if key == self._shown:
            return
        self._shown = key
        join_url = table_links(public_base(), dash.slug, table.id, table.meta, names)["join"]
        board = f'<a class="pb-board-link" href="{esc(links["board"])}" target="_blank" rel="noopener">{esc(_("Open the board"))}</a>'
        join = f'<a class="pb-join-link" href="{esc(links["join"])}" target="_blank" rel="noopener">{esc(_("the join link"))}</a>'
        self.links_html.value = card(
            _("The class: board and seats"),
            '<div class="pb-class-links">'
            + _(
                "{board} for the projector: it shows the join code. Phones join with the code, or with {join} ({address}). "
                "Or send each player their own seat link below. Keep this page and its links from the players.",
                board=board,
                join=join,
                address=f'<span class="pb-muted">{esc(join_url)}</span>',
            )
            + "</div>"
            + serve_hint(),
        )
        old = self.rows.children
        rows = []
        for seat, name in enumerate(names):
            rows.append(self._seat_row(seat, name, links["seats"][seat]["url"], table.bots.get(seat), str(seat) in claims))
        self.rows.children = tuple(rows)
        close_tree(old)

    def _seat_row(self, seat: int, name: str, href: str, bot: str | None, claimed: bool) -> widgets.Widget:
        dash = self._dash
        state = _("🤖 bot: {bot}", bot=bot) if bot else (_("📱 on a device") if claimed else _("free"))
        # A held seat's key is its device's own: this page shows no link for it (Release frees it).
        own_page, title = _("own page"), _("{name}'s own page", name=name)
        link = (
            ""
            if claimed
            else f' · <a class="pb-seat-link-{seat}" href="{esc(href)}" target="_blank" rel="noopener" data-link-seat="{seat}" title="{esc(title)}">{esc(own_page)}</a>'
        )
        # The name wraps inside its own room: the controls stay on the seat's one line.
        label = widgets.HTML(
            f'<b>{esc(name)}</b> <span class="pb-muted pb-seat-state-{seat}">· {esc(state)}</span>{link}',
            layout=widgets.Layout(flex="1 1 180px", min_width="0"),
        )
        parts: list[widgets.Widget] = [label]
        if claimed:
            release = widgets.Button(description=_("Release"), icon="unlock", tooltip=_("Free the seat for another device; its old link stops working")).add_class(f"pb-release-{seat}")
            release.on_click(lambda _event: dash.release(seat))
            parts.append(release)
        names = list(dash.bot_strategies)
        if names:
            choice = widgets.Dropdown(
                options=[(_("a person"), "")] + [(_("bot: {bot}", bot=n), n) for n in names], value=bot or "", description=_("played by"), layout=widgets.Layout(width="230px")
            ).add_class(f"pb-bot-{seat}")
            apply = widgets.Button(tooltip=_("A bot plays an absent seat; give it back to a person any time")).add_class(f"pb-hand-over-{seat}")

            # The button says what it will do with the choice, in the room's words.
            def label(_change: object = None) -> None:
                apply.description = _("Let the bot play {name}", name=name) if choice.value else _("{name} plays again", name=name)
                # Shown only when the choice would change something: a greyed button read as broken.
                apply.layout.display = "none" if (choice.value or None) == bot else ""

            label()
            choice.observe(label, names="value")
            apply.on_click(lambda _event: dash.hand_over(seat, choice.value or None))
            parts += [choice, apply]
        return widgets.HBox(tuple(parts), layout=widgets.Layout(align_items="center", flex_flow="row wrap", grid_gap="4px 10px"))

    def _make_slips(self) -> None:
        dash = self._dash
        if dash.game is None or dash.table_id is None or dash.role != "facilitator":
            return
        from printables.common import build_document
        from printables.slips import seat_slips

        table = dash.store.load(dash.table_id)
        names = [render(label) for label in card_of(dash.slug).seat_labels(table.game.setup)]
        links = table_links(public_base(), dash.slug, table.id, table.meta, names)
        claims = dict(table.meta.get("claims") or {})
        # Seats a device holds are not printed: their keys are their devices' own.
        seats = [(s["name"], s["url"]) for s in links["seats"] if s["seat"] not in table.bots and str(s["seat"]) not in claims]
        left_out = _slips_left_out(len(names), table.bots, claims)
        if not seats:
            # A message and no file: a PDF of no slips is an empty file that viewers reject.
            said = _("No slips to print: {reason}.", reason=left_out or _("no seats"))
            self.slips_link.value = f'<span class="pb-muted pb-slips-none" {say_attrs()}>{esc(said)}</span>'
            return
        try:
            pdf = build_document(seat_slips(seats, game_title=dash.game_title, players=len(seats), page="a4"), page="a4", title=_("{game}: seat slips", game=dash.game_title))
        except ValueError as exc:
            said = _("No slips to print: {reason}.", reason=str(exc))
            self.slips_link.value = f'<span class="pb-muted pb-slips-none" {say_attrs()}>{esc(said)}</span>'
            return
        count = _n("{n} slip", "{n} slips", len(seats))
        names = ", ".join(name for name, _url in seats)
        held = _("{count}: {names} (not printed: {left_out})", count=count, names=names, left_out=left_out) if left_out else _("{count}: {names}", count=count, names=names)
        note = _("{held}. Each slip holds that seat's key: hand it to that player only.", held=held)
        self.slips_link.value = download_link(pdf, f"{dash.slug}-{table.id}-seat-slips.pdf", _("Seat slips (PDF, {count})", count=count), "application/pdf") + (
            f' <span class="pb-muted pb-slips-held">{esc(note)}</span>'
        )


def _slips_left_out(seats: int, bots: Mapping[int, str], claims: Mapping[str, Any]) -> str:
    """Why seats get no slip ("2 seats are on a device and 1 seat is played by a bot"), or ""."""
    on_devices = sum(1 for seat in range(seats) if seat not in bots and str(seat) in claims)
    robots = sum(1 for seat in range(seats) if seat in bots)
    parts = []
    if on_devices:
        parts.append(_n("{n} seat is on a device", "{n} seats are on a device", on_devices))
    if robots:
        parts.append(_n("{n} seat is played by a bot", "{n} seats are played by a bot", robots))
    return render(listed(parts))
