"""Save files that cannot be forged or weaponised: in the rules core, the CLI and the dashboard.

A file that was edited (a draw, a roll, a misfortune), that is too big, too long, too deep or
holds absurd numbers is refused at once in one line, and nothing is changed. Hand-entered dice
are allowed where the game has the table roll them, and are marked in the file.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from lab import BOTS
from lab.core import play_out
from playbook.cli import main
from playbook.store import Store
from rules import Game, RuleError, SaveFileError, load_game, new_game
from rules import leerdam as ld
from rules import new_rule as nr
from rules.core import MAX_ACTIONS, MAX_SEED, _digest, rng_for
from widgets.new_rule import NewRuleDashboard

NAMES = ("Ana", "Bo", "Cy", "Di")


def resign(data: dict) -> str:
    """The file an editor would make: changed, with its checksum recomputed."""
    body = {k: v for k, v in data.items() if k != "digest"}
    return json.dumps({**body, "digest": _digest(body)})


def new_rule_game(moves: int = 40, seed: int = 5) -> Game:
    game = new_game("new-rule", nr.Setup(names=NAMES), seed)
    rng = rng_for(99, 0)
    while not game.state.over and len(game.actions) < moves:
        seat = game.state.waiting_for()[0]
        game.apply(BOTS["new-rule"]["balanced"](game.state, seat, rng))
    return game


def leerdam_game(years: int, seed: int = 3, **options) -> Game:
    options = {"end_check_from": 100, **options}
    setup = ld.Setup(names=tuple(f"H{i}" for i in range(6)), max_years=years, **options)
    return play_out(Game(ld.RULES, setup, seed), [BOTS["leerdam"]["fair"]] * 6, rng_for(seed, -1))


def first(data: dict, kind: str) -> tuple[int, dict]:
    return next((i, a) for i, a in enumerate(data["actions"]) if a["kind"] == kind)


# -- forged chance outcomes -----------------------------------------------------------------------


def test_a_forged_draw_is_refused_naming_its_step() -> None:
    data = new_rule_game().to_record()
    index, drawn = first(data, "drawn")
    assert drawn["candies"] != ["red", "red"]
    drawn["candies"] = ["red", "red"]  # legal: the bowl holds reds; but not what the seed drew
    with pytest.raises(SaveFileError, match=rf"action {index + 1} \(drawn\): the drawn is not what the seed gives"):
        load_game(resign(data))


def test_a_forged_deal_is_refused() -> None:
    data = new_rule_game().to_record()
    hands = data["actions"][0]["hands"]
    hands[0], hands[1] = hands[1], hands[0]  # the same candies, to other players
    with pytest.raises(SaveFileError, match=r"action 1 \(deal\)"):
        load_game(resign(data))


@pytest.mark.parametrize("kind, field, value", [("flood", "strength", None), ("misfortune", "rolls", None), ("end-roll", "die", None)])
def test_a_forged_leerdam_roll_is_refused(kind: str, field: str, value: object) -> None:
    game = leerdam_game(3, end_check_from=1) if kind == "end-roll" else leerdam_game(3)
    data = game.to_record()
    index, action = first(data, kind)
    if kind == "misfortune":
        action["rolls"] = [6] * len(action["rolls"]) if action["rolls"] != [6] * len(action["rolls"]) else [5] * len(action["rolls"])
    else:
        action[field] = 6 if action[field] != 6 else 5
    with pytest.raises(SaveFileError, match=rf"action {index + 1} \({kind}\).*not what the seed gives"):
        load_game(resign(data))


def test_an_honest_file_still_loads_and_a_by_hand_mark_needs_table_dice() -> None:
    game = leerdam_game(2)
    assert load_game(game.to_json()).state == game.state
    data = game.to_record()
    index, flood = first(data, "flood")
    flood["by_hand"] = True  # a forger's way round the seed: marking the roll as the table's
    with pytest.raises(SaveFileError, match=rf"action {index + 1} \(flood\): this flood cannot be entered by hand"):
        load_game(resign(data))


def test_table_dice_are_entered_by_hand_and_marked_in_the_file() -> None:
    setup = ld.Setup(names=tuple(f"H{i}" for i in range(5)), table_dice=True)
    game = Game(ld.RULES, setup, 1)
    assert game.state.phase == "misfortune" and game.actions == []  # waits for the table's dice
    with pytest.raises(RuleError, match="misfortune"):
        game.apply(ld.Misfortune(rolls=(1, 2)))
    game.apply(ld.Misfortune(rolls=(1, 2, 3, 4, 5)))
    for seat in range(5):
        game.apply(ld.Contribute(seat=seat, units=1))
    for seat in range(5):
        game.apply(ld.Allocate(seat=seat, plan=(ld.Assignment(seat, "subsistence", 2),)))
    game.apply(ld.Flood(strength=6))
    record = game.to_record()
    marked = [a["kind"] for a in record["actions"] if a.get("by_hand")]
    assert marked == ["misfortune", "flood"]
    again = load_game(game.to_json())
    assert again.state == game.state and again.by_hand == game.by_hand


def test_without_table_dice_a_roll_cannot_be_typed_in() -> None:
    game = leerdam_game(1)
    game = Game(ld.RULES, game.setup, 4)
    with pytest.raises(RuleError, match="comes from the playbook's dice"):
        game.apply(ld.Misfortune(rolls=(1,) * 6))


# -- weaponised files -------------------------------------------------------------------------------


def honest_text() -> str:
    return new_rule_game(20).to_json()


def too_many_actions() -> str:
    data = json.loads(honest_text())
    data["actions"] = [{"kind": "draw", "seat": 0}] * (MAX_ACTIONS + 1)
    return resign(data)


def many_colours() -> str:
    data = json.loads(honest_text())
    data["setup"]["colours"] = ["red"] + [f"c{i}" for i in range(20_000)]
    return resign(data)


def long_seed() -> str:
    return honest_text().replace('"seed": 5', '"seed": ' + "9" * 5000, 1)


BAD_FILES = {
    "too big": (lambda: " " * (5 * 1024 * 1024) + honest_text(), "at most 4 MiB"),
    "too many moves": (too_many_actions, f"at most {MAX_ACTIONS}"),
    "deep lists": (lambda: "[" * 100_000 + "]" * 100_000, "nest too deeply"),
    "deep setup": (lambda: honest_text().replace('"per_bag": 9', '"per_bag": ' + "[" * 40 + "]" * 40, 1), "nest too deeply"),
    "5000-digit seed": (long_seed, "5000 digits"),
    "NaN": (lambda: honest_text().replace('"seed": 5', '"seed": NaN', 1), "NaN"),
    "20,000 colours": (many_colours, "2-12 colours"),
    "seed out of range": (lambda: resign({**json.loads(honest_text()), "seed": MAX_SEED + 1}), "seed must be a whole number"),
    "wrong type": (lambda: resign({**json.loads(honest_text()), "actions": [{"kind": "deal", "hands": "abc"}]}), "expected a list"),
}


@pytest.mark.parametrize("name", list(BAD_FILES))
def test_weaponised_files_are_refused_at_once_in_one_line(name: str) -> None:
    make, message = BAD_FILES[name]
    text = make()
    started = time.process_time()
    with pytest.raises(SaveFileError) as refused:
        load_game(text)
    assert message in str(refused.value)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 400
    # Refused before any replay: a fraction of what the 16,000-offer file took (11 s).
    assert time.process_time() - started < 5


@pytest.mark.parametrize("name", ["deep lists", "5000-digit seed", "too many moves", "20,000 colours"])
def test_the_cli_refuses_a_bad_file_in_one_line_with_exit_code_2(name: str, tmp_path: Path, capsys) -> None:
    path = tmp_path / "bad.json"
    path.write_text(BAD_FILES[name][0](), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("playbook replay: ") and err.count("\n") == 1
    assert BAD_FILES[name][1] in err


def test_the_cli_refuses_a_forged_file_naming_the_step(tmp_path: Path, capsys) -> None:
    data = new_rule_game().to_record()
    index, drawn = first(data, "drawn")
    drawn["candies"] = ["red", "red"]
    path = tmp_path / "forged.json"
    path.write_text(resign(data), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"action {index + 1} (drawn)" in err and err.count("\n") == 1


@pytest.mark.parametrize("name", ["deep lists", "5000-digit seed", "NaN", "too big", "wrong type"])
def test_the_dashboard_says_a_bad_file_was_refused_and_changes_nothing(name: str, tmp_path: Path) -> None:
    store = Store(tmp_path / "tables.sqlite3")
    dash = NewRuleDashboard(store, query="")
    dash.load_file(BAD_FILES[name][0]().encode("utf-8"), "bad.json")
    assert dash.status.kind == "refuse" and "Could not load “bad.json”" in dash.status.message
    assert "Nothing was changed" in dash.status.message and BAD_FILES[name][1] in dash.status.message
    assert store.tables() == [] and dash.game is None


def test_the_dashboard_refuses_a_forged_file(tmp_path: Path) -> None:
    data = new_rule_game().to_record()
    _, drawn = first(data, "drawn")
    drawn["candies"] = ["red", "red"]
    store = Store(tmp_path / "tables.sqlite3")
    dash = NewRuleDashboard(store, query="")
    dash.load_file(resign(data).encode("utf-8"), "forged.json")
    assert dash.status.kind == "refuse" and "not what the seed gives" in dash.status.message
    assert store.tables() == []


def test_a_huge_seed_typed_into_a_setup_is_a_rule_error() -> None:
    with pytest.raises(RuleError, match="seed"):
        new_game("new-rule", nr.Setup(names=NAMES), 10**5000)
    with pytest.raises(RuleError, match="seed"):
        new_game("new-rule", nr.Setup(names=NAMES), -1)


# -- typed refusals for Python callers ----------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        ld.SetMisfortune(seat=None, losses=(1.5, 0, 0, 0, 0, 0)),
        ld.SetMisfortune(seat=None, losses=("one", 0, 0, 0, 0, 0)),
        ld.Contribute(seat=0, units=1.0),
        ld.Contribute(seat="0", units=1),
        ld.Gift(seat=0, to=1, wealth=None),
    ],
)
def test_wrong_typed_values_from_python_are_rule_errors(action) -> None:
    game = Game(ld.RULES, ld.Setup(names=tuple(f"H{i}" for i in range(6)), misfortune_by_hand=True), 1)
    before = game.state
    with pytest.raises(RuleError):
        game.apply(action)
    with pytest.raises(RuleError):
        ld.RULES.check(game.state, action)
    assert game.state == before


def test_the_misfortune_check_itself_refuses_a_fraction() -> None:
    state = Game(ld.RULES, ld.Setup(names=tuple(f"H{i}" for i in range(6)), misfortune_by_hand=True), 1).state
    with pytest.raises(RuleError, match="whole number"):
        ld.check(state, ld.SetMisfortune(seat=None, losses=(0.5,) * 6))


def test_an_action_of_another_game_is_refused() -> None:
    game = Game(ld.RULES, ld.Setup(names=tuple(f"H{i}" for i in range(6))), 1)
    with pytest.raises(RuleError, match="not an action of this game"):
        game.apply(nr.Draw(seat=0))


# -- loading is linear --------------------------------------------------------------------------------


def _load_seconds(text: str) -> float:
    # CPU time of this process, best of three: other work on the machine barely moves it.
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        load_game(text)
        best = min(best, time.process_time() - started)
    return best


def test_an_honest_long_file_loads_in_linear_time() -> None:
    # Not a timed test: the ratio of two lengths measured in one run, best of three each.
    short, long = leerdam_game(25).to_json(), leerdam_game(100).to_json()
    moves = len(json.loads(long)["actions"]) / len(json.loads(short)["actions"])
    ratio = _load_seconds(long) / _load_seconds(short)
    assert moves > 3.5
    # Linear gives about `moves`; keeping every state (or any work per step that grows with
    # the log) gives moves squared, 16 here.
    assert ratio < moves * 2, f"{moves:.1f}x the moves took {ratio:.1f}x the time"


def test_a_game_keeps_a_bounded_number_of_states() -> None:
    game = load_game(leerdam_game(40).to_json())
    assert len(game.actions) > 500 and len(game.states) <= 65
    # Undo past what is kept replays instead: still exact.
    trial = game.copy()
    while trial.undo_blocker() is None:
        trial.undo()
    assert trial.state == Game(ld.RULES, game.setup, game.seed, list(trial.actions)).state
