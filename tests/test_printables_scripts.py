"""Every script prints as typed, on every game's materials, on A4 and Letter: names in Latin
with accents, Chinese, Japanese, Korean, Arabic, Hebrew, Hindi, emoji and markup."""

from __future__ import annotations

import warnings

import pytest

from playbook.classes import table_sizes
from printables import common, document, fonts, pack, slips
from tests.support.pdfs import pages_text, text_runs

NAMES = ("Zoë Ångström", "李明", "さくら", "김민준", "محمد", "דוד", "प्रिया", "🦠 Bo 🧸", "<b>x</b> &amp; </para>")
RTL = ("محمد", "דוד")
GAMES = {"new-rule": NAMES[:5], "leerdam": NAMES, "danger-world": NAMES, "dangerous-ideas": NAMES}
PRINTABLE_MARGIN = 5 * 72 / 25.4  # 5 mm: what a home printer cannot reach


def _check(pdf: bytes, names: tuple[str, ...]) -> None:
    text = " ".join(pages_text(pdf))
    for name in names:
        if name not in RTL:
            assert name in text, name
    runs, sizes = text_runs(pdf)
    small = [r for r in runs if r.size < fonts.MIN_SIZE - 0.01 and r.codes.strip()]
    assert not small, small[:3]
    assert not [r for r in runs if 0 in r.codes], "a .notdef glyph was drawn"
    for run in runs:
        width, height = sizes[run.page]
        for x, y in (run.start, run.end):
            assert PRINTABLE_MARGIN <= x <= width - PRINTABLE_MARGIN + 0.5 and PRINTABLE_MARGIN <= y <= height - PRINTABLE_MARGIN, run


@pytest.mark.heavy
@pytest.mark.parametrize("page", ["a4", "letter"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_name_in_every_script(game: str, page: str) -> None:
    names = GAMES[game]
    players = min(len(names), {"new-rule": 5, "dangerous-ideas": 10}.get(game, 12))
    _check(document.pdf(game, names[:players], page=page), names[:players])


def test_every_character_of_every_name_is_in_the_font_chosen_for_it() -> None:
    for name in NAMES:
        for font, typed in fonts.font_for(name):
            assert fonts.MISSING not in typed, name
            face = fonts.pdfmetrics.getFont(font).face
            cmap = face.cmap if isinstance(face, fonts.ShapedFace) else face.charToGlyph
            assert all(ord(ch) in cmap or ch in " \u200d\ufe0f" for ch in typed), (name, font)


def test_right_to_left_names_are_shaped_and_read_right_to_left() -> None:
    assert [f for f, _ in fonts.font_for("محمد")] == ["PB-arabic"]
    pieces = fonts._visual(fonts._pieces("Ana واحد اثنان", fonts.BODY))
    texts = [fonts._ALIAS_TEXT.get(ord(run[0]), run) for _, run in pieces]
    assert texts[-3:] == ["اثنان", " ", "واحد"]  # the second word is drawn first, on the left


def test_a_character_no_font_has_is_reported_once_and_marked() -> None:
    fonts._reset_for_tests()
    with pytest.warns(fonts.MissingGlyphWarning, match=r"U\+E000"):
        assert fonts.font_for("a\ue000")[-1][1].endswith(fonts.MISSING)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fonts.markup("b\ue000")  # reported already: no second warning


@pytest.mark.parametrize(("players", "tables"), [(1, []), (2, []), (3, [3]), (10, [5, 5]), (11, [4, 4, 3]), (20, [5, 5, 5, 5])])
def test_new_rule_splits_into_tables_of_three_to_five(players: int, tables: list[int]) -> None:
    assert pack.split(players, 3, 5) == tables


@pytest.mark.heavy
def test_the_pack_for_twelve_has_contents_and_every_game() -> None:
    people = NAMES + ("Ana", "Bo", "Cy")
    parts, notes = pack.plan(12, people)
    assert [p.game for p in parts] == ["new-rule"] * 3 + ["leerdam"] * 2 + ["danger-world", "dangerous-ideas", "dangerous-ideas"]
    assert parts[5].gm == NAMES[0] and len(parts[5].names) == 11
    # Over 10 households the text runs two villages: split as evenly as a class is dealt.
    villages = [p for p in parts if p.game == "leerdam"]
    assert [len(v.names) for v in villages] == table_sizes(12, "leerdam") == [6, 6]
    assert villages[0].names + villages[1].names == people
    assert notes == ["Leerdam is written for 5-10 households: 12 play as 2 villages side by side (6 and 6)."]
    assert [len(p.names) for p in pack.plan(11)[0] if p.game == "leerdam"] == table_sizes(11, "leerdam") == [6, 5]
    assert [len(p.names) for p in pack.plan(10)[0] if p.game == "leerdam"] == [10] and pack.plan(10)[1] == []
    pdf = pack.build_pdf(12, people, page="letter")
    pages = pages_text(pdf)
    assert pages[0].startswith("Contents") and "Leerdam, village 1 of 2: 6 households" in pages[0]
    assert "Leerdam, village 2 of 2: 6 households" in pages[0] and "Leerdam: 12 households" not in pages[0]
    assert "New Rule, table 2 of 3" in pages[0]
    assert pack.plan(1)[0] == [] and len(pack.plan(1)[1]) == 4


def test_seat_slips_with_qr_codes_and_blank() -> None:
    links = '{"board": "b", "facilitator": "f", "seats": [{"seat": 1, "name": "", "url": "http://x/?seat=1"}, {"seat": 0, "name": "李明", "url": "http://x/?seat=0"}]}'
    seats = slips.seat_links(links)
    assert seats == [("李明", "http://x/?seat=0"), ("Seat 2", "http://x/?seat=1")]
    pdf = common.build_document(slips.seat_slips(seats, game_title="New Rule") + slips.seat_slips(None, game_title="Leerdam", players=3), title="s", bleed=True)
    text = " ".join(pages_text(pdf))
    assert "李明" in text and "http://x/?seat=0" in text and "Join code" in text
    with pytest.raises(ValueError, match="links JSON"):
        slips.seat_links('{"seats": [{"name": "x"}]}')


def test_booklet_is_imposed_two_half_pages_a_sheet() -> None:
    assert common.booklet_order(4) == [(3, 0), (1, 2)]
    assert common.booklet_order(5)[0] == (None, 0)
    pdf = pack.booklet_pdf(page="letter")
    runs, sizes = text_runs(pdf)
    letter = common.page_size("letter")
    assert sizes and all((w, h) == pytest.approx((letter[1], letter[0])) for w, h in sizes)  # landscape Letter sheets
    assert len(sizes) % 2 == 0  # printed on both sides
    # Two half pages a sheet: text on both halves, none across the fold.
    halves = {(r.page, r.start[0] >= sizes[r.page][0] / 2) for r in runs if r.codes.strip()}
    assert any((page, False) in halves and (page, True) in halves for page in range(len(sizes)))
    assert not [r for r in runs if r.codes.strip() and r.start[0] < sizes[r.page][0] / 2 - 0.5 < r.end[0]]
    assert "New Rule" in pages_text(pdf)[0]  # the first half page (the New Rule card) is on the first side
    assert min(r.size for r in runs if r.codes.strip()) >= fonts.MIN_SIZE - 0.01
    assert pack.booklet_pdf(page="a4") == pack.booklet_pdf(page="a4")


def test_slips_for_nobody_and_a_story_of_nothing_are_refused_not_an_empty_pdf() -> None:
    # An all-bot table once gave a 0-page file that viewers reject: now there is no file at all.
    with pytest.raises(ValueError, match="no seats"):
        slips.seat_slips([], game_title="Leerdam")
    with pytest.raises(ValueError, match="no seats"):
        slips.seat_slips(None, game_title="Leerdam", players=0)
    with pytest.raises(ValueError, match="no pages"):
        common.build_document([], title="Leerdam: seat slips")
    pdf = common.build_document(slips.seat_slips([("Ana", "http://x/?seat=0")], game_title="Leerdam"), title="Leerdam: seat slips")
    assert pdf.startswith(b"%PDF") and common.page_count(pdf) == 1
    assert "Seat slips" in pages_text(pdf)[0] and "Ana" in pages_text(pdf)[0]


def test_right_to_left_names_in_a_list_keep_their_places() -> None:
    """Two Arabic names with a comma between them were one right-to-left run, printed in
    reverse order ("B ,A"). The text is read in drawing order (left to right on the page)."""
    first, second = "محمد علي", "فاطمة الزهراء"
    pdf = pack.build_pdf(4, (first, second, "Ana", "Bo"))
    contents = pages_text(pdf)[0]
    line = contents[contents.index("New Rule: 4 players") :]
    # Left to right: the first name (its words right to left), the second, then Ana and Bo.
    assert line.index("علي") < line.index("محمد") < line.index("الزهراء") < line.index("فاطمة") < line.index("Ana")
    gm = contents[contents.index("GM ") :]
    assert gm.index("محمد") < gm.index("فاطمة") < gm.index("Ana")  # "GM A · B, ..." keeps its order too
    # A list of left-to-right names is exactly as before: no mark is added.
    assert fonts.name_list(["Ana", "Bo"], last=" and ") == "Ana and Bo"
    assert fonts.name_list([first, second, "Ana"], last=" and ") == f"{first}, \u200e{second} and \u200eAna"
