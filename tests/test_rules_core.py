"""The shared rules core: save files, replay, undo, seeded chance."""

from __future__ import annotations

import json

import pytest

from lab.new_rule import balanced_bot
from rules import load_game, new_game
from rules import new_rule as nr
from rules.core import RuleError, SaveFileError, rng_for

NAMES = ("Ana", "Bo", "Cy", "Di")


def played(moves: int = 30, seed: int = 5) -> object:
    game = new_game("new-rule", nr.Setup(names=NAMES), seed)
    bot_rng = rng_for(99, 0)
    while not game.state.over and len(game.actions) < moves:
        seat = game.state.waiting_for()[0]
        game.apply(balanced_bot(game.state, seat, bot_rng))
    return game


def test_same_seed_same_game() -> None:
    a, b = played(60, seed=3), played(60, seed=3)
    assert a.actions == b.actions and a.state == b.state
    c = played(60, seed=4)
    assert c.actions[0] != a.actions[0]  # the deal differs


def test_save_file_round_trip_is_exact() -> None:
    game = played(50)
    again = load_game(game.to_json())
    assert again.state == game.state
    assert again.actions == game.actions
    assert again.to_json() == game.to_json()


def test_chance_outcomes_are_in_the_log() -> None:
    game = played(10)
    kinds = [a.kind for a in game.actions]
    assert kinds[0] == "deal"
    assert "drawn" in kinds


@pytest.mark.parametrize(
    "mangle, message",
    [
        (lambda text: text[: len(text) // 2], "truncated"),
        (lambda text: "\x00garbage" + text, "not valid JSON"),
        (lambda text: "[1, 2, 3]", "not a playbook save file"),
        (lambda text: text.replace('"kind": "keep"', '"kind": "swap"', 1), "changed after it was saved"),
    ],
)
def test_damaged_save_files_are_refused_clearly(mangle, message) -> None:
    text = played(40).to_json()
    with pytest.raises(SaveFileError, match=message):
        load_game(mangle(text))


def _resign(data: dict) -> str:
    from rules.core import _digest

    body = {k: v for k, v in data.items() if k != "digest"}
    return json.dumps({**body, "digest": _digest(body)})


def test_future_version_is_refused_with_advice() -> None:
    data = played(10).to_record()
    data["version"] = 99
    with pytest.raises(SaveFileError, match="newer playbook"):
        load_game(_resign(data))


def test_tampered_moves_that_do_not_replay_are_refused() -> None:
    data = played(40).to_record()
    # A re-signed file whose draw is not what the bowl could give.
    for action in data["actions"]:
        if action["kind"] == "drawn":
            action["candies"] = ["purple", "purple"]
            break
    with pytest.raises(SaveFileError, match="do not replay"):
        load_game(_resign(data))


def test_unknown_fields_and_wrong_types_are_refused() -> None:
    data = played(10).to_record()
    data["actions"][1]["extra"] = 1
    with pytest.raises(SaveFileError, match="unknown field"):
        load_game(_resign(data))
    data = played(10).to_record()
    data["seed"] = "five"
    with pytest.raises(SaveFileError, match="whole number"):
        load_game(_resign(data))


def test_a_file_with_two_bad_fields_is_told_of_the_same_one_in_every_process() -> None:
    """Python orders a set of names by a hash seeded anew in each process: the message must not."""
    import subprocess
    import sys

    script = (
        "from rules.core import SaveFileError, setup_from_json\n"
        "from rules.new_rule import Setup\n"
        "try:\n"
        "    setup_from_json(Setup, {'names': 5, 'hand': 'x', 'max_rounds': 'y', 'antibody': 7})\n"
        "except SaveFileError as exc:\n"
        "    print(exc)\n"
    )
    told = {
        subprocess.run([sys.executable, "-c", script], env={"PYTHONHASHSEED": str(seed), "PATH": ""}, capture_output=True, text=True, check=True).stdout
        for seed in range(8)
    }
    assert len(told) == 1 and "setup.names" in told.pop()


def test_refused_action_changes_nothing() -> None:
    game = played(12)
    before = (game.state, list(game.actions))
    with pytest.raises(RuleError) as err:
        game.apply(nr.Pay(seat=0, returned=("blue",), eaten=0))
    assert err.value.rule == "turn order"
    assert (game.state, list(game.actions)) == before


def test_undo_takes_back_a_choice_but_not_a_draw() -> None:
    game = new_game("new-rule", nr.Setup(names=NAMES), 1)
    assert game.undo_blocker() == "the last action was a chance outcome"
    game.apply(nr.Draw(seat=0))
    state = game.state
    assert game.undo_blocker() is not None  # the blind draw came out
    game.apply(nr.Keep(seat=0))
    assert game.undo_blocker() is None
    game.undo()
    assert game.state == state
    with pytest.raises(RuleError, match="chance"):
        game.undo()


def test_undo_stops_at_the_reveal() -> None:
    game = played(0)
    while game.state.phase != "pick":
        seat = game.state.waiting_for()[0]
        game.apply(balanced_bot(game.state, seat, rng_for(1, 1)))
    first = game.state.active[0]
    colour = next(c for c in nr.COLOURS if game.state.count(first, c))
    game.apply(nr.Pick(seat=first, colour=colour))
    assert game.undo_blocker() is None  # one secret pick may be taken back
    for seat in game.state.active[1:]:
        colour = next(c for c in nr.COLOURS if game.state.count(seat, c))
        game.apply(nr.Pick(seat=seat, colour=colour))
    assert game.undo_blocker() == "the last action revealed hidden information"


def test_rng_is_a_function_of_seed_and_step() -> None:
    assert rng_for(1, 2).random() == rng_for(1, 2).random()
    assert rng_for(1, 2).random() != rng_for(1, 3).random()


@pytest.mark.parametrize(("count", "largest", "sizes"), [(0, 10, []), (7, 10, [7]), (10, 10, [10]), (11, 10, [6, 5]), (16, 10, [8, 8]), (21, 10, [7, 7, 7]), (30, 5, [5] * 6)])
def test_even_tables_are_as_few_as_the_largest_allows_and_as_even_as_can_be(count: int, largest: int, sizes: list[int]) -> None:
    from rules.core import even_tables

    assert even_tables(count, largest) == sizes
