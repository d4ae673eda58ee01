"""Text that escaped translation: read a page (its widgets, or its HTML) in the pseudo-language
(`i18n.PSEUDO`), where every translated message is bracketed ⟦…⟧; any other words are a string
the catalogs never saw. Names and numbers are not messages: the test names what to leave aside."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from html.parser import HTMLParser
from typing import Any

import ipywidgets as widgets

#: what may stand outside brackets: digits, punctuation, symbols, spaces.
_NOT_WORDS = re.compile(r"^[\W\d_]*$")
#: a bracketed message, nested ones included (a message inside another).
_BRACKETED = re.compile(r"⟦[^⟦⟧]*⟧")


class _Text(HTMLParser):
    """The text nodes and readable attributes of an HTML fragment; scripts and styles aside."""

    READ = ("title", "alt", "aria-label", "placeholder")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        self.found += [value for key, value in attrs if key in self.READ and value]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.found.append(data)


def html_texts(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return parser.found


def widget_texts(root: widgets.Widget) -> Iterator[str]:
    """Every text a reader meets in a widget tree: descriptions, tooltips, placeholders, option
    labels, labels' values and HTML's text nodes and readable attributes."""
    seen: set[int] = set()
    todo = [root]
    while todo:
        widget = todo.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        for trait in ("description", "tooltip", "placeholder"):
            value = getattr(widget, trait, None)
            if isinstance(value, str) and value:
                yield value
        if isinstance(widget, widgets.HTML | widgets.HTMLMath):
            yield from html_texts(widget.value)
        elif isinstance(widget, widgets.Label):
            yield widget.value
        labels = getattr(widget, "_options_labels", None)
        if labels:
            yield from labels
        todo += [child for child in getattr(widget, "children", ()) if isinstance(child, widgets.Widget)]


def shown_parts(root: widgets.Widget, wanted: Callable[[list[str]], bool]) -> list[widgets.Widget]:
    """The widgets under `root` whose classes are `wanted`, as the page shows them now (a hidden
    branch left out): a game's own parts, to read apart from the page's shared ones."""
    parts: list[widgets.Widget] = []
    todo: list[widgets.Widget] = [root]
    while todo:
        widget = todo.pop()
        if getattr(widget, "layout", None) is not None and widget.layout.display == "none":
            continue
        if wanted(list(getattr(widget, "_dom_classes", ()))):
            parts.append(widget)
            continue
        todo += [child for child in getattr(widget, "children", ()) if isinstance(child, widgets.Widget)]
    return parts


def escaped(texts: Iterable[str], names: Iterable[str] = ()) -> list[str]:
    """The texts holding words outside any ⟦…⟧: a message that was not translated. Text that is
    only a name in `names`, a number or punctuation is left aside."""
    names = sorted({n for n in names if n}, key=len, reverse=True)
    wrong = []
    for text in texts:
        rest = text
        while True:  # innermost brackets first: a message inside a message
            inner = _BRACKETED.sub(" ", rest)
            if inner == rest:
                break
            rest = inner
        for name in names:
            rest = rest.replace(name, " ")
        if not _NOT_WORDS.match(rest):
            wrong.append(text.strip())
    return wrong


#: the text a reader meets in a live page: every shown text node (the header's, the dashboard's),
#: readable attributes and the options of drop-downs; the page's machinery (scripts, styles, the
#: hidden heartbeat), what is not shown and the designers' texts quoted in English aside.
_DOM_TEXTS_JS = """() => {
  const machinery = 'script, style, noscript, .pb-heartbeat, .pb-alive, .pb-navigator, .pb-device';
  // The designers' own texts, quoted in English (lang="en") in a page of another language, stay so.
  const quoted = (el) => document.documentElement.lang !== 'en' && el.closest('[lang]') !== null
    && el.closest('[lang]').getAttribute('lang') === 'en';
  const shown = (el) => el && !el.closest(machinery) && el.getClientRects().length > 0
    && !el.closest('details:not([open]) > :not(summary)') && !quoted(el);
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (node.textContent.trim() && (shown(el) || (el && el.tagName === 'OPTION' && shown(el.closest('select'))))) {
      found.push(node.textContent);
    }
  }
  for (const el of document.body.querySelectorAll('[title], [alt], [aria-label], [placeholder]')) {
    if (!shown(el)) { continue; }
    for (const key of ['title', 'alt', 'aria-label', 'placeholder']) {
      const value = el.getAttribute(key);
      // ipywidgets writes a description's missing tooltip as title="null" on its label: no text of ours
      if (value && value.trim() && !(key === 'title' && value === 'null' && el.classList.contains('widget-label'))) { found.push(value); }
    }
  }
  return found;
}"""


def escaped_across(texts: Iterable[str], names: Iterable[str] = ()) -> list[str]:
    """`escaped` for text nodes read in the page's order (`dom_texts`): a message whose markup
    splits it over several nodes ("⟦Here: <b>2</b> of 4⟧") is bracketed across them. What is
    left outside every bracket, node by node, holding words (names aside)."""
    rest = "\0".join(text.replace("\xa0", " ") for text in texts)
    while True:
        inner = _BRACKETED.sub(" ", rest)
        if inner == rest:
            break
        rest = inner
    return escaped(rest.split("\0"), [name.replace("\xa0", " ") for name in names])


def dom_texts(page: Any) -> list[str]:
    """The texts a reader meets in a live page (a Playwright `Page`), as Chromium shows them."""
    return [str(text) for text in page.evaluate(_DOM_TEXTS_JS)]
