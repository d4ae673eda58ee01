"""New Rule printables: names print as typed, materials present, sizes, determinism, previews."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pypdf
import pytest
from PIL import Image
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

import rules
from lab.new_rule import balanced_bot
from printables import common, document, fonts
from rules.new_rule import Setup, State, scores, standings, symbol
from tests.support.pdfs import pages_text

NAMES = ("<b>Zoë & 🎲", 'Bo "the bold"', "Cy", "Đi Ångström")
HEADINGS = ("Score pad", "Final scoring worksheet", "New Rule — rules card", "Colour key", "Key cards to cut out")


def play(setup: Setup, seed: int, stop_at_round: int | None = None) -> State:
    """Bots play `setup` to the end, or until `stop_at_round` begins."""
    game = rules.new_game("new-rule", setup, seed)
    rng = random.Random(seed)
    while not game.state.over and (stop_at_round is None or game.state.round < stop_at_round):
        game.apply(balanced_bot(game.state, game.state.waiting_for()[0], rng))
    return game.state


@pytest.fixture(scope="module")
def blank_pdf() -> bytes:
    return document.pdf("new-rule", NAMES)


@pytest.fixture(scope="module")
def finished() -> State:
    # Seed 2 plays to the 12-round limit with two players still in and a non-zero winner.
    state = play(Setup(names=NAMES), seed=2)
    assert state.over
    return state


@pytest.fixture(scope="module")
def filled_pdf(finished: State) -> bytes:
    return document.pdf("new-rule", state=finished, page="letter")


# -- names and headings -------------------------------------------------------------------------
def test_every_name_prints_exactly_as_typed(blank_pdf: bytes) -> None:
    pages = pages_text(blank_pdf)
    for seat, name in enumerate(NAMES):
        assert f"Score pad — {name}" in pages[seat]
    everything = " ".join(pages)
    assert "<b>Zoë & 🎲" in everything  # not read as bold markup, the emoji kept


def test_every_material_has_its_heading(blank_pdf: bytes) -> None:
    everything = " ".join(pages_text(blank_pdf))
    for heading in HEADINGS:
        assert heading in everything
    for colour in ("red", "orange", "yellow", "green", "blue", "brown"):
        assert f"{symbol(Setup(names=('a', 'b', 'c')).colours, colour)} {colour}" in everything


def test_blank_sheets_have_one_pad_per_player_and_twelve_rounds(blank_pdf: bytes) -> None:
    pages = pages_text(blank_pdf)
    assert len(pages) == len(NAMES) + 4  # + worksheet, rules card, colour key, seat slips
    assert "12 ☐ kept ☐ swap" in pages[0] and "13 ☐" not in pages[0]


def test_unnamed_seats_get_a_line_to_write_on() -> None:
    pages = pages_text(document.pdf("new-rule", ["Ana"], players=5))
    assert len(pages) == 5 + 4
    assert "Score pad — Ana" in pages[0]
    assert "Score pad — player: ___" in pages[4] and "Score pad · Player 5" in pages[4]


def test_a_variant_setup_prints_its_colours_and_limit() -> None:
    setup = Setup(names=("Ana", "Bo", "Cy"), colours=("red", "blue", "purple", "<teal>"), max_rounds=None)
    everything = " ".join(pages_text(document.pdf("new-rule", setup=setup)))
    assert "◆ purple" in everything and "<teal>" in everything and "orange" not in everything
    assert "never by a round limit" in everything


# -- pages ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("page", "size"), [("a4", (595.28, 841.89)), ("letter", (612.0, 792.0)), ("Letter", (612.0, 792.0))])
def test_page_sizes(page: str, size: tuple[float, float]) -> None:
    reader = pypdf.PdfReader(io.BytesIO(document.pdf("new-rule", players=3, page=page)))
    for sheet in reader.pages:
        assert (float(sheet.mediabox.width), float(sheet.mediabox.height)) == pytest.approx(size, abs=0.01)


def test_an_unknown_page_size_is_refused() -> None:
    with pytest.raises(ValueError, match=r"unknown page size 'a5'; choose one of: a4, letter"):
        document.pdf("new-rule", NAMES, page="a5")


def test_identical_input_gives_identical_bytes(finished: State, filled_pdf: bytes) -> None:
    assert document.pdf("new-rule", NAMES) == document.pdf("new-rule", list(NAMES))
    assert document.pdf("new-rule", state=finished, page="letter") == filled_pdf
    assert document.pdf("new-rule", NAMES) != document.pdf("new-rule", NAMES, page="letter")


def test_every_page_renders_with_ink(blank_pdf: bytes, filled_pdf: bytes) -> None:
    for pdf in (blank_pdf, filled_pdf):
        for index in range(common.page_count(pdf)):
            grey = common.render_png(pdf, index, scale=0.5).convert("L")
            low, high = grey.getextrema()
            assert low < 80 and high > 240, f"page {index} looks blank"
            dark = sum(grey.histogram()[:128])
            assert dark > 0.002 * grey.width * grey.height, f"page {index} has almost no ink"


def test_png_previews() -> None:
    pdf = document.pdf("new-rule", players=3)
    png = common.png_bytes(pdf, 1, scale=0.3)
    assert png.startswith(b"\x89PNG")
    assert Image.open(io.BytesIO(png)).size == (round(595.28 * 0.3), round(841.89 * 0.3))
    assert document.preview_png("new-rule", players=3, page_index=1, scale=0.3) == png
    count = len(pypdf.PdfReader(io.BytesIO(pdf)).pages)
    with pytest.raises(IndexError, match=f"has {count} page"):
        common.render_png(pdf, count)


# -- print what you played --------------------------------------------------------------------------
def test_a_played_game_fills_the_sheets(finished: State, filled_pdf: bytes) -> None:
    pages = pages_text(filled_pdf)
    table = standings(finished)
    points = scores(finished)
    for seat in range(len(NAMES)):
        rank = next(r for r, s, _ in table if s == seat)
        assert f"score {points[seat]}, rank {rank} (final)" in pages[seat]
        first = next(line for line in finished.pad if line.seat == seat and line.round == 1)
        assert first.picked is not None
        assert f"{symbol(finished.colours, first.picked)} {first.picked}" in pages[seat]
    worksheet = pages[len(NAMES)]
    assert f"The game ended: {finished.ended}." in worksheet
    rank, winner, best = table[0]
    assert best > 0 and f"{NAMES[winner]} wins" in worksheet
    # The winner's row: each scoring colour's count, the smallest, the reds, the score, rank 1.
    bowl = dict(zip(finished.colours, finished.players[winner].bowl))
    reds = bowl.pop("red")
    row = [NAMES[winner], *map(str, bowl.values()), str(best - reds), str(reds), str(best), "1"]
    assert " ".join(row) in worksheet


def test_a_game_in_progress_prints_the_rounds_so_far() -> None:
    state = play(Setup(names=NAMES), seed=2, stop_at_round=3)
    pages = pages_text(document.pdf("new-rule", state=state))
    assert "(as of round 3)" in pages[0]
    assert "Game in progress, round 3" in pages[len(NAMES)]
    line = next(line for line in state.pad if line.seat == 1 and line.round == 2)
    assert line.picked is not None and f"{symbol(state.colours, line.picked)} {line.picked}" in pages[1]
    assert not state.players[1].out and "12 ☐ kept ☐ swap" in pages[1]  # rows left to play by hand


def test_mixed_sources_are_refused(finished: State) -> None:
    with pytest.raises(ValueError, match="from a state alone"):
        document.pdf("new-rule", NAMES, state=finished)
    with pytest.raises(ValueError, match="from a setup alone"):
        document.pdf("new-rule", players=4, setup=finished.setup)
    with pytest.raises(ValueError, match="takes 3-5 players, not 2"):
        document.pdf("new-rule", players=2)
    with pytest.raises(ValueError, match="4 names were given for 3 players"):
        document.pdf("new-rule", NAMES, players=3)
    with pytest.raises(ValueError, match="same name"):
        document.pdf("new-rule", ["Ana", " ana ", "Cy"])
    with pytest.raises(TypeError):
        document.pdf("new-rule", "Ana")


# -- the shared parts -----------------------------------------------------------------------------------
def test_markup_escapes_and_sets_emoji_in_their_font() -> None:
    text = fonts.markup('<b>Zoë & 🎲 "Bo"')
    assert text.startswith("&lt;b&gt;Zoë &amp; ")
    assert fonts.font_for("Zoë 🎲")[-1] == ("PB-emoji", "🎲")
    assert fonts.markup("a\x00b\tc") == "ab c"


def test_characters_no_font_has_do_not_crash() -> None:
    odd = "漢字 \ue000 \U0010fffd 👍🏽"
    fonts._reset_for_tests()  # each is said once a process: an earlier test may have said it
    with pytest.warns(fonts.MissingGlyphWarning) as said:  # the two no font has, said once each
        pdf = common.build_document([common.para(odd), common.heading(odd)], title="odd")
    assert sorted(str(w.message).split()[4] for w in said) == ["U+10FFFD", "U+E000"], [str(w.message) for w in said]
    assert common.page_count(pdf) == 1
    canvas = Canvas(io.BytesIO())
    assert fonts.draw_string(canvas, 0, 0, odd, fonts.BOLD, 9, align="centre") > 0


def test_fit_shrinks_then_cuts() -> None:
    fonts.register()
    text, size = fonts.fit("a very long colour name indeed", fonts.BODY, 10, 20 * mm)
    assert fonts.string_width(text, fonts.BODY, size) <= 20 * mm
    assert text.endswith("…") and size >= 5


def test_slips_with_crop_marks() -> None:
    boxes = common.slip_boxes(100, 200, 2, 4, gutter=10)
    assert len(boxes) == 8
    assert boxes[0] == common.Box(0, 157.5, 45, 42.5) and boxes[-1] == common.Box(55, 0, 45, 42.5)
    drawn: list[int] = []

    def slip(canvas: Canvas, index: int, width: float, height: float) -> None:
        drawn.append(index)
        fonts.draw_string(canvas, 4, height - 12, f"slip {index + 1} · 🎲", fonts.BODY, 9)

    pdf = common.build_document(common.slip_pages(11, slip, columns=2, rows=4), title="slips", page="letter")
    assert common.page_count(pdf) == 2 and drawn == list(range(11))
    assert "slip 11 · 🎲" in pages_text(pdf)[1]
    with pytest.raises(ValueError, match="at most 8"):
        common.SlipSheet(9, slip, columns=2, rows=4)


def test_styles_are_looked_up_by_name() -> None:
    assert common.style("h1").fontName == fonts.BOLD
    with pytest.raises(KeyError, match="no style 'nope'"):
        common.style("nope")


def test_dejavu_is_found_in_matplotlib_when_the_system_lacks_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(fonts, "SYSTEM_DEJAVU", tmp_path)
    dirs = fonts._dejavu_dirs()
    for filename in fonts.FACE_FILES.values():
        assert any((d / filename).is_file() for d in dirs), filename
