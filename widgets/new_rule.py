"""New Rule on one screen: hot-seat play of `rules.new_rule`, saved after every click.

The candies, the bowl, the players' table and the reveal are drawn by `drawing.new_rule`.

`NewRuleDashboard(store=None, query=None)` opens on the table picker and the new-game form; a started
or resumed table shows the common bowl, the players, the reveal, a seat chooser for each
player's private bowl and moves, standings, the log, undo and the save file. Bot seats move
by themselves after each human move. The private panel is built only from
`view_for(state, chosen_seat)` and closed when hidden or replaced.

Seat pages (see `widgets.common`): the table's page lists a link per human seat; `query`
(default `$QUERY_STRING`) "table=<id>&seat=<i>&key=<key>" opens that seat alone, on the
player's own device, with no lobby, save bar or other seat. Open pages follow each other's
moves by polling the store.

Stable CSS classes (`add_class`), for browser tests and users' scripts:

- root: ``playbook-new-rule`` (and ``playbook-root``, shared by every game)
- header: ``pb-header``, ``pb-title``, ``pb-round``, ``pb-turn``; status line ``pb-status``
- setup form: ``pb-setup``, ``pb-name-<i>`` (Text, seat i = 0..4), ``pb-kind-<i>`` (human or
  a bot), ``pb-players`` (player count), ``pb-bags``, ``pb-per-bag``, ``pb-hand``,
  ``pb-max-rounds`` (a number or "none"), ``pb-seed``, ``pb-start``
- table picker: ``pb-picker``, ``pb-resume`` (one Button per unfinished table, with `.table_id`)
- public board: ``pb-common-bowl``, ``pb-players-table``, ``pb-reveal``
- hot seat: ``pb-seat-<i>`` (Button per seat), ``pb-hide``, ``pb-private-panel``,
  ``pb-private`` (the seat's bowl), ``pb-private-log``
- seat pages: ``pb-seat-links`` (HTML card with one ``<a href="?table=..&seat=..&key=..">`` per
  human seat, ``data-link-seat`` its seat; only on the table's page)
- moves: ``pb-draw``, ``pb-keep``, ``pb-swap`` and ``pb-swap-<colour>`` (a Button per colour
  the bowl holds), ``pb-pick`` and ``pb-pick-<colour>`` (a Button per colour held), ``pb-pay-<colour>`` (BoundedIntText per colour
  held, colour names lower-case with any other character than a-z, 0-9, - as -), ``pb-pay-eat``
  (ToggleButtons beside the antibody's: "eat" or "return"),
  ``pb-pay-levels``, ``pb-pay-suggest``, ``pb-pay-confirm``
- table: ``pb-undo``, ``pb-save-file`` (makes the link: a save file shows every secret),
  ``pb-download`` (HTML holding the ``<a download>`` data-URI link), ``pb-upload``,
  ``pb-log``, ``pb-standings``, ``pb-new-game``
"""

from __future__ import annotations

import re
from collections.abc import Callable

import ipywidgets as widgets

from drawing.common import card, esc
from drawing.new_rule import bowl_card, candy_chips, candy_label, candy_label_html, players_table, reveal_card
from i18n import render
from lab import BOTS as LAB_BOTS
from playbook.store import Store
from rules import RuleError
from rules.core import plural as _plural
from rules.core import seats_text
from rules.new_rule import (
    CARD,
    RULES,
    Draw,
    Keep,
    Pay,
    Pick,
    Setup,
    State,
    Swap,
    View,
    legal_actions,
    payment_levels,
    suggested_payment,
    view_for,
)

from .common import WIDE, LogPanel, PrivacyCurtain, optional_limit
from .new_game_form import NewGameForm, setup_default
from .table import TableDashboard

__all__ = ["CLASS_VARIANTS", "DASHBOARD", "NewRuleDashboard", "PaymentChooser", "SetupForm", "colour_class"]



def colour_class(colour: str) -> str:
    """The CSS-safe spelling of a colour name, as used in `pb-pay-<colour>`."""
    return re.sub(r"[^a-z0-9-]", "-", colour.lower())


def _private_lines(state: State, seat: int) -> tuple[str, ...]:
    """The log lines only this seat (among others, perhaps) may read: its own notes."""
    return tuple(render(e.text) for e in state.log if e.visible_to is not None and seat in e.visible_to)


# -- the new-game form ----------------------------------------------------------------------


class SetupForm(NewGameForm):
    """Names, seat kinds and variants; `read()` turns them into a Setup, seed and bot seats."""

    def __init__(self) -> None:
        self.players = widgets.ToggleButtons(
            options=[(f"{n} players", n) for n in range(CARD.players.low, CARD.players.high + 1)], value=4, description="Players", style=WIDE
        ).add_class("pb-players")
        self._seat_rows(RULES.slug, [f"Player {i + 1}" for i in range(CARD.players.high)], lambda i: f"Seat {i + 1}", "name")
        self.bags = widgets.BoundedIntText(
            value=setup_default(Setup, "bags_per_player"), min=1, max=10, description="Bags per player", style=WIDE
        ).add_class("pb-bags")
        self.per_bag = widgets.BoundedIntText(
            value=setup_default(Setup, "per_bag"), min=1, max=50, description="Candies per colour per bag", style=WIDE
        ).add_class("pb-per-bag")
        self.hand = widgets.BoundedIntText(value=setup_default(Setup, "hand"), min=1, max=999, description="Starting hand", style=WIDE).add_class("pb-hand")
        self.max_rounds = widgets.Combobox(
            value=str(setup_default(Setup, "max_rounds")),
            options=["none", "6", "8", "12", "20"],
            description="Round limit",
            placeholder="a number, or none",
            style=WIDE,
        ).add_class("pb-max-rounds")
        self._seed_and_start()
        variants = widgets.HBox(
            (self.bags, self.per_bag, self.hand, self.max_rounds, self.seed),
            layout=widgets.Layout(flex_flow="row wrap", grid_gap="4px 16px"),
        )
        super().__init__(
            (
                widgets.HTML('<h3 style="margin:14px 0 4px">New game</h3>'),
                self.players,
                *self.rows,
                widgets.HTML('<span class="pb-muted">Variants (set as the rules text plays; change one to try a variant. A round limit of "none" plays until the bowl runs out)</span>'),
                variants,
                self.start_button,
            )
        )
        self._ready()

    def setup(self, names: tuple[str, ...]) -> Setup:
        max_rounds = optional_limit(self.max_rounds.value, "round")
        return Setup(names=names, bags_per_player=self.bags.value, per_bag=self.per_bag.value, hand=self.hand.value, max_rounds=max_rounds)


# -- paying against the infection -------------------------------------------------------------


class PaymentChooser(widgets.VBox):
    """One stepper per colour held, the antibody's with a choice to eat or return them; filled in
    with the best payment (`suggested_payment`); Confirm only for a payment the rules accept.

    The antibodies on the stepper are all eaten or all returned: eating one pays a level, returning
    them pays one per two (or four), so a payment mixing the two never keeps more (see
    docs/rules/new-rule.md)."""

    def __init__(self, state: State, seat: int, on_pay: Callable[[Pay], None]) -> None:
        view = view_for(state, seat)
        self._state, self._seat, self._on_pay = state, seat, on_pay
        bowl = dict(zip(view.colours, view.seats[seat].bowl or ()))
        antibody = view.antibody
        self._antibody = antibody
        self.steppers = {
            colour: widgets.BoundedIntText(
                value=0,
                min=0,
                max=bowl[colour],
                disabled=bowl[colour] == 0,
                description=candy_label_html(view.colours, colour) + (" (infection)" if colour in view.infection else ""),
                description_allow_html=True,
                style=WIDE,
                layout=widgets.Layout(width="210px"),
            ).add_class(f"pb-pay-{colour_class(colour)}")
            for colour in view.colours
            if bowl[colour]  # a colour you hold none of offers nothing to pay with
        }
        # Eating is a choice on the antibody's own control, not a second number field.
        self.eat = widgets.ToggleButtons(
            options=[("eat", "eat"), ("return", "return")],
            value="eat",
            tooltips=[f"each {antibody} eaten pays a level", f"{antibody} go back to the common bowl like any colour"],
            style={"button_width": "66px"},
        ).add_class("pb-pay-eat")
        self.eat.layout.display = "" if antibody in self.steppers else "none"
        self.levels = widgets.HTML().add_class("pb-pay-levels")
        self.suggest = widgets.Button(
            description="Best payment", icon="magic", tooltip="Put back the legal payment that keeps your score highest"
        ).add_class("pb-pay-suggest")
        self.confirm = widgets.Button(description="Confirm payment", button_style="danger", disabled=True).add_class("pb-pay-confirm")
        self.suggest.on_click(lambda _: self.fill_suggestion())
        self.confirm.on_click(lambda _: self._on_pay(self.payment()))
        for control in (*self.steppers.values(), self.eat):
            control.observe(lambda _: self._check(), "value")
        rows = [
            widgets.HBox((stepper, self.eat) if colour == antibody else (stepper,), layout=widgets.Layout(align_items="center"))
            for colour, stepper in self.steppers.items()
        ]
        super().__init__(
            (
                widgets.HTML(
                    f"<b>Return candies to the common bowl, or eat {esc(antibody)}:</b> "
                    f"pay exactly {_plural(view.strength, 'level')}."
                ),
                widgets.HBox(tuple(rows), layout=widgets.Layout(flex_flow="row wrap", grid_gap="2px 12px")),
                self.levels,
                widgets.HBox((self.suggest, self.confirm)),
            )
        )
        self.add_class("pb-pay")
        # Opened on the best payment, so paying is one click on Confirm; the steppers can change it.
        self.fill_suggestion()
        self._check()

    def payment(self) -> Pay:
        eating = self.eat.value == "eat"
        returned = tuple(c for c, stepper in self.steppers.items() if not (eating and c == self._antibody) for _ in range(stepper.value))
        eaten = self.steppers[self._antibody].value if eating and self._antibody in self.steppers else 0
        return Pay(seat=self._seat, returned=returned, eaten=eaten)

    def _check(self) -> None:
        pay = self.payment()
        try:
            levels = payment_levels(self._state, self._seat, pay.returned, pay.eaten)
        except RuleError as exc:
            self.levels.value = f'<span class="pb-tone-bad">Not yet: {esc(exc.message)}</span>'
            self.confirm.disabled = True
            return
        self.levels.value = f'<span class="pb-tone-good" style="font-weight:700">✔ pays {levels} of {self._state.strength} levels</span>'
        self.confirm.disabled = False

    def fill_suggestion(self) -> None:
        """Put the payment that keeps the best score into the steppers (nothing is paid until Confirm)."""
        pay = suggested_payment(self._state, self._seat)
        if pay is None:
            self.levels.value = '<span class="pb-tone-bad">No legal payment.</span>'
            return
        for colour, stepper in self.steppers.items():
            stepper.value = pay.returned.count(colour)
        if pay.eaten and self._antibody in self.steppers:
            self.eat.value = "eat"
            self.steppers[self._antibody].value = pay.eaten
        elif self._antibody in pay.returned:
            self.eat.value = "return"


# -- the dashboard ------------------------------------------------------------------------------


class NewRuleDashboard(TableDashboard):
    """The New Rule table: picker and form first, then the live hot-seat game.

    Besides `TableDashboard`'s attributes: `form` (SetupForm), `curtain` (PrivacyCurtain),
    `bowl_html`, `players_html`, `reveal_html`.
    """

    slug = RULES.slug
    game_title = RULES.title
    setup_form = SetupForm
    bot_strategies = LAB_BOTS[RULES.slug]

    def __init__(self, store: Store | None = None, query: str | None = None) -> None:
        super().__init__(store, query)
        self.add_class("playbook-new-rule")
        self.curtain = PrivacyCurtain(self._private_panel, label="Whose bowl?", key=self._panel_key)
        self.bowl_html = widgets.HTML().add_class("pb-common-bowl")
        self.players_html = widgets.HTML().add_class("pb-players-table")
        self.reveal_html = widgets.HTML().add_class("pb-reveal")
        self.open_from_query()

    # -- hooks ----------------------------------------------------------------------------------
    def seat_curtain(self) -> PrivacyCurtain:
        return self.curtain

    def _public_parts(self) -> tuple[widgets.Widget, widgets.Widget, widgets.Widget]:
        for part in (self.players_html, self.reveal_html, self.standings, self.game_log):
            part.layout = widgets.Layout(flex="1 1 360px", min_width="300px")
        row = widgets.Layout(flex_flow="row wrap", grid_gap="12px")
        return (
            self.bowl_html,
            widgets.HBox((self.players_html, self.reveal_html), layout=row),
            widgets.HBox((self.standings, self.game_log), layout=row),
        )

    def table_view(self) -> widgets.Widget:
        bowl, players, log = self._public_parts()
        return widgets.VBox((bowl, players, self.curtain, log, self.new_game_button))

    def public_view(self) -> widgets.Widget:
        return widgets.VBox(self._public_parts())

    def waiting(self, state: State) -> tuple[int, ...]:
        return state.waiting_for()

    def on_lobby(self) -> None:
        self.curtain.hide()
        self.form.reseed()

    def on_open(self) -> None:
        self.curtain.hide()

    # -- the public board -------------------------------------------------------------------------
    def draw_table(self) -> None:
        assert self.game is not None
        view = view_for(self.game.state, None)
        self.header.show(self.game_title, self._round_text(view), self._waiting_text(view))
        self.bowl_html.value = bowl_card(view)
        self.players_html.value = players_table(view, self.bots)
        self.reveal_html.value = reveal_card(view)
        # At the end the players' table shows every bowl: give it the whole width.
        self.reveal_html.layout.display = "none" if view.phase == "over" else "flex"
        if view.standings:
            rows = [(rank, view.seats[seat].name, score, "out" if view.seats[seat].out else "in") for rank, seat, score in view.standings]
            self.standings.show(("Rank", "Player", "Score", ""), rows)
        else:
            self.standings.show((), (), empty="Scores appear when the game ends: until then every bowl is private.")
        self.game_log.show([render(line) for line in view.log])
        labels = [s.name + (f" 🤖 {self.bots[i]}" if i in self.bots else "") for i, s in enumerate(view.seats)]
        self.curtain.set_seats(labels, [i not in self.bots for i in range(len(view.seats))], view.waiting_for, self.on_devices())
        self.curtain.refresh()

    @staticmethod
    def _round_text(view: View) -> str:
        if view.round == 0:
            return ""
        limit = f" of {view.max_rounds}" if view.max_rounds else " (no round limit)"
        return f"Round {view.round}{limit}"

    def _waiting_text(self, view: View) -> str:
        names = [s.name for s in view.seats]
        waiting = seats_text(names, view.waiting_for)
        if view.phase == "over":
            return f"Game over: {view.ended}."
        if view.phase == "draw":
            return f"{waiting}: draw two candies."
        if view.phase == "choose":
            return f"{waiting}: keep the draw or swap it."
        waiting = self.waiting_names(names, view.waiting_for)  # picks and payments: all at once
        if view.phase == "pick":
            return f"Secret picks: waiting for {waiting}."
        if view.phase == "pay":
            return f"Infection {' and '.join(view.infection)}, strength {view.strength}: waiting for {waiting} to pay."
        return "Dealing the candies."

    # -- the private panel ------------------------------------------------------------------------
    def _panel_key(self, seat: int) -> tuple[object, ...]:
        """All a seat's panel shows: while it stays the same, other seats' moves leave it be."""
        assert self.game is not None
        state = self.game.state
        view = view_for(state, seat)
        choosing = view.phase == "choose" and view.turn == seat
        # Not who else the round waits for (the header says it): every pick would rebuild
        # every panel that has picked.
        return (view.phase, view.round, view.turn, view.seats[seat], view.drawn, view.common_colours if choosing else (), view.infection, view.strength, _private_lines(state, seat)[-8:])

    def _private_panel(self, seat: int) -> list[widgets.Widget]:
        """Fresh widgets for one seat, built from that seat's view only."""
        assert self.game is not None
        state = self.game.state
        view = view_for(state, seat)
        me = view.seats[seat]
        bowl = candy_chips(view.colours, me.bowl) if me.bowl is not None else ""
        head = widgets.HTML(
            card(f"{me.name}: your bowl ({me.candies} candies), for your eyes only", bowl, "pb-private", f'data-seat="{seat}"')
        ).add_class("pb-private")
        parts: list[widgets.Widget] = [head, *self._moves(state, view, seat)]
        # The heading says where the game is: a note reads "you drew...", not which round.
        notes = LogPanel(f"Your notes · round {view.round} (newest first)" if view.round else "Your notes (newest first)")
        notes.show(_private_lines(state, seat), limit=8)
        parts.append(notes.add_class("pb-private-log"))
        return parts

    def _colour_button(self, view: View, move: Swap | Pick, kind: str) -> widgets.Button:
        """A button that makes `move` (a swap or a pick of one colour) in one click."""
        verb = "Take" if kind == "pb-swap" else "Pick"
        button = widgets.Button(description=f"{verb} {candy_label(view.colours, move.colour)}", tooltip=f"{verb} {move.colour}")
        button.add_class(kind).add_class(f"{kind}-{colour_class(move.colour)}")
        button.on_click(lambda _: self.act(move))
        return button

    def _moves(self, state: State, view: View, seat: int) -> list[widgets.Widget]:
        """The controls for what `seat` may do now (nothing else is offered)."""
        me = view.seats[seat]
        names = [s.name for s in view.seats]

        def note(text: str) -> widgets.HTML:
            return widgets.HTML(f'<div style="font-size:1.1em;margin:6px 0">{esc(text)}</div>')

        if view.phase == "over":
            return [note("The game is over.")]
        if me.out:
            return [note("You are out of the game.")]
        if view.phase == "draw" and view.turn == seat:
            draw = widgets.Button(description="Draw two candies", button_style="primary").add_class("pb-draw")
            draw.on_click(lambda _: self.act(Draw(seat=seat)))
            return [draw]
        if view.phase == "choose" and view.turn == seat:
            drawn = widgets.HTML(f'<div style="font-size:1.15em">You drew: {candy_chips(view.colours, candies=view.drawn) or "nothing"}</div>')
            keep = widgets.Button(description="Keep both", button_style="success").add_class("pb-keep")
            keep.on_click(lambda _: self.act(Keep(seat=seat)))
            # One click a choice: keeping, or swapping for one colour the bowl holds.
            swaps = [a for a in legal_actions(state, seat) if isinstance(a, Swap)]
            offer = [keep]
            if swaps:
                offer.append(widgets.HTML('<span class="pb-muted">or return both and take one:</span>'))
                offer += [self._colour_button(view, move, "pb-swap") for move in swaps]
            # pb-choices: arrow keys move between the choices (the template's a11y.js).
            return [drawn, widgets.HBox(offer, layout=widgets.Layout(flex_flow="row wrap", align_items="center")).add_class("pb-choices")]
        if view.phase == "pick":
            if me.pick is not None:
                return [note(f"Your secret pick: {candy_label(view.colours, me.pick)}. The picks are revealed once everyone has picked.")]
            picks = [self._colour_button(view, move, "pb-pick") for move in legal_actions(state, seat) if isinstance(move, Pick)]
            return [note("Pick a colour in secret (one click):"), widgets.HBox(picks, layout=widgets.Layout(flex_flow="row wrap")).add_class("pb-choices")]
        if view.phase == "pay":
            if me.paid:
                return [note("You have paid this round.")]
            return [PaymentChooser(state, seat, self.act)]
        return [note(f"Nothing to do now: waiting for {seats_text(names, view.waiting_for) or 'the table'}.")]


#: the setup variants a class of this game may choose (setup field -> what its checkbox says): none.
CLASS_VARIANTS: dict[str, str] = {}
#: the game's page, as its card names its "dashboard" layer (a class page builds a student's seat with it).
DASHBOARD = NewRuleDashboard
