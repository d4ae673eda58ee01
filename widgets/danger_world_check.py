"""The check in play at a Danger World table: building it, the dice tray (lock, re-roll, take a
set), the re-roll coach, the odds and the outcome.

`CheckControls` is mixed into `widgets.danger_world.DangerWorldDashboard`: its controls are the
dashboard's own attributes (tests and scripts find them there), and it plays through the
dashboard's `act` on the dashboard's game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from drawing.common import card, esc
from drawing.danger_world import check_title, die_span, die_text, outcome_cards, outcome_words, percent, result_dice, stat_name
from i18n import _, _n, render
from rules import Action, RuleError
from rules.core import AnyGame
from rules.danger_world import (
    ACCOMPLISHMENT_SAID,
    ASPECTS,
    DIFFICULTY_MAX,
    DIFFICULTY_MIN,
    ODDS_LIMITS,
    STATS,
    BeginCheck,
    ChooseSet,
    Compel,
    Invocation,
    Lock,
    Reroll,
    State,
    Unlock,
    View,
    coach,
    difficulty_after,
    set_use,
    success_chance,
    view_for,
)

from .common import WIDE, StatusLine, close_tree

__all__ = ["CheckControls"]

#: the coach's choices shown, best first.
COACH_ROWS = 5
#: the aid Dropdown's "no one" (a Dropdown reads a None value as "nothing selected").
NO_AID = -1


def _weight(difficulty: int) -> str:
    """The narrative weight of a set of `difficulty` (the text's PC Difficulties table)."""
    return {2: _("minor"), 3: _("meaningful"), 4: _("significant"), 5: _("major"), 6: _("huge")}[difficulty]


def _short(text: str, limit: int = 28) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _within_odds_limits(dice: int, penalty: int, rerolls: int) -> bool:
    return (
        ODDS_LIMITS["dice"][0] <= dice <= ODDS_LIMITS["dice"][1]
        and penalty <= ODDS_LIMITS["penalty"][1]
        and rerolls <= ODDS_LIMITS["rerolls"][1]
    )


def _limits_text() -> str:
    return _(
        "The exact odds cover up to {dice} pool dice, {penalty} penalty dice and {rerolls} re-rolls.",
        dice=ODDS_LIMITS["dice"][1],
        penalty=ODDS_LIMITS["penalty"][1],
        rerolls=ODDS_LIMITS["rerolls"][1],
    )


class CheckControls:
    """The check builder, the dice tray and the coach (see the module docstring)."""

    game: AnyGame | None
    status: StatusLine
    #: set while controls change by code: their observers do nothing then.
    _quiet: bool
    #: the dice selected for locking.
    _selected: set[int]
    die_buttons: tuple[widgets.ToggleButton, ...]
    penalty_buttons: tuple[widgets.Button, ...]
    set_buttons: tuple[widgets.Button, ...]
    bonus_checks: tuple[widgets.Checkbox, ...]
    #: the modifiers the facilitator added to the difficulty, and the checks made when the plan was drawn.
    _mods: list[int]
    _plan_checks: int
    #: the coach's ranking and the dice it was worked out for (it takes a while: worked out once).
    _coach_key: tuple[Any, ...] | None
    _coach_ranked: list[tuple[frozenset[int], Fraction]]

    if TYPE_CHECKING:

        def act(self, action: Action, release_bots: bool = False) -> bool: ...

    def _quietly(self, change: Callable[[], Any]) -> None:
        """Change controls without their observers reacting."""
        quiet, self._quiet = self._quiet, True
        try:
            change()
        finally:
            self._quiet = quiet

    # Whose page this is (the dashboard says, by its role and seat); a shared screen plays all.
    def _seat_for(self, character: int) -> int:
        """The seat an action for `character` carries."""
        return character

    def _plays_dice(self, actor: int) -> bool:
        """This page locks and re-rolls `actor`'s dice."""
        return True

    def _may_plan(self, character: int) -> bool:
        """This page may begin `character`'s check."""
        return True

    def _gm_parts_here(self) -> bool:
        """This page offers the GM's parts of a check (compels, complications, waived dice)."""
        return True

    def _refusal(self, actions: Sequence[Action]) -> str | None:
        """The rules' first refusal of `actions` in a row, or None (nothing is applied)."""
        assert self.game is not None
        state = self.game.state
        for action in actions:
            try:
                self.game.rules.check(state, action)
            except RuleError as exc:
                return render(exc.said)
            state = self.game.rules.play(state, action)
        return None

    # -- the check builder ----------------------------------------------------------------------------------
    def _build_check_builder(self) -> None:
        def observe(widget: widgets.Widget, handler: Callable[[], None]) -> widgets.Widget:
            widget.observe(lambda _event: None if self._quiet else handler(), "value")
            return widget

        self.actor_select = observe(widgets.Dropdown(description=_("Who acts"), style=WIDE, layout=widgets.Layout(width="260px")).add_class("pb-actor"), self._actor_changed)
        self.stat_a = observe(widgets.Dropdown(description=_("Stats"), style=WIDE, layout=widgets.Layout(width="220px")).add_class("pb-stat-a"), self._plan_changed)
        self.stat_b = observe(widgets.Dropdown(description="+", style=WIDE, layout=widgets.Layout(width="180px")).add_class("pb-stat-b"), self._plan_changed)
        self.difficulty = observe(
            widgets.ToggleButtons(
                options=[(str(d), d) for d in range(DIFFICULTY_MIN, DIFFICULTY_MAX + 1)],
                value=3,
                description=_("Difficulty"),
                tooltips=[_("{difficulty}: {accomplishment}", difficulty=d, accomplishment=render(ACCOMPLISHMENT_SAID[d])) for d in range(DIFFICULTY_MIN, DIFFICULTY_MAX + 1)],
                style={"description_width": "initial", "button_width": "46px"},
            ).add_class("pb-difficulty"),
            self._plan_changed,
        )
        self.mod_plus = widgets.Button(description=_("+1 modifier"), icon="plus", tooltip=_("A modifier that makes it harder")).add_class("pb-mod-plus")
        self.mod_minus = widgets.Button(description=_("−1 modifier"), icon="minus", tooltip=_("A modifier that makes it easier")).add_class("pb-mod-minus")
        self.mod_clear = widgets.Button(description=_("No modifiers"), icon="eraser").add_class("pb-mod-clear")
        self.mod_plus.on_click(lambda _event: self._modify(1))
        self.mod_minus.on_click(lambda _event: self._modify(-1))
        self.mod_clear.on_click(lambda _event: self._modify(0))
        self.difficulty_html = widgets.HTML().add_class("pb-difficulty-result")

        def aspect_steppers(kind: str) -> tuple[widgets.Widget, ...]:
            """SP on each aspect, invoked or compelled (pb-invoke-<k>, pb-compel-<k>)."""
            return tuple(
                observe(
                    widgets.BoundedIntText(value=0, min=0, max=0, description=_("Aspect {number}", number=k + 1), style=WIDE, layout=widgets.Layout(width="300px")).add_class(f"pb-{kind}-{k}"),
                    self._plan_changed,
                )
                for k in range(ASPECTS)
            )

        self.invoke_steppers = aspect_steppers("invoke")
        self.compel_steppers = aspect_steppers("compel")
        row = widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 12px")
        self.compel_box = widgets.VBox(
            (
                widgets.HTML("<b>" + esc(_('GM compels')) + "</b> <span class='pb-muted'>" + esc(_('(SP from the pool to the player: a penalty die each)')) + "</span>"),
                widgets.HBox(self.compel_steppers, layout=row),
            )
        )
        self.bonus_box = widgets.VBox().add_class("pb-bonus")
        self.danger_dice = observe(
            widgets.BoundedIntText(value=0, min=0, max=0, description=_("Danger dice"), style=WIDE, layout=widgets.Layout(width="220px")).add_class("pb-danger-dice"),
            self._plan_changed,
        )
        self.complications = observe(
            widgets.BoundedIntText(value=0, min=0, max=20, description=_("Complications (penalty dice)"), style=WIDE, layout=widgets.Layout(width="300px")).add_class(
                "pb-complications"
            ),
            self._plan_changed,
        )
        self.aid_select = observe(widgets.Dropdown(description=_("Aid"), style=WIDE, layout=widgets.Layout(width="300px")).add_class("pb-aid"), self._plan_changed)
        # The GM's penalty dice on a challenge come with the next check; the table may remove them.
        self.waive = observe(
            widgets.BoundedIntText(value=0, min=0, max=0, description=_("Remove GM penalty dice"), style=WIDE, layout=widgets.Layout(width="300px")).add_class("pb-waive"),
            self._plan_changed,
        )
        self.plan_html = widgets.HTML().add_class("pb-check-preview")
        self.roll_button = widgets.Button(description=_("Roll"), button_style="danger", icon="cube", layout=widgets.Layout(margin="6px 0")).add_class("pb-roll")
        self.roll_button.on_click(lambda _event: self._roll())
        self.actors_note = widgets.HTML()
        row = widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 12px")
        # Folded by default, so Roll sits in a laptop's first screen; the preview above Roll
        # names every die these add, folded or not.
        invoke_note = _("(the player's SP to the pool: a bonus die each)")
        self.extras = widgets.Accordion(
            (
                widgets.VBox(
                    (
                        widgets.HTML("<b>" + esc(_('Invoke aspects')) + f"</b> <span class='pb-muted'>{esc(invoke_note)}</span>"),
                        widgets.HBox(self.invoke_steppers, layout=row),
                        self.compel_box,
                        self.bonus_box,
                        widgets.HBox((self.danger_dice, self.complications, self.waive, self.aid_select), layout=row),
                    )
                ),
            ),
            titles=(_("Aspects, compels, bonus dice, danger dice, complications, aid"),),
            selected_index=None,
        ).add_class("pb-check-extras")
        self.builder_title = widgets.HTML("<h3 style='margin:2px 0 4px'>" + esc(_('Make a check')) + "</h3>")
        self.builder_box = widgets.VBox(
            (
                self.builder_title,
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
            if not self._may_plan(i):
                continue  # a player's page makes its own character's checks only
            probe = BeginCheck(seat=self._seat_for(i), character=i, stats=STATS[:2], difficulty=DIFFICULTY_MIN)
            refusal = self._refusal([probe])
            if refusal is None:
                able.append((ch.name, i))
            else:
                unable.append(f"{ch.name}: {refusal}")
        self.actors_note.value = '<span class="pb-muted">' + esc(_("Cannot check now: {reasons}.", reasons="; ".join(unable))) + '</span>' if unable else ""
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
        # A player's page makes its own character's check: no choice of who acts to show.
        own = [name for name, i in able if not self._gm_parts_here()]
        self.actor_select.layout.display = "none" if own else ""
        heading = _("{name}'s check", name=own[0]) if own else _("Make a check")
        self.builder_title.value = f"<h3 style='margin:2px 0 4px'>{esc(heading)}</h3>"
        title = _("Aspects, compels, bonus dice, danger dice, complications, aid") if self._gm_parts_here() else _("Story points on aspects, bonus dice, danger dice, aid")
        if tuple(self.extras.titles) != (title,):
            self.extras.titles = (title,)
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
            labels = [(f"{stat_name(s)} {v}", s) for s, v in zip(STATS, ch.stats)]
            self.stat_a.options, self.stat_b.options = labels, labels
            self.stat_a.value, self.stat_b.value = a, b
            for k, stepper in enumerate(self.invoke_steppers):
                stepper.description = f"“{_short(ch.aspects[k])}”" if k < len(ch.aspects) else _("Aspect {number}", number=k + 1)
                stepper.max = ch.sp
                stepper.disabled = ch.sp == 0
            for k, stepper in enumerate(self.compel_steppers):
                stepper.description = f"“{_short(ch.aspects[k])}”" if k < len(ch.aspects) else _("Aspect {number}", number=k + 1)
                stepper.max = view.pool
                stepper.disabled = view.pool == 0
            self.danger_dice.max = ch.zone
            self.danger_dice.description = _("Danger dice (0-{most})", most=ch.zone)
            self.waive.max = ch.challenge
            self.waive.description = _("Remove GM penalty dice (0-{most})", most=ch.challenge)
            gm_parts = self._gm_parts_here()
            self.waive.layout.display = "flex" if ch.challenge and gm_parts else "none"
            self.compel_box.layout.display = "flex" if gm_parts else "none"
            self.complications.layout.display = "flex" if gm_parts else "none"
            aid = self.aid_select.value
            others = [(c.name, j) for j, c in enumerate(view.characters) if j != i]
            self.aid_select.options = [(_("no one: their own check"), NO_AID), *others]
            self.aid_select.value = aid if aid in dict(others).values() else NO_AID

        self._quietly(fit)
        old = self.bonus_checks
        self.bonus_checks = tuple(
            widgets.Checkbox(value=j in chosen, description=_n("{n} bonus die · {source}", "{n} bonus dice · {source}", p.dice, source=render(p.source)), indent=False).add_class(
                f"pb-bonus-{j}"
            )
            for j, p in enumerate(ch.bonus)
        )
        for box in self.bonus_checks:
            box.observe(lambda _event: None if self._quiet else self._plan_changed(), "value")
        pools = _("{name}'s one-time bonus pools", name=ch.name)
        label = widgets.HTML(f"<b>{esc(pools)}</b> <span class='pb-muted'>" + esc(_('(each used whole)')) + "</span>")
        self.bonus_box.children = (label, *self.bonus_checks) if self.bonus_checks else ()
        close_tree(old)
        if ch.bonus or (ch.challenge and self._gm_parts_here()):
            self.extras.selected_index = 0  # dice waiting for this character: show them
        self._plan_changed()

    def planned(self) -> BeginCheck | None:
        """The check the builder describes (None when no one can act)."""
        i = self.actor_select.value
        if i is None:
            return None
        gm_parts = self._gm_parts_here()
        return BeginCheck(
            seat=self._seat_for(i),
            character=i,
            stats=(self.stat_a.value, self.stat_b.value),
            difficulty=self.difficulty.value,
            modifiers=tuple(self._mods),
            invocations=tuple(Invocation(k, s.value) for k, s in enumerate(self.invoke_steppers) if s.value),
            compels=tuple(Compel(k, s.value) for k, s in enumerate(self.compel_steppers) if s.value and gm_parts),
            bonus=tuple(j for j, box in enumerate(self.bonus_checks) if box.value),
            danger=self.danger_dice.value,
            complications=self.complications.value if gm_parts else 0,
            waive=self.waive.value if gm_parts else 0,
            aid=None if self.aid_select.value in (None, NO_AID) else self.aid_select.value,
        )

    def _plan_changed(self) -> None:
        """Preview the planned check with the rules' own check and play, and its odds."""
        if self._quiet or self.game is None or self.game.state.phase != "table":
            return
        state: State = self.game.state
        base = self.difficulty.value
        value, flagged = difficulty_after(base, self._mods)
        signed = f"{sum(self._mods):+d}"  # "+2": a sign the language does not change
        mods = " ".join(f"{m:+d}" for m in self._mods)
        flag = (
            ' <span class="pb-tone-warn" style="font-weight:700" data-flagged="1">⚑ ' + esc(_("net {net}: beyond ±1 (allowed, flagged)", net=signed)) + "</span>"
            if flagged
            else ""
        )
        moved = _("Difficulty {base} {modifiers} =", base=base, modifiers=mods) if mods else _("Difficulty {base} =", base=base)
        self.difficulty_html.value = (
            f'<span data-difficulty="{value}">{esc(moved)} '
            f'<b class="dw-mid">{value}</b></span> <span class="pb-muted">({esc(_weight(value))})</span>{flag}'
        )
        action = self.planned()
        if action is None:
            self.plan_html.value = '<span class="pb-muted">' + esc(_("No character can make a check now.")) + '</span>'
            self.roll_button.disabled = True
            self.roll_button.description = _("Roll")
            self._show_odds(None, _("No check is being planned."))
            self.coach_html.value = ""
            self.coach_best.layout.display = "none"
            return
        refusal = self._refusal([action])
        self.roll_button.disabled = False
        if refusal is not None:
            self.plan_html.value = f'<div class="pb-tone-bad" style="font-weight:600">✋ {esc(refusal)}</div>'
            self.roll_button.description = _("Roll")
            self._show_odds(None, _("Fix the check to see its odds."))
            self.coach_html.value = card(_("Re-roll coach"), '<span class="pb-muted">' + esc(_("The rules refuse this check as it stands.")) + '</span>')
            self.coach_best.layout.display = "none"
            return
        check = self.game.rules.play(state, action).check
        ch = state.characters[action.character]
        # The messages carry <b> around numbers only: no user text is in them.
        if ch.lost_dice:
            parts = [_("<b>{dice}</b> from the stats (Stunned −{lost})", dice=check.stat_dice, lost=ch.lost_dice)]
        else:
            parts = [_("<b>{dice}</b> from the stats", dice=check.stat_dice)]
        if check.invoked:
            parts.append(_("<b>{dice}</b> invoked", dice=check.invoked))
        if check.bonus_dice - check.invoked:
            parts.append(_("<b>{dice}</b> from bonus pools", dice=check.bonus_dice - check.invoked))
        pool = " + ".join(parts)
        danger = " · " + _("<b>{dice}</b> danger", dice=check.danger) if check.danger else ""
        if ch.challenge:
            why = _(
                "Bashed {bashed}, complications {complications}, compels {compels}, the GM's challenge {challenge}",
                bashed=ch.penalty_dice,
                complications=action.complications,
                compels=check.compelled,
                challenge=ch.challenge - action.waive,
            )
        else:
            why = _("Bashed {bashed}, complications {complications}, compels {compels}", bashed=ch.penalty_dice, complications=action.complications, compels=check.compelled)
        penalty = " · " + _("<b>{dice}</b> penalty ({why})", dice=check.penalty, why=why) if check.penalty else ""
        summary = _("Pool: <b>{normal}</b> dice = {parts}{danger}{penalty}; difficulty <b>{difficulty}</b>.", normal=check.normal, parts=pool, danger=danger, penalty=penalty, difficulty=check.difficulty)
        self.plan_html.value = f'<div data-pool="{check.pool}" data-penalty="{check.penalty}">{summary}</div>'
        self.roll_button.description = _n("Roll {n} die", "Roll {n} dice", check.pool + check.penalty)
        rerolls = state.setup.rerolls
        self.coach_best.layout.display = "none"
        if not _within_odds_limits(check.pool, check.penalty, rerolls):
            self._show_odds(None, _limits_text())
            self.coach_html.value = card(_("Re-roll coach"), f'<span class="pb-muted">{esc(_limits_text())}</span>')
            return
        chance = success_chance(check.pool, check.difficulty, check.penalty, rerolls)
        by_rerolls = " · ".join(
            _n("{n} re-roll: {chance}", "{n} re-rolls: {chance}", r, chance=percent(success_chance(check.pool, check.difficulty, check.penalty, r))) for r in range(rerolls + 1)
        )
        self._show_odds(chance, _("before the roll, with best play ({chances})", chances=by_rerolls))
        dice = _n("{n} pool die", "{n} pool dice", check.pool)
        if check.penalty:
            penalty_dice = _n("{n} penalty die", "{n} penalty dice", check.penalty)
            odds = _("A set of {difficulty} or more from {dice} against {penalty}: <b>{chance}</b> if every lock is the best one.", difficulty=check.difficulty, dice=dice, penalty=penalty_dice, chance=percent(chance))
        else:
            odds = _("A set of {difficulty} or more from {dice}: <b>{chance}</b> if every lock is the best one.", difficulty=check.difficulty, dice=dice, chance=percent(chance))
        self.coach_html.value = card(
            _("Re-roll coach"),
            f"<div>{odds}</div>"
            '<div class="pb-muted">' + esc(_("After the roll the coach ranks the dice to lock. Danger dice count as normal dice here.")) + '</div>',
        )

    def _roll(self) -> None:
        action = self.planned()
        if action is None:
            self.status.refuse(_("No character can make a check now."))
            return
        self.act(action)

    # -- the dice tray ------------------------------------------------------------------------------------
    def _build_tray(self) -> None:
        self.tray_title = widgets.HTML().add_class("pb-tray-title")
        self.dice_row = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="2px 6px", margin="8px 0"))
        self.last_dice = widgets.HTML().add_class("pb-last-dice")
        self.lock_button = widgets.Button(description=_("Lock selected"), icon="lock").add_class("pb-lock")
        self.reroll_button = widgets.Button(description=_("Re-roll"), icon="refresh", button_style="warning").add_class("pb-reroll")
        self.lock_button.on_click(lambda _event: self._lock())
        self.reroll_button.on_click(lambda _event: self._reroll())
        self.roll_controls = widgets.HBox((self.lock_button, self.reroll_button), layout=widgets.Layout(flex_flow="row wrap", grid_gap="8px", align_items="center"))
        self.sets_row = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", grid_gap="6px", align_items="center", margin="6px 0"))
        self.no_set_button = widgets.Button(description=_("No set"), icon="ban", tooltip=_("End the rolling without a set (it fails; botches still count)")).add_class("pb-no-set")
        self.no_set_button.on_click(lambda _event: self._choose(None))
        self.legend = widgets.HTML(
            '<div class="pb-muted dw-legend">'
            f"{die_span(5)} " + esc(_('pool')) + f" · {die_span(5, 'danger')} " + esc(_('danger (red, double border, square pips)')) + " · "
            f"{die_span(5, 'penalty')} " + esc(_('penalty (grey, dashed border, never re-rolled)')) + " · "
            "<span class='dw-lock-badge'></span> " + esc(_('locked for good · click a die to select it for locking (it lifts, ringed yellow)')) + " · "
            + esc(_('dashed green ring: in the set · ✗ a 1: a botch')) + "</div>"
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
                self.tray_title.value = "<h3 style='margin:2px 0'>" + esc(_('Last check: {title}', title=check_title(r.number, r.actor, r.stats, r.difficulty, r.aid, names))) + "</h3>"
                self.last_dice.value = f'<div class="dw-tray-row" data-check="{r.number}">{result_dice(r, small=False)}</div>'
            else:
                self.tray_title.value = "<h3 style='margin:2px 0'>" + esc(_('Dice tray')) + "</h3>"
                self.last_dice.value = '<span class="pb-muted">' + esc(_("No dice rolled yet: build a check above and roll.")) + '</span>'
            close_tree(old)
            self._draw_coach(state, view)
            return
        assert c is not None
        self.last_dice.value = ""
        # Only the acting character's own page (or a shared screen) locks and re-rolls its dice.
        lock_stage = c.stage == "lock" and self._plays_dice(c.actor)
        title = check_title(c.number, c.actor, c.stats, c.difficulty, c.aid, names)
        flag = " ⚑ " + _("flagged: net modifiers beyond ±1") if c.flagged else ""
        left = _("Re-rolls left: {left} of {rerolls}", left=view.rerolls_left, rerolls=state.setup.rerolls)
        self.tray_title.value = (
            f"<h3 style='margin:2px 0'>{esc(title)}</h3>"
            f'<div class="pb-muted" data-rerolls-left="{view.rerolls_left}">{esc(left)}{esc(flag)}</div>'
        )
        in_set: set[int] = set()
        if c.result is not None and c.result.height is not None:
            found = set_use(c.faces, c.normal, c.penalty_faces, c.result.height)
            in_set = set(found.dice) if found else set()
        buttons = []
        for k, face in enumerate(c.faces):
            kind = "danger" if c.is_danger(k) else "pool"
            locked = k in c.locked
            tip = _("die {number}: {die}", number=k + 1, die=die_text(face, kind, k in in_set, locked)) + (
                "" if locked else " · " + _("click to select for locking") if lock_stage and view.rerolls_left else ""
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
            button = widgets.Button(description=str(face), tooltip=_("die {number}: {die} (cancels a die showing {face})", number=k + 1, die=die_text(face, "penalty"), face=face), disabled=True)
            for css in ("dw-die", "dw-penalty", f"dw-face-{face}", f"pb-penalty-{k}"):
                button.add_class(css)
            if face == 1:
                button.add_class("dw-botch")
            penalties.append(button)
        self.die_buttons, self.penalty_buttons = tuple(buttons), tuple(penalties)
        separator = (widgets.HTML('<span class="pb-muted" style="margin:0 6px">' + esc(_("penalty:")) + '</span>'),) if penalties else ()
        self.dice_row.children = (*self.die_buttons, *separator, *self.penalty_buttons)
        close_tree(old)
        self.roll_controls.layout.display = "flex" if lock_stage else "none"
        self.sets_row.layout.display = "flex" if lock_stage else "none"
        old_sets = self.set_buttons
        self.set_buttons = ()
        if lock_stage:
            self.set_buttons = tuple(self._set_button(state, s.height, s.danger) for s in view.sets)
            self.sets_row.children = (widgets.HTML("<b>" + esc(_('Take a set:')) + "</b>"), *self.set_buttons, self.no_set_button)
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
            label += " · " + _("danger +{danger}", danger=danger)
        style = "success" if result.outcome in ("success", "benefit", "aid") else "warning"
        button = widgets.Button(
            description=_("Set of {height}: {outcome}", height=height, outcome=label), button_style=style, tooltip=_("{height} dice showing {height}", height=height)
        ).add_class(f"pb-set-{height}")
        button.on_click(lambda _event: self._choose(height))
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
            self.act(Unlock(seat=self._seat_for(c.actor), dice=(k,)))
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
        self.lock_button.description = _n("Lock {n} die", "Lock {n} dice", len(chosen)) if chosen else _("Lock selected")
        seat = self._seat_for(c.actor)
        self.lock_button.disabled = not chosen or not self.game.is_legal(Lock(seat=seat, dice=chosen))
        can_reroll = self.game.is_legal(Reroll(seat=seat)) and free > 0
        if chosen:
            can_reroll = can_reroll and self.game.is_legal(Lock(seat=seat, dice=chosen))
            self.reroll_button.description = _("Lock {locked} & re-roll {free}", locked=len(chosen), free=free)
        else:
            self.reroll_button.description = _("Re-roll {free} unlocked ({left} left)", free=free, left=left)
        self.reroll_button.disabled = not can_reroll
        self.reroll_button.tooltip = _("Re-roll every unlocked pool die") if can_reroll else _("No re-roll left, or every die is locked")

    def select(self, dice: Sequence[int]) -> None:
        """Select pool dice for locking (as clicking them does)."""
        for k, button in enumerate(self.die_buttons):
            if not button.disabled and "dw-locked" not in button._dom_classes:
                button.value = k in dice

    def _lock(self) -> None:
        if self.game is None or self.game.state.check is None:
            return
        self.act(Lock(seat=self._seat_for(self.game.state.check.actor), dice=tuple(sorted(self._selected))))

    def _reroll(self) -> None:
        if self.game is None or self.game.state.check is None:
            return
        seat = self._seat_for(self.game.state.check.actor)
        if self._selected and not self.act(Lock(seat=seat, dice=tuple(sorted(self._selected)))):
            return
        self.act(Reroll(seat=seat))

    def _choose(self, height: int | None) -> None:
        if self.game is None or self.game.state.check is None:
            return
        self.act(ChooseSet(seat=self._seat_for(self.game.state.check.actor), height=height))

    # -- coach, odds, outcome ------------------------------------------------------------------------------
    def _build_coach(self) -> None:
        self.odds_html = widgets.HTML().add_class("pb-odds")
        self.coach_html = widgets.HTML().add_class("pb-coach")
        self.coach_best = widgets.Button(description=_("Select the best lock"), tooltip=_("Select the dice the coach would lock")).add_class("pb-coach-best")
        self.coach_best.on_click(lambda _event: self._select_best())
        self.coach_box = widgets.VBox((self.coach_html, widgets.HBox((self.coach_best,))))
        self.outcome_html = widgets.HTML().add_class("pb-outcome")
        self.botches_html = widgets.HTML().add_class("pb-botches")

    def _show_odds(self, chance: Fraction | None, note: str) -> None:
        if chance is None:
            self.odds_html.value = card(_("Chance of success"), f'<div class="dw-big">—</div><div class="pb-muted">{esc(note)}</div>')
            return
        self.odds_html.value = card(
            _("Chance of success"),
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
        if c is not None and not self._plays_dice(c.actor):
            # The coach is the acting player's own aid: on their page (or a shared screen) only.
            self.odds_html.value = self.coach_html.value = ""
            return
        if c is None or c.stage != "lock":
            self._show_odds(None, _("The dice are read: no more re-rolls."))
            self.coach_html.value = ""
            return
        left = view.rerolls_left
        if not _within_odds_limits(c.pool, len(c.penalty_faces), left):
            self._show_odds(None, _limits_text())
            self.coach_html.value = card(_("Re-roll coach"), f'<span class="pb-muted">{esc(_limits_text())}</span>')
            return
        ranked = self._ranked(state)
        if not ranked:
            self._show_odds(None, "")
            self.coach_html.value = ""
            return
        best_chance = ranked[0][1]
        if left == 0:
            verdict = _("The dice stand: no re-roll is left.") if best_chance == 1 else _("No re-roll is left and no set reaches the difficulty.")
            self._show_odds(best_chance, verdict)
            self.coach_html.value = card(_("Re-roll coach"), f"<div>{esc(verdict)} " + esc(_('Take a set, or none.')) + "</div>")
            return
        self._show_odds(best_chance, _n("with best play from here ({n} re-roll left)", "with best play from here ({n} re-rolls left)", left))
        items = []
        for locked, chance in ranked[:COACH_ROWS]:
            new = sorted(locked - c.locked)
            if new:
                faces = " ".join(str(c.faces[k]) for k in new)
                which = _("(dice {numbers})", numbers=", ".join(str(k + 1) for k in new))
                what = esc(_("lock {faces}", faces=faces)) + f" <span class='pb-muted'>{esc(which)}</span>"
            else:
                what = esc(_("lock nothing more") if c.locked else _("lock nothing"))
            items.append(f'<li data-lock="{",".join(str(k) for k in new)}" data-chance="{float(chance):.6f}">{what}: <b>{percent(chance)}</b></li>')
        advice = ""
        if best_chance == 1:
            advice = "<div><b>" + esc(_('The set is made:')) + "</b> " + esc(_('take it now, a re-roll can only risk the botches.')) + "</div>"
        more = '<div class="pb-muted">' + esc(_("and {count} more choices", count=len(ranked) - COACH_ROWS)) + '</div>' if len(ranked) > COACH_ROWS else ""
        self.coach_html.value = card(
            _("Re-roll coach"),
            f"{advice}<div>" + esc(_('Lock, then re-roll the rest. The chance each choice leaves:')) + "</div>"
            f'<ol class="dw-coach" style="margin:2px 0;padding-left:1.6em">{"".join(items)}</ol>{more}'
            '<div class="pb-muted">' + esc(_("Dice that cannot help (ones, faces below the difficulty) are never worth locking.")) + '</div>',
        )
        best_new = ranked[0][0] - c.locked
        self.coach_best.layout.display = "inline-flex" if best_new and self._plays_dice(c.actor) else "none"

    def _select_best(self) -> None:
        if self.game is None or self.game.state.check is None or self.game.state.check.stage != "lock":
            return
        c = self.game.state.check
        ranked = self._ranked(self.game.state)
        if ranked:
            self.select(sorted(ranked[0][0] - c.locked))

    def _draw_outcome(self, state: State, view: View) -> None:
        self.outcome_html.value, self.botches_html.value = outcome_cards(view)
