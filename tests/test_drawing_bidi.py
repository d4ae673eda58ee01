"""Numbers and signs beside right-to-left names, headless: the board's HTML isolates every name it
writes and writes a signed number with a real minus sign in a left-to-right isolate (the room read
"(2-)" for "-2" beside a Hebrew name). In Chromium: tests/test_browser_bidi.py."""

from __future__ import annotations

import re

import pytest

from drawing.board import scene_html
from drawing.common import chip, name, number, text
from drawing.timeline import Timeline, scenes_for
from rules.core import AnyGame
from tests.support.phases import NAMES, PHASES, leerdam
from widgets.board import board_scene

#: a Hebrew name first; the phases' own names have an Arabic one.
HOUSEHOLDS = ("מרים", *NAMES)
MINUS_TWO = '<span class="pb-num" dir="ltr">\u22122</span>'


def struck_village() -> AnyGame:
    """A village whose first year's misfortune strikes the Hebrew name for 2 ("מרים (-2)")."""
    return leerdam(lambda g: any("מרים (-2)" in str(e.text) for e in g.state.log if e.visible_to is None), names=HOUSEHOLDS, years=6)


def test_a_hebrew_name_beside_a_negative_number_isolates_both() -> None:
    game = struck_village()
    drawn = scene_html(board_scene(game), "", "Village 1")
    assert f"<bdi>מרים</bdi> ({MINUS_TWO})" in drawn
    assert "(-2)" not in drawn and "(-1)" not in drawn  # no sign left to the bidi algorithm


def test_the_helpers_isolate_names_and_signed_numbers_and_leave_the_rest_as_esc_does() -> None:
    assert text("مريم: -3 · Zoë: 2") == '<bdi>مريم</bdi>: <span class="pb-num" dir="ltr">\u22123</span> · Zoë: 2'
    assert chip("מרים כהן: -2") == chip("x").replace(">x<", f"><bdi>מרים כהן</bdi>: {MINUS_TWO}<")  # the space inside the name stays in it
    # A range, a word with a dash, markup: as `esc` writes them.
    assert text("years 2-3, R-2, Ana & <i>Co</i>") == "years 2-3, R-2, Ana &amp; &lt;i&gt;Co&lt;/i&gt;"
    assert number(-2) == MINUS_TWO and number(7) == "7" and number("+3") == '<span class="pb-num" dir="ltr">+3</span>'
    assert name("<b>") == "<bdi>&lt;b&gt;</bdi>"


@pytest.mark.parametrize("slug, phase", [(slug, phase) for slug, phases in PHASES.items() for phase in phases])
def test_every_scene_isolates_every_right_to_left_name_it_writes(slug: str, phase: str) -> None:
    game = PHASES[slug][phase]()
    drawn = scene_html(scenes_for(slug).scene(game.state), Timeline.of(game).chart(), "Table 1")
    html_only = re.sub(r"<svg.*?</svg>", "", drawn, flags=re.S)  # a chart's labels are SVG text, laid out by the chart
    arabic = NAMES[2]
    seen = 0
    for found in re.finditer(arabic, html_only):
        before = html_only[: found.start()]
        if before.rfind("<") > before.rfind(">"):
            continue  # in an attribute (a title, an aria-label)
        seen += 1
        assert before.endswith("<bdi>"), html_only[found.start() - 120 : found.end() + 20]
    assert seen or arabic not in game.setup.names, "the name is on the board"  # Danger World's two have none


def test_a_status_line_isolates_a_right_to_left_name_from_the_words_around_it() -> None:
    from widgets.common import StatusLine

    line = StatusLine()
    line.ok("This is מרים's own page: your private view is first.")
    assert "This is <bdi>מרים</bdi>&#x27;s own page" in line.value, line.value


def test_two_right_to_left_names_in_a_list_are_isolated_one_by_one() -> None:
    drawn = text("Ana, Cy, יעל, مريم and Zoë share the win")
    assert drawn == "Ana, Cy, <bdi>יעל</bdi>, <bdi>مريم</bdi> and Zoë share the win", drawn
