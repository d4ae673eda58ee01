"""The controls a Dangerous Ideas player makes a move with: placing stones, moving them,
announcing a meme action, spending stones on one. Each offers only what the rules allow now and
says why a choice is refused (the rules' own words), before it is sent.

They are parts of the dashboard's control panel (`widgets.dangerous_ideas`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as widgets

from drawing.common import esc
from drawing.dangerous_ideas import commas, node_name, place_label, short
from i18n import _, _n, render
from rules import Action, RuleError
from rules.dangerous_ideas import BRANCHES, NODES, PLACES, RULES, Connect, Create, Defend, Move, Ref, Sheet, Spread, Stake, State, Step, Use, may_involve

from .common import WIDE

__all__ = ["MemeForm", "MoveEditor", "SpendEditor", "StonePlacer", "click_button", "default_stake", "line_note", "row_of", "spend_node", "story_holders", "why_not"]

# -- small parts -------------------------------------------------------------------------------------


def click_button(description: str, css: str, on_click: Callable[[], None], style: str = "", disabled: bool = False, tooltip: str = "") -> widgets.Button:
    button = widgets.Button(description=description, button_style=style, disabled=disabled, tooltip=tooltip).add_class(css)
    button.on_click(lambda _button: on_click())
    return button


def line_note(text: str, css: str = "") -> widgets.HTML:
    html = widgets.HTML(f'<div style="margin:4px 0">{esc(text)}</div>')
    return html.add_class(css) if css else html


def row_of(*children: widgets.Widget) -> widgets.HBox:
    return widgets.HBox(children, layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 10px"))


def story_holders(state: State) -> list[str]:
    """The story's characters so far, first spelling kept, in order of appearance."""
    seen: dict[str, str] = {}
    for sheet in state.sheets:
        for _branch, meme in sheet.memes():
            seen.setdefault(meme.holder_key, meme.holder)
    return list(seen.values())


def why_not(state: State, action: Action) -> str:
    """The model's refusal of `action` now, in the page's language, or "" when it is legal."""
    try:
        RULES.check(state, action)
    except RuleError as exc:
        return render(exc.said)
    return ""


# -- placing stones ----------------------------------------------------------------------------------


class StonePlacer(widgets.VBox):
    """One stepper per place; Confirm once the stones add up and the model accepts them."""

    def __init__(
        self,
        heading: str,
        sheet: Sheet,
        count: int,
        places: Sequence[str],
        make: Callable[[tuple[str, ...]], Action],
        legal: Callable[[Action], str],
        on_confirm: Callable[[Action], None],
        label: str,
    ) -> None:
        self._count, self._make, self._legal = count, make, legal
        self.steppers = {
            place: widgets.BoundedIntText(
                value=0,
                min=0,
                max=count,
                description=place_label(sheet, place),
                style=WIDE,
                layout=widgets.Layout(width="230px" if place in BRANCHES else "150px"),
            ).add_class(f"pb-place-{place}")
            for place in places
        }
        self.left = widgets.HTML().add_class("pb-place-left")
        self.confirm = widgets.Button(description=label, button_style="primary", disabled=True).add_class("pb-place-confirm")
        self.confirm.on_click(lambda _button: on_confirm(self.action()))
        for stepper in self.steppers.values():
            stepper.observe(lambda _change: self._check(), "value")
        nodes = [s for p, s in self.steppers.items() if p in NODES]
        branches = [s for p, s in self.steppers.items() if p not in NODES]
        rows: list[widgets.Widget] = [widgets.HTML(f"<b>{esc(heading)}</b>"), row_of(*nodes)]
        if branches:
            rows.append(row_of(*branches))
        rows.append(row_of(self.left, self.confirm))
        super().__init__(tuple(rows))
        self.add_class("pb-placer")
        self._check()

    def action(self) -> Action:
        return self._make(tuple(p for p, s in self.steppers.items() for _i in range(s.value)))

    def _check(self) -> None:
        placed = sum(s.value for s in self.steppers.values())
        left = self._count - placed
        why = self._legal(self.action()) if left == 0 else ""
        if left > 0:
            self.left.value = f'<span class="di-hint">{esc(_("{left} of {count} still to place", left=left, count=self._count))}</span>'
        elif left < 0:
            self.left.value = f'<span class="di-no">{esc(_("{over} too many: place exactly {count}", over=-left, count=self._count))}</span>'
        elif why:
            self.left.value = f'<span class="di-no">{esc(why)}</span>'
        else:
            self.left.value = f'<span class="di-yes">{esc(_("✔ all placed"))}</span>'
        self.confirm.disabled = left != 0 or bool(why)


# -- moving stones -----------------------------------------------------------------------------------


class MoveEditor(widgets.VBox):
    """Build a Move step by step; only sources and targets the model accepts are offered."""

    def __init__(self, state: State, seat: int, on_move: Callable[[Action], None]) -> None:
        self._state, self._seat = state, seat
        self._sheet = state.sheets[seat]
        self.steps: list[Step] = []
        # TRANSLATORS: a Move's parts read as one line: "Move from [Think] to [Probe] stones [2]".
        self.source = widgets.Dropdown(description=_("Move from"), style=WIDE).add_class("pb-move-source")
        # TRANSLATORS: the target of a Move ("Move from Think to Probe").
        self.target = widgets.Dropdown(description=_("to"), style=WIDE).add_class("pb-move-target")
        self.stones = widgets.BoundedIntText(
            # TRANSLATORS: the number of stones a Move step moves (a label before the number box).
            value=1,
            min=1,
            max=1,
            description=_("stones"),
            style=WIDE,
            layout=widgets.Layout(width="130px"),
        ).add_class("pb-move-stones")
        self.add_button = click_button(_("Add step"), "pb-move-add", self.add_step)
        # TRANSLATORS: a button that empties the list of Move steps.
        self.clear_button = click_button(_("Clear"), "pb-move-clear", self.clear)
        self.list_html = widgets.HTML().add_class("pb-move-steps")
        self.confirm = widgets.Button(description=_("Move these stones"), button_style="primary", disabled=True).add_class("pb-move-confirm")
        self.confirm.on_click(lambda _button: on_move(self.action()))
        self.source.observe(lambda _change: self._fill_targets(), "value")
        self.target.observe(lambda _change: self._fill_stones(), "value")
        super().__init__(
            (
                widgets.HTML(_("{move} every stone moves one step (branch ↔ its hub, hub ↔ Think).", move=f"<b>{esc(_('Move:'))}</b>")),
                row_of(self.source, self.target, self.stones, self.add_button),
                row_of(self.list_html, self.clear_button, self.confirm),
            )
        )
        self.add_class("pb-move-editor")
        self._refresh()

    def _move(self, extra: Step | None = None) -> Move:
        steps = list(self.steps)
        if extra is not None:
            steps.append(extra)
        return Move(seat=self._seat, steps=tuple(steps))

    def _ok(self, step: Step) -> bool:
        return not why_not(self._state, self._move(step))

    def action(self) -> Move:
        return self._move()

    def _refresh(self) -> None:
        sources = [p for p in PLACES if any(self._ok(Step(p, t, 1)) for t in PLACES)]
        self.source.options = [(place_label(self._sheet, p), p) for p in sources]
        self._fill_targets()
        if self.steps:
            steps = "; ".join(esc(f"{s.stones} {place_label(self._sheet, s.source)} → {place_label(self._sheet, s.target)}") for s in self.steps)
            self.list_html.value = _("Steps: {steps}", steps=steps)
        else:
            self.list_html.value = f'<span class="di-hint">{esc(_("No steps yet: choose a source and a target, then Add step."))}</span>'
        self.confirm.disabled = not self.steps or bool(why_not(self._state, self._move()))
        self.add_button.disabled = not sources

    def _fill_targets(self) -> None:
        source = self.source.value
        targets = [t for t in PLACES if source and self._ok(Step(source, t, 1))]
        self.target.options = [(place_label(self._sheet, t), t) for t in targets]
        self._fill_stones()

    def _fill_stones(self) -> None:
        source, target = self.source.value, self.target.value
        most = 1
        if source and target:
            while most < 99 and self._ok(Step(source, target, most + 1)):
                most += 1
        self.stones.max = most
        self.stones.value = min(self.stones.value, most)

    def add_step(self) -> None:
        """Add the chosen step (merged with an earlier one between the same places)."""
        source, target = self.source.value, self.target.value
        if not (source and target):
            return
        step = Step(source, target, self.stones.value)
        if not self._ok(step):
            return
        merged = [s for s in self.steps if (s.source, s.target) != (source, target)]
        before = sum(s.stones for s in self.steps if (s.source, s.target) == (source, target))
        self.steps = merged + [Step(source, target, before + step.stones)]
        self._refresh()

    def clear(self) -> None:
        self.steps = []
        self._refresh()


# -- announcing a meme action ------------------------------------------------------------------------


def fit_480() -> widgets.Layout:
    """As wide as 480 px, never wider than a phone's screen (a Layout of its own per widget)."""
    return widgets.Layout(width="calc(100% - 4px)", max_width="480px")  # a widget has 2 px margins


class MemeForm(widgets.VBox):
    """Create or Spread: the text, the holder and an optional replace target, checked live."""

    def __init__(
        self,
        state: State,
        seat: int,
        kind: str,
        on_announce: Callable[[Action], None],
        on_announce_and_stake: Callable[[Action, Action], None] | None = None,
    ) -> None:
        self._state, self._seat, self._kind = state, seat, kind
        sheet = state.sheets[seat]
        if kind == "create":
            self.text: widgets.ValueWidget = widgets.Text(description=_("New meme"), placeholder=_("a belief of your Dangerous Idea"), style=WIDE, layout=fit_480())
        else:
            texts: dict[str, str] = {}
            for _branch, meme in sheet.memes():
                texts.setdefault(meme.key, meme.text)
            self.text = widgets.Dropdown(
                # TRANSLATORS: the label of the meme to spread (the Spread action, glossary's term).
                options=list(texts.values()),
                description=_("Spread"),
                style=WIDE,
                layout=fit_480(),
            )
        self.text.add_class("pb-meme-text")
        self.holder = widgets.Combobox(
            options=story_holders(state),
            description=_("to be held by"),
            placeholder=_("a character of the story"),
            style=WIDE,
            ensure_option=False,
            layout=fit_480(),
        ).add_class("pb-meme-holder")
        self.target = widgets.Dropdown(options=[(_("no replacement"), "")], value="", description=_("replacing"), style=WIDE, layout=fit_480()).add_class("pb-replace-target")
        self.why = widgets.HTML().add_class("pb-meme-why")
        self.announce = widgets.Button(
            description=_("Announce the Create") if kind == "create" else _("Announce the Spread"), disabled=True, tooltip=_("Then choose the stones to stake by hand")
        ).add_class("pb-announce")
        self.announce.on_click(lambda _button: on_announce(self.action()))
        # The usual way in one click: announce, stake the sensible default and open phase 2.
        both = _("Create and stake") if kind == "create" else _("Spread and stake")
        self.announce_stake = widgets.Button(description=both, button_style="danger", disabled=True).add_class("pb-announce-stake")
        self.announce_stake.layout.display = "" if on_announce_and_stake else "none"
        self.announce_stake.on_click(lambda _button: self._announce_and_stake(on_announce_and_stake))
        self._targets: dict[str, Ref] = {}
        self.text.observe(lambda _change: self._refresh(), "value")
        self.holder.observe(lambda _change: self._refresh(), "value")
        self.target.observe(lambda _change: self._check(), "value")
        hint = (
            _("Create: a meme not yet on your sheet. Stakes come from Create (plus as many from Think) and your coiled memes.")
            if kind == "create"
            else _("Spread: one of your memes to a character who does not hold it on your sheet. Stakes come from Probe (plus as many from Think), your leaf memes and the spread meme.")
        )
        super().__init__(
            (
                widgets.HTML(f'<span class="di-hint">{esc(hint)}</span>'),
                self.text,
                self.holder,
                self.target,
                row_of(self.why, self.announce_stake, self.announce),
            )
        )
        self.add_class("pb-meme-form")
        self._refresh()

    def action(self, target: Ref | None = None, use_chosen: bool = True) -> Action:
        cls = Create if self._kind == "create" else Spread
        if use_chosen:
            target = self._targets.get(self.target.value)
        return cls(seat=self._seat, text=self.text.value or "", holder=self.holder.value or "", target=target)

    def _refresh(self) -> None:
        """Offer the replace targets the model accepts for this text and holder."""
        chosen = self.target.value
        found: dict[str, Ref] = {}
        names = self._state.names
        if (self.text.value or "").strip() and (self.holder.value or "").strip():
            for other, sheet in enumerate(self._state.sheets):
                for branch, meme in sheet.memes():
                    ref = Ref(other, branch)
                    if other != self._seat and not why_not(self._state, self.action(ref, use_chosen=False)):
                        # (owner, text, holder) is unique: a sheet never holds one meme twice for one holder.
                        found[_("{owner}'s '{words} - {holder}'", owner=names[other], words=meme.text, holder=meme.holder)] = ref
        self._targets = found
        options = [(_("no replacement"), "")] + [(label, label) for label in found]
        self.target.options = options
        self.target.value = chosen if chosen in found else ""
        self._check()

    def default_stake(self) -> Action | None:
        """The stake "and stake" makes after announcing: every stone on the action's hub, as
        many from Think, and a bonus stone from each meme that may join; None if none is legal."""
        announce = self.action()
        if why_not(self._state, announce):
            return None
        after = RULES.play(self._state, announce)
        return default_stake(after, self._seat)

    def _announce_and_stake(self, on_both: Callable[[Action, Action], None] | None) -> None:
        stake = self.default_stake()
        if on_both is not None and stake is not None:
            on_both(self.action(), stake)

    def _check(self) -> None:
        why = why_not(self._state, self.action())
        stake = None if why else self.default_stake()
        self.announce_stake.disabled = stake is None
        if stake is not None:
            total = stake.from_node + stake.from_think + sum(u.bonus + u.stones for u in stake.memes)
            self.announce_stake.description = _("Create and stake {total}", total=total) if self._kind == "create" else _("Spread and stake {total}", total=total)
            self.announce_stake.tooltip = _("Announce, stake {stones}, and open phase 2: the others may connect or defend", stones=stake_words(stake))
        if not (self.text.value or "").strip() or not (self.holder.value or "").strip():
            self.why.value = f'<span class="di-hint">{esc(_("Name the meme and its holder."))}</span>'
        elif why:
            self.why.value = f'<span class="di-no">{esc(why)}</span>'
        else:
            count = len(self._targets)
            extra = " " + _n("{n} meme of this holder could be replaced.", "{n} memes of this holder could be replaced.", count) if count else ""
            self.why.value = f'<span class="di-yes">{esc(_("✔ ready to announce."))}</span><span class="di-hint">{esc(extra)}</span>'
        self.announce.disabled = bool(why)


# -- spending stones ---------------------------------------------------------------------------------


SPEND_CLASSES: dict[str, type[Action]] = {"actor": Stake, "connect": Connect, "defend": Defend}


def default_stake(state: State, seat: int) -> Stake | None:
    """The actor's sensible first stake in phase 1 (`state` just announced): every stone on the
    action's hub, as many from Think as that, and one bonus stone from each meme of the actor's
    that the model lets join. Each part is kept only when the model accepts it; None if no
    stone at all can be staked."""
    a = state.attempt
    if a is None or state.phase != "stake":
        return None
    sheet = state.sheets[seat]
    node = spend_node(a.kind, "actor")
    uses = tuple(Use(b, bonus=1) for b, m in sheet.memes() if m.bonus > 0 and may_involve(state, seat, "actor", b) and not why_not(state, Stake(seat=seat, memes=(Use(b, bonus=1),))))
    from_node = sheet.node(node)
    for stake in (
        Stake(seat=seat, from_node=from_node, from_think=min(sheet.node("think"), from_node), memes=uses),
        Stake(seat=seat, from_node=from_node, memes=uses),
        Stake(seat=seat, from_node=from_node),
        Stake(seat=seat, memes=uses),
    ):
        if stake.from_node + stake.from_think + len(stake.memes) and not why_not(state, stake):
            return stake
    return None


def stake_words(stake: Stake) -> str:
    parts = [_("{count} from the hub", count=stake.from_node)] if stake.from_node else []
    if stake.from_think:
        parts.append(_("{count} from {place}", count=stake.from_think, place=node_name("think")))
    if stake.memes:
        parts.append(_n("{n} bonus stone", "{n} bonus stones", len(stake.memes)))
    return commas(parts)


def spend_node(kind: str, role: str) -> str:
    """The hub a role spends from, as the text names it (labels only; the model checks)."""
    if role == "actor":
        return "create" if kind == "create" else "probe"
    return role


class SpendEditor(widgets.VBox):
    """One seat's stake, Connect or Defend: node, Think and involved memes, with a live pool preview."""

    def __init__(
        self,
        state: State,
        seat: int,
        role: str,
        on_spend: Callable[[Action], None],
        on_preview: Callable[[int | None, str, Action | None], None],
    ) -> None:
        assert state.attempt is not None
        self._state, self._seat, self._role = state, seat, role
        self._cls = SPEND_CLASSES[role]
        self._on_preview = on_preview
        sheet = state.sheets[seat]
        node = spend_node(state.attempt.kind, role)
        self.node = widgets.BoundedIntText(
            value=0,
            min=0,
            max=sheet.node(node),
            disabled=sheet.node(node) == 0,
            description=_("from {node} (has {count})", node=node_name(node), count=sheet.node(node)),
            style=WIDE,
            layout=widgets.Layout(width="220px"),
        ).add_class("pb-stake-node")
        self.think = widgets.BoundedIntText(
            value=0,
            min=0,
            max=sheet.node("think"),
            disabled=sheet.node("think") == 0,
            description=_("from {node} (has {count})", node=node_name("think"), count=sheet.node("think")),
            style=WIDE,
            layout=widgets.Layout(width="220px"),
        ).add_class("pb-stake-think")
        self.bonus: dict[str, widgets.Checkbox] = {}
        self.own: dict[str, widgets.BoundedIntText] = {}
        meme_rows: list[widgets.Widget] = []
        for branch, meme in sheet.memes():
            if not may_involve(state, seat, role, branch):
                continue
            bonus_ok = meme.bonus > 0 and not why_not(state, self._cls(seat=seat, memes=(Use(branch, bonus=1),)))
            own_ok = meme.stones > 0 and not why_not(state, self._cls(seat=seat, memes=(Use(branch, stones=1),)))
            if not (bonus_ok or own_ok):
                continue
            self.bonus[branch] = widgets.Checkbox(
                value=False,
                disabled=not bonus_ok,
                description=_("1 bonus ◆ ({left} left)", left=meme.bonus),
                indent=False,
                layout=widgets.Layout(width="170px"),
            ).add_class(f"pb-stake-{branch}-bonus")
            self.own[branch] = widgets.BoundedIntText(
                value=0,
                min=0,
                max=meme.stones,
                disabled=not own_ok,
                # TRANSLATORS: the meme's own stones to spend (beside "1 bonus"); a very short label.
                description=_("own"),
                layout=widgets.Layout(width="120px"),
                style={"description_width": "36px"},
            ).add_class(f"pb-stake-{branch}")
            label = widgets.HTML(
                f'<span title="{esc(meme.text)} - {esc(meme.holder)}">‘{esc(short(meme.text, 26))}’ - {esc(short(meme.holder, 14))}</span>',
                layout=widgets.Layout(width="300px"),
            )
            meme_rows.append(widgets.HBox((label, self.bonus[branch], self.own[branch]), layout=widgets.Layout(align_items="center")))
        self.why = widgets.HTML().add_class("pb-stake-why")
        # TRANSLATORS: buttons: stake stones on a meme action (the actor), Connect and Defend (the glossary's terms).
        verb = {"actor": _("Stake"), "connect": _("Connect"), "defend": _("Defend")}[role]
        self._verb = verb
        self.confirm = widgets.Button(description=verb, button_style="primary" if role != "defend" else "warning", disabled=True).add_class("pb-stake-confirm")
        self.confirm.on_click(lambda _button: on_spend(self.action()))
        for box in (self.node, self.think, *self.bonus.values(), *self.own.values()):
            box.observe(lambda _change: self._check(), "value")
        hint = _("Think gives up to as many stones as you spend from {node} in this meme action.", node=node_name(node))
        if not meme_rows:
            meme_rows.append(widgets.HTML(f'<span class="di-hint">{esc(_("No meme of yours can be involved in this spend."))}</span>'))
        super().__init__(
            (
                row_of(self.node, self.think),
                widgets.HTML(f'<span class="di-hint">{esc(hint)}</span>'),
                *meme_rows,
                row_of(self.why, self.confirm),
            )
        )
        self.add_class("pb-spend")
        self._check()

    def action(self) -> Action:
        uses = tuple(Use(branch, bonus=int(self.bonus[branch].value), stones=self.own[branch].value) for branch in self.bonus if self.bonus[branch].value or self.own[branch].value)
        return self._cls(seat=self._seat, from_node=self.node.value, from_think=self.think.value, memes=uses)

    def stones(self) -> int:
        return self.node.value + self.think.value + sum(int(b.value) for b in self.bonus.values()) + sum(o.value for o in self.own.values())

    def _check(self) -> None:
        action = self.action()
        count = self.stones()
        if count == 0:
            self.why.value = f'<span class="di-hint">{esc(_("Choose stones to spend."))}</span>'
            self.confirm.disabled = True
            self.confirm.description = self._verb
            self._on_preview(None, "", None)
            return
        why = why_not(self._state, action)
        if why:
            self.why.value = f'<span class="di-no">{esc(why)}</span>'
            self.confirm.disabled = True
            self._on_preview(None, "", None)
            return
        after = RULES.play(self._state, action).attempt.pool
        sign = "−" if self._role == "defend" else "+"
        # TRANSLATORS: a spend's button: "Stake 5 (+5)", "Defend 2 (−4)": the verb, the stones spent and the pool's change.
        self.confirm.description = _("{verb} {count} ({change})", verb=self._verb, count=count, change=f"{sign}{abs(after - self._state.attempt.pool)}")
        self.confirm.disabled = False
        self.why.value = '<span class="di-yes">✔</span>'
        # The spend goes with the pool: the page redraws the preview against the table as it
        # stands after another phone's spend.
        self._on_preview(after, _spend_preview(self._role, self._state.names[self._seat], count), action)


def _spend_preview(role: str, name: str, count: int) -> str:
    """'if Bo stakes with 3 stones': what the pool preview shows."""
    if role == "connect":
        return _n("if {name} connects with {n} stone", "if {name} connects with {n} stones", count, name=name)
    if role == "defend":
        return _n("if {name} defends with {n} stone", "if {name} defends with {n} stones", count, name=name)
    return _n("if {name} stakes with {n} stone", "if {name} stakes with {n} stones", count, name=name)
