"""Danger World at the table: a character keeper and a dice tray that knows the rules.

The dice, sheets, tracks, outcome and roll history are drawn by `drawing.danger_world`; the
check in play (builder, tray, coach) is `widgets.danger_world_check`.

`DangerWorldDashboard(store=None, query=None)` is a table's page in the role its link gives
(`widgets.table`): the facilitator's page plays every seat on one screen (hot seat); a seat's own
page (a character's player, or the GM: `Setup.gm_seat`) shows the same controls filtered to
what that seat does (see "Seat pages" below); the board draws the scene and every character's
condition, read-only. It opens
on the table picker and the new-game form (the GM, 1-12 player characters, every variant of
`rules.danger_world.Setup`, a seed). An open table shows:

- the party: each character's sheet (stats as they stand after injuries, aspects, story
  points, danger level and zone rank, the damage track drawn as boxes per section, one-time
  bonus pools) and the general story-point pool; a sheet builder for each character without a
  sheet (eight stat steppers with a live "N of 16" counter and the rules' own verdict, three
  aspects), and "Edit sheet" for the others;
- the check builder: actor, two stats, difficulty with +1/-1 modifiers (the clamped result and
  the "net beyond +-1" flag), aspect invocations, GM compels, bonus pools, danger dice,
  complications, aid, then Roll; the pool it makes is previewed by the rules' own `play`;
- the dice tray: pool, danger and penalty dice drawn as faces (danger dice red-bordered with
  red pips, penalty dice grey), click a die to select it for locking, Lock, Re-roll, the legal
  sets as choices and "No set";
- the re-roll coach and the odds: before the roll the exact chance of success with best play,
  after each roll the lock choices ranked by the chance each leaves (`success_chance`,
  `coach`); worked out only when the dice change;
- the outcome and the botches; the GM panel (botches spent on options whose costs add up to at
  most the botches, hits on a chosen character, rests, end of encounter, new session);
- the roll history (also as CSV), the log, undo (refused once dice were rolled), the save file.

Danger World has no hidden information: the GM does not roll and every seat sees the same, so
there is no privacy curtain and the save file is offered at all times. On the facilitator's
page player actions are made in the acting character's seat, GM actions in the GM's seat.

Seat pages. A player's page: their own character first (the sheet builder for theirs alone),
the others' sheets to read, and their own check (no compels, complications or removed GM
penalty dice: those are the GM's), their dice to lock and re-roll, and the coach. The GM's page:
the check for any character (every part of it), the GM panel first while botches wait, the
party, and the GM screen's odds table (``pb-odds-grid``); the GM watches the dice. Every action
a seat page sends carries its own seat; the coach and the odds of a check in play show on the
acting player's page only. The board shows the party's condition below its scene
(``pb-board-party``). No rule lives here: legality,
previews and odds all come from `rules.danger_world`. Should the rules model itself fail on a
move (a bug, not a refusal), the table reopens at its last saved move and the status says so.

Stable CSS classes (`add_class`), for browser tests and users' scripts:

- root: ``playbook-danger-world`` (and ``playbook-root``, shared by every game)
- header: ``pb-header``, ``pb-title``, ``pb-round``, ``pb-turn``; status line ``pb-status``
- setup form: ``pb-setup``, ``pb-gm-name``, ``pb-players`` (number of player characters,
  1-12), ``pb-name-<i>`` (Text, character i = 0..11), ``pb-story-points``, ``pb-pool-start``,
  ``pb-rerolls``, ``pb-danger-resets`` (Checkbox), ``pb-sheet-dice``, ``pb-seed``,
  ``pb-start``
- table picker: ``pb-picker``, ``pb-resume`` (one Button per unfinished table, with `.table_id`)
- party: ``pb-party``, ``pb-character-<i>`` (a character's box), ``pb-sheet-<i>`` (HTML: the
  sheet), ``pb-track-<i>`` (HTML: the damage track, with ``data-track="b,s,i,k,d"``),
  ``pb-edit-<i>`` (open the sheet builder of a finished sheet), ``pb-sp-pool``
- sheet builder: ``pb-builder-<i>``, ``pb-stat-<i>-<stat>`` (BoundedIntText 1-4; stat
  lower-case: agility, endurance, speed, strength, perception, reasoning, charisma, cool),
  ``pb-aspect-<i>-<k>`` (Text, k = 0..2), ``pb-sheet-count-<i>`` ("N of 16"),
  ``pb-sheet-verdict-<i>`` (the rules' verdict), ``pb-sheet-confirm-<i>`` (disabled, not
  primary, its tooltip the reason, until the rules accept the sheet),
  ``pb-sheet-cancel-<i>``, ``pb-quick-<i>`` (a legal sheet at random, saved at once),
  ``pb-ready-<i>`` (Dropdown: a ready-made sheet put into the builder, -1 none),
  ``pb-quick-all`` (a quick sheet for every character still without one); ``pb-checks`` (the
  check builder and the dice tray: above the party once every sheet is done)
- check builder: ``pb-check-builder``, ``pb-actor`` (Dropdown), ``pb-stat-a``, ``pb-stat-b``
  (Dropdowns), ``pb-difficulty`` (ToggleButtons 2-6), ``pb-mod-plus``, ``pb-mod-minus``,
  ``pb-mod-clear``, ``pb-difficulty-result`` (clamped difficulty and flag),
  ``pb-invoke-<k>`` (SP on aspect k), ``pb-compel-<k>`` (the GM's SP on aspect k),
  ``pb-bonus`` (box of Checkboxes ``pb-bonus-<j>``, one per bonus pool), ``pb-danger-dice``,
  ``pb-complications``, ``pb-waive`` (the GM's penalty dice on a challenge the table removes
  from this check; shown while the actor has some), ``pb-aid`` (Dropdown; -1 is no one),
  ``pb-check-preview``, ``pb-roll``; everything from ``pb-invoke-<k>`` to ``pb-aid`` is in
  the folded ``pb-check-extras`` (an Accordion: click its title to open it)
- dice tray: ``pb-tray``, ``pb-tray-title``, ``pb-die-<k>`` (ToggleButton per pool die,
  k = 0.. with the normal dice first, then the danger dice; also ``dw-pool`` or ``dw-danger``,
  ``dw-face-<1-6>``, ``dw-locked``), ``pb-penalty-<k>`` (penalty dice, ``dw-penalty``),
  ``pb-last-dice`` (the finished check's dice), ``pb-lock``, ``pb-reroll``,
  ``pb-set-<height>``, ``pb-no-set``
- coach and outcome: ``pb-odds`` (the chance of success now), ``pb-coach`` (the lock choices
  ranked), ``pb-coach-best`` (select the best lock's dice), ``pb-outcome``, ``pb-botches``
- GM panel: ``pb-gm``, ``pb-gm-target`` (Dropdown: who options and hits land on),
  ``pb-gm-note`` (Text, goes with the next option), ``pb-gm-option-<option>`` (one Button per
  GM option: danger, penalty, reduced, minor, meaningful, full, significant, major, overload,
  huge), ``pb-gm-basket``, ``pb-gm-clear``, ``pb-gm-spend``, ``pb-gm-preview``,
  ``pb-hit-<hit>`` (reduced, full, overload: a hit outside a check), ``pb-short-rest``,
  ``pb-long-rest``, ``pb-end-encounter``, ``pb-new-session``
- record: ``pb-history`` (the roll history), ``pb-history-csv`` (its CSV as a data-URI
  link), ``pb-log``, ``pb-undo``, ``pb-download`` (the save file's link, always there; the
  shared ``pb-save-file`` button is hidden), ``pb-upload``, ``pb-new-game``

There is no button for chance: Roll applies the check and the dice fall at once (the model's
chance action, drawn from the table's seed); Re-roll likewise. Re-roll with dice selected
locks them first.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import ipywidgets as widgets

from drawing.common import card, chip, download_link, esc
from drawing.danger_world import (
    HISTORY_LABELS,
    history_card,
    history_rows,
    odds_grid,
    party_board,
    sheet_html,
    track_html,
)
from i18n import _, _n, listed, render
from playbook.store import Store
from rules import Action, AnyGame
from rules.danger_world import (
    ASPECTS,
    CARD,
    GM_OPTION_SAID,
    GM_OPTIONS,
    HITS,
    MENTAL,
    PHYSICAL,
    READY_SHEETS,
    RULES,
    SECTION_NAMES,
    STAT_MAX,
    STAT_MIN,
    STAT_NAMES,
    STATS,
    TRACK,
    ApplyHit,
    CreateCharacter,
    EndEncounter,
    GmOption,
    LongRest,
    NewSession,
    SetAspects,
    SetStats,
    Setup,
    ShortRest,
    SpendBotches,
    State,
    View,
    fit_stats,
    quick_sheet,
    view_for,
)

from .common import WIDE, close_tree, csv_text
from .danger_world_check import CheckControls
from .new_game_form import VARIANTS_NOTE, NewGameForm, setup_default
from .table import TableDashboard

__all__ = ["CLASS_VARIANTS", "DASHBOARD", "DangerWorldDashboard", "SetupForm", "SheetBuilder"]

DEFAULT_PLAYERS = 3
DEFAULT_NAMES = ("Wren", "Ash", "Juno", "Pike", "Rook", "Sable", "Tam", "Vale", "Briar", "Cole", "Dex", "Fen")


# -- the new-game form --------------------------------------------------------------------------------


class SetupForm(NewGameForm):
    """The GM, the player characters, the variants and the seed; `read()` makes the Setup."""

    def __init__(self) -> None:
        self.gm = widgets.Text(value=setup_default(Setup, "gm"), description=_("GM"), style=WIDE, layout=widgets.Layout(width="280px")).add_class("pb-gm-name")
        self.players = widgets.BoundedIntText(
            value=DEFAULT_PLAYERS, min=CARD.players.low, max=CARD.players.high, description=_("Player characters"), style=WIDE, layout=widgets.Layout(width="220px")
        ).add_class("pb-players")
        # The GM and the player characters: no bots.
        self._seat_rows(RULES.slug, DEFAULT_NAMES[: CARD.players.high], lambda i: f"{i + 1}", _("character name"), "250px", bots=False)
        names = widgets.GridBox(self.names, layout=widgets.Layout(grid_template_columns="repeat(auto-fill, minmax(260px, 1fr))", grid_gap="2px 14px"))

        def number(field: str, low: int, high: int, label: str, css: str, width: str = "200px") -> widgets.BoundedIntText:
            return widgets.BoundedIntText(value=setup_default(Setup, field), min=low, max=high, description=label, style=WIDE, layout=widgets.Layout(width=width)).add_class(css)

        self.story_points = number("story_points", 0, 20, _("Story points per session"), "pb-story-points", "250px")
        self.pool_start = number("pool_start", 0, 50, _("General pool starts at"), "pb-pool-start", "240px")
        self.rerolls = number("rerolls", 0, 5, _("Re-rolls per check"), "pb-rerolls", "210px")
        self.sheet_dice = number("sheet_dice", len(STATS) * STAT_MIN, len(STATS) * STAT_MAX, _("Dice on a sheet"), "pb-sheet-dice", "200px")
        self.danger_resets = widgets.Checkbox(
            value=setup_default(Setup, "danger_resets"), description=_("Danger returns to 0 when an encounter ends"), indent=False,
            layout=widgets.Layout(width="auto"),
        ).add_class("pb-danger-resets")
        self._seed_and_start("200px", start_below=True)
        row = widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 16px")
        super().__init__(
            (
                widgets.HTML('<h3 style="margin:14px 0 4px">' + esc(_("New game: the GM and the player characters")) + '</h3>'),
                widgets.HBox((self.gm, self.players), layout=row),
                names,
                widgets.HTML(VARIANTS_NOTE),
                widgets.HBox((self.story_points, self.pool_start, self.rerolls, self.sheet_dice), layout=row),
                widgets.HBox((self.danger_resets, self.seed), layout=row),
                self.start_button,
            )
        )
        self._ready()

    def setup(self, names: tuple[str, ...]) -> Setup:
        return Setup(
            names=names,
            gm=self.gm.value,
            story_points=self.story_points.value,
            pool_start=self.pool_start.value,
            rerolls=self.rerolls.value,
            danger_resets=self.danger_resets.value,
            sheet_dice=self.sheet_dice.value,
        )


# -- a character's sheet builder ---------------------------------------------------------------------------


class SheetBuilder(widgets.VBox):
    """Eight stat steppers, three aspects, a live 'N of 16' counter and the rules' verdict.

    The dashboard fills `verdict` from the rules (`Game.check` of the action Confirm would
    apply) after every change; Confirm applies it, and a refusal changes nothing.
    """

    def __init__(
        self,
        index: int,
        sheet_dice: int,
        on_change: Callable[[int], None],
        on_confirm: Callable[[int], None],
        on_cancel: Callable[[int], None],
        on_quick: Callable[[int], None] | None = None,
    ) -> None:
        self.index = index
        self.sheet_dice = sheet_dice
        # A finished sheet in one click (saved at once, editable after), or a ready-made one to
        # start from: eleven fields per character are for those who want them.
        self.quick = widgets.Button(
            description=_("Quick character"), icon="bolt", button_style="info", tooltip=_("A legal sheet at random, saved at once; Edit sheet changes it")
        ).add_class(f"pb-quick-{index}")
        self.quick.on_click(lambda _event: on_quick(index) if on_quick else None)
        self.ready = widgets.Dropdown(
            options=[(_("or start from a ready-made one…"), -1)] + [(render(r.label), k) for k, r in enumerate(READY_SHEETS)],
            value=-1,
            tooltip=_("A ready-made character sheet"),
            layout=widgets.Layout(width="290px"),
        ).add_class(f"pb-ready-{index}")
        self.ready.observe(lambda change: self._take_ready(change["new"]), "value")
        self.steppers = {
            stat: widgets.BoundedIntText(
                value=STAT_MIN, min=STAT_MIN, max=STAT_MAX, description=render(STAT_NAMES[stat]), style={"description_width": "92px"}, layout=widgets.Layout(width="170px")
            ).add_class(f"pb-stat-{index}-{stat}")
            for stat in STATS
        }
        self.aspect_texts = tuple(
            widgets.Text(description=_("Aspect {number}", number=k + 1), placeholder=_("a facet of the character"), style=WIDE, layout=widgets.Layout(width="100%")).add_class(
                f"pb-aspect-{index}-{k}"
            )
            for k in range(ASPECTS)
        )
        self.count_html = widgets.HTML().add_class(f"pb-sheet-count-{index}")
        self.verdict_html = widgets.HTML().add_class(f"pb-sheet-verdict-{index}")
        # Disabled until the dashboard has the rules' verdict on the sheet (`show_verdict`).
        self.confirm = widgets.Button(description=_("Confirm sheet"), icon="check", disabled=True).add_class(f"pb-sheet-confirm-{index}")
        self.cancel = widgets.Button(description=_("Cancel"), icon="times").add_class(f"pb-sheet-cancel-{index}")
        self.confirm.on_click(lambda _event: on_confirm(index))
        self.cancel.on_click(lambda _event: on_cancel(index))
        for w in (*self.steppers.values(), *self.aspect_texts):
            w.observe(lambda _event: on_change(index), "value")
        column = widgets.Layout(flex="0 0 auto")
        super().__init__(
            (
                widgets.HBox((self.quick, self.ready), layout=widgets.Layout(flex_flow="row wrap", grid_gap="4px 8px", align_items="center")),
                widgets.HTML(
                    '<span class="pb-muted">'
                    + esc(_("1 die in each stat plus {spread} to spread; each stat {low}-{high}.", spread=sheet_dice - len(STATS), low=STAT_MIN, high=STAT_MAX))
                    + "</span>"
                ),
                widgets.HBox(
                    (
                        widgets.VBox(tuple(self.steppers[s] for s in PHYSICAL), layout=column),
                        widgets.VBox(tuple(self.steppers[s] for s in MENTAL), layout=column),
                    ),
                    layout=widgets.Layout(flex_flow="row wrap", grid_gap="0 8px"),
                ),
                self.count_html,
                *self.aspect_texts,
                self.verdict_html,
                widgets.HBox((self.confirm, self.cancel), layout=widgets.Layout(grid_gap="8px")),
            ),
            layout=widgets.Layout(border="1px dashed #9aa3b5", padding="4px 8px", margin="4px 0"),
        )
        self.add_class(f"pb-builder-{index}")

    def stats(self) -> tuple[int, ...]:
        return tuple(self.steppers[s].value for s in STATS)

    def _take_ready(self, k: int) -> None:
        if k < 0:
            return
        ready = READY_SHEETS[k].written(render)  # its aspects in this page's language: the player's text from now
        self.fill(fit_stats(ready.stats, self.sheet_dice), ready.aspects)
        self.ready.value = -1  # the choice is made: the controls hold it now, to change at will

    def aspects(self) -> tuple[str, ...]:
        return tuple(t.value for t in self.aspect_texts)

    def fill(self, stats: Sequence[int], aspects: Sequence[str]) -> None:
        """Put a sheet into the controls (nothing is applied until Confirm)."""
        for stat, value in zip(STATS, stats):
            self.steppers[stat].value = value
        for text, aspect in zip(self.aspect_texts, aspects):
            text.value = aspect

    def show_count(self) -> None:
        total = sum(self.stats())
        left = self.sheet_dice - total
        tone = "good" if left == 0 else "bad"
        extra = "✔" if left == 0 else (_("{count} more to place", count=left) if left > 0 else _("{count} too many", count=-left))
        self.count_html.value = (
            f'<span class="dw-mid pb-tone-{tone}" data-total="{total}">' + esc(_("{total} of {dice}", total=total, dice=self.sheet_dice)) + '</span> '
            f'<span class="pb-tone-{tone}">{esc(extra)}</span>'
        )

    def show_verdict(self, refusal: str | None) -> None:
        if refusal is None:
            self.verdict_html.value = '<span class="pb-tone-good" style="font-weight:600">✔ ' + esc(_("The rules accept this sheet.")) + '</span>'
        else:
            self.verdict_html.value = '<span class="pb-tone-bad">' + esc(_("Not yet: {reason}", reason=refusal)) + '</span>'


# -- the dashboard ---------------------------------------------------------------------------------------------


class DangerWorldDashboard(CheckControls, TableDashboard):
    """The Danger World table: character keeper, check builder, dice tray, coach and GM panel.

    No hidden information: every seat sees the same, so there is no privacy curtain and the
    save file is always offered. Besides `TableDashboard`'s attributes: `form` (SetupForm),
    `builders` (a SheetBuilder per character), `sheet_htmls`, `track_htmls`, `pool_html`, the
    check builder's controls (`actor_select`, `stat_a`, `stat_b`, `difficulty`, `invoke_steppers`,
    `compel_steppers`, `bonus_checks`, `danger_dice`, `complications`, `aid_select`,
    `roll_button`), the tray's `die_buttons`, `penalty_buttons`, `lock_button`, `reroll_button`,
    `set_buttons`, `no_set_button`, `odds_html`, `coach_html`, `outcome_html`, `botches_html`,
    the GM panel's `gm_target`, `gm_note`, `option_buttons`, `spend_button`, `hit_buttons`,
    `rest_buttons`, and `history_html`.
    """

    slug = RULES.slug
    game_title = RULES.title
    setup_form = SetupForm
    sheets = ("danger-world.css",)

    def __init__(self, store: Store | None = None, query: str | None = None) -> None:
        self._quiet = False
        self._seen = -1
        self._selected: set[int] = set()
        self._basket: list[GmOption] = []
        self._mods: list[int] = []
        self._plan_checks = -1
        self._editing: set[int] = set()
        self._coach_key: tuple[Any, ...] | None = None
        self._coach_ranked: list[tuple[frozenset[int], Fraction]] = []
        #: the sheet builders and Edit buttons of the characters this page may change, by character.
        self.builders: dict[int, SheetBuilder] = {}
        self.sheet_htmls: tuple[widgets.HTML, ...] = ()
        self.track_htmls: tuple[widgets.HTML, ...] = ()
        self.edit_buttons: dict[int, widgets.Button] = {}
        self.die_buttons: tuple[widgets.ToggleButton, ...] = ()
        self.penalty_buttons: tuple[widgets.Button, ...] = ()
        self.set_buttons: tuple[widgets.Button, ...] = ()
        self.bonus_checks: tuple[widgets.Checkbox, ...] = ()
        super().__init__(store, query)
        self.add_class("playbook-danger-world")
        # Nothing is secret: the download link is always there, no "prepare" step.
        self.party_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", grid_gap="10px", align_items="flex-start")).add_class("pb-party")
        self.pool_html = widgets.HTML(layout=widgets.Layout(flex="0 1 260px", min_width="220px")).add_class("pb-sp-pool")
        self.quick_all = widgets.Button(
            description=_("Quick characters for everyone"),
            icon="bolt",
            button_style="info",
            tooltip=_("A legal sheet at random for every character still without one"),
            layout=widgets.Layout(align_self="flex-start"),
        ).add_class("pb-quick-all")
        self.quick_all.on_click(lambda _event: self._quick_everyone())
        self._build_check_builder()
        self._build_tray()
        self._build_coach()
        # The GM panel is built when a page that shows it opens a table (`_ensure_gm`): a
        # player's phone never gets its thirty widgets.
        self.history_html = widgets.HTML().add_class("pb-history")
        self.history_csv = widgets.HTML().add_class("pb-history-csv")
        #: the GM screen's odds table (the GM's page) and the party's condition (the board).
        self.odds_grid_html = widgets.HTML().add_class("pb-odds-grid")
        self.party_board_html = widgets.HTML().add_class("pb-board-party")
        self.open_from_query()

    # -- hooks ------------------------------------------------------------------------------------------
    def table_view(self) -> widgets.Widget:
        def flex(part: widgets.Widget, basis: str, min_width: str = "300px") -> widgets.Widget:
            part.layout = widgets.Layout(flex=f"1 1 {basis}", min_width=min_width)
            return part

        row = widgets.Layout(flex_flow="row wrap", grid_gap="12px", align_items="flex-start")
        # A phone's page is one column: nothing may be wider than its 390 pixels.
        narrow = "0" if self.role == "seat" else "320px"
        left = flex(widgets.VBox((self.builder_box, self.tray_box)), "600px", narrow)
        right = flex(widgets.VBox((self.odds_html, self.coach_box, self.outcome_html, self.botches_html)), "360px", "0" if self.role == "seat" else "300px")
        self.checks_row = widgets.HBox((left, right), layout=row).add_class("pb-checks")
        self.table_box = widgets.VBox()
        self._arrange(sheets_first=True)
        return self.table_box

    def _arrange(self, sheets_first: bool) -> None:
        """Sheets first while any is being written; then the check builder and the dice tray
        come first, so a laptop reaches them without scrolling past every sheet. A seat's own
        page holds only what that seat plays: a player's, their character and their check; the
        GM's, the check, the GM panel and the odds table (`_seat_parts`)."""
        if self.role == "seat":
            children = self._seat_parts(sheets_first)
            if self.table_box.children != children:
                self.table_box.children = children
            return
        top = (self.quick_all, self.party_box, self.checks_row) if sheets_first else (self.checks_row, self.party_box, self.quick_all)
        children = (*top, self.gm_box, self.history_html, self.history_csv, self.game_log, self.new_game_button)
        if self.table_box.children != children:
            self.table_box.children = children

    def _seat_parts(self, sheets_first: bool) -> tuple[widgets.Widget, ...]:
        if self._gm_page():
            # The GM's botches to spend come first, the moment the check waits for them.
            spending = self.game is not None and self.game.state.phase == "gm"
            top = (self.gm_box, self.checks_row) if spending else (self.checks_row, self.gm_box)
            return (*top, self.party_box, self.odds_grid_html, self.history_html, self.game_log)
        top = (self.party_box, self.checks_row) if sheets_first else (self.checks_row, self.party_box)
        return (*top, self.history_html, self.game_log)

    def board_parts(self) -> tuple[widgets.Widget, ...]:
        return (self.party_board_html,)

    def draw_board_parts(self) -> None:
        if self.game is not None:
            self.party_board_html.value = party_board(view_for(self.game.state, None))

    # -- whose page: a seat page plays its own seat only ------------------------------------------------
    def _gm_page(self) -> bool:
        """The GM's own page (a device of the GM's seat, `Setup.gm_seat`)."""
        return self.role == "seat" and self.game is not None and self.seat == self.game.setup.gm_seat

    def _own_character(self) -> int | None:
        """The character a player's own page plays (None: the GM's page, or a shared screen)."""
        if self.role == "seat" and self.game is not None and self.seat is not None and self.seat < self.game.setup.gm_seat:
            return self.seat
        return None

    def _sheets_here(self) -> tuple[int, ...]:
        """The characters whose sheets this page may write: a player's own; every one on a
        shared screen; none on the GM's page (a sheet is its player's)."""
        assert self.game is not None
        if self.role == "seat":
            own = self._own_character()
            return () if own is None else (own,)
        return tuple(range(self.game.setup.players)) if self.role in ("facilitator", "open") else ()

    def _seat_for(self, character: int) -> int:
        """The seat an action for `character` carries: a seat page's own (the GM's acts for any
        character, as the rules let it), on a shared screen the character's."""
        return self.seat if self.role == "seat" and self.seat is not None else character

    def _plays_dice(self, actor: int) -> bool:
        """This page locks and re-rolls `actor`'s dice: the character's own page, or a shared
        screen (the GM's page watches them)."""
        return self.role != "seat" or self.seat == actor

    def _may_plan(self, character: int) -> bool:
        """This page may begin `character`'s check: its player's page, the GM's, a shared screen."""
        return self.role != "seat" or self._gm_page() or self.seat == character

    def _gm_parts_here(self) -> bool:
        """The GM's parts of a check (compels, complications, removing the GM's penalty dice)
        are on the GM's page and a shared screen, never on a player's."""
        return self._own_character() is None

    def waiting(self, state: State) -> tuple[int, ...]:
        return state.waiting_for()

    def base_title(self, game: AnyGame) -> str:
        return _("{game}: {gm} with {names}", game=self.game_title, gm=game.setup.gm_named, names=", ".join(game.setup.names))

    def seat_name(self, seat: int | None) -> str:
        if self.game is not None and (seat is None or seat == self.game.setup.gm_seat):
            gm = self.game.setup.gm
            return _("the GM") if gm == "GM" else _("the GM ({gm})", gm=gm)
        return super().seat_name(seat)

    def own_page_name(self, seat: int | None) -> str:
        # "the GM (Ana)'s own page" reads badly aloud: the person's name, then the role.
        if self.game is not None and seat == self.game.setup.gm_seat and self.game.setup.gm != "GM":
            return _("{name}'s page, the GM's", name=self.game.setup.gm)
        return super().own_page_name(seat)

    def on_lobby(self) -> None:
        self.form.reseed()

    def on_open(self) -> None:
        assert self.game is not None
        setup: Setup = self.game.setup
        self._seen = -1
        self._selected, self._basket, self._mods, self._editing = set(), [], [], set()
        self._plan_checks = -1
        self._coach_key = None
        old = self.party_box.children
        # Only the sheets this page may write get a builder and an Edit button: a player's page
        # has none for the others' characters (nothing it could not use is sent to it).
        self.builders = {
            i: SheetBuilder(i, setup.sheet_dice, self._sheet_changed, self._sheet_confirmed, self._sheet_cancelled, self._quick_character)
            for i in self._sheets_here()
        }
        self.sheet_htmls = tuple(widgets.HTML().add_class(f"pb-sheet-{i}") for i in range(setup.players))
        self.track_htmls = tuple(widgets.HTML().add_class(f"pb-track-{i}") for i in range(setup.players))
        self.edit_buttons = {
            i: widgets.Button(description=_("Edit sheet"), tooltip=_("Revise stats or aspects between checks")).add_class(f"pb-edit-{i}") for i in self.builders
        }
        for i, button in self.edit_buttons.items():
            button.on_click(lambda _event, i=i: self._edit(i))

        def box(i: int) -> widgets.Widget:
            parts = (self.sheet_htmls[i], self.track_htmls[i])
            if i in self.builders:
                parts += (widgets.HBox((self.edit_buttons[i],)), self.builders[i])
            return widgets.VBox(parts).add_class(f"pb-character-{i}").add_class("dw-character").add_class("pb-card")

        own = self._own_character()
        # A player's own character first on their page; then the party.
        order = ([own] if own is not None else []) + [i for i in range(setup.players) if i != own]
        self.party_box.children = (*(box(i) for i in order), self.pool_html)
        close_tree(old)
        if self._gm_here():
            self._ensure_gm()
            self._quietly(lambda: setattr(self.gm_target, "options", [(name, i) for i, name in enumerate(setup.names)]))

    # -- drawing --------------------------------------------------------------------------------------------
    def draw_table(self) -> None:
        assert self.game is not None
        state: State = self.game.state
        view = view_for(state, None)
        if len(self.game.actions) != self._seen:
            # Something happened: the selection and the GM's basket start fresh, and a refusal
            # from before (another page's move brought the table on) no longer applies.
            if self._seen >= 0 and self.status.kind == "refuse":
                self.status.clear()
            self._seen = len(self.game.actions)
            self._selected, self._basket = set(), []
            if view.phase == "gm" and view.check is not None and self._gm_here():
                self._quietly(lambda: setattr(self.gm_target, "value", view.check.actor))
        self.header.show(self.game_title, _("Session {session} · Encounter {encounter}", session=view.session, encounter=view.encounter), self._waiting_text(view))
        self._draw_party(view)
        self._arrange(sheets_first=any(b.layout.display != "none" for b in self.builders.values()))
        # On the shared screen, for the characters no device holds (a player's phone writes theirs).
        here = [i for i in view.waiting_for if i not in self.on_devices()]
        self.quick_all.layout.display = "" if len(here) > 1 and view.phase == "table" and self.role != "seat" else "none"
        self._draw_check_builder(state, view)
        self._draw_tray(state, view)
        if self._gm_here():
            self._draw_gm(state, view)
        self._draw_history(view)
        self.game_log.show([render(line) for line in view.log])

    def _waiting_text(self, view: View) -> str:
        names = [c.name for c in view.characters]
        if view.phase == "over":
            return _("Game over: every character is dead.")
        if view.phase == "table":
            if view.waiting_for:
                return _("Waiting for sheets: {names}.", names=listed(names[i] for i in view.waiting_for))
            return _("The table is open: build a check and roll.")
        check = view.check
        assert check is not None
        # On the page of the seat that moves, "Your check" / "Your move": not its own name.
        if view.phase == "lock":
            if self.own_seat(check.actor):
                return _("Your check: lock, re-roll or take a set.")
            return _("{name}: lock, re-roll or take a set.", name=names[check.actor])
        if view.phase == "gm":
            if self.game is not None and self.own_seat(self.game.setup.gm_seat):
                return _n("Your move: spend {n} botch.", "Your move: spend {n} botches.", view.botches)
            return _n("{gm}: spend {n} botch.", "{gm}: spend {n} botches.", view.botches, gm=view.gm)
        return _("Rolling…")

    # -- the party -------------------------------------------------------------------------------------
    def _draw_party(self, view: View) -> None:
        for i, ch in enumerate(view.characters):
            self.sheet_htmls[i].value = sheet_html(ch, i)
            self.track_htmls[i].value = track_html(ch)
            if i not in self.builders:
                continue
            builder = self.builders[i]
            building = not ch.dead and (not ch.ready or i in self._editing)
            builder.layout.display = "flex" if building else "none"
            builder.cancel.layout.display = "inline-flex" if ch.ready else "none"
            builder.confirm.description = _("Save changes") if ch.ready else _("Confirm sheet")
            self.edit_buttons[i].layout.display = "inline-flex" if ch.ready and not ch.dead and i not in self._editing else "none"
            self.edit_buttons[i].disabled = view.phase != "table"
            if building:
                self._sheet_changed(i)
        self.pool_html.value = card(
            _("General pool"),
            f'<div class="dw-big" data-pool="{view.pool}">' + esc(_("{sp} SP", sp=view.pool)) + '</div>'
            '<div class="pb-muted">' + esc(_("Invoked SP go in; the GM pays compels out of it.")) + '</div>',
        )

    def _sheet_actions(self, i: int) -> list[Action]:
        """What Confirm would apply for character i: a new sheet, or the revised parts."""
        assert self.game is not None
        builder = self.builders[i]
        ch = self.game.state.characters[i]
        if not ch.ready:
            return [CreateCharacter(seat=self._seat_for(i), character=i, stats=builder.stats(), aspects=builder.aspects())]
        actions: list[Action] = []
        if builder.stats() != ch.stats:
            actions.append(SetStats(seat=self._seat_for(i), character=i, stats=builder.stats()))
        if tuple(" ".join(a.split()) for a in builder.aspects()) != ch.aspects:
            actions.append(SetAspects(seat=self._seat_for(i), character=i, aspects=builder.aspects()))
        return actions

    def _sheet_changed(self, i: int) -> None:
        if self.game is None or i not in self.builders:
            return
        builder = self.builders[i]
        builder.show_count()
        actions = self._sheet_actions(i)
        refusal = self._refusal(actions) if actions else _("nothing has changed")
        builder.show_verdict(refusal)
        # Confirm looks ready only for a sheet the rules accept; its tooltip says what is missing.
        builder.confirm.disabled = refusal is not None
        builder.confirm.button_style = "" if refusal else "primary"
        builder.confirm.tooltip = _("Not yet: {reason}", reason=refusal) if refusal else _("Save this sheet")

    def _sheet_confirmed(self, i: int) -> None:
        if self.game is None or i not in self.builders:
            return
        actions = self._sheet_actions(i)
        if not actions:
            self.status.info(_("Nothing to save: the sheet is unchanged."))
            self._editing.discard(i)
            self.redraw()
            return
        refusal = self._refusal(actions)
        if refusal is not None:
            self.status.refuse(_("{name}'s sheet: {reason}. Nothing was changed.", name=self.game.state.names[i], reason=refusal))
            return
        self._editing.discard(i)
        for action in actions:
            if not self.act(action):
                return
        self.status.ok(_("{name}'s sheet is saved.", name=self.game.state.names[i]))

    def _quick_character(self, i: int) -> bool:
        """A legal sheet for character i at once, drawn from the table's seed and the moment."""
        if self.game is None or i not in self.builders:
            return False
        setup: Setup = self.game.setup
        sheet = quick_sheet(self.game.seed * 131 + 17 * (i + 1) + len(self.game.actions), setup.sheet_dice, render)
        self.builders[i].fill(sheet.stats, sheet.aspects)
        self._sheet_confirmed(i)
        return self.game.state.characters[i].ready

    def _quick_everyone(self) -> None:
        if self.game is None:
            return
        for i in self.game.state.waiting_for():
            if i in self.on_devices():
                continue  # its player makes it on their own device
            if i in self.builders and not self._quick_character(i):
                return
        self.status.ok(_("Every character has a sheet: Edit sheet changes any of them."))

    def _sheet_cancelled(self, i: int) -> None:
        self._editing.discard(i)
        self.redraw()

    def _edit(self, i: int) -> None:
        if self.game is None or i not in self.builders:
            return
        ch = self.game.state.characters[i]
        self._editing.add(i)
        self.builders[i].fill(ch.stats, ch.aspects)
        self.redraw()

    # -- the GM panel ------------------------------------------------------------------------------------
    def _build_gm(self) -> None:
        self.gm_title = widgets.HTML()
        self.gm_target = widgets.Dropdown(description=_("Target"), style=WIDE, layout=widgets.Layout(width="260px")).add_class("pb-gm-target")
        self.gm_note = widgets.Text(description=_("Note"), placeholder=_("what happens (optional)"), style=WIDE, layout=widgets.Layout(width="360px")).add_class("pb-gm-note")
        self.gm_target.observe(lambda _event: None if self._quiet else self._draw_gm_controls(), "value")
        self.option_buttons: dict[str, widgets.Button] = {}
        for option in GM_OPTIONS:
            cost = GM_OPTIONS[option]
            button = widgets.Button(
                description=_("{option} · {cost}", option=render(GM_OPTION_SAID[option]), cost=cost), tooltip=_n("Costs {n} botch", "Costs {n} botches", cost)
            ).add_class(f"pb-gm-option-{option}")
            if option in HITS:
                button.button_style = "danger"
            button.on_click(lambda _event, option=option: self._add_option(option))
            self.option_buttons[option] = button
        self.basket_html = widgets.HTML().add_class("pb-gm-basket")
        self.gm_preview = widgets.HTML().add_class("pb-gm-preview")
        self.clear_button = widgets.Button(description=_("Clear"), icon="eraser").add_class("pb-gm-clear")
        self.clear_button.on_click(lambda _event: self._clear_basket())
        self.spend_button = widgets.Button(description=_("Spend"), button_style="primary", icon="check").add_class("pb-gm-spend")
        self.spend_button.on_click(lambda _event: self._spend())
        row = widgets.Layout(flex_flow="row wrap", grid_gap="4px 8px", align_items="center")
        self.spend_box = widgets.VBox(
            (
                widgets.HTML(
                    "<b>" + esc(_('Spend the botches')) + "</b> <span class='pb-muted'>" + esc(_('(options on the target; costs add up to at most the botches)')) + "</span>"
                ),
                widgets.HBox(tuple(self.option_buttons.values()), layout=row),
                self.basket_html,
                self.gm_preview,
                widgets.HBox((self.clear_button, self.spend_button), layout=row),
            )
        )
        hit_words = {
            "reduced": (_("Reduced hit"), _("Land a reduced hit on the target outside a check")),
            "full": (_("Full hit"), _("Land a full hit on the target outside a check")),
            "overload": (_("Overload hit"), _("Land a overload hit on the target outside a check")),
        }
        self.hit_buttons = {
            hit: widgets.Button(description=hit_words[hit][0], icon="bolt", tooltip=hit_words[hit][1]).add_class(f"pb-hit-{hit}") for hit in HITS
        }
        for hit, button in self.hit_buttons.items():
            button.on_click(lambda _event, hit=hit: self._gm_act(ApplyHit(character=self.gm_target.value, hit=hit)))
        self.rest_buttons = {
            "short-rest": (widgets.Button(description=_("Short rest"), icon="coffee"), ShortRest),
            "long-rest": (widgets.Button(description=_("Long rest"), icon="bed"), LongRest),
            "end-encounter": (widgets.Button(description=_("End encounter"), icon="flag-checkered"), EndEncounter),
            "new-session": (widgets.Button(description=_("New session"), icon="calendar"), NewSession),
        }
        for css, (button, kind) in self.rest_buttons.items():
            button.add_class(f"pb-{css}")
            button.on_click(lambda _event, kind=kind: self._gm_act(kind()))
        self.between_box = widgets.VBox(
            (
                widgets.HTML("<b>" + esc(_('Between checks')) + "</b>"),
                widgets.HBox((*self.hit_buttons.values(), *(b for b, _kind in self.rest_buttons.values())), layout=row),
                widgets.HTML(
                    '<span class="pb-muted">'
                    + esc(
                        _(
                            "Rests and new sessions end the encounter. A short rest clears Bashed and Stunned; a long rest also "
                            "Injured and K.O.'d, and restores stats. A new session resets every player's SP and the pool."
                        )
                    )
                    + "</span>"
                ),
            )
        )
        self.gm_box = widgets.VBox(
            (self.gm_title, widgets.HBox((self.gm_target, self.gm_note), layout=row), self.spend_box, self.between_box)
        ).add_class("pb-gm").add_class("pb-card")

    def _gm_seat(self) -> int:
        assert self.game is not None
        return self.game.setup.gm_seat

    def _gm_here(self) -> bool:
        """This page has the GM panel: the facilitator's (every seat) and the GM's own."""
        return self.role in ("facilitator", "open") or self._gm_page()

    def _ensure_gm(self) -> None:
        if not hasattr(self, "gm_box"):
            self._build_gm()

    def _gm_act(self, action: Action) -> bool:
        return self.act(dataclasses.replace(action, seat=self._gm_seat()))

    def _draw_gm(self, state: State, view: View) -> None:
        self.gm_title.value = "<h3 style='margin:2px 0 4px'>" + esc(_('GM: {gm}', gm=view.gm)) + "</h3>"
        if self._gm_page() and not self.odds_grid_html.value:
            self.odds_grid_html.value = odds_grid(state.setup.rerolls)
        self.gm_box.layout.display = "none" if view.over else "flex"
        self.spend_box.layout.display = "flex" if view.phase == "gm" else "none"
        self.between_box.layout.display = "flex" if view.phase == "table" else "none"
        self._draw_gm_controls()

    def _basket_cost(self) -> int:
        return sum(GM_OPTIONS[o.option] for o in self._basket)

    def _candidate(self, option: str) -> GmOption:
        return GmOption(option, self.gm_target.value, self.gm_note.value.strip())

    def _draw_gm_controls(self) -> None:
        """Enable what the rules accept now: affordable options, hits, rests."""
        if self.game is None:
            return
        state: State = self.game.state
        gm = self._gm_seat()
        names = state.names
        if state.phase == "gm" and state.check is not None:
            botches = state.check.botches
            for option, button in self.option_buttons.items():
                button.disabled = not self.game.is_legal(SpendBotches(seat=gm, options=(*self._basket, self._candidate(option))))
            cost = self._basket_cost()
            chips = "".join(
                chip(f"{render(GM_OPTION_SAID[o.option])} ({GM_OPTIONS[o.option]}) → {names[o.character]}" + (f": {o.note}" if o.note else ""), "#fde2e2")
                for o in self._basket
            )
            empty = "<span class=pb-muted>" + esc(_('empty')) + "</span>"
            tally = _n("· cost {cost} of {n} botch, {left} left (unspent botches are lost)", "· cost {cost} of {n} botches, {left} left (unspent botches are lost)", botches, cost=cost, left=botches - cost)
            self.basket_html.value = f'<div data-cost="{cost}" data-botches="{botches}"><b>' + esc(_("Basket:")) + f'</b> {chips or empty} {esc(tally)}</div>'
            self.spend_button.description = _("Spend {cost} of {botches}", cost=cost, botches=botches) if self._basket else _("Let the botches go")
            self.clear_button.disabled = not self._basket
            self.gm_preview.value = self._basket_preview(state)
        for hit, button in self.hit_buttons.items():
            button.disabled = self.gm_target.value is None or not self.game.is_legal(ApplyHit(seat=gm, character=self.gm_target.value, hit=hit))
        for button, kind in self.rest_buttons.values():
            button.disabled = not self.game.is_legal(kind(seat=gm))

    def _basket_preview(self, state: State) -> str:
        """What the basket would do to the tracks and danger, from the rules' own play."""
        if not self._basket:
            return ""
        assert self.game is not None
        action = SpendBotches(seat=self._gm_seat(), options=tuple(self._basket))
        if self._refusal([action]) is not None:
            return ""
        after = self.game.rules.play(state, action)
        lines = []
        for before, now in zip(state.characters, after.characters):
            changes = []
            if now.damage != before.damage:
                filled = [f"{render(SECTION_NAMES[k])} {n}/{boxes}" for k, ((_section, boxes), n, was) in enumerate(zip(TRACK, now.damage, before.damage)) if n != was]
                changes.append(", ".join(filled))
            if now.danger != before.danger:
                changes.append(_("danger {before} → {after}", before=before.danger, after=now.danger))
            if now.challenge != before.challenge:
                more = now.challenge - before.challenge
                changes.append(_n("+{n} penalty die on the next check", "+{n} penalty dice on the next check", more))
            if changes:
                lines.append(f"{before.name}: {'; '.join(changes)}")
        return '<div class="pb-muted">' + esc(_("After spending: {changes}", changes=" · ".join(lines))) + '</div>' if lines else ""

    def _add_option(self, option: str) -> None:
        if self.game is None:
            return
        candidate = self._candidate(option)
        action = SpendBotches(seat=self._gm_seat(), options=(*self._basket, candidate))
        refusal = self._refusal([action])
        if refusal is not None:
            self.status.refuse(refusal)
            return
        self._basket = [*self._basket, candidate]
        self._quietly(lambda: setattr(self.gm_note, "value", ""))
        self.status.clear()
        self._draw_gm_controls()

    def _clear_basket(self) -> None:
        self._basket = []
        self._draw_gm_controls()

    def _spend(self) -> None:
        if self.game is None:
            return
        self._gm_act(SpendBotches(options=tuple(self._basket)))

    # -- the record -------------------------------------------------------------------------------------------

    def _draw_history(self, view: View) -> None:
        self.history_html.value = history_card(view)
        rows = history_rows(view)
        self.history_csv.value = download_link(csv_text(rows, labels=HISTORY_LABELS), f"danger-world-{self.table_id or 'game'}-checks.csv", _("Roll history as CSV"), "text/csv") if rows else ""


#: the setup variants a class of this game may choose (setup field -> what its checkbox says): none.
CLASS_VARIANTS: dict[str, str] = {}
#: the game's page, as its card names its "dashboard" layer (a class page builds a student's seat with it).
DASHBOARD = DangerWorldDashboard
