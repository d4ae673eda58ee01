"""New Rule drawn: the candies as chips (symbol and name on the colour), the table's cards,
and its board by phase: who is drawing, the picks coming in, the infection revealed, the
winner; the chart of the infections and of every bowl's size, round by round.

The board is drawn from `view_for(state, None)` only: never a blind draw, a pick before the
reveal or a bowl before the end (the results show the bowls the public view then shows).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from i18n import _, _n, listed, render, say
from rules.core import seats_said, winners_said
from rules.new_rule import State, View, colour_word, symbol, view_for

from .board import Fact, GameScenes, Scene
from .chart import chart_svg
from .common import card, chip, esc, name, text

__all__ = ["CHIP_COLOURS", "OTHER_COLOUR", "SCENES", "bowl_card", "candy_chip", "candy_chips", "candy_label", "candy_label_html", "chart", "moment", "players_table", "reveal_card", "scene"]

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
    text = f"{symbol(colours, colour)} {render(colour_word(colour))}"
    return text if count is None else f"{text} {count}"


def candy_label_html(colours: Sequence[str], colour: str) -> str:
    """`candy_label` as a control's label: the symbol for the eye only (a screen reader says
    "yellow", not the star's name)."""
    return f'<span aria-hidden="true">{esc(symbol(colours, colour))}</span> {esc(render(colour_word(colour)))}'


def candy_chip(colours: Sequence[str], colour: str, count: int | None = None) -> str:
    """One chip: the colour's symbol and name (and count) on the colour, the name said again in
    its `title` and `aria-label` (a screen reader says "yellow candy, 3", not the star's name)."""
    word = colour_word(colour)
    # TRANSLATORS: a candy chip's name for a screen reader ("yellow candy", "yellow candy, 3").
    said = _("{colour} candy", colour=word) if count is None else _("{colour} candy, {n}", colour=word, n=count)
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
        _n("Common bowl · {n} candy", "Common bowl · {n} candies", view.common_total),
        f'<span class="pb-muted">{esc(_("It still holds:"))} </span>' + candy_chips(view.colours, candies=view.common_colours, counted=False)
        if view.common_colours
        # TRANSLATORS: the common bowl holds no candy.
        else f'<span class="pb-muted">{esc(_("Empty."))}</span>',
    )


def players_table(view: View, bots: Mapping[int, str]) -> str:
    """Every player: candies, antibodies eaten, what they are doing, their revealed pick; at the
    end their final bowl. `bots`: seat -> the bot that plays it."""
    over = view.phase == "over"
    # TRANSLATORS: the players table's columns; "{colour} eaten" counts the antibody candies a player ate; "Now" is what they are doing.
    head = [_("Seat"), _("Player"), _("Candies"), _("{colour} eaten", colour=colour_word(view.antibody)), _("Now"), _("Pick")] + ([_("Final bowl")] if over else [])
    rows = []
    for i, s in enumerate(view.seats):
        # TRANSLATORS: what a player is doing now, in the players table.
        if s.out:
            now = _("out")
        elif view.phase in ("draw", "choose"):
            now = "▶ " + _("drawing") if view.turn == i else ""
        elif view.phase == "pick":
            now = "✔ " + _("picked") if s.picked else _("choosing…")
        elif view.phase == "pay":
            now = "✔ " + _("paid") if s.paid else _("paying…")
        else:
            now = ""
        pick = candy_chip(view.colours, s.pick) if s.pick else ""
        bot = f' <span class="pb-muted">🤖 {esc(bots[i])}</span>' if i in bots else ""
        cells = [str(i + 1), f"<b>{esc(s.name)}</b>{bot}", str(s.candies), str(s.eaten), esc(now), pick]
        if over:
            cells.append(candy_chips(view.colours, s.bowl) if s.bowl is not None else "")
        rows.append("<tr>" + "".join(f'<td data-label="{esc(h)}">{c}</td>' for h, c in zip(head, cells)) + "</tr>")
    header = "".join(f"<th>{esc(h)}</th>" for h in head)
    return card(_("Players"), f'<table class="pb-table pb-cards"><tr>{header}</tr>{"".join(rows)}</table>')


def reveal_card(view: View) -> str:
    """The picks revealed together and the infection they make; before that, how it works."""
    if view.phase != "pay" or not view.strength:
        return card(_("Infection"), f'<span class="pb-muted">{esc(_("Picks are revealed together once everyone has picked."))}</span>')
    picks = " ".join(
        f"{esc(s.name)}&nbsp;{candy_chip(view.colours, s.pick)}"
        for s in view.seats
        if s.pick
    )
    sick = "".join(candy_chip(view.colours, c) for c in view.infection)
    pays = _n(
        "Each player pays {n} level: 2 other candies or 1 {colour} eaten per level; infection colours only 4 per level, once fewer than 2 others are left.",
        "Each player pays {n} levels: 2 other candies or 1 {colour} eaten per level; infection colours only 4 per level, once fewer than 2 others are left.",
        view.strength,
        colour=colour_word(view.antibody),
    )
    # TRANSLATORS: before the picks shown together; "Infection" and "strength" frame the infection's chips and number.
    body = (
        f"<div>{esc(_('Revealed:'))} {picks}</div>"
        f'<div style="font-size:1.25em;margin-top:6px">{esc(_("Infection"))} {sick} {esc(_("strength"))} <b>{text(view.strength)}</b></div>'
        f'<div class="pb-muted">{esc(pays)}</div>'
    )
    return card(_("Infection"), body)


# -- the board by phase ----------------------------------------------------------------------------


def _round(view: View) -> str:
    if view.max_rounds:
        return _("Round {round} of {rounds}", round=view.round, rounds=view.max_rounds)
    return _("Round {round}", round=view.round)


def _players_in(view: View) -> str:
    return _("{n} of {total}", n=sum(1 for s in view.seats if not s.out), total=len(view.seats))


def scene(state: State, final: State | None = None) -> Scene:
    view = view_for(state, None)
    names = [s.name for s in view.seats]
    bowl = Fact(_("Common bowl"), _n("{n} candy", "{n} candies", view.common_total), "pb-bowl-total")
    players = Fact(_("Players in"), _players_in(view))
    if view.phase == "over":
        return _results(state, view)
    if view.phase == "pay" and view.strength:
        paid = sum(1 for i, s in enumerate(view.seats) if s.paid and not s.out)
        due = sum(1 for s in view.seats if not s.out)
        picks = "".join(f'<span style="margin-right:18px;white-space:nowrap">{name(s.name)} {candy_chip(view.colours, s.pick)}</span>' for s in view.seats if s.pick)
        the_infection = _("The infection")
        strength = _("strength {n}", n=view.strength)
        everyone_pays = _n(
            "Everyone pays {n} level: 2 other candies or 1 {colour} eaten per level.",
            "Everyone pays {n} levels: 2 other candies or 1 {colour} eaten per level.",
            view.strength,
            colour=colour_word(view.antibody),
        )
        the_picks = _("The picks")
        centre = (
            f'<div class="pb-label">{text(the_infection)}</div>'
            f'<div class="pb-huge pb-infection">{"".join(candy_chip(view.colours, c) for c in view.infection)} {text(strength)}</div>'
            f'<div class="pb-line">{text(everyone_pays)}</div>'
            f'<div class="pb-label">{text(the_picks)}</div><div class="pb-line">{picks}</div>'
        )
        facts: tuple[Fact, ...] = (Fact(_("Strength"), str(view.strength), "pb-strength"), Fact(_("Paid"), _("{n} of {total}", n=paid, total=due)), bowl, players)
        # TRANSLATORS: the board's heading, "Round 2 · the infection".
        return Scene("reveal", _("{round} · the infection", round=_round(view)), centre, facts, view.log)
    if view.phase == "pick":
        picked = sum(1 for s in view.seats if s.picked and not s.out)
        due = sum(1 for s in view.seats if not s.out)
        waiting = _("Waiting for {names}", names=seats_said(names, view.waiting_for)) if view.waiting_for else ""
        secret_picks = _("Secret picks: each player picks one colour they hold")
        picks_in = _("Picks in: {n} of {total}", n=picked, total=due)
        most_picked = _("The colours picked the most become the infection.")
        centre = (
            f'<div class="pb-label">{text(secret_picks)}</div>'
            f'<div class="pb-huge pb-picks-in">{text(picks_in)}</div>'
            + (f'<div class="pb-line">{text(waiting)}</div>' if waiting else "")
            + f'<div class="pb-label">{text(most_picked)}</div>'
        )
        facts = (Fact(_("Picks in"), _("{n} of {total}", n=picked, total=due), "pb-picks-count"), bowl, players)
        return Scene("decision", _("{round} · secret picks", round=_round(view)), centre, facts, view.log)
    drawer = names[view.turn] if view.turn is not None else ""
    # The drawer's name is the line's heading above: the line says what they do.
    doing = _("keeps or swaps the draw two candies") if view.phase == "choose" else _("is drawing two candies")
    blind_draws = _("Blind draws, in seat order")
    still_holds = _("The common bowl still holds")
    centre = (
        f'<div class="pb-label">{text(blind_draws)}</div>'
        + (f'<div class="pb-huge pb-drawing">{esc(drawer)}</div><div class="pb-line">{text(doing)}</div>' if drawer else "")
        + f'<div class="pb-label">{text(still_holds)}</div><div>{candy_chips(view.colours, candies=view.common_colours, counted=False)}</div>'
    )
    facts = (Fact(_("Drawing"), drawer or "—", "pb-drawer"), bowl, players)
    return Scene("decision", _("{round} · the draw", round=_round(view)), centre, facts, view.log)


def _results(state: State, view: View) -> Scene:
    names = [s.name for s in view.seats]
    winners = [s for rank, s, _score in view.standings if rank == 1]
    rows = "".join(_standing_row(rank, names[s], score, view.seats[s].out) for rank, s, score in view.standings)
    centre = f'<table class="pb-standings-big pb-results-standings">{rows}</table>'
    facts = (Fact(_("Rounds"), str(view.round)), Fact(_("Players in"), _players_in(view)))
    winner = render(winners_said(names, winners))
    return Scene("results", _("the end"), centre, facts, view.log, winner, tuple(story(state)))


def _standing_row(rank: int, player: str, score: int, out: bool) -> str:
    points = _n("{n} point", "{n} points", score)
    # TRANSLATORS: beside a player knocked out of New Rule, in the final standings.
    gone = _("out") if out else ""
    return f"<tr><td>{rank}</td><td>{name(player)}</td><td>{text(points)}</td><td>{text(gone)}</td></tr>"


def story(state: State) -> list[str]:
    """The game in five lines, from the public record (the score pad and the log)."""
    view = view_for(state, None)
    names = [s.name for s in view.seats]
    infections = [(line.round, line) for line in state.pad if getattr(line, "strength", 0)]
    strongest = max(infections, key=lambda p: p[1].strength, default=None)
    out = [s.name for s in view.seats if s.out]
    best = view.standings[0] if view.standings else None
    lines = [
        _n("{n} round played.", "{n} rounds played.", view.round),
        _(
            "The strongest infection: {colours} at strength {strength} in round {round}.",
            colours=listed(colour_word(c) for c in strongest[1].infection),
            strength=strongest[1].strength,
            round=strongest[0],
        )
        if strongest and getattr(strongest[1], "infection", None)
        else _("No infection was strong enough to stand out."),
        _("Out of the game: {names}.", names=seats_said(names, [names.index(n) for n in out])) if out else _("Nobody was knocked out."),
        _("The top score: {score} ({name}).", score=best[2], name=names[best[1]]) if best else _("No scores."),
        _("The end: {why}.", why=view.ending),
    ]
    return lines


def moment(before: State, state: State) -> tuple[str, int] | None:
    if state.phase == "pay" and before.phase != "pay" and state.strength:
        return _("Round {round}: the infection", round=state.round), state.round
    if state.round != before.round and before.round > 0:
        return _("Round {round}: paid", round=before.round), before.round
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
        _("Infection strength each round (bars) and each bowl's candies"),
        # TRANSLATORS: a chart's short label for round N ("R3").
        [_("R{round}", round=r) for r in order],
        bars=[strength.get(r, 0) for r in order],
        lines=series,
        bar_label=_("Strength"),
        x_name=_("Round"),
    )


SCENES = GameScenes("new-rule", scene, moment, round_of, chart, say("Round"))
