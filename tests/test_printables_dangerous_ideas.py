"""Dangerous Ideas printables: names and user text as typed, every material, page order,
sizes, determinism, previews, and print what you played (sheets, score pad, the story)."""

from __future__ import annotations

import dataclasses
import io
import math

import pypdf
import pytest

import rules
from lab import BOTS as LAB_BOTS
from lab.core import play_out
from printables import common, document
from printables import dangerous_ideas as printable
from rules.core import rng_for
from rules.dangerous_ideas import (
    Place,
    Setup,
    State,
    Title,
    Write,
    bears_example,
    sheet_score,
    standings,
    tiebreaks,
    transcript,
)
from tests.support.pdfs import pages_text

NAMES = ("<b>Zoë & 🐻", 'Bo "the bold"', "Cy", "Đi Ångström")
BLANK_HEADINGS = (
    "Dangerous Ideas — character sheet",
    "Red seeds",
    "Dangerous Idea (your philosophy)",
    "THINK",
    "PROBE 1 · leaf",
    "CREATE 1 · coiled",
    "CONNECT 3 · leaf",
    "DEFEND 3 · coiled",
    "held by",
    "Crossed-off memes",
    "Dangerous Ideas · stones",
    "Stones come from",
    "Spend from your nodes",
    "Involve your memes",
    "Score pad",
    "Standings",
    "The story as told",
    "The moral of the story",
)
LONG_MEME = (
    "Every story worth telling is really about who gets to decide what the story means, and that "
    "question matters far more than porridge, chairs or beds could ever matter to anyone at all"
)
LONG_HOLDER = "The Big Bad Wolf's very long-winded grandmother from the hills"


def sheet_pages(pages: list[str]) -> list[str]:
    return [p for p in pages if "Dangerous Ideas — character sheet" in p]


def bot_game(names: tuple[str, ...] = ("Ana", "Bo", "Cy", "Di"), seed: int = 1) -> State:
    """Sensible bots play a whole game."""
    game = rules.new_game("dangerous-ideas", Setup(names), seed)
    return play_out(game, [LAB_BOTS["dangerous-ideas"]["sensible"]] * len(names), rng_for(1, 1)).state


def setting_game() -> State:
    """Starting stones, a setting round with Unicode and a long meme, and a first chapter title."""
    game = rules.new_game("dangerous-ideas", Setup(NAMES[:3]), 3)
    for seat in range(3):
        game.apply(Place(seat=seat, place=("think",) * 4 + ("create",) * 3))
    memes = (
        (0, "probe-1", LONG_MEME, LONG_HOLDER, "Once upon a time… 🐻 <i>not markup</i>"),
        (0, "create-1", "Porridge & honey 🍯", "Mama Bear", ""),
        (1, "defend-1", "Bears are friends, not food", "Goldilocks", "Goldilocks had seen the bears."),
        (1, "connect-2", "Ünïcödé is normal", "Baby Bear 🐝", ""),
        (2, "probe-2", "Try everything once", "Goldilocks", ""),
        (2, "connect-1", "Everything has its place", "Papa Bear", ""),
    )
    for seat, branch, text, holder, narration in memes:
        game.apply(Write(seat=seat, branch=branch, text=text, holder=holder, narration=narration))
    game.apply(Title(seat=0, title="In which Zoë’s 🐻 wanders into the woods"))
    return game.state


@pytest.fixture(scope="module")
def blank_pdf() -> bytes:
    return document.pdf("dangerous-ideas", NAMES)


@pytest.fixture(scope="module")
def blank_pages(blank_pdf: bytes) -> list[str]:
    return pages_text(blank_pdf)


@pytest.fixture(scope="module")
def finished() -> State:
    state = bot_game()
    assert state.over and any(sheet.crossed for sheet in state.sheets)
    return state


@pytest.fixture(scope="module")
def finished_pdf(finished: State) -> bytes:
    return document.pdf("dangerous-ideas", state=finished, page="letter")


@pytest.fixture(scope="module")
def finished_pages(finished_pdf: bytes) -> list[str]:
    return pages_text(finished_pdf)


@pytest.fixture(scope="module")
def bears() -> State:
    return bears_example().state


@pytest.fixture(scope="module")
def bears_pages(bears: State) -> list[str]:
    return pages_text(document.pdf("dangerous-ideas", state=bears))


# -- names, headings, page order -----------------------------------------------------------------
def test_every_name_prints_exactly_as_typed(blank_pages: list[str]) -> None:
    sheets = sheet_pages(blank_pages)
    assert len(sheets) == len(NAMES)
    for name, page in zip(NAMES, sheets):
        assert f"Character sheet · {name}" in page  # the page header
        assert page.count(name) >= 2  # and on the sheet's player line
    cards = " ".join(p for p in blank_pages if "Dangerous Ideas · stones" in p)
    assert all(name in cards for name in NAMES)
    assert "<b>Zoë & 🐻" in " ".join(blank_pages)  # not read as bold markup, the emoji kept


def test_every_material_has_its_heading(blank_pages: list[str]) -> None:
    everything = " ".join(blank_pages)
    for heading in BLANK_HEADINGS:
        assert heading in everything, heading
    assert "To be continued" not in everything  # only when printing a game


def test_page_order_and_count(blank_pages: list[str]) -> None:
    pages = blank_pages
    # Four sheets, two pages of two cards, the score pad, the story plan, the rules card, the
    # seat slips (a phone's link each, blank here).
    assert len(pages) == 4 + 2 + 1 + 1 + 1 + 1
    assert all("Dangerous Ideas — character sheet" in p for p in pages[:4])
    assert pages[4].count("Dangerous Ideas · stones") == 2 and pages[5].count("Dangerous Ideas · stones") == 2
    assert "Score pad" in pages[6] and "Standings" in pages[6]
    assert pages[7].startswith("The story as told")
    # The chapter plan names each chapter's starter: 8 chapters for 4 players.
    assert "8 Đi Ångström" in pages[7] and "5 <b>Zoë & 🐻" in pages[7]
    assert "Dangerous Ideas — rules card" in pages[8]
    assert "Seat slips" in pages[9]


def test_blank_sets_for_every_player_count() -> None:
    for players in (3, 10):
        pages = pages_text(document.pdf("dangerous-ideas", players=players))
        assert len(sheet_pages(pages)) == players
        assert sum(p.count("Dangerous Ideas · stones") for p in pages) == players
        cards = [p for p in pages if "Dangerous Ideas · stones" in p]
        assert len(cards) == math.ceil(players / 2)  # two cards a page keep the text at 7 pt or more
        # Unnamed seats get a line to write on and a seat label in the header.
        assert f"Character sheet · Player {players}" in " ".join(pages)
    stories = [document.story("dangerous-ideas", players=n) for n in range(3, 11)]
    assert [sum(isinstance(f, printable._CharacterSheet) for f in s) for s in stories] == list(range(3, 11))


def test_default_is_four_players_and_names_pad_with_blanks() -> None:
    story = document.story("dangerous-ideas")
    assert sum(isinstance(f, printable._CharacterSheet) for f in story) == 4
    sheets = pages_text(document.pdf("dangerous-ideas", ["Ana"], players=3), 3)
    assert "Ana" in sheets[0] and "Character sheet · Player 2" in sheets[1]
    assert "Seat 2 of 3 · you start chapters 2 and 5 (of 6)" in sheets[1]


def test_setup_variants_reach_the_sheet() -> None:
    layout = ("coiled",) * 11 + ("leaf",)
    setup = Setup(("Ana", "Bo", "Cy", "Di", "Ed"), layout=layout, seeds=5, chapters=3)
    pages = pages_text(document.pdf("dangerous-ideas", setup=setup))
    sheet = sheet_pages(pages)[4]
    assert "PROBE 1 · coiled" in sheet and "DEFEND 3 · leaf" in sheet
    assert "Seat 5 of 5 · you start none of the 3 chapters" in sheet
    story = next(p for p in pages if "The story as told" in p)
    assert "3 Cy" in story and "4 " not in story.split("Title: in which …")[1].split("The moral")[0]


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="3-10 players"):
        document.pdf("dangerous-ideas", players=2)
    with pytest.raises(ValueError, match="3-10 players"):
        document.pdf("dangerous-ideas", players=11)
    with pytest.raises(ValueError, match="names were given"):
        document.pdf("dangerous-ideas", ["A", "B", "C", "D"], players=3)
    with pytest.raises(TypeError):
        document.pdf("dangerous-ideas", "Ana")
    with pytest.raises(ValueError, match="from a state alone"):
        document.pdf("dangerous-ideas", ["Ana"], state=bears_example().state)
    with pytest.raises(ValueError, match="from a setup alone"):
        document.pdf("dangerous-ideas", ["Ana"], setup=Setup(("A", "B", "C")))
    with pytest.raises(ValueError, match="page size"):
        document.pdf("dangerous-ideas", players=3, page="a5")
    with pytest.raises(rules.RuleError):
        document.pdf("dangerous-ideas", ["Ana", "ana", "Bo"])  # the setup's own name rules


# -- sizes, determinism, previews ----------------------------------------------------------------
def test_builds_are_byte_identical(blank_pdf: bytes, finished: State, finished_pdf: bytes) -> None:
    assert document.pdf("dangerous-ideas", NAMES) == blank_pdf
    assert document.pdf("dangerous-ideas", state=finished, page="letter") == finished_pdf


def test_a4_and_letter(blank_pdf: bytes, blank_pages: list[str]) -> None:
    letter = document.pdf("dangerous-ideas", NAMES, page="letter")
    for pdf, size in ((blank_pdf, (595, 842)), (letter, (612, 792))):
        reader = pypdf.PdfReader(io.BytesIO(pdf))
        assert {(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in reader.pages} == {size}
    assert common.page_count(letter) == common.page_count(blank_pdf)
    first = pypdf.PdfReader(io.BytesIO(letter)).pages[0].extract_text()
    assert " ".join(first.split()) == blank_pages[0]  # the same sheet, smaller


def test_every_page_renders_with_ink(blank_pdf: bytes, finished_pdf: bytes) -> None:
    for pdf in (blank_pdf, finished_pdf):
        for index in range(common.page_count(pdf)):
            image = common.render_png(pdf, index, scale=0.5).convert("L")
            # Ink well below the header: the page holds more than its frame.
            body = image.crop((0, image.height // 8, image.width, image.height * 7 // 8))
            dark = sum(body.histogram()[:160])
            assert dark > 400, (index, dark)


def test_preview_png() -> None:
    png = document.preview_png("dangerous-ideas", players=3, page_index=0, scale=0.4)
    assert png.startswith(b"\x89PNG")
    with pytest.raises(IndexError):
        document.preview_png("dangerous-ideas", players=3, page_index=99)


# -- print what you played ---------------------------------------------------------------------
def test_bears_example_fills_the_sheets(bears: State, bears_pages: list[str]) -> None:
    sheets = sheet_pages(bears_pages)
    assert len(sheets) == 3
    for seat, page in enumerate(sheets):
        sheet = bears.sheets[seat]
        assert bears.names[seat] in page
        for _, meme in sheet.memes():
            assert meme.text in page and meme.holder in page
        assert f"{sheet.filled} memes" in page and f"{sheet.seeds} seed" in page
        # The three score boxes: memes, score, stones + seeds.
        assert f"Memes {sheet.filled} Score {sheet_score(sheet)} Stones + seeds {sheet.stones + sheet.seeds}" in page
    assert "Chapter 2 of 6, in play" in sheets[0]
    assert "2 seeds left" in sheets[0]  # Manifest Destiny re-rolled with a seed


def test_bears_example_story_and_pad(bears: State, bears_pages: list[str]) -> None:
    story = " ".join(p for p in bears_pages if "The story as told" in p)
    for passage in transcript(bears):
        assert passage.heading in story
    assert "Chapter 2: In Which The Bears Return To Find Their Porridge Eaten" in story
    assert "Manifest Destiny: Once upon a time there was a little girl named Goldilocks." in story
    assert "To be continued" in story and "The moral of the story" not in story
    pad = next(p for p in bears_pages if "Score pad" in p)
    assert "Game in progress (chapter 2): the scores if the story ended now." in pad
    assert "Important decisions should be made through democracy held by Mama Bear" in pad


def test_finished_bot_game(finished: State, finished_pages: list[str]) -> None:
    sheets = sheet_pages(finished_pages)
    assert len(sheets) == finished.n
    for seat, page in enumerate(sheets):
        sheet = finished.sheets[seat]
        assert "Final sheet" in page
        for _, meme in sheet.memes():
            assert meme.text in page and meme.holder in page
        for crossed in sheet.crossed:
            assert crossed.text in page and f"replaced by {finished.names[crossed.by]}" in page
    story = " ".join(p for p in finished_pages if "The story as told" in p)
    for passage in transcript(finished):
        assert passage.heading in story
    assert "The end" in story and "The moral of the story" in story
    winner = finished.names[standings(finished)[0][1]]
    assert f"{winner} wins and announces the moral of the story:" in story


def test_finished_score_pad(finished: State, finished_pages: list[str]) -> None:
    pad = " ".join(p for p in finished_pages if "Score pad" in p)
    ties = tiebreaks(finished)
    for seat, sheet in enumerate(finished.sheets):
        assert f"Tie-break: stones {sheet.stones} + seeds {sheet.seeds} = {ties[seat]}" in pad
    rows = [f"{rank} {finished.names[seat]} {score}" for rank, seat, score in standings(finished)]
    standing_text = pad.split("Tie-break")[-1]
    positions = [standing_text.find(row) for row in rows]
    assert all(p >= 0 for p in positions) and positions == sorted(positions)


def test_groups_score_through_the_model(bears: State) -> None:
    # Spread "Porridge" to a second holder by hand: a group of 2 scores 4 + 2.
    sheet = bears.sheets[1]
    copy = dataclasses.replace(sheet.meme("connect-1"), id=99, holder="Goldilocks")
    branches = list(sheet.branches)
    branches[7] = copy
    sheet = dataclasses.replace(sheet, branches=tuple(branches))
    groups = printable._groups(sheet)
    assert [(g.text, len(g.holders), g.points) for g in groups] == [
        ("Treat all living things with respect", 1, 4),
        ("Porridge for breakfast is healthy", 2, 6),
        ("Bears are friends, not food", 1, 4),
    ]
    assert sum(g.points for g in groups) == sheet_score(sheet)
    state = dataclasses.replace(bears, sheets=(bears.sheets[0], sheet, bears.sheets[2]))
    pad = next(p for p in pages_text(document.pdf("dangerous-ideas", state=state)) if "Score pad" in p)
    assert "Porridge for breakfast is healthy held by Mama Bear, Goldilocks 2 6" in pad


def test_unicode_long_memes_and_titles_print_whole() -> None:
    state = setting_game()
    pages = pages_text(document.pdf("dangerous-ideas", state=state))
    sheets = sheet_pages(pages)
    assert len(sheets) == 3  # the long meme stayed inside its sheet
    # At 7 pt or more a very long meme may be cut short with an ellipsis, never spill over.
    # The holder line is one line: a 62-character holder is cut there, shown with an ellipsis.
    assert LONG_MEME[:60] in sheets[0]
    assert LONG_HOLDER in sheets[0] or "The Big Bad Wolf's very long-winded…" in sheets[0]
    assert "Porridge & honey 🍯" in sheets[0] and "Baby Bear 🐝" in sheets[1]
    story = " ".join(p for p in pages if "The story as told" in p)
    assert "Chapter 1: In which Zoë’s 🐻 wanders into the woods" in story
    assert "<b>Zoë & 🐻: Once upon a time… 🐻 <i>not markup</i>" in story


def test_fitted_text_never_overflows() -> None:
    width, height = 140.0, 50.0
    for text in (LONG_MEME, "word " * 400, "x" * 600):
        para = printable._fitted(text, width, height, size=10)
        assert para is not None
        assert para.height <= height and para.width <= width
    short = printable._fitted("short", width, height, size=10)
    assert short is not None and short.style.fontSize == 10  # no shrinking when it fits
    cut = printable._fitted("word " * 400, width, height, size=10)
    assert cut is not None and cut.text.endswith("…")
    assert printable._fitted("word " * 400, width, height, size=10, cut=False) is None


def test_a_meme_of_any_length_keeps_the_sheet_on_one_page(bears: State) -> None:
    # Longer than the rules allow (200 characters), set by hand: the box still holds it.
    sheet = bears.sheets[0]
    huge = dataclasses.replace(sheet.meme("probe-1"), text="A very long meme " * 60)
    sheet = dataclasses.replace(sheet, branches=(huge,) + sheet.branches[1:])
    state = dataclasses.replace(bears, sheets=(sheet,) + bears.sheets[1:])
    pdf = document.pdf("dangerous-ideas", state=state)
    pages = pages_text(pdf, 4)
    assert len(sheet_pages(pages)) == 3 and "Dangerous Ideas · stones" in pages[3]
    assert "A very long meme A very long meme" in pages[0] and "Character sheet · Vegetarianism" in pages[1]
