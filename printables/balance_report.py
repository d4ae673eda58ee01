"""The balance lab's printable report: the findings, the numbers and the charts of a run or
of a comparison of two setups (`lab.Run` or `lab.Comparison`), as a PDF."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Image, KeepTogether

import i18n
from i18n import _, _n, render
from lab.core import label_of
from rules import GAMES

from .common import Section, build_document, frame_size, heading, para, ruled_table, spacer

__all__ = ["build_pdf", "build_story"]

FIGURE_DPI = 150
#: facts of a run's summary that are lists or tables of their own, left out of the facts table.
SKIP = {"game", "bots", "variant", "dyke_by_year", "check_sweep", "sweep_findings", "findings", "damage_boxes_by_round"}


def _title(slug: str) -> str:
    return render(GAMES[slug].title)


def _figure(figure: Any, width: float) -> Image:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=FIGURE_DPI)
    w, h = figure.get_size_inches()
    buffer.seek(0)
    return Image(buffer, width=width, height=width * h / w)


def _value(value: Any, labels: Mapping[str, Any] | None = None) -> str:
    """A value for the numbers' table, in the reader's language (4 significant digits)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return i18n.number(float(f"{value:.4g}"))
    if isinstance(value, int):
        return i18n.number(value)
    if isinstance(value, Mapping):
        if {"mean", "min", "max"} <= set(value):
            said = dict(mean=_value(value["mean"]), low=_value(value["min"]), high=_value(value["max"]))
            if value.get("sd") is not None:
                # TRANSLATORS: a measure over the games: its mean, least, most and standard deviation (sd).
                return _("mean {mean} (min {low}, max {high}, sd {sd})", **said, sd=i18n.number(float(f"{value['sd']:g}")))
            # TRANSLATORS: a measure over the games: its mean, least and most.
            return _("mean {mean} (min {low}, max {high})", **said)
        # TRANSLATORS: one entry of a small table in a cell: "fair: 0.4".
        return ", ".join(_("{key}: {value}", key=render(label_of(str(k), labels, readable=False)), value=_value(v)) for k, v in value.items() if not isinstance(v, (Mapping, list)))
    return str(value)


def _findings(findings: list[Any], empty: str) -> list[Flowable]:
    if not findings:
        return [para(empty, "small")]
    return [para(f"• {f.text}", "bullet") for f in findings]


def _labels(game: str) -> Mapping[str, Any]:
    """The words of `game`'s numbers (its lab's `labels`)."""
    import lab

    return lab.GAMES[game].labels if game in lab.GAMES else {}


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _facts(summary: Mapping[str, Any], width: float) -> Flowable:
    labels = _labels(str(summary.get("game") or ""))
    rows = [[_capital(render(label_of(k, labels))), _value(v, labels)] for k, v in summary.items() if k not in SKIP]
    return ruled_table([_("Measure"), _("Value")], rows, [0.32 * width, 0.68 * width], row_height=5 * mm, zebra=True)


def _run_story(run: Any, width: float) -> list[Flowable]:
    from lab.core import Finding

    sweep = [Finding(f["key"], f["text"], f["numbers"]) for f in run.extras.get("sweep_findings", [])]
    story: list[Flowable] = [heading(_("What the numbers show"), 1)]
    story += _findings([*run.findings, *sweep], _("No finding holds in this run."))
    charts = [_figure(fig, width) for fig in run.figures()]
    # TRANSLATORS: a heading of the balance report.
    story += [KeepTogether([heading(_("Charts"), 2), charts[0]]), *charts[1:]]
    story += [heading(_("The numbers"), 2), _facts(run.as_dict(), width)]
    return story


def _comparison_story(comparison: Any, width: float) -> list[Flowable]:
    from lab.findings import MIN_GAMES, verdict, verdict_word
    from lab.plots import comparison_figures

    story: list[Flowable] = [heading(_("What changed from A to B"), 1)]
    story += _findings(comparison.findings, "")
    games = len(comparison.a.rows)
    header = [_("Measure"), "A", "B", "B − A", _("95% interval"), _("Within noise")]
    # TRANSLATORS: the balance report's "Within noise" column: yes (the difference may be luck) or no.
    words = {"within noise": _("yes"), "different": _("no")}  # below MIN_GAMES: "too few games", no verdict
    rows = [
        [render(label_of(r["measure"], _labels(comparison.game), readable=False)), _value(r["a"]), _value(r["b"]), _value(r["difference"]), _("{low} to {high}", low=_value(r["low"]), high=_value(r["high"])), words.get(v := verdict(r, games)) or verdict_word(v)]
        for r in comparison.table
    ]
    widths = [w * width for w in (0.34, 0.12, 0.12, 0.12, 0.18, 0.12)]
    story += [heading(_("Side by side"), 2), ruled_table(header, rows, widths, row_height=5 * mm, zebra=True)]
    said = dict(measures=len(comparison.table), minimum=MIN_GAMES)
    if games < MIN_GAMES:
        how = _(
            "Both setups played the same seeds (game i of A and of B share its dice), so each game's difference is taken first and the interval is a paired 95% t interval. A measure is out of the noise only when its change holds over all {measures} measures together (Holm's method, 5% family-wise); with fewer than {minimum} games a setup the lab gives no verdict.",
            **said,
        )
    else:
        how = _(
            "Both setups played the same seeds (game i of A and of B share its dice), so each game's difference is taken first and the interval is a paired 95% t interval. A measure is out of the noise only when its change holds over all {measures} measures together (Holm's method, 5% family-wise).",
            **said,
        )
    story.append(para(how, "small"))
    charts = [_figure(fig, width) for fig in comparison_figures(comparison, _labels(comparison.game))]
    story += [KeepTogether([heading(_("Charts"), 2), charts[0]]), *charts[1:]]
    for name, run in (("A", comparison.a), ("B", comparison.b)):
        # TRANSLATORS: a heading of the balance report: "Setup A: bots=fair*7".
        title = _("Setup {name}: {setup}", name=name, setup=run.spec.text)
        story.append(KeepTogether([heading(title, 2), *_findings(run.findings, _("No finding holds for this setup."))]))
    return story


def build_story(result: Any, page: str = "a4") -> list[Flowable]:
    """The report's flowables for a `lab.Run` or a `lab.Comparison`."""
    width, _height = frame_size(page)
    game = result.game
    compared = hasattr(result, "table")
    games = len(result.a.rows) if compared else len(result.rows)
    seed = result.a.seed if compared else result.seed
    # TRANSLATORS: the balance report's running head and title: "Leerdam: balance report".
    story: list[Flowable] = [Section(_title(game), _("Balance report")), heading(_("{game}: balance report", game=_title(game)), 0)]
    if compared:
        story.append(para(f"A: {result.a.spec.text}", "subtitle"))
        story.append(para(f"B: {result.b.spec.text}", "subtitle"))
    else:
        story.append(para(result.spec.text, "subtitle"))
    command = f"playbook {'compare' if compared else 'simulate'} {game} --games {games} --seed {seed}"
    said = _n(
        "{n} game per setup, seed {seed}. The same seed gives the same numbers: {command}.",
        "{n} games per setup, seed {seed}. The same seed gives the same numbers: {command}.",
        games, seed=str(seed), command=command,
    )
    story.append(para(said, "small"))
    story.append(spacer(3 * mm))
    story += _comparison_story(result, width) if compared else _run_story(result, width)
    return story


def build_pdf(result: Any, page: str = "a4") -> bytes:
    """The report as PDF bytes."""
    return build_document(build_story(result, page), page=page, title=_("{game}: balance report", game=_title(result.game)), subject=_("balance lab"))
