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

from i18n import Said, _, percent

from .common import card, esc

__all__ = ["OddsForm", "OddsInput", "chance_percent", "report_card", "table_html"]


@dataclass(frozen=True)
class OddsInput:
    """One number of an odds query: `name` is `odds_report`'s argument and the control's class
    (``pb-odds-<name>``)."""

    name: str
    #: the control's label and tooltip, said in the lab's language (`i18n.render`).
    label: str | Said
    value: int
    low: int
    high: int
    #: what the number is, as the control's tooltip says it.
    tip: str | Said


@dataclass(frozen=True)
class OddsForm:
    """How the lab asks for a game's exact odds, and draws them."""

    #: what the game's choice says of the odds it gives.
    tooltip: str | Said
    inputs: tuple[OddsInput, ...]
    #: the report of the game's rules' `odds_report`, as HTML.
    html: Callable[[Mapping[str, Any]], str]
    #: a line under the inputs (plain text), or "".
    note: str | Said = ""


def report_card(title: str, chance: Mapping[str, Any], what: str, header: Sequence[str], rows: Sequence[Sequence[object]], note: str) -> str:
    """An odds report: the chance large (`chance`: its "probability" and exact "fraction"), what
    it is the chance of, a table of how it changes, and a note (plain text) under it."""
    return card(
        title,
        f'<div style="font-size:1.6em;font-weight:700">{esc(chance_percent(chance["probability"]))}</div>'
        # The fraction is a value in its own markup: its escaped text goes into the escaped message.
        + "<div>" + _("exact chance {fraction} {what}", fraction=f'<b class="pb-odds-fraction">{esc(chance["fraction"])}</b>', what=esc(what)) + "</div>"
        + _odds_table(header, rows)
        + f'<p class="pb-muted">{esc(note)}</p>',
    )


def chance_percent(probability: Any) -> str:
    """A chance as the language writes a percentage with two decimals ("30.13%", "30,13 %")."""
    return percent(float(probability), digits=2)


def _odds_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """The report's table: its cells keep their words whole on a phone (`pb-odds-table`); an
    exact fraction (its last column) may end a line after its slash, and nowhere else."""
    head = "<tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr>"
    body = "".join(
        "<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row[:-1]) + '<td class="pb-odds-exact">' + esc(row[-1]).replace("/", "/<wbr>") + "</td></tr>"
        for row in rows
    )
    return f'<table class="pb-table pb-odds-table">{head}{body}</table>'


def table_html(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain table of text cells (a header row only when one is named)."""
    head = "<tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr>" if any(header) else ""
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="pb-table">{head}{body}</table>'
