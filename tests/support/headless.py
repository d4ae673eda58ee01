"""Reading a page's widgets headless: no kernel, no browser. A click is `button.click()` (it runs
the handlers) and typing is setting `.value` (it fires the observers); what a page would show is
read from its widgets' state, as a browser would receive it.

A widget is found by the CSS class the project gives it (`pb-start`, `pb-seat-0`): `find` lists
every match below a root, `one` insists on exactly one.
"""

from __future__ import annotations

import base64
import csv
import io
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from playbook.links import table_links
from rules.games import card

__all__ = ["click", "csv_rows", "everything", "find", "links", "one", "seat_query", "start_table", "synced_text", "visible", "walk"]


def walk(widget: widgets.Widget) -> Iterator[widgets.Widget]:
    """The widget and everything below it."""
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child)


def find(root: widgets.Widget, css: str) -> list[widgets.Widget]:
    return [w for w in walk(root) if css in w._dom_classes]


def one(root: widgets.Widget, css: str) -> widgets.Widget:
    found = find(root, css)
    assert len(found) == 1, f"{len(found)} widgets with class {css}"
    return found[0]


def click(button: widgets.Button) -> None:
    """Press a button that must be enabled."""
    assert not button.disabled, f"{button.description} is disabled"
    button.click()


def visible(widget: widgets.Widget) -> bool:
    return widget.layout.display != "none"


def _texts(value: object, numbers: bool) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item, numbers)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item, numbers)
    elif numbers and isinstance(value, (int, float)) and not isinstance(value, bool):
        yield str(value)


def synced_text(root: widgets.Widget) -> str:
    """Every text the dashboard's widgets would send to a browser (values, options, labels...)."""
    return "\n".join(text for w in walk(root) for text in _texts(w.get_state(), numbers=False))


def everything(root: widgets.Widget) -> str:
    """Every value the widgets would send to a browser: HTML, values, options, labels, and
    numbers too (a stepper's value), where `synced_text` reads strings only."""
    return "\n".join(t for w in walk(root) for t in _texts(w.get_state(), numbers=True))


def start_table(dash: Any, names: Sequence[str], bots: Mapping[int, str], seed: int, fields: Mapping[str, object]) -> None:
    """Fill a game's new-table form (how many, each name, who plays each seat, the game's own
    `fields` by their class, the seed) and press Start: the table must start."""
    one(dash, "pb-players").value = len(names)
    for i, name in enumerate(names):
        one(dash, f"pb-name-{i}").value = name
        one(dash, f"pb-kind-{i}").value = bots.get(i, "human")
    for css, value in fields.items():
        one(dash, css).value = value
    one(dash, "pb-seed").value = seed
    one(dash, "pb-start").click()
    assert dash.game is not None, dash.status.message


def links(dash: Any) -> dict[str, Any]:
    """Every link of the facilitator's table, relative to the game's page."""
    table = dash.store.load(dash.table_id)
    return table_links("", dash.slug, table.id, table.meta, card(dash.slug).seat_names(table.game.setup))


def seat_query(dash: Any, seat: int) -> str:
    """The query of `seat`'s own link at `dash`'s table."""
    return str(links(dash)["seats"][seat]["url"])


def csv_rows(link: str) -> list[dict[str, str]]:
    """The rows of a CSV download link, which must start with the UTF-8 byte-order mark."""
    match = re.search(r'href="data:text/csv;charset=utf-8;base64,([A-Za-z0-9+/=]+)"', link)
    assert match, link[:200]
    raw = base64.b64decode(match.group(1))
    assert raw.startswith(b"\xef\xbb\xbf")  # Excel reads UTF-8 only with the mark
    return list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
