"""The debrief's decisions and every CSV in the reader's language: a Dutch teacher's CSV reads
Dutch (its header cells the Dutch words with the column's id in parentheses, its rows' decisions
and outcomes in Dutch, names as typed, numbers plain), nothing of the CSV or the printed debrief
escapes translation in the pseudo-language, English stays what it was, and the ids parse back."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

import i18n
import lab
from lab.report import csv_text as lab_csv
from playbook import classes as cl
from playbook.cli import main
from printables import debrief
from rules import decisions_of
from rules import leerdam as ld
from rules.decisions import COLUMN_LABELS, COLUMNS, decision_rows
from rules.decisions import csv_text as english_csv
from tests.support.pdfs import pages_text
from tests.support.played import danger_world_game, played
from tests.support.pseudo import escaped

pytestmark = pytest.mark.timeout(300)

SLUGS = ("leerdam", "new-rule", "dangerous-ideas", "danger-world")


@pytest.fixture(scope="module")
def games():
    return {
        "leerdam": played("leerdam", 5),
        "new-rule": played("new-rule", 4),
        "dangerous-ideas": played("dangerous-ideas", 3),
        "danger-world": danger_world_game(),
    }


def read(text: str) -> list[list[str]]:
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:], newline="")))


def said_csv(game, lang: str, reveal: bool = True) -> str:
    """The debrief CSV as the exports write it: rows said and headed in `lang`."""
    with i18n.speaking(lang):
        rows = decision_rows(decisions_of(game, reveal=reveal, render=i18n.render), table="T1")
        return i18n.csv_text(rows, columns=COLUMNS)


def typed(game) -> set[str]:
    """What the players typed or the setup named: names, a GM's, memes, holders, titles, aspects."""
    found = {*game.setup.names, getattr(game.setup, "gm", ""), "T1"}
    for action in game.actions:
        for field in ("text", "holder", "title"):
            value = getattr(action, field, None)
            if isinstance(value, str):
                found.add(value)
        found.update(getattr(action, "aspects", ()) or ())
    return {f for f in found if f}


def test_a_dutch_leerdam_debrief_csv_reads_dutch_with_its_ids_in_parentheses(games, tmp_path: Path) -> None:
    game = games["leerdam"]
    save = tmp_path / "village.json"
    save.write_text(game.to_json(), encoding="utf-8")
    out, english = tmp_path / "nl.csv", tmp_path / "en.csv"
    assert main(["debrief", str(save), "--csv", str(out), "--lang", "nl"]) == 0
    assert main(["debrief", str(save), "--csv", str(english)]) == 0
    dutch, before = read(out.read_text(encoding="utf-8")), read(english.read_text(encoding="utf-8"))
    header = dutch[0]
    assert header[:3] == ["Tafel (table)", "Jaar of ronde (step)", "Nummer van jaar of ronde (step_number)"]
    assert [i18n.column_id(cell) for cell in header] == list(COLUMNS) == before[0]
    assert all(not cell.startswith(column) for cell, column in zip(header, COLUMNS))  # a Dutch word first
    assert len(dutch) == len(before) > 20
    at = {column: i for i, column in enumerate(COLUMNS)}
    cells = [row[at[c]] for row in dutch[1:] for c in ("step", "decision", "amount_is", "outcome")]
    assert {row[at["step"]] for row in dutch[1:]} >= {"Jaar 1", "Jaar 2"}
    assert any(row[at["decision"]].startswith("zegt ") and row[at["decision"]].endswith(" toe aan de dijk") for row in dutch[1:])
    assert any(row[at["decision"]].startswith("verdeelt ") for row in dutch[1:])
    assert "toegezegde eenheden" in {row[at["amount_is"]] for row in dutch[1:]}
    # Numbers and names are data, as they were: the same in both languages.
    for nl_row, en_row in zip(dutch[1:], before[1:]):
        for column in ("table", "step_number", "seat", "player", "amount"):
            assert nl_row[at[column]] == en_row[at[column]]
        assert nl_row[at["amount"]] == "" or re.fullmatch(r"\d+", nl_row[at["amount"]])
    # No English word of the English rows is left in the Dutch ones, names aside.
    names = "|".join(re.escape(n.lstrip("=")) for n in sorted(typed(game), key=len, reverse=True))
    words = lambda text: set(re.findall(r"[^\W\d_]{3,}", re.sub(names, " ", text)))  # noqa: E731
    english_words = {w for row in before[1:] for c in ("step", "decision", "amount_is", "outcome") for w in words(row[at[c]])}
    # Words Dutch shares with English ("de rest van hun arbeid", "comfort", "1 OP per 30").
    shared = {"rest", "comfort", "per"}
    left = english_words & {w for cell in cells for w in words(cell)} - shared
    assert english_words > {"pledges", "dyke", "units", "Year", "allocates", "household"} and not left


@pytest.mark.parametrize("slug", SLUGS)
def test_nothing_in_the_csv_escapes_translation(games, slug) -> None:
    game = games[slug]
    for reveal in (True, False):
        table = read(said_csv(game, i18n.PSEUDO, reveal))
        header, rows = table[0], table[1:]
        assert [i18n.column_id(cell) for cell in header] == list(COLUMNS)
        assert not escaped([cell.removesuffix(f" ({column})") for cell, column in zip(header, COLUMNS)])
        assert rows and not escaped([cell for row in rows for cell in row], typed(game))


@pytest.mark.parametrize("slug", SLUGS)
def test_nothing_in_the_printed_debrief_escapes_translation(games, slug) -> None:
    game = games[slug]
    with i18n.speaking(i18n.PSEUDO):
        pdf = debrief.build_pdf([("T1", game)])
    # Names: what was typed, the game's title and the playbook's own (the footer).
    names = {*typed(game), game.rules.title, "playbook"}
    texts = [line for page in pages_text(pdf) for line in page.splitlines()]
    assert texts and not escaped(texts, names)


@pytest.mark.parametrize("slug", SLUGS)
def test_english_output_is_what_it_was(games, slug) -> None:
    game = games[slug]
    plain = english_csv(decision_rows(decisions_of(game), table="T1"), columns=COLUMNS)
    assert said_csv(game, "en") == plain and read(plain)[0] == list(COLUMNS)
    with i18n.speaking("nl"):  # the rows' English does not depend on the page's language
        assert decisions_of(game) == decisions_of(game, render=str)


def test_the_step_number_is_read_from_the_english_step_in_every_language(games) -> None:
    english = [d.step_number for d in decisions_of(games["danger-world"])]
    for lang in ("nl", "ar", i18n.PSEUDO):
        with i18n.speaking(lang):
            said = decisions_of(games["danger-world"], render=i18n.render)
        assert [d.step_number for d in said] == english and said[0].step != "Encounter 1"


@pytest.mark.parametrize("lang", [*i18n.LANGUAGES, i18n.PSEUDO])
def test_every_header_cell_parses_back_to_its_id(lang) -> None:
    labels = {**COLUMN_LABELS, **ld.LEDGER_LABELS}
    for column, label in labels.items():
        cell = i18n.header_cell(column, label, lang)
        assert i18n.column_id(cell) == column
        assert (cell == column) == (lang == "en")
    assert i18n.header_cell("seed", None, "nl") == "seed"  # a column without words keeps its id


def test_every_csv_the_playbook_writes_is_headed_in_the_language(games) -> None:
    from drawing.danger_world import HISTORY_LABELS, history_rows
    from rules.danger_world import view_for

    # Each CSV's columns have words: none is left an id alone in another language.
    assert set(cl.CSV_COLUMNS) <= set(COLUMN_LABELS) and "by" in COLUMN_LABELS
    state = games["leerdam"].state
    assert set(ld.ledger_rows(state)[0]) | set(ld.village_rows(state)[0]) <= set(ld.LEDGER_LABELS)
    with i18n.speaking("de"):  # the roll history's words are the page's
        rows = history_rows(view_for(games["danger-world"].state, None))
        history = read(i18n.csv_text(rows, labels=HISTORY_LABELS))
    assert rows and set(rows[0]) <= set(HISTORY_LABELS)
    assert history[0][0] == "Probe (check)" and [i18n.column_id(c) for c in history[0]] == list(rows[0])
    assert history[1][list(rows[0]).index("stats")] == "Geschick + Ausdauer"
    # The balance lab's rows: the words it has for a key, else the key alone; English as ever.
    run = lab.simulate("leerdam", 2, 7, extras=False)
    english, french = lab_csv(run).splitlines()[0].split(","), lab_csv(run, lang="fr").splitlines()[0].split(",")
    assert english[:2] == ["game", "seed"] and french[:2] == ["Jeu (game)", "Graine (seed)"]
    assert [i18n.column_id(c) for c in french] == english
