"""Leerdam printables: names as typed, every material, the board's numbers, sizes, determinism,
previews, print what you played (chronicle, standings) and what stays secret."""

from __future__ import annotations

import io
import re

import pypdf
import pytest
from reportlab.platypus import PageBreak

import rules
from lab import BOTS as LAB_BOTS
from lab.core import play_out
from printables import common, document
from printables import leerdam as printable
from rules.core import rng_for
from rules.leerdam import Setup, State, final_divisor, ledger_rows, standings
from tests.support.pdfs import pages_text

NAMES = ("<b>Zoë & 🌊", 'Bo "the bold"', "Cy", "Đi Ångström", "Eve", "Fay", "Gus")
BLANK_HEADINGS = (
    "Leerdam — village board",
    "Dyke track",
    "Pledges to the dyke",
    "Years",
    "Misfortune",
    "Allocation",
    "A year",
    "Household ledger",
    "End of the game",
    "Village record",
    "Final standings",
    "Contribution slips",
    "LEERDAM · SECRET PLEDGE",
    "Labour contracts",
    "LEERDAM · LABOUR CONTRACT",
)
MINUS = "\u2212"


def board_text(page: str = "a4", **source: object) -> list[str]:
    """The text of the board's page(s) alone: the story up to its first page break, built
    on its own (the whole document takes ten times longer)."""
    story = document.story("leerdam", page=page, **source)
    end = next(i for i, f in enumerate(story) if isinstance(f, PageBreak))
    return pages_text(common.build_document(story[:end], page=page, title="board"))


def bot_game(setup: Setup, seed: int = 5) -> State:
    """Fair bots (one unit to the dyke each) play `setup` to the end."""
    game = rules.new_game("leerdam", setup, seed)
    return play_out(game, [LAB_BOTS["leerdam"]["fair"]] * setup.households, rng_for(1, 1)).state


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


@pytest.fixture(scope="module")
def blank_pdf() -> bytes:
    return document.pdf("leerdam", NAMES)


@pytest.fixture(scope="module")
def blank_pages(blank_pdf: bytes) -> list[str]:
    return pages_text(blank_pdf)


@pytest.fixture(scope="module")
def finished() -> State:
    state = bot_game(Setup(names=NAMES))
    assert state.over and any(y.flooded for y in state.years)
    return state


@pytest.fixture(scope="module")
def filled_pdf(finished: State) -> bytes:
    return document.pdf("leerdam", state=finished, page="letter")


# -- names and materials ----------------------------------------------------------------------------
def test_every_name_prints_exactly_as_typed(blank_pages: list[str]) -> None:
    pages = blank_pages
    for seat, name in enumerate(NAMES):
        assert f"Household ledger — {name}" in pages[1 + seat]  # the board first, then a page each
    everything = " ".join(pages)
    assert "<b>Zoë & 🌊" in everything  # not read as bold markup, the emoji kept
    slips = " ".join(p for p in pages if "SECRET PLEDGE" in p)
    assert all(name in slips for name in NAMES)


def test_every_material_has_its_heading(blank_pages: list[str]) -> None:
    everything = " ".join(blank_pages)
    for heading in BLANK_HEADINGS:
        assert heading in everything, heading
    assert "Village chronicle" not in everything  # only when printing a game


def test_page_order_and_count(blank_pages: list[str]) -> None:
    pages = blank_pages
    # Board, 7 ledgers, the record, 7 x 12 pledge slips at 24 a page, one sheet of 8 contracts,
    # one of 7 seat slips, the rules card.
    assert len(pages) == 1 + 7 + 1 + 4 + 1 + 1 + 1
    assert pages[0].startswith("Leerdam — village board")
    assert pages[8].startswith("Village record")
    assert all("SECRET PLEDGE" in p for p in pages[9:13]) and "LABOUR CONTRACT" in pages[13]
    assert "Household ledger — Eve" in pages[5]


def test_default_is_seven_households_and_unnamed_ones_get_a_line() -> None:
    assert "With 7 households" in board_text()[0]
    pages = pages_text(document.pdf("leerdam", ["Ana"], players=4), 7)  # board, 4 ledgers, record, slips
    assert "Household ledger — Ana" in pages[1]
    assert "Household ledger — ____" in pages[4] and "Household ledger · Household 4" in pages[4]
    slips = " ".join(p for p in pages if "SECRET PLEDGE" in p)
    assert "Household Year 1 Capacity" in slips  # a line to write the name on


# -- the board's numbers -------------------------------------------------------------------------------
@pytest.mark.parametrize(("households", "low", "high"), [(5, 3, 6), (7, 5, 8), (10, 8, 11)])
def test_the_board_shows_this_villages_thresholds(households: int, low: int, high: int) -> None:
    [board] = board_text(players=households)
    assert f"With {households} households: fewer than {low} units pledged lowers the dyke by 1" in board
    assert f"{low} to {high} hold it, more than {high} raise it by 1" in board
    assert f"dyke {MINUS}1" in board and "dyke holds" in board and f"{high + 1}+" in board


def test_the_board_shows_divisors_odds_and_schedules() -> None:
    [board] = board_text()
    assert [final_divisor(d) for d in range(1, 7)] == [23, 20, 17, 14, 11, 8]
    assert re.search(r"Final scoring: 1 VP per … Wealth 23 20 17 14 11 8\b", board)
    assert "Chance of a flood 5 in 6 (83%) 4 in 6 (67%) 3 in 6 (50%) 2 in 6 (33%) 1 in 6 (17%) never" in board
    assert "A 6 drops it again" + " 1 in 6 (17%)" * 6 in board
    assert f"Capacity lost {MINUS}2 {MINUS}1 none none none none" in board
    assert f"Subsistence VP {MINUS}5 {MINUS}2 0 0" in board
    assert "Profit Wealth in all 0 10 19 27 34 40 45" in board
    assert "3start" in board.replace(" ", "")  # the dyke's starting space is marked
    assert "From year 8 on, roll a d6 at the end of each year: 1–3 ends the game." in board


def test_a_variant_setup_prints_its_numbers() -> None:
    setup = Setup(
        names=("Ana", "Bo", "Cy", "Di"),
        misfortune=(3, 1, 0, 0, 0, 0),
        dyke_start=5,
        end_check_from=4,
        max_years=6,
    )
    pages = pages_text(document.pdf("leerdam", setup=setup))
    assert f"Capacity lost {MINUS}3 {MINUS}1" in pages[0] and "5start" in pages[0].replace(" ", "")
    assert "It ends after year 6 at the latest" in pages[0]
    ledger = pages[1]
    assert " 6 end roll " in f" {ledger} " and " 7 " not in ledger.split("VP total")[1]
    # Six years of slips per household: 4 x 6 = 24, one page.
    assert sum("SECRET PLEDGE" in p for p in pages) == 1 and "Year 6" in pages[-4] and "Year 7" not in pages[-4]


# -- pages ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("page", "size"), [("a4", (595.28, 841.89)), ("letter", (612.0, 792.0)), ("Letter", (612.0, 792.0))])
def test_page_sizes(page: str, size: tuple[float, float]) -> None:
    reader = pypdf.PdfReader(io.BytesIO(document.pdf("leerdam", players=3, page=page)))
    for sheet in reader.pages:
        assert (float(sheet.mediabox.width), float(sheet.mediabox.height)) == pytest.approx(size, abs=0.01)


def test_the_board_is_one_page_on_both_sizes(blank_pages: list[str]) -> None:
    # Letter is the shorter page; the biggest village has the longest pledge scale.
    for page in ("letter", "a4"):
        [board] = board_text(page, players=20)
        assert "A year" in board and "6. End" in board, page
    assert "6. End" in blank_pages[0] and blank_pages[1].startswith("Household ledger")


def test_an_unknown_page_size_is_refused() -> None:
    with pytest.raises(ValueError, match=r"unknown page size 'a5'; choose one of: a4, letter"):
        document.pdf("leerdam", NAMES, page="a5")


def test_identical_input_gives_identical_bytes(blank_pdf: bytes, finished: State, filled_pdf: bytes) -> None:
    assert document.pdf("leerdam", list(NAMES)) == blank_pdf
    assert document.pdf("leerdam", state=finished, page="letter") == filled_pdf


def test_every_page_renders_with_ink(blank_pdf: bytes, filled_pdf: bytes) -> None:
    for pdf in (blank_pdf, filled_pdf):
        for index in range(common.page_count(pdf)):
            # Full scale: at half scale the slips' thin lines and small text turn mid-grey.
            grey = common.render_png(pdf, index, scale=1.0).convert("L")
            low, high = grey.getextrema()
            assert low < 80 and high > 240, f"page {index} looks blank"
            dark = sum(grey.histogram()[:128])
            assert dark > 0.002 * grey.width * grey.height, f"page {index} has almost no ink"


def test_png_preview() -> None:
    png = document.preview_png("leerdam", players=3, page_index=1, scale=0.3)
    assert png.startswith(b"\x89PNG")
    assert png == common.png_bytes(document.pdf("leerdam", players=3), 1, scale=0.3)


# -- print what you played ---------------------------------------------------------------------------
def test_a_finished_game_prints_ledgers_standings_and_chronicle(finished: State, filled_pdf: bytes) -> None:
    pages = pages_text(filled_pdf)
    everything = " ".join(pages)
    n = len(NAMES)
    for seat, household in enumerate(finished.households):
        rank = next(r for r, s, _ in standings(finished) if s == seat)
        assert f"Seat {seat + 1} · {household.vp} VP · {household.wealth} Wealth" in pages[1 + seat]
        assert f"rank {rank} (final)" in pages[1 + seat]
        first = next(r for r in finished.ledger if r.seat == seat and r.year == 1)
        misfortune = f"{MINUS}{first.misfortune}" if first.misfortune else "0"
        row = f"1 {misfortune} {first.capacity} {first.contribution} {first.subsistence} {first.leisure} {first.profit}"
        assert row in pages[1 + seat]
    # The standings: rank, name, Wealth, Flooded, dyke, final VP and total for every household.
    record = " ".join(p for p in pages if "Village record" in p)
    finals = {r.seat: r.vp_final for r in finished.ledger if r.year == finished.year}
    ranks = [r for r, _, _ in standings(finished)]
    for rank, seat, vp in standings(finished):
        household = finished.households[seat]
        shown = f"{rank}=" if ranks.count(rank) > 1 else str(rank)
        flooded = "yes" if household.flooded else "no"
        assert f"{shown} {NAMES[seat]} {household.wealth} {flooded} {finished.dyke} {signed(finals[seat])} {vp}" in record
    assert f"The game ended: {finished.ended}." in record
    # The chronicle: every public line, in order, and none of the private ones.
    public = [str(e.text) for e in finished.log if e.visible(None)]
    assert public[-1].startswith("Final VP: ") and public[-1] in everything
    assert "Village chronicle" in everything
    assert next(t for t in public if t.startswith("Flood strength")) in everything
    private = next(str(e.text) for e in finished.log if not e.visible(None))
    assert private.startswith("You pledged") and "You pledged" not in everything
    # Nothing left to pledge or hire: no slips after the game.
    assert "SECRET PLEDGE" not in everything and "LABOUR CONTRACT" not in everything
    assert len(pages) > n + 2


def test_the_record_shows_every_year_and_every_pledge(finished: State, filled_pdf: bytes) -> None:
    record = " ".join(p for p in pages_text(filled_pdf) if "Village record" in p)
    for y in finished.years:
        flooded = "yes" if y.flooded else "no"
        assert f"{y.year} {y.dyke_before} {y.total} {y.dyke_after_pledges} {y.flood} {flooded} {y.dyke_after}" in record
    seen = {(d["year"], d["household"]): d["contribution"] for d in ledger_rows(finished)}
    grid = " ".join(str(seen[(year, NAMES[2])]) for year in range(1, min(finished.year, 12) + 1))
    assert f"Cy {grid}" in record


def test_a_game_in_progress_hides_unrevealed_pledges() -> None:
    game = rules.new_game("leerdam", Setup(names=NAMES), 4)
    rng = rng_for(4, 4)
    while not (game.state.year == 3 and game.state.phase == "contribute" and game.state.pledges[0] is not None):
        seat = game.rules.waiting_for(game.state)[0]
        game.apply(LAB_BOTS["leerdam"]["altruist"](game.state, seat, rng))
    state = game.state
    assert state.pledges[0] == 2 and state.total is None
    pages = pages_text(document.pdf("leerdam", state=state))
    own = pages[1]
    row = next(r for r in state.ledger if r.seat == 0 and r.year == 3)
    misfortune = f"{MINUS}{row.misfortune}" if row.misfortune else "0"
    # Year 3: misfortune and capacity known, the pledge and the rest still blank; year 4 to write in.
    assert f"3 {misfortune} {row.capacity} ☐ 4 ☐" in own
    assert "(as of year 3)" in own
    record = " ".join(p for p in pages if "Village record" in p)
    assert "Standings so far" in record and "Game in progress, year 3" in record
    # The slips start with this year, the capacity already known.
    slips = [p for p in pages if "SECRET PLEDGE" in p]
    assert slips and f"{NAMES[0]} Year 3 Capacity {state.capacity(0)} Units pledged" in slips[0]
    assert "Year 2" not in " ".join(slips) and "LABOUR CONTRACT" in pages[-3] and "YOUR SEAT" in pages[-2]


# -- refusals ------------------------------------------------------------------------------------------
def test_mixed_and_bad_sources_are_refused(finished: State) -> None:
    with pytest.raises(ValueError, match="from a state alone"):
        document.pdf("leerdam", NAMES, state=finished)
    with pytest.raises(ValueError, match="from a setup alone"):
        document.pdf("leerdam", players=7, setup=finished.setup)
    with pytest.raises(ValueError, match="takes 3-20 households, not 2"):
        document.pdf("leerdam", players=2)
    with pytest.raises(ValueError, match="takes 3-20 households, not 21"):
        document.pdf("leerdam", players=21)
    with pytest.raises(ValueError, match="7 names were given for 5 households"):
        document.pdf("leerdam", NAMES, players=5)
    with pytest.raises(ValueError, match="same name"):
        document.pdf("leerdam", ["Ana", " ana ", "Cy"])
    with pytest.raises(TypeError):
        document.pdf("leerdam", "Ana")


def test_build_story_matches_build_pdf(blank_pdf: bytes) -> None:
    story = document.story("leerdam", NAMES)
    pdf = common.build_document(story, title="Leerdam: printable materials", subject=", ".join(printable.MATERIALS))
    assert pdf == blank_pdf
