"""Leerdam: a village, its dyke and the households that keep it. Text `seeds/leerdam.txt`.

A year: misfortune cuts each household's capacity; households secretly pledge labour to the
dyke, which falls, holds or rises with the total; they allocate the rest to any household's
Subsistence, Leisure or Profit (hiring each other's labour through binding deals); the river
rolls a flood against the dyke; Wealth pays VP every year; from year 8 a die may end the game.

Choices made where RULINGS.md is silent (also in docs/rules/leerdam.md):
- Each household's pledge is revealed with the total; with the `anonymous` variant only the
  total is, and the public sees the village as a whole until the game ends: no household's
  capacity, allocation, deals, gifts, VP or Wealth (each would give its pledge away). What a
  reader may see is then the same whichever household gave what (see `view_for`). After the
  end the facilitator may show everything (`ShowPledges`).
- A deal closes when the seller allocates: B's k units are part of B's allocation this year.
- Offers still open when the last household allocates lapse.
- A facilitator may advance a stalled year: a missing pledge counts as 0; a missing allocation
  puts the household's free units on its own Subsistence (up to 2) and leaves the rest idle.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from .core import Action, Event, GameRules, RuleError, check_names, ranked, seats_said
from .decisions import Decision, Game, Made, Render, Words, collect, commas
from .games import card
from .records import evolve
from .text import Said, say, say_n

__all__ = [
    "ACTIVITIES",
    "LEDGER_LABELS",
    "RULES",
    "Setup",
    "State",
    "decisions",
    "final_divisor",
    "flood_odds",
    "ledger_rows",
    "pledges_public",
    "pledges_shown",
    "profit_wealth",
    "public_pledges_hidden",
    "thresholds",
    "view_for",
    "village_rows",
]

#: What the game is: its name, who plays it and what it calls them (`rules.games`).
CARD = card("leerdam")

Activity = Literal["subsistence", "leisure", "profit"]
ACTIVITIES: tuple[Activity, ...] = ("subsistence", "leisure", "profit")
Phase = Literal["misfortune", "contribute", "allocate", "flood", "end", "over"]

DYKE_MIN, DYKE_MAX = 1, 6
#: VP for the units a household receives on its Subsistence: none -5, one -2, two or more 0.
SUBSISTENCE_VP = (-5, -2, 0)
LEISURE_CAP = 2
PROFIT_FIRST = 10
WEALTH_PER_VP = 30
FINAL_BASE, FINAL_STEP = 26, 3
FLOOD_PENALTY = 2
#: how the reveal's log line naming each household's pledge begins (an export may keep it out).
REVEAL_LINE = "The pledges are revealed:"
#: offers one household may make to another in a year (a bargain, not an endless stream).
OFFERS_PER_PARTNER = 5


# -- the schedules, as plain functions ------------------------------------------------------


def thresholds(households: int) -> tuple[int, int]:
    """(low, high): a total pledge below `low` lowers the dyke, above `high` raises it."""
    return households - 2, households + 1


def dyke_change(total: int, households: int) -> int:
    low, high = thresholds(households)
    return -1 if total < low else 1 if total > high else 0


def profit_wealth(units: int) -> int:
    """Wealth from `units` on one household's Profit: 10 for the first, 9 for the next, ..."""
    return sum(max(0, PROFIT_FIRST - i) for i in range(units))


def subsistence_vp(units: int) -> int:
    return SUBSISTENCE_VP[min(units, 2)]


def leisure_vp(units: int) -> int:
    return min(units, LEISURE_CAP)


def final_divisor(dyke: int) -> int:
    """Wealth per final VP: 26 - 3 x Dyke Condition."""
    return FINAL_BASE - FINAL_STEP * dyke


def flood_odds(dyke: int) -> float:
    """Chance the village floods this year at this Dyke Condition (d6 above the dyke)."""
    return (6 - dyke) / 6


def clamp_dyke(value: int) -> int:
    return max(DYKE_MIN, min(DYKE_MAX, value))


# -- setup ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """Households and variants; every number can be changed by a facilitator."""

    names: tuple[str, ...]
    #: units a household has in a year without misfortune.
    capacity: int = 6
    #: capacity lost on each face of the misfortune d6 (faces 1-6).
    misfortune: tuple[int, int, int, int, int, int] = (2, 1, 0, 0, 0, 0)
    #: the facilitator sets each year's misfortune instead of rolling it.
    misfortune_by_hand: bool = False
    #: the table rolls its own dice (misfortune, flood, end roll) and the facilitator enters them.
    table_dice: bool = False
    dyke_start: int = 3
    #: a flooded household stays Flooded after a dry year.
    sticky_flood: bool = False
    #: only the pledges' total is public until the game ends; each household's numbers stay
    #: its own (they would give its pledge away), unless the facilitator shows them at the end.
    anonymous: bool = False
    #: the first year that ends with the end-of-game roll.
    end_check_from: int = 8
    #: faces of the end roll that end the game.
    end_on: tuple[int, ...] = (1, 2, 3)
    #: a hard stop for classes with a bell; None lets the die decide.
    max_years: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", check_names(self.names, CARD.players.low, CARD.players.high, CARD.words.players))
        if not 1 <= self.capacity <= 20:
            raise RuleError("setup", say("capacity must be 1-20 units"))
        if len(self.misfortune) != 6 or any(not 0 <= m <= self.capacity for m in self.misfortune):
            raise RuleError("setup", say("the misfortune table needs six losses of 0-{capacity}", capacity=self.capacity))
        if not DYKE_MIN <= self.dyke_start <= DYKE_MAX:
            raise RuleError("setup", say("the dyke starts at 1-6"))
        if not 1 <= self.end_check_from <= 100 or not set(self.end_on) <= set(range(1, 7)):
            raise RuleError("setup", say("the end check starts in year 1-100 and ends on faces 1-6"))
        if self.max_years is not None and not 1 <= self.max_years <= 100:
            raise RuleError("setup", say("the year limit must be 1-100, or none"))

    @property
    def households(self) -> int:
        return len(self.names)

    @property
    def warning(self) -> str:
        """A note when the village is smaller or larger than the text's 5-10 (in English)."""
        return str(self.warning_said)

    @property
    def warning_said(self) -> Said | str:
        """`warning` as a message a page says in its language ("" when there is none)."""
        n = self.households
        if 5 <= n <= 10:
            return ""
        low, high = thresholds(n)
        return say("The text is written for 5-10 households; {n} plays, but the dyke thresholds ({low} and {high}) behave differently.", n=n, low=low, high=high)


# -- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Misfortune(Action):
    """Chance: each household's misfortune d6."""

    kind: ClassVar[str] = "misfortune"
    chance: ClassVar[bool] = True
    rolls: tuple[int, ...] = ()


@dataclass(frozen=True)
class SetMisfortune(Action):
    """The facilitator sets this year's capacity losses by hand."""

    kind: ClassVar[str] = "set-misfortune"
    losses: tuple[int, ...] = ()


@dataclass(frozen=True)
class Contribute(Action):
    """A household's secret pledge of units to the dyke."""

    kind: ClassVar[str] = "contribute"
    units: int = 0


@dataclass(frozen=True)
class Assignment:
    """Units a household puts on one (recipient, activity)."""

    recipient: int
    activity: str
    units: int


@dataclass(frozen=True)
class Allocate(Action):
    """A household's allocation of its free units; anything unassigned is idle."""

    kind: ClassVar[str] = "allocate"
    plan: tuple[Assignment, ...] = ()


@dataclass(frozen=True)
class Offer(Action):
    """Seat (the buyer) offers `wealth` for `units` of `partner`'s labour on the buyer's `activity`."""

    kind: ClassVar[str] = "offer"
    partner: int = 0
    wealth: int = 0
    units: int = 0
    activity: str = "profit"


@dataclass(frozen=True)
class Accept(Action):
    """The seller confirms offer `deal`: Wealth and labour change hands at once."""

    kind: ClassVar[str] = "accept"
    deal: int = 0


@dataclass(frozen=True)
class Decline(Action):
    """The seller turns down offer `deal`, or the buyer withdraws it."""

    kind: ClassVar[str] = "decline"
    deal: int = 0


@dataclass(frozen=True)
class Gift(Action):
    """Wealth given freely to another household (VP never moves)."""

    kind: ClassVar[str] = "gift"
    to: int = 0
    wealth: int = 0


@dataclass(frozen=True)
class Advance(Action):
    """The facilitator moves a stalled year on (see the module docstring)."""

    kind: ClassVar[str] = "advance"


@dataclass(frozen=True)
class Flood(Action):
    """Chance: this year's Flood Strength."""

    kind: ClassVar[str] = "flood"
    chance: ClassVar[bool] = True
    strength: int = 1


@dataclass(frozen=True)
class EndRoll(Action):
    """Chance: the end-of-game d6 (from year `end_check_from`)."""

    kind: ClassVar[str] = "end-roll"
    chance: ClassVar[bool] = True
    die: int = 6


@dataclass(frozen=True)
class ShowPledges(Action):
    """The facilitator's choice for the debrief of a finished anonymous game: show every
    household's pledges and numbers (`show`), or keep them anonymous (the default)."""

    kind: ClassVar[str] = "show-pledges"
    show: bool = True


ACTIONS: tuple[type[Action], ...] = (Misfortune, SetMisfortune, Contribute, Allocate, Offer, Accept, Decline, Gift, Advance, Flood, EndRoll, ShowPledges)


# -- state -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Household:
    name: str
    wealth: int = 0
    vp: int = 0
    flooded: bool = False


@dataclass(frozen=True)
class Deal:
    id: int
    buyer: int
    seller: int
    wealth: int
    units: int
    activity: str
    #: "offered", "done", "declined" or "lapsed".
    status: str = "offered"


@dataclass(frozen=True)
class LedgerRow:
    """One household's line in the ledger for one year (the debrief CSV's row)."""

    year: int
    seat: int
    misfortune: int = 0
    capacity: int = 0
    contribution: int | None = None
    subsistence: int = 0
    leisure: int = 0
    profit: int = 0
    #: VP from this year's allocation, flood losses and annual VP, and the totals after the year.
    vp_allocation: int = 0
    wealth_profit: int = 0
    wealth_lost: int = 0
    vp_annual: int = 0
    vp_final: int = 0
    vp: int = 0
    wealth: int = 0
    flooded: bool = False
    dyke: int = 0


@dataclass(frozen=True)
class YearSummary:
    """The village's numbers for one finished year (for plots and the board)."""

    year: int
    total: int
    dyke_before: int
    dyke_after_pledges: int
    flood: int
    dyke_after: int
    flooded: bool
    #: the end-of-game die rolled after this year (None before year `end_check_from`).
    end_roll: int | None = None
    #: the whole village's VP and Wealth after the year (sums: public in every variant).
    vp: int = 0
    wealth: int = 0


@dataclass(frozen=True)
class State:
    setup: Setup
    phase: Phase
    year: int
    dyke: int
    households: tuple[Household, ...]
    #: this year's capacity losses.
    losses: tuple[int, ...] = ()
    #: secret pledges (None: not yet).
    pledges: tuple[int | None, ...] = ()
    plans: tuple[tuple[Assignment, ...] | None, ...] = ()
    deals: tuple[Deal, ...] = ()
    years: tuple[YearSummary, ...] = ()
    ledger: tuple[LedgerRow, ...] = ()
    log: tuple[Event, ...] = ()
    #: why the game ended, in English, and as a message a page says in its language.
    ended: str = ""
    ending: str | Said = ""
    #: the current year's pledge total and dyke before it, once revealed.
    total: int | None = None
    dyke_before: int = 0
    #: an anonymous game's facilitator chose, after the end, to show every household's numbers.
    pledges_shown: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names

    @property
    def n(self) -> int:
        return len(self.setup.names)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def capacity(self, seat: int) -> int:
        return self.setup.capacity - self.losses[seat] if self.losses else self.setup.capacity

    def sold(self, seat: int) -> int:
        """Units `seat` owes buyers through deals done this year."""
        if not self.deals:
            return 0
        return sum(d.units for d in self.deals if d.seller == seat and d.status == "done")

    def free_units(self, seat: int) -> int:
        """Units `seat` still has to allocate: capacity less pledge less labour sold."""
        return self.capacity(seat) - (self.pledges[seat] or 0) - self.sold(seat)

    def waiting_for(self) -> tuple[int, ...]:
        if self.phase == "contribute":
            return tuple([s for s, p in enumerate(self.pledges) if p is None])
        if self.phase == "allocate":
            return tuple([s for s, p in enumerate(self.plans) if p is None])
        return ()


def _say(state: State, *texts: str | Said) -> tuple[Event, ...]:
    """The log with public lines added."""
    year = state.year
    return state.log + tuple([Event(text, None, year) for text in texts])


def _say_to(state: State, seats: Iterable[int], text: str | Said) -> tuple[Event, ...]:
    """The log with a line only `seats` may read."""
    return state.log + (Event(text, frozenset(seats), state.year),)


def _say_each(state: State, lines: Mapping[int, str | Said]) -> tuple[Event, ...]:
    """The log with one line for each seat in `lines`, that only the seat may read."""
    return state.log + tuple([Event(text, frozenset((seat,)), state.year) for seat, text in lines.items()])


def _say_among(state: State, seats: Iterable[int], text: str | Said) -> tuple[Event, ...]:
    """A line about `seats`' own dealings: public, but only theirs in the anonymous variant."""
    return _say_to(state, seats, text) if state.setup.anonymous else _say(state, text)


#: a row with every default, copied for each new row (building a 17-field frozen record field
#: by field costs more than the rest of the year's ledger work).
_BLANK_ROW = LedgerRow(0, 0)


def _rows(state: State, changes: Mapping[int, Mapping[str, Any]]) -> tuple[LedgerRow, ...]:
    """The ledger with this year's row of each seat in `changes` updated (or started)."""
    ledger = list(state.ledger)
    where: dict[int, int] = {}
    for i in range(len(ledger) - 1, -1, -1):
        if ledger[i].year != state.year:
            break  # rows are kept year by year, so this year's rows are the last ones
        where.setdefault(ledger[i].seat, i)
    for seat, change in changes.items():
        if seat in where:
            ledger[where[seat]] = evolve(ledger[where[seat]], **change)
        else:
            ledger.append(evolve(_BLANK_ROW, year=state.year, seat=seat, **change))
    return tuple(ledger)


def _row(state: State, seat: int, **changes: Any) -> tuple[LedgerRow, ...]:
    return _rows(state, {seat: changes})


#: The three activities as words of the reader's language; an activity's id stays as it is.
_ACTIVITY_WORDS: Mapping[str, Said] = {
    "subsistence": say("subsistence"),
    "leisure": say("leisure"),
    "profit": say("profit"),
}


def activity_word(activity: str) -> str | Said:
    """An activity ("profit") as the reader's language names it."""
    return _ACTIVITY_WORDS.get(activity, activity)


def _units(n: int) -> Said:
    """'1 unit', '3 units' of labour, with the reader's plural."""
    return say_n("{n} unit", "{n} units", n)


def _then(first: Said, second: Said) -> Said:
    """Two sentences one after the other."""
    # TRANSLATORS: two whole sentences of a log line, one after the other.
    return say("{first} {second}", first=first, second=second)


def _joined(items: Sequence[Said], say_pair: Any = None) -> Said:
    """Items of a list joined in their order, "Ana 2, Bo 1" (`say_pair` for another separator)."""
    joined = items[-1]
    for item in reversed(items[:-1]):
        # TRANSLATORS: two items of a list ("Ana 2, Bo 1"): keep the order.
        joined = say_pair(item, joined) if say_pair else say("{first}, {rest}", first=item, rest=joined)
    return joined


def _verdict(total: int, change: int, low: int, high: int, dyke: int, stuck: bool) -> Said:
    """The year's pledges against the dyke's thresholds: what happens to the dyke."""
    if change < 0 and stuck:
        return say_n("{n} unit for the dyke in all, below {low}: the dyke falls to {dyke} (it cannot go further).", "{n} units for the dyke in all, below {low}: the dyke falls to {dyke} (it cannot go further).", total, low=low, dyke=dyke)
    if change < 0:
        return say_n("{n} unit for the dyke in all, below {low}: the dyke falls to {dyke}.", "{n} units for the dyke in all, below {low}: the dyke falls to {dyke}.", total, low=low, dyke=dyke)
    if change > 0 and stuck:
        return say_n("{n} unit for the dyke in all, above {high}: the dyke rises to {dyke} (it cannot go further).", "{n} units for the dyke in all, above {high}: the dyke rises to {dyke} (it cannot go further).", total, high=high, dyke=dyke)
    if change > 0:
        return say_n("{n} unit for the dyke in all, above {high}: the dyke rises to {dyke}.", "{n} units for the dyke in all, above {high}: the dyke rises to {dyke}.", total, high=high, dyke=dyke)
    return say_n("{n} unit for the dyke in all, between {low} and {high}: the dyke holds at {dyke}.", "{n} units for the dyke in all, between {low} and {high}: the dyke holds at {dyke}.", total, low=low, high=high, dyke=dyke)


def _require(condition: bool, rule: str, message: str | Said) -> None:
    if not condition:
        raise RuleError(rule, message)


# -- the year --------------------------------------------------------------------------------


def initial(setup: Setup) -> State:
    state = State(setup=setup, phase="misfortune", year=0, dyke=setup.dyke_start, households=tuple(Household(n) for n in setup.names))
    return _begin_year(state)


def _begin_year(state: State) -> State:
    n = state.n
    state = evolve(
        state,
        phase="misfortune",
        year=state.year + 1,
        losses=(),
        pledges=(None,) * n,
        plans=(None,) * n,
        deals=(),
        total=None,
        dyke_before=state.dyke,
    )
    return evolve(state, log=_say(state, say("Year {year} begins. The dyke stands at {dyke}.", year=state.year, dyke=state.dyke)))


def _set_losses(state: State, losses: Sequence[int], why: Said) -> State:
    state = evolve(state, phase="contribute", losses=tuple(losses))
    state = evolve(state, ledger=_rows(state, {seat: {"misfortune": losses[seat], "capacity": state.capacity(seat)} for seat in range(state.n)}))
    hit = [s for s in range(state.n) if losses[s]]
    if state.setup.anonymous and hit:
        # A household's capacity bounds its pledge: the room hears how hard the year is, not whom it hit.
        text = say_n(
            "Misfortune strikes {n} household: {units} of labour lost in all.",
            "Misfortune strikes {n} households: {units} of labour lost in all.",
            len(hit),
            units=_units(sum(losses)),
        )
        state = evolve(state, log=_say(state, _then(why, text), say("Households make their secret pledges to the dyke.")))
        mine: dict[int, str | Said] = {
            s: say("Misfortune costs you {units}: you have {n} this year.", units=_units(losses[s]), n=state.capacity(s)) for s in hit
        }
        return evolve(state, log=_say_each(state, mine))
    # TRANSLATORS: a household and the units misfortune took from it, in a list ("Ana (-2)").
    struck = [say("{name} (-{n})", name=state.names[s], n=losses[s]) for s in hit]
    text = say("Misfortune strikes {households}.", households=_joined(struck)) if struck else say("No misfortune this year: every household works at full capacity.")
    return evolve(state, log=_say(state, _then(why, text), say("Households make their secret pledges to the dyke.")))


def _reveal(state: State) -> State:
    pledges = [p or 0 for p in state.pledges]
    total = sum(pledges)
    change = dyke_change(total, state.n)
    low, high = thresholds(state.n)
    before = state.dyke
    dyke = clamp_dyke(before + change)
    state = evolve(state, phase="allocate", total=total, dyke=dyke)
    state = evolve(state, ledger=_rows(state, {seat: {"contribution": pledges[seat]} for seat in range(state.n)}))
    if state.setup.anonymous:
        lines: list[str | Said] = [say("Every household has pledged. Only the total is announced: each pledge stays its household's own.")]
    else:
        # TRANSLATORS: a household's revealed pledge, in a list ("Ana 2").
        each = _joined([say("{name} {n}", name=state.names[s], n=pledges[s]) for s in range(state.n)])
        lines = [say("The pledges are revealed: {pledges}.", pledges=each)]
    lines.append(_verdict(total, change, low, high, dyke, stuck=bool(change) and dyke == before))
    lines.append(say("Households allocate the rest of their labour; hired labour is agreed now."))
    return evolve(state, log=_say(state, *lines))


def _resolve_allocation(state: State) -> State:
    n = state.n
    received = [[0, 0, 0] for _ in range(n)]
    for plan in state.plans:
        for a in plan or ():
            received[a.recipient][ACTIVITIES.index(a.activity)] += a.units
    for deal in state.deals:
        if deal.status == "done":
            received[deal.buyer][ACTIVITIES.index(deal.activity)] += deal.units
    deals = tuple(evolve(d, status="lapsed") if d.status == "offered" else d for d in state.deals)
    lapsed = [d for d in deals if d.status == "lapsed" and d not in state.deals]
    households = list(state.households)
    state = evolve(state, deals=deals)
    for d in lapsed:
        state = evolve(state, log=_say_to(state, [d.buyer, d.seller], say("{buyer}'s offer to {seller} lapses.", buyer=state.names[d.buyer], seller=state.names[d.seller])))
    rows = {}
    for seat, (sub, lei, pro) in enumerate(received):
        vp = subsistence_vp(sub) + leisure_vp(lei)
        wealth = profit_wealth(pro)
        h = households[seat]
        households[seat] = evolve(h, vp=h.vp + vp, wealth=h.wealth + wealth)
        rows[seat] = {"subsistence": sub, "leisure": lei, "profit": pro, "vp_allocation": vp, "wealth_profit": wealth}
    state = evolve(state, ledger=_rows(state, rows), households=tuple(households), phase="flood")
    hungry = [seat for seat, r in enumerate(received) if r[0] < 2]
    if state.setup.anonymous:
        # Who went hungry says where a household's labour went: a count for the room, a note for each.
        lines: list[str | Said] = [say_n("Short of food this year: {n} household.", "Short of food this year: {n} households.", len(hungry))] if hungry else []
        short: dict[int, str | Said] = {s: say("Your household is short of food this year ({n} VP).", n=subsistence_vp(received[s][0])) for s in hungry}
        state = evolve(state, log=_say_each(state, short))
    else:
        lines = [say("Short of food this year: {households}.", households=seats_said(state.names, hungry))] if hungry else []
    return evolve(state, log=_say(state, *lines, say("The harvest is in. The river rises...")))


def _flood(state: State, strength: int) -> State:
    before = state.dyke
    flooded = strength > before
    dyke = before
    households = list(state.households)
    rows: dict[int, dict[str, Any]] = {seat: {} for seat in range(state.n)}
    if flooded:
        dyke -= 1
        text = say(
            "Flood strength {strength} beats the dyke at {before}: the village floods, every household loses a third of its Wealth, and the dyke falls to {dyke}.",
            strength=strength,
            before=before,
            dyke=clamp_dyke(dyke),
        )
    else:
        text = say("Flood strength {strength} against the dyke at {before}: the dyke holds.", strength=strength, before=before)
    if strength == 6:
        dyke -= 1
        text = _then(text, say("The great flood of a 6 batters the dyke down to {dyke}.", dyke=clamp_dyke(dyke)))
    dyke = clamp_dyke(dyke)
    annual: list[Said] = []
    earned: dict[int, int] = {}
    for seat, h in enumerate(households):
        wealth, wet = h.wealth, h.flooded
        if flooded:
            lost = math.ceil(wealth / 3)
            wealth, wet = wealth - lost, True
            rows[seat]["wealth_lost"] = lost
        elif not state.setup.sticky_flood:
            wet = False
        # Annual VP: 1 per 30 Wealth held after the flood.
        vp = wealth // WEALTH_PER_VP
        if vp:
            # TRANSLATORS: a household and the VP its Wealth brought it, in a list ("Ana +1").
            annual.append(say("{name} +{n}", name=h.name, n=vp))
            earned[seat] = vp
        if (wealth, wet, vp) != (h.wealth, h.flooded, 0):
            households[seat] = evolve(h, wealth=wealth, flooded=wet, vp=h.vp + vp)
        # The ledger closes the year with each household's totals after the flood.
        rows[seat].update(vp_annual=vp, vp=h.vp + vp, wealth=wealth, flooded=wet, dyke=dyke)
    state = evolve(state, households=tuple(households), dyke=dyke, ledger=_rows(state, rows))
    lines: list[str | Said] = [text]
    if annual and state.setup.anonymous:
        # A household's VP says how much Wealth it holds: the room hears the village's sum.
        lines.append(say("Wealth brings comfort (1 VP per {per}): {n} VP in the village.", per=WEALTH_PER_VP, n=sum(earned.values())))
    elif annual:
        lines.append(say("Wealth brings comfort (1 VP per {per}): {households}.", per=WEALTH_PER_VP, households=_joined(annual)))
    state = evolve(state, log=_say(state, *lines))
    if state.setup.anonymous:
        state = evolve(state, log=_say_each(state, {s: say("Your Wealth brings you {n} VP.", n=vp) for s, vp in earned.items()}))
    total = state.total or 0
    after_pledges = clamp_dyke(state.dyke_before + dyke_change(total, state.n))
    village = state.households
    summary = YearSummary(
        state.year, total, state.dyke_before, after_pledges, strength, dyke, flooded, vp=sum(h.vp for h in village), wealth=sum(h.wealth for h in village)
    )
    state = evolve(state, years=state.years + (summary,))
    if state.setup.max_years is not None and state.year >= state.setup.max_years:
        return _end(state, say("the {n}-year limit was reached", n=state.setup.max_years))
    if state.year >= state.setup.end_check_from:
        return evolve(state, phase="end")
    return _begin_year(state)


def _end(state: State, why: Said) -> State:
    divisor = final_divisor(state.dyke)
    households = list(state.households)
    rows = {}
    for seat, h in enumerate(households):
        final = h.wealth // divisor - (FLOOD_PENALTY if h.flooded else 0)
        households[seat] = evolve(h, vp=h.vp + final)
        rows[seat] = {"vp_final": final, "vp": h.vp + final}
    state = evolve(state, ledger=_rows(state, rows), households=tuple(households), phase="over", ended=str(why), ending=why)
    state = evolve(state, log=_say(state, say(
                "The game ends: {why}. Final scoring: 1 VP per {divisor} Wealth at dyke {dyke}, and -{penalty} for a Flooded house.",
                why=why,
                divisor=divisor,
                dyke=state.dyke,
                penalty=FLOOD_PENALTY,
            )))
    table = standings(state)
    best = [s for rank, s, _ in table if rank == 1]
    # TRANSLATORS: one household's final VP ("Ana 12").
    scores = [say("{name} {n}", name=state.names[s], n=vp) for _rank, s, vp in table]
    summary = _joined(scores, say_pair=lambda first, rest: say("{first}; {rest}", first=first, rest=rest))
    if len(best) == 1:
        return evolve(state, log=_say(state, say("Final VP: {scores}. {name} wins.", scores=summary, name=seats_said(state.names, best))))
    return evolve(state, log=_say(state, say("Final VP: {scores}. {names} share the win.", scores=summary, names=seats_said(state.names, best))))


# -- checking --------------------------------------------------------------------------------


def _seat(state: State, seat: int | None, what: str = "household") -> int:
    if not (isinstance(seat, int) and 0 <= seat < state.n):
        if what == "recipient":
            raise RuleError("seat", say("there is no recipient {seat}", seat=repr(seat)))
        if what == "partner":
            raise RuleError("seat", say("there is no partner {seat}", seat=repr(seat)))
        raise RuleError("seat", say("there is no household {seat}", seat=repr(seat)))
    return seat


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _plan_units(plan: Sequence[Assignment]) -> int:
    return sum(a.units for a in plan)


def check(state: State, action: Action) -> None:
    if isinstance(action, ShowPledges):
        # The one move after the end: the debrief's choice, not a move of the game.
        _require(action.seat is None, "facilitator", say("only the facilitator shows or hides the pledges"))
        _require(state.setup.anonymous, "anonymous", say("this game reveals every pledge already"))
        _require(state.over, "anonymous", say("the pledges stay anonymous until the game ends"))
        _require(action.show != state.pledges_shown, "anonymous", say("the pledges are shown already") if action.show else say("the pledges are anonymous already"))
        return
    if state.over:
        raise RuleError("game over", say("the game is over"))
    if isinstance(action, Contribute):
        # Pledges and allocations are most of a game's moves: messages are only made on refusal.
        seat = _seat(state, action.seat)
        if state.phase != "contribute":
            raise RuleError("turn order", say("it is not time to pledge (now: {phase})", phase=state.phase))
        if state.pledges[seat] is not None:
            raise RuleError("one pledge", say("{name} has already pledged", name=state.names[seat]))
        cap = state.capacity(seat)
        if not (isinstance(action.units, int) and 0 <= action.units <= cap):
            raise RuleError("capacity", say("{name} can pledge 0-{cap} units this year, not {units}", name=state.names[seat], cap=cap, units=repr(action.units)))
        return
    if isinstance(action, Allocate):
        seat = _seat(state, action.seat)
        if state.phase != "allocate":
            raise RuleError("turn order", say("it is not time to allocate (now: {phase})", phase=state.phase))
        if state.plans[seat] is not None:
            raise RuleError("one allocation", say("{name} has already allocated", name=state.names[seat]))
        for a in action.plan:
            _seat(state, a.recipient, "recipient")
            if a.activity not in ACTIVITIES:
                raise RuleError("allocation", say("{activity} is not an activity", activity=repr(a.activity)))
            if not (isinstance(a.units, int) and a.units >= 0):
                raise RuleError("allocation", say("units are whole and not negative"))
        free = state.free_units(seat)
        if _plan_units(action.plan) > free:
            raise RuleError("allocation", say("that allocates {units} units; {name} has {free} left", units=_plan_units(action.plan), name=state.names[seat], free=free))
        return
    if isinstance(action, Gift):
        seat = _seat(state, action.seat)
        to = _seat(state, action.to, "recipient")
        _require(to != seat, "gift", say("a household cannot give Wealth to itself"))
        _require(isinstance(action.wealth, int) and action.wealth > 0, "gift", say("a gift is a positive amount of Wealth"))
        _require(action.wealth <= state.households[seat].wealth, "gift", say("{name} has only {n} Wealth to give", name=state.names[seat], n=state.households[seat].wealth))
        return
    if isinstance(action, Misfortune):
        _require(state.phase == "misfortune" and not state.setup.misfortune_by_hand, "turn order", say("misfortune is not rolled now"))
        _require(isinstance(action.rolls, tuple), "misfortune", say("one d6 per household"))
        _require(len(action.rolls) == state.n and all(_whole(r) and 1 <= r <= 6 for r in action.rolls), "misfortune", say("one d6 (a whole number 1-6) per household"))
        return
    if isinstance(action, SetMisfortune):
        _require(state.phase == "misfortune", "turn order", say("misfortune is set at the start of a year"))
        _require(len(action.losses) == state.n, "misfortune", say("one loss per household"))
        _require(all(_whole(x) and 0 <= x <= state.setup.capacity for x in action.losses), "misfortune", say("a loss is a whole number of units, 0-{capacity}", capacity=state.setup.capacity))
        return
    if isinstance(action, Offer):
        seat = _seat(state, action.seat)
        partner = _seat(state, action.partner, "partner")
        _require(state.phase == "allocate", "turn order", say("labour is hired while households allocate"))
        _require(partner != seat, "deal", say("a household cannot hire itself"))
        _require(action.activity in ACTIVITIES, "deal", say("{activity} is not an activity", activity=repr(action.activity)))
        _require(isinstance(action.units, int) and action.units >= 1, "deal", say("a deal hires at least one unit"))
        _require(isinstance(action.wealth, int) and action.wealth >= 0, "deal", say("the price is zero or more Wealth"))
        _require(action.wealth <= state.households[seat].wealth, "buyer's wealth", say("{name} has only {n} Wealth", name=state.names[seat], n=state.households[seat].wealth))
        _require(state.plans[partner] is None, "deal", say("{name} has already allocated this year", name=state.names[partner]))
        made = sum(1 for d in state.deals if d.buyer == seat and d.seller == partner)
        _require(made < OFFERS_PER_PARTNER, "deal", say("{name} has made {n} offers to {partner} this year, the most a year allows", name=state.names[seat], n=OFFERS_PER_PARTNER, partner=state.names[partner]))
        if action.units > state.free_units(partner):
            # With anonymous pledges a household's free units would tell the buyer its pledge.
            if state.setup.anonymous:
                raise RuleError("seller's capacity", say("{name} has fewer free units", name=state.names[partner]))
            raise RuleError("seller's capacity", say("{name} has only {n} free units", name=state.names[partner], n=state.free_units(partner)))
        return
    if isinstance(action, (Accept, Decline)):
        seat = _seat(state, action.seat)
        _require(state.phase == "allocate", "turn order", say("deals are settled while households allocate"))
        deal = next((d for d in state.deals if d.id == action.deal), None)
        _require(deal is not None and deal.status == "offered", "deal", say("there is no open offer {deal}", deal=str(action.deal)))
        assert deal is not None
        if isinstance(action, Decline):
            _require(seat in (deal.buyer, deal.seller), "deal", say("only the two households can call off an offer"))
            return
        _require(seat == deal.seller, "deal", say("only the household hired can accept an offer"))
        _require(state.plans[seat] is None, "deal", say("{name} has already allocated this year", name=state.names[seat]))
        _require(deal.wealth <= state.households[deal.buyer].wealth, "buyer's wealth", say("{name} no longer has {n} Wealth", name=state.names[deal.buyer], n=deal.wealth))
        _require(deal.units <= state.free_units(seat), "seller's capacity", say("{name} has only {n} free units", name=state.names[seat], n=state.free_units(seat)))
        return
    if isinstance(action, Advance):
        _require(action.seat is None, "facilitator", say("only the facilitator advances the year"))
        _require(state.phase in ("contribute", "allocate"), "turn order", say("there is nothing to advance now"))
        return
    if isinstance(action, Flood):
        _require(state.phase == "flood", "turn order", say("the flood comes after the harvest"))
        _require(_whole(action.strength) and 1 <= action.strength <= 6, "flood", say("flood strength is a d6 (a whole number 1-6)"))
        return
    if isinstance(action, EndRoll):
        _require(state.phase == "end", "turn order", say("the end roll comes after the year"))
        _require(_whole(action.die) and 1 <= action.die <= 6, "end", say("the end roll is a d6 (a whole number 1-6)"))
        return
    raise RuleError("action", say("Leerdam has no action {kind}", kind=type(action).__name__))


def _default_plan(state: State, seat: int) -> tuple[Assignment, ...]:
    units = min(2, state.free_units(seat))
    return (Assignment(seat, "subsistence", units),) if units else ()


def play(state: State, action: Action) -> State:
    # Pledges and allocations first: they are nearly every move of a game.
    if isinstance(action, Contribute):
        seat = action.seat
        assert seat is not None
        pledges = list(state.pledges)
        pledges[seat] = action.units
        log = state.log + (
            Event(say("{name} has made a secret pledge.", name=state.names[seat]), None, state.year),
            Event(say("You pledged {units} to the dyke.", units=_units(action.units)), frozenset((seat,)), state.year),
        )
        state = evolve(state, pledges=tuple(pledges), log=log)
        return _reveal(state) if None not in pledges else state
    if isinstance(action, Allocate):
        seat = action.seat
        assert seat is not None
        plans = list(state.plans)
        plans[seat] = tuple(a for a in action.plan if a.units)
        state = evolve(state, plans=tuple(plans), log=_say(state, say("{name} has allocated this year's labour.", name=state.names[seat])))
        return _resolve_allocation(state) if None not in plans else state
    if isinstance(action, Gift):
        seat, to = action.seat, action.to
        assert seat is not None
        households = list(state.households)
        households[seat] = evolve(households[seat], wealth=households[seat].wealth - action.wealth)
        households[to] = evolve(households[to], wealth=households[to].wealth + action.wealth)
        state = evolve(state, households=tuple(households))
        return evolve(state, log=_say_among(state, (seat, to), say("{name} gives {n} Wealth to {other}.", name=state.names[seat], n=action.wealth, other=state.names[to])))
    if isinstance(action, Misfortune):
        table = state.setup.misfortune
        # The dice are identifiers of a roll ("3 1 6"), not a quantity: said as digits.
        why = say("The misfortune dice are rolled.") if state.setup.anonymous else say("Misfortune dice: {dice}.", dice=" ".join(map(str, action.rolls)))
        return _set_losses(state, [table[r - 1] for r in action.rolls], why)
    if isinstance(action, SetMisfortune):
        return _set_losses(state, action.losses, say("The facilitator sets this year's misfortune."))
    if isinstance(action, Offer):
        seat = action.seat
        assert seat is not None
        deal = Deal(len(state.deals) + 1, seat, action.partner, action.wealth, action.units, action.activity)
        state = evolve(state, deals=state.deals + (deal,))
        return evolve(
            state,
            log=_say_to(state, [seat, deal.seller], say(
                    "{buyer} offers {seller} {wealth} Wealth for {units} on {buyer}'s {activity} (offer {deal}).",
                    buyer=state.names[seat],
                    seller=state.names[deal.seller],
                    wealth=deal.wealth,
                    units=_units(deal.units),
                    activity=activity_word(deal.activity),
                    deal=str(deal.id),
                )),
        )
    if isinstance(action, (Accept, Decline)):
        deal = next(d for d in state.deals if d.id == action.deal)
        done = isinstance(action, Accept)
        deals = tuple(evolve(d, status="done" if done else "declined") if d.id == deal.id else d for d in state.deals)
        state = evolve(state, deals=deals)
        if not done:
            name = state.names[action.seat or 0]
            if action.seat == deal.buyer:
                called_off = say("{name} withdraws offer {deal}.", name=name, deal=str(deal.id))
            else:
                called_off = say("{name} declines offer {deal}.", name=name, deal=str(deal.id))
            return evolve(state, log=_say_to(state, [deal.buyer, deal.seller], called_off))
        households = list(state.households)
        households[deal.buyer] = evolve(households[deal.buyer], wealth=households[deal.buyer].wealth - deal.wealth)
        households[deal.seller] = evolve(households[deal.seller], wealth=households[deal.seller].wealth + deal.wealth)
        state = evolve(state, households=tuple(households))
        return evolve(
            state,
            log=_say_among(
                state, (deal.buyer, deal.seller), say(
                    "Deal: {seller} works {units} on {buyer}'s {activity} for {wealth} Wealth.",
                    seller=state.names[deal.seller],
                    units=_units(deal.units),
                    buyer=state.names[deal.buyer],
                    activity=activity_word(deal.activity),
                    wealth=deal.wealth,
                )
            ),
        )
    if isinstance(action, Advance):
        if state.phase == "contribute":
            missing = [s for s in range(state.n) if state.pledges[s] is None]
            state = evolve(state, pledges=tuple(p or 0 for p in state.pledges))
            if state.setup.anonymous:
                text = say("The facilitator moves on: every missing pledge ({n}) counts as 0.", n=len(missing))
            else:
                text = say("The facilitator moves on: {households} pledge nothing.", households=seats_said(state.names, missing))
            state = evolve(state, log=_say(state, text))
            return _reveal(state)
        missing = [s for s in range(state.n) if state.plans[s] is None]
        plans = tuple(p if p is not None else _default_plan(state, s) for s, p in enumerate(state.plans))
        state = evolve(state, plans=plans)
        if state.setup.anonymous:
            text = say("The facilitator moves on: every household still to allocate ({n}) feeds its own and rests.", n=len(missing))
        else:
            text = say("The facilitator moves on: {households} feed their own households and rest.", households=seats_said(state.names, missing))
        state = evolve(state, log=_say(state, text))
        return _resolve_allocation(state)
    if isinstance(action, Flood):
        return _flood(state, action.strength)
    if isinstance(action, ShowPledges):
        text = (
            say("For the debrief the facilitator shows every household's pledges and numbers.")
            if action.show
            else say("The facilitator keeps the pledges anonymous.")
        )
        state = evolve(state, pledges_shown=action.show)
        return evolve(state, log=_say(state, text))
    if isinstance(action, EndRoll):
        state = evolve(state, years=state.years[:-1] + (evolve(state.years[-1], end_roll=action.die),))
        if action.die in state.setup.end_on:
            return _end(state, say("the end roll of {die} after year {year}", die=action.die, year=state.year))
        state = evolve(state, log=_say(state, say("End roll {die}: the village carries on.", die=action.die)))
        return _begin_year(state)
    raise RuleError("action", say("Leerdam has no action {kind}", kind=type(action).__name__))


def chance(state: State, rng: random.Random) -> Action | None:
    if state.setup.table_dice:
        return None  # the facilitator enters what the table rolled (`by_hand`)
    if state.phase == "misfortune" and not state.setup.misfortune_by_hand:
        return Misfortune(rolls=tuple(rng.randint(1, 6) for _ in range(state.n)))
    if state.phase == "flood":
        return Flood(strength=rng.randint(1, 6))
    if state.phase == "end":
        return EndRoll(die=rng.randint(1, 6))
    return None


def by_hand(state: State, action: Action) -> bool:
    """With table dice, the facilitator enters the misfortune, flood and end-roll dice."""
    return state.setup.table_dice and isinstance(action, (Misfortune, Flood, EndRoll))


def hides(state: State, action: Action) -> bool:
    """The last pledge reveals everyone's; chance outcomes are never undone. Pledges shown at
    the end are not taken back by undo (the room has seen them): the facilitator hides them."""
    if action.chance:
        return True
    if isinstance(action, ShowPledges):
        return action.show
    if isinstance(action, Contribute):
        return sum(1 for p in state.pledges if p is None) == 1
    if isinstance(action, Allocate):
        return sum(1 for p in state.plans if p is None) == 1  # the harvest and the flood follow
    return isinstance(action, Advance)


# -- the decisions, for the debrief ------------------------------------------------------------


def pledges_public(setup: Setup) -> bool:
    """Whether the reveal names each household's pledge (not in an anonymous-pledges variant)."""
    return not getattr(setup, "anonymous", False)


def pledges_shown(state: State) -> bool:
    """An anonymous game is over and its facilitator chose to show each household's numbers
    (a state without that choice has none to make)."""
    return bool(state.over and getattr(state, "pledges_shown", False))


def _pledge_revealed(final: State, year: int) -> bool:
    """The public board has shown `year`'s pledges by the end of the record."""
    return final.year > year or final.total is not None or final.over


def _plan_said(state: State, seat: int, plan: Sequence[Assignment]) -> Said:
    parts: list[Said | str] = [
        say("{units} {activity} to {whom}", units=a.units, activity=activity_word(a.activity), whom=say("own household") if a.recipient == seat else state.names[a.recipient])
        for a in plan
        if a.units
    ]
    return say("allocates {plan}", plan=commas(parts)) if parts else say("allocates nothing (every unit idle)")


def decisions(game: Game[Setup, State], reveal: bool = True, reveal_pledges: bool | None = None, render: Render = str) -> list[Decision]:
    """Every decision of `game`: pledges, allocations, offers, gifts and the facilitator's moves.

    `reveal` names every secret (the facilitator's export of a finished game); without it a row
    names only what the board has shown: a pledge once revealed, never an allocation's detail or
    a private offer. `reveal_pledges` (default: unless the pledges are anonymous) says whether a
    revealing export names each household's pledge: an anonymous variant names them only when
    the facilitator chooses, after the end. `render` says the rows (`rules.decisions.collect`).
    """
    public_pledges = pledges_public(game.setup)
    over = game.state.over
    # An anonymous village's pledges are shown only after the end, by the facilitator's choice:
    # `reveal_pledges`, or else the choice made at the table.
    shown = public_pledges or (over and (pledges_shown(game.state) if reveal_pledges is None else reveal_pledges))
    # Unshown, a household's allocation, misfortune, deals and gifts would give its pledge away:
    # even the facilitator's full export names none of them.
    guarded = not shown
    reveal = reveal and shown
    kept = reveal_pledges is False or not shown  # not even what the board showed is named
    name_pledges = reveal and not kept

    def scrub(line: Words) -> Words:
        if str(line).startswith(REVEAL_LINE):
            return say("The pledges are revealed (each household's is kept out of this export).")
        return line

    def move(before: State, action: Action, after: State, final: State, revealing: bool) -> Made | None:
        step = say("Year {n}", n=before.year)
        seat = action.seat
        who: Words = before.names[seat] if seat is not None else say("Facilitator")
        if isinstance(action, Contribute):
            # Without `reveal`, what the board showed: revealed pledges, or all once an anonymous
            # village's facilitator showed them.
            if name_pledges or (not kept and not revealing and shown and _pledge_revealed(final, before.year)):
                return Made(step, seat, who, say_n("pledges {n} unit to the dyke", "pledges {n} units to the dyke", action.units), amount=action.units, amount_is=say("units pledged"))
            return Made(step, seat, who, say("pledges in secret"), withheld=True)
        if isinstance(action, Allocate):
            if revealing:
                return Made(step, seat, who, _plan_said(before, seat or 0, action.plan), amount=sum(a.units for a in action.plan), amount_is=say("units allocated"))
            return Made(step, seat, who, say("allocates this year's labour"), withheld=True)
        if isinstance(action, Offer):
            if revealing:
                text = say_n(
                    "offers {partner} {wealth} Wealth for {n} unit on its {activity}",
                    "offers {partner} {wealth} Wealth for {n} units on its {activity}",
                    action.units,
                    partner=before.names[action.partner],
                    wealth=action.wealth,
                    activity=activity_word(action.activity),
                )
                return Made(step, seat, who, text, amount=action.wealth, amount_is=say("Wealth offered"))
            return Made(step, seat, who, say("makes a private offer"), withheld=True)
        open_ = revealing or not guarded
        if isinstance(action, Accept):
            return Made(step, seat, who, say("accepts offer {deal}", deal=action.deal) if open_ else say("settles a private offer"), withheld=not open_)
        if isinstance(action, Decline):
            return Made(step, seat, who, say("calls off offer {deal}", deal=action.deal) if revealing else say("answers a private offer"), withheld=not revealing)
        if isinstance(action, Gift):
            if open_:
                return Made(step, seat, who, say("gives {wealth} Wealth to {name}", wealth=action.wealth, name=before.names[action.to]), amount=action.wealth, amount_is=say("Wealth given"))
            return Made(step, seat, who, say("gives Wealth in private"), withheld=True)
        if isinstance(action, SetMisfortune):
            if open_:
                # TRANSLATORS: a household's loss to misfortune in the debrief ("Bo -2").
                losses: list[Words] = [say("{name} -{n}", name=before.names[s], n=n) for s, n in enumerate(action.losses) if n]
                said = commas(losses) if losses else say("none")
                return Made(step, None, who, say("sets this year's misfortune: {losses}", losses=said), amount=sum(action.losses), amount_is=say("units lost"))
            # The total is public (the board shows it): only who lost what is kept.
            return Made(
                step,
                None,
                who,
                say_n("sets this year's misfortune: {n} unit lost in all", "sets this year's misfortune: {n} units lost in all", sum(action.losses)),
                withheld=True,
                amount=sum(action.losses),
                amount_is=say("units lost"),
            )
        if isinstance(action, Advance):
            return Made(step, None, who, say("moves the year on"))
        if action.kind == "show-pledges":  # the anonymous variant's choice after the end
            show = bool(getattr(action, "show", True))
            return Made(step, None, who, say("shows every household's pledges") if show else say("keeps the pledges anonymous"))
        return None  # misfortune, flood and end dice: their lines join the decision before

    return collect(game, move, reveal=reveal, scrub=scrub if kept else None, render=render)


# -- reading the state -------------------------------------------------------------------------


def scores(state: State) -> tuple[int, ...]:
    return tuple(h.vp for h in state.households)


def standings(state: State) -> list[tuple[int, int, int]]:
    """(rank, seat, VP), most VP first; ties share a rank."""
    vp = scores(state)
    return ranked(vp, lambda seat: -vp[seat])


@dataclass(frozen=True)
class Earnings:
    """What a plan brings one recipient: units per activity, VP and Wealth."""

    subsistence: int
    leisure: int
    profit: int
    vp: int
    wealth: int


def preview(state: State, seat: int, plan: Sequence[Assignment]) -> dict[int, Earnings]:
    """What `plan` by `seat` would earn each household it touches, before confirming.

    The seat's own household also counts the labour it bought in deals done this year, so its
    line is what it will earn unless others give it more. For other households the VP counts
    Leisure only: their own allocation decides what their Subsistence is worth.
    """
    received: dict[int, list[int]] = {seat: [0, 0, 0]}
    for a in plan:
        received.setdefault(a.recipient, [0, 0, 0])[ACTIVITIES.index(a.activity)] += a.units
    for d in state.deals:
        if d.status == "done" and d.buyer == seat:
            received[seat][ACTIVITIES.index(d.activity)] += d.units
    return {
        r: Earnings(sub, lei, pro, (subsistence_vp(sub) if r == seat else 0) + leisure_vp(lei), profit_wealth(pro))
        for r, (sub, lei, pro) in sorted(received.items())
    }


@dataclass(frozen=True)
class HouseholdView:
    """One household as a viewer sees it. With anonymous pledges a number the viewer may not
    see is None: another household's capacity, and (until the end) its Wealth and VP."""

    name: str
    wealth: int | None
    vp: int | None
    #: every household floods together, so this is public in every variant.
    flooded: bool
    capacity: int | None
    pledged: bool
    allocated: bool
    #: the pledge: the seat's own, or everyone's after the reveal (not with anonymous pledges).
    pledge: int | None = None
    #: the seat's own free units this year.
    free: int | None = None


@dataclass(frozen=True)
class View:
    seat: int | None
    year: int
    phase: Phase
    dyke: int
    thresholds: tuple[int, int]
    households: tuple[HouseholdView, ...]
    #: the revealed total this year (None before the reveal).
    total: int | None
    #: the Dyke Condition when this year began, before the pledges moved it.
    dyke_before: int
    #: deals the viewer may see: its own offers and every deal done.
    deals: tuple[Deal, ...]
    years: tuple[YearSummary, ...]
    log: tuple[str | Said, ...]
    ended: str
    waiting_for: tuple[int, ...]
    standings: tuple[tuple[int, int, int], ...] = field(default=())
    #: an anonymous game that keeps each household's numbers from this viewer (see `view_for`).
    anonymous: bool = False
    #: the village's VP and Wealth now, in all (sums are public in every variant).
    vp_total: int = 0
    wealth_total: int = 0
    #: `ended` as a message, said in the reader's language.
    ending: str | Said = ""


def public_pledges_hidden(state: State, final: State | None = None) -> bool:
    """Whether each household's pledge, and all it could be worked out from, is kept from the
    public: a game with anonymous pledges, until it is over and its facilitator shows them.

    `final`: for a debrief that replays a finished game step by step, its last state (the
    facilitator's choice there decides every step). Exports and boards ask this; `view_for`
    and `ledger_rows` already follow it.
    """
    end = state if final is None else final
    return state.setup.anonymous and not (end.over and end.pledges_shown)


def view_for(state: State, seat: int | None, *, final: State | None = None) -> View:
    """What `seat` may see; None is the projector.

    With anonymous pledges (while `public_pledges_hidden`), the public sees the village as a
    whole: the year, the dyke, who has pledged or allocated (never how much), each year's total,
    the flood, and the village's VP and Wealth in all. No household's capacity, pledge, deals,
    gifts, VP or Wealth: from those and the rules a pledge can be worked out. So whichever
    household gave what, everything public is the same. A seat sees its own numbers and deals
    besides. At the end the standings (each household's VP and Wealth) are the result and are
    shown; the years that led there stay hidden unless the facilitator shows them.
    `final` is `public_pledges_hidden`'s (a debrief's step).
    """
    revealed = state.total is not None
    hidden = public_pledges_hidden(state, final)
    households = []
    for i, h in enumerate(state.households):
        mine = seat == i
        known = mine or not hidden
        totals = known or state.over
        households.append(
            HouseholdView(
                name=h.name,
                wealth=h.wealth if totals else None,
                vp=h.vp if totals else None,
                flooded=h.flooded,
                capacity=state.capacity(i) if known else None,
                pledged=state.pledges[i] is not None if state.pledges else False,
                allocated=state.plans[i] is not None if state.plans else False,
                pledge=state.pledges[i] if (mine or (revealed and not hidden)) and state.pledges else None,
                free=state.free_units(i) if mine and state.phase == "allocate" else None,
            )
        )
    if hidden:
        deals = tuple(d for d in state.deals if seat in (d.buyer, d.seller))
    else:
        deals = tuple(d for d in state.deals if d.status == "done" or seat in (d.buyer, d.seller))
    return View(
        seat=seat,
        year=state.year,
        phase=state.phase,
        dyke=state.dyke,
        thresholds=thresholds(state.n),
        households=tuple(households),
        total=state.total,
        dyke_before=state.dyke_before,
        deals=deals,
        years=state.years,
        log=tuple(e.text for e in state.log if e.visible(seat)),
        ended=state.ended,
        waiting_for=state.waiting_for(),
        standings=tuple(standings(state)) if not hidden or state.over else (),
        anonymous=hidden,
        vp_total=sum(h.vp for h in state.households),
        wealth_total=sum(h.wealth for h in state.households),
        ending=state.ending,
    )


#: The ledger's and the village's CSV columns in words (`i18n.header_cell`: beside each id in a
#: language other than English). "flooded" holds true or false.
LEDGER_LABELS: Mapping[str, Said] = {
    "year": say("Year"),
    "household": say("Household"),
    "misfortune": say("Misfortune"),
    "capacity": say("Capacity"),
    # TRANSLATORS: a column of Leerdam's ledger CSV: the units a household pledged to the dyke.
    "contribution": say("Pledge"),
    "subsistence": say("Subsistence"),
    "leisure": say("Leisure"),
    "profit": say("Profit"),
    # TRANSLATORS: a column of Leerdam's ledger CSV: VP from the year's allocation.
    "vp_allocation": say("VP from labour"),
    # TRANSLATORS: a column of Leerdam's ledger CSV: Wealth from the year's profit.
    "wealth_profit": say("Wealth from profit"),
    "wealth_lost": say("Wealth lost"),
    "vp_annual": say("Annual VP"),
    "vp_final": say("Final VP"),
    "vp": say("VP"),
    "wealth": say("Wealth"),
    "flooded": say("Flooded"),
    "dyke": say("Dyke"),
    # TRANSLATORS: a column of Leerdam's village CSV: the units pledged by the whole village in a year.
    "total": say("Total"),
    # TRANSLATORS: a column of Leerdam's village CSV: the dyke's lower threshold.
    "low": say("Low threshold"),
    # TRANSLATORS: a column of Leerdam's village CSV: the dyke's higher threshold.
    "high": say("High threshold"),
    "dyke_before": say("Dyke before"),
    "dyke_after_pledges": say("Dyke after the pledges"),
    # TRANSLATORS: a column of Leerdam's village CSV: the flood die.
    "flood": say("Flood"),
    "end_roll": say("End roll"),
}


def ledger_rows(state: State, seat: int | None = None, *, final: State | None = None) -> list[dict[str, Any]]:
    """The ledger as plain rows (one per household per year) for a CSV debrief, as `seat` (None:
    the public) may read it.

    A pledge enters the ledger only at the reveal, so no row gives away a secret pledge. With
    anonymous pledges (while `public_pledges_hidden(state, final)`) a household's row would give
    its pledge away: the viewer gets its own rows only, the public none (`village_rows` has the
    village's years).
    """
    hidden = public_pledges_hidden(state, final)
    rows = []
    for row in state.ledger:
        if hidden and row.seat != seat:
            continue
        data = {"year": row.year, "household": state.names[row.seat]}
        data.update({k: v for k, v in row.__dict__.items() if k not in ("year", "seat")})
        rows.append(data)
    return rows


def village_rows(state: State) -> list[dict[str, Any]]:
    """One row per finished year of what the whole village did (public in every variant): the
    total pledged, the dyke before, after the pledges and after the flood, the flood die, the
    end roll, and the village's VP and Wealth in all."""
    low, high = thresholds(state.n)
    return [
        {
            "year": y.year, "total": y.total, "low": low, "high": high, "dyke_before": y.dyke_before,
            "dyke_after_pledges": y.dyke_after_pledges, "flood": y.flood, "flooded": y.flooded, "dyke": y.dyke_after,
            "end_roll": y.end_roll, "vp": y.vp, "wealth": y.wealth,
        }
        for y in state.years
    ]  # fmt: skip


# -- the Rules object ---------------------------------------------------------------------------


def timeout_move(state: State, seat: int) -> Action | None:
    """The move a household's timer makes when it runs out, as the facilitator's "Close the
    year now" does (`Advance`): a pledge of nothing, or labour that feeds the household and
    rests (2 units on its own Subsistence). None when the game does not wait for `seat`."""
    if seat not in state.waiting_for():
        return None
    if state.phase == "contribute":
        return Contribute(seat=seat, units=0)
    return Allocate(seat=seat, plan=_default_plan(state, seat))


RULES = GameRules.of(globals(), CARD)
