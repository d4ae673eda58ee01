"""The lab's charts as matplotlib `Figure`s (no pyplot: no global state, any backend), shared
by the balance lab dashboard and the printed report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["comparison_figures", "run_figures"]

BLUE, RED, PURPLE, GREY = "#1d5c7a", "#9b1c1c", "#7a5af5", "#8a8a8a"
A_COLOUR, B_COLOUR = "#1d5c7a", "#c2410c"


def _figure(width: float = 10, height: float = 3.6, cols: int = 2) -> tuple[Any, Any]:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    return figure, figure.subplots(1, cols, squeeze=False)[0]


def _percent(axis: Any) -> None:
    axis.yaxis.set_major_formatter(lambda value, _: f"{value:.0%}")


def _histogram(axis: Any, histogram: Mapping[str, int], label: str, colour: str = PURPLE) -> None:
    axis.bar([int(k) for k in histogram], list(histogram.values()), color=colour)
    axis.set_xlabel(label)
    axis.set_ylabel("games")
    axis.xaxis.get_major_locator().set_params(integer=True)


def _win_shares(axis: Any, summary: Mapping[str, Any]) -> None:
    shares = next((v for k, v in summary.items() if k.startswith("win_share_per") and isinstance(v, dict)), {})
    seats = len(summary.get("bots", ())) or 1
    kinds = list(shares)
    axis.bar(kinds, [shares[k] or 0 for k in kinds], color=BLUE)
    axis.axhline(1 / seats, color=RED, linestyle="--", label=f"fair share (1 in {seats})")
    axis.legend(loc="upper right")
    axis.set_title("Win share per seat, by strategy")
    axis.set_ylim(0, max([*(shares[k] or 0 for k in kinds), 1 / seats]) * 1.25)
    _percent(axis)


def _dyke(axis: Any, years: Sequence[Mapping[str, Any]], label: str, colour: str) -> None:
    xs = [y["year"] for y in years]
    axis.plot(xs, [y["mean_dyke"] for y in years], marker="o", color=colour, label=f"{label}: mean dyke")
    axis.plot(xs, [1 + 5 * y["share_at_1"] for y in years], linestyle=":", color=colour, label=f"{label}: share at 1 (right scale)")


def _dyke_axes(axis: Any) -> None:
    axis.set_ylim(0.8, 6.2)
    axis.set_xlabel("year")
    axis.set_ylabel("Dyke Condition")
    right = axis.secondary_yaxis("right", functions=(lambda d: (d - 1) / 5, lambda s: 1 + 5 * s))
    right.yaxis.set_major_formatter(lambda value, _: f"{value:.0%}")
    axis.xaxis.get_major_locator().set_params(integer=True)


def run_figures(result: Any) -> list[Any]:
    """The charts of one run (a `lab.Run`)."""
    s = result.summary
    game = result.game
    figure, (left, right) = _figure()
    if game == "danger-world":
        rounds = s["damage_boxes_by_round"]
        left.plot(range(1, len(rounds) + 1), rounds, marker="o", color=RED)
        left.set_title("Damage boxes filled over the encounter (party total)")
        left.set_xlabel("after round")
        left.xaxis.get_major_locator().set_params(integer=True)
        outcomes = s["outcomes"]
        right.bar(list(outcomes), [v or 0 for v in outcomes.values()], color=[BLUE, PURPLE, GREY])
        right.set_title("Checks in the encounters")
        _percent(right)
        figures = [figure]
        sweep = result.extras.get("check_sweep", [])
        if sweep:
            extra, axes = _figure(10, 3.6, 2)
            rerolls = max(c["rerolls"] for c in sweep)
            for axis, key, title in ((axes[0], "success", "Success"), (axes[1], "partial", "Partial success")):
                for difficulty in sorted({c["difficulty"] for c in sweep}):
                    cells = [c for c in sweep if c["difficulty"] == difficulty and c["penalty"] == 0 and c["rerolls"] == rerolls]
                    axis.plot([c["dice"] for c in cells], [c[key] for c in cells], marker=".", label=f"difficulty {difficulty}")
                axis.set_title(f"{title} by pool ({rerolls} re-rolls, no penalty dice)")
                axis.set_xlabel("pool dice")
                _percent(axis)
            axes[0].legend(fontsize=7)
            figures.append(extra)
        return figures
    _win_shares(left, s)
    if game == "leerdam":
        _dyke(right, s["dyke_by_year"], "village", BLUE)
        _dyke_axes(right)
        right.set_title("The dyke year by year")
        right.legend(fontsize=7, loc="upper right")
        extra, (a, b) = _figure()
        _histogram(a, s["years_played"]["histogram"], "years played")
        a.set_title("Game length")
        _histogram(b, s["year_dyke_fell_to_1"]["histogram"] or {"0": 0}, "year the dyke first stood at 1", RED)
        b.set_title("When the dyke fell to 1")
        return [figure, extra]
    if game == "new-rule":
        _histogram(right, s["rounds_played"]["histogram"], "rounds played")
        right.set_title("Game length")
        return [figure]
    by_pool = s["success_rate_by_pool"]
    right.bar([int(p) for p in by_pool], [v["success_rate"] for v in by_pool.values()], color=PURPLE)
    right.set_title("Meme actions: success by pool size")
    right.set_xlabel("pool")
    _percent(right)
    return [figure]


def comparison_figures(comparison: Any) -> list[Any]:
    """The differences B - A with their intervals; for Leerdam, the two villages side by side."""
    rows = [r for r in comparison.table if r["difference"] is not None and r["a"]]
    figure, (axis,) = _figure(10, 0.28 * len(rows) + 1.0, 1)
    ys = list(range(len(rows)))[::-1]
    for y, r in zip(ys, rows):
        scale = abs(r["a"])
        low, high = (r["low"] if r["low"] is not None else r["difference"]), (r["high"] if r["high"] is not None else r["difference"])
        colour = GREY if r["noise"] or r.get("identical") else (B_COLOUR if r["difference"] > 0 else A_COLOUR)
        axis.errorbar(r["difference"] / scale, y, xerr=[[(r["difference"] - low) / scale], [(high - r["difference"]) / scale]], fmt="o", color=colour, capsize=3)
    axis.axvline(0, color="#333333", linewidth=0.8)
    axis.set_yticks(ys, [r["measure"] for r in rows])
    axis.xaxis.set_major_formatter(lambda value, _: f"{value:+.0%}")
    axis.set_title("B against A: difference as a share of A, with its 95% interval (grey: within noise)")
    figures = [figure]
    villages = comparison.extras.get("villages")
    if villages:
        extra, (left, right) = _figure()
        for axis, key, colour, label in ((left, "a", A_COLOUR, "A"), (right, "b", B_COLOUR, "B")):
            _dyke(axis, villages[key], label, colour)
            _dyke_axes(axis)
            axis.set_title(f"Village {label}: the dyke year by year")
            axis.legend(fontsize=7, loc="upper right")
        figures.append(extra)
    return figures
