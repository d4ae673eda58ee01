"""Pig, a toy game that joins the playbook by its card alone (docs/adding-a-game.md).

Its rules, its board's drawing and its score pad are kept here, under the tests, and
`tests/test_adding_a_game.py` registers its card, plays a table through the store, draws its
board and prints its score pad: a new game needs no line changed in the four games' modules.
"""

from __future__ import annotations

from rules.games import Card, Players

__all__ = ["CARD"]

#: The toy's card: every layer it has, by module path; no lab (no bots), no dashboard, no notebook.
CARD = Card(
    slug="pig",
    title="Pig",
    modules={
        "rules": "tests.support.toy.rules",
        "drawing": "tests.support.toy.drawing",
        "printables": "tests.support.toy.printables",
    },
    players=Players(low=2, high=4, text_low=2, text_high=4, class_low=2, class_high=4, default=2),
    hides=False,
)
