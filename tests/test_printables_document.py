"""The one door to every game's printables: each game's module provides what `Printables` names,
with the same call signatures, and the door checks what is printed from by the card. (That the
shared parts ask no game's name is tests/test_house.py's to check, for every layer.)"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from printables import document
from printables.document import Printables
from rules.games import CARDS, card

ROOT = Path(__file__).resolve().parent.parent
#: the methods of the protocol (`debrief_compare` is the one member that may be None).
METHODS = ("table_of", "sheets", "rules_card", "booklet", "debrief_story")
POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _signature(function: object) -> list[tuple[str, object]]:
    """How `function` is called: each parameter but `self` by place (positional) or by name
    (keyword-only), with its default; a positional parameter's name is not part of a call."""
    parameters = inspect.signature(function).parameters.values()
    return [("" if p.kind in POSITIONAL else p.name, p.default) for p in parameters if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def test_the_protocol_names_what_the_door_and_the_debrief_call() -> None:
    members = {name for name in vars(Printables) if not name.startswith("_")}
    assert members == {*METHODS, "debrief_compare"}
    assert _signature(Printables.debrief_story) == [("", inspect.Parameter.empty), ("label", inspect.Parameter.empty), ("width", inspect.Parameter.empty), ("reveal", inspect.Parameter.empty), ("reveal_pledges", None), ("stopped", "")]
    assert Printables.__annotations__ == {"MATERIALS": "tuple[str, ...]"}


@pytest.mark.parametrize("slug", [c.slug for c in CARDS])
def test_every_games_printables_provide_the_protocol(slug: str) -> None:
    module = card(slug).module("printables")
    materials = module.MATERIALS
    assert isinstance(materials, tuple) and materials and all(isinstance(m, str) and m for m in materials)
    for name in METHODS:
        assert callable(getattr(module, name, None)), f"{slug} has no {name}"
        assert _signature(getattr(module, name)) == _signature(getattr(Printables, name)), f"{slug}.{name}"
    compare = module.debrief_compare
    if compare is not None:
        assert _signature(compare) == [("", inspect.Parameter.empty), ("width", inspect.Parameter.empty), ("reveal", inspect.Parameter.empty), ("reveal_pledges", None), ("stopped", None)]
    # What the card says is no longer written again in the module.
    for stale in ("GAME_TITLE", "PLAYER_RANGE", "HOUSEHOLD_RANGE", "DEFAULT_PLAYERS", "DEFAULT_HOUSEHOLDS", "build_pdf", "preview_png"):
        assert not hasattr(module, stale), f"{slug}.{stale}"


def test_the_door_checks_the_source_by_the_card() -> None:
    with pytest.raises(ValueError, match="Leerdam takes 3-20 households, not 2"):
        document.source("leerdam", players=2)
    with pytest.raises(ValueError, match="Danger World takes 1-12 player characters, not 13"):
        document.source("danger-world", players=13)
    assert document.source("leerdam").names == ("",) * card("leerdam").players.default
    assert document.source("new-rule", ["Ana"], players=3).names == ("Ana", "", "")
    # A GM only for a game with one; seat slips only for a game that hides its seats.
    assert document.source("danger-world", gm="Morgan").gm == "Morgan"
    with pytest.raises(ValueError, match="New Rule has no GM"):
        document.source("new-rule", gm="Morgan")
    links = [("Ana", "http://x/?seat=0")]
    assert document.source("new-rule", ["Ana"], players=3, seat_links=links).seat_links == (("Ana", "http://x/?seat=0"),)
    for shared in (c for c in CARDS if not c.devices):  # a game still on one shared screen, if any
        with pytest.raises(ValueError, match=f"{shared.title} is played on one shared screen"):
            document.source(shared.slug, seat_links=links)
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        document.source("chess")
    with pytest.raises(TypeError, match="'player'"):
        document.pdf("new-rule", player=3)


def test_the_text_warns_outside_the_count_it_is_written_for() -> None:
    assert document.text_warning("leerdam", 4) == "Leerdam is written for 5-10 households; printed for 4 (the playbook accepts 3-20)."
    assert document.text_warning("leerdam", 7) == ""
    assert all(document.text_warning(c, n) == "" for c in CARDS if c.players.text_range == c.players.range for n in range(c.players.low, c.players.high + 1))
