"""The reference sections of a game page, below the table: the engine's replays of the text's
examples as readable tables, and the playbook's rulings.

The page template folds every `##` section of a notebook into a closed panel (one click to
open), so these show only when a player asks. Everything here is plain HTML for a notebook
output (no widgets): cheap to send, and readable in Jupyter as well as in Voila.

They speak the page's language (the kernel's, `i18n.current`: the notebook's first cell opened
the page and learnt it): the cells mark their captions and headers (`_`, extracted from the
notebooks' code cells), a log line or a cell that is a message (`Said`) is said here, a number
in the language's format (an English page's examples are as they always were); the rulings are
said per block through the catalogs, as the notebooks' prose (`playbook.prose`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from IPython.display import HTML

import i18n
from i18n.extract import ruling_body
from playbook.prose import cell_language, markdown_html
from playbook.resources import rules_doc
from rules.text import Said
from widgets.common import esc

__all__ = ["lines", "rulings", "table"]


def _said(value: object) -> object:
    """A cell or a line as the page's language says it: a message said, a count in its digits."""
    if isinstance(value, Said):
        return i18n.render(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return i18n.number(value)
    return value


def table(header: Sequence[str], rows: Sequence[Sequence[object]], caption: str = "", numeric: Sequence[int] = ()) -> HTML:
    """A table of the engine's figures; every cell is escaped; `numeric` columns align right."""
    head = "".join(f'<th scope="col">{esc(h)}</th>' for h in header)
    body = "".join(
        "<tr>" + "".join(f'<td{" class=pb-num" if i in numeric else ""}>{esc(_said(cell))}</td>' for i, cell in enumerate(row)) + "</tr>"
        for row in rows
    )
    title = f"<caption>{esc(caption)}</caption>" if caption else ""
    return HTML(f'<div class="pb-reference-table"><table>{title}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>')


def lines(items: Sequence[Said | str], caption: str = "", quoted: Collection[str] = ()) -> HTML:
    """A log or transcript as a list a player reads (not a monospace printout). The lines in
    `quoted` are the designers' own English (the text's example narrated): on a page in another
    language they stay so, marked `lang="en"`."""
    marked = i18n.current() != i18n.SOURCE  # an English page shows what it always did

    def line(item: Said | str) -> str:
        text = esc(_said(item))
        return f'<span lang="en">{text}</span>' if marked and item in quoted else text

    title = f"<p><strong>{esc(caption)}</strong></p>" if caption else ""
    return HTML(f'{title}<ol class="pb-reference-lines">{"".join(f"<li>{line(item)}</li>" for item in items)}</ol>')


def rulings(slug: str) -> HTML:
    """The playbook's page on how it reads `slug`'s text (docs/rules/SLUG.md), shown in full
    but for its title (the section's heading says it), rendered as the notebooks' prose is; in a
    language other than English each block is said through the catalogs (a block the catalog
    lacks stays English). Its `<name>` placeholders are shown as written."""
    body = ruling_body(rules_doc(slug))
    lang = i18n.current()
    shown = markdown_html(body, literal=True) if lang == i18n.SOURCE else cell_language(body, lang, literal=True)
    # A quote opening on a placeholder ("<name>'s truth"): Chromium would end a line between them.
    shown = shown.replace("&quot;&lt;", "&quot;\u2060&lt;")
    return HTML(f'<div class="pb-rulings">{shown}</div>')  # styled as a Markdown output (phone.css)
