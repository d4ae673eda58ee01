"""Danger World printables: names as typed, sheets and GM screen present, odds from the rules
model, page sizes, determinism, previews, and sheets filled from a played game."""

from __future__ import annotations

import io
from fractions import Fraction

import pypdf
import pytest
from PIL import Image

from printables import common, document
from printables import danger_world as printable
from rules import danger_world as dw
from rules.core import Game
from rules.danger_world import (
    ApplyHit,
    BeginCheck,
    ChooseSet,
    CreateCharacter,
    GmOption,
    InjuryStat,
    Roll,
    SetAspects,
    SetStats,
    SpendBotches,
    success_chance,
)
from rules.games import card
from tests.support.pdfs import pages_text

NAMES = ("<b>Zoë & 🐉", 'Bo "the bold"', "Đi Ångström")
SHEET_HEADINGS = ("STATS", "PHYSICAL", "MENTAL", "ASPECTS", "STORY POINTS", "BONUS DICE", "DANGER", "ZONE RANK", "DAMAGE TRACK", "NOTES")
SCREEN_HEADINGS = ("GM screen", "HOW A CHECK WORKS", "OUTCOME", "PC DIFFICULTIES", "GM OPTIONS", "SPECIAL DICE", "STORY POINT POOL", "DANGER AND ZONES", "ODDS OF SUCCESS", "DAMAGE TRACK")
STAT_NAMES = ("Agility", "Endurance", "Speed", "Strength", "Perception", "Reasoning", "Charisma", "Cool")
SECTIONS = ("Bashed", "Stunned", "Injured", "K.O.'d", "Dead")
#: what the played game's first character ends up with (see `played`).
STATS = (4, 1, 3, 1, 3, 2, 1, 1)
ASPECTS = ("<i>Quick</i> hands & 🐉 eyes", "Owes the guild", "Loyal to a fault")
GM = 2  # the GM's seat with two players


def played() -> dw.State:
    """A game through the rules: a sheet made then revised, a check won with a benefit and a
    botch, then hits down the track to the first Injured box (Speed lowered)."""
    game = Game(dw.RULES, dw.Setup(names=NAMES[:2], gm="Morgan"), seed=5, auto_chance=False)
    actions = [
        CreateCharacter(seat=0, character=0, stats=(2,) * 8, aspects=("Old one", "Old two", "Old three")),
        SetStats(seat=0, character=0, stats=STATS),
        SetAspects(seat=0, character=0, aspects=ASPECTS),
        BeginCheck(seat=0, character=0, stats=("agility", "perception"), difficulty=2),
        Roll(normal=(4, 4, 4, 4, 1, 2, 3)),
        ChooseSet(seat=0, height=4),  # 4 against 2: success and a 2-dice benefit
        SpendBotches(seat=GM, options=(GmOption("danger"),)),  # the botch: danger 1
        ApplyHit(seat=GM, character=0, hit="full"),  # zone 1: Bashed 1
        *[ApplyHit(seat=GM, character=0, hit="reduced") for _ in range(6)],  # Bashed 3, Stunned 3, Injured 1
        InjuryStat(character=0, stat="speed"),
    ]
    for action in actions:
        game.apply(action)
    return game.state


@pytest.fixture(scope="module")
def blank_pdf() -> bytes:
    return document.pdf("danger-world", NAMES)


@pytest.fixture(scope="module")
def blank_pages(blank_pdf: bytes) -> list[str]:
    return pages_text(blank_pdf)


@pytest.fixture(scope="module")
def state() -> dw.State:
    state = played()
    hero = state.characters[0]
    assert hero.damage == (3, 3, 1, 0, 0) and hero.lowered == (0, 0, 1, 0, 0, 0, 0, 0)
    assert hero.danger == 1 and [b.dice for b in hero.bonus] == [2] and hero.aspects == ASPECTS
    return state


@pytest.fixture(scope="module")
def filled_pdf(state: dw.State) -> bytes:
    return document.pdf("danger-world", state=state, page="letter")


# -- names, headings, page order ------------------------------------------------------------------
def test_names_print_exactly_as_typed(blank_pages: list[str]) -> None:
    pages = blank_pages
    for index, name in enumerate(NAMES):
        assert f"CHARACTER PLAYER {name} GM" in pages[index]  # a blank sheet's name is its player
        assert f"Character sheet · {name}" in pages[index]
    assert "<b>Zoë & 🐉" in pages[0]  # not read as bold markup, the emoji kept


def test_page_order_is_the_sheets_then_the_gm_screen(blank_pages: list[str]) -> None:
    pages = blank_pages
    assert len(pages) == len(NAMES) + 3  # the sheets, the two-page GM screen, the rules card
    assert all("Character sheet · " in page for page in pages[: len(NAMES)])
    assert "GM screen · checks and botches" in pages[-3] and "Danger World — rules card" in pages[-1]
    assert "GM screen · odds and damage" in pages[-2]


def test_every_sheet_has_its_panels_stats_and_track(blank_pages: list[str]) -> None:
    for page in blank_pages[: len(NAMES)]:
        for heading in SHEET_HEADINGS:
            assert heading in page
        for stat in STAT_NAMES:
            assert stat in page
        for zone, section in enumerate(SECTIONS, 1):
            assert f"ZONE {zone} {section}" in page  # the damage track, a column per zone
            assert f"ZONE {zone}" in page
        assert "0 1 2 3 4 5 6 7 8 9 10" in page and "23 24+" in page  # the danger levels
        assert "1 die each + 8 more, none above 4, 16 in all" in page
        assert "Short rest: clears Bashed and Stunned. Long rest: also clears Injured" in page


def test_the_gm_screen_has_its_sections(blank_pages: list[str]) -> None:
    screen = " ".join(blank_pages[-3:-1])
    for heading in SCREEN_HEADINGS:
        assert heading in screen
    for height, word in ((2, "minor"), (3, "meaningful"), (4, "significant"), (5, "major"), (6, "huge")):
        assert f"{height} {word} accomplishment" in screen
    # GM options by cost: narrative and mechanical.
    for row in (
        "1 – the character's danger +1 or a penalty die on a challenge",
        "2 minor setback reduced hit",
        "3 meaningful setback –",
        "4 significant setback full hit",
        "5 major setback –",
        "6 huge setback overload hit",
    ):
        assert row in screen
    assert "Reduced hit (2 botches): the left-most empty box of the whole track." in screen
    assert "Overload hit (6 botches): as a full hit, and every box of every section to its left." in screen


def test_unnamed_characters_get_lines_to_write_on() -> None:
    pages = pages_text(document.pdf("danger-world", ["Ana"], players=3))
    assert len(pages) == 3 + 3
    assert "CHARACTER PLAYER Ana GM" in pages[0]
    assert "Character sheet · Character 3" in pages[2] and "seat 3" in pages[2]
    assert common.page_count(document.pdf("danger-world")) == card("danger-world").players.default + 3


def test_a_setup_prints_its_variants() -> None:
    setup = dw.Setup(names=("Ana",), gm="Morgan", story_points=5, sheet_dice=20, rerolls=1, pool_start=2)
    pages = pages_text(document.pdf("danger-world", setup=setup))
    assert "1 die each + 12 more, none above 4, 20 in all" in pages[0]
    assert "5 SP at the start of each session" in pages[0] and "GM Morgan" in pages[0]
    assert "GM: Morgan · 5 SP per player a session · pool starts at 2 · 1 re-roll a check · 20 dice per sheet" in pages[1]
    assert "no re-roll 1 re-roll" in pages[2]  # the odds table follows the re-roll variant


def test_the_default_gm_name_is_left_to_write_in_and_no_rerolls_means_one_column() -> None:
    pages = pages_text(document.pdf("danger-world", setup=dw.Setup(names=("Ana",), rerolls=0)))
    assert "GM: ____" in pages[1] and "0 re-rolls a check" in pages[1]
    assert "Roll everything, once: this table plays without re-rolls." in pages[1]
    assert "no re-roll 2 3% — — — — 3 8% <1% — — —" in pages[2] and "2 re-rolls" not in pages[2]


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"players": 0}, ValueError),
        ({"players": 13}, ValueError),
        ({"names": ["Ana", "Bo"], "players": 1}, ValueError),
        ({"names": "Ana"}, TypeError),
        ({"names": ["Ana"], "setup": dw.Setup(names=("Bo",))}, ValueError),
    ],
)
def test_bad_inputs_are_refused(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        document.story("danger-world", **kwargs)


# -- the odds table -------------------------------------------------------------------------------
def test_the_odds_table_prints_the_rules_models_chances(blank_pages: list[str]) -> None:
    odds_page = blank_pages[-2]
    for dice in (2, 5, 7, 12):
        cells = [printable.percent(success_chance(dice, d, 0, r)) for d in range(2, 7) for r in (0, 2)]
        assert f"{dice} {' '.join(cells)} " in odds_page
    # A few cells spelled out, so a formatting slip cannot hide behind the same call above.
    assert printable.percent(success_chance(8, 4, 0, 2)) == "50%"
    assert "8 53% 98% 17% 81% 4% 50%" in odds_page


def test_the_odds_table_is_computed_once_per_process() -> None:
    table = printable.odds_table()
    assert printable.odds_table() is table
    assert len(table) == 11 * 5 * 2
    assert table[(7, 4, 2)] == success_chance(7, 4, 0, 2)
    small = printable.odds_table((3,), (2, 3), (0,))
    assert dict(small) == {(3, 2, 0): success_chance(3, 2, 0, 0), (3, 3, 0): success_chance(3, 3, 0, 0)}


@pytest.mark.parametrize(
    ("chance", "text"),
    [
        (Fraction(0), "—"),
        (Fraction(1), "100%"),
        (Fraction(1, 1000), "<1%"),
        (Fraction(999, 1000), ">99%"),
        (Fraction(1, 2), "50%"),
        (Fraction(1, 8), "13%"),  # 12.5 rounds half up, on the exact fraction
        (Fraction(1, 36), "3%"),
    ],
)
def test_percent(chance: Fraction, text: str) -> None:
    assert printable.percent(chance) == text


# -- pages, bytes, previews -----------------------------------------------------------------------
@pytest.mark.parametrize(("page", "size"), [("a4", (595.28, 841.89)), ("letter", (612.0, 792.0)), ("Letter", (612.0, 792.0))])
def test_page_sizes(page: str, size: tuple[float, float]) -> None:
    pdf = document.pdf("danger-world", players=1, page=page)
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 4  # one sheet, the two-page GM screen and the rules card, on either size
    for sheet in reader.pages:
        assert (float(sheet.mediabox.width), float(sheet.mediabox.height)) == pytest.approx(size, abs=0.01)


def test_an_unknown_page_size_is_refused() -> None:
    with pytest.raises(ValueError, match=r"unknown page size 'a5'; choose one of: a4, letter"):
        document.pdf("danger-world", NAMES, page="a5")


def test_identical_input_gives_identical_bytes(blank_pdf: bytes, state: dw.State, filled_pdf: bytes) -> None:
    assert document.pdf("danger-world", list(NAMES)) == blank_pdf
    assert document.pdf("danger-world", state=state, page="letter") == filled_pdf
    assert document.pdf("danger-world", NAMES, page="letter") != blank_pdf


def test_every_page_renders_with_ink(blank_pdf: bytes, filled_pdf: bytes) -> None:
    for pdf in (blank_pdf, filled_pdf):
        for index in range(common.page_count(pdf)):
            grey = common.render_png(pdf, index, scale=0.5).convert("L")
            low, high = grey.getextrema()
            assert low < 80 and high > 240, f"page {index} looks blank"
            dark = sum(grey.histogram()[:128])
            assert dark > 0.002 * grey.width * grey.height, f"page {index} has almost no ink"


def test_png_previews() -> None:
    pdf = document.pdf("danger-world", players=1)
    png = common.png_bytes(pdf, 2, scale=0.3)
    assert png.startswith(b"\x89PNG")
    assert Image.open(io.BytesIO(png)).size == (round(595.28 * 0.3), round(841.89 * 0.3))
    assert document.preview_png("danger-world", players=1, page_index=2, scale=0.3) == png
    with pytest.raises(IndexError, match="has 4 page"):
        common.render_png(pdf, 4)


# -- print what you played --------------------------------------------------------------------------
def test_a_played_game_fills_the_sheets(state: dw.State, filled_pdf: bytes) -> None:
    pages = pages_text(filled_pdf)
    assert len(pages) == 2 + 3
    hero = pages[0]
    assert "CHARACTER <b>Zoë & 🐉 PLAYER GM Morgan" in hero
    # The revised stats (Speed lowered by the injury), not the first draft of the sheet.
    assert "Agility 4 Endurance 1 Speed 2 injured −1 (sheet 3) Strength 1" in hero
    assert "Perception 3 Reasoning 2 Charisma 1 Cool 1" in hero
    assert "1 <i>Quick</i> hands & 🐉 eyes 2 Owes the guild 3 Loyal to a fault" in hero and "Old one" not in hero
    assert "3 SP Invoke" in hero
    assert "ZONE 1 Bashed 3/3" in hero and "ZONE 2 Stunned 3/3" in hero and "ZONE 3 Injured 1/3" in hero
    assert "ZONE 4 K.O.'d 0/1" in hero and "Lowered: Speed −1" in hero
    assert "now: +3 penalty dice, −3 pool dice" in hero
    assert "ZONE RANK 1" in hero
    pool = state.characters[0].bonus[0]
    assert f"2 {pool.source}" in hero
    # Bo has not made a sheet yet: his page keeps the blank stat note.
    assert "1 die each + 8 more, none above 4, 16 in all" in pages[1]
    roster = pages[-2]
    assert "AT THE TABLE" in roster and "<b>Zoë & 🐉 3 1 1 3/3 · 3/3 · 1/3 · 0/1 · 0/1 2 ready" in roster


def _darkness(image: Image.Image, page: str, box: common.Box, fx: float, fy: float, scale: float) -> int:
    """The grey level at the point (fx, fy) of `box` (fractions of its size from its bottom-left)
    on a rendered sheet: the sheet fills the frame, so its origin is the frame's corner."""
    _, height = common.page_size(page)
    x = (common.MARGIN_SIDE + box.x + fx * box.width) * scale
    y = (height - common.MARGIN_BOTTOM - box.y - fy * box.height) * scale
    return image.getpixel((round(x), round(y)))


def test_the_filled_boxes_are_drawn_where_the_layout_puts_them(filled_pdf: bytes) -> None:
    page, scale = "letter", 2.0
    image = common.render_png(filled_pdf, 0, scale=scale).convert("L")
    layout = printable.sheet_layout(*common.frame_size(page))
    # Damage: a crossed box is dark at its centre, where the two strokes of the X meet.
    centres = [[_darkness(image, page, b, 0.5, 0.5, scale) for b in section] for section in layout.damage_boxes]
    crossed = [[level < 100 for level in section] for section in centres]
    assert crossed == [[True] * 3, [True] * 3, [True, False, False], [False], [False]], centres
    # Stat dice, off the centre (a filled die has a white pip there): solid, slashed grey, or white.
    expected = {
        "agility": "FFFF",
        "endurance": "F...",
        "speed": "FFL.",  # sheet 3, one die lost to the injury
        "perception": "FFF.",
    }
    for stat, marks in expected.items():
        row = layout.dice[dw.STATS.index(stat)]
        levels = [_darkness(image, page, die, 0.78, 0.3, scale) for die in row]
        seen = "".join("F" if v < 90 else "L" if v < 235 else "." for v in levels)
        assert seen == marks, (stat, levels)
    # Danger 1: level 1 solid, level 0 passed (light grey), level 2 untouched.
    corner = [_darkness(image, page, layout.danger_boxes[i], 0.2, 0.2, scale) for i in range(3)]
    assert corner[1] < 90 and 150 < corner[0] < 240 and corner[2] > 240, corner


def test_a_blank_sheet_has_one_die_per_stat_and_empty_boxes(blank_pdf: bytes) -> None:
    page, scale = "a4", 2.0
    image = common.render_png(blank_pdf, 0, scale=scale).convert("L")
    layout = printable.sheet_layout(*common.frame_size(page))
    for row in layout.dice:
        assert [_darkness(image, page, die, 0.78, 0.3, scale) < 90 for die in row] == [True, False, False, False]
    for section in layout.damage_boxes:
        assert all(_darkness(image, page, b, 0.5, 0.5, scale) > 150 for b in section)


def test_mixed_sources_are_refused(state: dw.State) -> None:
    with pytest.raises(ValueError, match="print from a state alone"):
        document.pdf("danger-world", NAMES, state=state)
