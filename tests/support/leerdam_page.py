"""Playing Leerdam's page headless, through clicks: a village of `NAMES` with `BOTS` by default."""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets

import widgets.leerdam as leerdam_widgets
from tests.support.headless import one, start_table, walk
from widgets.leerdam import LeerdamDashboard

__all__ = ["BOTS", "NAMES", "allocate", "cell", "play_year", "pledge", "start"]

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")
BOTS = {2: "fair", 3: "altruist", 4: "free-rider"}


def start(
    dash: LeerdamDashboard,
    names: Sequence[str] = NAMES,
    bots: dict[int, str] | None = None,
    seed: int = 11,
    max_years: str = "none",
    end_check: int = 8,
    by_hand: bool = False,
    table_dice: bool = False,
) -> None:
    fields = {"pb-max-years": max_years, "pb-end-check": end_check, "pb-by-hand": by_hand, "pb-table-dice": table_dice}
    start_table(dash, names, BOTS if bots is None else bots, seed, fields)


def pledge(dash: LeerdamDashboard, seat: int, units: int, hide: bool = True) -> None:
    one(dash, f"pb-seat-{seat}").click()
    one(dash, "pb-show-private").click()  # the screen asks first: the view is private
    one(dash, "pb-pledge").value = units
    one(dash, "pb-pledge-confirm").click()
    if hide:
        one(dash, "pb-hide").click()


def cell(dash: LeerdamDashboard, recipient: int, activity: str) -> widgets.Widget:
    """The open allocation's stepper for (recipient, activity), adding the recipient's row as
    "add a household" does."""
    (grid,) = [w for w in walk(dash) if isinstance(w, leerdam_widgets.AllocationGrid)]
    grid.add_recipient(recipient)
    return one(dash, f"pb-alloc-{recipient}-{activity}")


def allocate(dash: LeerdamDashboard, seat: int, plan: dict[tuple[int, str], int] | None = None) -> None:
    """Allocate through the grid; by default 2 on own Subsistence and the rest on own Profit."""
    one(dash, f"pb-seat-{seat}").click()
    one(dash, "pb-show-private").click()  # the screen asks first: the view is private
    if plan is None:
        free = dash.game.state.free_units(seat)
        plan = {(seat, "subsistence"): min(2, free), (seat, "profit"): max(0, free - 2)}
    for (recipient, activity), units in plan.items():
        cell(dash, recipient, activity).value = units
    one(dash, "pb-alloc-confirm").click()
    assert dash.status.kind != "refuse", dash.status.message
    one(dash, "pb-hide").click()


def play_year(dash: LeerdamDashboard, pledges: dict[int, int] | None = None) -> None:
    """Both humans pledge and allocate by clicks."""
    year = dash.game.state.year
    for seat, units in (pledges or {0: 1, 1: 2}).items():
        pledge(dash, seat, units)
        assert dash.status.kind != "refuse", dash.status.message
    assert dash.game.state.phase == "allocate"
    for seat in (0, 1):
        allocate(dash, seat)
    assert dash.game.state.over or dash.game.state.year == year + 1
