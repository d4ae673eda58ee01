"""Danger World rule by rule, with dice forced through the chance actions (RULINGS.md, Danger World)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import danger_world as dw
from rules.core import Game, RuleError
from rules.danger_world import (
    ApplyHit,
    BeginCheck,
    BonusPool,
    ChooseSet,
    Compel,
    CreateCharacter,
    EndEncounter,
    GmOption,
    InjuryStat,
    Invocation,
    Lock,
    LongRest,
    NewSession,
    Reroll,
    Rerolled,
    Roll,
    SetAspects,
    SetStats,
    ShortRest,
    SpendBotches,
    Unlock,
)

NAMES = ("Ana", "Bo")
#: Agility 4, Endurance 2, Speed 2, Strength 1, Perception 3, Reasoning 2, Charisma 1, Cool 1.
SHEET = (4, 2, 2, 1, 3, 2, 1, 1)
ASPECTS = ("Quick hands", "Owes the guild", "Loyal to a fault")
GM = 2  # the GM's seat with two players


def do(state: dw.State, *actions: dw.Action) -> dw.State:
    for action in actions:
        dw.check(state, action)
        state = dw.play(state, action)
    return state


def refused(state: dw.State, action: dw.Action, rule: str) -> RuleError:
    with pytest.raises(RuleError) as err:
        dw.check(state, action)
    assert err.value.rule == rule, err.value
    return err.value


def table(**variants: object) -> dw.State:
    state = dw.initial(dw.Setup(names=NAMES, gm="Morgan", **variants))
    return do(
        state,
        CreateCharacter(seat=0, character=0, stats=SHEET, aspects=ASPECTS),
        CreateCharacter(seat=1, character=1, stats=(1, 3, 1, 3, 2, 3, 2, 1), aspects=("Big", "Slow to anger", "Hungry")),
    )


def begin(state: dw.State, **changes: object) -> dw.State:
    """Ana's Agility + Perception check (7 dice) at difficulty 4, with any changes."""
    action = BeginCheck(**{"seat": 0, "character": 0, "stats": ("agility", "perception"), "difficulty": 4, **changes})
    return do(state, action)


def hurt(state: dw.State, who: int, **changes: object) -> dw.State:
    characters = list(state.characters)
    characters[who] = replace(characters[who], **changes)
    return replace(state, characters=tuple(characters))


# -- setup and sheets ------------------------------------------------------------------------------


def test_setup_checks_players_and_variants() -> None:
    with pytest.raises(RuleError) as err:
        dw.Setup(names=())
    assert err.value.rule == "player count"
    for bad in ({"story_points": -1}, {"pool_start": -1}, {"rerolls": 6}, {"sheet_dice": 7}, {"sheet_dice": 33}):
        with pytest.raises(RuleError) as err:
            dw.Setup(names=NAMES, **bad)
        assert err.value.rule == "setup", bad
    with pytest.raises(RuleError, match="GM needs a name"):
        dw.Setup(names=NAMES, gm="  ")
    setup = dw.Setup(names=(" Ana ", "Bo"))
    assert setup.names == ("Ana", "Bo") and setup.gm_seat == 2
    state = dw.initial(dw.Setup(names=NAMES, story_points=5, pool_start=2))
    assert [c.sp for c in state.characters] == [5, 5] and state.pool == 2


@pytest.mark.parametrize("stats", [(5, 1, 1, 1, 2, 2, 2, 2), (0, 2, 2, 2, 2, 2, 2, 4)])
def test_a_stat_outside_1_to_4_is_refused(stats: tuple[int, ...]) -> None:
    state = dw.initial(dw.Setup(names=NAMES))
    err = refused(state, CreateCharacter(seat=0, character=0, stats=stats, aspects=ASPECTS), "stats")
    assert "1-4" in err.message


def test_a_sheet_must_add_up_to_16_dice() -> None:
    state = dw.initial(dw.Setup(names=NAMES))
    err = refused(state, CreateCharacter(seat=0, character=0, stats=(1, 1, 1, 1, 1, 1, 1, 1), aspects=ASPECTS), "sheet")
    assert "8 dice" in err.message and "16" in err.message
    refused(state, CreateCharacter(seat=0, character=0, stats=(2,) * 7, aspects=ASPECTS), "stats")
    refused(state, CreateCharacter(seat=0, character=0, stats=SHEET, aspects=ASPECTS[:2]), "aspects")
    refused(state, CreateCharacter(seat=0, character=0, stats=SHEET, aspects=("a", " ", "c")), "aspects")
    refused(state, CreateCharacter(seat=1, character=0, stats=SHEET, aspects=ASPECTS), "seat")
    # The GM (its seat, or seat None) may fill in any sheet; experienced PCs are a variant.
    do(state, CreateCharacter(seat=GM, character=0, stats=SHEET, aspects=ASPECTS))
    veteran = dw.initial(dw.Setup(names=NAMES, sheet_dice=20))
    do(veteran, CreateCharacter(character=0, stats=(4, 4, 2, 2, 2, 2, 2, 2), aspects=ASPECTS))


def test_sheets_are_made_once_then_revised() -> None:
    state = table()
    refused(state, CreateCharacter(seat=0, character=0, stats=SHEET, aspects=ASPECTS), "sheet")
    state = do(state, SetStats(seat=0, character=0, stats=(1, 2, 2, 1, 4, 2, 2, 2)), SetAspects(seat=0, character=0, aspects=("A", "B", "  C  d ")))
    assert state.characters[0].stats == (1, 2, 2, 1, 4, 2, 2, 2)
    assert state.characters[0].aspects == ("A", "B", "C d")
    refused(state, SetStats(seat=0, character=0, stats=(4, 4, 4, 4, 1, 1, 1, 1)), "sheet")


def test_a_character_without_a_sheet_cannot_check() -> None:
    state = dw.initial(dw.Setup(names=NAMES))
    assert state.waiting_for() == (0, 1)
    refused(state, BeginCheck(seat=0, character=0, stats=("agility", "cool"), difficulty=3), "sheet")
    assert table().waiting_for() == ()


# -- difficulty and zones ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "base, modifiers, result",
    [(4, (), (4, False)), (4, (1,), (5, False)), (4, (1, 1), (6, True)), (3, (1, 1, 1), (6, True)), (6, (1,), (6, False)), (2, (-1,), (2, False)), (5, (1, -1, -1), (4, False))],
)
def test_difficulty_modifiers_clamp_and_flag(base: int, modifiers: tuple[int, ...], result: tuple[int, bool]) -> None:
    assert dw.difficulty_after(base, modifiers) == result


def test_a_flagged_difficulty_is_allowed_and_logged() -> None:
    state = begin(table(), difficulty=3, modifiers=(1, 1))
    assert state.check is not None and state.check.difficulty == 5 and state.check.flagged
    assert "flagged" in str(state.log[-2].text)
    refused(table(), BeginCheck(seat=0, character=0, stats=("agility", "cool"), difficulty=7), "difficulty")
    refused(table(), BeginCheck(seat=0, character=0, stats=("agility", "cool"), difficulty=4, modifiers=(2,)), "difficulty")
    refused(table(), BeginCheck(seat=0, character=0, stats=("agility", "agility"), difficulty=4), "stats")
    refused(table(), BeginCheck(seat=0, character=0, stats=("agility", "luck"), difficulty=4), "stats")


@pytest.mark.parametrize("level, zone", [(0, 1), (4, 1), (5, 2), (9, 2), (10, 3), (15, 4), (19, 4), (20, 5), (99, 5)])
def test_zone_rank(level: int, zone: int) -> None:
    assert dw.zone_rank(level) == zone


# -- sets -------------------------------------------------------------------------------------------


def test_a_set_needs_as_many_dice_as_its_height() -> None:
    assert dw.set_heights((3, 3, 3, 2, 2, 6)) == (2, 3)
    assert dw.set_heights((3, 3, 2)) == ()
    assert dw.set_heights((6,) * 6) == (6,)


def test_wider_dice_still_make_the_set() -> None:
    # Width may exceed height: a set uses h of the dice.
    assert dw.set_heights((5,) * 7) == (5,)
    use = dw.set_use((5,) * 7, 7, (), 5)
    assert use is not None and use.dice == (0, 1, 2, 3, 4)


def test_ones_never_form_a_set() -> None:
    assert dw.set_heights((1,) * 8) == ()
    assert dw.set_use((1,) * 8, 8, (), 1) is None


def test_penalty_dice_lower_the_available_width() -> None:
    assert dw.set_heights((4, 4, 4, 4), (4,)) == ()
    assert dw.set_heights((4, 4, 4, 4, 4), (4,)) == (4,)
    assert dw.set_heights((4, 4, 4, 4), (3, 1)) == (4,)


def test_penalty_dice_cancel_danger_dice_before_normal_dice() -> None:
    # Normal 3 3, danger 3 3, penalty 3: the penalty die cancels a danger die, so the set of 3
    # uses both normal dice and one danger die (cancelling a normal die would use two).
    use = dw.set_use((3, 3, 3, 3), 2, (3,), 3)
    assert use == dw.SetUse(height=3, normal=2, danger=1, dice=(0, 1, 2))
    # Two penalty dice against one danger die: the danger die goes, then a normal die.
    use = dw.set_use((2, 2, 2, 2, 2), 4, (2, 2), 2)
    assert use is not None and use.normal == 2 and use.danger == 0


def test_a_set_uses_normal_dice_before_danger_dice() -> None:
    use = dw.set_use((2, 2, 5, 2), 3, (), 2)
    assert use is not None and (use.normal, use.danger) == (2, 0)
    use = dw.set_use((2, 5, 2, 2), 2, (), 2)
    assert use is not None and (use.normal, use.danger, use.dice) == (1, 1, (0, 2))


def test_botches_count_every_one() -> None:
    assert dw.count_botches((1, 1, 4), (1, 6)) == 3
    state = do(begin(hurt(table(), 0, danger=5), danger=2, complications=1), Roll(normal=(1, 2, 3, 4, 5, 6, 1), danger=(1, 3), penalty=(1,)))
    assert state.check is not None and state.check.botches == 4


# -- the check --------------------------------------------------------------------------------------


def test_the_pool_is_two_stats_plus_bonus_plus_danger() -> None:
    state = hurt(table(), 0, danger=10, bonus=(BonusPool(2, "earlier"),))
    state = begin(state, invocations=(Invocation(aspect=0, sp=2),), bonus=(0,), danger=3, complications=1)
    c = state.check
    assert c is not None
    assert (c.stat_dice, c.bonus_dice, c.normal, c.danger, c.penalty, c.pool) == (7, 4, 11, 3, 1, 14)
    assert state.characters[0].bonus == ()


def test_danger_dice_are_limited_by_the_zone() -> None:
    state = table()
    err = refused(state, BeginCheck(seat=0, character=0, stats=("agility", "perception"), difficulty=4, danger=2), "danger dice")
    assert "zone 1" in err.message
    begin(state, danger=1)
    deeper = hurt(state, 0, danger=5)
    begin(deeper, danger=2)
    refused(deeper, BeginCheck(seat=0, character=0, stats=("agility", "perception"), difficulty=4, danger=3), "danger dice")
    begin(hurt(state, 0, danger=40), danger=5)


def test_danger_dice_used_in_the_set_raise_danger() -> None:
    state = begin(hurt(table(), 0, danger=5), danger=2)
    state = do(state, Roll(normal=(3, 3, 2, 5, 6, 6, 2), danger=(3, 4)))
    state = do(state, ChooseSet(seat=0, height=3))
    assert state.characters[0].danger == 6
    assert state.results[-1].danger_raised == 1
    # A set without danger dice leaves danger alone, even if danger dice were rolled.
    state = begin(state, danger=2)
    state = do(state, Roll(normal=(4, 4, 4, 4, 2, 2, 2), danger=(4, 4)), ChooseSet(seat=0, height=4))
    assert state.characters[0].danger == 6


def test_penalty_cancelling_a_danger_die_keeps_danger_down() -> None:
    state = begin(hurt(table(), 0, danger=5), danger=2, complications=1)
    state = do(state, Roll(normal=(3, 3, 2, 5, 6, 6, 2), danger=(3, 3), penalty=(3,)))
    state = do(state, ChooseSet(seat=0, height=3))
    assert state.characters[0].danger == 6  # one danger die cancelled, one used


def test_story_points_move_between_player_and_pool() -> None:
    state = table(pool_start=2)
    state = begin(state, invocations=(Invocation(aspect=0, sp=2),), compels=(Compel(aspect=1, sp=1),))
    assert state.characters[0].sp == 3 - 2 + 1 and state.pool == 2 + 2 - 1
    c = state.check
    assert c is not None and c.bonus_dice == 2 and c.penalty == 1
    assert sum(ch.sp for ch in state.characters) + state.pool == 3 + 3 + 2


def test_spending_story_points_one_does_not_have_is_refused() -> None:
    state = table()
    err = refused(state, BeginCheck(seat=0, character=0, stats=("agility", "cool"), difficulty=3, invocations=(Invocation(0, 2), Invocation(1, 2))), "story points")
    assert "3 story points" in err.message
    refused(state, BeginCheck(seat=0, character=0, stats=("agility", "cool"), difficulty=3, compels=(Compel(0, 1),)), "story points")
    refused(state, BeginCheck(seat=0, character=0, stats=("agility", "cool"), difficulty=3, invocations=(Invocation(3, 1),)), "aspects")
    refused(state, BeginCheck(seat=0, character=0, stats=("agility", "cool"), difficulty=3, invocations=(Invocation(0, 0),)), "story points")
    # SP a compel brings in this check are not recycled into an invocation in the same check.
    poor = hurt(table(pool_start=1), 0, sp=0)
    refused(poor, BeginCheck(seat=0, character=0, stats=("agility", "cool"), difficulty=3, invocations=(Invocation(0, 1),), compels=(Compel(1, 1),)), "story points")


def test_only_the_player_or_the_gm_acts_for_a_character() -> None:
    state = table()
    refused(state, BeginCheck(seat=1, character=0, stats=("agility", "cool"), difficulty=3), "seat")
    begin(state, seat=GM)
    begin(state, seat=None)
    state = do(begin(state), Roll(normal=(2, 3, 4, 5, 6, 6, 5)))
    refused(state, Lock(seat=1, dice=(0,)), "seat")
    do(state, Lock(seat=GM, dice=(0,)))
    refused(state, EndEncounter(seat=0), "GM")
    refused(state, EndEncounter(seat=GM), "turn order")


def test_outcomes_benefit_success_partial_failure() -> None:
    faces = {5: (5, 5, 5, 5, 5, 2, 3), 4: (4, 4, 4, 4, 2, 2, 3), 3: (3, 3, 3, 2, 6, 6, 5), None: (2, 3, 4, 5, 6, 6, 5)}
    expected = {5: ("benefit", 1), 4: ("success", 0), 3: ("partial", 3), None: ("failure", 0)}
    for height, roll in faces.items():
        state = do(begin(table()), Roll(normal=roll), ChooseSet(seat=0, height=height))
        result = state.results[-1]
        assert (result.outcome, result.bonus_won) == expected[height], height
        pools = state.characters[0].bonus
        assert [p.dice for p in pools] == ([expected[height][1]] if expected[height][1] else [])
        assert state.check is None


def test_a_partial_success_may_be_declined() -> None:
    state = do(begin(table()), Roll(normal=(3, 3, 3, 2, 6, 6, 5)), ChooseSet(seat=0, height=None))
    assert state.results[-1].outcome == "failure" and state.characters[0].bonus == ()


def test_choosing_a_set_the_dice_do_not_hold_is_refused() -> None:
    state = do(begin(table()), Roll(normal=(3, 3, 3, 2, 6, 6, 5)))
    refused(state, ChooseSet(seat=0, height=4), "set")
    refused(state, ChooseSet(seat=0, height=1), "set")
    refused(state, ChooseSet(seat=0, height=6), "set")


def test_one_time_bonus_pools_are_consumed_when_used() -> None:
    state = do(begin(table()), Roll(normal=(6,) * 6 + (2,)), ChooseSet(seat=0, height=6))
    assert [(p.dice, str(p.source)) for p in state.characters[0].bonus] == [(2, "benefit (check 1)")]
    state = begin(state, bonus=(0,))
    assert state.check is not None and state.check.normal == 9 and state.characters[0].bonus == ()
    refused(hurt(table(), 0, bonus=(BonusPool(1),)), BeginCheck(seat=0, character=0, stats=("agility", "cool"), difficulty=3, bonus=(0, 0)), "bonus dice")
    refused(table(), BeginCheck(seat=0, character=0, stats=("agility", "cool"), difficulty=3, bonus=(0,)), "bonus dice")


def test_an_aid_check_gives_the_set_height_as_bonus_dice() -> None:
    state = begin(table(), aid=1, difficulty=2)
    state = do(state, Roll(normal=(3, 3, 3, 4, 4, 2, 2)), ChooseSet(seat=0, height=3))
    assert state.results[-1].outcome == "aid" and state.results[-1].bonus_won == 3
    assert [(p.dice, str(p.source)) for p in state.characters[1].bonus] == [(3, "aid from Ana (check 1)")]
    assert state.characters[0].bonus == ()
    refused(table(), BeginCheck(seat=0, character=0, stats=("agility", "cool"), difficulty=3, aid=0), "aid")
    refused(table(), BeginCheck(seat=0, character=0, stats=("agility", "cool"), difficulty=3, aid=5), "seat")


# -- locks and re-rolls -----------------------------------------------------------------------------


def rolled(**variants: object) -> dw.State:
    state = begin(table(**variants), danger=1, complications=1)
    return do(state, Roll(normal=(4, 4, 1, 2, 6, 3, 5), danger=(4,), penalty=(2,)))


def test_lock_and_reroll_keep_locked_dice_and_penalty_dice() -> None:
    state = do(rolled(), Lock(seat=0, dice=(0, 1)), Lock(seat=0, dice=(7,)))
    c = state.check
    assert c is not None and c.locked == {0, 1, 7} and c.unlocked == (2, 3, 4, 5, 6)
    state = do(state, Reroll(seat=0))
    assert state.phase == "reroll"
    refused(state, ChooseSet(seat=0, height=None), "turn order")
    state = do(state, Rerolled(faces=(4, 1, 4, 2, 2)))
    c = state.check
    assert c is not None
    assert c.faces == (4, 4, 4, 1, 4, 2, 2, 4) and c.penalty_faces == (2,) and c.rerolls == 1
    assert [s.height for s in c.sets] == [4]


def test_a_third_reroll_is_refused() -> None:
    state = do(rolled(), Reroll(seat=0), Rerolled(faces=(1,) * 8), Reroll(seat=0), Rerolled(faces=(2,) * 8))
    err = refused(state, Reroll(seat=0), "re-rolls")
    assert "2 re-roll" in err.message
    refused(state, Lock(seat=0, dice=(0,)), "re-rolls")
    # The number of rounds is a variant.
    refused(rolled(rerolls=0), Reroll(seat=0), "re-rolls")
    three = do(rolled(rerolls=3), *[a for _ in range(2) for a in (Reroll(seat=0), Rerolled(faces=(3,) * 8))])
    do(three, Reroll(seat=0))


def test_unlocking_is_refused() -> None:
    state = do(rolled(), Lock(seat=0, dice=(0,)))
    refused(state, Unlock(seat=0, dice=(0,)), "locks are permanent")
    refused(state, Lock(seat=0, dice=(0,)), "dice")
    refused(state, Lock(seat=0, dice=(8,)), "dice")  # the penalty die is not a pool die
    refused(state, Lock(seat=0, dice=(1, 1)), "dice")
    refused(state, Lock(seat=0, dice=()), "dice")


def test_rerolling_with_every_die_locked_is_refused() -> None:
    state = do(rolled(), Lock(seat=0, dice=tuple(range(8))))
    refused(state, Reroll(seat=0), "re-rolls")


# -- GM options -------------------------------------------------------------------------------------


def botched(ones: int, **variants: object) -> dw.State:
    faces = (1,) * ones + (2, 3, 4, 5, 6, 6, 5)[: 7 - ones]
    return do(begin(table(**variants)), Roll(normal=faces), ChooseSet(seat=0, height=None))


def test_botches_buy_options_up_to_their_number() -> None:
    state = botched(3)
    assert state.phase == "gm" and state.waiting_for() == (GM,)
    refused(state, SpendBotches(seat=GM, options=(GmOption("full"),)), "botches")
    refused(state, SpendBotches(seat=GM, options=(GmOption("reduced"), GmOption("reduced"))), "botches")
    refused(state, SpendBotches(seat=GM, options=(GmOption("tax"),)), "GM options")
    refused(state, SpendBotches(seat=0, options=()), "GM")
    state = do(state, SpendBotches(seat=GM, options=(GmOption("danger"), GmOption("reduced", character=1))))
    assert state.characters[0].danger == 1 and state.characters[1].damage == (1, 0, 0, 0, 0)
    assert state.check is None and state.results[-1].spent == (GmOption("danger"), GmOption("reduced", character=1))


def test_no_botches_no_gm_stage() -> None:
    state = do(begin(table()), Roll(normal=(2, 3, 4, 5, 6, 6, 5)), ChooseSet(seat=0, height=None))
    assert state.check is None and state.results[-1].botches == 0


def test_the_gm_may_let_botches_go() -> None:
    state = do(botched(2), SpendBotches(seat=GM, options=()))
    assert state.check is None and state.characters[0].damage == (0,) * 5


def test_a_penalty_die_on_a_challenge_goes_to_the_characters_next_check() -> None:
    state = do(botched(3), SpendBotches(seat=GM, options=(GmOption("penalty", note="the guards are alert"), GmOption("penalty", character=1), GmOption("penalty", character=1))))
    assert [c.challenge for c in state.characters] == [1, 2]
    assert [c.challenge for c in dw.view_for(state, None).characters] == [1, 2]  # the table sees them
    ana = str(state.log[-3].text)
    assert "+1 penalty die on Ana's next check" in ana and "the guards are alert" in ana
    # Ana's next check rolls it on top of her complications.
    state = begin(state, complications=1)
    assert state.check is not None and state.check.penalty == 2 and state.characters[0].challenge == 0
    refused(state, Roll(normal=(2, 3, 4, 5, 6, 6, 5), penalty=(3,)), "dice")  # both dice are rolled
    state = do(state, Roll(normal=(2, 3, 4, 5, 6, 6, 5), penalty=(3, 4)), ChooseSet(seat=0, height=None))
    assert state.check is None and state.results[-1].penalty_faces == (3, 4)
    # Bo's next check (an aid counts): the table removes one of his two, and the other is rolled.
    aid = BeginCheck(seat=1, character=1, stats=("endurance", "strength"), difficulty=3, aid=0, waive=1)
    refused(state, replace(aid, waive=3), "penalty dice")  # only what the GM put there
    refused(state, replace(aid, waive=-1), "penalty dice")
    state = do(state, aid)
    assert state.check is not None and state.check.penalty == 1 and state.characters[1].challenge == 0
    assert "+1 penalty (1 removed by the table)" in str(state.log[-2].text)
    # Gone after that check: the one after rolls no penalty die.
    state = do(state, Roll(normal=(2,) * 6, penalty=(5,)), ChooseSet(seat=1, height=None))
    state = begin(state)
    assert state.check is not None and state.check.penalty == 0


def test_the_courtyard_example() -> None:
    """Difficulty-4 sneak with 3 botches: succeed or fail, the GM buys a meaningful setback."""
    for _succeeds, faces, height, outcome in ((True, (4, 4, 4, 4, 1, 1, 1), 4, "success"), (False, (4, 4, 2, 3, 1, 1, 1), None, "failure")):
        state = begin(table())
        assert state.check is not None and state.check.difficulty == 4 and state.check.pool == 7
        state = do(state, Roll(normal=faces), ChooseSet(seat=0, height=height))
        assert state.check is not None and state.check.botches == 3
        state = do(state, SpendBotches(seat=GM, options=(GmOption("meaningful", note="a difficulty-3 check to escape"),)))
        result = state.results[-1]
        assert (result.outcome, result.botches, result.height) == (outcome, 3, height)
        assert "meaningful setback" in str(state.log[-1].text) and "difficulty-3" in str(state.log[-1].text)
    example = dw.worked_example(succeed=True)
    assert example.results[-1].outcome == "success" and example.results[-1].botches == 3
    assert dw.worked_example(succeed=False).results[-1].outcome == "failure"


# -- the damage track --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "damage, hit, zone, after",
    [
        ((0, 0, 0, 0, 0), "reduced", 3, (1, 0, 0, 0, 0)),
        ((3, 0, 0, 0, 0), "reduced", 1, (3, 1, 0, 0, 0)),
        ((3, 3, 2, 0, 0), "reduced", 5, (3, 3, 3, 0, 0)),
        ((0, 0, 0, 0, 0), "full", 1, (1, 0, 0, 0, 0)),
        ((0, 0, 0, 0, 0), "full", 2, (0, 1, 0, 0, 0)),
        ((0, 3, 0, 0, 0), "full", 2, (0, 3, 1, 0, 0)),  # spills into the next zone
        ((0, 3, 3, 1, 0), "full", 2, (0, 3, 3, 1, 1)),
        ((0, 0, 0, 0, 0), "full", 4, (0, 0, 0, 1, 0)),
        ((0, 0, 0, 0, 0), "overload", 1, (1, 0, 0, 0, 0)),
        ((0, 0, 0, 0, 0), "overload", 3, (3, 3, 1, 0, 0)),
        ((1, 0, 3, 0, 0), "overload", 3, (3, 3, 3, 1, 0)),  # spills, then fills every lower zone
        ((0, 0, 0, 0, 0), "overload", 5, (3, 3, 3, 1, 1)),
        ((3, 3, 3, 1, 1), "reduced", 1, (3, 3, 3, 1, 1)),
    ],
)
def test_hits(damage: tuple[int, ...], hit: str, zone: int, after: tuple[int, ...]) -> None:
    assert dw.track_after_hit(damage, hit, zone) == after


def test_a_full_hit_lands_in_the_characters_zone() -> None:
    state = do(hurt(table(), 1, danger=7), ApplyHit(seat=GM, character=1, hit="full"))
    assert state.characters[1].damage == (0, 1, 0, 0, 0)
    refused(state, ApplyHit(seat=GM, character=1, hit="glancing"), "hit")
    refused(state, ApplyHit(seat=0, character=1, hit="full"), "GM")


def test_bashed_adds_penalty_dice_and_stunned_removes_pool_dice() -> None:
    state = hurt(table(), 0, damage=(2, 3, 0, 0, 0))
    state = begin(state)
    c = state.check
    assert c is not None and c.penalty == 2 and c.stat_dice == 4 and c.normal == 4
    # Never below 0 pool dice from the stats; bonus dice still count.
    weak = hurt(table(), 1, damage=(0, 3, 0, 0, 0))
    weak = do(weak, BeginCheck(seat=1, character=1, stats=("agility", "speed"), difficulty=2, invocations=(Invocation(0, 1),)))
    assert weak.check is not None and weak.check.stat_dice == 0 and weak.check.normal == 1


def test_injured_boxes_lower_random_stats_until_a_long_rest() -> None:
    state = hurt(table(), 0, danger=10)
    state = do(state, ApplyHit(seat=GM, character=0, hit="full"))
    assert state.characters[0].damage == (0, 0, 1, 0, 0) and state.pending_injuries == (0,)
    assert state.phase == "injury"
    refused(state, ApplyHit(seat=GM, character=0, hit="full"), "turn order")
    refused(state, InjuryStat(character=1, stat="agility"), "injury")
    refused(state, InjuryStat(character=0, stat="luck"), "injury")
    state = do(state, InjuryStat(character=0, stat="agility"))
    assert state.characters[0].stat("agility") == 3 and state.characters[0].stats[0] == 4
    refused(state, SetStats(seat=0, character=0, stats=SHEET), "stats")
    # Never below 1: Strength is already 1.
    state = do(state, ApplyHit(seat=GM, character=0, hit="full"), InjuryStat(character=0, stat="strength"))
    assert state.characters[0].stat("strength") == 1 and "no lower" in str(state.log[-1].text)
    state = do(state, ShortRest(seat=GM))
    assert state.characters[0].damage == (0, 0, 2, 0, 0) and state.characters[0].stat("agility") == 3
    state = do(state, LongRest(seat=GM))
    assert state.characters[0].damage == (0,) * 5 and state.characters[0].effective == SHEET


def test_the_injury_die_comes_from_the_seeded_generator() -> None:
    game = Game(dw.RULES, dw.Setup(names=NAMES), seed=11)
    game.apply(CreateCharacter(seat=0, character=0, stats=SHEET, aspects=ASPECTS))
    for _ in range(7):  # Bashed, Stunned, then the first Injured box
        game.apply(ApplyHit(seat=GM, character=0, hit="reduced"))
    assert game.state.characters[0].damage == (3, 3, 1, 0, 0)
    injuries = [a for a in game.actions if isinstance(a, InjuryStat)]
    assert len(injuries) == 1 and game.state.pending_injuries == ()
    assert game.undo_blocker() == "the last action was a chance outcome"
    lowered = game.state.characters[0].lowered
    assert sum(lowered) == (1 if SHEET[dw.STATS.index(injuries[0].stat)] > 1 else 0)


def test_an_overload_hit_queues_one_injury_die_per_injured_box() -> None:
    state = do(hurt(table(), 0, danger=15), ApplyHit(seat=GM, character=0, hit="overload"))
    assert state.characters[0].damage == (3, 3, 3, 1, 0) and state.pending_injuries == (0, 0, 0)
    assert state.characters[0].knocked_out


def test_a_knocked_out_character_cannot_act_until_the_encounter_ends() -> None:
    state = do(hurt(table(), 0, danger=15), ApplyHit(seat=GM, character=0, hit="full"))
    assert state.characters[0].damage == (0, 0, 0, 1, 0) and state.characters[0].knocked_out
    err = refused(state, BeginCheck(seat=0, character=0, stats=("agility", "cool"), difficulty=3), "K.O.'d")
    assert "Ana" in err.message
    state = do(state, EndEncounter(seat=GM))
    assert not state.characters[0].knocked_out and state.characters[0].danger == 0 and state.encounter == 2
    assert state.characters[0].damage == (0, 0, 0, 1, 0)  # the box waits for a long rest
    begin(state)
    assert do(state, LongRest()).characters[0].damage == (0,) * 5


def test_danger_returns_to_zero_after_an_encounter_unless_the_variant_says_otherwise() -> None:
    assert do(hurt(table(), 0, danger=7), EndEncounter()).characters[0].danger == 0
    assert do(hurt(table(danger_resets=False), 0, danger=7), EndEncounter()).characters[0].danger == 7


def test_dead_is_dead() -> None:
    state = do(hurt(table(), 0, danger=20), ApplyHit(seat=GM, character=0, hit="full"))
    assert state.characters[0].dead and not state.over
    refused(state, ApplyHit(seat=GM, character=0, hit="reduced"), "dead")
    refused(state, BeginCheck(seat=0, character=0, stats=("agility", "cool"), difficulty=3), "dead")
    state = do(state, LongRest())
    assert state.characters[0].dead
    assert dw.standings(state) == [(1, 1, 11), (2, 0, 10)]
    state = do(hurt(state, 1, danger=20), ApplyHit(character=1, hit="overload"))
    assert state.over and state.phase == "over"
    refused(state, EndEncounter(), "game over")


def test_short_and_long_rests() -> None:
    state = hurt(table(), 0, damage=(3, 2, 1, 1, 0), lowered=(1, 0, 0, 0, 0, 0, 0, 0), knocked_out=True)
    short = do(state, ShortRest(seat=GM))
    assert short.characters[0].damage == (0, 0, 1, 1, 0) and short.characters[0].stat("agility") == 3
    assert not short.characters[0].knocked_out  # a rest ends the encounter
    long = do(state, LongRest(seat=GM))
    assert long.characters[0].damage == (0, 0, 0, 0, 0) and long.characters[0].stat("agility") == 4


def test_a_new_session_restores_story_points() -> None:
    state = begin(table(pool_start=1), invocations=(Invocation(0, 3),))
    state = do(state, Roll(normal=(2, 3, 4, 5, 6, 6, 5, 2, 3, 4)), ChooseSet(seat=0, height=None))
    assert state.characters[0].sp == 0 and state.pool == 4
    state = do(state, NewSession())
    assert [c.sp for c in state.characters] == [3, 3] and state.pool == 1 and state.session == 2


def test_the_check_flow_is_enforced() -> None:
    state = table()
    refused(state, Roll(normal=(1,)), "turn order")
    refused(state, Reroll(seat=0), "turn order")
    refused(state, SpendBotches(), "turn order")
    state = begin(state)
    refused(state, Roll(normal=(1, 2, 3)), "dice")
    refused(state, Roll(normal=(1, 2, 3, 4, 5, 6, 7)), "dice")
    refused(state, BeginCheck(seat=1, character=1, stats=("agility", "cool"), difficulty=3), "turn order")
    refused(state, ShortRest(), "turn order")
    refused(state, SetStats(seat=0, character=0, stats=SHEET), "turn order")


# -- the driver, save files and views -------------------------------------------------------------------


def test_a_game_replays_exactly_from_its_save_file() -> None:
    game = Game(dw.RULES, dw.Setup(names=NAMES, gm="Morgan"), seed=7)
    game.apply(CreateCharacter(seat=0, character=0, stats=SHEET, aspects=ASPECTS))
    game.apply(BeginCheck(seat=0, character=0, stats=("agility", "perception"), difficulty=3, invocations=(Invocation(0, 1),)))
    assert isinstance(game.actions[-1], Roll) and game.state.phase == "lock"
    game.apply(Lock(seat=0, dice=(0,)))
    game.apply(Reroll(seat=0))
    assert isinstance(game.actions[-1], Rerolled)
    game.apply(ChooseSet(seat=0, height=None))
    if game.state.phase == "gm":
        game.apply(SpendBotches(options=(GmOption("danger"),)))
    game.apply(ApplyHit(seat=GM, character=0, hit="overload"))
    again = Game.from_json({"danger-world": dw.RULES}, game.to_json())
    assert again.state == game.state and again.actions == game.actions
    twin = Game(dw.RULES, dw.Setup(names=NAMES, gm="Morgan"), seed=7)
    for action in game.actions:
        if not action.chance:
            twin.apply(action)
    assert twin.state == game.state and twin.actions == game.actions


def test_a_refused_action_leaves_the_game_unchanged() -> None:
    game = Game(dw.RULES, dw.Setup(names=NAMES), seed=3)
    game.apply(CreateCharacter(seat=0, character=0, stats=SHEET, aspects=ASPECTS))
    before, log = game.state, list(game.actions)
    with pytest.raises(RuleError):
        game.apply(BeginCheck(seat=0, character=0, stats=("agility", "perception"), difficulty=4, danger=3))
    assert game.state is before and game.actions == log


def test_every_seat_sees_everything() -> None:
    state = do(rolled(), Lock(seat=0, dice=(0,)))
    views = [dw.view_for(state, seat) for seat in (None, 0, 1, GM)]
    assert all(v.characters == views[0].characters and v.log == views[0].log for v in views)
    view = views[1]
    assert view.check is not None and view.rerolls_left == 2 and [s.height for s in view.sets] == [] and view.botches == 1
    assert view.characters[0].stats == SHEET and view.characters[0].zone == 1
    assert view.waiting_for == (0,) and view.phase == "lock"


def test_the_coach_ranks_locks_for_the_current_check() -> None:
    state = rolled()
    options = dw.coach(state)
    assert options[0][0] >= {0, 1, 7}  # lock the three 4s (one is the danger die)
    assert options == sorted(options, key=lambda o: -o[1])
    assert dw.coach(table()) == []


def test_a_hit_on_a_character_without_a_sheet_is_refused() -> None:
    game = Game(dw.RULES, dw.Setup(names=("Wren", "Bo")), 1)
    with pytest.raises(RuleError) as err:
        game.apply(dw.ApplyHit(seat=game.state.gm_seat, character=1, hit="reduced"))
    assert err.value.rule == "sheet"


# -- ready-made and quick sheets ------------------------------------------------------------------------


@pytest.mark.parametrize("sheet_dice", [8, 12, 16, 20, 32])
def test_every_ready_made_and_quick_sheet_is_legal_at_any_sheet_size(sheet_dice):
    setup = dw.Setup(names=("Wren",), sheet_dice=sheet_dice)
    sheets = [(dw.fit_stats(r.stats, sheet_dice), r.written().aspects) for r in dw.READY_SHEETS]
    sheets += [(q.stats, q.aspects) for q in (dw.quick_sheet(seed, sheet_dice) for seed in range(40))]
    for stats, aspects in sheets:
        state = dw.initial(setup)
        action = CreateCharacter(seat=0, character=0, stats=stats, aspects=aspects)
        dw.check(state, action)
        assert dw.play(state, action).characters[0].ready


def test_the_ready_made_sheets_are_new_pcs_as_the_text_makes_them():
    assert dw.READY_SHEETS[0].stats == (4, 1, 2, 1, 3, 2, 1, 2)  # the courtyard's Wren
    for r in dw.READY_SHEETS:
        assert sum(r.stats) == dw.SHEET_DICE and all(1 <= v <= 4 for v in r.stats) and len(set(r.aspects)) == 3
        assert dw.fit_stats(r.stats) == r.stats


def test_a_quick_sheet_is_the_same_for_the_same_seed_and_differs_across_seeds():
    assert dw.quick_sheet(5) == dw.quick_sheet(5)
    assert len({dw.quick_sheet(seed).stats for seed in range(20)}) > 10
    with pytest.raises(RuleError):
        dw.quick_sheet(1, sheet_dice=40)
