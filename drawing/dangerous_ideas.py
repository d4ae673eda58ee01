"""Dangerous Ideas drawn: a player's sheet as its tree of memes (every meme written out in full),
the dice, the chances, the chapter's turn order, the story's characters and the story so far;
and its board by phase: the stones being placed, the meme action with its pool and odds, the
roll against the pool, the winner; the chart of the scores, action by action.

Nothing in Dangerous Ideas is hidden: the board draws `view_for(state, None)`.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from i18n import _, _n, number, render, say
from rules.core import seats_said, winners_said
from rules.dangerous_ideas import ALWAYS_FAILS, BRANCHES, HUBS, LEAF, NODE_NAMES, NODES, Sheet, State, View, branch_said, hub_of, transcript, view_for

from .board import Fact, GameScenes, Scene
from .chart import chart_svg
from .common import card, chip, esc, name, percent, text
from .odds import OddsForm, OddsInput, chance_percent, report_card

__all__ = [
    "LABEL_W",
    "MEME_FONT",
    "MIN_FONT",
    "REROLL_BADGE",
    "SCENES",
    "SHEET_CARD_MIN",
    "SHEET_W",
    "branch_choices",
    "chance_html",
    "chance_text",
    "chapter_card",
    "characters_card",
    "chart",
    "dice_html",
    "die_svg",
    "groups_text",
    "moment",
    "outcome_html",
    "place_label",
    "scene",
    "sheet_legend",
    "sheet_svg",
    "short",
    "story_card",
    "text_width",
    "tree_list",
    "trees_at_a_glance",
    "trees_html",
    "wrap",
]

NODE_COLOURS = {"think": "#ffe7a3", "probe": "#d6e9ff", "create": "#e6dcff", "connect": "#d4f3dd", "defend": "#ffdcdc"}
LEAF_COLOUR = "#3f9b4a"
COIL_COLOUR = "#8a4fb8"
BONUS_COLOUR = "#e0a100"
SEED_COLOUR = "#d32f2f"
ACTIVE_BORDER = "#e65100"
#: the re-rolled die's badge: white text on it passes WCAG AA.
REROLL_BADGE = "#bf360c"
#: Pips of a die face on a 3 x 3 grid (cells 0-8, row by row).
PIPS = {1: (4,), 2: (0, 8), 3: (0, 4, 8), 4: (0, 2, 6, 8), 5: (0, 2, 4, 6, 8), 6: (0, 2, 3, 5, 6, 8)}

# The sheet drawing, in SVG user units. The drawing is SHEET_W wide and as tall as its labels
# need; it scales to its card's width, and a sheet card is at least SHEET_W wide on a screen
# that has room (on a phone it shrinks to the phone's width), so a user unit is at least a CSS
# pixel on a projector and every label is at least MIN_FONT px there.
SHEET_W = 520
MIN_FONT = 14
MEME_FONT, HOLDER_FONT, NODE_FONT, COUNT_FONT, BADGE_FONT = 15, 14, 14, 17, 14
CENTRE_X = SHEET_W // 2
LEFT_HUBS = ("probe", "defend")
TOP_HUBS = ("probe", "create")
#: per side: the hub's x, where a branch ends (its leaf or coil), its stone count, its label
#: (right-aligned on the left side, left-aligned on the right).
HUB_X = {"left": CENTRE_X - 58, "right": CENTRE_X + 58}
BRANCH_END_X = {"left": CENTRE_X - 100, "right": CENTRE_X + 100}
COUNT_X = {"left": CENTRE_X - 116, "right": CENTRE_X + 116}
LABEL_X = {"left": CENTRE_X - 130, "right": CENTRE_X + 130}
#: how wide a label line may be (from LABEL_X to the drawing's edge, less a margin).
LABEL_W = CENTRE_X - 130 - 8
#: a sheet card's least width where the page has room: the drawing at 1 CSS px per unit or more.
SHEET_CARD_MIN = SHEET_W + 26
HUB_BOX, THINK_BOX = (64, 42), (70, 46)
LINE_GAP = 3  # between label lines
#: the drawing's fonts: Arial's metrics (Liberation Sans and Arimo share them), so lines wrap as planned.
SHEET_FONTS = "Arial, 'Liberation Sans', Arimo, Helvetica, sans-serif"
BRANCH_MIN_H = 40  # a branch's room when its label is short (or it is empty)
GROUP_GAP = 26  # between a side's two hubs' branches: Think sits there
TOP_ROOM, BOTTOM_ROOM = 30, 26  # the seeds above, the crossed-off line below
#: characters per shortened meme in the controls (the sheets show every meme in full).
LABEL_CHARS = 15


# -- chances, labels and dice ------------------------------------------------------------------------


def chance_text(chance: Fraction) -> str:
    """'42% (15/36)': rounded for the room, exact for the curious."""
    exact = f" ({chance.numerator}/{chance.denominator})" if 0 < chance < 1 else ""
    return f"{percent(chance)}{exact}"


def chance_html(chance: Fraction, big: bool = True) -> str:
    """The percentage (large) with the exact fraction beside it (small)."""
    exact = f' <span class="di-hint">{chance.numerator}/{chance.denominator}</span>' if 0 < chance < 1 else ""
    return f'<span class="{"di-big" if big else ""}" data-chance="{chance}">{percent(chance)}</span>{exact}'


def short(text: str, limit: int = LABEL_CHARS) -> str:
    """`text` cut to `limit` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def node_name(node: str) -> str:
    """'Think': a node of the sheet by its name in the page's language."""
    return render(NODE_NAMES[node])


def commas(parts: Sequence[str]) -> str:
    """Parts said one after another, "2 unique, a group of 3", in the page's language."""
    joined = parts[0] if parts else ""
    for part in parts[1:]:
        # TRANSLATORS: two parts of a list in a log line ("2 on Think, 1 on Probe"); keep the order.
        joined = _("{first}, {then}", first=joined, then=part)
    return joined


def place_label(sheet: Sheet, place: str) -> str:
    """'Think' for a node, "'Bears are… - Goldilocks'" for a filled branch: the players' words,
    never the model's branch names."""
    if place in NODES:
        return node_name(place)
    meme = sheet.meme(place)
    return f"'{short(meme.text, 18)} - {short(meme.holder, 14)}'" if meme else _("an empty branch by {hub}", hub=node_name(hub_of(place)))


def branch_choices(layout: Sequence[str], branches: Sequence[str], sheet: Sheet | None = None) -> list[tuple[str, str]]:
    """Empty branches as a Dropdown's options: one per type and hub ("A leaf branch by Probe"),
    since two empty branches of one type by one hub are the same choice; with `sheet`, how many
    stones its hub holds (they may move onto a new meme)."""
    seen: dict[str, str] = {}
    for b in branches:
        hub = node_name(hub_of(b))
        label = _("A leaf branch by {hub}", hub=hub) if layout[BRANCHES.index(b)] == LEAF else _("A coiled branch by {hub}", hub=hub)
        if sheet is not None:
            # TRANSLATORS: an empty branch to write a new meme on, and the stones its hub holds: "A leaf branch by Probe (Probe holds 2 stones)".
            label = _n("{branch} ({hub} holds {n} stone)", "{branch} ({hub} holds {n} stones)", sheet.node(hub_of(b)), branch=label, hub=hub)
        seen.setdefault(label, b)
    return list(seen.items())


def die_svg(value: int, size: int = 54, mark: bool = False) -> str:
    """A die face with pips; `mark` rings a re-rolled die (a thick dashed ring and a ↻ corner
    badge, and 're-rolled' in its label: not told by colour alone)."""
    cell = size / 4
    pips = "".join(f'<circle cx="{cell * (1 + i % 3):.1f}" cy="{cell * (1 + i // 3):.1f}" r="{size / 11:.1f}" fill="#111"/>' for i in PIPS.get(value, ()))
    said = _("die showing {value}, re-rolled with a red seed", value=value) if mark else _("die showing {value}", value=value)
    stroke = ACTIVE_BORDER if mark else "#333"
    ring = ' stroke-dasharray="7 3"' if mark else ""
    badge = f'<circle cx="{size - 9}" cy="9" r="8" fill="{REROLL_BADGE}"/><text x="{size - 9}" y="13.5" text-anchor="middle" font-size="13" font-weight="700" fill="#fff">↻</text>' if mark else ""
    return (
        f'<svg class="di-die" width="{size}" height="{size}" viewBox="0 0 {size} {size}" role="img" aria-label="{said}" data-die="{value}">'
        f"<title>{said}</title>"
        f'<rect x="2" y="2" width="{size - 4}" height="{size - 4}" rx="{size / 7:.1f}" fill="#fff" stroke="{stroke}" stroke-width="{4 if mark else 2}"{ring}/>'
        f"{pips}{badge}</svg>"
    )


def dice_html(dice: Sequence[int], first: Sequence[int] = ()) -> str:
    """Two die faces and their total in words; dice that a seed changed are ringed and said so."""
    marks = [bool(first) and v != f for v, f in zip(dice, first or dice)]
    faces = "".join(die_svg(v, mark=m) for v, m in zip(dice, marks))
    words = " + ".join(_("{value} (re-rolled)", value=v) if m else str(v) for v, m in zip(dice, marks))
    return f'<span style="display:inline-flex;gap:8px;vertical-align:middle">{faces}</span> <span class="di-hint di-dice-text">{esc(words)}</span>'


# -- a sheet: its tree of memes ----------------------------------------------------------------------


def _leaf(x: float, y: float, side: str) -> str:
    angle = -30 if side == "right" else 30
    return f'<ellipse cx="{x:.0f}" cy="{y:.0f}" rx="9" ry="4.5" transform="rotate({angle} {x:.0f} {y:.0f})" fill="{LEAF_COLOUR}" stroke="#1f5d27" stroke-width="1"/>'


def _coil(x: float, y: float) -> str:
    return f'<path d="M {x:.0f} {y:.0f} m -7 0 a 7 7 0 1 1 7 7 a 4.5 4.5 0 1 1 -4.5 -4.5 a 2 2 0 1 1 2 2" fill="none" stroke="{COIL_COLOUR}" stroke-width="2"/>'


def char_em(ch: str) -> float:
    """A generous guess at a character's advance in em (the drawing's Arial-like sans, semi-bold)."""
    code = ord(ch)
    if 0xFE00 <= code <= 0xFE0F or 0x200B <= code <= 0x200F or code == 0x20E3 or 0x0300 <= code <= 0x036F:
        return 0.0  # variation selectors, joiners, combining marks
    if (
        0x1100 <= code <= 0x115F
        or 0x2600 <= code <= 0x27BF
        or 0x2E80 <= code <= 0xA4CF
        or 0xAC00 <= code <= 0xD7A3
        or 0xF900 <= code <= 0xFAFF
        or 0xFE30 <= code <= 0xFE4F
        or 0xFF00 <= code <= 0xFF60
        or code >= 0x1F000
    ):
        return 1.1  # CJK, fullwidth forms, emoji and pictographs
    if ch.isspace():
        return 0.3
    if ch in "iljtfrI.,:;'!|()[]`":
        return 0.36
    if ch in "mwMW@%":
        return 0.92
    if ch.isupper() or not ch.isalnum():
        return 0.74
    return 0.6


def text_width(text: str, size: float) -> float:
    """Estimated width of `text` at font size `size` (user units); meant to err wide."""
    return size * sum(char_em(ch) for ch in text)


def wrap(text: str, width: float, size: float) -> list[str]:
    """`text` in as many lines as it needs, each at most `width` wide at `size`; nothing is dropped.

    Words go whole onto a line when they fit; a word wider than a line is split across lines.
    """
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if text_width(trial, size) <= width:
            line = trial
            continue
        if line:
            lines.append(line)
            line = ""
        while text_width(word, size) > width:
            cut = 1
            while cut < len(word) and text_width(word[: cut + 1], size) <= width:
                cut += 1
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    if line:
        lines.append(line)
    return lines


@dataclasses.dataclass(frozen=True)
class _Label:
    """A filled branch's label: the meme's lines and the holder's lines."""

    meme: tuple[str, ...]
    holder: tuple[str, ...]

    @property
    def height(self) -> float:
        return (MEME_FONT + LINE_GAP) * len(self.meme) + (HOLDER_FONT + LINE_GAP) * len(self.holder)


def _label_of(sheet: Sheet, branch: str) -> _Label | None:
    meme = sheet.meme(branch)
    if meme is None:
        return None
    return _Label(tuple(wrap(meme.text, LABEL_W, MEME_FONT)), tuple(wrap(meme.holder, LABEL_W, HOLDER_FONT)))


def _branch_h(label: _Label | None) -> float:
    return max(BRANCH_MIN_H, (label.height + 8) if label else 0)


def _layout(sheet: Sheet) -> tuple[dict[str, float], dict[str, float], float, float]:
    """Where everything goes down the drawing: (branch y, hub y, Think y, the drawing's height).

    Each side stacks its two hubs' branches, each as tall as its label; both sides' top hubs
    end, and bottom hubs start, at the same height, where Think sits between them.
    """
    labels = {b: _label_of(sheet, b) for b in BRANCHES}
    groups = {hub: [b for b in BRANCHES if b.startswith(hub + "-")] for hub in HUBS}
    heights = {hub: sum(_branch_h(labels[b]) for b in groups[hub]) for hub in HUBS}
    top = max(heights[h] for h in TOP_HUBS)
    think_y = TOP_ROOM + top + GROUP_GAP / 2
    branch_y: dict[str, float] = {}
    hub_y: dict[str, float] = {}
    for hub in HUBS:
        y = think_y - GROUP_GAP / 2 - heights[hub] if hub in TOP_HUBS else think_y + GROUP_GAP / 2
        ys = []
        for b in groups[hub]:
            h = _branch_h(labels[b])
            branch_y[b] = y + h / 2
            ys.append(y + h / 2)
            y += h
        hub_y[hub] = sum(ys) / len(ys)
    bottom = max(heights[h] for h in HUBS if h not in TOP_HUBS)
    return branch_y, hub_y, think_y, think_y + GROUP_GAP / 2 + bottom + BOTTOM_ROOM


def _node(name: str, x: float, y: float, box: tuple[int, int], stones: int) -> str:
    w, h = box
    return (
        f'<g class="di-node"><title>{esc(_n("{node}: {n} stone", "{node}: {n} stones", stones, node=node_name(name)))}</title>'
        f'<rect x="{x - w / 2:.0f}" y="{y - h / 2:.0f}" width="{w}" height="{h}" rx="{h / 2.4:.0f}" '
        f'fill="{NODE_COLOURS[name]}" stroke="#555" stroke-width="1.5"/>'
        f'<text x="{x:.0f}" y="{y - 4:.0f}" text-anchor="middle" font-size="{NODE_FONT}" fill="#222">{esc(node_name(name))}</text>'
        f'<text x="{x:.0f}" y="{y + COUNT_FONT - 1:.0f}" text-anchor="middle" font-size="{COUNT_FONT}" font-weight="700" fill="#111">{stones}</text>'
        "</g>"
    )


def _label(x: float, y: float, anchor: str, label: _Label) -> str:
    """The meme's lines (semi-bold) and its holder's (italic), centred on the branch's `y`."""
    top = y - label.height / 2
    parts = []
    for line in label.meme:
        top += MEME_FONT
        parts.append(f'<text x="{x}" y="{top:.1f}" text-anchor="{anchor}" font-size="{MEME_FONT}" font-weight="600" fill="#111">{esc(line)}</text>')
        top += LINE_GAP
    for line in label.holder:
        top += HOLDER_FONT
        parts.append(f'<text x="{x}" y="{top:.1f}" text-anchor="{anchor}" font-size="{HOLDER_FONT}" font-style="italic" fill="#3d4250">{esc(line)}</text>')
        top += LINE_GAP
    return "".join(parts)


def sheet_legend() -> str:
    """What the marks on a sheet mean: each mark in its own colour, its words in the text's (a
    branch's green or purple as words fell under 4.5:1 on a light or a dark page); own stones
    are drawn in the text's colour, dark on light and light on dark."""
    branches = _(
        "{leaf} leaf / {coiled} coiled branches (dashed: empty)",
        leaf=f'<b style="color:{LEAF_COLOUR}">━</b>',
        coiled=f'<b style="color:{COIL_COLOUR}">━</b>',
    )
    return (
        '<span class="di-hint">'
        f'<b>●</b> {esc(_("own stones"))} &nbsp; <b style="color:{BONUS_COLOUR}">◆</b> {esc(_("bonus stones"))} &nbsp; '
        f'<b style="color:{SEED_COLOUR}">●</b> {esc(_("red seeds"))} &nbsp; {branches}</span>'
    )


def sheet_svg(state: State, seat: int) -> str:
    """One player's sheet as its tree: Think, four hubs, twelve branches, stones, bonus, seeds.

    Every meme is written out in full, over as many lines as it needs; hovering a branch shows
    it again (its `<title>`), with its holder and stones.
    """
    sheet = state.sheets[seat]
    branch_y, hub_y, think_y, height = _layout(sheet)
    whose = esc(_("{name}'s sheet", name=sheet.name))
    parts = [
        (
            f'<svg viewBox="0 0 {SHEET_W} {height:.0f}" width="100%" xmlns="http://www.w3.org/2000/svg" role="img" '
            f'aria-label="{whose}" font-family="{SHEET_FONTS}" style="max-width:100%;height:auto;overflow:visible">'
            f"<title>{whose}</title>"
        )
    ]
    tx = CENTRE_X
    for hub in HUBS:
        hx = HUB_X["left" if hub in LEFT_HUBS else "right"]
        parts.append(f'<line x1="{tx}" y1="{think_y:.0f}" x2="{hx}" y2="{hub_y[hub]:.0f}" stroke="#777" stroke-width="3"/>')
    for branch in BRANCHES:
        hub = branch.split("-")[0]
        side = "left" if hub in LEFT_HUBS else "right"
        hx, hy = HUB_X[side], hub_y[hub]
        y = branch_y[branch]
        x = BRANCH_END_X[side]
        meme = sheet.meme(branch)
        kind = state.setup.branch_type(branch)
        dash = "" if meme else ' stroke-dasharray="4 3"'
        parts.append(f'<line x1="{hx}" y1="{hy:.0f}" x2="{x}" y2="{y:.0f}" stroke="{"#555" if meme else "#b5b9c4"}" stroke-width="2"{dash}/>')
        mark = _leaf(x, y, side) if kind == "leaf" else _coil(x, y)
        if meme is None:
            parts.append(f'<g opacity="0.45"><title>{esc(_("{branch}, empty", branch=render(branch_said(state.setup.layout, branch))))}</title>{mark}</g>')
            continue
        cx = COUNT_X[side]
        values = {"words": meme.text, "holder": meme.holder, "bonus": meme.bonus}
        if kind == LEAF:
            said = _n("{words} - {holder} (leaf, {n} stone, {bonus} bonus)", "{words} - {holder} (leaf, {n} stones, {bonus} bonus)", meme.stones, **values)
        else:
            said = _n("{words} - {holder} (coiled, {n} stone, {bonus} bonus)", "{words} - {holder} (coiled, {n} stones, {bonus} bonus)", meme.stones, **values)
        parts.append(
            f'<g class="di-branch" data-branch="{branch}"><title>{esc(said)}</title>{mark}'
            f'<circle cx="{cx}" cy="{y:.0f}" r="10" fill="#222"/>'
            f'<text x="{cx}" y="{y + 5:.0f}" text-anchor="middle" font-size="{BADGE_FONT}" font-weight="700" fill="#fff">{meme.stones}</text>'
        )
        for i in range(meme.bonus):
            bx, by = cx - 6 + 12 * i if meme.bonus > 1 else cx, y + 18
            parts.append(f'<path d="M {bx} {by - 5} l 5 5 l -5 5 l -5 -5 z" fill="{BONUS_COLOUR}" stroke="#7a5800" stroke-width=".8"/>')
        label = _label_of(sheet, branch)
        assert label is not None  # the branch holds a meme
        parts.append(_label(LABEL_X[side], y, "end" if side == "left" else "start", label) + "</g>")
    for hub in HUBS:
        parts.append(_node(hub, HUB_X["left" if hub in LEFT_HUBS else "right"], hub_y[hub], HUB_BOX, sheet.node(hub)))
    parts.append(_node("think", tx, think_y, THINK_BOX, sheet.node("think")))
    total = max(state.setup.seeds, sheet.seeds)
    shown = min(total, 12)
    for i in range(shown):
        x = tx - 9 * (shown - 1) + 18 * i
        left = i < sheet.seeds
        parts.append(
            f'<circle cx="{x}" cy="14" r="7" fill="{SEED_COLOUR if left else "none"}" '
            f'stroke="{SEED_COLOUR if left else "#888"}" stroke-width="1.5"><title>{esc(_("red seed") if left else _("seed spent"))}</title></circle>'
        )
    if sheet.crossed:
        parts.append(f'<text x="{tx}" y="{height - 7:.0f}" text-anchor="middle" font-size="{MIN_FONT}" fill="#9b1c1c">{esc(_n("✗ {n} crossed off", "✗ {n} crossed off", len(sheet.crossed)))}</text>')
    parts.append("</svg>")
    return "".join(parts)


# -- the table's cards, in the order of a chapter ----------------------------------------------------


def chapter_card(state: State, story_name: str = "") -> str:
    """The chapter (or the setup) and its turn order: who plays now, who has played, who starts."""
    names = state.names
    if state.chapter < 0:
        what = _("Setup: everyone places starting stones") if state.phase == "place" else _("The setting round: each player writes one leaf and one coiled meme")
        order: Sequence[int] = range(state.n)
        current = set(state.waiting_for())
        done_upto = -1
        title = ""
    else:
        what = _("Chapter {chapter} of {count}", chapter=state.chapter + 1, count=state.setup.chapter_count)
        order = state.chapter_order()
        current = {state.turn} if state.turn is not None else set(state.waiting_for()[:1])
        done_upto = state.turns_done
        title = f"“{esc(state.title)}”" if state.title else f'<span class="pb-muted">{esc(_("(the title is still to come)"))}</span>'
    chips = []
    for i, seat in enumerate(order):
        done = state.chapter >= 0 and i < done_upto
        now = seat in current and state.phase != "over"
        mark = ("▶ " if now else "") + ("✔ " if done else "") + names[seat] + (" ★" if seat == state.starter else "")
        background = "#ffcc80" if now else ("#dfe3ea" if done else "#f1f3f7")
        html = chip(mark, background)
        chips.append(html.replace('class="pb-chip"', 'class="pb-chip di-now"') if now else html)
    story = f' <span class="pb-muted">· {_("retelling {story}", story=esc(story_name))}</span>' if story_name else ""
    body = f'<div style="font-size:1.25em;font-weight:700">{esc(what)} {title}{story}</div><div class="di-order">{_("Turn order: {names}", names=" ".join(chips))}</div>'
    if state.chapter >= 0:
        body += f'<div class="di-hint">{esc(_("★ starts the chapter, announces its title and plays last."))}</div>'
    return card("", body)


def outcome_html(state: State, from_hub: int) -> str:
    """The last meme action's outcome; `from_hub`: the stones its actor moved onto the new meme."""
    if not state.outcomes:
        return ""
    o = state.outcomes[-1]
    names = state.names
    values = {"name": names[o.actor], "words": o.text, "holder": o.holder}
    head = _("{name} tried to create ‘{words}’, held by {holder}", **values) if o.kind == "create" else _("{name} tried to spread ‘{words}’ to {holder}", **values)
    pools = " → ".join(str(p) for p in o.pools)
    lines = [_("Pool {pools}; dice {first} + {second} = {total} against a pool of {pool}.", pools=pools, first=o.dice[0], second=o.dice[1], total=sum(o.dice), pool=o.pool)]
    if o.success:
        hub = node_name(hub_of(o.branch or ""))
        branch = render(branch_said(state.setup.layout, o.branch or ""))
        if from_hub:
            lines.append(
                _n(
                    "Written on {branch} with 1 new stone and 2 bonus stones, with {n} stone moved onto it from {hub}.",
                    "Written on {branch} with 1 new stone and 2 bonus stones, with {n} stones moved onto it from {hub}.",
                    from_hub,
                    branch=branch,
                    hub=hub,
                )
            )
        else:
            lines.append(_("Written on {branch} with 1 new stone and 2 bonus stones.", branch=branch))
        if o.target is not None:
            crossed = [c for c in state.sheets[o.target.seat].crossed if c.by == o.actor and c.branch == o.target.branch]
            if crossed:
                lines.append(_("{owner}'s ‘{words}’ is crossed off; its stones went to {hub}.", owner=names[o.target.seat], words=crossed[-1].text, hub=node_name(hub_of(o.target.branch))))
        if o.connected:
            lines.append(_("{names} connected: +2 stones on Think each.", names=seats_said(names, o.connected)))
    else:
        lines.append(_("Nothing is written; the spent stones are gone."))
    mark = esc(_("✔ Success:") if o.success else _("✘ Failed:"))
    tone = "good" if o.success else "bad"
    body = "".join(f"<div>{esc(line)}</div>" for line in lines)
    return f'<div style="border-top:1px solid #dde1ea;margin-top:6px;padding-top:4px"><b class="pb-tone-{tone}">{mark}</b> {esc(head)}{body}</div>'


def groups_text(sheet: Sheet) -> str:
    """A sheet's memes by group: '2 unique, a group of 3'."""
    counts: dict[str, int] = {}
    for _branch, meme in sheet.memes():
        counts[meme.key] = counts.get(meme.key, 0) + 1
    sizes = sorted(counts.values(), reverse=True)
    unique = sum(1 for k in sizes if k == 1)
    groups = [k for k in sizes if k > 1]
    parts = ([_n("{n} unique", "{n} unique", unique)] if unique else []) + [_("a group of {count}", count=k) for k in groups]
    return commas(parts) or _("none")


def characters_card(state: State) -> str:
    """The story's characters, each with the memes they hold (and whose sheet holds each)."""
    holders: dict[str, tuple[str, list[str]]] = {}
    for sheet in state.sheets:
        for _branch, meme in sheet.memes():
            _holder, memes = holders.setdefault(meme.holder_key, (meme.holder, []))
            memes.append(f'‘{esc(meme.text)}’ <span class="pb-muted">({esc(sheet.name)})</span>')
    if not holders:
        return card(_("The story's characters"), f'<span class="pb-muted">{esc(_("No one holds a meme yet."))}</span>')
    rows = "".join(f"<tr><td><b>{esc(name)}</b></td><td>{'<br>'.join(memes)}</td></tr>" for name, memes in sorted(holders.values(), key=lambda item: (-len(item[1]), item[0].casefold())))
    heads = f"<tr><th>{esc(_('Character'))}</th><th>{esc(_('Memes held'))}</th></tr>"
    return card(_("The story's characters"), f'<table class="pb-table">{heads}{rows}</table>')


def story_card(state: State) -> str:
    """The transcript, chapter by chapter; earlier chapters fold away, the latest stays open."""
    passages = transcript(state, render)
    parts = []
    for i, passage in enumerate(passages):
        lines = "".join(f"<p>{esc(line)}</p>" for line in passage.lines) or '<p class="pb-muted">…</p>'
        opened = " open" if i == len(passages) - 1 else ""
        parts.append(f'<details class="di-passage"{opened}><summary><b>{esc(passage.heading)}</b></summary>{lines}</details>')
    return card(_("The story so far"), "".join(parts))


# -- the board by phase ------------------------------------------------------------------------------


def tree_list(state: State, seat: int) -> str:
    """One player's sheet as a list in the page's own type (a phone's 16 px, the board's 20 px),
    where the drawn tree's lettering would be scaled below reading size: Think, then each hub
    with its stones and its memes (own stones, bonus stones), the empty branches counted."""
    sheet = state.sheets[seat]
    rows = [f'<div class="di-node" style="background:{NODE_COLOURS["think"]}"><b>{esc(node_name("think"))}</b> {esc(_stones(sheet.node("think")))}</div>']
    for hub in HUBS:
        memes: list[str] = []
        empty: Counter[str] = Counter()
        for branch in BRANCHES:
            if not branch.startswith(hub + "-"):
                continue
            meme = sheet.meme(branch)
            kind = state.setup.branch_type(branch)
            if meme is None:
                empty[kind] += 1
                continue
            colour = LEAF_COLOUR if kind == "leaf" else COIL_COLOUR
            extra = f" · {_('{marks} bonus', marks='◆' * meme.bonus)}" if meme.bonus else ""
            held = _("‘{words}’ held by {holder}", words=esc(meme.text), holder=esc(meme.holder))
            memes.append(f'<li style="border-left:5px solid {colour};padding-left:6px;list-style:none">{held} <span class="di-count">· {esc(_stones(meme.stones))}{extra}</span></li>')
        if empty:
            if empty["leaf"] and empty["coiled"]:
                words = _("{leaf} leaf and {coiled} coiled empty", leaf=empty["leaf"], coiled=empty["coiled"])
            elif empty["leaf"]:
                words = _("{leaf} leaf empty", leaf=empty["leaf"])
            else:
                words = _("{coiled} coiled empty", coiled=empty["coiled"])
            memes.append(f'<li class="di-empty pb-muted" style="list-style:none">{esc(words)}</li>')
        rows.append(
            f'<div class="di-node" style="background:{NODE_COLOURS[hub]}"><b>{esc(node_name(hub))}</b> {esc(_stones(sheet.node(hub)))}</div>'
            f'<ul style="margin:2px 0 6px;padding-left:8px">{"".join(memes)}</ul>'
        )
    seeds = f'<div class="di-seeds">{esc(_n("{n} red seed", "{n} red seeds", sheet.seeds))}</div>'
    return f'<div class="di-tree-list">{"".join(rows)}{seeds}</div>'


def _stones(n: int) -> str:
    return _n("{n} stone", "{n} stones", n)


def _tree_grid(state: State, label: Callable[[int, Any], str], body: Callable[[int], str], column: str) -> str:
    """Every player's sheet in a box of a grid: `label(seat, sheet)` (HTML) above `body(seat)`."""
    cells = "".join(
        f'<div class="pb-tree" style="border:2px solid #c9cedb;border-radius:12px;padding:4px 10px;background:#fff"><div class="pb-label">{label(seat, sheet)}</div>{body(seat)}</div>'
        for seat, sheet in enumerate(state.sheets)
    )
    return f'<div class="pb-trees" style="display:grid;grid-template-columns:repeat(auto-fill,minmax({column},1fr));gap:12px;margin-top:10px">{cells}</div>'


def trees_at_a_glance(state: State) -> str:
    """Every player's sheet side by side as a list (`tree_list`), for the board: read from the
    back of the room, where the drawn trees' lettering would be too small."""
    scores = view_for(state, None).scores
    return _tree_grid(state, lambda seat, sheet: f"{name(sheet.name)} · {esc(_n('{n} point', '{n} points', scores[seat]))}", lambda seat: tree_list(state, seat), "min(100%,440px)")


def trees_html(state: State) -> str:
    """Every player's sheet, as the table's page draws it: the story told so far, tree by tree
    (the board's trees at a glance, the results, a chapter's start)."""
    return _tree_grid(state, lambda seat, sheet: name(sheet.name), lambda seat: sheet_svg(state, seat), "520px")


def _chapter(view: View) -> str:
    return _("Chapter {chapter} of {count}", chapter=view.chapter, count=view.chapters) if view.chapter >= 1 else _("Setting up")


def scene(state: State, final: State | None = None) -> Scene:
    view = view_for(state, None)
    names = [s.name for s in view.sheets]
    heading = _chapter(view) + (f" · “{view.title}”" if view.title else "")
    leader = max(view.scores, default=0)
    facts_common = (Fact(_("Chapter"), _("{chapter} of {count}", chapter=max(view.chapter, 0), count=view.chapters)), Fact(_("Top score"), str(leader)))
    if view.phase == "over":
        return _results(state, view)
    if view.phase in ("place", "setting"):
        done = sum(1 for s in view.sheets if s.placed) if view.phase == "place" else sum(len(s.memes()) for s in view.sheets)
        goal = len(names) if view.phase == "place" else 2 * len(names)
        what = _n("sheets with their {n} stone placed", "sheets with their {n} stones placed", state.setup.start_stones) if view.phase == "place" else _("first memes written")
        ready = _("{done} of {goal}", done=done, goal=goal)
        waiting = _("Waiting for {names}", names=", ".join(names[s] for s in view.waiting_for))
        centre = f'<div class="pb-label">{esc(_("Setting up the story"))}</div><div class="pb-huge">{esc(ready)}</div><div class="pb-line">{esc(what)}</div>' + (
            f'<div class="pb-label">{text(waiting)}</div>' if view.waiting_for else ""
        )
        return Scene("waiting", heading, centre, (Fact(_("Ready"), ready, "pb-setup-count"), *facts_common), view.log)
    a = view.attempt
    if a is not None and view.phase in ("stake", "respond"):
        sides = [_("{name} connects", name=names[s]) if side == "connect" else _("{name} defends", name=names[s]) for s, side in enumerate(a.sides) if side and side != "actor"]
        victim = state.sheets[a.target.seat].meme(a.target.branch) if a.target is not None else None
        values = {"name": name(names[a.actor])}
        if a.target is not None and victim is not None:
            values.update(owner=name(names[a.target.seat]), words=text(victim.text))
            action = (
                _("The meme action: {name} tries to create, replacing {owner}'s “{words}”", **values)
                if a.kind == "create"
                else _("The meme action: {name} tries to spread, replacing {owner}'s “{words}”", **values)
            )
        else:
            action = _("The meme action: {name} tries to create", **values) if a.kind == "create" else _("The meme action: {name} tries to spread", **values)
        roll = (
            _("Roll 2d6 at most {pool} (11 or 12 always fails): {chance} to succeed", pool=a.pool, chance=percent(view.odds))
            if view.odds is not None
            else _("Roll 2d6 at most {pool} (11 or 12 always fails)", pool=a.pool)
        )
        centre = (
            f'<div class="pb-label">{action}</div>'
            f'<div class="pb-line">{_("“{words}” held by {holder}", words=text(a.text), holder=name(a.holder))}</div>'
            f'<div class="pb-huge pb-meme-pool">{esc(_("Pool {pool}", pool=a.pool))}</div>'
            f'<div class="pb-line">{esc(roll)}</div>' + (f'<div class="pb-label">{esc(", ".join(sides))}</div>' if sides else "")
        )
        facts = (Fact(_("Pool"), str(a.pool), "pb-pool-big"), Fact(_("Odds"), percent(view.odds) if view.odds is not None else "—", "pb-odds-big"), *facts_common)
        return Scene("decision", heading, centre, facts, view.log)
    if a is not None and a.dice:
        total = sum(a.dice)
        verdict = "" if a.success is None else (_("Success!") if a.success else _("It fails."))
        against = _("against the pool of {pool} · 11 or 12 always fails", pool=a.pool) if total >= ALWAYS_FAILS else _("against the pool of {pool}", pool=a.pool)
        centre = (
            f'<div class="pb-label">{_("{name}: “{words}” held by {holder}", name=name(names[a.actor]), words=text(a.text), holder=name(a.holder))}</div>'
            f'<div class="pb-huge pb-roll">{" + ".join(str(d) for d in a.dice)} = {total}</div>'
            f'<div class="pb-line">{esc(against)}</div>'
            + (f'<div class="pb-huge pb-tone-{"good" if a.success else "bad"}">{esc(verdict)}</div>' if verdict else f'<div class="pb-line">{esc(_("Seeds may still re-roll a die."))}</div>')
        )
        facts = (Fact(_("Roll"), str(total), "pb-roll-total"), Fact(_("Pool"), str(a.pool)), *facts_common)
        return Scene("reveal", heading, centre, facts, view.log)
    # Before a chapter's first turn its starter names it: theirs is the move the room waits on.
    mover = view.starter if view.phase == "title" else view.turn
    turn = names[mover] if mover is not None else ""
    last = state.outcomes[-1] if state.outcomes else None
    recent = ""
    if last:
        values = {"name": names[last.actor], "words": last.text, "dice": " + ".join(map(str, last.dice)), "pool": last.pool}
        said = (
            _("Last meme action: {name}, “{words}”: succeeded ({dice} against {pool})", **values)
            if last.success
            else _("Last meme action: {name}, “{words}”: failed ({dice} against {pool})", **values)
        )
        recent = f'<div class="pb-label">{esc(said)}</div>'
    left = _n("{n} action left this turn", "{n} actions left this turn", view.actions_left)
    centre = (
        (f'<div class="pb-label">{esc(_("Whose turn"))}</div><div class="pb-huge pb-turn-big">{esc(turn)}</div>' if turn else "")
        + (f'<div class="pb-line">{esc(left)}</div>' if view.phase == "turn" else "")
        + (f'<div class="pb-line">{esc(_("{name} names the chapter.", name=turn))}</div>' if view.phase == "title" else "")
        + recent
        + (trees_html(state) if view.phase == "title" else "")  # a chapter ends: the trees as they stand
    )
    return Scene("decision", heading, centre, (Fact(_("Turn"), turn or "—"), *facts_common), view.log)


def _results(state: State, view: View) -> Scene:
    names = [s.name for s in view.sheets]
    winners = [s for rank, s, _ in view.standings if rank == 1]
    rows = "".join(f"<tr><td>{rank}</td><td>{name(names[s])}</td><td>{esc(_n('{n} point', '{n} points', score))}</td></tr>" for rank, s, score in view.standings)
    centre = f'<table class="pb-standings-big pb-results-standings">{rows}</table>'
    winner = render(winners_said(names, winners))
    return Scene("results", _("the end"), centre, (Fact(_("Chapters"), str(view.chapters)),), view.log, winner, tuple(story(state)), trees_html(state))


def story(state: State) -> list[str]:
    """The game in five lines: the chapters, the actions, the meme that spread the most."""
    view = view_for(state, None)
    names = [s.name for s in view.sheets]
    outcomes = state.outcomes
    won = sum(1 for o in outcomes if o.success)
    counts: dict[str, tuple[int, str]] = {}
    for sheet in view.sheets:
        for _branch, meme in sheet.memes():
            key = " ".join(meme.text.split()).lower()
            n, text = counts.get(key, (0, meme.text))
            counts[key] = (n + 1, text)
    spread = max(counts.values(), default=None)
    best = view.standings[0] if view.standings else None
    titles = [t for t in state.titles if t]
    told = "; ".join(f"“{t}”" for t in titles[:4]) + ("…" if len(titles) > 4 else "")
    return [
        _n("{n} chapter: {titles}", "{n} chapters: {titles}", len(titles), titles=told) if titles else _("No chapter was told."),
        _n("{n} meme action: {won} succeeded, {failed} failed.", "{n} meme actions: {won} succeeded, {failed} failed.", len(outcomes), won=won, failed=len(outcomes) - won),
        _n("The meme that spread the most: “{words}” on {n} branch.", "The meme that spread the most: “{words}” on {n} branches.", spread[0], words=spread[1])
        if spread and spread[0] > 1
        else _("No meme spread beyond its first branch."),
        _("The top score: {score} ({name}).", score=best[2], name=names[best[1]]) if best else _("No scores."),
        _("The end: {why}.", why=render(view.ending) if view.ending is not None else view.ended),
    ]


def moment(before: State, state: State) -> tuple[str, int] | None:
    if len(state.outcomes) > len(before.outcomes):
        o = state.outcomes[-1]
        values = {"chapter": o.chapter, "name": state.names[o.actor]}
        return (_("Chapter {chapter}: {name}'s create", **values) if o.kind == "create" else _("Chapter {chapter}: {name}'s spread", **values)), o.chapter
    if state.chapter != before.chapter and before.chapter >= 0:
        return _("Chapter {chapter} ends", chapter=before.chapter + 1), before.chapter + 1
    return None


def round_of(state: State) -> int:
    return max(state.chapter + 1, 0)


def chart(states: Sequence[Any], final: Any = None) -> str:
    """Each player's score after each meme action."""
    points = [s for s in states if s.outcomes] or list(states[-1:])
    if not points or not points[-1].outcomes:
        return ""
    names = list(points[-1].names)
    series = [(name, [view_for(s, None).scores[i] for s in points]) for i, name in enumerate(names)]
    # TRANSLATORS: a chart's tick: meme action number {number}, as short as can be ("A3").
    ticks = [_("A{number}", number=len(s.outcomes)) for s in points]
    return chart_svg(_("Scores after each meme action"), ticks, lines=series, x_name=_("Meme action"))


SCENES = GameScenes("dangerous-ideas", scene, moment, round_of, chart, say("Chapter"))


# -- exact odds, as the balance lab asks for them ---------------------------------------------------
def odds_html(report: Mapping[str, Any]) -> str:
    """A meme action's exact chance (`rules.dangerous_ideas.odds_report`), and by seeds spent."""
    what = _n(
        "that 2d6 comes in at or under a pool of {pool} with up to {n} red seed",
        "that 2d6 comes in at or under a pool of {pool} with up to {n} red seeds",
        int(report["seeds"]), pool=report["pool"],
    )  # fmt: skip
    rows = [(number(int(s)), chance_percent(v["probability"]), v["fraction"]) for s, v in report["by_seeds_spent_at_most"].items()]
    # The rules' report (JSON for `playbook odds`) notes its rule in English; the page says it in its language.
    note = _("2d6 at or under the pool succeeds, 11 and 12 always fail; only the actor's seeds are counted.")
    return report_card(_("Dangerous Ideas meme action"), report["success"], what, (_("Seeds at most"), _("Chance"), _("Exact")), rows, note)


ODDS = OddsForm(
    say("A meme action: 2d6 against a pool of stones"),
    (
        OddsInput("pool", say("Pool stones"), 7, 0, 20, say("stones in the meme action's pool")),
        OddsInput("seeds", say("Red seeds"), 0, 0, 20, say("the actor's red seeds to spend")),
    ),
    odds_html,
)
