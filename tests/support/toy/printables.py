"""Pig's paper: a score pad (a column per player, a row per turn) and its rules card
(`printables.document.Printables`)."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.platypus import Flowable, PageBreak

from printables import common
from rules.core import AnyGame

from . import CARD
from .rules import Setup, State

MATERIALS = ("Score pad", "Rules card")
#: turns a blank pad has room for.
TURNS = 15


@dataclass(frozen=True)
class Table:
    names: tuple[str, ...]
    target: int
    state: State | None


def table_of(source: common.Source[Setup, State]) -> Table:
    return Table(source.names, **common.variants(source, Setup, ("target",)), state=source.state)


def _score_pad(table: Table, width: float) -> list[Flowable]:
    names = [name or "" for name in table.names]
    played = table.state.banked if table.state is not None else None
    rows: list[list[common.Cell]] = [[str(turn)] + [""] * len(names) for turn in range(1, TURNS + 1)]
    if played is not None:
        rows.append(["banked"] + [str(b) for b in played])
    widths = common.columns_of(width, [1] + [3] * len(names))
    return [
        common.Section(CARD.title, "Score pad"),
        common.heading(f"{CARD.title} score pad: first to {table.target}", 0),
        common.ruled_table(["Turn", *names], rows, widths),
    ]


def rules_card(table: Table, width: float) -> list[Flowable]:
    return [
        *common.card_top(CARD.title, f"{len(table.names)} players. First to bank {table.target} wins."),
        *common.bullets("On your turn, roll the die as often as you like; each roll adds to your pot.", "A 1 loses the pot and ends your turn.", "Hold to bank the pot."),
    ]


def sheets(table: Table, page: str) -> list[Flowable]:
    width, _ = common.frame_size(page)
    return _score_pad(table, width) + [PageBreak()] + rules_card(table, width)


booklet = rules_card
debrief_compare = None


def debrief_story(game: AnyGame, *, label: str, width: float, reveal: bool, reveal_pledges: bool | None = None, stopped: str = "") -> list[Flowable]:
    return common.results_block(game, width, stopped=stopped)
