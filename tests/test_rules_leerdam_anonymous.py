"""Leerdam's anonymous pledges (variant `anonymous`): only the total is public until the end.

The main proof is a pair of worlds: the same village and the same dice, with the households'
strategies turned one seat round, so every household pledges differently in the two games. If
the public could work out one household's pledge, something public would differ between them;
it is equal at every step before the end (and differs at once without the variant).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from lab import BOTS
from rules import Game, load_game
from rules import leerdam as ld
from rules.core import RuleError, plural, rng_for
from rules.leerdam import Accept, Allocate, Assignment, Contribute, Flood, Gift, Misfortune, Offer, SetMisfortune, ShowPledges
from tests.support.anonymous_village import NAMES, STRATEGIES, world


def before_end(game: Game) -> list[ld.State]:
    return [s for s in game.states if not s.over]


def test_two_worlds_where_households_gave_differently_look_the_same_to_the_public() -> None:
    a, b = world(0), world(1)
    assert len(a.states) == len(b.states)  # the same steps, so the same dice
    pledges_differ = 0
    for sa, sb in zip(before_end(a), before_end(b)):
        assert ld.view_for(sa, None) == ld.view_for(sb, None)
        assert ld.ledger_rows(sa, None) == ld.ledger_rows(sb, None) == []
        assert ld.village_rows(sa) == ld.village_rows(sb)
        assert [str(e.text) for e in sa.log if e.visible_to is None] == [str(e.text) for e in sb.log if e.visible_to is None]
        pledges_differ += sa.pledges != sb.pledges
    # ...while the households really did pledge differently, year after year.
    assert pledges_differ > 20
    assert {r.contribution for r in a.states[-1].ledger if r.seat == 0} != {r.contribution for r in b.states[-1].ledger if r.seat == 0}


#: each year's capacity losses by seat, for the facilitator to set by hand (a different mix each year).
LOSSES = ((2, 0, 1, 0, 0, 2, 0), (0, 1, 0, 0, 2, 0, 0), (0, 0, 0, 0, 0, 0, 0), (1, 2, 0, 2, 0, 0, 1))


def world_by_hand(turn: int) -> Game:
    """`world(turn)` with misfortune set by hand, turned round with the strategies: the same
    village with every household, its misfortune included, moved `turn` seats on."""
    n = len(NAMES)
    setup = ld.Setup(names=NAMES, anonymous=True, misfortune_by_hand=True, max_years=9)
    game = Game(ld.RULES, setup, 11, keep=None)
    bots = [BOTS["leerdam"][STRATEGIES[(seat + turn) % n]] for seat in range(n)]
    rng = rng_for(1, 1)
    while not game.state.over:
        state = game.state
        if state.phase == "misfortune":
            losses = LOSSES[(state.year - 1) % len(LOSSES)]
            game.apply(SetMisfortune(losses=tuple(losses[(seat + turn) % n] for seat in range(n))))
        else:
            seat = state.waiting_for()[0]
            game.apply(bots[seat](state, seat, rng))
    return game


def test_misfortune_too_stays_the_households_own() -> None:
    a, b = world_by_hand(0), world_by_hand(1)
    assert len(a.states) == len(b.states)
    capacities_differ = 0
    for sa, sb in zip(before_end(a), before_end(b)):
        assert ld.view_for(sa, None) == ld.view_for(sb, None)
        capacities_differ += sa.losses != sb.losses
    assert capacities_differ > 10


def test_without_the_variant_the_same_two_worlds_tell_apart() -> None:
    a, b = world(0, anonymous=False), world(1, anonymous=False)
    differ = [ld.view_for(sa, None) != ld.view_for(sb, None) for sa, sb in zip(before_end(a), before_end(b))]
    assert any(differ)


def test_with_misfortune_too_no_public_number_or_line_names_a_households_pledge() -> None:
    game = world(0, misfortune=(2, 1, 0, 0, 0, 0), seed=5)
    assert any(r.misfortune for r in game.state.ledger)  # misfortune did strike
    for state in before_end(game):
        view = ld.view_for(state, None)
        assert all(h.pledge is None and h.capacity is None and h.wealth is None and h.vp is None for h in view.households)
        assert view.standings == () and view.deals == () and view.anonymous
        for line in map(str, view.log):
            named = [n for n in NAMES if n in line]
            # A line may name a household only to say that it has moved, never with a number.
            assert not named or re.fullmatch(r".+ has (made a secret pledge|allocated this year's labour)\.", line), line
        # The public sums are the village's: they say nothing one household did alone.
        assert view.vp_total == sum(h.vp for h in state.households)


def test_each_household_sees_its_own_numbers_and_no_one_elses() -> None:
    game = world(0, misfortune=(2, 1, 0, 0, 0, 0), seed=5)
    state = next(s for s in game.states if s.phase == "allocate" and s.year == 3)
    for seat in range(len(NAMES)):
        view = ld.view_for(state, seat)
        me = view.households[seat]
        assert (me.pledge, me.capacity, me.wealth, me.vp) == (state.pledges[seat], state.capacity(seat), state.households[seat].wealth, state.households[seat].vp)
        others = [h for i, h in enumerate(view.households) if i != seat]
        assert all(h.pledge is None and h.capacity is None and h.wealth is None for h in others)
        assert {r["household"] for r in ld.ledger_rows(state, seat)} == {NAMES[seat]}
        private = [str(e.text) for e in state.log if e.visible_to == frozenset((seat,))]
        assert any(f"You pledged {plural(state.pledges[seat], 'unit')}" in t for t in private)
        assert not any("You pledged" in t for t in map(str, view.log) if t not in private)


def test_deals_and_gifts_are_the_two_households_own() -> None:
    def do(state: ld.State, *actions) -> ld.State:
        for action in actions:
            ld.check(state, action)
            state = ld.play(state, action)
        return state

    state = ld.initial(ld.Setup(names=NAMES[:5], anonymous=True))
    state = do(state, Misfortune(rolls=(4,) * 5), *(Contribute(seat=s, units=1) for s in range(5)))
    state = do(state, *(Allocate(seat=s, plan=(Assignment(s, "subsistence", 2), Assignment(s, "profit", 3))) for s in range(5)))
    state = do(state, Flood(strength=1), Misfortune(rolls=(4,) * 5), *(Contribute(seat=s, units=1) for s in range(5)))
    state = do(state, Offer(seat=0, partner=1, wealth=12, units=2), Accept(seat=1, deal=1), Gift(seat=2, to=3, wealth=5))
    lines = [e for e in state.log if "Deal:" in str(e.text) or "gives" in str(e.text)]
    assert [e.visible_to for e in lines] == [frozenset((0, 1)), frozenset((2, 3))]
    assert ld.view_for(state, None).deals == () and ld.view_for(state, 4).deals == ()
    assert [d.id for d in ld.view_for(state, 1).deals] == [1]
    assert not any("Deal:" in t or "gives" in t for t in map(str, ld.view_for(state, None).log))
    assert any("Deal:" in t for t in map(str, ld.view_for(state, 0).log)) and any("gives 5 Wealth" in t for t in map(str, ld.view_for(state, 3).log))


def test_the_facilitator_shows_the_pledges_only_after_the_end() -> None:
    game = world(0)
    end = game.state
    assert end.over and ld.public_pledges_hidden(end)
    view = ld.view_for(end, None)
    # The result is shown: who won, with what; not the years that led there.
    assert view.standings == tuple(ld.standings(end)) and all(h.vp is not None for h in view.households)
    assert all(h.pledge is None and h.capacity is None for h in view.households) and ld.ledger_rows(end, None) == []
    middle = next(s for s in game.states if s.phase == "allocate")
    for refused in (ShowPledges(seat=0), ShowPledges(seat=None, show=False)):
        with pytest.raises(RuleError):
            game.check(refused)
    with pytest.raises(RuleError, match="until the game ends") as err:
        ld.RULES.check(middle, ShowPledges())
    assert err.value.rule == "anonymous"
    game.apply(ShowPledges())
    shown = game.state
    assert not ld.public_pledges_hidden(shown) and game.undo_blocker() == "the last action revealed hidden information"
    view = ld.view_for(shown, None)
    assert [h.pledge for h in view.households] == list(shown.pledges)
    assert len(ld.ledger_rows(shown, None)) == len(shown.ledger)
    # A debrief replaying the years: each step shows its pledges with the final choice, not before.
    assert [h.pledge for h in ld.view_for(middle, None, final=shown).households] == list(middle.pledges)
    assert all(h.pledge is None for h in ld.view_for(middle, None).households)
    assert all(h.pledge is None for h in ld.view_for(middle, None, final=middle).households)
    game.apply(ShowPledges(show=False))  # the facilitator changes their mind: hidden again
    assert ld.public_pledges_hidden(game.state)
    assert replace(ld.view_for(game.state, None), log=()) == replace(ld.view_for(end, None), log=())


def test_a_game_without_the_variant_has_nothing_to_show() -> None:
    game = world(0, anonymous=False)
    with pytest.raises(RuleError, match="reveals every pledge already"):
        game.check(ShowPledges())


def test_the_variant_and_the_facilitators_choice_survive_the_save_file() -> None:
    game = world(0)
    game.apply(ShowPledges())
    again = load_game(game.to_json())
    assert again.setup.anonymous and again.state == game.state and again.state.pledges_shown
    assert json.loads(game.to_json())["actions"][-1] == {"kind": "show-pledges", "seat": None, "show": True}
    # A file of the first anonymous variant (it hid the pledges only) opens as this one.
    record = json.loads(world(0, anonymous=False).to_json())
    record["setup"]["anonymous"] = True
    record.pop("digest")
    from rules.core import _digest

    older = load_game(json.dumps({**record, "digest": _digest(record)}))
    assert older.setup.anonymous and ld.view_for(older.states[-1], None).anonymous


def test_a_refused_offer_does_not_tell_the_buyer_the_sellers_free_units() -> None:
    state = ld.initial(ld.Setup(names=NAMES[:5], anonymous=True))
    state = ld.play(state, Misfortune(rolls=(4,) * 5))
    for seat in range(5):
        state = ld.play(state, Contribute(seat=seat, units=seat))
    with pytest.raises(RuleError) as err:
        ld.check(state, Offer(seat=0, partner=4, wealth=0, units=5))
    assert err.value.rule == "seller's capacity" and "2" not in err.value.message  # Ed has 6 - 4 = 2 free
