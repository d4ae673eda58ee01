"""A new game joins the house by its card (docs/adding-a-game.md).

Pig, a toy dice game kept under `tests/support/toy/`, is registered by its card alone: a table
of it plays through the store (every move with the version its page saw, a refusal changing
nothing), its board draws each moment and replays in the debrief, and the print door makes its
score pad, without a line of the four games' modules or of any shared module naming it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest

from drawing.board import scene_html
from drawing.timeline import Timeline, scenes_for
from playbook.access import table_keys
from playbook.store import Play, Refused, Store
from printables import document, pack
from rules import GAMES, new_game
from rules.games import CARDS, card, register, unregister
from tests.support.pdfs import pages_text
from tests.support.protocols import PROTOCOLS, protocol_problems
from tests.support.toy import CARD
from tests.support.toy.rules import Hold, Roll, Setup
from widgets.board import board_scene

NAMES = ("Ana", "<b>Bo</b>")


@pytest.fixture
def pig() -> Iterator[None]:
    register(CARD)
    try:
        yield
    finally:
        unregister("pig")


def test_a_game_is_known_by_its_card_only_while_it_is_registered(pig: None) -> None:
    assert card("pig") is CARD and "pig" in CARDS and "pig" in GAMES
    assert GAMES["pig"].title == CARD.title
    unregister("pig")
    assert "pig" not in CARDS and "pig" not in GAMES
    with pytest.raises(KeyError, match="unknown game 'pig'"):
        card("pig")
    register(CARD)
    with pytest.raises(ValueError, match="already registered"):
        register(CARD)
    with pytest.raises(ValueError, match="one of the playbook's own games"):
        unregister("leerdam")


@pytest.mark.parametrize("layer", ["rules", "drawing", "printables"])
def test_the_toys_modules_keep_their_layers_protocols(pig: None, layer: str) -> None:
    path, _, name = PROTOCOLS[layer].partition(":")
    protocol = getattr(importlib.import_module(path), name)
    assert protocol_problems(CARD.module(layer), protocol) == []  # type: ignore[arg-type]  # a layer the toy has
    assert not CARD.has("lab") and not CARD.has("dashboard")


def _play_to_the_end(store: Store, table_id: str) -> int:
    """Ana and Bo hold as soon as their pot reaches 6; every move carries the version seen."""
    moves = 0
    while not (table := store.load(table_id)).game.state.over:
        state = table.game.state
        action = Hold(seat=state.turn) if state.pot >= 6 else Roll(seat=state.turn)
        store.submit(table_id, Play(action), table.version)
        moves += 1
    return moves


def test_a_table_of_the_toy_plays_through_the_store(pig: None, store: Store) -> None:
    game = new_game("pig", Setup(names=NAMES, target=20), seed=11)
    table_id = store.create(game, "Pig at table 1", table_keys(len(NAMES)))
    first = store.load(table_id)
    with pytest.raises(Refused, match="roll at least once before you hold"):
        store.submit(table_id, Play(Hold(seat=0)), first.version)
    assert store.load(table_id).version == first.version  # a refusal changes nothing
    assert _play_to_the_end(store, table_id) > 4
    stored = store.load(table_id).game
    assert max(stored.state.banked) >= 20
    # The store holds the moves, not the state: a replay from its record is the same game.
    replay = new_game("pig", stored.setup, 11)
    for action in stored.actions:
        if not action.chance:
            replay.apply(action)
    assert replay.state == stored.state


def test_the_toys_board_draws_every_moment_and_its_debrief_replays_them(pig: None, store: Store) -> None:
    table_id = store.create(new_game("pig", Setup(names=NAMES), seed=3), "Pig", table_keys(2))
    _play_to_the_end(store, table_id)
    game = store.load(table_id).game
    drawn = scene_html(board_scene(game), Timeline.of(game).chart(), "Pig")
    assert 'data-phase="results"' in drawn and "<b>Bo</b>" not in drawn and "&lt;b&gt;Bo&lt;/b&gt;" in drawn
    timeline = Timeline.of(game)
    assert timeline.scenes is scenes_for("pig") and len(timeline.moments) > 2
    phases = [timeline.scenes.scene(moment.state).phase for moment in timeline.moments]
    assert phases[-1] == "results" and "decision" in phases


def test_the_toy_prints_its_score_pad_through_the_one_door(pig: None) -> None:
    blank = pages_text(document.pdf("pig", ["Ana", "Bo", "Cy"]))
    assert "Pig score pad: first to 20" in blank[0] and all(name in blank[0] for name in ("Ana", "Bo", "Cy"))
    assert "A 1 loses the pot" in blank[1]
    with pytest.raises(ValueError, match="Pig takes 2-4 players, not 5"):
        document.pdf("pig", players=5)
    game = new_game("pig", Setup(names=("Ana", "Bo"), target=5), seed=2)
    while not game.state.over:
        game.apply(Hold(seat=game.state.turn) if game.state.pot else Roll(seat=game.state.turn))
    played = pages_text(document.pdf("pig", state=game.state))
    assert "banked" in played[0] and str(max(game.state.banked)) in played[0]
    # Every game's pack for a group takes the toy in too, from its card.
    parts, _ = pack.plan(3)
    assert "pig" in {part.game for part in parts}
