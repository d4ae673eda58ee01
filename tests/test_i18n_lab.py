"""The balance lab in the reader's language: its page through each phase, its findings and its
printed report in the pseudo-language (every word a message), and in Dutch."""

from __future__ import annotations

import pypdfium2
import pytest

import i18n
import lab
from lab.findings import compared, dominance, holm, seat_order, too_few, what_wins
from printables.balance_report import build_pdf
from rules.games import CARDS
from tests.support.headless import click
from tests.support.pseudo import escaped, escaped_across, widget_texts
from widgets.balance_lab import BalanceLab

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(autouse=True)
def own_slots(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """The heavy-work slots of a server of this test's own (its PLAYBOOK_DB under tmp)."""
    monkeypatch.setenv("PLAYBOOK_DB", str(tmp_path / "tables.sqlite3"))


def _names(*more: str) -> list[str]:
    """What stands outside the messages: the games' and bots' names, the ready-made villages'
    ids, and what a test adds (a setup's VARIANTS text). A game's card words
    (its word for a table) are its card's, said where the card is translated."""
    words = [str(getattr(card.words, "Table", "")) for card in CARDS if card.has("lab")]
    bots = [bot for game in lab.BOTS for bot in lab.BOTS[game]]
    return [str(card.title) for card in CARDS] + bots + words + [*more]


def _page_texts(page: BalanceLab) -> list[str]:
    # The exact-odds panel's forms are the games' drawings' (drawing/danger_world.py, ...): its
    # heading is the lab's, checked on its own.
    return [text for part in page.children if part is not page.odds for text in widget_texts(part)]


def test_the_lab_page_says_every_word_in_the_pseudo_language_through_a_run_a_comparison_and_a_review(pseudo: None) -> None:
    page = BalanceLab()
    for game in [card.slug for card in CARDS if card.has("lab")]:
        page.game.value = game
        # across text nodes: a note's settings are code inside its message (`settings_as_typed`)
        assert escaped_across(_page_texts(page), names=_names()) == [], game
    assert escaped([page.odds.children[0].value.replace("<h3", "").split(">", 1)[1].split("<")[0]]) == []

    page.game.value = "new-rule"
    page.games.value, page.workers.value = lab.findings.MIN_GAMES, 1
    click(page.run_button)
    assert page.status.kind == "ok", page.status.message
    assert page.findings.value and page.results.value and page.download.value
    spec = page.result.spec.text
    assert escaped(_page_texts(page), names=_names(spec)) == []

    page.compare.value = True
    page.setup_b.variants.value = "max_rounds=none"
    click(page.run_button)
    assert page.status.kind == "ok", page.status.message
    assert page.comparison.value
    # the setups are named A and B, as letters (the table's columns "A", "B", "B − A")
    specs = (page.result.a.spec.text, page.result.b.spec.text, "B − A", "A", "B")
    assert escaped(_page_texts(page), names=_names(*specs)) == []
    report = pypdfium2.PdfDocument(build_pdf(page.result))
    text = " ".join(report[i].get_textpage().get_text_range() for i in range(len(report)))
    # the PDF breaks lines inside messages: read it as one text, its specs and command aside
    command = f"playbook compare new-rule --games {lab.findings.MIN_GAMES} --seed 1"
    assert escaped([" ".join(text.split())], names=_names(*specs, command, "playbook")) == []

    click(page.review_button)
    assert page.status.kind == "ok", page.status.message
    assert escaped(_page_texts(page), names=_names(page.result.run.spec.text)) == []

    page.setup_a.variants.value = "no_such_variant=1"
    click(page.run_button)
    assert page.status.kind == "refuse" and escaped([page.status.message], names=_names("'no_such_variant'")) == []


def test_every_finding_the_lab_can_state_is_a_message(pseudo: None) -> None:
    bots = ["fair", "fair", "free-rider", "free-rider"]
    rows = [{"winners": "1" if g % 3 else "3"} for g in range(60)]
    winners = [[0] if g % 3 else [2] for g in range(60)]
    said = [what_wins(bots, rows), seat_order(bots, rows), *dominance(bots, winners, [[1, 1, 0, 0]] * 60, "VP"), *too_few(5)]
    said.append(seat_order(["fair", "altruist"], rows[:40]))
    table = [
        {"measure": "final dyke", "a": 1.0, "b": 2.0, "difference": 1.0, "low": 0.8, "high": 1.2, "p": 0.001, "identical": False, "games": 100},
        {"measure": "years played", "a": 9.0, "b": 9.0, "difference": 0.0, "low": None, "high": None, "p": None, "identical": True, "games": 100},
    ]
    holm(table)
    said += compared(table, lab.GAMES["leerdam"].labels)
    texts = [finding.text for finding in said]
    assert len(texts) >= 6 and escaped(texts, names=_names()) == []


def test_the_lab_reads_dutch_and_writes_numbers_the_dutch_way(dutch: None) -> None:
    page = BalanceLab()
    assert page.games.description == "Spellen" and page.run_button.description == "Starten"
    bots = ["fair", "fair", "free-rider", "free-rider"]
    rows = [{"winners": "1"} for _g in range(1000)]
    found = what_wins(bots, rows)
    assert found.text.startswith("Wat wint: fair wint 100,0% (95%-interval 99,6% tot 100,0%") and "van de spellen" in found.text
    assert "1.000 van 1.000" in found.text  # Dutch thousands
    dyke = compared([{"measure": "final dyke", "a": 1.5, "b": 2.25, "difference": 0.75, "low": 0.5, "high": 1.0, "games": 100, "holds": True, "noise": False}], lab.GAMES["leerdam"].labels)[0].text
    assert dyke.startswith("Dijk aan het eind stijgt van 1,5 naar 2,25") and "+0,75" in dyke
    assert i18n.current() == "nl"
