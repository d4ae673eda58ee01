"""Leerdam rule by rule, with numbers worked by hand (RULINGS.md, Leerdam)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from lab import BOTS
from lab.core import play_out
from rules import leerdam as ld
from rules import load_game, new_game
from rules.core import RuleError, rng_for
from rules.leerdam import Accept, Advance, Allocate, Assignment, Contribute, Decline, EndRoll, Flood, Gift, Misfortune, Offer, SetMisfortune

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")


def do(state: ld.State, *actions) -> ld.State:
    for action in actions:
        ld.check(state, action)
        state = ld.play(state, action)
    return state


def village(n: int = 5, **variants) -> ld.State:
    names = NAMES if n == 5 else tuple(f"H{i}" for i in range(n))
    return ld.initial(ld.Setup(names=names, **variants))


def refused(state: ld.State, action, rule: str) -> None:
    with pytest.raises(RuleError) as err:
        ld.check(state, action)
    assert err.value.rule == rule, err.value


def pledged(state: ld.State, units: tuple[int, ...], losses: tuple[int, ...] | None = None) -> ld.State:
    state = do(state, Misfortune(rolls=tuple(4 for _ in range(state.n))) if losses is None else SetMisfortune(losses=losses))
    return do(state, *(Contribute(seat=s, units=u) for s, u in enumerate(units)))


def plan(seat: int, *parts: tuple[int, str, int]) -> Allocate:
    return Allocate(seat=seat, plan=tuple(Assignment(r, a, u) for r, a, u in parts))


def own(seat: int, sub: int = 2, lei: int = 0, pro: int = 0) -> Allocate:
    return plan(seat, (seat, "subsistence", sub), (seat, "leisure", lei), (seat, "profit", pro))


# -- schedules ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n, low, high", [(5, 3, 6), (7, 5, 8), (10, 8, 11)])
def test_thresholds(n: int, low: int, high: int) -> None:
    assert ld.thresholds(n) == (low, high)
    assert ld.dyke_change(low - 1, n) == -1
    assert ld.dyke_change(low, n) == 0 and ld.dyke_change(high, n) == 0
    assert ld.dyke_change(high + 1, n) == 1


def test_profit_schedule() -> None:
    assert [ld.profit_wealth(u) for u in range(5)] == [0, 10, 19, 27, 34]
    assert ld.profit_wealth(11) == 55 and ld.profit_wealth(12) == 55  # never below 0 a unit


def test_subsistence_and_leisure() -> None:
    assert [ld.subsistence_vp(u) for u in range(4)] == [-5, -2, 0, 0]
    assert [ld.leisure_vp(u) for u in range(4)] == [0, 1, 2, 2]


@pytest.mark.parametrize("dyke, divisor", [(1, 23), (2, 20), (3, 17), (4, 14), (5, 11), (6, 8)])
def test_final_divisor(dyke: int, divisor: int) -> None:
    assert ld.final_divisor(dyke) == divisor


def test_flood_odds() -> None:
    assert [ld.flood_odds(d) for d in range(1, 7)] == [5 / 6, 4 / 6, 3 / 6, 2 / 6, 1 / 6, 0]


# -- a year ---------------------------------------------------------------------------------------


def test_setup_range_and_warning() -> None:
    with pytest.raises(RuleError, match="3-20 households"):
        ld.Setup(names=("A", "B"))
    assert ld.Setup(names=tuple("ABCD")).warning.startswith("The text is written for 5-10")
    assert ld.Setup(names=NAMES).warning == ""
    with pytest.raises(RuleError, match="misfortune table"):
        ld.Setup(names=NAMES, misfortune=(7, 0, 0, 0, 0, 0))


def test_misfortune_table_sets_capacity() -> None:
    state = do(village(), Misfortune(rolls=(1, 2, 3, 6, 1)))
    assert [state.capacity(s) for s in range(5)] == [4, 5, 6, 6, 4]
    assert state.ledger[0].misfortune == 2 and state.ledger[0].capacity == 4


def test_misfortune_by_hand() -> None:
    state = village(misfortune_by_hand=True)
    assert ld.chance(state, rng_for(0, 0)) is None
    refused(state, SetMisfortune(losses=(7, 0, 0, 0, 0)), "misfortune")
    state = do(state, SetMisfortune(losses=(0, 3, 0, 0, 0)))
    assert state.capacity(1) == 3 and state.phase == "contribute"


def test_contribution_above_capacity_is_refused() -> None:
    state = do(village(), Misfortune(rolls=(1, 4, 4, 4, 4)))
    refused(state, Contribute(seat=0, units=5), "capacity")
    refused(state, Contribute(seat=0, units=-1), "capacity")
    state = do(state, Contribute(seat=0, units=4))
    refused(state, Contribute(seat=0, units=1), "one pledge")


def test_pledges_stay_secret_until_the_reveal() -> None:
    state = do(village(), Misfortune(rolls=(4,) * 5), Contribute(seat=0, units=3))
    projector = ld.view_for(state, None)
    assert projector.households[0].pledged and projector.households[0].pledge is None
    assert projector.total is None
    assert not any("3 unit" in line for line in map(str, projector.log))
    assert ld.view_for(state, 0).households[0].pledge == 3
    assert ld.view_for(state, 1).households[0].pledge is None
    state = do(state, *(Contribute(seat=s, units=1) for s in range(1, 5)))
    assert [h.pledge for h in ld.view_for(state, None).households] == [3, 1, 1, 1, 1]


@pytest.mark.parametrize("units, dyke", [((0, 0, 1, 1, 0), 2), ((1, 1, 1, 0, 0), 3), ((2, 1, 1, 1, 1), 3), ((2, 2, 1, 1, 1), 4)])
def test_the_dyke_falls_holds_or_rises_with_the_total(units: tuple[int, ...], dyke: int) -> None:
    # N = 5: below 3 falls, above 6 rises.
    assert pledged(village(), units).dyke == dyke


def test_dyke_stays_within_1_and_6() -> None:
    state = pledged(village(dyke_start=6), (6, 6, 6, 6, 6))
    assert state.dyke == 6
    state = pledged(village(dyke_start=1), (0, 0, 0, 0, 0))
    assert state.dyke == 1


def test_text_allocation_example() -> None:
    # 5 units left: 2 own Subsistence, 2 own Leisure, 1 to a struck neighbour's Subsistence.
    state = pledged(village(), (1, 0, 0, 0, 0), losses=(0, 4, 0, 0, 0))
    assert state.free_units(0) == 5 and state.free_units(1) == 2
    example = plan(0, (0, "subsistence", 2), (0, "leisure", 2), (1, "subsistence", 1))
    earned = ld.preview(state, 0, example.plan)
    assert earned[0] == ld.Earnings(2, 2, 0, 2, 0)
    assert earned[1].subsistence == 1
    state = do(state, example, plan(1, (1, "subsistence", 1), (1, "profit", 1)), own(2), own(3), own(4))
    bo = state.households[1]
    # Bo: 2 Subsistence in all (no penalty) and 10 Wealth from one Profit unit.
    assert (bo.vp, bo.wealth) == (0, 10)
    assert state.households[0].vp == 2
    assert state.phase == "flood"


def test_allocation_that_spends_too_much_is_refused() -> None:
    state = pledged(village(), (2, 0, 0, 0, 0))
    refused(state, own(0, sub=2, pro=3), "allocation")
    refused(state, plan(0, (9, "profit", 1)), "seat")
    refused(state, plan(0, (0, "fishing", 1)), "allocation")
    do(state, own(0, sub=2, pro=2))


def test_subsistence_penalties() -> None:
    state = pledged(village(), (0, 0, 0, 0, 0))
    state = do(state, own(0, sub=0, pro=6), own(1, sub=1, lei=5), own(2, sub=2), own(3, sub=3), own(4, sub=2))
    assert [h.vp for h in state.households] == [-5, -2 + 2, 0, 0, 0]
    assert state.households[0].wealth == ld.profit_wealth(6) == 45


def test_deal_executes_atomically_when_both_confirm() -> None:
    state = pledged(village(), (1, 1, 1, 1, 1))
    rich = replace(state, households=(replace(state.households[0], wealth=30),) + state.households[1:])
    state = do(rich, Offer(seat=0, partner=1, wealth=12, units=2, activity="profit"))
    assert state.households[0].wealth == 30  # nothing moves on an offer
    assert [d.status for d in ld.view_for(state, 1).deals] == ["offered"]
    assert ld.view_for(state, 2).deals == ()  # a private offer
    state = do(state, Accept(seat=1, deal=1))
    assert (state.households[0].wealth, state.households[1].wealth) == (18, 12)
    assert state.free_units(1) == 3
    refused(state, own(1, sub=2, pro=2), "allocation")
    state = do(state, own(0, sub=2, pro=3), own(1, sub=2, pro=1), own(2), own(3), own(4))
    # Ana's Profit: 3 own + 2 hired = 5 units = 10+9+8+7+6.
    assert state.households[0].wealth == 18 + 40
    assert state.ledger[-5].profit == 5


def test_deal_refusals() -> None:
    state = pledged(village(), (1, 1, 1, 1, 1))
    refused(state, Offer(seat=0, partner=1, wealth=5, units=1), "buyer's wealth")
    refused(state, Offer(seat=0, partner=1, wealth=0, units=6), "seller's capacity")
    refused(state, Offer(seat=0, partner=0, wealth=0, units=1), "deal")
    state = do(state, Offer(seat=0, partner=1, wealth=0, units=5))
    refused(state, Accept(seat=0, deal=1), "deal")  # only the seller accepts
    state = do(state, Offer(seat=0, partner=1, wealth=0, units=4), Accept(seat=1, deal=1))
    refused(state, Accept(seat=1, deal=2), "seller's capacity")
    state = do(state, Decline(seat=0, deal=2))
    refused(state, Accept(seat=1, deal=2), "deal")


def test_a_sixth_offer_to_the_same_household_in_a_year_is_refused() -> None:
    # docs/rules/leerdam.md: at most 5 offers a year to the same household, whatever became of them.
    state = pledged(village(), (1, 1, 1, 1, 1))
    for made in range(5):
        state = do(state, Offer(seat=0, partner=1, wealth=0, units=1))
        if made % 2 == 0:  # declined by either side, or left open: each counts
            state = do(state, Decline(seat=made % 4 // 2, deal=state.deals[-1].id))
    assert [d.status for d in state.deals] == ["declined", "offered", "declined", "offered", "declined"]
    refused(state, Offer(seat=0, partner=1, wealth=0, units=1), "deal")
    # The limit is per pair and direction: Ana may still hire Cy, and Bo may hire Ana.
    state = do(state, Offer(seat=0, partner=2, wealth=0, units=1), Offer(seat=1, partner=0, wealth=0, units=1))
    # A new year starts a new count.
    state = do(harvest(state), Flood(strength=1))
    state = pledged(state, (1, 1, 1, 1, 1))
    for _ in range(5):
        state = do(state, Offer(seat=0, partner=1, wealth=0, units=1))
    refused(state, Offer(seat=0, partner=1, wealth=0, units=1), "deal")


def test_gifts_move_wealth_never_vp() -> None:
    state = pledged(village(), (1, 1, 1, 1, 1))
    refused(state, Gift(seat=0, to=1, wealth=-3), "gift")
    refused(state, Gift(seat=0, to=1, wealth=1), "gift")
    rich = replace(state, households=(replace(state.households[0], wealth=30, vp=4),) + state.households[1:])
    after = do(rich, Gift(seat=0, to=1, wealth=10))
    assert [h.wealth for h in after.households[:2]] == [20, 10]
    assert [h.vp for h in after.households[:2]] == [4, 0]


def harvest(state: ld.State) -> ld.State:
    return do(state, *(own(s, sub=2, pro=state.free_units(s) - 2) for s in range(state.n)))


def test_flood_above_the_dyke_floods_everyone_and_takes_a_third_rounded_up() -> None:
    state = harvest(pledged(village(), (1, 1, 1, 1, 1)))
    assert state.households[0].wealth == ld.profit_wealth(3) == 27
    # 34 Wealth: a third is 11.33, so rounding up (12) differs from down or to nearest (11).
    state = replace(state, households=(replace(state.households[0], wealth=34),) + state.households[1:])
    state = do(state, Flood(strength=4))
    assert state.dyke == 2
    assert all(h.flooded for h in state.households)
    assert state.households[0].wealth == 34 - 12
    assert state.ledger[-5].wealth_lost == 12
    assert state.households[1].wealth == 27 - 9
    assert state.households[0].vp == 0  # 22 Wealth gives no annual VP


def test_a_flood_of_six_drops_the_dyke_twice() -> None:
    state = do(harvest(pledged(village(), (1, 1, 1, 1, 1))), Flood(strength=6))
    assert state.dyke == 1
    state = do(harvest(pledged(village(dyke_start=6), (2, 2, 2, 2, 2))), Flood(strength=6))
    # 6 does not beat a dyke at 6: no flood, but the dyke still drops once.
    assert state.dyke == 5 and not any(h.flooded for h in state.households)


def test_flooded_status_follows_the_latest_check_unless_sticky() -> None:
    for sticky, expected in ((False, False), (True, True)):
        state = do(harvest(pledged(village(sticky_flood=sticky), (1, 1, 1, 1, 1))), Flood(strength=5))
        assert all(h.flooded for h in state.households)
        state = do(harvest(pledged(state, (1, 1, 1, 1, 1))), Flood(strength=1))
        assert all(h.flooded is expected for h in state.households)


def test_annual_vp_per_30_wealth() -> None:
    state = pledged(village(), (0, 0, 0, 0, 0))
    state = replace(state, households=(replace(state.households[0], wealth=50),) + state.households[1:])
    state = do(state, own(0, sub=2, pro=4), own(1), own(2), own(3), own(4))
    dry = do(state, Flood(strength=1))
    # 50 + 34 = 84 Wealth: 2 VP.
    assert dry.households[0].vp == 2 and dry.ledger[-5].vp_annual == 2
    # A flood first takes 28 of the 84: 56 Wealth pays 1 VP (2 would be the Wealth before it).
    wet = do(state, Flood(strength=5))
    assert wet.households[0].wealth == 56
    assert wet.households[0].vp == 1 and wet.ledger[-5].vp_annual == 1


def test_end_check_from_year_8_and_final_scoring() -> None:
    state = village(end_check_from=2)
    state = do(harvest(pledged(state, (1, 1, 1, 1, 1))), Flood(strength=1))
    assert state.phase == "misfortune" and state.year == 2
    state = do(harvest(pledged(state, (1, 1, 1, 1, 1))), Flood(strength=5))
    assert state.phase == "end"
    carry = do(state, EndRoll(die=4))
    assert carry.phase == "misfortune" and carry.year == 3
    over = do(state, EndRoll(die=3))
    assert over.over
    # Dyke fell to 2 in the flood: divisor 20; everyone Flooded: -2.
    wealth = state.households[0].wealth
    assert over.households[0].vp == state.households[0].vp + wealth // 20 - 2
    assert over.ledger[-5].vp_final == wealth // 20 - 2
    refused(over, Contribute(seat=0, units=0), "game over")


def test_facilitator_advances_a_stalled_year() -> None:
    state = do(village(), Misfortune(rolls=(4,) * 5), Contribute(seat=0, units=2))
    refused(state, Advance(seat=0), "facilitator")
    state = do(state, Advance())
    assert state.phase == "allocate" and state.total == 2
    state = do(state, own(0, sub=2, lei=2), Advance())
    assert state.phase == "flood"
    assert [h.vp for h in state.households] == [2, 0, 0, 0, 0]


def test_bot_games_replay_exactly() -> None:
    bots = ("free-rider", "fair", "conditional", "altruist", "fair")
    game = play_out(new_game("leerdam", ld.Setup(names=NAMES), 9), [BOTS["leerdam"][b] for b in bots], rng_for(1, 1))
    again = load_game(game.to_json())
    assert again.state == game.state and again.state.over
    assert len(ld.ledger_rows(again.state)) == 5 * again.state.year
