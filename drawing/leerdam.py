"""Leerdam drawn: the dice and the dyke's gauge, the table's cards (the year, the dyke and its
thresholds, who has pledged, the reveal, the flood, the deals, the pledges after an anonymous
game), the villages of a class side by side, and its board by phase: the pledges in progress,
the total against the thresholds, the flood die, the winner; the chart of the pledges, the dyke
and each household's VP.

Drawn from `view_for(state, None)` and the public ledger only (a household's own deals from its
own view): a variant that keeps pledges anonymous on the public view keeps them anonymous here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from i18n import Said, _, _n, render, say
from rules.core import winners_said
from rules.leerdam import Deal, Setup, State, View, YearSummary, final_divisor, flood_odds, ledger_rows, view_for, village_rows

from .board import Fact, GameScenes, Scene
from .chart import chart_svg
from .common import card, chip, esc, name, text

__all__ = [
    "ACTIVITY_LABEL",
    "DYKE_COLOURS",
    "FLOOD_BLUE",
    "SCENES",
    "chart",
    "deal_text",
    "die_face",
    "dyke_card",
    "dyke_gauge",
    "flood_card",
    "moment",
    "pledge_table",
    "pledged_card",
    "reveal_card",
    "scene",
    "thresholds_note",
    "villages_html",
    "year_card",
]

#: Dyke Condition 1-6: background and text colour of its gauge segment (red: weak, green: strong);
#: every pair has a WCAG AA contrast of 4.5 or more.
DYKE_COLOURS = {
    1: ("#b71c1c", "#fff"),
    2: ("#bf360c", "#fff"),
    3: ("#f9a825", "#111"),
    4: ("#9e9d24", "#111"),
    5: ("#2e7d32", "#fff"),
    6: ("#1b5e20", "#fff"),
}


FLOOD_BLUE = "#0d47a1"


#: each activity's heading (said in the page's language when drawn: `render`).
ACTIVITY_LABEL: dict[str, Said] = {
    # TRANSLATORS: an activity of Leerdam's households (a column heading): feeding the household.
    "subsistence": say("Subsistence"),
    "leisure": say("Leisure"),
    "profit": say("Profit"),
}


PHASE_LABEL: dict[str, Said] = {
    "misfortune": say("Misfortune: the facilitator sets it"),
    "contribute": say("Secret pledges to the dyke"),
    "allocate": say("Deals and allocation"),
    "flood": say("The flood check"),
    "end": say("The end roll"),
    "over": say("Game over"),
}


#: Pips of a die face on a 3 x 3 grid (cells 0-8, row by row).
PIPS = {1: (4,), 2: (0, 8), 3: (0, 4, 8), 4: (0, 2, 6, 8), 5: (0, 2, 4, 6, 8), 6: (0, 2, 3, 5, 6, 8)}


# -- pictures in HTML --------------------------------------------------------------------------------


def die_face(value: int | None, colour: str = "#111", size: int = 84) -> str:
    """A d6 face drawn with pips (None: a blank die)."""
    lit = PIPS.get(value or 0, ())
    pip = size // 5
    cells = "".join(
        f'<span style="width:{pip}px;height:{pip}px;border-radius:50%;margin:auto;'
        f'background:{colour if i in lit else "transparent"}"></span>'
        for i in range(9)
    )
    label = esc(_("a die showing {n}", n=value) if value else _("a die not rolled yet"))
    return (
        f'<div role="img" aria-label="{label}" data-die="{value or ""}" style="display:inline-grid;'
        f"grid-template-columns:repeat(3,1fr);grid-template-rows:repeat(3,1fr);width:{size}px;"
        f"height:{size}px;padding:{size // 12}px;box-sizing:border-box;border:4px solid {colour};"
        f'border-radius:{size // 6}px;background:#fff;vertical-align:middle">{cells}</div>'
    )


def dyke_gauge(dyke: int, size: int = 54) -> str:
    """Six segments, filled up to the Dyke Condition and coloured by its strength."""
    segments = []
    for level in range(1, 7):
        background, colour = DYKE_COLOURS[level] if level <= dyke else ("#e4e7ee", "#59606e")
        ring = "outline:4px solid #111;outline-offset:2px;" if level == dyke else ""
        segments.append(
            f'<div style="width:{size}px;height:{size}px;background:{background};color:{colour};{ring}'
            f"display:flex;align-items:center;justify-content:center;font-size:1.5em;font-weight:800;"
            f'border-radius:8px;border:2px solid #333">{level}</div>'
        )
    dyke_condition_said = _("Dyke Condition")
    n_of_total_said = _("{n} of {total}", n=dyke, total=6)
    return (
        f'<div role="meter" aria-label="{esc(dyke_condition_said)}" aria-valuemin="1" aria-valuemax="6" aria-valuenow="{dyke}" '
        f'aria-valuetext="{esc(n_of_total_said)}" data-dyke="{dyke}" '
        f'style="display:flex;gap:6px;margin:6px 0 8px">{"".join(segments)}</div>'
    )


# -- the table's cards, in the order of a year -------------------------------------------------------


def year_card(view: View, setup: Setup) -> str:
    """The year, the step it is at, and when the end roll comes."""
    if setup.max_years is not None:
        end = _("End roll after each year from year {year} · year limit {limit}", year=setup.end_check_from, limit=setup.max_years)
    else:
        end = _("End roll after each year from year {year}", year=setup.end_check_from)
    year = _("Year")
    return card(
        "",
        f'<div class="pb-muted">{esc(year)}</div><div class="ld-big" data-year="{view.year}">{view.year}</div>'
        f'<div class="ld-mid">{esc(render(PHASE_LABEL.get(view.phase, view.phase)))}</div>'
        f'<div class="pb-muted">{esc(end)}</div>',
    )


def dyke_card(view: View) -> str:
    """The Dyke Condition as a gauge, the flood chance and the final scoring at this dyke."""
    # Markup in a message: each value escaped first, the result not escaped again.
    scoring = _("Final scoring at this dyke: <b>1 VP per {n} Wealth</b>", n=final_divisor(view.dyke))
    if view.phase != "over":
        scoring = _("Flood chance: <b>{odds}</b> · {scoring}", odds=esc(_odds(view.dyke)), scoring=scoring)
    return card(
        _("Dyke Condition {n} of {total}", n=view.dyke, total=6),
        dyke_gauge(view.dyke) + f"<div>{scoring}</div>",
    )


def thresholds_note(view: View, setup: Setup) -> str:
    """The totals that lower, hold and raise the dyke for this many households."""
    low, high = view.thresholds
    warning = f'<div class="pb-tone-warn" style="font-weight:600">⚠ {esc(render(setup.warning_said))}</div>' if setup.warning_said else ""
    # One message with its markup: its fields are numbers, nothing a user typed.
    # TRANSLATORS: keep the <b ...> tags around "below {low}" and "above {high}".
    note = _(
        'With {n} households, a total pledge <b class="pb-tone-bad">below {low}</b> lowers the dyke, '
        '<b class="pb-tone-good">above {high}</b> raises it, {low} to {high} holds it.',
        n=len(view.households), low=low, high=high,
    )
    return f'<div class="pb-card" data-low="{low}" data-high="{high}">{note}{warning}</div>'


def pledged_card(view: View) -> str:
    """Who has pledged (and, while allocating, who has allocated): never how much."""
    n = len(view.households)
    pledged = sum(1 for h in view.households if h.pledged)
    allocating = view.phase == "allocate"
    done = [h.allocated if allocating else h.pledged for h in view.households]
    # Each chip says its state in words: a bare "…" read as nothing to the room. With anonymous
    # pledges a household's capacity bounds its pledge: names only.
    did, waiting = (_("allocated"), _("not allocated yet")) if allocating else (_("pledged"), _("not pledged yet"))
    chips = "".join(
        chip(
            f"{'✔ ' if d else ''}{h.name}: {did if d else waiting}" + (" · " + _("can give {n}", n=h.capacity) if h.capacity is not None else ""),
            "#dff3e4" if d else "#eceef3",
        )
        for h, d in zip(view.households, done)
    )
    counts = f'<span data-pledged="{pledged}">{esc(_("Pledged: {n} of {total}", n=pledged, total=n))}</span>'
    if allocating:
        counts += " · " + esc(_("Allocated: {n} of {total}", n=sum(done), total=n))
    note = (
        _("Anonymous pledges: only the village's total is announced, and each household's numbers stay its own until the game ends.")
        if view.anonymous
        else _('"Can give" is the household\'s capacity this year, after misfortune. What anyone pledged stays secret until the last pledge is in.')
    )
    return card("", f'<div class="ld-mid">{counts}</div><div style="margin:4px 0">{chips}</div><div class="pb-muted">{esc(note)}</div>')


def pledge_chips(names: Sequence[str], pledges: Sequence[int | None], year: int) -> str:
    """Each household's pledge as a chip (for a year whose pledges are public)."""
    return "".join(
        f'<span data-year="{year}" data-seat-pledge="{seat}">{chip(f"{name}: {p}", "#e3ecfa")}</span>'
        for seat, (name, p) in enumerate(zip(names, pledges))
    )


def reveal_card(view: View, rows: Sequence[dict[str, Any]]) -> str:
    """This year's pledges once all are in; before that, a note and last year's result."""
    names = [h.name for h in view.households]
    low, high = view.thresholds
    if view.total is not None:
        pledges = [h.pledge for h in view.households]
        only_total = _("Only the total is announced: each pledge stays its household's own.")
        chips = (
            f'<div class="ld-mid">{esc(only_total)}</div>'
            if view.anonymous
            else pledge_chips(names, pledges, view.year)
        )
        return card(
            _("Year {year}: the pledges are in", year=view.year) if view.anonymous else _("Year {year}: the pledges are revealed", year=view.year),
            chips + dyke_result(view.total, low, high, view.dyke_before, view.dyke),
            attrs=f'data-revealed="{view.year}"',
        )
    if view.phase == "over":
        body = f'<div class="ld-mid">{esc(_("The game is over: {ending}.", ending=render(view.ending)))}</div>'
    elif view.phase == "misfortune":
        body = f'<div class="ld-mid">{esc(render(_SETS_MISFORTUNE))}</div>'
    else:
        secret = _("Year {year}: the pledges stay secret until all {n} are in.", year=view.year, n=len(names))
        body = f'<div class="ld-mid">{esc(secret)}</div>'
    if view.years:
        last = view.years[-1]
        pledges = [r["contribution"] for r in rows if r["year"] == last.year]
        body += (
            f'<div data-revealed="{last.year}" style="margin-top:10px;padding-top:6px;border-top:1px solid #dde1ea">'
            f"<b>{esc(_('Last year (year {year})', year=last.year))}</b> "
            + ("" if view.anonymous else pledge_chips(names, pledges, last.year))
            + dyke_result(last.total, low, high, last.dyke_before, last.dyke_after_pledges, size="ld-mid")
            + "</div>"
        )
    return card(_("The reveal"), body)


def dyke_result(total: int, low: int, high: int, before: int, after: int, size: str = "ld-big") -> str:
    """A year's total pledge against the thresholds, and what it did to the dyke."""
    said, tone = _verdict(before, after)
    total_n_said = _("Total {n}", n=total)
    below_low_the_said = _("below {low} the dyke falls · above {high} it rises", low=low, high=high)
    return (
        f'<div class="{size}" style="margin-top:6px" data-total="{total}">{text(total_n_said)}</div>'
        f'<div class="pb-muted">{text(below_low_the_said)}</div>'
        f'<div class="ld-mid pb-tone-{tone}">{text(said)}</div>'
    )


def deal_text(deal: Deal, seat: int, names: Sequence[str]) -> str:
    """One offer of hired labour as `seat` reads it (theirs or to them), with its state."""
    activity = render(ACTIVITY_LABEL.get(deal.activity, deal.activity))
    if deal.buyer == seat:
        said = _n(
            "You offer {name} {wealth} Wealth for {n} unit on your {activity}",
            "You offer {name} {wealth} Wealth for {n} units on your {activity}",
            deal.units, name=names[deal.seller], wealth=deal.wealth, activity=activity,
        )
    else:
        said = _n(
            "{name} offers you {wealth} Wealth for {n} unit on {name}'s {activity}",
            "{name} offers you {wealth} Wealth for {n} units on {name}'s {activity}",
            deal.units, name=names[deal.buyer], wealth=deal.wealth, activity=activity,
        )
    # TRANSLATORS: an offer's state, in brackets after it ("offer 3, open").
    badge = {"offered": _("open"), "done": "✔ " + _("done"), "declined": _("declined"), "lapsed": _("lapsed")}.get(deal.status, deal.status)
    return f'<span data-deal="{deal.id}">{esc(said)} <i>({esc(_("offer {id}, {state}", id=str(deal.id), state=badge))})</i></span>'


def flood_card(view: View, end_on: Sequence[int]) -> str:
    """The last flood roll against the dyke, and the end roll (`end_on`: the faces that end the game)."""
    if not view.years:
        return card(_("The flood"), die_face(None, "#9aa3b5") + f'<div class="pb-muted">{esc(_("The river is rolled after the harvest."))}</div>')
    last: YearSummary = view.years[-1]
    tone = "info" if last.flooded else "good"
    verdict = (
        _("Flood strength {strength} beats the dyke at {dyke}: the village floods!", strength=last.flood, dyke=last.dyke_after_pledges)
        if last.flooded
        else _("Flood strength {strength} against the dyke at {dyke}: the dyke holds.", strength=last.flood, dyke=last.dyke_after_pledges)
    )
    if last.flood == 6:
        verdict += " " + _("A 6 batters the dyke once more.")
    end = last.end_roll
    end_html = (
        f'<div style="margin-top:8px">{die_face(end, "#37474f", 46)} <b>{esc(_("End roll {face}", face=end))}</b>'
        f'<span class="pb-muted"> · {esc(_("ends on {faces}", faces=", ".join(map(str, end_on))))}</span></div>'
        if end is not None
        else ""
    )
    return card(
        _("The flood of year {year}", year=last.year),
        f'<div class="pb-tone-{tone}" style="display:flex;align-items:center;gap:14px">{die_face(last.flood, _die_colour(last.flooded))}'
        f'<div class="ld-mid" style="font-size:1.15em">{esc(verdict)}</div></div>'
        f'<div>{esc(_("Dyke after the year:"))} <b>{last.dyke_after}</b></div>{end_html}',
        attrs=f'data-flood="{last.flood}"',
    )


def pledge_table(state: State) -> str:
    """Each household's pledge, year by year: an anonymous game's debrief once the
    facilitator shows them."""
    years = sorted({r.year for r in state.ledger if r.contribution is not None})
    pledges = {(r.year, r.seat): r.contribution for r in state.ledger}
    head = "".join(f"<th>{y}</th>" for y in years)
    body = "".join(
        f'<tr data-pledges-of="{seat}"><td><b>{esc(name)}</b></td>' + "".join(f"<td>{pledges.get((y, seat), '')}</td>" for y in years) + "</tr>"
        for seat, name in enumerate(state.names)
    )
    totals = "".join(f"<td><b>{y.total}</b></td>" for y in state.years if y.year in years)
    return card(
        _("The pledges, household by household"),
        f'<table class="pb-table"><tr><th>{esc(_("Year"))}</th>{head}</tr>{body}<tr><td><b>{esc(_("Total"))}</b></td>{totals}</tr></table>'
        f'<div class="pb-muted">{esc(_("Anonymous during the game; the facilitator showed them for the debrief."))}</div>',
    )


# -- a class's villages side by side -----------------------------------------------------------------


def villages_html(states: Sequence[State]) -> str:
    """A class's villages side by side, year by year: what each pledged, the dyke, floods."""
    views = [view_for(state, None) for state in states]
    years = max((len(v.years) for v in views), default=0)
    head = "".join(f"<th>{esc(_('Village {number}', number=i + 1))}</th>" for i in range(len(views)))
    rows = []
    for year in range(years):
        cells = []
        for v in views:
            if year < len(v.years):
                y = v.years[year]
                flood = " · 🌊 " + _("flood") if y.flooded else ""
                cells.append(f"<td>{esc(_('pledged {total} · dyke {dyke}', total=y.total, dyke=y.dyke_after) + flood)}</td>")
            else:
                cells.append("<td></td>")
        rows.append(f"<tr><th>{esc(_('Year {year}', year=year + 1))}</th>{''.join(cells)}</tr>")
    now = "".join(f"<td>{esc(_('dyke {dyke} · {vp} VP in all', dyke=v.dyke, vp=v.vp_total))}</td>" for v in views)
    # TRANSLATORS: the last row of the villages table: where each village stands now.
    rows.append(f"<tr><th>{esc(_('Now'))}</th>{now}</tr>")
    heading = _("The villages, year by year")
    return f'<h2>{esc(heading)}</h2><table class="pb-villages pb-table"><tr><th></th>{head}</tr>{"".join(rows)}</table>'


# -- the board by phase ------------------------------------------------------------------------------


#: each phase in the board's heading ("Year 3 · secret pledges"), said when drawn.
WORDS: dict[str, Said] = {
    "misfortune": say("misfortune"),
    "contribute": say("secret pledges"),
    # TRANSLATORS: Leerdam's phase in which households allocate their labour (a heading).
    "allocate": say("allocation"),
    "flood": say("the flood"),
    "end": say("the end roll"),
    "over": say("game over"),
}


_ANONYMOUS_NOTE = say("Anonymous pledges: only the village's total is announced; each pledge stays its household's own.")
_SETS_MISFORTUNE = say("The facilitator sets this year's misfortune.")


def _odds(dyke: int) -> str:
    # TRANSLATORS: the chance of a flood on a d6 ("2 in 6").
    return _("{n} in 6", n=round(flood_odds(dyke) * 6))


def _die_colour(flooded: bool) -> str:
    """The river's die (a white die in both themes): blue pips for a flood, green for none."""
    return FLOOD_BLUE if flooded else "#1b5e20"


def _verdict(before: int, after: int) -> tuple[str, str]:
    """What the year did to the dyke ("The dyke falls: 4 → 3"), and its tone (a `pb-tone-` class
    of dashboard.css)."""
    if after < before:
        return _("The dyke falls: {before} → {after}", before=before, after=after), "bad"
    if after > before:
        return _("The dyke rises: {before} → {after}", before=before, after=after), "good"
    return _("The dyke holds: {before} → {after}", before=before, after=after), "even"


def _total_html(view: View, total: int, before: int, after: int, pledges: Sequence[int | None]) -> str:
    low, high = view.thresholds
    said, tone = _verdict(before, after)
    names = [h.name for h in view.households]
    shown = "".join(
        f'<span class="pb-chip" style="background:#e3ecfa;color:#14171f" data-seat-pledge="{i}">{name(n)}: {p}</span>' for i, (n, p) in enumerate(zip(names, pledges)) if p is not None
    )
    the_village_pledged_said = _("The village pledged")
    total_n_said = _("Total {n}", n=total)
    below_low_the_said = _("below {low} the dyke falls · {low} to {high} it holds · above {high} it rises", low=low, high=high)
    return (
        f'<div class="pb-label">{text(the_village_pledged_said)}</div><div class="pb-huge pb-reveal-total" data-total="{total}">{text(total_n_said)}</div>'
        f'<div class="pb-line">{text(below_low_the_said)}</div>'
        f'<div class="pb-line pb-tone-{tone}">{text(said)}</div>'
        + (f'<div style="margin-top:6px">{shown}</div>' if shown else "")
    )


def scene(state: State, final: State | None = None) -> Scene:
    view = view_for(state, None, final=final)
    n = len(view.households)
    pledged = sum(1 for h in view.households if h.pledged)
    heading = _("Year {year} · {phase}", year=view.year, phase=WORDS.get(view.phase, view.phase))
    dyke = Fact(_("Dyke Condition"), _("{n} of {total}", n=view.dyke, total=6), "pb-dyke")
    log = view.log
    if view.phase == "over":
        return _results(state, view, final)
    anonymous = (
        f'<div class="pb-label pb-anonymous-note">{text(render(_ANONYMOUS_NOTE))}</div>'
        if view.anonymous
        else ""
    )
    if view.total is not None:
        allocated = sum(1 for h in view.households if h.allocated)
        centre = _total_html(view, view.total, view.dyke_before, view.dyke, [h.pledge for h in view.households]) + anonymous
        facts = (Fact(_("Year"), str(view.year)), dyke, Fact(_("Allocated"), _("{n} of {total}", n=allocated, total=n)), Fact(_("Flood chance"), _odds(view.dyke)))
        return Scene("reveal", heading, centre, facts, log)
    facts = (Fact(_("Year"), str(view.year)), dyke, Fact(_("Pledged"), _("{n} of {total}", n=pledged, total=n), "pb-pledged-count"), Fact(_("Flood chance"), _odds(view.dyke)))
    last = view.years[-1] if view.years else None
    if last is not None and pledged == 0 and last.year == view.year - 1:
        # The year just ended: the river's die is the news until the first pledge comes in.
        tone = "info" if last.flooded else "good"
        if last.flooded:
            said = _("against the dyke at {dyke}: the village floods!", dyke=last.dyke_after_pledges)
        else:
            said = _("against the dyke at {dyke}: the dyke holds.", dyke=last.dyke_after_pledges)
        end_roll_n_said = _("End roll {n}: the game goes on.", n=last.end_roll)
        end = f'<div class="pb-line">{text(end_roll_n_said)}</div>' if last.end_roll is not None else ""
        the_flood_of_said = _("The flood of year {year}", year=last.year)
        flood_n_said = _("Flood {n}", n=last.flood)
        dyke_after_the_said = _("Dyke after the year: {n}", n=last.dyke_after)
        centre = (
            f'<div class="pb-label">{text(the_flood_of_said)}</div>'
            f'<div class="pb-tone-{tone}" style="display:flex;gap:28px;align-items:center;flex-wrap:wrap">{die_face(last.flood, _die_colour(last.flooded), 150)}'
            f'<div><div class="pb-huge" data-flood="{last.flood}">{text(flood_n_said)}</div>'
            f'<div class="pb-line">{text(said)}</div></div></div>'
            f'<div class="pb-line">{text(dyke_after_the_said)}</div>{end}{anonymous}'
        )
        return Scene("reveal", _("Year {year} · {phase}", year=last.year, phase=WORDS["flood"]), centre, facts, log)
    low, high = view.thresholds
    if view.phase == "misfortune":
        lead = f'<div class="pb-line">{text(render(_SETS_MISFORTUNE))}</div>'
    else:
        secret_pledges_to_said = _("Secret pledges to the dyke")
        n_of_total_said = _("{n} of {total} pledged", n=pledged, total=n)
        lead = (
            f'<div class="pb-label">{text(secret_pledges_to_said)}</div>'
            f'<div class="pb-huge pb-pledged-big">{text(n_of_total_said)}</div>'
        )
    waiting = [h.name for h in view.households if not h.pledged] if view.phase == "contribute" else []
    still_to_pledge = _("Still to pledge: {households}", households=", ".join(waiting))
    a_total_below_said = _("A total below {low} lowers the dyke · above {high} raises it · flood chance {odds}", low=low, high=high, odds=_odds(view.dyke))
    final_scoring_at_said = _("Final scoring at this dyke: 1 VP per {n} Wealth", n=final_divisor(view.dyke))
    centre = (
        lead
        + dyke_gauge(view.dyke, 64)
        + f'<div class="pb-line">{text(a_total_below_said)}</div>'
        + f'<div class="pb-label">{text(final_scoring_at_said)}</div>'
        + (f'<div class="pb-label">{text(still_to_pledge)}</div>' if waiting and len(waiting) <= 12 else "")
        + anonymous
    )
    return Scene("decision", heading, centre, facts, log)


# TRANSLATORS: the players of Leerdam, in "all 6 households tie".
_HOUSEHOLDS = say("households")


def _standing_row(rank: int, household: str, vp: int, wealth: int) -> str:
    vp_said = _("{n} VP", n=vp)
    wealth_said = _("{n} Wealth", n=wealth)
    return f"<tr><td>{rank}</td><td>{name(household)}</td><td>{text(vp_said)}</td><td>{text(wealth_said)}</td></tr>"


def _results(state: State, view: View, final: State | None = None) -> Scene:
    names = [h.name for h in view.households]
    winners = [s for rank, s, _vp in view.standings if rank == 1]
    rows = "".join(_standing_row(rank, names[s], vp, view.households[s].wealth or 0) for rank, s, vp in view.standings[:5])
    and_n_more_said = _n("and {n} more household", "and {n} more households", len(names) - 5)
    more = f'<div class="pb-label">{text(and_n_more_said)}</div>' if len(names) > 5 else ""
    centre = f'<table class="pb-standings-big pb-results-standings">{rows}</table>{more}'
    facts = (
        Fact(_("Years"), str(len(view.years))),
        Fact(_("Dyke at the end"), _("{n} of {total}", n=view.dyke, total=6), "pb-dyke"),
        Fact(_("Floods"), str(sum(y.flooded for y in view.years))),
    )
    return Scene("results", _("the end"), centre, facts, view.log, render(winners_said(names, winners, _HOUSEHOLDS)), tuple(story(state, final)))


def story(state: State, final: State | None = None) -> list[str]:
    """The game in five lines, from the public record (at the end each household's VP and Wealth
    are the result, public in every variant)."""
    view = view_for(state, None, final=final)
    years = view.years
    if not years:
        return [_("The game ended before a year was played: {why}.", why=view.ending)]
    start = years[0].dyke_before
    best = max(years, key=lambda y: y.total)
    worst = min(years, key=lambda y: y.total)
    floods = [str(y.year) for y in years if y.flooded]
    vp = max(view.households, key=lambda h: h.vp or 0)
    rich = max(view.households, key=lambda h: h.wealth or 0)
    return [
        _n("{n} year: the dyke went from {start} to {end}.", "{n} years: the dyke went from {start} to {end}.", len(years), start=start, end=view.dyke),
        _("The most pledged: {most} in year {year}; the least: {least} in year {other}.", most=best.total, year=best.year, least=worst.total, other=worst.year),
        _n("The village flooded in year {years}.", "The village flooded in years {years}.", len(floods), years=", ".join(floods)) if floods else _("The village never flooded."),
        _("Most VP: {name} ({vp}); most Wealth: {rich} ({wealth}).", name=vp.name, vp=vp.vp or 0, rich=rich.name, wealth=rich.wealth or 0),
        _("The end: {why}.", why=view.ending),
    ]


def moment(before: State, state: State) -> tuple[str, int] | None:
    if before.total is None and state.total is not None:
        return _("Year {year}: the pledges revealed", year=state.year), state.year
    if len(state.years) > len(before.years):
        return _("Year {year}: the flood", year=state.years[-1].year), state.years[-1].year
    return None


def round_of(state: State) -> int:
    return state.year


def chart(states: Sequence[Any], final: State | None = None) -> str:
    """The pledges against the thresholds and the dyke, then each household's VP and Wealth, year
    by year; with anonymous pledges (while the public view keeps them), the village's in all."""
    if not states:
        return ""
    last: State = states[-1]
    view = view_for(last, None, final=final)
    if not view.years:
        return ""
    low, high = view.thresholds
    # TRANSLATORS: a chart's short label for year N ("Y3").
    years = [_("Y{year}", year=y.year) for y in view.years]
    year = _("Year")
    pledges = chart_svg(
        _("Pledged each year, and the dyke after it"),
        years,
        bars=[y.total for y in view.years],
        lines=[(_("Dyke"), [y.dyke_after for y in view.years])],
        marks=[(low - 0.5, _("below {low}: the dyke falls", low=low), "#b71c1c"), (high + 0.5, _("above {high}: it rises", high=high), "#1b5e20")],
        bar_label=_("Pledged"),
        x_name=year,
    )
    if view.anonymous:
        village = village_rows(last)
        return pledges + "".join(
            chart_svg(title, years, lines=[(_("the whole village"), [r[key] for r in village])], x_name=year)
            for key, title in (("vp", _("VP of the whole village")), ("wealth", _("Wealth of the whole village")))
        )
    rows = ledger_rows(last, None, final=final)
    done = {y.year for y in view.years}
    if len(view.households) > 10:
        return pledges  # more lines than anyone could tell apart from the back of a room
    drawn = [pledges]
    for key, title in (("vp", _("VP of each household")), ("wealth", _("Wealth of each household"))):
        series = []
        for h in view.households:
            by_year = {r["year"]: r[key] for r in rows if r["household"] == h.name and r["year"] in done}
            series.append((h.name, [by_year.get(y.year) for y in view.years]))
        drawn.append(chart_svg(title, years, lines=series, x_name=year))
    return "".join(drawn)


SCENES = GameScenes("leerdam", scene, moment, round_of, chart, say("Year"), villages_html)
