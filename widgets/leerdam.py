"""Leerdam on a projector: the village board for all, a private household panel per seat.

The die, the gauge and the cards of the year are drawn by `drawing.leerdam`.

`LeerdamDashboard(store=None, query=None)` opens on the table picker and the new-game form (3-20
households, each played by hand or by a bot, every variant of `rules.leerdam.Setup`, a seed).
An open table shows what the whole room may see, from `view_for(state, None)`: the year, the
Dyke Condition as a gauge, the two thresholds, who has pledged (never how much) and, once the
last pledge is in, the reveal; the flood die; the village chronicle; standings; plots over the
years; the facilitator's controls; the debrief CSV and the save file. Each household's own
panel (capacity, secret pledge, allocation grid with a preview of what it earns, offers to hire
labour, gifts of Wealth) sits behind the hot-seat curtain and is built only from
`view_for(state, seat)`; it is closed when hidden or replaced.

Bots move by themselves. In the allocation they wait until every household played by hand
has allocated, so people can still hire them; an offer made to a bot is answered at once.
"Close the year now" lets the bots finish first, then applies the rules' `Advance`.

Seat pages (see `widgets.common`): the projector lists a link per human household; `query`
(default `$QUERY_STRING`) "table=<id>&seat=<i>&key=<key>" opens that household alone on its
own device (no lobby, save bar, facilitator controls or other household). Open pages follow
each other's moves by polling the store.

Stable CSS classes (`add_class`), for browser tests and users' scripts:

- root: ``playbook-leerdam`` (and ``playbook-root``, shared by every game)
- header: ``pb-header``, ``pb-title``, ``pb-round``, ``pb-turn``; status line ``pb-status``
- setup form: ``pb-setup``, ``pb-players`` (household count, 3-20), ``pb-setup-warning``,
  ``pb-name-<i>`` (Text, seat i = 0..19), ``pb-kind-<i>`` (Dropdown: "human" or a bot name),
  ``pb-capacity``, ``pb-misfortune-<face>`` (face 1..6: capacity lost), ``pb-by-hand``,
  ``pb-dyke-start``, ``pb-sticky``, ``pb-table-dice``, ``pb-anonymous`` (anonymous pledges:
  only the total is public until the end), ``pb-end-check``, ``pb-end-on``
  (faces, e.g. "1,2,3"), ``pb-max-years`` (a number or "none"), ``pb-seed``, ``pb-start``
- table picker: ``pb-picker``, ``pb-resume`` (one Button per unfinished table, with `.table_id`)
- projector: ``pb-year``, ``pb-dyke`` (gauge), ``pb-thresholds``, ``pb-pledged-count``,
  ``pb-reveal``, ``pb-flood`` (the die), ``pb-chronicle`` (also ``pb-log``),
  ``pb-standings``, ``pb-plots`` (a `Picture`: the PNG as an image with its alternative text),
  ``pb-plots-note``, ``pb-plots-numbers`` (the plots' numbers as tables, for a screen reader
  and print), ``pb-csv`` (HTML holding the
  CSV's ``<a download>`` data-URI link)
- facilitator: ``pb-facilitator``, ``pb-advance``, ``pb-loss-<i>`` (misfortune by hand, one
  per household), ``pb-misfortune-set``; after an anonymous game ``pb-debrief-choice`` with
  ``pb-show-pledges`` (show every household's pledges on the board, or keep them anonymous)
- an anonymous game shown at the end: ``pb-pledge-table`` (each household's pledge per year)
- hot seat: ``pb-seat-<i>`` (Button per seat), ``pb-hide``, ``pb-private-panel``,
  ``pb-household`` (the seat's own numbers), ``pb-panel-status`` (a refusal of the household's
  move: on a shared screen only there, never in the status line), ``pb-private-log``
- seat pages: ``pb-seat-links`` (HTML card with one ``<a href="?table=..&seat=..&key=..">`` per
  human household, ``data-link-seat`` its seat; only on the projector's page)
- a household's moves: ``pb-pledge`` (IntText), ``pb-pledge-confirm``,
  ``pb-alloc-preset-profit``, ``pb-alloc-preset-leisure`` (one-click allocations),
  ``pb-alloc-<recipient>-<activity>`` (BoundedIntText; recipient a seat number, activity
  ``subsistence``, ``leisure`` or ``profit``; other households' rows appear once added with
  ``pb-alloc-add``), ``pb-alloc-preview``, ``pb-alloc-confirm``,
  ``pb-offer-partner``, ``pb-offer-wealth``, ``pb-offer-units``, ``pb-offer-activity``,
  ``pb-offer-send`` (or, for a household without Wealth, the note ``pb-no-hire``),
  ``pb-accept-<deal id>``, ``pb-decline-<deal id>`` (the seller's
  decline, or the buyer's withdraw, which also has ``pb-withdraw-<deal id>``), ``pb-gift-to``,
  ``pb-gift-wealth``, ``pb-gift-send``
- table: ``pb-undo``, ``pb-save-file``, ``pb-download``, ``pb-upload``, ``pb-new-game``
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from drawing.common import card, download_link, esc
from drawing.leerdam import (
    ACTIVITY_LABEL,
    DYKE_COLOURS,
    FLOOD_BLUE,
    deal_text,
    dyke_card,
    flood_card,
    pledge_table,
    pledged_card,
    reveal_card,
    thresholds_note,
    year_card,
)
from i18n import Said, _, _n, render, say
from lab import BOTS as LAB_BOTS
from playbook.store import Store
from rules import Action, RuleError
from rules.leerdam import (
    ACTIVITIES,
    CARD,
    LEDGER_LABELS,
    RULES,
    Accept,
    Advance,
    Allocate,
    Assignment,
    Contribute,
    Decline,
    EndRoll,
    Flood,
    Gift,
    Misfortune,
    Offer,
    SetMisfortune,
    Setup,
    ShowPledges,
    State,
    View,
    ledger_rows,
    preview,
    view_for,
    village_rows,
)

from .common import WIDE, LogPanel, Picture, PrivacyCurtain, close_tree, csv_text, figure_png, optional_limit
from .new_game_form import NewGameForm, setup_default, variants_note
from .table import TableDashboard

__all__ = ["CLASS_VARIANTS", "DASHBOARD", "AllocationGrid", "LeerdamDashboard", "SetupForm", "village_figure"]

DEFAULT_HOUSEHOLDS = 7
DEFAULT_NAMES = (
    "Aalders", "Bakker", "Claessen", "De Vries", "Evers", "Franssen", "Gerritsen", "Hendriks", "Jansen", "Kuipers",
    "Lambrechts", "Meijer", "Nieuwenhuis", "Oosterhout", "Peeters", "Quist", "Rademaker", "Smit", "Teunissen", "Van Dijk",
)  # fmt: skip
#: the anonymous-pledges variant, as a table's form and a class's starter offer it.
ANONYMOUS = say("Anonymous pledges (only the total is shown until the end)")
#: the allocation preview's columns (on a phone, each row is a card of "column: value" lines).
PREVIEW_HEAD = (say("Household"), say("Subsistence"), say("Leisure"), say("Profit"), say("VP"), say("Wealth"))

def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _int_list(text: str, what: Said) -> tuple[int, ...]:
    """'1, 2,3' -> (1, 2, 3); RuleError for anything else."""
    parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p]
    if not parts or not all(p.isdigit() for p in parts):
        raise RuleError("setup", say("{what} must be whole numbers separated by commas, not {typed}", what=what, typed=repr(text)))
    return tuple(int(p) for p in parts)


# -- pictures in HTML --------------------------------------------------------------------------


# -- plots --------------------------------------------------------------------------------------


#: a legend name longer than this wraps onto more lines (it is never cut).
LEGEND_CHARS = 22


@dataclasses.dataclass(frozen=True)
class VillageSeries:
    """What the village's plots draw, drawn from here by both the figure and its numbers' table:
    `xs` the years (0, the start, first); the dyke at each; the pledges of each year (none at 0);
    and (name, values at each x) of Wealth and of VP, a line per household (or the village's)."""

    xs: list[int]
    dyke: list[int]
    pledged: list[int | None]
    wealth: list[tuple[str, list[int | None]]]
    vp: list[tuple[str, list[int | None]]]
    floods: list[int]


def village_series(view: View, rows: Sequence[dict[str, Any]], dyke_start: int) -> VillageSeries:
    """The plots' numbers from `view` and `rows` (`ledger_rows(state, None)`), finished years only."""
    years = [y.year for y in view.years]
    xs = [0] + years
    dyke = [view.years[0].dyke_before if view.years else dyke_start] + [y.dyke_after for y in view.years]
    pledged: list[int | None] = [None] + [y.total for y in view.years]
    wealth: list[tuple[str, list[int | None]]]
    vp: list[tuple[str, list[int | None]]]
    if view.anonymous:
        village_wealth: list[int | None] = [0, *(y.wealth for y in view.years)]
        village_vp: list[int | None] = [0, *(y.vp for y in view.years)]
        wealth, vp = [(_("the whole village"), village_wealth)], [(_("the whole village"), village_vp)]
    else:
        wealth, vp = [], []
        for h in view.households:
            mine = {r["year"]: r for r in rows if r["household"] == h.name and r["year"] in years}
            wealth.append((h.name, [0] + [mine[y]["wealth"] if y in mine else None for y in years]))
            vp.append((h.name, [0] + [mine[y]["vp"] if y in mine else None for y in years]))
    return VillageSeries(xs, dyke, pledged, wealth, vp, [y.year for y in view.years if y.flooded])


def village_numbers(view: View, rows: Sequence[dict[str, Any]], dyke_start: int) -> str:
    """The plots' numbers as tables (the dyke and pledges; Wealth; VP), in a `<details>` a screen
    reader reads and a printout shows (`drawing.chart.chart_numbers`)."""
    from drawing.chart import chart_numbers, chart_table

    series = village_series(view, rows, dyke_start)
    # TRANSLATORS: the first row of the plots' numbers: the village before year 1.
    labels = [_("Start")] + [_("Year {year}", year=x) for x in series.xs[1:]]
    low, high = view.thresholds
    if series.floods:
        years = ", ".join(map(str, series.floods))
        flooded = _n("The village flooded in year {years}.", "The village flooded in years {years}.", len(series.floods), years=years)
    else:
        flooded = _("No flood.")
    wealth_title, vp_title = _plot_titles(view.anonymous)
    # TRANSLATORS: the heading of the plots' numbers' first column (the start, year 1, year 2...).
    when = _("When")
    return chart_numbers(
        chart_table(
            _("Dyke Condition at the end of each year, and the units pledged to the dyke"),
            labels,
            when,
            bars=series.pledged,
            lines=[(_("Dyke Condition"), series.dyke)],
            bar_label=_("Pledged"),
            note=_("Pledges below {low}: the dyke falls; above {high}: it rises.", low=low, high=high) + " " + flooded,
        ),
        chart_table(wealth_title, labels, when, lines=series.wealth),
        chart_table(vp_title, labels, when, lines=series.vp),
        summary=_("The numbers of these plots"),
    )


def _plot_titles(anonymous: bool) -> tuple[str, str]:
    """The Wealth and VP plots' titles: the village's sums with anonymous pledges, else each household's."""
    if anonymous:
        return _("Wealth of the whole village (anonymous pledges)"), _("VP of the whole village (anonymous pledges)")
    return _("Wealth per household"), _("VP per household")


def village_figure(view: View, rows: Sequence[dict[str, Any]], dyke_start: int) -> Any:
    """Four panels over the finished years: dyke, pledges against the thresholds, Wealth, VP.

    `rows` are `ledger_rows(state, None)`; only years in `view.years` are drawn. Returns a
    `matplotlib.figure.Figure` (no pyplot: nothing global to close). With anonymous pledges
    (`view.anonymous`) the Wealth and VP panels show the village's sums, one line each: a
    household's line would give its pledges away.

    Every household has its own colour, marker and dash (`series_styles`); households with
    equal numbers are drawn slightly apart and nested, so none hides another. The legend gives
    every name as typed (long names wrap), in fonts for any script and emoji.
    """
    from .common import plot_context

    with plot_context():
        return _village_figure(view, rows, dyke_start)


def _village_figure(view: View, rows: Sequence[dict[str, Any]], dyke_start: int) -> Any:
    import textwrap

    from matplotlib.figure import Figure

    from .common import series_styles

    years = [y.year for y in view.years]
    series = village_series(view, rows, dyke_start)
    names = [name for name, _values in series.vp]
    columns = min(len(names), 5)
    labels = [textwrap.fill(name, LEGEND_CHARS, break_on_hyphens=False) for name in names]
    # the legend's height: each row as tall as its longest (wrapped) name
    legend_lines = sum(max(t.count("\n") + 1 for t in labels[r : r + columns]) for r in range(0, len(labels), columns))
    height = 7.4 + 0.3 * legend_lines
    fig = Figure(figsize=(11, height))
    fig.set_facecolor("white")
    # Fixed margins (a layout engine would double the drawing time); the legend sits below.
    (dyke_ax, pledge_ax), (wealth_ax, vp_ax) = fig.subplots(2, 2, gridspec_kw={"hspace": 0.4, "wspace": 0.14})
    fig.subplots_adjust(left=0.05, right=0.98, top=1 - 0.35 / height, bottom=(0.75 + 0.3 * legend_lines) / height)
    font = 13

    xs, ys = series.xs, series.dyke
    for level, (colour, _ink) in DYKE_COLOURS.items():
        dyke_ax.axhspan(level - 0.5, level + 0.5, color=colour, alpha=0.12, lw=0)
    dyke_ax.step(xs, ys, where="post", color="#111", lw=2.5)
    dyke_ax.plot(xs, ys, "o", color="#111", ms=6)
    floods = [y for y in view.years if y.flooded]
    if floods:
        dyke_ax.plot([y.year for y in floods], [y.dyke_after for y in floods], "v", color=FLOOD_BLUE, ms=12, label=_("flood"))
        dyke_ax.legend(loc="upper right", fontsize=11)
    dyke_ax.set_ylim(0.5, 6.5)
    dyke_ax.set_yticks(range(1, 7))
    dyke_ax.set_title(_("Dyke Condition at the end of each year"), fontsize=font, fontweight="bold")

    low, high = view.thresholds
    colours = ["#c62828" if y.dyke_after_pledges < y.dyke_before else "#2e7d32" if y.dyke_after_pledges > y.dyke_before else "#78909c" for y in view.years]
    pledge_ax.bar(years, [y.total for y in view.years], color=colours)
    pledge_ax.axhline(low - 0.5, color="#c62828", ls="--", lw=2, label=_("below {low}: the dyke falls", low=low))
    pledge_ax.axhline(high + 0.5, color="#2e7d32", ls="--", lw=2, label=_("above {high}: the dyke rises", high=high))
    pledge_ax.legend(loc="upper left", fontsize=10)
    pledge_ax.set_ylim(0, max([high + 6] + [y.total + 4 for y in view.years]))
    pledge_ax.set_title(_("Units pledged to the dyke"), fontsize=font, fontweight="bold")

    for seat, style in enumerate(series_styles(len(names))):
        for ax, (_name, values) in ((wealth_ax, series.wealth[seat]), (vp_ax, series.vp[seat])):
            drawn = [(x + style.offset, v) for x, v in zip(xs, values) if v is not None]
            ax.plot([x for x, _v in drawn], [v for _x, v in drawn], label=labels[seat], **style.plot_kwargs())
    wealth_title, vp_title = _plot_titles(view.anonymous)
    wealth_ax.set_title(wealth_title, fontsize=font, fontweight="bold")
    vp_ax.set_title(vp_title, fontsize=font, fontweight="bold")
    handles, labels = vp_ax.get_legend_handles_labels()
    # matplotlib fills a legend column by column: reorder so it reads row by row.
    handles = [h for c in range(columns) for h in handles[c::columns]]
    labels = [t for c in range(columns) for t in labels[c::columns]]
    fig.legend(handles, labels, loc="lower center", ncols=columns, fontsize=12, frameon=False, bbox_to_anchor=(0.5, 0.0))
    for ax in (pledge_ax, wealth_ax, vp_ax):
        ax.yaxis.get_major_locator().set_params(integer=True)

    for ax in (dyke_ax, pledge_ax, wealth_ax, vp_ax):
        ax.set_xlabel("year", fontsize=11)
        ticks = xs[1:] if ax is pledge_ax else xs
        ax.set_xticks(ticks if len(ticks) <= 16 else ticks[:: max(1, len(ticks) // 12)])
        ax.set_xlim(-0.4, xs[-1] + 0.6)
        ax.tick_params(labelsize=11)
        ax.grid(axis="y", alpha=0.3)
    return fig


def _private_lines(state: State, seat: int) -> tuple[str, ...]:
    """The log lines only this household (and perhaps a partner) may read: its own notes."""
    return tuple(render(e.text) for e in state.log if e.visible_to is not None and seat in e.visible_to)


# -- the new-game form -----------------------------------------------------------------------------


class SetupForm(NewGameForm):
    """Households, seat kinds, variants and seed; `read()` turns them into a Setup."""

    def __init__(self) -> None:
        self.players = widgets.BoundedIntText(
            value=DEFAULT_HOUSEHOLDS, min=CARD.players.low, max=CARD.players.high, description=_("Households"), style=WIDE, layout=widgets.Layout(width="200px")
        ).add_class("pb-players")
        self.warning = widgets.HTML().add_class("pb-setup-warning")
        self._seat_rows(RULES.slug, DEFAULT_NAMES[: CARD.players.high], lambda i: f"{i + 1}", _("household name"), "260px", "170px")
        seats = widgets.GridBox(self.rows, layout=widgets.Layout(grid_template_columns="repeat(auto-fill, minmax(min(100%, 440px), 1fr))", grid_gap="2px 18px"))

        def number(value: int, low: int, high: int, label: str, css: str, width: str = "190px") -> widgets.BoundedIntText:
            return widgets.BoundedIntText(value=value, min=low, max=high, description=label, style=WIDE, layout=widgets.Layout(width=width)).add_class(css)

        self.capacity = number(setup_default(Setup, "capacity"), 1, 20, _("Capacity (units)"), "pb-capacity", "220px")
        self.misfortune = tuple(
            number(loss, 0, 20, f"{face + 1}:", f"pb-misfortune-{face + 1}", "92px") for face, loss in enumerate(setup_default(Setup, "misfortune"))
        )
        self.by_hand = widgets.Checkbox(value=setup_default(Setup, "misfortune_by_hand"), description=_("Facilitator sets misfortune by hand"), indent=False).add_class("pb-by-hand")
        self.table_dice = widgets.Checkbox(
            value=setup_default(Setup, "table_dice"), description=_("Table dice (roll real dice, type them in)"), indent=False
        ).add_class("pb-table-dice")
        self.dyke_start = number(setup_default(Setup, "dyke_start"), 1, 6, _("Dyke starts at"), "pb-dyke-start")
        self.sticky = widgets.Checkbox(value=setup_default(Setup, "sticky_flood"), description=_("Sticky flood (Flooded stays)"), indent=False).add_class("pb-sticky")
        self.anonymous = widgets.Checkbox(
            value=setup_default(Setup, "anonymous"), description=render(ANONYMOUS), indent=False,
            layout=widgets.Layout(width="auto"),
        ).add_class("pb-anonymous")  # fmt: skip
        self.end_check = number(setup_default(Setup, "end_check_from"), 1, 100, _("End roll from year"), "pb-end-check", "230px")
        self.end_on = widgets.Text(
            value=",".join(map(str, setup_default(Setup, "end_on"))), description=_("ends on"), style=WIDE, layout=widgets.Layout(width="170px")
        ).add_class("pb-end-on")
        self.max_years = widgets.Combobox(
            value="none", options=["none", "4", "6", "8", "10", "12"], description=_("Year limit"), placeholder=_("a number, or none"), style=WIDE,
            layout=widgets.Layout(width="220px"),
        ).add_class("pb-max-years")  # fmt: skip
        self._seed_and_start("200px", start_below=True)
        row = widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 16px")
        super().__init__(
            (
                widgets.HTML(f'<h3 style="margin:14px 0 4px">{esc(_("New game: the village"))}</h3>'),
                widgets.HBox((self.players, self.warning), layout=row),
                seats,
                widgets.HTML(variants_note()),
                widgets.HBox((widgets.HTML(f"<b>{esc(_('Misfortune'))}</b>: {esc(_('units lost on a die of'))}"), *self.misfortune), layout=row),
                widgets.HBox((self.capacity, self.by_hand, self.table_dice, self.sticky, self.anonymous), layout=row),
                widgets.HBox((self.dyke_start, self.end_check, self.end_on, self.max_years, self.seed), layout=row),
                self.start_button,
            )
        )
        self._ready()

    def _show_rows(self) -> None:
        super()._show_rows()
        note = Setup(names=tuple(str(i) for i in range(self.players.value))).warning_said
        self.warning.value = f'<span class="pb-tone-warn" style="font-weight:600">⚠ {esc(render(note))}</span>' if note else ""

    def setup(self, names: tuple[str, ...]) -> Setup:
        max_years = optional_limit(self.max_years.value, say("year"))
        one, two, three, four, five, six = (w.value for w in self.misfortune)  # a loss per face of the die
        return Setup(
            names=names,
            capacity=self.capacity.value,
            misfortune=(one, two, three, four, five, six),
            misfortune_by_hand=self.by_hand.value,
            table_dice=self.table_dice.value,
            dyke_start=self.dyke_start.value,
            sticky_flood=self.sticky.value,
            anonymous=self.anonymous.value,
            end_check_from=self.end_check.value,
            end_on=_int_list(self.end_on.value, say("the end faces")),
            max_years=max_years,
        )


# -- a household's allocation -------------------------------------------------------------------------


class AllocationGrid(widgets.VBox):
    """One click for the usual allocations (presets), or units per (household, activity): your
    own row, and a row for each household you add (pb-alloc-add). Shows what the plan earns and
    the units left before Confirm.

    Built from `view_for(state, seat)`; the earnings come from `rules.leerdam.preview`. Other
    households' rows are made on demand: a village of 20 would otherwise send every phone 60
    number boxes at the reveal.
    """

    def __init__(self, state: State, seat: int, on_allocate: Callable[[Allocate], None]) -> None:
        view = view_for(state, seat)
        self._state, self._seat, self._on_allocate = state, seat, on_allocate
        self.free = view.households[seat].free or 0
        self._names = [h.name for h in view.households]
        self.steppers: dict[tuple[int, str], widgets.BoundedIntText] = {}
        self._cell = widgets.Layout(width="96px")  # one layout for every stepper: fewer models
        self.rows = widgets.GridBox(
            [widgets.HTML(f"<b>{esc(_('Household'))}</b>").add_class("ld-head")] + [widgets.HTML(f"<b>{esc(render(ACTIVITY_LABEL[a]))}</b>").add_class("ld-head") for a in ACTIVITIES],
            layout=widgets.Layout(grid_template_columns="minmax(120px, 240px) repeat(3, minmax(72px, 110px))", grid_gap="2px 8px", align_items="center"),
        ).add_class("ld-grid")
        self._add_row(seat)
        others = [(name, s) for s, name in enumerate(self._names) if s != seat]
        self.add = widgets.Dropdown(options=[(_("add a household…"), -1)] + others, value=-1, tooltip=_("Add a household to your allocation"), layout=widgets.Layout(width="220px")).add_class("pb-alloc-add")
        self.add.observe(self._added, "value")
        self.preview_html = widgets.HTML().add_class("pb-alloc-preview")
        self.confirm = widgets.Button(
            description=_("Confirm allocation"), button_style="primary", icon="check", layout=widgets.Layout(align_self="flex-start")
        ).add_class("pb-alloc-confirm")
        self.confirm.on_click(lambda _event: self._on_allocate(self.allocation()))
        presets = [self._preset(label, css, plan) for label, css, plan in self._presets()]
        super().__init__(
            (
                widgets.HTML(f'<div class="ld-mid">{esc(_n("Allocate your {n} free unit", "Allocate your {n} free units", self.free))}</div>'),
                widgets.HBox(tuple(presets), layout=widgets.Layout(flex_flow="row wrap", grid_gap="6px")).add_class("pb-alloc-presets"),
                widgets.HTML(
                    '<span class="pb-muted">'
                    + esc(_("Or place them yourself: each unit goes to one household's Subsistence, Leisure or Profit; units left over are idle."))
                    + "</span>"
                ),
                self.rows,
                self.add,
                self.preview_html,
                self.confirm,
            )
        )
        self.add_class("pb-alloc")
        self._check()

    def _presets(self) -> list[tuple[str, str, tuple[Assignment, ...]]]:
        """The usual allocations: feed your household (2 units), then the rest to Profit, or 2
        to Leisure first. Each is one click; the label says what it does."""
        me, free = self._seat, self.free
        fed = min(2, free)
        plans = [
            (_("Feed myself, rest to Profit"), "pb-alloc-preset-profit", ((me, "subsistence", fed), (me, "profit", free - fed))),
            (_("Feed myself, 2 Leisure, rest to Profit"), "pb-alloc-preset-leisure", ((me, "subsistence", fed), (me, "leisure", min(2, free - fed)), (me, "profit", max(0, free - fed - 2)))),
        ]
        return [(label, css, tuple(Assignment(r, a, u) for r, a, u in plan if u)) for label, css, plan in plans]

    def _preset(self, label: str, css: str, plan: tuple[Assignment, ...]) -> widgets.Button:
        earned = preview(self._state, self._seat, plan)[self._seat]
        button = widgets.Button(description=label, tooltip=_("Allocate now: {vp} VP, +{wealth} Wealth", vp=_signed(earned.vp), wealth=earned.wealth), button_style="success").add_class(css)
        button.on_click(lambda _event: self._on_allocate(Allocate(seat=self._seat, plan=plan)))
        return button

    def _add_row(self, recipient: int) -> None:
        if (recipient, ACTIVITIES[0]) in self.steppers:
            return
        label = f"<b>{esc(self._names[recipient])}</b> {esc(_('(you)'))}" if recipient == self._seat else esc(self._names[recipient])
        cells: list[widgets.Widget] = [widgets.HTML(label).add_class("ld-name")]
        for activity in ACTIVITIES:
            # The activity's name beside its box shows on a phone only (the header row says it elsewhere).
            stepper = widgets.BoundedIntText(value=0, min=0, max=max(self.free, 0), description=render(ACTIVITY_LABEL[activity]), layout=self._cell)
            stepper.add_class(f"pb-alloc-{recipient}-{activity}")
            stepper.observe(lambda _event: self._check(), "value")
            self.steppers[(recipient, activity)] = stepper
            cells.append(stepper)
        self.rows.children = (*self.rows.children, *cells)

    def _added(self, change: Mapping[str, Any]) -> None:
        if change["new"] is not None and change["new"] >= 0:
            self._add_row(change["new"])
            self.add.value = -1

    def add_recipient(self, recipient: int) -> None:
        """Give `recipient` a row of steppers (what "add a household" does)."""
        self._add_row(recipient)

    def plan(self) -> tuple[Assignment, ...]:
        return tuple(Assignment(r, a, s.value) for (r, a), s in self.steppers.items() if s.value)

    def allocation(self) -> Allocate:
        return Allocate(seat=self._seat, plan=self.plan())

    def set_plan(self, plan: Sequence[Assignment]) -> None:
        """Put a plan into the steppers (nothing is allocated until Confirm)."""
        for stepper in self.steppers.values():
            stepper.value = 0
        for a in plan:
            self._add_row(a.recipient)
            self.steppers[(a.recipient, a.activity)].value = a.units

    def _check(self) -> None:
        plan = self.plan()
        left = self.free - sum(a.units for a in plan)
        earned = preview(self._state, self._seat, plan)
        names = self._state.names
        rows = []
        heads = [esc(render(h)) for h in PREVIEW_HEAD]
        for recipient, e in earned.items():
            who = f"<b>{esc(names[recipient])}</b> {esc(_('(you)'))}" if recipient == self._seat else esc(names[recipient])
            vp, wealth = esc(_("{vp} VP", vp=_signed(e.vp))), esc(_("+{wealth} Wealth", wealth=e.wealth))
            cells = [who, str(e.subsistence), str(e.leisure), str(e.profit), f"<b>{vp}</b>", f"<b>{wealth}</b>"]
            rows.append(f'<tr data-recipient="{recipient}">' + "".join(f'<td data-label="{h}"><span>{c}</span></td>' for h, c in zip(heads, cells)) + "</tr>")
        head = "".join(f"<th>{h}</th>" for h in heads)
        tone = "bad" if left < 0 else "good"
        if left < 0:
            left_text = _n("{n} unit too many", "{n} units too many", -left)
        elif left:
            left_text = _n("{left} of {n} unit left (idle if not placed)", "{left} of {n} units left (idle if not placed)", self.free, left=left)
        else:
            left_text = _n("{left} of {n} unit left", "{left} of {n} units left", self.free, left=left)
        muted = _("Your line counts labour you hired this year; others may still add to it. Another household's VP line counts Leisure only: its own Subsistence decides the rest.")
        self.preview_html.value = card(
            _("What this allocation earns"),
            f'<div class="ld-mid pb-tone-{tone}" data-left="{left}">{esc(left_text)}</div>'
            f'<table class="pb-table pb-cards"><tr>{head}</tr>{"".join(rows)}</table>'
            f'<span class="pb-muted">{esc(muted)}</span>',
        )
        self.confirm.disabled = left < 0


# -- the dashboard --------------------------------------------------------------------------------------


class LeerdamDashboard(TableDashboard):
    """The Leerdam table: picker and form first, then the projector board and household panels.

    Besides `TableDashboard`'s attributes: `form` (SetupForm), `curtain` (PrivacyCurtain),
    `year_html`, `dyke_html`, `thresholds_html`, `pledged_html`, `reveal_html`, `flood_html`,
    `plots` (Image), `csv_html`, `advance_button`, `loss_inputs`, `set_misfortune_button`.
    """

    slug = RULES.slug
    game_title = RULES.title
    setup_form = SetupForm
    bot_strategies = LAB_BOTS[RULES.slug]
    sheets = ("leerdam.css",)

    def __init__(self, store: Store | None = None, query: str | None = None) -> None:
        super().__init__(store, query)
        self.curtain = PrivacyCurtain(self._household_panel, label=_("Whose household?"), key=self._panel_key)
        self.year_html = widgets.HTML().add_class("pb-year")
        self.dyke_html = widgets.HTML().add_class("pb-dyke")
        self.thresholds_html = widgets.HTML().add_class("pb-thresholds")
        self.pledged_html = widgets.HTML().add_class("pb-pledged-count")
        self.reveal_html = widgets.HTML().add_class("pb-reveal")
        self.flood_html = widgets.HTML().add_class("pb-flood")
        self.plots = Picture(layout=widgets.Layout(width="100%", max_width="1100px")).add_class("pb-plots")
        self.plots_note = widgets.HTML().add_class("pb-plots-note")
        #: the plots' numbers as tables, for a screen reader and a printout (`village_numbers`)
        self.plots_numbers = widgets.HTML().add_class("pb-plots-numbers")
        self.csv_html = widgets.HTML().add_class("pb-csv")
        self.game_log.title = _("Village chronicle")
        self.game_log.add_class("pb-chronicle")
        self.advance_button = widgets.Button(
            description=_("Close the year now"), icon="forward",
            tooltip=_("Move a stalled year on: missing pledges count as 0; missing allocations feed their own household (2 units) and rest"),
        ).add_class("pb-advance")  # fmt: skip
        self.advance_button.on_click(lambda _event: self.advance())
        self.loss_inputs: tuple[widgets.BoundedIntText, ...] = ()
        self.set_misfortune_button = widgets.Button(description=_("Set misfortune"), icon="bolt", button_style="primary").add_class("pb-misfortune-set")
        self.set_misfortune_button.on_click(lambda _event: self._set_misfortune_clicked())
        self.misfortune_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 10px"))
        # Table dice: the facilitator types in what the table rolled (misfortune, flood, end).
        self.dice_inputs: tuple[widgets.BoundedIntText, ...] = ()
        self.dice_label = widgets.HTML()
        self.dice_button = widgets.Button(description=_("Enter the roll"), icon="cube", button_style="primary").add_class("pb-dice-enter")
        self.dice_button.on_click(lambda _event: self._table_dice_clicked())
        self.dice_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 10px", display="none")).add_class("pb-table-dice-box")
        self.facilitator = widgets.VBox(
            (
                widgets.HBox(
                    (
                        widgets.HTML(f"<b>{esc(_('Facilitator:'))}</b>&nbsp;"),
                        self.advance_button,
                        # Said on the page, not only in a tooltip: a projector and a phone show no tooltips.
                        widgets.HTML(
                            '<span class="pb-muted">'
                            + esc(_("when a household is away: its missing pledge counts as 0, and its missing allocation feeds itself (2 units) and rests"))
                            + "</span>"
                        ).add_class("pb-advance-note"),
                    ),
                    layout=widgets.Layout(align_items="center", flex_flow="row wrap", grid_gap="4px 10px"),
                ),
                self.misfortune_box,
                self.dice_box,
            )
        ).add_class("pb-facilitator")
        # After an anonymous game: the facilitator's choice for the debrief (rules `ShowPledges`).
        self.show_pledges_button = widgets.Button(icon="eye", layout=widgets.Layout(width="auto")).add_class("pb-show-pledges")
        self.show_pledges_button.on_click(lambda _event: self._show_pledges_clicked())
        self.debrief_note = widgets.HTML()
        self.debrief_choice = widgets.HBox(
            (self.debrief_note, self.show_pledges_button), layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 12px", display="none")
        ).add_class("pb-debrief-choice")
        self.pledge_table = widgets.HTML().add_class("pb-pledge-table")
        self._plot_key: tuple[Any, ...] | None = None
        #: the open household panel's own copy of a refusal (the status line may be off screen).
        self.panel_status = widgets.HTML().add_class("pb-panel-status")
        self.open_from_query()

    # -- hooks ----------------------------------------------------------------------------------------
    def seat_curtain(self) -> PrivacyCurtain:
        return self.curtain

    def _lay_out(self) -> None:
        """The public parts and the record below them, laid out once for either view."""
        if hasattr(self, "_public"):
            return

        def flex(part: widgets.Widget, basis: str = "300px") -> widgets.Widget:
            part.layout = widgets.Layout(flex=f"1 1 {basis}", min_width="260px")
            return part

        row = widgets.Layout(flex_flow="row wrap", grid_gap="12px", align_items="stretch")
        dyke = flex(widgets.VBox((self.dyke_html, self.thresholds_html)), "420px")
        self._public = (
            widgets.HBox((flex(self.year_html, "200px"), dyke, flex(self.flood_html, "320px")), layout=row),
            self.pledged_html,
            self.reveal_html,
        )
        self._record = (
            widgets.HBox((flex(self.standings, "420px"), flex(self.game_log, "420px")), layout=row),
            self.pledge_table,
            self.plots_note,
            self.plots,
            self.plots_numbers,
        )

    def table_view(self) -> widgets.Widget:
        self._lay_out()
        return widgets.VBox(
            (
                *self._public,
                self.facilitator,
                self.debrief_choice,
                self.curtain,
                *self._record,
                widgets.HBox((self.csv_html, self.new_game_button), layout=widgets.Layout(align_items="center", grid_gap="16px")),
            )
        )

    def public_view(self) -> widgets.Widget:
        self._lay_out()
        if self.role == "seat":
            # A phone gets the standings and the chronicle, not the plots: a seat page stays
            # light (no plotting library in its kernel), and the projector shows them.
            return widgets.VBox((*self._public, *self._record[:2]))
        return widgets.VBox((*self._public, *self._record))

    def waiting(self, state: State) -> tuple[int, ...]:
        """Seats to move now: bots allocate after the humans (so they can be hired), but answer offers at once."""
        seats = state.waiting_for()
        if state.phase != "allocate":
            return seats
        humans = tuple(s for s in seats if s not in self.bots)
        if not humans:
            return seats
        asked = {d.seller for d in state.deals if d.status == "offered"}
        return humans + tuple(s for s in seats if s in self.bots and s in asked)

    def on_lobby(self) -> None:
        self.curtain.hide()
        self.form.reseed()

    def on_open(self) -> None:
        self.curtain.hide()
        self._plot_key = None
        assert self.game is not None
        setup: Setup = self.game.setup
        if self.role not in ("facilitator", "open"):
            return  # the table's own dice and misfortune boxes are the facilitator's: no widgets elsewhere
        old = self.loss_inputs
        self.loss_inputs = tuple(
            widgets.BoundedIntText(value=0, min=0, max=setup.capacity, description=name, style=WIDE, layout=widgets.Layout(width="200px")).add_class(
                f"pb-loss-{i}"
            )
            for i, name in enumerate(setup.names)
        )
        self.misfortune_box.children = (widgets.HTML(f"<b>{esc(_('Misfortune this year (units lost):'))}</b>"), *self.loss_inputs, self.set_misfortune_button)
        close_tree(old)
        old = self.dice_inputs
        self.dice_inputs = tuple(
            widgets.BoundedIntText(value=6, min=1, max=6, description=name, style=WIDE, layout=widgets.Layout(width="200px")).add_class(f"pb-die-{i}")
            for i, name in enumerate(setup.names)
        )
        close_tree(old)

    def started(self, setup: Setup) -> None:
        if setup.warning and self.game is not None:
            self.status.info(f"{self.status.message} {render(setup.warning_said)}")

    # -- facilitator ------------------------------------------------------------------------------------
    def advance(self) -> bool:
        """Let the bots finish the year's step, then move a stalled year on (rules `Advance`)."""
        if self.refused_on_seat_page(say("advance the year")):
            return False
        return self.act(Advance(seat=None), release_bots=True)

    def _table_dice_clicked(self) -> None:
        """Enter the die (or, for misfortune, one die per household) the table just rolled."""
        if not self.may_run(say("enter the dice")) or self.game is None:
            return
        phase, faces = self.game.state.phase, tuple(w.value for w in self.dice_inputs)
        if phase == "misfortune":
            self.act(Misfortune(rolls=faces))
        elif phase == "flood":
            self.act(Flood(strength=faces[0]))
        elif phase == "end":
            self.act(EndRoll(die=faces[0]))
        else:
            self.status.refuse(_("No roll is due now."))

    def _draw_table_dice(self, phase: str, setup: Setup) -> None:
        due = {"misfortune": _("Misfortune: each household's d6"), "flood": _("The flood die (Flood Strength)"), "end": _("The end-of-game die")}
        if not setup.table_dice or phase not in due or (phase == "misfortune" and setup.misfortune_by_hand):
            self.dice_box.layout.display = "none"
            return
        shown = self.dice_inputs if phase == "misfortune" else self.dice_inputs[:1]
        for w, name in zip(self.dice_inputs, setup.names):
            # TRANSLATORS: the box for the one die the table rolled (flood or end of game).
            w.description = name if phase == "misfortune" else _("Die")
        self.dice_label.value = f"<b>{esc(_('Table dice: {roll}', roll=due[phase]))}</b>"
        self.dice_box.children = (self.dice_label, *shown, self.dice_button)
        self.dice_box.layout.display = "flex"

    def _show_pledges_clicked(self) -> None:
        """The debrief's choice after an anonymous game: show every household's pledges, or hide them again."""
        if not self.may_run(say("show the pledges")) or self.game is None:
            return
        show = not self.game.state.pledges_shown
        if self.act(ShowPledges(seat=None, show=show)):
            self.status.ok(_("Every household's pledges are on the board now.") if show else _("The pledges are anonymous again."))

    def _draw_debrief_choice(self, state: State) -> None:
        if not (state.over and state.setup.anonymous and self.role == "facilitator"):
            self.debrief_choice.layout.display = "none"
            return
        shown = state.pledges_shown
        note = (
            _("every household's pledges, year by year, are on the board.")
            if shown
            else _("the pledges stay anonymous: the board shows the totals and the final standings only.")
        )
        self.debrief_note.value = f"<b>{esc(_('Debrief:'))}</b> {esc(note)}"
        self.show_pledges_button.description = _("Keep them anonymous") if shown else _("Show each household's pledges")
        self.show_pledges_button.icon = "eye-slash" if shown else "eye"
        self.show_pledges_button.button_style = "" if shown else "warning"
        self.debrief_choice.layout.display = "flex"

    def _set_misfortune_clicked(self) -> None:
        if self.refused_on_seat_page(say("set the misfortune")):
            return
        self.act(SetMisfortune(seat=None, losses=tuple(w.value for w in self.loss_inputs)))

    # -- the projector --------------------------------------------------------------------------------------
    def draw_table(self) -> None:
        assert self.game is not None
        state: State = self.game.state
        view = view_for(state, None)
        setup: Setup = self.game.setup
        self.header.show(self.game_title, _("Year {year}", year=view.year), self._waiting_text(view))
        self.year_html.value = year_card(view, setup)
        self.dyke_html.value = dyke_card(view)
        self.thresholds_html.value = thresholds_note(view, setup)
        self.pledged_html.value = pledged_card(view)
        rows = ledger_rows(state, None)
        self.reveal_html.value = reveal_card(view, rows)
        self.flood_html.value = flood_card(view, setup.end_on)
        self.advance_button.disabled = view.phase not in ("contribute", "allocate")
        self.misfortune_box.layout.display = "flex" if view.phase == "misfortune" and setup.misfortune_by_hand else "none"
        self._draw_table_dice(view.phase, setup)
        over = view.phase == "over"
        # A household's own page (seat link) does not run the table: the facilitator does.
        self.facilitator.layout.display = "none" if over or self.role != "facilitator" else "flex"
        self.pledged_html.layout.display = "none" if over else "block"
        table = [
            (rank, view.households[seat].name + (f"  🤖 {self.bots[seat]}" if seat in self.bots else ""), vp, view.households[seat].wealth, "🌊 " + _("Flooded") if view.households[seat].flooded else "")
            for rank, seat, vp in view.standings
        ]  # fmt: skip
        # Anonymous pledges: a household's VP or Wealth would give its pledges away, so until
        # the end the room sees the village's sums instead.
        hidden = "" if view.standings else _(
            "Anonymous pledges: each household's VP and Wealth stay its own until the game ends. "
            "The village holds {vp} VP and {wealth} Wealth in all.",
            vp=view.vp_total, wealth=view.wealth_total,
        )  # fmt: skip
        self.standings.show((_("Rank"), _("Household"), _("VP"), _("Wealth"), _("Flooded")), table, empty=hidden)
        self.game_log.show([render(line) for line in view.log])
        self.pledge_table.value = pledge_table(state) if setup.anonymous and not view.anonymous else ""
        self._draw_plots(view, rows, setup)
        self._draw_debrief_choice(state)
        if self.role in ("facilitator", "open"):  # the debrief is the facilitator's
            self.csv_html.value = self._village_csv_link(view, state) if view.anonymous else self._csv_link(view, rows)
        labels = [h.name + (f" 🤖 {self.bots[i]}" if i in self.bots else "") for i, h in enumerate(view.households)]
        self.curtain.set_seats(labels, [i not in self.bots for i in range(len(view.households))], self.waiting(state), self.on_devices())
        self.curtain.refresh()

    def board_parts(self) -> tuple[widgets.Widget, ...]:
        return (self.pledge_table,)

    def draw_board_parts(self) -> None:
        assert self.game is not None
        state: State = self.game.state
        # Only once the facilitator has shown the pledges (the public view then has them).
        self.pledge_table.value = pledge_table(state) if state.setup.anonymous and not view_for(state, None).anonymous else ""

    def _csv_link(self, view: View, rows: Sequence[dict[str, Any]]) -> str:
        """The debrief CSV of the finished years: a year in progress has no dyke, VP or Wealth
        yet, and a row of zeros would read as a year that went badly."""
        last = view.years[-1].year if view.years else 0
        done = [r for r in rows if r["year"] <= last]
        if not done:
            return f'<span class="pb-muted" data-csv-years="0">{esc(_("The ledger CSV comes when the first year ends."))}</span>'
        label = _("Debrief: ledger of year 1 as CSV") if last == 1 else _("Debrief: ledger of years 1-{last} as CSV", last=last)
        link = download_link(csv_text(done, labels=LEDGER_LABELS), f"leerdam-{self.table_id or 'game'}-ledger.csv", label, "text/csv")
        later = f' <span class="pb-muted">{esc(_("(year {year} is added when it ends)", year=view.year))}</span>' if view.year > last and view.phase != "over" else ""
        return f'<span data-csv-years="{last}">{link}{later}</span>'

    def _village_csv_link(self, view: View, state: State) -> str:
        """With anonymous pledges the debrief CSV holds the village's years: households' rows
        would give their pledges away."""
        rows = village_rows(state)
        if not rows:
            later = _("The village's CSV comes when the first year ends.")
            return f'<span class="pb-muted" data-csv-years="0">{esc(later)}</span>'
        last = rows[-1]["year"]
        label = _("Debrief: the village's year 1 as CSV") if last == 1 else _("Debrief: the village's years 1-{last} as CSV", last=last)
        link = download_link(csv_text(rows, labels=LEDGER_LABELS), f"leerdam-{self.table_id or 'game'}-village.csv", label, "text/csv")
        return f'<span data-csv-years="{last}">{link} <span class="pb-muted">{esc(_("(anonymous pledges: totals only)"))}</span></span>'


    def _waiting_text(self, view: View) -> str:
        names = [h.name for h in view.households]
        who = self.waiting_names(names, self.waiting(self.game.state)) if self.game else ""
        if view.phase == "over":
            return _("Game over: {ending}.", ending=render(view.ending))
        if view.phase == "misfortune":
            if self.game and self.game.setup.table_dice and not self.game.setup.misfortune_by_hand:
                return _("Facilitator: roll the misfortune dice and enter them.")
            return _("Facilitator: set this year's misfortune.")
        if view.phase == "flood":
            return _("Facilitator: roll the flood die and enter it.")
        if view.phase == "end":
            return _("Facilitator: roll the end-of-game die and enter it.")
        if view.phase == "contribute":
            return _("Secret pledges: waiting for {who}.", who=who)
        if view.phase == "allocate":
            return _("Allocation: waiting for {who}.", who=who)
        return ""


    def _draw_plots(self, view: View, rows: Sequence[dict[str, Any]], setup: Setup) -> None:
        """Redraw the plots only when a year has finished (or the game ended)."""
        key = (self.table_id, len(view.years), view.phase == "over", view.anonymous)
        if key == self._plot_key or self.role == "seat":
            return
        self._plot_key = key
        if not view.years:
            self.plots.show(b"", "")
            self.plots.layout.display = "none"
            self.plots_numbers.value = ""
            self.plots_note.value = f'<span class="pb-muted">{esc(_("Plots of the dyke, the pledges, Wealth and VP appear when the first year ends."))}</span>'
            return
        self.plots.show(
            figure_png(village_figure(view, rows, setup.dyke_start)),
            _n(
                "Charts of the village over {n} year: the dyke, the pledges, and each household's Wealth and VP",
                "Charts of the village over {n} years: the dyke, the pledges, and each household's Wealth and VP",
                len(view.years),
            ),
        )
        self.plots.layout.display = "block"
        self.plots_numbers.value = village_numbers(view, rows, setup.dyke_start)
        self.plots_note.value = f'<h3 style="margin:10px 0 0">{esc(_("The years so far"))}</h3>'

    # -- a household's private panel -------------------------------------------------------------------------
    def _panel_key(self, seat: int) -> tuple[object, ...]:
        """All a household's panel shows: while it stays the same, others' moves leave it be."""
        assert self.game is not None
        state: State = self.game.state
        view = view_for(state, seat)
        # Not the others' Wealth or whether they pledged or allocated (the header says who the
        # year waits for): a class pledging at once would rebuild every panel once a pledge, and
        # an offer to a household that has allocated is refused with the reason anyway.
        others = tuple((h.name, h.capacity) for h in view.households)
        return (view.phase, view.year, view.households[seat], view.deals, others, _private_lines(state, seat)[-8:])

    def _household_panel(self, seat: int) -> list[widgets.Widget]:
        """Fresh widgets for one household, built from that seat's view only."""
        assert self.game is not None
        state: State = self.game.state
        view = view_for(state, seat)
        me = view.households[seat]
        # A fact's label is a message; its number is bold (one message would not bold it).
        facts = [
            f"{esc(_('Capacity this year:'))} <b>{me.capacity}</b>",
            f"{esc(_('Wealth:'))} <b>{me.wealth}</b>",
            f"{esc(_('VP:'))} <b>{me.vp}</b>",
        ]
        if me.flooded:
            facts.append(f"<b>🌊 {esc(_('Flooded'))}</b>")
        if me.pledge is not None:
            facts.append(f"{esc(_('Your pledge:'))} <b>{me.pledge}</b>")
        if me.free is not None:
            facts.append(f"{esc(_('Free units:'))} <b>{me.free}</b>")
        head = widgets.HTML(
            card(_("{name}: your household, for your eyes only", name=me.name), " · ".join(facts), attrs=f'data-seat="{seat}"')
        ).add_class("pb-household")
        self.panel_status = widgets.HTML().add_class("pb-panel-status")
        parts: list[widgets.Widget] = [head, self.panel_status, *self._moves(state, view, seat)]
        if view.phase != "over":
            parts.append(self._gift_form(view, seat))
        # The heading says where the game is: a note reads "you pledged...", not which year.
        notes = LogPanel(_("Your notes · year {year} (newest first)", year=view.year))
        notes.show(_private_lines(state, seat), limit=8)
        parts.append(notes.add_class("pb-private-log"))
        return parts

    def act_here(self, action: Action) -> bool:
        """`act` for a household panel's controls: a refusal is shown in the panel. On a screen
        the room shares (the projector's hot seat) it is shown only there: it may name a secret
        pledge ("not 7"). A seat page is the household's own, so its status line says it too, and
        so does every page when the server could not save (it names nothing secret)."""
        done = self.act(action)
        if not done and self.status.kind == "refuse":
            self.panel_status.value = self.status.value
            if self.role != "seat" and self.last_fault is None:
                self.status.clear()
        elif done:
            self.panel_status.value = ""
        return done

    def _moves(self, state: State, view: View, seat: int) -> list[widgets.Widget]:
        me = view.households[seat]

        def note(text: str) -> widgets.HTML:
            return widgets.HTML(f'<div class="ld-mid" style="margin:6px 0">{esc(text)}</div>')

        if view.phase == "over":
            return [note(_("The game is over: {ending}.", ending=render(view.ending)))]
        if view.phase == "misfortune":
            return [note(_("Waiting for the facilitator to set this year's misfortune."))]
        if view.phase == "contribute":
            if me.pledged:
                return [note(_n("Your secret pledge: {n} unit. The reveal comes once every household has pledged.", "Your secret pledge: {n} units. The reveal comes once every household has pledged.", me.pledge or 0))]
            pledge = widgets.IntText(
                value=0, description=_("Units for the dyke (0-{capacity})", capacity=me.capacity), style=WIDE, layout=widgets.Layout(width="300px")
            ).add_class("pb-pledge")
            confirm = widgets.Button(description=_("Pledge in secret"), button_style="primary", icon="lock").add_class("pb-pledge-confirm")
            confirm.on_click(lambda _event: self.act_here(Contribute(seat=seat, units=pledge.value)))
            return [
                note(_n("You have {n} unit this year. How many go to the dyke?", "You have {n} units this year. How many go to the dyke?", me.capacity)),
                widgets.HBox((pledge, confirm), layout=widgets.Layout(align_items="center", grid_gap="10px")),
            ]
        if view.phase == "allocate":
            parts: list[widgets.Widget] = [*self._deals(view, seat)]
            if me.allocated:
                parts.insert(0, note(_("Your allocation is in. The river is rolled once every household has allocated.")))
            else:
                parts.append(AllocationGrid(state, seat, self.act_here))
            if me.wealth > 0:
                parts.append(self._offer_form(view, seat))
            else:
                # Hiring is paid in Wealth: with none (all of year 1) there is nothing to offer.
                none_yet = _("Hiring another household's labour costs Wealth: you have none yet.")
                parts.append(widgets.HTML(f'<span class="pb-muted">{esc(none_yet)}</span>').add_class("pb-no-hire"))
            return parts
        return [note(_("Nothing to do now."))]

    def _deals(self, view: View, seat: int) -> list[widgets.Widget]:
        """Offers to this household (Accept/Decline), its own open offers (Withdraw), deals done."""
        names = [h.name for h in view.households]
        rows: list[widgets.Widget] = []
        for deal in view.deals:
            text = deal_text(deal, seat, names)
            if deal.status == "offered" and deal.seller == seat:
                accept = widgets.Button(description=_("Accept"), button_style="success", icon="handshake-o").add_class(f"pb-accept-{deal.id}")
                decline = widgets.Button(description=_("Decline"), icon="times").add_class(f"pb-decline-{deal.id}")
                accept.on_click(lambda _event, d=deal.id: self.act_here(Accept(seat=seat, deal=d)))
                decline.on_click(lambda _event, d=deal.id: self.act_here(Decline(seat=seat, deal=d)))
                rows.append(widgets.HBox((widgets.HTML(text), accept, decline), layout=widgets.Layout(align_items="center", grid_gap="8px")))
            elif deal.status == "offered" and deal.buyer == seat:
                withdraw = widgets.Button(description=_("Withdraw"), icon="undo").add_class(f"pb-decline-{deal.id}").add_class(f"pb-withdraw-{deal.id}")
                withdraw.on_click(lambda _event, d=deal.id: self.act_here(Decline(seat=seat, deal=d)))
                rows.append(widgets.HBox((widgets.HTML(text), withdraw), layout=widgets.Layout(align_items="center", grid_gap="8px")))
            elif seat in (deal.buyer, deal.seller):
                rows.append(widgets.HTML(text))
        if not rows:
            return []
        return [widgets.HTML(f"<b>{esc(_('Hired labour this year'))}</b>"), *rows]


    def _offer_form(self, view: View, seat: int) -> widgets.Widget:
        others = [(_("{name} (has allocated)", name=h.name) if h.allocated else h.name, i) for i, h in enumerate(view.households) if i != seat]
        # TRANSLATORS: the offer form reads "Hire [household] for Wealth [n] units [n] on my [activity]".
        partner = widgets.Dropdown(options=others, description=_("Hire"), style=WIDE, layout=widgets.Layout(width="260px")).add_class("pb-offer-partner")
        wealth = widgets.BoundedIntText(value=0, min=0, max=10**6, description=_("for Wealth"), style=WIDE, layout=widgets.Layout(width="170px")).add_class(
            "pb-offer-wealth"
        )
        units = widgets.BoundedIntText(value=1, min=0, max=99, description=_("units"), style=WIDE, layout=widgets.Layout(width="130px")).add_class("pb-offer-units")
        activity = widgets.Dropdown(
            options=[(_("on my {activity}", activity=ACTIVITY_LABEL[a]), a) for a in ACTIVITIES], value="profit", tooltip=_("What the hired units work on"), layout=widgets.Layout(width="190px")
        ).add_class("pb-offer-activity")
        send = widgets.Button(description=_("Send offer"), icon="paper-plane").add_class("pb-offer-send")
        send.on_click(
            lambda _event: self.act_here(Offer(seat=seat, partner=partner.value, wealth=wealth.value, units=units.value, activity=activity.value))
        )
        hire = _("Hire another household's labour")
        return widgets.VBox(
            (
                widgets.HTML(
                    f"<b>{esc(hire)}</b> "
                    f'<span class="pb-muted">{esc(_("(binding once they accept: the Wealth and the units move together)"))}</span>'
                ),
                widgets.HBox((partner, wealth, units, activity, send), layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 8px")),
            )
        )

    def _gift_form(self, view: View, seat: int) -> widgets.Widget:
        others = [(h.name, i) for i, h in enumerate(view.households) if i != seat]
        to = widgets.Dropdown(options=others, description=_("Give"), style=WIDE, layout=widgets.Layout(width="260px")).add_class("pb-gift-to")
        wealth = widgets.BoundedIntText(value=0, min=0, max=10**6, description=_("Wealth"), style=WIDE, layout=widgets.Layout(width="160px")).add_class(
            "pb-gift-wealth"
        )
        send = widgets.Button(description=_("Give Wealth"), icon="gift").add_class("pb-gift-send")
        send.on_click(lambda _event: self.act_here(Gift(seat=seat, to=to.value, wealth=wealth.value)))
        return widgets.VBox(
            (
                widgets.HTML(
                    f"<b>{esc(_('A gift of Wealth'))}</b> "
                    f'<span class="pb-muted">{esc(_("(you hold {wealth}; VP never moves)", wealth=view.households[seat].wealth))}</span>'
                ),
                widgets.HBox((to, wealth, send), layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 8px")),
            )
        )


#: the setup variants a class of this game may choose (setup field -> what its checkbox says).
CLASS_VARIANTS = {"anonymous": ANONYMOUS}
#: the game's page, as its card names its "dashboard" layer (a class page builds a student's seat with it).
DASHBOARD = LeerdamDashboard
