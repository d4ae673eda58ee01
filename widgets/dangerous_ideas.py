"""Dangerous Ideas from phones or around one screen: the sheets as trees, the bidding round, the story.

The sheets' trees, the dice and the cards are drawn by `drawing.dangerous_ideas`; the move
controls are `widgets.dangerous_ideas_moves`.

`DangerousIdeasDashboard(store=None, query=None)` opens on the table picker and the new-game
form (`query`, default `$QUERY_STRING`: "table=<id>" opens that table at once) (3-10
players, each played by hand or by a bot, the story being retold, every variant of
`rules.dangerous_ideas.Setup`, a seed). An open table shows the chapter (title, turn order,
whose move it is), one panel with the controls for what the game waits on now, the meme
action in play (the pool and the actor's chance, live while stones are chosen; the dice;
the outcome), every player's sheet drawn as its tree, the story's characters and the memes
they hold, the story so far, standings and the log. Bot seats move by themselves.

Played on devices (its card's `devices`): a seat's page (`seat_curtain`, locked to the seat)
shows its philosophy's tree and the same controls filtered to what that seat may do now (no
"who spends?", no passing for the others); the facilitator's page plays the seats no phone holds
(hot seat); the board shows the scene, every tree (``pb-board-trees``) and the story. Nothing in
the game is secret; what a phone types before it sends (a spend being chosen, a narration) stays
in that page's kernel.

Every control is built from the rules model: choices are offered only when `legal_actions`
or `Game.is_legal` accepts them, and the live pool preview is the model's own `play` of the
spend on the (immutable) state. The narration box goes with the next action as `narration`
and ends up in the story transcript.

Stable CSS classes (`add_class`), for browser tests and users' scripts:

- root: ``playbook-dangerous-ideas`` (and ``playbook-root``, shared by every game)
- header: ``pb-header``, ``pb-title``, ``pb-round``, ``pb-turn``; status line ``pb-status``
- setup form: ``pb-setup``, ``pb-players`` (Dropdown 3-10), ``pb-name-<i>`` (Text, seat
  i = 0..9), ``pb-kind-<i>`` (Dropdown: "human" or a bot name), ``pb-story-name`` (the story
  being retold), ``pb-seeds`` (red seeds per sheet), ``pb-chapters`` (Dropdown, 0 = the
  rules' default), ``pb-start-stones``, ``pb-layout`` (the branch types: ``pb-layout-<hub>``, a Dropdown per hub),
  ``pb-seed``, ``pb-start``
- table picker: ``pb-picker``, ``pb-resume`` (one Button per unfinished table, with `.table_id`)
- the table: ``pb-chapter`` (title, order, current player), ``pb-controls`` (what to do
  now; its parts ``pb-placer``, ``pb-move-editor``, ``pb-meme-form``, ``pb-spend``),
  ``pb-actor`` (who is to act), ``pb-narration`` (Textarea: goes with the next action)
- stones to place (starting stones, the turn's 2, a Gain's 3): ``pb-place-<place>``
  (BoundedIntText; place a node ``think``, ``probe``, ``create``, ``connect``, ``defend`` or a
  filled branch such as ``probe-1``), ``pb-place-left``, ``pb-place-confirm``
- setting round: ``pb-write-branch`` (Dropdown), ``pb-write-text``, ``pb-write-holder``
  (Combobox), ``pb-write-confirm``; chapter title: ``pb-title-text``, ``pb-title-confirm``
- a turn: ``pb-gain``, ``pb-move``, ``pb-create``, ``pb-spread``, ``pb-plot-unfinished``,
  ``pb-end-turn``; a Move: ``pb-move-source``, ``pb-move-target``, ``pb-move-stones``,
  ``pb-move-add``, ``pb-move-clear``, ``pb-move-steps``, ``pb-move-confirm``
- announcing a meme action: ``pb-meme-text`` (Text for Create, Dropdown for Spread),
  ``pb-meme-holder`` (Combobox), ``pb-replace-target`` (Dropdown of the legal targets; ""
  is none), ``pb-meme-why``, ``pb-announce-stake`` (announce, stake the default and open
  phase 2 in one click: `default_stake`), ``pb-announce`` (announce only, stake by hand)
- spending stones (the actor's stake, a Connect, a Defend): ``pb-stake-node``,
  ``pb-stake-think``, ``pb-stake-<branch>`` (own stones of an involved meme, BoundedIntText),
  ``pb-stake-<branch>-bonus`` (Checkbox), ``pb-stake-why``, ``pb-stake-confirm``; phase 2:
  ``pb-responder-<seat>`` (who spends now), ``pb-connect`` and ``pb-defend`` (choose the
  side), ``pb-pass`` (the chosen seat passes; in phase 1 the actor opens phase 2),
  ``pb-all-pass`` (everyone still asked passes: the dice roll)
- the meme action: ``pb-attempt``, ``pb-pool`` (the pool, its history and the live
  preview; the number carries ``data-pool``), ``pb-odds`` (the actor's chance; exact as
  ``data-chance``), ``pb-dice`` (die faces), ``pb-outcome`` (the last meme action's result)
- seeds: ``pb-seed-seat-<seat>`` (who spends), ``pb-seed-die-0``, ``pb-seed-die-1`` (spend a
  seed on that die), ``pb-seed-advice``, ``pb-seed-pass`` (the chosen seat lets the roll
  stand), ``pb-seed-all-pass``
- the outcome: ``pb-conclude-branch`` (Dropdown), ``pb-conclude-hub`` (stones moved from the
  hub), ``pb-conclude``
- display: ``pb-sheets``, ``pb-sheet`` and ``pb-sheet-<seat>`` (HTML holding the SVG tree),
  ``pb-characters``, ``pb-story``, ``pb-standings``, ``pb-log``
- table: ``pb-undo``, ``pb-save-file``, ``pb-download``, ``pb-upload``, ``pb-new-game``

There is no roll button: the dice roll (the model's chance action) the moment the last player
passes, so ``pb-all-pass`` or the last ``pb-pass`` rolls them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets

from drawing.common import card, esc
from drawing.dangerous_ideas import (
    SHEET_CARD_MIN,
    branch_choices,
    chance_html,
    chance_text,
    chapter_card,
    characters_card,
    dice_html,
    groups_text,
    node_name,
    outcome_html,
    sheet_legend,
    sheet_svg,
    story_card,
    tree_list,
    trees_at_a_glance,
)
from i18n import _, _n, render
from lab import BOTS as LAB_BOTS
from lab.dangerous_ideas import legal_actions
from playbook.store import Play, Store
from rules import Action, AnyGame
from rules.core import seats_said
from rules.dangerous_ideas import (
    BRANCHES,
    CARD,
    DEFAULT_LAYOUT,
    GAIN_STONES,
    NODES,
    RULES,
    STORIES,
    TURN_STONES,
    Conclude,
    EndTurn,
    Gain,
    Pass,
    Place,
    PlotUnfinished,
    Rerolled,
    Roll,
    Setup,
    Sheet,
    SpendSeed,
    State,
    Title,
    TurnStones,
    View,
    Write,
    ending,
    seed_advice,
    standings,
    story_said,
    success_chance,
    tiebreaks,
    view_for,
)

from .common import WIDE, PrivacyCurtain, close_tree
from .dangerous_ideas_moves import MemeForm, MoveEditor, SpendEditor, StonePlacer, click_button, line_note, row_of, story_holders, why_not
from .new_game_form import NewGameForm, setup_default
from .table import TableDashboard

__all__ = ["CLASS_VARIANTS", "DASHBOARD", "DangerousIdeasDashboard", "SetupForm"]

DEFAULT_NAMES = (
    "Manifest Destiny",
    "Vegetarianism",
    "German Efficiency",
    "Free Will",
    "Fate",
    "Progress",
    "Tradition",
    "Reason",
    "Faith",
    "Chaos",
)

# -- the new-game form ------------------------------------------------------------------------


class SetupForm(NewGameForm):
    """Players, the story and variants; `read()` gives a Setup, the seed, bot seats and the story."""

    def __init__(self) -> None:
        self.players = widgets.Dropdown(
            options=[(_n("{n} player", "{n} players", n), n) for n in range(CARD.players.low, CARD.players.high + 1)],
            value=3,
            description=_("Players"),
            style=WIDE,
        ).add_class("pb-players")
        self._seat_rows(RULES.slug, DEFAULT_NAMES[: CARD.players.high], lambda i: _("Seat {number}", number=i + 1), _("the player's Dangerous Idea"), kind_width="170px")
        # The designers' example (their text retells it), offered in the page's language: the
        # table stores its English (`story_said` says it in each page's language again).
        self.story = widgets.Text(
            value=render(STORIES[0]),
            description=_("The story retold"),
            placeholder=_("a fairy tale or a film everyone knows"),
            style=WIDE,
            layout=widgets.Layout(width="460px"),
        ).add_class("pb-story-name")
        self.seeds = widgets.BoundedIntText(value=setup_default(Setup, "seeds"), min=0, max=20, description=_("Red seeds per sheet"), style=WIDE, layout=widgets.Layout(width="240px")).add_class(
            "pb-seeds"
        )
        self.chapters = widgets.Dropdown(
            options=[(_("by the rules"), 0)] + [(str(k), k) for k in range(1, 61)],
            value=0,
            description=_("Chapters"),
            # the rule in a tooltip: beside the label it was cut off on a phone
            tooltip=_("By the rules: 2 chapters a player for 3-4 players, else 1 a player"),
            style=WIDE,
            layout=widgets.Layout(width="260px"),
        ).add_class("pb-chapters")
        self.start_stones = widgets.BoundedIntText(
            value=setup_default(Setup, "start_stones"), min=0, max=50, description=_("Starting stones"), style=WIDE, layout=widgets.Layout(width="210px")
        ).add_class("pb-start-stones")
        # Each hub's three branches, chosen from the eight ways they can be (no letters to type).
        patterns = [(a, b, c) for a in ("leaf", "coiled") for b in ("leaf", "coiled") for c in ("leaf", "coiled")]
        # TRANSLATORS: the two kinds of branch on a sheet, in a menu of a hub's three ("leaf · coiled · leaf").
        kinds = {"leaf": _("leaf"), "coiled": _("coiled")}
        self.layout_hubs = tuple(
            widgets.Dropdown(
                options=[(" · ".join(kinds[k] for k in p), p) for p in patterns],
                value=tuple(DEFAULT_LAYOUT[3 * i : 3 * i + 3]),
                description=node_name(hub),
                layout=widgets.Layout(width="300px"),
            ).add_class(f"pb-layout-{hub}")
            for i, hub in enumerate(NODES[1:])
        )
        branches_said = esc(_("Each hub's three branches: leaf (beliefs others notice) or coiled (held inside)"))
        self.layout_box = widgets.VBox(
            (widgets.HTML(f'<span class="pb-muted">{branches_said}</span>'), widgets.HBox(self.layout_hubs, layout=widgets.Layout(flex_flow="row wrap"))),
        ).add_class("pb-layout")
        self._seed_and_start("180px")
        self.table_dice = widgets.Checkbox(value=setup_default(Setup, "table_dice"), description=_("Table dice (roll real dice, type them in)"), indent=False).add_class("pb-table-dice")
        super().__init__(
            (
                widgets.HTML(f'<h3 style="margin:14px 0 4px">{esc(_("New game"))}</h3>'),
                self.story,
                self.players,
                *self.rows,
                widgets.HTML(f'<span class="pb-muted">{esc(_("Variants (set as the rules text plays; change one to try a variant)"))}</span>'),
                row_of(self.seeds, self.start_stones, self.chapters, self.seed, self.table_dice),
                self.layout_box,
                self.start_button,
            )
        )
        self._ready()

    def story_to_store(self) -> str:
        """The story as the table stores it: an offered story left as the page said it is
        stored in English (every page says it in its own language); a typed one as typed."""
        typed = " ".join(self.story.value.split())
        return next((str(offered) for offered in STORIES if render(offered) == typed), typed)

    def setup(self, names: tuple[str, ...]) -> Setup:
        return Setup(
            names=names,
            layout=tuple(t for hub in self.layout_hubs for t in hub.value),
            seeds=self.seeds.value,
            chapters=self.chapters.value or None,
            start_stones=self.start_stones.value,
            story=self.story_to_store(),
            table_dice=self.table_dice.value,
        )


# -- the dashboard ----------------------------------------------------------------------------------


class DangerousIdeasDashboard(TableDashboard):
    """The Dangerous Ideas table: picker and form first, then the live game around one screen.

    Besides `TableDashboard`'s attributes: `form` (SetupForm), `controls` (VBox of what to do
    now), `actor_html` (who acts), `narration` (Textarea), `chapter_html`, `attempt_html`, `pool_html`, `odds_html`,
    `dice_html`, `outcome_html`, `sheets_box`, `sheet_html` (one HTML per seat),
    `characters_html`, `story_html`, and `story` (the tale being retold, "" if none).
    """

    slug = RULES.slug
    game_title = RULES.title
    setup_form = SetupForm
    bot_strategies = LAB_BOTS[RULES.slug]
    sheets = ("dangerous-ideas.css",)

    def __init__(self, store: Store | None = None, query: str | None = None) -> None:
        self.story = ""
        self._mode = ""
        self._responder: int | None = None
        self._side: str = ""
        self._seed_seat: int | None = None
        self._seen = -1
        self._preview: tuple[int | None, str] = (None, "")
        #: the spend being chosen (the preview's), drawn against the latest table.
        self._preview_spend: Action | None = None
        super().__init__(store, query)
        self.add_class("playbook-dangerous-ideas")
        self.chapter_html = widgets.HTML().add_class("pb-chapter")
        self.actor_html = widgets.HTML().add_class("pb-actor")
        self.controls = widgets.VBox().add_class("pb-controls-body")
        self.narration = widgets.Textarea(
            placeholder=_("Narrate (optional): what happens in the story. It goes with your next action into the Story."),
            rows=2,
            layout=widgets.Layout(width="100%"),
        ).add_class("pb-narration")
        self.attempt_html = widgets.HTML().add_class("pb-attempt")
        self.pool_html = widgets.HTML().add_class("pb-pool")
        self.odds_html = widgets.HTML().add_class("pb-odds")
        self.dice_html = widgets.HTML().add_class("pb-dice")
        self.outcome_html = widgets.HTML().add_class("pb-outcome")
        self.sheets_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", grid_gap="0 10px")).add_class("pb-sheets")
        self.sheet_html: tuple[widgets.HTML, ...] = ()
        self.legend_html = widgets.HTML(sheet_legend())
        self.characters_html = widgets.HTML().add_class("pb-characters")
        self.story_html = widgets.HTML().add_class("pb-story")
        #: a seat page's own philosophy's sheet (the others are in `sheets_box`).
        self.own_sheet_html = widgets.HTML().add_class("pb-sheet").add_class("pb-own-sheet")
        #: the board's every tree at a glance (a board page's only).
        self.board_trees = widgets.HTML().add_class("pb-board-trees")
        # A seat page's own panel: the philosophy's tree and the controls of what that seat may
        # do now, rebuilt only when what it shows changes (another phone's spend leaves a
        # half-chosen spend alone). The facilitator's page plays the seats no phone holds in
        # `controls` (hot seat), as a shared screen did.
        self.curtain = PrivacyCurtain(self._seat_panel, label=_("Your philosophy:"), key=self._panel_key)
        #: the narration box of the seat's own panel (a seat page), else `narration`.
        self._seat_narration: widgets.Textarea | None = None
        #: what the seat page's panel was last drawn for (its controls start fresh when it changes).
        self._moment: tuple[object, ...] = ()
        self.open_from_query()

    # -- hooks ------------------------------------------------------------------------------------
    def table_view(self) -> widgets.Widget:
        def flex(part: widgets.Widget, basis: str) -> widgets.Widget:
            part.layout = widgets.Layout(flex=f"1 1 {basis}", min_width="300px")
            return part

        panel = widgets.VBox((self.actor_html, self.controls, self.narration)).add_class("pb-controls")
        attempt = widgets.VBox((self.attempt_html, row_of(self.pool_html, self.odds_html), self.dice_html, self.outcome_html)).add_class("pb-card")
        return widgets.VBox(
            (
                self.chapter_html,
                widgets.HBox(
                    (flex(panel, "560px"), flex(attempt, "340px")),
                    layout=widgets.Layout(flex_flow="row wrap", grid_gap="10px", align_items="flex-start"),
                ),
                self.sheets_box,
                self.legend_html,
                widgets.HBox(
                    (flex(self.characters_html, "380px"), flex(self.story_html, "480px")),
                    layout=widgets.Layout(flex_flow="row wrap", grid_gap="10px"),
                ),
                widgets.HBox(
                    # Six columns of standings need the wider share; the log wraps its lines.
                    (flex(self.standings, "540px"), flex(self.game_log, "400px")),
                    layout=widgets.Layout(flex_flow="row wrap", grid_gap="10px"),
                ),
                self.new_game_button,
            )
        )

    def seat_curtain(self) -> PrivacyCurtain | None:
        # Seat pages (and the facilitator's class card) only where the card plays on devices.
        return self.curtain if self.played_on_devices else None

    def public_view(self) -> widgets.Widget:
        """Below a seat's own panel: the meme action in play, the chapter, the other
        philosophies' trees, the story and the record."""
        attempt = widgets.VBox((self.attempt_html, row_of(self.pool_html, self.odds_html), self.dice_html, self.outcome_html)).add_class("pb-card")
        # The meme action (its pool, odds and the preview of a spend being chosen) right below
        # the controls, then the seat's own tree, then the others'.
        return widgets.VBox((attempt, self.own_sheet_html, self.chapter_html, self.sheets_box, self.characters_html, self.story_html, self.standings, self.game_log))

    def board_parts(self) -> tuple[widgets.Widget, ...]:
        """Below the board's scene: every philosophy's tree at a glance, then the story told
        chapter by chapter."""
        return (self.board_trees, self.story_html)

    def draw_board_parts(self) -> None:
        if self.game is None:
            return
        state = self.game.state
        # The results and a chapter's start draw the trees in the scene itself.
        self.board_trees.value = "" if state.phase in ("over", "title") else trees_at_a_glance(state)
        self.story_html.value = story_card(state)

    def waiting(self, state: State) -> tuple[int, ...]:
        return state.waiting_for()

    def base_title(self, game: AnyGame) -> str:
        story = render(story_said(game.setup.story))
        return f"{self.game_title}: {story} ({', '.join(game.setup.names)})" if story else super().base_title(game)

    def on_lobby(self) -> None:
        self.form.reseed()
        self.story = ""

    def on_open(self) -> None:
        assert self.game is not None
        self.story = render(story_said(self.game.setup.story))
        self._seen = -1
        self.narration.value = ""

    def open_from_query(self) -> None:
        super().open_from_query()
        if self.role == "seat" and self.game is not None:
            # Nothing in this game is secret: the page is the player's for their moves.
            self.status.ok(_("This is {page}: your moves first, then the table.", page=self.own_page_name(self.seat)))

    # -- acting -------------------------------------------------------------------------------------
    def act(self, action: Action, release_bots: bool = False) -> bool:
        """As every page acts; besides, with table dice, the seat that rolls enters its dice
        from its own page (a chance action, the table's: no seat of its own)."""
        if self.role == "seat" and action.chance and self.game is not None and self.seat == dice_roller(self.game.state, self.game.actions):
            return self._submit(Play(action, release_bots)) is not None
        return super().act(action, release_bots)

    def _narration_box(self) -> widgets.Textarea:
        return self._seat_narration if self.role == "seat" and self._seat_narration is not None else self.narration

    def act_told(self, action: Action) -> bool:
        """Apply `action` with the narration box's text as its narration."""
        text = self._narration_box().value.strip()
        if text and hasattr(action, "narration"):
            action = dataclasses.replace(action, narration=text)
        return self.act(action)

    def announce_and_stake(self, announce: Action, stake: Action) -> bool:
        """One click for the usual meme action's start: announce (with the narration), stake,
        and open phase 2. Stops at the first refusal, which the status line shows."""
        return self.act_told(announce) and self.act(stake) and self.act(Pass(seat=announce.seat))

    def all_pass(self) -> None:
        """Everyone the phase still waits on (played here) passes: phase 2 closes, or the roll stands."""
        if self.game is None:
            return
        phase = self.game.state.phase
        for _step in range(4 * self.game.state.n + 4):
            state = self.game.state
            humans = [s for s in state.waiting_for() if s in self.playable()]
            if state.phase != phase or not humans:
                return
            if not self.act_told(Pass(seat=humans[0])):
                return

    def playable(self) -> frozenset[int]:
        """The seats this page plays: a seat page its own; the facilitator's (hot seat) every
        seat no bot plays and no phone holds."""
        if self.game is None:
            return frozenset()
        if self.role == "seat":
            return frozenset({self.seat}) if self.seat is not None else frozenset()
        held = self.on_devices() if self.played_on_devices else frozenset()
        return frozenset(s for s in range(self.game.state.n) if s not in self.bots and s not in held)

    def _set(self, **changes: Any) -> None:
        """Change what the control panel shows (mode, responder, side...) and rebuild it."""
        for key, value in changes.items():
            setattr(self, f"_{key}", value)
        if self.game is None:
            return
        if self.role == "seat":
            # The seat's panel is rebuilt (its key holds the mode and the side): the narration
            # and whatever else was typed stay.
            self.curtain.keep_typed = True
            try:
                self.curtain.refresh()
            finally:
                self.curtain.keep_typed = False
        else:
            self._draw_controls(self.game.state)

    # -- drawing ------------------------------------------------------------------------------------
    def draw_table(self) -> None:
        assert self.game is not None
        state = self.game.state
        view = view_for(state, None)
        if self.role == "seat":
            moment = self._seat_moment(state)
            if moment != self._moment:
                # The seat's step changed (its own move, a new phase): its controls start fresh.
                # Another phone's spend in the same phase leaves a half-chosen spend alone.
                self._moment = moment
                self._mode, self._side = "", ""
        elif len(self.game.actions) != self._seen:
            # Something happened: the controls start fresh and the narration was used.
            self._seen = len(self.game.actions)
            self._mode, self._responder, self._side, self._seed_seat = "", None, "", None
            self.narration.value = ""
        title = f"{self.game_title}: {self.story}" if self.story else self.game_title
        self.header.show(title, self._round_text(view), self._waiting_text(state))
        self.chapter_html.value = chapter_card(state, self.story)
        self._draw_attempt(state, view)
        self._draw_sheets(state, view)
        self.characters_html.value = characters_card(state)
        self.story_html.value = story_card(state)
        rows = []
        ties = tiebreaks(state)
        for rank, seat, score in standings(state):
            sheet = state.sheets[seat]
            rows.append(
                (
                    rank,
                    sheet.name + (f" 🤖 {self.bots[seat]}" if seat in self.bots else ""),
                    score,
                    sheet.filled,
                    groups_text(sheet),
                    ties[seat],
                )
            )
        self.standings.show((_("Rank"), _("Player"), _("Score"), _("Memes"), _("Groups"), _("Stones + seeds")), rows)
        self.game_log.show([render(line) for line in view.log])
        if self.role == "seat" and self.seat is not None:
            self.curtain.set_seats(state.names, [s == self.seat for s in range(state.n)])
            self.curtain.refresh()
            if state.attempt is not None:
                self._draw_pool(state, view)
        else:
            self._draw_controls(state)

    @staticmethod
    def _round_text(view: View) -> str:
        if view.phase == "place":
            return _("Setup: starting stones")
        if view.phase == "setting":
            return _("The setting round")
        if view.chapter <= 0:
            return ""
        return _("Chapter {chapter} of {count}", chapter=view.chapter, count=view.chapters)

    def _waiting_text(self, state: State) -> str:
        names = state.names
        who = render(seats_said(names, state.waiting_for()))
        phase = state.phase
        a = state.attempt
        if phase == "over":
            why = ending(state)
            return _("Game over: {why}.", why=render(why) if why is not None else state.ended)
        # Where several move at once, a phone says "you and 2 others": names that shorten
        # with every move would move the buttons below under the player's finger.
        many = self.waiting_names(names, state.waiting_for())
        if phase == "place":
            return _("Waiting for {names} to place starting stones.", names=many)
        # On the page of the seat that moves, "Your turn": the phone's own name is no news to it.
        mine = len(state.waiting_for()) == 1 and self.own_seat(state.waiting_for()[0])
        if phase == "setting":
            return _("Your turn: write a meme.") if mine else _("{name} writes a meme.", name=who)
        if phase == "title":
            return _("Your turn: announce the chapter.") if mine else _("{name} announces the chapter.", name=who)
        if phase == "turn-start":
            if mine:
                return _n("Your turn: place {n} stone.", "Your turn: place {n} stones.", TURN_STONES)
            return _n("{name}'s turn: place {n} stone.", "{name}'s turn: place {n} stones.", TURN_STONES, name=who)
        if phase == "turn":
            if mine:
                return _n("Your turn: {n} action left.", "Your turn: {n} actions left.", state.actions_left)
            return _n("{name}'s turn: {n} action left.", "{name}'s turn: {n} actions left.", state.actions_left, name=who)
        if phase == "stake" and a is not None:
            return _("Phase 1: your stake.") if self.own_seat(a.actor) else _("Phase 1: {name} stakes.", name=names[a.actor])
        if phase == "respond":
            return _("Phase 2: connect, defend or pass: {names}.", names=many)
        if phase == "reroll":
            return _("The dice: {names} may spend a red seed.", names=many)
        if phase == "outcome" and a is not None:
            return _("Your turn: conclude the meme action.") if self.own_seat(a.actor) else _("{name} concludes the meme action.", name=names[a.actor])
        return who

    # -- the meme action card ---------------------------------------------------------------------
    def _draw_attempt(self, state: State, view: View) -> None:
        a = view.attempt
        names = state.names
        if a is None:
            self.attempt_html.value = f'<h3 style="margin:2px 0">{esc(_("Meme action"))}</h3><span class="pb-muted">{esc(_("None in play."))}</span>'
            self.pool_html.value = self.odds_html.value = self.dice_html.value = ""
        else:
            values = {"name": f"<b>{esc(names[a.actor])}</b>", "words": f"<b>‘{esc(a.text)}’</b>", "holder": f"<b>{esc(a.holder)}</b>"}
            victim = state.sheets[a.target.seat].meme(a.target.branch) if a.target is not None else None
            if a.target is not None and victim is not None:
                values.update(owner=esc(names[a.target.seat]), meme=esc(victim.text))
                line = (
                    _("{name} tries to create {words} for {holder}, replacing {owner}'s ‘{meme}’.", **values)
                    if a.kind == "create"
                    else _("{name} tries to spread {words} for {holder}, replacing {owner}'s ‘{meme}’.", **values)
                )
            else:
                line = _("{name} tries to create {words} for {holder}.", **values) if a.kind == "create" else _("{name} tries to spread {words} for {holder}.", **values)
            sides = []
            for side in ("connect", "defend"):
                who = seats_said(names, [s for s in range(state.n) if a.sides[s] == side])
                if who.items:
                    sides.append(esc(_("Connecting: {names}", names=who) if side == "connect" else _("Defending: {names}", names=who)))
            if state.phase == "respond":
                passed = seats_said(names, [s for s in range(state.n) if a.passed[s]])
                if passed.items:
                    sides.append(esc(_("passed: {names}", names=passed)))
            extra = f'<div class="di-hint">{" · ".join(sides)}</div>' if sides else ""
            self.attempt_html.value = f'<h3 style="margin:2px 0">{esc(_("Meme action"))}</h3><div>{line}</div>{extra}'
            self._draw_pool(state, view)
            if a.dice:
                succeeds = a.total < 11 and a.total <= a.pool
                first_roll = _("(first roll {first} + {second})", first=a.first_dice[0], second=a.first_dice[1]) if a.first_dice != a.dice else ""
                first = f' <span class="di-hint">{esc(first_roll)}</span>' if first_roll else ""
                standing = _("(as it stands)") if state.phase == "reroll" else _("(final)")
                total = f"<b style='font-size:1.4em'>= {a.total}</b>"
                # TRANSLATORS: the dice's verdict, bold in "= 7 against 8: succeeds".
                verdict = f"<b>{esc(_('succeeds') if succeeds else _('fails'))}</b>"
                if succeeds or a.total < 11:
                    said = _("{total} against {pool}: {verdict}", total=total, pool=a.pool, verdict=verdict)
                else:
                    said = _("{total} against {pool}: {verdict} (11 and 12 always fail)", total=total, pool=a.pool, verdict=verdict)
                self.dice_html.value = f"<div>{dice_html(a.dice, a.first_dice)} {said} <span class='di-hint'>{esc(standing)}</span>{first}</div>"
            else:
                self.dice_html.value = ""
        concluded = [a for a in self.game.actions if isinstance(a, Conclude)] if self.game is not None else []
        self.outcome_html.value = outcome_html(state, concluded[-1].from_hub if concluded else 0)

    def _draw_pool(self, state: State, view: View) -> None:
        a = view.attempt
        if a is None:
            return
        history = " → ".join(str(p) for p in a.pools) or _("nothing staked yet")
        preview_pool, preview_text = self._preview
        if self._preview_spend is not None and preview_pool is not None:
            # Another phone may have spent since the spend was chosen: the pool it would make now.
            preview_pool = None if why_not(state, self._preview_spend) else RULES.play(state, self._preview_spend).attempt.pool
        preview = ""
        if preview_pool is not None and view.odds is not None:
            preview = f'<div style="font-size:1.15em">→ <b>{preview_pool}</b> <span class="di-hint">{esc(preview_text)}</span></div>'
        self.pool_html.value = f'<div>{esc(_("Pool"))}</div><div class="di-big" data-pool="{a.pool}">{a.pool}</div><div class="di-hint">{esc(history)}</div>{preview}'
        if view.odds is None:
            self.odds_html.value = ""
            return
        seeds = state.sheets[a.actor].seeds
        odds = f"<div>{esc(_('Chance of success'))}</div><div>{chance_html(view.odds)}</div>"
        if preview_pool is not None:
            odds += f'<div style="font-size:1.15em">→ <b>{chance_html(success_chance(preview_pool, seeds), big=False)}</b></div>'
        wisely = _n(
            "2d6 at or under the pool; 11-12 fail; {name} re-rolling wisely with {n} seed",
            "2d6 at or under the pool; 11-12 fail; {name} re-rolling wisely with {n} seeds",
            seeds,
            name=state.names[a.actor],
        )
        odds += f'<div class="di-hint">{esc(wisely)}</div>'
        self.odds_html.value = odds

    def preview(self, pool: int | None, text: str, spend: Action | None = None) -> None:
        """Show the pool and the chance as they would be after the spend being chosen."""
        self._preview = (pool, text)
        self._preview_spend = spend
        if self.game is not None:
            self._draw_pool(self.game.state, view_for(self.game.state, None))

    # -- sheets, characters, story ----------------------------------------------------------------
    def _draw_sheets(self, state: State, view: View) -> None:
        if len(self.sheet_html) != state.n:
            old = self.sheet_html
            self.sheet_html = tuple(
                widgets.HTML(layout=widgets.Layout(flex=f"1 1 {SHEET_CARD_MIN}px", min_width=f"min(100% - 4px, {SHEET_CARD_MIN}px)", max_width="720px"))
                .add_class("pb-sheet")
                .add_class(f"pb-sheet-{seat}")
                for seat in range(state.n)
            )
            self.sheets_box.children = self.sheet_html
            close_tree(old)
        if self.role == "seat" and self.seat is not None:
            self.own_sheet_html.value = self._sheet_card(state, self.seat, view)
        for seat, html in enumerate(self.sheet_html):
            # A seat's own tree is drawn once, above the others'.
            html.layout.display = "none" if self.role == "seat" and seat == self.seat else ""
            html.value = "" if self.role == "seat" and seat == self.seat else self._sheet_card(state, seat, view)

    def _sheet_card(self, state: State, seat: int, view: View) -> str:
        """One philosophy's sheet: its name, what it is doing, its score, stones and seeds, its tree."""
        a = state.attempt
        active = {a.actor} if a is not None else ({state.turn} if state.turn is not None else set())
        sheet = state.sheets[seat]
        bot = f' <span class="pb-muted">🤖 {esc(self.bots[seat])}</span>' if seat in self.bots else ""
        role = ""
        if a is not None and a.sides[seat]:
            role = {"actor": _("acting"), "connect": _("connecting"), "defend": _("defending")}[a.sides[seat]]
        elif seat in active:
            role = _("to play")
        badge = f' <span class="pb-chip" style="background:#ffcc80;color:#14171f">{esc(role)}</span>' if role else ""
        head = (
            f'<div class="di-sheet-head"><b style="font-size:1.1em">{esc(sheet.name)}</b>{bot}{badge}</div>'
            f'<div class="di-hint">{_("{points} pts", points=f"<b>{view.scores[seat]}</b>")} · {esc(_n("{n} meme", "{n} memes", sheet.filled))} · '
            f"{esc(_n('{n} stone', '{n} stones', sheet.stones))} · {esc(_n('{n} seed', '{n} seeds', sheet.seeds))}</div>"
        )
        extra = "di-active" if seat in active else ""
        # A phone lists the tree in its own type: the drawing's lettering, scaled to a phone's
        # width, is too small to read there.
        tree = tree_list(state, seat) if self.role == "seat" else sheet_svg(state, seat)
        return card("", head + tree, extra, f'data-seat="{seat}"')

    # -- the control panel ----------------------------------------------------------------------
    def _draw_controls(self, state: State) -> None:
        old = self.controls.children
        self._preview, self._preview_spend = (None, ""), None
        actor, parts = self._controls_for(state)
        self.actor_html.value = f'<div style="font-size:1.2em;font-weight:700;margin:2px 0 4px">{esc(actor)}</div>' if actor else ""
        self.controls.children = tuple(parts)
        self.narration.layout.display = "none" if state.over else "flex"
        close_tree(old)
        if state.attempt is not None:
            self._draw_pool(state, view_for(state, None))

    # -- a seat's own page ---------------------------------------------------------------------------
    @staticmethod
    def _seat_moment(state: State) -> tuple[object, ...]:
        """Where the game stands, as a seat's controls care: a new step starts them fresh."""
        a = state.attempt
        return (state.phase, state.chapter, state.turn, state.actions_left, None if a is None else (a.actor, a.number, a.text, a.holder))

    def _panel_key(self, seat: int) -> tuple[object, ...]:
        """All a seat's panel shows: while it stays the same, other phones' moves leave it be (a
        spend being chosen in phase 2 is not rebuilt under the player's finger by another's)."""
        assert self.game is not None
        state = self.game.state
        a = state.attempt
        waiting = state.waiting_for()
        key: tuple[object, ...] = (self._seat_moment(state), state.sheets[seat], seat in waiting, self._mode, self._side)
        if a is not None:
            key += (a.target, a.sides[seat], a.passed[seat], a.node_spent[seat], a.think_spent[seat], a.dice, a.rerolling, a.success)
            if state.phase == "reroll":
                key += (len(waiting), state.sheets[a.actor].seeds)
        if state.phase not in ("place", "respond", "reroll"):
            key += (len(self.game.actions),)  # one seat moves at a time: every move may change its controls
        return key

    def _seat_panel(self, seat: int) -> list[widgets.Widget]:
        """Fresh widgets for one seat's own page: what it may do now (its tree follows the meme
        action in play, in the public part below: `own_sheet_html`)."""
        assert self.game is not None
        state = self.game.state
        self._preview, self._preview_spend = (None, ""), None
        actor, parts = self._controls_for(state)
        head = widgets.HTML(f'<div style="font-size:1.2em;font-weight:700;margin:2px 0 4px">{esc(actor)}</div>' if actor else "").add_class("pb-actor")
        narration = widgets.Textarea(
            placeholder=_("Narrate (optional): what happens in the story. It goes with your next action into the Story."),
            rows=2,
            layout=widgets.Layout(width="100%"),
        ).add_class("pb-narration")
        moves = seat in state.waiting_for() or (state.phase == "respond" and not state.over)
        narration.layout.display = "flex" if moves and not state.over else "none"
        self._seat_narration = narration
        return [widgets.VBox((head, *parts, narration)).add_class("pb-controls")]

    def _controls_for(self, state: State) -> tuple[str, list[widgets.Widget]]:
        """(who acts, widgets) for what the game waits on now, for the seats this page plays
        (`playable`); only legal choices are offered."""
        names = state.names
        if state.over:
            best = [s for rank, s, _score in standings(state) if rank == 1]
            if len(best) == 1:
                moral = _("The story ends. {name} announces the moral of the story!", name=names[best[0]])
            else:
                moral = _("The story ends. {names} announce the moral of the story!", names=seats_said(names, best))
            why = ending(state)
            return moral, [line_note(_("It ended: {why}.", why=render(why) if why is not None else state.ended))]
        playable = self.playable()
        if state.phase in ("roll", "rerolling") and state.setup.table_dice:
            roller = dice_roller(state, self.game.actions if self.game is not None else ())
            if self.role != "seat" or roller == self.seat:
                return _("Phase 3: roll at the table"), self._table_dice_controls(state)
            enters = _("{name} rolls and enters the dice.", name=names[roller]) if roller is not None else _("The table rolls and enters the dice.")
            return _("Phase 3: roll at the table"), [line_note(enters)]
        humans = [s for s in state.waiting_for() if s in playable]
        if state.phase == "respond" and playable and state.attempt is not None:
            humans = humans or [s for s in state.order_from(state.attempt.actor) if s in playable]  # whoever passed may still spend
        if not humans:
            people = [s for s in state.waiting_for() if s not in playable and s not in self.bots]
            if not people:
                return "", [line_note(_("Waiting for the bots."))]
            if self.role == "seat" and state.phase in ("place", "reroll"):
                # Everyone moves at once: a list of names here would go stale (the header counts them).
                return "", [line_note(_("Nothing to do now: waiting for the others."))]
            who = seats_said(names, people)
            if self.role != "seat":
                return "", [line_note(_("Nothing to do now: waiting for {names} on their own phones.", names=who))]
            return "", [line_note(_("Nothing to do now: waiting for {names}.", names=who))]
        phase = state.phase
        if phase == "place":
            seat = humans[0]
            count = state.setup.start_stones
            placer = StonePlacer(
                _n("{name}: place {n} starting stone on the five nodes", "{name}: place {n} starting stones on the five nodes", count, name=names[seat]),
                state.sheets[seat],
                count,
                NODES,
                lambda place: Place(seat=seat, place=place),
                self._why_now,
                self.act_told,
                _("Place these stones"),
            )
            return _("{name} places starting stones", name=names[seat]), [placer]
        if phase == "setting":
            return _("The setting round: {name} writes a meme", name=names[state.turn]), [self._write_form(state, state.turn)]
        if phase == "title":
            return _("{name} announces Chapter {chapter}", name=names[state.starter], chapter=state.chapter + 1), [self._title_form(state, state.starter)]
        if phase == "turn-start":
            seat = state.turn
            placer = StonePlacer(
                _n(
                    "{name}: place the turn's {n} stone (nodes or filled branches)",
                    "{name}: place the turn's {n} stones (nodes or filled branches)",
                    TURN_STONES,
                    name=names[seat],
                ),
                state.sheets[seat],
                TURN_STONES,
                self._places(state.sheets[seat]),
                lambda place: TurnStones(seat=seat, place=place),
                self._why_now,
                self.act_told,
                # TRANSLATORS: a button: place the stones chosen above.
                _("Place"),
            )
            return _("{name}'s turn", name=names[seat]), [placer]
        if phase == "turn":
            left = _n("{name}'s turn: {n} action left", "{name}'s turn: {n} actions left", state.actions_left, name=names[state.turn])
            return left, self._turn_controls(state, state.turn)
        if phase == "stake":
            a = state.attempt
            editor = SpendEditor(state, a.actor, "actor", self.act_told, self.preview)
            done = click_button(
                _("Done: open phase 2"),
                "pb-pass",
                lambda: self.act_told(Pass(seat=a.actor)),
                "success",
                disabled=bool(self._why_now(Pass(seat=a.actor))),
            )
            return _("Phase 1: {name} stakes", name=names[a.actor]), [
                widgets.HTML(f'<span class="di-hint">{esc(_("Stake stones (several times if you like, narrating each), then open phase 2."))}</span>'),
                editor,
                row_of(done),
            ]
        if phase == "respond":
            return _("Phase 2: connect or defend"), self._respond_controls(state)
        if phase == "reroll":
            return _("Phase 3: the dice"), self._seed_controls(state, humans)
        if phase == "outcome":
            return _("{name} concludes", name=names[state.attempt.actor]), self._conclude_controls(state)
        return "", [line_note(_("Nothing to do here."))]

    def _why_now(self, action: Action) -> str:
        return why_not(self.game.state, action) if self.game is not None else _("no table is open")

    @staticmethod
    def _places(sheet: Sheet) -> list[str]:
        return list(NODES) + [b for b, _meme in sheet.memes()]

    def _write_form(self, state: State, seat: int) -> widgets.Widget:
        sheet = state.sheets[seat]
        branches = sorted({a.branch for a in legal_actions(state, seat) if isinstance(a, Write)}, key=BRANCHES.index)
        branch = widgets.Dropdown(
            options=branch_choices(state.setup.layout, branches),
            description=_("Branch"),
            style=WIDE,
        ).add_class("pb-write-branch")
        text = widgets.Text(description=_("Meme"), placeholder=_("a belief of your Dangerous Idea"), style=WIDE, layout=widgets.Layout(width="480px")).add_class("pb-write-text")
        holder = widgets.Combobox(options=story_holders(state), description=_("held by"), placeholder=_("a character of the story"), style=WIDE, ensure_option=False).add_class("pb-write-holder")
        why = widgets.HTML()
        confirm = widgets.Button(description=_("Write it"), button_style="primary", disabled=True).add_class("pb-write-confirm")

        def action() -> Write:
            return Write(seat=seat, branch=branch.value or "", text=text.value, holder=holder.value)

        def check(_change: Any = None) -> None:
            problem = self._why_now(action()) if text.value.strip() and holder.value.strip() else _("Write the meme and who holds it.")
            why.value = f'<span class="di-no">{esc(problem)}</span>' if problem else '<span class="di-yes">✔</span>'
            confirm.disabled = bool(problem)

        for box in (branch, text, holder):
            box.observe(check, "value")
        confirm.on_click(lambda _button: self.act_told(action()))
        check()
        hint = _(
            "{name} fills two branches, one leaf and one coiled, each with one stone ({done} of 2 written). Narrate the setting as you write.",
            name=sheet.name,
            done=sheet.filled,
        )
        return widgets.VBox((widgets.HTML(f'<span class="di-hint">{esc(hint)}</span>'), branch, text, holder, row_of(why, confirm)))

    def _title_form(self, state: State, seat: int) -> widgets.Widget:
        text = widgets.Text(
            # TRANSLATORS: a chapter title's start, as the rules text names its chapters ("In which Goldilocks wanders into the woods").
            description=_("Chapter {chapter}:", chapter=state.chapter + 1),
            placeholder=_("In which …"),
            style=WIDE,
            layout=widgets.Layout(width="560px"),
        ).add_class("pb-title-text")
        confirm = widgets.Button(description=_("Announce the chapter"), button_style="primary", disabled=True).add_class("pb-title-confirm")
        text.observe(lambda _change: setattr(confirm, "disabled", bool(self._why_now(Title(seat=seat, title=text.value)))), "value")
        confirm.on_click(lambda _button: self.act_told(Title(seat=seat, title=text.value)))
        hint = _("The one-sentence synopsis: the meme actions may not take the story beyond it.")
        return widgets.VBox((widgets.HTML(f'<span class="di-hint">{esc(hint)}</span>'), text, confirm))

    def _turn_controls(self, state: State, seat: int) -> list[widgets.Widget]:
        kinds = {a.kind for a in legal_actions(state, seat)}
        buttons = []
        for mode, label, css in (
            # TRANSLATORS: the four actions of a turn (buttons): Gain 3 stones, Move stones, Create a meme, Spread a meme.
            ("gain", _("Gain {count}", count=GAIN_STONES), "pb-gain"),
            ("move", _("Move"), "pb-move"),
            ("create", _("Create a meme"), "pb-create"),
            ("spread", _("Spread a meme"), "pb-spread"),
        ):
            style = "info" if self._mode == mode else ""
            buttons.append(click_button(label, css, lambda mode=mode: self._set(mode=mode), style, disabled=mode not in kinds))
        plot = PlotUnfinished(seat=seat)
        plot_why = self._why_now(plot)
        buttons.append(
            click_button(
                _("Plot unfinished: +2 Create"),
                "pb-plot-unfinished",
                lambda: self.act_told(plot),
                "warning",
                disabled=bool(plot_why),
                tooltip=plot_why or _("The starter's once-a-chapter bonus"),
            )
        )
        buttons.append(click_button(_("End turn"), "pb-end-turn", lambda: self.act_told(EndTurn(seat=seat)), "success", disabled="end-turn" not in kinds))
        parts: list[widgets.Widget] = [row_of(*buttons)]
        sheet = state.sheets[seat]
        if self._mode == "gain" and "gain" in kinds:
            parts.append(
                StonePlacer(
                    _n("Gain: place {n} stone (nodes or filled branches)", "Gain: place {n} stones (nodes or filled branches)", GAIN_STONES),
                    sheet,
                    GAIN_STONES,
                    self._places(sheet),
                    lambda place: Gain(seat=seat, place=place),
                    self._why_now,
                    self.act_told,
                    _("Gain these stones"),
                )
            )
        elif self._mode == "move" and "move" in kinds:
            parts.append(MoveEditor(state, seat, self.act_told))
        elif self._mode in ("create", "spread") and self._mode in kinds:
            parts.append(MemeForm(state, seat, self._mode, self.act_told, self.announce_and_stake))
        elif state.actions_left == 0:
            parts.append(line_note(_("Both actions used: end the turn (the starter may first declare the plot unfinished).")))
        return parts

    def _respond_controls(self, state: State) -> list[widgets.Widget]:
        a = state.attempt
        assert a is not None
        names = state.names
        playable = self.playable()
        humans = [s for s in state.order_from(a.actor) if s in playable]
        waiting = set(state.waiting_for())
        if self._responder not in humans:
            fresh = [s for s in humans if s != a.actor and s in waiting and not a.sides[s]]
            others = [s for s in humans if s != a.actor and s in waiting]
            self._responder = (fresh or others or [s for s in humans if s in waiting] or humans)[0]
        seat = self._responder
        pick = []
        for s in humans:
            mark = "✔ " if a.passed[s] else ""
            label = mark + (_("{name} (actor)", name=names[s]) if s == a.actor else names[s])
            pick.append(click_button(label, f"pb-responder-{s}", lambda s=s: self._set(responder=s, side=""), "info" if s == seat else ""))
        # A seat's own page spends for that seat only: no one to choose.
        parts: list[widgets.Widget] = [row_of(widgets.HTML(f"<b>{esc(_('Who spends?'))}</b>"), *pick)] if self.role != "seat" else []
        side = self._side or a.sides[seat]
        if seat == a.actor:
            parts.append(widgets.HTML(f'<span class="di-hint">{esc(_("{name} may keep adding stones from the phase-1 sources.", name=names[seat]))}</span>'))
            parts.append(SpendEditor(state, seat, "actor", self.act_told, self.preview))
        else:
            sides = []
            for choice, label, css, style in (
                ("connect", _("Connect (help)"), "pb-connect", "success"),
                ("defend", _("Defend (hinder)"), "pb-defend", "danger"),
            ):
                other = "defend" if choice == "connect" else "connect"
                locked = a.sides[seat] == other
                sides.append(
                    click_button(
                        label,
                        css,
                        lambda choice=choice: self._set(side=choice),
                        style if side == choice else "",
                        disabled=locked,
                        tooltip=(
                            (_("{name} has chosen to defend: never both", name=names[seat]) if other == "defend" else _("{name} has chosen to connect: never both", name=names[seat])) if locked else ""
                        ),
                    )
                )
            parts.append(row_of(widgets.HTML(f"<b>{esc(names[seat])}:</b>"), *sides))
            if side in ("connect", "defend"):
                parts.append(SpendEditor(state, seat, side, self.act_told, self.preview))
        pass_why = self._why_now(Pass(seat=seat))
        passing = [
            click_button(
                # TRANSLATORS: a button: spend nothing more for now.
                _("Pass") if self.role == "seat" else _("{name} passes", name=names[seat]),
                "pb-pass",
                lambda: self.act_told(Pass(seat=seat)),
                disabled=bool(pass_why),
                tooltip=pass_why or _("Done for now: you may still spend until everyone has passed"),
            )
        ]
        if self.role != "seat":
            passing.append(
                click_button(
                    _("Everyone else passes: roll the dice"),
                    "pb-all-pass",
                    self.all_pass,
                    "success",
                    tooltip=_("Everyone still asked passes; the dice roll"),
                )
            )
        parts.append(row_of(*passing))
        asked = [s for s in state.order_from(a.actor) if s in waiting]
        parts.append(
            widgets.HTML(f'<span class="di-hint">{esc(_("Still asked: {names}. The dice roll once everyone has passed since the last spend.", names=self.waiting_names(names, asked)))}</span>')
        )
        return parts

    def _seed_controls(self, state: State, humans: Sequence[int]) -> list[widgets.Widget]:
        a = state.attempt
        assert a is not None and len(a.dice) == 2
        names = state.names
        if self._seed_seat not in humans:
            self._seed_seat = a.actor if a.actor in humans else humans[0]
        seat = self._seed_seat
        pick = [
            click_button(
                _n("{name} ({n} seed)", "{name} ({n} seeds)", state.sheets[s].seeds, name=names[s]),
                f"pb-seed-seat-{s}",
                lambda s=s: self._set(seed_seat=s),
                "info" if s == seat else "",
            )
            for s in humans
        ]
        die, reroll, stands = seed_advice(a.pool, (a.dice[0], a.dice[1]), state.sheets[a.actor].seeds)
        if stands == 1:
            advice = _("The roll succeeds as it stands. A re-roll could only spoil it for {name}.", name=names[a.actor])
        elif die is None:
            advice = _("The roll fails and {name} has no seed to change it.", name=names[a.actor])
        else:
            advice = _(
                "Worth it for {name}: re-roll die {die} (the {value}): {chance} to succeed with the seeds left, against {standing} if it stands.",
                name=names[a.actor],
                die=die + 1,
                value=a.dice[die],
                chance=chance_text(reroll),
                standing=chance_text(stands),
            )
        dice = [
            click_button(
                _("Re-roll die {die} (showing {value})", die=i + 1, value=a.dice[i]),
                f"pb-seed-die-{i}",
                lambda i=i: self.act_told(SpendSeed(seat=seat, die=i)),
                "warning",
                disabled=bool(self._why_now(SpendSeed(seat=seat, die=i))),
            )
            for i in (0, 1)
        ]
        stand = click_button(
            _("Let it stand") if self.role == "seat" else _("{name} lets it stand", name=names[seat]),
            "pb-seed-pass",
            lambda: self.act_told(Pass(seat=seat)),
            disabled=bool(self._why_now(Pass(seat=seat))),
        )
        asked = state.waiting_for()
        parts: list[widgets.Widget] = [row_of(widgets.HTML(f"<b>{esc(_('Who spends a red seed?'))}</b>"), *pick)] if self.role != "seat" else []
        parts += [widgets.HTML(f"<div>{esc(advice)}</div>").add_class("pb-seed-advice"), row_of(*dice, stand)]
        if self.role != "seat":
            parts.append(row_of(click_button(_("Everyone lets the roll stand"), "pb-seed-all-pass", self.all_pass, "success")))
        still = _(
            "Anyone holding seeds may re-roll one die per seed, in any order; the roll stands when all pass. Still asked: {names}.",
            names=self.waiting_names(names, asked),
        )
        parts.append(widgets.HTML(f'<span class="di-hint">{esc(still)}</span>'))
        return parts

    def _table_dice_controls(self, state: State) -> list[widgets.Widget]:
        """Table dice: type in the 2d6 the actor rolled, or the die a seed re-rolled."""
        a = state.attempt
        assert a is not None
        faces = [(str(f), f) for f in range(1, 7)]
        if state.phase == "roll":
            dice = [widgets.Dropdown(options=faces, value=1, description=_("Die {die}", die=i + 1), layout=widgets.Layout(width="140px")).add_class(f"pb-table-die-{i}") for i in (0, 1)]
            hint = _("{name} rolls two dice against a pool of {pool}; enter what they show.", name=state.names[a.actor], pool=a.pool)
            enter = click_button(_("Enter the roll"), "pb-table-dice-enter", lambda: self.act(Roll(dice=tuple(d.value for d in dice))), "primary")
        else:
            die = a.rerolling if a.rerolling is not None else 0
            dice = [widgets.Dropdown(options=faces, value=1, description=_("Die {die}", die=die + 1), layout=widgets.Layout(width="140px")).add_class("pb-table-die-0")]
            hint = _("A seed re-rolls die {die} (it showed {value}); enter the new face.", die=die + 1, value=a.dice[die])
            enter = click_button(_("Enter the re-roll"), "pb-table-dice-enter", lambda: self.act(Rerolled(die=die, value=dice[0].value)), "primary")
        return [line_note(hint), row_of(*dice, enter)]

    def _conclude_controls(self, state: State) -> list[widgets.Widget]:
        a = state.attempt
        assert a is not None
        seat = a.actor
        names = state.names
        if not a.success:
            button = click_button(_("Conclude: the idea is rejected"), "pb-conclude", lambda: self.act_told(Conclude(seat=seat)), "primary")
            return [line_note(_("The action failed. {name} narrates why {holder} rejects the idea, then concludes.", name=names[seat], holder=a.holder)), button]
        sheet = state.sheets[seat]
        empty = [b for b in BRANCHES if not self._why_now(Conclude(seat=seat, branch=b))]
        branch = widgets.Dropdown(
            options=branch_choices(state.setup.layout, empty, sheet),
            description=_("Write it on"),
            style=WIDE,
        ).add_class("pb-conclude-branch")
        hub = widgets.BoundedIntText(value=0, min=0, max=0, description=_("stones moved from the hub"), style=WIDE, layout=widgets.Layout(width="260px")).add_class("pb-conclude-hub")

        def fit(_change: Any = None) -> None:
            most = 0
            while branch.value and not self._why_now(Conclude(seat=seat, branch=branch.value, from_hub=most + 1)) and most < 999:
                most += 1
            hub.max = most
            hub.value = min(hub.value, most)

        branch.observe(fit, "value")
        fit()
        button = click_button(
            _("Write the new meme"),
            "pb-conclude",
            lambda: self.act_told(Conclude(seat=seat, branch=branch.value, from_hub=hub.value)),
            "success",
        )
        gains = [s for s in range(state.n) if a.sides[s] == "connect"]
        if gains:
            note = _("Success! The new meme gets 1 stone and 2 bonus stones. {names} gain 2 stones on Think.", names=seats_said(names, gains))
        else:
            note = _("Success! The new meme gets 1 stone and 2 bonus stones.")
        return [line_note(note), branch, hub, button]


def dice_roller(state: State, actions: Sequence[Action]) -> int | None:
    """Who enters the table dice now (table dice only): the actor rolls the 2d6, the seat that
    spent a seed the die it re-rolls; None when no die is to be entered."""
    a = state.attempt
    if a is None or not state.setup.table_dice:
        return None
    if state.phase == "roll":
        return a.actor
    if state.phase == "rerolling":
        return next((x.seat for x in reversed(actions) if isinstance(x, SpendSeed)), a.actor)
    return None


#: the setup variants a class of this game may choose (setup field -> what its checkbox says): none.
CLASS_VARIANTS: dict[str, str] = {}
#: the game's page, as its card names its "dashboard" layer (a class page builds a student's seat with it).
DASHBOARD = DangerousIdeasDashboard
