"""Leerdam's board by phase: the pledges in progress, the total against the thresholds, the
flood die, the winner; the chart of the pledges, the dyke and each household's VP.

Drawn from `view_for(state, None)` and the public ledger only: a variant that keeps pledges
anonymous on the public view keeps them anonymous here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core import winners_text
from rules.leerdam import State, View, final_divisor, flood_odds, ledger_rows, view_for, village_rows

from ..common import esc
from ..leerdam import dyke_gauge, die_face
from . import Fact, GameScenes, Scene, chart_svg

__all__ = ["SCENES", "chart", "moment", "scene"]

WORDS = {"misfortune": "misfortune", "contribute": "secret pledges", "allocate": "allocation", "flood": "the flood", "end": "the end roll", "over": "game over"}


def _odds(dyke: int) -> str:
    return f"{round(flood_odds(dyke) * 6)} in 6"


def _verdict(before: int, after: int) -> tuple[str, str]:
    if after < before:
        return "falls", "#b71c1c"
    if after > before:
        return "rises", "#1b5e20"
    return "holds", "#37474f"


def _total_html(view: View, total: int, before: int, after: int, pledges: Sequence[int | None]) -> str:
    low, high = view.thresholds
    word, colour = _verdict(before, after)
    names = [h.name for h in view.households]
    shown = "".join(
        f'<span class="pb-chip" style="background:#e3ecfa" data-seat-pledge="{i}"><bdi>{esc(n)}</bdi>: {p}</span>' for i, (n, p) in enumerate(zip(names, pledges)) if p is not None
    )
    return (
        f'<div class="pb-label">The village pledged</div><div class="pb-huge pb-reveal-total" data-total="{total}">Total {total}</div>'
        f'<div class="pb-line">below {low} the dyke falls · {low} to {high} it holds · above {high} it rises</div>'
        f'<div class="pb-line" style="color:{colour}">The dyke {word}: {before} → {after}</div>'
        + (f'<div style="margin-top:6px">{shown}</div>' if shown else "")
    )


def scene(state: State, final: State | None = None) -> Scene:
    view = view_for(state, None, final=final)
    n = len(view.households)
    names = [h.name for h in view.households]
    pledged = sum(1 for h in view.households if h.pledged)
    heading = f"Year {view.year} · {WORDS.get(view.phase, view.phase)}"
    dyke = Fact("Dyke Condition", f"{view.dyke} of 6", "pb-dyke")
    log = view.log
    if view.phase == "over":
        return _results(state, view, final)
    anonymous = (
        '<div class="pb-label pb-anonymous-note">Anonymous pledges: only the village\'s total is announced; each pledge stays its household\'s own.</div>'
        if view.anonymous
        else ""
    )
    if view.total is not None:
        allocated = sum(1 for h in view.households if h.allocated)
        centre = _total_html(view, view.total, view.dyke_before, view.dyke, [h.pledge for h in view.households]) + anonymous
        facts = (Fact("Year", str(view.year)), dyke, Fact("Allocated", f"{allocated} of {n}"), Fact("Flood chance", _odds(view.dyke)))
        return Scene("reveal", heading, centre, facts, log)
    facts = (Fact("Year", str(view.year)), dyke, Fact("Pledged", f"{pledged} of {n}", "pb-pledged-count"), Fact("Flood chance", _odds(view.dyke)))
    last = view.years[-1] if view.years else None
    if last is not None and pledged == 0 and last.year == view.year - 1:
        # The year just ended: the river's die is the news until the first pledge comes in.
        colour = "#0d47a1" if last.flooded else "#1b5e20"
        said = "the village floods!" if last.flooded else "the dyke holds."
        end = f'<div class="pb-line">End roll {last.end_roll}: the game goes on.</div>' if last.end_roll is not None else ""
        centre = (
            f'<div class="pb-label">The flood of year {last.year}</div>'
            f'<div style="display:flex;gap:28px;align-items:center;flex-wrap:wrap">{die_face(last.flood, colour, 150)}'
            f'<div><div class="pb-huge" style="color:{colour}" data-flood="{last.flood}">Flood {last.flood}</div>'
            f'<div class="pb-line" style="color:{colour}">against the dyke at {last.dyke_after_pledges}: {said}</div></div></div>'
            f'<div class="pb-line">Dyke after the year: {last.dyke_after}</div>{end}{anonymous}'
        )
        return Scene("reveal", f"Year {last.year} · the flood", centre, facts, log)
    low, high = view.thresholds
    if view.phase == "misfortune":
        lead = '<div class="pb-line">The facilitator sets this year\'s misfortune.</div>'
    else:
        lead = f'<div class="pb-label">Secret pledges to the dyke</div><div class="pb-huge pb-pledged-big">{pledged} of {n} pledged</div>'
    waiting = [h.name for h in view.households if not h.pledged] if view.phase == "contribute" else []
    centre = (
        lead
        + dyke_gauge(view.dyke, 64)
        + f'<div class="pb-line">A total below {low} lowers the dyke · above {high} raises it · flood chance {_odds(view.dyke)}</div>'
        + f'<div class="pb-label">Final scoring at this dyke: 1 VP per {final_divisor(view.dyke)} Wealth</div>'
        + (f'<div class="pb-label">Still to pledge: {esc(", ".join(waiting))}</div>' if waiting and len(waiting) <= 12 else "")
        + anonymous
    )
    return Scene("decision", heading, centre, facts, log)


def _results(state: State, view: View, final: State | None = None) -> Scene:
    names = [h.name for h in view.households]
    winners = [s for rank, s, _ in view.standings if rank == 1]
    rows = "".join(
        f"<tr><td>{rank}</td><td>{esc(names[s])}</td><td>{vp} VP</td><td>{view.households[s].wealth} Wealth</td></tr>" for rank, s, vp in view.standings[:5]
    )
    more = f'<div class="pb-label">and {len(names) - 5} more households</div>' if len(names) > 5 else ""
    centre = f'<table class="pb-standings-big pb-results-standings">{rows}</table>{more}'
    facts = (Fact("Years", str(len(view.years))), Fact("Dyke at the end", f"{view.dyke} of 6", "pb-dyke"), Fact("Floods", str(sum(y.flooded for y in view.years))))
    return Scene("results", "the end", centre, facts, view.log, winners_text(names, winners, "households"), tuple(story(state, final)))


def story(state: State, final: State | None = None) -> list[str]:
    """The game in five lines, from the public record (at the end each household's VP and Wealth
    are the result, public in every variant)."""
    view = view_for(state, None, final=final)
    years = view.years
    if not years:
        return [f"The game ended before a year was played: {view.ended}."]
    start = years[0].dyke_before
    best = max(years, key=lambda y: y.total)
    worst = min(years, key=lambda y: y.total)
    floods = [str(y.year) for y in years if y.flooded]
    vp = max(view.households, key=lambda h: h.vp or 0)
    rich = max(view.households, key=lambda h: h.wealth or 0)
    return [
        f"{len(years)} year{'s' if len(years) != 1 else ''}: the dyke went from {start} to {view.dyke}.",
        f"The most pledged: {best.total} in year {best.year}; the least: {worst.total} in year {worst.year}.",
        f"The village flooded in year{'s' if len(floods) > 1 else ''} {', '.join(floods)}." if floods else "The village never flooded.",
        f"Most VP: {vp.name} ({vp.vp}); most Wealth: {rich.name} ({rich.wealth}).",
        f"The end: {view.ended}.",
    ]


def moment(before: State, state: State) -> tuple[str, int] | None:
    if before.total is None and state.total is not None:
        return f"Year {state.year}: the pledges revealed", state.year
    if len(state.years) > len(before.years):
        return f"Year {state.years[-1].year}: the flood", state.years[-1].year
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
    years = [f"Y{y.year}" for y in view.years]
    pledges = chart_svg(
        "Pledged each year, and the dyke after it",
        years,
        bars=[y.total for y in view.years],
        lines=[("Dyke", [y.dyke_after for y in view.years])],
        marks=[(low - 0.5, f"below {low}: the dyke falls", "#b71c1c"), (high + 0.5, f"above {high}: it rises", "#1b5e20")],
        bar_label="Pledged",
    )
    if view.anonymous:
        village = village_rows(last)
        return pledges + "".join(
            chart_svg(title, years, lines=[("the whole village", [r[key] for r in village])])
            for key, title in (("vp", "VP of the whole village"), ("wealth", "Wealth of the whole village"))
        )
    rows = ledger_rows(last, None, final=final)
    done = {y.year for y in view.years}
    if len(view.households) > 10:
        return pledges  # more lines than anyone could tell apart from the back of a room
    drawn = [pledges]
    for key, title in (("vp", "VP of each household"), ("wealth", "Wealth of each household")):
        series = []
        for h in view.households:
            by_year = {r["year"]: r[key] for r in rows if r["household"] == h.name and r["year"] in done}
            series.append((h.name, [by_year.get(y.year) for y in view.years]))
        drawn.append(chart_svg(title, years, lines=series))
    return "".join(drawn)


SCENES = GameScenes("leerdam", scene, moment, round_of, chart, "Year")
