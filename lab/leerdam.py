"""Leerdam's lab: household bots, a village's numbers per game, and what they show.

Each bot is a pledge rule (how much labour goes to the dyke) over one way of allocating the
rest; every bot answers a labour offer the same way. A game's row holds the village's years,
its dyke year by year, its floods and each household's VP.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from i18n import _, _n
from rules.core import Action, RuleError, rng_for
from rules.leerdam import RULES, Accept, Allocate, Assignment, Contribute, Decline, State, thresholds
from rules.text import say

from .core import Finding, LabGame, Measures, Row, Spec, checked, distribution, game_seed, play_lean, seat_chooser, summary
from .findings import by_kind, mean_by_kind, pct, pct_interval, seat_order, share_text, table_findings, what_wins, win_shares
from .plots import BLUE, RED, dyke_axes, dyke_line, histogram, new_figure, win_share_bars

__all__ = ["BOTS", "DEFAULT_BOTS", "GAME", "VILLAGES", "play_game"]

Pledge = Callable[[State, int], int]
#: units a bot keeps back for its own household's Subsistence when it can.
FOOD = 2


# -- pledges -------------------------------------------------------------------------------------


def _pledge_free_rider(state: State, seat: int) -> int:
    """free-rider: pledges nothing, ever."""
    return 0


def _pledge_fair(state: State, seat: int) -> int:
    """fair: pledges 1 unit a year, its share of the N that keep the dyke between thresholds."""
    return min(1, state.capacity(seat))


def _pledge_conditional(state: State, seat: int) -> int:
    """conditional: pledges last year's average pledge (1 in the first year)."""
    if not state.years:
        return min(1, state.capacity(seat))
    last = state.years[-1].total / state.n
    return min(round(last), state.capacity(seat))


def _pledge_altruist(state: State, seat: int) -> int:
    """altruist: pledges 2 units a year and feeds the household hit hardest by misfortune."""
    return min(2, state.capacity(seat))


def _pledge_reciprocal(state: State, seat: int) -> int:
    """reciprocal: pledges its share (1) while the village's pledges held the dyke last year."""
    if state.years and state.years[-1].total < thresholds(state.n)[0]:
        return 0
    return min(1, state.capacity(seat))


def _last_payers(state: State, seat: int) -> int:
    """Households that pledged something last year, counting `seat` (which means to pay now);
    every household in the first year, and always with anonymous pledges (who paid is secret)."""
    if not state.years or state.setup.anonymous:
        return state.n
    year = state.years[-1].year
    paid = {row.seat for row in state.ledger if row.year == year and (row.contribution or 0) > 0}
    return len(paid | {seat})


def _pledge_threshold(state: State, seat: int) -> int:
    """threshold: pays its even share (among last year's payers) of what holds the dyke, or
    raises it while below its start; nothing when it cannot spare that."""
    low, high = thresholds(state.n)
    target = high + 1 if state.dyke < state.setup.dyke_start else low
    share = math.ceil(max(0, target) / _last_payers(state, seat))
    spare = max(0, state.capacity(seat) - FOOD)
    return share if share <= spare else 0


# -- the bots ------------------------------------------------------------------------------------


def _bot(pledge: Pledge, generous: bool) -> Callable[[State, int, random.Random], Action]:
    def play_seat(state: State, seat: int, rng: random.Random) -> Action:
        if state.phase == "contribute":
            return Contribute(seat=seat, units=pledge(state, seat))
        if state.phase == "allocate":
            for d in state.deals:
                if d.status == "offered" and d.seller == seat:
                    fair = d.wealth >= 6 * d.units and d.units <= state.free_units(seat) and d.wealth <= state.households[d.buyer].wealth
                    return Accept(seat=seat, deal=d.id) if fair else Decline(seat=seat, deal=d.id)
            free = state.free_units(seat)
            plan: list[Assignment] = []
            own = min(FOOD, free)
            plan.append(Assignment(seat, "subsistence", own))
            free -= own
            # Others' capacity is secret with anonymous pledges: the altruist cannot tell who was struck.
            if generous and free and not state.setup.anonymous:
                struck = min(range(state.n), key=lambda s: (state.capacity(s), rng.random()))
                if struck != seat and state.capacity(struck) < state.setup.capacity:
                    plan.append(Assignment(struck, "subsistence", 1))
                    free -= 1
            if free:
                years_left = max(1, state.setup.end_check_from - state.year)
                leisure = min(free, 1 if years_left > 3 else 2)
                plan.append(Assignment(seat, "leisure", leisure))
                free -= leisure
            if free:
                plan.append(Assignment(seat, "profit", free))
            return Allocate(seat=seat, plan=tuple(plan))
        raise RuleError("bot", say("a bot has nothing to do in phase {phase}", phase=state.phase))

    play_seat.__doc__ = pledge.__doc__
    return play_seat


BOTS: dict[str, Callable[[State, int, random.Random], Action]] = {
    "free-rider": _bot(_pledge_free_rider, generous=False),
    "fair": _bot(_pledge_fair, generous=False),
    "conditional": _bot(_pledge_conditional, generous=False),
    "altruist": _bot(_pledge_altruist, generous=True),
    "reciprocal": _bot(_pledge_reciprocal, generous=False),
    "threshold": _bot(_pledge_threshold, generous=False),
}
#: a seven-household village of the first four kinds, for the balance tools.
DEFAULT_BOTS = ("free-rider", "fair", "conditional", "altruist", "free-rider", "fair", "conditional")
#: ready-made villages: the mixed one and one where every household cooperates.
VILLAGES: dict[str, tuple[str, ...]] = {
    "mixed": DEFAULT_BOTS,
    "cooperators": ("fair",) * len(DEFAULT_BOTS),
    "reciprocal and free riders": ("reciprocal",) * 5 + ("free-rider",) * 2,
    "threshold and free riders": ("threshold",) * 5 + ("free-rider",) * 2,
}


# -- one game, one row ------------------------------------------------------------------------------


def play_game(spec: Spec, seed: int, index: int) -> Row:
    """Village `index` of a run seeded `seed`, as one row of plain numbers."""
    setup = GAME.setup(spec)
    gs = game_seed(seed, index)
    choose = seat_chooser([BOTS[b] for b in spec.bots], rng_for(gs, -1))
    state = play_lean(RULES, setup, gs, choose, check=checked(spec, index))
    dykes = [y.dyke_after for y in state.years]
    vp = [h.vp for h in state.households]
    top = max(vp)
    row: Row = {
        "game": index,
        "seed": gs,
        "years": state.year,
        "ended": "year limit" if "limit" in state.ended else "end roll",
        "final_dyke": state.dyke,
        "floods": sum(1 for y in state.years if y.flooded),
        "dyke_1_year": next((y.year for y in state.years if y.dyke_after == 1), None),
        "pledged_per_year": round(sum(y.total for y in state.years) / len(state.years), 4),
        "top_vp": top,
        "vp_spread": top - min(vp),
        "winners": " ".join(str(s + 1) for s, v in enumerate(vp) if v == top),
        "dykes": dykes,
    }
    row.update({f"vp_{s + 1}": v for s, v in enumerate(vp)})
    return row



def _vp(row: Row, seats: int) -> list[int]:
    return [row[f"vp_{s + 1}"] for s in range(seats)]


def dyke_by_year(rows: Sequence[Row]) -> list[dict[str, Any]]:
    """Year by year: villages still playing, their mean dyke after the year, and the share at 1."""
    out = []
    for year in range(1, max((len(r["dykes"]) for r in rows), default=0) + 1):
        playing = [r["dykes"][year - 1] for r in rows if len(r["dykes"]) >= year]
        out.append(
            {
                "year": year,
                "villages": len(playing),
                "mean_dyke": round(sum(playing) / len(playing), 3),
                "share_at_1": round(sum(1 for d in playing if d == 1) / len(playing), 4),
            }
        )
    return out


def summarise(spec: Spec, rows: Sequence[Row]) -> dict[str, Any]:
    """Outcome statistics for a designer: years, floods, the dyke, VP and wins by strategy and seat."""
    bots = spec.bots
    n = len(rows)
    wins = win_shares(bots, rows)
    year_total = sum(r["years"] for r in rows)
    fell = [r["dyke_1_year"] for r in rows if r["dyke_1_year"] is not None]
    return {
        "game": "leerdam",
        "games": n,
        "bots": list(bots),
        "variant": spec.text,
        "years_played": distribution(Counter(r["years"] for r in rows)),
        "flood_rate_per_year": round(sum(r["floods"] for r in rows) / year_total, 4) if year_total else None,
        "final_dyke": {str(k): v for k, v in sorted(Counter(r["final_dyke"] for r in rows).items())},
        "share_dyke_fell_to_1": round(len(fell) / n, 4) if n else None,
        "year_dyke_fell_to_1": distribution(Counter(fell)),
        "pledged_per_year": summary([r["pledged_per_year"] for r in rows]),
        "mean_vp_by_strategy": mean_by_kind(bots, rows, "vp_"),
        "win_share_per_household_by_strategy": wins["by_kind"],
        "win_share_by_seat": wins["by_seat"],
        "vp_spread": summary([r["vp_spread"] for r in rows]),
        "dyke_by_year": dyke_by_year(rows),
    }


def measures(spec: Spec, rows: Sequence[Row]) -> Measures:
    """Per-game values a comparison sets side by side."""
    out: dict[str, Sequence[float | None]] = {
        "years played": [r["years"] for r in rows],
        "floods per game": [r["floods"] for r in rows],
        "final dyke": [r["final_dyke"] for r in rows],
        "dyke fell to 1 (share)": [float(r["dyke_1_year"] is not None) for r in rows],
        "units pledged per year": [r["pledged_per_year"] for r in rows],
        "winner's VP": [r["top_vp"] for r in rows],
        "VP spread (top - bottom)": [r["vp_spread"] for r in rows],
        "mean VP per household": [sum(_vp(r, len(spec.bots))) / len(spec.bots) for r in rows],
    }
    # With one kind at the table its mean is the household mean above: counted once.
    return out | (by_kind(spec.bots, rows, "vp_", "mean VP") if len(set(spec.bots)) > 1 else {})


def findings(spec: Spec, rows: Sequence[Row]) -> list[Finding]:
    """What a designer must not miss in these villages; each only when it holds."""
    found: list[Finding] = []
    n = len(rows)
    if not n:
        return found
    fell = sorted(r["dyke_1_year"] for r in rows if r["dyke_1_year"] is not None)
    if len(fell) >= n / 2:
        median = fell[len(fell) // 2]
        found.append(
            Finding(
                "dyke-falls",
                _(
                    "The dyke falls to 1 in most villages: {share}, half of them by year {year}. At 1 the village floods 5 years in 6 and final Wealth scores at 1 VP per 23.",
                    share=share_text(len(fell), n), year=str(median),
                ),
                {"share": round(len(fell) / n, 4), "median_year": median},
            )
        )
    elif not fell:
        found.append(Finding("dyke-holds", _n("The dyke never fell to 1 in {n} village.", "The dyke never fell to 1 in {n} villages.", n), {"share": 0.0}))
    floods = sum(r["floods"] for r in rows) / max(1, sum(r["years"] for r in rows))
    if floods > 0.5:
        found.append(Finding("floods", _("The village floods in most years ({share} of all years played).", share=pct(floods)), {"rate": round(floods, 4)}))
    # TRANSLATORS: Leerdam's victory points, as in "mean 12.5 VP against 9.0".
    return found + table_findings(spec.bots, rows, "vp_", _("VP"))


def review(spec: Spec, rows: Sequence[Row]) -> list[Finding]:
    """The text as written, in sentences with intervals: what wins, the text's end, the dyke,
    seat order, and what no village reached."""
    n = len(rows)
    setup = GAME.setup(spec)
    ended = sum(1 for r in rows if r["ended"] == "end roll")
    fell = sorted(r["dyke_1_year"] for r in rows if r["dyke_1_year"] is not None)
    top = max(max(r["dykes"]) for r in rows)
    floods = sum(r["floods"] for r in rows) / max(1, sum(r["years"] for r in rows))
    ends = dict(year=str(setup.end_check_from), share=pct_interval(ended, n), limit=str(setup.max_years))
    if setup.max_years:
        text_end = _("The text's own end, the end roll from year {year}, ends {share} of villages; the rest stopped at the model's {limit}-year limit.", **ends)
    else:
        text_end = _("The text's own end, the end roll from year {year}, ends {share} of villages.", **ends)
    dyke = dict(share=pct_interval(len(fell), n), floods=pct(floods))
    if fell:
        said_dyke = _(
            "The dyke falls to 1 in {share} of villages, half of them by year {year}; the village floods in {floods} of all years played.",
            **dyke, year=str(fell[len(fell) // 2]),
        )
    else:
        said_dyke = _("The dyke falls to 1 in {share} of villages; the village floods in {floods} of all years played.", **dyke)
    out = [
        # TRANSLATORS: what Leerdam's games are counted in, as in "wins 40% of villages".
        what_wins(spec.bots, rows, _("villages")),
        Finding("text-end", text_end, {"share": round(ended / n, 4)}),
        Finding("dyke", said_dyke, {"share": round(len(fell) / n, 4), "flood_rate": round(floods, 4)}),
        seat_order(spec.bots, rows),
    ]
    if top < 6:
        never = _n(
            "No village ever raised its dyke above {top} (the track runs to 6) in {n} village.",
            "No village ever raised its dyke above {top} (the track runs to 6) in {n} villages.",
            n, top=top,
        )
        out.append(Finding("never", never, {"highest_dyke": top}))
    return out


def bots_move_now(state: State, waiting: tuple[int, ...], bots: Collection[int]) -> tuple[int, ...]:
    """At a table with people, bots allocate after them, so that people can still hire them;
    a bot asked by an offer answers at once."""
    if state.phase != "allocate" or all(seat in bots for seat in waiting):
        return waiting
    asked = {d.seller for d in state.deals if d.status == "offered"}
    return tuple(seat for seat in waiting if seat in asked)


def compared_extras(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """A's and B's dyke year by year: a comparison draws the two villages side by side."""
    return {"villages": {"a": a["dyke_by_year"], "b": b["dyke_by_year"]}}


def figures(result: Any) -> list[Any]:
    """A run's charts: the win shares, the dyke year by year, the games' lengths and when the
    dyke first fell to 1."""
    s = result.summary
    figure, (left, right) = new_figure()
    win_share_bars(left, s)
    # TRANSLATORS: a chart's series: the one village a run plays, as in "village: mean dyke".
    dyke_line(right, s["dyke_by_year"], _("village"), BLUE)
    dyke_axes(right)
    right.set_title(_("The dyke year by year"))
    right.legend(fontsize=7, loc="upper right")
    extra, (a, b) = new_figure()
    histogram(a, s["years_played"]["histogram"], _("years played"))
    a.set_title(_("Game length"))
    histogram(b, s["year_dyke_fell_to_1"]["histogram"] or {"0": 0}, _("year the dyke first stood at 1"), RED)
    b.set_title(_("When the dyke fell to 1"))
    return [figure, extra]


GAME = LabGame(
    slug="leerdam",
    bots=BOTS,
    default_bots=DEFAULT_BOTS,
    options={"checked": None},
    play_game=play_game,
    summarise=summarise,
    measures=measures,
    findings=findings,
    review=review,
    compared_extras=compared_extras,
    bots_move_now=bots_move_now,
    note=say(
        "From year 8 an end roll may end the game each year, so game lengths vary. With more than 10 households the text "
        "suggests two villages: compare players=16 (one village) with players=8 (each of two) to see them side by side."
    ),
    variant_example=say("e.g. {variants}", variants="misfortune=3,2,1,0,0,0 sticky_flood=true"),
    bot_words={
        "free-rider": say("pledges nothing, ever."),
        "fair": say("pledges 1 unit a year, its share of the N that keep the dyke between thresholds."),
        "conditional": say("pledges last year's average pledge (1 in the first year)."),
        "altruist": say("pledges 2 units a year and feeds the household hit hardest by misfortune."),
        "reciprocal": say("pledges its share (1) while the village's pledges held the dyke last year."),
        "threshold": say("pays its even share (among last year's payers) of what holds the dyke, or raises it while below its start; nothing when it cannot spare that."),
    },
    labels={
        "years_played": say("Years played"),
        "flood_rate_per_year": say("Flood rate per year"),
        "final_dyke": say("Final dyke"),
        "share_dyke_fell_to_1": say("Share dyke fell to 1"),
        "year_dyke_fell_to_1": say("Year dyke fell to 1"),
        "pledged_per_year": say("Pledged per year"),
        "mean_vp_by_strategy": say("Mean VP by strategy"),
        "win_share_per_household_by_strategy": say("Win share per household by strategy"),
        "vp_spread": say("VP spread"),
        # the ready-made villages (`VILLAGES`)
        # TRANSLATORS: a ready-made village of bots: households of several strategies.
        "mixed": say("mixed"),
        "cooperators": say("cooperators"),
        "reciprocal and free riders": say("reciprocal and free riders"),
        "threshold and free riders": say("threshold and free riders"),
        # the measures a comparison sets side by side (`measures`)
        "years played": say("years played"),
        "floods per game": say("floods per game"),
        "final dyke": say("final dyke"),
        "dyke fell to 1 (share)": say("dyke fell to 1 (share)"),
        "units pledged per year": say("units pledged per year"),
        "winner's VP": say("winner's VP"),
        "VP spread (top - bottom)": say("VP spread (top - bottom)"),
        "mean VP per household": say("mean VP per household"),
        "mean VP: {kind}": say("mean VP: {kind}"),
    },
    figures=figures,
    line_ups=VILLAGES,
)
