"""Printed sheets in the reader's language: Leerdam's materials and the debrief handout say
every word through the catalogs (the pseudo-language finds any that escaped), read in Dutch
where they read English, fit in German, and an Arabic sheet reads from the right; the print
studio speaks its page's language and prints in the one chosen."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import i18n
import rules
from lab import BOTS as LAB_BOTS
from lab.core import play_out
from playbook.cli import main
from playbook.store import Store
from printables import charts, common, debrief, document, fonts, leerdam, pack
from rules import new_rule
from rules.core import rng_for
from rules.leerdam import Setup
from tests.support.headless import click
from tests.support.pdfs import pages_text
from tests.support.pseudo import escaped, widget_texts
from widgets.studio import PrintStudio

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")
#: not messages: the game's name (a title), the footer's brand, and the die's name.
NOT_MESSAGES = (*NAMES, "Leerdam", "LEERDAM", "playbook")


@pytest.fixture(scope="module")
def village() -> rules.Game:
    """Five fair bots play a village to its end (the debrief's charts and story have years)."""
    game = rules.new_game("leerdam", Setup(names=NAMES, max_years=4), 5)
    return play_out(game, [LAB_BOTS["leerdam"]["fair"]] * len(NAMES), rng_for(1, 1))


#: a message a narrow box cut short with an ellipsis (the pseudo-language runs 40% long).
#: (an ellipsis inside a message that closes is the message's own: "1 VP per … Wealth").
CUT_SHORT = re.compile(r"⟦[^⟦⟧]*…(?=[^⟦⟧]*(?:⟦|$))")


def _words(pdf: bytes) -> list[str]:
    # A wrapped message spans lines: a page is read whole, so its brackets pair up.
    return [" ".join(page.split()) for page in pages_text(pdf)]


def _messages(pdf: bytes) -> list[str]:
    return [CUT_SHORT.sub(" ⟦⟧ ", page) for page in _words(pdf)]


def test_every_leerdam_sheet_and_the_handout_say_every_word_through_the_catalogs(pseudo: None, village: rules.Game) -> None:
    blank = document.pdf("leerdam", list(NAMES))
    assert escaped(_messages(blank), names=NOT_MESSAGES) == []
    handout = debrief.build_pdf([("Village 1", village)])
    assert escaped(_messages(handout), names=NOT_MESSAGES + ("Village 1",)) == []
    # The pseudo-language really printed: the sheets' words are bracketed, not English.
    assert "⟦" in _words(blank)[0] and "village board" not in _words(blank)[0]


def test_a_ledger_and_the_debrief_handout_read_in_dutch_where_they_read_english(village: rules.Game) -> None:
    def ledger_and_handout() -> tuple[str, str]:
        ledger = _words(document.pdf("leerdam", state=village.state))[1]
        return ledger, " ".join(_words(debrief.build_pdf([("Village 1", village)])))

    english_ledger, english_handout = ledger_and_handout()
    with i18n.speaking("nl"):
        dutch_ledger, dutch_handout = ledger_and_handout()
    assert "Household ledger — Ana" in english_ledger and "Wealth at the end" in english_ledger
    assert "Huishoudboek — Ana" in dutch_ledger and "Rijkdom aan het einde" in dutch_ledger
    assert "Household ledger" not in dutch_ledger
    assert "The story in a few lines" in english_handout
    assert "Het verhaal in een paar regels" in dutch_handout and "Nabespreking" in dutch_handout
    assert "The story in a few lines" not in dutch_handout
    # Back in English, the same sheet reads as it always did.
    assert ledger_and_handout() == (english_ledger, english_handout)


def test_no_translated_ledger_head_breaks_a_word_but_at_its_soft_hyphens() -> None:
    width, _height = common.frame_size("a4")
    for lang in i18n.LANGUAGES:
        with i18n.speaking(lang):
            heads = [i18n.render(head) for head in leerdam.LEDGER_HEADS]
            widths = leerdam._header_widths(heads, width, leerdam.LEDGER_MIN_COLUMN)
            cells = leerdam._headers(heads, widths)
            size = cells[0].style.fontSize
            assert size >= fonts.MIN_SIZE
            for head, column in zip(heads, widths):
                room = column - 2 * common.CELL_PAD
                too_wide = [w for w in leerdam._head_words(head) if fonts.string_width(w, fonts.BOLD, size) > room]
                assert too_wide == [], (lang, head)


def _ink_columns(png_page: object, top: int, bottom: int) -> tuple[int, int]:
    """The leftmost and rightmost columns with dark ink between rows `top` and `bottom`."""
    image = png_page.convert("L")  # type: ignore[attr-defined]
    width = image.width
    inked = [x for x in range(width) if any(image.getpixel((x, y)) < 100 for y in range(top, bottom))]
    return min(inked), max(inked)


def test_an_arabic_sheet_reads_from_the_right() -> None:
    def title_ink(lang: str) -> tuple[int, int, int]:
        with i18n.speaking(lang):
            pdf = document.pdf("leerdam", list(NAMES))
            text = pages_text(pdf)[0]
        image = common.render_png(pdf, 0, 1.0)
        # The page title's band: under the header rule, above the subtitle (A4 at 72 dpi).
        left, right = _ink_columns(image, 60, 85)
        assert "ليردام" in text or "لوحة القرية" in text or lang != "ar"
        return left, right, image.width

    left, right, width = title_ink("ar")
    margin = common.MARGIN_SIDE
    assert width - right < margin + 6, "the Arabic title ends at the right margin"
    assert left > width / 3, "and starts well right of the page's middle third"
    english_left, _right, _width = title_ink("en")
    assert english_left < margin + 6, "an English title starts at the left margin"


def test_playbook_print_and_debrief_take_a_language(capsys: pytest.CaptureFixture[str], tmp_path: Path, village: rules.Game) -> None:
    sheets = tmp_path / "leerdam.pdf"
    assert main(["print", "leerdam", "--lang", "nl", "-o", str(sheets)]) == 0
    text = " ".join(pages_text(sheets.read_bytes()))
    assert "Leerdam — dorpsbord" in text and "Huishoudboek" in text and "Dijkstaat" in text
    assert "village board" not in text
    with pytest.raises(SystemExit):
        main(["print", "leerdam", "--lang", "xx", "-o", str(sheets)])
    assert "--lang" in capsys.readouterr().err
    saved = tmp_path / "dorp.json"
    saved.write_text(village.to_json(), encoding="utf-8")
    handout = tmp_path / "nabespreking.pdf"
    assert main(["debrief", str(saved), "--pdf", str(handout), "--lang", "nl"]) == 0
    text = " ".join(pages_text(handout.read_bytes()))
    assert "Nabespreking Leerdam: dorp" in text and "Het verhaal in een paar regels" in text
    assert i18n.current() == "en", "a print in Dutch leaves the process in English"


def test_the_print_studio_says_every_word_through_the_catalogs(pseudo: None, store: Store, village: rules.Game) -> None:
    studio = PrintStudio(store)
    # Games' titles and languages' own names are names, not messages.
    names = (*NOT_MESSAGES, *(label for label, _slug in studio.game.options), *i18n.LANGUAGES.values(), "A4", "Village 1")
    assert escaped(widget_texts(studio), names=names) == []
    studio.game.value = "leerdam"
    studio.names.value = "\n".join(NAMES)
    click(studio.make_button)
    assert studio.status.kind == "ok", studio.status.message
    assert escaped(widget_texts(studio), names=names) == []
    click(studio.next_button)
    studio.source.value = "saved"
    assert studio.load_file(village.to_json(), "Village 1")
    assert escaped(widget_texts(studio), names=names) == []
    assert "⟦" in studio.make_button.description


def test_the_print_studio_reads_dutch_and_prints_in_the_language_chosen(store: Store) -> None:
    i18n.use("nl")
    try:
        assert PrintStudio(store).make_button.description == "PDF maken"
    finally:
        i18n.use("en")
    studio = PrintStudio(store)
    assert studio.make_button.description == "Make PDF" and studio.lang.value == "en"
    studio.game.value = "leerdam"
    studio.lang.value = "nl"
    click(studio.make_button)
    assert studio.status.kind == "ok", studio.status.message
    assert studio.status.message.startswith("PDF ready"), "the studio itself stays in its page's language"
    assert studio.pdf is not None
    text = " ".join(pages_text(studio.pdf))
    assert "Huishoudboek" in text and "Household ledger" not in text
    assert f"leerdam-{studio.players.value}-players-a4-nl.pdf" in studio.download.value


def test_german_sheets_and_seat_slips_print_every_line_whole() -> None:
    # German runs longest: a line a box had to cut ends in "…" right after a letter.
    links = [(name, f"http://127.0.0.1:8866/voila/render/seat?table=abcdef&seat={i}&key=0123456789abcdef") for i, name in enumerate(NAMES)]
    with i18n.speaking("de"):
        pdf = document.pdf("leerdam", list(NAMES), seat_links=links)
    text = " ".join(pages_text(pdf))
    assert "Haushaltsbuch" in text and "DEIN PLATZ" in text
    assert re.findall(r"\S+…", text) == []


# -- New Rule and the pack ---------------------------------------------------------------------
NEW_RULE = ("Ana", "Bo", "Cy", "Di")


@pytest.fixture(scope="module")
def new_rule_table() -> rules.Game:
    """Four bots play New Rule to its end: one goes out, so the pads and the debrief say so."""
    game = rules.new_game("new-rule", new_rule.Setup(names=NEW_RULE), 5)
    return play_out(game, [LAB_BOTS["new-rule"]["hoarder"]] * len(NEW_RULE), rng_for(1, 1))


def _pad_notes(game: rules.Game) -> tuple[str, ...]:
    # The rules keep a pad row's note ("out: ...") in their own English (rules/new_rule.py).
    return tuple(line.note for line in game.state.pad if line.note)


def test_every_new_rule_sheet_and_the_pack_say_every_word_through_the_catalogs(pseudo: None, new_rule_table: rules.Game) -> None:
    names = (*NEW_RULE, "New Rule", "NEW RULE", "playbook", "Table 1", *_pad_notes(new_rule_table))
    assert any(_pad_notes(new_rule_table)), "a player went out: the played pads have a row that says so"
    printed = {
        "blank": document.pdf("new-rule", list(NEW_RULE)),
        "played": document.pdf("new-rule", state=new_rule_table.state),
        "booklet": document.booklet("new-rule"),
        "debrief": debrief.build_pdf([("Table 1", new_rule_table), ("Table 2", new_rule_table)], reveal=False),
        "revealed": debrief.build_pdf([("Table 1", new_rule_table)], reveal=True),
        "class": pack.class_pdf("new-rule", 7, [f"P{i}" for i in range(7)]),
    }
    for what, pdf in printed.items():
        assert escaped(_messages(pdf), names=(*names, "Table 2", *(f"P{i}" for i in range(7)))) == [], what
    # The pack of every game: its contents page (the notes name the games left out).
    contents = _messages(pack.build_pdf(2))[0]
    assert escaped([contents], names=(*names, "Leerdam", "Danger World", "Dangerous Ideas", "Playbook")) == []
    blank = _words(printed["blank"])
    assert "⟦" in blank[0] and "Score pad" not in blank[0] and "orange" not in " ".join(blank)


def test_a_new_rule_pad_and_the_class_contents_read_in_dutch_where_they_read_english(new_rule_table: rules.Game) -> None:
    def pad_worksheet_and_contents() -> tuple[str, str, str]:
        pages = _words(document.pdf("new-rule", state=new_rule_table.state))
        return pages[0], pages[len(NEW_RULE)], _words(pack.class_pdf("new-rule", 7))[0]

    english = pad_worksheet_and_contents()
    with i18n.speaking("nl"):
        dutch = pad_worksheet_and_contents()
    assert "Score pad — Ana" in english[0] and "orange" in english[0]
    assert "Scoreblad — Ana" in dutch[0] and "oranje" in dutch[0] and "Score pad" not in dutch[0]
    assert "Final scoring worksheet" in english[1] and "Eindtelling" in dutch[1]
    assert "Contents · a class of 7" in english[2] and "Inhoud · een klas van 7" in dutch[2]
    assert "New Rule for a class of 7" in english[2] and "New Rule voor een klas van 7" in dutch[2]
    assert pad_worksheet_and_contents() == english, "back in English, the sheets read as they always did"


def test_playbook_print_new_rule_in_dutch(tmp_path: Path) -> None:
    sheets = tmp_path / "new-rule.pdf"
    assert main(["print", "new-rule", "--names", "Ana,Bo,Cy", "--lang", "nl", "-o", str(sheets)]) == 0
    text = " ".join(pages_text(sheets.read_bytes()))
    assert "Scoreblad — Ana" in text and "Kleurenkaart" in text and "Eindtelling" in text
    assert "Score pad" not in text and "Colour key" not in text


def test_an_arabic_new_rule_sheet_reads_from_the_right() -> None:
    def title_ink(lang: str) -> tuple[int, int, int]:
        with i18n.speaking(lang):
            pdf = document.pdf("new-rule", list(NEW_RULE))
            text = pages_text(pdf)[0]
        image = common.render_png(pdf, 0, 1.0)
        assert lang != "ar" or ("ورقة" in text and "النقاط" in text)
        left, right = _ink_columns(image, 60, 85)
        return left, right, image.width

    left, right, width = title_ink("ar")
    margin = common.MARGIN_SIDE
    assert width - right < margin + 6, "the Arabic title ends at the right margin"
    assert left > width / 3, "and starts well right of the page's middle third"
    english_left, _right, _width = title_ink("en")
    assert english_left < margin + 6


def test_german_new_rule_sheets_print_every_line_whole_and_every_head_word_in_its_column(new_rule_table: rules.Game) -> None:
    with i18n.speaking("de"):
        pdf = document.pdf("new-rule", state=new_rule_table.state)
        handout = debrief.build_pdf([("Tisch 1", new_rule_table)])
    text = " ".join(pages_text(pdf) + pages_text(handout))
    assert "Punkteblock" in text and "Schlusswertung" in text and "Farbschlüssel" in text
    assert re.findall(r"\S+…", text) == []
    # A head word the column could not hold would be broken: every head word is printed whole.
    for word in ("Ansteckung", "Gezogen", "Behalten", "Gewählt", "Stärke"):
        assert word in text


def test_a_chart_numbers_its_axis_and_its_table_in_the_language_format() -> None:
    series = [charts.Series("Ana", (2.5, -1.0, 1234.0))]
    english = " ".join(_words(common.build_document(charts.numbers_tables("T", ["1", "2", "3"], series), page="a4", title="t")))
    with i18n.speaking("nl"):
        dutch = " ".join(_words(common.build_document(charts.numbers_tables("T", ["1", "2", "3"], series), page="a4", title="t")))
    assert "2.5 −1 1234" in english, "English prints the numbers as it always did"
    assert "2,5 −1 1.234" in dutch


def test_every_games_rules_card_says_every_word_through_the_catalogs_and_reads_in_dutch(pseudo: None) -> None:
    # The booklet of every game's rules card (playbook print all --booklet).
    cards = _messages(pack.booklet_pdf())
    assert escaped(cards, names=("New Rule", "Leerdam", "Danger World", "Dangerous Ideas", "playbook")) == []
    i18n.use("nl")
    danger_world = " ".join(_words(document.booklet("danger-world")))
    dangerous_ideas = _words(document.booklet("dangerous-ideas"))[0]
    assert "Je personage" in danger_world and "Gevaar en schade" in danger_world and "Your character" not in danger_world
    assert "Een beurt" in dangerous_ideas and "Een meme-actie" in dangerous_ideas and "A turn" not in dangerous_ideas
