"""The lab's charts as matplotlib `Figure`s (no pyplot: no global state, any backend), shared
by the balance lab dashboard and the printed report.

A run's charts are its game's own (`LabGame.figures`, drawn with the parts here: `Run.figures`);
a comparison's are drawn here alike for every game. matplotlib is imported only to draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import i18n
from i18n import _

from .core import label_of

__all__ = ["BLUE", "GREY", "PURPLE", "RED", "comparison_figures", "dyke_axes", "dyke_line", "histogram", "new_figure", "percent_axis", "win_share_bars"]

BLUE, RED, PURPLE, GREY = "#1d5c7a", "#9b1c1c", "#7a5af5", "#8a8a8a"
A_COLOUR, B_COLOUR = "#1d5c7a", "#c2410c"


def new_figure(width: float = 10, height: float = 3.6, cols: int = 2) -> tuple[Any, Any]:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    return figure, figure.subplots(1, cols, squeeze=False)[0]


def percent_axis(axis: Any) -> None:
    axis.yaxis.set_major_formatter(lambda value, _position: i18n.percent(value))


def histogram(axis: Any, counts: Mapping[str, int], label: str, colour: str = PURPLE) -> None:
    axis.bar([int(k) for k in counts], list(counts.values()), color=colour)
    axis.set_xlabel(label)
    # TRANSLATORS: a chart's axis: how many games.
    axis.set_ylabel(_("games"))
    axis.xaxis.get_major_locator().set_params(integer=True)


def win_share_bars(axis: Any, summary: Mapping[str, Any]) -> None:
    shares = next((v for k, v in summary.items() if k.startswith("win_share_per") and isinstance(v, dict)), {})
    seats = len(summary.get("bots", ())) or 1
    kinds = list(shares)
    axis.bar(kinds, [shares[k] or 0 for k in kinds], color=BLUE)
    axis.axhline(1 / seats, color=RED, linestyle="--", label=_("fair share (1 in {seats})", seats=seats))
    axis.legend(loc="upper right")
    axis.set_title(_("Win share per seat, by strategy"))
    axis.set_ylim(0, max([*(shares[k] or 0 for k in kinds), 1 / seats]) * 1.25)
    percent_axis(axis)


def dyke_line(axis: Any, years: Sequence[Mapping[str, Any]], label: str, colour: str) -> None:
    xs = [y["year"] for y in years]
    axis.plot(xs, [y["mean_dyke"] for y in years], marker="o", color=colour, label=_("{setup}: mean dyke", setup=label))
    axis.plot(xs, [1 + 5 * y["share_at_1"] for y in years], linestyle=":", marker="s", markerfacecolor="white", color=colour, label=_("{setup}: share at 1 (right scale)", setup=label))


def dyke_axes(axis: Any) -> None:
    axis.set_ylim(0.8, 6.2)
    # TRANSLATORS: a chart's axis: Leerdam's years.
    axis.set_xlabel(_("year"))
    axis.set_ylabel(_("Dyke Condition"))
    right = axis.secondary_yaxis("right", functions=(lambda d: (d - 1) / 5, lambda s: 1 + 5 * s))
    right.yaxis.set_major_formatter(lambda value, _position: i18n.percent(value))
    axis.xaxis.get_major_locator().set_params(integer=True)


def comparison_figures(comparison: Any, labels: Mapping[str, Any] | None = None) -> list[Any]:
    """The differences B - A with their intervals, each measure said as its game's lab says it
    (`labels`); for Leerdam, the two villages side by side."""
    rows = [r for r in comparison.table if r["difference"] is not None and r["a"]]
    figure, (axis,) = new_figure(10, 0.28 * len(rows) + 1.0, 1)
    ys = list(range(len(rows)))[::-1]
    for y, r in zip(ys, rows):
        scale = abs(r["a"])
        low, high = (r["low"] if r["low"] is not None else r["difference"]), (r["high"] if r["high"] is not None else r["difference"])
        unclear = r["noise"] or r.get("identical")
        colour = GREY if unclear else (B_COLOUR if r["difference"] > 0 else A_COLOUR)
        # Within noise: a hollow circle as well as grey, so colour is not the only sign.
        axis.errorbar(
            r["difference"] / scale, y, xerr=[[(r["difference"] - low) / scale], [(high - r["difference"]) / scale]],
            fmt="o", color=colour, capsize=3, markerfacecolor="white" if unclear else colour, markersize=7,
        )
    axis.axvline(0, color="#333333", linewidth=0.8)
    axis.set_yticks(ys, [i18n.render(label_of(r["measure"], labels, readable=False)) for r in rows])
    axis.xaxis.set_major_formatter(lambda value, _position: i18n.percent(value) if value <= 0 else "+" + i18n.percent(value))
    axis.set_title(_("B against A: difference as a share of A, with its 95% interval (hollow, grey: within noise)"))
    figures = [figure]
    villages = comparison.extras.get("villages")
    if villages:
        extra, (left, right) = new_figure()
        for axis, key, colour, label in ((left, "a", A_COLOUR, "A"), (right, "b", B_COLOUR, "B")):
            dyke_line(axis, villages[key], label, colour)
            dyke_axes(axis)
            axis.set_title(_("Village {setup}: the dyke year by year", setup=label))
            axis.legend(fontsize=7, loc="upper right")
        figures.append(extra)
    return figures
