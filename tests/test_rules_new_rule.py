"""New Rule, rule by rule (RULINGS.md, New Rule), with hands chosen by the test."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from lab.new_rule import balanced_bot, random_bot
from rules import new_game
from rules import new_rule as nr
from rules.core import RuleError, rng_for
from rules.new_rule import Deal, Draw, Drawn, Keep, Pay, Pick, Swap

NAMES = ("Ana", "Bo", "Cy", "Di")


def do(state: nr.State, *actions) -> nr.State:
    """Apply actions through the checked path, as the Game driver does."""
    for action in actions:
        nr.check(state, action)
        state = nr.play(state, action)
    return state


def hand(**counts: int) -> tuple[str, ...]:
    return tuple(c for c, n in counts.items() for _ in range(n))


def dealt(*hands: tuple[str, ...], **variants) -> nr.State:
    setup = nr.Setup(names=NAMES[: len(hands)], hand=len(hands[0]), **variants)
    return do(nr.initial(setup), Deal(hands=hands))


def everyone_keeps(state: nr.State, draws: dict[int, tuple[str, ...]] | None = None) -> nr.State:
    for seat in state.active:
        candies = (draws or {}).get(seat, ("blue", "green"))
        state = do(state, Draw(seat=seat), Drawn(seat=seat, candies=candies), Keep(seat=seat))
    return state


def refused(state: nr.State, action, rule: str) -> RuleError:
    with pytest.raises(RuleError) as err:
        nr.check(state, action)
    assert err.value.rule == rule, err.value
    return err.value


# -- setup ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 6])
def test_player_count_outside_3_to_5_is_refused(n: int) -> None:
    with pytest.raises(RuleError, match="3-5 players"):
        nr.Setup(names=tuple(f"P{i}" for i in range(n)))


def test_setup_checks_names_and_variants() -> None:
    with pytest.raises(RuleError, match="same name"):
        nr.Setup(names=("Ana", "ana", "Bo"))
    with pytest.raises(RuleError, match="antibody"):
        nr.Setup(names=NAMES, antibody="purple")
    with pytest.raises(RuleError, match="cannot give"):
        nr.Setup(names=NAMES, bags_per_player=1, per_bag=1, hand=7)


def test_deal_gives_ten_each_from_two_bags_per_player() -> None:
    game = new_game("new-rule", nr.Setup(names=NAMES), 11)
    state = game.state
    assert [p.candies for p in state.players] == [10] * 4
    assert sum(state.common) == 4 * 2 * 9 * 6 - 40
    assert state.phase == "draw" and state.turn == 0 and state.round == 1


# -- the draw phase ------------------------------------------------------------------------------


def test_draws_go_in_seat_order() -> None:
    state = dealt(hand(blue=10), hand(green=10), hand(yellow=10))
    refused(state, Draw(seat=1), "turn order")
    state = do(state, Draw(seat=0), Drawn(seat=0, candies=("red", "red")))
    refused(state, Draw(seat=1), "turn order")
    state = do(state, Keep(seat=0))
    assert state.count(0, "red") == 2 and state.turn == 1


def test_swap_returns_both_and_takes_a_chosen_colour() -> None:
    state = dealt(hand(blue=10), hand(green=10), hand(yellow=10))
    common = sum(state.common)
    state = do(state, Draw(seat=0), Drawn(seat=0, candies=("red", "orange")), Swap(seat=0, colour="brown"))
    assert state.players[0].candies == 11 and state.count(0, "brown") == 1
    assert sum(state.common) == common - 1


def test_swap_needs_the_colour_in_the_bowl_after_the_return() -> None:
    # One bag of one candy per colour: after the deal the bowl holds no purple at all.
    colours = ("red", "blue", "purple")
    state = dealt(("purple",), ("purple",), ("purple",), colours=colours, bags_per_player=1, per_bag=1)
    state = do(state, Draw(seat=0), Drawn(seat=0, candies=("blue", "red")))
    refused(state, Swap(seat=0, colour="purple"), "swap")
    do(state, Swap(seat=0, colour="red"))  # a drawn colour comes back and may be taken


def test_the_draw_is_fewer_when_the_bowl_runs_low() -> None:
    colours = ("red", "blue", "green")
    state = dealt(hand(red=2), hand(blue=2), hand(green=2), colours=colours, bags_per_player=1, per_bag=1)
    assert sum(state.common) == 3
    state = do(state, Draw(seat=0), Drawn(seat=0, candies=("blue", "red")), Keep(seat=0), Draw(seat=1))
    refused(state, Drawn(seat=1, candies=("green", "green")), "draw")
    assert nr.chance(state, rng_for(0, 0)) == Drawn(seat=1, candies=("green",))
    state = do(state, Drawn(seat=1, candies=("green",)), Keep(seat=1), Draw(seat=2))
    assert nr.chance(state, rng_for(0, 0)) == Drawn(seat=2, candies=())
    state = do(state, Drawn(seat=2, candies=()))
    refused(state, Swap(seat=2, colour="red"), "swap")
    assert nr.legal_actions(state, 2) == [Keep(seat=2)]


# -- the secret pick and the reveal ----------------------------------------------------------------


def test_pick_must_be_a_held_colour_and_only_once() -> None:
    state = everyone_keeps(dealt(hand(blue=10), hand(green=10), hand(yellow=10)))
    refused(state, Pick(seat=0, colour="yellow"), "pick")
    state = do(state, Pick(seat=0, colour="blue"))
    refused(state, Pick(seat=0, colour="green"), "one pick")


def test_picks_stay_secret_until_everyone_has_picked() -> None:
    state = everyone_keeps(dealt(hand(blue=10), hand(green=10), hand(yellow=10)))
    state = do(state, Pick(seat=0, colour="blue"))
    for viewer in (None, 1, 2):
        view = nr.view_for(state, viewer)
        assert view.seats[0].picked and view.seats[0].pick is None
        assert all("blue" not in line for line in map(str, view.log) if "picked" in line)
    assert nr.view_for(state, 0).seats[0].pick == "blue"
    state = do(state, Pick(seat=1, colour="green"), Pick(seat=2, colour="yellow"))
    assert [s.pick for s in nr.view_for(state, None).seats] == ["blue", "green", "yellow"]


def test_private_bowls_and_draws_reach_only_their_seat() -> None:
    state = dealt(hand(blue=10), hand(green=10), hand(yellow=10))
    state = do(state, Draw(seat=0), Drawn(seat=0, candies=("red", "brown")))
    public = nr.view_for(state, None)
    other = nr.view_for(state, 1)
    mine = nr.view_for(state, 0)
    assert public.drawn == () and other.drawn == () and mine.drawn == ("brown", "red")
    assert public.seats[0].bowl is None and other.seats[0].bowl is None and other.seats[1].bowl is not None
    assert not any("brown" in line for line in map(str, public.log + other.log))
    assert any("brown" in line for line in map(str, mine.log))


def test_ties_make_every_tied_colour_the_infection() -> None:
    state = everyone_keeps(dealt(hand(blue=6, green=4), hand(green=6, blue=4), hand(yellow=10), hand(brown=10)))
    state = do(state, Pick(seat=0, colour="blue"), Pick(seat=1, colour="green"), Pick(seat=2, colour="yellow"), Pick(seat=3, colour="brown"))
    assert state.infection == ("yellow", "green", "blue", "brown") and state.strength == 1
    state = everyone_keeps(dealt(hand(blue=6, green=4), hand(green=6, blue=4), hand(green=10), hand(blue=10)))
    state = do(state, Pick(seat=0, colour="blue"), Pick(seat=1, colour="green"), Pick(seat=2, colour="green"), Pick(seat=3, colour="blue"))
    assert state.infection == ("green", "blue") and state.strength == 2


def test_worked_example_from_the_text() -> None:
    state, due = nr.worked_example()
    assert state.infection == ("yellow",) and state.strength == 2
    assert due == {"Ana": 2, "Bo": 2, "Cy": 2, "Di": 2}
    # Four non-yellow candies pay; yellow ones may not while others remain.
    nr.check(state, Pay(seat=0, returned=("blue", "blue", "blue", "green")))
    refused(state, Pay(seat=0, returned=("yellow",) * 4 + ("blue", "blue")), "double rate")


# -- paying -----------------------------------------------------------------------------------------


def paying(*hands: tuple[str, ...], picks: tuple[str, ...], **variants) -> nr.State:
    """A state in the pay phase after everyone keeps a blue+green draw."""
    state = everyone_keeps(dealt(*hands, **variants))
    return do(state, *(Pick(seat=s, colour=c) for s, c in enumerate(picks)))


def test_a_level_is_two_non_infection_candies_of_any_colours() -> None:
    state = paying(hand(yellow=4, orange=3, brown=3), hand(yellow=10), hand(yellow=10), picks=("yellow",) * 3)
    assert state.strength == 3
    nr.check(state, Pay(seat=0, returned=("orange", "brown", "orange", "brown", "blue", "green")))
    refused(state, Pay(seat=0, returned=("orange",) * 3), "two per level")
    refused(state, Pay(seat=0, returned=("orange", "orange")), "exact payment")


def test_eating_antibodies_pays_one_level_each_and_counts_as_eaten() -> None:
    state = paying(hand(red=3, orange=7), hand(yellow=10), hand(yellow=10), picks=("orange", "yellow", "yellow"))
    assert state.infection == ("yellow",) and state.strength == 2
    after = do(state, Pay(seat=0, returned=(), eaten=2))
    assert after.count(0, "red") == 1 and after.players[0].eaten == 2
    assert sum(after.common) == sum(state.common)  # eaten reds leave the game
    refused(state, Pay(seat=0, eaten=4), "antibodies")


def test_returned_reds_count_as_non_infection_candies() -> None:
    state = paying(hand(red=3, yellow=7), hand(yellow=10), hand(yellow=10), picks=("yellow",) * 3)
    # 3 reds + blue + green drawn = 5 non-yellow; strength 3 needs 6 plain, or reds eaten.
    # Two reds returned are one plain pair: were they counted as infection candies, this
    # payment (2 plain + 2 "infected") would be refused as neither pairs nor fours.
    pay = Pay(seat=0, returned=("red", "red", "blue", "green"), eaten=1)
    assert nr.payment_levels(state, 0, pay.returned, pay.eaten) == 3
    after = do(state, pay)
    assert after.count(0, "red") == 0 and after.players[0].eaten == 1
    red = state.colours.index("red")
    assert after.common[red] == state.common[red] + 2  # returned to the bowl, not eaten
    # With only one red returned, the pair is short: refused.
    refused(state, Pay(seat=0, returned=("red", "blue", "green"), eaten=1), "two per level")


def test_red_may_be_eaten_when_red_is_the_infection() -> None:
    state = paying(hand(red=10), hand(red=10), hand(yellow=10), picks=("red", "red", "yellow"))
    assert state.infection == ("red",)
    nr.check(state, Pay(seat=0, eaten=2))
    refused(state, Pay(seat=0, returned=("red",) * 8), "double rate")


def test_double_rate_only_once_fewer_than_two_plain_candies_are_left() -> None:
    # Seat 0 holds yellow plus the drawn blue and green: 2 plain candies, strength 3.
    state = paying(hand(yellow=12), hand(yellow=12), hand(yellow=12), picks=("yellow",) * 3)
    assert state.strength == 3
    nr.check(state, Pay(seat=0, returned=("blue", "green") + ("yellow",) * 8))
    refused(state, Pay(seat=0, returned=("yellow",) * 12), "double rate")
    assert nr.max_levels(state, 0) == 1 + 12 // 4


def test_a_player_who_cannot_pay_is_out_and_returns_everything() -> None:
    state = everyone_keeps(dealt(hand(yellow=3, red=1, orange=1), hand(yellow=2, red=3), hand(yellow=2, red=3)))
    common = sum(state.common)
    state = do(state, Pick(seat=0, colour="yellow"), Pick(seat=1, colour="yellow"), Pick(seat=2, colour="yellow"))
    # Seat 0: 1 red + (orange, blue, green) plain -> 1 + 1 = 2 levels; 3 yellow make no level.
    assert state.players[0].out and state.players[0].candies == 0
    assert sum(state.common) == common + 7
    assert not state.players[1].out and state.phase == "pay"
    assert any(line.note == "out: cannot fight off a strength-3 infection" for line in state.pad)
    refused(state, Pay(seat=0, eaten=1), "out")


def test_an_empty_bowl_after_paying_is_out() -> None:
    state = paying(hand(red=2), hand(yellow=1, red=1), hand(yellow=1, red=1), hand(orange=2), picks=("red", "yellow", "yellow", "orange"))
    assert state.infection == ("yellow",) and state.strength == 2
    state = do(
        state,
        Pay(seat=0, returned=("blue", "green", "red", "red")),
        Pay(seat=1, returned=("blue", "green"), eaten=1),
        Pay(seat=2, returned=("blue", "green"), eaten=1),
    )
    assert not state.players[0].out  # the round is not over until everyone has paid
    state = do(state, Pay(seat=3, returned=("blue", "green", "orange", "orange")))
    assert state.players[0].out and state.players[3].out
    assert not state.players[1].out and state.round == 2
    assert any(line.note == "out: the bowl is empty" and line.seat == 0 for line in state.pad)


# -- the end and the score -----------------------------------------------------------------------------


def test_the_round_limit_ends_the_game() -> None:
    game = new_game("new-rule", nr.Setup(names=NAMES, max_rounds=2), 3)
    rng = rng_for(8, 8)
    while not game.state.over:
        game.apply(balanced_bot(game.state, game.state.waiting_for()[0], rng))
    assert game.state.round <= 2
    assert game.state.ended in ("the 2-round limit was reached", "fewer than two players are still in")


def test_an_empty_common_bowl_ends_the_game_at_the_start_of_a_round() -> None:
    colours = ("red", "blue")
    state = dealt(hand(red=1, blue=1), hand(red=1, blue=1), hand(red=1, blue=1), colours=colours, bags_per_player=1, per_bag=1)
    assert state.over and state.ended == "the common bowl is empty"


def test_without_a_round_limit_the_game_plays_on() -> None:
    game = new_game("new-rule", nr.Setup(names=NAMES, max_rounds=None), 3)
    assert game.state.setup.max_rounds is None
    rng = rng_for(2, 2)
    for _ in range(300):
        if game.state.over:
            break
        game.apply(balanced_bot(game.state, game.state.waiting_for()[0], rng))
    assert "round limit" not in game.state.ended


def test_score_is_the_smallest_plain_colour_plus_reds() -> None:
    setup = nr.Setup(names=NAMES[:3], hand=18)
    state = do(
        nr.initial(setup),
        Deal(hands=(hand(red=2, orange=3, yellow=3, green=3, blue=3, brown=4), hand(orange=18), hand(red=3, orange=3, yellow=3, green=3, blue=3, brown=3))),
    )
    assert nr.scores(state) == (5, 0, 6)
    assert nr.standings(state) == [(1, 2, 6), (2, 0, 5), (3, 1, 0)]


def test_players_out_rank_below_everyone_in_and_ties_are_shared() -> None:
    setup = nr.Setup(names=NAMES, hand=12)
    state = do(nr.initial(setup), Deal(hands=(hand(orange=12), hand(blue=12), hand(red=12), hand(red=12))))
    assert nr.scores(state) == (0, 0, 12, 12)
    table = nr.standings(state)
    assert [rank for rank, _, _ in table] == [1, 1, 3, 3]
    from dataclasses import replace

    players = list(state.players)
    players[2] = replace(players[2], out_round=1)
    out = replace(state, players=tuple(players))
    assert nr.standings(out)[-1][1] == 2


def test_of_two_players_out_the_one_out_in_a_later_round_ranks_better() -> None:
    state = dealt(hand(red=2, blue=8), hand(red=2, blue=8), hand(red=2, blue=8), hand(red=2, blue=8))
    empty = tuple(0 for _ in state.colours)
    # Out with an empty bowl (everything returned), both scoring 0: Ana in round 3, Bo in round 1.
    players = list(state.players)
    players[0] = dataclasses.replace(players[0], bowl=empty, out_round=3)
    players[1] = dataclasses.replace(players[1], bowl=empty, out_round=1)
    state = dataclasses.replace(state, players=tuple(players))
    assert nr.scores(state)[:2] == (0, 0)
    assert nr.standings(state)[2:] == [(3, 0, 0), (4, 1, 0)]
    # The other way round, the other order: seat order decides nothing.
    players[0], players[1] = dataclasses.replace(players[0], out_round=1), dataclasses.replace(players[1], out_round=3)
    assert nr.standings(dataclasses.replace(state, players=tuple(players)))[2:] == [(3, 1, 0), (4, 0, 0)]


def test_legal_actions_are_all_accepted_and_payments_cover_the_options() -> None:
    state = paying(hand(red=2, orange=2, yellow=6), hand(yellow=10), hand(yellow=10), picks=("yellow",) * 3)
    pays = nr.legal_actions(state, 0)
    assert pays and all(isinstance(p, Pay) for p in pays)
    for pay in pays:
        nr.check(state, pay)
    assert Pay(seat=0, eaten=2, returned=("blue", "green")) in pays
    assert len(set(pays)) == len(pays)


def test_nothing_public_gives_a_blind_draw_or_a_swap_away() -> None:
    """100 bot games: the public view holds no per-colour count of the common bowl and the
    public log never names a colour a player drew or took on a swap."""
    fields = {f.name for f in dataclasses.fields(nr.View)}
    assert "common" not in fields and {"common_total", "common_colours"} <= fields
    named = re.compile(r"(takes an? |drew )(" + "|".join(nr.COLOURS) + ")")
    swaps = 0
    for seed in range(100):
        game = new_game("new-rule", nr.Setup(names=("Ana", "Bo", "Cy", "Di")), seed)
        rng = random.Random(seed)
        while not game.state.over:
            seat = game.state.waiting_for()[0]
            action = (random_bot if seed % 2 else balanced_bot)(game.state, seat, rng)
            game.apply(action)
            if isinstance(action, Swap):
                swaps += 1
                article = "an" if action.colour[0] in "aeiou" else "a"
                assert f"You took {article} {action.colour} candy." in map(str, nr.view_for(game.state, seat).log)
        public = nr.view_for(game.state, None)
        assert not [line for line in public.log if named.search(str(line))]
        assert public.common_total == sum(game.state.common)
    assert swaps > 50


# -- the suggested payment ------------------------------------------------------------------------


def left_after(state: nr.State, seat: int, pay: Pay) -> dict[str, int]:
    """The seat's bowl after `pay`, counted here from the payment itself."""
    bowl = dict(zip(state.colours, state.players[seat].bowl))
    for colour in pay.returned:
        bowl[colour] -= 1
    bowl[state.setup.antibody] -= pay.eaten
    return bowl


def score_of(bowl: dict[str, int]) -> int:
    return min(n for c, n in bowl.items() if c != "red") + bowl["red"]


def test_the_suggestion_eats_a_lone_red_rather_than_returning_it() -> None:
    # Yellow, orange and brown are picked once each: all three infect, strength 1. Seat 0
    # holds 1 red and 1 each of green and blue (the draw), its only non-infection candies.
    state = paying(hand(red=1, yellow=3, orange=2, brown=2), hand(orange=8), hand(brown=8), picks=("yellow", "orange", "brown"))
    assert state.infection == ("orange", "yellow", "brown") and state.strength == 1
    returning_the_red = Pay(seat=0, returned=("green", "red"))
    nr.check(state, returning_the_red)  # legal, and what "the first legal payment" was
    assert score_of(left_after(state, 0, returning_the_red)) == 0
    pay = nr.suggested_payment(state, 0)
    assert pay == Pay(seat=0, eaten=1)
    nr.check(state, pay)
    # Returning green and blue also keeps 1, but eating keeps more candies and every colour.
    assert score_of(left_after(state, 0, pay)) == 1


def test_the_suggestion_never_zeroes_colours_when_the_fullest_can_pay() -> None:
    state = paying(hand(red=1, orange=2, brown=2, blue=1, green=1, yellow=3), hand(yellow=10), hand(yellow=10), picks=("yellow",) * 3)
    assert state.infection == ("yellow",) and state.strength == 3
    pay = nr.suggested_payment(state, 0)
    assert pay is not None
    nr.check(state, pay)
    left = left_after(state, 0, pay)
    # Three pairs would zero two colours; the red eaten and two pairs from the fullest colours
    # keep the same score and a candy of every colour.
    best = max(score_of(left_after(state, 0, p)) for p in nr.legal_payments(state, 0))
    assert score_of(left) == best == 1
    assert all(n > 0 for c, n in left.items() if c != "red")


def test_the_suggestion_pays_at_double_rate_only_when_it_must() -> None:
    # Seat 0: 2 plain candies (the draw) and 12 yellow against strength 3 of yellow.
    state = paying(hand(yellow=12), hand(yellow=12), hand(yellow=12), picks=("yellow",) * 3)
    pay = nr.suggested_payment(state, 0)
    assert pay == Pay(seat=0, returned=("blue", "green") + ("yellow",) * 8)
    nr.check(state, pay)


def test_no_suggestion_for_a_seat_with_nothing_to_pay() -> None:
    state = everyone_keeps(dealt(hand(yellow=10), hand(yellow=10), hand(yellow=10)))
    assert nr.suggested_payment(state, 0) is None  # picking, not paying
    state = paying(hand(yellow=10), hand(yellow=10), hand(yellow=10), picks=("yellow",) * 3)
    state = do(state, nr.suggested_payment(state, 0))
    assert state.paid[0] and nr.suggested_payment(state, 0) is None


def test_the_suggestion_scores_as_well_as_the_best_legal_payment() -> None:
    """Random seeded games of 3-5 players: at every payment the suggestion is legal and its
    (score, candies kept, colours kept) equals the best over every legal payment."""
    checked = 0
    for seed in range(40):
        names = ("Ana", "Bo", "Cy", "Di", "Ed")[: 3 + seed % 3]
        game = new_game("new-rule", nr.Setup(names=names, hand=4 + seed % 10), seed)
        rng = random.Random(seed)
        while not game.state.over:
            state = game.state
            if state.phase == "pay":
                for seat in state.waiting_for():

                    def key(pay: Pay, state: nr.State = state, seat: int = seat) -> tuple[int, int, int]:
                        left = left_after(state, seat, pay)
                        return score_of(left), sum(left.values()), sum(1 for n in left.values() if n)

                    pay = nr.suggested_payment(state, seat)
                    assert pay is not None
                    nr.check(state, pay)
                    assert key(pay) == max(key(p) for p in nr.legal_payments(state, seat)), (seed, state.players[seat].bowl)
                    checked += 1
            game.apply(random_bot(state, state.waiting_for()[0], rng))
    assert checked > 300
