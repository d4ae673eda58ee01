"""A game's exact odds as the balance lab asks for them: the numbers a designer types, and the
report its rules work out, drawn.

A game whose rules give exact odds (`odds_report(...)`, also behind `playbook odds GAME`) says
in its drawing module how the lab asks for them: `ODDS = OddsForm(...)`. The lab builds one
input per `OddsInput`, in the order `odds_report` takes them, and shows `OddsForm.html(report)`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .common import card, esc

__all__ = ["OddsForm", "OddsInput", "report_card", "table_html"]


@dataclass(frozen=True)
class OddsInput:
    """One number of an odds query: `name` is `odds_report`'s argument and the control's class
    (``pb-odds-<name>``)."""

    name: str
    label: str
    value: int
    low: int
    high: int
    #: what the number is, as the control's tooltip says it.
    tip: str


@dataclass(frozen=True)
class OddsForm:
    """How the lab asks for a game's exact odds, and draws them."""

    #: what the game's choice says of the odds it gives.
    tooltip: str
    inputs: tuple[OddsInput, ...]
    #: the report of the game's rules' `odds_report`, as HTML.
    html: Callable[[Mapping[str, Any]], str]
    #: a line under the inputs (plain text), or "".
    note: str = ""


def report_card(title: str, chance: Mapping[str, Any], what: str, header: Sequence[str], rows: Sequence[Sequence[object]], note: str) -> str:
    """An odds report: the chance large (`chance`: its "probability" and exact "fraction"), what
    it is the chance of, a table of how it changes, and a note (plain text) under it."""
    return card(
        title,
        f'<div style="font-size:1.6em;font-weight:700">{float(chance["probability"]):.2%}</div>'
        f'<div>exact chance <b class="pb-odds-fraction">{esc(chance["fraction"])}</b> {esc(what)}</div>'
        + table_html(header, rows)
        + f'<p class="pb-muted">{esc(note)}</p>',
    )


def table_html(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain table of text cells (a header row only when one is named)."""
    head = "<tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr>" if any(header) else ""
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="pb-table">{head}{body}</table>'
