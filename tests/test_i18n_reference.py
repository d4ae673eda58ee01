"""The reference panels of each game's page in the page's language (widgets/reference.py): the
worked examples and odds tables (the outputs of the notebooks' `# NBVAL_CHECK_OUTPUT` cells, run
here in-process as a kernel runs them) and the rulings (docs/rules/SLUG.md, said per block
through the catalogs as the notebooks' prose is)."""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import i18n
from i18n.extract import cell_source, extract_notebook, extract_rulings, prose_blocks, ruling_body
from playbook.prose import markdown_html
from playbook.resources import rules_doc
from playbook.serve import NOTEBOOKS_DIR
from rules.games import CARDS
from tests.support.pseudo import escaped, html_texts
from widgets.reference import rulings

ROOT = Path(__file__).resolve().parents[1]
#: each game's notebook, by the slug that names its rulings page.
GAMES = {game.slug: game.notebook for game in CARDS if game.notebook}
#: the names the examples give their players, characters and philosophies: names, not messages.
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Wren", "Morgan", "Manifest Destiny", "Vegetarianism", "German Efficiency")
#: what a page in a language other than English keeps English: the designers' words.
ENGLISH = re.compile(r'<(span|em) lang="en">.*?</\1>', re.S)


def catalog(lang: str):
    with (ROOT / "i18n" / "locales" / lang / "LC_MESSAGES" / "playbook.po").open("rb") as po:
        return read_po(po, locale=lang)


def example_cells(notebook: str) -> list[dict]:
    cells = json.loads((NOTEBOOKS_DIR / notebook).read_text(encoding="utf-8"))["cells"]
    return [cell for cell in cells if cell["cell_type"] == "code" and cell_source(cell).startswith("# NBVAL_CHECK_OUTPUT")]


def run_cell(source: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[str]]:
    """A code cell run here as a kernel runs it: what it prints, and the HTML it displays and
    ends on (its last expression's value)."""
    import IPython.display

    shown: list[object] = []
    monkeypatch.setattr(IPython.display, "display", lambda *values, **_kw: shown.extend(values))
    tree = ast.parse(source)
    last = tree.body.pop() if isinstance(tree.body[-1], ast.Expr) else None
    assert last is None or isinstance(last, ast.Expr)
    names: dict[str, object] = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(tree, "<cell>", "exec"), names)
        if last is not None:
            shown.append(eval(compile(ast.Expression(last.value), "<cell>", "eval"), names))
    return printed.getvalue(), [str(value.data) for value in shown if value is not None]  # type: ignore[attr-defined]


@pytest.mark.parametrize("notebook", GAMES.values())
def test_in_english_the_examples_show_what_the_notebook_keeps(notebook: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """nbval compares them in a kernel; here the same cells, run in-process, as the tests below run them."""
    for cell in example_cells(notebook):
        printed, shown = run_cell(cell_source(cell), monkeypatch)
        assert printed == "".join("".join(out["text"]) for out in cell["outputs"] if out["output_type"] == "stream")
        assert shown == ["".join(out["data"]["text/html"]) for out in cell["outputs"] if "data" in out]


@pytest.mark.parametrize("notebook", GAMES.values())
def test_every_text_of_the_examples_and_odds_is_said_in_the_pseudo_language(notebook: str, monkeypatch: pytest.MonkeyPatch) -> None:
    texts: list[str] = []
    with i18n.speaking(i18n.PSEUDO):
        for cell in example_cells(notebook):
            printed, shown = run_cell(cell_source(cell), monkeypatch)
            texts += printed.splitlines() + [text for html in shown for text in html_texts(ENGLISH.sub("", html))]
    assert len(texts) > 10
    assert escaped(texts, names=NAMES) == []


def test_the_designers_narration_stays_english_marked_so_and_the_lines_around_it_are_said(monkeypatch: pytest.MonkeyPatch) -> None:
    with i18n.speaking("nl"):
        _printed, (shown,) = run_cell(cell_source(example_cells("dangerous_ideas.ipynb")[0]), monkeypatch)
    assert '<li><span lang="en">Manifest Destiny: Once upon a time there was a little girl named Goldilocks.' in shown
    assert "een gekrulde tak bij Verbinden" in shown and "coiled branch" not in shown  # the playbook's own lines in Dutch
    _printed, (english,) = run_cell(cell_source(example_cells("dangerous_ideas.ipynb")[0]), monkeypatch)
    assert 'lang="en"' not in english  # an English page as it always was


def test_a_dutch_page_shows_the_examples_in_dutch_numbers_and_percentages_in_its_format(monkeypatch: pytest.MonkeyPatch) -> None:
    dutch = catalog("nl")
    with i18n.speaking("nl"):
        _printed, (odds,) = run_cell(cell_source(example_cells("danger_world.ipynb")[1]), monkeypatch)
        _printed, shown = run_cell(cell_source(example_cells("leerdam.ipynb")[0]), monkeypatch)
    assert "36,0%" in odds and "36.0%" not in odds
    assert f"<caption>{dutch.get('The chance of a set of at least the difficulty').string}</caption>" in odds
    assert f"<strong>{dutch.get('The village chronicle').string}</strong>" in shown[-1] and "Year 1 begins" not in shown[-1]


@pytest.mark.parametrize("slug", GAMES)
def test_every_text_of_the_rulings_is_said_in_the_pseudo_language(slug: str) -> None:
    with i18n.speaking(i18n.PSEUDO):
        shown = str(rulings(slug).data)
    texts = html_texts(ENGLISH.sub("", shown))
    assert len(texts) > 20
    assert escaped(texts) == []
    assert "<table>" in shown and "<code>" in shown  # the Markdown rendered: its tables and code spans


@pytest.mark.parametrize("slug", GAMES)
def test_a_dutch_page_shows_the_rulings_first_block_from_the_catalog_and_an_english_page_the_markdown(slug: str) -> None:
    body = ruling_body(rules_doc(slug))
    first = prose_blocks(body)[0]
    dutch = catalog("nl").get(first).string
    assert dutch and dutch != first
    with i18n.speaking("nl"):
        shown = str(rulings(slug).data)
    assert "".join(html_texts(shown)).startswith("".join(html_texts(markdown_html(dutch))).rstrip())
    assert "".join(html_texts(markdown_html(first))).strip() not in "".join(html_texts(shown))
    assert rulings(slug).data == '<div class="pb-rulings">' + markdown_html(body, literal=True).replace("&quot;&lt;", "&quot;\u2060&lt;") + "</div>"
    assert not body.startswith("# ")


def test_a_rulings_placeholder_is_shown_as_written_and_swallows_nothing_after_it() -> None:
    """"Chapter 1: <title>" as a tag would hide the rest of the page (a title's text is never shown)."""
    for lang in (i18n.SOURCE, "nl", i18n.PSEUDO):
        with i18n.speaking(lang):
            shown = str(rulings("dangerous-ideas").data)
        assert "<title>" not in shown and "<name>" not in shown, lang
        assert shown.count("<h2") == ruling_body(rules_doc("dangerous-ideas")).count("\n## "), lang  # every heading after it too
    assert "&lt;title&gt;" in shown or "&lt;tîtlé&gt;" in shown


def test_a_rulings_block_the_catalog_lacks_stays_english(monkeypatch: pytest.MonkeyPatch) -> None:
    import widgets.reference

    monkeypatch.setattr(widgets.reference, "rules_doc", lambda slug: "# Title\n\n## Not in any catalog\n\n| a | b |\n| --- | --- |\n| `x` | y |\n")
    with i18n.speaking("nl"):
        shown = str(rulings("leerdam").data)
    assert shown == '<div class="pb-rulings">' + markdown_html("## Not in any catalog\n\n| a | b |\n| --- | --- |\n| `x` | y |", literal=True) + "</div>"
    assert "Title" not in shown


def test_every_block_of_each_games_rulings_is_in_the_template_with_its_comment() -> None:
    with (ROOT / "i18n" / "playbook.pot").open("rb") as pot:
        template = {m.id: m for m in read_po(pot) if m.id}
    for slug in GAMES:
        page = ROOT / "docs" / "rules" / f"{slug}.md"
        with page.open("rb") as file:
            found = list(extract_rulings(file, {}, ("TRANSLATORS:",), {}))
        assert [block for _n, _f, block, _c in found] == prose_blocks(ruling_body(page.read_text(encoding="utf-8")))
        for _number, _function, block, _comments in found:
            assert block in template, block[:60]
            assert f"TRANSLATORS: Markdown from the rulings docs/rules/{slug}.md: keep the Markdown, code spans and table shape." in " ".join(template[block].auto_comments)
    # the names page is on no game's page: not a message
    assert prose_blocks(ruling_body(rules_doc("names")))[0] not in template


def ruling_shape(block: str) -> tuple[object, ...]:
    """What a translation keeps of a rulings block: its heading's level, its list's numbers, its
    code spans, its links' addresses and its table's shape (rows, and cells in each)."""
    return (
        len(block) - len(block.lstrip("#")),
        len(re.findall(r"(?m)^\s*\d+\. ", block)),
        sorted(re.findall(r"`[^`]+`", block)),
        sorted(re.findall(r"\]\(([^)]*)\)", block)),
        [line.count("|") for line in block.splitlines() if line.lstrip().startswith("|")],
    )


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE])
def test_each_languages_rulings_keep_their_markdown_code_spans_and_tables(lang: str) -> None:
    translated = catalog(lang)
    blocks = [block for slug in GAMES for block in prose_blocks(ruling_body(rules_doc(slug)))]
    changed = [block[:50] for block in blocks if translated.get(block).string and ruling_shape(translated.get(block).string) != ruling_shape(block)]
    assert changed == []


def test_the_extractor_reads_the_messages_marked_in_a_notebooks_code_cells() -> None:
    notebook = {
        "cells": [
            {"cell_type": "markdown", "source": "## Odds"},
            {"cell_type": "code", "source": ["%time x = 1\n", "# TRANSLATORS: a caption.\n", "table(caption=_('The odds'))\n", "print(_n('{n} die', '{n} dice', 2), name)"]},
        ]
    }
    file = io.BytesIO(json.dumps(notebook).encode())
    file.name = "/somewhere/x.ipynb"
    found = sorted(extract_notebook(file, {}, ("TRANSLATORS:",), {}), key=str)
    assert found == [
        (1, None, "## Odds", ["TRANSLATORS: Markdown from notebooks/x.ipynb: keep the Markdown."]),
        (2, "_", "The odds", ["TRANSLATORS: a caption."]),
        (2, "_n", ("{n} die", "{n} dice"), []),
    ]
