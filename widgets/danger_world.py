"""Danger World at the table: a character keeper and a dice tray that knows the rules.

`DangerWorldDashboard(store=None, query=None)` serves a GM and their players around one
screen (`query`, default `$QUERY_STRING`: "table=<id>" opens that table at once). It opens
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
there is no privacy curtain and the save file is offered at all times. Player actions are made
in the acting character's seat, GM actions in the GM's seat. No rule lives here: legality,
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
    check_title,
    dice_css,
    die_span,
    die_text,
    history_card,
    history_rows,
    outcome_cards,
    outcome_words,
    percent,
    result_dice,
    sheet_html,
    track_html,
)
from playbook.store import Store
from rules import Action, Game, RuleError
from rules.core import plural as _plural
from rules.core import seats_text
from rules.danger_world import (
    ACCOMPLISHMENT,
    ASPECTS,
    DIFFICULTY_MAX,
    DIFFICULTY_MIN,
    GM_OPTION_TEXT,
    GM_OPTIONS,
    HITS,
    MENTAL,
    ODDS_LIMITS,
    PHYSICAL,
    READY_SHEETS,
    RULES,
    STAT_MAX,
    STAT_MIN,
    STATS,
    TRACK,
    ApplyHit,
    BeginCheck,
    ChooseSet,
    Compel,
    CreateCharacter,
    EndEncounter,
    GmOption,
    Invocation,
    Lock,
    LongRest,
    NewSession,
    Reroll,
    SetAspects,
    SetStats,
    Setup,
    ShortRest,
    SpendBotches,
    State,
    Unlock,
    View,
    coach,
    difficulty_after,
    fit_stats,
    quick_sheet,
    set_use,
    success_chance,
    view_for,
)

from .common import STYLE, WIDE, close_tree, csv_text
from .setup_form import SetupForm as BaseSetupForm
from .setup_form import setup_default
from .table import TableDashboard

__all__ = ["CLASS_VARIANTS", "DASHBOARD", "DangerWorldDashboard", "SetupForm", "SheetBuilder"]

MAX_CHARACTERS = 12
DEFAULT_PLAYERS = 3
DEFAULT_NAMES = ("Wren", "Ash", "Juno", "Pike", "Rook", "Sable", "Tam", "Vale", "Briar", "Cole", "Dex", "Fen")
COACH_ROWS = 5
#: the aid Dropdown's "no one" (a Dropdown reads a None value as "nothing selected").
NO_AID = -1


def _short(text: str, limit: int = 28) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _within_odds_limits(dice: int, penalty: int, rerolls: int) -> bool:
    return (
        ODDS_LIMITS["dice"][0] <= dice <= ODDS_LIMITS["dice"][1]
        and penalty <= ODDS_LIMITS["penalty"][1]
        and rerolls <= ODDS_LIMITS["rerolls"][1]
    )


def _limits_text() -> str:
    return (
        f"The exact odds cover up to {ODDS_LIMITS['dice'][1]} pool dice, {ODDS_LIMITS['penalty'][1]} penalty dice "
        f"and {ODDS_LIMITS['rerolls'][1]} re-rolls."
    )


# -- dice faces ----------------------------------------------------------------------------------


DW_STYLE = (
    """
<style>
.playbook-danger-world .dw-die { display: inline-block; position: relative; width: 58px; height: 58px;
  background-color: transparent; background-repeat: no-repeat; background-position: center;
  background-size: 100% 100%; vertical-align: middle; }
.playbook-danger-world span.dw-die.dw-small { width: 28px; height: 28px; margin: 1px; }
.playbook-root .jupyter-button.dw-die { min-width: 58px; width: 58px; min-height: 58px; height: 58px;
  padding: 0; margin: 4px; border: none; border-radius: 10px; box-shadow: none; color: transparent;
  background-color: transparent; overflow: visible; transition: transform .08s; }
.playbook-root .jupyter-button.dw-die:disabled { opacity: 1; cursor: default; }
.playbook-root .jupyter-button.dw-die:not(:disabled) { cursor: pointer; }
.playbook-root .jupyter-button.dw-die:not(:disabled):hover { transform: translateY(-2px); }
.playbook-root .jupyter-button.dw-die.mod-active { transform: translateY(-7px);
  box-shadow: 0 0 0 4px #f2b705, 0 6px 10px rgba(0, 0, 0, .25); background-color: transparent; }
.playbook-danger-world .dw-die.dw-locked { box-shadow: 0 0 0 4px #1f4f99; }
.playbook-danger-world .dw-die.dw-locked::after, .playbook-danger-world .dw-lock-badge::after { content: "\\f023";
  font-family: "Font Awesome 5 Free", FontAwesome; font-weight: 900; position: absolute; top: -10px; right: -10px; width: 22px; height: 22px; line-height: 22px;
  border-radius: 50%; background: #1f4f99; color: #fff; font-size: 13px; text-align: center; }
.playbook-danger-world .dw-lock-badge { display: inline-block; position: relative; width: 22px; height: 22px;
  vertical-align: middle; }
.playbook-danger-world .dw-lock-badge::after { top: 0; right: 0; }
.playbook-danger-world .dw-die.dw-botch::before { content: "✗"; position: absolute; bottom: -10px; right: -8px;
  font-size: 15px; font-weight: 800; color: #b71c1c; line-height: 1; }
.playbook-danger-world span.dw-die.dw-small.dw-botch::before { font-size: 11px; bottom: -6px; right: -5px; }
.playbook-danger-world .dw-die.dw-in-set { box-shadow: 0 0 0 4px #2e7d32; outline: 3px dashed #2e7d32; outline-offset: 5px; }
.playbook-danger-world .dw-tray-row { display: flex; flex-flow: row wrap; align-items: center; gap: 4px; }
.playbook-danger-world .dw-track { display: flex; flex-flow: row wrap; gap: 3px; margin: 4px 0; }
.playbook-danger-world .dw-section { border: 2px solid transparent; border-radius: 8px; padding: 1px 4px;
  text-align: center; line-height: 1.25; }
.playbook-danger-world .dw-section.dw-current { border-color: #d32f2f; background: #fff3f3; }
.playbook-danger-world .dw-section-label { font-size: .8em; font-weight: 700; color: #374151; }
.playbook-danger-world .dw-zone { font-size: .7em; color: #5b6273; }
.playbook-danger-world .dw-box { display: inline-block; box-sizing: border-box; width: 19px; height: 19px; margin: 1px;
  border: 2px solid #374151; border-radius: 3px; background: #fff; vertical-align: middle; }
.playbook-danger-world .dw-box.dw-filled { background: #374151; }
.playbook-danger-world .dw-section[data-section="Dead"] .dw-box.dw-filled { background: #111; border-color: #b71c1c; }
.playbook-danger-world .dw-stats td { padding: 0 8px 0 0; white-space: nowrap; line-height: 1.35; }
.playbook-danger-world .dw-stats td.dw-dots { padding-right: 22px; }
.playbook-danger-world .dw-dots { letter-spacing: 1px; color: #1f4f99; }
.playbook-danger-world .dw-lowered { color: #b71c1c; font-weight: 700; }
.playbook-danger-world .dw-big { font-size: 2.1em; font-weight: 800; line-height: 1.1; }
.playbook-danger-world .dw-mid { font-size: 1.25em; font-weight: 700; }
.playbook-danger-world .pb-difficulty .jupyter-button { min-width: 48px; width: 48px; }
.playbook-danger-world .dw-character { flex: 1 1 340px; min-width: 300px; max-width: 600px; }
.playbook-danger-world .dw-sheet h3 { margin: 2px 0 6px; font-size: 1.15em; }
.playbook-danger-world .dw-history td { font-size: .92em; }
.playbook-danger-world .dw-history td.dw-dice-cell { white-space: nowrap; }
.playbook-danger-world .dw-history td.dw-dice-cell .pb-muted { white-space: normal; }
.playbook-danger-world .dw-history td:nth-child(3) { white-space: nowrap; }
.playbook-danger-world .dw-coach li { margin: 2px 0; }
.playbook-danger-world .dw-dead { opacity: .7; }
"""
    + dice_css()
    + "\n</style>\n"
)


# -- sheets and tracks -----------------------------------------------------------------------------


# -- the new-game form --------------------------------------------------------------------------------


class SetupForm(BaseSetupForm):
    """The GM, the player characters, the variants and the seed; `read()` makes the Setup."""

    def __init__(self) -> None:
        self.gm = widgets.Text(value=setup_default(Setup, "gm"), description="GM", style=WIDE, layout=widgets.Layout(width="280px")).add_class("pb-gm-name")
        self.players = widgets.BoundedIntText(
            value=DEFAULT_PLAYERS, min=1, max=MAX_CHARACTERS, description="Player characters", style=WIDE, layout=widgets.Layout(width="220px")
        ).add_class("pb-players")
        # The GM and the player characters: no bots.
        self._seat_rows(RULES.slug, DEFAULT_NAMES[:MAX_CHARACTERS], lambda i: f"{i + 1}", "character name", "250px", bots=False)
        names = widgets.GridBox(self.names, layout=widgets.Layout(grid_template_columns="repeat(auto-fill, minmax(260px, 1fr))", grid_gap="2px 14px"))

        def number(field: str, low: int, high: int, label: str, css: str, width: str = "200px") -> widgets.BoundedIntText:
            return widgets.BoundedIntText(value=setup_default(Setup, field), min=low, max=high, description=label, style=WIDE, layout=widgets.Layout(width=width)).add_class(css)

        self.story_points = number("story_points", 0, 20, "Story points per session", "pb-story-points", "250px")
        self.pool_start = number("pool_start", 0, 50, "General pool starts at", "pb-pool-start", "240px")
        self.rerolls = number("rerolls", 0, 5, "Re-rolls per check", "pb-rerolls", "210px")
        self.sheet_dice = number("sheet_dice", len(STATS) * STAT_MIN, len(STATS) * STAT_MAX, "Dice on a sheet", "pb-sheet-dice", "200px")
        self.danger_resets = widgets.Checkbox(
            value=setup_default(Setup, "danger_resets"), description="Danger returns to 0 when an encounter ends", indent=False,
            layout=widgets.Layout(width="auto"),
        ).add_class("pb-danger-resets")
        self.seed = widgets.IntText(value=0, description="Seed", style=WIDE, layout=widgets.Layout(width="200px")).add_class("pb-seed")
        self.start_button = widgets.Button(
            description="Start new game", button_style="success", icon="play", layout=widgets.Layout(align_self="flex-start", margin="10px 0")
        ).add_class("pb-start")
        row = widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 16px")
        super().__init__(
            (
                widgets.HTML('<h3 style="margin:14px 0 4px">New game: the GM and the player characters</h3>'),
                widgets.HBox((self.gm, self.players), layout=row),
                names,
                widgets.HTML('<b>Variants</b> <span class="pb-muted">(set as the rules text plays; change one to try a variant)</span>'),
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
            description="Quick character", icon="bolt", button_style="info", tooltip="A legal sheet at random, saved at once; Edit sheet changes it"
        ).add_class(f"pb-quick-{index}")
        self.quick.on_click(lambda _: on_quick(index) if on_quick else None)
        self.ready = widgets.Dropdown(
            options=[("or start from a ready-made one…", -1)] + [(r.label, k) for k, r in enumerate(READY_SHEETS)],
            value=-1,
            layout=widgets.Layout(width="290px"),
        ).add_class(f"pb-ready-{index}")
        self.ready.observe(lambda change: self._take_ready(change["new"]), "value")
        self.steppers = {
            stat: widgets.BoundedIntText(
                value=STAT_MIN, min=STAT_MIN, max=STAT_MAX, description=stat.title(), style={"description_width": "92px"}, layout=widgets.Layout(width="170px")
            ).add_class(f"pb-stat-{index}-{stat}")
            for stat in STATS
        }
        self.aspect_texts = tuple(
            widgets.Text(description=f"Aspect {k + 1}", placeholder="a facet of the character", style=WIDE, layout=widgets.Layout(width="100%")).add_class(
                f"pb-aspect-{index}-{k}"
            )
            for k in range(ASPECTS)
        )
        self.count_html = widgets.HTML().add_class(f"pb-sheet-count-{index}")
        self.verdict_html = widgets.HTML().add_class(f"pb-sheet-verdict-{index}")
        # Disabled until the dashboard has the rules' verdict on the sheet (`show_verdict`).
        self.confirm = widgets.Button(description="Confirm sheet", icon="check", disabled=True).add_class(f"pb-sheet-confirm-{index}")
        self.cancel = widgets.Button(description="Cancel", icon="times").add_class(f"pb-sheet-cancel-{index}")
        self.confirm.on_click(lambda _: on_confirm(index))
        self.cancel.on_click(lambda _: on_cancel(index))
        for w in (*self.steppers.values(), *self.aspect_texts):
            w.observe(lambda _: on_change(index), "value")
        column = widgets.Layout(flex="0 0 auto")
        super().__init__(
            (
                widgets.HBox((self.quick, self.ready), layout=widgets.Layout(flex_flow="row wrap", grid_gap="4px 8px", align_items="center")),
                widgets.HTML(
                    f'<span class="pb-muted">1 die in each stat plus {sheet_dice - len(STATS)} to spread; '
                    f"each stat {STAT_MIN}-{STAT_MAX}.</span>"
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
        ready = READY_SHEETS[k]
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
        colour = "#1d6b35" if left == 0 else "#9b1c1c"
        extra = "✔" if left == 0 else (f"{left} more to place" if left > 0 else f"{-left} too many")
        self.count_html.value = (
            f'<span class="dw-mid" style="color:{colour}" data-total="{total}">{total} of {self.sheet_dice}</span> '
            f'<span style="color:{colour}">{esc(extra)}</span>'
        )

    def show_verdict(self, refusal: str | None) -> None:
        if refusal is None:
            self.verdict_html.value = '<span style="color:#1d6b35;font-weight:600">✔ The rules accept this sheet.</span>'
        else:
            self.verdict_html.value = f'<span style="color:#9b1c1c">Not yet: {esc(refusal)}</span>'


# -- the dashboard ---------------------------------------------------------------------------------------------


class DangerWorldDashboard(TableDashboard):
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
    hidden_information = False

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
        self.builders: tuple[SheetBuilder, ...] = ()
        self.sheet_htmls: tuple[widgets.HTML, ...] = ()
        self.track_htmls: tuple[widgets.HTML, ...] = ()
        self.edit_buttons: tuple[widgets.Button, ...] = ()
        self.die_buttons: tuple[widgets.ToggleButton, ...] = ()
        self.penalty_buttons: tuple[widgets.Button, ...] = ()
        self.set_buttons: tuple[widgets.Button, ...] = ()
        self.bonus_checks: tuple[widgets.Checkbox, ...] = ()
        super().__init__(store, query)
        self.add_class("playbook-danger-world")
        self.style_html.value = STYLE + DW_STYLE
        # Nothing is secret: the download link is always there, no "prepare" step.
        self.party_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", grid_gap="10px", align_items="flex-start")).add_class("pb-party")
        self.pool_html = widgets.HTML(layout=widgets.Layout(flex="0 1 260px", min_width="220px")).add_class("pb-sp-pool")
        self.quick_all = widgets.Button(
            description="Quick characters for everyone",
            icon="bolt",
            button_style="info",
            tooltip="A legal sheet at random for every character still without one",
            layout=widgets.Layout(align_self="flex-start"),
        ).add_class("pb-quick-all")
        self.quick_all.on_click(lambda _: self._quick_everyone())
        self._build_check_builder()
        self._build_tray()
        self._build_coach()
        self._build_gm()
        self.history_html = widgets.HTML().add_class("pb-history")
        self.history_csv = widgets.HTML().add_class("pb-history-csv")
        self.open_from_query()

    # -- hooks ------------------------------------------------------------------------------------------
    def table_view(self) -> widgets.Widget:
        def flex(part: widgets.Widget, basis: str, min_width: str = "300px") -> widgets.Widget:
            part.layout = widgets.Layout(flex=f"1 1 {basis}", min_width=min_width)
            return part

        row = widgets.Layout(flex_flow="row wrap", grid_gap="12px", align_items="flex-start")
        left = flex(widgets.VBox((self.builder_box, self.tray_box)), "600px", "320px")
        right = flex(widgets.VBox((self.odds_html, self.coach_box, self.outcome_html, self.botches_html)), "360px")
        self.checks_row = widgets.HBox((left, right), layout=row).add_class("pb-checks")
        self.table_box = widgets.VBox()
        self._arrange(sheets_first=True)
        return self.table_box

    def _arrange(self, sheets_first: bool) -> None:
        """Sheets first while any is being written; then the check builder and the dice tray
        come first, so a laptop reaches them without scrolling past every sheet."""
        top = (self.quick_all, self.party_box, self.checks_row) if sheets_first else (self.checks_row, self.party_box, self.quick_all)
        children = (*top, self.gm_box, self.history_html, self.history_csv, self.game_log, self.new_game_button)
        if self.table_box.children != children:
            self.table_box.children = children

    def waiting(self, state: State) -> tuple[int, ...]:
        return state.waiting_for()

    def base_title(self, game: Game[Any, Any]) -> str:
        return f"{self.game_title}: {game.setup.gm} with {', '.join(game.setup.names)}"

    def seat_name(self, seat: int | None) -> str:
        if self.game is not None and (seat is None or seat == self.game.setup.gm_seat):
            return f"the GM ({self.game.setup.gm})"
        return super().seat_name(seat)

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
        self.builders = tuple(
            SheetBuilder(i, setup.sheet_dice, self._sheet_changed, self._sheet_confirmed, self._sheet_cancelled, self._quick_character)
            for i in range(setup.players)
        )
        self.sheet_htmls = tuple(widgets.HTML().add_class(f"pb-sheet-{i}") for i in range(setup.players))
        self.track_htmls = tuple(widgets.HTML().add_class(f"pb-track-{i}") for i in range(setup.players))
        self.edit_buttons = tuple(
            widgets.Button(description="Edit sheet", tooltip="Revise stats or aspects between checks").add_class(f"pb-edit-{i}")
            for i in range(setup.players)
        )
        for i, button in enumerate(self.edit_buttons):
            button.on_click(lambda _, i=i: self._edit(i))
        boxes = [
            widgets.VBox((sheet, track, widgets.HBox((edit,)), builder)).add_class(f"pb-character-{i}").add_class("dw-character").add_class("pb-card")
            for i, (sheet, track, edit, builder) in enumerate(zip(self.sheet_htmls, self.track_htmls, self.edit_buttons, self.builders))
        ]
        self.party_box.children = (*boxes, self.pool_html)
        close_tree(old)
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
            if view.phase == "gm" and view.check is not None:
                self._quietly(lambda: setattr(self.gm_target, "value", view.check.actor))
        self.header.show(self.game_title, f"Session {view.session} · Encounter {view.encounter}", self._waiting_text(view))
        self._draw_party(view)
        self._arrange(sheets_first=any(b.layout.display != "none" for b in self.builders))
        self.quick_all.layout.display = "" if len(view.waiting_for) > 1 and view.phase == "table" else "none"
        self._draw_check_builder(state, view)
        self._draw_tray(state, view)
        self._draw_gm(state, view)
        self._draw_history(view)
        self.game_log.show(view.log)

    def _waiting_text(self, view: View) -> str:
        names = [c.name for c in view.characters]
        if view.phase == "over":
            return "Game over: every character is dead."
        if view.phase == "table":
            missing = seats_text(names, view.waiting_for)
            return f"Waiting for sheets: {missing}." if missing else "The table is open: build a check and roll."
        check = view.check
        assert check is not None
        if view.phase == "lock":
            return f"{names[check.actor]}: lock, re-roll or take a set."
        if view.phase == "gm":
            return f"{view.gm}: spend {_plural(view.botches, 'botch', 'botches')}."
        return "Rolling…"

    def _quietly(self, change: Callable[[], Any]) -> None:
        """Change controls without their observers reacting."""
        quiet, self._quiet = self._quiet, True
        try:
            change()
        finally:
            self._quiet = quiet

    # -- the party -------------------------------------------------------------------------------------
    def _draw_party(self, view: View) -> None:
        for i, ch in enumerate(view.characters):
            self.sheet_htmls[i].value = sheet_html(ch, i)
            self.track_htmls[i].value = track_html(ch)
            builder = self.builders[i]
            building = not ch.dead and (not ch.ready or i in self._editing)
            builder.layout.display = "flex" if building else "none"
            builder.cancel.layout.display = "inline-flex" if ch.ready else "none"
            builder.confirm.description = "Save changes" if ch.ready else "Confirm sheet"
            self.edit_buttons[i].layout.display = "inline-flex" if ch.ready and not ch.dead and i not in self._editing else "none"
            self.edit_buttons[i].disabled = view.phase != "table"
            if building:
                self._sheet_changed(i)
        self.pool_html.value = card(
            "General pool",
            f'<div class="dw-big" data-pool="{view.pool}">{view.pool} SP</div>'
            '<div class="pb-muted">Invoked SP go in; the GM pays compels out of it.</div>',
        )

    def _sheet_actions(self, i: int) -> list[Action]:
        """What Confirm would apply for character i: a new sheet, or the revised parts."""
        assert self.game is not None
        builder = self.builders[i]
        ch = self.game.state.characters[i]
        if not ch.ready:
            return [CreateCharacter(seat=i, character=i, stats=builder.stats(), aspects=builder.aspects())]
        actions: list[Action] = []
        if builder.stats() != ch.stats:
            actions.append(SetStats(seat=i, character=i, stats=builder.stats()))
        if tuple(" ".join(a.split()) for a in builder.aspects()) != ch.aspects:
            actions.append(SetAspects(seat=i, character=i, aspects=builder.aspects()))
        return actions

    def _refusal(self, actions: Sequence[Action]) -> str | None:
        """The rules' first refusal of `actions` in a row, or None (nothing is applied)."""
        assert self.game is not None
        state = self.game.state
        for action in actions:
            try:
                self.game.rules.check(state, action)
            except RuleError as exc:
                return exc.message
            state = self.game.rules.play(state, action)
        return None

    def _sheet_changed(self, i: int) -> None:
        if self.game is None or i >= len(self.builders):
            return
        builder = self.builders[i]
        builder.show_count()
        actions = self._sheet_actions(i)
        refusal = self._refusal(actions) if actions else "nothing has changed"
        builder.show_verdict(refusal)
        # Confirm looks ready only for a sheet the rules accept; its tooltip says what is missing.
        builder.confirm.disabled = refusal is not None
        builder.confirm.button_style = "" if refusal else "primary"
        builder.confirm.tooltip = f"Not yet: {refusal}" if refusal else "Save this sheet"

    def _sheet_confirmed(self, i: int) -> None:
        if self.game is None:
            return
        actions = self._sheet_actions(i)
        if not actions:
            self.status.info("Nothing to save: the sheet is unchanged.")
            self._editing.discard(i)
            self.redraw()
            return
        refusal = self._refusal(actions)
        if refusal is not None:
            self.status.refuse(f"{self.game.state.names[i]}'s sheet: {refusal}. Nothing was changed.")
            return
        self._editing.discard(i)
        for action in actions:
            if not self.act(action):
                return
        self.status.ok(f"{self.game.state.names[i]}'s sheet is saved.")

    def _quick_character(self, i: int) -> bool:
        """A legal sheet for character i at once, drawn from the table's seed and the moment."""
        if self.game is None:
            return False
        setup: Setup = self.game.setup
        sheet = quick_sheet(self.game.seed * 131 + 17 * (i + 1) + len(self.game.actions), setup.sheet_dice)
        self.builders[i].fill(sheet.stats, sheet.aspects)
        self._sheet_confirmed(i)
        return self.game.state.characters[i].ready

    def _quick_everyone(self) -> None:
        if self.game is None:
            return
        for i in self.game.state.waiting_for():
            if i < len(self.builders) and not self._quick_character(i):
                return
        self.status.ok("Every character has a sheet: Edit sheet changes any of them.")

    def _sheet_cancelled(self, i: int) -> None:
        self._editing.discard(i)
        self.redraw()

    def _edit(self, i: int) -> None:
        if self.game is None:
            return
        ch = self.game.state.characters[i]
        self._editing.add(i)
        self.builders[i].fill(ch.stats, ch.aspects)
        self.redraw()

    # -- the check builder ----------------------------------------------------------------------------------
    def _build_check_builder(self) -> None:
        def observe(widget: widgets.Widget, handler: Callable[[], None]) -> widgets.Widget:
            widget.observe(lambda _: None if self._quiet else handler(), "value")
            return widget

        self.actor_select = observe(widgets.Dropdown(description="Who acts", style=WIDE, layout=widgets.Layout(width="260px")).add_class("pb-actor"), self._actor_changed)
        self.stat_a = observe(widgets.Dropdown(description="Stats", style=WIDE, layout=widgets.Layout(width="220px")).add_class("pb-stat-a"), self._plan_changed)
        self.stat_b = observe(widgets.Dropdown(description="+", style=WIDE, layout=widgets.Layout(width="180px")).add_class("pb-stat-b"), self._plan_changed)
        self.difficulty = observe(
            widgets.ToggleButtons(
                options=[(str(d), d) for d in range(DIFFICULTY_MIN, DIFFICULTY_MAX + 1)],
                value=3,
                description="Difficulty",
                tooltips=[f"{d}: a {ACCOMPLISHMENT[d]} accomplishment" for d in range(DIFFICULTY_MIN, DIFFICULTY_MAX + 1)],
                style={"description_width": "initial", "button_width": "46px"},
            ).add_class("pb-difficulty"),
            self._plan_changed,
        )
        self.mod_plus = widgets.Button(description="+1 modifier", icon="plus", tooltip="A modifier that makes it harder").add_class("pb-mod-plus")
        self.mod_minus = widgets.Button(description="−1 modifier", icon="minus", tooltip="A modifier that makes it easier").add_class("pb-mod-minus")
        self.mod_clear = widgets.Button(description="No modifiers", icon="eraser").add_class("pb-mod-clear")
        self.mod_plus.on_click(lambda _: self._modify(1))
        self.mod_minus.on_click(lambda _: self._modify(-1))
        self.mod_clear.on_click(lambda _: self._modify(0))
        self.difficulty_html = widgets.HTML().add_class("pb-difficulty-result")
        self.invoke_steppers = tuple(
            observe(
                widgets.BoundedIntText(value=0, min=0, max=0, description=f"Aspect {k + 1}", style=WIDE, layout=widgets.Layout(width="300px")).add_class(
                    f"pb-invoke-{k}"
                ),
                self._plan_changed,
            )
            for k in range(ASPECTS)
        )
        self.compel_steppers = tuple(
            observe(
                widgets.BoundedIntText(value=0, min=0, max=0, description=f"Aspect {k + 1}", style=WIDE, layout=widgets.Layout(width="300px")).add_class(
                    f"pb-compel-{k}"
                ),
                self._plan_changed,
            )
            for k in range(ASPECTS)
        )
        self.bonus_box = widgets.VBox().add_class("pb-bonus")
        self.danger_dice = observe(
            widgets.BoundedIntText(value=0, min=0, max=0, description="Danger dice", style=WIDE, layout=widgets.Layout(width="220px")).add_class("pb-danger-dice"),
            self._plan_changed,
        )
        self.complications = observe(
            widgets.BoundedIntText(value=0, min=0, max=20, description="Complications (penalty dice)", style=WIDE, layout=widgets.Layout(width="300px")).add_class(
                "pb-complications"
            ),
            self._plan_changed,
        )
        self.aid_select = observe(widgets.Dropdown(description="Aid", style=WIDE, layout=widgets.Layout(width="300px")).add_class("pb-aid"), self._plan_changed)
        # The GM's penalty dice on a challenge come with the next check; the table may remove them.
        self.waive = observe(
            widgets.BoundedIntText(value=0, min=0, max=0, description="Remove GM penalty dice", style=WIDE, layout=widgets.Layout(width="300px")).add_class("pb-waive"),
            self._plan_changed,
        )
        self.plan_html = widgets.HTML().add_class("pb-check-preview")
        self.roll_button = widgets.Button(description="Roll", button_style="danger", icon="cube", layout=widgets.Layout(margin="6px 0")).add_class("pb-roll")
        self.roll_button.on_click(lambda _: self._roll())
        self.actors_note = widgets.HTML()
        row = widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 12px")
        # Folded by default, so Roll sits in a laptop's first screen; the preview above Roll
        # names every die these add, folded or not.
        self.extras = widgets.Accordion(
            (
                widgets.VBox(
                    (
                        widgets.HTML("<b>Invoke aspects</b> <span class='pb-muted'>(the player's SP to the pool: a bonus die each)</span>"),
                        widgets.HBox(self.invoke_steppers, layout=row),
                        widgets.HTML("<b>GM compels</b> <span class='pb-muted'>(SP from the pool to the player: a penalty die each)</span>"),
                        widgets.HBox(self.compel_steppers, layout=row),
                        self.bonus_box,
                        widgets.HBox((self.danger_dice, self.complications, self.waive, self.aid_select), layout=row),
                    )
                ),
            ),
            titles=("Aspects, compels, bonus dice, danger dice, complications, aid",),
            selected_index=None,
        ).add_class("pb-check-extras")
        self.builder_box = widgets.VBox(
            (
                widgets.HTML("<h3 style='margin:2px 0 4px'>Make a check</h3>"),
                widgets.HBox((self.actor_select, self.stat_a, self.stat_b), layout=row),
                self.actors_note,
                widgets.HBox((self.difficulty,), layout=row),
                widgets.HBox((self.mod_plus, self.mod_minus, self.mod_clear, self.difficulty_html), layout=row),
                self.extras,
                self.plan_html,
                self.roll_button,
            )
        ).add_class("pb-check-builder").add_class("pb-card")

    def _modify(self, step: int) -> None:
        self._mods = [*self._mods, step] if step else []
        self._plan_changed()

    def _draw_check_builder(self, state: State, view: View) -> None:
        table = view.phase == "table"
        self.builder_box.layout.display = "flex" if table else "none"
        if not table:
            return
        able, unable = [], []
        for i, ch in enumerate(view.characters):
            probe = BeginCheck(seat=None, character=i, stats=STATS[:2], difficulty=DIFFICULTY_MIN)
            refusal = self._refusal([probe])
            if refusal is None:
                able.append((ch.name, i))
            else:
                unable.append(f"{ch.name}: {refusal}")
        self.actors_note.value = f'<span class="pb-muted">Cannot check now: {esc("; ".join(unable))}.</span>' if unable else ""
        fresh = state.checks != self._plan_checks
        previous = self.actor_select.value

        def fill() -> None:
            self.actor_select.options = able
            if able:
                self.actor_select.value = previous if previous in dict(able).values() else able[0][1]
            if fresh:
                # A check was made (or the table opened): what it spent is gone.
                self._mods = []
                for w in (*self.invoke_steppers, *self.compel_steppers, self.danger_dice, self.complications, self.waive):
                    w.value = 0

        self._quietly(fill)
        self._plan_checks = state.checks
        self._actor_changed(keep_bonus=not fresh)

    def _actor_changed(self, keep_bonus: bool = False) -> None:
        """Fit the stat, aspect, bonus, danger and aid controls to the acting character."""
        if self.game is None:
            return
        view = view_for(self.game.state, None)
        i = self.actor_select.value
        if i is None:
            self._plan_changed()
            return
        ch = view.characters[i]
        chosen = {j for j, box in enumerate(self.bonus_checks) if box.value} if keep_bonus else set()

        def fit() -> None:
            a, b = self.stat_a.value or STATS[0], self.stat_b.value or STATS[4]
            labels = [(f"{s.title()} {v}", s) for s, v in zip(STATS, ch.stats)]
            self.stat_a.options, self.stat_b.options = labels, labels
            self.stat_a.value, self.stat_b.value = a, b
            for k, stepper in enumerate(self.invoke_steppers):
                stepper.description = f"“{_short(ch.aspects[k])}”" if k < len(ch.aspects) else f"Aspect {k + 1}"
                stepper.max = ch.sp
                stepper.disabled = ch.sp == 0
            for k, stepper in enumerate(self.compel_steppers):
                stepper.description = f"“{_short(ch.aspects[k])}”" if k < len(ch.aspects) else f"Aspect {k + 1}"
                stepper.max = view.pool
                stepper.disabled = view.pool == 0
            self.danger_dice.max = ch.zone
            self.danger_dice.description = f"Danger dice (0-{ch.zone})"
            self.waive.max = ch.challenge
            self.waive.description = f"Remove GM penalty dice (0-{ch.challenge})"
            self.waive.layout.display = "flex" if ch.challenge else "none"
            aid = self.aid_select.value
            others = [(c.name, j) for j, c in enumerate(view.characters) if j != i]
            self.aid_select.options = [("no one: their own check", NO_AID), *others]
            self.aid_select.value = aid if aid in dict(others).values() else NO_AID

        self._quietly(fit)
        old = self.bonus_checks
        self.bonus_checks = tuple(
            widgets.Checkbox(value=j in chosen, description=f"{p.dice} bonus {'die' if p.dice == 1 else 'dice'} · {p.source}", indent=False).add_class(
                f"pb-bonus-{j}"
            )
            for j, p in enumerate(ch.bonus)
        )
        for box in self.bonus_checks:
            box.observe(lambda _: None if self._quiet else self._plan_changed(), "value")
        label = widgets.HTML(f"<b>{esc(ch.name)}'s one-time bonus pools</b> <span class='pb-muted'>(each used whole)</span>")
        self.bonus_box.children = (label, *self.bonus_checks) if self.bonus_checks else ()
        close_tree(old)
        if ch.bonus or ch.challenge:
            self.extras.selected_index = 0  # dice waiting for this character: show them
        self._plan_changed()

    def planned(self) -> BeginCheck | None:
        """The check the builder describes (None when no one can act)."""
        i = self.actor_select.value
        if i is None:
            return None
        return BeginCheck(
            seat=i,
            character=i,
            stats=(self.stat_a.value, self.stat_b.value),
            difficulty=self.difficulty.value,
            modifiers=tuple(self._mods),
            invocations=tuple(Invocation(k, s.value) for k, s in enumerate(self.invoke_steppers) if s.value),
            compels=tuple(Compel(k, s.value) for k, s in enumerate(self.compel_steppers) if s.value),
            bonus=tuple(j for j, box in enumerate(self.bonus_checks) if box.value),
            danger=self.danger_dice.value,
            complications=self.complications.value,
            waive=self.waive.value,
            aid=None if self.aid_select.value in (None, NO_AID) else self.aid_select.value,
        )

    def _plan_changed(self) -> None:
        """Preview the planned check with the rules' own check and play, and its odds."""
        if self._quiet or self.game is None or self.game.state.phase != "table":
            return
        state: State = self.game.state
        base = self.difficulty.value
        value, flagged = difficulty_after(base, self._mods)
        net = sum(self._mods)
        mods = " ".join(f"{m:+d}" for m in self._mods)
        flag = (
            f' <span style="color:#8a4b00;font-weight:700" data-flagged="1">⚑ net {net:+d}: beyond ±1 (allowed, flagged)</span>'
            if flagged
            else ""
        )
        self.difficulty_html.value = (
            f'<span data-difficulty="{value}">Difficulty {base}{" " + esc(mods) if mods else ""} = '
            f'<b class="dw-mid">{value}</b></span> <span class="pb-muted">({esc(ACCOMPLISHMENT[value])})</span>{flag}'
        )
        action = self.planned()
        if action is None:
            self.plan_html.value = '<span class="pb-muted">No character can make a check now.</span>'
            self.roll_button.disabled = True
            self.roll_button.description = "Roll"
            self._show_odds(None, "No check is being planned.")
            self.coach_html.value = ""
            self.coach_best.layout.display = "none"
            return
        refusal = self._refusal([action])
        self.roll_button.disabled = False
        if refusal is not None:
            self.plan_html.value = f'<div style="color:#9b1c1c;font-weight:600">✋ {esc(refusal)}</div>'
            self.roll_button.description = "Roll"
            self._show_odds(None, "Fix the check to see its odds.")
            self.coach_html.value = card("Re-roll coach", '<span class="pb-muted">The rules refuse this check as it stands.</span>')
            self.coach_best.layout.display = "none"
            return
        check = self.game.rules.play(state, action).check
        ch = state.characters[action.character]
        parts = [f"<b>{check.stat_dice}</b> from the stats" + (f" (Stunned −{ch.lost_dice})" if ch.lost_dice else "")]
        if check.invoked:
            parts.append(f"<b>{check.invoked}</b> invoked")
        if check.bonus_dice - check.invoked:
            parts.append(f"<b>{check.bonus_dice - check.invoked}</b> from bonus pools")
        pool = " + ".join(parts)
        danger = f" · <b>{check.danger}</b> danger" if check.danger else ""
        challenge = f", the GM's challenge {ch.challenge - action.waive}" if ch.challenge else ""
        penalty = f" · <b>{check.penalty}</b> penalty (Bashed {ch.penalty_dice}, complications {action.complications}, compels {check.compelled}{challenge})" if check.penalty else ""
        self.plan_html.value = (
            f'<div data-pool="{check.pool}" data-penalty="{check.penalty}">Pool: <b>{check.normal}</b> dice = {pool}{danger}{penalty}; '
            f"difficulty <b>{check.difficulty}</b>.</div>"
        )
        self.roll_button.description = f"Roll {_plural(check.pool + check.penalty, 'die', 'dice')}"
        rerolls = state.setup.rerolls
        self.coach_best.layout.display = "none"
        if not _within_odds_limits(check.pool, check.penalty, rerolls):
            self._show_odds(None, _limits_text())
            self.coach_html.value = card("Re-roll coach", f'<span class="pb-muted">{esc(_limits_text())}</span>')
            return
        chance = success_chance(check.pool, check.difficulty, check.penalty, rerolls)
        by_rerolls = " · ".join(
            f"{r} re-roll{'s' if r != 1 else ''}: {percent(success_chance(check.pool, check.difficulty, check.penalty, r))}" for r in range(rerolls + 1)
        )
        self._show_odds(chance, f"before the roll, with best play ({by_rerolls})")
        self.coach_html.value = card(
            "Re-roll coach",
            f"<div>A set of {check.difficulty} or more from {_plural(check.pool, 'pool die', 'pool dice')}"
            + (f" against {_plural(check.penalty, 'penalty die', 'penalty dice')}" if check.penalty else "")
            + f": <b>{percent(chance)}</b> if every lock is the best one.</div>"
            '<div class="pb-muted">After the roll the coach ranks the dice to lock. Danger dice count as normal dice here.</div>',
        )

    def _roll(self) -> None:
        action = self.planned()
        if action is None:
            self.status.refuse("No character can make a check now.")
            return
        self.act(action)

    # -- the dice tray ------------------------------------------------------------------------------------
    def _build_tray(self) -> None:
        self.tray_title = widgets.HTML().add_class("pb-tray-title")
        self.dice_row = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="2px 6px", margin="8px 0"))
        self.last_dice = widgets.HTML().add_class("pb-last-dice")
        self.lock_button = widgets.Button(description="Lock selected", icon="lock").add_class("pb-lock")
        self.reroll_button = widgets.Button(description="Re-roll", icon="refresh", button_style="warning").add_class("pb-reroll")
        self.lock_button.on_click(lambda _: self._lock())
        self.reroll_button.on_click(lambda _: self._reroll())
        self.roll_controls = widgets.HBox((self.lock_button, self.reroll_button), layout=widgets.Layout(flex_flow="row wrap", grid_gap="8px", align_items="center"))
        self.sets_row = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", grid_gap="6px", align_items="center", margin="6px 0"))
        self.no_set_button = widgets.Button(description="No set", icon="ban", tooltip="End the rolling without a set (it fails; botches still count)").add_class("pb-no-set")
        self.no_set_button.on_click(lambda _: self._choose(None))
        self.legend = widgets.HTML(
            '<div class="pb-muted" style="font-size:.9em">'
            f"{die_span(5)} pool · {die_span(5, 'danger')} danger (red, double border, square pips) · "
            f"{die_span(5, 'penalty')} penalty (grey, dashed border, never re-rolled) · "
            "<span class='dw-lock-badge'></span> locked for good · click a die to select it for locking (it lifts, ringed yellow) · "
            "dashed green ring: in the set · ✗ a 1: a botch</div>"
        )
        self.tray_box = widgets.VBox(
            (self.tray_title, self.dice_row, self.last_dice, self.roll_controls, self.sets_row, self.legend)
        ).add_class("pb-tray").add_class("pb-card")

    def _draw_tray(self, state: State, view: View) -> None:
        c = view.check
        live = c is not None and c.stage in ("lock", "gm")
        names = [ch.name for ch in view.characters]
        old = (*self.die_buttons, *self.penalty_buttons)
        self.die_buttons, self.penalty_buttons = (), ()
        if not live:
            self.dice_row.children = ()
            self.roll_controls.layout.display = "none"
            self.sets_row.children = ()
            self.sets_row.layout.display = "none"
            if view.results:
                r = view.results[-1]
                self.tray_title.value = f"<h3 style='margin:2px 0'>Last check: {esc(check_title(r.number, r.actor, r.stats, r.difficulty, r.aid, names))}</h3>"
                self.last_dice.value = f'<div class="dw-tray-row" data-check="{r.number}">{result_dice(r, small=False)}</div>'
            else:
                self.tray_title.value = "<h3 style='margin:2px 0'>Dice tray</h3>"
                self.last_dice.value = '<span class="pb-muted">No dice rolled yet: build a check above and roll.</span>'
            close_tree(old)
            self._draw_coach(state, view)
            return
        assert c is not None
        self.last_dice.value = ""
        lock_stage = c.stage == "lock"
        title = check_title(c.number, c.actor, c.stats, c.difficulty, c.aid, names)
        flag = " ⚑ flagged: net modifiers beyond ±1" if c.flagged else ""
        self.tray_title.value = (
            f"<h3 style='margin:2px 0'>{esc(title)}</h3>"
            f'<div class="pb-muted" data-rerolls-left="{view.rerolls_left}">Re-rolls left: {view.rerolls_left} of {state.setup.rerolls}{esc(flag)}</div>'
        )
        in_set: set[int] = set()
        if c.result is not None and c.result.height is not None:
            found = set_use(c.faces, c.normal, c.penalty_faces, c.result.height)
            in_set = set(found.dice) if found else set()
        buttons = []
        for k, face in enumerate(c.faces):
            kind = "danger" if c.is_danger(k) else "pool"
            locked = k in c.locked
            tip = f"die {k + 1}: {die_text(face, kind, k in in_set, locked)}" + (
                "" if locked else " · click to select for locking" if lock_stage and view.rerolls_left else ""
            )
            button = widgets.ToggleButton(value=False, description=str(face), tooltip=tip, disabled=not lock_stage or (not locked and not view.rerolls_left))
            for css in ("dw-die", f"dw-{kind}", f"dw-face-{face}", f"pb-die-{k}"):
                button.add_class(css)
            if locked:
                button.add_class("dw-locked")
            if face == 1:
                button.add_class("dw-botch")
            if k in in_set:
                button.add_class("dw-in-set")
            button.observe(lambda change, k=k: self._die_toggled(k, change), "value")
            buttons.append(button)
        penalties = []
        for k, face in enumerate(c.penalty_faces):
            button = widgets.Button(description=str(face), tooltip=f"die {k + 1}: {die_text(face, 'penalty')} (cancels a die showing {face})", disabled=True)
            for css in ("dw-die", "dw-penalty", f"dw-face-{face}", f"pb-penalty-{k}"):
                button.add_class(css)
            if face == 1:
                button.add_class("dw-botch")
            penalties.append(button)
        self.die_buttons, self.penalty_buttons = tuple(buttons), tuple(penalties)
        separator = (widgets.HTML('<span class="pb-muted" style="margin:0 6px">penalty:</span>'),) if penalties else ()
        self.dice_row.children = (*self.die_buttons, *separator, *self.penalty_buttons)
        close_tree(old)
        self.roll_controls.layout.display = "flex" if lock_stage else "none"
        self.sets_row.layout.display = "flex" if lock_stage else "none"
        old_sets = self.set_buttons
        self.set_buttons = ()
        if lock_stage:
            self.set_buttons = tuple(self._set_button(state, s.height, s.danger) for s in view.sets)
            self.sets_row.children = (widgets.HTML("<b>Take a set:</b>"), *self.set_buttons, self.no_set_button)
        else:
            self.sets_row.children = ()
        close_tree(old_sets)
        self._selection_changed()
        self._draw_coach(state, view)


    def _set_button(self, state: State, height: int, danger: int) -> widgets.Button:
        """A set choice, labelled with what the rules say it brings."""
        assert self.game is not None
        after = self.game.rules.play(state, ChooseSet(seat=None, height=height))
        # With botches the check waits for the GM; without, it is already in the results.
        result = after.check.result if after.check is not None else after.results[-1]
        label = outcome_words(result)
        if danger:
            label += f" · danger +{danger}"
        style = "success" if result.outcome in ("success", "benefit", "aid") else "warning"
        button = widgets.Button(description=f"Set of {height}: {label}", button_style=style, tooltip=f"{height} dice showing {height}").add_class(f"pb-set-{height}")
        button.on_click(lambda _: self._choose(height))
        return button


    def _die_toggled(self, k: int, change: dict[str, Any]) -> None:
        if self._quiet or self.game is None:
            return
        c = self.game.state.check
        if c is None:
            return
        if k in c.locked:
            # Locks are permanent: say so with the rules' own refusal.
            self._quietly(lambda: setattr(self.die_buttons[k], "value", False))
            self.act(Unlock(seat=c.actor, dice=(k,)))
            return
        if change["new"]:
            self._selected.add(k)
        else:
            self._selected.discard(k)
        self._selection_changed()

    def _selection_changed(self) -> None:
        """Fit Lock and Re-roll to the dice selected now (asking the rules what is legal)."""
        if self.game is None:
            return
        c = self.game.state.check
        if c is None or c.stage != "lock":
            self.lock_button.disabled = self.reroll_button.disabled = True
            return
        chosen = tuple(sorted(self._selected))
        left = self.game.setup.rerolls - c.rerolls
        free = len(c.unlocked) - len(chosen)
        self.lock_button.description = f"Lock {_plural(len(chosen), 'die', 'dice')}" if chosen else "Lock selected"
        self.lock_button.disabled = not chosen or not self.game.is_legal(Lock(seat=c.actor, dice=chosen))
        can_reroll = self.game.is_legal(Reroll(seat=c.actor)) and free > 0
        if chosen:
            can_reroll = can_reroll and self.game.is_legal(Lock(seat=c.actor, dice=chosen))
            self.reroll_button.description = f"Lock {len(chosen)} & re-roll {free}"
        else:
            self.reroll_button.description = f"Re-roll {free} unlocked ({left} left)"
        self.reroll_button.disabled = not can_reroll
        self.reroll_button.tooltip = "Re-roll every unlocked pool die" if can_reroll else "No re-roll left, or every die is locked"

    def select(self, dice: Sequence[int]) -> None:
        """Select pool dice for locking (as clicking them does)."""
        for k, button in enumerate(self.die_buttons):
            if not button.disabled and "dw-locked" not in button._dom_classes:
                button.value = k in dice

    def _lock(self) -> None:
        if self.game is None or self.game.state.check is None:
            return
        self.act(Lock(seat=self.game.state.check.actor, dice=tuple(sorted(self._selected))))

    def _reroll(self) -> None:
        if self.game is None or self.game.state.check is None:
            return
        actor = self.game.state.check.actor
        if self._selected and not self.act(Lock(seat=actor, dice=tuple(sorted(self._selected)))):
            return
        self.act(Reroll(seat=actor))

    def _choose(self, height: int | None) -> None:
        if self.game is None or self.game.state.check is None:
            return
        self.act(ChooseSet(seat=self.game.state.check.actor, height=height))

    # -- coach, odds, outcome ------------------------------------------------------------------------------
    def _build_coach(self) -> None:
        self.odds_html = widgets.HTML().add_class("pb-odds")
        self.coach_html = widgets.HTML().add_class("pb-coach")
        self.coach_best = widgets.Button(description="Select the best lock", tooltip="Select the dice the coach would lock").add_class("pb-coach-best")
        self.coach_best.on_click(lambda _: self._select_best())
        self.coach_box = widgets.VBox((self.coach_html, widgets.HBox((self.coach_best,))))
        self.outcome_html = widgets.HTML().add_class("pb-outcome")
        self.botches_html = widgets.HTML().add_class("pb-botches")

    def _show_odds(self, chance: Fraction | None, note: str) -> None:
        if chance is None:
            self.odds_html.value = card("Chance of success", f'<div class="dw-big">—</div><div class="pb-muted">{esc(note)}</div>')
            return
        self.odds_html.value = card(
            "Chance of success",
            f'<div class="dw-big" data-chance="{float(chance):.6f}">{percent(chance)}</div><div class="pb-muted">{esc(note)}</div>',
        )

    def _ranked(self, state: State) -> list[tuple[frozenset[int], Fraction]]:
        """The coach's ranking for the dice on the table; worked out only when they change."""
        c = state.check
        assert c is not None
        key = (c.faces, c.locked, c.penalty_faces, c.difficulty, state.setup.rerolls - c.rerolls)
        if key != self._coach_key:
            self._coach_key = key
            self._coach_ranked = coach(state)
        return self._coach_ranked

    def _draw_coach(self, state: State, view: View) -> None:
        c = view.check
        self.coach_best.layout.display = "none"
        self._draw_outcome(state, view)
        if view.phase == "table":
            return  # the check builder shows the odds of the check being planned
        if c is None or c.stage != "lock":
            self._show_odds(None, "The dice are read: no more re-rolls.")
            self.coach_html.value = ""
            return
        left = view.rerolls_left
        if not _within_odds_limits(c.pool, len(c.penalty_faces), left):
            self._show_odds(None, _limits_text())
            self.coach_html.value = card("Re-roll coach", f'<span class="pb-muted">{esc(_limits_text())}</span>')
            return
        ranked = self._ranked(state)
        if not ranked:
            self._show_odds(None, "")
            self.coach_html.value = ""
            return
        best_chance = ranked[0][1]
        if left == 0:
            verdict = "The dice stand: no re-roll is left." if best_chance == 1 else "No re-roll is left and no set reaches the difficulty."
            self._show_odds(best_chance, verdict)
            self.coach_html.value = card("Re-roll coach", f"<div>{esc(verdict)} Take a set, or none.</div>")
            return
        self._show_odds(best_chance, f"with best play from here ({_plural(left, 're-roll')} left)")
        items = []
        for locked, chance in ranked[:COACH_ROWS]:
            new = sorted(locked - c.locked)
            if new:
                faces = " ".join(str(c.faces[k]) for k in new)
                what = f"lock {faces} <span class='pb-muted'>(dice {', '.join(str(k + 1) for k in new)})</span>"
            else:
                what = "lock nothing more" if c.locked else "lock nothing"
            items.append(f'<li data-lock="{",".join(str(k) for k in new)}" data-chance="{float(chance):.6f}">{what}: <b>{percent(chance)}</b></li>')
        advice = ""
        if best_chance == 1:
            advice = "<div><b>The set is made:</b> take it now, a re-roll can only risk the botches.</div>"
        more = f'<div class="pb-muted">and {len(ranked) - COACH_ROWS} more choices</div>' if len(ranked) > COACH_ROWS else ""
        self.coach_html.value = card(
            "Re-roll coach",
            f"{advice}<div>Lock, then re-roll the rest. The chance each choice leaves:</div>"
            f'<ol class="dw-coach" style="margin:2px 0;padding-left:1.6em">{"".join(items)}</ol>{more}'
            '<div class="pb-muted">Dice that cannot help (ones, faces below the difficulty) are never worth locking.</div>',
        )
        best_new = ranked[0][0] - c.locked
        self.coach_best.layout.display = "inline-flex" if best_new else "none"

    def _select_best(self) -> None:
        if self.game is None or self.game.state.check is None or self.game.state.check.stage != "lock":
            return
        c = self.game.state.check
        ranked = self._ranked(self.game.state)
        if ranked:
            self.select(sorted(ranked[0][0] - c.locked))

    def _draw_outcome(self, state: State, view: View) -> None:
        self.outcome_html.value, self.botches_html.value = outcome_cards(view)

    # -- the GM panel ------------------------------------------------------------------------------------
    def _build_gm(self) -> None:
        self.gm_title = widgets.HTML()
        self.gm_target = widgets.Dropdown(description="Target", style=WIDE, layout=widgets.Layout(width="260px")).add_class("pb-gm-target")
        self.gm_note = widgets.Text(description="Note", placeholder="what happens (optional)", style=WIDE, layout=widgets.Layout(width="360px")).add_class("pb-gm-note")
        self.gm_target.observe(lambda _: None if self._quiet else self._draw_gm_controls(), "value")
        self.option_buttons: dict[str, widgets.Button] = {}
        for option in GM_OPTIONS:
            button = widgets.Button(description=f"{GM_OPTION_TEXT[option]} · {GM_OPTIONS[option]}", tooltip=f"Costs {_plural(GM_OPTIONS[option], 'botch', 'botches')}").add_class(
                f"pb-gm-option-{option}"
            )
            if option in HITS:
                button.button_style = "danger"
            button.on_click(lambda _, option=option: self._add_option(option))
            self.option_buttons[option] = button
        self.basket_html = widgets.HTML().add_class("pb-gm-basket")
        self.gm_preview = widgets.HTML().add_class("pb-gm-preview")
        self.clear_button = widgets.Button(description="Clear", icon="eraser").add_class("pb-gm-clear")
        self.clear_button.on_click(lambda _: self._clear_basket())
        self.spend_button = widgets.Button(description="Spend", button_style="primary", icon="check").add_class("pb-gm-spend")
        self.spend_button.on_click(lambda _: self._spend())
        row = widgets.Layout(flex_flow="row wrap", grid_gap="4px 8px", align_items="center")
        self.spend_box = widgets.VBox(
            (
                widgets.HTML("<b>Spend the botches</b> <span class='pb-muted'>(options on the target; costs add up to at most the botches)</span>"),
                widgets.HBox(tuple(self.option_buttons.values()), layout=row),
                self.basket_html,
                self.gm_preview,
                widgets.HBox((self.clear_button, self.spend_button), layout=row),
            )
        )
        self.hit_buttons = {
            hit: widgets.Button(description=f"{hit.title()} hit", icon="bolt", tooltip=f"Land a {hit} hit on the target outside a check").add_class(f"pb-hit-{hit}")
            for hit in HITS
        }
        for hit, button in self.hit_buttons.items():
            button.on_click(lambda _, hit=hit: self._gm_act(ApplyHit(character=self.gm_target.value, hit=hit)))
        self.rest_buttons = {
            "short-rest": (widgets.Button(description="Short rest", icon="coffee"), ShortRest),
            "long-rest": (widgets.Button(description="Long rest", icon="bed"), LongRest),
            "end-encounter": (widgets.Button(description="End encounter", icon="flag-checkered"), EndEncounter),
            "new-session": (widgets.Button(description="New session", icon="calendar"), NewSession),
        }
        for css, (button, kind) in self.rest_buttons.items():
            button.add_class(f"pb-{css}")
            button.on_click(lambda _, kind=kind: self._gm_act(kind()))
        self.between_box = widgets.VBox(
            (
                widgets.HTML("<b>Between checks</b>"),
                widgets.HBox((*self.hit_buttons.values(), *(b for b, _ in self.rest_buttons.values())), layout=row),
                widgets.HTML(
                    '<span class="pb-muted">Rests and new sessions end the encounter. A short rest clears Bashed and Stunned; a long rest also '
                    "Injured and K.O.'d, and restores stats. A new session resets every player's SP and the pool.</span>"
                ),
            )
        )
        self.gm_box = widgets.VBox(
            (self.gm_title, widgets.HBox((self.gm_target, self.gm_note), layout=row), self.spend_box, self.between_box)
        ).add_class("pb-gm").add_class("pb-card")

    def _gm_seat(self) -> int:
        assert self.game is not None
        return self.game.setup.gm_seat

    def _gm_act(self, action: Action) -> bool:
        return self.act(dataclasses.replace(action, seat=self._gm_seat()))

    def _draw_gm(self, state: State, view: View) -> None:
        self.gm_title.value = f"<h3 style='margin:2px 0 4px'>GM: {esc(view.gm)}</h3>"
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
                chip(f"{GM_OPTION_TEXT[o.option]} ({GM_OPTIONS[o.option]}) → {names[o.character]}" + (f": {o.note}" if o.note else ""), "#fde2e2")
                for o in self._basket
            )
            self.basket_html.value = (
                f'<div data-cost="{cost}" data-botches="{botches}"><b>Basket:</b> {chips or "<span class=pb-muted>empty</span>"} '
                f"· cost <b>{cost}</b> of {_plural(botches, 'botch', 'botches')}, {botches - cost} left (unspent botches are lost)</div>"
            )
            self.spend_button.description = f"Spend {cost} of {botches}" if self._basket else "Let the botches go"
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
                changes.append(", ".join(f"{label} {n}/{boxes}" for (label, boxes), n, was in zip(TRACK, now.damage, before.damage) if n != was))
            if now.danger != before.danger:
                changes.append(f"danger {before.danger} → {now.danger}")
            if now.challenge != before.challenge:
                changes.append(f"+{_plural(now.challenge - before.challenge, 'penalty die', 'penalty dice')} on the next check")
            if changes:
                lines.append(f"{before.name}: {'; '.join(changes)}")
        return f'<div class="pb-muted">After spending: {esc(" · ".join(lines))}</div>' if lines else ""

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
        self.history_csv.value = download_link(csv_text(rows), f"danger-world-{self.table_id or 'game'}-checks.csv", "Roll history as CSV", "text/csv") if rows else ""


#: the setup variants a class of this game may choose (setup field -> what its checkbox says): none.
CLASS_VARIANTS: dict[str, str] = {}
#: the game's page, as its card names its "dashboard" layer (a class page builds a student's seat with it).
DASHBOARD = DangerWorldDashboard
