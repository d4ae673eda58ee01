"""Dangerous Ideas' refusals in the reader's language: the rules keep each reason as a message
(its rule id unchanged, its English as before) and a page says it in its own language. The
game's log lines, story and page text are not marked yet; these tests cover the refusals.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import i18n
from rules import Game, RuleError
from rules.dangerous_ideas import RULES, Place, Setup, Write
from tests.support.pseudo import escaped
from widgets.dangerous_ideas_moves import why_not

NAMES = ("Ana", "Bo", "Cy")


@pytest.fixture
def language() -> Iterator[None]:
    yield
    i18n.use("en")


def refusal(game: Game, action: object) -> RuleError:  # type: ignore[type-arg]
    with pytest.raises(RuleError) as refused:
        game.apply(action)  # type: ignore[arg-type]
    return refused.value


def test_refusals_are_messages_with_their_english_and_rule_unchanged(language: None) -> None:
    game = Game(RULES, Setup(names=NAMES), seed=1)
    stones = game.setup.start_stones
    wrong_count = refusal(game, Place(seat=0, place=("think",)))
    not_a_node = refusal(game, Place(seat=0, place=("probe-1",) * stones))
    too_early = refusal(game, Write(seat=0, branch="probe-1", text="Porridge is healthy", holder="Mama Bear"))
    assert wrong_count.rule == "placement" and str(wrong_count.said) == wrong_count.message == f"place exactly {stones} stones, not 1"
    assert not_a_node.message == "these stones go on the five nodes, not on 'probe-1'"
    assert too_early.rule == "phase" and too_early.message == "writing a setting-round meme is not possible now (players are placing their starting stones)"
    # In the pseudo-language every refusal is a message, the fragments inside it too.
    i18n.use(i18n.PSEUDO)
    said = [i18n.render(r.said) for r in (wrong_count, not_a_node, too_early)]
    assert all(text.startswith("⟦") for text in said) and escaped(said, names=("'probe-1'",)) == []
    # The page's own check of a move says the same reason in the page's language.
    assert why_not(game.state, Place(seat=0, place=("think",))) == said[0]


def test_a_refusal_reads_in_dutch(language: None) -> None:
    game = Game(RULES, Setup(names=NAMES), seed=1)
    too_early = refusal(game, Write(seat=0, branch="probe-1", text="Porridge is healthy", holder="Mama Bear"))
    i18n.use("nl")
    assert i18n.render(too_early.said) == "een meme voor de openingsronde schrijven kan nu niet (spelers leggen hun startstenen)"
    assert why_not(game.state, Place(seat=1, place=("think",))).startswith("leg precies ")
