"""The notebooks' prose in the page's language (playbook/prose.py): every block of every Markdown
cell a message of the catalogs, each cell said in a language as Voila renders Markdown, the
designers' quoted words kept English, and the front page's cards drawn from the games' cards."""

from __future__ import annotations

import html
import io
import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import i18n
from i18n.extract import cell_source, extract_notebook, prose_blocks
from playbook.prose import TOOLS, cards_html, cell_htmls, cell_language, markdown_html
from playbook.serve import NOTEBOOKS_DIR
from rules.games import CARDS
from rules.text import Said
from tests.support.pseudo import escaped, html_texts

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("*.ipynb"))
#: what a page in a language other than English keeps English: the designers' words.
ENGLISH = re.compile(r'<(span|em) lang="en">.*?</\1>', re.S)


def markdown_cells(path: Path) -> list[tuple[int, str]]:
    """A notebook's Markdown cells: (the number the page gives it, from 1; its source)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [(number, cell_source(cell)) for number, cell in enumerate(cells, start=1) if cell["cell_type"] == "markdown"]


def catalog(lang: str):
    with (ROOT / "i18n" / "locales" / lang / "LC_MESSAGES" / "playbook.po").open("rb") as po:
        return read_po(po, locale=lang)


def test_every_block_of_every_notebooks_markdown_is_in_the_template_with_its_comment() -> None:
    with (ROOT / "i18n" / "playbook.pot").open("rb") as pot:
        template = {m.id: m for m in read_po(pot) if m.id}
    blocks = [(path.name, block) for path in NOTEBOOKS for _number, source in markdown_cells(path) for block in prose_blocks(source)]
    assert len(blocks) > 50
    assert [block[:60] for _name, block in blocks if block not in template] == []
    for name, block in blocks:
        assert f"TRANSLATORS: Markdown from notebooks/{name}: keep the Markdown." in " ".join(template[block].auto_comments), block[:60]
    # no HTML left in the prose: the front page's cards are drawn, not translated
    assert not any(block.startswith("<") for _name, block in blocks)


def markdown_shape(block: str) -> tuple[object, ...]:
    """What a translation keeps of a block's Markdown: its heading's level, its list's items,
    its links' addresses, its `code` and its **bold** marks."""
    return (
        len(block) - len(block.lstrip("#")),
        len(re.findall(r"(?m)^\s*\d+\. ", block)),
        sorted(re.findall(r"\]\(([^)]*)\)", block)),
        sorted(re.findall(r"`[^`]+`", block)),
        block.count("**"),
    )


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE])
def test_each_languages_blocks_keep_their_markdown(lang: str) -> None:
    translated = catalog(lang)
    blocks = {block for path in NOTEBOOKS for _number, source in markdown_cells(path) for block in prose_blocks(source)}
    changed = [(block[:50], translated.get(block).string[:50]) for block in sorted(blocks) if markdown_shape(translated.get(block).string) != markdown_shape(block)]
    assert changed == []


def test_the_extractor_splits_a_cell_into_its_blocks_by_blank_lines() -> None:
    notebook = {
        "cells": [
            {"cell_type": "markdown", "source": ["## How to play\n", "\n", "**One.** A line\n", "that goes on.\n", "  \n", "1. a\n", "2. b\n"]},
            {"cell_type": "code", "source": "print('not prose')"},
            {"cell_type": "markdown", "source": "Last."},
        ]
    }
    file = io.BytesIO(json.dumps(notebook).encode())
    file.name = "/somewhere/x.ipynb"
    found = list(extract_notebook(file, {}, ("TRANSLATORS:",), {}))
    comment = ["TRANSLATORS: Markdown from notebooks/x.ipynb: keep the Markdown."]
    assert found == [
        (1, None, "## How to play", comment),
        (1, None, "**One.** A line\nthat goes on.", comment),
        (1, None, "1. a\n2. b", comment),
        (3, None, "Last.", comment),
    ]


def test_a_cell_is_rendered_as_voilas_page_renders_markdown() -> None:
    from nbconvert.exporters import HTMLExporter

    source = "## The odds\n\nA *set*, **4** and `playbook serve`.\n\n1. one\n2. [two](index.ipynb)"
    assert markdown_html(source) == HTMLExporter().markdown2html({"cell": {}}, source)
    assert markdown_html(source).startswith('<h2 id="The-odds">The odds<a class="anchor-link" href="#The-odds">')


def test_a_dutch_page_has_every_markdown_cell_in_dutch_and_an_english_page_only_the_cards() -> None:
    dutch = catalog("nl")
    path = NOTEBOOKS_DIR / "leerdam.ipynb"
    cells = cell_htmls(path, "nl")
    assert sorted(cells, key=int) == [str(number) for number, _source in markdown_cells(path)]
    how = dutch.get("## How to play").string
    assert how.startswith("## ") and how != "## How to play"
    assert f">{html.escape(how[3:], quote=False)}<" in "".join(cells.values())
    assert "How to play" not in "".join(cells.values())
    # each block said whole, joined as the cell's blocks were: a list stays a list
    (number, source), *_ = [(n, s) for n, s in markdown_cells(path) if s.startswith("## How to play")]
    assert cells[str(number)].count("<ol>") == source.count("\n1. ") == 1
    assert cell_htmls(path, "en") == {}  # Voila drew it in English
    assert sorted(cell_htmls(NOTEBOOKS_DIR / "index.ipynb", "en").values()) == sorted(
        markdown_html(source) + cards_html(which, "en")
        for _n, source, which in [(n, s, json.loads((NOTEBOOKS_DIR / "index.ipynb").read_text())["cells"][n - 1]["metadata"].get("playbook_cards")) for n, s in markdown_cells(NOTEBOOKS_DIR / "index.ipynb")]
        if which
    )


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE])
def test_the_designers_quoted_words_stay_english_marked_so(lang: str) -> None:
    cells = "".join(cell_htmls(NOTEBOOKS_DIR / "dangerous_ideas.ipynb", lang).values())
    for words in ("Try everything once", "With the pool now at 6", "punctual exercise"):
        assert f'<span lang="en">{words}</span>' in cells, (lang, words)
    assert '<em lang="en">In Which The Bears Return To Find Their Porridge Eaten</em>' in cells


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_every_cell_reads_in_the_pseudo_language_but_the_designers_words(path: Path) -> None:
    cells = cell_htmls(path, i18n.PSEUDO)
    assert len(cells) == len(markdown_cells(path))
    for shown in cells.values():
        assert escaped(html_texts(ENGLISH.sub("", shown)), names=[card.title for card in CARDS]) == []
    # the pseudo-language keeps the markup and its links
    assert all(re.findall(r'href="([^"]*)"', shown) == re.findall(r'href="([^"]*)"', markdown_html(source)) for (number, source), shown in zip(markdown_cells(path), cells.values(), strict=True) if "pb-index-cards" not in shown)


def test_the_front_pages_cards_are_every_game_and_tool_linking_its_page_in_the_readers_language() -> None:
    english = cards_html("games", "en")
    links = re.findall(r'<a class="pb-index-card pb-index-(\w+)" href="([^"]+)"', english)
    assert links == [(Path(card.notebook).stem, card.notebook) for card in CARDS if card.notebook]
    for game in CARDS:
        (shown,) = re.findall(rf'href="{re.escape(game.notebook)}".*?</a>', english)
        assert game.title in shown and html.escape(str(game.pitch), quote=False) in shown and str(game.who) in shown
        assert (NOTEBOOKS_DIR / game.notebook).is_file()
        # who plays, as the text says: the card's own range
        assert isinstance(game.who, Said) and dict(game.who.values) == {"low": game.players.text_low, "high": game.players.text_high}
    assert "3-5 players" in english and "a GM and 1-12 players" in english and "Open the playbook \u2192" in english
    tools = cards_html("tools", "en")
    assert re.findall(r'href="([^"]+)"', tools) == [tool.notebook for tool in TOOLS] and "Print studio" in tools
    dutch = catalog("nl")
    nl = cards_html("games", "nl")
    pitch = dutch.get(str(CARDS["leerdam"].pitch)).string
    assert pitch and pitch != str(CARDS["leerdam"].pitch) and html.escape(pitch, quote=False) in nl
    assert "5-10 huishoudens" in nl and str(CARDS["leerdam"].pitch) not in nl
    assert "\u2190" in cards_html("tools", "ar") and "\u2192" not in cards_html("tools", "ar")  # on, right to left
    assert escaped(html_texts(cards_html("games", i18n.PSEUDO) + cards_html("tools", i18n.PSEUDO)), names=[card.title for card in CARDS]) == []


def test_a_block_the_catalog_lacks_stays_english() -> None:
    assert cell_language("## Not a message of the catalogs\n\nNor this.", "nl") == markdown_html("## Not a message of the catalogs\n\nNor this.")


def test_a_page_gets_the_prose_of_its_own_notebook_in_the_served_folder_only(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from playbook.doors import OwnPage

    def prose(path: str) -> dict[str, str]:
        page = SimpleNamespace(_page_path=path, contents_manager=SimpleNamespace(root_dir=str(NOTEBOOKS_DIR)), language="nl")
        return OwnPage._prose(page)  # type: ignore[arg-type]

    assert prose("leerdam.ipynb") == cell_htmls(NOTEBOOKS_DIR / "leerdam.ipynb", "nl") != {}
    outside = tmp_path / "elsewhere.ipynb"
    outside.write_text(json.dumps({"cells": [{"cell_type": "markdown", "source": "# Secret"}]}), encoding="utf-8")
    assert (NOTEBOOKS_DIR / ("../" * 12 + str(outside).lstrip("/"))).resolve() == outside.resolve()  # the way out exists
    assert prose("../" * 12 + str(outside).lstrip("/")) == {}
    assert prose(str(outside)) == {} and prose("no_such.ipynb") == {} and prose("") == {}
