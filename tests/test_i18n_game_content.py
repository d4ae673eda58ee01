"""The games' own content in the page's language: Danger World's ready-made characters and its
default GM, Dangerous Ideas' offered story (stored so each page says it in its own language, old
saves too) and its bots' texts, the lab's exact-odds forms, a class's default title, a stopped
table's words, the waiting names and the rounds' words. Headless, in the pseudo-language (every
text a message) and in Dutch (a real catalog entry where English stood)."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest

import i18n
from drawing.board import scene_html
from lab import dangerous_ideas as lab_di
from playbook import classes as cl
from playbook.store import Store
from rules import danger_world as dw
from rules import dangerous_ideas as di
from rules import leerdam as ld
from rules import load_game
from rules.core import Game
from rules.games import CARDS, card
from tests.support.headless import one
from tests.support.played import NAMES, played
from tests.support.pseudo import escaped, escaped_across, widget_texts
from tests.support.tables import make_table
from widgets.balance_lab import OddsPanel, settings_as_typed
from widgets.board import board_scene
from widgets.class_glance import results_html
from widgets.danger_world import SheetBuilder
from widgets.dangerous_ideas import DangerousIdeasDashboard, SetupForm
from widgets.new_rule import NewRuleDashboard
from widgets.table import seat_names

#: the ready-made characters' given names: names, the same in every language.
GIVEN = ("Wren", "Brick", "Sage", "Vesper")
GOLDILOCKS = "Goldilocks and the Three Bears"


def _nothing(_index: int) -> None:
    return None


@pytest.mark.usefixtures("pseudo")
def test_the_ready_made_characters_and_a_quick_one_are_messages() -> None:
    builder = SheetBuilder(0, dw.SHEET_DICE, _nothing, _nothing, _nothing)
    labels = list(builder.ready.options)
    assert len(labels) == len(dw.READY_SHEETS) + 1
    assert escaped([label for label, _k in labels], names=GIVEN) == []
    assert "Wren" in labels[1][0] and "⟦" in labels[1][0]  # the name kept, the words said
    builder.ready.value = 0  # Wren's sheet into the builder: her aspects in the page's language
    aspects = builder.aspects()
    assert len(aspects) == 3 and escaped(aspects) == [] and builder.stats() == dw.READY_SHEETS[0].stats
    quick = dw.quick_sheet(5, said=i18n.render)
    assert escaped([str(quick.label), *map(str, quick.aspects)]) == []


def test_the_ready_made_characters_read_in_dutch_and_in_english_as_before(dutch: None) -> None:
    wren = dw.READY_SHEETS[0]
    assert str(wren.label) == "Wren, the cat burglar" and wren.written().aspects == ("Cat burglar", "Owes the guild", "Never leaves a friend")
    assert i18n.render(wren.label) == "Wren, de kattendief"
    assert wren.written(i18n.render).aspects[1] == "Staat bij het gilde in het krijt"


def test_the_default_gm_is_said_in_the_readers_language_and_a_typed_one_as_typed(store: Store, dutch: None) -> None:
    game = Game(dw.RULES, dw.Setup(names=("Ana",)), seed=2)
    assert card("danger-world").seat_names(game.setup) == ("Ana", "GM")  # keys and links count these, in English
    assert seat_names(game) == ("Ana", "SL")
    assert i18n.render(dw.view_for(game.state, None).log[0]).startswith("SL ")
    named = Game(dw.RULES, dw.Setup(names=("Ana",), gm="Morgan"), seed=2)
    assert seat_names(named) == ("Ana", "Morgan (SL)") and named.setup.gm_named == "Morgan"
    # The board waiting for its players names the GM's seat in the board's language.
    table_id, _links = make_table(store, "danger-world", ("Ana", "Bo"))
    waiting = board_scene(store.load(table_id).game, free=[0, 1, 2])
    assert "SL" in scene_html(waiting, "", "Danger World") and ">GM<" not in scene_html(waiting, "", "Danger World")


@pytest.mark.usefixtures("pseudo")
def test_the_exact_odds_forms_and_reports_are_messages() -> None:
    panel = OddsPanel()
    for slug in panel.forms:
        panel.game.value = slug
        texts = list(widget_texts(panel)) + list(panel.game.tooltips)
        assert escaped_across(texts, names=[game.title for game in CARDS]) == [], slug  # a message split by its markup
        assert 'class="pb-table pb-odds-table"' in panel.result.value and "/<wbr>" in panel.result.value


def test_the_exact_odds_read_in_dutch(dutch: None) -> None:
    panel = OddsPanel()
    panel.game.value = "danger-world"
    assert one(panel, "pb-odds-dice").description == "Dobbelstenen in de pot"
    assert "<th>Kans</th>" in panel.result.value and "<td>30,13%</td>" in panel.result.value


def test_the_labs_note_shows_its_settings_as_typed() -> None:
    shown = settings_as_typed("Try max_rounds=none, and bots=hoarder*4; after max_rounds rounds (it&#x27;s 12)")
    assert shown == "Try <code>max_rounds=none</code>, and <code>bots=hoarder*4</code>; after <code>max_rounds</code> rounds (it&#x27;s 12)"


def test_an_offered_story_is_stored_in_english_and_said_in_each_pages_language(store: Store, dutch: None) -> None:
    form = SetupForm()
    assert form.story.value == "Goudlokje en de drie beren"  # offered in the page's language
    assert form.story_to_store() == GOLDILOCKS  # stored as its English: every page says it again
    form.story.value = "  De   wolf en de zeven geitjes "
    assert form.story_to_store() == "De wolf en de zeven geitjes"  # typed: kept as typed
    assert di.story_said(GOLDILOCKS) == di.STORIES[0] and di.story_said("Shrek") == "Shrek"
    # A table that stored the story (as every table before languages did): a Dutch page says it in Dutch.
    table_id, _links = make_table(store, "dangerous-ideas", ("Ana", "Bo", "Cy"))
    stored = store.load(table_id).game
    told = Game(di.RULES, di.Setup(names=stored.setup.names, story=GOLDILOCKS), seed=3)
    dash = DangerousIdeasDashboard(store, query="")
    dash.game = told
    dash.on_open()
    assert dash.story == "Goudlokje en de drie beren" and "Goudlokje" in dash.base_title(told)


def test_an_old_save_with_an_english_story_still_opens(dutch: None) -> None:
    """A save file from before languages holds the story's English: it opens, replays, and a
    page says the story in its own language; the setup keeps the English as it was."""
    game = Game(di.RULES, di.Setup(names=("Ana", "Bo", "Cy"), story=GOLDILOCKS), seed=4)
    saved = json.loads(game.to_json())
    assert saved["setup"]["story"] == GOLDILOCKS
    opened = load_game(json.dumps(saved))
    assert opened.setup.story == GOLDILOCKS and opened.state == game.state
    assert i18n.render(di.story_said(opened.setup.story)) == "Goudlokje en de drie beren"


@pytest.mark.usefixtures("pseudo")
def test_a_bots_titles_beliefs_and_cast_are_written_in_the_pages_language() -> None:
    state = di.initial(di.Setup(names=("Ana", "Bo", "Cy")))
    texts = [lab_di._belief("Ana", 1), lab_di._truth("Ana", 7), lab_di._chapter_title(2), *lab_di._known_holders(state)]
    assert escaped(texts, names=("Ana",)) == []


def test_a_class_stores_no_default_title_and_says_it_in_each_pages_language(store: Store, dutch: None) -> None:
    record = cl.create_class(store, "leerdam", 4, seed=3, lang="nl")
    assert record.title == "" and record.heading == "Klas Leerdam"
    assert record.heading_in("es") != record.heading and record.heading_in("en") == "Leerdam class"
    # A class stored before languages holds the English default: it reads as the default too.
    old = json.loads(record.to_json())
    old["title"] = "Leerdam class"
    assert cl.ClassRecord.from_json(json.dumps(old), record.version).heading == "Klas Leerdam"
    typed = cl.create_class(store, "leerdam", 4, seed=3, title="Groep 7b")
    assert typed.heading == "Groep 7b" and typed.heading_in("ar") == "Groep 7b"


@pytest.mark.usefixtures("pseudo")
def test_a_class_pages_default_title_is_a_message(store: Store) -> None:
    record = cl.create_class(store, "leerdam", 4, seed=3)
    assert escaped([record.heading], names=["Leerdam"]) == []


def test_a_stopped_table_says_where_it_stood_in_the_pages_language(dutch: None) -> None:
    game = Game(ld.RULES, ld.Setup(names=("Ana", "Bo", "Cy")), seed=3)
    assert str(cl.stopped_said(game.state)) == f"stopped in year {game.state.year}"
    assert cl.stopped_text(game, {"stopped": "x"}) == f"gestopt in jaar {game.state.year}"
    assert cl.stopped_text(game, {}) == ""


@pytest.mark.usefixtures("pseudo")
def test_the_rounds_words_are_messages() -> None:
    for game in CARDS:
        if game.has("drawing"):
            assert escaped([i18n.render(game.module("drawing").SCENES.round_word)]) == [], game.slug


def test_a_board_lists_whom_it_waits_for_in_its_language(store: Store, dutch: None) -> None:
    _table_id, links = make_table(store, "new-rule", ("Ana", "Bo", "Cy"))
    board = NewRuleDashboard(store, query=str(links["board"]))
    assert board.role == "board" and board.waiting_names(("Ana", "Bo", "Cy"), (0, 1, 2)) == "Ana, Bo en Cy"


def test_the_labs_bowl_finding_reads_as_german_grammar_has_it() -> None:
    """"neither at {first} nor at {second}" takes the default table and a table of bots in the
    dative in German ("an dem Standardtisch", "an einem Tisch mit ..."), as "by {who}" does."""
    with i18n.speaking("de"):
        first = i18n._("the default table")
        second = i18n._n("a table of {n} {bots}", "a table of {n} {bots}", 4, bots=i18n._("{bot}s", bot="hoarder"))
        never = i18n._(
            "No game emptied the common bowl, neither at {first} nor at {second}: payments refill it, and the emptiest it got at a round's start was {low} candies.",
            first=first, second=second, low=3,
        )  # fmt: skip
        by = i18n._(
            "Played for, by {who}: the common bowl empties in {share} of games, and the emptiest it got at a round's start was {low} candies (the default table's: {default_low}).",
            who=second, share="5 %", low=2, default_low=3,
        )  # fmt: skip
    assert "weder an dem Standardtisch noch an einem Tisch mit 4 hoarder-Bots" in never
    assert by.startswith("Gezielt gespielt von einem Tisch mit 4 hoarder-Bots")


@pytest.mark.parametrize("slug, players", [("leerdam", 5), ("new-rule", 3)])
def test_a_class_boards_results_name_the_winners_in_its_language(slug: str, players: int) -> None:
    """The class board's results (`results_html`) say who won or led in the page's language: a
    finished table's "wins" was English on a Dutch board."""
    record = SimpleNamespace(game=slug, phase="over")
    finished = SimpleNamespace(game=played(slug, players))
    with i18n.speaking(i18n.PSEUDO):
        html = results_html(record, [finished])
    texts = [t for t in re.split(r"<[^>]+>", html) if t.strip()]
    assert texts and escaped_across(texts, names=[*NAMES, "Bot 1"]) == []
    with i18n.speaking("nl"):
        dutch = results_html(record, [finished])
    assert " wins" not in dutch and " share the win" not in dutch and "Uitslag" in dutch
