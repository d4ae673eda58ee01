"""Playing Dangerous Ideas' page headless, through clicks: Ana, Bo and Cy tell Goldilocks and the
Three Bears, from the starting stones to Bo's first turn (`to_first_turn`)."""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets

from tests.support.headless import one, start_table
from widgets.dangerous_ideas import DangerousIdeasDashboard

__all__ = [
    "ANA", "BO", "CY", "MEMES", "NAMES", "START",
    "click", "place_starting_stones", "setting_round", "start", "to_first_turn", "write",
]

NAMES = ("Ana", "Bo", "Cy")
ANA, BO, CY = 0, 1, 2
#: starting stones per node, for every seat.
START = {"think": 3, "create": 2, "connect": 1, "defend": 1}
#: (leaf meme, holder), (coiled meme, holder) per seat.
MEMES = {
    ANA: (("The woods need telegraph wires", "Goldilocks"), ("Humans will own the forest", "Goldilocks")),
    BO: (("Bears are friends, not food", "Goldilocks"), ("Porridge is healthy", "Mama Bear")),
    CY: (("Punctual exercise matters", "Papa Bear"), ("Everything has its place", "Baby Bear")),
}


def click(root: widgets.Widget, css: str) -> None:
    """Press the one enabled button of class `css`; the page must not refuse it."""
    button = one(root, css)
    assert not button.disabled, f"{css} is disabled"
    button.click()
    assert root.status.kind != "refuse", root.status.message


def start(
    dash: DangerousIdeasDashboard,
    names: Sequence[str] = NAMES,
    bots: dict[int, str] | None = None,
    seed: int = 11,
    chapters: int = 2,
    story: str = "Goldilocks and the Three Bears",
    table_dice: bool = False,
) -> None:
    start_table(dash, names, bots or {}, seed, {"pb-story-name": story, "pb-chapters": chapters, "pb-table-dice": table_dice})


def place_starting_stones(dash: DangerousIdeasDashboard) -> None:
    while dash.game.state.phase == "place":
        for node, count in START.items():
            one(dash, f"pb-place-{node}").value = count
        click(dash, "pb-place-confirm")


def write(dash: DangerousIdeasDashboard, text: str, holder: str, narration: str = "", leaf: bool | None = None) -> None:
    branch = one(dash, "pb-write-branch")
    if leaf is not None:
        branch.value = next(b for label, b in branch.options if ("leaf" in label) == leaf)
    one(dash, "pb-write-text").value = text
    one(dash, "pb-write-holder").value = holder
    one(dash, "pb-narration").value = narration
    click(dash, "pb-write-confirm")


def setting_round(dash: DangerousIdeasDashboard) -> None:
    for seat in range(3):
        (leaf, leaf_holder), (coiled, coiled_holder) = MEMES[seat]
        write(dash, leaf, leaf_holder, f"{NAMES[seat]} tells of {leaf_holder}.", leaf=True)
        write(dash, coiled, coiled_holder, leaf=False)


def to_first_turn(dash: DangerousIdeasDashboard) -> None:
    """Starting stones, the setting round and Chapter 1's title, all by clicks; Bo's turn begins."""
    place_starting_stones(dash)
    assert dash.game.state.phase == "setting"
    setting_round(dash)
    assert dash.game.state.phase == "title"
    one(dash, "pb-title-text").value = "In Which Goldilocks Wanders Into The Woods"
    one(dash, "pb-narration").value = "The forest was quiet that morning."
    click(dash, "pb-title-confirm")
    assert dash.game.state.phase == "turn-start" and dash.game.state.turn == BO
