"""Leerdam's anonymous pledges on paper: "what you played" prints no household's pledge, VP or
Wealth outside its own ledger page until the end, and everything once the facilitator shows it."""

from __future__ import annotations

from printables import document
from rules import leerdam as ld
from tests.support.anonymous_village import world
from tests.support.pdfs import pages_text


def test_a_game_in_progress_prints_totals_and_each_households_own_page_only() -> None:
    game = world(0, misfortune=(2, 1, 0, 0, 0, 0), seed=5)
    state = next(s for s in game.states if s.phase == "contribute" and s.year == 4)
    pages = pages_text(document.pdf("leerdam", state=state))
    record = " ".join(p for p in pages if "Village record" in p)
    assert "Anonymous pledges: each household's numbers stay on its own ledger page" in record
    totals = " ".join(str(y.total) for y in state.years)
    assert f"Total {totals}" in record
    for seat, name in enumerate(("Ana", "Bo", "Cy", "Di", "Ed")):
        assert f"{name} – – –" in record  # revealed only as part of the total
        assert f"{name} {state.households[seat].wealth}" not in record
        row = next(r for r in state.ledger if r.seat == seat and r.year == 2)
        assert f" {row.capacity} {row.contribution} " in pages[1 + seat]  # its own page, in full
    chronicle = " ".join(p for p in pages if "chronicle" in p.lower())
    assert "The pledges are revealed" not in chronicle and "Only the total is announced" in chronicle
    assert "only the total is announced" in pages[0]


def test_after_the_end_the_record_shows_the_pledges_only_when_the_facilitator_does() -> None:
    game = world(0)
    kept = " ".join(p for p in pages_text(document.pdf("leerdam", state=game.state)) if "Village record" in p)
    assert "Ana – –" in kept and "wins" in kept
    game.apply(ld.ShowPledges())
    shown = " ".join(p for p in pages_text(document.pdf("leerdam", state=game.state)) if "Village record" in p)
    ana = [r.contribution for r in game.state.ledger if r.seat == 0][:2]
    assert f"Ana {ana[0]} {ana[1]}" in shown


def test_blank_sheets_for_an_anonymous_village_say_so() -> None:
    pages = pages_text(document.pdf("leerdam", setup=ld.Setup(names=("Ana", "Bo", "Cy", "Di", "Ed"), anonymous=True)))
    assert "only the total is announced" in pages[0]
    assert all("Keep this page to yourself" in pages[1 + seat] for seat in range(5))
    plain = pages_text(document.pdf("leerdam", setup=ld.Setup(names=("Ana", "Bo", "Cy", "Di", "Ed"))))
    assert "only the total is announced" not in plain[0] and "Keep this page to yourself" not in plain[1]
