"""The charts: a colour, a marker and a dash per household, and every name drawn as typed."""

from __future__ import annotations

import random
import warnings

import pytest

from drawing.common import SERIES_COLOURS
from lab import BOTS
from lab.core import play_out
from rules import new_game
from rules.leerdam import Setup, ledger_rows, view_for
from widgets.common import figure_png, plot_context, plot_families, series_styles
from widgets.leerdam import village_figure

NAMES = (
    "Ana 🐻",
    "李小龙",
    "محمد",
    "שרה",
    "Bo & <Co>",
    "Zoë ❤",
    "$money$",
    "Dee",
    "Eve the very long household of Leerdam",
    "Fay 🌷",
)
#: Okabe and Ito's colour-blind-safe colours the palette starts from.
OKABE_ITO = {"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000"}


@pytest.fixture(scope="module")
def finished() -> tuple:
    setup = Setup(names=NAMES)
    bot = next(iter(BOTS["leerdam"].values()))
    game = play_out(new_game("leerdam", setup, 5), [bot] * len(NAMES), random.Random(1))
    return view_for(game.state, None), ledger_rows(game.state, None), setup.dyke_start


def drawn(finished: tuple) -> tuple[object, bytes, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figure = village_figure(*finished)
        png = figure_png(figure)
    return figure, png, [str(w.message) for w in caught]


def household_lines(axis) -> list:
    return [line for line in axis.get_lines() if not line.get_label().startswith("_")]


def test_ten_households_get_ten_distinct_colour_and_marker_pairs(finished):
    figure, png, _ = drawn(finished)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    wealth_ax, vp_ax = figure.axes[2], figure.axes[3]
    for axis in (wealth_ax, vp_ax):
        lines = household_lines(axis)
        assert len(lines) == 10
        pairs = {(line.get_color(), line.get_marker()) for line in lines}
        assert len(pairs) == 10
        assert len({line.get_color() for line in lines}) == 10
        assert len({line.get_marker() for line in lines}) == 10
        assert {line.get_color() for line in lines} >= OKABE_ITO
        # later households are drawn on top, smaller, hollow and shifted a little: none hides another
        sizes = [line.get_markersize() for line in lines]
        assert sizes == sorted(sizes, reverse=True) and sizes[0] > sizes[-1]
        assert [line.get_zorder() for line in lines] == sorted(line.get_zorder() for line in lines)
        assert {line.get_markerfacecolor() for line in lines} == {"white"}
        assert len({line.get_xdata()[0] for line in lines}) == 10


def test_the_legend_has_every_name_as_typed_and_no_glyph_is_missing(finished):
    figure, _, caught = drawn(finished)
    missing = [m for m in caught if "missing from font" in m]
    assert missing == []
    legend = figure.legends[0]
    shown = [t.get_text().replace("\n", " ") for t in legend.get_texts()]
    assert sorted(shown) == sorted(NAMES)
    assert not any("…" in t for t in shown)
    # a dollar sign is drawn as typed, not read as mathtext
    money = next(t for t in legend.get_texts() if "money" in t.get_text())
    assert money.get_text() == "$money$" and not money._parse_math


def test_plot_families_cover_every_script_the_names_use():
    families = plot_families()
    assert families[0] == "DejaVu Sans"
    from matplotlib import font_manager

    def has(ch: str) -> bool:
        for family in families:
            path = font_manager.findfont(font_manager.FontProperties(family=family), fallback_to_default=False)
            if ord(ch) in font_manager.get_font(path).get_charmap():
                return True
        return False

    for ch in "A李محש🐻❤🌷":
        assert has(ch), ch


def test_without_the_fallback_fonts_an_emoji_would_be_a_box():
    """The check above can fail: matplotlib's default font lacks these glyphs."""
    from matplotlib.figure import Figure

    figure = Figure()
    axis = figure.subplots()
    axis.plot([0, 1], [0, 1], label="Ana 🐻 李")
    axis.legend()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import io

        figure.savefig(io.BytesIO(), format="png")
    assert any("missing from font" in str(w.message) for w in caught)


@pytest.mark.parametrize("n", [1, 2, 10, 20])
def test_series_styles_differ_in_colour_and_marker(n):
    styles = series_styles(n)
    assert len(styles) == n
    assert len({(s.colour, s.marker) for s in styles}) == n
    assert len({(s.colour, s.marker, str(s.dash)) for s in styles}) == n
    assert all(s.colour in SERIES_COLOURS for s in styles)
    offsets = [s.offset for s in styles]
    assert offsets == sorted(offsets) and abs(sum(offsets)) < 1e-9
    if n > 1:
        assert len(set(offsets)) == n and max(offsets) - min(offsets) <= 0.25


def test_a_plot_without_its_own_style_still_gets_distinct_markers():
    from matplotlib.figure import Figure

    with plot_context():
        figure = Figure()
        axis = figure.subplots()
        lines = [axis.plot([0, 1], [i, i])[0] for i in range(10)]
    assert len({(line.get_color(), line.get_marker(), str(line.get_linestyle())) for line in lines}) == 10
