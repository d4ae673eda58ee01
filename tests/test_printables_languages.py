"""Printed sheets in the reader's language: Leerdam's materials and the debrief handout say
every word through the catalogs (the pseudo-language finds any that escaped), read in Dutch
where they read English, fit in German, and an Arabic sheet reads from the right; the print
studio speaks its page's language and prints in the one chosen."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest

import i18n
import rules
from lab import BOTS as LAB_BOTS
from lab.core import play_out
from playbook.cli import main
from playbook.store import Store
from printables import charts, common, debrief, document, fonts, leerdam, pack
from printables import danger_world as printed_dw
from printables import dangerous_ideas as printed_di
from rules import new_rule
from rules.core import rng_for
from rules.danger_world import STATS as DW_STATS
from rules.danger_world import TRACK as DW_TRACK
from rules.dangerous_ideas import Setup as DISetup
from rules.leerdam import Setup
from tests.support import phases
from tests.support.headless import click
from tests.support.pdfs import Drawn, drawn_texts, pages_text
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


# -- Danger World and Dangerous Ideas ------------------------------------------------------------
DI_NAMES = ("Ana", "Bo", "Cy", "Di")
#: marks, not messages: an outcome's mark above a check's bars ("½" a partial success).
MARKS = ("½",)


@pytest.fixture(scope="module")
def danger_world_tables() -> tuple[rules.Game, rules.Game]:
    """A party through to its end, and one stopped after four checks (K.O.'d, bonus pools held)."""
    return phases.danger_world(), phases.danger_world(lambda g: len(g.state.results) >= 4)


@pytest.fixture(scope="module")
def dangerous_ideas_tables() -> tuple[rules.Game, rules.Game]:
    """Four sensible bots tell a story to its end; and one stopped in its first chapter."""
    ended = play_out(rules.new_game("dangerous-ideas", DISetup(DI_NAMES), 1), [LAB_BOTS["dangerous-ideas"]["sensible"]] * 4, rng_for(1, 1))
    going = phases.play(rules.new_game("dangerous-ideas", DISetup(DI_NAMES), 1), lambda g: g.state.chapter >= 1)
    return ended, going


def _typed(*games: rules.Game) -> tuple[str, ...]:
    """What the players typed (characters, aspects, memes, holders, narrations, titles): never translated."""
    typed: list[str] = []
    for game in games:
        state = game.state
        for character in getattr(state, "characters", ()):
            typed += [character.name, *character.aspects]
        for sheet in getattr(state, "sheets", ()):
            typed += [text for _branch, meme in sheet.memes() for text in (meme.text, meme.holder)]
            typed += [text for crossed in sheet.crossed for text in (crossed.text, crossed.holder)]
        typed += [line.text for line in getattr(state, "story", ()) if line.kind in ("narration", "title") and isinstance(line.text, str)]
    return tuple(typed)


def test_every_danger_world_and_dangerous_ideas_sheet_says_every_word_through_the_catalogs(
    pseudo: None, danger_world_tables: tuple[rules.Game, rules.Game], dangerous_ideas_tables: tuple[rules.Game, rules.Game]
) -> None:
    party, stopped = danger_world_tables
    story, going = dangerous_ideas_tables
    printed = {
        "danger-world blank": document.pdf("danger-world", ["Ana", "Bo: Wren"], gm="Morgan"),
        "danger-world played": document.pdf("danger-world", state=party.state),
        "danger-world stopped": document.pdf("danger-world", state=stopped.state),
        "danger-world debrief": debrief.build_pdf([("Table 1", party), ("Table 2", stopped)]),
        "dangerous-ideas blank": document.pdf("dangerous-ideas", list(DI_NAMES[:3])),
        "dangerous-ideas played": document.pdf("dangerous-ideas", state=story.state),
        "dangerous-ideas going": document.pdf("dangerous-ideas", state=going.state),
        "dangerous-ideas debrief": debrief.build_pdf([("Table 1", story), ("Table 2", going)]),
    }
    names = (
        *phases.NAMES, *DI_NAMES, "Wren", "Morgan", party.state.setup.gm, "Table 1", "Table 2", *MARKS,
        "Danger World", "Dangerous Ideas", "playbook", *_typed(party, stopped, story, going),
    )
    assert any(c.bonus for c in stopped.state.characters), "a character holds a bonus pool: its source is printed"
    for what, pdf in printed.items():
        assert escaped(_messages(pdf), names=names) == [], what
    # The pseudo-language really printed: the sheets' words are bracketed, not English.
    sheet, screen = _words(printed["danger-world blank"])[0], _words(printed["danger-world blank"])[2]
    assert "⟦" in sheet and "STORY POINTS" not in sheet and "Exact chance" not in screen
    assert "character sheet" not in _words(printed["dangerous-ideas blank"])[0]


def test_a_danger_world_sheet_and_a_dangerous_ideas_story_read_in_dutch_where_they_read_english(
    danger_world_tables: tuple[rules.Game, rules.Game], dangerous_ideas_tables: tuple[rules.Game, rules.Game]
) -> None:
    party, _stopped = danger_world_tables
    story, _going = dangerous_ideas_tables

    def printed() -> tuple[str, str, str]:
        world = _words(document.pdf("danger-world", state=party.state))
        ideas = " ".join(_words(document.pdf("dangerous-ideas", state=story.state)))
        return world[0], world[3], ideas

    english = printed()
    with i18n.speaking("nl"):
        dutch = printed()
    assert "STORY POINTS" in english[0] and "Exact chance that a check makes a set" in english[1]
    assert "VERHAALPUNTEN" in dutch[0] and "SCHADEBALK" in dutch[0] and "STORY POINTS" not in dutch[0]
    assert "Exacte kans dat een proef een set maakt" in dutch[1] and "Exact chance" not in dutch[1]
    assert "The story as told" in english[2] and "Het verhaal zoals verteld" in dutch[2] and "Scoreblad" in dutch[2]
    # The story's own lines (the transcript) and why it ended, in Dutch too; the memes as typed.
    assert "De setting" in dutch[2] and "The setting" not in dutch[2]
    assert "Het verhaal eindigt:" in dutch[2] and "The story ends:" not in dutch[2]
    assert printed() == english, "back in English, the sheets read as they always did"


def test_arabic_danger_world_and_dangerous_ideas_sheets_read_from_the_right(
    danger_world_tables: tuple[rules.Game, rules.Game], dangerous_ideas_tables: tuple[rules.Game, rules.Game]
) -> None:
    party, _stopped = danger_world_tables
    story, _going = dangerous_ideas_tables
    with i18n.speaking("ar"):
        world = document.pdf("danger-world", state=party.state)
        ideas = document.pdf("dangerous-ideas", state=story.state)
    width = common.page_size("a4")[0]
    margin = common.MARGIN_SIDE
    # The GM screen's title (page 3), a meme tree sheet's (page 1) and the score pad's (page 7) end at the right margin.
    # (The sheet's seeds end its title's line, at the left: `test_..._are_mirrored` finds where its title starts.)
    for pdf, page, word, start in ((world, 2, "شاشة", width / 2), (ideas, 0, "ورقة", 0), (ideas, 6, "النقاط", width / 2)):
        assert word in pages_text(pdf)[page]
        left, right = _ink_columns(common.render_png(pdf, page, 1.0), 60, 85)
        assert width - right < margin + 6 and left > start, (word, left, right)
    # A character sheet's first panel bar (STATS): its title, in white on black, at the right end;
    # in English at the left (its aside, light grey, at the other end).
    middle = round(common.MARGIN_TOP + printed_dw.NAMEPLATE + printed_dw.GAP + printed_dw.BAR / 2)

    def title_ink(pdf: bytes) -> list[int]:
        image = common.render_png(pdf, 0, 1.0).convert("L")
        inside = range(round(margin) + 4, round(width - margin) - 4)  # the bar, less its rounded ends
        return [x for x in inside if any(image.getpixel((x, y)) > 240 for y in range(middle - 3, middle + 3))]

    arabic = title_ink(world)
    assert arabic and min(arabic) > width / 2, "the Arabic bar's title sits at its right end"
    english = title_ink(document.pdf("danger-world", state=party.state))
    assert english and min(english) < width / 4 and max(english) < width / 2, "an English bar's title at its left"


def _starts(drawn: list[Drawn], text: str) -> list[float]:
    """Where each string drawn as `text` starts on the page: its left end. Told by its letters,
    in any order: a right-to-left line is stored in visual order, its brackets split off (and
    a drawn line keeps no isolates: they draw nothing)."""

    def letters(words: Iterable[str]) -> list[str]:
        return sorted("".join(words).replace(i18n.ISOLATE, "").replace(i18n.POP_ISOLATE, ""))

    wanted = letters(text.split())
    return [d.x for d in drawn if letters(d.words) == wanted]


def _start(drawn: list[Drawn], text: str) -> float:
    starts = _starts(drawn, text)
    assert starts, f"{text!r} is not drawn on its own"
    return starts[0]


def _character_sheet_places(pdf: bytes) -> dict[str, float]:
    """Where a Danger World character sheet's known labels start, in the language being spoken."""
    drawn = drawn_texts(pdf, 0)
    labels = {
        "character": i18n._("CHARACTER"), "player": i18n._("PLAYER"), "gm": i18n._("GM"),
        "physical": i18n._("PHYSICAL"), "mental": i18n._("MENTAL"), "first stat": printed_dw._stat_name(DW_STATS[0]),
        "story points": i18n._("STORY POINTS"), "bonus dice": i18n._("BONUS DICE"),
        "first section": printed_dw._section_name(0), "last section": printed_dw._section_name(len(DW_TRACK) - 1),
    }
    return {key: _start(drawn, text) for key, text in labels.items()}


def test_arabic_character_sheets_and_meme_trees_are_mirrored(
    danger_world_tables: tuple[rules.Game, rules.Game], dangerous_ideas_tables: tuple[rules.Game, rules.Game]
) -> None:
    party, _stopped = danger_world_tables
    story, _going = dangerous_ideas_tables
    middle = common.page_size("a4")[0] / 2
    with i18n.speaking("ar"):
        world = _character_sheet_places(document.pdf("danger-world", state=party.state))
    english = _character_sheet_places(document.pdf("danger-world", state=party.state))
    # Right to left the nameplate's fields, the stat columns, the panels side by side and the
    # damage track's sections start at the right; in English, as they always were, at the left.
    assert world["character"] > middle > world["player"] > world["gm"]
    assert english["character"] < middle < english["player"] < english["gm"]
    assert world["physical"] > middle > world["mental"] and world["first stat"] > middle
    assert english["physical"] < middle < english["mental"] and english["first stat"] < middle
    assert world["story points"] > middle > world["bonus dice"] and english["story points"] < middle < english["bonus dice"]
    assert world["first section"] > middle > world["last section"] and english["first section"] < middle < english["last section"]

    def tree(lang: str) -> dict[str, float]:
        with i18n.speaking(lang):
            drawn = drawn_texts(document.pdf("dangerous-ideas", state=story.state), 0)
            node = printed_di._node_name
            return {
                "title": _start(drawn, i18n._("{game} — character sheet", game="Dangerous Ideas")),
                "player": _start(drawn, i18n._("Player")),
                "idea": _start(drawn, i18n._("Dangerous Idea (your philosophy)")),
                "probe 1": _start(drawn, f"{node('probe').upper()} 1"),
                "create 1": _start(drawn, f"{node('create').upper()} 1"),
                "probe hub": _start(drawn, node("probe").upper()),
                "crossed": min(_starts(drawn, i18n._("Crossed-off memes"))),
                "memes": _start(drawn, i18n._("Memes")),
                "stones": _start(drawn, i18n._("Stones + seeds")),
            }

    ideas, english = tree("ar"), tree("en")
    # The tree grows from the right: its title, the player's line, the first hub (Probe) and its
    # boxes, the crossed-off memes and the first score box at the right (the title, long with the
    # game's English name, well right of the English one's start at the margin).
    assert ideas["title"] > middle * 0.8 and ideas["player"] > middle > ideas["idea"]
    assert ideas["probe 1"] > middle > ideas["create 1"] and ideas["probe hub"] > middle
    assert ideas["crossed"] > middle > ideas["memes"] > ideas["stones"]
    assert english["title"] == english["player"] == pytest.approx(common.MARGIN_SIDE) and english["player"] < english["idea"]
    assert english["probe 1"] < middle < english["create 1"] and english["probe hub"] < middle
    assert english["crossed"] < middle < english["memes"] < english["stones"]

    def handout_trees(lang: str) -> list[float]:
        """Where the debrief's small trees (its last page) have their Probe hub."""
        with i18n.speaking(lang):
            handout = debrief.build_pdf([("Table 1", story)])
            return _starts(drawn_texts(handout, common.page_count(handout) - 1), printed_di._node_name("probe"))

    arabic, english_trees = handout_trees("ar"), handout_trees("en")
    assert len(arabic) == len(english_trees) == len(DI_NAMES), "a tree per player"
    assert min(arabic) > middle > max(english_trees), "the handout's trees grow from the right too"


def test_a_character_sheets_layout_right_to_left_is_its_mirror_image() -> None:
    width, height = common.frame_size("a4")
    english = printed_dw.sheet_layout(width, height)
    with i18n.speaking("ar"):
        arabic = printed_dw.sheet_layout(width, height)

    def mirrored(box: common.Box) -> common.Box:
        return common.Box(width - box.x - box.width, box.y, box.width, box.height)

    # Every die, danger level and damage box at the mirrored place: the first at the right.
    assert arabic.dice == tuple(tuple(mirrored(b) for b in row) for row in english.dice)
    assert arabic.danger_boxes == tuple(mirrored(b) for b in english.danger_boxes)
    assert arabic.damage_boxes == tuple(tuple(mirrored(b) for b in section) for section in english.damage_boxes)
    assert arabic.damage_columns == tuple((width - x1, width - x0) for x0, x1 in english.damage_columns)
    assert (arabic.story, arabic.bonus) == (mirrored(english.story), mirrored(english.bonus))
    assert arabic.danger_boxes[0].x > arabic.danger_boxes[-1].x and english.danger_boxes[0].x < english.danger_boxes[-1].x
    # Full-width panels stay where they are.
    assert (arabic.nameplate, arabic.stats, arabic.damage, arabic.notes) == (english.nameplate, english.stats, english.damage, english.notes)


def test_a_mirror_moves_places_only_right_to_left() -> None:
    off, on = common.Mirror(10, 110, False), common.Mirror(10, 110, True)
    box = common.Box(20, 5, 30, 8)
    # Left to right every place is as given: the English sheets draw what they always drew.
    assert (off.x(20.25, 3), off.span(20, 50), off.box(box), off.align("left"), off.facing(1)) == (20.25, (20, 50), box, "left", 1)
    assert (on.x(20, 30), on.span(20, 50), on.box(box)) == (70, (70, 100), common.Box(70, 5, 30, 8))
    assert (on.align("left"), on.align("right"), on.align("centre"), on.facing(1)) == ("right", "left", "centre", -1)
    assert on.x(on.x(33.5, 4), 4) == 33.5, "a mirror is its own inverse"
    with i18n.speaking("ar"):
        assert common.mirror(0, 1).on
    assert not common.mirror(0, 1).on


def test_german_danger_world_and_dangerous_ideas_sheets_print_every_line_whole(
    danger_world_tables: tuple[rules.Game, rules.Game], dangerous_ideas_tables: tuple[rules.Game, rules.Game]
) -> None:
    party, stopped = danger_world_tables
    story, _going = dangerous_ideas_tables
    with i18n.speaking("de"):
        pdfs = [
            document.pdf("danger-world", ["Ana", "Bo"], gm="Morgan"),
            document.pdf("danger-world", state=stopped.state),
            debrief.build_pdf([("Tisch 1", party)]),
            document.pdf("dangerous-ideas", list(DI_NAMES)),
            document.pdf("dangerous-ideas", state=story.state),
            debrief.build_pdf([("Tisch 1", story)]),
        ]
    text = " ".join(" ".join(pages_text(pdf)) for pdf in pdfs)
    assert "Charakterbogen" in text and "SCHADENSLEISTE" in text and "ERFOLGSCHANCEN" in text and "Punkteblock" in text
    # A line a box had to cut ends in "…" right after a letter; a head word a column split is printed apart.
    assert re.findall(r"\S+…", text) == []
    for word in ("Gefahrenwürfel", "Kästchen", "Kosten", "Verteidigen", "ERSCHAFFEN"):
        assert word in text, word


def test_how_a_leerdam_game_ended_reads_in_dutch_on_its_record_and_handout(village: rules.Game) -> None:
    ending = village.state.ending
    assert isinstance(ending, i18n.Said) and str(ending) == village.state.ended
    with i18n.speaking("nl"):
        said = i18n.render(ending)
        record = " ".join(_words(document.pdf("leerdam", state=village.state)))
        handout = " ".join(_words(debrief.build_pdf([("Village 1", village)])))
    assert said != village.state.ended, "the ending has a Dutch translation"
    for printed in (record, handout):
        assert said in printed and village.state.ended not in printed


def test_no_odds_table_head_word_is_wider_than_its_column_in_any_language() -> None:
    # The odds table's columns are equal and narrow: a head word wider than its column even at
    # the smallest type would be broken in two.
    for page in ("a4", "letter"):
        width, _height = common.frame_size(page)
        column = (width - 13 * printed_dw.mm) / (len(printed_dw.ODDS_DIFFICULTIES) * 2)
        room = (column - 2 * common.CELL_PAD) * 0.97
        for lang in i18n.LANGUAGES:
            with i18n.speaking(lang):
                heads = [i18n._("no re-roll"), i18n._n("{n} re-roll", "{n} re-rolls", 2)]
                # a difficulty's head spans its two columns
                spanning = i18n._("Difficulty {number}", number=6)
            too_wide = [w for head in heads for w in head.split() if fonts.string_width(w, fonts.BOLD, fonts.MIN_SIZE) > room]
            too_wide += [w for w in spanning.split() if fonts.string_width(w, fonts.BOLD, fonts.MIN_SIZE) > 2 * room]
            assert too_wide == [], (page, lang)


def test_a_new_rule_pad_says_in_dutch_why_a_player_went_out(new_rule_table: rules.Game) -> None:
    out = [line for line in new_rule_table.state.pad if line.out]
    assert out and all(line.note == f"out: {line.out}" for line in out), "the English record stays as it was"
    with i18n.speaking("nl"):
        pads = " ".join(_words(document.pdf("new-rule", state=new_rule_table.state)))
        handout = " ".join(_words(debrief.build_pdf([("Table 1", new_rule_table)], reveal=False)))
        why = i18n.render(out[0].out)
    assert f"eruit: {why}" in pads and f"eruit: {why}" in handout
    assert out[0].note not in pads and out[0].note not in handout
