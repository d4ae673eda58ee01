"""Dangerous Ideas, rule by rule (RULINGS.md, Dangerous Ideas), with dice forced by the test."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction

import pytest

from rules import dangerous_ideas as di
from rules.core import Game, RuleError, rng_for
from rules.dangerous_ideas import (
    Conclude,
    Connect,
    Create,
    Defend,
    EndTurn,
    Gain,
    Meme,
    Move,
    Pass,
    Place,
    PlotUnfinished,
    Ref,
    Rerolled,
    Roll,
    SpendSeed,
    Spread,
    Stake,
    Step,
    Title,
    TurnStones,
    Use,
    Write,
)
from rules.text import Said

NAMES = ("Ana", "Bo", "Cy")
ANA, BO, CY = 0, 1, 2
START = ("think",) * 3 + ("probe", "create", "connect", "defend")


def do(state: di.State, *actions) -> di.State:
    """Apply actions through the checked path, as the Game driver does."""
    for action in actions:
        di.check(state, action)
        state = di.play(state, action)
    return state


def refused(state: di.State, action, rule: str) -> RuleError:
    """The action is refused naming `rule`, and a Game holding `state` is left exactly as it was."""
    with pytest.raises(RuleError) as err:
        di.check(state, action)
    assert err.value.rule == rule, err.value
    return err.value


def refused_by_game(game: Game, action, rule: str) -> None:
    before, log = game.state, list(game.actions)
    with pytest.raises(RuleError) as err:
        game.apply(action)
    assert err.value.rule == rule, err.value
    assert game.state is before and game.actions == log


def started(names=NAMES, start=START, **variants) -> di.State:
    """Stones placed and the setting round played: each seat has a leaf meme on probe-1
    ('<name> leaf' - Wolf) and a coiled meme on create-1 ('<name> coiled' - Granny)."""
    state = di.initial(di.Setup(names=names, **variants))
    for seat in range(len(names)):
        state = do(state, Place(seat=seat, place=start))
    for seat, name in enumerate(names):
        state = do(
            state,
            Write(seat=seat, branch="probe-1", text=f"{name} leaf", holder="Wolf"),
            Write(seat=seat, branch="create-1", text=f"{name} coiled", holder="Granny"),
        )
    return state


def first_turn(state: di.State | None = None, place=("create", "think")) -> di.State:
    """Chapter 1 announced and Bo (the starter's left neighbour) has placed the turn's stones."""
    state = state or started()
    state = do(state, Title(seat=ANA, title="In which the wolf meets a girl"))
    return do(state, TurnStones(seat=state.turn, place=place))


def everyone_passes(state: di.State) -> di.State:
    phase = state.phase
    while state.phase == phase and state.waiting_for():
        state = do(state, Pass(seat=state.waiting_for()[0]))
    return state


def roll(state: di.State, dice: tuple[int, int]) -> di.State:
    """Phase 2 closed by everyone, the dice forced, the roll left standing."""
    state = everyone_passes(state)
    assert state.phase == "roll"
    state = do(state, Roll(dice=dice))
    return everyone_passes(state) if state.phase == "reroll" else state


def meme(state: di.State, seat: int, branch: str) -> Meme:
    found = state.sheets[seat].meme(branch)
    assert found is not None
    return found


# -- setup ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 11])
def test_player_count_outside_3_to_10_is_refused(n: int) -> None:
    with pytest.raises(RuleError, match="3-10 players"):
        di.Setup(names=tuple(f"P{i}" for i in range(n)))


@pytest.mark.parametrize("n, chapters", [(3, 6), (4, 8), (5, 5), (10, 10)])
def test_default_chapters_are_two_per_player_for_three_or_four_else_one(n: int, chapters: int) -> None:
    assert di.Setup(names=tuple(f"P{i}" for i in range(n))).chapter_count == chapters
    assert di.Setup(names=tuple(f"P{i}" for i in range(n)), chapters=3).chapter_count == 3


def test_the_default_layout_follows_the_rulings() -> None:
    setup = di.Setup(names=NAMES)
    kinds = {hub: tuple(setup.branch_type(f"{hub}-{i}") for i in (1, 2, 3)) for hub in di.HUBS}
    assert kinds == {
        "probe": ("leaf", "leaf", "coiled"),
        "defend": ("leaf", "leaf", "coiled"),
        "create": ("coiled", "coiled", "leaf"),
        "connect": ("coiled", "coiled", "leaf"),
    }
    assert all(s.seeds == 3 for s in di.initial(setup).sheets)


def test_setup_variants_are_validated() -> None:
    with pytest.raises(RuleError, match="12 branch types"):
        di.Setup(names=NAMES, layout=("leaf",) * 11)
    with pytest.raises(RuleError, match="12 branch types"):
        di.Setup(names=NAMES, layout=("leaf",) * 11 + ("twisty",))
    with pytest.raises(RuleError, match="one leaf and one coiled"):
        di.Setup(names=NAMES, layout=("leaf",) * 12)
    with pytest.raises(RuleError, match="seeds"):
        di.Setup(names=NAMES, seeds=-1)
    with pytest.raises(RuleError, match="chapters"):
        di.Setup(names=NAMES, chapters=0)
    custom = di.Setup(names=NAMES, layout=("COILED",) + ("leaf",) * 11, seeds=5)
    assert custom.branch_type("probe-1") == "coiled" and di.initial(custom).sheets[0].seeds == 5


def test_setup_round_trips_through_json() -> None:
    setup = di.Setup(names=NAMES, seeds=4, chapters=2)
    game = Game(di.RULES, setup, 1)
    again = Game.from_json({"dangerous-ideas": di.RULES}, game.to_json())
    assert again.setup == setup


# -- starting stones and the setting round -----------------------------------------------------


def test_seven_starting_stones_go_on_the_five_nodes_once() -> None:
    state = di.initial(di.Setup(names=NAMES))
    assert state.waiting_for() == (0, 1, 2)
    refused(state, Place(seat=0, place=("think",) * 6), "placement")
    refused(state, Place(seat=0, place=("think",) * 6 + ("probe-1",)), "placement")
    refused(state, Place(seat=0, place=("think",) * 6 + ("attic",)), "placement")
    refused(state, Write(seat=0, branch="probe-1", text="x", holder="y"), "phase")
    state = do(state, Place(seat=1, place=START))
    refused(state, Place(seat=1, place=START), "setup")
    assert state.sheets[1].nodes == (3, 1, 1, 1, 1) and state.waiting_for() == (0, 2)


def test_the_setting_round_fills_one_leaf_and_one_coiled_branch_in_seat_order() -> None:
    state = di.initial(di.Setup(names=NAMES))
    for seat in range(3):
        state = do(state, Place(seat=seat, place=START))
    assert state.phase == "setting" and state.waiting_for() == (0,)
    refused(state, Write(seat=1, branch="probe-1", text="x", holder="y"), "turn order")
    refused(state, Write(seat=0, branch="probe-1", text="   ", holder="y"), "meme text")
    refused(state, Write(seat=0, branch="probe-1", text="x", holder=""), "holder")
    refused(state, Write(seat=0, branch="attic-1", text="x", holder="y"), "branch")
    state = do(state, Write(seat=0, branch="probe-1", text="Wolves  are misunderstood ", holder="Wolf"))
    assert meme(state, 0, "probe-1").text == "Wolves are misunderstood"
    refused(state, Write(seat=0, branch="probe-2", text="y", holder="Wolf"), "setting round")  # a second leaf
    refused(state, Write(seat=0, branch="probe-1", text="y", holder="Wolf"), "branch")  # filled already
    refused(state, Write(seat=0, branch="probe-3", text="wolves are MISUNDERSTOOD", holder=" wolf"), "setting round")
    state = do(state, Write(seat=0, branch="probe-3", text="Forests need wolves", holder="Wolf"))
    assert state.waiting_for() == (1,)
    sheet = state.sheets[0]
    assert sheet.filled == 2 and meme(state, 0, "probe-3").stones == 1 and sheet.stones == 9


def test_after_the_setting_round_chapter_1_starts_with_seat_0_and_bonus_stones_refresh() -> None:
    state = started()
    assert state.phase == "title" and state.waiting_for() == (ANA,) and state.chapter == 0
    assert all(m.bonus == 2 for s in state.sheets for _, m in s.memes())
    refused(state, Title(seat=BO, title="Mine"), "turn order")
    refused(state, Title(seat=ANA, title="  "), "title")
    state = do(state, Title(seat=ANA, title="In which the wolf meets a girl"))
    assert state.phase == "turn-start" and state.turn == BO


def test_turns_go_from_the_starters_left_round_to_the_starter_and_the_next_chapter_moves_on() -> None:
    state = started()
    seen = []
    for chapter in range(2):
        starter = state.starter
        state = do(state, Title(seat=starter, title=f"Part {chapter}"))
        for _ in range(3):
            seat = state.turn
            seen.append((chapter, seat))
            state = do(state, TurnStones(seat=seat, place=("think", "think")), EndTurn(seat=seat))
    assert seen == [(0, 1), (0, 2), (0, 0), (1, 2), (1, 0), (1, 1)]
    assert state.starter == 2 and state.phase == "title"


def test_each_chapter_start_sets_every_filled_branch_to_two_bonus_stones() -> None:
    state = first_turn()
    state = do(state, Create(seat=BO, text="Girls should not talk to wolves", holder="Granny"))
    state = do(state, Stake(seat=BO, memes=(Use("create-1", bonus=1),)), Pass(seat=BO))
    assert meme(state, BO, "create-1").bonus == 1
    state = do(roll(state, (6, 6)), Conclude(seat=BO), EndTurn(seat=BO))
    for seat in (CY, ANA):
        state = do(state, TurnStones(seat=seat, place=("think", "think")), EndTurn(seat=seat))
    assert state.chapter == 1 and meme(state, BO, "create-1").bonus == 2


# -- a turn -----------------------------------------------------------------------------------------


def test_the_turn_starts_with_two_stones_anywhere_on_nodes_or_filled_branches() -> None:
    state = do(started(), Title(seat=ANA, title="T"))
    refused(state, Gain(seat=BO, place=("think",) * 3), "phase")
    refused(state, TurnStones(seat=BO, place=("think",)), "placement")
    refused(state, TurnStones(seat=BO, place=("think", "probe-2")), "placement")  # empty branch
    refused(state, TurnStones(seat=CY, place=("think", "think")), "turn order")
    before = state.sheets[BO]
    state = do(state, TurnStones(seat=BO, place=("create-1", "think")))
    assert meme(state, BO, "create-1").stones == 2 and state.sheets[BO].node("think") == before.node("think") + 1
    assert state.sheets[BO].gained == before.gained + 2


def test_up_to_two_actions_then_only_ending_the_turn() -> None:
    state = first_turn()
    refused(state, Gain(seat=CY, place=("think",) * 3), "turn order")
    state = do(state, Gain(seat=BO, place=("think", "probe", "probe-1")))
    state = do(state, Move(seat=BO, steps=(Step("think", "probe", 1),)))
    refused(state, Gain(seat=BO, place=("think",) * 3), "two actions")
    refused(state, Move(seat=BO, steps=(Step("think", "probe", 1),)), "two actions")
    refused(state, Create(seat=BO, text="New", holder="Wolf"), "two actions")
    state = do(state, EndTurn(seat=BO))
    assert state.turn == CY


def test_passing_ends_a_turn_with_actions_unused() -> None:
    state = do(first_turn(), EndTurn(seat=BO))
    assert state.turn == CY and state.phase == "turn-start"


def test_gain_places_three_stones_anywhere() -> None:
    state = first_turn()
    refused(state, Gain(seat=BO, place=("think", "think")), "placement")
    refused(state, Gain(seat=BO, place=("think", "think", "defend-3")), "placement")
    state = do(state, Gain(seat=BO, place=("think", "probe-1", "create-1")))
    assert meme(state, BO, "probe-1").stones == 2 and meme(state, BO, "create-1").stones == 2


def test_move_takes_each_stone_one_step() -> None:
    state = first_turn()  # Bo: think 4, probe 1, create 2, connect 1, defend 1; probe-1 and create-1 hold 1
    refused(state, Move(seat=BO, steps=()), "move")
    refused(state, Move(seat=BO, steps=(Step("probe-1", "think", 1),)), "move")  # two steps
    refused(state, Move(seat=BO, steps=(Step("probe", "create", 1),)), "move")  # hub to hub
    refused(state, Move(seat=BO, steps=(Step("create", "probe-1", 1),)), "move")  # not its hub
    refused(state, Move(seat=BO, steps=(Step("probe", "probe-2", 1),)), "move")  # empty branch
    refused(state, Move(seat=BO, steps=(Step("think", "probe", 5),)), "move")
    refused(state, Move(seat=BO, steps=(Step("think", "probe", 0),)), "move")
    # A stone that arrives on Probe cannot go on to probe-1 in the same action.
    refused(state, Move(seat=BO, steps=(Step("think", "probe", 2), Step("probe", "probe-1", 2))), "move")
    state = do(state, Move(seat=BO, steps=(Step("think", "probe", 2), Step("probe", "probe-1", 1), Step("create-1", "create", 1))))
    sheet = state.sheets[BO]
    assert sheet.nodes == (2, 2, 3, 1, 1)
    assert meme(state, BO, "probe-1").stones == 2 and meme(state, BO, "create-1").stones == 0
    assert sheet.stones == sheet.gained - sheet.spent


def test_plot_unfinished_is_the_starters_once_a_chapter_on_their_own_turn() -> None:
    state = first_turn()
    refused(state, PlotUnfinished(seat=BO), "plot unfinished")
    refused(state, PlotUnfinished(seat=ANA), "turn order")
    for seat in (BO, CY):
        state = do(state, EndTurn(seat=seat), TurnStones(seat=(seat + 1) % 3, place=("think", "think")))
    create = state.sheets[ANA].node("create")
    state = do(state, Gain(seat=ANA, place=("think",) * 3), Gain(seat=ANA, place=("think",) * 3))
    state = do(state, PlotUnfinished(seat=ANA, narration="The wolf is still at large."))
    assert state.sheets[ANA].node("create") == create + 2
    refused(state, PlotUnfinished(seat=ANA), "plot unfinished")
    assert "The wolf is still at large." in state.log[-1].text


# -- announcing a meme action ---------------------------------------------------------------------


def test_create_needs_a_text_not_yet_on_the_sheet_matched_loosely() -> None:
    state = first_turn()
    refused(state, Create(seat=BO, text="  bo   LEAF ", holder="Anyone"), "create")
    refused(state, Create(seat=BO, text="", holder="Anyone"), "meme text")
    refused(state, Create(seat=BO, text="x" * 201, holder="Anyone"), "meme text")
    do(state, Create(seat=BO, text="Ana leaf", holder="Wolf"))  # another player's text is new to Bo


def test_spread_needs_the_text_on_the_sheet_and_a_new_holder() -> None:
    state = first_turn()
    refused(state, Spread(seat=BO, text="Something new", holder="Wolf"), "spread")
    refused(state, Spread(seat=BO, text="Bo Leaf", holder=" wolf "), "spread")  # Wolf holds it already
    state = do(state, Spread(seat=BO, text="BO leaf", holder="Granny"))
    assert state.phase == "stake" and state.attempt.kind == "spread" and state.attempt.actor == BO


def test_a_meme_action_needs_an_empty_branch() -> None:
    # A synthetic position: the game ends as soon as a sheet is full, so a full sheet never gets a turn.
    state = first_turn()
    sheet = state.sheets[BO]
    full = tuple(m or Meme(id=100 + i, text=f"filler {i}", holder="Wolf", stones=0, bonus=0) for i, m in enumerate(sheet.branches))
    state = replace(state, sheets=(state.sheets[0], replace(sheet, branches=full), state.sheets[2]))
    refused(state, Create(seat=BO, text="One more", holder="Granny"), "empty branch")


def test_a_replace_target_is_another_players_meme_with_the_same_holder() -> None:
    state = first_turn()
    refused(state, Create(seat=BO, text="Wolves lie", holder="Wolf", target=Ref(BO, "probe-1")), "replace target")
    refused(state, Create(seat=BO, text="Wolves lie", holder="Wolf", target=Ref(CY, "create-1")), "replace target")  # Granny
    refused(state, Create(seat=BO, text="Wolves lie", holder="Wolf", target=Ref(CY, "probe-2")), "replace target")  # empty
    refused(state, Create(seat=BO, text="Wolves lie", holder="Wolf", target=Ref(7, "probe-1")), "replace target")
    state = do(state, Create(seat=BO, text="Wolves lie", holder="WOLF", target=Ref(CY, "probe-1")))
    assert state.attempt.target_id == meme(state, CY, "probe-1").id


def test_a_player_targets_a_given_meme_at_most_once_per_game() -> None:
    state = first_turn()
    target = Ref(CY, "probe-1")
    state = do(state, Create(seat=BO, text="Wolves lie", holder="Wolf", target=target), Stake(seat=BO, from_node=1), Pass(seat=BO))
    state = do(roll(state, (6, 5)), Conclude(seat=BO))
    refused(state, Create(seat=BO, text="Wolves bite", holder="Wolf", target=target), "replace once")
    state = do(state, EndTurn(seat=BO), TurnStones(seat=CY, place=("think", "think")), EndTurn(seat=CY))
    state = do(state, TurnStones(seat=ANA, place=("think", "think")))
    do(state, Create(seat=ANA, text="Wolves bite", holder="Wolf", target=target))  # Ana has not targeted it
    # Next chapter, Bo's own turn: still refused.
    state = do(state, EndTurn(seat=ANA), Title(seat=BO, title="T2"), TurnStones(seat=CY, place=("think", "think")), EndTurn(seat=CY))
    state = do(state, TurnStones(seat=ANA, place=("think", "think")), EndTurn(seat=ANA), TurnStones(seat=BO, place=("think", "think")))
    refused(state, Create(seat=BO, text="Wolves bite", holder="Wolf", target=target), "replace once")


def test_after_a_failure_the_next_action_may_not_repeat_it() -> None:
    state = first_turn()
    state = do(state, Create(seat=BO, text="Wolves lie", holder="Wolf"), Stake(seat=BO, from_node=1), Pass(seat=BO))
    state = do(roll(state, (6, 6)), Conclude(seat=BO))
    game = Game(di.RULES, di.Setup(names=NAMES), 0, auto_chance=False)
    game.state = state  # a Game holding this position, to show a refusal changes nothing
    refused_by_game(game, Create(seat=BO, text=" wolves LIE", holder="wolf"), "repeat after failure")
    do(state, Create(seat=BO, text="Wolves lie", holder="Granny"))  # another holder is another action
    do(state, Spread(seat=BO, text="Bo leaf", holder="Granny"))
    # The next turn it may be tried again.
    state = do(state, EndTurn(seat=BO))
    for seat in (CY, ANA):
        state = do(state, TurnStones(seat=seat, place=("think", "think")), EndTurn(seat=seat))
    state = do(state, Title(seat=BO, title="T2"), TurnStones(seat=CY, place=("think", "think")), EndTurn(seat=CY))
    state = do(state, TurnStones(seat=ANA, place=("think", "think")), EndTurn(seat=ANA), TurnStones(seat=BO, place=("create", "create")))
    do(state, Create(seat=BO, text="Wolves lie", holder="Wolf"))


# -- phase 1 --------------------------------------------------------------------------------------


def test_create_stakes_from_create_and_spread_from_probe_with_think_up_to_as_many() -> None:
    state = first_turn()  # Bo: think 4, probe 1, create 2
    created = do(state, Create(seat=BO, text="Wolves lie", holder="Wolf"))
    refused(created, Stake(seat=BO, from_node=3), "stones")
    refused(created, Stake(seat=BO, from_node=1, from_think=2), "think")
    refused(created, Stake(seat=BO, from_think=1), "think")
    refused(created, Stake(seat=BO), "empty spend")
    after = do(created, Stake(seat=BO, from_node=1, from_think=1))
    after = do(after, Stake(seat=BO, from_node=1, from_think=1))  # counted over the whole action
    assert after.attempt.pool == 4 and after.sheets[BO].node("create") == 0 and after.sheets[BO].node("think") == 2
    spread = do(state, Spread(seat=BO, text="Bo coiled", holder="Wolf"))
    after = do(spread, Stake(seat=BO, from_node=1, from_think=1))
    assert after.sheets[BO].node("probe") == 0 and after.sheets[BO].node("create") == 2
    refused(after, Stake(seat=BO, from_node=1), "stones")


def test_create_involves_coiled_memes_and_spread_leaf_memes_plus_the_spread_text() -> None:
    state = first_turn(place=("create", "create"))
    created = do(state, Create(seat=BO, text="Wolves lie", holder="Wolf"))
    refused(created, Stake(seat=BO, memes=(Use("probe-1", bonus=1),)), "involve")  # leaf
    after = do(created, Stake(seat=BO, memes=(Use("create-1", bonus=1, stones=1),)))
    assert after.attempt.pool == 2 and meme(after, BO, "create-1").stones == 0 and meme(after, BO, "create-1").bonus == 1
    spread = do(state, Spread(seat=BO, text="Bo leaf", holder="Granny"))
    refused(spread, Stake(seat=BO, memes=(Use("create-1", bonus=1),)), "involve")  # coiled, another text
    do(spread, Stake(seat=BO, memes=(Use("probe-1", bonus=1),)))
    coiled = do(state, Spread(seat=BO, text="Bo coiled", holder="Wolf"))
    do(coiled, Stake(seat=BO, memes=(Use("create-1", bonus=1),)))  # the spread text, whatever its type


def test_involving_checks_bonus_and_own_stones() -> None:
    state = do(first_turn(), Create(seat=BO, text="Wolves lie", holder="Wolf"))
    refused(state, Stake(seat=BO, memes=(Use("create-1", bonus=2),)), "bonus")
    refused(state, Stake(seat=BO, memes=(Use("create-1", stones=2),)), "involve")
    refused(state, Stake(seat=BO, memes=(Use("create-1"),)), "involve")
    refused(state, Stake(seat=BO, memes=(Use("create-2", bonus=1),)), "involve")  # empty
    refused(state, Stake(seat=BO, memes=(Use("create-1", bonus=1), Use("create-1", stones=1))), "involve")


def test_others_wait_for_phase_1_and_the_actor_may_add_in_phase_2() -> None:
    state = do(first_turn(), Create(seat=BO, text="Wolves lie", holder="Wolf"), Stake(seat=BO, from_node=1))
    assert state.waiting_for() == (BO,)
    refused(state, Connect(seat=CY, from_node=1), "phase 1")
    refused(state, Defend(seat=ANA, from_node=1), "phase 1")
    refused(state, Stake(seat=CY, from_node=1), "turn order")
    state = do(state, Pass(seat=BO))
    assert state.phase == "respond" and state.waiting_for() == (BO, CY, ANA)
    refused(state, Connect(seat=BO, from_node=1), "connect or defend")
    state = do(state, Stake(seat=BO, from_node=1, from_think=2))
    assert state.attempt.pool == 4


# -- once per turn --------------------------------------------------------------------------------


def test_a_meme_gives_one_bonus_stone_per_players_turn() -> None:
    state = first_turn(place=("create", "create-1"))
    state = do(state, Create(seat=BO, text="Wolves lie", holder="Wolf"), Stake(seat=BO, memes=(Use("create-1", bonus=1),)))
    refused(state, Stake(seat=BO, memes=(Use("create-1", bonus=1),)), "bonus")
    state = do(state, Stake(seat=BO, memes=(Use("create-1", stones=1),)))  # own stones still may be spent
    assert meme(state, BO, "create-1").bonus == 1


def test_a_meme_is_involved_in_one_action_per_turn_whoever_owns_it() -> None:
    state = first_turn(place=("create", "create"))
    state = do(state, Create(seat=BO, text="Wolves lie", holder="Wolf"), Stake(seat=BO, from_node=1, memes=(Use("create-1", bonus=1),)), Pass(seat=BO))
    state = do(state, Connect(seat=CY, memes=(Use("create-1", bonus=1),)))
    state = do(roll(state, (6, 6)), Conclude(seat=BO))
    state = do(state, Create(seat=BO, text="Wolves bite", holder="Wolf"))
    refused(state, Stake(seat=BO, memes=(Use("create-1", stones=1),)), "once per turn")
    state = do(state, Stake(seat=BO, from_node=1), Pass(seat=BO))
    refused(state, Connect(seat=CY, memes=(Use("create-1", stones=1),)), "once per turn")
    do(state, Connect(seat=ANA, memes=(Use("create-1", bonus=1),)))
    # Cy's meme may be used again on the next player's turn.
    state = do(roll(state, (6, 6)), Conclude(seat=BO), EndTurn(seat=BO), TurnStones(seat=CY, place=("create", "create")))
    state = do(state, Create(seat=CY, text="Cy new", holder="Wolf"))
    do(state, Stake(seat=CY, memes=(Use("create-1", bonus=1),)))


# -- phase 2 --------------------------------------------------------------------------------------


def test_connect_adds_and_defend_removes_one_more_from_the_pool_never_below_zero() -> None:
    state = do(first_turn(place=("create", "create")), Create(seat=BO, text="Wolves lie", holder="Wolf"), Stake(seat=BO, from_node=3), Pass(seat=BO))
    refused(state, Connect(seat=CY, memes=(Use("probe-1", bonus=1),)), "involve")  # leaf
    refused(state, Connect(seat=CY, from_node=1, from_think=2), "think")
    state = do(state, Connect(seat=CY, from_node=1, from_think=1, memes=(Use("create-1", bonus=1),)))
    assert state.attempt.pool == 6
    refused(state, Defend(seat=CY, from_node=1), "connect or defend")
    refused(state, Defend(seat=ANA, memes=(Use("create-1", bonus=1),)), "involve")  # coiled
    state = do(state, Defend(seat=ANA, from_node=1, from_think=1, memes=(Use("probe-1", bonus=1, stones=1),)))
    assert state.attempt.pool == 2 and state.attempt.pools == (3, 6, 2)
    refused(state, Connect(seat=ANA, from_node=1), "connect or defend")
    refused(state, Defend(seat=ANA, from_think=1), "think")  # 2 from Think against 1 from Defend
    state = do(state, Stake(seat=BO, memes=(Use("create-1", bonus=1),)))
    assert state.attempt.pool == 3
    state = replace(state, sheets=tuple(replace(s, nodes=(9, 9, 9, 9, 9)) if i == ANA else s for i, s in enumerate(state.sheets)))
    spent = state.sheets[ANA].spent
    state = do(state, Defend(seat=ANA, from_node=5))
    assert state.attempt.pool == 0 and state.sheets[ANA].spent == spent + 5


def test_the_targets_owner_defends_with_memes_of_that_holder_and_target_stones_count_double() -> None:
    # Cy's 'Cy coiled' - Granny is the target; Cy also holds 'Cy leaf' - Wolf.
    state = first_turn(place=("create", "create"))
    state = do(state, Create(seat=BO, text="Grannies are wise", holder="Granny", target=Ref(CY, "create-1")))
    state = do(state, Stake(seat=BO, from_node=3, from_think=3), Pass(seat=BO))
    assert state.attempt.pool == 6
    refused(state, Defend(seat=ANA, memes=(Use("create-1", bonus=1),)), "involve")  # not Ana's target
    state = do(state, Defend(seat=CY, memes=(Use("create-1", bonus=1, stones=1),)))  # coiled, but the target
    assert state.attempt.pool == 2  # 2 stones from the target remove 4
    assert meme(state, CY, "create-1").stones == 0


def test_the_targets_owner_may_still_connect_by_the_normal_rules() -> None:
    state = first_turn(place=("create", "create"))
    state = do(state, Create(seat=BO, text="Grannies are wise", holder="Granny", target=Ref(CY, "create-1")), Stake(seat=BO, from_node=2), Pass(seat=BO))
    state = do(state, Connect(seat=CY, memes=(Use("create-1", bonus=1),)))
    assert state.attempt.pool == 3


def test_other_memes_of_the_target_holder_defend_but_count_single() -> None:
    state = started()
    # Give Cy a second meme held by Granny on a coiled branch, to show 'whatever its type'.
    sheet = state.sheets[CY]
    extra = Meme(id=99, text="Granny knits", holder="granny", stones=1, bonus=2)
    sheet = replace(sheet, branches=tuple(extra if b == "connect-1" else m for b, m in zip(di.BRANCHES, sheet.branches)), gained=sheet.gained + 1)
    state = replace(state, sheets=(state.sheets[0], state.sheets[1], sheet))
    state = first_turn(state, place=("create", "create"))
    state = do(state, Create(seat=BO, text="Grannies are wise", holder="Granny", target=Ref(CY, "create-1")), Stake(seat=BO, from_node=3, from_think=3), Pass(seat=BO))
    state = do(state, Defend(seat=CY, memes=(Use("connect-1", bonus=1, stones=1),)))
    assert state.attempt.pool == 4


# -- phase 3 --------------------------------------------------------------------------------------


def prepared(pool_from_create: int = 3) -> di.State:
    state = first_turn(place=("create", "create"))
    state = do(state, Create(seat=BO, text="Wolves lie", holder="Wolf"), Stake(seat=BO, from_node=pool_from_create), Pass(seat=BO))
    return everyone_passes(state)


@pytest.mark.parametrize("dice, success", [((1, 1), True), ((1, 2), True), ((2, 2), False), ((6, 6), False)])
def test_the_roll_succeeds_at_or_under_the_pool(dice, success) -> None:
    state = do(prepared(3), Roll(dice=dice))
    state = everyone_passes(state)
    assert state.phase == "outcome" and state.attempt.success is success


@pytest.mark.parametrize("dice", [(5, 6), (6, 6)])
def test_eleven_and_twelve_always_fail(dice) -> None:
    state = first_turn()
    state = replace(state, sheets=tuple(replace(s, nodes=(20, 20, 20, 20, 20)) for s in state.sheets))
    state = do(state, Create(seat=BO, text="Wolves lie", holder="Wolf"), Stake(seat=BO, from_node=14), Pass(seat=BO))
    state = roll(state, dice)
    assert state.attempt.pool == 14 and state.attempt.success is False


def test_anyone_with_seeds_rerolls_a_die_until_all_let_it_stand() -> None:
    state = do(prepared(3), Roll(dice=(2, 5)))
    assert state.phase == "reroll" and state.waiting_for() == (BO, CY, ANA)
    refused(state, SpendSeed(seat=BO, die=2), "seeds")
    state = do(state, Pass(seat=BO))
    refused(state, Pass(seat=BO), "pass")
    state = do(state, SpendSeed(seat=CY, die=1))
    assert state.phase == "rerolling" and state.sheets[CY].seeds == 2
    refused(state, Rerolled(die=0, value=1), "dice")
    refused(state, Rerolled(die=1, value=7), "dice")
    assert di.chance(state, rng_for(1, 1)).die == 1
    state = do(state, Rerolled(die=1, value=1))
    assert state.attempt.dice == (2, 1) and state.waiting_for() == (BO, CY, ANA)  # everyone decides again
    state = do(state, SpendSeed(seat=ANA, die=0), Rerolled(die=0, value=6))
    state = everyone_passes(state)
    assert state.phase == "outcome" and state.attempt.success is False and state.attempt.first_dice == (2, 5)


def test_players_without_seeds_are_not_asked_and_the_roll_stands_when_none_hold_any() -> None:
    state = prepared(3)
    state = replace(state, sheets=tuple(replace(s, seeds=0) for s in state.sheets))
    state = do(state, Roll(dice=(1, 1)))
    assert state.phase == "outcome"
    state = prepared(3)
    state = replace(state, sheets=tuple(replace(s, seeds=0 if i != ANA else 1) for i, s in enumerate(state.sheets)))
    state = do(state, Roll(dice=(1, 1)))
    assert state.waiting_for() == (ANA,)
    refused(state, SpendSeed(seat=BO, die=0), "seeds")
    refused(state, Pass(seat=BO), "pass")


# -- the outcome ----------------------------------------------------------------------------------


def test_success_writes_the_meme_with_a_stone_hub_stones_and_two_bonus() -> None:
    state = roll(prepared(2), (1, 1))
    refused(state, Conclude(seat=BO), "new meme")
    refused(state, Conclude(seat=BO, branch="probe-1"), "new meme")  # filled
    refused(state, Conclude(seat=BO, branch="probe-2", from_hub=2), "new meme")  # Probe holds 1
    refused(state, Conclude(seat=CY, branch="probe-2"), "turn order")
    state = do(state, Conclude(seat=BO, branch="probe-2", from_hub=1, narration="And the girl believed it."))
    new = meme(state, BO, "probe-2")
    assert (new.text, new.holder, new.stones, new.bonus) == ("Wolves lie", "Wolf", 2, 2)
    assert state.sheets[BO].node("probe") == 0 and state.phase == "turn" and state.actions_taken == 1
    assert state.outcomes[-1].success and state.outcomes[-1].branch == "probe-2"


def test_failure_writes_nothing_and_stakes_are_discarded_anyway() -> None:
    state = first_turn(place=("create", "create"))
    spent_before = state.sheets[BO].spent
    state = do(state, Create(seat=BO, text="Wolves lie", holder="Wolf"), Stake(seat=BO, from_node=3, from_think=1), Pass(seat=BO))
    state = do(state, Defend(seat=CY, from_node=1))
    state = roll(state, (6, 6))
    refused(state, Conclude(seat=BO, branch="probe-2"), "outcome")
    state = do(state, Conclude(seat=BO))
    assert state.sheets[BO].filled == 2 and state.sheets[BO].spent == spent_before + 4 and state.sheets[CY].spent == 1
    assert state.sheets[CY].node("think") == 3  # defenders gain nothing


def test_success_crosses_off_the_target_and_rewards_every_connector() -> None:
    state = first_turn(place=("create", "create"))
    state = do(state, Create(seat=BO, text="Wolves lie", holder="Wolf", target=Ref(CY, "probe-1")), Stake(seat=BO, from_node=3), Pass(seat=BO))
    state = do(state, Connect(seat=ANA, memes=(Use("create-1", bonus=1),)))  # bonus stones only
    cy_probe = state.sheets[CY].node("probe")
    ana_think = state.sheets[ANA].node("think")
    state = do(roll(state, (2, 2)), Conclude(seat=BO, branch="defend-1"))
    assert state.sheets[CY].meme("probe-1") is None
    assert state.sheets[CY].node("probe") == cy_probe + 1  # the target's own stone goes to its hub
    assert state.sheets[CY].crossed[-1].text == "Cy leaf" and state.sheets[CY].crossed[-1].by == BO
    assert state.sheets[ANA].node("think") == ana_think + 2
    assert state.sheets[ANA].gained == state.sheets[ANA].stones + state.sheets[ANA].spent


# -- score and the end ----------------------------------------------------------------------------


def sheet_with(*texts: str, stones: int = 0, seeds: int = 3) -> di.Sheet:
    memes = tuple(Meme(id=i, text=t, holder=f"H{i}") for i, t in enumerate(texts)) + (None,) * (12 - len(texts))
    return di.Sheet(name="x", nodes=(stones, 0, 0, 0, 0), branches=memes, seeds=seeds, gained=stones)


def test_memes_score_by_groups_of_the_same_text() -> None:
    assert di.sheet_score(sheet_with()) == 0
    assert di.sheet_score(sheet_with("A")) == 4
    assert di.sheet_score(sheet_with("A", "B")) == 8
    assert di.sheet_score(sheet_with("A", " a ")) == 6  # a group of 2: 4 + 2
    assert di.sheet_score(sheet_with("A", "a", "B", "b  ", "B", "C")) == 6 + 7 + 4


def test_ties_go_to_stones_plus_seeds_then_are_shared() -> None:
    state = started()
    sheets = (sheet_with("A", "B", stones=5, seeds=0), sheet_with("C", "D", stones=2, seeds=2), sheet_with("E", "F", stones=4, seeds=1))
    state = replace(state, sheets=sheets)
    assert di.standings(state) == [(1, 0, 8), (1, 2, 8), (3, 1, 8)]
    assert di.tiebreaks(state) == (5, 4, 5)
    sheets = (sheet_with("A", "B", "C", stones=0), sheet_with("C", "D", stones=9), sheet_with("E", "E", stones=9))
    assert di.standings(replace(state, sheets=sheets)) == [(1, 0, 12), (2, 1, 8), (3, 2, 6)]


def test_the_game_ends_after_the_last_chapter() -> None:
    state = started(chapters=1)
    state = do(state, Title(seat=ANA, title="The whole story"))
    for seat in (BO, CY, ANA):
        state = do(state, TurnStones(seat=seat, place=("think", "think")), EndTurn(seat=seat))
    assert state.over and "last chapter" in state.ended and state.waiting_for() == ()
    refused(state, Title(seat=BO, title="More"), "game over")
    assert "wins" in str(state.log[-1].text) or "share" in str(state.log[-1].text)


def test_the_game_ends_at_once_when_a_sheet_is_full() -> None:
    state = started(start=("create",) * 15 + ("think",) * 15, start_stones=30)
    created = 0
    while not state.over:
        if state.phase == "title":
            state = do(state, Title(seat=state.starter, title=f"Part {state.chapter + 1}"))
            continue
        seat = state.turn
        state = do(state, TurnStones(seat=seat, place=("create", "think")))
        if seat != BO:
            state = do(state, EndTurn(seat=seat))
            continue
        for _ in range(2):
            created += 1
            state = do(state, Create(seat=BO, text=f"Idea {created}", holder="Wolf"), Stake(seat=BO, from_node=1, from_think=1), Pass(seat=BO))
            state = roll(state, (1, 1))
            state = do(state, Conclude(seat=BO, branch=state.sheets[BO].empty()[0]))
            if state.over:
                break
        else:
            state = do(state, EndTurn(seat=BO))
    assert created == 10 and state.sheets[BO].filled == 12
    assert state.chapter == 4 and "filled all 12 branches" in state.ended
    assert di.standings(state)[0] == (1, BO, 48)


# -- the text's sidebars ------------------------------------------------------------------------------


def test_goldilocks_setting_round() -> None:
    example = di.goldilocks_setup()
    state = example.state
    assert state.names == ("Manifest Destiny", "Vegetarianism", "German Efficiency")
    written = [[(state.setup.branch_type(b), m.text, m.holder, m.stones) for b, m in s.memes()] for s in state.sheets]
    assert sorted(written[0]) == [
        ("coiled", "Humans will one day own the forest", "Goldilocks", 1),
        ("leaf", "The woods could use some good telegraph wires", "Goldilocks", 1),
    ]
    assert sorted(written[1]) == [
        ("coiled", "Porridge for breakfast is healthy", "Mama Bear", 1),
        ("leaf", "Bears are friends, not food", "Goldilocks", 1),
    ]
    assert sorted(written[2]) == [
        ("coiled", "Everything has its place", "Baby Bear", 1),
        ("leaf", "Punctual exercise is an important part of the day", "Papa Bear", 1),
    ]
    assert state.phase == "title" and state.starter == 0 and len(example.steps) == 6
    lines = di.transcript(state)[0].lines
    assert lines[0].startswith("Manifest Destiny: Once upon a time there was a little girl named Goldilocks.")


def test_the_bears_meme_action_by_the_rules() -> None:
    example = di.bears_example()
    assert example.pools == (10, 8, 6, 4, 6)
    states = {str(label): state for label, state in example.steps}  # each label a message, English by str()
    before = states["Manifest Destiny moves her stones"]
    md = before.sheets[0]
    assert md.node("probe") == 6 and md.node("think") == 2 and meme(before, 0, "create-1").stones == 2
    ge = before.sheets[2]
    assert ge.node("think") == 5 and ge.node("defend") == 1
    assert meme(before, 2, "probe-1").bonus == 1 and meme(before, 2, "defend-1").bonus == 2 and meme(before, 2, "defend-1").stones == 1
    assert before.sheets[1].node("connect") == 0
    rolled = states["Manifest Destiny rolls 4 and 6"].attempt
    assert rolled.dice == (4, 6) and rolled.pool == 6
    rerolled = states["A seed re-rolls the 6: another 4"]
    assert rerolled.attempt.dice == (4, 4) and rerolled.sheets[0].seeds == 2
    final = example.state
    outcome = final.outcomes[-1]
    assert outcome.success is False and sum(outcome.dice) == 8 and outcome.pool == 6
    assert outcome.connected == (1,) and outcome.defended == (2,)
    assert final.sheets[2].meme("probe-1").text == "Punctual exercise is an important part of the day"
    assert final.sheets[1].node("think") == before.sheets[1].node("think")  # no reward on a failure
    # The whole record replays through the Game driver and its save file.
    game = Game(di.RULES, example.setup, 7, list(example.actions))
    assert game.state == final
    assert Game.from_json({"dangerous-ideas": di.RULES}, game.to_json()).state == final


#: an internal branch name ("probe-1"): players never see one.
BRANCH_ID = re.compile(r"\b(probe|create|connect|defend)-[123]\b")


def test_the_bears_story_reads_like_the_texts_own_example() -> None:
    state = di.bears_example().state
    story = di.transcript_text(state)
    log = "\n".join(str(e.text) for e in state.log)
    assert not BRANCH_ID.search(story) and not BRANCH_ID.search(log)
    assert (
        "Manifest Destiny tries to spread 'Important decisions should be made through democracy' to Papa Bear, "
        "replacing German Efficiency's 'Punctual exercise is an important part of the day - Papa Bear'." in story
    )
    assert "it fails, and Papa Bear does not take up 'Important decisions should be made through democracy'." in story
    assert "writes 'Important decisions should be made through democracy - Mama Bear' on a coiled branch by Create." in story
    assert "1 from Create to 'Important decisions should be made through democracy - Mama Bear'" in log
    assert "create of" not in story and "spread of" not in story and "' - " not in story


def test_a_new_meme_and_a_crossed_off_one_read_as_sentences() -> None:
    state = do(first_turn(), Create(seat=BO, text="Wolves lie", holder="Granny", target=Ref(CY, "create-1")))
    line = di.transcript(state)[-1].lines[-1]
    assert line == "Bo tries to create a new meme, 'Wolves lie', held by Granny, replacing Cy's 'Cy coiled - Granny'."


def test_by_the_texts_pool_of_8_the_same_dice_would_have_succeeded() -> None:
    assert di.wins(8, 4 + 4) and not di.wins(6, 4 + 4)
    # German Efficiency's 'only a 1/3 chance': re-rolling one 4 against a pool of 8 fails on 5 or 6.
    assert Fraction(sum(1 for v in range(1, 7) if not di.wins(8, 4 + v)), 6) == Fraction(1, 3)


# -- narration and the transcript -----------------------------------------------------------------------


def test_every_step_may_carry_narration_into_the_log_and_the_transcript() -> None:
    state = do(started(), Title(seat=ANA, title="In which the wolf meets a girl", narration="It was a bright morning."))
    state = do(state, TurnStones(seat=BO, place=("create", "create"), narration="The wolf waited."))
    state = do(state, Create(seat=BO, text="Wolves lie", holder="Wolf", narration="He smiled."), Stake(seat=BO, from_node=2, narration="Teeth."), Pass(seat=BO))
    state = do(roll(state, (1, 1)), Conclude(seat=BO, branch="probe-2", narration="She believed him."))
    log = [str(e.text) for e in state.log]
    assert "Bo: \u201cHe smiled.\u201d" in log and "Ana: \u201cIt was a bright morning.\u201d" in log
    refused(state, EndTurn(seat=BO, narration="x" * 5000), "narration")
    passages = di.transcript(state)
    assert [p.heading for p in passages] == ["The setting", "Chapter 1: In which the wolf meets a girl"]
    chapter = passages[1].lines
    assert chapter[0] == "Ana: It was a bright morning."
    assert "Bo: He smiled." in chapter and "Bo: She believed him." in chapter
    assert any("succeeds" in line for line in chapter) and any("Bo writes 'Wolves lie - Wolf'" in line for line in chapter)
    assert "Chapter 1: In which the wolf meets a girl" in di.transcript_text(state)


# -- odds ----------------------------------------------------------------------------------------------


def brute_force(pool: int, seeds: int) -> Fraction:
    """Every die sequence, the actor choosing each re-roll by trying both (no shared tables)."""

    def best(dice: tuple[int, int], left: int) -> Fraction:
        if sum(dice) < 11 and sum(dice) <= pool:
            return Fraction(1)
        if left == 0:
            return Fraction(0)
        tries = []
        for die in (0, 1):
            outcomes = [best(tuple(v if i == die else d for i, d in enumerate(dice)), left - 1) for v in range(1, 7)]
            tries.append(sum(outcomes, Fraction(0)) / 6)
        return max(tries)

    return sum((best((a, b), seeds) for a in range(1, 7) for b in range(1, 7)), Fraction(0)) / 36


@pytest.mark.parametrize("pool", range(14))
def test_success_chance_without_seeds_counts_the_36_rolls(pool: int) -> None:
    count = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= min(pool, 10))
    assert di.success_chance(pool) == Fraction(count, 36)


@pytest.mark.parametrize("pool", [2, 4, 6, 7, 8, 10, 12])
@pytest.mark.parametrize("seeds", [1, 2])
def test_success_chance_with_seeds_matches_brute_force(pool: int, seeds: int) -> None:
    assert di.success_chance(pool, seeds) == brute_force(pool, seeds)


def test_success_chance_known_values_and_monotony() -> None:
    assert di.success_chance(7) == Fraction(7, 12)
    assert di.success_chance(10) == di.success_chance(40) == Fraction(11, 12)
    assert di.success_chance(1, 5) == 0
    for pool in range(2, 11):
        chances = [di.success_chance(pool, s) for s in range(5)]
        assert chances == sorted(chances) and chances[-1] < 1
    with pytest.raises(RuleError):
        di.success_chance(5, -1)


def test_seed_advice_names_the_die_to_reroll() -> None:
    assert di.seed_advice(6, (4, 6), 1) == (1, Fraction(1, 3), Fraction(0))
    assert di.seed_advice(8, (4, 6), 1) == (1, Fraction(2, 3), Fraction(0))
    assert di.seed_advice(6, (6, 4), 1)[0] == 0
    die, _, stands = di.seed_advice(8, (4, 4), 2)
    assert die is None and stands == 1
    assert di.seed_advice(6, (4, 6), 0) == (None, Fraction(0), Fraction(0))
    # With more seeds the advice counts the ones left after this re-roll.
    assert di.seed_advice(6, (4, 6), 3)[1] > di.seed_advice(6, (4, 6), 1)[1]
    report = di.odds_report(6, 1)
    assert report["success"]["fraction"] == str(di.success_chance(6, 1)) and report["by_seeds_spent_at_most"]["0"]["fraction"] == "5/12"


# -- views, legal actions, bots ---------------------------------------------------------------------------


def test_every_seat_sees_everything() -> None:
    state = do(first_turn(), Create(seat=BO, text="Wolves lie", holder="Wolf"), Stake(seat=BO, from_node=2), Pass(seat=BO))
    views = [di.view_for(state, seat) for seat in (None, 0, 1, 2)]
    assert all(v.sheets == state.sheets and v.attempt == state.attempt and v.log == views[0].log for v in views)
    assert views[0].odds == di.success_chance(2, 3) and views[0].waiting_for == (BO, CY, ANA)


@pytest.mark.parametrize("seed", [1, 2])
def test_legal_actions_are_all_accepted_and_cover_every_waiting_seat(seed: int) -> None:
    from lab import dangerous_ideas as di_lab

    game = Game(di.RULES, di.Setup(names=("A", "B", "C", "D"), chapters=2), seed)
    rng = rng_for(seed, 99)
    while not game.state.over:
        state = game.state
        for seat in state.waiting_for():
            options = di_lab.legal_actions(state, seat)
            assert options, (state.phase, seat)
            for option in options[:40]:
                di.check(state, option)
        seat = state.waiting_for()[0]
        game.apply(rng.choice(di_lab.legal_actions(state, seat)))
        assert len(game.actions) < 5000


def test_fast_copies_give_the_same_states_move_for_move(monkeypatch: pytest.MonkeyPatch) -> None:
    # The rules copy states with records.evolve for speed; dataclasses.replace is the reference.
    from lab import BOTS
    from lab.core import play_out

    setup = di.Setup(names=("Ana", "Bo", "Cy", "Di"))
    bots = [BOTS["dangerous-ideas"][b] for b in ("sensible", "random", "sensible", "random")]

    def replayed(actions: tuple[object, ...]) -> list[object]:
        seen = [di.RULES.initial(setup)]
        for action in actions:
            seen.append(di.play(seen[-1], action))
        return seen

    for seed in (1, 2):
        game = play_out(Game(di.RULES, setup, seed, keep=None), bots, rng_for(seed, -1))
        fast = replayed(game.actions)
        assert fast == list(game.states)
        with monkeypatch.context() as m:
            m.setattr(di, "evolve", replace)
            slow = replayed(game.actions)
        assert len(game.actions) > 300 and fast == slow


def test_legal_actions_are_the_candidates_that_pass_the_check() -> None:
    from lab import BOTS
    from lab import dangerous_ideas as di_lab
    from lab.core import play_out

    game = Game(di.RULES, di.Setup(names=("Ana", "Bo", "Cy")), 5, keep=None)
    play_out(game, [BOTS["dangerous-ideas"]["random"]] * 3, rng_for(5, -1))
    for state in game.states[::7]:
        for seat in range(state.n):
            legal = di_lab.legal_actions(state, seat)
            assert legal == [a for a in di_lab.candidate_actions(state, seat) if di.is_legal(state, a)]


def test_every_spend_offered_in_its_phase_and_role_is_legal_by_construction() -> None:
    # The bots take a spend from `spend_specs` without asking the rules (phases 1 and 2).
    from lab import BOTS
    from lab import dangerous_ideas as di_lab
    from lab.core import play_out

    bots = [BOTS["dangerous-ideas"][b] for b in ("sensible", "random", "random", "sensible")]
    tried = 0
    for seed in (5, 6, 7):
        game = play_out(Game(di.RULES, di.Setup(names=("Ana", "Bo", "Cy", "Di")), seed, keep=None), bots, rng_for(seed, -1))
        for state in game.states:
            a = state.attempt
            if state.phase not in ("stake", "respond") or a is None:
                continue
            for seat in range(state.n):
                if seat == a.actor:
                    kinds: tuple[type[di.Spend], ...] = (di.Stake,)
                elif state.phase == "respond":
                    kinds = tuple(cls for cls, other in ((di.Connect, "defend"), (di.Defend, "connect")) if a.sides[seat] != other)
                else:
                    kinds = ()
                for cls in kinds:
                    for spec in di_lab.spend_specs(state, seat, cls):
                        di.check(state, di_lab._spend_action(cls, seat, *spec))
                        tried += 1
    assert tried > 1000


def test_each_candidate_group_holds_distinct_actions_of_its_kinds() -> None:
    # The random bot takes a group's candidates as they come, without dropping repeats.
    from lab import BOTS
    from lab import dangerous_ideas as di_lab
    from lab.core import play_out

    bots = [BOTS["dangerous-ideas"][b] for b in ("sensible", "random", "random", "sensible")]
    for seed in (5, 6):
        game = play_out(Game(di.RULES, di.Setup(names=("Ana", "Bo", "Cy", "Di")), seed, keep=None), bots, rng_for(seed, -1))
        for state in game.states[::3]:
            for seat in range(state.n):
                for kinds, build in di_lab.candidate_groups(state, seat, limit=120):
                    built = build()
                    assert len(set(built)) == len(built) and {a.kind for a in built} <= set(kinds)


def _seen(state: di.State, whole: bool) -> str:
    """A state's repr, its sets in sorted order (a set's repr follows its history, not its
    value); unless `whole`, its log, story and outcomes by length (they grow line by line
    and the final state holds them whole)."""
    sets = {f: tuple(sorted(getattr(state, f))) for f in ("involved", "bonus_taken", "targeted")}
    grown = {} if whole else {f: len(getattr(state, f)) for f in ("log", "story", "outcomes")}
    if whole:  # the lines as the English they were before they were messages
        grown = {"log": tuple(replace(e, text=str(e.text)) for e in state.log), "story": tuple(replace(line, text=str(line.text)) for line in state.story)}
    return repr(replace(state, **sets, **grown))


#: The logical fields of the records whose layout may change (fields grouped into sub-records,
#: lines made lazily): the canonical form reads these names, so it depends only on what a state
#: holds, not on how its record is laid out. Other records are read field by field.
_LOGICAL_FIELDS: dict[str, tuple[str, ...]] = {
    "State": (
        "setup", "phase", "sheets", "chapter", "title", "turn", "turns_done", "actions_taken",
        "plot_declared", "attempt", "last_failed", "involved", "bonus_taken", "targeted",
        "next_id", "outcomes", "titles", "story", "log", "ended",
    ),
    "Sheet": ("name", "nodes", "branches", "seeds", "crossed", "placed", "gained", "spent"),
    "Attempt": (
        "kind", "actor", "text", "holder", "target", "target_id", "number", "pool", "pools",
        "node_spent", "think_spent", "sides", "passed", "dice", "first_dice", "rerolling",
        "seeds_spent", "success",
    ),
    "Event": ("text", "visible_to", "round"),
}  # fmt: skip


def _canonical(value: object) -> object:
    """A value as plain JSON-able data: a record as its type's name and its logical fields by
    name, tuples and lists as lists, sets in sorted order, mappings with sorted keys. Two
    states with the same content give the same form whatever their records' layout."""
    import dataclasses

    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Said):  # a log or story line: its English, the text it was before it was a message
        return str(value)
    if isinstance(value, Fraction):
        return {"fraction": [value.numerator, value.denominator]}
    if isinstance(value, (tuple, list)):
        return [_canonical(v) for v in value]
    if isinstance(value, (set, frozenset)):
        items = [_canonical(v) for v in value]
        return {"set": sorted(items, key=lambda v: _json_text(v))}
    if isinstance(value, dict):
        return {"dict": sorted(([_canonical(k), _canonical(v)] for k, v in value.items()), key=lambda kv: _json_text(kv[0]))}
    if dataclasses.is_dataclass(value):
        name = type(value).__name__
        names = _LOGICAL_FIELDS.get(name) or tuple(f.name for f in dataclasses.fields(value))
        return {"record": name, **{f: _canonical(getattr(value, f)) for f in names}}
    raise TypeError(f"no canonical form for {type(value).__name__}")


def _json_text(value: object) -> str:
    import json

    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _canonical_seen(state: di.State, whole: bool) -> str:
    """A state's canonical form as text; unless `whole`, its log, story and outcomes by length
    (they grow line by line and the final state holds them whole)."""
    form = _canonical(state)
    assert isinstance(form, dict)
    if not whole:
        form.update({f: len(getattr(state, f)) for f in ("log", "story", "outcomes")})
    return _json_text(form)


def _bot_game_digest(names: tuple[str, ...], bots: tuple[str, ...], seed: int, canonical: bool = False) -> tuple[int, str]:
    """The bots' moves in a lab game, every state they saw and the final one, as one digest
    (of each state's repr or, with `canonical`, of its layout-free canonical form)."""
    import hashlib

    from lab.core import play_lean, seat_chooser
    from lab.dangerous_ideas import BOTS

    seen = _canonical_seen if canonical else _seen
    show = (lambda action: _json_text(_canonical(action))) if canonical else repr
    digest = hashlib.sha256()
    choose_bot = seat_chooser([BOTS[b] for b in bots], rng_for(seed, -1))
    moves = 0

    def choose(state: di.State) -> di.Action:
        nonlocal moves
        action = choose_bot(state)
        digest.update(f"{seen(state, whole=False)} {show(action)}".encode())
        moves += 1
        return action

    final = play_lean(di.RULES, di.Setup(names=names), seed, choose, check=True)
    digest.update(seen(final, whole=True).encode())
    return moves, digest.hexdigest()[:16]


# Recorded before the bots and rules were made faster (issue 21): the same seed must give the
# same game, move for move and state for state.
PINNED_BOT_GAMES = [
    (("A", "B", "C", "D"), ("sensible", "sensible", "random", "random"), 1, 552, "368046b223ab0383"),
    (("A", "B", "C", "D"), ("sensible", "sensible", "random", "random"), 2, 642, "9d335f4c7d6e1ff7"),
    (("A", "B", "C"), ("random", "random", "random"), 3, 260, "accc1f24180c64d0"),
    (("A", "B", "C", "D", "E"), ("sensible",) * 5, 4, 603, "e052fbe03123d0bb"),
]


@pytest.mark.parametrize(("names", "bots", "seed", "moves", "digest"), PINNED_BOT_GAMES)
def test_seeded_bot_games_are_the_recorded_ones_move_for_move(names: tuple[str, ...], bots: tuple[str, ...], seed: int, moves: int, digest: str) -> None:
    assert _bot_game_digest(names, bots, seed) == (moves, digest)


# The same games as PINNED_BOT_GAMES, digested from every state's layout-free canonical form
# (recorded on the code that gave the repr digests above, so they describe the same states).
CANONICAL_BOT_GAMES = [
    (("A", "B", "C", "D"), ("sensible", "sensible", "random", "random"), 1, 552, "6afd2226f93c3254"),
    (("A", "B", "C", "D"), ("sensible", "sensible", "random", "random"), 2, 642, "31a0c72e2a780f37"),
    (("A", "B", "C"), ("random", "random", "random"), 3, 260, "be955862ccc26703"),
    (("A", "B", "C", "D", "E"), ("sensible",) * 5, 4, 603, "214496d2dd02e123"),
]


@pytest.mark.parametrize(("names", "bots", "seed", "moves", "digest"), CANONICAL_BOT_GAMES)
def test_seeded_bot_games_are_the_recorded_ones_state_for_state_whatever_the_layout(names: tuple[str, ...], bots: tuple[str, ...], seed: int, moves: int, digest: str) -> None:
    assert _bot_game_digest(names, bots, seed, canonical=True) == (moves, digest)


def test_the_canonical_form_reads_every_field_of_the_records() -> None:
    # A record's own fields are its logical ones, or (named with a leading underscore) where
    # some of them are kept: a new field must be added to the logical ones to be pinned.
    import dataclasses

    from rules.core import Event

    for record in (di.State, di.Sheet, di.Attempt, Event):
        logical = _LOGICAL_FIELDS[record.__name__]
        assert len(set(logical)) == len(logical)
        for f in dataclasses.fields(record):
            assert f.name in logical or f.name.startswith("_"), (record.__name__, f.name)


def test_the_canonical_form_tells_states_apart_by_content_only() -> None:
    state = di.RULES.initial(di.Setup(names=NAMES))
    later = di.play(state, Place(seat=ANA, place=START))
    assert _canonical_seen(state, whole=True) != _canonical_seen(later, whole=True)
    # the same content in a new record (and sets built in another order) gives the same form
    moved = replace(later, involved=frozenset({(2, 1), (1, 2)}))
    again = replace(later, involved=frozenset({(1, 2), (2, 1)}))
    assert _canonical_seen(moved, whole=True) == _canonical_seen(again, whole=True)
    assert _canonical_seen(moved, whole=True) != _canonical_seen(later, whole=True)
    # a changed field deep in a sheet changes the form
    sheets = (replace(later.sheets[0], seeds=2),) + later.sheets[1:]
    assert _canonical_seen(replace(later, sheets=sheets), whole=True) != _canonical_seen(later, whole=True)


def test_the_benchmarks_bot_games_give_the_recorded_rows() -> None:
    import hashlib
    import json

    import lab

    rows = lab.simulate("dangerous-ideas", 6, 0, "", workers=1).rows
    assert hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()[:16] == "46e36d2825c258bd"
