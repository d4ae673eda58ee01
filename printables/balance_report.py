"""The balance lab's printable report: the findings, the numbers and the charts of a run or
of a comparison of two setups (`lab.Run` or `lab.Comparison`), as a PDF."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Image, KeepTogether

from rules import GAMES

from .common import Section, build_document, frame_size, heading, para, ruled_table, spacer

__all__ = ["build_pdf", "build_story"]

FIGURE_DPI = 150
#: facts of a run's summary that are lists or tables of their own, left out of the facts table.
SKIP = {"game", "bots", "variant", "dyke_by_year", "check_sweep", "sweep_findings", "findings", "damage_boxes_by_round"}


def _title(slug: str) -> str:
    return str(GAMES[slug].title)


def _figure(figure: Any, width: float) -> Image:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=FIGURE_DPI)
    w, h = figure.get_size_inches()
    buffer.seek(0)
    return Image(buffer, width=width, height=width * h / w)


def _value(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, Mapping):
        if {"mean", "min", "max"} <= set(value):
            extra = f", sd {value['sd']:g}" if value.get("sd") is not None else ""
            return f"mean {_value(value['mean'])} (min {_value(value['min'])}, max {_value(value['max'])}{extra})"
        return ", ".join(f"{k}: {_value(v)}" for k, v in value.items() if not isinstance(v, (Mapping, list)))
    return str(value)


def _findings(findings: list[Any], empty: str) -> list[Flowable]:
    if not findings:
        return [para(empty, "small")]
    return [para(f"• {f.text}", "bullet") for f in findings]


def _facts(summary: Mapping[str, Any], width: float) -> Flowable:
    rows = [[k.replace("_", " ").capitalize(), _value(v)] for k, v in summary.items() if k not in SKIP]
    return ruled_table(["Measure", "Value"], rows, [0.32 * width, 0.68 * width], row_height=5 * mm, zebra=True)


def _run_story(run: Any, width: float) -> list[Flowable]:
    from lab.core import Finding

    sweep = [Finding(f["key"], f["text"], f["numbers"]) for f in run.extras.get("sweep_findings", [])]
    story: list[Flowable] = [heading("What the numbers show", 1)]
    story += _findings([*run.findings, *sweep], "No finding holds in this run.")
    charts = [_figure(fig, width) for fig in run.figures()]
    story += [KeepTogether([heading("Charts", 2), charts[0]]), *charts[1:]]
    story += [heading("The numbers", 2), _facts(run.as_dict(), width)]
    return story


def _comparison_story(comparison: Any, width: float) -> list[Flowable]:
    from lab.findings import MIN_GAMES, verdict
    from lab.plots import comparison_figures

    story: list[Flowable] = [heading("What changed from A to B", 1)]
    story += _findings(comparison.findings, "")
    games = len(comparison.a.rows)
    header = ["Measure", "A", "B", "B − A", "95% interval", "Within noise"]
    words = {"within noise": "yes", "different": "no"}  # below MIN_GAMES: "too few games", no verdict
    rows = [
        [r["measure"], _value(r["a"]), _value(r["b"]), _value(r["difference"]), f"{_value(r['low'])} to {_value(r['high'])}", words.get(v := verdict(r, games), v)]
        for r in comparison.table
    ]
    widths = [w * width for w in (0.34, 0.12, 0.12, 0.12, 0.18, 0.12)]
    story += [heading("Side by side", 2), ruled_table(header, rows, widths, row_height=5 * mm, zebra=True)]
    story.append(
        para(
            "Both setups played the same seeds (game i of A and of B share its dice), so each game's difference is taken first and the "
            f"interval is a paired 95% t interval. A measure is out of the noise only when its change holds over all {len(comparison.table)} "
            "measures together (Holm's method, 5% family-wise)"
            + (f"; with fewer than {MIN_GAMES} games a setup the lab gives no verdict." if games < MIN_GAMES else "."),
            "small",
        )
    )
    charts = [_figure(fig, width) for fig in comparison_figures(comparison)]
    story += [KeepTogether([heading("Charts", 2), charts[0]]), *charts[1:]]
    for name, run in (("A", comparison.a), ("B", comparison.b)):
        story.append(KeepTogether([heading(f"Setup {name}: {run.spec.text}", 2), *_findings(run.findings, "No finding holds for this setup.")]))
    return story


def build_story(result: Any, page: str = "a4") -> list[Flowable]:
    """The report's flowables for a `lab.Run` or a `lab.Comparison`."""
    width, _ = frame_size(page)
    game = result.game
    compared = hasattr(result, "table")
    games = len(result.a.rows) if compared else len(result.rows)
    seed = result.a.seed if compared else result.seed
    story: list[Flowable] = [Section(_title(game), "Balance report"), heading(f"{_title(game)}: balance report", 0)]
    if compared:
        story.append(para(f"A: {result.a.spec.text}", "subtitle"))
        story.append(para(f"B: {result.b.spec.text}", "subtitle"))
    else:
        story.append(para(result.spec.text, "subtitle"))
    story.append(para(f"{games:,} games per setup, seed {seed}. The same seed gives the same numbers: playbook {'compare' if compared else 'simulate'} {game} --games {games} --seed {seed}.", "small"))
    story.append(spacer(3 * mm))
    story += _comparison_story(result, width) if compared else _run_story(result, width)
    return story


def build_pdf(result: Any, page: str = "a4") -> bytes:
    """The report as PDF bytes."""
    return build_document(build_story(result, page), page=page, title=f"{_title(result.game)}: balance report", subject="balance lab")
