"""The playbook's message extraction for `pybabel extract` (named in i18n/babel.cfg).

Babel's own Python extractor reads tokens; on Python 3.11 an f-string is one token, so a
message marked inside it (`f"<b>{_('Join')}</b>"`) would never reach the catalogs and stay
English in every language. This one reads the syntax tree instead, where every call is seen,
inside f-strings too. A `# TRANSLATORS:` comment on the lines just above a call goes with it.

The notebooks' Markdown cells (`extract_notebook`) are messages too: each block of a cell (a
heading, a paragraph, a list: `prose_blocks`) is one, which the page shows in its language
(`playbook.prose`); so are the messages marked in their code cells (the worked examples' and
odds tables' captions and lines), and each block of the games' rulings pages
(`extract_rulings`: docs/rules/SLUG.md, which a game page shows through
`widgets.reference.rulings`).
"""

from __future__ import annotations

import ast
import json
import os
import re
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

#: the marking functions and which of their arguments are messages (as the Makefile names them).
KEYWORDS: Mapping[str, tuple[int, ...]] = {"_": (1,), "_n": (1, 2), "say": (1,), "say_n": (1, 2)}


def extract_python(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[tuple[int, str, str | tuple[str, ...], list[str]]]:
    """Babel's extraction-method interface: (line, function, message or (singular, plural), comments)."""
    yield from _python_messages(fileobj.read().decode(options.get("encoding", "utf-8")), tuple(comment_tags))


def _python_messages(source: str, tags: tuple[str, ...]) -> Iterator[tuple[int, str, str | tuple[str, ...], list[str]]]:
    lines = source.splitlines()
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in KEYWORDS):
            continue
        positions = KEYWORDS[node.func.id]
        args = [node.args[i - 1] if len(node.args) >= i else None for i in positions]
        if not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
            continue  # not a literal: nothing a catalog could hold
        texts = tuple(a.value for a in args)  # type: ignore[union-attr]
        yield node.lineno, node.func.id, texts if len(texts) > 1 else texts[0], _comments(lines, node.lineno, tags)


def _comments(lines: list[str], lineno: int, tags: tuple[str, ...]) -> list[str]:
    """The translator's comment right above line `lineno` (1-based), if it starts with a tag."""
    found: list[str] = []
    at = lineno - 2
    while at >= 0 and lines[at].strip().startswith("#"):
        found.insert(0, lines[at].strip().lstrip("#").strip())
        at -= 1
    for i, text in enumerate(found):
        if tags and text.startswith(tags):
            return [" ".join(found[i:])]
    return []


#: blocks of a Markdown cell are parted by a blank line (spaces on it or not).
_BLANK_LINE = re.compile(r"\n\s*\n")


def prose_blocks(source: str) -> list[str]:
    """A Markdown cell's blocks (headings, paragraphs, lists), each one message of the catalogs:
    the page says a cell as its blocks' translations joined by a blank line."""
    return [block.strip() for block in _BLANK_LINE.split(source.strip()) if block.strip()]


def cell_source(cell: Mapping[str, Any]) -> str:
    """A notebook cell's text (a notebook file keeps it as a list of lines, or as one string)."""
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


#: a line of IPython's own syntax in a code cell (`%time`, `!ls`): not Python, so not read.
_MAGIC = re.compile(r"(?m)^[ \t]*[%!].*$")


def extract_notebook(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[tuple[int, str | None, str | tuple[str, ...], list[str]]]:
    """Babel's extraction-method interface for a notebook: every block of its Markdown cells,
    with a comment that names the notebook, and the messages marked in its code cells, as in
    the playbook's Python (the "line" is the cell's number, from 1)."""
    notebook = json.loads(fileobj.read().decode(options.get("encoding", "utf-8")))
    name = os.path.basename(str(getattr(fileobj, "name", ""))) or "a notebook"
    comment = f"TRANSLATORS: Markdown from notebooks/{name}: keep the Markdown."
    for number, cell in enumerate(notebook.get("cells", []), start=1):
        if cell.get("cell_type") == "code":
            code = _MAGIC.sub("", cell_source(cell))  # blanked, so the lines keep their numbers
            for _line, function, message, comments in _python_messages(code, tuple(comment_tags)):
                yield number, function, message, comments
        elif cell.get("cell_type") == "markdown":
            for block in prose_blocks(cell_source(cell)):
                yield number, None, block, [comment]


def ruling_body(text: str) -> str:
    """A rulings page (docs/rules/SLUG.md) as a game page shows it: without its `# ` title,
    which the page's section heading says already."""
    return text.split("\n", 1)[1] if text.startswith("# ") else text


def extract_rulings(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extraction-method interface for a game's rulings page: every block of what the
    page shows (`ruling_body`, `prose_blocks`), numbered from 1, with a comment that names it."""
    name = os.path.basename(str(getattr(fileobj, "name", ""))) or "a rulings page"
    comment = f"TRANSLATORS: Markdown from the rulings docs/rules/{name}: keep the Markdown, code spans and table shape."
    body = ruling_body(fileobj.read().decode(options.get("encoding", "utf-8")))
    for number, block in enumerate(prose_blocks(body), start=1):
        yield number, None, block, [comment]
