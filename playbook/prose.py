"""The notebooks' prose in the page's language: their Markdown cells, and the front page's cards.

A notebook's Markdown is rendered into the page by Voila in English (a ready kernel's page is
drawn before anyone asks for it). The server puts each Markdown cell in the page's language,
rendered to HTML as Voila renders Markdown (nbconvert's mistune renderer), into the page's texts
by the cell's number (`cell_htmls`, `playbook.page_texts.texts`); `static/prose.js` puts them in
place before the page is shown and before its `##` sections are folded into panels. An English
page changes nothing but the front page's cards.

- A cell is its blocks (`i18n.extract.prose_blocks`: headings, paragraphs, lists), each one
  message of the catalogs (`make messages` reads the notebooks), said whole and joined by a
  blank line. A block the catalog lacks stays English.
- The designers' own words, quoted ("...") in the prose, stay English, marked `lang="en"`.
- The front page's cards (a cell's metadata `"playbook_cards": "games"` or `"tools"`) are drawn
  after that cell in the page's language: the games from their cards (`Card.who`, `pitch`,
  `colour`), the tools from `TOOLS`.
- The pseudo-language (`i18n.PSEUDO`) says every text of a cell accented and bracketed.
- A game's rulings (docs/rules/SLUG.md, shown by `widgets.reference.rulings`) are said the same
  way, block by block (`cell_language`).
"""

from __future__ import annotations

import functools
import html
import importlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import i18n
from i18n import _
from i18n.extract import cell_source, prose_blocks
from rules.games import CARDS
from rules.text import Said, say

__all__ = ["TOOLS", "Tool", "cards_html", "cell_htmls", "cell_language", "markdown_html", "markdown_ready"]


def markdown_ready() -> None:
    """Import nbconvert's Markdown renderer now (most of a second: nbconvert brings nbclient
    and more). A game page's kernel does it before it waits for its page's request, so the
    rulings it renders after it are not the student's wait (`widgets.table.TableDashboard`)."""
    importlib.import_module("nbconvert.filters.markdown_mistune")  # nbconvert.filters.strings with it


def markdown_html(source: str, literal: bool = False) -> str:
    """Markdown as Voila's page renders a Markdown cell (nbconvert's mistune renderer, its
    headings' anchors; a notebook's images are not inlined: the playbook's have none). With
    `literal`, what looks like HTML is shown as written (a rulings page's `<name>` is a
    placeholder: as a tag, `<title>` would swallow the rest of the page)."""
    from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
    from nbconvert.filters.strings import strip_files_prefix

    renderer = IPythonRenderer(escape=literal, anchor_link_text="\u00b6")
    return str(strip_files_prefix(MarkdownWithMath(renderer=renderer).render(source)))


#: a phrase quoted in the English prose: the rules text's own words (a meme, a line it says).
_QUOTED = re.compile(r'"([^"\n]+)"')
#: a title in italics (the story the text retells, a chapter of it): three words or more, no
#: sentence's punctuation (a line of the playbook's own in italics is a sentence).
_TITLE = re.compile(r"(?<![*\w])\*([^*\s.,;:!?\"]+(?: [^*\s.,;:!?\"]+){2,})\*(?![*\w])")


def _keep_quotes_english(rendered: str, english: str) -> str:
    """The phrases quoted in the English Markdown, and its titles in italics, where the
    translation kept them as they are, marked as English (the designers' words are not
    translated)."""
    for phrase in dict.fromkeys(_QUOTED.findall(english)):
        for written in dict.fromkeys((html.escape(phrase), html.escape(phrase, quote=False))):
            rendered = rendered.replace(written, f'<span lang="en">{written}</span>')
    for title in dict.fromkeys(_TITLE.findall(english)):
        written = html.escape(title, quote=False)
        rendered = rendered.replace(f"<em>{written}</em>", f'<em lang="en">{written}</em>')
    return rendered


#: HTML's pieces: an English quote (left as it is), a tag, or the text between tags.
_PIECES = re.compile(r'<span lang="en">.*?</span>|<em lang="en">.*?</em>|<[^<>]*>|[^<]+', re.S)


def _pseudo_html(rendered: str) -> str:
    """Every text of the HTML in the pseudo-language, tags and English quotes as they are."""

    def said(piece: re.Match[str]) -> str:
        text = piece.group()
        if text.startswith("<") or not any(c.isalpha() for c in text):
            return text
        return i18n.pseudo(text)

    return _PIECES.sub(said, rendered)


def cell_language(source: str, lang: str, literal: bool = False) -> str:
    """A Markdown cell (its English source) in `lang`, as HTML (`literal`: as `markdown_html`)."""
    if lang == i18n.PSEUDO:
        return _pseudo_html(_keep_quotes_english(markdown_html(source, literal), source))
    translated = "\n\n".join(i18n.catalog_text(block, lang) for block in prose_blocks(source))
    return _keep_quotes_english(markdown_html(translated, literal), source)


@dataclass(frozen=True)
class Tool:
    """A tool's card on the front page: its notebook, its title as the page's header says it
    (`playbook.page_texts.PAGE_TITLES`), who it is for and what it does (messages), its colour."""

    notebook: str
    title: str
    who: Said
    pitch: Said
    colour: str


TOOLS = (
    Tool(
        "print_studio.ipynb",
        "Print studio",
        # TRANSLATORS: who the print studio is for, on its card on the front page.
        say("every game"),
        say("Character sheets, score pads, ledgers and slips as a PDF: blank for your group, or filled in from a saved game."),
        "#2e7d32",
    ),
    Tool(
        "balance_lab.ipynb",
        "Balance lab",
        # TRANSLATORS: who the balance lab is for (game designers), on its card on the front page.
        say("designers"),
        say("Let bots play hundreds of games to see who wins and how games end, and work out the exact odds of a roll."),
        "#4a5163",
    ),
)

_CARDS_STYLE = "display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));gap:14px;margin:10px 0 18px"
_CARD = (
    '<a class="pb-index-card pb-index-{name}" href="{href}" style="display:block;text-decoration:none;color:#1c1f26;'
    'border:1px solid #c9cedb;border-top:6px solid {colour};border-radius:10px;padding:12px 16px;background:#f8f9fc">'
    '<div style="font-size:1.3em;font-weight:700;color:{colour}">{title}</div>'
    '<div style="font-weight:600;color:#4a5163;margin:2px 0 6px">{who}</div>'
    '<div style="line-height:1.4">{pitch}</div>'
    '<div style="margin-top:8px;font-weight:600;color:#1d5c7a">{open}</div></a>'
)


def cards_html(which: str, lang: str) -> str:
    """The front page's cards of `which` ("games": every game with a notebook; "tools": the
    print studio and the balance lab) in `lang`, each a link to its page."""
    from playbook.page_texts import page_title

    with i18n.speaking(lang):
        arrow = "\u2190" if i18n.direction(lang) == "rtl" else "\u2192"  # on, in the reading direction
        if which == "games":
            # TRANSLATORS: the last line of a game's card on the front page, a link to the game's page; {arrow} is an arrow pointing on.
            open_game = _("Open the playbook {arrow}", arrow=arrow)
            shown = [(c.notebook, i18n.render(c.title), c.who, c.pitch, c.colour, open_game) for c in CARDS if c.notebook and c.pitch]
        elif which == "tools":
            # TRANSLATORS: the last line of a tool's card on the front page (the print studio, the balance lab), a link to it; {arrow} is an arrow pointing on.
            open_tool = _("Open {arrow}", arrow=arrow)
            shown = [(t.notebook, page_title(t.title, lang), t.who, t.pitch, t.colour, open_tool) for t in TOOLS]
        else:
            return ""
        cards = "".join(
            _CARD.format(
                name=html.escape(Path(notebook).stem),
                href=html.escape(notebook),
                colour=colour,
                title=html.escape(title, quote=False),
                who=html.escape(i18n.render(who), quote=False),
                pitch=html.escape(i18n.render(pitch), quote=False),
                open=html.escape(words, quote=False),
            )
            for notebook, title, who, pitch, colour, words in shown
        )
    return f'<div class="pb-index-cards" style="{_CARDS_STYLE}">{cards}</div>'


@functools.lru_cache(maxsize=128)
def _cells(path: str, changed: float, lang: str) -> tuple[tuple[str, str], ...]:
    notebook = json.loads(Path(path).read_text(encoding="utf-8"))
    found = []
    for number, cell in enumerate(notebook.get("cells", []), start=1):  # as the page numbers them
        if cell.get("cell_type") != "markdown":
            continue
        cards = str((cell.get("metadata") or {}).get("playbook_cards", ""))
        if lang == i18n.SOURCE and not cards:
            continue  # the page has it as Voila drew it
        source = cell_source(cell)
        shown = markdown_html(source) if lang == i18n.SOURCE else cell_language(source, lang)
        found.append((str(number), shown + (cards_html(cards, lang) if cards else "")))
    return tuple(found)


def cell_htmls(path: str | os.PathLike[str], lang: str) -> dict[str, str]:
    """The notebook at `path`'s Markdown cells in `lang` as HTML, by the number the page gives
    each cell (`cell-index`, from 1): every one in a language other than English, and the cells
    that carry the front page's cards in any. Kept per notebook, version and language; a
    notebook that cannot be read has none."""
    try:
        changed = os.stat(path).st_mtime
        return dict(_cells(os.fspath(path), changed, i18n.known(lang)))
    except (OSError, ValueError):
        return {}
