"""New Rule drawn: the candies as chips (symbol and name on the colour), the table's cards,
and its board by phase: who is drawing, the picks coming in, the infection revealed, the
winner; the chart of the infections and of every bowl's size, round by round.

The board is drawn from `view_for(state, None)` only: never a blind draw, a pick before the
reveal or a bowl before the end (the results show the bowls the public view then shows).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from i18n import render
from rules.core import plural, seats_text, winners_said
from rules.new_rule import State, View, symbol, view_for

from .board import Fact, GameScenes, Scene
from .chart import chart_svg
from .common import card, chip, esc, name, number, text

__all__ = ["CHIP_COLOURS", "OTHER_COLOUR", "SCENES", "bowl_card", "candy_chip", "candy_chips", "candy_label", "chart", "moment", "players_table", "reveal_card", "scene"]

# -- candies ------------------------------------------------------------------------------------

#: Chip background and text colour per candy colour; the symbol carries the meaning too.
CHIP_COLOURS: dict[str, tuple[str, str]] = {
    "red": ("#c62828", "#fff"),
    "orange": ("#f28c28", "#111"),
    "yellow": ("#f7d038", "#111"),
    "green": ("#2e7d32", "#fff"),
    "blue": ("#1f5fbf", "#fff"),
    "brown": ("#6d4c41", "#fff"),
    "purple": ("#7b1fa2", "#fff"),
    "pink": ("#f48fb1", "#111"),
}


OTHER_COLOUR = ("#b0b4bd", "#111")


def candy_label(colours: Sequence[str], colour: str, count: int | None = None) -> str:
    """'★ yellow 3': the symbol first so no one needs to tell hues apart."""
    text = f"{symbol(colours, colour)} {colour}"
    return text if count is None else f"{text} {count}"


def candy_chip(colours: Sequence[str], colour: str, count: int | None = None) -> str:
    """One chip: the colour's symbol and name (and count) on the colour, the name said again in
    its `title` and `aria-label` (a screen reader says "yellow candy, 3", not the star's name)."""
    said = f"{colour} candy" + ("" if count is None else f", {count}")
    html = chip(candy_label(colours, colour, count), *CHIP_COLOURS.get(colour, OTHER_COLOUR))
    return html.replace(
        '<span class="pb-chip"',
        f'<span class="pb-chip" title="{esc(said)}" aria-label="{esc(said)}" data-colour="{esc(colour)}"',
        1,
    )


def candy_chips(colours: Sequence[str], counts: Sequence[int] | None = None, candies: Sequence[str] = (), counted: bool = True) -> str:
    """Coloured chips for colour counts, or for a handful of candies (`counted` off: the
    colours alone, as for the common bowl, whose counts nobody sees). Each chip shows its
    colour's symbol and name, so no one needs to tell hues apart."""
    if counts is None:
        counts = [sum(1 for c in candies if c == colour) for colour in colours]
        pairs = [(c, n) for c, n in zip(colours, counts) if n]
    else:
        pairs = list(zip(colours, counts))
    return "".join(candy_chip(colours, c, n if counted else None) for c, n in pairs)


# -- the table's cards ---------------------------------------------------------------------------


def bowl_card(view: View) -> str:
    """The common bowl: how many candies, and which colours it still holds (never how many of each)."""
    return card(
        f"Common bowl · {view.common_total} candies",
        '<span class="pb-muted">It still holds: </span>' + candy_chips(view.colours, candies=view.common_colours, counted=False)
        if view.common_colours else '<span class="pb-muted">Empty.</span>',
    )


def players_table(view: View, bots: Mapping[int, str]) -> str:
    """Every player: candies, antibodies eaten, what they are doing, their revealed pick; at the
    end their final bowl. `bots`: seat -> the bot that plays it."""
    over = view.phase == "over"
    head = ["Seat", "Player", "Candies", f"{view.antibody} eaten", "Now", "Pick"] + (["Final bowl"] if over else [])
    rows = []
    for i, s in enumerate(view.seats):
        if s.out:
            now = "out"
        elif view.phase in ("draw", "choose"):
            now = "▶ drawing" if view.turn == i else ""
        elif view.phase == "pick":
            now = "✔ picked" if s.picked else "choosing…"
        elif view.phase == "pay":
            now = "✔ paid" if s.paid else "paying…"
        else:
            now = ""
        pick = candy_chip(view.colours, s.pick) if s.pick else ""
        bot = f' <span class="pb-muted">🤖 {esc(bots[i])}</span>' if i in bots else ""
        cells = [str(i + 1), f"<b>{esc(s.name)}</b>{bot}", str(s.candies), str(s.eaten), esc(now), pick]
        if over:
            cells.append(candy_chips(view.colours, s.bowl) if s.bowl is not None else "")
        rows.append("<tr>" + "".join(f'<td data-label="{esc(h)}">{c}</td>' for h, c in zip(head, cells)) + "</tr>")
    header = "".join(f"<th>{esc(h)}</th>" for h in head)
    return card("Players", f'<table class="pb-table pb-cards"><tr>{header}</tr>{"".join(rows)}</table>')


def reveal_card(view: View) -> str:
    """The picks revealed together and the infection they make; before that, how it works."""
    if view.phase != "pay" or not view.strength:
        return card("Infection", '<span class="pb-muted">Picks are revealed together once everyone has picked.</span>')
    picks = " ".join(
        f"{esc(s.name)}&nbsp;{candy_chip(view.colours, s.pick)}"
        for s in view.seats
        if s.pick
    )
    sick = "".join(candy_chip(view.colours, c) for c in view.infection)
    body = (
        f"<div>Revealed: {picks}</div>"
        f'<div style="font-size:1.25em;margin-top:6px">Infection {sick} strength <b>{view.strength}</b></div>'
        f'<div class="pb-muted">Each player pays {plural(view.strength, "level")}: 2 other candies or 1 '
        f"{esc(view.antibody)} eaten per level; infection colours only 4 per level, once fewer than 2 others are left.</div>"
    )
    return card("Infection", body)


# -- the board by phase ----------------------------------------------------------------------------


def _round(view: View) -> str:
    return f"Round {view.round}" + (f" of {view.max_rounds}" if view.max_rounds else "")


def _players_in(view: View) -> str:
    return f"{sum(1 for s in view.seats if not s.out)} of {len(view.seats)}"


def scene(state: State, final: State | None = None) -> Scene:
    view = view_for(state, None)
    names = [s.name for s in view.seats]
    bowl = Fact("Common bowl", f"{view.common_total} candies", "pb-bowl-total")
    players = Fact("Players in", _players_in(view))
    if view.phase == "over":
        return _results(state, view)
    if view.phase == "pay" and view.strength:
        paid = sum(1 for i, s in enumerate(view.seats) if s.paid and not s.out)
        due = sum(1 for s in view.seats if not s.out)
        picks = "".join(f'<span style="margin-right:18px;white-space:nowrap">{name(s.name)} {candy_chip(view.colours, s.pick)}</span>' for s in view.seats if s.pick)
        centre = (
            f'<div class="pb-label">The infection</div>'
            f'<div class="pb-huge pb-infection">{"".join(candy_chip(view.colours, c) for c in view.infection)} strength {view.strength}</div>'
            f'<div class="pb-line">Everyone pays {view.strength} level{"s" if view.strength != 1 else ""}: 2 other candies or 1 {esc(view.antibody)} eaten per level.</div>'
            f'<div class="pb-label">The picks</div><div class="pb-line">{picks}</div>'
        )
        facts: tuple[Fact, ...] = (Fact("Strength", str(view.strength), "pb-strength"), Fact("Paid", f"{paid} of {due}"), bowl, players)
        return Scene("reveal", f"{_round(view)} · the infection", centre, facts, view.log)
    if view.phase == "pick":
        picked = sum(1 for s in view.seats if s.picked and not s.out)
        due = sum(1 for s in view.seats if not s.out)
        waiting = seats_text(names, view.waiting_for)
        centre = (
            f'<div class="pb-label">Secret picks: each player picks one colour they hold</div>'
            f'<div class="pb-huge pb-picks-in">Picks in: {picked} of {due}</div>'
            + (f'<div class="pb-line">{text("Waiting for " + waiting)}</div>' if waiting else "")
            + '<div class="pb-label">The colours picked the most become the infection.</div>'
        )
        facts = (Fact("Picks in", f"{picked} of {due}", "pb-picks-count"), bowl, players)
        return Scene("decision", f"{_round(view)} · secret picks", centre, facts, view.log)
    drawer = names[view.turn] if view.turn is not None else ""
    doing = "keeps or swaps the draw" if view.phase == "choose" else "is drawing"
    centre = (
        '<div class="pb-label">Blind draws, in seat order</div>'
        + (f'<div class="pb-huge pb-drawing">{esc(drawer)}</div><div class="pb-line">{doing} two candies</div>' if drawer else "")
        + f'<div class="pb-label">The common bowl still holds</div><div>{candy_chips(view.colours, candies=view.common_colours, counted=False)}</div>'
    )
    facts = (Fact("Drawing", drawer or "—", "pb-drawer"), bowl, players)
    return Scene("decision", f"{_round(view)} · the draw", centre, facts, view.log)


def _results(state: State, view: View) -> Scene:
    names = [s.name for s in view.seats]
    winners = [s for rank, s, _ in view.standings if rank == 1]
    rows = "".join(
        f"<tr><td>{rank}</td><td>{name(names[s])}</td><td>{number(score)} point{'s' if score != 1 else ''}</td><td>{'out' if view.seats[s].out else ''}</td></tr>"
        for rank, s, score in view.standings
    )
    centre = f'<table class="pb-standings-big pb-results-standings">{rows}</table>'
    facts = (Fact("Rounds", str(view.round)), Fact("Players in", _players_in(view)))
    winner = render(winners_said(names, winners))
    return Scene("results", "the end", centre, facts, view.log, winner, tuple(story(state)))


def story(state: State) -> list[str]:
    """The game in five lines, from the public record (the score pad and the log)."""
    view = view_for(state, None)
    names = [s.name for s in view.seats]
    infections = [(line.round, line) for line in state.pad if getattr(line, "strength", 0)]
    strongest = max(infections, key=lambda p: p[1].strength, default=None)
    out = [s.name for s in view.seats if s.out]
    best = view.standings[0] if view.standings else None
    lines = [
        f"{view.round} round{'s' if view.round != 1 else ''} played.",
        f"The strongest infection: {' and '.join(strongest[1].infection)} at strength {strongest[1].strength} in round {strongest[0]}."
        if strongest and getattr(strongest[1], "infection", None)
        else "No infection was strong enough to stand out.",
        f"Out of the game: {seats_text(names, [names.index(n) for n in out])}." if out else "Nobody was knocked out.",
        f"The top score: {best[2]} ({names[best[1]]})." if best else "No scores.",
        f"The end: {view.ended}.",
    ]
    return lines


def moment(before: State, state: State) -> tuple[str, int] | None:
    if state.phase == "pay" and before.phase != "pay" and state.strength:
        return f"Round {state.round}: the infection", state.round
    if state.round != before.round and before.round > 0:
        return f"Round {before.round}: paid", before.round
    return None


def round_of(state: State) -> int:
    return state.round


def chart(states: Sequence[Any], final: Any = None) -> str:
    """Each round's infection strength (bars) and every player's bowl size at the round's end."""
    rounds: dict[int, State] = {}
    strength: dict[int, int] = {}
    for s in states:
        if s.round <= 0:
            continue
        rounds[s.round] = s
        if s.phase == "pay":
            strength[s.round] = max(strength.get(s.round, 0), s.strength)
    if not strength:
        return ""  # nothing to draw before the first infection
    order = sorted(rounds)
    views = [view_for(rounds[r], None) for r in order]
    names = [s.name for s in views[-1].seats]
    series = [(name, [v.seats[i].candies for v in views]) for i, name in enumerate(names)]
    return chart_svg(
        "Infection strength each round (bars) and each bowl's candies",
        [f"R{r}" for r in order],
        bars=[strength.get(r, 0) for r in order],
        lines=series,
        bar_label="Strength",
        x_name="Round",
    )


SCENES = GameScenes("new-rule", scene, moment, round_of, chart, "Round")
