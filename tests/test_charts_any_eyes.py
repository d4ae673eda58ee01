"""Every chart tells its series apart by more than colour, and gives its numbers as a table.

- the board's SVG charts (`drawing.chart`): each line has a marker shape and a dash of its own,
  so that with the colours taken away (greyscale, or any colour blindness) no two lines of a
  ten-household village look alike; the legend draws each with the same marker and dash;
- the table beside a chart holds the chart's numbers: read back from where the markers and bars
  are drawn, they are the table's, and the ledger's;
- Leerdam's matplotlib plots: a marker per household whatever its colour, and the tables under
  the image (`village_numbers`) hold the numbers of the figure's lines.
"""

from __future__ import annotations

import math
import random
import re
import xml.etree.ElementTree as ET

import pytest

from drawing import leerdam as leerdam_drawing
from drawing.chart import SERIES_SHAPES, chart_svg, series_look
from lab import BOTS
from lab.core import play_out
from rules import new_game
from rules.leerdam import Setup, ledger_rows, view_for
from widgets.leerdam import village_figure, village_numbers

#: ten households, as in the issue; 4 and 10, and 3, 5 and 8, had looked alike to deuteranopes
NAMES = ("Anneliese", "Bo & <i>Co</i>", "Zoë", "李小龙", "مريم", "🌊 Wave", "Eddie", "Fenna", "Gijs", "Hanneke")
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def village() -> tuple:
    """A finished game of ten households played by bots: its last state and setup."""
    setup = Setup(names=NAMES)
    bot = next(iter(BOTS["leerdam"].values()))
    game = play_out(new_game("leerdam", setup, 11), [bot] * len(NAMES), random.Random(2))
    return game.state, setup


def charts_of(drawn: str) -> list[tuple[ET.Element, list[list[str]], list[str]]]:
    """(svg element, table body rows as cell texts, table header texts) of each chart in `drawn`."""
    svgs = re.findall(r"<svg\b.*?</svg>", drawn, re.S)
    tables = re.findall(r'<table class="pb-chart-table">.*?</table>', drawn, re.S)
    assert len(svgs) == len(tables) and svgs, "a table beside every chart"
    return [(ET.fromstring(svg), *table_cells(table)) for svg, table in zip(svgs, tables)]


def plain(cell: str) -> str:
    return re.sub(r"<[^>]+>", "", cell).replace("\u2212", "-").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")


def table_cells(table: str) -> tuple[list[list[str]], list[str]]:
    """Body rows (the row's heading first) and the column headings of a `pb-chart-table`."""
    assert re.search(r"<caption>.+?</caption>", table), "a table with a caption"
    head = [plain(c) for c in re.findall(r'<th scope="col">(.*?)</th>', table)]
    body = table.split("<tbody>", 1)[1]
    rows = [[plain(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)] for row in re.findall(r"<tr>(.*?)</tr>", body)]
    assert all(row and re.search(r'<th scope="row">', r) for row, r in zip(rows, re.findall(r"<tr>(.*?)</tr>", body)))
    return rows, head


def marker_of(element: ET.Element) -> tuple[str, tuple[float, float], tuple[int, ...]]:
    """(kind, centre, outline) of a marker element: the outline is the directions of its corners
    from its centre, to 15 degrees, whatever its size and colour."""
    if element.tag == f"{SVG}circle":
        return "circle", (float(element.get("cx", 0)), float(element.get("cy", 0))), ()
    points = [tuple(map(float, p.split(","))) for p in str(element.get("points")).split()]
    cx, cy = sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
    corners = sorted(round(math.degrees(math.atan2(y - cy, x - cx)) / 15) * 15 % 360 for x, y in points)
    return "polygon", (cx, cy), tuple(corners)


def series_of(svg: ET.Element) -> list[dict]:
    """Each line of the chart as drawn: its marker outline, dash, colour and marker centres."""
    out = []
    for group in svg.iter(f"{SVG}g"):
        if group.get("class") != "pb-series":
            continue
        line = group.find(f"{SVG}polyline")
        markers = [marker_of(m) for m in group if m.tag != f"{SVG}polyline"]
        assert markers, "every point of a line has a marker"
        assert len({(kind, outline) for kind, _, outline in markers}) == 1, "one shape per line"
        out.append(
            {
                "shape": (markers[0][0], markers[0][2]),
                "dash": "" if line is None else line.get("stroke-dasharray", ""),
                "colour": next(iter(group)).get("fill") if line is None else line.get("stroke"),
                "centres": [c for _, c, _ in markers],
            }
        )
    return out


def value_at(svg: ET.Element):
    """The y axis of a chart, read from its grid: the value drawn at a y position."""
    children = list(svg)
    grid = []
    for k, element in enumerate(children[:-1]):
        after = children[k + 1]
        if element.tag == f"{SVG}line" and element.get("stroke") == "#dde1ea" and after.tag == f"{SVG}text":
            grid.append((float(element.get("y1", 0)), float(after.text or 0)))
    (y0, v0), (y1, v1) = grid[0], grid[-1]
    return lambda y: v0 + (y - y0) * (v1 - v0) / (y1 - y0)


def test_a_ten_household_village_board_chart_tells_every_household_apart_without_colour(village):
    state, _ = village
    drawn = leerdam_drawing.chart([state])
    charts = charts_of(drawn)
    assert len(charts) == 3  # the pledges, then VP and Wealth of each household
    for svg, _, head in charts[1:]:
        lines = series_of(svg)
        assert len(lines) == 10 and head[1:] == list(NAMES)
        # greyscale or any colour vision: what is left is shape and dash, and no two share both
        looks = [(line["shape"], line["dash"]) for line in lines]
        assert len(set(looks)) == 10
        assert len({line["shape"] for line in lines}) == 10, "a marker shape of its own for each of ten"
        for a, b in ((3, 9), (2, 4), (2, 7), (4, 7)):  # households 4 and 10; 3, 5 and 8
            assert looks[a] != looks[b]
        # the legend shows each household's marker and dash beside its name, in the lines' order
        samples = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "pb-legend-sample"]
        samples.sort(key=lambda g: (float(g[0].get("y1", 0)), float(g[0].get("x1", 0))))  # as read: row by row, left to right
        assert len(samples) == 10
        for sample, line in zip(samples, lines):
            dash = sample.find(f"{SVG}line")
            assert dash is not None and dash.get("stroke-dasharray", "") == line["dash"]
            kind, _, outline = marker_of(list(sample)[1])
            assert (kind, outline) == line["shape"]


def test_the_table_beside_each_board_chart_holds_the_numbers_the_chart_draws(village):
    state, _ = village
    view = view_for(state, None)
    rows = ledger_rows(state, None)
    charts = charts_of(leerdam_drawing.chart([state]))
    pledges_svg, pledges_rows, pledges_head = charts[0]
    assert pledges_head == ["Year", "Pledged", "Dyke"]
    assert [row[0] for row in pledges_rows] == [f"Y{y.year}" for y in view.years]
    assert [int(row[1]) for row in pledges_rows] == [y.total for y in view.years]
    # the bars' labels are the table's pledges; the dyke's markers sit at the table's values
    bar_labels = [int(t.text or "") for t in pledges_svg.iter(f"{SVG}text") if t.get("font-weight") == "700" and t.get("text-anchor") == "middle"]
    assert bar_labels == [int(row[1]) for row in pledges_rows]
    at = value_at(pledges_svg)
    (dyke,) = series_of(pledges_svg)
    assert [round(at(y)) for _, y in dyke["centres"]] == [int(row[2]) for row in pledges_rows]
    for (svg, body, _), key in zip(charts[1:], ("vp", "wealth")):
        at = value_at(svg)
        for k, line in enumerate(series_of(svg)):
            column = [row[1 + k] for row in body]
            drawn = [at(y) for _, y in line["centres"]]
            assert [float(v) for v in column if v] == pytest.approx(drawn, abs=0.3)
            ledger = {r["year"]: r[key] for r in rows if r["household"] == NAMES[k]}
            assert [int(v) for v in column if v] == [ledger[y.year] for y in view.years if y.year in ledger]


def test_past_ten_series_shapes_and_dashes_still_tell_every_line_apart():
    looks = [series_look(k) for k in range(50)]
    assert len({(shape, dash) for _, shape, dash in looks}) == 50
    assert len({shape for _, shape, _ in looks[:10]}) == len(SERIES_SHAPES) == 10
    svg, rows, head = charts_of(chart_svg("Twelve", ["A", "B", "C"], lines=[(f"P{k}", [k, k + 1, None]) for k in range(12)], x_name="Round"))[0]
    assert head == ["Round", *(f"P{k}" for k in range(12))]
    assert rows == [["A", *(str(k) for k in range(12))], ["B", *(str(k + 1) for k in range(12))], ["C", *([""] * 12)]]
    assert len({(line["shape"], line["dash"]) for line in series_of(svg)}) == 12


def test_leerdam_plots_mark_each_household_by_shape_and_their_tables_hold_the_figures_numbers(village):
    state, setup = village
    view, rows = view_for(state, None), ledger_rows(state, None)
    figure = village_figure(view, rows, setup.dyke_start)
    numbers = village_numbers(view, rows, setup.dyke_start)
    assert numbers.startswith('<details class="pb-chart-data">')
    tables = [table_cells(t) for t in re.findall(r'<table class="pb-chart-table">.*?</table>', numbers, re.S)]
    assert len(tables) == 3
    dyke_ax, pledge_ax, wealth_ax, vp_ax = figure.axes
    (dyke_body, dyke_head), (wealth_body, wealth_head), (vp_body, vp_head) = tables
    assert dyke_head == ["When", "Pledged", "Dyke Condition"]
    dyke_line = dyke_ax.get_lines()[0]
    assert [int(row[2]) for row in dyke_body] == [int(v) for v in dyke_line.get_ydata()]
    assert [int(row[1]) for row in dyke_body[1:]] == [round(bar.get_height()) for bar in pledge_ax.patches]
    for axis, body, head in ((wealth_ax, wealth_body, wealth_head), (vp_ax, vp_body, vp_head)):
        lines = [line for line in axis.get_lines() if not line.get_label().startswith("_")]
        assert head[1:] == list(NAMES) and len(lines) == 10
        assert len({line.get_marker() for line in lines}) == 10, "a marker per household, whatever its colour"
        assert len({(line.get_marker(), str(line.get_linestyle())) for line in lines}) == 10
        for k, line in enumerate(lines):
            assert [int(row[1 + k]) for row in body if row[1 + k]] == [int(v) for v in line.get_ydata()]


def test_a_printed_chart_marks_each_line_by_shape_and_prints_its_numbers_under_it():
    from reportlab.platypus import Table

    from printables import charts

    values = [[k, k + 1, None] for k in range(10)]
    series = charts.series_of(NAMES, values)
    chart = charts.Chart("VP by household", ["1", "2", "3"], series, y_label="VP · year")
    # without colour (a grey printout): a marker and a dash, and no two lines share both
    looks = {(list(charts.MARKERS)[k % len(charts.MARKERS)], s.dashed) for k, s in enumerate(series)}
    assert len(looks) == 10

    def flat(part) -> list:
        inner = getattr(part, "_content", None)
        return [x for p in inner for x in flat(p)] if inner is not None else [part]

    kept = flat(charts.keep(chart))
    assert kept[0] is chart, "the chart, then its numbers"
    (table,) = [p for p in kept if isinstance(p, Table)]
    text = [[c.getPlainText() if hasattr(c, "getPlainText") else str(c) for c in row] for row in table._cellvalues]
    assert text[0] == ["year", "1", "2", "3"]
    assert [row[1:] for row in text[1:]] == [[str(k), str(k + 1), ""] for k in range(10)]
    assert text[1][0] == "Anneliese" and text[7][0] == "Eddie"  # (other scripts are set in fonts of their own)
    # many steps: one table after another, none wider than a page's frame
    wide = flat(charts.keep(charts.Chart("Long", [str(k) for k in range(30)], series[:2])))
    assert len([p for p in wide if isinstance(p, Table)]) == 3


def test_the_balance_labs_comparison_marks_a_change_within_noise_by_shape_not_only_grey():
    from types import SimpleNamespace

    from lab.plots import comparison_figures
    from widgets.common import plot_context

    rows = [
        {"measure": "a clear change", "a": 10, "b": 14, "difference": 4, "low": 3, "high": 5, "noise": False},
        {"measure": "within noise", "a": 10, "b": 10.5, "difference": 0.5, "low": -1, "high": 2, "noise": True},
    ]
    with plot_context():
        (figure,) = comparison_figures(SimpleNamespace(table=rows, extras={}))
    faces = [line.get_markerfacecolor() for line in figure.axes[0].get_lines() if line.get_marker() == "o"]
    assert len(faces) == 2 and faces[1] == "white" and faces[0] != "white"


def test_an_anonymous_villages_chart_tables_give_away_no_households_numbers():
    """Two villages whose households pledged differently, the same to the public until the end:
    their charts' tables (the board's and the plots') are the same, and name no household."""
    from rules import leerdam as ld
    from tests.support.anonymous_village import NAMES as ANONYMOUS
    from tests.support.anonymous_village import world

    a, b = world(0), world(1)
    seen = 0
    for sa, sb in list(zip((s for s in a.states if not s.over), (s for s in b.states if not s.over)))[::25]:
        tables = []
        for state in (sa, sb):
            view, rows = ld.view_for(state, None), ld.ledger_rows(state, None)
            drawn = leerdam_drawing.chart([state]) + (village_numbers(view, rows, state.setup.dyke_start) if view.years else "")
            tables.append(re.findall(r'<table class="pb-chart-table">.*?</table>', drawn, re.S))
        assert tables[0] == tables[1]
        assert not any(name in table for table in tables[0] for name in ANONYMOUS[:5])
        seen += len(tables[0])
    assert seen > 10, "charts and their tables were drawn"
