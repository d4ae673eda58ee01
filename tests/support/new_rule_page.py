"""Playing New Rule's page: headless through clicks (`start`, `play_until`), and in Chromium
(`click`, `in_seat`, on a page under `ROOT`)."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

from playwright.sync_api import Page, expect

from rules.new_rule import State
from tests.support.headless import find, one, start_table
from widgets.new_rule import NewRuleDashboard

__all__ = ["NAMES", "ROOT", "click", "human_seat", "in_seat", "play_one", "play_until", "secrets_of", "start"]

# -- headless ------------------------------------------------------------------------------


def start(
    dash: NewRuleDashboard,
    names: Sequence[str] = ("Ana", "Bo", "Cy"),
    bots: dict[int, str] | None = None,
    seed: int = 7,
    rounds: str = "2",
) -> None:
    start_table(dash, names, bots or {}, seed, {"pb-max-rounds": rounds})


def human_seat(dash: NewRuleDashboard) -> int:
    return next(s for s in dash.game.state.waiting_for() if s not in dash.bots)


def play_one(dash: NewRuleDashboard, swap: bool = False) -> None:
    """One move by the first human seat the game waits for, through its private panel."""
    state = dash.game.state
    one(dash, f"pb-seat-{human_seat(dash)}").click()
    one(dash, "pb-show-private").click()  # the screen asks first: the view is private
    if state.phase == "draw":
        one(dash, "pb-draw").click()
    elif state.phase == "choose":
        if swap and find(dash, "pb-swap"):
            find(dash, "pb-swap")[-1].click()
        else:
            one(dash, "pb-keep").click()
    elif state.phase == "pick":
        find(dash, "pb-pick")[0].click()
    elif state.phase == "pay":
        # The chooser opens on the best payment: Confirm is ready at once.
        assert not one(dash, "pb-pay-confirm").disabled
        one(dash, "pb-pay-confirm").click()
    one(dash, "pb-hide").click()
    assert dash.status.kind != "refuse", dash.status.message


def play_until(dash: NewRuleDashboard, done: Callable[[State], bool], limit: int = 400) -> None:
    for n in range(limit):
        if done(dash.game.state):
            return
        play_one(dash, swap=n % 3 == 1)
    raise AssertionError("the game did not get there")


def secrets_of(dash: NewRuleDashboard, seat: int) -> list[str]:
    """Log lines only `seat` may read, as text and as escaped HTML."""
    lines = [str(e.text) for e in dash.game.state.log if e.visible_to is not None and e.visible_to == {seat}]
    assert lines
    return lines + [html.escape(line) for line in lines]


# -- in Chromium ---------------------------------------------------------------------------

ROOT = ".playbook-new-rule"
NAMES = ("Ana", "Bo & <i>Co</i>", "Cy 🍬")


def click(page: Page, css: str) -> None:
    page.locator(f"{ROOT} {css}").first.click()


def in_seat(page: Page, seat: int, *controls: str) -> None:
    """Take the hot seat, press `controls` in order, and hide the private panel again."""
    click(page, f".pb-seat-{seat}")
    click(page, ".pb-show-private")  # the shared screen asks first: the view is private
    expect(page.locator(f"{ROOT} .pb-private").first).to_be_visible()
    for css in controls:
        click(page, css)
    click(page, ".pb-hide")
    expect(page.locator(f"{ROOT} .pb-private")).to_have_count(0)
