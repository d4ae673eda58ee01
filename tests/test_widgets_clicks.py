"""Clicks a round costs, counted through the widgets as players press them.

A click is a button press; a box is a number typed or a choice made in a list. The budgets are
issue 10's: a New Rule seat's round (draw, keep or swap, the secret pick) in at most 3 clicks and
no box; the reveal and the payments of a 4-player round in at most 20 clicks; a Leerdam pledge is
one number and one click, an allocation one click on a preset.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import ipywidgets as widgets

from tests.support.headless import find, one, seat_query
from tests.support.headless import one as the
from tests.support.leerdam_page import start as start_leerdam
from tests.support.new_rule_page import start
from widgets.leerdam import LeerdamDashboard
from widgets.new_rule import NewRuleDashboard


class Counter:
    def __init__(self) -> None:
        self.clicks = 0
        self.boxes = 0

    def type(self, box: widgets.Widget, value: object) -> None:
        self.boxes += 1
        box.value = value


@contextmanager
def counting() -> Iterator[Counter]:
    counter = Counter()
    original = widgets.Button.click

    def click(self: widgets.Button) -> None:
        counter.clicks += 1
        original(self)

    widgets.Button.click = click
    try:
        yield counter
    finally:
        widgets.Button.click = original


NAMES = ("Ana", "Bo", "Cy", "Di")


def test_a_new_rule_round_on_phones_costs_three_clicks_a_seat_and_one_to_pay(store):
    host = NewRuleDashboard(store, query="")
    start(host, names=NAMES, rounds="3")
    phones = [NewRuleDashboard(store, query=seat_query(host, seat)) for seat in range(4)]
    with counting() as round_clicks:
        for seat, phone in enumerate(phones):
            phone.refresh()
            one(phone, "pb-draw").click()
            (find(phone, "pb-swap")[0] if seat % 2 and find(phone, "pb-swap") else one(phone, "pb-keep")).click()
        for phone in phones:
            phone.refresh()
            find(phone, "pb-pick")[0].click()
    assert round_clicks.clicks <= 3 * 4 and round_clicks.boxes == 0
    host.refresh()
    assert host.game.state.phase == "pay"
    with counting() as pay_clicks:
        for phone in phones:
            phone.refresh()
            if find(phone, "pb-pay-confirm"):
                one(phone, "pb-pay-confirm").click()
    host.refresh()
    assert host.game.state.round == 2, host.status.message
    assert pay_clicks.clicks <= 4 and pay_clicks.boxes == 0


def test_a_new_rule_round_on_one_hot_seat_screen(store):
    """Passing one laptop round: a seat's button opens its panel (and closes the one before)."""
    dash = NewRuleDashboard(store, query="")
    start(dash, names=NAMES, rounds="3")
    with counting() as round_clicks:
        for seat in range(4):
            one(dash, f"pb-seat-{seat}").click()
            one(dash, "pb-show-private").click()  # the screen asks first: the view is private
            one(dash, "pb-draw").click()
            one(dash, "pb-keep").click()
        for seat in range(4):
            one(dash, f"pb-seat-{seat}").click()
            one(dash, "pb-show-private").click()  # the screen asks first: the view is private
            find(dash, "pb-pick")[0].click()
        one(dash, "pb-hide").click()
    assert dash.game.state.phase == "pay"
    with counting() as pay_clicks:
        for seat in range(4):
            one(dash, f"pb-seat-{seat}").click()
            one(dash, "pb-show-private").click()  # the screen asks first: the view is private
            if find(dash, "pb-pay-confirm"):
                one(dash, "pb-pay-confirm").click()
        one(dash, "pb-hide").click()
    assert dash.game.state.round == 2, dash.status.message
    # per seat: its button, "Show it" (the screen asks first), Draw, Keep; its button, "Show it",
    # Pick (and one hide at the end)
    assert round_clicks.clicks <= 7 * 4 + 1
    # the reveal is drawn by itself; each payment is the seat's button, "Show it" and Confirm
    assert pay_clicks.clicks <= 24


def test_a_leerdam_year_of_ten_households_on_phones(store):
    host = LeerdamDashboard(store, query="")
    names = tuple(f"House {i + 1}" for i in range(10))
    start_leerdam(host, names=names, bots={})
    phones = [LeerdamDashboard(store, query=seat_query(host, seat)) for seat in range(10)]
    with counting() as pledges:
        for phone in phones:
            phone.refresh()
            pledges.type(the(phone, "pb-pledge"), 1)
            the(phone, "pb-pledge-confirm").click()
    assert host.refresh() or host.game.state.phase == "allocate"
    assert (pledges.clicks, pledges.boxes) == (10, 10)
    year = host.game.state.year
    with counting() as allocations:
        for phone in phones:
            phone.refresh()
            the(phone, "pb-alloc-preset-profit").click()  # feed myself, the rest to Profit: done
    host.refresh()
    assert host.game.state.year == year + 1 or host.game.state.over
    assert (allocations.clicks, allocations.boxes) == (10, 0)


def test_a_leerdam_year_of_ten_households_on_one_hot_seat_screen(store):
    dash = LeerdamDashboard(store, query="")
    start_leerdam(dash, names=tuple(f"House {i + 1}" for i in range(10)), bots={})
    year = dash.game.state.year
    with counting() as clicks:
        for seat in range(10):
            the(dash, f"pb-seat-{seat}").click()
            the(dash, "pb-show-private").click()  # the screen asks first: the view is private
            clicks.type(the(dash, "pb-pledge"), 1)
            the(dash, "pb-pledge-confirm").click()
        for seat in range(10):
            the(dash, f"pb-seat-{seat}").click()
            the(dash, "pb-show-private").click()  # the screen asks first: the view is private
            the(dash, "pb-alloc-preset-profit").click()
        the(dash, "pb-hide").click()
    assert dash.game.state.year == year + 1 or dash.game.state.over
    # per household: its button, "Show it" (the screen asks first), the number and Pledge; its
    # button, "Show it" and a preset
    assert (clicks.clicks, clicks.boxes) == (61, 10)
