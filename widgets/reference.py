"""The reference sections of a game page, below the table: the engine's replays of the text's
examples as readable tables, and the playbook's rulings.

The page template folds every `##` section of a notebook into a closed panel (one click to
open), so these show only when a player asks. Everything here is plain HTML for a notebook
output (no widgets): cheap to send, and readable in Jupyter as well as in Voila.
"""

from __future__ import annotations

from collections.abc import Sequence

from IPython.display import HTML, Markdown

from playbook.resources import rules_doc
from widgets.common import esc

__all__ = ["lines", "rulings", "table"]


def table(header: Sequence[str], rows: Sequence[Sequence[object]], caption: str = "", numeric: Sequence[int] = ()) -> HTML:
    """A table of the engine's figures; every cell is escaped; `numeric` columns align right."""
    head = "".join(f'<th scope="col">{esc(h)}</th>' for h in header)
    body = "".join(
        "<tr>" + "".join(f'<td{" class=pb-num" if i in numeric else ""}>{esc(cell)}</td>' for i, cell in enumerate(row)) + "</tr>"
        for row in rows
    )
    title = f"<caption>{esc(caption)}</caption>" if caption else ""
    return HTML(f'<div class="pb-reference-table"><table>{title}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>')


def lines(items: Sequence[str], caption: str = "") -> HTML:
    """A log or transcript as a list a player reads (not a monospace printout)."""
    title = f"<p><strong>{esc(caption)}</strong></p>" if caption else ""
    return HTML(f'{title}<ol class="pb-reference-lines">{"".join(f"<li>{esc(item)}</li>" for item in items)}</ol>')


def rulings(slug: str) -> Markdown:
    """The playbook's page on how it reads `slug`'s text (docs/rules/SLUG.md), shown in full."""
    text = rules_doc(slug)
    # The page's own title is the section heading already.
    body = text.split("\n", 1)[1] if text.startswith("# ") else text
    return Markdown(body)
